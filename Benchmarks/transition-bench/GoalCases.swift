// The measurements behind the goals table (Goals.swift), in the order of issue 14's table. End-to-end rows run the
// release binary through its pipes as a client does; each is judged against a baseline measured in the same run —
// the `frames: "none"` round trip, the C json-c programs (Benchmarks/c), the json-c reference encoder — and hosts
// that are compared are driven alternately, request by request, so they share whatever else the machine is doing.

import Foundation
import JSON
import JSONRPC
import POSIX
import PluginHost
import Synchronization
import TransitionEngine
import TransitionService

#if canImport(Glibc)
  import Glibc
#endif

/// What the goals are measured with.
struct GoalContext {
  var host: String
  /// The folder of the C baselines (`jsonc-echo`, `jsonc-sample`).
  var folder: String
  var effort: Effort
}

// MARK: Round trips

/// A host with one transition started, answering one request at a time.
private final class RoundTripHost {
  let child: ChildProcess
  private var nextID = 100

  init(_ context: GoalContext, _ mode: HostMode, start: String) throws {
    child = try ChildProcess(context.host, mode.arguments)
    child.send(start)
    guard child.line(startingWith: replyPrefix(1)) != nil else { throw BenchError("transition/start got no reply") }
  }

  /// Sends the request `line(id)` and returns the seconds until its reply arrived (frames before it are read too).
  func roundTrip(_ line: (Int) -> String) throws -> Double {
    let id = nextID
    nextID += 1
    let sent = monotonicSeconds()
    child.send(line(id))
    guard let reply = child.line(startingWith: replyPrefix(id)) else { throw BenchError("no reply to request \(id)") }
    return reply.time - sent
  }
}

/// Round trips of `transition/update` (11 views: full, delta, none) and of a 1,001-view `transition/sample`, the four
/// hosts driven in turn.
struct RoundTrips {
  var full: [Double] = []
  var delta: [Double] = []
  var none: [Double] = []
  var largeSample: [Double] = []

  init(_ context: GoalContext, _ mode: HostMode) throws {
    func start(_ frames: String, children: Int = 4) -> String {
      startLine(id: 1, animator: "pull-down", clock: "manual", frames: frames, interactive: true, children: children)
    }
    let hosts = try ["full", "delta", "none"].map { try RoundTripHost(context, mode, start: start($0)) }
    let large = try RoundTripHost(context, mode, start: start("none", children: 499))
    defer {
      for host in hosts + [large] { host.child.finish() }
    }
    let rounds = max(60, context.effort.count(2_000))
    let warmUp = rounds / 10
    for round in 0..<(rounds + warmUp) {
      // A new percent every time, so every full and delta frame has something to say.
      let percent = 0.005 + Double(round % 199) / 200
      var times: [Double] = []
      for host in hosts {
        times.append(
          try host.roundTrip {
            #"{"jsonrpc":"2.0","id":\#($0),"method":"transition/update","params":{"transition":"t1","percent":\#(percent)}}"#
              + "\n"
          })
      }
      var sample: Double?
      if round % 10 == 0 {
        sample = try large.roundTrip {
          #"{"jsonrpc":"2.0","id":\#($0),"method":"transition/sample","params":{"transition":"t1","percent":\#(percent)}}"#
            + "\n"
        }
      }
      guard round >= warmUp else { continue }
      full.append(times[0])
      delta.append(times[1])
      none.append(times[2])
      if let sample { largeSample.append(sample) }
    }
  }
}

// MARK: Throughput through the pipes

