// One worker process as its parent sees it: the process (spawned with ProcessSpawn, watched through a pidfd), its
// channel (non-blocking, written through an outbound buffer so the host never waits on a worker), its log pipe (lines
// forwarded to the host's stderr, the last ones kept for a crash report), its watchdog page, and the calls waiting for
// its answers, in the order they were made. When it dies, for whatever reason, everything it hosted ends exactly once.

import Glibc
import JSON
import JSONRPC
import POSIX
import PluginHost
import TransitionEngine
import TransitionService

/// A call waiting for the worker's answer.
enum PendingCall {
  case load((Result<PluginInfo, ResponseError>) -> Void)
  case start(WorkerTransitionDriver, DriverCompletion)
  case perform(WorkerTransitionDriver, ahead: PendingAhead, DriverCompletion)
  case advance([(index: Int, driver: WorkerTransitionDriver)], BatchCompletion, () -> Void)
  case terminate(WorkerTransitionDriver, (FrameBytes?) -> Void)
  case sample(WorkerTransitionDriver, (Result<FrameBytes, DriverError>) -> Void)
  case timeline(WorkerTransitionDriver, (Result<JSON, DriverError>) -> Void)
  /// Not a message: runs once every call before it has been answered.
  case marker(() -> Void)
  /// A scene's open and gesture calls (WorkerScene.swift).
  case sceneOpen(WorkerSceneDriver, (Result<Void, ResponseError>) -> Void)
  case sceneGesture(WorkerSceneDriver, (Result<SceneGestureOutcome, DriverError>) -> Void)

  /// What the plugin is about to do for it (a crash report's phase when the page says nothing).
  var transitionNumber: Int? {
    switch self {
    case .start(let driver, _), .perform(let driver, _, _), .terminate(let driver, _), .sample(let driver, _),
      .timeline(let driver, _):
      driver.number
    case .advance(let batch, _, _): batch.first?.driver.number
    case .load, .marker, .sceneOpen, .sceneGesture: nil
    }
  }
}

/// What the parent has of the frame a `perform` may answer with, the one the worker built ahead (`AheadUse`).
enum PendingAhead {
  case none
  /// Held: frame `seq`, checked when it arrived.
  case held(seq: Int, text: [UInt8])
  /// Sent to the client before the call (`takeFrameAhead`).
  case sent

  /// What the `perform` tells the worker of it.
  var use: AheadUse {
    switch self {
    case .none: .none
    case .held: .held
    case .sent: .sent
    }
  }
}

/// What a worker tells the plugins it serves.
protocol WorkerOwner: AnyObject {
  /// The worker died unasked (a crash, a hang, a broken rule): before its transitions end and its calls fail.
  func workerDied(_ worker: WorkerProcess, _ fault: PluginFault)
  /// The worker ended as asked (or died while exiting): it is gone.
  func workerExited(_ worker: WorkerProcess)
  /// Plugin log lines it sent (for window/logMessage; they went to stderr already).
  func workerLogged(_ record: PluginLogRecord)
}

/// How workers are started and watched (the command line's isolation options).
package struct IsolationSettings: Sendable, Equatable {
  /// The host binary, re-executed in its hidden `__worker` mode.
  package var executable: String
  /// `--plugin-timeout`: seconds one call into plugin code may take before its worker is killed.
  package var pluginTimeout: Double
  /// `--plugin-memory-limit`: the worker's data limit in bytes (setrlimit RLIMIT_DATA), 0 for none.
  package var memoryLimit: UInt64
  /// `--plugin-crash-limit` crashes within `--plugin-crash-window` seconds mark a plugin crashed.
  package var crashLimit: Int
  package var crashWindow: Double
  /// Plugin log lines below it are dropped (in the worker).
  package var logLevel: PluginLogLevel

  package init(
    executable: String, pluginTimeout: Double = 2, memoryLimit: UInt64 = 1 << 30, crashLimit: Int = 3,
    crashWindow: Double = 60, logLevel: PluginLogLevel = .warning
  ) {
    self.executable = executable
    self.pluginTimeout = pluginTimeout
    self.memoryLimit = memoryLimit
    self.crashLimit = crashLimit
    self.crashWindow = crashWindow
    self.logLevel = logLevel
  }

  /// How long a worker may go without any progress (no call into plugin code, no message handled) while the parent
  /// waits for it: the start of a process and the loading of the Swift runtime are not plugin code, so this is
  /// longer than the plugin timeout.
  var stallTimeout: Double { max(2 * pluginTimeout, 10) }
}

