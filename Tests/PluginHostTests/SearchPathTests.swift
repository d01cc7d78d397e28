import PluginHost
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct SearchPathTests {
  @Test func foldersAreOrderedAndDeduplicated() {
    let path = PluginSearchPath(
      builtInFolder: "/opt/host/bin", pluginDirs: ["/plugins/a", "", "/opt/host/bin", "/plugins/b/./x/.."],
      environmentPath: "/plugins/c::/plugins/a")
    #expect(path.folders == ["/opt/host/bin", "/plugins/a", "/plugins/b", "/plugins/c"])
    #expect(path.extraFolders == ["/plugins/a", "/plugins/b", "/plugins/c"])
  }

  @Test func relativePluginDirsAreTakenFromTheCurrentDirectory() {
    var buffer = [CChar](repeating: 0, count: 4096)
    let cwd = buffer.withUnsafeMutableBufferPointer { String(cString: getcwd($0.baseAddress, $0.count)!) }
    let path = PluginSearchPath(builtInFolder: nil, pluginDirs: ["plugins"])
    #expect(path.folders == [cwd == "/" ? "/plugins" : cwd + "/plugins"])
  }

  @Test func bareNamesAreLookedUpInFolderOrder() throws {
    let root = TemporaryFolder()
    let first = root.folder("first")
    let second = root.folder("second")
    writeFile(second + "/libX.so", [1])
    writeFile(second + "/libY.so", [2])
    writeFile(first + "/libY.so", [3])
    let path = PluginSearchPath(builtInFolder: nil, pluginDirs: [first, second])
    #expect(try path.resolve("libX.so", allowAnyPath: false) == second + "/libX.so")
    #expect(try path.resolve("libY.so", allowAnyPath: false) == first + "/libY.so")
    #expect(throws: PluginLoadError.fileNotFound(path: "libZ.so")) { try path.resolve("libZ.so", allowAnyPath: false) }
  }

  @Test func pathsOutsideTheFoldersNeedTheFlag() throws {
    let root = TemporaryFolder()
    let plugins = root.folder("plugins")
    let elsewhere = root.folder("elsewhere")
    writeFile(plugins + "/libIn.so", [1])
    writeFile(elsewhere + "/libOut.so", [1])
    let path = PluginSearchPath(builtInFolder: nil, pluginDirs: [plugins])

    #expect(try path.resolve(plugins + "/libIn.so", allowAnyPath: false) == plugins + "/libIn.so")
    // Outside, existing or not: 1007 first, so that clients cannot probe the file system.
    #expect(throws: PluginLoadError.pathNotAllowed(path: elsewhere + "/libOut.so", folders: [plugins])) {
      try path.resolve(elsewhere + "/libOut.so", allowAnyPath: false)
    }
    #expect(throws: PluginLoadError.pathNotAllowed(path: elsewhere + "/libNone.so", folders: [plugins])) {
      try path.resolve(elsewhere + "/libNone.so", allowAnyPath: false)
    }
    // ".." cannot climb out of a folder.
    #expect(throws: PluginLoadError.pathNotAllowed(path: elsewhere + "/libOut.so", folders: [plugins])) {
      try path.resolve(plugins + "/../elsewhere/libOut.so", allowAnyPath: false)
    }
    // The folder itself is not "inside" it; a sibling sharing its prefix neither.
    #expect(!path.isInsideFolders(plugins))
    #expect(!path.isInsideFolders(plugins + "-other/libX.so"))
    // With the flag anything goes, but missing files are still 1001.
    #expect(try path.resolve(elsewhere + "/libOut.so", allowAnyPath: true) == elsewhere + "/libOut.so")
    #expect(throws: PluginLoadError.fileNotFound(path: elsewhere + "/libNone.so")) {
      try path.resolve(elsewhere + "/libNone.so", allowAnyPath: true)
    }
    // Inside a folder but missing: 1001.
    #expect(throws: PluginLoadError.fileNotFound(path: plugins + "/libNone.so")) {
      try path.resolve(plugins + "/libNone.so", allowAnyPath: false)
    }
  }

  @Test func symbolicLinksAreJudgedAsWrittenOrResolved() throws {
    let root = TemporaryFolder()
    let real = root.folder("real")
    let outside = root.folder("outside")
    writeFile(real + "/libA.so", [1])
    writeFile(outside + "/libB.so", [1])
    // A folder given through a link accepts the real path of its files.
    symlink(real, root.path + "/linked")
    let viaLink = PluginSearchPath(builtInFolder: nil, pluginDirs: [root.path + "/linked"])
    #expect(try viaLink.resolve(real + "/libA.so", allowAnyPath: false) == real + "/libA.so")
    // A link the user put inside a plugin folder may point anywhere.
    symlink(outside + "/libB.so", real + "/libB.so")
    let direct = PluginSearchPath(builtInFolder: nil, pluginDirs: [real])
    #expect(try direct.resolve(real + "/libB.so", allowAnyPath: false) == real + "/libB.so")
  }

  @Test func autoLoadTakesBuiltInsAndExtraFoldersButNeverFixtures() {
    let root = TemporaryFolder()
    let builtIn = root.folder("bin")
    let extra = root.folder("extra")
    for name in [
      "libTransitionPluginFlip.so", "libTransitionPluginSheet.so", "libTestPluginMinimal.so", "libOther.so",
      "notes.txt",
    ] {
      writeFile(builtIn + "/" + name, [0])
    }
    for name in ["libFade.so", "libTestPluginGood.so", "README.md"] {
      writeFile(extra + "/" + name, [0])
    }
    _ = root.folder("extra/libFolder.so")
    let path = PluginSearchPath(builtInFolder: builtIn, pluginDirs: [extra])
    #expect(
      path.autoLoadCandidates() == [
        builtIn + "/libTransitionPluginFlip.so", builtIn + "/libTransitionPluginSheet.so", extra + "/libFade.so",
      ])
  }

  @Test func theBuiltInFolderIsTheExecutablesFolder() throws {
    let folder = try #require(PluginSearchPath.executableFolder())
    let exe = try #require(realpath("/proc/self/exe", nil))
    defer { free(exe) }
    #expect(String(cString: exe).hasPrefix(folder + "/"))
    #expect(!String(cString: exe).dropFirst(folder.count + 1).contains("/"))
  }
}
