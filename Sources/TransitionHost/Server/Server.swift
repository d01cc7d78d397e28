import Glibc
import JSON
import JSONRPC
import POSIX
import PluginHost
import TransitionService

/// Why the server ends everything that is still running.
package enum TerminationReason: Equatable, Sendable {
  /// SIGTERM or SIGINT arrived.
  case signal(Int32)
  /// The client sent `exit`.
  case exitNotification
  /// stdout was closed by the client (`EPIPE`): nobody can read replies any more.
  case outputClosed
}

/// The JSON-RPC server on stdin/stdout: the event loop, framing, lifecycle, and the hooks the protocol layer
/// uses.
///
/// One thread does everything: each turn of `loop` reads at most one chunk of stdin, decodes every message it
/// completed, collapses superseded notifications (`coalescingKey`), dispatches the rest in order, fires due
/// timers, and writes all the output of the turn with as few `write(2)` calls as possible before it waits
/// again. Replies are therefore on the wire as soon as the chunk that asked for them has been handled.
///
/// Lifecycle (see Protocol.md): `initialize` is optional; `shutdown` answers null and turns later requests into
/// −32600; `exit` ends the process with status 0 (with or without `shutdown`); at stdin end of file the server
/// calls `onInputClosed` and keeps running while `hasPendingWork()` (or a request awaits its reply) and a timer
/// can still change that; SIGTERM or SIGINT call `onTerminate`, answer pending requests, flush for at most
/// `terminationGrace` seconds and end with status 0. A closed stdout ends it quietly with status 0.
///
/// - Important: Not thread-safe: hooks, handlers and timers all run on the thread that calls `run()`.
package final class Server {
  /// What the server was started with.
  package struct Configuration: Sendable {
    /// How messages are delimited, both ways.
    package var framing: Framing = .newline
    /// The longest message accepted; longer ones get −32600 and are skipped without being held in memory.
    package var maxMessageBytes = Framing.defaultMaxMessageBytes
    /// How much stdin one turn reads at most (bounds the work done between two timer checks).
    package var readChunkBytes = 64 * 1024
    /// How long replies may take to drain after SIGTERM before the process ends anyway (seconds).
    package var terminationGrace = 0.9

    package init(framing: Framing = .newline, maxMessageBytes: Int = Framing.defaultMaxMessageBytes) {
      self.framing = framing
      self.maxMessageBytes = maxMessageBytes
    }

    /// The configuration the command-line options ask for.
    package init(options: HostOptions) {
      self.init(framing: options.framing, maxMessageBytes: options.maxMessageBytes)
    }
  }

  /// The event loop: schedule frame timers here (`schedule(at:)`, `schedule(after:)`, `cancel`).
  package let loop = EventLoop()
  /// The JSON-RPC dispatcher (handlers, pending requests, `$/cancelRequest`).
  package let dispatcher: Dispatcher
  /// Log lines to stderr.
  package let logger: Logger
  /// The configuration in force.
  package let configuration: Configuration

  // MARK: Hooks for the protocol layer

  /// Returns a key for a notification that later ones with the same key supersede (e.g.
  /// `transition/update:t1`), or nil to always deliver it. Among the notifications decoded from one read of
  /// stdin, only the last of each key is dispatched, at its own position. Requests (with an id) are never
  /// collapsed.
  package var coalescingKey: ((Request) -> String?)?
  /// Called once when stdin reaches end of file (after the messages it completed were dispatched).
  package var onInputClosed: () -> Void = {}
  /// Whether the server must keep running after stdin closed (e.g. real-time transitions still playing).
  package var hasPendingWork: () -> Bool = { false }
  /// Called once when the server ends everything early (signal, `exit`, closed stdout), before pending
  /// requests are answered and the output is flushed; notifications sent here still go out.
  package var onTerminate: (TerminationReason) -> Void = { _ in }
  /// Called once as the server ends, whatever ends it, after `onTerminate` and before the last flush: helper processes
  /// go here (the host must not leave any behind).
  package var onExit: () -> Void = {}
  /// Whether to read no more input for now (flow control: what was read waits for a helper process to take it). Asked
  /// before every wait; stdin is watched again as soon as it says false, and end of input is noticed only then.
  package var shouldPauseInput: () -> Bool = { false }
  /// Called when `shutdown` is received, before its reply.
  package var onShutdown: () -> Void = {}
  /// What `initialize` reports under `capabilities`.
  package var capabilities: ServerCapabilities

  // MARK: State

  /// True after `shutdown`: requests are refused with −32600 and notifications other than `exit` dropped.
  package private(set) var isShutDown = false
  /// True once `initialize` was answered.
  package private(set) var isInitialized = false
  /// The `clientInfo` of the last `initialize`, if any.
  package private(set) var clientInfo: JSON?
  /// True once stdin reached end of file (or failed).
  package private(set) var isInputClosed = false

  private let input: FileDescriptor
  private let output: OutputChannel
  private let signals: SignalPipe?
  private var framer: AnyMessageFramer
  private var readBuffer: [UInt8]
  /// Messages decoded from the current chunk, waiting for coalescing and dispatch.
  private var queue: [Queued] = []
  private var exitRequested = false
  /// Whether stdin is out of the loop's watched set because `shouldPauseInput` said so.
  private var isInputPaused = false
  private var terminatingSignal: Int32?

  private enum Queued {
    case message(DecodedMessage)
    case reject(ResponseError)
  }

  /// A server reading `input` and writing `output` (neither is closed by the server).
  ///
  /// - Parameter signals: the self-pipe SIGTERM/SIGINT arrive on; nil in tests that do not need it.
  package init(
    configuration: Configuration = Configuration(),
    input: FileDescriptor,
    output: FileDescriptor,
    signals: SignalPipe? = nil,
    logger: Logger = Logger()
  ) {
    self.configuration = configuration
    self.input = input
    self.signals = signals
    self.logger = logger
    self.output = OutputChannel(descriptor: output, framing: configuration.framing)
    self.output.interruptDescriptor = signals?.readEnd
    dispatcher = Dispatcher()
    framer = configuration.framing.makeFramer(maxMessageBytes: configuration.maxMessageBytes)
    readBuffer = [UInt8](repeating: 0, count: configuration.readChunkBytes)
    capabilities = ServerCapabilities(maxMessageBytes: configuration.maxMessageBytes)
    dispatcher.output = { [unowned output = self.output] body in output.appendMessage(body) }
    // Replies and frames are written straight into the output buffer.
    dispatcher.sink = self.output
    dispatcher.log = { [logger] message in logger.warn(message) }
    registerLifecycle()
  }

  // MARK: API for the protocol layer

  /// Registers (or replaces) the handler of `method`: it replies through the responder now or later.
  package func register(method: String, handler: @escaping Dispatcher.Handler) {
    dispatcher.register(method, handler)
  }

  /// Registers a handler that answers before it returns (a thrown `ResponseError` is the error reply).
  package func register(method: String, returning handler: @escaping (Request) throws -> JSON) {
    dispatcher.register(method, returning: handler)
  }

  /// Sends a notification to the client (written at the end of the current turn of the loop).
  package func sendNotification(_ method: String, _ params: JSON? = nil) {
    dispatcher.sendNotification(method, params)
  }

  // MARK: Running

  /// Serves until `exit`, end of input with no pending work, a signal, or a closed stdout.
  ///
  /// - Returns: the process exit status (0 in every one of those cases).
  package func run() -> Int32 {
    if let signals { loop.watchReadable(signals.readEnd) { [unowned self] _ in handleSignals() } }
    watchInput()
    while true {
      if terminatingSignal == nil && output.flush() == .closed { return finish(.outputClosed) }
      if output.isInterrupted { handleSignals() }
      if let signal = terminatingSignal { return finish(.signal(signal)) }
      if exitRequested { return finish(.exitNotification) }
      if isInputClosed {
        if !hasPendingWork() && dispatcher.pendingRequestCount == 0 { return finish(nil) }
        if !loop.hasTimers && loop.watchedCount <= (signals == nil ? 0 : 1) {
          logger.warn("stdin closed with work pending but nothing scheduled that could finish it; exiting")
          return finish(nil)
        }
      }
      updateInputPause()
      loop.runOnce()
    }
  }

  private func watchInput() {
    loop.watchReadable(input) { [unowned self] _ in readInput() }
  }

  /// Takes stdin out of the watched set while `shouldPauseInput` says so, and puts it back once it does not.
  private func updateInputPause() {
    guard !isInputClosed else { return }
    let pause = shouldPauseInput()
    guard pause != isInputPaused else { return }
    isInputPaused = pause
    if pause {
      loop.unwatch(input)
    } else {
      watchInput()
    }
  }

  /// Ends everything still running and writes what is left. `reason` nil: a normal end (stdin closed, no
  /// pending work).
  private func finish(_ reason: TerminationReason?) -> Int32 {
    loop.unwatch(input)
    if terminatingSignal != nil {
      // From here on no write may wait past the grace period, not even those `onTerminate` causes.
      output.flushDeadline = loop.now.advanced(bySeconds: configuration.terminationGrace)
    }
    if let reason {
      logger.info("ending: \(reason)")
      onTerminate(reason)
    }
    if dispatcher.pendingRequestCount > 0 { dispatcher.failAllPending(with: Self.exiting) }
    onExit()
    while true {
      switch output.flush() {
      case .flushed, .closed, .timedOut:
        output.restoreFlags()
        return 0
      case .interrupted:
        // A signal during the final flush: keep flushing, but only for the grace period.
        _ = signals?.drain()
        if output.flushDeadline == nil {
          output.flushDeadline = loop.now.advanced(bySeconds: configuration.terminationGrace)
        }
      }
    }
  }

  private func handleSignals() {
    guard let signals else { return }
    for signal in signals.drain() where signal == SIGTERM || signal == SIGINT {
      logger.info("received signal \(signal)")
      if terminatingSignal == nil { terminatingSignal = signal }
    }
  }

  // MARK: Input

  private func readInput() {
    let count: Int
    do {
      count = try input.read(into: &readBuffer, retryOnInterrupt: false)
    } catch .interrupted, .wouldBlock {
      return
    } catch {
      logger.warn("reading stdin failed (errno \(error.rawValue)); treating it as end of input")
      closeInput()
      return
    }
    guard count > 0 else { return closeInput() }
    readBuffer.withUnsafeBytes { buffer in
      framer.feed(UnsafeRawBufferPointer(rebasing: buffer[..<count])) { enqueue($0) }
    }
    dispatchQueued()
  }

  private func closeInput() {
    loop.unwatch(input)
    isInputClosed = true
    framer.finish { enqueue($0) }
    dispatchQueued()
    logger.debug("stdin closed")
    onInputClosed()
  }

  /// Takes one framing event: dispatched at once while nothing waits in the queue and it is not a notification a
  /// later one could supersede; queued otherwise (dispatchQueued then coalesces and runs the queue in order). Running
  /// a message as soon as it is decoded frees its json-c tree before the next one is parsed: decoding a whole 64 KiB
  /// chunk first kept some 1,000 trees alive, out of the cache, and cost small requests about a third of their rate.
  /// A message run at once is lent to the dispatcher where it was decoded, never copied into a `Queued` (a copy is a
  /// retain of its id's tree and of its method name, and their releases).
  private func enqueue(_ event: FramingEvent) {
    switch event {
    case .message(let body):
      // Decoding copies what it needs out of the borrowed bytes (json-c owns the parsed tree).
      let message = dispatcher.decode(body)
      if queue.isEmpty && !isCoalescible(message) {
        run(message)
      } else {
        queue.append(.message(message))
      }
    case .oversized(let limit):
      logger.info("skipped a message longer than \(limit) bytes")
      runOrQueue(.reject(.messageTooLarge(limit: limit)))
    case .framingError(let reason):
      logger.warn("framing error: \(reason)")
      runOrQueue(.reject(ResponseError(code: .parseError, message: "Parse error: \(reason).")))
    }
  }

  private func runOrQueue(_ queued: Queued) {
    if queue.isEmpty {
      run(queued)
    } else {
      queue.append(queued)
    }
  }

  /// Whether a later message of the same chunk could supersede this one.
  private func isCoalescible(_ message: DecodedMessage) -> Bool {
    // Most messages are requests: answered from the message itself, before the hook is looked at.
    guard message.isSingleNotification, let coalescingKey, let notification = message.singleNotification else {
      return false
    }
    return coalescingKey(notification) != nil
  }

  /// Collapses superseded notifications, then dispatches the queue in order.
  private func dispatchQueued() {
    guard !queue.isEmpty else { return }
    var superseded = Set<Int>()
    if let coalescingKey, queue.count > 1 {
      var latest: [String: Int] = [:]
      for index in queue.indices {
        guard case .message(let message) = queue[index], let notification = message.singleNotification,
          let key = coalescingKey(notification)
        else { continue }
        if let earlier = latest[key] { superseded.insert(earlier) }
        latest[key] = index
      }
    }
    for index in queue.indices where !superseded.contains(index) {
      if !run(queue[index]) { break }
    }
    queue.removeAll(keepingCapacity: true)
  }

  /// Dispatches one decoded message (or answers a rejected one), unless the server is past taking input; returns
  /// false once it is (`exit` ran, stdout closed), so the rest of the chunk is dropped.
  @discardableResult
  private func run(_ queued: Queued) -> Bool {
    switch queued {
    case .message(let message): return run(message)
    case .reject(let error):
      guard isTakingInput() else { return false }
      dispatcher.sendError(error)
      return true
    }
  }

  /// `run` of a decoded message.
  @discardableResult
  private func run(_ message: DecodedMessage) -> Bool {
    guard isTakingInput() else { return false }
    if terminatingSignal == nil {
      dispatch(message)
    } else if let refused = Self.refusing(message, with: Self.exiting) {
      // A signal arrived mid-chunk: what was read still gets its one reply, without running.
      dispatcher.dispatch(refused)
    }
    return true
  }

  /// Whether what was read may still run: not after `exit`, nor once stdout is closed (a signal that interrupted the
  /// output is taken in first).
  private func isTakingInput() -> Bool {
    if output.isInterrupted { handleSignals() }
    return !exitRequested && !output.isClosed
  }

  private func dispatch(_ message: DecodedMessage) {
    guard isShutDown else {
      dispatcher.dispatch(message)
      return
    }
    // After `shutdown` only `exit` runs; other requests get −32600 and other notifications are dropped.
    let refusal = ResponseError.invalidRequest("the server is shut down; only exit is accepted")
    if let kept = Self.refusing(message, with: refusal, keeping: { $0.method == "exit" }) {
      dispatcher.dispatch(kept)
    }
  }

  /// The answer to requests a signal leaves unanswered: those still pending, and those read but not yet run.
  private static let exiting = ResponseError(
    code: .requestCancelled, message: "Request cancelled: the host is exiting.")

  /// `message` with each request that `keep` rejects turned into `refusal` (with its id) and each such
  /// notification dropped; nil when nothing is left to dispatch.
  private static func refusing(
    _ message: DecodedMessage, with refusal: ResponseError, keeping keep: (Request) -> Bool = { _ in false }
  ) -> DecodedMessage? {
    func filter(_ entry: DecodedEntry) -> DecodedEntry? {
      guard case .request(let request) = entry, !keep(request) else { return entry }
      guard let id = request.id else { return nil }
      return .invalid(refusal, id: id)
    }
    switch message {
    case .single(let entry):
      return filter(entry).map { .single($0) }
    case .batch(let entries):
      let kept = entries.compactMap(filter)
      return kept.isEmpty ? nil : .batch(kept)
    case .failure:
      return message
    }
  }

  // MARK: Lifecycle methods

  private func registerLifecycle() {
    dispatcher.register(
      "initialize",
      returning: { [unowned self] request in
        if let clientInfo = try request.param("clientInfo") {
          _ = try clientInfo.object(at: "params.clientInfo")
          self.clientInfo = clientInfo
        }
        isInitialized = true
        return initializeResult
      })
    dispatcher.register("initialized") { _, _ in }
    dispatcher.register("shutdown") { [unowned self] _, responder in
      isShutDown = true
      onShutdown()
      responder.reply(.null)
    }
    dispatcher.register("exit") { [unowned self] _, responder in
      exitRequested = true
      responder.reply(.null)  // only when sent as a request; a notification gets nothing
    }
  }

  /// The result of `initialize`.
  package var initializeResult: JSON {
    [
      "serverInfo": ["name": JSON(HostIdentity.name), "version": JSON(HostIdentity.version)],
      "protocolVersion": JSON(TransitionSession.protocolVersion),
      "pluginABI": ["major": JSON(Int(ABIVersion.host.major)), "minor": JSON(Int(ABIVersion.host.minor))],
      "capabilities": capabilities.json,
    ]
  }
}