/// One worker process.
///
/// - Important: Used on the host thread only.
final class WorkerProcess {
  enum State {
    case running
    /// Told to exit; its end is not a crash.
    case exiting
    case dead
  }

  let process: ProcessID
  /// The plugin file it stands for.
  let path: String
  /// The plugin's id once it is known (from the load's answer, or the generation it was started for).
  var pluginID: String?
  private(set) var state = State.running
  weak var owner: WorkerOwner?
  /// Told after each call is sent (the pool keeps its watchdog running while calls are owed).
  var onCall: () -> Void = {}

  private let exitWatch: FileDescriptor
  private let channel: FileDescriptor
  private let logPipe: FileDescriptor
  private let page: WatchdogPage
  private let settings: IsolationSettings
  private var pending: [PendingCall] = []
  private var pendingHead = 0
  /// How many items of the call at the head (an `advance`) its `replyPart`s have answered so far.
  private var headItemsAnswered = 0
  /// Transitions whose start was sent and that have not ended, by number.
  private(set) var hosted: [Int: WorkerTransitionDriver] = [:]
  /// Open scenes, by number (WorkerScene.swift).
  var scenes: [Int: WorkerSceneDriver] = [:]
  private var outbound: [UInt8] = []
  private var outboundStart = 0
  private var deframer = MessageDeframer()
  private var logLine: [UInt8] = []
  private(set) var stderrTail: [String] = []
  /// Where its descriptors are watched between turns of the host's loop (nil: only `pump` serves it).
  var watcher: (any DescriptorWatching)? {
    didSet { updateWatching() }
  }
  /// Progress the watchdog last saw, and when it changed.
  private var lastProgress: UInt64 = 0
  private var lastProgressAt: MonotonicInstant
  /// When it was asked to exit.
  private(set) var exitRequestedAt: MonotonicInstant?

  /// Lines of its stderr kept for a crash report, and the longest line kept.
  static let tailLines = 20
  static let tailLineLength = 400

  // MARK: Starting

  /// Starts a worker for the plugin whose bytes `image` holds (its file is `path`).
  static func spawn(
    settings: IsolationSettings, file: PluginFile, pluginID: String?, image: FileDescriptor
  ) throws(Errno) -> WorkerProcess {
    let (parentEnd, childEnd) = try FileDescriptor.socketPair()
    var toClose = [childEnd]
    var keepParentEnd = false
    defer {
      for descriptor in toClose { try? descriptor.close() }
      if !keepParentEnd { try? parentEnd.close() }
    }
    let (page, pageFile) = try WatchdogPage.create()
    toClose.append(pageFile)
    let log = try FileDescriptor.pipe()
    toClose.append(log.writeEnd)
    var keepLog = false
    defer { if !keepLog { try? log.readEnd.close() } }
    // Sources above every target number, so that no dup2 in the child overwrites another's source.
    var sources: [FileDescriptor] = []
    for descriptor in [childEnd, pageFile, image, log.writeEnd] {
      let copy = try descriptor.duplicate(minimum: 16)
      sources.append(copy)
      toClose.append(copy)
    }
    let options = WorkerOptions(
      parent: ProcessID.current.rawValue, logLevel: settings.logLevel, memoryLimit: settings.memoryLimit, file: file)
    var spawn = ProcessSpawn(
      executable: settings.executable, arguments: Array(options.arguments.dropFirst()),
      // The Swift runtime's backtracer would symbolicate every crash (slow, and a plugin's crash is expected here),
      // unless the user asked for it by setting SWIFT_BACKTRACE themselves (a plugin author reading a crash).
      environment: Self.workerEnvironment)
    spawn.arguments = options.arguments
    spawn.standardStreams = [
      0: .file("/dev/null", .readOnly), 1: .descriptor(sources[3]), 2: .descriptor(sources[3]),
      WorkerDescriptors.channel.rawValue: .descriptor(sources[0]),
      WorkerDescriptors.watchdog.rawValue: .descriptor(sources[1]),
      WorkerDescriptors.image.rawValue: .descriptor(sources[2]),
    ]
    spawn.closesOtherDescriptors = true
    let process = try spawn.spawn()
    let exitWatch: FileDescriptor
    do {
      exitWatch = try process.openDescriptor()
    } catch {
      try? process.send(SIGKILL)
      _ = try? process.wait()
      throw error
    }
    try? parentEnd.setNonBlocking(true)
    try? log.readEnd.setNonBlocking(true)
    keepParentEnd = true
    keepLog = true
    return WorkerProcess(
      process: process, path: file.path, pluginID: pluginID, exitWatch: exitWatch, channel: parentEnd,
      logPipe: log.readEnd,
      page: page, settings: settings)
  }

