// Plugins in worker processes, against the built binary: one fixture plugin per fault (Tests/Fixtures/Fault*, each
// with a sound animator and a faulty one), each with a good transition of another plugin playing alongside in real time
// that must complete with the right geometry and its frames on time. Expected values come from the fixtures'
// definitions (TestPluginMinimal's fade: alpha along easeInOut over its `duration`; the fault fixtures' sound
// animator: alpha 0 → 1 linearly over 0.4 s) and the published curves (`Reference`).

import Foundation
import Glibc
import JSON
import TestSupport
import Testing

/// One fault and what the host must report for it.
struct FaultCase: Sendable, CustomTestStringConvertible {
  /// How the fault is triggered: the faulty animator's start, or a tick of its transition past its 0.2 s completion.
  enum Trigger: Sendable {
    case start
    case tick
  }

  var product: String
  var plugin: String
  var trigger: Trigger
  var code: Int
  var reason: String
  var phase: String?
  var signal: String?
  var exitStatus: Int?
  /// A line of the worker's stderr the report must keep.
  var stderrLine: String?
  /// Words of `data.detail` (a broken rule of the channel).
  var detail: String?
  /// More host flags (after `isolationFlags`: a later value wins).
  var flags: [String] = []

  var testDescription: String { product }

  static let all: [FaultCase] = [
    FaultCase(
      product: "FaultNullDeref", plugin: "com.example.test.fault.nullderef", trigger: .start, code: 2009,
      reason: "pluginCrashed", phase: "animateTransition", signal: "SIGSEGV"),
    FaultCase(
      product: "FaultAbort", plugin: "com.example.test.fault.abort", trigger: .tick, code: 2009,
      reason: "pluginCrashed", phase: "completion", signal: "SIGABRT"),
    FaultCase(
      product: "FaultExit", plugin: "com.example.test.fault.exit", trigger: .start, code: 2009, reason: "pluginCrashed",
      phase: "transitionDuration", exitStatus: 3),
    FaultCase(
      product: "FaultRecursion", plugin: "com.example.test.fault.recursion", trigger: .start, code: 2009,
      reason: "pluginCrashed", phase: "animateTransition", signal: "SIGSEGV"),
    FaultCase(
      product: "FaultLoopAnimate", plugin: "com.example.test.fault.loopanimate", trigger: .start, code: 2010,
      reason: "pluginHung", phase: "animateTransition"),
    FaultCase(
      product: "FaultLoopCompletion", plugin: "com.example.test.fault.loopcompletion", trigger: .tick, code: 2010,
      reason: "pluginHung", phase: "completion"),
    // Filling 256 MB takes a while on a loaded machine: a longer timeout, so that it is the limit that stops it.
    FaultCase(
      product: "FaultLoopDuration", plugin: "com.example.test.fault.loopduration", trigger: .start, code: 2010,
      reason: "pluginHung", phase: "transitionDuration"),
    FaultCase(
      product: "FaultMalloc", plugin: "com.example.test.fault.malloc", trigger: .start, code: 2009,
      reason: "pluginCrashed", phase: "animateTransition", signal: "SIGSEGV", flags: ["--plugin-timeout", "10"]),
    FaultCase(
      product: "FaultSwiftUnwrap", plugin: "com.example.test.fault.swiftunwrap", trigger: .start, code: 2009,
      reason: "pluginCrashed", phase: "animateTransition", signal: "SIGILL",
      stderrLine: "Fatal error: Unexpectedly found nil while unwrapping an Optional value"),
    FaultCase(
      product: "FaultForger", plugin: "com.example.test.fault.forger", trigger: .start, code: 2009,
      reason: "pluginCrashed", detail: "broke the channel's rules"),
    FaultCase(
      product: "FaultChannelForger", plugin: "com.example.test.fault.channelforger", trigger: .start, code: 2009,
      reason: "pluginCrashed", detail: "broke the channel's rules"),
    FaultCase(
      product: "FaultAheadForger", plugin: "com.example.test.fault.aheadforger", trigger: .start, code: 2009,
      reason: "pluginCrashed", detail: "a frame ahead for a prepare never sent"),
  ]
}

/// The options every isolation test's host gets: short timeouts, a small memory limit (the malloc fixture fills it).
let isolationFlags = ["--plugin-timeout", "0.5", "--plugin-memory-limit", "256M"]

/// Trees and starts of the isolation tests: a 400 × 800 container, from "home", to "detail".
enum IsolationScene {
  static var container: JSON { ["width": 400, "height": 800] }
  static func tree(_ id: String) -> JSON { ["id": JSON(id), "frame": ["x": 0, "y": 0, "width": 400, "height": 800]] }

