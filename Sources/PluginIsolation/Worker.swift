// The worker process: `transition-host __worker`, one per plugin generation. It loads its plugin from the generation's
// in-memory snapshot, runs the engine and the plugin for that plugin's transitions exactly as the host does in process
// (TransitionFactory, LocalTransitionDriver: the plugin's host API calls stay in this process and synchronous), and
// answers its parent's messages one after the other on the channel. It holds neither the protocol's stdin nor its
// stdout: its stdin is /dev/null, its stdout and stderr a pipe its parent forwards to the host's log.

import Glibc
import JSON
import JSONRPC
import POSIX
import PluginHost
import Synchronization
import TransitionEngine
import TransitionService

/// The descriptors a worker finds open (ProcessSpawn gives it exactly these, above its 0, 1 and 2).
enum WorkerDescriptors {
  /// The channel to the parent (a Unix stream socket).
  static let channel = FileDescriptor(rawValue: 3)
  /// The watchdog page (mapped, then closed).
  static let watchdog = FileDescriptor(rawValue: 4)
  /// The plugin generation's bytes (a sealed memory file).
  static let image = FileDescriptor(rawValue: 5)
}

/// How a worker is started: `transition-host __worker` and these options (what `WorkerLaunch.arguments` writes).
struct WorkerOptions: Equatable {
  /// The pid the worker must have as its parent (it exits at once otherwise: the parent is gone already).
  var parent: pid_t
  /// Plugin log lines below this level are dropped.
  var logLevel: PluginLogLevel
  /// The worker's memory limit in bytes (`--plugin-memory-limit`), 0 for none.
  var memoryLimit: UInt64
  /// The plugin file it stands for (the snapshot's origin: what the plugin and its errors are told, and the real path
  /// its private copy is laid out at).
  var file: PluginFile

  /// The hidden mode's name: the first argument.
  static let mode = "__worker"

  var arguments: [String] {
    [
      Self.mode, "--parent", String(parent), "--log-level", String(logLevel.rawValue), "--memory-limit",
      String(memoryLimit), "--path", file.path, "--real-path", file.realPath,
    ]
  }

  init(parent: pid_t, logLevel: PluginLogLevel, memoryLimit: UInt64, file: PluginFile) {
    self.parent = parent
    self.logLevel = logLevel
    self.memoryLimit = memoryLimit
    self.file = file
  }

  /// Parses `arguments` (after the mode).
  init?(arguments: [String]) {
    var values: [String: String] = [:]
    var index = 0
    while index + 1 < arguments.count {
      values[arguments[index]] = arguments[index + 1]
      index += 2
    }
    guard index == arguments.count, let parent = values["--parent"].flatMap({ pid_t($0) }),
      let level = values["--log-level"].flatMap({ Int($0) }).flatMap({ PluginLogLevel(rawValue: $0) }),
      let limit = values["--memory-limit"].flatMap({ UInt64($0) }), let path = values["--path"],
      let realPath = values["--real-path"]
    else { return nil }
    self.init(parent: parent, logLevel: level, memoryLimit: limit, file: PluginFile(path: path, realPath: realPath))
  }
}

/// The worker's side of the channel.
package enum WorkerMain {
  /// The hidden first argument that makes `transition-host` a worker.
  package static let mode = WorkerOptions.mode

  /// Runs the worker mode with `arguments` (after `__worker`); returns the exit status when the parent is done with it.
  package static func run(arguments: [String]) -> Int32 {
    guard let options = WorkerOptions(arguments: arguments) else {
      try? FileDescriptor.standardError.writeAll("transition-host: __worker is for the host's own use\n")
      return 2
    }
    // Die with the parent, whatever kills it; a parent already gone (we are an orphan) means nobody wants us.
    try? ProcessID.setParentDeathSignal(SIGKILL)
    guard ProcessID.parent.rawValue == options.parent else { return 0 }
    signal(SIGPIPE, SIG_IGN)
    let page: WatchdogPage
    do {
      page = try WatchdogPage.map(WorkerDescriptors.watchdog)
    } catch {
      try? FileDescriptor.standardError.writeAll("transition-host: worker: cannot map its watchdog page: \(error)\n")
      return 1
    }
    // Mapped, the descriptor is of no more use, and a plugin that scans its descriptors must not find it.
    try? WorkerDescriptors.watchdog.close()
    if options.memoryLimit > 0 { try? ResourceLimit.data.set(options.memoryLimit) }
    let worker = Worker(options: options, page: page)
    return worker.serve()
  }
}

