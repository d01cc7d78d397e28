// Real-time frames built ahead of their tick (TransitionSession's `buildsFramesAhead`): the frames a client gets are
// the same bytes with it on and off, for every built-in animator and for animators whose ticks run plugin code
// (completions that change the scene, display links), full and delta, in this process and in workers, also when
// calls arrive between ticks; and with it on, the quiet ticks really send the frame built ahead.

import Glibc
import JSON
import JSONRPC
import POSIX
import PluginHost
import PluginIsolation
import TestSupport
import Testing
import TransitionService

/// A session on the manual clock serving real plugins (the built-ins, the UIKitBridged and SwiftSDK fixtures), in this
/// process or in worker processes, through a LocalConnection that keeps every message's bytes.
private final class AheadSession {
  let connection = LocalConnection()
  let scheduler: ManualScheduler
  let service: TransitionSession
  let workers: WorkerPlugins?
  private var nextID: Int64 = 1
  /// How long a load or a call may take before its worker is given up on (real seconds; `settle` returns as soon as
  /// nothing is owed). Generous because the whole suite starts workers in parallel on a loaded 2-core machine, where
  /// 10 s was once too short for a Swift fixture's load (CI: −32800 from the abandoned load).
  private static let patience = 120.0
  /// Every message written so far, as sent.
  private(set) var messages: [[UInt8]] = []

  init(isolated: Bool, framesAhead: Bool, clockStart: Double = 100) throws {
    scheduler = ManualScheduler(now: clockStart)
    var configuration = TransitionSession.Configuration()
    configuration.buildsFramesAhead = framesAhead
    let fixtures = ["UIKitBridged", "SwiftSDK"].map(BuildProducts.fixturePlugin)
    if isolated {
      let searchPath = PluginSearchPath(builtInFolder: BuildProducts.folder)
      let workers = WorkerPlugins(
        settings: IsolationSettings(executable: BuildProducts.hostBinary), searchPath: searchPath, allowAnyPath: true,
        logs: PluginLogQueue(), logger: Logger(level: .error))
      workers.loadStartupPlugins()
      for fixture in fixtures {
        var loaded: Result<PluginStatus, ResponseError>?
        workers.load(path: fixture) { loaded = $0 }
        workers.settle(until: Self.patience)
        _ = try #require(loaded).get()
      }
      self.workers = workers
      service = TransitionSession(
        configuration: configuration, hosting: workers, output: connection.dispatcher, scheduler: scheduler)
    } else {
      let names = ["Flip", "MagicMove", "PullDown", "SegueSlide", "Sheet"]
      let registry = try registry(loadingPaths: names.map(BuildProducts.builtInPlugin) + fixtures)
      workers = nil
      service = TransitionSession(
        configuration: configuration, hosting: InProcessPlugins(registry: registry), output: connection.dispatcher,
        scheduler: scheduler)
    }
    service.register(on: connection.dispatcher)
  }

  deinit { workers?.close() }

  /// Waits for the calls on their way to workers (nothing to wait for in this process).
  private func settle() {
    workers?.settle(until: Self.patience)
    collect()
  }

  private func collect() {
    messages += connection.takeReceived().map(\.bytes)
  }

  /// Sends a request and returns its result (the messages it caused are kept).
  @discardableResult
  func request(_ method: String, _ params: JSON) -> JSON? {
    let id = nextID
    nextID += 1
    connection.send(["jsonrpc": "2.0", "id": JSON(id), "method": JSON(method), "params": params])
    settle()
    return messages.compactMap { bytes in bytes.withUnsafeBytes { try? JSON.parse($0) } }.last {
      $0["id"] == JSON(id)
    }?[
      "result"]
  }