  /// The host's environment, with the Swift runtime's backtracer off unless the user set `SWIFT_BACKTRACE`.
  private static var workerEnvironment: [String] {
    let environment = ProcessSpawn.currentEnvironment
    if environment.contains(where: { $0.hasPrefix("SWIFT_BACKTRACE=") }) { return environment }
    return ["SWIFT_BACKTRACE=enable=no"] + environment
  }

  private init(
    process: ProcessID, path: String, pluginID: String?, exitWatch: FileDescriptor, channel: FileDescriptor,
    logPipe: FileDescriptor, page: WatchdogPage, settings: IsolationSettings
  ) {
    self.process = process
    self.path = path
    self.pluginID = pluginID
    self.exitWatch = exitWatch
    self.channel = channel
    self.logPipe = logPipe
    self.page = page
    self.settings = settings
    lastProgressAt = .now()
  }

  // MARK: Calls

  /// Whether calls are waiting for answers.
  var hasPendingCalls: Bool { pendingHead < pending.count }

  /// Whether it hosts a live transition or owes an answer.
  var isBusy: Bool { hasPendingCalls || !hosted.isEmpty }

  /// Sends `message` and waits for its answer as `call`. A dead worker fails the call at once.
  func call(_ message: [UInt8], as call: PendingCall) {
    guard state == .running else { return fail(call, with: deadFault) }
    if !hasPendingCalls {
      // The stall clock starts with the first call it owes an answer to.
      lastProgressAt = .now()
      lastProgress = page.read()?.progress ?? 0
    }
    pending.append(call)
    send(message)
    onCall()
  }

  /// Sends `message`, which has no answer; nothing happens when the worker is not running.
  func post(_ message: [UInt8]) {
    guard state == .running else { return }
    send(message)
  }

  /// Runs `body` once the calls made so far have been answered (or failed).
  func afterPendingCalls(_ body: @escaping () -> Void) {
    guard state != .dead, hasPendingCalls else { return body() }
    pending.append(.marker(body))
  }

  /// Starts hosting `driver` (its start is being sent).
  func host(_ driver: WorkerTransitionDriver) {
    hosted[driver.number] = driver
  }

  /// `driver` ended or was lost.
  func release(_ driver: WorkerTransitionDriver) {
    if hosted[driver.number] === driver { hosted[driver.number] = nil }
  }

  /// Asks it to exit (after the calls already sent); a worker that lingers is killed by `reapIfOverdue`.
  func requestExit() {
    guard state == .running else { return }
    state = .exiting
    exitRequestedAt = .now()
    var message = MessageWriter(.exit)
    send(message.finish())
  }

  /// Kills it now (SIGKILL) and handles its end as a hang (`timeout` seconds) or a broken rule (`detail`).
  func kill(hungAfter timeout: Double? = nil, detail: String? = nil) {
    guard state != .dead else { return }
    try? process.send(SIGKILL)
    die(hungAfter: timeout, detail: detail, killedByHost: true)
  }

