// The percent-driven interaction (UIPercentDrivenInteractiveTransition) and what goes beyond it: grab again,
// reverse, velocity-seeded spring tails and the release rule — for every animator.

extension Transition {
  /// Scrubs: pauses the transition (grabbing it if it was running, finishing or cancelling) and sets τ = p·D, with p
  /// clamped to [0, 1]. Nothing fires while scrubbing; each animation's own curve still shapes its values.
  /// - Returns: the clamped percent.
  /// - Throws: `notStarted`, `ended`, or `invalidValue` for a non-finite percent.
  @discardableResult
  package func update(percent: Double) throws(TransitionError) -> Double {
    try requireActive()
    guard percent.isFinite else { throw .invalidValue(field: "percent", reason: "must be a finite number") }
    let clamped = min(max(percent, 0), 1)
    hold()
    if let driven = drivenAnimator {
      callout {
        try? driven.pauseAnimation()
        try? driven.setFractionComplete(clamped)
      }
    }
    if duration > 0 {
      moveTime(to: clamped * duration)
    } else {
      zeroDurationPercent = clamped
    }
    return clamped
  }

  /// Pauses at the current τ (grabbing a running, finishing or cancelling transition). Pausing a paused transition
  /// does nothing.
  /// - Throws: `notStarted`, `ended`.
  package func pause() throws(TransitionError) {
    try requireActive()
    hold()
    if let driven = drivenAnimator { callout { try? driven.pauseAnimation() } }
  }

  /// Runs the rest of the transition toward completion: from τ to D in (D − τ)/speed seconds, along `curve`, or —
  /// when `velocity` (d(percent)/dt, 1/s) is not 0 — along a critically damped UIKit spring of that length whose
  /// initial velocity is v/(1 − p) (the fraction of the remaining distance per second). `speed` and `curve`
  /// default to the options' completion speed and curve. The tail plays as `advance(by:)` is called (an empty tail,
  /// from 100 %, on the next call, even with dt = 0); `finish` itself runs no animator code.
  /// - Throws: `notStarted`, `ended`, `alreadyFinishing` (running or finishing), or `invalidValue` for a
  ///   non-finite velocity or a speed that is not finite and > 0.
  package func finish(velocity: Double = 0, speed: Double? = nil, curve: TimingCurve? = nil) throws(TransitionError) {
    try requireActive()
    switch state {
    case .running, .finishing: throw .alreadyFinishing
    default: break
    }
    let speed = try validated(velocity: velocity, speed: speed)
    startFinishTail(velocity: velocity, speed: speed, curve: curve ?? options.completionCurve, cause: .finish)
  }

  /// Runs the transition back to its start: from τ to 0 in τ/speed seconds, along `curve`, or — when `velocity` is
  /// not 0 — along a critically damped UIKit spring of that length whose initial velocity is −v/p. At 0 the pending
  /// completions fire and the start state is restored once the animator completes. Like `finish`, the tail plays as
  /// `advance(by:)` is called.
  /// - Throws: `notStarted`, `ended`, `alreadyCancelling`, or `invalidValue` as for `finish`.
  package func cancel(velocity: Double = 0, speed: Double? = nil, curve: TimingCurve? = nil) throws(TransitionError) {
    try requireActive()
    if state == .cancelling { throw .alreadyCancelling }
    let speed = try validated(velocity: velocity, speed: speed)
    startCancelTail(velocity: velocity, speed: speed, curve: curve ?? options.completionCurve, cause: .cancel)
  }

  /// Lets go of a held transition and applies the release rule (`ReleaseRule`): velocity > 0.25/s finishes,
  /// < −0.25/s cancels, otherwise it finishes iff percent ≥ 0.5. The velocity seeds the tail's spring.
  /// - Returns: what was decided.
  /// - Throws: `notStarted`, `ended`, `notInteractive` unless paused, `invalidValue` for a non-finite velocity.
  @discardableResult
  package func release(velocity: Double = 0) throws(TransitionError) -> ReleaseDecision {
    try requireActive()
    guard state == .paused else { throw .notInteractive }
    let speed = try validated(velocity: velocity, speed: nil)
    let decision = ReleaseRule.decide(percent: percent, velocity: velocity)
    switch decision {
    case .finish: startFinishTail(velocity: velocity, speed: speed, curve: options.completionCurve, cause: .release)
    case .cancel: startCancelTail(velocity: velocity, speed: speed, curve: options.completionCurve, cause: .release)
    }
    return decision
  }

