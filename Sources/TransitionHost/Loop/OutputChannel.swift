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
  private let originalFlags: Int32?

  package init(descriptor: FileDescriptor, framing: Framing = .newline) {
    self.descriptor = descriptor
    self.framing = framing
    originalFlags = try? descriptor.statusFlags()
    buffer.reserveCapacity(64 * 1024)
  }

  /// Bytes appended but not yet written.
  package var pendingByteCount: Int { buffer.count - written }

  /// Appends one message (compact JSON, no newline), framed as `framing` says; flushes when the buffer is
  /// past `flushThreshold`.
  package func appendMessage(_ body: UnsafeRawBufferPointer) {
    guard !isClosed else { return }
    framing.encode(body, into: &buffer)
    flushIfFull()
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
      do {
        let n = try descriptor.write(buffer, written..<written + chunk, retryOnInterrupt: false)
        guard n > 0 else {
          markClosed(.ioError)
          return .closed
        }
        written += n
        if written < buffer.count && deadline == nil && interruptPending() { return interrupted() }
      } catch .interrupted {
        if deadline == nil && interruptPending() { return interrupted() }
      } catch .wouldBlock {
        // Non-blocking: the signal handler set O_NONBLOCK (a signal is pending), or someone else did.
        if deadline == nil {
          if isInterrupted || interruptPending() { return interrupted() }
          var entries = [PollEntry(descriptor, .writable)]
          _ = try? FileDescriptor.poll(&entries, timeoutMilliseconds: -1)
        }
      } catch {
        markClosed(error)
        return .closed
      }
    }
    return .flushed
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
  }
}
