// `transition-host render`: one transition on the virtual clock, written as JSON Lines frames or as an HTML
// preview. It is a client of the transition service (RenderSession, over a LocalConnection): transition/start on the
// manual clock, the script's calls, then transition/tick with dt = 1/fps until transition/didEnd (with --times, ticks
// that land exactly on each sample time, the frames there the only ones kept).

import Glibc
import JSON
import JSONRPC
import POSIX
import PluginHost
import TransitionEngine
import TransitionService

/// `transition-host render` (the command line's options are in TransitionHost's RenderSubcommand.swift).
package enum RenderCommand {
  /// Where a render writes (`output`: the host's private duplicate of the original stdout) and logs.
  struct Context {
    var output: FileDescriptor
    var logger: Logger
  }

  /// Runs `render` on the start-up plugins of `plugins`, writing to `output`; returns the exit status (0, 1 for a
  /// failed render, 2 for bad options).
  package static func run(
    _ render: RenderOptions, plugins: PluginSetup, maxTransitions: Int, output: FileDescriptor, logger: Logger
  ) -> Int32 {
    let context = Context(output: output, logger: logger)
    if let input = render.framesInput {
      return convert(input: input, render, context)
    }
    var render = render
    var traceScene: JSON?
    var expected: [PreviewFrame]?
    if let path = render.compare {
      guard render.format != .jsonl, render.animator != "all" else {
        logger.error(
          "--compare outlines a trace on the HTML preview of one transition: not with --format jsonl or --animator all")
        return 2
      }
      render.format = .html
      switch GoldenTrace.read(path: path) {
      case .failure(let error):
        logger.error(error.message)
        return 2
      case .success(let trace):
        expected = trace.frames.map { PreviewFrame(at: $0["at"]?.doubleValue ?? 0, frame: $0) }
        if render.animator == nil {
          // The trace's own inputs: the page shows how the current plugin differs from it.
          render.animator = trace.inputs.animator
          render.operation = trace.inputs.operation
          render.params = trace.inputs.params?.serialized()
          render.script = trace.inputs.script
          render.fps = trace.inputs.fps
          render.times = trace.inputs.times
          render.maxTime = trace.inputs.maxTime
          traceScene = trace.inputs.scene
        }
      }
    }
    guard let animator = render.animator else {
      if render.scene == "sample" { return printSampleScene(render, context) }
      logger.error(
        "render needs --animator ID (or --frames FILE.jsonl; --scene sample alone prints the built-in scene); see "
          + "transition-host render --help")
      return 2
    }
    let session = RenderSession(plugins: plugins, maxTransitions: maxTransitions, logger: logger)
    if animator == "all" {
      return renderAll(session, render, context)
    }
    let format = render.format ?? (render.output?.hasSuffix(".html") == true ? .html : .jsonl)
    let destination: FileDescriptor
    do {
      destination = try openOutput(render.output, context)
    } catch {
      logger.error("cannot write \(render.output ?? "-"): \(error.text)")
      return 1
    }
    defer { if destination != output { try? destination.close() } }
    var sink = RenderSink(format: format, output: destination, samples: render.times)
    let result = renderOne(
      session, animator: animator, operation: render.operation, render, context, sink: &sink, scene: traceScene)
    switch result {
    case .failure(let message):
      logger.error(message.text)
      return 1
    case .success(let summary):
      if format == .html {
        let title = render.title ?? "\(summary.animator) · \(render.operation)"
        var document = PreviewDocument(
          title: title, subtitle: summary.subtitle, container: summary.container, fps: render.fps,
          frames: sink.frames, failure: summary.failure)
        document.expected = expected
        document.timeline = sink.timeline
        guard (try? destination.writeAll(PreviewHTML.page(document))) != nil else {
          logger.error("cannot write \(render.output ?? "standard output")")
          return 1
        }
      }
      guard sink.flush() else {
        logger.error("cannot write \(render.output ?? "standard output")")
        return 1
      }
      // The frames are written (they show what went wrong); the reason is the last line on stderr.
      if let failure = summary.failure {
        logger.error(failure)
        return 1
      }
      return 0
    }
  }

  // MARK: One transition

  struct Summary {
    var animator: String
    var container: Size
    var subtitle: String
    /// Why the transition did not end as asked (nil: it did): it failed, it was cancelled although nothing asked
    /// for that (or completed although the script cancelled it), the animator misbehaved, or it ran past
    /// `--max-time`.
    var failure: String?
  }

  /// Starts the transition, plays the script, ticks to the end; frames go to `sink`. `scene` (a golden trace's) is
  /// used instead of `render.scene` when given.
  static func renderOne(
    _ session: RenderSession, animator: String, operation: String, _ render: RenderOptions, _ context: Context,
    sink: inout RenderSink, scene given: JSON? = nil
  ) -> Result<Summary, RenderError> {
    let scene: JSON
    switch given.map(Result.success) ?? loadScene(render.scene ?? "sample", operation: operation) {
    case .success(let loaded): scene = loaded
    case .failure(let error): return .failure(error)
    }
    guard let width = scene["container"]?["width"]?.doubleValue, let height = scene["container"]?["height"]?.doubleValue
    else {
      return .failure("the scene's container needs a width and a height")
    }
    var params: [(String, JSON)] = [
      ("animator", JSON(animator)), ("operation", JSON(operation)), ("container", scene["container"]!),
      ("from", scene["from"]!), ("to", scene["to"]!), ("interactive", JSON(render.script != nil)),
      ("clock", "manual"), ("fps", JSON(render.fps)), ("frames", "full"),
    ]
    if let text = render.params, let values = try? JSON.parse(text) { params.append(("params", values)) }
    // The page draws the timeline: in the start's result, then a `transition/timelineChanged` with every addition.
    if sink.format == .html { params.append(("timeline", "notify")) }
    let started = session.call("transition/start", .object(params))
    sink.take(started.notifications, at: 0, sample: sink.nextSample == 0)
    let transition: String
    let duration: Double
    switch started.result {
    case .failure(let error) where error.code == ErrorCode.unknownAnimator.rawValue:
      return .failure(unknownAnimator(animator, operation, error, session.startupLoadFailures))
    case .failure(let error):
      return .failure("cannot start \(animator) (\(operation)): \(error)")
    case .success(let result):
      transition = result["transition"]?.stringValue ?? "t1"
      duration = result["duration"]?.doubleValue ?? 0
      if let timeline = result["timeline"] { sink.keep(timeline: timeline) }
    }
    var clock = RenderClock(
      fps: render.times == nil ? render.fps : SampleTimes.stepsPerSecond, quiet: render.quiet,
      landsExactly: render.times != nil)
    var scriptNotes: [String] = []
    var expectation = Expectation(scripted: render.script != nil)
    let ticker = Ticker(transition: transition, session: session)
    for step in render.script ?? [] where !sink.ended {
      switch play(step, ticker, &clock, &sink, &expectation) {
      case .success(let note): if let note { scriptNotes.append(note) }
      case .failure(let error):
        session.close()
        return .failure(error)
      }
    }
    if sink.format == .html, render.script != nil, !sink.ended {
      // The script's finish, cancel or release added a tail, which is no animation (no timelineChanged): ask.
      let asked = session.call("transition/timeline", ["transition": JSON(transition)])
      sink.take(asked.notifications, at: clock.time, sample: false)
      if case .success(let timeline) = asked.result { sink.keep(timeline: timeline) }
    }
    var stillRunning = false
    while !sink.ended {
      if clock.time >= render.maxTime {
        session.close()
        stillRunning = true
        break
      }
      if case .failure(let error) = ticker.step(&clock, &sink) {
        clock.finish()
        return .failure(error)
      }
    }
    clock.finish()
    // Sample times after the end: the transition's last frame (its settled state) again, at each.
    if !stillRunning { sink.holdLastFrame() }
    var subtitle =
      render.times.map { "\($0.count) sample times" } ?? "\(shortNumber(render.fps)) fps"
    subtitle += " · duration \(shortNumber(duration)) s"
    if let text = render.params { subtitle += " · params \(text)" }
    if !scriptNotes.isEmpty { subtitle += " · script: " + scriptNotes.joined(separator: ", ") }
    subtitle += " · " + (stillRunning ? "still running" : sink.outcome)
    let failure =
      stillRunning
      ? "\(animator) (\(operation)) was still running after \(render.maxTime) s of timeline; stopped (--max-time)"
      : sink.failure(expecting: expectation).map { "\(animator) (\(operation)) \($0)" }
    return .success(
      Summary(
        animator: animator, container: Size(width: width, height: height), subtitle: subtitle, failure: failure))
  }

  /// The failure of a start whose animator is unknown: when start-up plugins failed to load, the animator was most
  /// likely in one of them, and the load error is the real reason. A failure that names a plugin id (an `init` that
  /// failed) belongs to the animator only if the id is the animator's `pluginId/`; a file the loader could not read
  /// a descriptor from may be any plugin.
  static func unknownAnimator(
    _ animator: String, _ operation: String, _ error: RenderSession.CallError,
    _ failures: [(path: String, error: PluginLoadError)]
  ) -> RenderError {
    func describe(_ failure: (path: String, error: PluginLoadError)) -> String {
      "\(failure.error.message) (error \(failure.error.errorCode.rawValue))"
    }
    let pluginID = animator.contains("/") ? String(animator.split(separator: "/")[0]) : nil
    var candidates: [(path: String, error: PluginLoadError)] = []
    for failure in failures {
      if case .initFailed(_, let id) = failure.error {
        if id == pluginID {
          return "cannot start \(animator) (\(operation)): its plugin failed to load: \(describe(failure))"
        }
        continue
      }
      candidates.append(failure)
    }
    switch candidates.count {
    case 0:
      return "cannot start \(animator) (\(operation)): \(error)"
    case 1:
      return RenderError(
        "cannot start \(animator) (\(operation)): no loaded plugin has it, and a plugin failed to load at start-up: "
          + describe(candidates[0]))
    default:
      return RenderError(
        "cannot start \(animator) (\(operation)): no loaded plugin has it, and \(candidates.count) plugins failed to "
          + "load at start-up: " + candidates.map(describe).joined(separator: "; "))
    }
  }

  /// How the script (or, without one, the transition itself) means the transition to end: completed, unless the
  /// script's last word was a cancel (`cancel`, a `release` that decided to cancel, or a `reverse` of a transition
  /// that was going to complete).
  struct Expectation {
    /// Whether a script drives it.
    var scripted: Bool
    /// Whether it is to end cancelled.
    var cancels = false
  }

  /// Prints the built-in scene for `--operation` (`--scene sample` without `--animator`): the `{container, from,
  /// to}` object a scene file holds, to start one from.
  static func printSampleScene(_ render: RenderOptions, _ context: Context) -> Int32 {
    write(SampleScene.text(for: render.operation), to: render.output, context)
  }

  /// One script step: the calls it makes, each a frame interval after the previous one. With `--times` the clock
  /// is ticked to each call's moment first (through the sample times before it), and a sample time at that moment
  /// is taken after the call (a tick of 0 s): the frame shows what the call did, as a call's own frame does at a
  /// rate.
  private static func play(
    _ step: RenderStep, _ ticker: Ticker, _ clock: inout RenderClock, _ sink: inout RenderSink,
    _ expectation: inout Expectation
  ) -> Result<String?, RenderError> {
    let id = JSON(ticker.transition)
    func call(_ method: String, _ params: JSON) -> Result<JSON, RenderError> {
      if clock.landsExactly {
        if case .failure(let error) = ticker.step(&clock, &sink, samplingAtStep: false) {
          return .failure("--script: \(error.text)")
        }
        guard !sink.ended else {
          return .failure("--script: \(method): the transition had ended (by t \(clock.time) s), before this step")
        }
      } else {
        clock.advance()
      }
      let reply = ticker.session.call(method, params)
      sink.take(reply.notifications, at: clock.time, sample: false)
      clock.report(frames: sink.frameCount, percent: sink.lastPercent)
      if sink.nextSample == clock.time, !sink.ended,
        case .failure(let error) = ticker.tick(to: clock.time, &clock, &sink)
      {
        return .failure("--script: \(error.text)")
      }
      return reply.result.mapError { "--script: \(method) failed: \($0)" }
    }
    switch step {
    case .update(let percent, let over):
      let steps = max(1, Int((over * clock.fps).rounded()))
      let start = sink.lastPercent
      for index in 1...steps {
        let value = steps == 1 ? percent : start + (percent - start) * Double(index) / Double(steps)
        if case .failure(let error) = call("transition/update", ["transition": id, "percent": JSON(value)]) {
          return .failure(error)
        }
      }
      return .success("update \(shortNumber(percent))" + (over > 0 ? " over \(shortNumber(over)) s" : ""))
    case .pause:
      return call("transition/pause", ["transition": id]).map { _ in "pause" }
    case .reverse:
      return call("transition/reverse", ["transition": id]).map { _ in
        expectation.cancels.toggle()
        return "reverse"
      }
    case .finish(let velocity):
      return call("transition/finish", ["transition": id, "velocity": JSON(velocity)]).map { _ in
        expectation.cancels = false
        return "finish"
      }
    case .cancel(let velocity):
      return call("transition/cancel", ["transition": id, "velocity": JSON(velocity)]).map { _ in
        expectation.cancels = true
        return "cancel"
      }
    case .release(let velocity):
      return call("transition/release", ["transition": id, "velocity": JSON(velocity)]).map { result in
        let decision = result["decision"]?.stringValue
        expectation.cancels = decision == "cancel"
        return "release \(shortNumber(velocity)) → \(decision ?? "?")"
      }
    case .wait(let seconds):
      let ticks = Int((seconds * clock.fps).rounded())
      for _ in 0..<ticks where !sink.ended {
        if case .failure(let error) = ticker.step(&clock, &sink) { return .failure("--script: \(error.text)") }
      }
      return .success("wait \(shortNumber(seconds)) s")
    }
  }

  // MARK: Every animator

  /// `--animator all`: one file per animator into the folder `-o` names; prints each path.
  private static func renderAll(_ session: RenderSession, _ render: RenderOptions, _ context: Context) -> Int32 {
    guard let folder = render.output, folder != "-" else {
      context.logger.error("--animator all writes one file per animator: give a folder with -o DIR")
      return 2
    }
    if mkdir(folder, 0o755) != 0 && errno != EEXIST {
      context.logger.error("cannot create \(folder): \(String(cString: strerror(errno)))")
      return 1
    }
    let format = render.format ?? .html
    var failures: [String] = []
    var listing: [UInt8] = []
    for entry in session.animators {
      let operations = entry.info.operations ?? []
      let operation =
        operations.isEmpty || operations.contains(render.operation) ? render.operation : operations[0]
      let shortID = entry.qualifiedID.split(separator: "/").last.map(String.init) ?? entry.qualifiedID
      let path = folder + "/" + shortID + "." + format.rawValue
      var perAnimator = render
      perAnimator.output = path
      let file: FileDescriptor
      do {
        file = try FileDescriptor.open(path, .writeOnly, options: [.create, .truncate, .closeOnExec])
      } catch {
        failures.append("cannot write \(path): \(error)")
        continue
      }
      defer { try? file.close() }
      var sink = RenderSink(format: format, output: file, samples: render.times)
      switch renderOne(session, animator: entry.qualifiedID, operation: operation, perAnimator, context, sink: &sink) {
      case .failure(let message):
        failures.append(message.text)
      case .success(let summary):
        if format == .html {
          var document = PreviewDocument(
            title: "\(entry.qualifiedID) · \(operation)", subtitle: summary.subtitle, container: summary.container,
            fps: render.fps, frames: sink.frames, failure: summary.failure)
          document.timeline = sink.timeline
          try? file.writeAll(PreviewHTML.page(document))
        }
        _ = sink.flush()
        listing += Array("\(path)\t\(entry.qualifiedID)\t\(operation)\n".utf8)
        if let failure = summary.failure { failures.append(failure) }
      }
    }
    try? context.output.writeAll(listing)
    // The failures last, one line each, after every file is written.
    for failure in failures { context.logger.error(failure) }
    return failures.isEmpty ? 0 : 1
  }

  // MARK: Recorded frames

  private static func convert(input: String, _ render: RenderOptions, _ context: Context) -> Int32 {
    guard render.format != .jsonl else {
      context.logger.error("--frames draws recorded frames: the output format is html")
      return 2
    }
    guard render.times == nil else {
      context.logger.error("--times samples a transition that render runs; --frames draws frames recorded already")
      return 2
    }
    let bytes: [UInt8]
    if input == "-" {
      bytes = (try? FileDescriptor.standardInput.readToEnd()) ?? []
    } else {
      switch readFile(input) {
      case .success(let read): bytes = read
      case .failure(let error):
        context.logger.error(error.text)
        return 1
      }
    }
    let stream = FrameStream(text: String(decoding: bytes, as: UTF8.self))
    if !stream.invalidLines.isEmpty {
      context.logger.warn("\(input): skipped \(stream.invalidLines.count) line(s) that are not JSON")
    }
    guard !stream.frames.isEmpty else {
      context.logger.error("\(input): no transition/frame found")
      return 1
    }
    guard let size = render.container ?? stream.containerSize else {
      context.logger.error("\(input): cannot tell the container's size; pass --container WIDTHxHEIGHT")
      return 2
    }
    let frames = stream.frames.enumerated().map { PreviewFrame(at: Double($0.offset) / render.fps, frame: $0.element) }
    var document = PreviewDocument(
      title: render.title ?? "\(stream.transition ?? "transition") · \(input == "-" ? "recorded frames" : input)",
      subtitle: "\(frames.count) frames at \(shortNumber(render.fps)) fps",
      container: Size(width: size.width, height: size.height), fps: render.fps, frames: frames)
    document.timeline = stream.timeline
    return write(PreviewHTML.page(document), to: render.output, context)
  }

  // MARK: Files

  /// Writes `text` to `path` (nil or "-": the output); returns the exit status (1 when it cannot).
  private static func write(_ text: String, to path: String?, _ context: Context) -> Int32 {
    let output: FileDescriptor
    do {
      output = try openOutput(path, context)
    } catch {
      context.logger.error("cannot write \(path ?? "-"): \(error.text)")
      return 1
    }
    defer { if output != context.output { try? output.close() } }
    guard (try? output.writeAll(text)) != nil else {
      context.logger.error("cannot write \(path ?? "standard output")")
      return 1
    }
    return 0
  }

  /// The scene for `operation`: the sample, or a file holding `{container, from, to}`.
  static func loadScene(_ scene: String, operation: String) -> Result<JSON, RenderError> {
    if scene == "sample" { return .success(SampleScene.json(for: operation)) }
    let bytes: [UInt8]
    switch readFile(scene) {
    case .success(let read): bytes = read
    case .failure(let error): return .failure(error)
    }
    let value: JSON
    do {
      value = try bytes.withUnsafeBytes { buffer throws(JSONParseError) in try JSON.parse(buffer) }
    } catch {
      return .failure("\(scene) is not JSON: \(error)")
    }
    guard value.kind == .object else { return .failure("\(scene): expected an object {container, from, to}") }
    for key in ["container", "from", "to"] where value[key] == nil {
      return .failure("\(scene): the scene has no '\(key)' (expected {container, from, to})")
    }
    return .success(value)
  }

  static func readFile(_ path: String) -> Result<[UInt8], RenderError> {
    do {
      let file = try FileDescriptor.open(path, .readOnly, options: .closeOnExec)
      defer { try? file.close() }
      return .success(try file.readToEnd())
    } catch {
      return .failure("cannot read \(path): \(error)")
    }
  }

  private static func openOutput(_ path: String?, _ context: Context) throws(RenderError) -> FileDescriptor {
    guard let path, path != "-" else { return context.output }
    do {
      return try FileDescriptor.open(path, .writeOnly, options: [.create, .truncate, .closeOnExec])
    } catch {
      throw RenderError("\(error)")
    }
  }

  static func shortNumber(_ value: Double) -> String {
    PreviewStyle.number((value * 1000).rounded() / 1000)
  }
}

