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
    #expect(try path.resolve("libX.so", allowAnyPath: false).path == second + "/libX.so")
    #expect(try path.resolve("libY.so", allowAnyPath: false).path == first + "/libY.so")
    #expect(throws: PluginLoadError.fileNotFound(path: "libZ.so")) { try path.resolve("libZ.so", allowAnyPath: false) }
  }

  @Test func pathsOutsideTheFoldersNeedTheFlag() throws {
    let root = TemporaryFolder()
    let plugins = root.folder("plugins")
    let elsewhere = root.folder("elsewhere")
    writeFile(plugins + "/libIn.so", [1])
    writeFile(elsewhere + "/libOut.so", [1])
    let path = PluginSearchPath(builtInFolder: nil, pluginDirs: [plugins])

    #expect(try path.resolve(plugins + "/libIn.so", allowAnyPath: false).path == plugins + "/libIn.so")
    // Outside, existing or not: 1007 first, so that clients cannot probe the file system.
    #expect(throws: PluginLoadError.pathNotAllowed(path: elsewhere + "/libOut.so", realPath: nil, folders: [plugins])) {
      try path.resolve(elsewhere + "/libOut.so", allowAnyPath: false)
    }
    #expect(throws: PluginLoadError.pathNotAllowed(path: elsewhere + "/libNone.so", realPath: nil, folders: [plugins]))
    {
      try path.resolve(elsewhere + "/libNone.so", allowAnyPath: false)
    }
    // ".." cannot climb out of a folder.
    #expect(throws: PluginLoadError.pathNotAllowed(path: elsewhere + "/libOut.so", realPath: nil, folders: [plugins])) {
      try path.resolve(plugins + "/../elsewhere/libOut.so", allowAnyPath: false)
    }
    // The folder itself is not "inside" it; a sibling sharing its prefix neither.
    #expect(!path.isInsideFolders(plugins))
    #expect(!path.isInsideFolders(plugins + "-other/libX.so"))
    // With the flag anything goes, but missing files are still 1001.
    #expect(try path.resolve(elsewhere + "/libOut.so", allowAnyPath: true).path == elsewhere + "/libOut.so")
    #expect(throws: PluginLoadError.fileNotFound(path: elsewhere + "/libNone.so")) {
      try path.resolve(elsewhere + "/libNone.so", allowAnyPath: true)
    }
    // Inside a folder but missing: 1001.
    #expect(throws: PluginLoadError.fileNotFound(path: plugins + "/libNone.so")) {
      try path.resolve(plugins + "/libNone.so", allowAnyPath: false)
    }
  }

  @Test func linksAreJudgedByTheFileTheyReach() throws {
    let root = TemporaryFolder()
    let real = root.folder("real")
    let outside = root.folder("outside")
    writeFile(real + "/libA.so", [1])
    writeFile(outside + "/libB.so", [1])
    // A folder given through a link accepts its files, which really are in it.
    symlink(real, root.path + "/linked")
    let viaLink = PluginSearchPath(builtInFolder: nil, pluginDirs: [root.path + "/linked"])
    let a = try viaLink.resolve(root.path + "/linked/libA.so", allowAnyPath: false)
    #expect(a == PluginFile(path: root.path + "/linked/libA.so", realPath: real + "/libA.so"))
    #expect(try viaLink.resolve(real + "/libA.so", allowAnyPath: false).realPath == real + "/libA.so")
    // A link inside the folder to a file inside it is fine (libA.so.1 → libA.so, as a build installs them).
    symlink(real + "/libA.so", real + "/libA.so.1.so")
    let direct = PluginSearchPath(builtInFolder: nil, pluginDirs: [real])
    #expect(try direct.resolve("libA.so.1.so", allowAnyPath: false).realPath == real + "/libA.so")

    // A file link that leads out: refused by path and by bare name, naming both paths.
    symlink(outside + "/libB.so", real + "/libB.so")
    let escape = PluginLoadError.pathNotAllowed(
      path: real + "/libB.so", realPath: outside + "/libB.so", folders: [real])
    #expect(throws: escape) { try direct.resolve(real + "/libB.so", allowAnyPath: false) }
    #expect(throws: escape) { try direct.resolve("libB.so", allowAnyPath: false) }
    #expect(escape.message.contains(real + "/libB.so") && escape.message.contains(outside + "/libB.so"))
    // A folder link inside the plugin folder that leads out.
    symlink(outside, real + "/sub")
    #expect(
      throws: PluginLoadError.pathNotAllowed(
        path: real + "/sub/libB.so", realPath: outside + "/libB.so", folders: [real])
    ) { try direct.resolve(real + "/sub/libB.so", allowAnyPath: false) }
    // With --allow-any-plugin-path anything goes.
    #expect(try direct.resolve("libB.so", allowAnyPath: true).realPath == outside + "/libB.so")
  }

  @Test func relativeEnvironmentEntriesAreIgnored() {
    let path = PluginSearchPath(builtInFolder: nil, pluginDirs: [], environmentPath: ".:outside:/plugins/a::plugins/b")
    #expect(path.folders == ["/plugins/a"])
    #expect(path.ignoredEnvironmentEntries == [".", "outside", "plugins/b"])
  }

  @Test func foldersAndFilesOthersCanWriteAreRefused() throws {
    let root = TemporaryFolder()  // 0700, below the sticky /tmp
    let plugins = root.folder("plugins")
    writeFile(plugins + "/libA.so", [1])
    let path = PluginSearchPath(builtInFolder: nil, pluginDirs: [plugins])
    #expect(try path.resolve("libA.so", allowAnyPath: false).realPath == plugins + "/libA.so")
    #expect(throws: Never.self) { try path.checkFolder(plugins) }

    // A world-writable plugin folder (even sticky: anyone could add a library beside the plugins).
    chmod(plugins, 0o1777)
    let folderError = PluginLoadError.unsafePermissions(
      path: plugins + "/libA.so", unsafePath: plugins, reason: "is writable by every user (mode 1777)")
    #expect(throws: folderError) { try path.resolve("libA.so", allowAnyPath: false) }
    #expect(
      throws: PluginLoadError.unsafePermissions(
        path: plugins, unsafePath: plugins, reason: "is writable by every user (mode 1777)")
    ) {
      try path.checkFolder(plugins)
    }
    #expect(folderError.message.contains("--allow-any-plugin-path"))
    #expect(try path.resolve("libA.so", allowAnyPath: true).realPath == plugins + "/libA.so")
    chmod(plugins, 0o755)

    // A world-writable file.
    chmod(plugins + "/libA.so", 0o646)
    #expect(
      throws: PluginLoadError.unsafePermissions(
        path: plugins + "/libA.so", unsafePath: plugins + "/libA.so", reason: "is writable by every user (mode 0646)")
    ) { try path.resolve("libA.so", allowAnyPath: false) }
    chmod(plugins + "/libA.so", 0o644)

    // A folder between the plugin folder and the file.
    let nested = root.folder("plugins/nested")
    writeFile(nested + "/libN.so", [1])
    chmod(nested, 0o777)
    #expect(
      throws: PluginLoadError.unsafePermissions(
        path: nested + "/libN.so", unsafePath: nested, reason: "is writable by every user (mode 0777)")
    ) { try path.resolve(nested + "/libN.so", allowAnyPath: false) }
    chmod(nested, 0o755)

    // A folder above the plugin folder that others may write to without the sticky bit.
    chmod(root.path, 0o777)
    #expect(
      throws: PluginLoadError.unsafePermissions(
        path: plugins + "/libA.so", unsafePath: root.path, reason: "is writable by every user (mode 0777)")
    ) { try path.resolve("libA.so", allowAnyPath: false) }
    chmod(root.path, 0o700)
  }

  @Test(.enabled(if: geteuid() == 0, "needs root to give a file to another user"))
  func filesOwnedByAnotherUserAreRefused() throws {
    let root = TemporaryFolder()
    let plugins = root.folder("plugins")
    writeFile(plugins + "/libA.so", [1])
    chown(plugins + "/libA.so", 4242, 4242)
    let path = PluginSearchPath(builtInFolder: nil, pluginDirs: [plugins])
    let error = try #require(throws: PluginLoadError.self) { try path.resolve("libA.so", allowAnyPath: false) }
    guard case .unsafePermissions(_, let unsafePath, let reason) = error else {
      Issue.record("expected unsafePermissions, got \(error)")
      return
    }
    #expect(unsafePath == plugins + "/libA.so")
    #expect(reason.hasPrefix("is owned by") && reason.contains("4242") && reason.contains("neither root nor"))
    // Group-writable: refused for a group that is not the user's own private group, accepted for it.
    chown(plugins + "/libA.so", 0, 4242)
    chmod(plugins + "/libA.so", 0o664)
    #expect(
      throws: PluginLoadError.unsafePermissions(
        path: plugins + "/libA.so", unsafePath: plugins + "/libA.so", reason: "is writable by gid 4242 (mode 0664)")
    ) { try path.resolve("libA.so", allowAnyPath: false) }
    chown(plugins + "/libA.so", 0, 0)  // root's group "root": root's own
    #expect(try path.resolve("libA.so", allowAnyPath: false).realPath == plugins + "/libA.so")
    chown(plugins, 4242, 4242)
    #expect(throws: PluginLoadError.self) { try path.resolve("libA.so", allowAnyPath: false) }
    #expect(throws: PluginLoadError.self) { try path.checkFolder(plugins) }
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
