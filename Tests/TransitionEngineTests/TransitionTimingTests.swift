import TestSupport
import Testing

@testable import TransitionEngine

/// UIPercentDrivenInteractiveTransition's timing: finish from p takes (1 − p)·D / speed, cancel from p takes
/// p·D / speed (reference §3, "Timing (derived)"). Each test steps to just before and just after the expected
/// moment, so an off-by-any-amount timing fails.
@Suite struct TransitionTimingTests {
  static let duration = 0.5
  static let epsilon = 1e-6

  private func interactivePresent(
    speed: Double = 1, curve: TimingCurve = .easeInOut, animator: SlideAnimator? = nil
  ) throws -> (TestTrees, Transition, Box<[TransitionOutcome]>, start: [String]) {
    let trees = TestTrees()
    trees.placeForStart(.presentation, removesPresentersView: false)
    let start = exactDump(trees)
    let transition = trees.transition(
      .present, animator: animator ?? SlideAnimator(duration: Self.duration), interactive: true,
      completionSpeed: speed, completionCurve: curve)
    let ends = Box<[TransitionOutcome]>([])
    transition.onEnd = { ends.value.append($0) }
    try transition.start()
    return (trees, transition, ends, start)
  }

  @Test func nonInteractiveRunTakesTheDuration() throws {
    let trees = TestTrees()
    let transition = trees.transition(.present, animator: SlideAnimator(duration: Self.duration))
    try transition.start()
    #expect(transition.state == .running)
    try transition.advance(by: Self.duration - Self.epsilon)
    #expect(transition.state == .running)
    try transition.advance(by: 2 * Self.epsilon)
    #expect(transition.state == .ended(.completed))
    #expect(transition.time == Self.duration)
    #expect(transition.percent == 1)
  }

  @Test func finishFromThirtyPercentTakesSeventyPercentOfTheDuration() throws {
    let (_, transition, ends, _) = try interactivePresent()
    #expect(try transition.update(percent: 0.3) == 0.3)
    #expect(abs(transition.time - 0.15) < 1e-15)
    try transition.finish()
    #expect(transition.state == .finishing)
    try transition.advance(by: 0.7 * Self.duration - Self.epsilon)
    #expect(transition.state == .finishing)
    #expect(transition.time < Self.duration)
    #expect(ends.value.isEmpty)
    try transition.advance(by: 2 * Self.epsilon)
    #expect(ends.value == [.completed])
  }

  @Test func finishAtSpeedTwoTakesHalfAsLong() throws {
    let (_, transition, ends, _) = try interactivePresent()
    try transition.update(percent: 0.3)
    try transition.finish(speed: 2)
    try transition.advance(by: 0.35 * Self.duration - Self.epsilon)
    #expect(ends.value.isEmpty)
    try transition.advance(by: 2 * Self.epsilon)
    #expect(ends.value == [.completed])
  }

  @Test func completionSpeedOptionIsTheDefaultSpeed() throws {
    let (_, transition, ends, _) = try interactivePresent(speed: 2)
    try transition.update(percent: 0.3)
    try transition.finish()
    try transition.advance(by: 0.35 * Self.duration - Self.epsilon)
    #expect(ends.value.isEmpty)
    try transition.advance(by: 2 * Self.epsilon)
    #expect(ends.value == [.completed])
  }

  @Test func cancelFromSixtyPercentTakesSixtyPercentOfTheDuration() throws {
    let (_, transition, ends, _) = try interactivePresent()
    try transition.update(percent: 0.6)
    try transition.cancel()
    #expect(transition.state == .cancelling)
    try transition.advance(by: 0.6 * Self.duration - Self.epsilon)
    #expect(transition.state == .cancelling)
    #expect(transition.time > 0)
    try transition.advance(by: 2 * Self.epsilon)
    #expect(ends.value == [.cancelled(reason: nil)])
    #expect(transition.time == 0)
    #expect(transition.percent == 0)
  }

  /// The tail follows the completion curve in time: τ = τ₀ + (D − τ₀)·curve(elapsed / tail).
  @Test(arguments: [0.1, 0.25, 0.5, 0.8])
  func finishTailFollowsEaseInOut(fraction: Double) throws {
    let (_, transition, _, _) = try interactivePresent()
    try transition.update(percent: 0.3)
    try transition.finish()
    try transition.advance(by: fraction * 0.35)
    #expect(abs(transition.time - (0.15 + 0.35 * Reference.easeInOut(fraction))) < 1e-9)
  }

