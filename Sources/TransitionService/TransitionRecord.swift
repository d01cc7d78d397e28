// One transition as the protocol sees it: the engine transition plus its id, clock, frame stream, waiters and the
// animator binding that keeps its plugin loaded.

import JSON
import JSONRPC
import TransitionEngine

/// What moves a transition's time (`transition/start`'s `clock`).
package enum ClockKind: String, CaseIterable, Sendable {
  /// Frames at `fps` from the host's monotonic timers while the transition moves.
  case realtime
  /// Nothing moves until `transition/tick` (or a sample is asked for).
  case manual
}

/// How a transition ended, as `transition/didEnd` and `transition/wait` report it.
struct EndSummary {
  var completed: Bool
  var cancelled: Bool
  /// Why it was cancelled by the host ("inputClosed", "terminated", "pluginUnloaded", "pluginCrashed",
  /// "pluginHung") or why it failed ("neverCompleted"); nil for a normal completion or an animator's own
  /// cancellation.
  var reason: String?
  /// Set when the transition did not end as its animator meant it to: 2008 (misbehaved), 2009 or 2010 (its plugin
  /// crashed or hung, with the crash report in `data`).
  var error: ResponseError?

  init(_ outcome: TransitionOutcome, fault: PluginFault? = nil) {
    if let fault {
      self.init(completed: false, cancelled: true, reason: fault.reason, error: fault.responseError)
      return
    }
    switch outcome {
    case .completed:
      self.init(completed: true, cancelled: false, reason: nil, error: nil)
    case .cancelled(let reason):
      self.init(completed: false, cancelled: true, reason: reason, error: nil)
    case .failed(let reason):
      let message =
        reason == "neverCompleted"
        ? "The animator let all its animations end without completing the transition."
        : "The animator misbehaved (\(reason))."
      self.init(
        completed: false, cancelled: false, reason: reason,
        error: ResponseError(code: .animatorMisbehaved, message: message))
    }
  }

  init(completed: Bool, cancelled: Bool, reason: String?, error: ResponseError?) {
    self.completed = completed
    self.cancelled = cancelled
    self.reason = reason
    self.error = error
  }

  /// `{"transition", "completed", "cancelled", "reason"?, "error"?: {"code", "message", "data"?}}`.
  func json(transition id: String) -> JSON {
    var object = JSONObjectBuilder()
    object.setNew("transition", JSON(id))
    object.setNew("completed", JSON(completed))
    object.setNew("cancelled", JSON(cancelled))
    if let reason { object.setNew("reason", JSON(reason)) }
    if let error { object.setNew("error", error.json) }
    return object.build()
  }
}

/// A live transition as the protocol keeps it: its id, clock, frame stream and waiters around the driver that runs
/// it.
final class TransitionRecord {
  /// The n of its id "tn".
  let number: Int
  /// "t1", "t2", …
  let id: String
  /// The engine and animator (in this process or elsewhere); releasing the record releases them.
  let driver: any TransitionDriver
  let clock: ClockKind
  let fps: Double
  let frames: FrameMode
  /// The grid its frames' lengths are rounded to; nil: exact.
  let precision: FramePrecision?

  /// Set once `transition/start` has been answered (the client knows the id).
  var started = false
  /// The real-time timer (the next frame or event, whichever is first), while one is scheduled, and its deadline.
  var timer: ProtocolTimerID?
  var wakeUpDeadline = 0.0
  /// The clock seconds the timer's event needs the transition to advance by, when the timer is for an event.
  var plannedAdvance: Double?
  /// Whether the real-time clock runs (the transition moves); `lastReading` is when time was last taken from it.
  var isClockRunning = false
  /// A real-time advance is on its way (its completion schedules the next wake-up).
  var advancing = false
  /// When the next real-time frame is due, and the clock reading time was last taken at.
  var nextDeadline = 0.0
  var lastReading = 0.0
  /// The next frame was handed to the driver to build ahead (`TransitionDriver.prepareFrame`): for an advance of
  /// `seconds` from the clock reading `reading`.
  var framePreparedFor: (reading: Double, seconds: Double)?
  /// A real-time frame was just written: the next one is to be built ahead once the timer is set.
  var prepareNextFrame = false
  /// The turn of the loop that builds the next frame ahead, while one is scheduled.
  var prepareTimer: ProtocolTimerID?
  /// The turn of the loop that ends it "inputClosed" after end of input (see `needsInput`), while one is scheduled.
  var inputClosedEnd: ProtocolTimerID?
  /// Set when the driver reports the end; the session reports it (final frame, didEnd) once the call completes.
  var outcome: TransitionOutcome?
  /// Set when the transition was lost with its plugin's worker.
  var fault: PluginFault?
  /// The last frame's message, from the call that ended it (nil without frames).
  var lastFrame: [UInt8]?
  /// `transition/wait` requests waiting for the end.
  var waiters: [Responder] = []
  /// What `transition/start` asked of the timeline.
  var timeline: TimelineMode = .off

  init(
    number: Int, driver: any TransitionDriver, clock: ClockKind, fps: Double, frames: FrameMode,
    precision: FramePrecision? = nil
  ) {
    self.number = number
    self.id = "t\(number)"
    self.driver = driver
    self.clock = clock
    self.fps = fps
    self.frames = frames
    self.precision = precision
  }

  /// The protocol phase: "running", "paused", "finishing", "cancelling" or "ended".
  var phase: String { outcome == nil ? driver.status.phase : "ended" }

  /// Whether time moves on its own (a real-time clock then needs frames).
  var isMoving: Bool {
    guard outcome == nil else { return false }
    switch driver.status.state {
    case .running, .finishing, .cancelling: return true
    default: return false
    }
  }

  /// Whether only the client could still move it, so that at end of input it ends "inputClosed" instead of keeping
  /// the host waiting: a manual clock, a transition that stands still (paused), or a real-time one that moves but that
  /// time alone cannot move on (`TransitionStatus.canMoveWithoutInput`: nothing due, no display link running, only
  /// work parked on a paused layer).
  var needsInput: Bool { clock == .manual || !isMoving || !driver.status.canMoveWithoutInput }

  /// The time a frame shows: the timeline time, or percent × duration while paused (CONVENTIONS, "Units").
  var frameTime: Double { driver.status.frameTime }

  /// `{"transition", "phase", "time", "percent"}`.
  var status: JSONObjectBuilder {
    var object = JSONObjectBuilder()
    object.setNew("transition", JSON(id))
    object.setNew("phase", JSON(phase))
    object.setNew("time", JSON.number(frameTime))
    object.setNew("percent", JSON.number(driver.status.percent))
    return object
  }
}
