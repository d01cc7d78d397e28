// The seam between the protocol's bookkeeping (ids, clocks, waiters: TransitionSession) and the engine and plugin work
// of one transition. Everything the session asks of a transition goes through one `TransitionDriver`; everything a
// transition tells the session comes back as a `TransitionEvent` or in a call's completion. Only value types cross it
// (commands, statuses, outcomes, misbehaviour reports, frame text), never a `Transition`, a view or an engine animator,
// so a driver may run its transition in this process (`LocalTransitionDriver`, whose calls complete before they
// return) or in a plugin's worker process (whose calls complete when the worker answers).

import JSON
import JSONRPC
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
  /// Whether time alone can still move it on (the engine's `canMoveWithoutInput`): it moves, and an event is due or a
  /// display link can still run animator code. False for one whose only work left is parked on a paused layer: at
  /// end of input the session ends it "inputClosed" instead of waiting for a client that is gone.
  package var canMoveWithoutInput: Bool

  package init(
    state: TransitionState, time: Double, percent: Double, duration: Double, isInteractive: Bool,
    nextEventIn: Double? = nil, canMoveWithoutInput: Bool = true
  ) {
    self.state = state
    self.time = time
    self.percent = percent
    self.duration = duration
    self.isInteractive = isInteractive
    self.nextEventIn = nextEventIn
    self.canMoveWithoutInput = canMoveWithoutInput
  }

  /// The status of a transition that has not started.
  package static let idle = TransitionStatus(
    state: .idle, time: 0, percent: 0, duration: 0, isInteractive: false, canMoveWithoutInput: false)

  /// The protocol phase: "idle", "running", "paused", "finishing", "cancelling" or "ended".
  package var phase: String { state.name }

  /// The time a frame shows: the timeline time, or percent × duration while paused (CONVENTIONS, "Units").
  package var frameTime: Double { state == .paused ? percent * duration : time }

  /// The header of a frame showing the transition `id` in this status.
  package func stamp(_ id: String, seq: Int?) -> FrameStamp {
    FrameStamp(transition: id, seq: seq, time: frameTime, percent: percent, phase: phase)
  }

  /// The header of a `transition/sample` of transition `id` at `moment`, in this status (no `seq`).
  package func sampleStamp(_ id: String, at moment: SampleMoment) -> FrameStamp {
    let time: Double
    let percent: Double
    switch moment {
    case .time(let requested):
      time = max(requested, 0)
      percent = duration > 0 ? min(time / duration, 1) : (time > 0 ? 1 : 0)
    case .percent(let requested):
      percent = min(max(requested, 0), 1)
      time = percent * duration
    }
    return FrameStamp(transition: id, seq: nil, time: time, percent: percent, phase: phase)
  }
}

/// Which moment `transition/sample` shows.
package enum SampleMoment: Sendable, Equatable {
  /// Timeline seconds (negative ones are 0).
  case time(Double)
  /// A completion fraction, clamped to [0, 1].
  case percent(Double)
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
  /// `transition/gesture`: a pan sample for the transition's interaction controller.
  case gesture(GestureSample)
}

/// What a command returns besides the new status.
package enum TransitionCommandResult: Equatable, Sendable {
  case done
  /// `release`: which way the rule decided.
  case released(ReleaseDecision)
  /// `gesture`: what became of the sample.
  case gesture(GestureDelivery)
}

/// What a transition reports on its own.
package enum TransitionEvent: Sendable {
  /// It ended (exactly once); the session reports it once the call that ended it has completed.
  case ended(TransitionOutcome)
  /// Its animator broke a rule (reported, not fatal).
  case misbehaved(Misbehavior)
  /// Its animator misused the view model (a sentence).
  case misusedViewModel(String)
  /// With `notifiesTimeline`: the call added or removed an animation; the timeline as `transition/timeline` answers
  /// it now (`TimelineJSON`), as compact JSON text.
  case timelineChanged([UInt8])
  /// Its plugin's worker process died or hung, outside any call or during one: the transition is over (cancelled,
  /// everything back at its start). `lastFrame` is the whole `transition/frame` message showing the restored start
  /// state, when the transition streams frames. Delivered before the calls in flight complete with the same fault.
  case lost(PluginFault, lastFrame: [UInt8]?)
  /// The host stopped waiting for its plugin's worker as it exits (SIGTERM, `exit`) and killed it: the transition ended
  /// cancelled with `reason`, showing `lastFrame` (its restored start state).
  case abandoned(reason: String, lastFrame: [UInt8]?)
}

