import Foundation
import Glibc
import Synchronization
import TestSupport

/// C `pipe2` (Glibc's Swift module leaves it out): pipes must be close-on-exec from birth, or a host spawned by
/// a parallel test could inherit another test's stdin and keep it from ever seeing end of file.
private let pipe2: @convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32 = {
  unsafeBitCast(dlsym(nil, "pipe2")!, to: (@convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32).self)
}()

/// How a child process ended.
enum ExitStatus: Equatable, CustomStringConvertible {
  case exited(Int32)
  case signaled(Int32)

  var description: String {
    switch self {
    case .exited(let code): "exit \(code)"
    case .signaled(let signal): "killed by signal \(signal)"
    }
  }
}

/// Bytes a background thread keeps appending, and whoever waits for enough of them.
final class Collected: @unchecked Sendable {
  // Guarded by `condition`.
  private var bytes: [UInt8] = []
  private var ended = false
  private let condition = NSCondition()

  func append(_ chunk: ArraySlice<UInt8>) {
    condition.lock()
    bytes += chunk
    condition.broadcast()
    condition.unlock()
  }

  func end() {
    condition.lock()
    ended = true
    condition.broadcast()
    condition.unlock()
  }

  /// Waits until `isEnough(bytes)` or end of stream or the timeout; returns the bytes so far.
  func wait(timeout: Double, until isEnough: ([UInt8]) -> Bool) -> [UInt8] {
    let deadline = Date(timeIntervalSinceNow: timeout)
    condition.lock()
    defer { condition.unlock() }
    while !isEnough(bytes) && !ended {
      if !condition.wait(until: deadline) { break }
    }
    return bytes
  }

  /// Everything, once the stream ended (or the timeout passed).
  func all(timeout: Double = 30) -> [UInt8] { wait(timeout: timeout) { _ in false } }

  var snapshot: [UInt8] {
    condition.lock()
    defer { condition.unlock() }
    return bytes
  }
}

/// A running `transition-host` with pipes on stdin, stdout and stderr.
///
/// stdout and stderr are drained by their own threads from the start, and big inputs are written from another
/// thread (`writeInBackground`), so neither side can fill a pipe and wait for the other (the deadlock of
/// "write everything, then read").
final class HostProcess: @unchecked Sendable {
  let pid: pid_t
  private let stdinFD: Int32
  private let stdinOpen = Mutex(true)
  let stdout = Collected()
  let stderr = Collected()
  private var status: ExitStatus?
  /// The inode of the stdout pipe (as `/proc/<pid>/fd/N` shows it: `pipe:[inode]`).
  let stdoutPipeInode: UInt64
  /// The read end of stdout when the test chose not to drain it (closed at the end).
  private var undrainedStdoutFD: Int32?

  /// Spawns the host with `arguments`. `closeStdoutReader` closes the test's end of stdout at once (a client
  /// that went away).
  init(
    _ arguments: [String] = [], executable: String = BuildProducts.hostBinary, environment: [String: String]? = nil,
    closeStdoutReader: Bool = false, drainStdout: Bool = true, blockedSignals: [Int32] = []
  ) throws {
    signal(SIGPIPE, SIG_IGN)  // writing to a host that exited must not kill the test runner
    var input: [Int32] = [-1, -1]
    var output: [Int32] = [-1, -1]
    var errors: [Int32] = [-1, -1]
    guard pipe2(&input, O_CLOEXEC) == 0, pipe2(&output, O_CLOEXEC) == 0, pipe2(&errors, O_CLOEXEC) == 0 else {
      throw POSIXError(.EMFILE)
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    // dup2 clears close-on-exec on the target, so only 0, 1 and 2 reach the child.
    posix_spawn_file_actions_adddup2(&actions, input[0], 0)
    posix_spawn_file_actions_adddup2(&actions, output[1], 1)
    posix_spawn_file_actions_adddup2(&actions, errors[1], 2)

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    let environmentPairs = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
    let envp = environmentPairs.map { strdup($0) } + [nil]
    defer { for pointer in envp { free(pointer) } }

    // Start the child as a shell would: no blocked signals, default dispositions. (Test threads block
    // signals and the runner ignores SIGPIPE; both would otherwise be inherited.)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var mask = sigset_t()
    sigemptyset(&mask)
    for signal in blockedSignals { sigaddset(&mask, signal) }
    posix_spawnattr_setsigmask(&attributes, &mask)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGPIPE, SIGTERM, SIGINT] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    var child: pid_t = 0
    let result = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
    close(input[0])
    close(output[1])
    close(errors[1])
    guard result == 0 else {
      close(input[1])
      close(output[0])
      close(errors[0])
      throw POSIXError(POSIXErrorCode(rawValue: result) ?? .ENOENT)
    }
    pid = child
    stdinFD = input[1]
    var info = stat()
    fstat(output[0], &info)
    stdoutPipeInode = UInt64(info.st_ino)
    if closeStdoutReader {
      close(output[0])
      stdout.end()
    } else if drainStdout {
      Self.drain(output[0], into: stdout)
    } else {
      undrainedStdoutFD = output[0]
      stdout.end()
    }
    Self.drain(errors[0], into: stderr)
  }

