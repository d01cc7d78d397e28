import POSIX
import TransitionService

#if canImport(Glibc)
  import Glibc
#endif

/// How to start a check process: an executable that implements
/// `<executable> <leadingArguments…> <check-id> <plugin> <json-args>` (the hidden `validate --run-check` mode
/// of transition-host), writes its result as one JSON object on its stdout and exits 0.
package struct CheckCommand: Sendable, Equatable {
  /// The program to run (an absolute path, or one relative to the current directory).
  package var executable: String
  /// Arguments before the check's own (`["validate", "--run-check"]` for transition-host).
  package var leadingArguments: [String]

  package init(executable: String, leadingArguments: [String] = ["validate", "--run-check"]) {
    self.executable = executable
    self.leadingArguments = leadingArguments
  }
}

/// One check to run in a child process.
struct CheckJob {
  var kind: CheckKind
  var target: CheckTarget
  var plugin: String
  /// The child's whole command line after the executable, for a check that is not one of the battery's (a golden
  /// trace's compare); nil: `validate --run-check <kind> <plugin> <json-args>`.
  var arguments: [String]? = nil

  var argumentsJSON: String {
    var members: [String] = []
    if let animator = target.animator { members.append("\"animator\":" + jsonQuoted(animator)) }
    if let operation = target.operation { members.append("\"operation\":" + jsonQuoted(operation)) }
    return "{" + members.joined(separator: ",") + "}"
  }
}

/// What a check process produced.
struct CheckProcessOutcome {
  var outcome: CheckOutcome
  var seconds: Double
}

/// Runs check processes, at most `jobs` at a time, each with a deadline: a process still running at its
/// deadline is killed (SIGKILL) and its check fails as timed out; one that dies from a signal is `crashed`.
///
/// Single-threaded: one `poll(2)` loop reads every child's stdout (the result) and stderr (kept, last lines
/// only, for crash explanations) and reaps children as they exit.
struct CheckProcessRunner {
  var command: CheckCommand
  /// Seconds each check may take.
  var timeout: Double
  /// Processes at a time (≥ 1).
  var jobs: Int

  /// Bytes of a result kept at most (a larger one is cut and fails to parse: reported as a crash of the check).
  static let maximumResultBytes = 1 << 20
  /// Bytes of stderr kept per check (the end).
  static let stderrTailBytes = 4096

  /// Runs every job; the outcomes are in the jobs' order.
  func run(_ jobList: [CheckJob]) -> [CheckProcessOutcome] {
    var outcomes = [CheckProcessOutcome?](repeating: nil, count: jobList.count)
    var next = 0
    var running: [RunningCheck] = []
    while next < jobList.count || !running.isEmpty {
      while running.count < max(jobs, 1), next < jobList.count {
        let index = next
        next += 1
        switch RunningCheck.spawn(jobList[index], index: index, command: command, timeout: timeout) {
        case .success(let child): running.append(child)
        case .failure(let message):
          outcomes[index] = CheckProcessOutcome(
            outcome: CheckOutcome(.fail, "cannot start the check process: \(message)"), seconds: 0)
        }
      }
      if running.isEmpty { continue }
      waitForActivity(&running)
      var stillRunning: [RunningCheck] = []
      for var child in running {
        if let outcome = child.finishIfDone() {
          outcomes[child.index] = outcome
        } else {
          stillRunning.append(child)
        }
      }
      running = stillRunning
    }
    return outcomes.map { $0! }
  }

  /// Polls the children's pipes until one has data or closes, or the nearest deadline (capped, so exits
  /// of children whose pipes are held open elsewhere are still noticed).
  private func waitForActivity(_ running: inout [RunningCheck]) {
    var entries: [PollEntry] = []
    var owners: [(child: Int, stream: Int)] = []
    for (childIndex, child) in running.enumerated() {
      for (stream, descriptor) in child.openDescriptors {
        entries.append(PollEntry(descriptor, .readable))
        owners.append((childIndex, stream))
      }
    }
    let now = MonotonicInstant.now()
    let nearest = running.map(\.deadline).min() ?? now
    let timeout = min(pollTimeout(nanoseconds: nearest.nanoseconds - now.nanoseconds), 100)
    guard let ready = try? FileDescriptor.poll(&entries, timeoutMilliseconds: timeout), ready > 0 else { return }
    for (position, entry) in entries.enumerated() where !entry.returnedEvents.isEmpty {
      running[owners[position].child].drain(stream: owners[position].stream)
    }
  }
}

/// A check process in flight.
private struct RunningCheck {
  let index: Int
  let process: ProcessID
  let started: MonotonicInstant
  let deadline: MonotonicInstant
  let timeout: Double
  /// stdout (0) and stderr (1) read ends; nil once closed.
  var streams: [FileDescriptor?]
  var result: [UInt8] = []
  var stderrTail: [UInt8] = []

  var openDescriptors: [(Int, FileDescriptor)] {
    streams.enumerated().compactMap { stream, descriptor in descriptor.map { (stream, $0) } }
  }