  @Test func cancelTailFollowsTheRequestedCurve() throws {
    let (_, transition, _, _) = try interactivePresent()
    try transition.update(percent: 0.6)
    // easeOut (0, 0, 0.58, 1), independently solved.
    try transition.cancel(curve: .easeOut)
    try transition.advance(by: 0.3 * 0.3)
    #expect(abs(transition.time - (0.3 - 0.3 * Reference.bezier(0, 0, 0.58, 1, at: 0.3))) < 1e-9)
  }

  @Test func linearCompletionCurveMovesTimeUniformly() throws {
    let (_, transition, _, _) = try interactivePresent(curve: .linear)
    try transition.update(percent: 0.2)
    try transition.finish()
    try transition.advance(by: 0.1)
    #expect(abs(transition.time - 0.2) < 1e-12)
  }

  /// A finish with velocity runs a critically damped spring whose initial speed is the gesture's: d(percent)/dt
  /// starts at v, and the spring lands exactly when the tail ends, (1 − p)·D / speed later.
  @Test func springFinishMatchesTheGestureAndLandsAtTheEnd() throws {
    let (_, transition, ends, _) = try interactivePresent()
    try transition.update(percent: 0.3)
    try transition.finish(velocity: 2)
    let dt = 1e-4
    try transition.advance(by: dt)
    // p(t) ≈ 0.3 + v·t; the spring's acceleration (ω₀² ≈ 10³/s² here) adds at most ~1e-5 at this dt.
    #expect(abs(transition.percent - (0.3 + 2 * dt)) < 2e-5)
    try transition.advance(by: 0.35 - dt - Self.epsilon)
    #expect(transition.time < Self.duration)
    #expect(ends.value.isEmpty)
    try transition.advance(by: 2 * Self.epsilon)
    #expect(ends.value == [.completed])
    #expect(transition.time == Self.duration)
  }

  /// A velocity tail is the engine's own spring, not an animator's, and keeps landing exactly: a critically damped
  /// UIKit spring lasting the tail's length L, seeded with v/(1 − p) when finishing and −v/p when cancelling, whose
  /// residual r = x(L) is blended out over the last tenth of L with σ(u) = 3u² − 2u³, u = (t − 0.9L)/(0.1L):
  /// progress = 1 − [x(t) − r·σ(u)], clamped to [0, 1]; then τ = from + (to − from)·progress.
  @Test func velocityTailsFollowALandedCriticalSpring() throws {
    func landed(_ spring: UIKitSpring, _ t: Double) -> Double {
      let length = spring.duration
      let u = min(max((t - 0.9 * length) / (0.1 * length), 0), 1)
      let raw = 1 - (spring.displacement(t) - spring.displacement(length) * u * u * (3 - 2 * u))
      return min(max(raw, 0), 1)
    }
    // finish from 0.3 at 2/s: L = 0.7 · 0.5 = 0.35 s, v₀ = 2 / 0.7.
    let (_, finishing, _, _) = try interactivePresent()
    try finishing.update(percent: 0.3)
    try finishing.finish(velocity: 2)
    let up = UIKitSpring(dampingRatio: 1, duration: 0.35, initialVelocity: 2 / 0.7)
    var elapsed = 0.0
    for dt in [0.05, 0.1, 0.1, 0.03, 0.02, 0.01, 0.01, 0.0099] {
      try finishing.advance(by: dt)
      elapsed += dt
      #expect(abs(finishing.time - (0.15 + 0.35 * landed(up, elapsed))) < 1e-12, "finish at \(elapsed)")
    }
    // cancel from 0.6 at −1.5/s: L = 0.3 s, v₀ = 1.5 / 0.6.
    let (_, cancelling, _, _) = try interactivePresent()
    try cancelling.update(percent: 0.6)
    try cancelling.cancel(velocity: -1.5)
    let down = UIKitSpring(dampingRatio: 1, duration: 0.3, initialVelocity: 1.5 / 0.6)
    elapsed = 0
    for dt in [0.05, 0.1, 0.1, 0.02, 0.01, 0.01, 0.0099] {
      try cancelling.advance(by: dt)
      elapsed += dt
      #expect(abs(cancelling.time - 0.3 * (1 - landed(down, elapsed))) < 1e-12, "cancel at \(elapsed)")
    }
  }

  @Test func springCancelMatchesTheGestureAndLandsAtZero() throws {
    let (trees, transition, ends, start) = try interactivePresent()
    try transition.update(percent: 0.6)
    try transition.cancel(velocity: -1.5)
    let dt = 1e-4
    try transition.advance(by: dt)
    #expect(abs(transition.percent - (0.6 - 1.5 * dt)) < 2e-5)
    try transition.advance(by: 0.3 - dt - Self.epsilon)
    #expect(ends.value.isEmpty)
    try transition.advance(by: 2 * Self.epsilon)
    #expect(ends.value == [.cancelled(reason: nil)])
    #expect(exactDump(trees) == start)
  }

