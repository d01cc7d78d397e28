// The transition protocol's state: live transitions by id, their clocks and frame streams, and how each one ends
// (exactly one didEnd, whatever happens). Every transition is prepared by the one TransitionFactory, made by the
// session's PluginHosting (in this process, or in its plugin's worker process) and driven through its
// TransitionDriver. The typed operations are in TransitionSession+Transitions.swift; their JSON-RPC methods in
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
/// Calls into a transition complete when its driver says so: at once in this process, when the worker answers for a
/// plugin in a worker. Every operation replies from its call's completion, so a slow or hung plugin holds up only
/// the requests that need it (calls to one plugin complete in order); the rest are answered meanwhile.
///
/// Ending: the driver reports the end (`TransitionEvent.ended`, or `.lost` when its plugin's worker died); once the
/// call that ended it has completed, the session sends the last frame it got (the settled or restored state; unless
/// `frames` is "none") and `transition/didEnd`, answers `transition/wait`, forgets the transition and so releases its
/// animator. Later calls naming it get 2006.
///
/// - Important: Not thread-safe: handlers, timers, completions and hooks all run on the host thread.
package final class TransitionSession {
  /// Limits and defaults.
  package struct Configuration: Sendable {
    /// `--max-transitions`: live transitions at most (2007 beyond).
    package var maxTransitions = 1024
    /// How many ended transitions keep their outcome for `transition/wait`.
    package var rememberedOutcomes = 10_000
    /// Whether a real-time transition that runs on its own gets each next frame built right after the last one is
    /// written (`TransitionDriver.prepareFrame`), and sent at its tick when the tick's advance ran nothing; off
    /// (`--frames-ahead off`), every frame is built at its tick. The frames are the same either way.
    package var buildsFramesAhead = true

    package init(maxTransitions: Int = 1024) {
      self.maxTransitions = maxTransitions
    }
  }

  /// The version of the protocol that Protocol.md documents (`initialize`'s `protocolVersion`). It changes when a
  /// method's meaning changes incompatibly; added methods and fields are announced through capabilities instead.
  package static let protocolVersion = "1.0"

  let configuration: Configuration
  /// Where plugins are loaded and transitions made.
  package let hosting: any PluginHosting
  /// What checks every transition before it is made (resolution, operation, params).
  let factory: TransitionFactory
  let output: any ProtocolOutput
  let scheduler: any ProtocolScheduler
  let pluginLogs: PluginLogQueue
  /// Host diagnostics for stderr (a refused notification, an animator's misbehaviour), at the warn level.
  package var diagnostic: (String) -> Void = { _ in }

  /// Live transitions by number (from the moment their start is sent to the driver).
  var live: [Int: TransitionRecord] = [:]
  /// The last number handed out ("t1" is 1).
  var counter = 0
  /// Open scenes by number ("s1" is 1), and the last number handed out (TransitionSession+Scenes.swift).
  var scenes: [Int: SceneRecord] = [:]
  var sceneCounter = 0
  /// Outcomes of ended transitions, for `transition/wait`, oldest first in `endedOrder`.
  var endedOutcomes: [Int: EndSummary] = [:]
  var endedOrder: [Int] = []
  var endedOrderStart = 0
  /// Records whose transition ended and that still need their didEnd.
  var pendingEnds: [TransitionRecord] = []
  /// Requests that read the catalog, waiting behind a change of it (`plugins/load` …) still in progress.
  var catalogQueue: [() -> Void] = []
  /// A change of the catalog is in progress.
  var catalogBusy = false
  /// Calls made and not yet completed (they keep the host serving after end of input).
  var outstandingCalls = 0
  /// True once stdin reached its end.
  package private(set) var isInputClosed = false
  /// Frames of ended transitions that were sent as built ahead of their tick (see `framesSentAhead`).
  private var endedFramesSentAhead = 0

  /// How many real-time frames were sent as built ahead of their tick so far (`Configuration.buildsFramesAhead`):
  /// a diagnostic for tests and benchmarks.
  package var framesSentAhead: Int { live.values.reduce(endedFramesSentAhead) { $0 + $1.driver.framesSentAhead } }

  /// A session whose plugins and transitions live in `hosting`.
  package init(
    configuration: Configuration = Configuration(), hosting: any PluginHosting, output: any ProtocolOutput,
    scheduler: any ProtocolScheduler, pluginLogs: PluginLogQueue = PluginLogQueue()
  ) {
    self.configuration = configuration
    self.hosting = hosting
    self.factory = TransitionFactory(catalog: hosting.catalog)
    self.output = output
    self.scheduler = scheduler
    self.pluginLogs = pluginLogs
    hosting.onFault = { [weak self] in self?.reportFault($0) }
  }

  /// A session on `catalog` in this process; `registry` (when given) serves the `plugins/…` methods.
  package convenience init(
    configuration: Configuration = Configuration(), catalog: any AnimatorCatalog, registry: PluginRegistry?,
    output: any ProtocolOutput, scheduler: any ProtocolScheduler, pluginLogs: PluginLogQueue = PluginLogQueue()
  ) {
    self.init(
      configuration: configuration, hosting: InProcessPlugins(catalog: catalog, registry: registry), output: output,
      scheduler: scheduler, pluginLogs: pluginLogs)
  }

  /// The animators transitions can use.
  package var catalog: any AnimatorCatalog { hosting.catalog }

  /// Registers every method of the protocol on `dispatcher`.
  package func register(on dispatcher: Dispatcher) {
    registerPluginMethods(on: dispatcher)
    registerTransitionMethods(on: dispatcher)
    registerSceneMethods(on: dispatcher)
  }

  // MARK: Server hooks

  /// Queued `transition/update` notifications for the same transition supersede each other.
  package func coalescingKey(_ request: Request) -> String? {
    guard request.method == "transition/update", let id = request.params?["transition"]?.stringValue else {
      return nil
    }
    return "transition/update:" + id
  }

  /// Whether the host must keep serving after stdin closed: a transition is still playing, or a call into a plugin
  /// has not come back.
  package var hasPendingWork: Bool { !live.isEmpty || outstandingCalls > 0 || !catalogQueue.isEmpty || catalogBusy }

  /// Whether the host should read no more requests for now: the plugins' workers have more calls waiting to be
  /// written to them than they should be given (`PluginHosting.isBackedUp`), so further requests wait in the client's
  /// pipe, not in the host's memory.
  package var shouldPauseInput: Bool { hosting.isBackedUp }

  /// stdin reached its end: real-time transitions that move run to their end; paused ones, manual-clock ones and
  /// those that time alone can no longer move (`TransitionRecord.needsInput`) end cancelled with reason
  /// "inputClosed" (CONVENTIONS, "Time, sampling and the loop"), now or as soon as they come to that.
  package func inputClosed() {
    isInputClosed = true
    // One still starting is judged when its start is answered.
    for record in liveRecords where record.started && record.needsInput {
      terminate(record, reason: "inputClosed")
    }
    reportEnds()
  }

  /// After end of input: a real-time transition that came to need the client (paused, or only work parked on a
  /// paused layer left) ends "inputClosed" on the loop's next turn, after the reply and the frame of the call that
  /// brought it there; unless a call meanwhile set it moving again.
  private func endWhenItNeedsInput(_ record: TransitionRecord) {
    guard isInputClosed, record.inputClosedEnd == nil, record.outcome == nil, record.needsInput else { return }
    record.inputClosedEnd = scheduler.schedule(at: scheduler.now) { [weak self, weak record] in
      guard let self, let record else { return }
      record.inputClosedEnd = nil
      guard live[record.number] === record, record.outcome == nil, record.needsInput else { return }
      terminate(record, reason: "inputClosed")
    }
  }

  /// The host is ending early (SIGTERM, `exit`, closed stdout): every transition ends cancelled with `reason`, each
  /// with its last frame and its didEnd, within `deadline` (monotonic seconds) for those whose plugin runs elsewhere.
  package func terminateAll(reason: String = "terminated", deadline: Double? = nil) {
    for record in liveRecords { terminate(record, reason: reason) }
    if hosting.hasOutstandingCalls { hosting.settle(until: deadline ?? scheduler.now + 0.5) }
    reportEnds()
  }

  /// Ends `record`'s transition with `reason`; its end is reported when the call completes.
  func terminate(_ record: TransitionRecord, reason: String) {
    call(record) { done in
      record.driver.terminate(reason: reason) { [self] frame in
        keepLastFrame(record, frame)
        done()
        reportEnds()
      }
    }
  }

  // MARK: Records

  /// Live records in creation order.
  var liveRecords: [TransitionRecord] {
    // Without transitions (an idle host's polls), nothing to sort: sorting the keys of an empty dictionary costs more
    // than the rest of a `transition/list`.
    live.isEmpty ? [] : live.keys.sorted().map { live[$0]! }
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

  /// Runs `body`, a call into `record`'s driver that calls `done` from its completion: counted, so the host keeps
  /// serving while it is on its way.
  func call(_ record: TransitionRecord, _ body: (_ done: @escaping () -> Void) -> Void) {
    outstandingCalls += 1
    var finished = false
    body { [weak self] in
      guard !finished else { return }
      finished = true
      self?.outstandingCalls -= 1
    }
  }

  /// Routes the transition's events: its end waits in `pendingEnds` for `reportEnds`; misbehaviour and misuse of the
  /// view model become `window/logMessage` warnings; a lost transition is reported at once.
  func observe(_ record: TransitionRecord) {
    record.driver.onEvent = { [weak self, weak record] event in
      guard let self, let record else { return }
      let animator = record.driver.animator.qualifiedID
      switch event {
      case .ended(let outcome):
        guard record.outcome == nil else { return }
        record.outcome = outcome
        pendingEnds.append(record)
      case .misbehaved(let report):
        warn(
          "\(record.id): \(report.animatorID) misbehaved: \(report.message)",
          data: ["transition": JSON(record.id), "animator": JSON(report.animatorID), "kind": JSON(report.kindName)])
      case .timelineChanged(let timeline):
        // During the call that changed it: before that call's reply (and its frame).
        guard record.started, record.outcome == nil else { return }
        output.sendMessage { message in
          message.append(contentsOf: #"{"jsonrpc":"2.0","method":"transition/timelineChanged","params":"#.utf8)
          message.append(contentsOf: timeline)
          message.append(UInt8(ascii: "}"))
        }
      case .misusedViewModel(let misuse):
        warn(
          "\(record.id): \(animator) misused the view model: \(misuse)",
          data: ["transition": JSON(record.id), "animator": JSON(animator), "kind": JSON("sceneMisuse")])
      case .lost(let fault, let lastFrame):
        ended(record, reason: fault.reason, fault: fault, lastFrame: lastFrame)
      case .abandoned(let reason, let lastFrame):
        ended(record, reason: reason, fault: nil, lastFrame: lastFrame)
      }
    }
  }

  /// `record` ended without its driver's call (its worker died or was abandoned): reported at once.
  private func ended(_ record: TransitionRecord, reason: String, fault: PluginFault?, lastFrame: [UInt8]?) {
    guard record.outcome == nil else { return }
    record.outcome = .cancelled(reason: reason)
    record.fault = fault
    record.lastFrame = record.frames == .none ? nil : lastFrame
    pendingEnds.append(record)
    // A transition whose start was never answered is the start's error reply alone.
    if record.started { reportEnds() }
  }

  /// Keeps the frame the call that ended `record` produced: its last frame, sent by `reportEnds`.
  func keepLastFrame(_ record: TransitionRecord, _ frame: FrameBytes?) {
    if let frame, record.outcome != nil, record.lastFrame == nil { record.lastFrame = Array(frame) }
  }

  // MARK: Real-time clock

  /// Keeps a real-time transition's one timer right: none while it stands still; while it moves, one at the earlier
  /// of its next frame (every 1/fps s) and the moment its timeline next needs to advance (`TransitionStatus
  /// .nextEventIn`: a completion, the end of the duration or of a tail). So the timeline follows the monotonic clock
  /// whatever the frame rate: a 1 s transition at fps 0.2 still ends at 1 s, with its last frame and didEnd. Frames
  /// are only how often it is shown. Called after every call that may change where the transition stands; after end
  /// of input it also ends a transition that came to need the client (`endWhenItNeedsInput`).
  func updateTimer(_ record: TransitionRecord) {
    guard record.clock == .realtime, record.started else { return }
    endWhenItNeedsInput(record)
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
    // While an advance is on its way its completion comes back here, with the status it produced.
    guard !record.advancing else { return }
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

  /// How far short of an event a frame's tick may fall and still reach it (`wakeUp`): far above the deadlines' rounding
  /// drift, far below anything a frame could show.
  static let eventSnap = 1e-6

  /// A real-time wake-up: advance by the time that passed, then the frame if one is due (or the end). The next
  /// wake-up is scheduled when this advance has come back, so a transition has one on its way at most.
  private func wakeUp(_ record: TransitionRecord) {
    record.timer = nil
    guard record.outcome == nil, live[record.number] === record else { return }
    let now = scheduler.now
    let frameDue = now >= record.nextDeadline
    var dt: Double
    if frameDue, let prepared = record.framePreparedFor, prepared.reading == record.lastReading,
      record.plannedAdvance == nil, now - record.nextDeadline < 1 / record.fps
    {
      // The frame built ahead shows the tick's own moment: time moves by exactly what it was built for (the wake-up's
      // lateness is not lost: the next tick's deadline is absolute).
      dt = prepared.seconds
      record.lastReading = record.nextDeadline
    } else {
      dt = max(0, now - record.lastReading)
      if let planned = record.plannedAdvance { dt = max(dt, planned) }
      record.lastReading = now
    }
    // A tick that would stop a rounding error short of an event reaches it: deadlines are summed 1/fps at a time at
    // the monotonic clock's magnitude and drift some 1e-10 s, so the tick meant to end a transition could fall just
    // short and leave the end to a wake-up `shortestEventWait` later, in a frame of its own.
    if frameDue, let event = record.driver.status.nextEventIn, event > dt, event - dt <= Self.eventSnap { dt = event }
    // A worker's frame built ahead goes out now, not after the advance's round trip to the worker (its answer then
    // only confirms it, or brings the next frame should the advance not have been as quiet as foreseen).
    if frameDue, let prepared = record.framePreparedFor, prepared.seconds == dt,
      let early = record.driver.takeFrameAhead(advancingBy: dt)
    {
      early.withUnsafeBytes { output.sendSerializedMessage($0) }
    }
    record.framePreparedFor = nil
    advance(record, by: dt, frame: frameDue) { [self] frame in
      guard record.outcome == nil else { return }
      if frameDue {
        if let frame { output.sendSerializedMessage(frame) }
        // Absolute deadlines keep the rate; after a stall, skip the missed frames instead of bursting.
        let interval = 1 / record.fps
        let now = scheduler.now
        record.nextDeadline += interval
        if record.nextDeadline <= now { record.nextDeadline = now + interval }
      }
      // After an event's wake-up too, or the frame after it is built at its tick. A transition's first wake-up is one
      // (the first advance commits what `animateTransition` left, 1 ms after the start), and its first frame was the
      // stream's slowest, often over a frame (a 1,000-view frame's whole build; in a worker, its first), so the stream
      // skipped a tick and restarted its grid (docs/bench.md, "Ninth pass").
      record.prepareNextFrame = true
    }
  }

  /// After a real-time frame is written (or an event's wake-up), in the time until the next tick: has the next frame
  /// built ahead, on the loop's next turn (so after the frame just written has gone out, and after the input that turn
  /// reads).
  func prepareFrame(_ record: TransitionRecord) {
    guard configuration.buildsFramesAhead, record.clock == .realtime, record.frames != .none, record.isMoving,
      !record.driver.status.isInteractive
    else { return }
    if let timer = record.prepareTimer { scheduler.cancel(timer) }
    record.prepareTimer = scheduler.schedule(at: scheduler.now) { [weak self, weak record] in
      guard let self, let record else { return }
      record.prepareTimer = nil
      buildFrameAhead(record)
    }
  }

  /// Has the driver build the next frame at its deadline's moment, when the transition runs on its own and its next
  /// wake-up is that frame's (not an event's). The driver keeps it only when that advance will run nothing; any
  /// call before the tick drops it.
  private func buildFrameAhead(_ record: TransitionRecord) {
    guard live[record.number] === record, record.outcome == nil, record.isMoving, record.isClockRunning,
      !record.advancing, !record.driver.status.isInteractive, record.timer != nil, record.plannedAdvance == nil,
      record.wakeUpDeadline == record.nextDeadline
    else { return }
    let seconds = record.nextDeadline - record.lastReading
    guard seconds > 0 else { return }
    record.framePreparedFor = (record.lastReading, seconds)
    record.driver.prepareFrame(advancingBy: seconds)
  }

  /// Lets `dt` seconds pass for the record's real-time transition (a refusal is a host bug: logged, never a reply),
  /// with the frame that shows it when `frame` (`then` gets it, unless the transition ended: its last frame is kept
  /// for `reportEnds`). The timer follows, and ends are reported.
  func advance(
    _ record: TransitionRecord, by dt: Double, frame: Bool, then: @escaping (FrameBytes?) -> Void = { _ in }
  ) {
    record.advancing = true
    call(record) { done in
      record.driver.perform(.advance(seconds: dt), stream: frame) { [self] result, frame in
        done()
        record.advancing = false
        if case .failure(let error) = result { diagnostic("\(record.id): advance failed: \(error)") }
        flushPluginLogs()
        if record.outcome == nil {
          then(frame)
          if live[record.number] === record {
            updateTimer(record)
            if record.prepareNextFrame { prepareFrame(record) }
          }
          record.prepareNextFrame = false
        } else {
          keepLastFrame(record, frame)
        }
        reportEnds()
      }
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
      if let timer = record.prepareTimer {
        scheduler.cancel(timer)
        record.prepareTimer = nil
      }
      live[record.number] = nil
      endedFramesSentAhead += record.driver.framesSentAhead
      // One whose start was never answered (a shutdown cut it short) was never the client's to hear about.
      guard record.started else { continue }
      let summary = EndSummary(outcome, fault: record.fault)
      remember(summary, of: record.number)
      if let frame = record.lastFrame, record.frames != .none {
        frame.withUnsafeBytes { output.sendSerializedMessage($0) }
      }
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

  /// A plugin's worker died or hung: an error `window/logMessage` with the crash report as `data` (before the didEnd of
  /// each transition it ended and the replies of the calls it interrupted).
  func reportFault(_ fault: PluginFault) {
    flushPluginLogs()
    logMessage(type: 1, fault.message, data: fault.data)
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
