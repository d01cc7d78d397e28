// Programs under measurement, spawned with pipes: the release transition-host and the C baselines. A writer thread
// can feed stdin while this thread reads stdout line by line, each line stamped with the time the read that completed
// it returned; /proc gives their peak memory and CPU time.

import Foundation
import POSIX

/// A spawned program with its stdin and stdout on pipes (stderr to /dev/null).
final class ChildProcess {
  let process: ProcessID
  let input: FileDescriptor
  let output: FileDescriptor
  /// Bytes read but not yet delivered as lines: from `start`; no newline before `scanned`.
  private var buffer: [UInt8] = []
  private var start = 0
  private var scanned = 0
  private var chunk = [UInt8](repeating: 0, count: 1 << 20)
  /// When the last read returned.
  private var lastRead = 0.0

  init(_ executable: String, _ arguments: [String] = []) throws {
    let toChild = try FileDescriptor.pipe()
    let fromChild = try FileDescriptor.pipe()
    var spawn = ProcessSpawn(executable: executable, arguments: arguments)
    spawn.standardStreams = [
      0: .descriptor(toChild.readEnd), 1: .descriptor(fromChild.writeEnd), 2: .file("/dev/null", .writeOnly),
    ]
    let spawned = Result { () throws(Errno) in try spawn.spawn() }
    try? toChild.readEnd.close()
    try? fromChild.writeEnd.close()
    guard case .success(let child) = spawned else {
      try? toChild.writeEnd.close()
      try? fromChild.readEnd.close()
      throw BenchError("cannot start \(executable): \(String(describing: spawned))")
    }
    process = child
    input = toChild.writeEnd
    output = fromChild.readEnd
    // A bigger pipe, so a large frame is not split into 64 KiB writes each waiting for this reader (Linux allows
    // 1 MiB to anyone).
    // F_SETPIPE_SZ (1031) is a GNU extension Glibc's module does not import.
    _ = fcntl(output.rawValue, 1031, 1 << 20)
  }

  /// Writes `text` to stdin (blocking).
  func send(_ text: String) {
    try? input.writeAll(text)
  }

  /// Writes `bytes` to stdin on a thread of its own (the child's output fills the other pipe meanwhile); `closing`
  /// closes stdin afterwards.
  func writeInBackground(_ bytes: [UInt8], closing: Bool) -> DispatchSemaphore {
    let done = DispatchSemaphore(value: 0)
    let input = input
    let thread = Thread {
      try? input.writeAll(bytes)
      if closing { try? input.close() }
      done.signal()
    }
    thread.stackSize = 1 << 20
    thread.start()
    return done
  }

  /// Calls `body` with each line of stdout (without its newline, borrowed) and the time its last byte was read,
  /// until `body` returns false or the output ends. Lines longer than the buffer are delivered whole.
  func readLines(_ body: (ArraySlice<UInt8>, Double) -> Bool) {
    while true {
      while let newline = nextNewline() {
        let line = buffer[start..<newline]
        start = newline + 1
        scanned = start
        if !body(line, lastRead) { return }
      }
      scanned = buffer.count
      if start > 0 {
        buffer.removeFirst(start)
        scanned -= start
        start = 0
      }
      guard let n = try? output.read(into: &chunk), n > 0 else { return }
      lastRead = monotonicSeconds()
      buffer.append(contentsOf: chunk[0..<n])
    }
  }

  /// Where the next newline is in `buffer` from `max(start, scanned)`: with memchr, as the programs under measurement
  /// split their input (a generic `firstIndex(of:)` made this reader slower than the host for its longer replies).
  private func nextNewline() -> Int? {
    let from = max(start, scanned)
    guard from < buffer.count else { return nil }
    return buffer.withUnsafeBufferPointer { bytes -> Int? in
      guard let base = bytes.baseAddress, let found = memchr(base + from, 0x0A, bytes.count - from) else { return nil }
      return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
  }

  /// Reads lines until one starts with `prefix`; returns it and when it arrived (nil at end of output).
  func line(startingWith prefix: [UInt8]) -> (line: [UInt8], time: Double)? {
    var found: (line: [UInt8], time: Double)?
    readLines { line, time in
      guard line.starts(with: prefix) else { return true }
      found = (Array(line), time)
      return false
    }
    return found
  }

  /// Reads stdout until `lines` newlines have arrived (or end of file); returns the count seen and the last line.
  func readLines(_ lines: Int) -> (count: Int, last: [UInt8]) {
    var seen = 0
    var last: [UInt8] = []
    guard lines > 0 else { return (0, []) }
    readLines { line, _ in
      seen += 1
      if seen == lines { last = Array(line.prefix(4096)) }
      return seen < lines
    }
    return (seen, last)
  }

  /// A field of /proc/<pid>/status in kB ("VmHWM": the peak resident set), of this process or of `pid`.
  func statusKB(_ field: String, of pid: Int32? = nil) -> Int? {
    // /proc files report size 0: read them in chunks until end of file.
    let pid = pid ?? process.rawValue
    guard let file = try? FileDescriptor.open("/proc/\(pid)/status", .readOnly, options: .closeOnExec)
    else { return nil }
    defer { try? file.close() }
    let status = String(decoding: (try? file.readToEnd()) ?? [], as: UTF8.self)
    for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
      // "VmHWM:\t    5120 kB"
      return line.dropFirst(field.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap {
        Int($0)
      }
    }
    return nil
  }

  /// The kernel's peak resident set of the process, in kB (VmHWM).
  func peakResidentKB() -> Int? { statusKB("VmHWM") }

  /// The peak resident sets of the process's children (a host's plugin workers), summed, in kB, and how many.
  func childrenPeakResidentKB() -> (kilobytes: Int, count: Int) {
    let pid = process.rawValue
    guard let file = try? FileDescriptor.open("/proc/\(pid)/task/\(pid)/children", .readOnly, options: .closeOnExec)
    else { return (0, 0) }
    defer { try? file.close() }
    let children = String(decoding: (try? file.readToEnd()) ?? [], as: UTF8.self).split(separator: " ").compactMap {
      Int32($0.trimmingPrefix(while: \.isWhitespace))
    }
    return (children.reduce(0) { $0 + (statusKB("VmHWM", of: $1) ?? 0) }, children.count)
  }

  /// User plus system CPU time the process has used, in seconds (/proc/<pid>/stat fields 14 and 15).
  func cpuSeconds() -> Double? {
    guard let file = try? FileDescriptor.open("/proc/\(process.rawValue)/stat", .readOnly, options: .closeOnExec)
    else { return nil }
    defer { try? file.close() }
    let stat = String(decoding: (try? file.readToEnd()) ?? [], as: UTF8.self)
    // The command name (field 2) is in parentheses and may hold spaces: count fields after its closing one.
    guard let close = stat.lastIndex(of: ")") else { return nil }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }

  /// Closes stdin and waits for the program to exit; returns how it ended.
  @discardableResult
  func finish(closeInput: Bool = true) -> TerminationStatus? {
    if closeInput { try? input.close() }
    _ = try? output.readToEnd()
    try? output.close()
    return try? process.wait()
  }
}

struct BenchError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// The p-th percentile (0…100) of `values` (nearest rank); 0 for none.
func percentile(_ values: [Double], _ p: Double) -> Double {
  guard !values.isEmpty else { return 0 }
  let sorted = values.sorted()
  let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
  return sorted[min(max(rank, 0), sorted.count - 1)]
}