  /// Kills it without a crash report, because the host is ending (SIGTERM, `exit`) and it did not answer in time:
  /// each transition it hosted ends cancelled with `reason`, showing its restored start state; the calls it owed
  /// complete as abandoned (−32800, as every request still waiting then).
  func abandon(reason: String) {
    guard state != .dead else { return }
    state = .dead
    try? process.send(SIGKILL)
    unwatchAll()
    _ = reap()
    readLog()
    flushLogLine()
    for descriptor in [channel, logPipe, exitWatch] { try? descriptor.close() }
    let calls = pending[pendingHead...]
    let answered = takeHeadItemsAnswered()
    pending = []
    pendingHead = 0
    for driver in hosted.values.sorted(by: { $0.number < $1.number }) { driver.abandon(reason: reason) }
    hosted = [:]
    for (position, call) in zip(calls.indices, calls) {
      switch call {
      case .terminate(_, let completion): completion(nil)
      case .marker(let body): body()
      case .load(let completion):
        completion(.failure(ResponseError(code: .requestCancelled, message: "Request cancelled: the host is exiting.")))
      case .start(_, let completion), .perform(_, _, let completion): completion(.failure(.abandoned), nil)
      case .advance(let batch, let each, let completion):
        for (index, _) in batch.dropFirst(position == calls.startIndex ? answered : 0) {
          each(index, .failure(.abandoned), nil)
        }
        completion()
      case .sample(_, let completion): completion(.failure(.abandoned))
      case .timeline(_, let completion): completion(.failure(.abandoned))
      case .sceneOpen(_, let completion):
        completion(.failure(ResponseError(code: .requestCancelled, message: "Request cancelled: the host is exiting.")))
      case .sceneGesture(_, let completion): completion(.failure(.abandoned))
      }
    }
    owner?.workerExited(self)
  }

  // MARK: The watchdog

  /// Kills the worker if one call into plugin code has run longer than `--plugin-timeout`, or if it owes an answer
  /// and has made no progress at all for `stallTimeout`. Returns whether it is still alive.
  @discardableResult
  func checkWatchdog(now: MonotonicInstant) -> Bool {
    guard state != .dead else { return false }
    if state == .exiting {
      if let asked = exitRequestedAt, now.seconds(since: asked) > 1 { kill(detail: "it did not exit when asked") }
      return state != .dead
    }
    let reading = page.read()
    if let reading, reading.depth > 0,
      now.seconds(since: MonotonicInstant(nanoseconds: reading.since)) > settings.pluginTimeout
    {
      kill(hungAfter: settings.pluginTimeout)
      return false
    }
    guard hasPendingCalls else { return true }
    if let reading, reading.progress != lastProgress {
      lastProgress = reading.progress
      lastProgressAt = now
    } else if now.seconds(since: lastProgressAt) > settings.stallTimeout {
      kill(hungAfter: settings.stallTimeout)
      return false
    }
    return true
  }

  // MARK: Descriptors

  /// The descriptors to poll and their handlers (for `pump`, when the host's loop is not running).
  var pollSet: [(entry: PollEntry, handler: (PollEvents) -> Void)] {
    guard state != .dead else { return [] }
    return [
      (PollEntry(channel, outboundStart < outbound.count ? [.readable, .writable] : .readable), channelReady),
      (PollEntry(logPipe, .readable), { [weak self] _ in self?.readLog() }),
      (PollEntry(exitWatch, .readable), { [weak self] _ in self?.processEnded() }),
    ]
  }

  private func updateWatching() {
    guard let watcher, state != .dead else { return }
    watcher.watch(channel, for: outboundStart < outbound.count ? [.readable, .writable] : .readable) {
      [weak self] in self?.channelReady($0)
    }
    watcher.watch(logPipe, for: .readable) { [weak self] _ in self?.readLog() }
    watcher.watch(exitWatch, for: .readable) { [weak self] _ in self?.processEnded() }
  }

  private func unwatchAll() {
    guard let watcher else { return }
    for descriptor in [channel, logPipe, exitWatch] { watcher.unwatch(descriptor) }
  }

  private func channelReady(_ events: PollEvents) {
    if events.contains(.writable) { flushOutbound() }
    if !events.subtracting(.writable).isEmpty { readChannel() }
  }

  // MARK: Writing

  /// How many bytes of calls wait to be written to the worker: the host reads no more of its input while a live
  /// worker's backlog is past `WorkerPlugins.backlogLimit` (`isBackedUp`).
  var unwrittenByteCount: Int { state == .dead ? 0 : outbound.count - outboundStart }

  private func send(_ message: [UInt8]) {
    let wasIdle = outboundStart == outbound.count
    outbound += message
    if wasIdle { flushOutbound() }
  }

