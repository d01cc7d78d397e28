import Glibc

/// A point in time on `CLOCK_MONOTONIC`, in nanoseconds: immune to wall-clock changes, so frame timers never
/// jump when the system time is set.
package struct MonotonicInstant: Comparable, Hashable, Sendable {
  /// Nanoseconds since an unspecified start (boot, on Linux).
  package var nanoseconds: Int64

  package init(nanoseconds: Int64) {
    self.nanoseconds = nanoseconds
  }

  /// The current time. Corresponds to C `clock_gettime(CLOCK_MONOTONIC)`.
  package static func now() -> MonotonicInstant {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return MonotonicInstant(nanoseconds: Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec))
  }

  /// This instant moved by `seconds` (rounded to the nanosecond; infinite or huge values saturate; NaN moves
  /// nothing).
  package func advanced(bySeconds seconds: Double) -> MonotonicInstant {
    let delta = seconds * 1e9
    guard !delta.isNaN else { return self }
    guard delta.isFinite else { return MonotonicInstant(nanoseconds: delta > 0 ? .max : .min) }
    let clamped = max(min(delta.rounded(), 9.2e18), -9.2e18)
    let (sum, overflow) = nanoseconds.addingReportingOverflow(Int64(clamped))
    if overflow { return MonotonicInstant(nanoseconds: clamped > 0 ? .max : .min) }
    return MonotonicInstant(nanoseconds: sum)
  }

  /// Seconds from `earlier` to this instant (negative when `earlier` is later).
  package func seconds(since earlier: MonotonicInstant) -> Double {
    Double(nanoseconds.subtractingReportingOverflow(earlier.nanoseconds).partialValue) / 1e9
  }

  package static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
    lhs.nanoseconds < rhs.nanoseconds
  }
}
