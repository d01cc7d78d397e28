import Testing

@testable import TransitionEngine

/// `clockTimeUntilNextEvent`: how long a real-time clock may wait before it must advance the transition for something
/// to happen on time (a completion, the end of the duration, the end of a tail). Expected values are the durations,
/// percents and speeds of each case, worked out by hand.
@Suite struct TransitionNextEventTests {
  /// A transition whose animator fades the to view in over `animation` seconds (linear) and completes from the
  /// block's completion; the transition's own duration is `duration` (`LongAnimator`).
  func transition(duration: Double, animation: Double, options: TransitionOptions = TransitionOptions()) throws
    -> Transition
  {
    let scene = Scene(containerSize: Size(width: 100, height: 100))
    let from = try scene.makeView(id: "from")
    let to = try scene.makeView(id: "to")
    scene.container.addSubview(from)
    return try Transition(
      scene: scene, from: from, to: to, operation: .present,
      animator: LongAnimator(duration: duration, animationLength: animation), options: options)
  }

  /// An interactive transition of 1 s held at `percent`, with linear finish and cancel tails.
  func held(at percent: Double, animation: Double = 1) throws -> Transition {
    let transition = try transition(
      duration: 1, animation: animation, options: TransitionOptions(isInteractive: true, completionCurve: .linear))
    try transition.start()
    _ = try transition.update(percent: percent)
    return transition
  }

  @Test func aRunningTransitionWaitsForItsFirstCompletionOrItsEnd() throws {
    // The animation ends at 0.6 s, before the 1 s duration: its completion (which completes) is the next event.
    let early = try transition(duration: 1, animation: 0.6)
    #expect(early.clockTimeUntilNextEvent == nil)  // not started
    try early.start()
    #expect(early.clockTimeUntilNextEvent == 0.6)
    try early.advance(by: 0.25)
    #expect(abs(early.clockTimeUntilNextEvent! - 0.35) < 1e-12)
    try early.advance(by: 0.35)
    #expect(early.state == .ended(.completed))
    #expect(early.clockTimeUntilNextEvent == nil)

    // The animation outlasts the duration: the end of the duration comes first (percent 1 there), then the
    // completion at 1.5 s.
    let late = try transition(duration: 1, animation: 1.5)
    try late.start()
    #expect(late.clockTimeUntilNextEvent == 1)
    try late.advance(by: 1)
    #expect(late.clockTimeUntilNextEvent == 0.5)
  }

  @Test func pausedTransitionsWaitForNothing() throws {
    #expect(try held(at: 0.4).clockTimeUntilNextEvent == nil)
  }

  @Test func tailsEndInTheirLengthAndCompletionsOnTheWayComeFirst() throws {
    // Finish from 0.5 at speed 2: (1 − 0.5) × 1 s / 2 = 0.25 s of clock.
    let finishing = try held(at: 0.5)
    try finishing.finish(velocity: 0, speed: 2, curve: .linear)
    #expect(abs(finishing.clockTimeUntilNextEvent! - 0.25) < 1e-12)

    // Cancel from 0.6 at speed 1: 0.6 s back to the start.
    let cancelling = try held(at: 0.6)
    try cancelling.cancel(velocity: 0, speed: 1, curve: .linear)
    #expect(abs(cancelling.clockTimeUntilNextEvent! - 0.6) < 1e-12)

    // A completion at τ = 0.8 inside a linear finish tail from τ = 0.5 to 1 over 0.5 s of clock: τ = 0.5 + e, so
    // it is due after e = 0.3 s, before the tail's end.
    let withEvent = try held(at: 0.5, animation: 0.8)
    try withEvent.finish(velocity: 0, speed: 1, curve: .linear)
    #expect(abs(withEvent.clockTimeUntilNextEvent! - 0.3) < 1e-9)
    try withEvent.advance(by: withEvent.clockTimeUntilNextEvent!)
    #expect(withEvent.state == .ended(.completed))
  }

  /// `canMoveWithoutInput`: a transition whose animator pauses the to view's layer (speed 0) and completes from a
  /// 0.5 s block on it. Its end of duration is due until 0.5 s; from there its only work is the block's completion,
  /// parked until the layer runs again, so time alone cannot move it, until a display link (which may resume the
  /// layer) runs.
  @Test func workParkedOnAPausedLayerLeavesNothingTimeCanMove() throws {
    let scene = Scene(containerSize: Size(width: 100, height: 100))
    let from = try scene.makeView(id: "from")
    let to = try scene.makeView(id: "to")
    scene.container.addSubview(from)
    let transition = try Transition(scene: scene, from: from, to: to, operation: .present, animator: ParkedAnimator())
    #expect(!transition.canMoveWithoutInput)  // not started
    try transition.start()
    #expect(transition.clockTimeUntilNextEvent == 0.5)
    #expect(transition.canMoveWithoutInput)
    try transition.advance(by: 0.5)
    try transition.advance(by: 1)
    #expect(transition.state == .running)
    #expect(transition.clockTimeUntilNextEvent == nil)
    #expect(!transition.canMoveWithoutInput)

    let link = transition.addDisplayLink(preferredFramesPerSecond: 0) { _, _ in to.layerTiming = LayerTiming() }
    link.isPaused = true
    #expect(!transition.canMoveWithoutInput, "a paused link runs no code")
    link.isPaused = false
    #expect(transition.canMoveWithoutInput)
    // Its first frame resumes the layer (speed 1): the block, 0.5 s of local time long, is over; its completion runs
    // on the next advance and completes the transition.
    try transition.advance(by: 0.1)
    #expect(transition.clockTimeUntilNextEvent != nil)
    try transition.advance(by: 0.1)
    #expect(transition.state == .ended(.completed))
    #expect(!transition.canMoveWithoutInput)
  }
}

/// Pauses the to view's layer, then fades the view to 0.5 over a 0.5 s block that completes the transition.
final class ParkedAnimator: TransitionAnimator {
  let animatorID = "test/parked"
  func transitionDuration(_ context: TransitionContext?) -> Double { 0.5 }
  func animateTransition(_ context: TransitionContext) {
    guard let to = context.view(forKey: .to) else { return }
    context.containerView.addSubview(to)
    to.layerTiming = LayerTiming(speed: 0)
    context.scene.animate(duration: 0.5, delay: 0, timing: .curve(.linear), animations: { to.alpha = 0.5 }) { _ in
      context.completeTransition(!context.transitionWasCancelled)
    }
  }
}