/// The header of one frame: which transition, which position in its stream, which moment.
package struct FrameStamp: Sendable, Equatable {
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

/// Why a call into a transition failed.
package enum DriverError: Error, Sendable {
  /// The engine refused the call (it changed nothing).
  case engine(TransitionError)
  /// The plugin's worker died or hung during the call (or before it got to it).
  case fault(PluginFault)
  /// The animator could not be made in the worker (its `create` returned NULL): 2008.
  case refused(ResponseError)
  /// The host is exiting and stopped waiting for the plugin's answer: −32800, as for every request still waiting.
  case abandoned

  /// The error reply for a call on transition `id`, now in `phase`.
  package func responseError(transition id: String, phase: String) -> ResponseError {
    switch self {
    case .engine(let error): .engine(error, transition: id, phase: phase)
    case .fault(let fault): fault.responseError
    case .refused(let error): error
    case .abandoned: ResponseError(code: .requestCancelled, message: "Request cancelled: the host is exiting.")
    }
  }
}

/// A frame's whole `transition/frame` message, compact, borrowed during the completion it is handed to.
package typealias FrameBytes = UnsafeRawBufferPointer

/// A call's completion: what it returned, and the frame the stream gets from it (see `TransitionDriver`).
package typealias DriverCompletion = (Result<TransitionCommandResult, DriverError>, FrameBytes?) -> Void

/// One transition's engine and animator.
///
/// Contract: `start` once, first; then any commands and samples; `terminate` at any time (a no-op once ended). Calls
/// complete in the order they were made (a driver may complete one before it returns, or later); when a call
/// completes, `status` describes its result and its events have been delivered to `onEvent`.
///
/// Frames: the driver numbers its stream (`seq`) and encodes each frame in its `frames` mode (lengths on its
/// `precision` grid, when it has one). A call's completion gets
/// a frame when the stream has one for it: after `start`, after a command asked to `stream` one, and after any call
/// that ended the transition (its last frame: the settled or restored state). Never when `frames` is `.none`.
///
/// A driver never replies to a client and never sends a notification: that is the session's job.
///
/// - Important: Used on the host thread only; completions run on it.
package protocol TransitionDriver: AnyObject {
  /// The animator that runs it (`qualifiedID`, `pluginID`, its metadata).
  var animator: AnimatorEntry { get }
  /// The operation's name (`present`, `push`, or a custom one).
  var operation: String { get }
  /// Where it stands, as of the last call that completed.
  var status: TransitionStatus { get }
  /// Receives the transition's events; set it before `start`.
  var onEvent: (TransitionEvent) -> Void { get set }
  /// Whether a call that adds or removes an animation reports `.timelineChanged` (`"timeline": "notify"`); set it
  /// before `start`.
  var notifiesTimeline: Bool { get set }

  /// Starts the transition, known as `id` in its frames: the animator's `animateTransition` runs.
  func start(as id: String, completion: @escaping DriverCompletion)
  /// Moves the transition as `command` says; with `stream`, the completion gets a frame of the result.
  func perform(_ command: TransitionCommand, stream: Bool, completion: @escaping DriverCompletion)
  /// Ends it now, cancelled with `reason` ("inputClosed", "terminated", "pluginUnloaded"); the completion gets its
  /// last frame (nil when it had ended already or streams none).
  func terminate(reason: String, completion: @escaping (FrameBytes?) -> Void)
  /// The transition as it would look at `moment`, as a full frame object (its compact JSON text, borrowed during the
  /// completion; lengths on the stream's `precision` grid): no time passes and no completion runs (CONVENTIONS,
  /// `transition/sample`), and the stream's delta baseline is left alone.
  func sample(at moment: SampleMoment, completion: @escaping (Result<FrameBytes, DriverError>) -> Void)
  /// The transition's timeline as `transition/timeline` answers it (`TimelineJSON`), at its current time: pure, like
  /// `sample`.
  func timeline(completion: @escaping (Result<JSON, DriverError>) -> Void)
  /// Runs `body` once every call made so far has completed (at once when none is outstanding).
  func afterPendingCalls(_ body: @escaping () -> Void)
  /// Builds, ahead of time, the stream's next frame as `perform(.advance(seconds: seconds), stream: true)` would make
  /// it, when that advance would run nothing (`Transition.quietAdvance(by:)`), and keeps it: that advance then
  /// completes with the kept frame, unless it turned out not to be quiet (its frame is built as usual then). Any
  /// other call drops it. Runs no plugin code and changes nothing the client can see (the delta baseline moves only
  /// when the kept frame is sent); a hint, which a driver may ignore. It never completes anything.
  func prepareFrame(advancingBy seconds: Double)
  /// The whole `transition/frame` message `prepareFrame(advancingBy: seconds)` built, when the driver can hand it out
  /// before the advance it shows has run: a worker's proxy holds it (the worker sent it ahead), so the tick's frame
  /// need not wait for a round trip to the worker. Taking it commits the stream to it: the next call must be
  /// `perform(.advance(seconds: seconds), stream: true)`, whose completion then gets no frame when the advance was
  /// quiet as predicted, or, when it was not after all, the next frame, showing what the advance did. nil: there is
  /// nothing to take, and the advance's completion brings the frame as usual (always, in process, where the advance
  /// itself costs nothing to wait for).
  func takeFrameAhead(advancingBy seconds: Double) -> [UInt8]?
  /// How many frames it sent as built by `prepareFrame` (a diagnostic for tests and benchmarks).
  var framesSentAhead: Int { get }
}

extension TransitionDriver {
  package func takeFrameAhead(advancingBy seconds: Double) -> [UInt8]? { nil }
}
