import Foundation
import JSON
import TestSupport
import Testing

/// `transition/timeline` over the protocol, with plugins in worker processes and in the host's own process: for every
/// built-in animator and operation, the animations its source creates, written out here from reading that source
/// (Plugins/…): target, property, from/to, begin, duration, curve or spring. Springs are checked against TestSupport's
/// `UIKitSpring` (the published at-rest equation for ω₀), never against the engine's solver. Then fixtures for
/// keyframes, chained blocks, explicit Core Animation animations and layers, tails and bad params.
@Suite(.serialized) struct TimelineProtocolTests {
  static let isolations = ["process", "none"]

  static func frame(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> JSON {
    ["x": .number(x), "y": .number(y), "width": .number(w), "height": .number(h)]
  }

  /// Whole numbers as integers, as the host writes them.
  static func point(_ x: Double, _ y: Double) -> JSON { ["x": .number(x), "y": .number(y)] }

  /// A 400 × 800 container; `from` and `to` roots of the container's size (or the given trees).
  static func start(
    _ animator: String, _ operation: String, from: JSON? = nil, to: JSON? = nil, params: JSON? = nil,
    interactive: Bool = false, timeline: JSON = true, container: (Double, Double) = (400, 800)
  ) -> JSON {
    let screen = frame(0, 0, container.0, container.1)
    var members: [(String, JSON)] = [
      ("animator", JSON(animator)), ("operation", JSON(operation)), ("clock", "manual"), ("frames", "none"),
      ("container", ["width": JSON(container.0), "height": JSON(container.1)]),
      ("from", from ?? ["id": "home", "frame": screen]), ("to", to ?? ["id": "detail", "frame": screen]),
      ("interactive", JSON(interactive)), ("timeline", timeline),
    ]
    if let params { members.append(("params", params)) }
    return .object(members)
  }

  private func client(_ isolation: String, load plugins: [String] = []) throws -> TransitionClient {
    let client = try TransitionClient(["--isolation", isolation])
    for plugin in plugins {
      #expect(client.request("plugins/load", ["path": JSON(plugin)])["result"] != nil, "\(plugin)")
    }
    return client
  }

  private func close(_ client: TransitionClient) {
    let (_, status) = client.finish()
    #expect(status == .exited(0))
  }

  private func near(_ value: JSON?, _ expected: Double, _ tolerance: Double = 1e-9) -> Bool {
    abs((value?.doubleValue ?? .nan) - expected) <= tolerance * max(1, abs(expected))
  }

  private func numbers(_ value: JSON?) -> [Double] { value?.elements.map { $0.doubleValue ?? .nan } ?? [] }

  private func matrix(_ value: JSON?, _ expected: [Double], _ tolerance: Double = 1e-12) -> Bool {
    let got = numbers(value)
    return got.count == 16 && zip(got, expected).allSatisfy { abs($0 - $1) <= tolerance }
  }

  /// CATransform3DMakeRotation(angle, 0, 1, 0), row by row (m13 = −sin, m31 = sin).
  private func rotationY(_ angle: Double) -> [Double] {
    [cos(angle), 0, -sin(angle), 0, 0, 1, 0, 0, sin(angle), 0, cos(angle), 0, 0, 0, 0, 1]
  }

  private let identity: [Double] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]

  /// One animation's common members.
  private func expect(
    _ a: JSON?, index: Int, target: String, kind: String = "view", property: String, begin: Double = 0,
    duration: Double, source: String, block: Int?, completion: Bool = true, state: String = "running",
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(a?["index"]?.intValue == Int64(index), sourceLocation: sourceLocation)
    #expect(a?["target"]?.stringValue == target, sourceLocation: sourceLocation)
    #expect(a?["kind"]?.stringValue == kind, sourceLocation: sourceLocation)
    #expect(a?["property"]?.stringValue == property, sourceLocation: sourceLocation)
    #expect(near(a?["begin"], begin), "begin", sourceLocation: sourceLocation)
    #expect(near(a?["duration"], duration), "duration", sourceLocation: sourceLocation)
    #expect(near(a?["end"], begin + duration), "end", sourceLocation: sourceLocation)
    #expect(a?["source"]?["kind"]?.stringValue == source, sourceLocation: sourceLocation)
    #expect(a?["source"]?["block"] == (block.map { JSON($0) } ?? .null), sourceLocation: sourceLocation)
    #expect(a?["source"]?["completion"]?.boolValue == completion, sourceLocation: sourceLocation)
    #expect(a?["state"]?.stringValue == state, sourceLocation: sourceLocation)
  }

