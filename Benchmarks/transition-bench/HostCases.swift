// The real binary end to end: the release transition-host spawned with pipes, fed by a writer thread while this
// thread reads its replies; and its peak memory after an oversized line.

import Foundation
import POSIX

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

/// Sends `requests` to a fresh host (once it answered a first one) and times until the last reply is read.
func pipeRound(_ host: String, _ requests: [UInt8], count: Int) throws -> Double {
  let ready = Array(#"{"jsonrpc":"2.0","id":0,"method":"transition/list"}"#.utf8) + [0x0A]
  let (elapsed, last) = try pipelined(host, [], ready: ready, readyReplies: 1, requests, count: count)
  guard String(decoding: last, as: UTF8.self).contains(#""id":\#(count),"#) else {
    throw BenchError("the host's last reply is not to request \(count): \(String(decoding: last, as: UTF8.self))")
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
    figure.note = "\(requests.count / count) B/request, best of \(min(effort.rounds, 3)), start-up excluded"
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

  let idle = try ChildProcess(host)
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
    let process = try ChildProcess(host)
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