  static func start(_ animator: String, clock: String = "manual", extra: [(String, JSON)] = []) -> JSON {
    .object(
      [
        ("animator", JSON(animator)), ("operation", "present"), ("container", container), ("from", tree("home")),
        ("to", tree("detail")), ("clock", JSON(clock)),
      ] + extra)
  }

  /// TestPluginMinimal's fade over `duration` s at 30 fps in real time: the good transition beside a fault.
  static func goodFade(duration: Double) -> JSON {
    start(
      "com.example.test.minimal/fade", clock: "realtime",
      extra: [("fps", 30), ("params", ["duration": JSON.number(duration)])])
  }

  /// Checks the good fade's frames (`t`): consecutive, each alpha on easeInOut at its own time, the last one at the
  /// end (alpha 1, the final frame), and on time: no gap of timeline time between two frames above `maximumGap`
  /// (1/30 s apart when on time; generous, for a loaded machine — gaps of 0.26–0.37 s were seen at load 16 — yet
  /// below the 0.5 s `--plugin-timeout` of `isolationFlags`, so a loop that waited on a hung worker still fails it).
  static func checkGoodFade(
    _ messages: [JSON], _ t: String, duration: Double, maximumGap: Double = 0.4,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let frames = TransitionClient.frames(messages, of: t)
    #expect(frames.count >= 5, "\(frames.count) frames", sourceLocation: sourceLocation)
    #expect(
      frames.compactMap { $0["seq"]?.intValue } == Array(0..<Int64(frames.count)), sourceLocation: sourceLocation)
    let times = frames.compactMap { $0["time"]?.doubleValue }
    let gaps = zip(times, times.dropFirst()).map { $1 - $0 }
    #expect(gaps.allSatisfy { $0 >= 0 }, sourceLocation: sourceLocation)
    #expect((gaps.max() ?? 0) <= maximumGap, "frame times \(times)", sourceLocation: sourceLocation)
    for frame in frames.dropLast() {
      guard let time = frame["time"]?.doubleValue, let alpha = frame.view("detail")?["alpha"]?.doubleValue else {
        Issue.record("a frame without time or detail alpha: \(frame)", sourceLocation: sourceLocation)
        continue
      }
      #expect(abs(alpha - Reference.easeInOut(min(time / duration, 1))) < 1e-9, sourceLocation: sourceLocation)
    }
    let last = frames.last
    #expect(last?["phase"]?.stringValue == "ended", sourceLocation: sourceLocation)
    #expect(last?.view("detail")?["alpha"]?.doubleValue == 1, sourceLocation: sourceLocation)
    #expect(
      last?.view("detail")?["frame"] == ["x": 0, "y": 0, "width": 400, "height": 800], sourceLocation: sourceLocation)
  }

  /// A transition of the plugin's sound animator (or another that animates as it does) completes, with the fault
  /// fixtures' linear fade: alpha 0 → 1 over 0.4 s.
  static func expectSoundCompletes(
    _ client: TransitionClient, _ plugin: String, animator: String = "sound",
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let started = client.result("transition/start", start(plugin + "/" + animator))
    let id = try #require(started["transition"]?.stringValue, sourceLocation: sourceLocation)
    let ticked = client.result("transition/tick", ["transition": JSON(id), "dt": 0.1])
    #expect(ticked["transitions"]?[0]?["percent"]?.doubleValue == 0.25, sourceLocation: sourceLocation)
    let frame = TransitionClient.frames(client.received, of: id).last
    #expect(frame?.view("detail")?["alpha"]?.doubleValue == 0.25, sourceLocation: sourceLocation)
    client.result("transition/tick", ["transition": JSON(id), "dt": 0.5])
    #expect(client.waitForDidEnd(id)?["completed"] == true, sourceLocation: sourceLocation)
  }
}

@Suite struct IsolationFaultTests {
  /// For each fault: the host stays up and answers meanwhile, the faulty call and every transition of that plugin end
  /// exactly once with the documented reason and code, plugins/list shows the crash, the plugin works again on its next
  /// transition and after plugins/reload, and another plugin's transition plays through it on time.
  @Test(arguments: FaultCase.all)
  func aFaultEndsOnlyItsPluginsTransitions(_ fault: FaultCase) throws {
    let client = try TransitionClient(isolationFlags + fault.flags)
    #expect(client.result("plugins/load", ["path": "libTestPluginMinimal.so"])["id"] != nil)
    #expect(
      client.result("plugins/load", ["path": JSON("libTestPlugin\(fault.product).so")])["id"]?.stringValue
        == fault.plugin)
    let goodDuration = 1.2
    #expect(client.result("transition/start", IsolationScene.goodFade(duration: goodDuration))["transition"] == "t1")
    #expect(client.result("transition/start", IsolationScene.start(fault.plugin + "/sound"))["transition"] == "t2")

