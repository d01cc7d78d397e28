// UIViewPropertyAnimator through the SDK and the ABI 1.2 extension: the TestPluginPropertyAnimators fixture (UIKit
// code) loaded with dlopen as a real plugin is. Expected positions are closed forms written here: the Bézier by
// bisection and the springs of TestSupport's `Reference` (never the engine's curve or spring code).

import PluginHost
import TestSupport
import Testing
import TransitionEngine

@Suite struct PropertyAnimatorSDKTests {
  static let pluginID = "com.example.test.propertyanimators"

  final class Run {
    let log = LogCapture()
    let base: PluginTransitionRun

    init(_ id: String, interactive: Bool = false) throws {
      let scene = Scene(containerSize: Size(width: 400, height: 800))
      let from = try makeView(scene, "from", Rect(x: 0, y: 0, width: 400, height: 800))
      let to = try makeView(scene, "to", Rect(x: 0, y: 0, width: 400, height: 800))
      scene.container.addSubview(from)
      let registry = try TestSupport.registry(loadingFixtures: ["PropertyAnimators"], log: log)
      base = try PluginTransitionRun(
        registry, id, scene: scene, from: from, to: to, operation: .present,
        options: TransitionOptions(isInteractive: interactive))
      try base.start()
    }

    var transition: Transition { base.transition }

    /// The to view's presented center x now.
    var x: Double { (try? base.state("to", at: transition.time))?.position.x ?? .nan }
    func x(at t: Double) -> Double { (try? base.state("to", at: t))?.position.x ?? .nan }
    func alpha(at t: Double) -> Double { (try? base.state("to", at: t))?.alpha ?? .nan }

    func advance(_ dt: Double) throws { _ = try base.driver.perform(.advance(seconds: dt)) }

    func notes() -> [String] {
      let sources = [PropertyAnimatorSDKTests.pluginID, "\(PropertyAnimatorSDKTests.pluginID)/"]
      return log.records.filter { record in sources.contains { record.source.hasPrefix($0) } }
        .filter { $0.message.hasPrefix("note: ") }.map { String($0.message.dropFirst(6)) }
    }

    /// The number after `label` in the first note that starts with `prefix`.
    func number(in prefix: String, after label: String) -> Double? {
      guard let line = notes().first(where: { $0.hasPrefix(prefix) }) else { return nil }
      let words = line.split(separator: " ")
      guard let index = words.firstIndex(where: { $0 == label }), index + 1 < words.count else { return nil }
      return Double(words[index + 1])
    }
  }

  private func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

  // MARK: The interruptible animator of an interactive transition

  @Test func anInteractiveTransitionScrubsTheInterruptibleAnimatorInsteadOfAnimating() throws {
    let run = try Run("interruptible", interactive: true)
    #expect(run.notes() == ["interruptibleAnimator made"])
    try run.transition.update(percent: 0.3)
    // Scrubbed linearly (scrubsLinearly), whatever its easeInOut.
    #expect(close(run.x, 480))
    try run.transition.update(percent: 0.05)
    #expect(close(run.x, 580))
    #expect(run.base.misbehaviors.isEmpty)
  }

  @Test func finishWithVelocityContinuesOnACriticallyDampedSpring() throws {
    let run = try Run("interruptible", interactive: true)
    try run.transition.update(percent: 0.3)
    try run.transition.finish(velocity: 1.4)
    // (1 − p)·D = 0.7 s; v / (1 − p) = 2 of the remaining distance per second.
    let spring = UIKitSpring(dampingRatio: 1, duration: 0.7, initialVelocity: 2)
    var elapsed = 0.0
    for dt in [0.05, 0.15, 0.2, 0.2] {
      try run.advance(dt)
      elapsed += dt
      #expect(close(run.x, 480 - 280 * spring.progress(elapsed), 1e-7))
    }
    try run.advance(0.2)
    #expect(run.base.outcome == .completed)
    #expect(run.notes().last == "completion end")
  }

  @Test func cancelReversesTheAnimatorAndTheTransitionEndsCancelled() throws {
    let run = try Run("interruptible", interactive: true)
    try run.transition.update(percent: 0.4)
    try run.transition.cancel()
    try run.advance(0.1)
    // Back over p·D = 0.4 s on the completion curve (easeInOut).
    #expect(close(run.x, 440 + 160 * Reference.easeInOut(0.25)))
    try run.advance(0.3)
    #expect(run.base.outcome == .cancelled(reason: nil))
    #expect(run.notes().last == "completion start")
    #expect(run.base.containerSubviews == ["from"])
  }