/// A render failure: one line for stderr.
struct RenderError: Error, ExpressibleByStringLiteral, ExpressibleByStringInterpolation {
  var text: String
  init(_ text: String) { self.text = text }
  init(stringLiteral value: String) { text = value }
}

/// The ticks of one transition on a render clock.
struct Ticker {
  let transition: String
  let session: RenderSession

  /// Ticks the transition from the clock's time to `moment` (at most its next step); the frames go to `sink`, as the
  /// sample there when `moment` is the next sample time and `sampling`.
  func tick(to moment: Double, _ clock: inout RenderClock, _ sink: inout RenderSink, sampling: Bool = true)
    -> Result<Void, RenderError>
  {
    let dt = clock.interval(to: moment)
    if clock.landsExactly, clock.time + dt < moment, clock.time + dt > clock.time {
      // A rounding tie: no one tick lands on `moment`; one to just below it first (its frame is not a sample).
      if case .failure(let error) = tick(to: clock.time + dt, &clock, &sink, sampling: false) { return .failure(error) }
      guard !sink.ended else { return .success(()) }
      return tick(to: moment, &clock, &sink, sampling: sampling)
    }
    clock.move(to: moment)
    let ticked = session.call("transition/tick", ["transition": JSON(transition), "dt": JSON(dt)])
    sink.take(ticked.notifications, at: clock.time, sample: sampling && sink.nextSample == clock.time)
    clock.report(frames: sink.frameCount, percent: sink.lastPercent)
    if case .failure(let error) = ticked.result, !sink.ended { return .failure("transition/tick failed: \(error)") }
    return .success(())
  }

