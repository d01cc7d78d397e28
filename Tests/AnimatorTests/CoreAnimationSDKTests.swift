// Core Animation's explicit animations through the SDK and the ABI 1.3 extension: the TestPluginCoreAnimation
// fixture (UIKit code) loaded with dlopen as a real plugin is. Expected values are closed forms written here (the
// Bézier of TestSupport's `Reference`, the critically damped spring's formula).

import PluginHost
import TestSupport
import Testing
import TransitionEngine

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct CoreAnimationSDKTests {
  static let pluginID = "com.example.test.coreanimation"

  final class Run {
    let log = LogCapture()
    let base: PluginTransitionRun

    init(_ id: String, interactive: Bool = false) throws {
      let scene = Scene(containerSize: Size(width: 400, height: 800))
      let from = try makeView(scene, "from", Rect(x: 0, y: 0, width: 400, height: 800))
      let to = try makeView(scene, "to", Rect(x: 0, y: 0, width: 400, height: 800))
      scene.container.addSubview(from)
      let registry = try TestSupport.registry(loadingFixtures: ["CoreAnimation"], log: log)
      base = try PluginTransitionRun(
        registry, "\(CoreAnimationSDKTests.pluginID)/\(id)", scene: scene, from: from, to: to, operation: .present,
        options: TransitionOptions(isInteractive: interactive))
      try base.start()
    }

    func notes() -> [String] {
      log.records.filter { $0.source.hasPrefix(CoreAnimationSDKTests.pluginID) }
        .filter { $0.message.hasPrefix("note: ") }.map { String($0.message.dropFirst(6)) }
    }
  }

  /// The scrubbed fixtures' end: the display link carries the offset on at 0.3 + 0.5·τ, so the animation reaches its
  /// end at τ = 1.4 (its completion on the display link's tick then, within a 60 Hz frame) and shows y = 400.
  private func expectCompletesOnceTheOffsetReachesItsEnd(
    _ run: Run, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    #expect(try run.base.run() == .completed, sourceLocation: sourceLocation)
    #expect(run.notes() == ["speed 0.0 offset 0.3", "completed true offset 1.0"], sourceLocation: sourceLocation)
    #expect(run.base.transition.time >= 1.4 - 1e-9, sourceLocation: sourceLocation)
    #expect(run.base.transition.time < 1.4 + 2.0 / 60, sourceLocation: sourceLocation)
    #expect(
      try run.base.state("to", at: run.base.transition.time)?.position.y == 400, sourceLocation: sourceLocation)
    #expect(run.base.misbehaviors.isEmpty, sourceLocation: sourceLocation)
  }

  private func near(_ a: Double?, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
    guard let a else { return false }
    return abs(a - b) <= tolerance
  }

  @Test func uikitCodeAnimatesWithCoreAnimation() throws {
    let run = try Run("slide")
    // ω₀ = 10, ζ = 1: the first 0.1 s step where (1 + 10t)e^(−10t) ≤ 0.001 is 1 s.
    #expect(run.notes() == ["settling 1.0", "keys [\"slide\", \"corners\", \"fade\"]", "found true"])
    for t in [0.1, 0.25, 0.6] {
      let to = try run.base.state("to", at: t)
      #expect(near(to?.position.y, 1200 - 800 * Reference.bezier(0.42, 0, 0.58, 1, at: t), 1e-6))
      #expect(near(to?.cornerRadius, t <= 0.25 ? 80 * t : 20 * (1 - (t - 0.25) / 0.75)))
      #expect(near(to?.alpha, 1 - (1 + 10 * t) * exp(-10 * t)))
      #expect(near(try run.base.state("from", at: t)?.transform.m11, t < 0.5 ? 1 - 0.2 * t : 1))
    }
    #expect(try run.base.run() == .completed)
    #expect(run.notes().suffix(3) == ["did start", "did stop true", "transaction done"])
    #expect(run.base.misbehaviors.isEmpty)
  }

  /// The container's local time is its timeOffset whatever the timeline's time: 0.3 s into the slide. The UIView
  /// block (alpha 1 → 0.5) was made after the offset moved to 0.3, so it begins there (layer timing composes into
  /// blocks): still at its start. Once the animator resumes the layer (at the first frame at τ ≥ 1, QA1673-style)
  /// both run on, the slide's remaining 0.7 s and the block's whole second, which completes the transition.
  @Test func aFrozenContainerIsScrubbedByItsTimeOffset() throws {
    let run = try Run("frozen")
    #expect(run.notes() == ["speed 0.0 offset 0.3"])
    for t in [0, 0.5, 0.9] {
      let to = try run.base.state("to", at: t)
      #expect(near(to?.position.y, 1200 - 800 * 0.3))
      #expect(to?.alpha == 1)
    }
    #expect(try run.base.run() == .completed)
    #expect(run.notes() == ["speed 0.0 offset 0.3", "resumed from 0.3"])
    let time = run.base.transition.time
    #expect(time >= 2 - 1e-9 && time < 2 + 2.0 / 60)
    // The slide ended 0.7 s after the resume and left the layer.
    #expect(run.base.scene.view(withID: "to")?.animationKeys() == nil)
  }

  /// `view.layer.speed = 0; UIView.animate…; view.layer.timeOffset = 0.3`: the block (UIView's default easeInOut,
  /// 1 s, centre y 1200 → 400) stands at y = 1200 − 800·easeInOut(0.3) whatever the time; carried on by the display
  /// link at 0.3 + 0.5·t, it completes when the offset reaches 1 (τ = 1.4), finished.
  @Test func aUIViewBlockOnAPausedLayerIsScrubbedByTimeOffset() throws {
    let run = try Run("scrubbed-block")
    #expect(run.notes() == ["speed 0.0 offset 0.3"])
    let expected = 1200 - 800 * Reference.bezier(0.42, 0, 0.58, 1, at: 0.3)
    for t in [0, 0.5, 3] {
      #expect(near(try run.base.state("to", at: t)?.position.y, expected, 1e-9))
    }
    try expectCompletesOnceTheOffsetReachesItsEnd(run)
  }

  /// UIPercentDrivenInteractiveTransition's mechanism by hand: the container paused, its timeOffset following the
  /// transition's time. Scrubbed to 40 % (linear: y = 1200 − 800·0.4 = 880), then cancelled: the cancel runs the
  /// offset back to 0, the block's completion runs at the start (the paused block is ended with the transition) and
  /// everything, the container's layer timing included, is back as it was.
  @Test func aMirroredPausedContainerCancelsBackToTheStart() throws {
    let run = try Run("mirrored-block", interactive: true)
    try run.base.transition.update(percent: 0.4)
    _ = try run.base.driver.perform(.advance(seconds: 1.0 / 60))
    #expect(near(run.base.scene.container.layerTiming.timeOffset, 0.4))
    #expect(near(try run.base.state("to", at: run.base.transition.time)?.position.y, 880))
    try run.base.transition.cancel(curve: .linear)
    #expect(try run.base.run() == .cancelled(reason: nil))
    #expect(run.notes() == ["completed true cancelled true"])
    #expect(run.base.scene.container.layerTiming == LayerTiming())
    #expect(run.base.containerSubviews == ["from"])
    #expect(run.base.scene.view(withID: "to")?.position == Point(x: 200, y: 400))
  }

  /// The same, finished from 40 %: the offset follows τ to 1, where the block is over and completes the transition.
  @Test func aMirroredPausedContainerFinishes() throws {
    let run = try Run("mirrored-block", interactive: true)
    try run.base.transition.update(percent: 0.4)
    try run.base.transition.finish(curve: .linear)
    #expect(try run.base.run() == .completed)
    #expect(run.notes() == ["completed true cancelled false"])
    #expect(run.base.containerSubviews == ["from", "to"])
    #expect(try run.base.state("to", at: run.base.transition.time)?.position.y == 400)
  }

  /// A UIViewPropertyAnimator's animation is a CAAnimation of its layer: on a paused layer with timeOffset 0.3 the
  /// 1 s linear run stands at y = 1200 − 800·0.3 = 960 whatever the time, though the animator's own clock runs on. The
  /// display link carries the offset on at 0.3 + 0.5·t; the animator completes, at .end, when it reaches 1 (τ = 1.4).
  @Test func aPropertyAnimatorOnAPausedLayerIsScrubbedByTimeOffset() throws {
    let run = try Run("scrubbed-animator")
    #expect(run.notes() == ["speed 0.0 offset 0.3"])
    for t in [0, 0.5, 3] {
      #expect(near(try run.base.state("to", at: t)?.position.y, 960))
    }
    try expectCompletesOnceTheOffsetReachesItsEnd(run)
  }

  /// The container at speed 0.5: the 1 s linear run takes 2 s of the transition (y = 1200 − 800·0.5·τ), and the
  /// animator's completion, which completes the transition, comes at τ = 2, when its layer's time reaches the end.
  @Test func aPropertyAnimatorOnASlowContainerTakesTwiceAsLong() throws {
    let run = try Run("slowed-animator")
    for t in [0.5, 1, 1.5] {
      #expect(near(try run.base.state("to", at: t)?.position.y, 1200 - 800 * 0.5 * t), "t = \(t)")
    }
    #expect(try run.base.run() == .completed)
    #expect(run.notes() == ["completed at end"])
    #expect(run.base.transition.time >= 2 - 1e-9)
    #expect(run.base.transition.time < 2 + 2.0 / 60)
  }

  /// Interactive, percent p puts the transition's clock at p × 1 s, where the container's time is 0.5·p: at 40 % the
  /// animator shows y = 1200 − 800·0.2 = 1040. Cancelled, the animator ends at its start with the transition and
  /// everything, the container's speed included, is back.
  @Test func aPropertyAnimatorOnASlowContainerScrubsAndCancels() throws {
    let run = try Run("slowed-animator", interactive: true)
    try run.base.transition.update(percent: 0.4)
    #expect(near(try run.base.state("to", at: run.base.transition.time)?.position.y, 1040))
    try run.base.transition.cancel(curve: .linear)
    #expect(try run.base.run() == .cancelled(reason: nil))
    #expect(run.notes() == ["completed at start"])
    #expect(run.base.scene.container.layerTiming == LayerTiming())
    #expect(run.base.containerSubviews == ["from"])
  }

  @Test func aKeyframeAnimationFollowsItsCGPath() throws {
    let run = try Run("follow-path")
    // Calculation mode linear without keyTimes: each of the path's two segments takes half the duration (Core
    // Animation spaces a path's points evenly in time unless the mode is paced).
    for t in [0.2, 0.4, 0.6, 0.9] {
      let expected = t <= 0.5 ? (600 * t, 0.0) : (300.0, 800 * (t - 0.5))
      let to = try run.base.state("to", at: t)
      #expect(near(to?.position.x, expected.0, 1e-6), "t = \(t)")
      #expect(near(to?.position.y, expected.1, 1e-6), "t = \(t)")
    }
    #expect(try run.base.run() == .completed)
    #expect(try run.base.state("to", at: 1.5)?.position == Point(x: 300, y: 400))
    #expect(run.base.misbehaviors.isEmpty)
  }

  /// The same path with keyTimes [0, 0.8, 1] and no values: the first segment (300 long) takes 0.8 s, the second
  /// (400 long) 0.2 s.
  @Test func aPathAnimationTakesItsKeyTimes() throws {
    let run = try Run("follow-path-key-times")
    for t in [0.2, 0.4, 0.7, 0.9] {
      let expected = t <= 0.8 ? (300 * t / 0.8, 0.0) : (300.0, 400 * (t - 0.8) / 0.2)
      let to = try run.base.state("to", at: t)
      #expect(near(to?.position.x, expected.0, 1e-6), "t = \(t)")
      #expect(near(to?.position.y, expected.1, 1e-6), "t = \(t)")
    }
    #expect(try run.base.run() == .completed)
    #expect(run.base.misbehaviors.isEmpty)
  }

  /// Paced: constant speed along the path's 700 points of length, so the corner (300 along) is reached at 3/7 s.
  @Test func aPacedPathAnimationMovesAtConstantSpeed() throws {
    let run = try Run("follow-path-paced")
    for t in [0.2, 0.4, 0.6, 0.9] {
      let along = 700 * t
      let expected = along <= 300 ? (along, 0.0) : (300.0, along - 300)
      let to = try run.base.state("to", at: t)
      // The engine measures length with 64 chords per segment: exact for lines.
      #expect(near(to?.position.x, expected.0, 1e-6), "t = \(t)")
      #expect(near(to?.position.y, expected.1, 1e-6), "t = \(t)")
    }
    #expect(try run.base.run() == .completed)
  }
}
