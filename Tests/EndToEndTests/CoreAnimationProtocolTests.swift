import Foundation
import JSON
import TestSupport
import Testing

/// Explicit Core Animation animations written as UIKit code (TestPluginCoreAnimation's "circular-reveal" and
/// "shadow-push"), driven over the protocol with plugins in worker processes (serve's default) and in the host's own
/// process. Expected values are the formulas written out here: the circle as CGPath stores an ellipse (a move to
/// (cx + r, cy), four cubic quarter arcs with handle 4/3·tan(π/8)·r, a close), rectangles as a move and three lines,
/// and the easeInEaseOut progress of TestSupport's reference Bézier.
@Suite(.serialized) struct CoreAnimationProtocolTests {
  static func start(_ animator: String, interactive: Bool = false, timeline: Bool = false) -> JSON {
    [
      "animator": JSON("com.example.test.coreanimation/\(animator)"), "operation": "present",
      "container": ["width": 400, "height": 800],
      "from": ["id": "home", "frame": ["x": 0, "y": 0, "width": 400, "height": 800]],
      "to": ["id": "detail", "frame": ["x": 0, "y": 0, "width": 400, "height": 800]], "clock": "manual",
      "interactive": JSON(interactive), "timeline": JSON(timeline),
    ]
  }

  private func client(_ isolation: String) throws -> TransitionClient {
    let client = try TransitionClient(["--isolation", isolation])
    let loaded = client.result("plugins/load", ["path": "libTestPluginCoreAnimation.so"])
    #expect(loaded["abi"]?.stringValue == "1.3")
    return client
  }

  private func sample(_ client: TransitionClient, _ member: String, _ value: Double) -> JSON {
    client.result("transition/sample", .object([("transition", "t1"), (member, JSON(value))]))
  }

  /// Core Animation's and UIKit's easeInEaseOut, cubic-bezier(0.42, 0, 0.58, 1).
  private func easeInOut(_ t: Double) -> Double { Reference.bezier(0.42, 0, 0.58, 1, at: t) }

  /// The elements of CGPath(ellipseIn:) for the circle of radius r about (cx, cy), as frames write them.
  private func circle(_ cx: Double, _ cy: Double, _ r: Double) -> [[Double]] {
    let k = 4.0 / 3 * tan(Double.pi / 8) * r
    return [
      [cx + r, cy],
      [cx + r, cy + k, cx + k, cy + r, cx, cy + r],
      [cx - k, cy + r, cx - r, cy + k, cx - r, cy],
      [cx - r, cy - k, cx - k, cy - r, cx, cy - r],
      [cx + k, cy - r, cx + r, cy - k, cx + r, cy],
      [],
    ]
  }

  /// CGPath(rect:): a move to the origin, lines to the other corners clockwise on screen, a close.
  private func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> [[Double]] {
    [[x, y], [x + w, y], [x + w, y + h], [x, y + h], []]
  }

  /// The path member `value` has the element letters `letters` and, point for point, `expected`.
  private func path(_ value: JSON?, _ letters: String, _ expected: [[Double]], _ tolerance: Double = 1e-6) -> Bool {
    guard let elements = value?.elements, elements.count == expected.count,
      elements.compactMap({ $0[0]?.stringValue }).joined() == letters
    else { return false }
    return zip(elements, expected).allSatisfy { element, numbers in
      let values = element.elements.dropFirst().map { $0.doubleValue ?? .nan } ?? []
      return values.count == numbers.count && zip(values, numbers).allSatisfy { abs($0 - $1) <= tolerance }
    }
  }

  private func number(_ value: JSON?, _ expected: Double, _ tolerance: Double = 1e-6) -> Bool {
    abs((value?.doubleValue ?? .nan) - expected) <= tolerance
  }

  // MARK: - Circular reveal

  /// The reveal grows from radius 10 at (100, 200) to the distance to the farthest corner (400, 800).
  static let revealRadius = (300.0 * 300 + 600 * 600).squareRoot()