  /// One step of the clock: with `--times`, a tick to each sample time before the step first; then the tick to the
  /// step (a sample when one is there, unless not `samplingAtStep`: a script call comes first).
  func step(_ clock: inout RenderClock, _ sink: inout RenderSink, samplingAtStep: Bool = true)
    -> Result<Void, RenderError>
  {
    let next = clock.nextStep
    while let sample = sink.nextSample, sample < next, !sink.ended {
      if case .failure(let error) = tick(to: sample, &clock, &sink) { return .failure(error) }
    }
    guard !sink.ended else { return .success(()) }
    return tick(to: next, &clock, &sink, sampling: samplingAtStep)
  }
}

/// Where frames go: streamed as JSON Lines, or kept for the page.
///
/// With `--times` (`samples`) only the frames of the ticks at sample times are kept (or written), one each; the
/// frames of other calls and ticks are not, except the transition's last one when it ends between sample times:
/// it is the next sample time's frame. Sample times after that get the same frame again (`holdLastFrame`), in what
/// is kept (a trace, the page), not in the JSON Lines stream (the host sent it once).
struct RenderSink {
  let format: RenderFormat
  let output: FileDescriptor
  private(set) var frames: [PreviewFrame] = []
  private(set) var frameCount = 0
  private(set) var lastPercent = 0.0
  private(set) var ended = false
  private(set) var outcome = "did not end"
  /// The `transition/didEnd` params.
  private(set) var end: JSON?
  /// What the host reported of the animator's misbehaviour (`window/logMessage` with `data.kind`), in order.
  private(set) var misbehaviour: [String] = []
  /// The latest timeline the host gave (transition/start's result, `transition/timelineChanged`, a
  /// `transition/timeline` reply), for the page's lanes.
  private(set) var timeline: JSON?
  private var buffer: [UInt8] = []
  private var failed = false
  /// `--times`: the sample times not taken yet, in order (nil: every frame is kept).
  private var samples: ArraySlice<Double>?
  /// The latest frame the host sent (kept or not): what sample times after the end show.
  private var lastFrame: RenderSession.Message?

