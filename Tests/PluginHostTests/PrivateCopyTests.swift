import POSIX
import PluginHost
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Where a generation's copy lives, what its `$ORIGIN` finds, and what refused and repeated loads cost. Other tests of
/// this process load plugins at the same time, so every check looks only at paths below its own temporary folder
/// (the private copies mirror the real path, so they contain it).
@Suite struct PrivateCopyTests {
  @Test func theCopyMirrorsTheRealPathInAPrivateFolderAndGoesWithItsGeneration() throws {
    let folder = TemporaryFolder()
    let path = folder.path + "/libTestPluginMinimal.so"
    copyFile(BuildProducts.fixturePlugin("Minimal"), to: path)
    let registry = makeRegistry(folder: folder.path)
    try registry.load(path: path)
    let generation = try registry.resolve(animatorID: "fade").generation
    let copy = generation.loadedCopyPath
    // <private folder>/<n>/<real path>: $ORIGIN of the copy is a private mirror of the plugin's own folder.
    #expect(copy.hasSuffix("/" + path.dropFirst()) && copy != path)
    let privateRoot = String(copy.dropLast(path.count))  // <private folder>/<n>
    let privateFolder = String(privateRoot[..<privateRoot.lastIndex(of: "/")!])
    #expect(privateFolder.split(separator: "/").last?.hasPrefix("transition-host-plugins-\(getpid())-") == true)
    let status = try FileStatus(path: privateFolder, followLinks: false)
    #expect(status.kind == .directory && status.permissions == 0o700 && status.owner == geteuid())
    // On disk, and mapped under that name (not "(deleted)"), while the generation is loaded: a backtrace reads it.
    #expect((try? FileStatus(path: copy))?.kind == .regular)
    #expect(mappedPaths(below: folder.path).contains(copy))
    try registry.unload(pluginID: "com.example.test.minimal")
    #expect((try? FileStatus(path: copy)) == nil)
    #expect((try? FileStatus(path: privateRoot)) == nil)
  }

  @Test func aFileThatIsAlreadyLoadedIsNotLoadedAgain() throws {
    let folder = TemporaryFolder()
    let path = folder.path + "/libTestPluginMinimal.so"
    copyFile(BuildProducts.fixturePlugin("Minimal"), to: path)
    symlink(path, folder.path + "/libAlias.so")
    let registry = makeRegistry(folder: folder.path)
    let first = try registry.load(path: path)
    #expect(!first.alreadyLoaded && first.generation == 1)
    let copies = mappedPaths(below: folder.path)
    for again in [path, "libTestPluginMinimal.so", folder.path + "/libAlias.so", "libAlias.so"] {
      let loaded = try registry.load(path: again)
      #expect(loaded.alreadyLoaded, "\(again)")
      #expect(loaded.info.id == "com.example.test.minimal" && loaded.generation == 1 && loaded.path == path)
    }
    #expect(registry.plugins.count == 1)
    #expect(mappedPaths(below: folder.path) == copies)
  }

  @Test func refusedLoadsAreRefusedAgainWithoutCopyingOrMapping() throws {
    let folder = TemporaryFolder()
    let original = folder.path + "/libTestPluginMinimal.so"
    let sameID = folder.path + "/libOtherMinimal.so"
    let invalid = folder.path + "/libInvalid.so"
    copyFile(BuildProducts.fixturePlugin("Minimal"), to: original)
    copyFile(BuildProducts.fixturePlugin("Minimal"), to: sameID)
    copyFile(BuildProducts.fixturePlugin("InvalidPluginID"), to: invalid)
    let registry = makeRegistry(folder: folder.path)
    try registry.load(path: original)
    let privateFolder = try #require(privateFolderOf(registry))

    for file in [sameID, invalid] {
      let first = loadError { () throws(PluginLoadError) in try registry.load(path: file) }
      guard case .invalidDescriptor? = first else {
        Issue.record("\(file): expected 1005, got \(String(describing: first))")
        continue
      }
      let mapped = mappedPaths(below: folder.path)
      let copies = FileSystem.treeInRemovalOrder(privateFolder).filter { $0.contains(folder.path) }
      for _ in 0..<300 {
        #expect(loadError { () throws(PluginLoadError) in try registry.load(path: file) } == first)
      }
      #expect(mappedPaths(below: folder.path) == mapped, "\(file): refused loads mapped something")
      #expect(FileSystem.treeInRemovalOrder(privateFolder).filter { $0.contains(folder.path) } == copies)
    }
    // A clash is remembered only while the other file holds the id; a changed file is tried again.
    try registry.unload(pluginID: "com.example.test.minimal")
    #expect(try registry.load(path: sameID).info.id == "com.example.test.minimal")
    copyFile(BuildProducts.fixturePlugin("ReloadA"), to: invalid)
    #expect(try registry.load(path: invalid).info.id == "com.example.test.reload")
  }