  private func flushOutbound() {
    guard state != .dead else { return }
    while outboundStart < outbound.count {
      let written: Int
      do {
        written = try channel.write(outbound, outboundStart..<outbound.count)
      } catch .wouldBlock {
        break
      } catch {
        // The worker closed its end: its exit (or its death) comes through the pidfd.
        outbound = []
        outboundStart = 0
        break
      }
      outboundStart += written
    }
    if outboundStart == outbound.count {
      outbound.removeAll(keepingCapacity: outbound.capacity <= 1 << 20)
      outboundStart = 0
    } else if outboundStart >= 1 << 16 && outboundStart >= outbound.count - outboundStart {
      // A worker that never quite catches up (thousands of starts pipelined) would otherwise keep every message ever
      // sent in the buffer: the written front is dropped once it is the larger half (a copy of less than it).
      outbound.removeFirst(outboundStart)
      outboundStart = 0
    }
    updateWatching()
  }

  // MARK: Reading

  /// Reused by every read (a fresh 64 KB buffer per read would cost more than the read).
  private var readBuffer = [UInt8](repeating: 0, count: 1 << 16)

  private func readChannel() {
    var buffer = readBuffer
    readBuffer = []
    defer { readBuffer = buffer }
    // Bounded per turn, so one chatty worker cannot starve the rest of the loop.
    for _ in 0..<32 {
      guard state != .dead else { return }
      let count: Int
      do {
        count = try channel.read(into: &buffer)
      } catch .wouldBlock {
        return
      } catch {
        count = 0
      }
      guard count > 0 else {
        if state == .exiting {
          awaitExit()
        } else {
          die(closedChannel: true)
        }
        return
      }
      do {
        try buffer.withUnsafeBytes { bytes in
          Result { () throws(ChannelError) in
            try deframer.feed(UnsafeRawBufferPointer(rebasing: bytes[..<count])) { kind, payload throws(ChannelError) in
              try receive(kind, payload)
            }
          }
        }.get()
      } catch {
        kill(detail: "it broke the channel's rules: \(error.description)")
        return
      }
      // A short read emptied the socket: the next read would only say EAGAIN (a system call per round trip); what
      // arrives meanwhile makes the descriptor readable for the loop's next poll.
      if count < buffer.count { return }
    }
  }

  private func receive(_ rawKind: UInt8, _ payload: UnsafeRawBufferPointer) throws(ChannelError) {
    guard state != .dead else { return }
    var reader = MessageReader(payload)
    switch MessageKind(rawValue: rawKind) {
    case .log?:
      let record = try reader.logRecord()
      try reader.expectEnd()
      owner?.workerLogged(record)
    case .event?:
      let number = try reader.int()
      let event = try reader.event()
      try reader.expectEnd()
      guard let driver = hosted[number] else { throw ChannelError("an event of t\(number), which it does not run") }
      driver.deliver(event)
    case .frameAhead?:
      let number = try reader.int()
      let ticket = try reader.int()
      let frame = try reader.bytes()
      try reader.expectEnd()
      // One of a transition that ended meanwhile (or was abandoned) is nobody's.
      try hosted[number]?.receiveFrameAhead(ticket: ticket, frame)
    case .replyPart?:
      guard hasPendingCalls, case .advance(let batch, let each, _) = pending[pendingHead] else {
        throw ChannelError("a part of an answer that is not a batch's")
      }
      let count = try reader.count()
      guard count <= batch.count - headItemsAnswered else { throw ChannelError("a batch answer of the wrong length") }
      try answerItems(of: batch, count: count, each, &reader)
      try reader.expectEnd()
    case .reply?:
      guard hasPendingCalls else { throw ChannelError("an answer nobody asked for") }
      let call = pending[pendingHead]
      pendingHead += 1
      do throws(ChannelError) {
        try answer(call, &reader)
        try reader.expectEnd()
      } catch {
        // Not answered after all: the call fails with the worker's death, as the ones after it do (a batch's items
        // that were answered stay answered: `headItemsAnswered` counts them).
        pendingHead -= 1
        throw error
      }
      headItemsAnswered = 0
      runMarkers()
      compactPending()
    default:
      throw ChannelError("a message of kind \(rawKind)")
    }
  }

