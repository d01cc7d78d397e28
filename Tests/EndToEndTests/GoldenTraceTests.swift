import Foundation
import Glibc
import JSON
import Testing

/// `transition-host record` and `transition-host compare`, run as the built binary: every built-in animator and
/// operation records and compares clean, and a trace made with another parameter fails at the first frame that
/// differs, with the values the animator's curve gives (computed here, independently of the engine).
@Suite struct GoldenTraceTests {
  /// Every built-in animator with the operations it declares (Plugins/*: flip.c, segueslide.c, the Swift ones).
  static let builtIns: [(animator: String, operation: String)] = [
    ("pull-down", "present"), ("pull-down", "dismiss"), ("flip", "present"), ("flip", "dismiss"),
    ("segue-slide", "segue"), ("segue-slide", "unwind"), ("sheet", "present"), ("sheet", "dismiss"),
    ("magic-move", "push"), ("magic-move", "pop"),
  ]

  static func temporary(_ name: String) -> String {
    NSTemporaryDirectory() + "golden-\(getpid())-\(UInt32.random(in: 0...UInt32.max))-\(name)"
  }

  /// A divergence's `expected` or `got` (JSON text of a number) as a number.
  static func value(_ divergence: JSON, _ key: String) -> Double {
    let text: String = divergence[key]?.stringValue ?? ""
    return Double(text) ?? .nan
  }

  static func text(_ value: JSON?) -> String { value?.stringValue ?? "(none)" }
  static func integer(_ value: JSON?) -> Int64 { value?.intValue ?? -1 }
  static func flag(_ value: JSON?) -> Bool { value?.boolValue ?? false }

  static func read(_ path: String) throws -> JSON { try JSON.parse(String(contentsOfFile: path, encoding: .utf8)) }

  /// compare --json's object, and the exit status.
  static func compareJSON(_ arguments: [String]) throws -> (status: ExitStatus?, report: JSON?, stderr: String) {
    let run = try RenderTests.run(["compare", "--json"] + arguments)
    return (run.status, run.lines.first.flatMap { try? JSON.parse($0) }, run.stderr)
  }

  /// Core Animation's easeInOut, (0.42, 0, 0.58, 1): solve x(s) = progress by bisection, return y(s).
  static func easeInOut(_ progress: Double) -> Double {
    func bezier(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
      3 * (1 - s) * (1 - s) * s * p1 + 3 * (1 - s) * s * s * p2 + s * s * s
    }
    var low = 0.0
    var high = 1.0
    for _ in 0..<200 {
      let mid = (low + high) / 2
      if bezier(mid, 0.42, 0.58) < progress { low = mid } else { high = mid }
    }
    return bezier((low + high) / 2, 0, 1)
  }

  @Test func everyBuiltInRecordsThenComparesClean() throws {
    var paths: [String] = []
    defer { for path in paths { unlink(path) } }
    for (animator, operation) in Self.builtIns {
      let path = Self.temporary("\(animator)-\(operation).json")
      paths.append(path)
      let recorded = try RenderTests.run(["record", "--animator", animator, "--operation", operation, "-o", path])
      #expect(recorded.status == .exited(0), "\(animator) \(operation): \(recorded.stderr)")
      let trace = try Self.read(path)
      #expect(Self.integer(trace["traceVersion"]) == 1)
      #expect(Self.text(trace["inputs"]?["operation"]) == operation)
      let qualified: String = trace["inputs"]?["animator"]?.stringValue ?? ""
      #expect(qualified.hasSuffix("/" + animator), "\(qualified)")
      // The built-ins are built against the host's own header: the same ABI, major.minor.
      let hostABI = Self.text(trace["host"]?["abi"])
      #expect(hostABI.split(separator: ".").count == 2 && hostABI.allSatisfy { $0.isNumber || $0 == "." }, "\(hostABI)")
      #expect(Self.text(trace["plugin"]?["abi"]) == hostABI)
      let version: String = trace["plugin"]?["version"]?.stringValue ?? ""
      #expect(!version.isEmpty)
      #expect(Self.flag(trace["end"]?["completed"]), "\(animator) \(operation)")
      let frameCount: Int = trace["frames"]?.count ?? 0
      #expect(frameCount > 10, "\(animator) \(operation)")
    }
    // An interactive one too: the script is part of the inputs.
    let scripted = Self.temporary("scripted.json")
    paths.append(scripted)
    let recorded = try RenderTests.run([
      "record", "--animator", "sheet", "--script", "update 0.4 over 0.2, release -1", "-o", scripted,
    ])
    #expect(recorded.status == .exited(0), "\(recorded.stderr)")
    let scriptedTrace = try Self.read(scripted)
    #expect(Self.text(scriptedTrace["inputs"]?["script"]) == "update 0.4 over 0.2, release -1.0")
    #expect(Self.flag(scriptedTrace["end"]?["cancelled"]))

    let compared = try RenderTests.run(["compare"] + paths)
    #expect(compared.status == .exited(0), "\(compared.lines) \(compared.stderr)")
    #expect(compared.lines.filter { $0.hasPrefix("PASS ") }.count == paths.count, "\(compared.lines)")
  }