  @Test(.enabled(if: CCompiler.isAvailable, "needs a C compiler"))
  func originDependenciesLoadFromThePluginsRealFolder() throws {
    let root = TemporaryFolder()
    let plugins = root.folder("plugins")
    let own = root.folder("plugins/lib")
    let shared = root.folder("lib")
    // libown.so beside the plugin ($ORIGIN/lib), libshared.so in a sibling folder ($ORIGIN/../lib), which itself
    // needs libdeep.so from its own $ORIGIN.
    try #require(
      CCompiler.sharedLibrary(source: "int deep_value(void) { return 3; }", output: shared + "/libdeep.so"))
    try #require(
      CCompiler.sharedLibrary(
        source: "int deep_value(void); int shared_value(void) { return 2 * deep_value(); }",
        output: shared + "/libshared.so",
        flags: ["-Wl,--no-as-needed", "-L", shared, "-ldeep", "-Wl,-rpath,$ORIGIN"]))
    try #require(CCompiler.sharedLibrary(source: "int own_value(void) { return 1; }", output: own + "/libown.so"))
    let plugin = plugins + "/libOrigin.so"
    try #require(
      CCompiler.sharedLibrary(
        files: [CCompiler.repositoryRoot + "/Tests/Fixtures/Minimal/minimal.c"], output: plugin,
        flags: [
          "-fvisibility=hidden", "-Wl,--no-as-needed", "-L", own, "-lown", "-L", shared, "-lshared", "-lm",
          "-Wl,-rpath,$ORIGIN/lib:$ORIGIN/../lib",
        ]))
    let info = try ELFDynamicInfo.read(path: plugin)
    #expect(info.needed.prefix(2) == ["libown.so", "libshared.so"])
    #expect(info.runpath == ["$ORIGIN/lib", "$ORIGIN/../lib"])
    #expect(info.searchEntries == info.runpath)

    let registry = makeRegistry(folder: plugins)
    try registry.load(path: plugin)
    // The real dependencies are mapped, each from its real file.
    let mapped = mappedFiles()
    for library in [own + "/libown.so", shared + "/libshared.so", shared + "/libdeep.so"] {
      #expect(mapped.contains(library), "\(library) is not mapped")
    }
    let copy = try registry.resolve(animatorID: "com.example.test.minimal/fade").generation.loadedCopyPath
    let mirror = String(copy.dropLast(plugin.count))
    #expect(try FileSystem.realPath(mirror + own + "/libown.so") == own + "/libown.so")
    #expect(try FileSystem.realPath(mirror + shared + "/libdeep.so") == shared + "/libdeep.so")
    try registry.unload(pluginID: "com.example.test.minimal")
    #expect((try? FileStatus(path: mirror)) == nil)
  }

  @Test func startUpRefusesLinksOutAndFoldersOthersCanWrite() throws {
    let root = TemporaryFolder()
    let good = root.folder("good")
    let open = root.folder("open")
    let outside = root.folder("outside")
    copyFile(BuildProducts.fixturePlugin("ReloadA"), to: outside + "/libProbe.so")
    symlink(outside + "/libProbe.so", good + "/libProbe.so")
    copyFile(BuildProducts.fixturePlugin("Minimal"), to: good + "/libMinimal.so")
    copyFile(BuildProducts.fixturePlugin("Minimal"), to: open + "/libPlanted.so")
    chmod(open, 0o777)
    let registry = PluginRegistry(
      searchPath: PluginSearchPath(builtInFolder: nil, pluginDirs: [good, open]), logger: LogCapture().logger)
    let failures = registry.loadAutomatically()
    #expect(
      failures.map(\.error) == [
        .pathNotAllowed(path: good + "/libProbe.so", realPath: outside + "/libProbe.so", folders: [good, open]),
        .unsafePermissions(path: open, unsafePath: open, reason: "is writable by every user (mode 0777)"),
      ])
    #expect(registry.plugins.map(\.path) == [good + "/libMinimal.so"])
  }

  /// The private folder a registry's generations are copied into.
  private func privateFolderOf(_ registry: PluginRegistry) -> String? {
    guard let plugin = registry.plugins.first,
      let copy = try? registry.resolve(animatorID: plugin.info.id + "/" + plugin.info.animators[0].id).generation
        .loadedCopyPath
    else { return nil }
    let root = String(copy.dropLast(plugin.path.count))
    return String(root[..<root.lastIndex(of: "/")!])
  }
}

/// Files mapped into this process whose path contains `folder` (a private copy of a file below it mirrors its path).
func mappedPaths(below folder: String) -> Set<String> {
  mappedFiles().filter { $0.contains(folder + "/") }
}
