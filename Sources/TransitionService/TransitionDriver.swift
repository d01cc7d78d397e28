// The seam between the protocol's bookkeeping (ids, clocks, waiters, the frame stream: TransitionSession) and the
// engine and plugin work of one transition. Everything the session asks of a transition goes through one
// `TransitionDriver`; everything a transition tells the session comes back as a `TransitionEvent`. Only value types
// cross it (commands, statuses, outcomes, misbehaviour reports, frame text), never a `Transition`, a view or an
// engine animator, so a driver may run its transition in this process (`LocalTransitionDriver`) or in another one.

import JSON
import TransitionEngine

/// Where a transition stands: what the session reads after every call (and after every event).
package struct TransitionStatus: Equatable, Sendable {
  /// The engine's state; `.ended` once the transition ended.
  package var state: TransitionState
  /// The timeline time in seconds.
  package var time: Double
  /// The completion fraction in [0, 1].
  package var percent: Double
  /// The duration the animator gave (seconds).
  package var duration: Double
  /// Whether the client drives it now (`transition/update`); false once it finishes or cancels.
  package var isInteractive: Bool
  /// Clock seconds (from this status) until the timeline must next be advanced for something to happen on time:
  /// a completion, the end of the duration, the end of a tail (the engine's `clockTimeUntilNextEvent`). A real-time
  /// clock advances the transition then even when no frame is due, so a low frame rate never delays an end. nil
  /// when nothing is scheduled.
  package var nextEventIn: Double?

  package init(
    state: TransitionState, time: Double, percent: Double, duration: Double, isInteractive: Bool,
    nextEventIn: Double? = nil
  ) {
    self.state = state
    self.time = time
    self.percent = percent
    self.duration = duration
    self.isInteractive = isInteractive
    self.nextEventIn = nextEventIn
  }
}

/// A call that moves a transition (the protocol's transition methods and its clocks).
package enum TransitionCommand: Equatable, Sendable {
  /// `transition/update`: the interactive percent (clamped to [0, 1]).
  case update(percent: Double)
  /// `transition/pause`.
  case pause
  /// `transition/finish`: complete from where it is, with a velocity (d(percent)/dt) and an optional speed and
  /// curve for the tail.
  case finish(velocity: Double = 0, speed: Double? = nil, curve: TimingCurve? = nil)
  /// `transition/cancel`: return to the start, likewise.
  case cancel(velocity: Double = 0, speed: Double? = nil, curve: TimingCurve? = nil)
  /// `transition/release`: the release rule picks finish or cancel.
  case release(velocity: Double)
  /// `transition/reverse`: a finishing transition cancels, a cancelling one finishes.
  case reverse
  /// Time passes: `transition/tick` or a real-time frame.
  case advance(seconds: Double)
}

/// What a command returns besides the new status.
package enum TransitionCommandResult: Equatable, Sendable {
  case done
  /// `release`: which way the rule decided.
  case released(ReleaseDecision)
}

/// What a transition reports on its own, during any call into it.
package enum TransitionEvent: Sendable {
  /// It ended (exactly once); the session reports it once the call that ended it has returned.
  case ended(TransitionOutcome)
  /// Its animator broke a rule (reported, not fatal).
  case misbehaved(Misbehavior)
  /// Its animator misused the view model (a sentence).
  case misusedViewModel(String)
}

/// The header of one frame: which transition, which position in its stream, which moment.
package struct FrameStamp: Sendable {
  package var transition: String
  /// The position in the transition's stream (0 for the first frame); nil for a sample, which is not part of it.
  package var seq: Int?
  package var time: Double
  package var percent: Double
  package var phase: String

  package init(transition: String, seq: Int?, time: Double, percent: Double, phase: String) {
    self.transition = transition
    self.seq = seq
    self.time = time
    self.percent = percent
    self.phase = phase
  }
}

/// One transition's engine and animator.
///
/// Contract: `start()` once, first; then any commands, frames and samples; `terminate` at any time (a no-op once
/// ended). Each call returns after the transition has done what it was asked, `status` then describes the result,
/// and the events the call caused have been delivered to `onEvent` before it returns. A driver never replies to a
/// client and never sends a notification: that is the session's job.
///
/// - Important: Used on the host thread only.
package protocol TransitionDriver: AnyObject {
  /// The animator that runs it (`qualifiedID`, `pluginID`, its metadata).
  var animator: AnimatorEntry { get }
  /// The operation's name (`present`, `push`, or a custom one).
  var operation: String { get }
  /// Where it stands now.
  var status: TransitionStatus { get }
  /// Receives the transition's events; set it before `start()`.
  var onEvent: (TransitionEvent) -> Void { get set }

  /// Starts the transition: the animator's `animateTransition` runs.
  func start() throws(TransitionError)
  /// Moves the transition as `command` says.
  func perform(_ command: TransitionCommand) throws(TransitionError) -> TransitionCommandResult
  /// Ends it now, cancelled with `reason` ("inputClosed", "terminated", "pluginUnloaded").
  func terminate(reason: String)

  /// Appends the transition as it is now, as a whole `transition/frame` notification message (compact JSON, no
  /// newline; full, or delta against the previous streamed frame), to `message`, with its lengths on `precision`'s
  /// grid when one is given. `message` is the output buffer itself where there is one: a local driver writes the frame
  /// straight into it; one in another process appends the bytes its worker wrote.
  func streamFrame(_ stamp: FrameStamp, mode: FrameMode, precision: FramePrecision?, into message: inout [UInt8])
  /// Appends the transition as it would look at `time` (timeline seconds), as a full frame object (compact JSON), to
  /// `text`, with its lengths on `precision`'s grid when one is given: no time passes and no completion runs
  /// (CONVENTIONS, `transition/sample`), and the stream's delta baseline is left alone.
  func sampleFrame(_ stamp: FrameStamp, at time: Double, precision: FramePrecision?, into text: inout [UInt8])
}
