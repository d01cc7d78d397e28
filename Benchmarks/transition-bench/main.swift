// transition-bench: the project's figures in one table (`make bench`). Each case warms up, then runs several
// rounds and keeps the fastest (CLOCK_MONOTONIC). Timings never go in the tests; this is where they live.
//
// Usage: transition-bench [--quick] [--host PATH] [CASE...]
//   --quick   fewer rounds and iterations (a smoke run; the figures are noisier)
//   --host    the transition-host binary for the end-to-end cases (default: beside this executable)
//   --goal    only the goal rows (and isolation cases) whose name contains this text
//   --host-arg ARG  one more argument for every host the goal rows start (repeatable), e.g. `--host-arg
//             --frames-ahead --host-arg off` for the real-time rows with every frame built at its tick
//   CASE      goals, json, engine, frames, plugin, host, isolation, timers (default: all); profile-frame, profile-tick,
//             profile-frame-jsonc, profile-layers, profile-views, profile-layers-full, profile-layers-delta,
//             profile-sample-layers and profile-sample-views run one
//             workload for a profiler and print nothing
//
// `goals` is issue 14's table: each figure beside its baseline from the same run, with the goal and whether it holds.

import TransitionService

#if canImport(Glibc)
  import Glibc
#endif

var effort = Effort()
var host = executableFolder() + "/transition-host"
var selected: [String] = []
var goalFilter: String?
var hostArguments: [String] = []
let allCases = ["goals", "json", "engine", "frames", "plugin", "host", "isolation", "timers"]
/// Not in the table: one workload each, to run under `perf record` or callgrind (docs/bench.md, "Profiles").
let profileCases = [
  "profile-frame", "profile-tick", "profile-frame-jsonc", "profile-layers", "profile-views", "profile-layers-full",
  "profile-layers-delta", "profile-sample-layers", "profile-sample-views",
]
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--quick":
    effort = Effort(rounds: 2, scale: 0.05)
  case "--goal":
    guard let text = arguments.popFirst() else {
      warn("--goal needs a text")
      exit(2)
    }
    goalFilter = text
  case "--host-arg":
    guard let value = arguments.popFirst() else {
      warn("--host-arg needs a value")
      exit(2)
    }
    hostArguments.append(value)
  case "--host":
    guard let path = arguments.popFirst() else {
      warn("--host needs a path")
      exit(2)
    }
    host = path
  case "-h", "--help":
    print("usage: transition-bench [--quick] [--host PATH] [--host-arg ARG]... [\(allCases.joined(separator: "|"))...]")
    exit(0)
  default:
    guard allCases.contains(argument) || profileCases.contains(argument) else {
      warn("unknown case \(argument) (known: \(allCases.joined(separator: ", ")))")
      exit(2)
    }
    selected.append(argument)
  }
}
if selected.isEmpty { selected = allCases }

