import Foundation
import JSON
import TestSupport
import Testing

/// The transition protocol over pipes, against the built `transition-host` and the C fixture plugins beside it
/// (TestPluginMinimal: "fade" cross-fades the to view in with easeInOut over its `duration` param, default 0.4 s;
/// "slide" moves the presented view up from below, or the dismissed one down, on a critically damped UIKit spring
/// of 0.4 s). Expected geometry comes from those definitions and the published curves (`Reference`).
@Suite(.serialized) struct TransitionProtocolTests {
  static var container: JSON { ["width": 400, "height": 800] }

  static func tree(_ id: String, children: [JSON] = []) -> JSON {
    ["id": JSON(id), "frame": ["x": 0, "y": 0, "width": 400, "height": 800], "children": .array(children)]
  }

  static func start(
    _ animator: String, operation: String = "present", clock: String = "manual", interactive: Bool = false,
    extra: [(String, JSON)] = []
  ) -> JSON {
    .object(
      [
        ("animator", JSON(animator)), ("operation", JSON(operation)), ("container", container),
        ("from", tree("home", children: [["id": "title", "frame": ["x": 20, "y": 40, "width": 200, "height": 30]]])),
        ("to", tree("detail")), ("clock", JSON(clock)), ("interactive", JSON(interactive)),
      ] + extra)
  }

  private func client(_ arguments: [String] = []) throws -> TransitionClient {
    let client = try TransitionClient(arguments)
    let loaded = client.result("plugins/load", ["path": "libTestPluginMinimal.so"])
    #expect(loaded["id"]?.stringValue == "com.example.test.minimal")
    return client
  }

  // MARK: Real time

  @Test func aNonInteractivePresentPlaysToItsEndInRealTimeAfterEndOfInput() throws {
    let client = try client()
    client.send([
      "jsonrpc": "2.0", "id": 100, "method": "transition/start",
      "params": Self.start("fade", clock: "realtime", extra: [("fps", 30)]),
    ])
    let (messages, status) = client.finish()
    #expect(status == .exited(0))
    #expect(messages.first { $0["id"]?.intValue == 100 }?["result"]?["duration"]?.doubleValue == 0.4)
    let frames = TransitionClient.frames(messages)
    #expect(frames.count >= 2)
    #expect(frames.compactMap { $0["seq"]?.intValue } == Array(0..<Int64(frames.count)))
    let times = frames.compactMap { $0["time"]?.doubleValue }
    #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
    // Each frame shows the alpha the curve gives for its own time.
    for frame in frames.dropLast() {
      let time = try #require(frame["time"]?.doubleValue)
      let alpha = try #require(frame.view("detail")?["alpha"]?.doubleValue)
      #expect(abs(alpha - Reference.easeInOut(time / 0.4)) < 1e-9)
    }
    let last = try #require(frames.last)
    #expect(last["phase"]?.stringValue == "ended")
    #expect(last.view("detail")?["alpha"]?.doubleValue == 1)
    let ends = messages.filter { $0["method"]?.stringValue == "transition/didEnd" }
    #expect(ends.count == 1)
    #expect(ends.first?["params"]?.serialized() == #"{"transition":"t1","completed":true,"cancelled":false}"#)
    #expect(messages.last?["method"]?.stringValue == "transition/didEnd")
  }

  // MARK: Interaction

  /// A dismiss of "home" by the slide animator, driven to 0.3 and 0.6, then released with `velocity`.
  private func interactiveDismiss(velocity: Double) throws -> (first: JSON, messages: [JSON], status: ExitStatus?) {
    let client = try client()
    let started = client.result(
      "transition/start", Self.start("slide", operation: "dismiss", clock: "realtime", interactive: true))
    #expect(started["transition"]?.stringValue == "t1")
    let first = try #require(client.waitFor { $0["method"]?.stringValue == "transition/frame" }?["params"])
    #expect(first["phase"]?.stringValue == "paused")
    #expect(first.y("home") == 0)
    for percent in [0.3, 0.6] {
      let reply = client.result("transition/update", ["transition": "t1", "percent": JSON(percent)])
      #expect(reply["phase"]?.stringValue == "paused")
      let frame = try #require(TransitionClient.frames(client.takeNotifications()).last)
      #expect(frame["percent"]?.doubleValue == percent)
      // The from root moves from y = 0 to the container's height on a 0.4 s spring, scrubbed to t = p · 0.4.
      let expected = 800 * UIKitSpring(dampingRatio: 1, duration: 0.4).progress(percent * 0.4)
      let y = try #require(frame.y("home"))
      #expect(abs(y - expected) < 1e-6, "y at \(percent): \(y), expected \(expected)")
    }
    let released = client.result("transition/release", ["transition": "t1", "velocity": JSON(velocity)])
    #expect(released["decision"]?.stringValue == (velocity > 0 ? "finish" : "cancel"))
    #expect(client.waitForDidEnd("t1") != nil)
    let (_, status) = client.finish()
    return (first, client.received, status)
  }

