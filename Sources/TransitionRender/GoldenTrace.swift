// A golden trace (docs/golden-traces.md): the inputs of one render, who produced it (plugin, host, ABI) and the frames
// it sampled. `record` writes one, `compare` re-runs its inputs and diffs the frames.

import JSON
import PluginHost

/// One recorded transition.
package struct GoldenTrace {
  /// The format's version; a reader refuses any other.
  package static let version = 1

  /// What the transition was run with: enough to run it again exactly.
  package struct Inputs {
    /// `pluginId/animatorId`, resolved when it was recorded.
    package var animator: String
    package var operation: String
    /// `{container, from, to}`, embedded (the sample scene or the file's contents), so the trace stands alone.
    package var scene: JSON
    /// The animator's parameters, or nil for its defaults.
    package var params: JSON?
    /// The interactive script in `--script`'s spelling, or nil for a normal run.
    package var script: [RenderStep]?
    /// The rate of the render clock (`--fps`); with `times`, the rate it still steps at between them.
    package var fps: Double
    /// `--times`: the sample times, seconds on the render clock (nil: a frame every 1/fps). A trace without the
    /// member (written before `--times` existed) has none.
    package var times: [Double]?
    package var maxTime: Double
    /// The view members kept in each frame (`id` always), or nil for full frames.
    package var members: [String]?
  }

  /// Who produced the frames (reported as notes when a compare's differ, never as failures).
  package struct Provenance: Equatable {
    package var pluginID: String
    package var pluginVersion: String
    /// The plugin's ABI (`"1.2"`).
    package var pluginABI: String
    package var hostVersion: String
    /// The host's ABI (`"1.2"`).
    package var hostABI: String
  }

  package var inputs: Inputs
  package var provenance: Provenance
  /// The `transition/didEnd` outcome: `completed`, `cancelled` and `reason`.
  package var end: JSON
  /// Each frame: `at` (seconds on the render clock), the frame's own members (`time`, `percent`, `phase`) and
  /// `views` (filtered by `inputs.members`).
  package var frames: [JSON]

  /// A trace that cannot be read: the message names the file and the field.
  package struct ReadError: Error {
    package var message: String
  }

  /// The trace's text: the header members one per line, then one frame per line (diffs stay readable); every piece
  /// is json-c's serialization.
  package var text: String {
    var inputMembers: [(String, JSON)] = [
      ("animator", JSON(inputs.animator)), ("operation", JSON(inputs.operation)),
      ("params", inputs.params ?? .null),
      ("script", inputs.script.map { JSON($0.map(\.scriptText).joined(separator: ", ")) } ?? .null),
      ("fps", inputs.times == nil ? JSON(inputs.fps) : .null),
      ("times", inputs.times.map { JSON.array($0.map { JSON($0) }) } ?? .null), ("maxTime", JSON(inputs.maxTime)),
      ("members", inputs.members.map { JSON.array($0.map { JSON($0) }) } ?? .null),
    ]
    inputMembers.append(("scene", inputs.scene))
    let header: [(String, JSON)] = [
      ("traceVersion", JSON(Self.version)),
      ("host", ["version": JSON(provenance.hostVersion), "abi": JSON(provenance.hostABI)]),
      (
        "plugin",
        [
          "id": JSON(provenance.pluginID), "version": JSON(provenance.pluginVersion),
          "abi": JSON(provenance.pluginABI),
        ]
      ),
      ("inputs", .object(inputMembers)),
      ("end", end),
    ]
    var text = "{\n"
    for (key, value) in header {
      text += "  " + JSON(key).serialized() + ": " + value.serialized() + ",\n"
    }
    text += "  \"frames\": [\n"
    text += frames.map { "    " + $0.serialized() }.joined(separator: ",\n")
    text += "\n  ]\n}\n"
    return text
  }

  package init(inputs: Inputs, provenance: Provenance, end: JSON, frames: [JSON]) {
    self.inputs = inputs
    self.provenance = provenance
    self.end = end
    self.frames = frames
  }

  /// Reads a trace; `source` names it in errors.
  package init(parsing value: JSON, source: String) throws(ReadError) {
    func fail(_ why: String) -> ReadError { ReadError(message: "\(source): \(why)") }
    guard value.kind == .object else { throw fail("not a golden trace (expected a JSON object)") }
    guard let version = value["traceVersion"]?.intValue else {
      throw fail("not a golden trace: no 'traceVersion' (record one with transition-host record)")
    }
    guard version == Self.version else {
      throw fail("traceVersion \(version) is not supported (this host reads traceVersion \(Self.version))")
    }
    func string(_ parent: JSON?, _ key: String, _ path: String) throws(ReadError) -> String {
      guard let text = parent?[key]?.stringValue else { throw fail("'\(path)' must be a string") }
      return text
    }
    guard let inputs = value["inputs"], inputs.kind == .object else { throw fail("'inputs' must be an object") }
    let animator = try string(inputs, "animator", "inputs.animator")
    let operation = try string(inputs, "operation", "inputs.operation")
    guard let scene = inputs["scene"], scene.kind == .object,
      scene["container"] != nil, scene["from"] != nil, scene["to"] != nil
    else { throw fail("'inputs.scene' must be an object {container, from, to}") }
    var params: JSON?
    if let given = inputs["params"], !given.isNull {
      guard given.kind == .object else { throw fail("'inputs.params' must be an object or null") }
      params = given
    }
    var script: [RenderStep]?
    if let given = inputs["script"], !given.isNull {
      guard let text = given.stringValue else { throw fail("'inputs.script' must be a string or null") }
      do throws(RenderScriptError) { script = try RenderScript.parse(text) } catch {
        throw fail("'inputs.script': \(error.message)")
      }
    }
    var times: [Double]?
    if let given = inputs["times"], !given.isNull {
      let values = given.elements.compactMap { $0.kind == .int || $0.kind == .double ? $0.doubleValue : nil }
      guard given.kind == .array, values.count == given.count else {
        throw fail("'inputs.times' must be an array of numbers (seconds) or null")
      }
      do throws(SampleTimes.Problem) { try SampleTimes.check(values) } catch {
        throw fail("'inputs.times" + (error.index.map { "[\($0)]'" } ?? "'") + ": \(error.reason)")
      }
      times = values
    }
    let fps: Double
    if times != nil {
      guard inputs["fps"]?.isNull ?? true else { throw fail("'inputs.fps' must be null when 'inputs.times' is given") }
      fps = SampleTimes.stepsPerSecond
    } else {
      guard let given = inputs["fps"]?.doubleValue, given >= 1, given <= 1000 else {
        throw fail("'inputs.fps' must be a number from 1 to 1000 (or null with 'inputs.times')")
      }
      fps = given
    }
    guard let maxTime = inputs["maxTime"]?.doubleValue, maxTime > 0, maxTime <= 86_400 else {
      throw fail("'inputs.maxTime' must be seconds from 0 to 86400")
    }
    var members: [String]?
    if let given = inputs["members"], !given.isNull {
      let names = given.elements.compactMap(\.stringValue)
      guard given.kind == .array, names.count == given.count, !names.isEmpty else {
        throw fail("'inputs.members' must be a non-empty array of strings or null")
      }
      members = names
    }
    self.inputs = Inputs(
      animator: animator, operation: operation, scene: scene, params: params, script: script, fps: fps,
      times: times, maxTime: maxTime, members: members)
    provenance = Provenance(
      pluginID: try string(value["plugin"], "id", "plugin.id"),
      pluginVersion: try string(value["plugin"], "version", "plugin.version"),
      pluginABI: try string(value["plugin"], "abi", "plugin.abi"),
      hostVersion: try string(value["host"], "version", "host.version"),
      hostABI: try string(value["host"], "abi", "host.abi"))
    guard let end = value["end"], end.kind == .object else { throw fail("'end' must be an object") }
    self.end = end
    guard let frames = value["frames"], frames.kind == .array else { throw fail("'frames' must be an array") }
    for (index, frame) in frames.elements.enumerated() {
      guard frame.kind == .object, frame["at"]?.doubleValue != nil, frame["views"]?.kind == .array else {
        throw fail("'frames[\(index)]' must be an object with 'at' (seconds) and 'views' (an array)")
      }
    }
    self.frames = frames.elements
  }

  /// Reads the trace file at `path`.
  package static func read(path: String) -> Result<GoldenTrace, ReadError> {
    switch RenderCommand.readFile(path) {
    case .failure(let error): return .failure(ReadError(message: error.text))
    case .success(let bytes):
      let value: JSON
      do {
        value = try bytes.withUnsafeBytes { buffer throws(JSONParseError) in try JSON.parse(buffer) }
      } catch {
        return .failure(ReadError(message: "\(path) is not JSON: \(error)"))
      }
      return Result { () throws(ReadError) in try GoldenTrace(parsing: value, source: path) }
    }
  }

  /// The host's own versions, as a trace records them.
  static var hostVersion: String { HostIdentity.version }
  static var hostABI: String { "\(ABIVersion.host.major).\(ABIVersion.host.minor)" }

  /// A protocol frame as a trace keeps it: `at` first, the frame's own members without the per-connection ones
  /// (`transition`, `seq`), the views with only `members` (and `id`) when a set is chosen.
  static func traceFrame(_ frame: JSON, at time: Double, members: [String]?) -> JSON {
    var kept: [(String, JSON)] = [("at", JSON(time))]
    for (key, value) in frame.members where key != "transition" && key != "seq" {
      guard key == "views", let members else {
        kept.append((key, value))
        continue
      }
      let views = value.elements.map { view in
        JSON.object(view.members.filter { $0.key == "id" || members.contains($0.key) }.map { ($0.key, $0.value) })
      }
      kept.append((key, .array(views)))
    }
    return .object(kept)
  }

  /// The outcome members of a `transition/didEnd`.
  static func endOutcome(_ didEnd: JSON?) -> JSON {
    guard let didEnd else { return ["ended": false] }
    var kept: [(String, JSON)] = []
    for key in ["completed", "cancelled", "reason"] {
      if let value = didEnd[key] { kept.append((key, value)) }
    }
    return .object(kept)
  }
}
