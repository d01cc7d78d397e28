/// Why a call on a `Transition` was refused. A refused call changes nothing.
///
/// The protocol layer answers every case but `invalidValue` with error 2006 ("call not allowed in the transition's
/// state") and `invalidValue` with -32602 naming the field.
package enum TransitionError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The call needs a started transition (`start()` has not been called).
  case notStarted
  /// `start()` was called twice.
  case alreadyStarted
  /// The transition has ended; only sampling is still possible.
  case ended
  /// `finish` while the transition already runs toward completion (finishing, or a non-interactive run).
  case alreadyFinishing
  /// `cancel` while the transition already runs back toward its start.
  case alreadyCancelling
  /// `reverse` needs time to be moving; the transition is paused.
  case notRunning
  /// `release` needs a transition held by the user (paused or scrubbed); this one runs on its own.
  case notInteractive
  /// `deliverGesture` on a transition whose animator vended no interaction controller.
  case noInteractionController
  /// An argument is unusable (not finite, out of range); `field` names it.
  case invalidValue(field: String, reason: String)

  package var description: String {
    switch self {
    case .notStarted: "the transition has not started"
    case .alreadyStarted: "the transition has already started"
    case .ended: "the transition has ended"
    case .alreadyFinishing: "the transition is already running toward completion"
    case .alreadyCancelling: "the transition is already being cancelled"
    case .notRunning: "the transition is paused; there is no motion to reverse"
    case .notInteractive: "the transition is not being held; release applies to a paused (scrubbed) transition"
    case .noInteractionController:
      "the transition has no interaction controller to receive gestures (its animator's delegate vended none)"
    case .invalidValue(let field, let reason): "\(field) \(reason)"
    }
  }
}