    // The faulty call, and right behind it a request that needs no plugin: answered first while the worker hangs.
    let faultyID: Int
    switch fault.trigger {
    case .start:
      faultyID = 900
      client.send([
        "jsonrpc": "2.0", "id": 900, "method": "transition/start",
        "params": IsolationScene.start(fault.plugin + "/faulty"),
      ])
    case .tick:
      #expect(client.result("transition/start", IsolationScene.start(fault.plugin + "/faulty"))["transition"] == "t3")
      faultyID = 900
      client.send([
        "jsonrpc": "2.0", "id": 900, "method": "transition/tick", "params": ["transition": "t3", "dt": 0.3],
      ])
    }
    client.send(["jsonrpc": "2.0", "id": 901, "method": "animators/list"])
    let reply = try #require(client.waitFor { $0["id"]?.intValue == Int64(faultyID) })
    let other = try #require(client.waitFor { $0["id"]?.intValue == 901 })
    #expect(other["result"]?["animators"]?.count ?? 0 >= 4)
    if fault.code == 2010 {
      let replies = client.takeNotifications().compactMap { $0["id"]?.intValue }
      #expect(replies.firstIndex(of: 901)! < replies.firstIndex(of: 900)!, "answered while the worker hung: \(replies)")
    }
    let error = try #require(reply["error"], "\(reply)")
    #expect(error["code"]?.intValue == Int64(fault.code))
    checkReport(error["data"], fault)

    // The sound transition of the same plugin (same worker) ends once: its start state restored, then didEnd.
    let didEnd = try #require(client.waitForDidEnd("t2"))
    #expect(didEnd["completed"] == false)
    #expect(didEnd["cancelled"] == true)
    #expect(didEnd["reason"]?.stringValue == fault.reason)
    #expect(didEnd["error"]?["code"]?.intValue == Int64(fault.code))
    checkReport(didEnd["error"]?["data"], fault)
    let soundFrames = TransitionClient.frames(client.received, of: "t2")
    let restored = try #require(soundFrames.last)
    #expect(restored["phase"] == "ended")
    #expect(restored["time"] == 0)
    #expect(restored["views"]?.elements.compactMap { $0["id"]?.stringValue } == ["container", "home"])
    #expect(client.received.contains { $0["method"] == "window/logMessage" && $0["params"]?["type"] == 1 })

    let listed = client.result("plugins/list")["plugins"]?.elements.first { $0["id"]?.stringValue == fault.plugin }
    #expect(listed?["state"] == "loaded")
    #expect(listed?["crashCount"] == 1)
    #expect(listed?["lastCrash"]?["reason"]?.stringValue == fault.reason)
    #expect(listed?["lastCrash"]?["code"]?.intValue == Int64(fault.code))

    // The next transition gets a fresh worker of the same generation; a reload a new generation.
    try IsolationScene.expectSoundCompletes(client, fault.plugin)
    let reloaded = client.result("plugins/reload", ["plugin": JSON(fault.plugin)])
    #expect(reloaded["generation"] == 2)
    #expect(reloaded["crashCount"] == 0)
    try IsolationScene.expectSoundCompletes(client, fault.plugin)

    // The other plugin's transition played through all of it.
    let goodEnd = try #require(client.waitForDidEnd("t1"))
    #expect(goodEnd.serialized() == #"{"transition":"t1","completed":true,"cancelled":false}"#)
    IsolationScene.checkGoodFade(client.received, "t1", duration: goodDuration)

