// Plugins in worker processes, the rest of their life: loading (a crashing constructor, a garbage descriptor, a
// --plugin-dir full of them), the crash-loop limit, hot reload, a plugin thread at unload, stdin EOF and SIGTERM with
// workers running (no worker left behind, checked from /proc), and the host's memory over many reloads.

import Foundation
import Glibc
import JSON
import TestSupport
import Testing

@Suite struct IsolationLifecycleTests {
  /// A marker file for the crashing-constructor fixture: its constructor crashes while the file exists.
  private static func constructorMarker() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("th-constructor-\(UUID().uuidString)").path
    #expect(FileManager.default.createFile(atPath: path, contents: Data()))
    return path
  }

  private static func environment(marker: String, phase: String = "constructor") -> [String: String] {
    ProcessInfo.processInfo.environment.merging(
      ["TH_FAULT_CONSTRUCTOR_MARKER": marker, "TH_FAULT_LOAD_PHASE": phase]
    ) { $1 }
  }

  /// The `path` of each entry of a `plugins/list` result's `failed`, in order.
  private static func failedPaths(_ listed: JSON) -> [JSON?] {
    listed["failed"]?.elements.map { $0["path"] } ?? []
  }

  /// The fixture's load phases and the crash report's name for each.
  static let loadPhases = [("constructor", "a library constructor"), ("entry", "th_plugin_entry"), ("init", "init")]

  /// A crash while loading (in a library constructor, inside th_plugin_entry, inside init), with another plugin's
  /// transition playing alongside in real time: plugins/load answers 1009 naming the phase and the signal, the request
  /// right behind it is answered, plugins/list lists no such plugin but shows the crash in `failed`, the good
  /// transition plays through on time with the right geometry, and the same file loads, runs and reloads once "fixed"
  /// (and a reload that crashes is listed in `failed` until a reload works).
  @Test(arguments: loadPhases)
  func aCrashWhileLoadingFailsItsLoadAndTheHostLoadsItOnceFixed(_ phase: String, _ name: String) throws {
    let marker = try Self.constructorMarker()
    defer { unlink(marker) }
    let host = try HostProcess(isolationFlags, environment: Self.environment(marker: marker, phase: phase))
    let client = TransitionClient(host: host)
    let plugin = "com.example.test.fault.constructor"
    #expect(client.result("plugins/load", ["path": "libTestPluginMinimal.so"])["id"] != nil)
    let goodDuration = 1.2
    #expect(client.result("transition/start", IsolationScene.goodFade(duration: goodDuration))["transition"] == "t1")
    client.send([
      "jsonrpc": "2.0", "id": 900, "method": "plugins/load", "params": ["path": "libTestPluginFaultConstructor.so"],
    ])
    client.send(["jsonrpc": "2.0", "id": 901, "method": "animators/list"])
    let reply = try #require(client.waitFor { $0["id"]?.intValue == 900 })
    let other = try #require(client.waitFor { $0["id"]?.intValue == 901 })
    #expect(other["result"]?["animators"]?.count ?? 0 >= 5)
    let error = try #require(reply["error"], "\(reply)")
    #expect(error["code"] == 1009)
    #expect(error["data"]?["phase"]?.stringValue == name)
    #expect(error["data"]?["signal"] == "SIGSEGV")
    #expect(error["data"]?["path"]?.stringValue?.hasSuffix("libTestPluginFaultConstructor.so") == true)
    // The host learns the plugin's id from the worker's answer to the load, which never came.
    #expect(error["data"]?["plugin"] == .null)
    let garbage = client.error("plugins/load", ["path": "libTestPluginFaultGarbageDescriptor.so"])
    #expect(garbage["code"] == 1009)
    #expect(garbage["data"]?["signal"] == "SIGSEGV")
    let listed = client.result("plugins/list")
    let ids = listed["plugins"]?.elements.compactMap { $0["id"]?.stringValue } ?? []
    #expect(ids.contains("com.example.test.minimal"))
    #expect(!ids.contains(plugin))
    #expect(!ids.contains("com.example.test.fault.garbagedescriptor"))
    // `failed` shows each crash (Protocol.md): the file as its 1009 named it, with that error, the latest per file.
    #expect(Self.failedPaths(listed) == [error["data"]?["path"], garbage["data"]?["path"]])
    #expect(listed["failed"]?.elements.compactMap { $0["error"] } == [error, garbage])
    // Fixed: the same file loads (and leaves `failed`), its transition runs (the fixture's sound: alpha 0 → 1
    // linearly over 0.4 s), reloads.
    unlink(marker)
    #expect(client.result("plugins/load", ["path": "libTestPluginFaultConstructor.so"])["state"] == "loaded")
    #expect(Self.failedPaths(client.result("plugins/list")) == [garbage["data"]?["path"]])
    try IsolationScene.expectSoundCompletes(client, plugin)
    let reloaded = client.result("plugins/reload", ["plugin": JSON(plugin)])
    #expect(reloaded["generation"] == 2)
    #expect(reloaded["crashCount"] == 0)
    try IsolationScene.expectSoundCompletes(client, plugin)
    // Broken again: the reload crashes (1009), generation 2 stays, and `failed` shows the crash until a reload works.
    #expect(FileManager.default.createFile(atPath: marker, contents: Data()))
    let crashedReload = client.error("plugins/reload", ["plugin": JSON(plugin)])
    #expect(crashedReload["code"] == 1009)
    let afterCrash = client.result("plugins/list")
    #expect(Self.failedPaths(afterCrash) == [garbage["data"]?["path"], error["data"]?["path"]])
    #expect(afterCrash["plugins"]?.elements.first { $0["id"]?.stringValue == plugin }?["generation"] == 2)
    unlink(marker)
    #expect(client.result("plugins/reload", ["plugin": JSON(plugin)])["generation"] == 3)
    #expect(Self.failedPaths(client.result("plugins/list")) == [garbage["data"]?["path"]])

    let goodEnd = try #require(client.waitForDidEnd("t1"))
    #expect(goodEnd.serialized() == #"{"transition":"t1","completed":true,"cancelled":false}"#)
    IsolationScene.checkGoodFade(client.received, "t1", duration: goodDuration)
    let workers = WorkerProcesses.of(host.pid)
    let (_, status) = client.finish()
    #expect(status == .exited(0))
    #expect(WorkerProcesses.remaining(workers).isEmpty)
  }

  /// A --plugin-dir holding a library whose constructor crashes and one whose descriptor is garbage: the host starts,
  /// reports both as failed (stderr and plugins/list) and serves the rest.
  @Test func aPluginDirOfBrokenLibrariesDoesNotStopStartUp() throws {
    let marker = try Self.constructorMarker()
    defer { unlink(marker) }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("th-plugin-dir-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    // Named like ordinary plugins: test fixtures (libTestPlugin*) are never auto-loaded.
    for (fixture, name) in [
      ("FaultConstructor", "libCrashingConstructor.so"), ("FaultGarbageDescriptor", "libGarbageDescriptor.so"),
      ("Minimal", "libGood.so"),
    ] {
      try FileManager.default.copyItem(
        atPath: BuildProducts.folder + "/libTestPlugin\(fixture).so", toPath: folder.appendingPathComponent(name).path)
    }
    let host = try HostProcess(
      isolationFlags + ["--plugin-dir", folder.path], environment: Self.environment(marker: marker))
    let client = TransitionClient(host: host)
    let listed = client.result("plugins/list")
    let ids = listed["plugins"]?.elements.compactMap { $0["id"]?.stringValue } ?? []
    #expect(ids.contains("com.example.test.minimal"))
    #expect(ids.contains("com.transitionhost.pulldown"))
    let failed = listed["failed"]?.elements ?? []
    #expect(
      Set(failed.compactMap { $0["path"]?.stringValue?.split(separator: "/").last.map(String.init) })
        == ["libCrashingConstructor.so", "libGarbageDescriptor.so"])
    #expect(failed.allSatisfy { $0["error"]?["code"] == 1009 })
    #expect(
      client.result("transition/start", IsolationScene.start("com.example.test.minimal/fade"))["transition"] == "t1")
    let (_, status) = client.finish()
    #expect(status == .exited(0))
    let log = String(decoding: host.stderr.all(), as: UTF8.self)
    #expect(log.contains("libCrashingConstructor.so was not loaded"))
    #expect(log.contains("libGarbageDescriptor.so was not loaded"))
  }

  /// Each worker, as the kernel shows it (/proc): its data limit is --plugin-memory-limit, its stdin is /dev/null, and
  /// none of its descriptors is the protocol's stdout or stdin pipe (its fd 1 goes to the log, like fd 2).
  @Test func aWorkerHasItsMemoryLimitAndNoProtocolDescriptor() throws {
    let host = try HostProcess(["--plugin-memory-limit", "300M"])
    let client = TransitionClient(host: host)
    client.result("plugins/load", ["path": "libTestPluginMinimal.so"])
    let workers = WorkerProcesses.waitFor(6, of: host.pid)
    #expect(workers.count == 6)
    let stdoutPipe = "pipe:[\(host.stdoutPipeInode)]"
    let stdinPipe = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(host.pid)/fd/0")
    for worker in workers {
      let limits = try String(contentsOfFile: "/proc/\(worker)/limits", encoding: .utf8)
      let data = limits.split(separator: "\n").first { $0.hasPrefix("Max data size") }
      let fields = data?.split(separator: " ", omittingEmptySubsequences: true) ?? []
      // "Max data size  <soft>  <hard>  bytes": 300 × 2^20.
      #expect(fields.count >= 5 && fields[3] == "314572800", "\(String(describing: data))")
      let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(worker)/fd")
      let targets = descriptors.compactMap {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(worker)/fd/\($0)")
      }
      #expect(try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(worker)/fd/0") == "/dev/null")
      #expect(!targets.contains(stdoutPipe), "worker \(worker): \(targets)")
      #expect(!targets.contains(stdinPipe), "worker \(worker): \(targets)")
      let log = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(worker)/fd/1")
      #expect(log == (try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(worker)/fd/2")))
    }
    let (_, status) = client.finish()
    #expect(status == .exited(0))
    #expect(WorkerProcesses.remaining(workers).isEmpty)
  }

  @Test func theCrashLoopLimitMarksThePluginCrashedUntilAReload() throws {
    let client = try TransitionClient(isolationFlags + ["--plugin-crash-limit", "2", "--plugin-crash-window", "60"])
    let plugin = "com.example.test.fault.nullderef"
    client.result("plugins/load", ["path": "libTestPluginFaultNullDeref.so"])
    for crash in 1...2 {
      #expect(client.error("transition/start", IsolationScene.start(plugin + "/faulty"))["code"] == 2009)
      let listed = client.result("plugins/list")["plugins"]?.elements.first { $0["id"]?.stringValue == plugin }
      #expect(listed?["crashCount"]?.intValue == Int64(crash))
      #expect(listed?["state"]?.stringValue == (crash == 2 ? "crashed" : "loaded"))
    }
    // Marked crashed: even its sound animator is refused, with 1010.
    let refused = client.error("transition/start", IsolationScene.start(plugin + "/sound"))
    #expect(refused["code"] == 1010)
    #expect(refused["data"]?["plugin"]?.stringValue == plugin)
    #expect(refused["data"]?["crashCount"] == 2)
    let reloaded = client.result("plugins/reload", ["plugin": JSON(plugin)])
    #expect(reloaded["state"] == "loaded")
    #expect(reloaded["crashCount"] == 0)
    let started = client.result("transition/start", IsolationScene.start(plugin + "/sound"))
    let id = try #require(started["transition"]?.stringValue)
    client.result("transition/tick", ["dt": 1])
    #expect(client.waitForDidEnd(id)?["completed"] == true)
    let (_, status) = client.finish()
    #expect(status == .exited(0))
  }

  /// A plugin that writes garbage (and a forged reply) to fd 1 while another plugin's transition plays alongside in real
  /// time: the bytes reach the log, not the client; it is no crash (plugins/list: loaded, no crash), its transition
  /// animates on with the fixture's geometry, the request right behind its start is answered, it works after a reload,
  /// and the good transition plays through on time with the right geometry.
  @Test func writingGarbageToStdoutReachesTheLogNotTheClient() throws {
    let client = try TransitionClient(isolationFlags)
    let plugin = "com.example.test.fault.writestdout"
    #expect(client.result("plugins/load", ["path": "libTestPluginMinimal.so"])["id"] != nil)
    #expect(client.result("plugins/load", ["path": "libTestPluginFaultWriteStdout.so"])["id"]?.stringValue == plugin)
    let goodDuration = 1.2
    #expect(client.result("transition/start", IsolationScene.goodFade(duration: goodDuration))["transition"] == "t1")
    client.send([
      "jsonrpc": "2.0", "id": 900, "method": "transition/start", "params": IsolationScene.start(plugin + "/faulty"),
    ])
    client.send(["jsonrpc": "2.0", "id": 901, "method": "animators/list"])
    let reply = try #require(client.waitFor { $0["id"]?.intValue == 900 })
    let other = try #require(client.waitFor { $0["id"]?.intValue == 901 })
    #expect(reply["result"]?["transition"] == "t2", "\(reply)")
    #expect(other["result"]?["animators"]?.count ?? 0 >= 4)
    // The faulty animator animates as the fixture's sound one does: alpha 0 → 1 linearly over 0.4 s.
    let ticked = client.result("transition/tick", ["transition": "t2", "dt": 0.1])
    #expect(ticked["transitions"]?[0]?["percent"]?.doubleValue == 0.25)
    let frame = TransitionClient.frames(client.received, of: "t2").last
    #expect(frame?.view("detail")?["alpha"]?.doubleValue == 0.25)
    #expect(frame?.view("detail")?["frame"] == ["x": 0, "y": 0, "width": 400, "height": 800])
    client.result("transition/tick", ["transition": "t2", "dt": 0.5])
    #expect(client.waitForDidEnd("t2")?["completed"] == true)
    let listed = client.result("plugins/list")["plugins"]?.elements.first { $0["id"]?.stringValue == plugin }
    #expect(listed?["state"] == "loaded")
    #expect(listed?["crashCount"] == 0)
    #expect(listed?["lastCrash"] == nil || listed?["lastCrash"] == .null)
    let reloaded = client.result("plugins/reload", ["plugin": JSON(plugin)])
    #expect(reloaded["generation"] == 2)
    try IsolationScene.expectSoundCompletes(client, plugin, animator: "faulty")

    let goodEnd = try #require(client.waitForDidEnd("t1"))
    #expect(goodEnd.serialized() == #"{"transition":"t1","completed":true,"cancelled":false}"#)
    IsolationScene.checkGoodFade(client.received, "t1", duration: goodDuration)
    let workers = WorkerProcesses.of(client.host.pid)
    let (_, status) = client.finish()
    #expect(status == .exited(0))
    #expect(!client.received.contains { $0["result"]?.stringValue?.contains("forged") == true })
    #expect(client.received.filter { $0["id"] == 1 }.count == 1)
    #expect(String(decoding: client.host.stderr.all(), as: UTF8.self).contains("forged by write(1)"))
    #expect(WorkerProcesses.remaining(workers).isEmpty)
  }

  /// Without isolation the forger's reply does reach the client (it finds the protocol's descriptor): the fixture is
  /// real, and only the worker process keeps it out.
  @Test func withoutIsolationTheForgerReachesTheClient() throws {
    let client = try TransitionClient(["--isolation", "none"])
    client.result("plugins/load", ["path": "libTestPluginFaultForger.so"])
    client.result("transition/start", IsolationScene.start("com.example.test.fault.forger/faulty"))
    let (_, status) = client.finish()
    #expect(status == .exited(0))
    #expect(client.received.contains { $0["result"]?.stringValue == "forged by a plugin" })
  }

  @Test func aPluginThreadStillCallingTheHostAtUnloadCannotCrashIt() throws {
    let client = try TransitionClient(isolationFlags)
    let plugin = "com.example.test.fault.thread"
    client.result("plugins/load", ["path": "libTestPluginFaultThread.so"])
    let workers = WorkerProcesses.waitFor(6, of: client.host.pid)
    client.result("transition/start", IsolationScene.start(plugin + "/sound"))
    client.result("transition/tick", ["dt": 1])
    #expect(client.waitForDidEnd("t1")?["completed"] == true)
    #expect(client.request("plugins/unload", ["plugin": JSON(plugin)])["result"] == .null)
    // Its worker is gone, thread and all; the host goes on answering.
    #expect(WorkerProcesses.waitFor(5, of: client.host.pid).count == 5)
    usleep(200_000)
    #expect(client.result("animators/list")["animators"]?.count ?? 0 >= 5)
    let (_, status) = client.finish()
    #expect(status == .exited(0))
    #expect(WorkerProcesses.remaining(workers).isEmpty)
  }

  /// Without isolation the same unload takes the host down: the fixture is real.
  @Test func withoutIsolationTheThreadCrashesTheHostAtUnload() throws {
    let client = try TransitionClient(["--isolation", "none"])
    client.result("plugins/load", ["path": "libTestPluginFaultThread.so"])
    client.send([
      "jsonrpc": "2.0", "id": 50, "method": "plugins/unload", "params": ["plugin": "com.example.test.fault.thread"],
    ])
    usleep(300_000)
    client.send(["jsonrpc": "2.0", "id": 51, "method": "animators/list"])
    let status = client.host.waitForExit(timeout: 10)
    if case .signaled = status {} else { Issue.record("the host survived: \(String(describing: status))") }
  }

  @Test func hotReloadGivesANewWorkerAndTheOldOneLivesUntilItsTransitionsEnd() throws {
    let client = try TransitionClient(isolationFlags)
    client.result("plugins/load", ["path": "libTestPluginMinimal.so"])
    let before = WorkerProcesses.waitFor(6, of: client.host.pid)
    #expect(before.count == 6)
    client.result(
      "transition/start", IsolationScene.start("com.example.test.minimal/fade", extra: [("frames", "none")]))
    #expect(client.result("plugins/reload", ["plugin": "com.example.test.minimal"])["generation"] == 2)
    // The old generation's worker still runs t1; the new one serves new transitions.
    #expect(WorkerProcesses.waitFor(7, of: client.host.pid).count == 7)
    client.result(
      "transition/start", IsolationScene.start("com.example.test.minimal/fade", extra: [("frames", "none")]))
    client.result("transition/tick", ["transition": "t1", "dt": 1])
    #expect(client.waitForDidEnd("t1")?["completed"] == true)
    // t1 was the old generation's last transition: its worker exits and is reaped.
    let after = WorkerProcesses.waitFor(6, of: client.host.pid)
    #expect(after.count == 6)
    client.result("transition/tick", ["transition": "t2", "dt": 1])
    #expect(client.waitForDidEnd("t2")?["completed"] == true)
    let (_, status) = client.finish()
    #expect(status == .exited(0))
    #expect(WorkerProcesses.remaining(before + after).isEmpty)
  }

  /// stdin EOF with workers running: the real-time transition plays to its end, the manual and the paused ones end
  /// "inputClosed", each exactly once; then exit 0 and no worker is left.
  @Test func endOfInputEndsEveryTransitionOnceAndLeavesNoWorker() throws {
    let client = try TransitionClient(isolationFlags)
    client.result("plugins/load", ["path": "libTestPluginMinimal.so"])
    client.result("plugins/load", ["path": "libTestPluginFaultNullDeref.so"])
    client.result("transition/start", IsolationScene.goodFade(duration: 0.4))
    client.result("transition/start", IsolationScene.start("com.example.test.fault.nullderef/sound"))
    client.result(
      "transition/start",
      IsolationScene.start("com.example.test.minimal/fade", clock: "realtime", extra: [("interactive", true)]))
    let workers = WorkerProcesses.of(client.host.pid)
    #expect(workers.count == 7)
    let (_, status) = client.finish()
    #expect(status == .exited(0))
    let ends = client.received.filter { $0["method"] == "transition/didEnd" }.compactMap { $0["params"] }
    #expect(ends.count == 3)
    #expect(ends.first { $0["transition"] == "t1" }?["completed"] == true)
    #expect(ends.first { $0["transition"] == "t2" }?["reason"] == "inputClosed")
    #expect(ends.first { $0["transition"] == "t3" }?["reason"] == "inputClosed")
    IsolationScene.checkGoodFade(client.received, "t1", duration: 0.4)
    #expect(WorkerProcesses.remaining(workers).isEmpty)
  }

  /// SIGTERM while a plugin loops in animateTransition: every transition ends once ("terminated"), the waiting start
  /// gets −32800, and the host exits 0 without waiting for the looping worker, leaving none behind.
  @Test func sigtermWithALoopingPluginEndsWithinTheBudgetAndLeavesNoWorker() throws {
    let client = try TransitionClient(["--plugin-timeout", "30"])
    client.result("plugins/load", ["path": "libTestPluginMinimal.so"])
    client.result("plugins/load", ["path": "libTestPluginFaultLoopAnimate.so"])
    client.result("transition/start", IsolationScene.goodFade(duration: 5))
    client.result("transition/start", IsolationScene.start("com.example.test.fault.loopanimate/sound"))
    client.send([
      "jsonrpc": "2.0", "id": 900, "method": "transition/start",
      "params": IsolationScene.start("com.example.test.fault.loopanimate/faulty"),
    ])
    usleep(200_000)  // the worker is in its loop now
    let workers = WorkerProcesses.of(client.host.pid)
    #expect(workers.count == 7)
    let signalled = Date()
    client.host.kill(SIGTERM)
    let status = client.host.waitForExit(timeout: 10)
    let elapsed = Date().timeIntervalSince(signalled)
    #expect(status == .exited(0))
    // The contract is one second; the bound is generous for a loaded machine (make bench measures it).
    #expect(elapsed < 2, "exited \(elapsed) s after SIGTERM")
    let messages = HostProcess.split(client.host.stdout.all()).map { try! JSON.parse($0) }
    #expect(messages.first { $0["id"] == 900 }?["error"]?["code"] == -32800)
    let ends = messages.filter { $0["method"] == "transition/didEnd" }.compactMap { $0["params"] }
    #expect(ends.compactMap { $0["transition"]?.stringValue }.sorted() == ["t1", "t2"])
    #expect(ends.allSatisfy { $0["reason"] == "terminated" })
    // t2's worker was killed before it answered: its last frame is its restored start state.
    let last = TransitionClient.frames(messages, of: "t2").last
    #expect(last?["phase"] == "ended")
    #expect(last?["views"]?.elements.compactMap { $0["id"]?.stringValue } == ["container", "home"])
    #expect(WorkerProcesses.remaining(workers).isEmpty)
  }

  /// 1,000 reload-and-run cycles of a Swift built-in: the host's resident set stays flat (the parent never maps plugin
  /// code), and only the current generations' workers remain. Sent 50 cycles at a time without waiting for each
  /// reply: a start right behind a reload waits for it, and the ids follow (t1, t2, …).
  ///
  /// Once in a full parallel `make test` on 2 cores, one of the 1,000 reloads answered an error (the text was not
  /// recorded then; the expectation now prints it). Hangs are not what this test is about, so its calls get a
  /// generous `--plugin-timeout` and a starved worker cannot fail it.
  @Test func reloadAndRunCyclesKeepTheHostFlat() throws {
    let host = try HostProcess(["--plugin-timeout", "20"])
    let plugin = "com.transitionhost.pulldown"
    let start = IsolationScene.start(plugin + "/pull-down", extra: [("frames", "none")]).serialized()
    var cycles = 0
    /// Sends `count` cycles and waits for their four lines each (reload, start and tick replies, one didEnd).
    func run(_ count: Int) {
      var lines: [String] = []
      for _ in 0..<count {
        cycles += 1
        lines.append(
          #"{"jsonrpc":"2.0","id":\#(cycles * 3),"method":"plugins/reload","params":{"plugin":"\#(plugin)"}}"#)
        lines.append(#"{"jsonrpc":"2.0","id":\#(cycles * 3 + 1),"method":"transition/start","params":\#(start)}"#)
        lines.append(
          #"{"jsonrpc":"2.0","id":\#(cycles * 3 + 2),"method":"transition/tick","params":{"transition":"t\#(cycles)","dt":1}}"#
        )
      }
      host.send(lines: lines)
      let deadline = Date(timeIntervalSinceNow: 60)
      while host.stdout.snapshot.lazy.filter({ $0 == 10 }).count < cycles * 4 && Date() < deadline { usleep(20_000) }
    }
    run(50)
    let before = try #require(host.statusField("VmRSS"))
    for _ in 0..<20 { run(50) }
    let after = try #require(host.statusField("VmRSS"))
    #expect(after - before < 4096, "VmRSS \(before) kB before, \(after) kB after 1000 cycles")
    let workers = WorkerProcesses.waitFor(5, of: host.pid)
    #expect(workers.count == 5)
    host.closeStdin()
    #expect(host.waitForExit() == .exited(0))
    let messages = HostProcess.split(host.stdout.all()).map { try! JSON.parse($0) }
    #expect(messages.count == cycles * 4)
    let errors = messages.filter { $0["error"] != nil }
    #expect(errors.isEmpty, "\(errors.map { $0.serialized() })")
    let ends = messages.filter { $0["method"] == "transition/didEnd" }
    #expect(ends.count == cycles)
    #expect(ends.allSatisfy { $0["params"]?["completed"] == true })
    #expect(messages.last { $0["id"] == JSON(cycles * 3) }?["result"]?["generation"] == JSON(cycles + 1))
    #expect(WorkerProcesses.remaining(workers).isEmpty)
  }
}

/// Flow control: a client that pipelines thousands of starts faster than a plugin's worker takes them waits in its own
/// pipe (the host stops reading while a worker's unwritten calls pass a bound), and still gets exactly one reply to each
/// request, in order, and every transition its frame.
@Suite struct IsolationFlowControlTests {
  @Test func pipelinedStartsBeyondAWorkersBacklogEachGetOneReplyInOrder() throws {
    let count = 2_000
    let client = try TransitionClient(isolationFlags + ["--plugin-timeout", "5", "--max-transitions", String(count)])
    var lines: [String] = []
    for id in 1...count {
      let start = IsolationScene.start("pull-down", extra: [("frames", "full")])
      lines.append(
        JSON.object([("jsonrpc", "2.0"), ("id", JSON(id)), ("method", "transition/start"), ("params", start)])
          .serialized())
    }
    // All at once (about 500 kB): the host's reads pause and resume while PullDown's worker works through them.
    #expect(client.host.send(lines: lines))
    let tickID = JSON(count + 1)
    client.send(["jsonrpc": "2.0", "id": tickID, "method": "transition/tick", "params": ["dt": 0.1]])
    let tick = client.waitFor(timeout: 120) { $0["id"] == tickID }
    #expect(tick?["result"]?["transitions"]?.count == count)
    let (messages, status) = client.finish(timeout: 120)
    #expect(status == .exited(0))
    let replies = messages.filter { $0["id"] != nil }
    let starts = replies.filter { ($0["id"]?.intValue ?? 0) <= Int64(count) }
    #expect(starts.map { $0["id"]?.intValue } == (1...count).map { Int64($0) }, "the start replies' ids")
    let failed = starts.first { $0["result"]?["transition"] == nil }
    #expect(failed == nil, "\(failed?.serialized() ?? "")")
    #expect(replies.count == count + 1)
    let framed = Set(TransitionClient.frames(messages).compactMap { $0["transition"]?.stringValue })
    #expect(framed == Set((1...count).map { "t\($0)" }))
  }
}