  /// Turns a moving transition around: running or finishing → cancelling, cancelling → finishing. The new tail
  /// keeps the current tail's speed and curve (a spring tail, or a non-interactive run, continues with the
  /// completion curve; a run with the completion speed).
  /// - Returns: the new state.
  /// - Throws: `notStarted`, `ended`, `notRunning` when paused.
  @discardableResult
  package func reverse() throws(TransitionError) -> TransitionState {
    try requireActive()
    var speed = options.completionSpeed
    var curve = options.completionCurve
    switch motion {
    case .tail(let tail):
      speed = tail.speed
      if tail.spring == nil { curve = tail.curve }
    case .play(let playSpeed), .drain(let playSpeed):
      if state != .running { speed = playSpeed }
    case .still:
      throw .notRunning
    }
    switch state {
    case .running, .finishing: startCancelTail(velocity: 0, speed: speed, curve: curve, cause: .reverse)
    case .cancelling: startFinishTail(velocity: 0, speed: speed, curve: curve, cause: .reverse)
    default: throw .notRunning
    }
    return state
  }

  /// Stops time where it is and hands the transition to the user.
  private func hold() {
    motion = .still
    state = .paused
    isInteractive = true
  }

  /// The speed to use, after checking the velocity and the requested speed.
  private func validated(velocity: Double, speed: Double?) throws(TransitionError) -> Double {
    guard velocity.isFinite else { throw .invalidValue(field: "velocity", reason: "must be a finite number") }
    guard let speed else { return options.completionSpeed }
    guard speed.isFinite, speed > 0 else {
      throw .invalidValue(field: "completionSpeed", reason: "must be a finite number > 0")
    }
    return speed
  }

  private func startFinishTail(velocity: Double, speed: Double, curve: TimingCurve, cause: TimelineTail.Cause) {
    state = .finishing
    isInteractive = false
    transitionWasCancelled = false
    if let driven = drivenAnimator {
      continueDriven(driven, reversed: false, velocity: velocity, speed: speed, curve: curve, cause: cause)
      return
    }
    guard time < duration else {
      // Already at (or past) the end: only the animations that outlast the duration are left.
      motion = .play(speed: speed)
      return
    }
    let length = (duration - time) / speed
    let remainingFraction = 1 - percent
    var spring: Spring?
    if velocity != 0, remainingFraction > 0 {
      spring = Spring(dampingRatio: 1, initialVelocity: velocity / remainingFraction, duration: length)
    }
    let tail = Tail(
      from: time, to: duration, length: length, curve: curve, spring: spring, speed: speed, isForward: true)
    motion = .tail(tail)
    logTail(tail, cause: cause, velocity: velocity)
  }

  private func startCancelTail(velocity: Double, speed: Double, curve: TimingCurve, cause: TimelineTail.Cause) {
    state = .cancelling
    isInteractive = false
    transitionWasCancelled = true
    if let driven = drivenAnimator {
      continueDriven(driven, reversed: true, velocity: velocity, speed: speed, curve: curve, cause: cause)
      return
    }
    let length = time / speed
    let fraction = percent
    var spring: Spring?
    if velocity != 0, fraction > 0, length > 0 {
      spring = Spring(dampingRatio: 1, initialVelocity: -velocity / fraction, duration: length)
    }
    let tail = Tail(from: time, to: 0, length: length, curve: curve, spring: spring, speed: speed, isForward: false)
    motion = .tail(tail)
    logTail(tail, cause: cause, velocity: velocity)
  }

  /// Finish or cancel with an interruptible animator, as UIKit does: the animator is reversed (cancel) or not, then
  /// continued from where it is with the completion curve, or — when the velocity v is not 0 — a critically damped
  /// spring whose initial velocity is v / (1 − p) finishing and −v / p cancelling (UIKit's unit: the remaining
  /// distance per second), over 1/speed of the remaining duration. The transition's time runs forward while the
  /// animator runs; the animator's completion (`.end` or `.start`) is where the plugin completes the transition.
  private func continueDriven(
    _ driven: PropertyAnimator, reversed: Bool, velocity: Double, speed: Double, curve: TimingCurve,
    cause: TimelineTail.Cause
  ) {
    let p = min(max(driven.fractionComplete, 0), 1)
    let remaining = reversed ? p : 1 - p
    var timing = PropertyAnimatorTiming.curve(curve)
    if velocity != 0, remaining > 0 {
      timing = .dampingRatio(1, initialVelocity: (reversed ? -velocity : velocity) / remaining)
    }
    callout {
      try? driven.pauseAnimation()
      try? driven.setReversed(reversed)
      try? driven.continueAnimation(timing: timing, durationFactor: 1 / speed)
    }
    if let run = driven.timelineCurrentRun {
      logDrivenTail(
        reversed: reversed, cause: cause, velocity: velocity, length: run.end - run.start, timing: run.timing)
    }
    motion = .play(speed: 1)
  }
}
