import Foundation
import Glibc

/// The host's worker processes, as the kernel lists them (`/proc/<pid>/task/<tid>/children`), never as the host says.
enum WorkerProcesses {
  /// The pids of `host`'s children now whose command line is the worker mode (`transition-host __worker`).
  static func of(_ host: pid_t) -> [pid_t] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(host)/task")) ?? []
    var children: [pid_t] = []
    for task in tasks {
      guard let text = try? String(contentsOfFile: "/proc/\(host)/task/\(task)/children", encoding: .utf8) else {
        continue
      }
      children += text.split(separator: " ").compactMap { pid_t($0) }
    }
    return children.filter { commandLine($0).contains("__worker") }
  }

  /// The arguments of process `pid` (empty once it is gone).
  static func commandLine(_ pid: pid_t) -> [String] {
    guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return [] }
    return data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
  }

  /// Whether process `pid` exists (a zombie counts: it was not reaped).
  static func exists(_ pid: pid_t) -> Bool {
    FileManager.default.fileExists(atPath: "/proc/\(pid)")
  }

  /// Waits up to `timeout` seconds for every one of `pids` to be gone; those still there.
  static func remaining(_ pids: [pid_t], timeout: Double = 5) -> [pid_t] {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while true {
      let left = pids.filter(exists)
      if left.isEmpty || Date() >= deadline { return left }
      usleep(10_000)
    }
  }

  /// Waits up to `timeout` seconds until `host` has exactly `count` workers; the pids then (or last seen).
  @discardableResult
  static func waitFor(_ count: Int, of host: pid_t, timeout: Double = 10) -> [pid_t] {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while true {
      let pids = of(host)
      if pids.count == count || Date() >= deadline { return pids }
      usleep(10_000)
    }
  }
}