  /// Starts a 1 s real-time sheet presentation of the script's trees with full frames at `fps`; returns its result.
  func startOneSecondSheet(fps: Double) -> JSON? {
    request(
      "transition/start",
      [
        "animator": "sheet", "operation": "present", "container": AheadScript.container, "from": AheadScript.from,
        "to": AheadScript.to, "clock": "realtime", "fps": JSON(fps), "frames": "full", "params": ["duration": 1],
      ])
  }

  /// Lets `seconds` of real time pass, one frame interval at a time (each wake-up's call answered before the next).
  func run(for seconds: Double, fps: Double) {
    for _ in 0..<Int((seconds * fps).rounded()) {
      scheduler.advance(by: 1 / fps)
      settle()
    }
  }

  /// The messages sent so far without waiting for any worker's answer.
  func collectNow() {
    collect()
  }

  /// The `seq` of each `transition/frame` message sent so far.
  var frameSeqs: [JSON] {
    frames.compactMap { bytes in bytes.withUnsafeBytes { try? JSON.parse($0) }?["params"]?["seq"] }
  }

  /// The `transition/frame` messages, as sent.
  var frames: [[UInt8]] {
    messages.filter { bytes in bytes.starts(with: Array(#"{"jsonrpc":"2.0","method":"transition/frame""#.utf8)) }
  }

  var didEnd: Bool {
    messages.contains { String(decoding: $0, as: UTF8.self).contains(#""method":"transition/didEnd""#) }
  }
}

/// One real-time transition's script: its start, and calls at given frame numbers.
private struct AheadScript: CustomTestStringConvertible, Sendable {
  var animator: String
  var operation: String
  var interactive = false
  /// Requests sent after the given number of frame intervals (method, params without `transition`).
  var calls: [(after: Int, method: String, params: [(String, Double)])] = []
  var fps = 60.0
  var seconds = 1.5

  var testDescription: String { "\(animator) \(operation)" + (calls.isEmpty ? "" : " with calls") }

  static var container: JSON { ["width": 390, "height": 844] }
  static var from: JSON {
    [
      "id": "list", "frame": ["x": 0, "y": 0, "width": 390, "height": 844], "backgroundColor": [1, 1, 1, 1],
      "children": [
        ["id": "cell", "match": "hero", "frame": ["x": 16, "y": 120, "width": 120, "height": 90], "cornerRadius": 8],
        ["id": "label", "frame": ["x": 16, "y": 220, "width": 300, "height": 24], "content": "Row"],
      ],
    ]
  }
  static var to: JSON {
    [
      "id": "detail", "frame": ["x": 0, "y": 0, "width": 390, "height": 844], "backgroundColor": [0, 0, 1, 1],
      "children": [
        ["id": "photo", "match": "hero", "frame": ["x": 0, "y": 0, "width": 390, "height": 300]],
        ["id": "body", "frame": ["x": 16, "y": 320, "width": 358, "height": 400], "alpha": 0.9],
      ],
    ]
  }

  /// The frames a client gets, with frames built ahead on or off, and how many were sent as built ahead.
  func frames(isolated: Bool, mode: String, framesAhead: Bool) throws -> (frames: [[UInt8]], sentAhead: Int) {
    let session = try AheadSession(isolated: isolated, framesAhead: framesAhead)
    let started = session.request(
      "transition/start",
      [
        "animator": JSON(animator), "operation": JSON(operation), "container": Self.container, "from": Self.from,
        "to": Self.to, "clock": "realtime", "fps": JSON(fps), "frames": JSON(mode), "interactive": JSON(interactive),
      ])
    let id = try #require(started?["transition"])
    var elapsed = 0
    for call in calls.sorted(by: { $0.after < $1.after }) {
      session.run(for: Double(call.after - elapsed) / fps, fps: fps)
      elapsed = call.after
      session.request(call.method, .object([("transition", id)] + call.params.map { ($0, JSON.number($1)) }))
    }
    session.run(for: seconds - Double(elapsed) / fps, fps: fps)
    #expect(session.didEnd, "\(testDescription) ended within \(seconds) s")
    return (session.frames, session.service.framesSentAhead)
  }
}

@Suite struct FramesAheadTests {
  private static let scripts: [AheadScript] = [
    AheadScript(animator: "pull-down", operation: "present"),
    AheadScript(animator: "pull-down", operation: "dismiss"),
    AheadScript(animator: "flip", operation: "present"),
    AheadScript(animator: "segue-slide", operation: "segue"),
    AheadScript(animator: "sheet", operation: "present"),
    AheadScript(animator: "magic-move", operation: "push"),
    // Completions at 0.25 s and 0.5 s add views; the last one completes at 1 s.
    AheadScript(animator: "presentation", operation: "present"),
    // At 0.5 s a completion starts a chained block (and an alongside animation), whose completion completes at 1 s.
    AheadScript(animator: "alongside", operation: "present"),
    // A display link adds a view each frame it fires; a completion resumes it; the fourth frame completes.
    AheadScript(animator: "display-link", operation: "present"),
    // Calls between ticks: a pause, then running on (an update of the paused transition, then a finish).
    AheadScript(
      animator: "pull-down", operation: "present",
      calls: [
        (after: 5, method: "transition/pause", params: []),
        (after: 7, method: "transition/update", params: [("percent", 0.6)]),
        (after: 9, method: "transition/finish", params: [("velocity", 0.5)]),
      ]),
    // An interactive start: updates, then a release (the tail runs on its own).
    AheadScript(
      animator: "sheet", operation: "present", interactive: true,
      calls: [
        (after: 2, method: "transition/update", params: [("percent", 0.2)]),
        (after: 3, method: "transition/update", params: [("percent", 0.3)]),
        (after: 4, method: "transition/release", params: [("velocity", 1)]),
      ], seconds: 2),
  ]

  @Test(arguments: scripts, [false, true])
  fileprivate func sameFramesAheadOrNot(_ script: AheadScript, isolated: Bool) throws {
    for mode in ["full", "delta"] {
      let at = try script.frames(isolated: isolated, mode: mode, framesAhead: false)
      let ahead = try script.frames(isolated: isolated, mode: mode, framesAhead: true)
      #expect(at.sentAhead == 0)
      #expect(ahead.frames.count == at.frames.count, "\(mode)")
      #expect(ahead.frames.count > 5, "\(mode)")
      for (index, (a, b)) in zip(ahead.frames, at.frames).enumerated() where a != b {
        let shown = (String(decoding: a, as: UTF8.self).prefix(400), String(decoding: b, as: UTF8.self).prefix(400))
        Issue.record("\(mode) frame \(index) differs:\n  ahead: \(shown.0)\n  at tick: \(shown.1)")
        break
      }
      // A curve-driven transition's frames are quiet ticks but the first (built at the start's reply) and those whose
      // interval holds its end, a completion or a call.
      if script.animator != "display-link" {
        #expect(ahead.sentAhead >= ahead.frames.count / 2, "\(mode): \(ahead.sentAhead) of \(ahead.frames.count)")
      }
    }
  }

  /// The tick at a transition's end reaches it, however far the deadlines drift: they are summed 1/fps at a time at
  /// the monotonic clock's magnitude (here 70,000 s, a machine up for most of a day), so the 120th tick of a 1 s
  /// transition at 120 fps lands some 1e-10 s short of 1 s. It still shows the end, in that tick's frame, instead of
  /// leaving it to an event wake-up 1 ms later with a frame of its own.
  @Test(arguments: [false, true])
  func theTickAtTheEndReachesIt(framesAhead: Bool) throws {
    let session = try AheadSession(isolated: false, framesAhead: framesAhead, clockStart: 70_000.123)
    let fps = 120.0
    let started = session.startOneSecondSheet(fps: fps)
    #expect(started?["transition"] != nil)
    session.run(for: 1.25, fps: fps)
    #expect(session.didEnd)
    let frames = session.frames.compactMap { bytes in bytes.withUnsafeBytes { try? JSON.parse($0) } }
    let last = try #require(frames.last?["params"])
    #expect(last["phase"] == "ended")
    #expect(last["time"] == 1)
    // The start's frame is seq 0; ticks 1…120 are 1/120 s apart, and the 120th is the end.
    #expect(last["seq"] == 120, "\(frames.compactMap { $0["params"]?["time"]?.doubleValue }.suffix(3))")
  }

  /// The first tick's frame is built ahead too, also when the first wake-up is an event's (animations beginning 1 ms
  /// after the start) rather than a frame's: built at its tick, it was the stream's slowest and made the stream skip a
  /// tick. The clock moves 0.5 ms at a time (each wake-up's call answered before the next), so the frame built after
  /// the event's wake-up is ready before the first deadline, as on a real clock.
  @Test(arguments: [false, true])
  func theFirstTicksFrameIsBuiltAhead(isolated: Bool) throws {
    let session = try AheadSession(isolated: isolated, framesAhead: true)
    let fps = 120.0
    let started = session.startOneSecondSheet(fps: fps)
    #expect(started?["transition"] != nil)
    session.run(for: 1 / fps, fps: 2000)
    let seqs = session.frames.compactMap { bytes in bytes.withUnsafeBytes { try? JSON.parse($0) }?["params"]?["seq"] }
    #expect(seqs == [0, 1])
    #expect(session.service.framesSentAhead == 1)
  }

  /// A worker's frame built ahead goes out at its tick without waiting for the worker: the worker sends it to the
  /// parent once built, and the advance at the tick only confirms it. Here the worker is stopped (SIGSTOP) while the
  /// parent holds the frame of tick 2: the tick still sends frame 2; once the worker runs again it confirms, and the
  /// stream goes on with no frame twice and none missing.
  @Test func aWorkersFrameAheadGoesOutAtItsTickWithoutTheWorker() throws {
    let session = try AheadSession(isolated: true, framesAhead: true)
    let workers = try #require(session.workers)
    let fps = 120.0
    #expect(session.startOneSecondSheet(fps: fps)?["transition"] != nil)
    // To tick 1, half a millisecond at a time: its frame was built ahead, and so is tick 2's once the clock moves on.
    session.run(for: 1 / fps, fps: 2000)
    #expect(session.frameSeqs == [0, 1])
    session.scheduler.advance(by: 0.0005)
    workers.serve(for: 120) { workers.framesHeldAhead == 1 }
    #expect(workers.framesHeldAhead == 1)
    let stopped = workers.workerProcessIDs
    for worker in stopped { try worker.send(SIGSTOP) }
    defer { for worker in stopped { try? worker.send(SIGCONT) } }
    session.scheduler.advance(by: 1 / fps)
    session.collectNow()
    #expect(session.frameSeqs == [0, 1, 2], "frame 2 went out while its worker was stopped")
    #expect(workers.hasOutstandingCalls, "the advance waits for the stopped worker")
    for worker in stopped { try worker.send(SIGCONT) }
    session.run(for: 1.1, fps: fps)
    #expect(session.didEnd)
    let seqs = session.frameSeqs.compactMap(\.doubleValue).map { Int($0) }
    #expect(seqs == Array(0..<seqs.count), "consecutive, each once")
    #expect(seqs.count > 110)
    #expect(session.service.framesSentAhead >= 2)
  }

  /// A display link fires on every tick it is scheduled for, so no frame is built ahead while it runs.
  @Test func noFrameAheadWhileADisplayLinkRuns() throws {
    let script = AheadScript(animator: "display-link", operation: "present", seconds: 0.5)
    let ahead = try script.frames(isolated: false, mode: "full", framesAhead: true)
    #expect(ahead.frames.count > 4)
    #expect(ahead.sentAhead < ahead.frames.count / 2)
  }
}