  private static func drain(_ fd: Int32, into sink: Collected) {
    Thread {
      var chunk = [UInt8](repeating: 0, count: 65536)
      while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        sink.append(chunk[0..<n])
      }
      close(fd)
      sink.end()
    }.start()
  }

  /// Writes `bytes` to the host's stdin; false once the host stopped reading (EPIPE).
  @discardableResult
  func write(_ bytes: [UInt8]) -> Bool {
    stdinOpen.withLock { open in
      guard open else { return false }
      var offset = 0
      while offset < bytes.count {
        let n = bytes.withUnsafeBytes { Glibc.write(stdinFD, $0.baseAddress! + offset, $0.count - offset) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { return false }
        offset += n
      }
      return true
    }
  }

  @discardableResult
  func write(_ text: String) -> Bool { write(Array(text.utf8)) }

  /// Sends each line followed by `\n`.
  @discardableResult
  func send(lines: [String]) -> Bool { write(lines.map { $0 + "\n" }.joined()) }

  /// Closes the host's stdin (end of file for it).
  func closeStdin() {
    stdinOpen.withLock { open in
      if open { close(stdinFD) }
      open = false
    }
  }

  /// Runs `produce` on its own thread, handing it a writer; stdin is closed when it returns if `thenClose`.
  func writeInBackground(thenClose: Bool = false, _ produce: @escaping @Sendable (([UInt8]) -> Bool) -> Void)
    -> Thread
  {
    let thread = Thread { [self] in
      produce { self.write($0) }
      if thenClose { self.closeStdin() }
    }
    thread.start()
    return thread
  }

  /// Newline-framed messages received so far, waiting (up to `timeout`) until there are at least `count`.
  func lines(atLeast count: Int, timeout: Double = 30) -> [String] {
    let bytes = stdout.wait(timeout: timeout) { bytes in bytes.lazy.filter { $0 == 10 }.count >= count }
    return Self.split(bytes)
  }

  /// Every newline-framed message, after stdout ended.
  func allLines(timeout: Double = 30) -> [String] { Self.split(stdout.all(timeout: timeout)) }

  static func split(_ bytes: [UInt8]) -> [String] {
    bytes.split(separator: 10, omittingEmptySubsequences: false).dropLast().map {
      String(decoding: $0, as: UTF8.self)
    }
  }

  /// Waits up to `timeout` seconds for the host to end; nil if it is still running.
  func waitForExit(timeout: Double = 30) -> ExitStatus? {
    if let status { return status }
    let deadline = Date(timeIntervalSinceNow: timeout)
    while true {
      var raw: Int32 = 0
      let result = waitpid(pid, &raw, WNOHANG)
      if result == pid {
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift does not import; decode as <sys/wait.h> does.
        let status: ExitStatus = raw & 0x7f == 0 ? .exited((raw >> 8) & 0xff) : .signaled(raw & 0x7f)
        self.status = status
        return status
      }
      if result < 0 && errno != EINTR { return nil }
      if Date() >= deadline { return nil }
      usleep(2_000)
    }
  }

  /// Sends `signal` to the host.
  func kill(_ signal: Int32) { _ = Glibc.kill(pid, signal) }

  /// A field of `/proc/<pid>/status` in kB (e.g. `VmHWM`, the peak resident set), while the host runs.
  func statusField(_ name: String) -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
      return Int(line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
    }
    return nil
  }

  /// Where the host's fd `number` points (`pipe:[inode]`, a path …), while it runs.
  func fdTarget(_ number: Int32) -> String? {
    try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(number)")
  }

  /// The state letter of the host's main thread (`R`, `S` …) from `/proc/<pid>/stat`.
  func threadState() -> String? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = text.lastIndex(of: ")")
    else { return nil }
    return text[text.index(after: close)...].split(separator: " ").first.map(String.init)
  }

  /// The kernel function the host's main thread sleeps in (e.g. `pipe_write`).
  func wchan() -> String? {
    try? String(contentsOfFile: "/proc/\(pid)/wchan", encoding: .utf8)
  }

  /// Ends a host a test gave up on, so no child outlives the test run.
  deinit {
    if let undrainedStdoutFD { close(undrainedStdoutFD) }
    closeStdin()
    if waitForExit(timeout: 0) == nil {
      Glibc.kill(pid, SIGKILL)
      _ = waitForExit(timeout: 5)
    }
  }
}
