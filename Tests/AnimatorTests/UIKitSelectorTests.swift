// UIKit target–action code built through the UIKit source bridge (Tests/Fixtures/UIKitBridged): the fixture's
// files use `@objc` and `#selector` as an iOS app does and are compiled as they are on disk, rewritten by the
// bridge at build time; here the plugin is loaded with dlopen and the SDK dispatches its actions. Expected values are
// the fixture's own numbers worked through by hand.

import PluginHost
import TestSupport
import Testing
import TransitionEngine

@Suite struct UIKitSelectorTests {
  static let pluginID = "com.example.test.uikitbridged"
  static let folder = UIKitExampleTests.root + "/Tests/Fixtures/UIKitBridged"

  /// The fixture's files really are Objective-C-flavoured UIKit source: the bridge, not an edit, makes them build.
  @Test func theFixtureIsUnbridgedSource() {
    let source = UIKitExampleTests.text(Self.folder + "/ActionAnimator.swift")
    for construct in [
      "@objc protocol", "@objcMembers class", "@objc dynamic var", "@objc func place(_ view: UIView)",
      "@objc(tintWithColor:)", "#selector(place(_:))", "#selector(self.tint(with:))",
      "#selector(setter: ActionAnimator.offset)", "#selector(getter: offset)", "#selector(fader.fadeIn(_:))",
      "#selector(ActionAnimator.finish)", "#keyPath(CALayer.opacity)",
    ] {
      #expect(source.contains(construct), "\(construct)")
    }
  }

  /// Each action method ran when its selector was sent: the setter moved the frame 25 points right (x = 40 + 25),
  /// `place(_:)` set the frame and alpha 0 and told the delegate (corner radius 12), `tint(with:)` the red
  /// background; the fader's linear fade takes alpha from 0 to 1 over 1 s (0.5 at t = 0.5) and its completion sends
  /// `finish`, which completes the transition. The selector made from a bare name is reported, not sent.
  @Test func theSDKDispatchesEverySelectorForm() throws {
    let log = LogCapture()
    let scene = Scene(containerSize: Size(width: 400, height: 800))
    let from = try makeView(scene, "from", Rect(x: 0, y: 0, width: 400, height: 800))
    let to = try makeView(scene, "to", Rect(x: 0, y: 0, width: 400, height: 800))
    scene.container.addSubview(from)
    let registry = try TestSupport.registry(loadingFixtures: ["UIKitBridged"], log: log)
    let run = try PluginTransitionRun(registry, "actions", scene: scene, from: from, to: to, operation: .present)
    try run.start()

    let start = try #require(try run.state("to", at: 0))
    #expect(start.frame == Rect(x: 65, y: 80, width: 320, height: 640))
    #expect(start.alpha == 0)
    #expect(start.cornerRadius == 12)
    #expect(start.backgroundColor == Color(r: 1, g: 0, b: 0))
    #expect(start.zPosition == 3)
    expectClose(try #require(try run.state("to", at: 0.5)).alpha, 0.5, 1e-9, "linear fade")
    let unrecognized = log.records.filter { $0.message.contains("unrecognized selector") }.map(\.message)
    #expect(unrecognized.count == 1)
    #expect(
      unrecognized.first?.hasPrefix("perform(_:): unrecognized selector selectorWithoutAnAction sent to ") == true)
    #expect(try run.run() == .completed)
    #expect(run.misbehaviors.isEmpty)
  }
}

extension UIKitSelectorTests {
  /// CADisplayLink on the manual clock, ticks of 1/60 s: at 30 frames per second the link fires on the first frame
  /// (timestamps 0 → 1/60) and then on every second one (2/60 → 3/60); paused there, it is resumed by a completion
  /// at 0.1 s = 6/60, so it fires on that frame (5/60 → 6/60), then two frames later (7/60 → 8/60), where it
  /// completes the transition. `duration` is the frame's 1/60 each time. Each probe records timestamp, target
  /// timestamp and duration × 6000 (1/60 s = 100) and the preferred rate. A sample runs no display link.
  @Test func displayLinksFireOnTheTransitionsFrames() throws {
    let scene = Scene(containerSize: Size(width: 400, height: 800))
    let from = try makeView(scene, "from", Rect(x: 0, y: 0, width: 400, height: 800))
    let to = try makeView(scene, "to", Rect(x: 0, y: 0, width: 400, height: 800))
    scene.container.addSubview(from)
    let registry = try TestSupport.registry(loadingFixtures: ["UIKitBridged"])
    let run = try PluginTransitionRun(registry, "display-link", scene: scene, from: from, to: to, operation: .present)
    try run.start()
    _ = try run.transition.sample(time: 0.05)
    #expect(run.containerSubviews == ["from", "to"], "a sample fired a display link")
    #expect(try run.run(step: 1.0 / 60) == .completed)
    #expect(abs(run.transition.clockTime - 8.0 / 60) < 1e-9, "\(run.transition.clockTime)")
    let probes = run.containerSubviews.dropFirst(2).compactMap { run.scene.view(withID: $0)?.frame }
    let expected = [(0.0, 1.0), (2, 3), (5, 6), (7, 8)].map { Rect(x: $0 * 100, y: $1 * 100, width: 100, height: 30) }
    #expect(probes.count == expected.count, "\(probes)")
    for (probe, frame) in zip(probes, expected) { expectClose(probe, frame, 1e-6, "probe") }
    #expect(run.misbehaviors.isEmpty)
  }
}