  @Test func releasePastHalfwayFinishesOnTheCompletionCurve() throws {
    let run = try Run("interruptible", interactive: true)
    try run.transition.update(percent: 0.6)
    #expect(try run.transition.release(velocity: 0) == .finish)
    try run.advance(0.1)
    #expect(close(run.x, 360 - 160 * Reference.easeInOut(0.25)))
    try run.advance(0.3)
    #expect(run.base.outcome == .completed)
  }

  @Test func aNonInteractiveStartAnimatesThenAsksForTheSameAnimator() throws {
    let run = try Run("interruptible")
    #expect(run.notes() == ["animateTransition", "interruptibleAnimator made"])
    for t in [0.2, 0.5, 0.9] { #expect(close(run.x(at: t), 600 - 400 * Reference.easeInOut(t))) }
    // Grabbed while running: paused and scrubbed; finished from there.
    try run.advance(0.5)
    try run.transition.update(percent: 0.25)
    #expect(close(run.x, 500))
    try run.transition.finish(speed: 2, curve: .linear)
    try run.advance(0.1875)
    #expect(close(run.x, 350))
    try run.advance(0.2)
    #expect(run.base.outcome == .completed)
  }

  // MARK: The UIViewPropertyAnimator API

  @Test func scrubbedThenContinuedWithASpringOverTwiceTheRemainingTime() throws {
    let run = try Run("scrub-continue")
    #expect(run.notes().prefix(2) == ["state 0 running false", "state 1 running false fraction 0.25"])
    // Paused at 0.25: linear scrub, and the delayed fade (window from 0.5) has not begun.
    #expect(close(run.x(at: 0.3), 500) && close(run.alpha(at: 0.3), 1))
    _ = try run.base.run(step: 0.5, limit: 0.5)
    #expect(run.notes().last == "continued running true")
    // From 0.5 s: 75 % left, over 2 × 0.75 s on the spring (ζ 0.5, 0.8 of the remaining distance per second). The
    // fade waits a third of it, (0.5 − 0.25) / 0.75, then runs the time-scaled spring over the rest.
    let spring = UIKitSpring(dampingRatio: 0.5, duration: 1.5, initialVelocity: 0.8)
    for t in [0.6, 0.9, 1.3, 1.7] {
      #expect(close(run.x(at: t), 500 - 300 * spring.progress(t - 0.5), 1e-7))
      let fade = t <= 1 ? 0 : spring.progress((t - 1) * 1.5)
      #expect(close(run.alpha(at: t), 1 - 0.5 * fade, 1e-7))
    }
    #expect(try run.base.run(step: 0.25) == .completed)
    #expect(run.notes().last == "completion 0")
  }

  @Test func runningAnimatorStoppedThenFinishedAtTheStart() throws {
    let run = try Run("stop-finish")
    // runningPropertyAnimator: linear after a 0.1 s delay.
    #expect(close(run.x(at: 0.05), 600) && close(run.x(at: 0.35), 500))
    #expect(try run.base.run(step: 0.1) == .completed)
    let notes = run.notes()
    #expect(!notes.contains("never"))
    #expect(notes.first?.hasPrefix("unfinished state 0 alpha") == true)
    #expect(close(try #require(run.number(in: "unfinished", after: "alpha")), 0.6, 1e-9))
    #expect(close(try #require(run.number(in: "stopped state 2", after: "center")), 480, 1e-9))
    #expect(close(try #require(run.number(in: "completion 1", after: "center")), 600))
    #expect(close(run.x(at: run.transition.time), 600))
  }

  @Test func pausesOnCompletionHoldsTheEndThenReversesToTheStart() throws {
    let run = try Run("reverse-pauses")
    try run.advance(0.55)
    #expect(close(run.x, 200) && run.notes().isEmpty)
    try run.advance(0.3)
    #expect(run.notes() == ["at 0.6 state 1 running false fraction 1.0"])
    // Reversed at 0.6 s: back over fraction × duration = 0.5 s, linear.
    #expect(close(run.x, 400))
    try run.advance(0.25)
    #expect(run.base.outcome == .completed)
    #expect(run.notes().last == "completion 1")
    #expect(close(run.x, 600))
  }

  @Test func aMassStiffnessSpringLastsItsSettlingDuration() throws {
    let run = try Run("physical")
    let reference = ClosedFormSpring(mass: 1, stiffness: 200, damping: 12)
    #expect(close(try #require(run.number(in: "duration", after: "duration")), reference.settlingDuration, 1e-9))
    for t in [0.05, 0.2, 0.5] { #expect(close(run.x(at: t), 600 - 400 * (1 - reference.displacement(t)), 1e-7)) }
    #expect(try run.base.run(step: 0.1) == .completed)
  }

  @Test func everyTimingFormRunsItsClosedForm() throws {
    let damping = try Run("damping")
    let uikit = UIKitSpring(dampingRatio: 0.6, duration: 1)
    #expect(damping.notes() == ["type 2 duration 1.0"])
    for t in [0.1, 0.3, 0.7] { #expect(close(damping.x(at: t), 600 - 400 * uikit.progress(t), 1e-7)) }
    let standard = try Run("default-curve")
    #expect(standard.notes() == ["type 1 duration 1.0"])
    for t in [0.1, 0.5, 0.9] {
      #expect(close(standard.x(at: t), 600 - 400 * Reference.bezier(0.25, 0.1, 0.25, 1, at: t)))
    }
    let easeIn = try Run("ease-in")
    for t in [0.2, 0.6] { #expect(close(easeIn.x(at: t), 600 - 400 * Reference.easeIn(t))) }
    // duration + bounce: the animator's 3 s are ignored; the spring lasts its settling duration.
    let bounce = try Run("bounce")
    let reference = BounceSpring(duration: 0.5, bounce: 0.3)
    #expect(close(try #require(bounce.number(in: "type 2", after: "duration")), reference.duration, 1e-9))
    for t in [0.05, 0.25, 0.6] { #expect(close(bounce.x(at: t), 600 - 400 * reference.progress(t), 1e-7)) }
    for run in [damping, standard, easeIn, bounce] {
      #expect(try run.base.run(step: 0.25) == .completed)
      #expect(run.base.misbehaviors.isEmpty)
    }
  }

  @Test func scrubbingThroughTheCurveAndIsInterruptible() throws {
    let run = try Run("curved-scrub")
    // isInterruptible is settable while inactive only (the host refuses it on an active animator, as UIKit raises).
    #expect(run.notes() == ["interruptible false scrubsLinearly false", "interruptible true"])
    #expect(run.base.misbehaviors.map(\.kindName) == ["wrongPhase"])
    // Paused at 0.5 and not scrubbing linearly: the curve's value there.
    #expect(close(run.x, 600 - 400 * Reference.easeIn(0.5)))
    // Continued at 0.2 s with its own timing over the remaining 0.5 s, from where it was.
    try run.advance(0.2 + 0.25)
    let p0 = Reference.easeIn(0.5)
    #expect(close(run.x, 600 - 400 * (p0 + (1 - p0) * Reference.easeIn(0.5))))
    #expect(try run.base.run(step: 0.25) == .completed)
  }

  /// UIPercentDrivenInteractiveTransition.timingCurve: an interruptible animator continues on it.
  @Test func aPercentDrivenTimingCurveShapesTheContinuation() throws {
    let run = try Run("timing-curve")
    try run.advance(0.25)
    #expect(close(run.x, 400))
    // The remaining half over 0.5 s on the linear timingCurve (easeInOut, the completionCurve, would be at 374).
    try run.advance(0.125)
    #expect(close(run.x, 400 - 200 * 0.25))
    #expect(try run.base.run(step: 0.125) == .completed)
    #expect(run.base.misbehaviors.isEmpty)
  }

  /// A spring timingCurve (UISpringTimingParameters(dampingRatio: 0.4)): the finish continues the interruptible
  /// animator on that spring from where it was, over the remaining (1 − 0.5) · 1 s, as UIKit's
  /// continueAnimation(withTimingParameters:durationFactor:) does: x = 400 − 200 · (1 − x_s(t)) with the UIKit
  /// spring's closed form x_s (ζ = 0.4, lasting exactly 0.5 s; TestSupport's UIKitSpring), then exactly 200.
  @Test func aSpringTimingCurveContinuesOnThatSpring() throws {
    let run = try Run("timing-spring")
    try run.advance(0.25)
    #expect(abs(run.x - 400) <= 1e-7)
    let spring = UIKitSpring(dampingRatio: 0.4, duration: 0.5)
    var t = 0.0
    for dt in [0.05, 0.1, 0.1, 0.15, 0.05] {
      try run.advance(dt)
      t += dt
      let expected = 400 - 200 * spring.progress(t)
      #expect(abs(run.x - expected) <= 1e-7, "t = \(t): \(run.x) against \(expected)")
    }
    // Under-damped: the samples include its overshoot past the end (x < 200 near the first peak, π/ω_d ≈ 0.11 s).
    #expect(400 - 200 * spring.progress(0.15) < 200)
    #expect(try run.base.run(step: 0.125) == .completed)
    #expect(abs(run.x - 200) <= 1e-7)
    #expect(run.base.misbehaviors.isEmpty)
  }
}