var figures: [Figure] = []
var timerRows: [[String]] = []
if selected.contains("goals") {
  let modes = HostMode.available(host: host).map { mode in
    var mode = mode
    mode.arguments += hostArguments
    return mode
  }
  let context = GoalContext(host: host, folder: executableFolder(), effort: effort)
  let rows = goalRows(context, modes: modes).filter { goalFilter.map($0.name.contains) ?? true }
  // Column by column, so each host mode's runs happen together.
  var results = [[GoalResult]](repeating: [], count: rows.count)
  for mode in modes { for (index, row) in rows.enumerated() { results[index].append(row.measure(mode)) } }
  print("transition-bench goals (issue 14): each figure beside its baseline, measured in the same run")
  printGoals(rows, modes: modes, results: results)
  print("")
}
for name in selected where name != "goals" {
  switch name {
  case "json": figures += jsonCases(effort)
  case "engine": figures += engineCases(effort)
  case "frames": figures += frameCases(effort) + layerFrameCases(effort)
  case "plugin": figures += pluginCases(effort)
  case "isolation": figures += isolationCases(effort, host: host, only: goalFilter)
  case "timers": timerRows = timerCases(effort)
  case "profile-frame":
    // For perf/callgrind: 500 full frames of a 1,001-view drift scene by the dedicated encoder, nothing else (the
    // environment variable PROFILE_ROWS sets the rows per root instead of 499).
    let rows = getenv("PROFILE_ROWS").flatMap { Int(String(cString: $0)) } ?? 499
    let frames = FullFrameStream(try! driftDriver(children: rows).driver)
    frames.stream(500)
    blackHole(frames.buffer.count)
  case "profile-tick":
    // For callgrind (--toggle-collect='*TickBench*tick*'): PROFILE_TICKS ticks (default 20) of 500 drift transitions
    // with delta frames, PROFILE_ANIMATED (0…4, default 4) of each root's 4 rows moving (the tick-cost goal row).
    let animated = getenv("PROFILE_ANIMATED").flatMap { Int(String(cString: $0)) } ?? 4
    let ticks = getenv("PROFILE_TICKS").flatMap { Int(String(cString: $0)) } ?? 20
    let bench = TickBench(animatedChildren: animated)
    bench.tick(ticks)
    print("frames \(bench.frames.count), bytes \(bench.frames.bytes)")
  case "profile-frame-jsonc":
    // The same frames by the json-c reference encoder (the frame path before the dedicated encoder).
    let frames = ReferenceFrameStream(try! driftDriver(children: 499))
    frames.stream(500)
    blackHole(frames.bytes)
  case "profile-layers":
    // The 1,000-layer scene (EngineCases' animatedLayerScene) sampled and delta-encoded 200 times (PROFILE_FRAMES
    // sets the count), as LayerFrameCases' "sample + delta frame" row does.
    // PROFILE_PRECISION (e.g. 0.001) streams with that `precision`.
    let count = getenv("PROFILE_FRAMES").flatMap { Int(String(cString: $0)) } ?? 200
    let grid = getenv("PROFILE_PRECISION").flatMap { Double(String(cString: $0)) }.flatMap(FramePrecision.init(grid:))
    blackHole(layerDeltaStream(animatedLayerScene(), frames: count, precision: grid))
  case "profile-views":
    // The 1,000-view scene (EngineCases' animatedScene) the same way: the baseline the layer figures are read against.
    let count = getenv("PROFILE_FRAMES").flatMap { Int(String(cString: $0)) } ?? 200
    blackHole(layerDeltaStream(animatedScene(views: 1000, rotate: false), frames: count))
  case "profile-layers-full", "profile-layers-delta":
    // The encoding alone, without the sample: PROFILE_FRAMES (default 200) full frames of one sample of the 1,000-layer
    // scene, or delta frames of two samples a stream step apart in turn (LayerFrameCases' "full frame encoded" and "delta
    // frame encoded" rows).
    let count = getenv("PROFILE_FRAMES").flatMap { Int(String(cString: $0)) } ?? 200
    let pair = LayerDeltaPair(animatedLayerScene())
    if name == "profile-layers-delta" {
      pair.run(count)
      blackHole(pair.message.count)
    } else {
      let encoder = FrameEncoder()
      let stamp = FrameStamp(transition: "t1", seq: nil, time: 0.5, percent: 0.5, phase: "running")
      for _ in 0..<count {
        pair.message.removeAll(keepingCapacity: true)
        encoder.appendObject(stamp, states: pair.samples[0], to: &pair.message)
      }
      blackHole(pair.message.count)
    }
  case "profile-sample-layers", "profile-sample-views":
    // The sample alone, as EngineCases' rows time it (no frame encoding): for `perf stat` and `perf record` of the
    // engine's part of the budget. PROFILE_FRAMES sets the count (default 2,000).
    let count = getenv("PROFILE_FRAMES").flatMap { Int(String(cString: $0)) } ?? 2000
    let scene = name == "profile-sample-layers" ? animatedLayerScene() : animatedScene(views: 1000, rotate: false)
    blackHole(sampleStream(scene, frames: count))
  default: figures += hostCases(effort, host: host)
  }
}
if selected.allSatisfy(profileCases.contains) { exit(0) }
print("transition-bench: best of \(effort.rounds) rounds after a warm-up; rate is ops/s or MB/s")
printTable(figures)
if !timerRows.isEmpty {
  print("")
  printAligned(timerRows)
}