  /// Rewrites the trace's `inputs.params` (the frames stay those of the recorded run).
  static func replaceParams(in path: String, with params: String) throws {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let range = try #require(text.range(of: #""params":"#))
    let end = try #require(text.range(of: #","script":"#, range: range.upperBound..<text.endIndex))
    try (text[..<range.upperBound] + params + text[end.lowerBound...]).write(
      toFile: path, atomically: true, encoding: .utf8)
  }

  @Test func aTraceMadeWithAnotherDurationFailsAtItsFirstFrameThatMoves() throws {
    let path = Self.temporary("duration.json")
    defer { unlink(path) }
    let recorded = try RenderTests.run([
      "record", "--animator", "pull-down", "--params", #"{"duration": 0.6}"#, "-o", path,
    ])
    #expect(recorded.status == .exited(0), "\(recorded.stderr)")
    // The animator as it is now runs 0.5 s: the trace's frames (0.6 s) are what it used to do.
    try Self.replaceParams(in: path, with: #"{"duration":0.5}"#)
    let (status, report, stderr) = try Self.compareJSON([path])
    #expect(status == .exited(1), "\(stderr)")
    let trace = try #require(report?["traces"]?[0])
    #expect(Self.text(trace["status"]) == "fail")
    let first = try #require(trace["divergences"]?[0])
    // Frame 0 (t = 0) is the start for both; at t = 1/60 the presented root `detail` (sample scene, 390 × 844)
    // has moved from y = -844 by 844 · easeInOut(t / duration).
    #expect(Self.integer(first["frame"]) == 1)
    let time: Double = first["time"]?.doubleValue ?? .nan
    #expect(abs(time - 1.0 / 60) < 1e-12)
    #expect(Self.text(first["view"]) == "detail")
    #expect(Self.text(first["member"]) == "frame.y")
    let expected = -844 + 844 * Self.easeInOut((1.0 / 60) / 0.6)
    let got = -844 + 844 * Self.easeInOut((1.0 / 60) / 0.5)
    let expectedDifference = abs(Self.value(first, "expected") - expected)
    let gotDifference = abs(Self.value(first, "got") - got)
    #expect(expectedDifference < 1e-9, "\(first)")
    #expect(gotDifference < 1e-9, "\(first)")
    // 0.6 s is 37 frames at 60 fps (0 … 36); 0.5 s is 31: the missing ones count too.
    #expect(Self.integer(trace["frames"]) == 37)

    // The text report: the divergence line, then the one-line summary.
    let text = try RenderTests.run(["compare", "--max-divergences", "1", path])
    #expect(text.status == .exited(1))
    #expect(text.lines.first?.contains("frame 1  view detail  frame.y  expected ") == true, "\(text.lines)")
    #expect(text.lines.last?.hasPrefix("FAIL \(path): ") == true, "\(text.lines)")
  }

  @Test func aTraceMadeWithAnotherCurveFailsAndUpdateRewritesIt() throws {
    let path = Self.temporary("curve.json")
    defer { unlink(path) }
    let recorded = try RenderTests.run([
      "record", "--animator", "pull-down", "--params", #"{"curve": "linear"}"#, "--members", "frame", "-o", path,
    ])
    #expect(recorded.status == .exited(0), "\(recorded.stderr)")
    try Self.replaceParams(in: path, with: #"{"curve":"easeInOut"}"#)
    let (status, report, _) = try Self.compareJSON([path])
    #expect(status == .exited(1))
    let first = try #require(report?["traces"]?[0]?["divergences"]?[0])
    #expect(Self.integer(first["frame"]) == 1)
    #expect(Self.text(first["view"]) == "detail")
    #expect(Self.text(first["member"]) == "frame.y")
    // Linear: 844 · (1/60) / 0.5 = 28.1333… points down from -844.
    let linear: Double = -844 + 844 * (1.0 / 30)
    let eased: Double = -844 + 844 * Self.easeInOut(1.0 / 30)
    let expectedDifference = abs(Self.value(first, "expected") - linear)
    let gotDifference = abs(Self.value(first, "got") - eased)
    #expect(expectedDifference < 1e-9, "\(first)")
    #expect(gotDifference < 1e-9, "\(first)")
    // Same length (0.5 s): only positions differ, so nothing is missing; frame 0 and the last frame agree.
    #expect(Self.integer(report?["traces"]?[0]?["frames"]) == 31)

    // --update keeps the inputs (the new curve, the members) and takes the current frames: it passes afterwards.
    let updated = try RenderTests.run(["compare", "--update", path])
    #expect(updated.status == .exited(0), "\(updated.stderr)")
    #expect(updated.lines.last?.hasPrefix("UPDATED \(path): 31 frames written") == true, "\(updated.lines)")
    let trace = try Self.read(path)
    #expect(Self.text(trace["inputs"]?["params"]?["curve"]) == "easeInOut")
    #expect(Self.text(trace["inputs"]?["members"]?[0]) == "frame")
    let again = try RenderTests.run(["compare", path])
    #expect(again.status == .exited(0), "\(again.lines)")
  }

  @Test func membersKeepOnlyTheChosenOnesAndTheID() throws {
    let path = Self.temporary("members.json")
    defer { unlink(path) }
    let recorded = try RenderTests.run([
      "record", "--animator", "flip", "--members", "frame,alpha", "-o", path,
    ])
    #expect(recorded.status == .exited(0), "\(recorded.stderr)")
    let trace = try Self.read(path)
    let frames = try #require(trace["frames"]?.elements)
    for frame in frames {
      #expect(frame.keys.first == "at")
      for view in frame["views"]?.elements ?? [] {
        #expect(Set(view.keys) == ["id", "frame", "alpha"], "\(view)")
      }
    }
    #expect(try RenderTests.run(["compare", path]).status == .exited(0))
  }

  @Test func aMissingOrExtraViewIsADivergence() throws {
    let path = Self.temporary("views.json")
    defer { unlink(path) }
    #expect(
      try RenderTests.run(["record", "--animator", "pull-down", "--members", "alpha", "-o", path]).status
        == .exited(0))
    // Frame 0's views in drawing order: the container, then the from tree (home …). Rename home-tabbar in frame 0.
    let text = try String(contentsOfFile: path, encoding: .utf8)
    var lines = text.components(separatedBy: "\n")
    let index = try #require(lines.firstIndex { $0.hasPrefix("    {\"at\":0") })
    lines[index] = lines[index].replacingOccurrences(of: #""id":"home-tabbar""#, with: #""id":"home-gone""#)
    try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
    let (status, report, _) = try Self.compareJSON([path])
    #expect(status == .exited(1))
    let divergences = try #require(report?["traces"]?[0]?["divergences"]?.elements)
    #expect(divergences.count == 2)
    #expect(Self.text(divergences.first?["view"]) == "home-gone")
    #expect(Self.text(divergences.first?["member"]) == "(view)")
    #expect(Self.text(divergences.first?["expected"]) == "present")
    #expect(Self.text(divergences.first?["got"]) == "missing")
    #expect(Self.text(divergences.last?["view"]) == "home-tabbar")
    #expect(Self.text(divergences.last?["expected"]) == "missing")
    #expect(Self.text(divergences.last?["got"]) == "present")
  }

  @Test func otherVersionsAreNotesNotFailures() throws {
    let path = Self.temporary("versions.json")
    defer { unlink(path) }
    #expect(
      try RenderTests.run(["record", "--animator", "sheet", "--members", "frame", "-o", path]).status == .exited(0))
    let recorded = try Self.read(path)
    let pluginVersion = Self.text(recorded["plugin"]?["version"])
    let pluginABI = Self.text(recorded["plugin"]?["abi"])
    let hostVersion = Self.text(recorded["host"]?["version"])
    let text = try String(contentsOfFile: path, encoding: .utf8)
    try text.replacingOccurrences(
      of: #""version":"\#(pluginVersion)","abi":"\#(pluginABI)"}"#, with: #""version":"0.0.1","abi":"0.9"}"#
    )
    .replacingOccurrences(of: #""host": {"version":"\#(hostVersion)""#, with: #""host": {"version":"0.0.0-old""#)
    .write(toFile: path, atomically: true, encoding: .utf8)
    let compared = try RenderTests.run(["compare", path])
    #expect(compared.status == .exited(0), "\(compared.lines)")
    let versionNote =
      "  note: recorded with com.transitionhost.sheet version 0.0.1, now \(pluginVersion) (not a failure)"
    let abiNote = "  note: recorded with com.transitionhost.sheet ABI 0.9, now \(pluginABI) (not a failure)"
    let hostNote = "  note: recorded with host version 0.0.0-old, now \(hostVersion) (not a failure)"
    #expect(compared.lines.contains(versionNote), "\(compared.lines)")
    #expect(compared.lines.contains(abiNote), "\(compared.lines)")
    #expect(compared.lines.contains(hostNote), "\(compared.lines)")
    #expect(compared.lines.last?.hasPrefix("PASS ") == true)
  }

  @Test func unreadableTracesAndBadOptionsExitTwo() throws {
    let notJSON = Self.temporary("not.json")
    let otherVersion = Self.temporary("v2.json")
    defer {
      unlink(notJSON)
      unlink(otherVersion)
    }
    try "{oops".write(toFile: notJSON, atomically: true, encoding: .utf8)
    try #"{"traceVersion": 2}"#.write(toFile: otherVersion, atomically: true, encoding: .utf8)
    let notJSONRun = try RenderTests.run(["compare", notJSON])
    #expect(notJSONRun.status == .exited(2))
    #expect(notJSONRun.lines.last?.hasPrefix("ERROR \(notJSON) is not JSON") == true, "\(notJSONRun.lines)")
    let versionRun = try RenderTests.run(["compare", otherVersion])
    #expect(versionRun.status == .exited(2))
    #expect(
      versionRun.lines.last == "ERROR \(otherVersion): traceVersion 2 is not supported (this host reads traceVersion 1)"
    )
    #expect(try RenderTests.run(["compare", "/nonexistent/trace.json"]).status == .exited(2))
    #expect(try RenderTests.run(["compare"]).status == .exited(2))
    #expect(try RenderTests.run(["compare", "--tolerance", "-1", notJSON]).status == .exited(2))
    #expect(try RenderTests.run(["record", "-o", notJSON]).status == .exited(2))
    // A run that cannot start now is a failure of the plugin under test (1), and record writes nothing for it.
    let unknown = try RenderTests.run(["record", "--animator", "no-such-animator", "-o", otherVersion])
    #expect(unknown.status == .exited(1))
    #expect(unknown.stderr.contains("(no trace written)"))
  }

  @Test func validateGoldenReportsEachTraceAsACheck() throws {
    let good = Self.temporary("validate-good.json")
    let changed = Self.temporary("validate-changed.json")
    defer {
      unlink(good)
      unlink(changed)
    }
    for path in [good, changed] {
      let recorded = try RenderTests.run(["record", "--animator", "pull-down", "--members", "frame", "-o", path])
      #expect(recorded.status == .exited(0), "\(recorded.stderr)")
    }
    try Self.replaceParams(in: changed, with: #"{"duration":0.6}"#)
    let run = try RenderTests.run(["validate", "--json", "--golden", good, "--golden", changed])
    #expect(run.status == .exited(1), "\(run.stderr)")
    let report = try JSON.parse(try #require(run.lines.first))
    let results = try #require(report["results"]?.elements)
    #expect(results.count == 2)
    #expect(results.map { Self.text($0["check"]) } == ["golden", "golden"])
    #expect(results.map { Self.text($0["animator"]) } == ["pull-down", "pull-down"])
    #expect(results.map { Self.text($0["status"]) } == ["pass", "fail"])
    // The trace's frames are 0.5 s ones, the run is 0.6 s now: detail is higher up at t = 1/60.
    let explanation = Self.text(results[1]["explanation"])
    // (the validator writes explanations with single spaces)
    #expect(explanation.contains("frame 1 view detail frame.y expected "), "\(explanation)")
    #expect(Self.integer(report["summary"]?["fail"]) == 1)
  }
}
