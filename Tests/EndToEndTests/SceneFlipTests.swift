// The Flip example's own view controllers in a scene through the real binary: FlipTransion's edge pans, written as
// its app wrote them (a right-edge pan on the first screen performs the "present" show segue, whose prepare(for:sender:)
// sets the destination's transitioning delegate; a left-edge pan on the second screen dismisses; progress =
// |translation.x| / width, past half finishes). Expected geometry from the seed's formulas (reference §12.4): the page —
// the first screen, anchored at its left edge — turns by θ = −π/2 · easeOut(p) presenting, −π/2 · (1 − easeIn(p))
// dismissing, under the container's m34 = −1/500; its corners are projected here by hand (no matrices from the
// host), in both isolation modes.

import Foundation
import JSON
import TestSupport
import Testing

@Suite struct SceneFlipTests {
  static let (width, height) = (375.0, 667.0)

  static func tree(_ id: String) -> JSON {
    ["id": JSON(id), "frame": ["x": 0, "y": 0, "width": JSON(width), "height": JSON(height)]]
  }

  static func sample(_ scene: String, _ state: String, x: Double, moved: Double) -> JSON {
    [
      "scene": JSON(scene), "state": JSON(state), "location": ["x": JSON(x + moved), "y": 300],
      "translation": ["x": JSON(moved), "y": 0], "velocity": ["x": 0, "y": 0],
    ]
  }

  /// Where the page's point (u, v) appears, turned by θ about its left edge: (u·cos θ, v, −u·sin θ) in the container
  /// (anchor (0, ½) at position (0, h/2), CATransform3DMakeRotation about y), then the container's perspective about
  /// its centre: w = 1 − z/500.
  static func pagePoint(u: Double, v: Double, theta: Double) -> (x: Double, y: Double) {
    let (x, y, z) = (u * cos(theta), v, -u * sin(theta))
    let w = 1 - z / 500
    return (width / 2 + (x - width / 2) / w, height / 2 + (y - height / 2) / w)
  }

  /// The same point through the frame's worldTransform: (u, v, 0, 1) times the matrix, divided by w.
  static func mapped(_ entry: JSON?, u: Double, v: Double) -> (x: Double, y: Double) {
    let m = (0..<16).map { entry?["worldTransform"]?[$0]?.doubleValue ?? .nan }
    let w = u * m[3] + v * m[7] + m[15]
    return ((u * m[0] + v * m[4] + m[12]) / w, (u * m[1] + v * m[5] + m[13]) / w)
  }

  static func expectPage(_ frame: JSON, theta: Double, _ comment: String) {
    for (u, v) in [(width, 0.0), (width, height), (width / 2, height / 3)] {
      let expected = pagePoint(u: u, v: v, theta: theta)
      let actual = mapped(frame.view("first"), u: u, v: v)
      #expect(abs(actual.x - expected.x) <= 1e-6 && abs(actual.y - expected.y) <= 1e-6, "\(comment) (\(u), \(v))")
    }
  }

  /// An edge pan from `x` to `x + moved`, held there (its frame checked with `theta(percent)`), then let go.
  static func edgePan(
    _ client: TransitionClient, _ scene: String, from x: Double, moved: Double, theta: (Double) -> Double
  ) throws -> Bool? {
    let began = client.result("scene/gesture", sample(scene, "began", x: x, moved: moved > 0 ? 2 : -2))
    let id = try #require(began["transition"]?.stringValue)
    client.result("scene/gesture", sample(scene, "changed", x: x, moved: moved))
    _ = client.takeNotifications()
    let held = try #require(TransitionClient.frames(client.received, of: id).last)
    let percent = abs(moved) / width
    #expect(abs((held["percent"]?.doubleValue ?? .nan) - percent) <= 1e-12)
    expectPage(held, theta: theta(percent), "at \(percent)")
    client.result("scene/gesture", sample(scene, "ended", x: x, moved: moved))
    client.result("transition/tick", ["transition": JSON(id), "dt": 2])
    return client.waitForDidEnd(id)?["completed"]?.boolValue
  }

  static func present(_ p: Double) -> Double { -Double.pi / 2 * Reference.easeOut(p) }
  static func dismiss(_ p: Double) -> Double { -Double.pi / 2 * (1 - Reference.easeIn(p)) }

  @Test(arguments: ["process", "none"])
  func edgePansTurnThePageBothWaysAndFallBackBeforeHalfWay(_ isolation: String) throws {
    let client = try TransitionClient(["--isolation", isolation])
    client.request("plugins/load", ["path": "libUIKitExampleFlip.so"])
    let scene = try #require(
      client.result(
        "scene/open",
        [
          "animator": "com.example.uikit.flip/flip", "clock": "manual",
          "container": ["width": JSON(Self.width), "height": JSON(Self.height)], "root": Self.tree("first"),
          "storyboard": ["SecondViewController": Self.tree("second")],
        ])["scene"]?.stringValue)
    // Only the right edge starts the presentation.
    let middle = client.error("scene/gesture", Self.sample(scene, "began", x: 200, moved: -2))
    #expect(middle["code"]?.intValue == 2011)
    // 30 % across: falls back (cancelled); the first screen is flat and alone again.
    #expect(try Self.edgePan(client, scene, from: 372, moved: -112.5, theta: Self.present) == false)
    var last = try #require(SceneTests.lastFrame(client, "t1"))
    #expect(last.view("second") == nil)
    Self.expectPage(last, theta: 0, "cancelled")
    // 60 %: the page turns over; the presentation controller takes the first screen away.
    #expect(try Self.edgePan(client, scene, from: 372, moved: -225, theta: Self.present) == true)
    last = try #require(SceneTests.lastFrame(client, "t2"))
    #expect(last.view("first") == nil && last.y("second") == 0)
    // The second screen's left edge turns the page back: 40 % falls back, 80 % completes the dismissal.
    #expect(try Self.edgePan(client, scene, from: 3, moved: 150, theta: Self.dismiss) == false)
    last = try #require(SceneTests.lastFrame(client, "t3"))
    #expect(last.view("first") == nil && last.y("second") == 0)
    #expect(try Self.edgePan(client, scene, from: 3, moved: 300, theta: Self.dismiss) == true)
    last = try #require(SceneTests.lastFrame(client, "t4"))
    #expect(last.view("second") == nil)
    Self.expectPage(last, theta: 0, "dismissed")
    let (_, status) = client.finish()
    #expect(status == .exited(0))
  }
}
