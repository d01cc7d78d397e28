import Glibc
import JSONRPC
import POSIX

/// Buffered, whole-message output to the protocol descriptor.
///
/// Messages are appended to one byte buffer and written with as few `write(2)` calls as possible (one per turn
/// of the loop, typically): this is what keeps thousands of small replies cheap. The buffer is flushed at the
/// end of every turn, and earlier once it grows past `flushThreshold`, so a reply is on the wire as soon as the
/// input chunk that asked for it has been handled.
///
/// The descriptor stays blocking (it may be shared with a terminal or a parent; `O_NONBLOCK` would leak into
/// them). A write blocked on a full pipe is interrupted by SIGTERM (its handler has no `SA_RESTART`), and a
/// closed reader shows up as `EPIPE` (SIGPIPE is ignored): `isClosed` then turns true and later messages are
/// dropped.
///
/// The channel knows where each buffered message ends, so that a flush with a deadline (the host terminating)
/// never leaves a message torn when the reader lets it: it first finishes the message a signal interrupted, then
/// begins each further message only once the descriptor can take all of it without waiting (`canTakeWhole`), and
/// stops at a message boundary when the deadline comes first.
package final class OutputChannel: MessageSink {
  /// The outcome of `flush`.
  package enum FlushOutcome: Equatable, Sendable {
    /// Everything was written.
    case flushed
    /// The reader is gone or the descriptor failed (`closeError` says why); the rest was discarded.
    case closed
    /// `interruptFD` became readable (a signal arrived) while a write was blocked; the rest is kept.
    case interrupted
    /// The deadline passed; the rest is kept.
    case timedOut
  }

  /// The descriptor written to.
  package let descriptor: FileDescriptor
  /// How `appendMessage` frames each message.
  package let framing: Framing
  /// Buffered bytes beyond this make `appendMessage` flush at once.
  package var flushThreshold = 256 * 1024
  /// The most one `write(2)` is given. A pipe wakes its reader when a write that found it empty returns, so a 615 KB
  /// frame written at once reaches the reader only after the whole copy (100–300 µs); written in 32 KiB pieces, the
  /// reader wakes after the first one and copies out while the rest goes in (docs/bench.md, "Tenth pass").
  package var writeChunkBytes = 32 * 1024
  /// Checked when a write is interrupted (the signal self-pipe); nil: never interrupted.
  package var interruptDescriptor: FileDescriptor?
  /// When set, every flush (including the automatic ones) gives up at this time: set while terminating, so
  /// a client that stopped reading cannot keep the host alive.
  package var flushDeadline: MonotonicInstant?

  /// True after a flush was interrupted by a signal, until a flush with a deadline: appending then no longer
  /// flushes by itself, so the loop gets to handle the signal.
  package private(set) var isInterrupted = false
  /// Whether the descriptor failed; nothing more is written.
  package private(set) var isClosed = false
  /// What closed the channel (`.brokenPipe` when the reader went away); nil while it is open.
  package private(set) var closeError: Errno?

  private var buffer: [UInt8] = []
  private var written = 0
  /// Where each buffered message ends (offsets into `buffer`, ascending), and the first one not yet passed.
  private var messageEnds: [Int] = []
  private var nextEnd = 0
  private let originalFlags: Int32?
  private let kind: FileStatus.Kind?

  package init(descriptor: FileDescriptor, framing: Framing = .newline) {
    self.descriptor = descriptor
    self.framing = framing
    originalFlags = try? descriptor.statusFlags()
    kind = try? descriptor.status().kind
    buffer.reserveCapacity(64 * 1024)
  }

  /// Bytes appended but not yet written.
  package var pendingByteCount: Int { buffer.count - written }

  /// Appends one message (compact JSON, no newline), framed as `framing` says; flushes when the buffer is
  /// past `flushThreshold`.
  package func appendMessage(_ body: UnsafeRawBufferPointer) {
    guard !isClosed else { return }
    if body.count >= flushThreshold && written == buffer.count && !isInterrupted && flushDeadline == nil {
      // It would be flushed at once anyway: written from where it is, not copied into the buffer first (a 615 KB
      // frame built ahead of its tick then costs the tick its write alone).
      return writeDirectly(body)
    }
    framing.encode(body, into: &buffer)
    messageEnds.append(buffer.count)
    flushIfFull()
  }

  /// Writes `body`, framed, with nothing buffered before it, as `flush` would have once it was appended: its framing's
  /// header and trailer through the buffer, the body from where it is. What a signal or a failure leaves unwritten
  /// is buffered, so the channel is as if the message had been appended and flushed.
  private func writeDirectly(_ body: UnsafeRawBufferPointer) {
    let trailer: [UInt8] = framing == .newline ? [0x0A] : []
    if framing == .contentLength {
      buffer.append(contentsOf: "Content-Length: \(body.count)\r\n\r\n".utf8)
      switch flush() {
      case .flushed: break
      case .closed: return
      case .interrupted, .timedOut:
        buffer.append(contentsOf: body)
        messageEnds.append(buffer.count)
        return
      }
    }
    var offset = 0
    switch writeOut(body, from: &offset) {
    case .written:
      guard !trailer.isEmpty else { return }
      buffer.append(contentsOf: trailer)
      messageEnds.append(buffer.count)
      _ = flush()
    case .interrupted:
      // As `flush` leaves a message a signal cut short: all of it buffered, `written` past what went out (so a
      // terminating flush finishes it before anything else).
      let start = buffer.count
      buffer.append(contentsOf: body)
      buffer.append(contentsOf: trailer)
      messageEnds.append(buffer.count)
      written = start + offset
      _ = interrupted()
    case .failed(let error):
      markClosed(error)
    }
  }

  /// What `writeOut` ended with.
  private enum WriteOutcome {
    case written
    case interrupted
    case failed(Errno)
  }

  /// Writes `bytes` from `offset` on in writes of at most `writeChunkBytes`, blocking while the reader is slow: until
  /// all is written, a signal arrives (`interruptDescriptor` readable after a write returned early), or the
  /// descriptor fails. `offset` ends past what was written.
  private func writeOut(_ bytes: UnsafeRawBufferPointer, from offset: inout Int) -> WriteOutcome {
    while offset < bytes.count {
      let end = min(bytes.count, offset + writeChunkBytes)
      do {
        let n = try descriptor.write(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]), retryOnInterrupt: false)
        guard n > 0 else { return .failed(.ioError) }
        offset += n
        if offset < bytes.count && interruptPending() { return .interrupted }
      } catch .interrupted {
        if interruptPending() { return .interrupted }
      } catch .wouldBlock {
        // Non-blocking: the signal handler set O_NONBLOCK (a signal is pending), or someone else did.
        if isInterrupted || interruptPending() { return .interrupted }
        var entries = [PollEntry(descriptor, .writable)]
        _ = try? FileDescriptor.poll(&entries, timeoutMilliseconds: -1)
      } catch {
        return .failed(error)
      }
    }
    return .written
  }

  /// Flushes once the buffer is past `flushThreshold`.
  private func flushIfFull() {
    if pendingByteCount >= flushThreshold && !isInterrupted {
      if let flushDeadline, MonotonicInstant.now() >= flushDeadline { return }  // out of time: keep buffering
      _ = flush()
    }
  }

  /// Appends the message that `write` appends straight into the buffer (compact JSON, no newline) and frames it as
  /// `framing` says: a frame or a reply is written once, where it is sent from. `write` is not called once the
  /// channel is closed (nothing could read the message).
  package func appendMessage(writing write: (inout [UInt8]) -> Void) {
    guard !isClosed else { return }
    let start = buffer.count
    write(&buffer)
    framing.frameBody(startingAt: start, in: &buffer)
    messageEnds.append(buffer.count)
    flushIfFull()
  }

  /// Appends one message given as text; see `appendMessage(_:)`.
  package func appendMessage(_ body: String) {
    var body = body
    body.withUTF8 { appendMessage(UnsafeRawBufferPointer($0)) }
  }

  /// Writes the buffered bytes.
  ///
  /// Without a deadline it blocks while the reader is slow, until everything is written, the reader is gone,
  /// or a signal arrives (`interruptDescriptor` readable after a write returned early): then `.interrupted`, and
  /// `isInterrupted` stays true until the next flush with a deadline.
  ///
  /// - Parameter deadline: when given (or `flushDeadline` is set), writes whole messages only and gives up at the
  ///   deadline, at a message boundary when the reader lets it (`flushWholeMessages`): used while terminating, when
  ///   a reader that stopped reading must not keep the host alive.
  package func flush(deadline: MonotonicInstant? = nil) -> FlushOutcome {
    let deadline = deadline ?? flushDeadline
    defer {
      if written == buffer.count {
        buffer.removeAll(keepingCapacity: buffer.capacity <= 4 * 1024 * 1024)
        written = 0
        messageEnds.removeAll(keepingCapacity: true)
        nextEnd = 0
      }
    }
    if let deadline {
      isInterrupted = false
      return flushWholeMessages(until: deadline)
    }
    guard written < buffer.count else { return .flushed }
    guard !isClosed else { return .closed }
    var offset = written
    let outcome = buffer.withUnsafeBytes { writeOut($0, from: &offset) }
    written = offset
    switch outcome {
    case .written: return .flushed
    case .interrupted: return interrupted()
    case .failed(let error):
      markClosed(error)
      return .closed
    }
  }

  /// The terminating flush: the rest of a message already begun (a signal interrupted its write), then each whole
  /// message once the descriptor can take it all without waiting, until the deadline. Each wait polls the descriptor
  /// (and the signal pipe), so a stalled reader costs nothing but the wait.
  private func flushWholeMessages(until deadline: MonotonicInstant) -> FlushOutcome {
    while written < buffer.count {
      if isClosed { return .closed }
      while nextEnd < messageEnds.count && messageEnds[nextEnd] <= written { nextEnd += 1 }
      let end = nextEnd < messageEnds.count ? messageEnds[nextEnd] : buffer.count
      let start = nextEnd == 0 ? 0 : messageEnds[nextEnd - 1]
      let wait = written == start ? waitForRoom(end - written, until: deadline) : waitWritable(until: deadline)
      switch wait {
      case .ready: break
      case .interrupted: return .interrupted
      case .timedOut: return .timedOut
      }
      do {
        let n = try descriptor.write(buffer, written..<end, retryOnInterrupt: false)
        guard n > 0 else {
          markClosed(.ioError)
          return .closed
        }
        written += n
      } catch .interrupted, .wouldBlock {
        continue
      } catch {
        markClosed(error)
        return .closed
      }
    }
    return .flushed
  }

  /// Whether a write of `length` bytes would be taken whole, now, without blocking (or tearing on a non-blocking
  /// descriptor). A pipe: its free room (capacity, less what is unread, less two pages for partly used ones) holds
  /// it; a message larger than the pipe can ever hold only when the pipe is empty (the reader keeps up). A Unix
  /// socket: its send queue is below `SO_SNDBUF` and the message fits one buffer (`SO_SNDBUF / 2 − 64`, how the kernel
  /// cuts a stream write); larger ones only when the queue is empty. Anything else (a file, a terminal): yes.
  func canTakeWhole(_ length: Int) -> Bool {
    if readerIsGone() { return true }  // the write reports it (EPIPE)
    switch kind {
    case .pipe?:
      guard let capacity = try? descriptor.pipeCapacity(), let unread = try? descriptor.unreadByteCount() else {
        return true
      }
      let slack = 2 * Int(PIPE_BUF)
      return length <= capacity - slack ? capacity - unread - slack >= length : unread == 0
    case .socket?:
      guard let (queued, limit) = try? descriptor.socketSendQueue() else { return true }
      return length <= limit / 2 - 64 ? queued < limit : queued == 0
    default:
      return true
    }
  }

  /// Waits until the descriptor can take `length` bytes whole (`canTakeWhole`), polling it and the signal pipe; a
  /// pipe that is writable but still too full is looked at again every few milliseconds.
  private func waitForRoom(_ length: Int, until deadline: MonotonicInstant) -> WaitResult {
    while true {
      if canTakeWhole(length) { return .ready }
      if interruptPending() { return .interrupted }
      let remaining = deadline.nanoseconds - MonotonicInstant.now().nanoseconds
      if remaining <= 0 { return .timedOut }
      switch waitWritable(until: MonotonicInstant.now().advanced(bySeconds: 0.005)) {
      case .interrupted: return .interrupted
      case .ready:
        // Writable, but not room enough for the whole message yet: let the reader take more.
        if !canTakeWhole(length) { pause(milliseconds: min(5, Int(remaining / 1_000_000) + 1)) }
      case .timedOut: continue
      }
    }
  }

  /// Whether the descriptor polls an error or a hang-up (its reader closed).
  private func readerIsGone() -> Bool {
    var entries = [PollEntry(descriptor, .writable)]
    _ = try? FileDescriptor.poll(&entries, timeoutMilliseconds: 0)
    return !entries[0].returnedEvents.isDisjoint(with: [.error, .hangUp, .invalid])
  }

  /// Sleeps in poll(2) on the signal pipe alone (so a signal still ends the wait).
  private func pause(milliseconds: Int) {
    var entries = interruptDescriptor.map { [PollEntry($0, .readable)] } ?? []
    _ = try? FileDescriptor.poll(&entries, timeoutMilliseconds: Int32(milliseconds))
  }

  /// Puts the descriptor's file status flags back as they were when the channel was made (the signal handler
  /// may have set `O_NONBLOCK` on a description shared with the parent, e.g. a terminal).
  package func restoreFlags() {
    if let originalFlags, (try? descriptor.statusFlags()) != originalFlags {
      try? descriptor.setStatusFlags(originalFlags)
    }
  }

  private func interrupted() -> FlushOutcome {
    isInterrupted = true
    return .interrupted
  }

  private enum WaitResult { case ready, interrupted, timedOut }

  private func waitWritable(until deadline: MonotonicInstant) -> WaitResult {
    while true {
      let timeout = pollTimeout(nanoseconds: deadline.nanoseconds - MonotonicInstant.now().nanoseconds)
      var entries = [PollEntry(descriptor, .writable)]
      if let interruptDescriptor { entries.append(PollEntry(interruptDescriptor, .readable)) }
      let ready: Int
      do {
        ready = try FileDescriptor.poll(&entries, timeoutMilliseconds: timeout)
      } catch .interrupted {
        continue
      } catch {
        ready = -1
      }
      if entries.count > 1 && !entries[1].returnedEvents.isEmpty { return .interrupted }
      if !entries[0].returnedEvents.isEmpty { return .ready }  // writable, or an error or hang-up the write reports
      if ready <= 0 && timeout == 0 { return .timedOut }
      if MonotonicInstant.now() >= deadline { return .timedOut }
    }
  }

  private func interruptPending() -> Bool {
    interruptDescriptor?.isReadableNow() ?? false
  }

  private func markClosed(_ error: Errno) {
    isClosed = true
    closeError = error
    buffer.removeAll()
    written = 0
    messageEnds.removeAll()
    nextEnd = 0
  }
}
