import Foundation
import JSON
import POSIX
import TestSupport
import Testing

/// What may be loaded, and what loading leaves behind (Protocol.md, "Plugins and animators"; docs/writing-plugins.md,
/// sections 2 and 3), against the built host with plugin folders and a TMPDIR of the test's own.
@Suite struct PluginSecurityTests {
  /// The environment of the test with `extra` set (and TRANSITION_HOST_PLUGIN_PATH unset unless given).
  static func environment(_ extra: [String: String]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["TRANSITION_HOST_PLUGIN_PATH"] = nil
    for (key, value) in extra { environment[key] = value }
    return environment
  }

  /// Whether the host's stderr contains `text`, waiting up to 10 s for it: stderr is drained by a thread of its own,
  /// so a line the host wrote before its reply may still be on its way when the reply arrives.
  static func stderr(_ client: TransitionClient, contains text: String) -> Bool {
    let bytes = client.host.stderr.wait(timeout: 10) { String(decoding: $0, as: UTF8.self).contains(text) }
    return String(decoding: bytes, as: UTF8.self).contains(text)
  }

  @Test func linksOutOfAPluginFolderAreRefusedByPathByNameAndAtStartUp() throws {
    let root = TemporaryFolder()
    let plugins = root.folder("plugins")
    let outside = root.folder("outside")
    copyFile(BuildProducts.fixturePlugin("ReloadA"), to: outside + "/libProbe.so")
    symlink(outside + "/libProbe.so", plugins + "/libEscape.so")
    symlink(outside, plugins + "/sub")
    let client = try TransitionClient(["--plugin-dir", plugins], environment: Self.environment([:]))
    let listed = client.result("plugins/list")["plugins"]?.elements.compactMap { $0["id"]?.stringValue } ?? []
    #expect(!listed.contains("com.example.test.reload"), "the start-up auto-load followed the link out")
    #expect(
      Self.stderr(
        client,
        contains:
          "plugin \(plugins)/libEscape.so was not loaded: \(plugins)/libEscape.so resolves to \(outside)/libProbe.so, which is outside the plugin folders"
      ))
    for (path, named) in [
      ("libEscape.so", plugins + "/libEscape.so"), (plugins + "/sub/libProbe.so", plugins + "/sub/libProbe.so"),
    ] {
      let error = client.error("plugins/load", ["path": JSON(path)])
      #expect(error["code"]?.intValue == 1007, "\(path)")
      #expect(error["data"]?["path"]?.stringValue == named)
      #expect(error["data"]?["realPath"]?.stringValue == outside + "/libProbe.so")
    }
    #expect(client.finish().status == .exited(0))
  }

  @Test func aWorldWritableFolderIsRefusedAndTheErrorAndTheLogSayWhy() throws {
    let root = TemporaryFolder()
    let open = root.folder("open")
    copyFile(BuildProducts.fixturePlugin("Minimal"), to: open + "/libPlanted.so")
    chmod(open, 0o777)
    let client = try TransitionClient(["--plugin-dir", open], environment: Self.environment([:]))
    let error = client.error("plugins/load", ["path": JSON(open + "/libPlanted.so")])
    #expect(error["code"]?.intValue == 1007)
    #expect(error["data"]?["unsafePath"]?.stringValue == open)
    #expect(error["data"]?["reason"]?.stringValue == "is writable by every user (mode 0777)")
    #expect(error["message"]?.stringValue?.contains("--allow-any-plugin-path") == true)
    #expect(
      Self.stderr(
        client,
        contains:
          "warn: plugin folder \(open) was not loaded: refusing to load \(open): it is writable by every user (mode 0777)"
      ))
    #expect(
      client.result("plugins/list")["plugins"]?.elements.contains { $0["path"]?.stringValue == open + "/libPlanted.so" }
        == false)
    #expect(client.finish().status == .exited(0))

    let permissive = try TransitionClient(
      ["--plugin-dir", open, "--allow-any-plugin-path"], environment: Self.environment([:]))
    let loaded = permissive.result("plugins/load", ["path": JSON(open + "/libPlanted.so")])
    #expect(loaded["alreadyLoaded"]?.boolValue == true, "auto-loaded at start-up when any path is allowed")
    #expect(permissive.finish().status == .exited(0))
  }

  @Test func relativePluginPathEntriesAreIgnoredWithAWarning() throws {
    let root = TemporaryFolder()
    let plugins = root.folder("plugins")
    copyFile(BuildProducts.fixturePlugin("ReloadA"), to: plugins + "/libProbe.so")
    // The same folder, relative to the directory the host starts in (the test's).
    let cwd = try FileSystem.currentDirectory()
    let relative = String(repeating: "../", count: cwd.split(separator: "/").count) + plugins.dropFirst()
    let client = try TransitionClient([], environment: Self.environment(["TRANSITION_HOST_PLUGIN_PATH": relative]))
    let listed = client.result("plugins/list")["plugins"]?.elements.compactMap { $0["id"]?.stringValue } ?? []
    #expect(!listed.contains("com.example.test.reload"), "a relative entry was taken from the working directory")
    #expect(
      Self.stderr(client, contains: "TRANSITION_HOST_PLUGIN_PATH entry '\(relative)' is not an absolute path: ignored"))
    #expect(client.finish().status == .exited(0))
  }

  @Test func loadingAFileThatPluginDirLoadedAnswersAlreadyLoaded() throws {
    let root = TemporaryFolder()
    let plugins = root.folder("plugins")
    copyFile(BuildProducts.fixturePlugin("Minimal"), to: plugins + "/libMinimal.so")
    let client = try TransitionClient(["--plugin-dir", plugins], environment: Self.environment([:]))
    for path in ["libMinimal.so", plugins + "/libMinimal.so"] {
      let loaded = client.request("plugins/load", ["path": JSON(path)])
      #expect(loaded["error"] == nil, "\(path): \(loaded)")
      #expect(loaded["result"]?["alreadyLoaded"]?.boolValue == true)
      #expect(loaded["result"]?["id"]?.stringValue == "com.example.test.minimal")
      #expect(loaded["result"]?["generation"]?.intValue == 1)
    }
    #expect(client.finish().status == .exited(0))
  }

  /// The host's /proc/<pid>/maps, read whole: Foundation's String(contentsOfFile:) trusts the size procfs reports
  /// and returns only the first 4 KB, which hid every mapping past the first few dozen.
  static func mappings(of pid: pid_t) -> String {
    String(decoding: readFile("/proc/\(pid)/maps"), as: UTF8.self)
  }

  /// Bytes of the files under `folder` (links not followed) and the files below it the host has mapped.
  static func temporaryUsage(of host: HostProcess, in folder: String) -> (bytes: Int, mapped: Set<String>) {
    let files = FileSystem.treeInRemovalOrder(folder).filter {
      (try? FileStatus(path: $0, followLinks: false))?.kind == .regular
    }
    let bytes = files.reduce(0) { $0 + ((try? FileStatus(path: $1, followLinks: false))?.size ?? 0) }
    let maps = Self.mappings(of: host.pid)
    let mapped = Set(
      maps.split(separator: "\n").compactMap { line -> String? in
        guard let slash = line.firstIndex(of: "/") else { return nil }
        let path = String(line[slash...])
        return path.hasPrefix(folder + "/") ? path : nil
      })
    return (bytes, mapped)
  }

  @Test func threeHundredRefusedLoadsLeaveMemoryAndTheTemporaryFolderFlat() throws {
    let root = TemporaryFolder()
    let temporary = root.folder("tmp")
    let plugins = root.folder("plugins")
    // A Swift-linked plugin whose id is already loaded (the built-in pull-down), and one with a bad descriptor.
    copyFile(BuildProducts.builtInPlugin("PullDown"), to: plugins + "/libPullDownCopy.so")
    copyFile(BuildProducts.fixturePlugin("InvalidPluginID"), to: plugins + "/libBadID.so")
    let client = try TransitionClient(["--plugin-dir", plugins], environment: Self.environment(["TMPDIR": temporary]))
    for name in ["libPullDownCopy.so", "libBadID.so"] {
      #expect(client.error("plugins/load", ["path": JSON(name)])["code"]?.intValue == 1005)
    }
    let rssBefore = try #require(client.host.statusField("VmRSS"))
    let before = Self.temporaryUsage(of: client.host, in: temporary)
    for _ in 0..<300 {
      for name in ["libPullDownCopy.so", "libBadID.so"] {
        #expect(client.error("plugins/load", ["path": JSON(name)])["code"]?.intValue == 1005)
      }
    }
    let rssAfter = try #require(client.host.statusField("VmRSS"))
    let after = Self.temporaryUsage(of: client.host, in: temporary)
    // Before: every refused load copied and mapped the library again (a Swift one can never be unmapped), about
    // 650 kB of RSS and 2 MB of TMPDIR each. A generous bound for the noise of a debug build.
    #expect(rssAfter - rssBefore < 8 * 1024, "RSS grew from \(rssBefore) kB to \(rssAfter) kB")
    #expect(after.mapped == before.mapped)
    #expect(after.bytes == before.bytes)
    #expect(client.finish().status == .exited(0))
    #expect((try? FileSystem.entries(in: temporary)) == [], "the private folder goes at exit")
  }

  @Test(.enabled(if: CCompiler.isAvailable, "needs a C compiler"))
  func aCrashInsideDlopenLeavesNoCopyBehind() throws {
    let root = TemporaryFolder()
    let temporary = root.folder("tmp")
    let plugins = root.folder("plugins")
    try #require(
      CCompiler.sharedLibrary(
        source: "static int *volatile nowhere;\n"
          + "__attribute__((constructor)) static void boom(void) { *nowhere = 1; }\n"
          + "void *th_plugin_entry(const void *host) { (void)host; return 0; }\n",
        output: plugins + "/libCrashOnLoad.so"))
    unlink(plugins + "/libCrashOnLoad.so.c")
    // In the host (--isolation none) the crash takes the host down, which removes the copy as it dies.
    let host = try HostProcess(
      ["--isolation", "none", "--plugin-dir", plugins],
      environment: Self.environment(["TMPDIR": temporary, "SWIFT_BACKTRACE": "enable=no"]))
    host.closeStdin()
    #expect(host.waitForExit(timeout: 60) == .signaled(SIGSEGV))
    #expect(
      FileSystem.treeInRemovalOrder(temporary) == [temporary],
      "left behind: \(FileSystem.treeInRemovalOrder(temporary))")
    // In a worker (the default) the host stays up, reports it, and its worker leaves nothing behind either.
    let client = try TransitionClient(["--plugin-dir", plugins], environment: Self.environment(["TMPDIR": temporary]))
    let failed = client.result("plugins/list")["failed"]?.elements ?? []
    #expect(failed.map { $0["path"]?.stringValue } == [plugins + "/libCrashOnLoad.so"])
    #expect(failed.first?["error"]?["code"]?.intValue == 1009)
    #expect(client.finish().status == .exited(0))
    #expect(
      FileSystem.treeInRemovalOrder(temporary) == [temporary],
      "left behind: \(FileSystem.treeInRemovalOrder(temporary))")
  }

  @Test(.enabled(if: CCompiler.isAvailable, "needs a C compiler"))
  func aLibraryPlantedInTheTemporaryFolderIsNeverLoadedThroughOrigin() throws {
    let root = TemporaryFolder()
    let temporary = root.folder("tmp")
    let plugins = root.folder("plugins")
    let own = root.folder("plugins/lib")
    let marker = root.path + "/planted-ran"
    // The plugin needs libhelper.so and looks for it in $ORIGIN, then $ORIGIN/lib, where its own copy is. Someone
    // planted another libhelper.so in the temporary folder, whose constructor leaves a mark.
    try #require(
      CCompiler.sharedLibrary(source: "int helper_value(void) { return 42; }", output: own + "/libhelper.so"))
    try #require(
      CCompiler.sharedLibrary(
        source: """
          #include <stdio.h>
          #include <stdlib.h>
          __attribute__((constructor)) static void planted(void) {
            FILE *file = fopen(getenv("PLANTED_MARKER"), "w");
            if (file) { fputs("planted\\n", file); fclose(file); }
          }
          int helper_value(void) { return -1; }
          """, output: temporary + "/libhelper.so"))
    unlink(temporary + "/libhelper.so.c")
    try #require(
      CCompiler.sharedLibrary(
        files: [CCompiler.repositoryRoot + "/Tests/Fixtures/Minimal/minimal.c"], output: plugins + "/libOrigin.so",
        flags: [
          "-fvisibility=hidden", "-Wl,--no-as-needed", "-L", own, "-lhelper", "-lm", "-Wl,-rpath,$ORIGIN:$ORIGIN/lib",
        ]))
    let client = try TransitionClient(
      ["--plugin-dir", plugins], environment: Self.environment(["TMPDIR": temporary, "PLANTED_MARKER": marker]))
    let loaded = client.result("plugins/load", ["path": "libOrigin.so"])
    #expect(loaded["id"]?.stringValue == "com.example.test.minimal")
    // What the host and its workers (one runs the plugin) have mapped.
    let maps = ([client.host.pid] + WorkerProcesses.of(client.host.pid)).map { Self.mappings(of: $0) }.joined()
    #expect(maps.contains(own + "/libhelper.so"), "the plugin's own helper, from its real folder")
    #expect(!maps.contains(temporary + "/libhelper.so"))
    #expect(client.finish().status == .exited(0))
    #expect((try? FileStatus(path: marker)) == nil, "the planted library's constructor ran")
  }

  /// In the host (--isolation none); a worker's crash is a crash report (IsolationTests), and with SWIFT_BACKTRACE set
  /// its stderr carries the same backtrace.
  @Test func aCrashBacktraceNamesThePluginsRealPathAndItsSymbols() throws {
    let root = TemporaryFolder()
    let client = try TransitionClient(
      ["--isolation", "none"],
      environment: Self.environment(["TMPDIR": root.path, "SWIFT_BACKTRACE": "enable=yes,interactive=no,color=no"]))
    client.result("plugins/load", ["path": "libTestPluginValidateCrash.so"])
    client.send([
      "jsonrpc": "2.0", "id": 2, "method": "transition/start",
      "params": [
        "animator": "crash", "operation": "present", "clock": "manual", "container": ["width": 10, "height": 10],
        "from": ["id": "a", "frame": ["x": 0, "y": 0, "width": 10, "height": 10]],
        "to": ["id": "b", "frame": ["x": 0, "y": 0, "width": 10, "height": 10]],
      ],
    ])
    #expect(client.host.waitForExit(timeout: 120) != nil)
    let trace = String(decoding: client.host.stderr.all(timeout: 60), as: UTF8.self)
    // The crashing frame names the plugin's function and file, not "<unknown> in transition-host-plugin-… (deleted)".
    let crashing = try #require(trace.split(separator: "\n").first { $0.hasPrefix("  0 ") })
    #expect(crashing.contains("fade_animate_transition") && crashing.contains("in libTestPluginValidateCrash.so"))
    #expect(!trace.contains("(deleted)"))
    // The image list shows where the copy is: the private folder, then the plugin's real path.
    let real = try FileSystem.realPath(BuildProducts.fixturePlugin("ValidateCrash"))
    #expect(trace.contains("/transition-host-plugins-\(client.host.pid)-"))
    #expect(trace.split(separator: "\n").contains { $0.contains("transition-host-plugins-") && $0.hasSuffix(real) })
  }
}