  /// Whether the frames are kept (`frames`): for the page, or for a golden trace (`keepsFrames`).
  private let keepsFrames: Bool

  init(format: RenderFormat, output: FileDescriptor, keepsFrames: Bool = false, samples: [Double]? = nil) {
    self.format = format
    self.output = output
    self.keepsFrames = keepsFrames || format == .html
    self.samples = samples.map { $0[...] }
  }

  /// `--times`: the next sample time to take (nil: none left, or sampling at a rate).
  var nextSample: Double? { samples?.first }

  /// Keeps `timeline` as the latest one.
  mutating func keep(timeline: JSON) {
    if timeline.kind == .object { self.timeline = timeline }
  }

  /// Takes the notifications of one call, stamped `at` on the render clock. With `--times`, `sample` says the call
  /// is the tick at the next sample time (which it takes); the frames of other calls are not kept.
  mutating func take(_ notifications: [RenderSession.Message], at time: Double, sample: Bool) {
    var sampled = false
    for message in notifications {
      switch message.json["method"]?.stringValue {
      case "transition/frame":
        guard let params = message.json["params"] else { continue }
        frameCount += 1
        lastPercent = params["percent"]?.doubleValue ?? lastPercent
        lastFrame = message
        if samples != nil {
          guard sample, !sampled else { continue }
          sampled = true
          samples?.removeFirst()
        }
        if keepsFrames { frames.append(PreviewFrame(at: time, frame: params)) }
      case "transition/timelineChanged":
        if let params = message.json["params"] { keep(timeline: params) }
        continue
      case "window/logMessage":
        let params = message.json["params"]
        if params?["data"]?["kind"] != nil, let text = params?["message"]?.stringValue {
          // "t1: <animator> misbehaved: <what>": keep what.
          let what = text.firstRange(of: " misbehaved: ").map { String(text[$0.upperBound...]) } ?? text
          misbehaviour.append(what)
        }
        continue
      case "transition/didEnd":
        if let next = samples?.first, !sampled, let lastFrame, let params = lastFrame.json["params"] {
          // It ended between sample times: its last frame is the next one's.
          samples?.removeFirst()
          sampled = true
          if keepsFrames { frames.append(PreviewFrame(at: next, frame: params)) } else { stream(lastFrame) }
        }
        ended = true
        let params = message.json["params"]
        end = params
        if params?["completed"]?.boolValue == true {
          outcome = "completed"
        } else if params?["cancelled"]?.boolValue == true {
          outcome = "cancelled" + (params?["reason"]?.stringValue.map { " (\($0))" } ?? "")
        } else {
          outcome = "failed" + (params?["reason"]?.stringValue.map { " (\($0))" } ?? "")
        }
      default:
        continue
      }
      stream(message)
    }
    if sample && !sampled && !ended { samples?.removeFirst() }
  }

