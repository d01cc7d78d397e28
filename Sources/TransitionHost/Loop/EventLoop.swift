import POSIX

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
    var descriptor: FileDescriptor
    var events: PollEvents
    var handler: (_ events: PollEvents) -> Void
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

  /// Whether any timer is scheduled.
  package var hasTimers: Bool { !timers.isEmpty }

  // MARK: Descriptors

  /// Calls `handler` with the returned events whenever `descriptor` is readable (or hung up, or in error: the
  /// handler's `read` then reports it). Replaces an earlier handler for the same descriptor.
  package func watchReadable(_ descriptor: FileDescriptor, _ handler: @escaping (_ events: PollEvents) -> Void) {
    watch(descriptor, for: .readable, handler)
  }

  /// Calls `handler` with the returned events whenever `descriptor` is ready for `events` (readable, writable, or
  /// both; a hang-up or an error is always reported). Replaces an earlier handler for the same descriptor, in place.
  package func watch(
    _ descriptor: FileDescriptor, for events: PollEvents, _ handler: @escaping (_ events: PollEvents) -> Void
  ) {
    if let index = watchers.firstIndex(where: { $0.descriptor == descriptor }) {
      watchers[index] = Watcher(descriptor: descriptor, events: events, handler: handler)
    } else {
      watchers.append(Watcher(descriptor: descriptor, events: events, handler: handler))
    }
  }

  /// How many descriptors are watched.
  package var watchedCount: Int { watchers.count }

  /// Stops watching `descriptor` (it is not closed).
  package func unwatch(_ descriptor: FileDescriptor) {
    watchers.removeAll { $0.descriptor == descriptor }
  }

  /// Whether `descriptor` is watched.
  package func isWatching(_ descriptor: FileDescriptor) -> Bool { watchers.contains { $0.descriptor == descriptor } }

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

    // poll(2) counts whole milliseconds, rounded up so a timer never wakes the loop before it is due.
    let timeout = wake.map { pollTimeout(nanoseconds: $0.nanoseconds - now.nanoseconds) } ?? -1

    var entries = watchers.map { PollEntry($0.descriptor, $0.events) }
    // A failure is EINTR (a signal: its byte is waiting in the self-pipe) or a bad fd a handler will see.
    if let ready = try? FileDescriptor.poll(&entries, timeoutMilliseconds: timeout), ready > 0 {
      for entry in entries where !entry.returnedEvents.isEmpty {
        // An earlier handler may have unwatched this fd (or replaced its handler): look it up again.
        watchers.first(where: { $0.descriptor == entry.descriptor })?.handler(entry.returnedEvents)
      }
    }

    let firingTime = now
    let watermark = timers.watermark
    while let (_, action) = timers.popDue(now: firingTime, before: watermark) {
      action()
    }
    return true
  }
}
