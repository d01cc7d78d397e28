import Glibc
import JSONRPC

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
package final class OutputChannel {
  /// The outcome of `flush`.
  package enum FlushOutcome: Equatable, Sendable {
    /// Everything was written.
    case flushed
    /// The reader is gone or the descriptor failed (`closeErrno` says why); the rest was discarded.
    case closed
    /// `interruptFD` became readable (a signal arrived) while a write was blocked; the rest is kept.
    case interrupted
    /// The deadline passed; the rest is kept.
    case timedOut
  }

  /// The descriptor written to.
  package let fd: Int32
  /// How `appendMessage` frames each message.
  package let framing: Framing
  /// Buffered bytes beyond this make `appendMessage` flush at once.
  package var flushThreshold = 256 * 1024
  /// Checked when a write is interrupted (the signal self-pipe); nil: never interrupted.
  package var interruptFD: Int32?
  /// When set, every flush (including the automatic ones) gives up at this time: set while terminating, so
  /// a client that stopped reading cannot keep the host alive.
  package var flushDeadline: MonotonicInstant?

  /// True after a flush was interrupted by a signal, until a flush with a deadline: appending then no longer
  /// flushes by itself, so the loop gets to handle the signal.
  package private(set) var isInterrupted = false
  /// Whether the descriptor failed; nothing more is written.
  package private(set) var isClosed = false
  /// The errno that closed the channel (`EPIPE` when the reader went away).
  package private(set) var closeErrno: Int32 = 0

  private var buffer: [UInt8] = []
  private var written = 0
  private let originalFlags: Int32

  package init(fd: Int32, framing: Framing = .newline) {
    self.fd = fd
    self.framing = framing
    originalFlags = fcntl(fd, F_GETFL)
    buffer.reserveCapacity(64 * 1024)
  }

  /// Bytes appended but not yet written.
  package var pendingByteCount: Int { buffer.count - written }

  /// Appends one message (compact JSON, no newline), framed as `framing` says; flushes when the buffer is
  /// past `flushThreshold`.
  package func appendMessage(_ body: UnsafeRawBufferPointer) {
    guard !isClosed else { return }
    framing.encode(body, into: &buffer)
    if pendingByteCount >= flushThreshold && !isInterrupted {
      if let flushDeadline, MonotonicInstant.now() >= flushDeadline { return }  // out of time: keep buffering
      _ = flush()
    }
  }

  /// Appends one message given as text; see `appendMessage(_:)`.
  package func appendMessage(_ body: String) {
    var body = body
    body.withUTF8 { appendMessage(UnsafeRawBufferPointer($0)) }
  }

  /// Appends raw bytes (already framed).
  package func appendRaw(_ bytes: some Sequence<UInt8>) {
    guard !isClosed else { return }
    buffer.append(contentsOf: bytes)
  }

  /// Writes the buffered bytes.
  ///
  /// Without a deadline it blocks while the reader is slow, until everything is written, the reader is gone,
  /// or a signal arrives (`interruptFD` readable after a write returned early): then `.interrupted`, and
  /// `isInterrupted` stays true until the next flush with a deadline.
  ///
  /// - Parameter deadline: when given (or `flushDeadline` is set), waits for the descriptor with `poll(2)` and
  ///   writes at most `PIPE_BUF` bytes at a time (which never blocks on a pipe that polled writable), giving up
  ///   at the deadline: used while terminating, when a reader that stopped reading must not keep the host
  ///   alive.
  package func flush(deadline: MonotonicInstant? = nil) -> FlushOutcome {
    let deadline = deadline ?? flushDeadline
    defer {
      if written == buffer.count {
        buffer.removeAll(keepingCapacity: buffer.capacity <= 4 * 1024 * 1024)
        written = 0
      }
    }
    if deadline != nil { isInterrupted = false }
    while written < buffer.count {
      if isClosed { return .closed }
      if let deadline {
        switch waitWritable(until: deadline) {
        case .ready: break
        case .interrupted: return .interrupted
        case .timedOut: return .timedOut
        }
      }
      let chunk = deadline == nil ? buffer.count - written : min(buffer.count - written, Int(PIPE_BUF))
      let n = buffer.withUnsafeBytes { write(fd, $0.baseAddress! + written, chunk) }
      if n > 0 {
        written += n
        if written < buffer.count && deadline == nil && interruptPending() { return interrupted() }
      } else if n < 0 && errno == EINTR {
        if deadline == nil && interruptPending() { return interrupted() }
      } else if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
        // Non-blocking: the signal handler set O_NONBLOCK (a signal is pending), or someone else did.
        if deadline == nil {
          if isInterrupted || interruptPending() { return interrupted() }
          var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
          _ = poll(&entry, 1, -1)
        }
      } else {
        markClosed(errno: n < 0 ? errno : EIO)
        return .closed
      }
    }
    return .flushed
  }

  /// Puts the descriptor's file status flags back as they were when the channel was made (the signal handler
  /// may have set `O_NONBLOCK` on a description shared with the parent, e.g. a terminal).
  package func restoreFlags() {
    if originalFlags >= 0 && fcntl(fd, F_GETFL) != originalFlags { _ = fcntl(fd, F_SETFL, originalFlags) }
  }

  private func interrupted() -> FlushOutcome {
    isInterrupted = true
    return .interrupted
  }

  private enum WaitResult { case ready, interrupted, timedOut }

  private func waitWritable(until deadline: MonotonicInstant) -> WaitResult {
    while true {
      let remaining = max(0, deadline.nanoseconds - MonotonicInstant.now().nanoseconds)
      let timeout = Int32(min((remaining + 999_999) / 1_000_000, Int64(Int32.max)))
      var entries = [pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)]
      if let interruptFD { entries.append(pollfd(fd: interruptFD, events: Int16(POLLIN), revents: 0)) }
      let ready = poll(&entries, nfds_t(entries.count), timeout)
      if ready < 0 && errno == EINTR { continue }
      if entries.count > 1 && entries[1].revents != 0 { return .interrupted }
      if entries[0].revents != 0 { return .ready }  // POLLOUT, or POLLERR/POLLHUP that the write reports
      if ready <= 0 && remaining == 0 { return .timedOut }
      if MonotonicInstant.now() >= deadline { return .timedOut }
    }
  }

  private func interruptPending() -> Bool {
    guard let interruptFD else { return false }
    var entry = pollfd(fd: interruptFD, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, 0) > 0
  }

  private func markClosed(errno code: Int32) {
    isClosed = true
    closeErrno = code
    buffer.removeAll()
    written = 0
  }
}
