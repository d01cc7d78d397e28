import CTransitionABI
import PluginHost
import TestSupport
import Testing

@Suite struct RegistryTests {
  @Test func animatorIdsResolveFullyQualifiedOrWhenUnique() throws {
    let registry = makeRegistry(folder: BuildProducts.folder)
    try registry.load(path: BuildProducts.fixturePlugin("Minimal"))  // fade, slide
    try registry.load(path: "libTestPluginReloadA.so")  // probe, slide (a bare name is found in the folders)

    #expect(try registry.resolve(animatorID: "fade").qualifiedID == "com.example.test.minimal/fade")
    #expect(try registry.resolve(animatorID: "probe").qualifiedID == "com.example.test.reload/probe")
    #expect(try registry.resolve(animatorID: "com.example.test.reload/slide").info.name == "Second probe")
    #expect(try registry.resolve(animatorID: "com.example.test.minimal/slide").info.name == "Slide")

    #expect(
      throws: AnimatorLookupError.ambiguous(
        id: "slide",
        candidates: [
          "com.example.test.minimal/slide", "com.example.test.reload/slide",
        ])
    ) { try registry.resolve(animatorID: "slide") }
    #expect(throws: AnimatorLookupError.unknown(id: "nope")) { try registry.resolve(animatorID: "nope") }
    #expect(throws: AnimatorLookupError.unknown(id: "com.example.test.minimal/probe")) {
      try registry.resolve(animatorID: "com.example.test.minimal/probe")
    }
    #expect(throws: AnimatorLookupError.unknown(id: "com.example.none/fade")) {
      try registry.resolve(animatorID: "com.example.none/fade")
    }
    #expect(
      registry.animators.map(\.qualifiedID) == [
        "com.example.test.minimal/fade", "com.example.test.minimal/slide",
        "com.example.test.reload/probe", "com.example.test.reload/slide",
      ])
  }

  @Test func instancesRunPluginCode() throws {
    let registry = makeRegistry(folder: BuildProducts.folder)
    try registry.load(path: BuildProducts.fixturePlugin("Minimal"))
    let lease = try registry.lease(animatorID: "com.example.test.minimal/fade")
    let instance = try #require(lease.makeInstance())
    // minimal.c: 0.4 s when there is no context to read the "duration" parameter from.
    #expect(instance.transitionDuration() == 0.4)
    #expect(lease.hostInfo.pointee.abi_major == TH_ABI_VERSION_MAJOR)
    #expect(String(cString: lease.hostInfo.pointee.plugin_path) == BuildProducts.fixturePlugin("Minimal"))
    #expect(String(cString: lease.hostInfo.pointee.host_name) == "transition-host")
  }

  @Test func pluginsLogUnderTheirIdAndUnknownContextsAreTolerated() throws {
    let log = LogCapture()
    let registry = makeRegistry(folder: BuildProducts.folder, log: log)
    try registry.load(path: BuildProducts.fixturePlugin("Minimal"))
    let lease = try registry.lease(animatorID: "fade")
    let api = try #require(lease.hostInfo.pointee.api)
    // The whole table: two 32-bit header words and every function (LP64), none missing.
    #expect(Int(api.pointee.struct_size) == MemoryLayout<th_host_api>.size)
    let count = (MemoryLayout<th_host_api>.size - 8) / 8
    #expect(count >= 54 + 3)  // ABI 1.0's 54, 1.2's presentation and view content
    let functions = UnsafeRawPointer(api).advanced(by: 8).assumingMemoryBound(to: UnsafeRawPointer?.self)
    #expect((0..<count).allSatisfy { functions[$0] != nil })
    // The host extensions: the custom driver and (1.2) display links; unknown ids answer NULL.
    #expect(api.pointee.get_extension("th.custom-driver/1") != nil)
    #expect(api.pointee.get_extension("th.display-link/1") != nil)
    #expect(api.pointee.get_extension("th.custom-driver/2") == nil)
    #expect(api.pointee.get_extension(nil) == nil)
    api.pointee.log(lease.hostInfo.pointee.plugin_context, TH_LOG_WARNING, "from the test")
    // A made-up context and a NULL message must not crash (they go to stderr as "unknown plugin").
    api.pointee.log(th_context(id: 0xdead_beef_0000), TH_LOG_DEBUG, nil)
    #expect(log.lines == ["com.example.test.minimal: minimal init #1", "com.example.test.minimal: from the test"])
  }

  @Test func swiftPMBuiltPluginsAreKeptMappedOthersClose() throws {
    // SwiftPM links every product with swiftc, which registers the image with the Swift runtime: such a
    // library is leaked rather than closed. A plain C library (libm) can be closed.
    let fixture = try DynamicLibrary(path: BuildProducts.fixturePlugin("Minimal"))
    #expect(fixture.usesSwiftRuntime)
    fixture.leak()
    let libm = try DynamicLibrary(path: "libm.so.6")
    #expect(!libm.usesSwiftRuntime)
    if case .failure = libm.symbol(named: "cos") { Issue.record("cos not found in libm") }
    try libm.close()
    #expect(!libm.isOpen)
  }

  @Test func dynamicLibraryReportsDlerror() {
    #expect(throws: DynamicLibraryError.self) { try DynamicLibrary(path: "/nonexistent/libNothing.so") }
    do {
      _ = try DynamicLibrary(path: "/nonexistent/libNothing.so")
    } catch {
      #expect(error.message.contains("No such file or directory"))
    }
  }
}

@Suite struct AutoLoadTests {
  @Test func startUpLoadsBuiltInsAndExtraFoldersAndReportsFailures() {
    let root = TemporaryFolder()
    let builtIn = root.folder("bin")
    let extra = root.folder("extra")
    copyFile(BuildProducts.fixturePlugin("Minimal"), to: builtIn + "/libTransitionPluginMinimal.so")
    // A fixture: never auto-loaded.
    copyFile(BuildProducts.fixturePlugin("ABI99"), to: builtIn + "/libTestPluginABI99.so")
    copyFile(BuildProducts.fixturePlugin("ReloadA"), to: extra + "/libProbe.so")
    writeFile(extra + "/libBroken.so", Array(String(repeating: "not ELF ", count: 16).utf8))
    let registry = PluginRegistry(
      searchPath: PluginSearchPath(builtInFolder: builtIn, pluginDirs: [extra]), logger: LogCapture().logger)

    let failures = registry.loadAutomatically()
    #expect(failures.map(\.path) == [extra + "/libBroken.so"])
    guard failures.count == 1, case .notLoadable(extra + "/libBroken.so", _) = failures[0].error else {
      Issue.record("expected one notLoadable failure, got \(failures)")
      return
    }
    #expect(registry.plugins.map(\.info.id) == ["com.example.test.minimal", "com.example.test.reload"])
  }

  @Test func thePluginContextLivesFromEntryToDeinit() throws {
    let log = LogCapture()
    let registry = makeRegistry(folder: BuildProducts.folder, log: log)
    try registry.load(path: BuildProducts.fixturePlugin("Minimal"))
    let lease = try registry.lease(animatorID: "fade")
    let context = lease.hostInfo.pointee.plugin_context
    guard case .live(let entry) = ContextDirectory.shared.lookup(context) else {
      Issue.record("plugin context not live while loaded")
      return
    }
    #expect(entry.source == "com.example.test.minimal")
    lease.end()
    try registry.unload(pluginID: "com.example.test.minimal")
    guard case .stale = ContextDirectory.shared.lookup(context) else {
      Issue.record("plugin context not stale after unload")
      return
    }
  }
}
