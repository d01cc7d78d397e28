import PluginHost
import TestSupport
import Testing

/// Every loader failure produces its own case (the transition service gives each its CONVENTIONS code) and a
/// message naming the cause, and leaves the registry working. The fixtures are loaded from the build folder with
/// allowAnyPath, as a host started with --allow-any-plugin-path would.
@Suite struct LoaderErrorTests {
  let registry = makeRegistry(folder: BuildProducts.folder)

  @Test func goodPluginLoadsAndIsDescribed() throws {
    let loaded = try registry.load(path: BuildProducts.fixturePlugin("Minimal"))
    // Expected values are those written in Tests/Fixtures/Minimal/minimal.c.
    #expect(loaded.info.id == "com.example.test.minimal")
    #expect(loaded.info.name == "Minimal test plugin")
    #expect(loaded.info.version == "1.0.0")
    #expect(loaded.info.vendor == "transition-host tests")
    #expect(loaded.info.abi == ABIVersion(major: 1, minor: 3))
    #expect(loaded.generation == 1)
    #expect(loaded.path == BuildProducts.fixturePlugin("Minimal"))
    #expect(loaded.info.animators.map(\.id) == ["fade", "slide"])
    let slide = loaded.info.animators[1]
    #expect(slide.operations == ["present", "dismiss"])
    #expect(slide.supports(operation: "dismiss") && !slide.supports(operation: "push"))
    #expect(slide.description == nil)
    #expect(slide.params.isEmpty)

    let fade = loaded.info.animators[0]
    #expect(fade.operations == nil)
    #expect(fade.supports(operation: "a-custom-operation"))
    #expect(
      fade.params.map(\.name) == ["duration", "dims", "direction", "tint", "label", "origin", "hole", "overshoot"])
    #expect(fade.params.map(\.kind) == [.number, .bool, .enum, .color, .string, .point, .rect, .number])
    let duration = fade.params[0]
    #expect(duration.defaultValue == .number(0.4))
    #expect(duration.minimum == 0 && duration.maximum == 10)
    #expect(duration.doc == "Length of the transition in seconds.")
    #expect(fade.params[1].defaultValue == .bool(true))
    #expect(fade.params[2].defaultValue == .string("down"))
    #expect(fade.params[2].options == ["up", "down", "left", "right"])
    #expect(fade.params[3].defaultValue == .color(r: 0, g: 0, b: 0, a: 0.4))
    #expect(fade.params[4].defaultValue == .string(""))
    #expect(fade.params[5].defaultValue == .point(x: 10, y: -20))
    #expect(fade.params[6].defaultValue == .rect(x: 1, y: 2, width: 30, height: 40))
    #expect(fade.params[7].minimum == -Double.infinity && fade.params[7].maximum == 0)
    #expect(fade.params[7].defaultValue == .number(-3))
  }

  @Test func fileNotFoundIs1001() {
    let path = BuildProducts.folder + "/libTestPluginDoesNotExist.so"
    let error = loadError { () throws(PluginLoadError) in try registry.load(path: path) }
    #expect(error == .fileNotFound(path: path))
    #expect(error?.message == "plugin file not found: \(path)")
  }

  @Test func textFileIs1002WithDlerrorText() {
    let folder = TemporaryFolder()
    let path = folder.path + "/libNotAPlugin.so"
    writeFile(path, Array(String(repeating: "this is a text file, not an ELF shared object\n", count: 4).utf8))
    let registry = makeRegistry(folder: folder.path)
    let error = loadError { () throws(PluginLoadError) in try registry.load(path: path) }
    guard case .notLoadable(let errorPath, let reason)? = error else {
      Issue.record("expected 1002, got \(String(describing: error))")
      return
    }
    #expect(errorPath == path)
    // glibc's dlerror text for a file without an ELF header, about the user's path (not the private copy).
    #expect(reason.contains("invalid ELF header"))
    #expect(reason.contains(path))
    #expect(!reason.contains("transition-host-plugin-"))
  }

  @Test func directoryIs1002() {
    let folder = TemporaryFolder()
    let inner = folder.folder("libLooksLikeAPlugin.so")
    let registry = makeRegistry(folder: folder.path, allowAnyPath: true)
    let error = loadError { () throws(PluginLoadError) in try registry.load(path: inner) }
    // A directory is not a regular file: "not found" as a plugin file.
    #expect(error == .fileNotFound(path: inner))
  }

  @Test func missingEntrySymbolIs1003() {
    let path = BuildProducts.fixturePlugin("NoEntry")
    let error = loadError { () throws(PluginLoadError) in try registry.load(path: path) }
    guard case .entrySymbolMissing(let errorPath, let reason)? = error else {
      Issue.record("expected 1003, got \(String(describing: error))")
      return
    }
    #expect(errorPath == path)
    #expect(reason.contains("undefined symbol: th_plugin_entry"))
    #expect(error?.message == "\(path) does not export the entry function th_plugin_entry")
  }

  @Test func abiMajor99Is1004() {
    let path = BuildProducts.fixturePlugin("ABI99")
    let error = loadError { () throws(PluginLoadError) in try registry.load(path: path) }
    #expect(
      error
        == .abiIncompatible(
          path: path, pluginABI: ABIVersion(major: 99, minor: ABIVersion.host.minor), hostABI: .host))
    #expect(
      error?.message.contains(
        "built for plugin ABI 99.\(ABIVersion.host.minor); this host speaks ABI \(ABIVersion.host)")
        == true)
  }

  @Test func entryReturningNullIs1004() {
    let path = BuildProducts.fixturePlugin("Declines")
    let error = loadError { () throws(PluginLoadError) in try registry.load(path: path) }
    #expect(error == .abiIncompatible(path: path, pluginABI: nil, hostABI: ABIVersion(major: 1, minor: 3)))
    #expect(error?.message.contains("th_plugin_entry returned NULL") == true)
  }

  @Test(arguments: [
    ("InvalidDuplicateAnimator", "animators[1].id \"probe\" is used twice"),
    ("InvalidPluginID", "id \"my plugin\" is not a reverse-DNS id"),
    ("InvalidParamDefault", "animators[0].params[0] (amount): default 1.5 is outside [0.0, 1.0]"),
    ("InvalidStructSize", "struct_size 40 is smaller than ABI 1.0's th_plugin_descriptor (88)"),
    ("InvalidMissingFunction", "animators[0].animate_transition is NULL"),
  ])
  func invalidDescriptorIs1005(fixture: String, reason: String) {
    let path = BuildProducts.fixturePlugin(fixture)
    let error = loadError { () throws(PluginLoadError) in try registry.load(path: path) }
    guard case .invalidDescriptor(let errorPath, let actual)? = error else {
      Issue.record("expected 1005, got \(String(describing: error))")
      return
    }
    #expect(errorPath == path)
    #expect(actual.hasPrefix(reason), "reason: \(actual)")
    #expect(registry.plugins.isEmpty)
  }

  @Test func initFailureIs1006AndSkipsDeinit() {
    let log = LogCapture()
    let registry = makeRegistry(folder: BuildProducts.folder, log: log)
    let path = BuildProducts.fixturePlugin("InitFails")
    let error = loadError { () throws(PluginLoadError) in try registry.load(path: path) }
    #expect(error == .initFailed(path: path, pluginID: "com.example.test.initfails"))
    // init ran (and logged under the plugin's id); deinit must not run after a failed init.
    #expect(log.lines == ["com.example.test.initfails: init init-fails"])
    #expect(registry.plugins.isEmpty)
  }

  @Test func pathOutsideTheFoldersIs1007() {
    let folder = TemporaryFolder()
    let outside = TemporaryFolder()
    let path = outside.path + "/libTestPluginMinimal.so"
    copyFile(BuildProducts.fixturePlugin("Minimal"), to: path)
    let registry = makeRegistry(folder: folder.path)
    let error = loadError { () throws(PluginLoadError) in try registry.load(path: path) }
    #expect(error == .pathNotAllowed(path: path, realPath: nil, folders: [folder.path]))
    #expect(error?.message.contains("--allow-any-plugin-path") == true)

    let permissive = makeRegistry(folder: folder.path, allowAnyPath: true)
    #expect(throws: Never.self) { try permissive.load(path: path) }
  }

  @Test func unloadWhileRunningIs1008() throws {
    let log = LogCapture()
    let registry = makeRegistry(folder: BuildProducts.folder, log: log)
    try registry.load(path: BuildProducts.fixturePlugin("Minimal"))
    let lease = try registry.lease(animatorID: "fade")
    let error = loadError { () throws(PluginLoadError) in try registry.unload(pluginID: "com.example.test.minimal") }
    #expect(error == .busy(pluginID: "com.example.test.minimal", runningTransitions: 1))
    #expect(error?.message == "plugin com.example.test.minimal is busy: 1 transition of it still running")
    #expect(registry.plugins.count == 1)

    lease.end()
    try registry.unload(pluginID: "com.example.test.minimal")
    #expect(registry.plugins.isEmpty)
    #expect(lease.generation.isShutDown)
    #expect(log.lines == ["com.example.test.minimal: minimal init #1", "com.example.test.minimal: minimal deinit"])
  }

  @Test func unknownPluginIdIsInvalidParams() {
    let error = loadError { () throws(PluginLoadError) in try registry.unload(pluginID: "com.example.none") }
    #expect(error == .unknownPlugin(pluginID: "com.example.none"))
    let reloadError = loadError { () throws(PluginLoadError) in try registry.reload(pluginID: "com.example.none") }
    #expect(reloadError == .unknownPlugin(pluginID: "com.example.none"))
  }

  @Test func loadingTheSameIdTwiceIs1005() throws {
    try registry.load(path: BuildProducts.fixturePlugin("ReloadA"))
    let error = loadError { () throws(PluginLoadError) in
      try registry.load(path: BuildProducts.fixturePlugin("ReloadB"))
    }
    guard case .invalidDescriptor(_, let reason)? = error else {
      Issue.record("expected 1005, got \(String(describing: error))")
      return
    }
    #expect(reason.contains("com.example.test.reload is already loaded from \(BuildProducts.fixturePlugin("ReloadA"))"))
    #expect(registry.plugins.map(\.info.version) == ["1.0.0-A"])
  }

  @Test func failuresLeaveTheRegistryWorking() throws {
    for fixture in ["NoEntry", "ABI99", "Declines", "InitFails", "InvalidStructSize", "InvalidDuplicateAnimator"] {
      #expect(throws: PluginLoadError.self) { try registry.load(path: BuildProducts.fixturePlugin(fixture)) }
    }
    try registry.load(path: BuildProducts.fixturePlugin("Minimal"))
    #expect(registry.plugins.map(\.info.id) == ["com.example.test.minimal"])
  }
}