  private func revealMask(_ frame: JSON) -> JSON? {
    guard let id = frame.view("detail")?["mask"]?.stringValue else { return nil }
    return frame.view(id)
  }

  private func expectReveal(_ frame: JSON, atProgress p: Double) {
    let r = 10 + (Self.revealRadius - 10) * p
    let mask = revealMask(frame)
    #expect(mask?["kind"]?.stringValue == "shape")
    #expect(mask?["maskOf"]?.stringValue == "detail")
    #expect(path(mask?["path"], "MCCCCZ", circle(100, 200, r)), "radius \(r)")
  }

  @Test(arguments: ["process", "none"])
  func theCircularRevealGrowsItsMaskAlongTheEllipsePath(isolation: String) throws {
    let client = try client(isolation)
    client.result("transition/start", Self.start("circular-reveal"))
    for t in [0, 0.2, 0.5, 0.8, 0.95] {
      expectReveal(sample(client, "time", t), atProgress: easeInOut(t))
    }
    client.result("transition/tick", ["transition": "t1", "dt": 0.5])
    expectReveal(try #require(TransitionClient.frames(client.takeNotifications()).last), atProgress: 0.5)
    client.result("transition/tick", ["transition": "t1", "dt": 0.6])
    #expect(client.waitForDidEnd("t1")?["completed"]?.boolValue == true)
    // The CATransaction's completion removed the mask before completing (a present keeps the from view).
    let last = try #require(TransitionClient.frames(client.received).last)
    #expect(last.view("detail")?["mask"] == nil)
    #expect(last["views"]?.elements.compactMap { $0["id"]?.stringValue } == ["container", "home", "detail"])
    let (_, status) = client.finish()
    #expect(status == .exited(0))
  }

  @Test(arguments: ["process", "none"])
  func aScrubbedRevealFollowsThePercentAndCancelsWithoutItsMask(isolation: String) throws {
    let client = try client(isolation)
    client.result("transition/start", Self.start("circular-reveal", interactive: true))
    for percent in [0.3, 0.7, 0.1] {
      client.result("transition/update", ["transition": "t1", "percent": JSON(percent)])
      let frame = try #require(TransitionClient.frames(client.takeNotifications()).last)
      expectReveal(frame, atProgress: easeInOut(percent))
      expectReveal(sample(client, "percent", percent), atProgress: easeInOut(percent))
    }
    client.result("transition/cancel", ["transition": "t1"])
    client.result("transition/tick", ["transition": "t1", "dt": 1])
    #expect(client.waitForDidEnd("t1")?["cancelled"]?.boolValue == true)
    // The to view, its mask and the mask's animation are gone; the from view is as it started.
    let last = try #require(TransitionClient.frames(client.received).last)
    #expect(last["views"]?.elements.compactMap { $0["id"]?.stringValue } == ["container", "home"])
    let home = try #require(last.view("home"))
    #expect(home["frame"] == ["x": 0, "y": 0, "width": 400, "height": 800])
    #expect(home["mask"] == nil)
    #expect(home["alpha"]?.doubleValue == 1)
    let (_, status) = client.finish()
    #expect(status == .exited(0))
  }

  // MARK: - Push with a shadow

  private func expectPush(_ frame: JSON, atProgress p: Double) {
    let to = frame.view("detail")
    #expect(number(to?["frame"]?["x"], 400 * (1 - p)), "progress \(p)")
    #expect(number(to?["shadowOpacity"] ?? 0, 0.5 * p))
    #expect(to?["shadowRadius"]?.doubleValue == 8)
    #expect(to?["shadowOffset"] == ["width": -12, "height": 0])
    #expect(to?["shadowColor"] == nil || to?["shadowColor"] == [0, 0, 0, 1])
    let inset = 16 * (1 - p)
    #expect(path(to?["shadowPath"], "MLLLZ", rect(inset, inset, 400 - 2 * inset, 800 - 2 * inset)))
  }

  @Test(arguments: ["process", "none"])
  func thePushAnimatesItsShadowWithCoreAnimation(isolation: String) throws {
    let client = try client(isolation)
    client.result("transition/start", Self.start("shadow-push"))
    for t in [0, 0.25, 0.5, 0.75] {
      expectPush(sample(client, "time", t), atProgress: easeInOut(t))
    }
    client.result("transition/tick", ["transition": "t1", "dt": 1.1])
    #expect(client.waitForDidEnd("t1")?["completed"]?.boolValue == true)
    // The model values were set to the ends, so nothing snaps back when the animations are removed.
    let last = try #require(TransitionClient.frames(client.received).last)
    expectPush(last, atProgress: 1)
    let (_, status) = client.finish()
    #expect(status == .exited(0))
  }

  @Test(arguments: ["process", "none"])
  func aScrubbedPushFollowsThePercentAndCancelsToTheStart(isolation: String) throws {
    let client = try client(isolation)
    client.result("transition/start", Self.start("shadow-push", interactive: true))
    for percent in [0.2, 0.6, 0.4] {
      client.result("transition/update", ["transition": "t1", "percent": JSON(percent)])
      let frame = try #require(TransitionClient.frames(client.takeNotifications()).last)
      expectPush(frame, atProgress: easeInOut(percent))
      expectPush(sample(client, "percent", percent), atProgress: easeInOut(percent))
    }
    client.result("transition/cancel", ["transition": "t1"])
    client.result("transition/tick", ["transition": "t1", "dt": 1])
    #expect(client.waitForDidEnd("t1")?["cancelled"]?.boolValue == true)
    let last = try #require(TransitionClient.frames(client.received).last)
    #expect(last["views"]?.elements.compactMap { $0["id"]?.stringValue } == ["container", "home"])
    let (_, status) = client.finish()
    #expect(status == .exited(0))
  }

  // MARK: - Layer timing of UIView blocks

  /// "mirrored-block": the container's layer paused, a 1 s linear UIView block sliding the detail's centre from
  /// y 1200 to 400, the container's timeOffset following the transition's time from a display link (how
  /// UIPercentDrivenInteractiveTransition works on iOS). Scrubbed to 40 % and ticked once, the detail's frame is at
  /// y = (1200 − 800·0.4) − 400 = 480; cancelled, the block's completion runs at the start and everything is back.
  @Test(arguments: ["process", "none"])
  func aPausedContainerScrubsAUIViewBlockAndCancelsToTheStart(isolation: String) throws {
    let client = try client(isolation)
    client.result("transition/start", Self.start("mirrored-block", interactive: true))
    for percent in [0.4, 0.75] {
      client.result("transition/update", ["transition": "t1", "percent": JSON(percent)])
      client.result("transition/tick", ["transition": "t1", "dt": JSON(1.0 / 60)])
      let frame = try #require(TransitionClient.frames(client.takeNotifications()).last)
      #expect(number(frame.view("detail")?["frame"]?["y"], 800 - 800 * percent, 1e-9), "percent \(percent)")
    }
    client.result("transition/cancel", ["transition": "t1"])
    client.result("transition/tick", ["transition": "t1", "dt": 1])
    #expect(client.waitForDidEnd("t1")?["cancelled"]?.boolValue == true)
    let last = try #require(TransitionClient.frames(client.received).last)
    #expect(last["views"]?.elements.compactMap { $0["id"]?.stringValue } == ["container", "home"])
    #expect(last.view("home")?["frame"] == ["x": 0, "y": 0, "width": 400, "height": 800])
    let (_, status) = client.finish()
    #expect(status == .exited(0))
  }

  /// The scrubbed fixtures' end (display link: offset 0.3 + 0.5·τ): nothing ends by τ 1.3; the tick to τ 1.5 runs the
  /// display link, which carries the offset to 1, so the animation is over then, and its completion runs when time next
  /// moves (completions run only when time advances): the transition ends completed and the host exits 0.
  private func expectCompletesOnceTheOffsetReachesItsEnd(
    _ client: TransitionClient, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    client.result("transition/tick", ["transition": "t1", "dt": 1.3])
    #expect(
      client.takeNotifications().allSatisfy { $0["method"]?.stringValue != "transition/didEnd" },
      sourceLocation: sourceLocation)
    client.result("transition/tick", ["transition": "t1", "dt": 0.2])
    client.result("transition/tick", ["transition": "t1", "dt": JSON(1.0 / 60)])
    #expect(
      client.waitForDidEnd("t1", timeout: 5)?["completed"]?.boolValue == true, sourceLocation: sourceLocation)
    let (_, status) = client.finish()
    #expect(status == .exited(0), sourceLocation: sourceLocation)
  }

  /// "scrubbed-block": `layer.speed = 0`, a UIView block (easeInOut, 1 s, centre y 1200 → 400), `timeOffset = 0.3`.
  /// The timeline lists the block on the timeline's clock through its layer's timing: a paused layer's animation
  /// begins when added and has no end (null). The display link carries the offset on at 0.3 + 0.5·τ (at each
  /// tick); the block completes, and with it the transition, once the offset has reached 1.
  @Test(arguments: ["process", "none"])
  func aUIViewBlockOnAPausedLayerCompletesWhenItsOffsetReachesItsEnd(isolation: String) throws {
    let client = try client(isolation)
    let started = client.result("transition/start", Self.start("scrubbed-block", timeline: true))
    let animation = try #require(started["timeline"]?["animations"]?.elements.first)
    #expect(animation["property"] == "center")
    #expect(animation["begin"]?.doubleValue == 0)
    #expect(animation["end"] == .null)
    let frame = sample(client, "time", 0.9)
    #expect(number(frame.view("detail")?["frame"]?["y"], 800 - 800 * easeInOut(0.3), 1e-9))
    expectCompletesOnceTheOffsetReachesItsEnd(client)
  }

  // MARK: - Layer timing of property animators

  /// "scrubbed-animator": `layer.speed = 0`, a started UIViewPropertyAnimator (1 s, linear, centre y 1200 → 400),
  /// `timeOffset = 0.3`. Its animation is one of the layer's, so the timeline lists it through the layer's timing
  /// (begins when added, no end while paused) and the frame stands at y = (1200 − 800·0.3) − 400 = 560. The display
  /// link carries the offset on at 0.3 + 0.5·τ; the animator, and with it the transition, completes once it reaches 1.
  @Test(arguments: ["process", "none"])
  func aPropertyAnimatorOnAPausedLayerCompletesWhenItsOffsetReachesItsEnd(isolation: String) throws {
    let client = try client(isolation)
    let started = client.result("transition/start", Self.start("scrubbed-animator", timeline: true))
    let animation = try #require(started["timeline"]?["animations"]?.elements.first)
    #expect(animation["property"] == "center")
    #expect(animation["begin"]?.doubleValue == 0)
    #expect(animation["end"] == .null)
    let frame = sample(client, "time", 0.9)
    #expect(number(frame.view("detail")?["frame"]?["y"], 560, 1e-9))
    expectCompletesOnceTheOffsetReachesItsEnd(client)
  }

  /// "slowed-animator": the container at speed 0.5 and a 1 s linear property animator (centre y 1200 → 400). The
  /// timeline lists the run over 2 s (begin 0, end 2); interactive at 40 % the transition's clock is at 0.4 s, the
  /// container's at 0.2 s, so the frame's y = (1200 − 800·0.2) − 400 = 640; cancelled, the animator ends at its start
  /// and the transition ends cancelled with the from view alone.
  @Test(arguments: ["process", "none"])
  func aPropertyAnimatorOnASlowContainerScrubsInItsTimeAndCancels(isolation: String) throws {
    let client = try client(isolation)
    let started = client.result(
      "transition/start", Self.start("slowed-animator", interactive: true, timeline: true))
    let animation = try #require(started["timeline"]?["animations"]?.elements.first)
    #expect(animation["begin"]?.doubleValue == 0)
    #expect(number(animation["duration"], 2, 1e-9))
    #expect(number(animation["end"], 2, 1e-9))
    client.result("transition/update", ["transition": "t1", "percent": 0.4])
    client.result("transition/tick", ["transition": "t1", "dt": JSON(1.0 / 60)])
    let frame = try #require(TransitionClient.frames(client.takeNotifications()).last)
    #expect(number(frame.view("detail")?["frame"]?["y"], 640, 1e-9))
    client.result("transition/cancel", ["transition": "t1"])
    client.result("transition/tick", ["transition": "t1", "dt": 1])
    #expect(client.waitForDidEnd("t1")?["cancelled"]?.boolValue == true)
    let last = try #require(TransitionClient.frames(client.received).last)
    #expect(last["views"]?.elements.compactMap { $0["id"]?.stringValue } == ["container", "home"])
    let (_, status) = client.finish()
    #expect(status == .exited(0))
  }

  // MARK: - End of input

  /// A real-time start of `animator` (the CoreAnimation plugin's unless qualified), streaming `frames`.
  static func realtime(_ animator: String, frames: String = "none", extra: [(String, JSON)] = []) -> JSON {
    .object(
      [
        ("animator", JSON(animator.contains("/") ? animator : "com.example.test.coreanimation/\(animator)")),
        ("operation", "present"), ("clock", "realtime"), ("frames", JSON(frames)),
        ("container", ["width": 400, "height": 800]),
        ("from", ["id": "home", "frame": ["x": 0, "y": 0, "width": 400, "height": 800]]),
        ("to", ["id": "detail", "frame": ["x": 0, "y": 0, "width": 400, "height": 800]]),
      ] + extra)
  }

  /// `printf '<requests>' | transition-host --isolation <isolation>`: everything the host wrote, once it has exited
  /// 0 (each request, numbered from 1, answered exactly once and with a result).
  private func pipe(_ requests: [(String, JSON)], isolation: String) throws -> [JSON] {
    let host = try HostProcess(["--isolation", isolation])
    let lines = requests.enumerated().map { index, request in
      JSON.object([
        ("jsonrpc", "2.0"), ("id", JSON(index + 1)), ("method", JSON(request.0)), ("params", request.1),
      ]).serialized()
    }
    #expect(host.send(lines: lines))
    host.closeStdin()
    let messages = host.allLines(timeout: 60).map { try! JSON.parse($0) }
    #expect(host.waitForExit(timeout: 60) == .exited(0))
    for id in 1...requests.count {
      let replies = messages.filter { $0["id"]?.intValue == Int64(id) }
      #expect(replies.count == 1 && replies.first?["result"] != nil, "request \(id): \(replies)")
    }
    return messages
  }

  /// The didEnd params of `transition` among `messages`, when it has exactly one.
  private func onlyDidEnd(_ messages: [JSON], _ transition: String) -> JSON? {
    let ends = messages.filter {
      $0["method"]?.stringValue == "transition/didEnd" && $0["params"]?["transition"]?.stringValue == transition
    }
    return ends.count == 1 ? ends[0]["params"] : nil
  }

  /// `printf '…' | transition-host` with three real-time transitions: "stalled-block" (a UIView block on a layer with
  /// speed 0 that nothing resumes: past its 0.2 s nothing is due and no display link runs, so time alone can never
  /// end it), "frozen" (a paused layer that its display link resumes at 1 s) and the minimal plugin's 0.3 s fade.
  /// stdin closes right after the requests, before any reply: every request gets its reply, the stalled one ends
  /// cancelled with "inputClosed" instead of keeping the host waiting, the other two play to their end, and the host
  /// exits 0.
  @Test(arguments: ["process", "none"])
  func atEndOfInputATransitionTimeCannotMoveEndsAndTheOthersPlayToTheirEnd(isolation: String) throws {
    let requests: [(String, JSON)] = [
      ("plugins/load", ["path": "libTestPluginCoreAnimation.so"]),
      ("plugins/load", ["path": "libTestPluginMinimal.so"]),
      ("transition/start", Self.realtime("stalled-block")),
      ("transition/start", Self.realtime("frozen")),
      ("transition/start", Self.realtime("com.example.test.minimal/fade", extra: [("params", ["duration": 0.3])])),
    ]
    let messages = try pipe(requests, isolation: isolation)
    let stalled = onlyDidEnd(messages, "t1")
    #expect(stalled?.serialized() == #"{"transition":"t1","completed":false,"cancelled":true,"reason":"inputClosed"}"#)
    #expect(onlyDidEnd(messages, "t2")?["completed"]?.boolValue == true, "the display link resumes the layer")
    #expect(onlyDidEnd(messages, "t3")?["completed"]?.boolValue == true)
    #expect(messages.filter { $0["method"]?.stringValue == "transition/didEnd" }.count == 3)
  }

  /// A real-time 10 s fade paused by a request read before end of input: in a worker, the pause is answered after
  /// end of input, so the transition comes to stand still only then; it ends "inputClosed" all the same (before, the
  /// host waited for ever with a worker), and the host exits 0.
  @Test(arguments: ["process", "none"])
  func aTransitionPausedByARequestReadBeforeEndOfInputEndsInputClosed(isolation: String) throws {
    let messages = try pipe(
      [
        ("plugins/load", ["path": "libTestPluginMinimal.so"]),
        ("transition/start", Self.realtime("com.example.test.minimal/fade", extra: [("params", ["duration": 10])])),
        ("transition/pause", ["transition": "t1"]),
      ], isolation: isolation)
    #expect(messages.first { $0["id"]?.intValue == 3 }?["result"]?["phase"] == "paused")
    let end = onlyDidEnd(messages, "t1")
    #expect(end?.serialized() == #"{"transition":"t1","completed":false,"cancelled":true,"reason":"inputClosed"}"#)
  }

  /// A real-time "stalled-block" that has come to stand (its 0.2 s over, its completion parked on the paused layer)
  /// keeps running while stdin is open, since a client could still cancel it; end of input then ends it at once,
  /// cancelled with "inputClosed", back at its start.
  @Test(arguments: ["process", "none"])
  func aStalledRealTimeTransitionWaitsForTheClientUntilEndOfInput(isolation: String) throws {
    let client = try client(isolation)
    client.result("transition/start", Self.realtime("stalled-block", frames: "full"))
    // Poll until its time has passed the 0.2 s duration: nothing but the client can end it from there.
    var time = 0.0
    for _ in 0..<500 where time <= 0.2 {
      let list = client.result("transition/list")
      time = list["transitions"]?[0]?["time"]?.doubleValue ?? .nan
      usleep(10_000)
    }
    let status = client.result("transition/list")["transitions"]?[0]
    #expect(status?["phase"] == "running")
    #expect((status?["time"]?.doubleValue ?? 0) > 0.2)
    let (messages, exit) = client.finish()
    #expect(exit == .exited(0))
    let end = onlyDidEnd(client.received, "t1")
    #expect(end?.serialized() == #"{"transition":"t1","completed":false,"cancelled":true,"reason":"inputClosed"}"#)
    // The last frame shows the start state: the presented view was never added.
    let last = try #require(TransitionClient.frames(messages, of: "t1").last)
    #expect(last["views"]?.elements.compactMap { $0["id"]?.stringValue } == ["container", "home"])
  }
}