  /// Writes `message` as a JSON Lines line (buffered), unless the frames are kept.
  private mutating func stream(_ message: RenderSession.Message) {
    guard format == .jsonl && !keepsFrames else { return }
    buffer += message.bytes
    buffer.append(UInt8(ascii: "\n"))
    if buffer.count >= 1 << 20 { _ = flush() }
  }

  /// `--times`, once the transition has ended: the sample times left each get its last frame again (kept frames
  /// only: the JSON Lines stream has it once).
  mutating func holdLastFrame() {
    guard let left = samples, !left.isEmpty, ended, let params = lastFrame?.json["params"] else { return }
    if keepsFrames {
      for time in left { frames.append(PreviewFrame(at: time, frame: params)) }
    }
    samples = []
  }

  /// Why the transition did not end as `expectation` says (a phrase after the animator and operation), or nil.
  func failure(expecting expectation: RenderCommand.Expectation) -> String? {
    guard let end else { return "did not end" }
    let reason = end["reason"]?.stringValue
    if let error = end["error"] {
      let message = error["message"]?.stringValue ?? "error"
      let code = error["code"]?.intValue.map { "error \($0)" }
      return "failed: \(message) (\([reason, code].compactMap { $0 }.joined(separator: ", ")))"
    }
    let completed = end["completed"]?.boolValue == true
    let cancelled = end["cancelled"]?.boolValue == true
    if cancelled && !expectation.cancels {
      let asked = expectation.scripted ? "the script did not cancel it" : "nothing cancelled it"
      return "ended cancelled\(reason.map { " (\($0))" } ?? "") although \(asked)"
    }
    if completed && expectation.cancels { return "completed although the script cancelled it" }
    if !completed && !cancelled { return "ended neither completed nor cancelled\(reason.map { " (\($0))" } ?? "")" }
    if let first = misbehaviour.first {
      let more = misbehaviour.count > 1 ? " (and \(misbehaviour.count - 1) more)" : ""
      return "ended \(completed ? "completed" : "cancelled"), but the animator misbehaved: \(first)\(more)"
    }
    return nil
  }