/// Writes messages to the parent: from the worker's thread (replies, events) and from any plugin thread (log lines),
/// each message whole.
final class ChannelWriter: Sendable {
  private let lock = Mutex(())
  private let descriptor: FileDescriptor

  init(_ descriptor: FileDescriptor) {
    self.descriptor = descriptor
  }

  /// Sends one message; the parent having gone (a broken channel) ends the worker.
  func send(_ message: [UInt8]) {
    lock.withLock { _ in
      do {
        try descriptor.writeAll(message)
      } catch {
        PrivateCopy.removeProcessFolder()
        _exit(0)
      }
    }
  }
}

/// One worker's plugin and transitions.
final class Worker {
  private let options: WorkerOptions
  let recorder: WatchdogRecorder
  let channel = ChannelWriter(WorkerDescriptors.channel)
  let registry: PluginRegistry
  private let factory: TransitionFactory
  /// Live transitions by the parent's number.
  private var transitions: [Int: LocalTransitionDriver] = [:]
  /// Open scenes by the parent's number (WorkerScene.swift).
  var scenes: [Int: SceneRunner] = [:]

  init(options: WorkerOptions, page: WatchdogPage) {
    self.options = options
    self.recorder = WatchdogRecorder(page: page)
    let channel = self.channel
    let minimum = options.logLevel
    let stderr = PluginLogger.standardError(minimumLevel: minimum)
    // Each line goes to stderr (the parent forwards it to the host's log) and to the parent, for window/logMessage.
    let logger = PluginLogger { record in
      guard record.level >= minimum else { return }
      stderr.write(record)
      var message = MessageWriter(.log)
      message.logRecord(record)
      channel.send(message.finish())
    }
    registry = PluginRegistry(searchPath: PluginSearchPath(builtInFolder: nil), allowAnyPath: true, logger: logger)
    factory = TransitionFactory(catalog: PluginAnimatorCatalog(registry: registry))
    PluginCallMonitor.observer = recorder
  }