    let workers = WorkerProcesses.of(client.host.pid)
    #expect(workers.count >= 2)
    let (_, status) = client.finish()
    #expect(status == .exited(0))
    let all = client.received
    // Nothing a plugin forged reached the client (a crash report may quote its stderr, inside a string), and every
    // line parsed (finish would have trapped otherwise).
    #expect(!all.contains { $0["result"]?.stringValue?.contains("forged") == true })
    #expect(all.filter { $0["id"] == 1 }.count == 1)
    let ends = all.filter { $0["method"] == "transition/didEnd" }.compactMap {
      $0["params"]?["transition"]?.stringValue
    }
    #expect(ends.count == Set(ends).count, "each transition ends once: \(ends)")
    #expect(WorkerProcesses.remaining(workers).isEmpty)
  }

  /// A tick of many transitions of one worker is answered in parts (the frames of the first ones are forwarded while
  /// the worker makes the rest). A crash in the middle of it, after parts were forwarded: every transition ends
  /// exactly once (pluginCrashed), the ones answered before the crash with their tick's frame first, and no frame
  /// comes twice or out of order.
  @Test func aCrashInTheMiddleOfABatchTickEndsEachTransitionOnce() throws {
    let client = try TransitionClient(isolationFlags)
    let plugin = "com.example.test.fault.abort"
    #expect(client.result("plugins/load", ["path": "libTestPluginFaultAbort.so"])["id"]?.stringValue == plugin)
    // 60 sound transitions streaming full frames (3 views, about 1.8 KB a frame: 100 KB per tick, several parts), then the
    // faulty one, whose completion aborts.
    let sound = 60
    let full: [(String, JSON)] = [("frames", "full")]
    for index in 1...sound {
      #expect(
        client.result("transition/start", IsolationScene.start(plugin + "/sound", extra: full))["transition"]
          == JSON("t\(index)"))
    }
    let faulty = "t\(sound + 1)"
    #expect(
      client.result("transition/start", IsolationScene.start(plugin + "/faulty", extra: full))["transition"]
        == JSON(faulty))
    // The tick that runs the faulty completion: the sound transitions come first in it.
    client.send(["jsonrpc": "2.0", "id": 900, "method": "transition/tick", "params": ["dt": 0.25]])
    _ = try #require(client.waitFor { $0["id"]?.intValue == 900 })
    for index in 1...(sound + 1) { #expect(client.waitForDidEnd("t\(index)") != nil) }
    // The host still serves, and a fresh worker runs the plugin.
    try IsolationScene.expectSoundCompletes(client, plugin)
    let (messages, status) = client.finish()
    #expect(status == .exited(0))
    #expect(messages.filter { $0["id"] == 900 }.count == 1)
    let ends = messages.filter { $0["method"] == "transition/didEnd" }
    for index in 1...(sound + 1) {
      let id = "t\(index)"
      let mine = ends.filter { $0["params"]?["transition"] == JSON(id) }
      #expect(mine.count == 1, "\(id) ended \(mine.count) times")
      #expect(mine.first?["params"]?["reason"] == "pluginCrashed", "\(id)")
      let frames = TransitionClient.frames(messages, of: id)
      #expect(frames.compactMap { $0["seq"]?.intValue } == Array(0..<Int64(frames.count)), "\(id)")
      #expect(frames.last?["phase"] == "ended", "\(id)")
    }
    // The first transition was answered in a part before the crash: its tick's frame (0.25 s: the sound animator's
    // linear alpha 0.25 / 0.4) came before its restored start state.
    let first = TransitionClient.frames(messages, of: "t1")
    #expect(first.count == 3, "start, the tick, the restored state: \(first.count)")
    let alpha = try #require(first.dropLast().last?.view("detail")?["alpha"]?.doubleValue)
    #expect(abs(alpha - 0.25 / 0.4) < 1e-9)
  }

  private func checkReport(_ data: JSON?, _ fault: FaultCase, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(data?["plugin"]?.stringValue == fault.plugin, sourceLocation: sourceLocation)
    #expect(
      data?["path"]?.stringValue?.hasSuffix("libTestPlugin\(fault.product).so") == true, sourceLocation: sourceLocation)
    if let phase = fault.phase {
      #expect(data?["phase"]?.stringValue == phase, "\(String(describing: data))", sourceLocation: sourceLocation)
      #expect(data?["animator"]?.stringValue == fault.plugin + "/faulty", sourceLocation: sourceLocation)
    }
    if let signal = fault.signal { #expect(data?["signal"]?.stringValue == signal, sourceLocation: sourceLocation) }
    if let status = fault.exitStatus {
      #expect(data?["exitStatus"]?.intValue == Int64(status), sourceLocation: sourceLocation)
    }
    if fault.code == 2010 { #expect(data?["timeout"]?.doubleValue == 0.5, sourceLocation: sourceLocation) }
    if fault.code == 2009 { #expect(data?["timeout"] == nil, sourceLocation: sourceLocation) }
    if let line = fault.stderrLine {
      #expect(
        data?["stderr"]?.elements.contains { $0.stringValue?.contains(line) == true } == true,
        "\(String(describing: data?["stderr"]))", sourceLocation: sourceLocation)
    }
    if let detail = fault.detail {
      #expect(data?["detail"]?.stringValue?.contains(detail) == true, sourceLocation: sourceLocation)
    }
  }
}