  /// A UIKit damping-ratio spring as the timeline lists it: mass 1, k = ω₀², c = 2ζω₀, lasting exactly T.
  private func expectSpring(
    _ timing: JSON?, dampingRatio zeta: Double, duration: Double, velocity: Double = 0,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let omega = UIKitSpring(dampingRatio: zeta, duration: duration, initialVelocity: velocity).omega
    let spring = timing?["spring"]
    #expect(near(spring?["mass"], 1), sourceLocation: sourceLocation)
    #expect(near(spring?["stiffness"], omega * omega, 1e-6), "stiffness", sourceLocation: sourceLocation)
    #expect(near(spring?["damping"], 2 * zeta * omega, 1e-6), "damping", sourceLocation: sourceLocation)
    #expect(near(spring?["dampingRatio"], zeta, 1e-9), sourceLocation: sourceLocation)
    #expect(near(spring?["initialVelocity"], velocity), sourceLocation: sourceLocation)
    #expect(near(spring?["duration"], duration), sourceLocation: sourceLocation)
    #expect((spring?["settlingDuration"]?.doubleValue ?? 0) > 0, sourceLocation: sourceLocation)
  }

  private func animations(_ timeline: JSON?) -> [JSON] { timeline?["animations"]?.elements ?? [] }

  // MARK: - pull-down (Plugins/PullDown): one UIView.animate of the presented view's frame, 0.5 s, easeInOut

  @Test(arguments: isolations)
  func pullDownPresentSlidesTheToViewDownFromAboveTheContainer(isolation: String) throws {
    let client = try client(isolation)
    let started = client.result("transition/start", Self.start("pull-down", "present"))
    let timeline = started["timeline"]
    #expect(timeline?["transition"]?.stringValue == "t1")
    #expect(timeline?["time"]?.doubleValue == 0)
    #expect(timeline?["duration"]?.doubleValue == 0.5)
    #expect(timeline?["tails"] == [])
    let list = animations(timeline)
    // frame.origin.y = −height, then toView.frame = inView.bounds: only the centre moves (the size is the same).
    #expect(list.count == 1)
    expect(list.first, index: 0, target: "detail", property: "center", duration: 0.5, source: "block", block: 0)
    #expect(list.first?["from"] == Self.point(200, -400))
    #expect(list.first?["to"] == Self.point(200, 400))
    #expect(list.first?["timing"] == ["curve": "easeInOut"])
    #expect(list.first?["source"]?["parent"] == .null)
    #expect(list.first?["source"]?["depth"]?.intValue == 0)
    #expect(list.first?["source"]?["delay"]?.doubleValue == 0)
    // The same through transition/timeline, later: the state follows the time.
    client.result("transition/tick", ["transition": "t1", "dt": 0.2])
    let now = client.result("transition/timeline", ["transition": "t1"])
    #expect(now["time"]?.doubleValue == 0.2)
    #expect(animations(now).first?["state"]?.stringValue == "running")
    #expect(animations(now).first?["from"] == Self.point(200, -400))
    close(client)
  }

  @Test(arguments: isolations)
  func pullDownDismissSlidesTheFromViewBackUpWithTheChosenCurveAndDuration(isolation: String) throws {
    let client = try client(isolation)
    let screen = Self.frame(0, 0, 400, 800)
    let started = client.result(
      "transition/start",
      Self.start(
        "pull-down", "dismiss", from: ["id": "detail", "frame": screen], to: ["id": "home", "frame": screen],
        params: ["duration": 0.6, "curve": "linear"]))
    let list = animations(started["timeline"])
    #expect(list.count == 1)
    expect(list.first, index: 0, target: "detail", property: "center", duration: 0.6, source: "block", block: 0)
    #expect(list.first?["from"] == Self.point(200, 400))
    #expect(list.first?["to"] == Self.point(200, -400))
    #expect(list.first?["timing"] == ["curve": "linear"])
    close(client)
  }

  // MARK: - flip (Plugins/Flip/flip.c): one animate of the turning view's transform and the shadow's alpha, 0.8 s

