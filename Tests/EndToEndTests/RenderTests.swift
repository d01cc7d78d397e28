import Foundation
import Glibc
import JSON
import Testing

/// `transition-host render`: the frames are the protocol's own (byte for byte what `serve` sends for the same
/// calls), scripts drive interactive transitions, and bad input is an error message with a non-zero status.
@Suite struct RenderTests {
  /// Two trees in a 320 × 640 container; the to tree has a child so that views move relative to each other.
  static let scene = """
    {"container": {"width": 320, "height": 640},
     "from": {"id": "a", "frame": {"x": 0, "y": 0, "width": 320, "height": 640}, "backgroundColor": [1, 1, 1, 1],
              "children": [{"id": "a1", "frame": {"x": 20, "y": 40, "width": 280, "height": 60},
                            "backgroundColor": [0.9, 0.2, 0.2, 1], "content": {"text": "row"}}]},
     "to": {"id": "b", "frame": {"x": 0, "y": 0, "width": 320, "height": 640}, "backgroundColor": [0.2, 0.4, 0.9, 1],
            "children": [{"id": "b1", "frame": {"x": 10, "y": 300, "width": 300, "height": 100},
                          "backgroundColor": [0.1, 0.8, 0.3, 1], "cornerRadius": 12}]}}
    """

  struct Run {
    var status: ExitStatus?
    var lines: [String]
    var stderr: String
  }

  static func run(_ arguments: [String], stdin: String? = nil) throws -> Run {
    let host = try HostProcess(arguments)
    if let stdin { host.write(stdin) }
    host.closeStdin()
    let lines = host.allLines(timeout: 120)
    let status = host.waitForExit(timeout: 120)
    return Run(status: status, lines: lines, stderr: String(decoding: host.stderr.all(), as: UTF8.self))
  }

