// The real binary end to end: the release transition-host spawned with pipes, fed by a writer thread while this
// thread reads its replies; and its peak memory after an oversized line.

import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A spawned transition-host with its stdin and stdout on pipes (stderr to /dev/null).
final class HostProcess {
  let pid: pid_t
  let input: Int32
  let output: Int32

  init(executable: String) throws {
    var toHost: [Int32] = [-1, -1]
    var fromHost: [Int32] = [-1, -1]
    guard pipe(&toHost) == 0, pipe(&fromHost) == 0 else { throw BenchError("pipe: \(errno)") }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, toHost[0], 0)
    posix_spawn_file_actions_adddup2(&actions, fromHost[1], 1)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    for fd in toHost + fromHost { posix_spawn_file_actions_addclose(&actions, fd) }
    let argv: [UnsafeMutablePointer<CChar>?] = [strdup(executable), nil]
    defer { for arg in argv { free(arg) } }
    var child: pid_t = 0
    let status = posix_spawn(&child, executable, &actions, nil, argv, environ)
    close(toHost[0])
    close(fromHost[1])
    guard status == 0 else {
      close(toHost[1])
      close(fromHost[0])
      throw BenchError("cannot start \(executable): \(String(cString: strerror(status)))")
    }
    pid = child
    input = toHost[1]
    output = fromHost[0]
  }

  /// Writes `bytes` to the host's stdin on a thread of its own (the host's replies fill the other pipe meanwhile);
  /// `closing` closes stdin afterwards.
  func writeInBackground(_ bytes: [UInt8], closing: Bool) -> DispatchSemaphore {
    let done = DispatchSemaphore(value: 0)
    let fd = input
    let thread = Thread {
      bytes.withUnsafeBytes { all in
        var offset = 0
        while offset < all.count {
          let n = write(fd, all.baseAddress! + offset, all.count - offset)
          if n < 0 && errno == EINTR { continue }
          if n <= 0 { break }
          offset += n
        }
      }
      if closing { close(fd) }
      done.signal()
    }
    thread.stackSize = 1 << 20
    thread.start()
    return done
  }

  /// Reads stdout until `lines` newlines have arrived (or end of file); returns the count seen and the last line.
  func readLines(_ lines: Int) -> (count: Int, last: [UInt8]) {
    var seen = 0
    var current: [UInt8] = []
    var last: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while seen < lines {
      let n = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { break }
      for byte in chunk[0..<n] {
        if byte == 0x0A {
          seen += 1
          last = current
          current.removeAll(keepingCapacity: true)
        } else if current.count < 4096 {
          current.append(byte)
        }
      }
    }
    return (seen, last)
  }

  /// The kernel's peak resident set of the process, in kB (VmHWM in /proc/<pid>/status).
  func peakResidentKB() -> Int? {
    // /proc files report size 0: read them in chunks until end of file.
    let fd = open("/proc/\(pid)/status", O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n <= 0 { break }
      bytes += chunk[0..<n]
    }
    let status = String(decoding: bytes, as: UTF8.self)
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
      // "VmHWM:\t    5120 kB"
      return line.dropFirst(6).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Int($0) }
    }
    return nil
  }

  /// Closes stdin and waits for the host to exit; returns its exit status.
  @discardableResult
  func finish(closeInput: Bool = true) -> Int32 {
    if closeInput { close(input) }
    var drain = [UInt8](repeating: 0, count: 1 << 16)
    while drain.withUnsafeMutableBytes({ read(output, $0.baseAddress, $0.count) }) > 0 {}
    close(output)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return status
  }
}

struct BenchError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// `count` requests `{"jsonrpc":"2.0","id":N,"method":"transition/list"}`, one a line: a real handler with a
/// small reply that leaves the host running.
func listRequests(_ count: Int) -> [UInt8] {
  var bytes: [UInt8] = []
  bytes.reserveCapacity(count * 56)
  for id in 1...count {
    bytes += Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"transition/list"}"#.utf8)
    bytes.append(0x0A)
  }
  return bytes
}