  @Test(arguments: isolations)
  func flipPresentTurnsTheFromViewAndDarkensItsShadowEasingOut(isolation: String) throws {
    let client = try client(isolation)
    let list = animations(client.result("transition/start", Self.start("flip", "present"))["timeline"])
    // turn(): set_transform(turning = from, rotation_y(−π/2)), then the shadow's alpha 0 → 1.
    #expect(list.count == 2)
    expect(list.first, index: 0, target: "home", property: "transform", duration: 0.8, source: "block", block: 0)
    #expect(matrix(list.first?["from"], identity))
    #expect(matrix(list.first?["to"], rotationY(-Double.pi / 2)))
    #expect(list.first?["timing"] == ["curve": "easeOut"])
    expect(
      list.last, index: 1, target: "flip-shadow", kind: "gradient", property: "alpha", duration: 0.8, source: "block",
      block: 0)
    #expect(list.last?["from"] == 0)
    #expect(list.last?["to"] == 1)
    #expect(list.last?["timing"] == ["curve": "easeOut"])
    close(client)
  }

  @Test(arguments: isolations)
  func flipDismissTurnsThePresentingViewBackFlatEasingIn(isolation: String) throws {
    let client = try client(isolation)
    let screen = Self.frame(0, 0, 400, 800)
    let list = animations(
      client.result(
        "transition/start",
        Self.start(
          "flip", "dismiss", from: ["id": "detail", "frame": screen], to: ["id": "home", "frame": screen])
      )["timeline"])
    #expect(list.count == 2)
    // Dismiss: the turning view is the to view, set to rotation_y(−π/2) first and turned back to the identity.
    expect(list.first, index: 0, target: "home", property: "transform", duration: 0.8, source: "block", block: 0)
    #expect(matrix(list.first?["from"], rotationY(-Double.pi / 2)))
    #expect(matrix(list.first?["to"], identity))
    #expect(list.first?["timing"] == ["curve": "easeIn"])
    expect(
      list.last, index: 1, target: "flip-shadow", kind: "gradient", property: "alpha", duration: 0.8, source: "block",
      block: 0)
    #expect(list.last?["from"] == 1)
    #expect(list.last?["to"] == 0)
    close(client)
  }

  // MARK: - segue-slide (Plugins/SegueSlide/segueslide.c): a UIKit spring, ζ 0.5, v₀ 0, 0.5 s

  @Test(arguments: isolations)
  func segueSlideSpringsTheDestinationUpFromBelow(isolation: String) throws {
    let client = try client(isolation)
    let list = animations(client.result("transition/start", Self.start("segue-slide", "segue"))["timeline"])
    #expect(list.count == 1)
    expect(list.first, index: 0, target: "detail", property: "center", duration: 0.5, source: "springBlock", block: 0)
    #expect(list.first?["from"] == Self.point(200, 1200))
    #expect(list.first?["to"] == Self.point(200, 400))
    expectSpring(list.first?["timing"], dampingRatio: 0.5, duration: 0.5)
    close(client)
  }

  @Test(arguments: isolations)
  func segueSlideUnwindSpringsTheSourceDown(isolation: String) throws {
    let client = try client(isolation)
    let screen = Self.frame(0, 0, 400, 800)
    let list = animations(
      client.result(
        "transition/start",
        Self.start(
          "segue-slide", "unwind", from: ["id": "detail", "frame": screen], to: ["id": "home", "frame": screen],
          params: ["dampingRatio": 0.8, "initialVelocity": 1])
      )["timeline"])
    #expect(list.count == 1)
    expect(list.first, index: 0, target: "detail", property: "center", duration: 0.5, source: "springBlock", block: 0)
    #expect(list.first?["from"] == Self.point(200, 400))
    #expect(list.first?["to"] == Self.point(200, 1200))
    expectSpring(list.first?["timing"], dampingRatio: 0.8, duration: 0.5, velocity: 1)
    close(client)
  }

  // MARK: - sheet (Plugins/Sheet): the sheet and, alongside, the dimming view, one UIKit spring (ζ 1, 1 s)

