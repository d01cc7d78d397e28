// A manual clock standing in for the event loop's monotonic timers (the protocol tests, the frames-ahead tests).

import TransitionService

/// Timers on a clock that only moves when told to; due timers fire in deadline order with `now` set to their
/// deadline, so a real-time transition advances by exactly the intervals it asked for.
package final class ManualScheduler: ProtocolScheduler {
  package private(set) var now: Double
  private var timers: [(id: UInt64, deadline: Double, action: () -> Void)] = []
  private var nextID: UInt64 = 1

  /// `now` is the clock's first reading (a real monotonic clock reads some 10^4–10^5 s on a machine that has been up).
  package init(now: Double = 100) { self.now = now }

  package var pendingCount: Int { timers.count }

  package func schedule(at deadline: Double, _ action: @escaping () -> Void) -> ProtocolTimerID {
    let id = nextID
    nextID += 1
    timers.append((id, deadline, action))
    return ProtocolTimerID(rawValue: id)
  }

  package func cancel(_ timer: ProtocolTimerID) {
    timers.removeAll { $0.id == timer.rawValue }
  }

  /// Moves the clock forward by `seconds`, firing every timer that falls due on the way.
  package func advance(by seconds: Double) {
    let end = now + seconds
    while let next = timers.enumerated().filter({ $0.element.deadline <= end }).min(by: {
      ($0.element.deadline, $0.element.id) < ($1.element.deadline, $1.element.id)
    }) {
      timers.remove(at: next.offset)
      now = max(now, next.element.deadline)
      next.element.action()
    }
    now = end
  }
}
