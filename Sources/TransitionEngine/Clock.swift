#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A source of monotonic time in seconds. Only differences between readings mean anything.
///
/// Transitions never read a clock themselves: whoever owns them reads one and passes the elapsed time to
/// `Transition.advance(by:)` (a `ClockCursor` does the bookkeeping). The host uses `MonotonicClock` to stream in real
/// time and `ManualClock` for `transition/tick`; tests use `ManualClock` so that no test depends on wall time.
package protocol Clock: AnyObject {
  /// The current reading, in seconds; never decreases.
  var now: Double { get }
}

/// A virtual clock that moves only when told to.
package final class ManualClock: Clock {
  /// The current reading, in seconds.
  package private(set) var now: Double

  /// A clock reading `start` seconds.
  package init(start: Double = 0) {
    self.now = start.isFinite ? start : 0
  }

  /// Moves the clock forward by `dt` seconds.
  /// - Throws: `TransitionError.invalidValue` when `dt` is negative or not finite; the clock does not move.
  package func tick(_ dt: Double) throws(TransitionError) {
    guard dt.isFinite, dt >= 0 else {
      throw .invalidValue(field: "dt", reason: "must be a finite number ≥ 0")
    }
    now += dt
  }
}

/// The system's monotonic clock (`CLOCK_MONOTONIC`): real time for streaming, unaffected by changes of the date.
package final class MonotonicClock: Clock {
  package init() {}

  package var now: Double {
    var spec = timespec()
    // clock_gettime with CLOCK_MONOTONIC cannot fail on Linux for a valid pointer.
    _ = clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
  }
}

/// The time elapsed on a clock since the last time one asked, so that a transition can follow a clock.
///
/// A cursor never reports a negative interval, so a clock that jumped backward (which a monotonic clock never does)
/// cannot run a transition backward.
package struct ClockCursor {
  /// The clock being followed.
  package let clock: any Clock
  /// The reading at the last `take()` (or at creation).
  package private(set) var lastReading: Double

  /// A cursor starting at the clock's current reading.
  package init(clock: any Clock) {
    self.clock = clock
    self.lastReading = clock.now
  }

  /// The seconds elapsed since the previous call (or since creation), and moves the cursor to now.
  package mutating func take() -> Double {
    let now = clock.now
    let elapsed = now - lastReading
    lastReading = now
    return elapsed.isFinite && elapsed > 0 ? elapsed : 0
  }
}
