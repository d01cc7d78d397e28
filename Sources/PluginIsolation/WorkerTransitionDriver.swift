// The parent's driver of a transition that runs in a plugin's worker process: each call becomes one message, its
// completion runs when the worker's answer (status, events, frame bytes) arrives through the host's event loop. It
// keeps what the parent must know should the worker die: the stream's position and the restored start state the
// worker encoded before `animateTransition` ran.

import JSON
import JSONRPC
import TransitionEngine
import TransitionService

/// A transition in a worker, seen from the parent.
final class WorkerTransitionDriver: TransitionDriver {
  let animator: AnimatorEntry
  let operation: String
  private(set) var status = TransitionStatus.idle
  var onEvent: (TransitionEvent) -> Void = { _ in }
  var notifiesTimeline = false
  /// The session's number ("t3" is 3), known once `start` is called.
  private(set) var number = 0
  private(set) var id = ""
  let frames: FrameMode
  /// The grid the worker rounds the frames' lengths to (`precision`).
  let precision: FramePrecision?
  /// The `seq` the next forwarded frame must carry.
  var nextSeq = 0
  /// How many of its frames the worker sent as built ahead of their tick (`prepareFrame`).
  var framesSentAhead = 0
  /// The `views` of the start state, encoded by the worker before the animator ran (nil without frames).
  var restoreViews: [UInt8]?
  /// The worker it runs in (a lost transition stays lost: it never moves to another).
  let worker: WorkerProcess
  /// The checked request until `start` has encoded it into the start message: then dropped, since the decoded trees
  /// and their JSON are by far the biggest part of a transition and the parent needs neither again (the worker keeps
  /// the transition's state; a crash restores from `restoreViews`, which the worker encoded).
  private var prepared: PreparedTransition?
  /// Told once when the transition is over (ended or lost), so its generation counts it no more.
  private let onOver: () -> Void
  /// Ended (its worker said so) or lost (its worker died).
  private(set) var isOver = false
  private var fault: PluginFault?
  /// The ticket of the last `prepare` sent, while no call has been made since: the one `frameAhead` this driver takes.
  private var awaitedAhead: Int?
  private var lastTicket = 0
  /// The frame the worker built ahead for `awaitedAhead` (an advance by `seconds`), checked as frame `seq` of this
  /// transition; lent to the `perform` at the tick while its answer is on its way. Only ever set for the awaited
  /// ticket, and dropped with it.
  private var heldAhead: (seconds: Double, seq: Int, text: [UInt8])?
  private var lastAheadSeconds = 0.0
  /// `takeFrameAhead` handed the held frame out: the next call tells the worker it was sent.
  private var aheadSentEarly = false

  init(
    worker: WorkerProcess, prepared: PreparedTransition, frames: FrameMode, precision: FramePrecision?,
    onOver: @escaping () -> Void
  ) {
    self.worker = worker
    self.prepared = prepared
    self.animator = prepared.entry
    self.operation = prepared.request.operation.name
    self.frames = frames
    self.precision = precision
    self.onOver = onOver
  }

  // MARK: TransitionDriver

  func start(as id: String, completion: @escaping DriverCompletion) {
    self.id = id
    number = Int(id.dropFirst()) ?? 0
    guard let prepared else { preconditionFailure("\(id) started twice") }
    self.prepared = nil
    let request = prepared.request
    var message = MessageWriter(.start, capacity: 4096)
    message.int(number)
    message.string(prepared.entry.qualifiedID)
    message.string(request.operation.name)
    var trees: [UInt8] = []
    (request.treesJSON ?? .null).appendSerialized(to: &trees)
    message.bytes(trees)
    message.u32(UInt32(request.params.count))
    for (name, value) in request.params.sorted(by: { $0.key < $1.key }) {
      message.string(name)
      message.parameter(value)
    }
    message.bool(request.options.isInteractive)
    message.bool(request.options.isAnimated)
    message.double(request.options.completionSpeed)
    message.curve(request.options.completionCurve)
    message.string(frames.rawValue)
    message.optional(precision) { $0.double($1.grid) }
    message.bool(request.options.interactivityFromController)
    // A transition a scene's handler asked for runs on the scene's pending instance (WorkerScene.swift).
    message.optional((request.scene as? WorkerSceneDriver)?.number) { $0.int($1) }
    message.bool(notifiesTimeline)
    worker.host(self)
    worker.call(message.finish(), as: .start(self, completion))
  }

  func perform(_ command: TransitionCommand, stream: Bool, completion: @escaping DriverCompletion) {
    if let fault { return completion(.failure(.fault(fault)), nil) }
    // The advance a frame was built ahead for: the worker sends that frame again only if it does not know the parent
    // holds it. Any other call drops it (the worker drops its own).
    let held = stream && isAdvance(command) ? heldAhead : nil
    let ahead: PendingAhead =
      if aheadSentEarly { .sent } else if let held { .held(seq: held.seq, text: held.text) } else { .none }
    aheadSentEarly = false
    dropAhead()
    var message = MessageWriter(.perform)
    message.int(number)
    message.command(command)
    message.bool(stream)
    message.u8(ahead.use.rawValue)
    worker.call(message.finish(), as: .perform(self, ahead: ahead, completion))
  }