  @Test(arguments: isolations)
  func sheetPresentSpringsTheSheetUpAndFadesInTheDimmingAlongside(isolation: String) throws {
    let client = try client(isolation)
    let list = animations(client.result("transition/start", Self.start("sheet", "present"))["timeline"])
    #expect(list.count == 2)
    let sheet = list.first { $0["target"]?.stringValue == "detail" }
    let dimming = list.first { $0["target"]?.stringValue == "dimming" }
    #expect(sheet?["property"]?.stringValue == "center")
    #expect(sheet?["from"] == Self.point(200, 1200))
    #expect(sheet?["to"] == Self.point(200, 400))
    expectSpring(sheet?["timing"], dampingRatio: 1, duration: 1)
    #expect(dimming?["property"]?.stringValue == "alpha")
    #expect(dimming?["from"] == 0)
    #expect(dimming?["to"] == 0.4)
    expectSpring(dimming?["timing"], dampingRatio: 1, duration: 1)
    for a in [sheet, dimming] {
      #expect(a?["source"]?["kind"]?.stringValue == "springBlock")
      #expect(a?["begin"]?.doubleValue == 0)
      #expect(a?["duration"]?.doubleValue == 1)
    }
    // Two blocks (the alongside one and the animator's).
    #expect(Set(list.compactMap { $0["source"]?["block"]?.intValue }).count == 2)
    #expect(list.map { $0["index"]?.intValue } == [0, 1])
    close(client)
  }

  @Test(arguments: isolations)
  func sheetDismissSpringsTheSheetDownAndFadesTheDimmingOut(isolation: String) throws {
    let client = try client(isolation)
    let screen = Self.frame(0, 0, 400, 800)
    let list = animations(
      client.result(
        "transition/start",
        Self.start(
          "sheet", "dismiss", from: ["id": "detail", "frame": screen], to: ["id": "home", "frame": screen],
          params: ["duration": 0.8, "springDamping": 0.7])
      )["timeline"])
    #expect(list.count == 2)
    let sheet = list.first { $0["target"]?.stringValue == "detail" }
    let dimming = list.first { $0["target"]?.stringValue == "dimming" }
    #expect(sheet?["from"] == Self.point(200, 400))
    #expect(sheet?["to"] == Self.point(200, 1200))
    expectSpring(sheet?["timing"], dampingRatio: 0.7, duration: 0.8)
    // The scene had no dimming view: the presentation controller put it back at 0.4 and fades it to 0.
    #expect(dimming?["from"] == 0.4)
    #expect(dimming?["to"] == 0)
    expectSpring(dimming?["timing"], dampingRatio: 0.7, duration: 0.8)
    close(client)
  }

  // MARK: - magic-move (Plugins/MagicMove): the snapshot's flight and the screen's fade, 0.5 s easeInOut

  /// The seed's storyboard (MagicMoveTests): a 375 × 667 list whose cell (10, 120) holds the image (8, 8, 166, 166),
  /// and the detail's avatar (48, 72, 280, 280); both keyed "photo".
  static var list: JSON {
    [
      "id": "list", "frame": frame(0, 0, 375, 667),
      "children": [
        [
          "id": "cell", "frame": frame(10, 120, 182, 204),
          "children": [["id": "cellImage", "frame": frame(8, 8, 166, 166), "match": "photo"]],
        ]
      ],
    ]
  }
  static var detail: JSON {
    [
      "id": "detail", "frame": frame(0, 0, 375, 667),
      "children": [["id": "avatar", "frame": frame(48, 72, 280, 280), "match": "photo"]],
    ]
  }

  @Test(arguments: isolations)
  func magicMovePushFliesTheSnapshotToTheAvatarAndFadesTheDetailIn(isolation: String) throws {
    let client = try client(isolation)
    let list = animations(
      client.result(
        "transition/start",
        Self.start("magic-move", "push", from: Self.list, to: Self.detail, container: (375, 667)))["timeline"])
    // snapshot.frame = targetFrame: centre (18 + 83, 128 + 83) → (48 + 140, 72 + 140) and bounds 166 → 280 square;
    // toVC.view.alpha 0 → 1.
    #expect(list.count == 3)
    let snapshot = list.first?["target"]?.stringValue ?? ""
    #expect(snapshot != "detail" && !snapshot.isEmpty)
    let center = list.first { $0["property"]?.stringValue == "center" }
    let bounds = list.first { $0["property"]?.stringValue == "bounds" }
    let fade = list.first { $0["property"]?.stringValue == "alpha" }
    #expect(center?["target"]?.stringValue == snapshot && bounds?["target"]?.stringValue == snapshot)
    #expect(center?["from"] == Self.point(101, 211))
    #expect(center?["to"] == Self.point(188, 212))
    #expect(bounds?["from"] == Self.frame(0, 0, 166, 166))
    #expect(bounds?["to"] == Self.frame(0, 0, 280, 280))
    #expect(fade?["target"]?.stringValue == "detail")
    #expect(fade?["from"] == 0)
    #expect(fade?["to"] == 1)
    for (i, a) in list.enumerated() {
      expect(
        a, index: i, target: a["target"]?.stringValue ?? "", property: a["property"]?.stringValue ?? "",
        duration: 0.5, source: "block", block: 0)
      #expect(a["timing"] == ["curve": "easeInOut"])
    }
    close(client)
  }