/// Feeds `lines` (one request each) to a fresh `executable` while this thread reads its `count` replies; returns the
/// seconds from the first write to the last reply and the last reply. The clock starts once the program is serving:
/// `ready` (a set-up, or one request) is written first and its `readyReplies` lines read before it, so a host's
/// start-up (loading its plugins, starting their workers: 15–90 ms, a tenth of a 200,000-request run) is not
/// counted as reply time (the C baselines start in a millisecond).
func pipelined(
  _ executable: String, _ arguments: [String], ready: [UInt8] = [], readyReplies: Int = 0, _ lines: [UInt8],
  count: Int
) throws -> (seconds: Double, last: [UInt8]) {
  let child = try ChildProcess(executable, arguments)
  if !ready.isEmpty {
    try child.input.writeAll(ready)
    guard child.readLines(readyReplies).count == readyReplies else {
      child.finish()
      throw BenchError("\(executable) did not answer its first request")
    }
  }
  let start = monotonicSeconds()
  let written = child.writeInBackground(lines, closing: false)
  let (seen, last) = child.readLines(count)
  let elapsed = monotonicSeconds() - start
  written.wait()
  child.finish()
  guard seen == count else { throw BenchError("\(executable) answered \(seen) of \(count) requests") }
  return (elapsed, last)
}

/// `count` lines `line(id)`, ids from 1.
private func requestLines(_ count: Int, _ line: (Int) -> String) -> [UInt8] {
  var bytes: [UInt8] = []
  for id in 1...count { bytes += Array((line(id) + "\n").utf8) }
  return bytes
}

