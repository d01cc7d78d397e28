/// Something an animator (or its presentation controller) did that breaks the transition contract.
///
/// Misbehaviour is reported, never fatal: the engine ignores the offending call (or ends the transition cleanly
/// when it cannot go on) and tells the host through `Transition.onMisbehavior`, which logs it against the animator.
package struct Misbehavior: Equatable, Sendable, CustomStringConvertible {
  /// What went wrong.
  package enum Kind: Equatable, Sendable {
    /// `completeTransition` was called a second time; the call was ignored.
    case completedTwice
    /// All animations, drivers and completions ended without a call to `completeTransition`.
    case neverCompleted
    /// The context was used after the transition had ended; the call was ignored.
    case callAfterCompletion
    /// A value the animator returned or passed was unusable (non-finite, negative, …); `field` names it.
    case invalidValue(field: String)
    /// A view id that names no view of the transition.
    case unknownView
    /// A call that is only valid in another phase of the transition (for example adding a keyframe outside
    /// a keyframe block).
    case wrongPhase
  }

  /// What went wrong.
  package var kind: Kind
  /// The id of the animator that misbehaved (`pluginId/animatorId` for plugins).
  package var animatorID: String
  /// A sentence for humans.
  package var message: String

  package init(kind: Kind, animatorID: String, message: String) {
    self.kind = kind
    self.animatorID = animatorID
    self.message = message
  }

  /// A short stable name of the kind, for logs and protocol data (`"completedTwice"`, `"invalidValue"`, …).
  package var kindName: String {
    switch kind {
    case .completedTwice: "completedTwice"
    case .neverCompleted: "neverCompleted"
    case .callAfterCompletion: "callAfterCompletion"
    case .invalidValue: "invalidValue"
    case .unknownView: "unknownView"
    case .wrongPhase: "wrongPhase"
    }
  }

  package var description: String { "\(animatorID): \(kindName): \(message)" }
}
