// The timing of one animation: a curve over its duration, or a spring.

/// How an animation's progress evolves: a timing curve stretched over the animation's duration, or a spring.
package enum AnimationTiming: Hashable, Sendable {
  /// A timing curve applied to elapsed / duration.
  case curve(TimingCurve)
  /// A spring; its own `duration` is the natural length of the animation.
  case spring(Spring)

  /// The length the timing itself asks for: the spring's `duration`, nil for a curve (the caller's duration
  /// applies).
  package var naturalDuration: Double? {
    switch self {
    case .curve: return nil
    case .spring(let spring): return spring.duration
    }
  }

  /// Progress after `elapsed` seconds of an animation lasting `duration` seconds: 0 before it starts, exactly
  /// 1 from `duration` on (and for a zero or negative duration once elapsed ≥ 0).
  ///
  /// A spring is time-scaled to fit: spring time = elapsed · spring.duration / duration, so passing the
  /// spring's own `duration` (the usual case) evaluates it in physical time, and a different duration (for
  /// example a transition's completion tail run at another speed) plays the same shape faster or slower.
  package func progress(elapsed: Double, duration: Double) -> Double {
    guard !elapsed.isNaN else { return 0 }
    guard duration > 0, duration.isFinite else { return elapsed >= 0 ? 1 : 0 }
    if elapsed <= 0 { return 0 }
    if elapsed >= duration { return 1 }
    switch self {
    case .curve(let curve):
      return curve.progress(at: elapsed / duration)
    case .spring(let spring):
      return spring.progress(at: elapsed * spring.duration / duration)
    }
  }

  /// d(progress)/d(elapsed) in 1/s at `elapsed` for an animation lasting `duration`; 0 outside (0, duration)
  /// except at the start of a spring, whose initial velocity counts.
  package func velocity(elapsed: Double, duration: Double) -> Double {
    guard duration > 0, duration.isFinite, elapsed.isFinite, elapsed >= 0, elapsed < duration else { return 0 }
    switch self {
    case .curve(let curve):
      return curve.slope(at: elapsed / duration) / duration
    case .spring(let spring):
      let scale = spring.duration / duration
      return spring.velocity(at: elapsed * scale) * scale
    }
  }
}
