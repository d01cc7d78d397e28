import JSON
import JSONRPC
import Testing

@testable import TransitionService

/// The transition methods through a LocalConnection, with Swift animators on the real engine and a manual scheduler
/// for the real-time clock. Expected geometry comes from the animator's definition: a linear slide over 1 s of a
/// 400 × 800 root from y = 800 to y = 0 (present) or from y = 0 to y = 800 (dismiss of the from root).
@Suite struct ProtocolTransitionTests {
  private func y(_ frame: JSON, _ id: String) -> Double? {
    frame.view(id)?["frame"]?["y"]?.doubleValue
  }

  // MARK: start, tick, sample

  @Test func startRepliesThenSendsTheFirstFrame() throws {
    let host = ProtocolHarness()
    let messages = host.send("transition/start", Trees.start())
    #expect(messages.count == 2)
    #expect(messages[0]["result"]?["transition"]?.stringValue == "t1")
    #expect(messages[0]["result"]?["duration"]?.doubleValue == 1)
    let frame = try #require(ProtocolHarness.frames(messages).first)
    #expect(frame["seq"]?.intValue == 0)
    #expect(frame["time"]?.doubleValue == 0)
    #expect(frame["phase"]?.stringValue == "running")
    // At time 0 the presented root is below the container, transparent; the presenter's view is in place.
    #expect(y(frame, "detail") == 800)
    #expect(frame.view("detail")?["alpha"]?.doubleValue == 0)
    #expect(y(frame, "home") == 0)
    #expect(
      frame["views"]?.elements.map { $0["id"]?.stringValue } == ["container", "home", "title", "detail", "photo"])
    #expect(frame.view("home")?["content"]?["text"]?.stringValue == "Home")
    #expect(frame.view("title")?["content"]?.stringValue == "Hello")
  }

  @Test func manualTicksMoveTimeAndSendFramesBeforeTheReply() throws {
    let host = ProtocolHarness()
    host.call("transition/start", Trees.start())
    _ = host.takeNotifications()
    let messages = host.send("transition/tick", ["dt": 0.25])
    #expect(messages.count == 2)
    let frame = try #require(messages.first?["params"])
    #expect(messages.first?["method"]?.stringValue == "transition/frame")
    #expect(frame["seq"]?.intValue == 1)
    #expect(frame["time"]?.doubleValue == 0.25)
    #expect(frame["percent"]?.doubleValue == 0.25)
    // Linear: y = 800 · (1 − 0.25) = 600; alpha 0.25; the photo's world matrix adds its own offset (50, 100).
    #expect(y(frame, "detail") == 600)
    #expect(frame.view("detail")?["alpha"]?.doubleValue == 0.25)
    let photoWorld = try #require(frame.view("photo")?["worldTransform"]?.numbers)
    #expect(photoWorld[12] == 50)
    #expect(photoWorld[13] == 700)
    let reply = try #require(messages.last?["result"])
    #expect(reply["transitions"]?.count == 1)
    #expect(reply["transitions"]?[0]?["transition"]?.stringValue == "t1")
    #expect(reply["transitions"]?[0]?["time"]?.doubleValue == 0.25)
  }

  @Test func theLastTickCompletesWithAFinalFrameThenDidEndThenTheReply() throws {
    let host = ProtocolHarness()
    host.call("transition/start", Trees.start())
    _ = host.takeNotifications()
    let messages = host.send("transition/tick", ["dt": 1.5])
    #expect(
      messages.map { $0["method"]?.stringValue ?? "reply" } == ["transition/frame", "transition/didEnd", "reply"])
    let frame = try #require(messages[0]["params"])
    #expect(frame["phase"]?.stringValue == "ended")
    #expect(frame["percent"]?.doubleValue == 1)
    #expect(y(frame, "detail") == 0)
    #expect(frame.view("detail")?["alpha"]?.doubleValue == 1)
    // present keeps the presenter's view (shouldRemovePresentersView defaults to false).
    #expect(frame.view("home") != nil)
    let didEnd = try #require(messages[1]["params"])
    #expect(didEnd.serialized() == #"{"transition":"t1","completed":true,"cancelled":false}"#)
    #expect(messages[2]["result"]?["transitions"]?[0]?["phase"]?.stringValue == "ended")
    // The transition is gone: further calls are 2006, ticks find nothing to do.
    #expect(host.failure("transition/update", ["transition": "t1", "percent": 0.5])["code"]?.intValue == 2006)
    #expect(host.call("transition/tick", ["dt": 1])["transitions"]?.count == 0)
  }

  @Test func sampleIsPureAndMatchesTheGeometry() throws {
    let host = ProtocolHarness()
    host.call("transition/start", Trees.start())
    host.call("transition/tick", ["dt": 0.25])
    _ = host.takeNotifications()
    let messages = host.send("transition/sample", ["transition": "t1", "percent": 0.5])
    #expect(messages.count == 1)
    let sample = try #require(messages[0]["result"])
    #expect(sample["seq"] == nil)
    #expect(sample["time"]?.doubleValue == 0.5)
    #expect(y(sample, "detail") == 400)
    #expect(sample.view("home")?["content"] != nil)
    let byTime = host.call("transition/sample", ["transition": "t1", "time": 0.75])
    #expect(y(byTime, "detail") == 200)
    #expect(byTime["percent"]?.doubleValue == 0.75)
    // Nothing moved: the next tick continues from 0.25.
    let frame = try #require(ProtocolHarness.frames(host.send("transition/tick", ["dt": 0.25])).first)
    #expect(frame["time"]?.doubleValue == 0.5)
    #expect(frame["seq"]?.intValue == 2)
    #expect(host.failure("transition/sample", ["transition": "t1"])["code"]?.intValue == -32602)
    #expect(
      host.failure("transition/sample", ["transition": "t1", "time": 1, "percent": 1])["code"]?.intValue == -32602)
  }

  // MARK: Interaction

  /// Dismiss of the home root (it slides down), driven by the user: updates to 0.3 and 0.6, then released.
  private func interactiveDismiss(velocity: Double) throws -> (host: ProtocolHarness, first: JSON, messages: [JSON]) {
    let host = ProtocolHarness()
    let start = host.send(
      "transition/start",
      Trees.start(operation: "dismiss", clock: "realtime", interactive: true, extra: [("fps", 8)]))
    let first = try #require(ProtocolHarness.frames(start).first)
    #expect(first["phase"]?.stringValue == "paused")
    // Paused: no timer runs.
    #expect(host.scheduler.pendingCount == 0)

    for (percent, expectedY) in [(0.3, 240.0), (0.6, 480.0)] {
      let messages = host.send("transition/update", ["transition": "t1", "percent": JSON(percent)])
      let frame = try #require(ProtocolHarness.frames(messages).first)
      #expect(frame["phase"]?.stringValue == "paused")
      #expect(frame["percent"]?.doubleValue == percent)
      #expect(frame["time"]?.doubleValue == percent * 1)
      #expect(y(frame, "home") == expectedY)
      #expect(messages.last?["result"]?["percent"]?.doubleValue == percent)
    }
    let released = host.call("transition/release", ["transition": "t1", "velocity": JSON(velocity)])
    #expect(released["decision"]?.stringValue == (velocity > 0 ? "finish" : "cancel"))
    #expect(released["phase"]?.stringValue == (velocity > 0 ? "finishing" : "cancelling"))
    #expect(host.scheduler.pendingCount == 1)
    host.scheduler.advance(by: 3)
    return (host, first, host.takeNotifications())
  }

  @Test func anInteractiveDismissReleasedForwardFinishes() throws {
    let (host, _, messages) = try interactiveDismiss(velocity: 1)
    let frames = ProtocolHarness.frames(messages)
    #expect(frames.count >= 2)
    // Time only moves forward while finishing, at the frame rate (1/8 s apart on this clock).
    let times = frames.compactMap { $0["time"]?.doubleValue }
    #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
    let last = try #require(frames.last)
    #expect(last["phase"]?.stringValue == "ended")
    // Completed dismissal: the from root is gone, the to root stays.
    #expect(last.view("home") == nil)
    #expect(last.view("detail") != nil)
    let didEnd = try #require(ProtocolHarness.didEnds(messages).first)
    #expect(didEnd["completed"]?.boolValue == true)
    #expect(ProtocolHarness.didEnds(messages).count == 1)
    #expect(host.scheduler.pendingCount == 0)
  }

  @Test func anInteractiveDismissReleasedBackwardsCancelsExactlyToTheStart() throws {
    let (host, first, messages) = try interactiveDismiss(velocity: -1)
    let last = try #require(ProtocolHarness.frames(messages).last)
    #expect(last["phase"]?.stringValue == "ended")
    #expect(last["time"]?.doubleValue == 0)
    // Every view is back exactly where it started, every field, bit for bit.
    #expect(last["views"] == first["views"])
    let didEnd = try #require(ProtocolHarness.didEnds(messages).first)
    #expect(didEnd.serialized() == #"{"transition":"t1","completed":false,"cancelled":true}"#)
    #expect(host.scheduler.pendingCount == 0)
  }

  @Test func theReleaseRuleUsesThePercentWithoutVelocity() throws {
    let host = ProtocolHarness()
    host.call("transition/start", Trees.start(interactive: true))
    host.call("transition/update", ["transition": "t1", "percent": 0.4])
    #expect(host.call("transition/release", ["transition": "t1"])["decision"]?.stringValue == "cancel")
    host.call("transition/start", Trees.start(interactive: true))
    host.call("transition/update", ["transition": "t2", "percent": 0.5])
    #expect(
      host.call("transition/release", ["transition": "t2", "velocity": 0.2])["decision"]?.stringValue == "finish")
  }

  @Test func aRealTimeTransitionStreamsAtItsFrameRateAndPauses() throws {
    let host = ProtocolHarness()
    host.call("transition/start", Trees.start(clock: "realtime", extra: [("fps", 4)]))
    _ = host.takeNotifications()
    host.scheduler.advance(by: 0.5)
    let frames = ProtocolHarness.frames(host.takeNotifications())
    // Deadlines at 0.25 s and 0.5 s; each frame advanced by exactly the time that passed.
    #expect(frames.compactMap { $0["time"]?.doubleValue } == [0.25, 0.5])
    #expect(frames.compactMap { $0["seq"]?.intValue } == [1, 2])
    #expect(frames.map { y($0, "detail") } == [600, 400])

    let paused = host.call("transition/pause", ["transition": "t1"])
    #expect(paused["phase"]?.stringValue == "paused")
    #expect(host.scheduler.pendingCount == 0)
    host.scheduler.advance(by: 10)
    #expect(ProtocolHarness.frames(host.takeNotifications()).isEmpty)

    // Finishing resumes from where it paused, at the completion speed (2: the remaining 0.5 s take 0.25 s).
    host.call("transition/finish", ["transition": "t1", "completionSpeed": 2, "completionCurve": "linear"])
    host.scheduler.advance(by: 0.25)
    let rest = host.takeNotifications()
    #expect(ProtocolHarness.frames(rest).first.map { y($0, "detail") } == 0)
    #expect(ProtocolHarness.didEnds(rest).first?["completed"]?.boolValue == true)
  }

  @Test func reverseTurnsARunningTransitionBack() throws {
    let host = ProtocolHarness()
    host.call("transition/start", Trees.start())
    host.call("transition/tick", ["dt": 0.5])
    let reversed = host.call("transition/reverse", ["transition": "t1"])
    #expect(reversed["phase"]?.stringValue == "cancelling")
    _ = host.takeNotifications()
    host.call("transition/tick", ["dt": 5])
    let didEnd = try #require(ProtocolHarness.didEnds(host.takeNotifications()).first)
    #expect(didEnd["cancelled"]?.boolValue == true)
  }

  // MARK: Several transitions

  @Test func concurrentTransitionsAreIndependent() throws {
    let host = ProtocolHarness()
    #expect(host.call("transition/start", Trees.start())["transition"]?.stringValue == "t1")
    #expect(
      host.call("transition/start", Trees.start(extra: [("params", ["duration": 2])]))["transition"]?.stringValue
        == "t2")
    _ = host.takeNotifications()
    let all = host.send("transition/tick", ["dt": 0.5])
    let frames = ProtocolHarness.frames(all)
    #expect(frames.compactMap { $0["transition"]?.stringValue } == ["t1", "t2"])
    #expect(frames.map { y($0, "detail") } == [400, 600])
    let one = host.send("transition/tick", ["transition": "t2", "dt": 0.5])
    #expect(ProtocolHarness.frames(one).map { y($0, "detail") } == [400])
    let list = host.call("transition/list", [:])
    #expect(list["transitions"]?.elements.compactMap { $0["time"]?.doubleValue } == [0.5, 1])
    #expect(list["transitions"]?[1]?["duration"]?.doubleValue == 2)
    #expect(list["transitions"]?[0]?["clock"]?.stringValue == "manual")
    #expect(list["transitions"]?[0]?["animator"]?.stringValue == "com.test/slide")
  }

  @Test func theConcurrencyLimitIs2007() {
    let host = ProtocolHarness(maxTransitions: 2)
    host.call("transition/start", Trees.start())
    host.call("transition/start", Trees.start())
    let error = host.failure("transition/start", Trees.start())
    #expect(error["code"]?.intValue == 2007)
    #expect(error["data"]?["limit"]?.intValue == 2)
    // Once one ends, there is room again.
    host.call("transition/tick", ["transition": "t1", "dt": 2])
    #expect(host.call("transition/start", Trees.start())["transition"]?.stringValue == "t3")
  }

  // MARK: Errors

  @Test func errorCodesForEachKindOfMistake() throws {
    let host = ProtocolHarness()
    #expect(host.failure("transition/start", Trees.start(animator: "nope"))["code"]?.intValue == 2001)
    let ambiguous = host.failure("transition/start", Trees.start(animator: "slide"))
    #expect(ambiguous["code"]?.intValue == 2002)
    #expect(
      ambiguous["data"]?["candidates"]?.elements.compactMap(\.stringValue) == ["com.test/slide", "com.other/slide"])
    let push = host.failure("transition/start", Trees.start(operation: "push"))
    #expect(push["code"]?.intValue == 2003)
    #expect(push["data"]?["supported"]?.elements.compactMap(\.stringValue) == ["present", "dismiss"])
    var badTree = Trees.start().members.filter { $0.key != "to" }.map { ($0.key, $0.value) }
    badTree.append(("to", ["id": "x", "frame": ["x": 0, "y": 0, "width": 1, "height": "tall"]]))
    let tree = host.failure("transition/start", .object(badTree))
    #expect(tree["code"]?.intValue == 2004)
    #expect(tree["data"]?.serialized() == #"{"node":"x","field":"to.frame.height"}"#)
    #expect(host.failure("transition/update", ["transition": "t9", "percent": 0])["code"]?.intValue == 2005)
    #expect(host.failure("transition/update", ["transition": "x", "percent": 0])["code"]?.intValue == 2005)

    host.call("transition/start", Trees.start(interactive: true))
    host.call("transition/finish", ["transition": "t1"])
    let twice = host.failure("transition/finish", ["transition": "t1"])
    #expect(twice["code"]?.intValue == 2006)
    #expect(twice["data"]?["phase"]?.stringValue == "finishing")
    // Nothing was started by the refused calls: the only transition is t1.
    #expect(host.call("transition/list", [:])["transitions"]?.count == 1)
    #expect(host.catalog.instantiated == 1)
  }

  @Test func typeErrorsAre32602NamingTheField() {
    let host = ProtocolHarness()
    let cases: [(JSON, String)] = [
      (Trees.start(extra: [("fps", 0)]), "params.fps"),
      (Trees.start(extra: [("completionSpeed", -1)]), "params.completionSpeed"),
      (Trees.start(extra: [("completionCurve", "bouncy")]), "params.completionCurve"),
      (Trees.start(extra: [("completionCurve", ["bezier": [2, 0, 1, 1]])]), "params.completionCurve.bezier[0]"),
      (Trees.start(extra: [("completionCurve", ["spring": ["dampingRatio": 1]])]), "params.completionCurve"),
      (Trees.start(clock: "wall"), "params.clock"),
      (Trees.start(frames: "some"), "params.frames"),
      (Trees.start(extra: [("params", ["duration": 20])]), "params.params.duration"),
      (Trees.start(extra: [("params", ["speed": 1])]), "params.params.speed"),
      (Trees.start(extra: [("params", ["edge": "left"])]), "params.params.edge"),
      (Trees.start(extra: [("params", ["tint": [0, 0, 0]])]), "params.params.tint"),
      (["animator": "com.test/slide", "operation": "present"], "params.container"),
    ]
    for (params, field) in cases {
      let error = host.failure("transition/start", params)
      #expect(error["code"]?.intValue == -32602, "\(field)")
      #expect(error["data"]?["field"]?.stringValue == field)
    }
    #expect(host.failure("transition/tick", ["dt": -1])["data"]?["field"]?.stringValue == "params.dt")
    // A step count past the bound is refused with the bound in the sentence, not "must be ≥ 1".
    for steps: JSON in [0, 1_000_001, 1.5] {
      let error = host.failure("transition/start", Trees.start(extra: [("completionCurve", ["steps": steps])]))
      #expect(error["data"]?["field"]?.stringValue == "params.completionCurve.steps")
      #expect(error["message"]?.stringValue?.hasSuffix("must be an integer from 1 to 1000000.") == true)
    }
    #expect(host.catalog.instantiated == 0)
  }

  @Test func parameterDefaultsAndValuesReachTheAnimator() {
    let host = ProtocolHarness()
    #expect(host.call("transition/start", Trees.start())["duration"]?.doubleValue == 1)
    let custom = host.call("transition/start", Trees.start(extra: [("params", ["duration": 0.5, "edge": "top"])]))
    #expect(custom["duration"]?.doubleValue == 0.5)
  }

  @Test func anAnimatorThatNeverCompletesFailsWith2008() throws {
    let host = ProtocolHarness()
    host.call("transition/start", Trees.start(animator: "never"))
    host.call("transition/tick", ["dt": 1])
    let messages = host.takeNotifications()
    let didEnd = try #require(ProtocolHarness.didEnds(messages).first)
    #expect(didEnd["completed"]?.boolValue == false)
    #expect(didEnd["cancelled"]?.boolValue == false)
    #expect(didEnd["reason"]?.stringValue == "neverCompleted")
    #expect(didEnd["error"]?["code"]?.intValue == 2008)
    let log = messages.first { $0["method"]?.stringValue == "window/logMessage" }?["params"]
    #expect(log?["data"]?["kind"]?.stringValue == "neverCompleted")
    #expect(log?["type"]?.intValue == 2)
    // Restored like a cancel: the final frame shows the start, without the to root.
    let last = try #require(ProtocolHarness.frames(messages).last)
    #expect(last.view("detail") == nil)
  }

  @Test func anAnimatorThatCompletesAtOnceEndsRightAfterTheReplyAndIsReported() throws {
    let host = ProtocolHarness()
    let messages = host.send("transition/start", Trees.start(animator: "instant"))
    let kinds = messages.map { $0["method"]?.stringValue ?? "reply" }
    #expect(kinds == ["window/logMessage", "reply", "transition/frame", "transition/didEnd"])
    #expect(messages[0]["params"]?["data"]?["kind"]?.stringValue == "completedTwice")
    #expect(messages[2]["params"]?["phase"]?.stringValue == "ended")
    #expect(messages[2]["params"]?["seq"]?.intValue == 0)
    #expect(messages[3]["params"]?["completed"]?.boolValue == true)
  }

  @Test func aRefusedAnimatorInstanceIs2008() {
    let host = ProtocolHarness()
    host.catalog.refusing = ["com.test/slide"]
    let error = host.failure("transition/start", Trees.start())
    #expect(error["code"]?.intValue == 2008)
    #expect(host.call("transition/list", [:])["transitions"]?.count == 0)
  }

  // MARK: Notifications, frames modes

  @Test func updateNotificationsGetNoReplyButAFrame() throws {
    let host = ProtocolHarness()
    host.call("transition/start", Trees.start(interactive: true))
    _ = host.takeNotifications()
    host.connection.notify("transition/update", ["transition": "t1", "percent": 0.25])
    let messages = host.connection.takeMessages()
    #expect(messages.count == 1)
    #expect(messages[0]["params"].map { y($0, "detail") } == 600)
    host.connection.notify("transition/update", ["transition": "t1", "percent": "half"])
    #expect(host.connection.takeMessages().isEmpty)
    #expect(host.diagnostics.count == 1)
    #expect(
      host.service.coalescingKey(Request(method: "transition/update", params: ["transition": "t1"], id: nil))
        == "transition/update:t1")
    #expect(host.service.coalescingKey(Request(method: "transition/tick", params: ["dt": 1], id: nil)) == nil)
  }

  @Test func framesNoneSendsOnlyDidEndAndDeltaSendsChanges() throws {
    let host = ProtocolHarness()
    let quiet = host.send("transition/start", Trees.start(frames: "none"))
    #expect(quiet.count == 1)
    let ended = host.send("transition/tick", ["dt": 2])
    #expect(ended.map { $0["method"]?.stringValue ?? "reply" } == ["transition/didEnd", "reply"])

    host.call("transition/start", Trees.start(frames: "delta"))
    let delta = ProtocolHarness.frames(host.send("transition/tick", ["dt": 0.5]))
    let frame = try #require(delta.first)
    #expect(frame["delta"]?.boolValue == true)
    // Only the sliding root and its child moved; the presenter's views did not change.
    #expect(frame["views"]?.elements.compactMap { $0["id"]?.stringValue } == ["detail", "photo"])
    #expect(
      frame.view("detail")?.keys == ["id", "frame", "position", "worldTransform", "boundingBox", "alpha", "opacity"])
  }

  // MARK: wait, input closed, termination

  @Test func waitAnswersAtTheEndAndHonoursCancellation() throws {
    let host = ProtocolHarness()
    host.call("transition/start", Trees.start())
    host.call("transition/start", Trees.start())
    _ = host.takeNotifications()
    host.connection.send(#"{"jsonrpc":"2.0","id":"w1","method":"transition/wait","params":{"transition":"t1"}}"#)
    host.connection.send(#"{"jsonrpc":"2.0","id":"w2","method":"transition/wait","params":{"transition":"t2"}}"#)
    #expect(host.connection.takeMessages().isEmpty)
    host.connection.send(#"{"jsonrpc":"2.0","id":"c","method":"$/cancelRequest","params":{"id":"w2"}}"#)
    let cancelled = host.connection.takeMessages()
    #expect(cancelled.first { $0["id"]?.stringValue == "w2" }?["error"]?["code"]?.intValue == -32800)
    let messages = host.send("transition/tick", ["dt": 1])
    let order = messages.map { $0["id"]?.stringValue ?? $0["method"]?.stringValue ?? "reply" }
    #expect(order.filter { $0 == "w1" }.count == 1)
    #expect(!order.contains("w2"))
    // The wait reply comes right after the didEnd it reports.
    let didEndIndex = try #require(order.firstIndex(of: "transition/didEnd"))
    #expect(order[didEndIndex + 1] == "w1")
    #expect(messages.first { $0["id"]?.stringValue == "w1" }?["result"]?["completed"]?.boolValue == true)
    // After the end, wait answers at once.
    #expect(host.call("transition/wait", ["transition": "t2"])["completed"]?.boolValue == true)
    #expect(host.failure("transition/wait", ["transition": "t3"])["code"]?.intValue == 2005)
  }

  @Test func outcomesAreRememberedForWaitUpToTheLimit() {
    let host = ProtocolHarness(rememberedOutcomes: 2)
    for _ in 0..<3 { host.call("transition/start", Trees.start()) }
    host.call("transition/tick", ["dt": 2])
    // t1's outcome was dropped to keep two: the id is still known to have ended (2006), t2 and t3 still answer.
    let forgotten = host.failure("transition/wait", ["transition": "t1"])
    #expect(forgotten["code"]?.intValue == 2006)
    #expect(forgotten["data"]?["phase"]?.stringValue == "ended")
    #expect(host.call("transition/wait", ["transition": "t2"])["completed"]?.boolValue == true)
    #expect(host.call("transition/wait", ["transition": "t3"])["completed"]?.boolValue == true)
    #expect(host.failure("transition/wait", ["transition": "t4"])["code"]?.intValue == 2005)
    #expect(host.failure("transition/wait", ["transition": "t01"])["code"]?.intValue == 2005)
  }

  @Test func endOfInputCancelsPausedAndManualTransitionsAndLetsRunningOnesFinish() throws {
    let host = ProtocolHarness()
    host.call("transition/start", Trees.start(clock: "manual"))
    host.call("transition/start", Trees.start(clock: "realtime", interactive: true))
    host.call("transition/start", Trees.start(clock: "realtime", extra: [("fps", 4)]))
    _ = host.takeNotifications()
    host.service.inputClosed()
    let closed = ProtocolHarness.didEnds(host.takeNotifications())
    #expect(closed.map { $0["transition"]?.stringValue } == ["t1", "t2"])
    #expect(closed.allSatisfy { $0["reason"]?.stringValue == "inputClosed" && $0["cancelled"]?.boolValue == true })
    #expect(host.service.hasPendingWork)
    host.scheduler.advance(by: 1)
    let finished = ProtocolHarness.didEnds(host.takeNotifications())
    #expect(finished.first?.serialized() == #"{"transition":"t3","completed":true,"cancelled":false}"#)
    #expect(!host.service.hasPendingWork)
  }

  @Test func terminationCancelsEverythingOnceEach() throws {
    let host = ProtocolHarness()
    host.call("transition/start", Trees.start())
    host.call("transition/start", Trees.start(clock: "realtime"))
    _ = host.takeNotifications()
    host.service.terminateAll()
    let messages = host.takeNotifications()
    let ends = ProtocolHarness.didEnds(messages)
    #expect(ends.count == 2)
    #expect(ends.allSatisfy { $0["reason"]?.stringValue == "terminated" })
    // Each final frame shows the start state: the presented root is not in the container any more.
    #expect(ProtocolHarness.frames(messages).allSatisfy { $0.view("detail") == nil })
    host.service.terminateAll()
    #expect(host.takeNotifications().isEmpty)
    #expect(host.scheduler.pendingCount == 0)
  }

  @Test func tickRefusesARealTimeTransition() {
    let host = ProtocolHarness()
    host.call("transition/start", Trees.start(clock: "realtime"))
    #expect(host.failure("transition/tick", ["transition": "t1", "dt": 0.1])["code"]?.intValue == 2006)
  }
}