  /// Reads and answers messages until the parent closes the channel or says `exit`.
  func serve() -> Int32 {
    var deframer = MessageDeframer()
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count: Int
      do {
        count = try WorkerDescriptors.channel.read(into: &buffer)
      } catch {
        return 0
      }
      guard count > 0 else { return 0 }
      do {
        try buffer.withUnsafeBytes { bytes in
          Result { () throws(ChannelError) in
            try deframer.feed(UnsafeRawBufferPointer(rebasing: bytes[..<count])) { kind, payload throws(ChannelError) in
              try handle(kind, payload)
            }
          }
        }.get()
      } catch {
        try? FileDescriptor.standardError.writeAll("transition-host: worker: \(error); exiting\n")
        return 3
      }
    }
  }

  private func handle(_ rawKind: UInt8, _ payload: UnsafeRawBufferPointer) throws(ChannelError) {
    recorder.markProgress()
    guard let kind = MessageKind(rawValue: rawKind) else { throw ChannelError("unknown message kind \(rawKind)") }
    var reader = MessageReader(payload)
    switch kind {
    case .load:
      try reader.expectEnd()
      load()
    case .start: try start(&reader)
    case .perform:
      let number = try reader.int()
      let command = try reader.command()
      let stream = try reader.bool()
      guard let ahead = AheadUse(rawValue: try reader.u8()) else {
        throw ChannelError("an unknown use of a frame ahead")
      }
      try reader.expectEnd()
      perform(number, command, stream: stream, ahead: ahead)
    case .advance:
      let dt = try reader.double()
      var numbers: [Int] = []
      for _ in 0..<(try reader.count()) { numbers.append(try reader.int()) }
      try reader.expectEnd()
      advance(numbers, by: dt)
    case .terminate:
      let number = try reader.int()
      let reason = try reader.string()
      try reader.expectEnd()
      terminate(number, reason: reason)
    case .sample:
      let number = try reader.int()
      let moment: SampleMoment = try reader.bool() ? .time(try reader.double()) : .percent(try reader.double())
      try reader.expectEnd()
      sample(number, at: moment)
    case .exit:
      exitNow()
    case .timeline:
      let number = try reader.int()
      try reader.expectEnd()
      timeline(number)
    case .prepare:
      let number = try reader.int()
      let seconds = try reader.double()
      let ticket = try reader.int()
      try reader.expectEnd()
      prepare(number, advancingBy: seconds, ticket: ticket)
    case .sceneOpen: try openScene(&reader)
    case .sceneGesture: try sceneGesture(&reader)
    case .sceneClose:
      let number = try reader.int()
      try reader.expectEnd()
      scenes.removeValue(forKey: number)?.close()
    case .reply, .event, .log, .replyPart, .frameAhead:
      throw ChannelError("a worker-to-parent message (\(kind)) from the parent")
    }
  }

  // MARK: Plugin

  /// Loads the generation from its snapshot; replies its metadata, or the error `plugins/load` would answer.
  private func load() {
    var reply = MessageWriter(.reply)
    do {
      let loaded = try registry.load(image: WorkerDescriptors.image, file: options.file)
      reply.u8(0)
      reply.pluginInfo(loaded.info)
    } catch {
      reply.u8(1)
      reply.responseError(ResponseError.plugin(error))
    }
    channel.send(reply.finish())
  }

  /// Shuts the plugin down (its deinit runs) and ends the process at once: nothing else of the plugin's (its
  /// threads, its atexit handlers) gets to run.
  private func exitNow() -> Never {
    for (_, driver) in transitions { driver.terminate(reason: "terminated") }
    transitions = [:]
    for plugin in registry.plugins { try? registry.unload(pluginID: plugin.info.id) }
    PrivateCopy.removeProcessFolder()
    _exit(0)
  }

  // MARK: Transitions

  private func start(_ reader: inout MessageReader) throws(ChannelError) {
    let number = try reader.int()
    let animator = try reader.string()
    let operation = try reader.string()
    let treesText = try reader.bytes()
    var params: [String: ParameterValue] = [:]
    for _ in 0..<(try reader.count()) {
      let name = try reader.string()
      params[name] = try reader.parameter()
    }
    var options = TransitionOptions(isInteractive: try reader.bool())
    options.isAnimated = try reader.bool()
    options.completionSpeed = try reader.double()
    options.completionCurve = try reader.curve()
    guard let frames = FrameMode(rawValue: try reader.string()) else { throw ChannelError("an unknown frame mode") }
    let grid = try reader.optional { (r: inout MessageReader) throws(ChannelError) in try r.double() }
    let precision = try grid.map { grid throws(ChannelError) in
      guard let precision = FramePrecision(grid: grid) else { throw ChannelError("a precision of \(grid)") }
      return precision
    }
    options.interactivityFromController = try reader.bool()
    let sceneNumber = try reader.optional { (r: inout MessageReader) throws(ChannelError) in try r.int() }
    let notifiesTimeline = try reader.bool()
    try reader.expectEnd()

    recorder.transition = number
    defer { recorder.transition = 0 }
    var reply = MessageWriter(.reply)
    let driver: LocalTransitionDriver
    do throws(ResponseError) {
      guard let trees = try? JSON.parse(treesText), let container = trees["container"], let from = trees["from"],
        let to = trees["to"]
      else { throw .internalError("the trees the parent forwarded are not JSON") }
      let request = TransitionRequest(
        animator: animator, operation: TransitionOperation(name: operation),
        trees: try ViewTrees.decode(container: container, from: from, to: to), params: params, options: options)
      var adopted: AnimatorBinding?
      if let sceneNumber {
        guard let binding = scenes[sceneNumber]?.takeBinding() else {
          throw .internalError("scene s\(sceneNumber) has no transition waiting to start")
        }
        adopted = binding
      }
      do throws(TransitionStartError) {
        driver = try factory.make(factory.prepare(request), frames: frames, precision: precision, adopting: adopted)
      } catch {
        throw error.responseError
      }
    } catch {
      reply.commandResult(.failure(.refused(error)))
      reply.status(.idle)
      reply.optional(nil as [UInt8]?) { $0.bytes($1) }
      reply.optional(nil as UnsafeRawBufferPointer?) { $0.bytes($1) }
      channel.send(reply.finish())
      return
    }
    transitions[number] = driver
    driver.notifiesTimeline = notifiesTimeline
    driver.onEvent = { [channel] event in
      var message = MessageWriter(.event)
      message.int(number)
      message.event(event)
      channel.send(message.finish())
    }
    // What a cancelled transition returns to, for the parent to show should this process die.
    driver.capturesStartViews = frames != .none
    driver.start(as: "t\(number)") { result, frame in
      reply.commandResult(result)
      reply.status(driver.status)
      reply.optional(driver.startViews) { $0.bytes($1) }
      reply.optional(frame) { $0.bytes($1) }
    }
    finish(number, driver)
    channel.send(reply.finish())
  }

  /// Builds transition `number`'s next frame ahead of its tick, and sends it to the parent at once (`frameAhead`, with
  /// the parent's `ticket`), when the driver kept one.
  private func prepare(_ number: Int, advancingBy seconds: Double, ticket: Int) {
    guard let driver = transitions[number] else { return }
    driver.prepareFrame(advancingBy: seconds)
    driver.withFrameAhead { frame in
      var message = MessageWriter(.frameAhead, capacity: frame.count + 32)
      message.int(number)
      message.int(ticket)
      message.bytes(frame)
      channel.send(message.finish())
    }
  }

  /// Performs `command` on transition `number`. When the parent holds the frame the last `prepare` sent it (or sent
  /// it to the client already), a frame that is the one built ahead is not sent again: the answer only says it is.
  private func perform(_ number: Int, _ command: TransitionCommand, stream: Bool, ahead: AheadUse) {
    var reply = MessageWriter(.reply)
    guard let driver = transitions[number] else {
      reply.commandResult(.failure(.engine(.ended)))
      reply.status(.idle)
      reply.bool(false)
      reply.optional(nil as UnsafeRawBufferPointer?) { $0.bytes($1) }
      return channel.send(reply.finish())
    }
    recorder.transition = number
    defer { recorder.transition = 0 }
    let sentAhead = driver.framesSentAhead
    driver.perform(command, stream: stream, aheadAlreadySent: ahead == .sent) { result, frame in
      // Whether the frame is the one `prepare` built (the parent counts them: `framesSentAhead`).
      let isAhead = driver.framesSentAhead != sentAhead
      let sent = isAhead && ahead != .none ? nil : frame
      reply.reserve(sent?.count ?? 0)
      reply.commandResult(result)
      reply.status(driver.status)
      reply.bool(isAhead)
      reply.optional(sent) { $0.bytes($1) }
    }
    finish(number, driver)
    channel.send(reply.finish())
  }

  /// Bytes of frames after which an `advance` sends what it has as a `replyPart`: large enough that a part costs
  /// few system calls per frame, small enough that the parent forwards the first frames while the rest are made.
  static let replyPartBytes = 32 << 10

  /// Advances each transition in turn; the answer is `[u32 count][count × (result, status, frame?)]`, sent in parts
  /// of about `replyPartBytes` (`replyPart` messages, then the `reply` with the last items).
  private func advance(_ numbers: [Int], by dt: Double) {
    var part = MessageWriter(.replyPart, capacity: Self.replyPartBytes + 8 << 10)
    var items = 0
    part.u32(0)
    for (position, number) in numbers.enumerated() {
      if let driver = transitions[number] {
        recorder.transition = number
        driver.perform(.advance(seconds: dt), stream: true) { result, frame in
          part.reserve(frame?.count ?? 0)
          part.commandResult(result)
          part.status(driver.status)
          part.optional(frame) { $0.bytes($1) }
        }
        recorder.transition = 0
        recorder.markProgress()
        finish(number, driver)
      } else {
        part.commandResult(.failure(.engine(.ended)))
        part.status(.idle)
        part.optional(nil as UnsafeRawBufferPointer?) { $0.bytes($1) }
      }
      items += 1
      if part.count >= Self.replyPartBytes && position < numbers.count - 1 {
        part.setU32(UInt32(items), at: 5)
        channel.send(part.finish())
        part = MessageWriter(.replyPart, capacity: Self.replyPartBytes + 8 << 10)
        items = 0
        part.u32(0)
      }
    }
    part.setU32(UInt32(items), at: 5)
    part.setKind(.reply)
    channel.send(part.finish())
  }

  private func terminate(_ number: Int, reason: String) {
    var reply = MessageWriter(.reply)
    if let driver = transitions[number] {
      recorder.transition = number
      driver.terminate(reason: reason) { frame in
        reply.status(driver.status)
        reply.optional(frame) { $0.bytes($1) }
      }
      recorder.transition = 0
      finish(number, driver)
    } else {
      reply.status(.idle)
      reply.optional(nil as UnsafeRawBufferPointer?) { $0.bytes($1) }
    }
    channel.send(reply.finish())
  }

  private func sample(_ number: Int, at moment: SampleMoment) {
    query(number, { $0.sample(at: moment, completion: $1) }) { reply, frame in
      reply.reserve(frame.count)
      reply.bytes(frame)
    }
  }

  private func timeline(_ number: Int) {
    query(number, { $0.timeline(completion: $1) }) { reply, json in
      json.withSerializedBytes { reply.bytes($0) }
    }
  }

  /// Answers a query that lets no time pass (`sample`, `timeline`) on transition `number`: `[u8 0]` and what `write`
  /// writes of the driver's value, or `[u8 1][ended]` for a transition this worker no longer has or a driver that
  /// refuses (the parent names the error for the transition).
  private func query<Value>(
    _ number: Int, _ ask: (LocalTransitionDriver, (Result<Value, DriverError>) -> Void) -> Void,
    writing write: (inout MessageWriter, Value) -> Void
  ) {
    var reply = MessageWriter(.reply)
    guard let driver = transitions[number] else {
      reply.u8(1)
      reply.transitionError(.ended)
      return channel.send(reply.finish())
    }
    recorder.transition = number
    // The value (a sample's frame) is valid only inside the driver's completion: written there.
    withoutActuallyEscaping(write) { write in
      ask(driver) { result in
        switch result {
        case .success(let value):
          reply.u8(0)
          write(&reply, value)
        case .failure:
          reply.u8(1)
          reply.transitionError(.ended)
        }
      }
    }
    recorder.transition = 0
    channel.send(reply.finish())
  }

  /// Forgets a transition once it has ended (its reply carries its last frame).
  private func finish(_ number: Int, _ driver: LocalTransitionDriver) {
    if driver.status.state.isEnded { transitions[number] = nil }
  }
}