  private func answer(_ call: PendingCall, _ reader: inout MessageReader) throws(ChannelError) {
    switch call {
    case .load(let completion):
      if try reader.u8() == 0 {
        let info = try reader.pluginInfo()
        if let pluginID, info.id != pluginID {
          throw ChannelError("it loaded plugin \(info.id) instead of \(pluginID)")
        }
        pluginID = info.id
        completion(.success(info))
      } else {
        completion(.failure(try reader.responseError()))
      }
    case .start(let driver, let completion):
      let result = try reader.commandResult()
      let status = try reader.status()
      let restore = try reader.optional { (r: inout MessageReader) throws(ChannelError) in Array(try r.bytes()) }
      if let restore, let problem = restore.withUnsafeBytes({ FrameCheck.arrayProblem($0) }) {
        throw ChannelError("start views of \(driver.id) that are \(problem)")
      }
      try finishCall(driver, result, status, &reader) { result, frame in
        driver.restoreViews = restore
        completion(result, frame)
      }
      // A start that failed made no transition: the worker forgot it already.
      if case .failure = result { driver.startFailed() }
    case .perform(let driver, let ahead, let completion):
      let result = try reader.commandResult()
      let status = try reader.status()
      let isAhead = try reader.bool()
      // One sent early was counted when it was taken; a frame in that answer is the next one (the call was not the
      // quiet advance the frame showed).
      if isAhead, case .sent = ahead {} else if isAhead { driver.framesSentAhead += 1 }
      try finishCall(driver, result, status, &reader, held: isAhead ? ahead : .none, completion)
    case .advance(let batch, let each, let completion):
      let count = try reader.count()
      guard count == batch.count - headItemsAnswered else { throw ChannelError("a batch answer of the wrong length") }
      try answerItems(of: batch, count: count, each, &reader)
      completion()
    case .terminate(let driver, let completion):
      let status = try reader.status()
      try finishCall(driver, .success(.done), status, &reader) { completion($1) }
    case .sample(let driver, let completion):
      if try reader.u8() == 0 {
        // Written into the reply as it is: exactly one frame object of this transition, or the worker broke a rule.
        let text = try reader.bytes()
        if let problem = FrameCheck.objectProblem(text, transition: driver.id) {
          throw ChannelError("a sample of \(driver.id): \(problem)")
        }
        completion(.success(text))
      } else {
        completion(.failure(.engine(try reader.transitionError())))
      }
    case .timeline(let driver, let completion):
      if try reader.u8() == 0 {
        // The worker's JSON text, parsed (it runs plugin code: what it sends is checked, never trusted).
        let text = try reader.bytes()
        let json: JSON
        do { json = try JSON.parse(text) } catch { throw ChannelError("a timeline of \(driver.id): \(error)") }
        guard json["transition"]?.stringValue == driver.id else {
          throw ChannelError("a timeline of \(driver.id) that is not its timeline object")
        }
        completion(.success(json))
      } else {
        completion(.failure(.engine(try reader.transitionError())))
      }
    case .marker:
      throw ChannelError("an answer to a marker")
    case .sceneOpen(_, let completion):
      completion(try reader.u8() == 0 ? .success(()) : .failure(try reader.responseError()))
    case .sceneGesture(_, let completion):
      completion(try reader.sceneGestureOutcome())
    }
  }

  /// Answers the next `count` items of the batch at the head of the queue, each as soon as it is read.
  private func answerItems(
    of batch: [(index: Int, driver: WorkerTransitionDriver)], count: Int, _ each: BatchCompletion,
    _ reader: inout MessageReader
  ) throws(ChannelError) {
    for (index, driver) in batch[headItemsAnswered..<(headItemsAnswered + count)] {
      let result = try reader.commandResult()
      let status = try reader.status()
      try finishCall(driver, result, status, &reader) { each(index, $0, $1) }
      headItemsAnswered += 1
    }
  }

  /// The head call's items answered so far, reset to 0 (its remaining items are about to fail).
  private func takeHeadItemsAnswered() -> Int {
    defer { headItemsAnswered = 0 }
    return headItemsAnswered
  }