/// Sends `requests` to a fresh host and times until the last reply is read (spawn excluded).
func pipeRound(_ host: String, _ requests: [UInt8], count: Int) throws -> Double {
  let process = try HostProcess(executable: host)
  let start = monotonicSeconds()
  let written = process.writeInBackground(requests, closing: false)
  let (seen, last) = process.readLines(count)
  let elapsed = monotonicSeconds() - start
  written.wait()
  process.finish()
  guard seen == count, String(decoding: last, as: UTF8.self).contains(#""id":\#(count),"#) else {
    throw BenchError("the host answered \(seen) of \(count) requests; last: \(String(decoding: last, as: UTF8.self))")
  }
  return elapsed
}

func hostCases(_ effort: Effort, host: String) -> [Figure] {
  guard access(host, X_OK) == 0 else {
    warn("skipping the end-to-end cases: no executable \(host) (make bench builds it)")
    return []
  }
  var figures: [Figure] = []
  do {
    let count = effort.count(200_000)
    let requests = listRequests(count)
    _ = try pipeRound(host, listRequests(max(1, count / 10)), count: max(1, count / 10))
    var best = Double.infinity
    for _ in 0..<min(effort.rounds, 3) { best = min(best, try pipeRound(host, requests, count: count)) }
    var figure = Figure(name: "host: transition/list through the binary's pipes", iterations: count, seconds: best)
    figure.note = "\(requests.count / count) B/request, best of \(min(effort.rounds, 3)), spawn excluded"
    figures.append(figure)

    figures.append(try oversizedLine(host, megabytes: max(16, Int(100 * effort.scale)), rounds: min(effort.rounds, 3)))
  } catch {
    warn("the end-to-end cases failed: \(error)")
  }
  return figures
}

/// A host fed one line of `megabytes` MB (far beyond the 8 MB message limit: it must be skipped, never held),
/// then a small request; its VmHWM once that request is answered (best time and highest peak of `rounds` hosts), against a host that only got the small request.
func oversizedLine(_ host: String, megabytes: Int, rounds: Int) throws -> Figure {
  let tail = Array(#"{"jsonrpc":"2.0","id":2,"method":"transition/list"}"#.utf8) + [0x0A]

  let idle = try HostProcess(executable: host)
  let idleWrite = idle.writeInBackground(tail, closing: false)
  _ = idle.readLines(1)
  idleWrite.wait()
  let idlePeak = idle.peakResidentKB()
  idle.finish()

  let size = megabytes * 1_000_000
  var line = Array(#"{"jsonrpc":"2.0","id":1,"method":"transition/list","params":{"pad":""#.utf8)
  line += [UInt8](repeating: 0x61, count: size - line.count - 4)
  line += Array(#""}}"#.utf8) + [0x0A]
  let message = line + tail
  // Best time and highest peak of `rounds` fresh hosts (the peak should not vary: it shows the rounds agree).
  var best = Double.infinity
  var peak: Int?
  for _ in 0..<rounds {
    let process = try HostProcess(executable: host)
    let start = monotonicSeconds()
    let written = process.writeInBackground(message, closing: false)
    // The oversized line gets an error reply, the small request its result.
    let (seen, last) = process.readLines(2)
    best = min(best, monotonicSeconds() - start)
    written.wait()
    if let kb = process.peakResidentKB() { peak = max(peak ?? 0, kb) }
    process.finish()
    guard seen == 2, String(decoding: last, as: UTF8.self).contains(#""id":2"#) else {
      throw BenchError("the host did not answer after the \(megabytes) MB line (\(seen) replies)")
    }
  }
  var figure = Figure(
    name: "host: one \(megabytes) MB line, then a request", iterations: 1, seconds: best,
    bytesPerOp: Double(line.count))
  let mb = { (kb: Int?) in kb.map { fixed(Double($0) / 1024, 1) + " MB" } ?? "?" }
  figure.note = "peak RSS (VmHWM) \(mb(peak)); idle host \(mb(idlePeak)); best of \(rounds)"
  return figure
}