  /// With animations outlasting D, time keeps going at the tail's speed: a 0.75 s animation in a 0.5 s transition
  /// finished at speed 2 from 30 % ends after 0.175 s (the tail) + 0.25 / 2 s.
  @Test func timeContinuesBeyondTheDurationAtTheTailsSpeed() throws {
    let trees = TestTrees()
    let animator = LongAnimator(duration: 0.5, animationLength: 0.75)
    let transition = trees.transition(.present, animator: animator, interactive: true)
    var ends: [TransitionOutcome] = []
    transition.onEnd = { ends.append($0) }
    try transition.start()
    try transition.update(percent: 0.3)
    try transition.finish(speed: 2)
    try transition.advance(by: 0.175)
    #expect(transition.time == 0.5)
    #expect(transition.state == .finishing)
    #expect(transition.percent == 1)
    try transition.advance(by: 0.125 - Self.epsilon)
    #expect(ends.isEmpty)
    #expect(transition.percent == 1)
    try transition.advance(by: 2 * Self.epsilon)
    #expect(ends == [.completed])
    #expect(abs(transition.time - 0.75) < 1e-12)
  }

  @Test func zeroDurationTransitionCompletesOnTheFirstAdvance() throws {
    let trees = TestTrees()
    let transition = trees.transition(.present, animator: SlideAnimator(duration: 0))
    try transition.start()
    #expect(transition.state == .running)
    try transition.advance(by: 0)
    #expect(transition.state == .ended(.completed))
    #expect(transition.percent == 1)
  }

  @Test func zeroDurationInteractivePercentIsTheScrubbedValue() throws {
    let trees = TestTrees()
    let transition = trees.transition(.present, animator: SlideAnimator(duration: 0), interactive: true)
    try transition.start()
    try transition.update(percent: 0.7)
    #expect(transition.percent == 0.7)
    #expect(transition.time == 0)
    try transition.cancel()
    try transition.advance(by: 0)
    #expect(transition.state == .ended(.cancelled(reason: nil)))
    #expect(transition.percent == 0)
  }

  @Test(arguments: [
    // (percent, velocity) → decision, CONVENTIONS' release rule.
    (0.1, 0.26, ReleaseDecision.finish),
    (0.9, -0.26, .cancel),
    (0.5, 0, .finish),
    (0.4999, 0, .cancel),
    (0.49, 0.25, .cancel),  // 0.25 is not a flick
    (0.51, -0.25, .finish),
    (0.0, 5, .finish),
    (1.0, -5, .cancel),
    (0.7, .nan, .finish),
    (0.3, .infinity, .cancel),
  ])
  func releaseRule(percent: Double, velocity: Double, expected: ReleaseDecision) {
    #expect(ReleaseRule.decide(percent: percent, velocity: velocity) == expected)
  }

  @Test func releaseAppliesTheRuleAndSeedsTheSpring() throws {
    let (_, flick, _, _) = try interactivePresent()
    try flick.update(percent: 0.2)
    #expect(try flick.release(velocity: 1) == .finish)
    #expect(flick.state == .finishing)
    try flick.advance(by: 1e-4)
    #expect(abs(flick.percent - (0.2 + 1e-4)) < 2e-5)

    let (_, slow, _, _) = try interactivePresent()
    try slow.update(percent: 0.45)
    #expect(try slow.release(velocity: 0.1) == .cancel)
    #expect(slow.state == .cancelling)
    #expect(slow.transitionWasCancelled)
  }
}

/// A mutable box for values captured by escaping closures.
final class Box<Value> {
  var value: Value
  init(_ value: Value) { self.value = value }
}

/// Presents with one block that lasts longer than the transition's duration, completing from it.
final class LongAnimator: TransitionAnimator {
  let animatorID = "test/long"
  let duration: Double
  let animationLength: Double
  init(duration: Double, animationLength: Double) {
    self.duration = duration
    self.animationLength = animationLength
  }
  func transitionDuration(_ context: TransitionContext?) -> Double { duration }
  func animateTransition(_ context: TransitionContext) {
    guard let to = context.view(forKey: .to) else { return }
    to.alpha = 0
    context.containerView.addSubview(to)
    context.scene.animate(duration: animationLength, delay: 0, timing: .curve(.linear), animations: { to.alpha = 1 }) {
      _ in context.completeTransition(!context.transitionWasCancelled)
    }
  }
}