  enum SpawnResult {
    case success(RunningCheck)
    case failure(String)
  }

  static func spawn(_ job: CheckJob, index: Int, command: CheckCommand, timeout: Double) -> SpawnResult {
    // Close-on-exec, so that no other check process inherits them (it would hold the ends open).
    let resultPipe: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
    let errorPipe: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
    do throws(Errno) {
      resultPipe = try FileDescriptor.pipe()
    } catch {
      return .failure(error.description)
    }
    do throws(Errno) {
      errorPipe = try FileDescriptor.pipe()
    } catch {
      try? resultPipe.readEnd.close()
      try? resultPipe.writeEnd.close()
      return .failure(error.description)
    }
    defer {
      try? resultPipe.writeEnd.close()
      try? errorPipe.writeEnd.close()
    }
    var spawn = ProcessSpawn(
      executable: command.executable,
      arguments: job.arguments ?? (command.leadingArguments + [job.kind.rawValue, job.plugin, job.argumentsJSON]),
      // The environment, without the Swift runtime's crash backtracer: a crash is expected here, and symbolicating
      // it would only cost time and fill stderr.
      environment: ["SWIFT_BACKTRACE=enable=no"]
        + ProcessSpawn.currentEnvironment.filter { !$0.hasPrefix("SWIFT_BACKTRACE=") })
    // The child keeps exactly fds 0, 1 and 2; a clean slate for signals (nothing blocked, every signal at its default
    // action: the parent may block or ignore some, and both are inherited across exec), so a crash is a crash.
    spawn.standardStreams = [
      0: .file("/dev/null", .readOnly), 1: .descriptor(resultPipe.writeEnd), 2: .descriptor(errorPipe.writeEnd),
    ]
    let process: ProcessID
    do {
      process = try spawn.spawn()
    } catch {
      try? resultPipe.readEnd.close()
      try? errorPipe.readEnd.close()
      return .failure("\(command.executable): \(error)")
    }
    for descriptor in [resultPipe.readEnd, errorPipe.readEnd] { try? descriptor.setNonBlocking(true) }
    let now = MonotonicInstant.now()
    return .success(
      RunningCheck(
        index: index, process: process, started: now, deadline: now.advanced(bySeconds: timeout), timeout: timeout,
        streams: [resultPipe.readEnd, errorPipe.readEnd]))
  }

  /// Reads what is available on `stream`; closes it at end of file.
  mutating func drain(stream: Int) {
    guard let descriptor = streams[stream] else { return }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count: Int
      do {
        count = try descriptor.read(into: &buffer)
      } catch .wouldBlock {
        return
      } catch {
        count = 0  // an error that will not go away: as end of file
      }
      guard count > 0 else {
        try? descriptor.close()
        streams[stream] = nil
        return
      }
      if stream == 0 {
        let room = CheckProcessRunner.maximumResultBytes - result.count
        result += buffer[0..<min(count, max(room, 0))]
      } else {
        stderrTail += buffer[0..<count]
        if stderrTail.count > CheckProcessRunner.stderrTailBytes {
          stderrTail.removeFirst(stderrTail.count - CheckProcessRunner.stderrTailBytes)
        }
      }
    }
  }

  /// The outcome when the child has exited (or was killed at its deadline); nil while it runs.
  mutating func finishIfDone() -> CheckProcessOutcome? {
    var status = try? process.wait(blocking: false)
    var timedOut = false
    if status == nil {
      guard MonotonicInstant.now() >= deadline else { return nil }
      try? process.send(SIGKILL)
      timedOut = true
      status = try? process.wait()
    }
    for stream in streams.indices { drain(stream: stream) }
    for descriptor in streams.compactMap({ $0 }) { try? descriptor.close() }
    streams = [nil, nil]
    let seconds = MonotonicInstant.now().seconds(since: started)
    return CheckProcessOutcome(outcome: judge(status: status, timedOut: timedOut), seconds: seconds)
  }

  private func judge(status: TerminationStatus?, timedOut: Bool) -> CheckOutcome {
    if timedOut {
      return .fail("timed out after \(formatSeconds(timeout)) s (the check process was killed)")
    }
    let lastLine = Self.lastLine(of: stderrTail)
    let suffix = lastLine.map { "; last stderr line: \($0)" } ?? ""
    if case .signaled(let signal)? = status {
      return CheckOutcome(.crashed, "the check process died from \(signalDescription(signal))\(suffix)")
    }
    guard let outcome = CheckResultCoding.decode(result) else {
      let code = if case .exited(let code)? = status { code } else { Int32(0) }
      return CheckOutcome(.crashed, "the check process exited with status \(code) without reporting a result\(suffix)")
    }
    return outcome
  }

  private static func lastLine(of bytes: [UInt8]) -> String? {
    let text = String(decoding: bytes, as: UTF8.self)
    return text.split(whereSeparator: \.isNewline).last { !$0.allSatisfy(\.isWhitespace) }.map {
      String($0.prefix(200))
    }
  }
}
