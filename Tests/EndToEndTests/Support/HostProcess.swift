import Foundation
import Glibc
import POSIX
import Synchronization
import TestSupport

/// How a child process ended (POSIX's type, named here for the whole test target).
typealias ExitStatus = POSIX.TerminationStatus

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
  let process: ProcessID
  private let stdinPipe: FileDescriptor
  private let stdinOpen = Mutex(true)
  let stdout = Collected()
  let stderr = Collected()
  private var status: ExitStatus?
  /// The inode of the stdout pipe (as `/proc/<pid>/fd/N` shows it: `pipe:[inode]`).
  let stdoutPipeInode: UInt64
  /// The read end of stdout when the test chose not to drain it (closed at the end).
  private var undrainedStdout: FileDescriptor?

  /// The host's pid.
  var pid: pid_t { process.rawValue }

  /// The read end of the host's stdout when the test reads it itself (`drainStdout: false`).
  var stdoutReader: FileDescriptor? { undrainedStdout }

  /// Spawns the host with `arguments`. `closeStdoutReader` closes the test's end of stdout at once (a client
  /// that went away).
  init(
    _ arguments: [String] = [], executable: String = BuildProducts.hostBinary, environment: [String: String]? = nil,
    closeStdoutReader: Bool = false, drainStdout: Bool = true, blockedSignals: [Int32] = []
  ) throws {
    signal(SIGPIPE, SIG_IGN)  // writing to a host that exited must not kill the test runner
    // Close-on-exec from birth, or a host spawned by a parallel test could inherit another test's stdin and keep it
    // from ever seeing end of file.
    let input = try FileDescriptor.pipe()
    let output = try FileDescriptor.pipe()
    let errors = try FileDescriptor.pipe()
    var spawn = ProcessSpawn(
      executable: executable, arguments: arguments,
      environment: (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" })
    spawn.standardStreams = [
      0: .descriptor(input.readEnd), 1: .descriptor(output.writeEnd), 2: .descriptor(errors.writeEnd),
    ]
    // Start the child as a shell would: no blocked signals, default dispositions. (Test threads block
    // signals and the runner ignores SIGPIPE; both would otherwise be inherited.)
    spawn.blockedSignals = blockedSignals
    spawn.defaultSignals = [SIGPIPE, SIGTERM, SIGINT]
    let childEnds = [input.readEnd, output.writeEnd, errors.writeEnd]
    do {
      process = try spawn.spawn()
    } catch {
      for end in childEnds + [input.writeEnd, output.readEnd, errors.readEnd] { try? end.close() }
      throw error
    }
    for end in childEnds { try? end.close() }
    stdinPipe = input.writeEnd
    stdoutPipeInode = (try? output.readEnd.status().inode) ?? 0
    if closeStdoutReader {
      try? output.readEnd.close()
      stdout.end()
    } else if drainStdout {
      Self.drain(output.readEnd, into: stdout)
    } else {
      undrainedStdout = output.readEnd
      stdout.end()
    }
    Self.drain(errors.readEnd, into: stderr)
  }

  private static func drain(_ descriptor: FileDescriptor, into sink: Collected) {
    Thread {
      var chunk = [UInt8](repeating: 0, count: 65536)
      while let count = try? descriptor.read(into: &chunk),
        count > 0
      {
        sink.append(chunk[0..<count])
      }
      try? descriptor.close()
      sink.end()
    }.start()
  }

  /// Writes `bytes` to the host's stdin; false once the host stopped reading (EPIPE).
  @discardableResult
  func write(_ bytes: [UInt8]) -> Bool {
    stdinOpen.withLock { open in
      guard open else { return false }
      return (try? stdinPipe.writeAll(bytes)) != nil
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
      if open { try? stdinPipe.close() }
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
      do {
        if let status = try process.wait(blocking: false) {
          self.status = status
          return status
        }
      } catch {
        return nil
      }
      if Date() >= deadline { return nil }
      usleep(2_000)
    }
  }

  /// Sends `signal` to the host.
  func kill(_ signal: Int32) { try? process.send(signal) }

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
    if let undrainedStdout { try? undrainedStdout.close() }
    closeStdin()
    if waitForExit(timeout: 0) == nil {
      try? process.send(SIGKILL)
      _ = waitForExit(timeout: 5)
    }
  }
}
