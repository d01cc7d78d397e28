// The page a worker and its parent share: at every call into plugin code the worker records what it calls, for which
// transition and since when; the parent's watchdog reads it to kill a worker stuck in one call past
// `--plugin-timeout`, and a crash report reads it to say what the plugin was doing when its worker died. A seqlock
// (an odd sequence number while a record is being written) lets the parent read a consistent record without ever
// waiting for the worker, which may be stopped anywhere.

import POSIX
import PluginHost

/// One reading of the page.
struct WatchdogReading: Equatable {
  /// Calls into plugin code in progress (0: the worker runs host code, or waits).
  var depth: UInt64
  /// When the outermost of them began (CLOCK_MONOTONIC nanoseconds).
  var since: Int64
  /// The innermost one.
  var call: PluginCall?
  /// The transition it was for (the parent's number; 0 for none).
  var transition: Int
  /// Counts every call in or out and every message handled: a worker whose count moves is making progress.
  var progress: UInt64
}

/// The shared page, as either side maps it.
struct WatchdogPage {
  /// Bytes of the page.
  static let size = 4096

  private enum Word: Int {
    case magic = 0
    case sequence
    case depth
    case since
    case call
    case transition
    case progress
  }

  private static let magic: UInt64 = 0x7468_7764_0001  // "thwd", layout 1

  let memory: SharedMemory

  init(memory: SharedMemory) {
    self.memory = memory
  }

  /// A new page in memory for a worker to inherit, and its descriptor.
  static func create() throws(Errno) -> (page: WatchdogPage, file: FileDescriptor) {
    let file = try FileDescriptor.memoryFile(name: "transition-host-watchdog")
    do throws(Errno) {
      try file.truncate(to: size)
      let page = WatchdogPage(memory: try SharedMemory(mapping: file, size: size))
      page.memory.store(Word.magic.rawValue, magic)
      return (page, file)
    } catch {
      try? file.close()
      throw error
    }
  }

  /// Maps the page a worker inherited.
  static func map(_ file: FileDescriptor) throws(Errno) -> WatchdogPage {
    WatchdogPage(memory: try SharedMemory(mapping: file, size: size))
  }

  // MARK: Writing (the worker)

  /// Records a new state: `update` sets the fields between the two sequence steps.
  func write(depth: UInt64, since: Int64?, call: PluginCall?, transition: Int) {
    memory.add(Word.sequence.rawValue, 1)
    memory.store(Word.depth.rawValue, depth)
    if let since { memory.store(Word.since.rawValue, UInt64(bitPattern: since)) }
    memory.store(Word.call.rawValue, UInt64(call?.rawValue ?? 0))
    memory.store(Word.transition.rawValue, UInt64(max(transition, 0)))
    memory.add(Word.progress.rawValue, 1)
    memory.add(Word.sequence.rawValue, 1)
  }

  /// Counts progress outside plugin code (a message handled, a frame encoded).
  func markProgress() {
    memory.add(Word.progress.rawValue, 1)
  }

  // MARK: Reading (the parent)

  /// A consistent reading, or nil when the page is not one of ours (scribbled over) or never settles.
  func read() -> WatchdogReading? {
    guard memory.load(Word.magic.rawValue) == Self.magic else { return nil }
    for _ in 0..<64 {
      let before = memory.load(Word.sequence.rawValue)
      guard before & 1 == 0 else { continue }
      let reading = WatchdogReading(
        depth: memory.load(Word.depth.rawValue), since: Int64(bitPattern: memory.load(Word.since.rawValue)),
        call: UInt8(exactly: memory.load(Word.call.rawValue)).flatMap { PluginCall(rawValue: $0) },
        transition: Int(truncatingIfNeeded: min(memory.load(Word.transition.rawValue), UInt64(Int32.max))),
        progress: memory.load(Word.progress.rawValue))
      if memory.load(Word.sequence.rawValue) == before { return reading }
    }
    return nil
  }
}

/// The worker's side: every call into plugin code, recorded on the page (PluginHost's `PluginCallObserver`).
final class WatchdogRecorder: PluginCallObserver {
  private let page: WatchdogPage
  private var calls: [PluginCall] = []
  /// The transition the worker is working on (the parent's number), recorded with each call.
  var transition = 0

  init(page: WatchdogPage) {
    self.page = page
  }

  func willCall(_ call: PluginCall) {
    calls.append(call)
    let since = calls.count == 1 ? MonotonicInstant.now().nanoseconds : nil
    page.write(depth: UInt64(calls.count), since: since, call: call, transition: transition)
  }

  func didReturn(from call: PluginCall) {
    _ = calls.popLast()
    page.write(depth: UInt64(calls.count), since: nil, call: calls.last, transition: transition)
  }

  /// Counts progress outside plugin code.
  func markProgress() { page.markProgress() }
}
