// UIKit target–action code built through the UIKit source bridge (Tests/Fixtures/UIKitSelectors): the fixture's
// files use `@objc` and `#selector` as an iOS app does and are compiled as they are on disk, rewritten by the
// bridge at build time; here the plugin is loaded with dlopen and the SDK dispatches its actions. Expected values are
// the fixture's own numbers worked through by hand.

import PluginHost
import TestSupport
import Testing
import TransitionEngine

@Suite struct UIKitSelectorTests {
  static let pluginID = "com.example.test.uikitselectors"
  static let folder = UIKitExampleTests.root + "/Tests/Fixtures/UIKitSelectors"

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
    let registry = try TestSupport.registry(loadingFixtures: ["UIKitSelectors"], log: log)
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
