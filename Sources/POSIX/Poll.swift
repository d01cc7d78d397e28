import CPOSIX
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

/// An epoll instance (epoll(7)), level-triggered as poll(2) is: the kernel keeps the set of watched descriptors, so a
/// wait costs what is ready rather than what is watched (poll(2) walks, and queues itself on, every descriptor of
/// every call: a host with five plugin workers watches eighteen).
///
/// epoll refuses regular files (EPERM): a caller whose descriptor may be one (stdin redirected from a file) falls
/// back to `FileDescriptor.poll`.
package struct EventPoll: Sendable {
  package let descriptor: FileDescriptor

  /// A new instance, close-on-exec.
  package init() throws(Errno) {
    descriptor = FileDescriptor(rawValue: try Errno.check { CPOSIX_epoll_create() })
  }

  /// Starts watching `watched` for `events` (a hang-up or an error is always reported).
  package func add(_ watched: FileDescriptor, for events: PollEvents) throws(Errno) {
    _ = try Errno.check {
      CPOSIX_epoll_control(descriptor.rawValue, 1, watched.rawValue, UInt32(UInt16(bitPattern: events.rawValue)))
    }
  }

  /// Changes what `watched` is watched for.
  package func modify(_ watched: FileDescriptor, for events: PollEvents) throws(Errno) {
    _ = try Errno.check {
      CPOSIX_epoll_control(descriptor.rawValue, 3, watched.rawValue, UInt32(UInt16(bitPattern: events.rawValue)))
    }
  }

  /// Stops watching `watched`.
  package func remove(_ watched: FileDescriptor) throws(Errno) {
    _ = try Errno.check { CPOSIX_epoll_control(descriptor.rawValue, 2, watched.rawValue, 0) }
  }

  /// Waits until a watched descriptor is ready or `timeoutMilliseconds` pass (-1: no limit) and replaces `ready`'s
  /// contents with the ready descriptors and their returned events (64 at most per call; the rest stay ready).
  ///
  /// - Throws: `.interrupted` when a signal arrived (never retried).
  package func wait(into ready: inout [PollEntry], timeoutMilliseconds: Int32) throws(Errno) {
    var descriptors = [Int32](repeating: 0, count: 64)
    var events = [UInt32](repeating: 0, count: 64)
    let count = try Errno.check(retryOnInterrupt: false) {
      CPOSIX_epoll_wait(descriptor.rawValue, &descriptors, &events, 64, timeoutMilliseconds)
    }
    ready.removeAll(keepingCapacity: true)
    for index in 0..<Int(count) {
      var entry = PollEntry(FileDescriptor(rawValue: descriptors[index]), [])
      entry.returnedEvents = PollEvents(rawValue: Int16(truncatingIfNeeded: events[index]))
      ready.append(entry)
    }
  }

  /// Closes the instance.
  package func close() throws(Errno) {
    try descriptor.close()
  }
}

/// Milliseconds for poll(2) until `nanoseconds` from now, rounded up so a wait never ends before its deadline, and
/// capped at `Int32.max`; 0 for a deadline that has passed.
package func pollTimeout(nanoseconds: Int64) -> Int32 {
  let remaining = max(0, nanoseconds)
  let milliseconds = remaining / 1_000_000 + (remaining % 1_000_000 == 0 ? 0 : 1)
  return Int32(min(milliseconds, Int64(Int32.max)))
}