  /// Applies a call's status and frame to its driver (the frame checked: see FrameCheck), then completes it. `held`: the
  /// frame built ahead that the parent holds and the answer says was sent; the answer then carries no frame of its own.
  private func finishCall(
    _ driver: WorkerTransitionDriver, _ result: Result<TransitionCommandResult, DriverError>,
    _ status: TransitionStatus, _ reader: inout MessageReader, held: PendingAhead = .none,
    _ completion: DriverCompletion
  ) throws(ChannelError) {
    let frame = try reader.optional { (r: inout MessageReader) throws(ChannelError) in try r.bytes() }
    guard !driver.isOver else {
      // Answered after the transition was lost (it cannot be: a lost one's worker is dead) or ended: no frame.
      return completion(result, nil)
    }
    if frame == nil {
      switch held {
      case .none: break
      case .held(let seq, let text):
        // Checked when it arrived, as frame `seq`; nothing was forwarded since (every call drops a held frame).
        guard seq == driver.nextSeq else { throw ChannelError("a frame built ahead that is no longer the next") }
        driver.nextSeq += 1
        driver.apply(status)
        return text.withUnsafeBytes { completion(result, $0) }
      case .sent:
        // The client has it already.
        driver.apply(status)
        return completion(result, nil)
      }
    }
    if let frame {
      if let problem = FrameCheck.problem(frame, transition: driver.id, seq: driver.nextSeq) {
        throw ChannelError(problem)
      }
      driver.nextSeq += 1
    }
    driver.apply(status)
    completion(result, frame)
  }

  private func runMarkers() {
    while hasPendingCalls, case .marker(let body) = pending[pendingHead] {
      pendingHead += 1
      body()
    }
  }

  private func compactPending() {
    if pendingHead == pending.count {
      pending.removeAll(keepingCapacity: true)
      pendingHead = 0
    } else if pendingHead > 1024 {
      pending.removeFirst(pendingHead)
      pendingHead = 0
    }
  }

  private func readLog() {
    var buffer = readBuffer.isEmpty ? [UInt8](repeating: 0, count: 1 << 14) : readBuffer
    readBuffer = []
    defer { if buffer.count == 1 << 16 { readBuffer = buffer } }
    for _ in 0..<16 {
      let count: Int
      do {
        count = try logPipe.read(into: &buffer)
      } catch .wouldBlock {
        return
      } catch {
        count = 0
      }
      guard count > 0 else {
        flushLogLine()
        watcher?.unwatch(logPipe)
        return
      }
      for byte in buffer[..<count] {
        logLine.append(byte)
        if byte == 10 { flushLogLine() }
      }
      if logLine.count > 1 << 16 { flushLogLine() }
    }
  }

  /// Forwards the line to the host's stderr whole, and keeps it for a crash report.
  private func flushLogLine() {
    guard !logLine.isEmpty else { return }
    if logLine.last != 10 { logLine.append(10) }
    try? FileDescriptor.standardError.writeAll(logLine)
    let text = String(decoding: logLine.dropLast(), as: UTF8.self)
    logLine.removeAll(keepingCapacity: true)
    guard !text.allSatisfy(\.isWhitespace), !Self.isStackTraceLine(text) else { return }
    stderrTail.append(text.count > Self.tailLineLength ? String(text.prefix(Self.tailLineLength)) + "…" : text)
    if stderrTail.count > Self.tailLines { stderrTail.removeFirst(stderrTail.count - Self.tailLines) }
  }

  /// Whether `line` is part of a stack trace the Swift runtime prints after a fatal error ("Current stack trace:",
  /// then "12   libswiftCore.so   0x00007f… symbol + 9"): forwarded to the log, but kept out of the crash report's
  /// tail, which the error message line before it explains better.
  static func isStackTraceLine(_ line: String) -> Bool {
    if line.hasPrefix("Current stack trace:") { return true }
    let fields = line.split(separator: " ", omittingEmptySubsequences: true)
    return fields.count >= 3 && fields[0].allSatisfy(\.isNumber) && fields[2].hasPrefix("0x")
  }

  // MARK: Ending

  private func processEnded() {
    if state == .exiting {
      awaitExit()
    } else {
      die()
    }
  }

  /// An exit it was asked for: reaped quietly.
  private func awaitExit() {
    guard state != .dead else { return }
    die()
  }

  /// The fault every call to a dead worker fails with.
  private var deadFault: PluginFault {
    lastFault ?? PluginFault(kind: .crashed, plugin: pluginID, path: path, detail: "its worker has ended")
  }
  private var lastFault: PluginFault?

