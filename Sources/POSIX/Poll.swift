import Glibc

/// Events of poll(2), asked for and returned.
package struct PollEvents: OptionSet, Hashable, Sendable {
  package var rawValue: Int16
  package init(rawValue: Int16) { self.rawValue = rawValue }

  /// `POLLIN`: data to read, or end of file.
  package static let readable = PollEvents(rawValue: Int16(POLLIN))
  /// `POLLOUT`: a write would not block.
  package static let writable = PollEvents(rawValue: Int16(POLLOUT))
  /// `POLLERR` (returned only).
  package static let error = PollEvents(rawValue: Int16(POLLERR))
  /// `POLLHUP`: the other end is closed (returned only).
  package static let hangUp = PollEvents(rawValue: Int16(POLLHUP))
  /// `POLLNVAL`: not an open descriptor (returned only).
  package static let invalid = PollEvents(rawValue: Int16(POLLNVAL))
}

/// One descriptor of a poll(2) call: what to wait for, and what happened.
package struct PollEntry: Hashable, Sendable {
  package var descriptor: FileDescriptor
  package var events: PollEvents
  /// Filled in by `poll`.
  package var returnedEvents: PollEvents = []

  package init(_ descriptor: FileDescriptor, _ events: PollEvents) {
    self.descriptor = descriptor
    self.events = events
  }
}

extension FileDescriptor {
  /// poll(2): waits until one of `entries` is ready or `timeoutMilliseconds` pass (-1: no limit; 0: just look), and
  /// fills in their `returnedEvents`.
  ///
  /// - Returns: how many entries have events (0 on timeout).
  /// - Throws: `.interrupted` when a signal arrived (never retried: the caller's loop decides what a signal means).
  @discardableResult
  package static func poll(_ entries: inout [PollEntry], timeoutMilliseconds: Int32) throws(Errno) -> Int {
    var descriptors = entries.map { pollfd(fd: $0.descriptor.rawValue, events: $0.events.rawValue, revents: 0) }
    let ready = try Errno.check(retryOnInterrupt: false) {
      descriptors.withUnsafeMutableBufferPointer { Glibc.poll($0.baseAddress, nfds_t($0.count), timeoutMilliseconds) }
    }
    for index in entries.indices { entries[index].returnedEvents = PollEvents(rawValue: descriptors[index].revents) }
    return Int(ready)
  }

  /// Whether the descriptor polls readable right now (a signal self-pipe with a byte in it).
  package func isReadableNow() -> Bool {
    var entries = [PollEntry(self, .readable)]
    return ((try? FileDescriptor.poll(&entries, timeoutMilliseconds: 0)) ?? 0) > 0
  }
}

/// Milliseconds for poll(2) until `nanoseconds` from now, rounded up so a wait never ends before its deadline, and
/// capped at `Int32.max`; 0 for a deadline that has passed.
package func pollTimeout(nanoseconds: Int64) -> Int32 {
  let remaining = max(0, nanoseconds)
  let milliseconds = remaining / 1_000_000 + (remaining % 1_000_000 == 0 ? 0 : 1)
  return Int32(min(milliseconds, Int64(Int32.max)))
}
