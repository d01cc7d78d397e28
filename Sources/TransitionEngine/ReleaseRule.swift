/// What to do when the user lets go of an interactive transition.
package enum ReleaseDecision: String, Hashable, Sendable {
  case finish
  case cancel
}

/// The documented release rule (CONVENTIONS, "Release rule"): a flick decides by its direction, a slow release by
/// how far the transition got.
///
/// - velocity > 0.25/s → finish; velocity < −0.25/s → cancel;
/// - otherwise finish iff percent ≥ 0.5.
///
/// Velocity is d(percent)/dt, positive toward completion. Callers who want another rule call `finish` or `cancel`
/// themselves.
package enum ReleaseRule {
  /// The speed (in percent per second) above which the direction of the gesture alone decides.
  package static let flickVelocity = 0.25
  /// The progress at or beyond which a slow release finishes.
  package static let finishPercent = 0.5

  /// The decision for a release at `percent` with `velocity`. A non-finite velocity counts as no velocity.
  package static func decide(percent: Double, velocity: Double) -> ReleaseDecision {
    let velocity = velocity.isFinite ? velocity : 0
    if velocity > flickVelocity { return .finish }
    if velocity < -flickVelocity { return .cancel }
    return percent >= finishPercent ? .finish : .cancel
  }
}