  /// Handles its end, whatever caused it: reaps the process, reads its last stderr lines and its watchdog page, then
  /// (unless it was asked to exit) tells the owner, ends every transition it hosted and fails every call it owed.
  private func die(
    hungAfter timeout: Double? = nil, detail: String? = nil, closedChannel: Bool = false, killedByHost: Bool = false
  ) {
    guard state != .dead else { return }
    let wasExiting = state == .exiting && timeout == nil && detail == nil
    state = .dead
    let reading = page.read()
    unwatchAll()
    let (termination, killed) = reap()
    var detail = detail
    // A worker whose channel closed and that had to be killed closed it itself (a plugin can close any descriptor).
    if closedChannel && killed { detail = "it closed its channel and did not exit" }
    let killedByHost = killedByHost || killed
    if termination != .exited(0) { PrivateCopy.removeAbandonedFolders() }
    readLog()
    flushLogLine()
    for descriptor in [channel, logPipe, exitWatch] { try? descriptor.close() }
    let calls = pending[pendingHead...]
    let answered = takeHeadItemsAnswered()
    pending = []
    pendingHead = 0
    let lost = hosted.values.sorted { $0.number < $1.number }
    hosted = [:]
    let lostScenes = scenes.values.sorted { $0.number < $1.number }
    scenes = [:]
    if wasExiting && lost.isEmpty && !calls.contains(where: { if case .marker = $0 { false } else { true } }) {
      for call in calls { if case .marker(let body) = call { body() } }
      // Scenes end with the worker that was told to exit (the plugin was unloaded or the host exits): no crash.
      _ = lostScenes
      owner?.workerExited(self)
      return
    }
    let number =
      reading.flatMap { $0.depth > 0 && $0.transition > 0 ? $0.transition : nil }
      ?? calls.lazy.compactMap(\.transitionNumber).first
    let driver = number.flatMap { n in lost.first { $0.number == n } }
    // A transition whose start was never answered has no id the client knows.
    let named = driver.flatMap { $0.hasStarted ? $0 : nil }
    let fault = PluginFault(
      kind: timeout.map { .hung(timeout: $0) } ?? .crashed, plugin: pluginID, path: path,
      animator: driver?.animator.qualifiedID, transition: named?.id,
      phase: reading.flatMap { $0.depth > 0 ? $0.call?.name : nil },
      // Killed by the host for what `detail` says: its SIGKILL says nothing more.
      termination: detail != nil && killedByHost ? nil : termination, detail: detail, stderrTail: stderrTail)
    lastFault = fault
    owner?.workerDied(self, fault)
    for driver in lost { driver.lose(fault) }
    for scene in lostScenes { scene.lose(fault) }
    for (position, call) in zip(calls.indices, calls) {
      fail(call, with: fault, itemsAnswered: position == calls.startIndex ? answered : 0)
    }
    owner?.workerExited(self)
  }

  /// Completes `call` with `fault` (of a batch, the items after the first `itemsAnswered`, which its parts answered).
  private func fail(_ call: PendingCall, with fault: PluginFault, itemsAnswered: Int = 0) {
    switch call {
    case .load(let completion): completion(.failure(fault.loadError))
    case .start(_, let completion), .perform(_, _, let completion): completion(.failure(.fault(fault)), nil)
    case .advance(let batch, let each, let completion):
      for (index, _) in batch.dropFirst(itemsAnswered) { each(index, .failure(.fault(fault)), nil) }
      completion()
    case .terminate(_, let completion): completion(nil)
    case .sample(_, let completion): completion(.failure(.fault(fault)))
    case .timeline(_, let completion): completion(.failure(.fault(fault)))
    case .marker(let body): body()
    case .sceneOpen(_, let completion): completion(.failure(fault.responseError))
    case .sceneGesture(_, let completion): completion(.failure(.fault(fault)))
    }
  }

  /// Waits for the process to end (briefly: it is ending, or about to be killed) and reaps it; `killed` when it had
  /// to be killed here.
  private func reap() -> (status: TerminationStatus?, killed: Bool) {
    if let status = try? process.wait(blocking: false) { return (status, false) }
    var entries = [PollEntry(exitWatch, .readable)]
    _ = try? FileDescriptor.poll(&entries, timeoutMilliseconds: 200)
    if let status = try? process.wait(blocking: false) { return (status, false) }
    // Alive although its channel is gone, or not ending when asked: it goes now.
    try? process.send(SIGKILL)
    return (try? process.wait(), true)
  }
}