  /// Writes what is buffered; false once a write failed.
  mutating func flush() -> Bool {
    if !buffer.isEmpty && !failed {
      failed = (try? output.writeAll(buffer)) == nil
      buffer.removeAll(keepingCapacity: true)
    }
    return !failed
  }
}

/// The virtual clock of a render, and its progress line.
///
/// It steps every 1/fps s (`advance`; times are counted in steps so that they do not drift). With `--times`
/// (`landsExactly`) it also stops at each sample time between two steps (`move(to:)`), and every tick's interval is
/// the one that lands the transition's time exactly on the clock's (`interval(to:)`).
struct RenderClock {
  let fps: Double
  /// `--times`: ticks land exactly on the clock's moments (a sample time of 0.3 is sampled at 0.3).
  let landsExactly: Bool
  private(set) var time = 0.0
  private var ticks = 0
  private let showProgress: Bool
  private let isTerminal = isatty(STDERR_FILENO) == 1
  private var printed = false

  init(fps: Double, quiet: Bool, landsExactly: Bool = false) {
    self.fps = fps
    self.landsExactly = landsExactly
    showProgress = !quiet
  }

  /// The moment of the next step.
  var nextStep: Double { Double(ticks + 1) / fps }

  /// One frame interval later.
  mutating func advance() {
    ticks += 1
    time = Double(ticks) / fps
  }

  /// At `moment` (after the clock's time, at most the next step): the next step itself, or a sample time before it.
  mutating func move(to moment: Double) {
    if moment >= nextStep { advance() } else { time = moment }
  }

  /// The `dt` of a tick from the clock's time to `moment`: 1/fps at a rate (what the protocol's clients send), the
  /// interval that lands exactly with `--times`.
  func interval(to moment: Double) -> Double {
    landsExactly ? SampleTimes.interval(from: time, to: moment) : 1 / fps
  }

  /// Prints the progress line every second of timeline once a render is long (past 5 s of timeline).
  mutating func report(frames: Int, percent: Double) {
    guard showProgress, time >= 5, ticks % max(1, Int(fps.rounded())) == 0 else { return }
    let text = "render: \(frames) frames, t \(RenderCommand.shortNumber(time)) s, \(Int((percent * 100).rounded())) %"
    try? FileDescriptor.standardError.writeAll((isTerminal ? "\r" : "") + text + (isTerminal ? "\u{1B}[K" : "\n"))
    printed = true
  }

  /// Ends the progress line.
  mutating func finish() {
    guard printed, isTerminal else { return }
    try? FileDescriptor.standardError.writeAll("\n")
    printed = false
  }
}