  func takeFrameAhead(advancingBy seconds: Double) -> [UInt8]? {
    guard let held = heldAhead, held.seconds == seconds, held.seq == nextSeq, !isOver, fault == nil else { return nil }
    dropAhead()
    aheadSentEarly = true
    nextSeq += 1
    framesSentAhead += 1
    return held.text
  }

  private func isAdvance(_ command: TransitionCommand) -> Bool {
    if case .advance = command { true } else { false }
  }

  /// Whether it holds the frame its worker built ahead for the next tick.
  var holdsFrameAhead: Bool { heldAhead != nil }

  /// Forgets the frame built ahead, and any still on its way: a call other than its tick's advance was made.
  func dropAhead() {
    awaitedAhead = nil
    heldAhead = nil
  }

  func terminate(reason: String, completion: @escaping (FrameBytes?) -> Void) {
    guard !isOver else { return completion(nil) }
    dropAhead()
    var message = MessageWriter(.terminate)
    message.int(number)
    message.string(reason)
    worker.call(message.finish(), as: .terminate(self, completion))
  }

  func sample(at moment: SampleMoment, completion: @escaping (Result<FrameBytes, DriverError>) -> Void) {
    if let fault { return completion(.failure(.fault(fault))) }
    dropAhead()
    var message = MessageWriter(.sample)
    message.int(number)
    switch moment {
    case .time(let time):
      message.bool(true)
      message.double(time)
    case .percent(let percent):
      message.bool(false)
      message.double(percent)
    }
    worker.call(message.finish(), as: .sample(self, completion))
  }

  func timeline(completion: @escaping (Result<JSON, DriverError>) -> Void) {
    if let fault { return completion(.failure(.fault(fault))) }
    dropAhead()
    var message = MessageWriter(.timeline)
    message.int(number)
    worker.call(message.finish(), as: .timeline(self, completion))
  }

  func afterPendingCalls(_ body: @escaping () -> Void) {
    worker.afterPendingCalls(body)
  }

  /// The worker builds the frame (it samples the transition) and sends it ahead (`receiveFrameAhead`), so the
  /// advance's answer at the tick need not carry it.
  func prepareFrame(advancingBy seconds: Double) {
    dropAhead()
    guard fault == nil, !isOver, hasStarted else { return }
    lastTicket += 1
    awaitedAhead = lastTicket
    lastAheadSeconds = seconds
    var message = MessageWriter(.prepare)
    message.int(number)
    message.double(seconds)
    message.int(lastTicket)
    worker.post(message.finish())
  }

  /// The frame the worker built for `prepare` number `ticket`: held until the tick when it is the one awaited, after
  /// the check every forwarded frame gets (FrameCheck: the calls made before that `prepare` have all been answered,
  /// since the worker answers in order, so `nextSeq` is the seq it must carry). A stale one is dropped.
  func receiveFrameAhead(ticket: Int, _ frame: UnsafeRawBufferPointer) throws(ChannelError) {
    guard ticket > 0, ticket <= lastTicket else { throw ChannelError("a frame ahead for a prepare never sent") }
    guard ticket == awaitedAhead, !isOver, fault == nil else { return }
    if let problem = FrameCheck.problem(frame, transition: id, seq: nextSeq) {
      throw ChannelError("ahead of its tick, \(problem)")
    }
    heldAhead = (lastAheadSeconds, nextSeq, [UInt8](frame))
  }

  // MARK: From the worker

  /// Whether the worker has answered its start.
  var hasStarted: Bool { status.state != .idle }

  /// The status after a call.
  func apply(_ status: TransitionStatus) {
    self.status = status
    if status.state.isEnded { over() }
  }

  /// An event the worker reported during a call.
  func deliver(_ event: TransitionEvent) {
    guard fault == nil else { return }
    onEvent(event)
  }

  /// Its worker died: the transition is over, back at its start (its last frame shows that state, as a full frame).
  func lose(_ fault: PluginFault) {
    guard !isOver else { return }
    dropAhead()
    self.fault = fault
    status.state = .ended(.cancelled(reason: fault.reason))
    over()
    onEvent(.lost(fault, lastFrame: restoredFrame()))
  }

  /// Ends the transition as the host's own cancellation (`reason`), without its worker: the worker was killed at
  /// shutdown before it answered. Its last frame is the restored start state.
  func abandon(reason: String) {
    guard !isOver else { return }
    dropAhead()
    status.state = .ended(.cancelled(reason: reason))
    over()
    onEvent(.abandoned(reason: reason, lastFrame: restoredFrame()))
  }

  /// Its start failed in the worker: there is no transition to end.
  func startFailed() {
    over()
  }

  private func over() {
    guard !isOver else { return }
    isOver = true
    worker.release(self)
    onOver()
  }

  /// The whole `transition/frame` message of the restored start state: frame `nextSeq`, time and percent 0, phase
  /// "ended", the views the worker encoded at the start; nil without them, or when they do not make a frame.
  private func restoredFrame() -> [UInt8]? {
    guard frames != .none, let views = restoreViews else { return nil }
    var message = FrameCheck.prefix(transition: id, seq: nextSeq)
    message += Array(#""time":0,"percent":0,"phase":"ended","views":"#.utf8)
    message += views
    message += [UInt8(ascii: "}"), UInt8(ascii: "}")]
    let problem = message.withUnsafeBytes { FrameCheck.problem($0, transition: id, seq: nextSeq) }
    guard problem == nil else { return nil }
    nextSeq += 1
    return message
  }
}