  static func sceneFile() throws -> String {
    let path = NSTemporaryDirectory() + "render-scene-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).json"
    try scene.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// The notifications (frames and didEnd) `serve` sends for `requests`, in order.
  static func served(_ requests: [String]) throws -> [String] {
    let run = try run([], stdin: requests.joined(separator: "\n") + "\n")
    #expect(run.status == .exited(0))
    return run.lines.filter {
      $0.contains(#""method":"transition/frame""#) || $0.contains(#""method":"transition/didEnd""#)
    }
  }

  static func startRequest(animator: String, interactive: Bool) -> String {
    let trees = try! JSON.parse(scene)
    let params: JSON = [
      "animator": JSON(animator), "operation": "present", "container": trees["container"]!, "from": trees["from"]!,
      "to": trees["to"]!, "interactive": JSON(interactive), "clock": "manual", "fps": 60, "frames": "full",
    ]
    return (["jsonrpc": "2.0", "id": 1, "method": "transition/start", "params": params] as JSON).serialized()
  }

  static func tick(_ id: Int) -> String {
    #"{"jsonrpc":"2.0","id":\#(id),"method":"transition/tick","params":{"transition":"t1","dt":\#(1.0 / 60)}}"#
  }

  @Test func jsonLinesAreTheFramesServeSendsForTheSameCalls() throws {
    let path = try Self.sceneFile()
    defer { unlink(path) }
    let rendered = try Self.run(["render", "--animator", "pull-down", "--scene", path, "--format", "jsonl"])
    #expect(rendered.status == .exited(0), "\(rendered.stderr)")
    // pull-down lasts 0.5 s (CONVENTIONS): 30 ticks of 1/60 s, plus slack; extra ticks after the end only get
    // error replies, which are not notifications.
    let served = try Self.served(
      [Self.startRequest(animator: "pull-down", interactive: false)] + (2..<40).map(Self.tick))
    #expect(rendered.lines == served)
    #expect(rendered.lines.count >= 31)

    let frames = rendered.lines.dropLast().compactMap { try? JSON.parse($0)["params"] }
    #expect(frames.map { $0["seq"]?.intValue } == (0..<Int64(frames.count)).map { $0 })
    // Each tick advances the timeline by 1/60 s until the end at 0.5 s.
    for (index, frame) in frames.enumerated() {
      let time = try #require(frame["time"]?.doubleValue)
      #expect(abs(time - min(Double(index) / 60, 0.5)) < 1e-9, "frame \(index) at \(time)")
    }
    #expect(frames.last?["percent"]?.doubleValue == 1)
    let end = try JSON.parse(try #require(rendered.lines.last))
    #expect(end["method"]?.stringValue == "transition/didEnd")
    #expect(end["params"]?["completed"]?.boolValue == true)
  }

  @Test func aScriptDrivesTheInteractiveTransitionLikeAClient() throws {
    let path = try Self.sceneFile()
    defer { unlink(path) }
    let rendered = try Self.run([
      "render", "--animator", "pull-down", "--scene", path, "--script", "update 0.3, 0.6, release velocity 1.2",
    ])
    #expect(rendered.status == .exited(0), "\(rendered.stderr)")
    let requests =
      [
        Self.startRequest(animator: "pull-down", interactive: true),
        #"{"jsonrpc":"2.0","id":2,"method":"transition/update","params":{"transition":"t1","percent":0.3}}"#,
        #"{"jsonrpc":"2.0","id":3,"method":"transition/update","params":{"transition":"t1","percent":0.6}}"#,
        #"{"jsonrpc":"2.0","id":4,"method":"transition/release","params":{"transition":"t1","velocity":1.2}}"#,
      ] + (5..<60).map(Self.tick)
    #expect(rendered.lines == (try Self.served(requests)))

    let frames = rendered.lines.compactMap { try? JSON.parse($0)["params"] }
    #expect(frames[1]["percent"]?.doubleValue == 0.3)
    #expect(frames[1]["phase"]?.stringValue == "paused")
    #expect(frames[2]["percent"]?.doubleValue == 0.6)
    #expect(frames.last?["completed"]?.boolValue == true)
  }

  @Test func releasingBackwardsCancels() throws {
    let rendered = try Self.run(["render", "--animator", "pull-down", "--script", "update 0.5 over 0.1; release -1"])
    #expect(rendered.status == .exited(0), "\(rendered.stderr)")
    let frames = rendered.lines.compactMap { try? JSON.parse($0)["params"] }
    // "update 0.5 over 0.1" at 60 fps: six updates, 1/12 apart.
    let percents = frames[1...6].compactMap { $0["percent"]?.doubleValue }
    for (index, percent) in percents.enumerated() {
      #expect(abs(percent - 0.5 * Double(index + 1) / 6) < 1e-12)
    }
    #expect(frames.last?["cancelled"]?.boolValue == true)
  }

  @Test func htmlEmbedsEveryFrameOnTheRenderClock() throws {
    let path = try Self.sceneFile()
    defer { unlink(path) }
    let html = NSTemporaryDirectory() + "render-\(getpid()).html"
    defer { unlink(html) }
    let run = try Self.run(["render", "--animator", "pull-down", "--scene", path, "-o", html, "--fps", "30"])
    #expect(run.status == .exited(0), "\(run.stderr)")
    let jsonl = try Self.run(["render", "--animator", "pull-down", "--scene", path, "--fps", "30"])
    let frames = jsonl.lines.compactMap { line -> JSON? in
      guard let message = try? JSON.parse(line), message["method"]?.stringValue == "transition/frame" else {
        return nil
      }
      return message["params"]
    }
    let data = try RenderPreviewTests.pageData(atPath: html)
    let pageFrames = try #require(data["frames"]).elements
    #expect(pageFrames.count == frames.count)
    #expect(data["container"] == (try JSON.parse(#"{"width":320,"height":640}"#)))
    for (index, (page, frame)) in zip(pageFrames, frames).enumerated() {
      #expect(abs((page["at"]?.doubleValue ?? -1) - Double(index) / 30) < 1e-6)
      #expect(page["percent"]?.doubleValue.map { abs($0 - frame["percent"]!.doubleValue!) < 1e-6 } == true)
      // No snapshots and nothing clipped here: one box per visible view, with the view's own world matrix.
      let visible = frame["views"]!.elements.filter {
        ($0["opacity"]?.doubleValue ?? 0) > 0 && $0["hidden"]?.boolValue == false
      }
      let boxes = page["boxes"]!.elements
      #expect(boxes.map { $0["k"]?.stringValue } == visible.map { $0["id"]?.stringValue })
      for (box, view) in zip(boxes, visible) {
        let matrix = box["m"]!.elements.compactMap(\.doubleValue)
        #expect(matrix == view["worldTransform"]!.elements.compactMap(\.doubleValue))
        #expect(box["w"]?.doubleValue == view["bounds"]?["width"]?.doubleValue)
        #expect(box["h"]?.doubleValue == view["bounds"]?["height"]?.doubleValue)
        #expect(abs((box["o"]?.doubleValue ?? -1) - view["opacity"]!.doubleValue!) < 1e-6)
      }
    }
  }

  @Test func everyAnimatorAtOnceIntoAFolder() throws {
    let folder = NSTemporaryDirectory() + "render-all-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let run = try Self.run(["render", "--animator", "all", "-o", folder, "--quiet"])
    #expect(run.status == .exited(0), "\(run.stderr)")
    let written = run.lines.map { $0.split(separator: "\t").map(String.init) }
    #expect(
      Set(written.map { ($0[0] as NSString).lastPathComponent }).isSuperset(of: [
        "flip.html", "magic-move.html", "pull-down.html", "segue-slide.html", "sheet.html",
      ]))
    for row in written {
      #expect(FileManager.default.fileExists(atPath: row[0]))
      // An animator that does not serve `present` gets its first operation.
      if row[1].hasSuffix("/segue-slide") { #expect(row[2] == "segue") }
      if row[1].hasSuffix("/pull-down") { #expect(row[2] == "present") }
    }
  }

  @Test(arguments: [
    (["render"], "render needs --animator"),
    (["render", "--animator", "no-such-animator"], "unknown animator"),
    (["render", "--animator", "pull-down", "--operation", "push"], "does not support the operation push"),
    (
      ["render", "--animator", "pull-down", "--scene", "/nonexistent/scene.json"], "cannot read /nonexistent/scene.json"
    ),
    (["render", "--animator", "pull-down", "--script", "update 0.3, jump 2"], "invalid --script step 'jump 2'"),
    (["render", "--animator", "pull-down", "--script", "release"], "release needs a velocity"),
    (["render", "--animator", "pull-down", "--params", "[1]"], "expected a JSON object"),
    (["render", "--animator", "pull-down", "--fps", "0"], "expected a number from 1 to 1000"),
    (["render", "--animator", "pull-down", "--format", "png"], "expected jsonl or html"),
    (["render", "--animator", "pull-down", "--script", "update 0.2", "--max-time", "1"], "still running after 1.0 s"),
  ])
  func badInputIsAMessageAndAFailureStatus(arguments: [String], message: String) throws {
    let run = try Self.run(arguments)
    #expect(run.status == .exited(1) || run.status == .exited(2), "\(arguments): \(String(describing: run.status))")
    #expect(run.stderr.lowercased().contains(message.lowercased()), "\(arguments): \(run.stderr)")
    #expect(run.lines.isEmpty || arguments.contains("--max-time"))
  }

  @Test func longRendersShowProgressOnStderrUnlessQuiet() throws {
    // Seven seconds of timeline: a line per second of timeline from the fifth on (stderr is a pipe here).
    let script = ["render", "--animator", "pull-down", "--script", "update 0.2, wait 7, release 1", "-o", "/dev/null"]
    let loud = try Self.run(script)
    #expect(loud.status == .exited(0))
    let progress = loud.stderr.split(separator: "\n").filter { $0.hasPrefix("render: ") }
    #expect(progress.map { $0.contains(", t 5 s, ") } == [true, false, false])
    #expect(progress.last?.contains(", t 7 s, 20 %") == true)
    let quiet = try Self.run(script + ["--quiet"])
    #expect(quiet.status == .exited(0))
    #expect(quiet.stderr.isEmpty)
  }

  @Test func aSceneFileWithoutTreesIsRefused() throws {
    let path = NSTemporaryDirectory() + "render-bad-scene-\(getpid()).json"
    try #"{"container": {"width": 10, "height": 10}, "from": {"id": "x"}}"#.write(
      toFile: path, atomically: true, encoding: .utf8)
    defer { unlink(path) }
    let run = try Self.run(["render", "--animator", "pull-down", "--scene", path])
    #expect(run.status == .exited(1))
    #expect(run.stderr.contains("the scene has no 'to'"))
  }
}
