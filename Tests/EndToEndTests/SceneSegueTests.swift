// Storyboard segues in a scene through the real binary (Protocol.md, "Scenes"): the Segue example's own view
// controllers (plain UIKit) have swipe recognizers whose handlers call performSegue — the slide-up custom segue and
// its unwind, as SegueTransion's do. Expected geometry from the seed's formulas: UIView.animate(0.5,
// usingSpringWithDamping: 0.5, initialSpringVelocity: 0) moving the second screen by the screen's height (TestSupport's
// UIKitSpring, written from the published closed forms), in both isolation modes.

import JSON
import TestSupport
import Testing

@Suite struct SceneSegueTests {
  static let height = 480.0
  static let animator = "com.example.uikit.segue/slide"

  static func tree(_ id: String) -> JSON {
    ["id": JSON(id), "frame": ["x": 0, "y": 0, "width": 320, "height": JSON(height)]]
  }

  static func openScene(_ isolation: String) throws -> (TransitionClient, String) {
    let client = try TransitionClient(["--isolation", isolation])
    let loaded = client.request("plugins/load", ["path": "libUIKitExampleSegue.so"])
    #expect(loaded["error"] == nil, "\(loaded)")
    let opened = client.result(
      "scene/open",
      [
        "animator": JSON(animator), "clock": "manual", "container": ["width": 320, "height": JSON(height)],
        "root": tree("first"), "storyboard": ["SecondViewController": tree("second")],
      ])
    return (client, try #require(opened["scene"]?.stringValue))
  }

  static func sample(_ scene: String, _ state: String, dx: Double = 0, dy: Double, vx: Double = 0, vy: Double) -> JSON {
    [
      "scene": JSON(scene), "state": JSON(state), "location": ["x": JSON(160 + dx), "y": JSON(240 + dy)],
      "translation": ["x": JSON(dx), "y": JSON(dy)], "velocity": ["x": JSON(vx), "y": JSON(vy)],
    ]
  }

  /// The spring's progress at t (0.5 s, ζ = 0.5, v₀ = 0; exactly 1 from 0.5 s on).
  static func progress(_ t: Double) -> Double { UIKitSpring(dampingRatio: 0.5, duration: 0.5).progress(t) }

  static func lastFrame(_ client: TransitionClient, _ transition: String) -> JSON? {
    _ = client.takeNotifications()
    return TransitionClient.frames(client.received, of: transition).last
  }

  /// Swipes with a `began` at rest and one `changed` sample, and returns that sample's result (then lifts).
  static func swipe(
    _ client: TransitionClient, _ scene: String, dx: Double = 0, dy: Double, vx: Double = 0, vy: Double
  ) -> JSON {
    #expect(client.result("scene/gesture", sample(scene, "began", dy: 0, vy: 0))["recognizers"] == 1)
    let moved = client.result("scene/gesture", sample(scene, "changed", dx: dx, dy: dy, vx: vx, vy: vy))
    #expect(client.result("scene/gesture", sample(scene, "ended", dx: dx, dy: dy, vx: vx, vy: vy))["recognizers"] == 1)
    return moved
  }

  @Test(arguments: ["process", "none"])
  func aSwipeUpPerformsTheSlideSegueAndASwipeDownItsUnwind(_ isolation: String) throws {
    let (client, scene) = try Self.openScene(isolation)
    // Too short (40 < 50 pt), too slow (200 < 300 pt/s), too far off the vertical (35° > 30°), the wrong way: the
    // swipe recognizer fails each time and no segue runs.
    for (dx, dy, vy) in [(0.0, -40.0, -800.0), (0, -80, -200), (-56, -80, -800), (0, 80, 800)] {
      let failed = Self.swipe(client, scene, dx: dx, dy: dy, vx: 0, vy: vy)
      #expect(failed == ["recognizers": 1], "\(dx), \(dy), \(vy)")
    }
    // 80 pt up at 800 pt/s, 20° off the vertical: recognized; the handler performs "firstSegue".
    #expect(client.result("scene/gesture", Self.sample(scene, "began", dy: 0, vy: 0))["recognizers"] == 1)
    let recognized = client.result(
      "scene/gesture", Self.sample(scene, "changed", dx: 80 * 0.36397023426620234, dy: -80, vy: -800))
    let t1 = try #require(recognized["transition"]?.stringValue)
    let started = try #require(
      client.waitFor { $0["method"]?.stringValue == "scene/transitionStarted" }?["params"])
    #expect(started["operation"]?.stringValue == "segue")
    #expect(started["from"]?.stringValue == "first" && started["to"]?.stringValue == "second")
    #expect(started["duration"]?.doubleValue == 0.5)
    // The rest of the touch reaches the recognizer, which fires once per touch.
    #expect(client.result("scene/gesture", Self.sample(scene, "changed", dy: -200, vy: -900)) == ["recognizers": 1])
    #expect(client.result("scene/gesture", Self.sample(scene, "ended", dy: -200, vy: -900)) == ["recognizers": 1])
    // The second screen comes up from below: y = h·(1 − progress(t)).
    var time = 0.0
    for dt in [0.05, 0.1, 0.1, 0.15] {
      client.result("transition/tick", ["transition": JSON(t1), "dt": JSON(dt)])
      time += dt
      let frame = try #require(Self.lastFrame(client, t1))
      #expect(abs((frame.y("second") ?? .nan) - Self.height * (1 - Self.progress(time))) <= 1e-6, "t = \(time)")
      #expect(frame.y("first") == 0)
    }
    client.result("transition/tick", ["transition": JSON(t1), "dt": 1])
    #expect(client.waitForDidEnd(t1)?["completed"]?.boolValue == true)
    let presented = try #require(Self.lastFrame(client, t1))
    #expect(presented.y("second") == 0)
    // A segue replaces the source scene.
    #expect(presented.view("first") == nil)

    // The second screen's swipe down performs "firstUnwind": it drops by the screen's height.
    let unwound = Self.swipe(client, scene, dy: 120, vy: 1000)
    let t2 = try #require(unwound["transition"]?.stringValue)
    let announced = try #require(
      client.waitFor {
        $0["method"]?.stringValue == "scene/transitionStarted" && $0["params"]?["transition"]?.stringValue == t2
      }?["params"])
    #expect(announced["operation"]?.stringValue == "unwind")
    #expect(announced["from"]?.stringValue == "second" && announced["to"]?.stringValue == "first")
    client.result("transition/tick", ["transition": JSON(t2), "dt": 0.2])
    let falling = try #require(Self.lastFrame(client, t2))
    #expect(abs((falling.y("second") ?? .nan) - Self.height * Self.progress(0.2)) <= 1e-6)
    #expect(falling.y("first") == 0)
    client.result("transition/tick", ["transition": JSON(t2), "dt": 1])
    #expect(client.waitForDidEnd(t2)?["completed"]?.boolValue == true)
    let back = try #require(Self.lastFrame(client, t2))
    #expect(back.view("second") == nil && back.y("first") == 0)
    // The first screen is on screen again: its swipe up performs the segue again.
    #expect(Self.swipe(client, scene, dy: -120, vy: -1000)["transition"]?.stringValue == "t3")
    let (_, status) = client.finish()
    #expect(status == .exited(0))
  }
}