  @Test(arguments: isolations)
  func magicMovePopFliesTheSnapshotBackAndFadesTheDetailOut(isolation: String) throws {
    let client = try client(isolation)
    let list = animations(
      client.result(
        "transition/start",
        Self.start("magic-move", "pop", from: Self.detail, to: Self.list, container: (375, 667)))["timeline"])
    #expect(list.count == 3)
    let center = list.first { $0["property"]?.stringValue == "center" }
    let bounds = list.first { $0["property"]?.stringValue == "bounds" }
    let fade = list.first { $0["property"]?.stringValue == "alpha" }
    #expect(center?["from"] == Self.point(188, 212))
    #expect(center?["to"] == Self.point(101, 211))
    #expect(bounds?["from"] == Self.frame(0, 0, 280, 280))
    #expect(bounds?["to"] == Self.frame(0, 0, 166, 166))
    #expect(fade?["target"]?.stringValue == "detail")
    #expect(fade?["from"] == 1)
    #expect(fade?["to"] == 0)
    #expect(list.allSatisfy { $0["duration"]?.doubleValue == 0.5 && $0["timing"] == ["curve": "easeInOut"] })
    close(client)
  }

  // MARK: - Keyframes, chained blocks and notifications (TestPluginSwiftSDK)

  @Test(arguments: isolations)
  func aKeyframeBlockListsItsKeyTimesAndValues(isolation: String) throws {
    let client = try client(isolation, load: ["libTestPluginSwiftSDK.so"])
    let list = animations(client.result("transition/start", Self.start("keyframes", "present"))["timeline"])
    // Four keyframes of a quarter each over 1.2 s, linear timeline, on the dot's centre and alpha.
    #expect(list.count == 2)
    let center = list.first { $0["property"]?.stringValue == "center" }
    let alpha = list.first { $0["property"]?.stringValue == "alpha" }
    for a in [center, alpha] {
      #expect(a?["target"]?.stringValue == "dot")
      #expect(a?["source"]?["kind"]?.stringValue == "keyframeBlock")
      #expect(a?["duration"]?.doubleValue == 1.2)
      #expect(a?["timing"]?["keyframes"]?["keyTimes"] == [0, 0.25, 0.5, 0.75, 1])
      #expect(a?["timing"]?["keyframes"]?["calculationMode"] == "linear")
      #expect(a?["timing"]?["keyframes"]?["curve"] == "linear")
    }
    #expect(
      center?["timing"]?["keyframes"]?["values"]
        == [
          Self.point(100, 400), Self.point(400, 400), Self.point(400, 500), Self.point(200, 500), Self.point(200, 600),
        ])
    #expect(center?["from"] == Self.point(100, 400))
    #expect(center?["to"] == Self.point(200, 600))
    let alphas = numbers(alpha?["timing"]?["keyframes"]?["values"])
    #expect(alphas.count == 5 && zip(alphas, [0.2, 0.4, 0.6, 0.8, 1]).allSatisfy { abs($0 - $1) < 1e-12 })
    close(client)
  }

  @Test(arguments: isolations)
  func aBlockAChainedCompletionStartsAppearsWhenMadeAndIsNotified(isolation: String) throws {
    let client = try client(isolation, load: ["libTestPluginSwiftSDK.so"])
    let started = client.result("transition/start", Self.start("alongside", "present", timeline: "notify"))
    let first = animations(started["timeline"])
    // The dimming's alpha (0 → 0.6) and its corner radius block alongside, the dot's centre.x 100 → 300 (0.5 s, linear).
    let dot = try #require(first.first { $0["target"]?.stringValue == "dot" })
    #expect(dot["from"] == Self.point(100, 400))
    #expect(dot["to"] == Self.point(300, 400))
    #expect(dot["timing"] == ["curve": "linear"])
    #expect(first.contains { $0["target"]?.stringValue == "dimming" && $0["property"]?.stringValue == "alpha" })
    #expect(first.contains { $0["target"]?.stringValue == "dimming" && $0["property"]?.stringValue == "cornerRadius" })
    let early = client.takeNotifications().filter { $0["method"]?.stringValue == "transition/timelineChanged" }
    #expect(early.isEmpty)
    // At 0.5 the first block's completion animates the dot's centre.y 400 → 600 over [0.5, 1].
    client.result("transition/tick", ["transition": "t1", "dt": 0.6])
    let changed = try #require(
      client.waitFor { $0["method"]?.stringValue == "transition/timelineChanged" }?["params"])
    #expect(changed["transition"]?.stringValue == "t1")
    let later = animations(changed)
    #expect(later.count > first.count)
    let second = try #require(
      later.first { $0["target"]?.stringValue == "dot" && $0["to"] == Self.point(300, 600) })
    #expect(second["from"] == Self.point(300, 400))
    #expect(near(second["begin"], 0.5))
    #expect(near(second["end"], 1))
    #expect(second["source"]?["parent"] == dot["source"]?["block"])
    #expect(second["source"]?["depth"]?.intValue == 1)
    #expect(second["state"]?.stringValue == "running")
    #expect(later.first { $0["index"] == dot["index"] }?["state"]?.stringValue == "finished")
    // transition/timeline says the same (indexes are stable).
    let now = client.result("transition/timeline", ["transition": "t1"])
    #expect(animations(now).map { $0["index"] } == later.map { $0["index"] })
    close(client)
  }

  // MARK: - Explicit Core Animation and layers (TestPluginCoreAnimation, TestPluginLayersUIKit)

  @Test(arguments: isolations)
  func theCircularRevealListsItsExplicitPathAnimation(isolation: String) throws {
    let client = try client(isolation, load: ["libTestPluginCoreAnimation.so"])
    let list = animations(
      client.result("transition/start", Self.start("com.example.test.coreanimation/circular-reveal", "present"))[
        "timeline"])
    #expect(list.count == 1)
    let reveal = list.first
    expect(
      reveal, index: 0, target: reveal?["target"]?.stringValue ?? "", kind: "shape", property: "path", duration: 1,
      source: "explicit", block: nil)
    #expect(reveal?["source"]?["key"] == "reveal")
    #expect(reveal?["timing"] == ["curve": "easeInOut"])
    // From the circle of radius 10 about (100, 200) to the one through the farthest corner (an ellipse path: a move to
    // (cx + r, cy), four cubic arcs, a close).
    let r = (300.0 * 300 + 600 * 600).squareRoot()
    #expect(reveal?["from"]?.elements.first == ["M", 110, 200])
    #expect(near(reveal?["to"]?.elements.first?[1], 100 + r, 1e-12))
    #expect(reveal?["to"]?.elements.count == 6)
    close(client)
  }

  @Test(arguments: isolations)
  func theShadowPushListsTwoExplicitAnimationsAndItsBlock(isolation: String) throws {
    let client = try client(isolation, load: ["libTestPluginCoreAnimation.so"])
    let list = animations(
      client.result("transition/start", Self.start("com.example.test.coreanimation/shadow-push", "present"))[
        "timeline"])
    #expect(list.count == 3)
    expect(
      list[0], index: 0, target: "detail", property: "shadowOpacity", duration: 1, source: "explicit", block: nil,
      completion: false)
    #expect(list[0]["from"] == 0)
    #expect(list[0]["to"] == 0.5)
    #expect(list[0]["source"]?["key"] == "shadowOpacity")
    expect(
      list[1], index: 1, target: "detail", property: "shadowPath", duration: 1, source: "explicit", block: nil,
      completion: false)
    #expect(list[1]["from"]?.elements.first == ["M", 16, 16])
    #expect(list[1]["to"]?.elements.first == ["M", 0, 0])
    // toView.frame.origin.x = width, then 0 in the block: the centre 600 → 200.
    expect(list[2], index: 2, target: "detail", property: "center", duration: 1, source: "block", block: 0)
    #expect(list[2]["from"] == Self.point(600, 400))
    #expect(list[2]["to"] == Self.point(200, 400))
    #expect(list.allSatisfy { $0["timing"] == ["curve": "easeInOut"] })
    close(client)
  }

  @Test(arguments: isolations)
  func theSlideListsBasicKeyframeSpringAndGroupAnimations(isolation: String) throws {
    let client = try client(isolation, load: ["libTestPluginCoreAnimation.so"])
    let list = animations(
      client.result("transition/start", Self.start("com.example.test.coreanimation/slide", "present"))["timeline"])
    #expect(list.count == 4)
    // position.y 1200 → 400, 1 s easeInEaseOut, a delegate.
    #expect(list[0]["property"] == "position.y")
    #expect(list[0]["from"] == 1200 && list[0]["to"] == 400)
    #expect(list[0]["source"]?["completion"] == true)
    // cornerRadius keyframes 0, 20, 0 at 0, 0.25, 1 (linear, no timing function).
    #expect(list[1]["property"] == "cornerRadius")
    #expect(list[1]["timing"]?["keyframes"]?["values"] == [0, 20, 0])
    #expect(list[1]["timing"]?["keyframes"]?["keyTimes"] == [0, 0.25, 1])
    // The spring: mass 1, stiffness 100, damping 20 (ζ = 20 / (2·√100) = 1): settles by its settling duration.
    #expect(list[2]["property"] == "opacity")
    let spring = list[2]["timing"]?["spring"]
    #expect(spring?["mass"] == 1 && spring?["stiffness"] == 100 && spring?["damping"] == 20)
    #expect(near(spring?["dampingRatio"], 1))
    #expect(near(list[2]["duration"], spring?["settlingDuration"]?.doubleValue ?? .nan))
    // The group's child on the from view: transform.scale 1 → 0.9 over the group's 0.5 s.
    #expect(list[3]["target"] == "home")
    #expect(list[3]["property"] == "transform.scale")
    #expect(list[3]["from"] == 1 && list[3]["to"] == 0.9)
    #expect(near(list[3]["duration"], 0.5))
    #expect(near(list[3]["end"], 0.5))
    close(client)
  }

  @Test(arguments: isolations)
  func thePageTurnListsTheTransformAndTheGradientLayersOpacity(isolation: String) throws {
    let client = try client(isolation, load: ["libTestPluginLayersUIKit.so"])
    let list = animations(
      client.result("transition/start", Self.start("com.example.test.layers.uikit/page-turn", "push"))["timeline"])
    #expect(list.count == 2)
    expect(list[0], index: 0, target: "home", property: "transform", duration: 1, source: "block", block: 0)
    #expect(matrix(list[0]["from"], identity))
    #expect(matrix(list[0]["to"], rotationY(-Double.pi / 2)))
    // A CAGradientLayer that is not a view: its Core Animation name, opacity.
    expect(
      list[1], index: 1, target: list[1]["target"]?.stringValue ?? "", kind: "gradient", property: "opacity",
      duration: 1, source: "block", block: 0)
    #expect(list[1]["from"] == 0 && list[1]["to"] == 1)
    #expect(list.allSatisfy { $0["timing"] == ["curve": "linear"] })
    close(client)
  }

  @Test(arguments: isolations)
  func theCardListsItsLayerPropertiesInOneBlock(isolation: String) throws {
    let client = try client(isolation, load: ["libTestPluginLayersUIKit.so"])
    let list = animations(
      client.result("transition/start", Self.start("com.example.test.layers.uikit/card", "present"))["timeline"])
    #expect(
      list.map { $0["property"]?.stringValue ?? "" } == ["cornerRadius", "borderColor", "shadowOpacity", "shadowPath"])
    #expect(list[0]["from"] == 0 && list[0]["to"] == 16)
    #expect(list[1]["from"] == [1, 0, 0, 1] && list[1]["to"] == [0, 0, 1, 1])
    // CALayer.shadowOpacity is a Float: 0.4 as Float.
    #expect(list[2]["from"] == 0 && near(list[2]["to"], Double(Float(0.4))))
    #expect(list.allSatisfy { $0["target"] == "detail" && $0["duration"] == 1 && $0["timing"] == ["curve": "linear"] })
    close(client)
  }

  // MARK: - Tails

  @Test(arguments: isolations)
  func aReleaseWithVelocityListsItsSpringTail(isolation: String) throws {
    let client = try client(isolation)
    client.result("transition/start", Self.start("pull-down", "present", interactive: true, timeline: false))
    client.result("transition/update", ["transition": "t1", "percent": 0.4])
    #expect(client.result("transition/release", ["transition": "t1", "velocity": 1])["decision"] == "finish")
    let tails = client.result("transition/timeline", ["transition": "t1"])["tails"]?.elements ?? []
    #expect(tails.count == 1)
    let tail = tails.first
    // τ = 0.4 × 0.5 = 0.2 → 0.5 over (D − τ)/speed = 0.3 s; the spring's v₀ = v / (1 − p) = 1 / 0.6.
    #expect(tail?["operation"] == "finish")
    #expect(tail?["cause"] == "release")
    #expect(tail?["velocity"] == 1)
    #expect(near(tail?["from"], 0.2))
    #expect(near(tail?["to"], 0.5))
    #expect(near(tail?["startedAt"], 0))
    #expect(near(tail?["length"], (0.5 - 0.2) / 1))
    expectSpring(tail?["timing"], dampingRatio: 1, duration: 0.3, velocity: 1 / 0.6)
    close(client)
  }

  @Test(arguments: isolations)
  func cancelAndReleaseTailsFollowTheClockAndTheCurve(isolation: String) throws {
    let client = try client(isolation)
    client.result("transition/start", Self.start("pull-down", "present", interactive: true, timeline: false))
    client.result("transition/update", ["transition": "t1", "percent": 0.6])
    client.result("transition/tick", ["transition": "t1", "dt": 0.25])
    client.result("transition/cancel", ["transition": "t1", "completionSpeed": 2])
    client.result("transition/tick", ["transition": "t1", "dt": 0.05])
    client.result("transition/pause", ["transition": "t1"])
    let tau = client.result("transition/timeline", ["transition": "t1"])["time"]?.doubleValue ?? .nan
    #expect(client.result("transition/release", ["transition": "t1", "velocity": -2])["decision"] == "cancel")
    let tails = client.result("transition/timeline", ["transition": "t1"])["tails"]?.elements ?? []
    #expect(tails.count == 2)
    // The cancel: τ = 0.3 → 0 at speed 2 (0.15 s) along the completion curve, after 0.25 s of clock time.
    #expect(tails.first?["operation"] == "cancel" && tails.first?["cause"] == "cancel")
    #expect(near(tails.first?["from"], 0.3) && near(tails.first?["to"], 0))
    #expect(near(tails.first?["startedAt"], 0.25))
    #expect(near(tails.first?["length"], 0.3 / 2))
    #expect(tails.first?["timing"] == ["curve": "easeInOut"])
    // The release, where the pause left it: τ → 0 over τ/speed, v₀ = −v / p with p = τ / D.
    #expect(tails.last?["operation"] == "cancel" && tails.last?["cause"] == "release")
    #expect(near(tails.last?["from"], tau) && near(tails.last?["startedAt"], 0.3))
    #expect(near(tails.last?["length"], tau / 1))
    expectSpring(tails.last?["timing"], dampingRatio: 1, duration: tau, velocity: 2 / (tau / 0.5))
    close(client)
  }

  // MARK: - Bad params

  @Test(arguments: isolations)
  func badParamsNameTheirField(isolation: String) throws {
    let client = try client(isolation)
    var bad = Self.start("pull-down", "present", timeline: "always")
    var error = client.error("transition/start", bad)
    #expect(error["code"] == -32602)
    #expect(error["data"]?["field"] == "params.timeline")
    bad = Self.start("pull-down", "present", timeline: 1)
    #expect(client.error("transition/start", bad)["data"]?["field"] == "params.timeline")
    error = client.error("transition/timeline", [:])
    #expect(error["code"] == -32602 && error["data"]?["field"] == "params.transition")
    error = client.error("transition/timeline", ["transition": 1])
    #expect(error["code"] == -32602 && error["data"]?["field"] == "params.transition")
    error = client.error("transition/timeline", ["transition": "t7"])
    #expect(error["code"] == 2005)
    // false: no timeline in the result.
    let started = client.result("transition/start", Self.start("pull-down", "present", timeline: false))
    #expect(started["timeline"] == nil)
    #expect(started["transition"] == "t1")
    close(client)
  }
}
