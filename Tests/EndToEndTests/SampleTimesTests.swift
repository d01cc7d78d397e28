import Foundation
import Glibc
import JSON
import Testing

/// `--times` on `render` and `record` (and so on `compare`, `compare --update` and `validate --golden`), run as the
/// built binary: one frame at exactly each sample time, values as pull-down's published curve gives them there
/// (CONVENTIONS: 0.5 s, easeInOut; computed here by bisection, not by the engine), the settled state held after the
/// end, the script's calls merged in time order, and every bad list refused with the offending time named.
@Suite struct SampleTimesTests {
  typealias Golden = GoldenTraceTests

  /// The presented root `detail` of the sample scene (390 × 844) comes down from y = −844 over `duration`.
  static func detailY(at time: Double, duration: Double = 0.5) -> Double {
    -844 + 844 * Golden.easeInOut(min(time / duration, 1))
  }

  static func view(_ frame: JSON, _ id: String) -> JSON? {
    frame["views"]?.elements.first { $0["id"]?.stringValue == id }
  }

  static func numbers(_ value: JSON?) -> [Double] { value?.elements.compactMap(\.doubleValue) ?? [] }

  @Test func recordSamplesAtExactlyTheGivenTimesAndHoldsTheEndAfterIt() throws {
    let path = Golden.temporary("times.json")
    defer { unlink(path) }
    // 0.1, 0.25 and 0.4 are where 1/60 s steps summed drift (six ticks end at 0.09999999999999999); 0.7 and 1 are
    // after the end at 0.5.
    let times = [0, 0.1, 0.25, 0.3, 0.4, 0.45, 0.5, 0.7, 1]
    let recorded = try RenderTests.run([
      "record", "--animator", "pull-down", "--times", times.map { "\($0)" }.joined(separator: ","), "--members",
      "frame,alpha", "-o", path,
    ])
    #expect(recorded.status == .exited(0), "\(recorded.stderr)")
    let trace = try Golden.read(path)
    #expect(Self.numbers(trace["inputs"]?["times"]) == times)
    #expect(trace["inputs"]?["fps"]?.isNull == true)
    #expect(Golden.flag(trace["end"]?["completed"]))
    let frames = try #require(trace["frames"]?.elements)
    #expect(frames.count == times.count)
    for (frame, sampleTime) in zip(frames, times) {
      // Exactly, not within a tolerance: the clock lands on each time.
      #expect(frame["at"]?.doubleValue == sampleTime)
      let time = try #require(frame["time"]?.doubleValue)
      #expect(time == min(sampleTime, 0.5), "at \(sampleTime): time \(time)")
      #expect(Golden.text(frame["phase"]) == (sampleTime < 0.5 ? "running" : "ended"), "at \(sampleTime)")
      let y = try #require(Self.view(frame, "detail")?["frame"]?["y"]?.doubleValue)
      #expect(abs(y - Self.detailY(at: sampleTime)) < 1e-9, "at \(sampleTime): y \(y)")
      // pull-down removes the presenter's view (CONVENTIONS): `home` is there until the end, gone in its last frame.
      #expect((Self.view(frame, "home") != nil) == (sampleTime < 0.5), "at \(sampleTime)")
    }
    // After the end every sample time shows the settled frame: the same members, only `at` differs.
    let settled = frames[6]
    for frame in frames[7...] {
      #expect(frame["views"] == settled["views"])
      #expect(frame["percent"] == settled["percent"])
    }

    // compare re-runs the same times.
    let compared = try RenderTests.run(["compare", path])
    #expect(compared.status == .exited(0), "\(compared.lines) \(compared.stderr)")
    #expect(compared.lines.last?.hasPrefix("PASS \(path): 9 frames match") == true, "\(compared.lines)")
  }

