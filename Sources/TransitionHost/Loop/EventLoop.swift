import Glibc

/// The host's single-threaded event loop: `poll(2)` over a few descriptors plus timers on `CLOCK_MONOTONIC`.
///
/// Each turn waits until a watched descriptor is ready or the earliest timer is due, then calls the ready
/// descriptors' handlers (in the order they were watched) and fires the due timers. Frames are timer-driven:
/// a handler that reads input does a bounded amount of work per turn, so input never starves timers and
/// timers never starve input.
///
/// - Important: Not thread-safe. Everything (handlers, timer actions, `schedule`, `cancel`) runs on the
///   thread that calls `runOnce`.
package final class EventLoop {
  private struct Watcher {
    var fd: Int32
    var events: Int16
    var handler: (_ revents: Int16) -> Void
  }

  private var timers = TimerQueue<() -> Void>()
  private var watchers: [Watcher] = []

  package init() {}

  /// The current monotonic time.
  package var now: MonotonicInstant { MonotonicInstant.now() }

  // MARK: Timers

  /// Runs `action` on the loop's thread once `deadline` has passed.
  ///
  /// Timers with the same deadline fire in scheduling order. Schedule periodic work (frames) at absolute
  /// deadlines (`previous + interval`) so lateness never accumulates.
  @discardableResult
  package func schedule(at deadline: MonotonicInstant, _ action: @escaping () -> Void) -> TimerID {
    timers.schedule(at: deadline, action)
  }

  /// Runs `action` `seconds` from now (0 or less: on the next turn).
  @discardableResult
  package func schedule(after seconds: Double, _ action: @escaping () -> Void) -> TimerID {
    timers.schedule(at: now.advanced(bySeconds: seconds), action)
  }

  /// Cancels a timer; returns false if it already fired or was cancelled.
  @discardableResult
  package func cancel(_ id: TimerID) -> Bool { timers.cancel(id) }

  /// Whether `id` is still waiting to fire.
  package func isScheduled(_ id: TimerID) -> Bool { timers.contains(id) }

  /// Whether any timer is scheduled.
  package var hasTimers: Bool { !timers.isEmpty }

  // MARK: Descriptors

  /// Calls `handler` with the returned events whenever `fd` is readable (or hung up, or in error: the
  /// handler's `read` then reports it). Replaces an earlier handler for the same fd.
  package func watchReadable(_ fd: Int32, _ handler: @escaping (_ revents: Int16) -> Void) {
    unwatch(fd)
    watchers.append(Watcher(fd: fd, events: Int16(POLLIN), handler: handler))
  }

  /// Stops watching `fd` (it is not closed).
  package func unwatch(_ fd: Int32) {
    watchers.removeAll { $0.fd == fd }
  }

  /// Whether `fd` is watched.
  package func isWatching(_ fd: Int32) -> Bool { watchers.contains { $0.fd == fd } }

  /// Whether any descriptor is watched.
  package var hasWatchers: Bool { !watchers.isEmpty }

  // MARK: Running

  /// Runs one turn: waits for a watched descriptor or the next timer (but not past `limit`), then handles
  /// what is ready.
  ///
  /// - Parameter limit: wake up by this time even if nothing happens (nil: wait as long as needed).
  /// - Returns: false, without waiting, when nothing could ever wake the loop (no descriptor, no timer and
  ///   no limit).
  @discardableResult
  package func runOnce(until limit: MonotonicInstant? = nil) -> Bool {
    var wake = timers.nextDeadline()
    if let limit { wake = min(wake ?? limit, limit) }
    guard !watchers.isEmpty || wake != nil else { return false }

    var timeout: Int32 = -1
    if let wake {
      // poll(2) counts whole milliseconds: round up so a timer never wakes the loop before it is due.
      let nanoseconds = max(0, wake.nanoseconds - now.nanoseconds)
      timeout = Int32(min((nanoseconds + 999_999) / 1_000_000, Int64(Int32.max)))
    }

    var pollSet = watchers.map { pollfd(fd: $0.fd, events: $0.events, revents: 0) }
    let ready = pollSet.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), timeout) }
    if ready > 0 {
      for entry in pollSet where entry.revents != 0 {
        // An earlier handler may have unwatched this fd (or replaced its handler): look it up again.
        watchers.first(where: { $0.fd == entry.fd })?.handler(entry.revents)
      }
    }
    // ready < 0 is EINTR (a signal: its byte is waiting in the self-pipe) or a bad fd a handler will see.

    let firingTime = now
    let watermark = timers.watermark
    while let (_, action) = timers.popDue(now: firingTime, before: watermark) {
      action()
    }
    return true
  }
}
