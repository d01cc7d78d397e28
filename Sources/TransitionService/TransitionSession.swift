// The transition protocol's state: live transitions by id, their clocks and frame streams, and how each one ends
// (exactly one didEnd, whatever happens). Every transition is made by the one TransitionFactory and driven through
// its TransitionDriver. The typed operations are in TransitionSession+Transitions.swift; their JSON-RPC methods in
// TransitionSession+Methods.swift and TransitionSession+Plugins.swift.

import JSON
import JSONRPC
import PluginHost
import TransitionEngine

/// The plugins, animators and transitions of one client connection (Protocol.md, "Transitions"): ids `t1`, `t2` …
/// are this session's.
///
/// Transitions are independent: each has its own scene, clock, frame stream and animator instance. A real-time
/// transition gets one timer at its `fps` while it moves; a manual one moves only on `transition/tick`.
///
/// Ending: the driver reports the end (`TransitionEvent.ended`); once the call that ended it has returned, the
/// session sends a last frame (the settled or restored state; unless `frames` is "none") and `transition/didEnd`,
/// answers `transition/wait`, forgets the transition and so releases its animator. Later calls naming it get 2006.
///
/// - Important: Not thread-safe: handlers, timers and hooks all run on the host thread.
package final class TransitionSession {
  /// Limits and defaults.
  package struct Configuration: Sendable {
    /// `--max-transitions`: live transitions at most (2007 beyond).
    package var maxTransitions = 1024
    /// How many ended transitions keep their outcome for `transition/wait`.
    package var rememberedOutcomes = 10_000

    package init(maxTransitions: Int = 1024) {
      self.maxTransitions = maxTransitions
    }
  }

  /// The version of the protocol that Protocol.md documents (`initialize`'s `protocolVersion`). It changes when a
  /// method's meaning changes incompatibly; added methods and fields are announced through capabilities instead.
  package static let protocolVersion = "1.0"

  let configuration: Configuration
  /// The animators transitions can use.
  package let catalog: any AnimatorCatalog
  /// What makes every transition.
  let factory: TransitionFactory
  /// The loaded plugins (`plugins/…`); nil when the host serves a fixed catalog (tests).
  let registry: PluginRegistry?
  let output: any ProtocolOutput
  let scheduler: any ProtocolScheduler
  let pluginLogs: PluginLogQueue
  /// Host diagnostics for stderr (a refused notification, an animator's misbehaviour), at the warn level.
  package var diagnostic: (String) -> Void = { _ in }

  /// Live transitions by number.
  var live: [Int: TransitionRecord] = [:]
  /// The last number handed out ("t1" is 1).
  var counter = 0
  /// Outcomes of ended transitions, for `transition/wait`, oldest first in `endedOrder`.
  var endedOutcomes: [Int: EndSummary] = [:]
  var endedOrder: [Int] = []
  var endedOrderStart = 0
  /// Records whose engine transition ended and that still need their didEnd.
  var pendingEnds: [TransitionRecord] = []
  /// True once stdin reached its end.
  package private(set) var isInputClosed = false

  package init(
    configuration: Configuration = Configuration(), catalog: any AnimatorCatalog, registry: PluginRegistry?,
    output: any ProtocolOutput, scheduler: any ProtocolScheduler, pluginLogs: PluginLogQueue = PluginLogQueue()
  ) {
    self.configuration = configuration
    self.catalog = catalog
    self.factory = TransitionFactory(catalog: catalog)
    self.registry = registry
    self.output = output
    self.scheduler = scheduler
    self.pluginLogs = pluginLogs
  }

  /// Registers every method of the protocol on `dispatcher`.
  package func register(on dispatcher: Dispatcher) {
    registerPluginMethods(on: dispatcher)
    registerTransitionMethods(on: dispatcher)
  }

  // MARK: Server hooks

  /// Queued `transition/update` notifications for the same transition supersede each other.
  package func coalescingKey(_ request: Request) -> String? {
    guard request.method == "transition/update", let id = request.params?["transition"]?.stringValue else {
      return nil
    }
    return "transition/update:" + id
  }

  /// Whether the host must keep serving after stdin closed: a real-time transition is still playing.
  package var hasPendingWork: Bool { !live.isEmpty }

  /// stdin reached its end: real-time transitions that move run to their end; paused ones and manual-clock ones
  /// end cancelled with reason "inputClosed" (CONVENTIONS, "Time, sampling and the loop").
  package func inputClosed() {
    isInputClosed = true
    for record in liveRecords where record.clock == .manual || !record.isMoving {
      record.driver.terminate(reason: "inputClosed")
    }
    reportEnds()
  }

  /// The host is ending early (SIGTERM, `exit`, closed stdout): every transition ends cancelled with `reason`.
  package func terminateAll(reason: String = "terminated") {
    for record in liveRecords { record.driver.terminate(reason: reason) }
    reportEnds()
  }

  // MARK: Records

  /// Live records in creation order.
  var liveRecords: [TransitionRecord] {
    live.keys.sorted().map { live[$0]! }
  }

  /// The live record `id` names.
  ///
  /// - Throws: 2005 for an id this host never gave out, 2006 for one that has ended.
  func record(_ id: String) throws(ResponseError) -> TransitionRecord {
    let number = Self.number(of: id)
    if let number, let record = live[number] { return record }
    if let number, number <= counter {
      throw .wrongState(id, phase: "ended", "the transition has ended")
    }
    throw .unknownTransition(id)
  }

  /// n for "tn" (n ≥ 1, no leading zeros), else nil.
  static func number(of id: String) -> Int? {
    guard id.hasPrefix("t"), id.count >= 2 else { return nil }
    let digits = id.dropFirst()
    guard digits.first != "0", digits.allSatisfy(\.isASCII), let n = Int(digits), n >= 1 else { return nil }
    return n
  }

  /// Routes the transition's events: its end waits in `pendingEnds` for `reportEnds`; misbehaviour and misuse of the
  /// view model become `window/logMessage` warnings.
  func observe(_ record: TransitionRecord) {
    record.driver.onEvent = { [unowned self, unowned record] event in
      let animator = record.driver.animator.qualifiedID
      switch event {
      case .ended(let outcome):
        record.outcome = outcome
        pendingEnds.append(record)
      case .misbehaved(let report):
        warn(
          "\(record.id): \(report.animatorID) misbehaved: \(report.message)",
          data: ["transition": JSON(record.id), "animator": JSON(report.animatorID), "kind": JSON(report.kindName)])
      case .misusedViewModel(let misuse):
        warn(
          "\(record.id): \(animator) misused the view model: \(misuse)",
          data: ["transition": JSON(record.id), "animator": JSON(animator), "kind": JSON("sceneMisuse")])
      }
    }
  }

  // MARK: Frames

  /// Sends the record's next frame (nothing when its `frames` is "none").
  func emitFrame(_ record: TransitionRecord) {
    guard record.frames != .none else { return }
    let stamp = record.stamp(seq: record.seq)
    record.seq += 1
    output.sendMessage { record.driver.streamFrame(stamp, mode: record.frames, precision: record.precision, into: &$0) }
  }

  // MARK: Real-time clock

  /// Keeps a real-time transition's one timer right: none while it stands still; while it moves, one at the earlier
  /// of its next frame (every 1/fps s) and the moment its timeline next needs to advance (`TransitionStatus
  /// .nextEventIn`: a completion, the end of the duration or of a tail). So the timeline follows the monotonic clock
  /// whatever the frame rate: a 1 s transition at fps 0.2 still ends at 1 s, with its last frame and didEnd. Frames
  /// are only how often it is shown. Called after every call that may change where the transition stands.
  func updateTimer(_ record: TransitionRecord) {
    guard record.clock == .realtime else { return }
    guard record.isMoving else {
      if let timer = record.timer { scheduler.cancel(timer) }
      record.timer = nil
      record.isClockRunning = false
      return
    }
    if !record.isClockRunning {
      // Time starts (or starts again after a pause) now; a frame is due one interval later.
      let now = scheduler.now
      record.isClockRunning = true
      record.lastReading = now
      record.nextDeadline = now + 1 / record.fps
    }
    scheduleWakeUp(record)
  }

  /// (Re)schedules the record's timer for its next frame or event, whichever comes first.
  private func scheduleWakeUp(_ record: TransitionRecord) {
    let wait = record.driver.status.nextEventIn.map { max($0, Self.shortestEventWait) }
    let eventDeadline = wait.map { record.lastReading + $0 }
    let deadline = min(record.nextDeadline, eventDeadline ?? .infinity)
    if record.timer != nil && record.wakeUpDeadline == deadline { return }
    if let timer = record.timer { scheduler.cancel(timer) }
    record.wakeUpDeadline = deadline
    // An event deadline remembers the time it was computed for: the clock reading at it may fall a rounding error
    // short, and the transition must still reach the event.
    record.plannedAdvance = eventDeadline == deadline ? wait : nil
    record.timer = scheduler.schedule(at: deadline) { [weak self, weak record] in
      guard let self, let record else { return }
      wakeUp(record)
    }
  }

  /// The shortest wait for an event: a due event is handled on the next turn of the loop, never in a busy loop.
  static let shortestEventWait = 0.001

  /// A real-time wake-up: advance by the time that passed, then the frame if one is due (or the end).
  private func wakeUp(_ record: TransitionRecord) {
    record.timer = nil
    guard record.outcome == nil, live[record.number] === record else { return }
    let now = scheduler.now
    var dt = max(0, now - record.lastReading)
    if let planned = record.plannedAdvance { dt = max(dt, planned) }
    record.lastReading = now
    advance(record, by: dt)
    flushPluginLogs()
    if record.outcome == nil {
      if now >= record.nextDeadline {
        emitFrame(record)
        // Absolute deadlines keep the rate; after a stall, skip the missed frames instead of bursting.
        let interval = 1 / record.fps
        record.nextDeadline += interval
        if record.nextDeadline <= now { record.nextDeadline = now + interval }
      }
      updateTimer(record)
    }
    reportEnds()
  }

  /// Lets `dt` seconds pass for the record's transition (a refusal is a host bug: logged, never a reply).
  func advance(_ record: TransitionRecord, by dt: Double) {
    do {
      _ = try record.driver.perform(.advance(seconds: dt))
    } catch {
      diagnostic("\(record.id): advance failed: \(error)")
    }
  }

  // MARK: Ends

  /// Reports every transition that ended since the last call: last frame, didEnd, waiters; then forgets it.
  func reportEnds() {
    flushPluginLogs()
    while !pendingEnds.isEmpty {
      let record = pendingEnds.removeFirst()
      guard let outcome = record.outcome, live[record.number] === record else { continue }
      if let timer = record.timer {
        scheduler.cancel(timer)
        record.timer = nil
      }
      live[record.number] = nil
      let summary = EndSummary(outcome)
      remember(summary, of: record.number)
      emitFrame(record)
      output.notify("transition/didEnd", summary.json(transition: record.id))
      let waiters = record.waiters
      record.waiters = []
      for waiter in waiters where !waiter.hasReplied { waiter.reply(summary.json(transition: record.id)) }
      flushPluginLogs()
    }
  }

  private func remember(_ summary: EndSummary, of number: Int) {
    endedOutcomes[number] = summary
    endedOrder.append(number)
    if endedOrder.count - endedOrderStart > configuration.rememberedOutcomes {
      endedOutcomes[endedOrder[endedOrderStart]] = nil
      endedOrderStart += 1
      if endedOrderStart > 4096 {
        endedOrder.removeFirst(endedOrderStart)
        endedOrderStart = 0
      }
    }
  }

  // MARK: Logs

  /// Sends `window/logMessage {type, message, data?}` (LSP's MessageType: 1 error … 4 log).
  func logMessage(type: Int, _ message: String, data: JSON? = nil) {
    var params = JSONObjectBuilder()
    params.setNew("type", JSON(type))
    params.setNew("message", JSON(message))
    if let data { params.setNew("data", data) }
    output.notify("window/logMessage", params.build())
  }

  /// A warning about a transition: `window/logMessage` type 2 to the client, and the same line on stderr (through
  /// `diagnostic`, at the host's warn level), as Protocol.md promises for every log message.
  func warn(_ message: String, data: JSON) {
    diagnostic(message)
    logMessage(type: 2, message, data: data)
  }

  /// Sends what plugins logged since the last call (the queue's logger has already put each line on stderr).
  func flushPluginLogs() {
    for record in pluginLogs.take() {
      logMessage(
        type: PluginLogQueue.messageType(record.level), "plugin \(record.source): \(record.message)",
        data: ["source": JSON(record.source), "level": JSON(record.level.hostLevelName)])
    }
  }
}