  @Test func aRoundingTieStillLandsExactly() throws {
    // From 2.6020852139652106e-17 no single dt sums to 0.016303162854411416 (the plain difference gives
    // 0.01630316285441142): the host still samples it there.
    let times = [0, 2.6020852139652106e-17, 0.016303162854411416]
    let run = try RenderTests.run([
      "record", "--animator", "pull-down", "--members", "alpha", "--times",
      times.map { "\($0)" }.joined(separator: ","),
    ])
    #expect(run.status == .exited(0), "\(run.stderr)")
    let trace = try JSON.parse(run.lines.joined(separator: "\n"))
    let frames = try #require(trace["frames"]?.elements)
    #expect(frames.compactMap { $0["time"]?.doubleValue } == times)
    #expect(frames.compactMap { $0["at"]?.doubleValue } == times)
  }

  @Test func aChangedDurationFailsAtTheFirstSampleTimeThatMoves() throws {
    let path = Golden.temporary("times-duration.json")
    defer { unlink(path) }
    let times = "0,0.1,0.3,0.55,0.7"
    let recorded = try RenderTests.run([
      "record", "--animator", "pull-down", "--times", times, "--members", "frame", "-o", path,
    ])
    #expect(recorded.status == .exited(0), "\(recorded.stderr)")
    // The trace holds the 0.5 s motion; the animator now runs with duration 0.6.
    try Golden.replaceParams(in: path, with: #"{"duration":0.6}"#)
    let (status, report, stderr) = try Golden.compareJSON(["--max-divergences", "100", path])
    #expect(status == .exited(1), "\(stderr)")
    let trace = try #require(report?["traces"]?[0])
    #expect(Golden.text(trace["status"]) == "fail")
    // One frame per sample time on both sides: nothing is missing, the values differ.
    #expect(Golden.integer(trace["frames"]) == 5)
    let divergences = try #require(trace["divergences"]?.elements)
    #expect(!divergences.contains { Golden.text($0["member"]) == "(frame)" })
    let first = try #require(divergences.first)
    #expect(Golden.integer(first["frame"]) == 1)
    #expect(first["time"]?.doubleValue == 0.1)
    #expect(Golden.text(first["view"]) == "detail")
    #expect(Golden.text(first["member"]) == "frame.y")
    #expect(abs(Golden.value(first, "expected") - Self.detailY(at: 0.1)) < 1e-9, "\(first)")
    #expect(abs(Golden.value(first, "got") - Self.detailY(at: 0.1, duration: 0.6)) < 1e-9, "\(first)")
    // At 0.55 the trace had ended (its time 0.5); now it runs on until 0.6.
    let atEnd = divergences.first { Golden.integer($0["frame"]) == 3 && Golden.text($0["member"]) == "time" }
    #expect(atEnd.map { Golden.value($0, "expected") } == 0.5, "\(divergences)")
    #expect(atEnd.map { Golden.value($0, "got") } == 0.55, "\(divergences)")

    // The text report: the line, then the summary; a non-zero exit.
    let text = try RenderTests.run(["compare", "--max-divergences", "1", path])
    #expect(text.status == .exited(1))
    #expect(text.lines.first?.hasPrefix("  t 0.1 s  frame 1  view detail  frame.y  expected ") == true, "\(text.lines)")
    #expect(text.lines.last?.hasPrefix("FAIL \(path): ") == true, "\(text.lines)")

    // validate --golden re-runs the same times.
    let validated = try RenderTests.run(["validate", "--json", "--golden", path])
    #expect(validated.status == .exited(1), "\(validated.stderr)")
    let line = try #require(validated.lines.first)
    let result = try #require(try JSON.parse(line)["results"]?[0])
    #expect(Golden.text(result["status"]) == "fail")
    let explanation = Golden.text(result["explanation"])
    #expect(explanation.contains("t 0.1 s frame 1 view detail frame.y expected "), "\(explanation)")

    // --update keeps the times and takes the 0.6 s frames, one per time; it passes afterwards.
    let updated = try RenderTests.run(["compare", "--update", path])
    #expect(updated.status == .exited(0), "\(updated.stderr)")
    let rewritten = try Golden.read(path)
    #expect(Self.numbers(rewritten["inputs"]?["times"]) == [0, 0.1, 0.3, 0.55, 0.7])
    let frames = try #require(rewritten["frames"]?.elements)
    #expect(frames.compactMap { $0["at"]?.doubleValue } == [0, 0.1, 0.3, 0.55, 0.7])
    #expect(frames.compactMap { $0["time"]?.doubleValue } == [0, 0.1, 0.3, 0.55, 0.6])
    let y = try #require(Self.view(frames[2], "detail")?["frame"]?["y"]?.doubleValue)
    #expect(abs(y - Self.detailY(at: 0.3, duration: 0.6)) < 1e-9)
    #expect(try RenderTests.run(["compare", path]).status == .exited(0))
    #expect(try RenderTests.run(["validate", "--golden", path]).status == .exited(0))
  }

  @Test func tracesWithoutTimesStillLoadAndBadTimesInATraceAreNamed() throws {
    let path = Golden.temporary("no-times.json")
    defer { unlink(path) }
    #expect(
      try RenderTests.run(["record", "--animator", "pull-down", "--members", "alpha", "-o", path]).status == .exited(0))
    // A trace written before --times existed has no `times` member at all.
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.contains(#""fps":60.0,"times":null,"#))
    try text.replacingOccurrences(of: #""times":null,"#, with: "").write(
      toFile: path, atomically: true, encoding: .utf8)
    let old = try RenderTests.run(["compare", path])
    #expect(old.status == .exited(0), "\(old.lines)")
    #expect(old.lines.last?.hasPrefix("PASS \(path): 31 frames match") == true, "\(old.lines)")

    for (replacement, message) in [
      (#""fps":null,"times":[0,0.2,0.1],"#, "'inputs.times[2]': '0.1' is not after the time before it ('0.2')"),
      (#""fps":null,"times":[0,"x"],"#, "'inputs.times' must be an array of numbers"),
      (#""fps":60.0,"times":[0,0.1],"#, "'inputs.fps' must be null when 'inputs.times' is given"),
      (#""fps":null,"#, "'inputs.fps' must be a number from 1 to 1000"),
    ] {
      try text.replacingOccurrences(of: #""fps":60.0,"times":null,"#, with: replacement).write(
        toFile: path, atomically: true, encoding: .utf8)
      let run = try RenderTests.run(["compare", path])
      #expect(run.status == .exited(2), "\(replacement)")
      #expect(run.lines.last?.hasPrefix("ERROR \(path): \(message)") == true, "\(replacement): \(run.lines)")
    }
  }

  @Test func theScriptsCallsAndTheSampleTimesMergeInTimeOrder() throws {
    // The script's calls are 1/60 s apart: 12 updates at 1/60 … 12/60 = 0.2 s (percent 0.4/12 more each), the
    // release at 13/60 s (0.21666666666666667). A sample at a call's moment is taken after the call.
    let release = 13.0 / 60
    let times = [0, 0.05, 0.2, 0.21, release, 3]
    let run = try RenderTests.run([
      "record", "--animator", "sheet", "--members", "alpha", "--script", "update 0.4 over 0.2, release -1", "--times",
      times.map { "\($0)" }.joined(separator: ","),
    ])
    #expect(run.status == .exited(0), "\(run.stderr)")
    let trace = try JSON.parse(run.lines.joined(separator: "\n"))
    #expect(Golden.flag(trace["end"]?["cancelled"]))
    let frames = try #require(trace["frames"]?.elements)
    #expect(frames.compactMap { $0["at"]?.doubleValue } == times)
    let percents = frames.map { $0["percent"]?.doubleValue ?? .nan }
    let phases = frames.map { Golden.text($0["phase"]) }
    #expect(abs(percents[1] - 0.4 * 3 / 12) < 1e-12, "\(percents)")
    #expect(abs(percents[2] - 0.4) < 1e-12, "\(percents)")  // the 12th update, at 0.2, is in
    #expect(abs(percents[3] - 0.4) < 1e-12, "\(percents)")
    #expect(Array(phases[0...3]) == ["paused", "paused", "paused", "paused"])
    #expect(phases[4] == "cancelling")  // just released, not moved yet
    #expect(abs(percents[4] - 0.4) < 1e-12, "\(percents)")
    #expect(phases[5] == "ended")
    #expect(percents[5] == 0)
  }

  @Test func jsonLinesCarryTheHostsFramesAtTheSampleTimesOnce() throws {
    let rendered = try RenderTests.run(["render", "--animator", "pull-down", "--times", "0,0.25,0.7,0.9"])
    #expect(rendered.status == .exited(0), "\(rendered.stderr)")
    let messages = rendered.lines.map { (try? JSON.parse($0)) ?? .null }
    #expect(
      messages.map { Golden.text($0["method"]) } == [
        "transition/frame", "transition/frame", "transition/frame", "transition/didEnd",
      ])
    // 0.7 gets the frame the host ended with (its time 0.5); 0.9 adds nothing: the host sent it once.
    #expect(messages.dropLast().compactMap { $0["params"]?["time"]?.doubleValue } == [0, 0.25, 0.5])
    let seqs = messages.dropLast().compactMap { $0["params"]?["seq"]?.intValue }
    #expect(seqs.count == 3 && seqs == seqs.sorted() && Set(seqs).count == 3, "\(seqs)")
  }

  @Test func aFileOfTimesWithComments() throws {
    let file = Golden.temporary("times.txt")
    defer { unlink(file) }
    try "# sample times, seconds\n0\n0.125  # an eighth\n0.25, 0.375\n\n".write(
      toFile: file, atomically: true, encoding: .utf8)
    let run = try RenderTests.run(["record", "--animator", "pull-down", "--members", "alpha", "--times", "@" + file])
    #expect(run.status == .exited(0), "\(run.stderr)")
    let trace = try JSON.parse(run.lines.joined(separator: "\n"))
    #expect(Self.numbers(trace["inputs"]?["times"]) == [0, 0.125, 0.25, 0.375])
    #expect(trace["frames"]?.count == 4)
  }

  @Test(arguments: [
    (["--times", "0,0.2,0.1"], "invalid value for '--times': time 3: '0.1' is not after the time before it ('0.2')"),
    (["--times", "0,0.1,0.1"], "time 3: '0.1' is not after the time before it ('0.1')"),
    (["--times", "0.5,-0.1"], "time 2: '-0.1' is negative"),
    (["--times", "0,abc"], "time 2: 'abc' is not a number of seconds"),
    (["--times", "0,nan"], "time 2: 'nan' is not a finite number"),
    (["--times", "inf"], "time 1: 'inf' is not a finite number"),
    (["--times", "100000"], "time 1: '100000' is past 86400 s"),
    (["--times", " , "], "invalid value for '--times': no times given"),
    (["--times", "@/nonexistent/times.txt"], "cannot read /nonexistent/times.txt"),
    (["--fps", "30", "--times", "0,0.1"], "'--fps' and '--times' cannot be used together"),
    (["--times", "0,0.1", "--fps", "30"], "'--fps' and '--times' cannot be used together"),
  ])
  func badTimesAreRefusedNamingTheTime(arguments: [String], message: String) throws {
    for command in ["render", "record"] {
      let run = try RenderTests.run([command, "--animator", "pull-down"] + arguments)
      #expect(run.status == .exited(2), "\(command) \(arguments)")
      #expect(run.stderr.contains(message), "\(command) \(arguments): \(run.stderr)")
      #expect(run.lines.isEmpty)
    }
  }

  @Test func tooManyTimesAndTimesWithRecordedFramesAreRefused() throws {
    let file = Golden.temporary("many.txt")
    defer { unlink(file) }
    try (0...100_000).map { "\(Double($0) / 1000)" }.joined(separator: "\n").write(
      toFile: file, atomically: true, encoding: .utf8)
    let many = try RenderTests.run(["record", "--animator", "pull-down", "--times", "@" + file])
    #expect(many.status == .exited(2))
    #expect(many.stderr.contains("\(file): more than 100000 times"), "\(many.stderr)")
    let frames = try RenderTests.run(["render", "--frames", file, "--times", "0,1"])
    #expect(frames.status == .exited(2))
    #expect(frames.stderr.contains("--frames draws frames recorded already"), "\(frames.stderr)")
  }
}