/// Replies per second of the host and of the baseline for the same lines, the two run alternately `rounds` times (the
/// best of each).
private func alternateRates(
  _ context: GoalContext, _ mode: HostMode, setUp: String, lines: [UInt8], count: Int,
  baseline: (executable: String, arguments: [String])
) throws -> (host: Double, baseline: Double) {
  var hostBest = Double.infinity
  var baselineBest = Double.infinity
  let setUpBytes = Array(setUp.utf8)
  let setUpReplies = setUp.isEmpty ? 0 : 1 + (setUp.contains(#""frames":"none""#) ? 0 : 1)
  // Each program answers the first request (after the host's set-up) before the clock starts; the rest are timed.
  let first = lines.firstIndex(of: 0x0A)! + 1
  let (firstLine, rest) = (Array(lines[..<first]), Array(lines[first...]))
  for _ in 0..<min(context.effort.rounds, 3) {
    hostBest = min(
      hostBest,
      try pipelined(
        context.host, mode.arguments, ready: setUpBytes + firstLine, readyReplies: setUpReplies + 1, rest,
        count: count - 1
      ).seconds)
    baselineBest = min(
      baselineBest,
      try pipelined(baseline.executable, baseline.arguments, ready: firstLine, readyReplies: 1, rest, count: count - 1)
        .seconds)
  }
  return (Double(count - 1) / hostBest, Double(count - 1) / baselineBest)
}

/// Unknown-method errors and `transition/list` results through the host, each against the bare json-c echo.
struct MessageRates {
  var errors: (host: Double, baseline: Double)
  var results: (host: Double, baseline: Double)

  init(_ context: GoalContext, _ mode: HostMode) throws {
    let count = max(2_000, context.effort.count(200_000))
    let echo = (context.folder + "/jsonc-echo", [String]())
    let unknown = requestLines(count) { #"{"jsonrpc":"2.0","id":\#($0),"method":"transition/nosuch"}"# }
    errors = try alternateRates(context, mode, setUp: "", lines: unknown, count: count, baseline: echo)
    let list = requestLines(count) { #"{"jsonrpc":"2.0","id":\#($0),"method":"transition/list"}"# }
    results = try alternateRates(context, mode, setUp: "", lines: list, count: count, baseline: echo)
  }
}

/// `transition/sample` replies (11 views) through the host against jsonc-sample building the same frame with json-c.
func sampleRates(_ context: GoalContext, _ mode: HostMode) throws -> (host: Double, baseline: Double) {
  let start = startLine(id: 1, animator: "pull-down", clock: "manual", frames: "none", interactive: true)
  let sample = #"{"jsonrpc":"2.0","id":2,"method":"transition/sample","params":{"transition":"t1","percent":0.5}}"#
  // The frame the host answers with, for jsonc-sample to rebuild.
  let probe = try RoundTripHost(context, mode, start: start)
  probe.child.send(sample + "\n")
  guard let reply = probe.child.line(startingWith: replyPrefix(2)) else { throw BenchError("no sample reply") }
  probe.child.finish()
  let frame = try reply.line.withUnsafeBytes { try JSON.parse($0) }["result"]!
  let path = NSTemporaryDirectory() + "/transition-bench-frame-\(getpid()).json"
  try frame.serialized().write(toFile: path, atomically: true, encoding: .utf8)
  defer { unlink(path) }
  let count = max(500, context.effort.count(20_000))
  let lines = requestLines(count) {
    #"{"jsonrpc":"2.0","id":\#($0 + 1),"method":"transition/sample","params":{"transition":"t1","percent":0.5}}"#
  }
  return try alternateRates(
    context, mode, setUp: start, lines: lines, count: count,
    baseline: (context.folder + "/jsonc-sample", [path]))
}

// MARK: Real time

/// Frames of one real-time transition at `fps` as they arrived, and the host's CPU share meanwhile.
///
/// Each frame is judged against its own tick: the moment its `time` member shows, counted from the transition's start
/// as the client saw it. That start is the arrival of frame 0 (the start sends it, and the host's clock starts as it
/// is written), or earlier when a frame arrived sooner after its tick than frame 0 did after the start: no frame is
/// sent before its tick, so the latest start the arrivals allow (a constant delay of every frame still shows; frame 0's
/// own slower first delivery does not make the others look early). A frame built at its tick shows exactly its
/// deadline; one built at a late wake-up shows the wake-up, and is judged against the grid tick before it. After a stall longer than a frame the host skips the missed ticks and starts a new
/// grid from the next deadline (`TransitionSession.wakeUp`): the skipped ticks are counted on their own, and the frames
/// after the restart are judged against the new grid, not made late by it. Seq 0 (sent by the start) and the last,
/// ended frame (sent when the end is reached, which can be an event's wake-up) are left out.
struct RealtimeRun {
  /// How late each frame arrived after its tick.
  var lateness: [Double] = []
  /// Ticks with no frame of their own: frames the host skipped after a stall (each grid restart skips at least one).
  var skipped = 0
  /// How many times the stream's grid restarted after a stall.
  var restarts = 0
  /// The host's CPU time over the run / the run's wall time.
  var cpuShare = 0.0
  var frames = 0
  /// The lateness of the same wait in this process right after the run (`timerFloor`): the machine's floor then.
  var floor: [Double] = []
  /// The same wait by the bare C program (`CTimerFloor.spin`) right after that; empty when it is not built.
  var cFloor: [Double] = []

  /// One frame as it arrived: its `seq`, its `time` member and the arrival (monotonic seconds).
  struct Arrival {
    var seq: Int
    var time: Double
    var arrival: Double
  }

  /// `children` rows per root (11 views for 4); with `updatesPerSecond`, another (interactive) transition gets that
  /// many `transition/update` notifications meanwhile, from a thread of their own.
  init(
    _ context: GoalContext, _ mode: HostMode, fps: Double, seconds: Double, children: Int, frames: String,
    updatesPerSecond: Double = 0
  ) throws {
    let child = try ChildProcess(context.host, mode.arguments)
    defer { child.finish() }
    var transition = "t1"
    if updatesPerSecond > 0 {
      child.send(startLine(id: 1, animator: "pull-down", clock: "realtime", frames: "full", interactive: true))
      guard child.line(startingWith: replyPrefix(1)) != nil else { throw BenchError("no reply to the first start") }
      transition = "t2"
    }
    let cpuBefore = child.cpuSeconds() ?? 0
    let wallBefore = monotonicSeconds()
    child.send(
      startLine(
        id: 2, animator: "sheet", clock: "realtime", frames: frames, fps: fps, children: children,
        params: #"{"duration":\#(seconds)}"#))
    let stop = Atomic<Bool>(false)
    var writer: Thread?
    let done = DispatchSemaphore(value: 0)
    if updatesPerSecond > 0 {
      let input = child.input
      let thread = Thread {
        // Absolute deadlines, so the rate holds whatever each write costs.
        var next = MonotonicInstant.now()
        var index = 0
        while !stop.load(ordering: .relaxed) {
          index += 1
          next = next.advanced(bySeconds: 1 / updatesPerSecond)
          var spec = timespec(
            tv_sec: Int(next.nanoseconds / 1_000_000_000), tv_nsec: Int(next.nanoseconds % 1_000_000_000))
          while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &spec, nil) == EINTR {}
          let percent = Double(index % 1000) / 1000
          try? input.writeAll(
            #"{"jsonrpc":"2.0","method":"transition/update","params":{"transition":"t1","percent":\#(percent)}}"#
              + "\n")
        }
        done.signal()
      }
      thread.start()
      writer = thread
    }
    let prefix = framePrefix(transition)
    let didEnd = Array(#"{"jsonrpc":"2.0","method":"transition/didEnd","params":{"transition":"\#(transition)""#.utf8)
    var arrivals: [Arrival] = []
    child.readLines { line, time in
      if line.starts(with: prefix) {
        arrivals.append(Arrival(seq: integer(after: prefix, in: line), time: timeMember(line), arrival: time))
      }
      return !line.starts(with: didEnd)
    }
    let wall = monotonicSeconds() - wallBefore
    cpuShare = ((child.cpuSeconds() ?? 0) - cpuBefore) / wall
    stop.store(true, ordering: .relaxed)
    if writer != nil { done.wait() }
    self.frames = arrivals.count
    guard let first = arrivals.first, first.seq == 0, arrivals.count > 2 else {
      throw BenchError("no real-time frames arrived")
    }
    let judged = Self.judge(arrivals.dropLast().dropFirst(), start: first.arrival, fps: fps)
    (lateness, skipped, restarts) = (judged.lateness, judged.skipped, judged.restarts)
    if let folder = ProcessInfo.processInfo.environment["TRANSITION_BENCH_REALTIME_TRACE"] {
      Self.writeTrace(arrivals, start: judged.start, judged: judged.ticks, to: folder, children: children)
    }
    floor = timerFloor(seconds: min(seconds, 2))
    cFloor = CTimerFloor.spin.run(deadlines: Int(min(seconds, 2) * 120))?.lateness ?? []
  }

  /// How far two moments may differ and still be the same tick: far above the host's deadline drift (some 1e-10 s,
  /// deadlines summed at the monotonic clock's magnitude), far below a wake-up's lateness.
  static let sameTick = 1e-6

  /// What `judge` found: each frame's tick and lateness, the start they are counted from, the ticks skipped.
  struct Judged {
    var ticks: [Double] = []
    var lateness: [Double] = []
    var start: Double
    var skipped = 0
    var restarts = 0
  }

  /// Judges `frames` against their ticks. The grid starts at 0 (the start); a frame on it is its own tick. A frame off
  /// it either starts a new grid (the next frame is whole frames after it, not on the old grid: the host restarted its
  /// deadlines after a stall) or shows a late wake-up on the same grid (its tick is the grid's last one before it).
  /// With every frame built at a late wake-up (`--frames-ahead off`) no frame is on a grid, and after a restart the
  /// frames are judged against the old grid: each up to a frame later than the new one would say.
  static func judge(_ frames: ArraySlice<Arrival>, start: Double, fps: Double) -> Judged {
    let frames = Array(frames)
    func onGrid(_ time: Double, from anchor: Double) -> Bool {
      let steps = (time - anchor) * fps
      return steps > 0.5 && abs(steps - steps.rounded()) * (1 / fps) <= sameTick
    }
    var anchor = 0.0
    var lastTick = 0.0
    var result = Judged(start: start)
    for (index, frame) in frames.enumerated() {
      var tick: Double
      if onGrid(frame.time, from: anchor) {
        tick = frame.time
      } else if index + 1 < frames.count, onGrid(frames[index + 1].time, from: frame.time),
        !onGrid(frames[index + 1].time, from: anchor)
      {
        tick = frame.time
        anchor = frame.time
        result.restarts += 1
      } else {
        tick = anchor + ((frame.time - anchor) * fps).rounded(.down) / fps
      }
      if tick <= lastTick { tick = frame.time }  // not a tick of its own (an event's frame): judged at its moment
      // The frames the stream lacks between the last one and this.
      result.skipped += max(0, Int(((tick - lastTick) * fps).rounded()) - 1)
      lastTick = tick
      result.ticks.append(tick)
    }
    result.start = zip(frames, result.ticks).map { $0.arrival - $1 }.reduce(start, min)
    result.lateness = zip(frames, result.ticks).map { $0.arrival - result.start - $1 }
    return result
  }

  /// `seq time tick arrival lateness` (seconds after the start as judged) per frame, one file per run in `folder`, for
  /// reading a run frame by frame (`TRANSITION_BENCH_REALTIME_TRACE=DIR`).
  private static func writeTrace(
    _ arrivals: [Arrival], start: Double, judged ticks: [Double], to folder: String, children: Int
  ) {
    var text = "# seq time tick arrival lateness (s after the start as judged; tick - for seq 0 and the last)\n"
    for (index, frame) in arrivals.enumerated() {
      let tick = index > 0 && index <= ticks.count ? ticks[index - 1] : nil
      let late = tick.map { String(frame.arrival - start - $0) } ?? "-"
      text += "\(frame.seq) \(frame.time) \(tick.map { String($0) } ?? "-") \(frame.arrival - start) \(late)\n"
    }
    let name = "\(folder)/realtime-\(getpid())-\(children)-\(Int(monotonicSeconds() * 1e3)).txt"
    try? text.write(toFile: name, atomically: true, encoding: .utf8)
  }
}

/// The number after `"time":` in a frame line (0 when there is none).
private func timeMember(_ line: ArraySlice<UInt8>) -> Double {
  let key = Array(#""time":"#.utf8)
  var index = line.startIndex
  while index + key.count <= line.endIndex {
    if line[index..<index + key.count].elementsEqual(key) {
      var end = index + key.count
      while end < line.endIndex, line[end] != UInt8(ascii: ","), line[end] != UInt8(ascii: "}") { end += 1 }
      return Double(String(decoding: line[(index + key.count)..<end], as: UTF8.self)) ?? 0
    }
    index += 1
  }
  return 0
}

// MARK: Scale

/// 10,000 manual-clock 10-view transitions in one host: the time of one `transition/tick` of all of them at several
/// counts on the way, and the peak resident set at the end.
struct ScaleRun {
  /// (live transitions, seconds per tick of all of them): the best of three ticks at each count.
  var ticks: [(count: Int, seconds: Double)] = []
  var peakKB = 0
  /// The plugin workers' peak resident sets, summed (`--isolation process`; 0 in process), and how many there were.
  var workersKB = 0
  var workers = 0

  /// `frames`: what each transition streams (`delta` keeps each one's previous frame as the baseline).
  init(_ context: GoalContext, _ mode: HostMode, frames: String) throws {
    let total = max(400, context.effort.count(10_000))
    let child = try ChildProcess(context.host, mode.arguments + ["--max-transitions", String(total)])
    defer { child.finish() }
    var live = 0
    var nextID = 1
    for stage in [total / 10, total / 2, total] {
      var lines: [UInt8] = []
      let first = nextID
      while live < stage {
        lines += Array(startLine(id: nextID, animator: "pull-down", clock: "manual", frames: frames).utf8)
        nextID += 1
        live += 1
      }
      let written = child.writeInBackground(lines, closing: false)
      guard child.line(startingWith: replyPrefix(nextID - 1)) != nil else {
        throw BenchError("starting transitions \(first)…\(nextID - 1) failed")
      }
      written.wait()
      var best = Double.infinity
      for _ in 0..<3 {
        let id = nextID
        nextID += 1
        let sent = monotonicSeconds()
        child.send(#"{"jsonrpc":"2.0","id":\#(id),"method":"transition/tick","params":{"dt":0.0001}}"# + "\n")
        guard let reply = child.line(startingWith: replyPrefix(id)) else { throw BenchError("no reply to tick") }
        best = min(best, reply.time - sent)
      }
      ticks.append((live, best))
    }
    peakKB = child.peakResidentKB() ?? 0
    (workersKB, workers) = child.childrenPeakResidentKB()
  }
}

// MARK: Frames in process

/// A catalog of one drift animator (FrameCases.swift) moving `animatedChildren` children of each root.
final class DriftCatalog: AnimatorCatalog {
  let animatedChildren: Int?
  let entries = BenchCatalog().entries

  init(animatedChildren: Int? = nil) { self.animatedChildren = animatedChildren }

  func entry(for id: String) throws(AnimatorLookupError) -> AnimatorEntry { try BenchCatalog().entry(for: id) }

  func instantiate(_ id: String) throws(AnimatorInstantiationError) -> AnimatorBinding {
    AnimatorBinding(entry: entries[0], animator: DriftAnimator(animatedChildren: animatedChildren))
  }
}

/// A started drift transition of two roots with `children` rows each (1 + 2 × (1 + children) views), every row with
/// content.
func driftDriver(children: Int, factory: TransitionFactory = TransitionFactory(catalog: DriftCatalog())) throws
  -> (driver: LocalTransitionDriver, contents: [String: JSON])
{
  let scene = Scene(containerSize: Size(width: 390, height: 844))
  var contents: [String: JSON] = [:]
  func root(_ id: String) throws -> View {
    let view = try scene.makeView(id: id)
    view.frame = Rect(x: 0, y: 0, width: 390, height: 844)
    view.backgroundColor = Color(r: 1, g: 1, b: 1, a: 1)
    for index in 0..<children {
      let row = try scene.makeView(id: "\(id)\(index)")
      row.frame = Rect(x: 16, y: Double(60 + (index % 9) * 90), width: 358, height: 80)
      row.cornerRadius = 12
      row.backgroundColor = Color(r: 0.2, g: 0.4, b: 0.8, a: 1)
      contents[row.id] = ["text": JSON("Row \(index)")]
      view.addSubview(row)
    }
    return view
  }
  let from = try root("list")
  let to = try root("detail")
  scene.container.addSubview(from)
  let driver = try factory.make(
    TransitionRequest(
      animator: "bench/drift", operation: .present,
      trees: ViewTrees(scene: scene, fromRoot: from, toRoot: to, contents: contents)))
  try driver.start()
  return (driver, contents)
}

/// Full frames of one transition as the host streams them: time advanced 0.1 ms before each, the presentation sampled
/// and the dedicated encoder writing into a reused buffer (which holds the last frame).
final class FullFrameStream {
  let driver: LocalTransitionDriver
  var buffer: [UInt8] = []
  var seq = 0

  init(_ driver: LocalTransitionDriver) { self.driver = driver }

  func stream(_ frames: Int) {
    for _ in 0..<frames {
      _ = try? driver.perform(.advance(seconds: 0.0001))
      buffer.removeAll(keepingCapacity: true)
      seq += 1
      let stamp = FrameStamp(transition: "t1", seq: seq, time: driver.status.time, percent: 0, phase: "running")
      driver.streamFrame(stamp, mode: .full, precision: nil, into: &buffer)
    }
  }
}

/// The same frames built as json-c trees by the reference encoder (`JSONCFrameEncoder`, the frame path before the
/// dedicated encoder) and serialized; `bytes` counts what was serialized.
final class ReferenceFrameStream {
  let driver: LocalTransitionDriver
  var encoder: JSONCFrameEncoder
  var states: [ViewState] = []
  var bytes = 0
  var seq = 0

  init(_ made: (driver: LocalTransitionDriver, contents: [String: JSON])) {
    driver = made.driver
    encoder = JSONCFrameEncoder(contents: made.contents)
  }

  func stream(_ frames: Int) {
    for _ in 0..<frames {
      _ = try? driver.perform(.advance(seconds: 0.0001))
      seq += 1
      let time = driver.status.time
      driver.transition.scene.presentation(at: time, into: &states)
      let stamp = FrameStamp(transition: "t1", seq: seq, time: time, percent: 0, phase: "running")
      encoder.notification(stamp, mode: .full, states: states).withSerializedBytes { bytes += $0.count }
    }
  }
}

/// One full frame of a drift transition with `children` rows per root, time advanced 0.1 ms before each: the
/// dedicated encoder (the host's path: `streamFrame` into a reused buffer) and the json-c reference (the same
/// presentation built as a json-c tree and serialized), seconds per frame, best round of each.
func fullFrameCosts(children: Int, effort: Effort, iterations: Int) throws -> (dedicated: Double, reference: Double) {
  let dedicated = FullFrameStream(try driftDriver(children: children).driver)
  let fast = measure("dedicated", iterations: iterations, effort: effort) { n in
    dedicated.stream(n)
    blackHole(dedicated.buffer.count)
  }
  let reference = ReferenceFrameStream(try driftDriver(children: children))
  let slow = measure("reference", iterations: iterations, effort: effort) { n in
    reference.stream(n)
    blackHole(reference.bytes)
  }
  return (fast.perOp, slow.perOp)
}

/// 500 in-process drift transitions (delta frames) with `animatedChildren` of each root's 4 rows moving, started
/// through the dispatcher and the session as the host runs them; `tick(n)` sends n `transition/tick` requests.
final class TickBench {
  let dispatcher: Dispatcher
  let count: Int
  private let output: CountingOutput
  private let session: TransitionSession
  private let request = Array(#"{"jsonrpc":"2.0","id":0,"method":"transition/tick","params":{"dt":0.0001}}"#.utf8)

  init(animatedChildren: Int, count: Int = 500) {
    var replies: (UnsafeRawBufferPointer) -> Void = { _ in }
    dispatcher = Dispatcher { replies($0) }
    output = CountingOutput(dispatcher: dispatcher)
    session = TransitionSession(
      configuration: TransitionSession.Configuration(maxTransitions: max(1_000, count)),
      catalog: DriftCatalog(animatedChildren: animatedChildren), registry: nil, output: output,
      scheduler: StoppedClock())
    session.register(on: dispatcher)
    self.count = count
    var last: [UInt8] = []
    replies = { last = Array($0) }
    for id in 1...count {
      dispatcher.handle(startLine(id: id, animator: "bench/drift", clock: "manual", frames: "delta"))
    }
    precondition(String(decoding: last, as: UTF8.self).contains(#""transition":"t\#(count)""#), "drift starts failed")
  }

  /// Frames written and their bytes so far (every tick writes one delta frame per transition).
  var frames: (count: Int, bytes: Int) { (output.frames, output.frameBytes) }

  /// `n` ticks of all transitions; not inlined, so that callgrind can collect just this (`--toggle-collect`).
  @inline(never)
  func tick(_ n: Int) {
    request.withUnsafeBytes { request in for _ in 0..<n { dispatcher.handle(request) } }
  }
}

/// Seconds per transition of one `transition/tick` of 500 in-process drift transitions (delta frames), for each k of
/// `animatedChildren` (each root's first k of 4 rows move: 1 + 2k animated views of 11). The k are measured in turn
/// within each round, so that a slower stretch of a shared machine falls on all of them rather than one; rounds are
/// short (4 ticks, some 60 ms) and many, so that each k's best round is likelier to be an undisturbed one.
func tickCostsPerTransition(animatedChildren: [Int], effort: Effort) -> [Double] {
  let benches = animatedChildren.map { TickBench(animatedChildren: $0) }
  let iterations = max(2, effort.count(4))
  for bench in benches { bench.tick(iterations) }
  var best = [Double](repeating: .infinity, count: benches.count)
  for _ in 0..<max(10, effort.rounds * 4) {
    for (index, bench) in benches.enumerated() {
      let start = monotonicSeconds()
      bench.tick(iterations)
      best[index] = min(best[index], (monotonicSeconds() - start) / Double(iterations * bench.count))
    }
  }
  return best
}
