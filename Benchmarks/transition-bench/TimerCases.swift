// How late a loop wakes for a 120 Hz frame deadline, by the way it waits (issue 14, item 4: "measure poll-ms
// rounding vs timerfd / clock_nanosleep / spinning the last ~200 µs, keep what measures best"). Each strategy waits
// for the same absolute deadlines (start + n / 120 s) in this process, one after the other, with a pipe that never
// becomes readable in the poll set as the host's loop has stdin there.

import POSIX

#if canImport(Glibc)
  import Glibc
#endif

/// CPU time of the calling thread, in seconds.
private func threadCPUSeconds() -> Double {
  var spec = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
  return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
}

/// Busy-waits until `deadline`.
private func spin(until deadline: MonotonicInstant) {
  while MonotonicInstant.now() < deadline {}
}

/// The ways a poll(2) loop (or, for reference, a thread of its own) can wait for a deadline.
private enum WaitStrategy: CaseIterable {
  case pollMilliseconds, timerDescriptor, nanosleep, pollThenSpin, timerDescriptorThenSpin

  var name: String {
    switch self {
    case .pollMilliseconds: "poll(2), timeout in ms rounded up (the loop before)"
    case .timerDescriptor: "timerfd at the deadline in the poll set"
    case .nanosleep: "clock_nanosleep(TIMER_ABSTIME) (no poll: reference)"
    case .pollThenSpin: "poll(2) to 200 µs before (ms rounded down), then spin"
    case .timerDescriptorThenSpin: "timerfd 200 µs before in the poll set, then spin"
    }
  }

  /// Waits until `deadline` (or a little after).
  func wait(until deadline: MonotonicInstant, idle: FileDescriptor, timer: TimerDescriptor) {
    let early = deadline.advanced(bySeconds: -200e-6)
    switch self {
    case .pollMilliseconds:
      var entries = [PollEntry(idle, .readable)]
      while MonotonicInstant.now() < deadline {
        let timeout = pollTimeout(nanoseconds: deadline.nanoseconds - MonotonicInstant.now().nanoseconds)
        _ = try? FileDescriptor.poll(&entries, timeoutMilliseconds: timeout)
      }
    case .timerDescriptor, .timerDescriptorThenSpin:
      try? timer.arm(at: self == .timerDescriptor ? deadline : early)
      var entries = [PollEntry(idle, .readable), PollEntry(timer.descriptor, .readable)]
      _ = try? FileDescriptor.poll(&entries, timeoutMilliseconds: -1)
      timer.acknowledge()
      if self == .timerDescriptorThenSpin { spin(until: deadline) }
    case .nanosleep:
      var spec = timespec(
        tv_sec: Int(deadline.nanoseconds / 1_000_000_000), tv_nsec: Int(deadline.nanoseconds % 1_000_000_000))
      while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &spec, nil) == EINTR {}
    case .pollThenSpin:
      var entries = [PollEntry(idle, .readable)]
      let remaining = early.nanoseconds - MonotonicInstant.now().nanoseconds
      if remaining >= 1_000_000 {
        _ = try? FileDescriptor.poll(&entries, timeoutMilliseconds: Int32(remaining / 1_000_000))
      }
      spin(until: deadline)
    }
  }
}

/// One row per strategy: p50, p99 and worst lateness over `effort`-many 120 Hz deadlines, and the CPU it costs.
func timerCases(_ effort: Effort) -> [[String]] {
  var rows = [["wait strategy (120 Hz, absolute deadlines)", "deadlines", "p50 late", "p99 late", "worst", "CPU"]]
  guard let idle = try? FileDescriptor.pipe(), let timer = try? TimerDescriptor() else {
    warn("skipping the timer cases: no pipe or timerfd")
    return rows
  }
  defer {
    try? idle.readEnd.close()
    try? idle.writeEnd.close()
    try? timer.close()
  }
  let ticks = max(24, effort.count(360))
  let interval = 1.0 / 120
  for strategy in WaitStrategy.allCases {
    var lateness: [Double] = []
    let cpu = threadCPUSeconds()
    let start = MonotonicInstant.now()
    for n in 1...ticks {
      let deadline = start.advanced(bySeconds: Double(n) * interval)
      strategy.wait(until: deadline, idle: idle.readEnd, timer: timer)
      lateness.append(MonotonicInstant.now().seconds(since: deadline))
    }
    let wall = MonotonicInstant.now().seconds(since: start)
    let share = (threadCPUSeconds() - cpu) / wall
    rows.append([
      strategy.name, String(ticks), formatDuration(percentile(lateness, 50)), formatDuration(percentile(lateness, 99)),
      formatDuration(lateness.max() ?? 0), fixed(share * 100, 1) + "% of a core",
    ])
  }
  return rows
}
