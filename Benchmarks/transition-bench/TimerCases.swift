// How late a loop wakes for a 120 Hz frame deadline, by the way it waits (issue 14, item 4: "measure poll-ms
// rounding vs timerfd / clock_nanosleep / spinning the last ~200 µs, keep what measures best"). Each strategy waits
// for the same absolute deadlines (start + n / 120 s) in this process, one after the other, with a pipe that never
// becomes readable in the poll set as the host's loop has stdin there.

import Foundation
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

/// One row per strategy: p50, p99 and worst lateness over `effort`-many 120 Hz deadlines each, and the CPU it costs.
/// The strategies take the deadlines in turn (one after the other, round robin), so all of them see the same moments
/// of a shared machine: measured one strategy at a time, a neighbour's build would decide the ranking.
func timerCases(_ effort: Effort) -> [[String]] {
  var rows = [
    ["wait strategy (120 Hz, absolute deadlines, in turn)", "deadlines", "p50 late", "p99 late", "worst", "CPU"]
  ]
  guard let idle = try? FileDescriptor.pipe(), let timer = try? TimerDescriptor() else {
    warn("skipping the timer cases: no pipe or timerfd")
    return rows
  }
  defer {
    try? idle.readEnd.close()
    try? idle.writeEnd.close()
    try? timer.close()
  }
  let strategies = WaitStrategy.allCases
  let ticks = max(24, effort.count(360))
  let interval = 1.0 / 120
  var lateness = [[Double]](repeating: [], count: strategies.count)
  var cpu = [Double](repeating: 0, count: strategies.count)
  let start = MonotonicInstant.now()
  for n in 1...(ticks * strategies.count) {
    let index = n % strategies.count
    let deadline = start.advanced(bySeconds: Double(n) * interval)
    let before = threadCPUSeconds()
    strategies[index].wait(until: deadline, idle: idle.readEnd, timer: timer)
    lateness[index].append(MonotonicInstant.now().seconds(since: deadline))
    cpu[index] += threadCPUSeconds() - before
  }
  for (index, strategy) in strategies.enumerated() {
    let share = cpu[index] / (Double(ticks) * interval)
    rows.append([
      strategy.name, String(ticks), formatDuration(percentile(lateness[index], 50)),
      formatDuration(percentile(lateness[index], 99)), formatDuration(lateness[index].max() ?? 0),
      fixed(share * 100, 1) + "% of a core",
    ])
  }
  // The bare C program right after, both ways: the floor any process on this machine could reach at that moment.
  for way in CTimerFloor.allCases {
    guard let late = way.run(deadlines: ticks) else {
      rows.append([way.name, "-", "n/a (timer-floor not built)", "-", "-", "-"])
      continue
    }
    rows.append([
      way.name, String(late.lateness.count), formatDuration(percentile(late.lateness, 50)),
      formatDuration(percentile(late.lateness, 99)), formatDuration(late.lateness.max() ?? 0),
      fixed(late.cpuShare * 100, 1) + "% of a core",
    ])
  }
  return rows
}

/// `Benchmarks/c/timer-floor.c`, built by `make bench` beside this benchmark: a C program that does nothing but wait
/// for 120 Hz absolute deadlines, the machine's own floor for the real-time rows.
enum CTimerFloor: String, CaseIterable {
  case nanosleep, spin

  var name: String {
    switch self {
    case .nanosleep: "C program: clock_nanosleep(TIMER_ABSTIME) (after)"
    case .spin: "C program: timerfd 200 µs before, then spin (after)"
    }
  }

  /// Runs the program for `deadlines` deadlines: how late it woke for each, and its CPU time over the wall time; nil
  /// when it is not there or fails.
  func run(deadlines: Int) -> (lateness: [Double], cpuShare: Double)? {
    let path = executableFolder() + "/timer-floor"
    guard access(path, X_OK) == 0 else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = [String(Double(deadlines) / 120), rawValue]
    let output = Pipe()
    process.standardOutput = output
    let wallBefore = MonotonicInstant.now()
    var usageBefore = rusage()
    getrusage(RUSAGE_CHILDREN.rawValue, &usageBefore)
    do { try process.run() } catch { return nil }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    var usageAfter = rusage()
    getrusage(RUSAGE_CHILDREN.rawValue, &usageAfter)
    guard process.terminationStatus == 0 else { return nil }
    func seconds(_ u: rusage) -> Double {
      Double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + Double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6
    }
    let wall = MonotonicInstant.now().seconds(since: wallBefore)
    let lateness = String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { Double($0) }
    return lateness.isEmpty ? nil : (lateness, (seconds(usageAfter) - seconds(usageBefore)) / wall)
  }
}

/// The lateness of the host loop's own wait (a timerfd 200 µs before each 120 Hz deadline, then a spin) in this
/// process over `seconds`: what the machine allows at that moment, the baseline of the real-time arrival rows.
func timerFloor(seconds: Double) -> [Double] {
  guard let idle = try? FileDescriptor.pipe(), let timer = try? TimerDescriptor() else { return [] }
  defer {
    try? idle.readEnd.close()
    try? idle.writeEnd.close()
    try? timer.close()
  }
  var lateness: [Double] = []
  let start = MonotonicInstant.now()
  for n in 1...max(1, Int(seconds * 120)) {
    let deadline = start.advanced(bySeconds: Double(n) / 120)
    WaitStrategy.timerDescriptorThenSpin.wait(until: deadline, idle: idle.readEnd, timer: timer)
    lateness.append(MonotonicInstant.now().seconds(since: deadline))
  }
  return lateness
}