  @Test func anInteractiveDismissReleasedForwardFinishes() throws {
    let (_, messages, status) = try interactiveDismiss(velocity: 2)
    #expect(status == .exited(0))
    let frames = TransitionClient.frames(messages)
    let last = try #require(frames.last)
    #expect(last["phase"]?.stringValue == "ended")
    // Completed dismissal: the from root and its child left the container.
    #expect(last.view("home") == nil)
    #expect(last.view("title") == nil)
    let didEnd = messages.first { $0["method"]?.stringValue == "transition/didEnd" }?["params"]
    #expect(didEnd?["completed"]?.boolValue == true)
    #expect(messages.filter { $0["method"]?.stringValue == "transition/didEnd" }.count == 1)
  }

  @Test func anInteractiveDismissReleasedBackwardsCancelsToExactlyWhereItStarted() throws {
    let (first, messages, status) = try interactiveDismiss(velocity: -2)
    #expect(status == .exited(0))
    let last = try #require(TransitionClient.frames(messages).last)
    #expect(last["phase"]?.stringValue == "ended")
    #expect(last["views"] == first["views"])
    let didEnd = messages.first { $0["method"]?.stringValue == "transition/didEnd" }?["params"]
    #expect(didEnd?.serialized() == #"{"transition":"t1","completed":false,"cancelled":true}"#)
  }

  // MARK: Manual clock

  @Test func aSampledManualTransitionMatchesHandComputedGeometry() throws {
    let client = try client()
    #expect(client.result("transition/start", Self.start("fade"))["duration"]?.doubleValue == 0.4)
    #expect(client.result("transition/start", Self.start("slide"))["duration"]?.doubleValue == 0.4)
    for percent in [0.0, 0.1, 0.25, 0.5, 0.8, 1.0] {
      let fade = client.result("transition/sample", ["transition": "t1", "percent": JSON(percent)])
      let alpha = try #require(fade.view("detail")?["alpha"]?.doubleValue)
      #expect(abs(alpha - Reference.easeInOut(percent)) < 1e-9, "alpha at \(percent)")
      // The fade sets the presented view to its final frame (the container's bounds) at once.
      #expect(fade.view("detail")?["frame"]?.serialized() == #"{"x":0,"y":0,"width":400,"height":800}"#)
    }
    for percent in [0.1, 0.25, 0.5, 0.8] {
      let slide = client.result("transition/sample", ["transition": "t2", "percent": JSON(percent)])
      let y = try #require(slide.y("detail"))
      let expected = 800 * (1 - UIKitSpring(dampingRatio: 1, duration: 0.4).progress(percent * 0.4))
      #expect(abs(y - expected) < 1e-6, "y at \(percent)")
      // The world matrix of the presented root is a pure translation by its frame origin.
      let world = slide.view("detail")?["worldTransform"]?.elements.compactMap { $0.doubleValue }
      #expect(world == [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, y, 0, 1])
    }
    // Sampling moved nothing: the stream continues at time 0 + dt.
    let ticked = client.result("transition/tick", ["transition": "t1", "dt": 0.1])
    #expect(ticked["transitions"]?[0]?["time"]?.doubleValue == 0.1)
    let (_, status) = client.finish()
    #expect(status == .exited(0))
  }

