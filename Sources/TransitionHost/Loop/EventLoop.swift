import POSIX

/// The host's single-threaded event loop: epoll (or `poll(2)`) over a few descriptors plus timers on `CLOCK_MONOTONIC`.
///
/// Each turn waits until a watched descriptor is ready or the earliest timer is due, then calls the ready
/// descriptors' handlers (in the order they were watched) and fires the due timers. Frames are timer-driven:
/// a handler that reads input does a bounded amount of work per turn, so input never starves timers and
/// timers never starve input.
///
/// Timers wake the loop through a timerfd in the poll set, armed `spinWindow` before the earliest deadline; the loop
/// then spins the rest of the way. poll(2)'s own timeout counts whole milliseconds (rounded up, so a frame was up to
/// 1 ms late), and even a timerfd at the deadline wakes the thread 0.1–0.4 ms after it on the 2-core VM, while
/// spinning the last 200 µs costs about 2% of a core at 120 fps and lands within microseconds (docs/bench.md,
/// "Waiting for a frame deadline"). Without a timerfd the loop falls back to the millisecond timeout.
///
/// The descriptors are waited for with epoll, which keeps the watched set in the kernel: poll(2) walks every
/// descriptor on every call, and a host with five plugin workers watches eighteen (three per worker), which cost an
/// isolated round trip about 9 µs of its two waits against about 4 µs with three descriptors (docs/bench.md). When
/// epoll is unavailable or refuses a descriptor (a regular file on stdin: EPERM), the loop polls instead, for good.
///
/// - Important: Not thread-safe. Everything (handlers, timer actions, `schedule`, `cancel`) runs on the
///   thread that calls `runOnce`. Unwatch a descriptor before closing it (epoll forgets a closed one silently).
package final class EventLoop {
  private struct Watcher {
    var descriptor: FileDescriptor
    var events: PollEvents
    var handler: (_ events: PollEvents) -> Void
  }

  /// How long before a deadline the timerfd wakes the loop, which spins the rest.
  package static let spinWindow = 200e-6

  private var timers = TimerQueue<() -> Void>()
  private var watchers: [Watcher] = []
  /// Wakes the loop `spinWindow` before the earliest deadline (nil: poll's millisecond timeout instead).
  private let wakeTimer: TimerDescriptor?
  /// Where `wakeTimer` is armed now (nil: disarmed, or it has fired).
  private var wakeTimerDeadline: MonotonicInstant?
  /// The kernel's copy of `watchers` and the wake timer (nil: poll(2) over `watchers` every turn).
  private var epoll: EventPoll?
  /// What `epoll` watches each descriptor for.
  private var registered: [Int32: PollEvents] = [:]
  /// Reused by every turn.
  private var ready: [PollEntry] = []

  /// - Parameter preciseTimers: wake for timers through a timerfd and spin the last `spinWindow` (the default);
  ///   false: the wait's millisecond timeout alone.
  package init(preciseTimers: Bool = true) {
    wakeTimer = preciseTimers ? try? TimerDescriptor() : nil
    epoll = try? EventPoll()
    if let epoll, let wakeTimer {
      do throws(Errno) { try epoll.add(wakeTimer.descriptor, for: .readable) } catch { dropEpoll() }
    }
  }

  deinit {
    try? wakeTimer?.close()
    try? epoll?.close()
  }

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
      // The same events again (a handler replaced): the kernel's set needs no call.
      if registered[descriptor.rawValue] != events { register(descriptor, for: events) }
    } else {
      watchers.append(Watcher(descriptor: descriptor, events: events, handler: handler))
      register(descriptor, for: events)
    }
  }

  /// Makes epoll watch `descriptor` for `events` (added, or changed); a descriptor it refuses ends its use.
  private func register(_ descriptor: FileDescriptor, for events: PollEvents) {
    guard let epoll else { return }
    do throws(Errno) {
      if registered[descriptor.rawValue] == nil {
        do { try epoll.add(descriptor, for: events) } catch .fileExists { try epoll.modify(descriptor, for: events) }
      } else {
        do {
          try epoll.modify(descriptor, for: events)
        } catch .noSuchFileOrDirectory {
          try epoll.add(descriptor, for: events)
        }
      }
      registered[descriptor.rawValue] = events
    } catch {
      dropEpoll()
    }
  }

  /// From now on the loop polls `watchers` itself.
  private func dropEpoll() {
    try? epoll?.close()
    epoll = nil
    registered = [:]
  }

  /// How many descriptors are watched.
  package var watchedCount: Int { watchers.count }

  /// Stops watching `descriptor` (it is not closed).
  package func unwatch(_ descriptor: FileDescriptor) {
    watchers.removeAll { $0.descriptor == descriptor }
    if let epoll, registered.removeValue(forKey: descriptor.rawValue) != nil { try? epoll.remove(descriptor) }
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

    let timeout: Int32
    if let wakeTimer {
      armWakeTimer(wakeTimer, for: wake)
      timeout = -1
    } else {
      // The wait counts whole milliseconds, rounded up so a timer never wakes the loop before it is due.
      timeout = wake.map { pollTimeout(nanoseconds: $0.nanoseconds - now.nanoseconds) } ?? -1
    }

    // A failure is EINTR (a signal: its byte is waiting in the self-pipe) or a bad fd a handler will see.
    var entries = ready
    ready = []
    defer { ready = entries }
    if let epoll {
      do throws(Errno) { try epoll.wait(into: &entries, timeoutMilliseconds: timeout) } catch { entries.removeAll() }
      // In the order the descriptors were watched, as poll(2) reports them (the wake timer's place does not matter).
      if entries.count > 1 {
        let order = { (entry: PollEntry) in self.watchers.firstIndex { $0.descriptor == entry.descriptor } ?? -1 }
        entries.sort { order($0) < order($1) }
      }
    } else {
      entries.removeAll(keepingCapacity: true)
      for watcher in watchers { entries.append(PollEntry(watcher.descriptor, watcher.events)) }
      if let wakeTimer { entries.append(PollEntry(wakeTimer.descriptor, .readable)) }
      if (try? FileDescriptor.poll(&entries, timeoutMilliseconds: timeout)) == nil { entries.removeAll() }
    }
    do {
      for entry in entries where !entry.returnedEvents.isEmpty {
        if let wakeTimer, entry.descriptor == wakeTimer.descriptor {
          wakeTimer.acknowledge()
          wakeTimerDeadline = nil
          continue
        }
        // An earlier handler may have unwatched this fd (or replaced its handler): look it up again.
        watchers.first(where: { $0.descriptor == entry.descriptor })?.handler(entry.returnedEvents)
      }
    }

    var next = timers.nextDeadline()
    if let limit { next = min(next ?? limit, limit) }
    if wakeTimer != nil, let next {
      // The timerfd woke the loop up to `spinWindow` early: spin to the deadline rather than sleep past it.
      if next.seconds(since: now) <= Self.spinWindow {
        while now < next {}
      }
    }

    let firingTime = now
    let watermark = timers.watermark
    while let (_, action) = timers.popDue(now: firingTime, before: watermark) {
      action()
    }
    return true
  }

  /// Arms the timerfd `spinWindow` before `wake` (disarms it when there is nothing to wake for); a no-op when it is
  /// armed there already.
  private func armWakeTimer(_ timer: TimerDescriptor, for wake: MonotonicInstant?) {
    guard let wake else {
      if wakeTimerDeadline != nil {
        try? timer.disarm()
        wakeTimerDeadline = nil
      }
      return
    }
    let alarm = wake.advanced(bySeconds: -Self.spinWindow)
    guard alarm != wakeTimerDeadline else { return }
    try? timer.arm(at: alarm)
    wakeTimerDeadline = alarm
  }
}
