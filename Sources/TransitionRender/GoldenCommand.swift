// `transition-host record` and `transition-host compare` (docs/golden-traces.md): a render kept as a golden trace,
// and the same inputs run again against the current plugin, frame by frame. Both run the transition exactly as
// `render` does (RenderCommand.renderOne, on a RenderSession), so a trace holds render's frames.

import JSON
import POSIX
import PluginHost
import TransitionService

/// `record` and `compare` options besides render's (kept in `HostOptions.golden`).
package struct GoldenOptions: Equatable, Sendable {
  /// `--members a,b,…`: the view members a recorded frame keeps (`id` always); nil: full frames.
  package var members: [String]?
  /// `--tolerance T`: the largest absolute difference of two numbers that still match (default 1e-6).
  package var tolerance = 1e-6
  /// `--update`: rewrite each trace with the current frames (inputs kept).
  package var update = false
  /// `--max-divergences N`: how many divergences are listed per trace (default 10; all are counted).
  package var maxDivergences = 10
  /// `--json`: one JSON object instead of the text report.
  package var json = false

  package init() {}
}

/// `transition-host record` and `transition-host compare`.
package enum GoldenCommand {
  /// What one trace's compare found.
  package struct Outcome {
    package enum Status: String, Sendable {
      /// Every frame and the end match.
      case pass
      /// At least one divergence, or the run failed now.
      case fail
      /// The trace was rewritten (`--update`).
      case updated
      /// The trace could not be read or written: exit status 2.
      case error
    }
    package var path: String
    package var status: Status
    package var animator: String?
    package var operation: String?
    package var frameCount = 0
    package var divergenceCount = 0
    /// The first divergences (at most `--max-divergences`).
    package var divergences: [TraceDivergence] = []
    /// Differences of plugin, host or ABI version: reported, never failures.
    package var notes: [String] = []
    /// Why the trace could not be compared, or the run that failed.
    package var message: String?

    /// The one-line summary.
    package var summary: String {
      let what = animator.map { " (\($0), \(operation ?? "?"))" } ?? ""
      switch status {
      case .pass: return "PASS \(path): \(frameCount) frames match\(what)"
      case .updated:
        return "UPDATED \(path): \(frameCount) frames written\(what)"
          + (divergenceCount > 0 ? ", replacing \(divergenceCount) divergence(s)" : ", unchanged")
      case .error: return "ERROR \(message ?? "\(path): cannot compare")"
      case .fail:
        if let message { return "FAIL \(path): \(message)" }
        let first = divergences.first.map { "; first: \($0.line)" } ?? ""
        return "FAIL \(path): \(divergenceCount) divergence(s) in \(frameCount) frames\(what)\(first)"
      }
    }

    /// As data (`compare --json`, `validate --golden`).
    package var json: JSON {
      [
        "trace": JSON(path), "status": JSON(status.rawValue), "animator": animator.map { JSON($0) } ?? .null,
        "operation": operation.map { JSON($0) } ?? .null, "frames": JSON(frameCount),
        "divergenceCount": JSON(divergenceCount), "divergences": .array(divergences.map(\.json)),
        "notes": .array(notes.map { JSON($0) }), "message": message.map { JSON($0) } ?? .null,
      ]
    }
  }

  // MARK: record

  /// `record`: renders as `render` does and writes the trace to `render.output` (nil or "-": the output). Exit
  /// status: 0 written, 1 the transition did not end as asked (nothing is written) or the file cannot be written,
  /// 2 bad options.
  package static func record(
    _ render: RenderOptions, _ golden: GoldenOptions, plugins: PluginSetup, maxTransitions: Int,
    output: FileDescriptor, logger: Logger
  ) -> Int32 {
    guard let animator = render.animator, animator != "all" else {
      logger.error("record needs --animator ID (one animator); see transition-host record --help")
      return 2
    }
    let scene: JSON
    switch RenderCommand.loadScene(render.scene ?? "sample", operation: render.operation) {
    case .success(let loaded): scene = loaded
    case .failure(let error):
      logger.error(error.text)
      return 1
    }
    var params: JSON?
    if let text = render.params { params = try? JSON.parse(text) }
    let inputs = GoldenTrace.Inputs(
      animator: animator, operation: render.operation, scene: scene, params: params, script: render.script,
      fps: render.fps, times: render.times, maxTime: render.maxTime, members: golden.members)
    let session = RenderSession(plugins: plugins, maxTransitions: maxTransitions, logger: logger)
    defer { session.close() }
    switch run(inputs, session: session, output: output, logger: logger) {
    case .failure(let error):
      logger.error(error.text + " (no trace written)")
      return 1
    case .success(let trace):
      return write(trace.text, to: render.output, output: output, logger: logger)
    }
  }

  /// Runs `inputs` once; the trace of that run (its animator resolved to `pluginId/animatorId`).
  static func run(_ inputs: GoldenTrace.Inputs, session: RenderSession, output: FileDescriptor, logger: Logger)
    -> Result<GoldenTrace, RenderError>
  {
    var render = RenderOptions()
    render.animator = inputs.animator
    render.operation = inputs.operation
    render.params = inputs.params?.serialized()
    render.script = inputs.script
    render.fps = inputs.fps
    render.times = inputs.times
    render.maxTime = inputs.maxTime
    render.quiet = true
    var sink = RenderSink(format: .jsonl, output: output, keepsFrames: true, samples: inputs.times)
    let context = RenderCommand.Context(output: output, logger: logger)
    switch RenderCommand.renderOne(
      session, animator: inputs.animator, operation: inputs.operation, render, context, sink: &sink,
      scene: inputs.scene)
    {
    case .failure(let error): return .failure(error)
    case .success(let summary):
      if let failure = summary.failure { return .failure(RenderError(failure)) }
    }
    let shortMatches = session.animators.filter { $0.qualifiedID.hasSuffix("/" + inputs.animator) }
    guard
      let entry = session.animators.first(where: { $0.qualifiedID == inputs.animator })
        ?? (shortMatches.count == 1 ? shortMatches[0] : nil)
    else { return .failure("cannot tell which plugin has \(inputs.animator)") }
    var provenance = GoldenTrace.Provenance(
      pluginID: entry.pluginID, pluginVersion: "?", pluginABI: "?", hostVersion: GoldenTrace.hostVersion,
      hostABI: GoldenTrace.hostABI)
    if case .success(let listed) = session.call("plugins/list", .object([])).result,
      let plugin = listed["plugins"]?.elements.first(where: { $0["id"]?.stringValue == entry.pluginID })
    {
      provenance.pluginVersion = plugin["version"]?.stringValue ?? "?"
      provenance.pluginABI = plugin["abi"]?.stringValue ?? "?"
    }
    var resolved = inputs
    resolved.animator = entry.qualifiedID
    let frames = sink.frames.map { GoldenTrace.traceFrame($0.frame, at: $0.at, members: inputs.members) }
    return .success(
      GoldenTrace(
        inputs: resolved, provenance: provenance, end: GoldenTrace.endOutcome(sink.end), frames: frames))
  }

  // MARK: compare

  /// `compare TRACE…`: each trace's inputs run again on the start-up plugins of `plugins`. Exit status: 0 every
  /// trace matches (or was updated), 1 a divergence or a run that fails now, 2 a trace that cannot be read (or
  /// written back) or bad options; the highest wins.
  package static func compare(
    _ paths: [String], _ golden: GoldenOptions, plugins: PluginSetup, maxTransitions: Int, output: FileDescriptor,
    logger: Logger
  ) -> Int32 {
    guard !paths.isEmpty else {
      logger.error("compare needs at least one TRACE; see transition-host compare --help")
      return 2
    }
    let outcomes = compareAll(
      paths, golden, plugins: plugins, maxTransitions: maxTransitions, output: output, logger: logger)
    var text = ""
    if golden.json {
      let ok = outcomes.allSatisfy { $0.status == .pass || $0.status == .updated }
      text = JSON.object([("ok", JSON(ok)), ("traces", .array(outcomes.map(\.json)))]).serialized() + "\n"
    } else {
      for outcome in outcomes {
        for divergence in outcome.divergences { text += "  " + divergence.line + "\n" }
        if outcome.divergenceCount > outcome.divergences.count {
          text += "  … and \(outcome.divergenceCount - outcome.divergences.count) more\n"
        }
        for note in outcome.notes { text += "  note: " + note + "\n" }
        text += outcome.summary + "\n"
      }
    }
    guard (try? output.writeAll(text)) != nil else { return 2 }
    return exitStatus(outcomes)
  }

  /// 2 when a trace is an error, else 1 when one fails, else 0.
  package static func exitStatus(_ outcomes: [Outcome]) -> Int32 {
    if outcomes.contains(where: { $0.status == .error }) { return 2 }
    return outcomes.contains(where: { $0.status == .fail }) ? 1 : 0
  }

  /// Compares every trace (one session for all of them: transitions are independent).
  package static func compareAll(
    _ paths: [String], _ golden: GoldenOptions, plugins: PluginSetup, maxTransitions: Int, output: FileDescriptor,
    logger: Logger
  ) -> [Outcome] {
    let session = RenderSession(plugins: plugins, maxTransitions: maxTransitions, logger: logger)
    defer { session.close() }
    return paths.map { compareOne($0, golden, session: session, output: output, logger: logger) }
  }

  private static func compareOne(
    _ path: String, _ golden: GoldenOptions, session: RenderSession, output: FileDescriptor, logger: Logger
  ) -> Outcome {
    var outcome = Outcome(path: path, status: .error)
    let trace: GoldenTrace
    switch GoldenTrace.read(path: path) {
    case .failure(let error):
      outcome.message = error.message
      return outcome
    case .success(let read): trace = read
    }
    outcome.animator = trace.inputs.animator
    outcome.operation = trace.inputs.operation
    outcome.frameCount = trace.frames.count
    let current: GoldenTrace
    switch run(trace.inputs, session: session, output: output, logger: logger) {
    case .failure(let error):
      outcome.status = .fail
      outcome.message = "the run fails now: \(error.text)"
      return outcome
    case .success(let run): current = run
    }
    outcome.notes = notes(recorded: trace.provenance, now: current.provenance)
    var comparison = TraceComparison(tolerance: golden.tolerance, limit: golden.maxDivergences)
    comparison.compare(expected: trace.frames, got: current.frames)
    comparison.compare(expectedEnd: trace.end, gotEnd: current.end)
    outcome.divergenceCount = comparison.count
    outcome.divergences = comparison.divergences
    guard golden.update else {
      outcome.status = comparison.count == 0 ? .pass : .fail
      return outcome
    }
    // The inputs as the trace has them (an animator given by its short id stays so).
    var updated = current
    updated.inputs = trace.inputs
    guard write(updated.text, to: path, output: output, logger: logger) == 0 else {
      outcome.message = "cannot write \(path)"
      return outcome
    }
    outcome.status = .updated
    outcome.frameCount = current.frames.count
    return outcome
  }

  /// What differs in who produced the frames: the plugin's version or ABI, the host's version or ABI.
  static func notes(recorded: GoldenTrace.Provenance, now: GoldenTrace.Provenance) -> [String] {
    var notes: [String] = []
    func note(_ what: String, _ then: String, _ now: String) {
      if then != now { notes.append("recorded with \(what) \(then), now \(now) (not a failure)") }
    }
    note("plugin", recorded.pluginID, now.pluginID)
    note("\(now.pluginID) version", recorded.pluginVersion, now.pluginVersion)
    note("\(now.pluginID) ABI", recorded.pluginABI, now.pluginABI)
    note("host version", recorded.hostVersion, now.hostVersion)
    note("host ABI", recorded.hostABI, now.hostABI)
    return notes
  }

  /// Writes `text` to `path` (nil or "-": `output`); 0, or 1 when it cannot.
  private static func write(_ text: String, to path: String?, output: FileDescriptor, logger: Logger) -> Int32 {
    guard let path, path != "-" else {
      return (try? output.writeAll(text)) != nil ? 0 : 1
    }
    do {
      let file = try FileDescriptor.open(path, .writeOnly, options: [.create, .truncate, .closeOnExec])
      defer { try? file.close() }
      try file.writeAll(text)
      return 0
    } catch {
      logger.error("cannot write \(path): \(error)")
      return 1
    }
  }
}