  @Test func twoConcurrentTransitionsRunIndependently() throws {
    let client = try client()
    client.result("transition/start", Self.start("fade"))
    client.result("transition/start", Self.start("fade", extra: [("params", ["duration": 0.8])]))
    _ = client.takeNotifications()
    let reply = client.result("transition/tick", ["dt": 0.2])
    #expect(reply["transitions"]?.elements.compactMap { $0["percent"]?.doubleValue } == [0.5, 0.25])
    let frames = TransitionClient.frames(client.takeNotifications())
    #expect(frames.compactMap { $0["transition"]?.stringValue } == ["t1", "t2"])
    #expect(
      frames.compactMap { $0.view("detail")?["alpha"]?.doubleValue }.map { ($0 * 1e9).rounded() / 1e9 } == [
        (Reference.easeInOut(0.5) * 1e9).rounded() / 1e9, (Reference.easeInOut(0.25) * 1e9).rounded() / 1e9,
      ])
    // The first ends at 0.4 s; the second keeps going.
    client.result("transition/tick", ["dt": 0.2])
    #expect(client.waitForDidEnd("t1")?["completed"]?.boolValue == true)
    let list = client.result("transition/list")
    #expect(list["transitions"]?.elements.compactMap { $0["transition"]?.stringValue } == ["t2"])
    // End of input ends the manual one, cancelled.
    let (messages, status) = client.finish()
    #expect(status == .exited(0))
    let end = messages.last { $0["method"]?.stringValue == "transition/didEnd" }?["params"]
    #expect(end?.serialized() == #"{"transition":"t2","completed":false,"cancelled":true,"reason":"inputClosed"}"#)
  }

  @Test func sigtermEndsEveryTransitionCancelled() throws {
    let client = try client()
    client.result("transition/start", Self.start("fade", clock: "realtime", extra: [("params", ["duration": 10])]))
    client.result("transition/start", Self.start("fade", interactive: true))
    client.host.kill(SIGTERM)
    let status = client.host.waitForExit()
    #expect(status == .exited(0))
    let messages = client.host.allLines().map { try! JSON.parse($0) }
    let ends = messages.filter { $0["method"]?.stringValue == "transition/didEnd" }.compactMap { $0["params"] }
    #expect(ends.count == 2)
    #expect(ends.allSatisfy { $0["reason"]?.stringValue == "terminated" && $0["cancelled"]?.boolValue == true })
  }

  /// fps is any number in (0, 1000]: at 1e-9 the next frame is 31 years away, at 1e-12 past what a timer's Int64
  /// nanoseconds hold. Frames are only how often the transition is shown: its timeline follows the clock, so the
  /// 0.4 s fade still ends after 0.4 s, `transition/wait` answers, and the host exits at end of input.
  @Test(arguments: [1e-9, 1e-12])
  func aTinyFrameRateStillEndsOnTimeAndTheHostExitsAtEndOfInput(fps: Double) throws {
    let client = try client()
    let begin = Date()
    let started = client.result("transition/start", Self.start("fade", clock: "realtime", extra: [("fps", JSON(fps))]))
    #expect(started["transition"]?.stringValue == "t1")
    #expect(started["duration"]?.doubleValue == 0.4)
    let listed = client.result("transition/list")["transitions"]?[0]
    #expect(listed?["fps"]?.doubleValue == fps)
    #expect(listed?["phase"]?.stringValue == "running")
    client.send(["jsonrpc": "2.0", "id": "wait", "method": "transition/wait", "params": ["transition": "t1"]])
    let (messages, status) = client.finish(timeout: 20)
    #expect(status == .exited(0))
    #expect(Date().timeIntervalSince(begin) < 10)  // before: never (the host waited for a frame 1e12 s away)
    let wait = messages.first { $0["id"]?.stringValue == "wait" }
    #expect(wait?["result"]?.serialized() == #"{"transition":"t1","completed":true,"cancelled":false}"#)
    // The first frame, then the last one at the end of the timeline; nothing in between.
    let frames = TransitionClient.frames(client.received)
    #expect(frames.map { $0["seq"]?.intValue } == [0, 1])
    #expect(frames.last?["time"]?.doubleValue == 0.4 && frames.last?["phase"]?.stringValue == "ended")
  }

  /// At fps 0.2 a frame is due every 5 s; the 1 s fade still ends at 1 s of clock, with its last frame and didEnd.
  @Test func aLowFrameRateEndsOnTheClock() throws {
    let client = try client()
    let begin = Date()
    client.result(
      "transition/start",
      Self.start("fade", clock: "realtime", extra: [("fps", 0.2), ("params", ["duration": 1])]))
    let didEnd = try #require(client.waitForDidEnd("t1", timeout: 20))
    let elapsed = Date().timeIntervalSince(begin)
    #expect(didEnd["completed"]?.boolValue == true)
    #expect(elapsed >= 0.99 && elapsed < 4, "ended after \(elapsed) s (before: 5 s, at the first frame tick)")
    let frames = TransitionClient.frames(client.received)
    #expect(frames.map { $0["seq"]?.intValue } == [0, 1])
    #expect(frames.last?["time"]?.doubleValue == 1 && frames.last?["percent"]?.doubleValue == 1)
    #expect(client.finish().status == .exited(0))
  }

  /// A call acts when it arrives, not at the last frame: at fps 0.5, pausing 0.3 s into a running 1 s fade holds it
  /// near 0.3, though no frame has moved it yet.
  @Test func aCallActsAtTheMomentItArrivesWhateverTheFrameRate() throws {
    let client = try client()
    client.result(
      "transition/start",
      Self.start("fade", clock: "realtime", extra: [("fps", 0.5), ("params", ["duration": 1])]))
    usleep(300_000)
    let paused = client.result("transition/pause", ["transition": "t1"])
    let time = try #require(paused["time"]?.doubleValue)
    #expect(time >= 0.29 && time < 0.9, "paused at \(time) s (before: 0, the last frame's time)")
    #expect(paused["phase"]?.stringValue == "paused")
    #expect(client.finish().status == .exited(0))
  }

  @Test func waitIsAnsweredAtTheEndAndCancellable() throws {
    let client = try client()
    client.result("transition/start", Self.start("fade"))
    client.send(["jsonrpc": "2.0", "id": "wait-1", "method": "transition/wait", "params": ["transition": "t1"]])
    client.send(["jsonrpc": "2.0", "id": "wait-2", "method": "transition/wait", "params": ["transition": "t1"]])
    client.notify("$/cancelRequest", ["id": "wait-2"])
    let cancelled = client.waitFor { $0["id"]?.stringValue == "wait-2" }
    #expect(cancelled?["error"]?["code"]?.intValue == -32800)
    client.result("transition/tick", ["dt": 1])
    let answered = client.waitFor { $0["id"]?.stringValue == "wait-1" }
    #expect(answered?["result"]?.serialized() == #"{"transition":"t1","completed":true,"cancelled":false}"#)
    let (_, status) = client.finish()
    #expect(status == .exited(0))
    // Exactly one reply each: the cancelled wait gets nothing more when the transition ends.
    #expect(client.received.filter { $0["id"]?.stringValue == "wait-2" }.count == 1)
    #expect(client.received.filter { $0["id"]?.stringValue == "wait-1" }.count == 1)
  }

  @Test func aReloadLeavesRunningTransitionsOnTheirGeneration() throws {
    let client = try client()
    client.result("transition/start", Self.start("fade"))
    let reloaded = client.result("plugins/reload", ["plugin": "com.example.test.minimal"])
    #expect(reloaded["generation"]?.intValue == 2)
    // The running transition still has its animator (generation 1) and completes; a new one uses generation 2.
    client.result("transition/tick", ["dt": 1])
    #expect(client.waitForDidEnd("t1")?["completed"]?.boolValue == true)
    #expect(client.result("transition/start", Self.start("fade"))["duration"]?.doubleValue == 0.4)
    client.result("transition/tick", ["dt": 1])
    #expect(client.waitForDidEnd("t2")?["completed"]?.boolValue == true)
    let plugins = client.result("plugins/list")["plugins"]?.elements ?? []
    #expect(plugins.first { $0["id"]?.stringValue == "com.example.test.minimal" }?["generation"]?.intValue == 2)
    let (_, status) = client.finish()
    #expect(status == .exited(0))
  }

  // MARK: Errors

  @Test func misbehavingAnimatorsAreReportedAndNeverStopTheHost() throws {
    let client = try TransitionClient()
    #expect(client.result("plugins/load", ["path": "libTestPluginMisuse.so"])["id"]?.stringValue != nil)
    // Animates for 0.2 s, then never completes: a warning, then a failed didEnd with 2008, the start restored.
    client.result("transition/start", Self.start("never-completes", extra: [("frames", "delta")]))
    client.result("transition/tick", ["dt": 0.5])
    let messages = client.takeNotifications()
    let log = messages.first { $0["method"]?.stringValue == "window/logMessage" }?["params"]
    #expect(log?["type"]?.intValue == 2)
    #expect(log?["data"]?["kind"]?.stringValue == "neverCompleted")
    // The same warning is on stderr (Protocol.md, window/logMessage), at the default --log-level warn.
    let message = try #require(log?["message"]?.stringValue)
    let stderr = client.host.stderr.wait(timeout: 10) { String(decoding: $0, as: UTF8.self).contains(message) }
    #expect(String(decoding: stderr, as: UTF8.self).contains("transition-host: warn: " + message + "\n"))
    let didEnd = try #require(client.waitForDidEnd("t1"))
    #expect(didEnd["reason"]?.stringValue == "neverCompleted")
    #expect(didEnd["error"]?["code"]?.intValue == 2008)
    let last = try #require(TransitionClient.frames(messages).last)
    #expect(last["removed"]?.elements.compactMap(\.stringValue) == ["detail"])
    // create returns NULL: 2008 at once, and no transition exists.
    let refused = client.error("transition/start", Self.start("create-fails"))
    #expect(refused["code"]?.intValue == 2008)
    #expect(client.result("transition/list")["transitions"]?.count == 0)
    // Completes twice: reported, and the transition still completes once.
    client.result("transition/start", Self.start("complete-twice"))
    client.result("transition/tick", ["dt": 0.5])
    let twice = client.takeNotifications()
    #expect(
      twice.contains {
        $0["method"]?.stringValue == "window/logMessage"
          && $0["params"]?["data"]?["kind"]?.stringValue == "completedTwice"
      })
    #expect(client.waitForDidEnd("t2")?["completed"]?.boolValue == true)
    // A plugin that writes to its stdout cannot corrupt the protocol stream: every line still parses.
    client.result("transition/start", Self.start("writes-stdout"))
    client.result("transition/tick", ["dt": 0.5])
    #expect(client.waitForDidEnd("t3")?["completed"]?.boolValue == true)
    let (_, status) = client.finish()
    #expect(status == .exited(0))
  }

  @Test func logLevelErrorKeepsMisbehaviourWarningsOffStderr() throws {
    let client = try TransitionClient(["--log-level", "error"])
    client.result("plugins/load", ["path": "libTestPluginMisuse.so"])
    client.result("transition/start", Self.start("never-completes"))
    client.result("transition/tick", ["dt": 0.5])
    #expect(client.waitForDidEnd("t1")?["reason"]?.stringValue == "neverCompleted")
    #expect(client.finish().status == .exited(0))
    #expect(!String(decoding: client.host.stderr.all(), as: UTF8.self).contains("misbehaved"))
  }

  @Test func queuedUpdateNotificationsCollapseToTheLatest() throws {
    let client = try client()
    client.result("transition/start", Self.start("fade", interactive: true))
    _ = client.takeNotifications()
    // One write (atomic on a pipe, well under PIPE_BUF): the host reads all five updates at once.
    let updates = [0.1, 0.2, 0.3, 0.4, 0.5].map {
      #"{"jsonrpc":"2.0","method":"transition/update","params":{"transition":"t1","percent":\#($0)}}"#
    }
    let list = #"{"jsonrpc":"2.0","id":"after","method":"transition/list"}"#
    client.host.send(lines: updates + [list])
    let reply = try #require(client.waitFor { $0["id"]?.stringValue == "after" })
    #expect(reply["result"]?["transitions"]?[0]?["percent"]?.doubleValue == 0.5)
    let frames = TransitionClient.frames(client.takeNotifications())
    #expect(frames.compactMap { $0["percent"]?.doubleValue } == [0.5])
    let (_, status) = client.finish()
    #expect(status == .exited(0))
  }

  @Test func everyPluginErrorCode() throws {
    let junk = FileManager.default.temporaryDirectory.appendingPathComponent("th-e2e-\(getpid())")
    try FileManager.default.createDirectory(at: junk, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: junk) }
    try Data("not an ELF file".utf8).write(to: junk.appendingPathComponent("junk.so"))

    let client = try TransitionClient(["--plugin-dir", junk.path])
    func code(_ path: String) -> Int64? { client.error("plugins/load", ["path": JSON(path)])["code"]?.intValue }
    #expect(code("libNoSuchPlugin.so") == 1001)
    #expect(code("junk.so") == 1002)
    #expect(code("libTestPluginNoEntry.so") == 1003)
    #expect(code("libTestPluginABI99.so") == 1004)
    #expect(code("libTestPluginInvalidDuplicateAnimator.so") == 1005)
    #expect(code("libTestPluginInitFails.so") == 1006)
    #expect(code("/nonexistent/folder/libX.so") == 1007)
    let dlerror = client.error("plugins/load", ["path": "junk.so"])["data"]?["dlerror"]?.stringValue
    #expect(dlerror?.isEmpty == false)

    #expect(client.result("plugins/load", ["path": "libTestPluginMinimal.so"])["generation"]?.intValue == 1)
    client.result("transition/start", Self.start("fade"))
    let busy = client.error("plugins/unload", ["plugin": "com.example.test.minimal"])
    #expect(busy["code"]?.intValue == 1008)
    #expect(busy["data"]?["runningTransitions"]?.intValue == 1)
    #expect(client.error("plugins/unload", ["plugin": "com.example.nothing"])["code"]?.intValue == -32602)
    // Forced: the transition ends "pluginUnloaded", then the plugin goes.
    #expect(client.result("plugins/unload", ["plugin": "com.example.test.minimal", "force": true]).isNull)
    #expect(client.waitForDidEnd("t1")?["reason"]?.stringValue == "pluginUnloaded")
    let listed = client.result("plugins/list")["plugins"]?.elements ?? []
    #expect(!listed.contains { $0["id"]?.stringValue == "com.example.test.minimal" })
    let (_, status) = client.finish()
    #expect(status == .exited(0))
  }

  @Test func everyTransitionErrorCode() throws {
    let client = try client(["--max-transitions", "1"])
    // A second plugin whose animator is also called "slide": the short id becomes ambiguous.
    client.result("plugins/load", ["path": "libTestPluginReloadA.so"])
    func code(_ method: String, _ params: JSON) -> Int64? { client.error(method, params)["code"]?.intValue }
    #expect(code("transition/start", Self.start("nope")) == 2001)
    #expect(code("transition/start", Self.start("slide")) == 2002)
    #expect(code("transition/start", Self.start("com.example.test.minimal/slide", operation: "push")) == 2003)
    var badTree = Self.start("fade").members.filter { $0.key != "from" }.map { ($0.key, $0.value) }
    badTree.append(("from", ["id": "home", "frame": ["x": 0, "y": 0, "width": 1, "height": 1], "alpha": 2]))
    let tree = client.error("transition/start", .object(badTree))
    #expect(tree["code"]?.intValue == 2004)
    #expect(tree["data"]?.serialized() == #"{"node":"home","field":"from.alpha"}"#)
    #expect(code("transition/update", ["transition": "t7", "percent": 0.5]) == 2005)
    client.result("transition/start", Self.start("fade", interactive: true))
    #expect(code("transition/start", Self.start("fade")) == 2007)
    client.result("transition/finish", ["transition": "t1"])
    #expect(code("transition/finish", ["transition": "t1"]) == 2006)
    client.result("transition/tick", ["dt": 1])
    #expect(client.waitForDidEnd("t1")?["completed"]?.boolValue == true)
    #expect(code("transition/update", ["transition": "t1", "percent": 0.5]) == 2006)
    #expect(code("transition/start", ["animator": "fade"]) == -32602)
    let (_, status) = client.finish()
    #expect(status == .exited(0))
  }
}
