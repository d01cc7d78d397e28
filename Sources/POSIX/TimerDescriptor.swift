import CPOSIX
import Glibc

/// A timerfd on `CLOCK_MONOTONIC`: a descriptor that polls readable once an absolute deadline has passed. Unlike
/// poll(2)'s timeout it is not rounded to milliseconds (nor stretched by the task's timer slack), so a loop that
/// polls it with its other descriptors wakes within microseconds of a deadline.
///
/// Corresponds to C `timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK)` and `timerfd_settime` with
/// `TFD_TIMER_ABSTIME`.
package struct TimerDescriptor: Sendable {
  /// Poll this for readable; then call `acknowledge()`.
  package let descriptor: FileDescriptor

  /// A new, disarmed timer (close-on-exec, non-blocking).
  package init() throws(Errno) {
    descriptor = FileDescriptor(rawValue: try Errno.check { CPOSIX_timerfd_create_monotonic() })
  }

  /// Makes the descriptor readable once the monotonic clock reaches `deadline` (at once when it has passed);
  /// replaces the previous deadline.
  package func arm(at deadline: MonotonicInstant) throws(Errno) {
    // 0 would disarm: a deadline at or before the clock's start means "now", which 1 ns also is.
    _ = try Errno.check { CPOSIX_timerfd_set_absolute(descriptor.rawValue, max(deadline.nanoseconds, 1)) }
  }

  /// Stops the timer; the descriptor no longer becomes readable.
  package func disarm() throws(Errno) {
    _ = try Errno.check { CPOSIX_timerfd_set_absolute(descriptor.rawValue, 0) }
  }

  /// Clears the readable state after an expiry (reads the expiration count; nothing happens when there is none).
  package func acknowledge() {
    var expirations: UInt64 = 0
    _ = withUnsafeMutableBytes(of: &expirations) { try? descriptor.read(into: $0) }
  }

  /// Closes the descriptor.
  package func close() throws(Errno) {
    try descriptor.close()
  }
}
