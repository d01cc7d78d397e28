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
    var descriptors: [pollfd] = []
    var owners: [(child: Int, stream: Int)] = []
    for (childIndex, child) in running.enumerated() {
      for (stream, fd) in child.openDescriptors {
        descriptors.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
        owners.append((childIndex, stream))
      }
    }
    let now = monotonicSeconds()
    let nearest = running.map(\.deadline).min() ?? now
    let milliseconds = Int32(max(0, min((nearest - now) * 1000, 100)).rounded(.up))
    let ready = descriptors.withUnsafeMutableBufferPointer { buffer in
      poll(buffer.baseAddress, nfds_t(buffer.count), milliseconds)
    }
    guard ready > 0 else { return }
    for (position, descriptor) in descriptors.enumerated() where descriptor.revents != 0 {
      running[owners[position].child].drain(stream: owners[position].stream)
    }
  }
}

/// A check process in flight.
private struct RunningCheck {
  let index: Int
  let pid: pid_t
  let started: Double
  let deadline: Double
  let timeout: Double
  /// stdout (0) and stderr (1) read ends; -1 once closed.
  var streams: [Int32]
  var result: [UInt8] = []
  var stderrTail: [UInt8] = []

  var openDescriptors: [(Int, Int32)] {
    streams.enumerated().filter { $0.element >= 0 }.map { ($0.offset, $0.element) }
  }

  enum SpawnResult {
    case success(RunningCheck)
    case failure(String)
  }

  static func spawn(_ job: CheckJob, index: Int, command: CheckCommand, timeout: Double) -> SpawnResult {
    var resultPipe: [Int32] = [-1, -1]
    var errorPipe: [Int32] = [-1, -1]
    // Close-on-exec, so that no other check process inherits them (it would hold the ends open).
    guard makePipe(&resultPipe) else { return .failure(systemError(errno)) }
    guard makePipe(&errorPipe) else {
      let code = errno
      close(resultPipe[0])
      close(resultPipe[1])
      return .failure(systemError(code))
    }
    defer {
      close(resultPipe[1])
      close(errorPipe[1])
    }

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    // dup2 clears close-on-exec on the new descriptor, so the child keeps exactly fds 0, 1 and 2.
    posix_spawn_file_actions_adddup2(&actions, resultPipe[1], 1)
    posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)

    let arguments =
      [command.executable] + command.leadingArguments + [job.kind.rawValue, job.plugin, job.argumentsJSON]
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    // The environment, without the Swift runtime's crash backtracer: a crash is expected here, and symbolicating
    // it would only cost time and fill stderr.
    var environment: [UnsafeMutablePointer<CChar>?] = [strdup("SWIFT_BACKTRACE=enable=no")]
    var entry = environ
    while let variable = entry.pointee {
      if strncmp(variable, "SWIFT_BACKTRACE=", 16) != 0 { environment.append(strdup(variable)) }
      entry += 1
    }
    environment.append(nil)
    defer { for pointer in environment { free(pointer) } }
    // A clean slate for signals: nothing blocked, every signal at its default action (the parent may block or
    // ignore some, and both are inherited across exec), so a crash is a crash.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var pid: pid_t = 0
    let status = posix_spawn(&pid, command.executable, &actions, &attributes, &argv, &environment)
    guard status == 0 else {
      for fd in [resultPipe[0], errorPipe[0]] { close(fd) }
      return .failure("\(command.executable): \(systemError(status))")
    }
    for fd in [resultPipe[0], errorPipe[0]] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    let now = monotonicSeconds()
    return .success(
      RunningCheck(
        index: index, pid: pid, started: now, deadline: now + timeout, timeout: timeout,
        streams: [resultPipe[0], errorPipe[0]]))
  }

  /// Reads what is available on `stream`; closes it at end of file.
  mutating func drain(stream: Int) {
    let fd = streams[stream]
    guard fd >= 0 else { return }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count > 0 {
        if stream == 0 {
          let room = CheckProcessRunner.maximumResultBytes - result.count
          result += buffer[0..<min(count, max(room, 0))]
        } else {
          stderrTail += buffer[0..<count]
          if stderrTail.count > CheckProcessRunner.stderrTailBytes {
            stderrTail.removeFirst(stderrTail.count - CheckProcessRunner.stderrTailBytes)
          }
        }
        continue
      }
      if count < 0 && errno == EINTR { continue }
      if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return }
      close(fd)  // end of file, or an error that will not go away
      streams[stream] = -1
      return
    }
  }

  /// The outcome when the child has exited (or was killed at its deadline); nil while it runs.
  mutating func finishIfDone() -> CheckProcessOutcome? {
    var status: Int32 = 0
    var reaped = waitpid(pid, &status, WNOHANG)
    while reaped < 0 && errno == EINTR { reaped = waitpid(pid, &status, WNOHANG) }
    var timedOut = false
    if reaped == 0 {
      guard monotonicSeconds() >= deadline else { return nil }
      kill(pid, SIGKILL)
      timedOut = true
      repeat { reaped = waitpid(pid, &status, 0) } while reaped < 0 && errno == EINTR
    }
    for stream in streams.indices { drain(stream: stream) }
    for fd in streams where fd >= 0 { close(fd) }
    streams = [-1, -1]
    let seconds = monotonicSeconds() - started
    return CheckProcessOutcome(outcome: judge(status: status, timedOut: timedOut), seconds: seconds)
  }

  private func judge(status: Int32, timedOut: Bool) -> CheckOutcome {
    if timedOut {
      return .fail("timed out after \(formatSeconds(timeout)) s (the check process was killed)")
    }
    let signal = status & 0x7f
    let lastLine = Self.lastLine(of: stderrTail)
    let suffix = lastLine.map { "; last stderr line: \($0)" } ?? ""
    if signal != 0 && signal != 0x7f {
      return CheckOutcome(.crashed, "the check process died from \(signalName(signal))\(suffix)")
    }
    let exitStatus = (status >> 8) & 0xff
    guard let outcome = CheckResultCoding.decode(result) else {
      return CheckOutcome(
        .crashed, "the check process exited with status \(exitStatus) without reporting a result\(suffix)")
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

/// pipe(2), both ends close-on-exec.
private func makePipe(_ ends: inout [Int32]) -> Bool {
  guard pipe(&ends) == 0 else { return false }
  for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
  return true
}

/// `SIGSEGV (Segmentation fault)`.
func signalName(_ signal: Int32) -> String {
  let names: [Int32: String] = [
    SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGILL: "SIGILL", SIGFPE: "SIGFPE",
    SIGTRAP: "SIGTRAP", SIGKILL: "SIGKILL", SIGTERM: "SIGTERM", SIGINT: "SIGINT", SIGPIPE: "SIGPIPE",
  ]
  let description = strsignal(signal).map { String(cString: $0) } ?? "signal \(signal)"
  guard let name = names[signal] else { return description }
  return "\(name) (\(description))"
}

/// Seconds on CLOCK_MONOTONIC.
func monotonicSeconds() -> Double {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// `2`, `0.5`, `1.25`: a number of seconds as people write it.
func formatSeconds(_ value: Double) -> String {
  if value == value.rounded() && abs(value) < 1e15 { return String(Int(value)) }
  return String(value)
}

/// strerror's text.
func systemError(_ code: Int32) -> String {
  String(cString: strerror(code))
}
