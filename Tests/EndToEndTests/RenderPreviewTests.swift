import Foundation
import Glibc
import JSON
import Testing

/// The HTML preview generator, fed hand-made frames through `render --frames FILE.jsonl`: what the page draws
/// (boxes, matrices, clip polygons, snapshot contents, gradients, text) against geometry worked out by hand.
@Suite struct RenderPreviewTests {
  /// The `th-data` JSON embedded in a page.
  static func pageData(atPath path: String) throws -> JSON {
    let page = try String(contentsOfFile: path, encoding: .utf8)
    let open = #"<script type="application/json" id="th-data">"#
    let start = try #require(page.range(of: open)).upperBound
    let end = try #require(page.range(of: "</script>", range: start..<page.endIndex)).lowerBound
    return try JSON.parse(String(page[start..<end]))
  }

  /// A full frame entry. `matrix` is the world transform (m11…m44).
  static func view(
    _ id: String, parent: String?, width: Double, height: Double, matrix: [Double], extra: [(String, JSON)] = []
  ) -> JSON {
    var members: [(String, JSON)] = [
      ("id", JSON(id)), ("parent", parent.map { JSON($0) } ?? .null),
      ("bounds", ["x": 0, "y": 0, "width": JSON(width), "height": JSON(height)]),
      ("worldTransform", .array(matrix.map { JSON($0) })),
      ("boundingBox", ["x": 0, "y": 0, "width": 1, "height": 1]),
      ("alpha", 1), ("opacity", 1), ("hidden", false), ("backgroundColor", .null), ("cornerRadius", 0),
      ("clipsToBounds", false),
    ]
    for (key, value) in extra {
      if let index = members.firstIndex(where: { $0.0 == key }) {
        members[index].1 = value
      } else {
        members.append((key, value))
      }
    }
    return .object(members)
  }

  static func translation(_ x: Double, _ y: Double, scale: Double = 1) -> [Double] {
    [scale, 0, 0, 0, 0, scale, 0, 0, 0, 0, 1, 0, x, y, 0, 1]
  }

  static var container: JSON { view("container", parent: nil, width: 400, height: 800, matrix: translation(0, 0)) }

  static func frameLine(_ views: [JSON], seq: Int, extra: [(String, JSON)] = []) -> String {
    let params: JSON = .object(
      [
        ("transition", "t1"), ("seq", JSON(seq)), ("time", JSON(Double(seq) / 10)), ("percent", 0.5),
        ("phase", "running"), ("views", .array(views)),
      ] + extra)
    return (["jsonrpc": "2.0", "method": "transition/frame", "params": params] as JSON).serialized()
  }

  /// Renders `lines` with `render --frames` and returns the page's frames.
  static func page(_ lines: [String], arguments: [String] = []) throws -> JSON {
    let input = NSTemporaryDirectory() + "preview-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).jsonl"
    let output = input + ".html"
    try (lines.joined(separator: "\n") + "\n").write(toFile: input, atomically: true, encoding: .utf8)
    defer {
      unlink(input)
      unlink(output)
    }
    let run = try RenderTests.run(["render", "--frames", input, "-o", output] + arguments)
    #expect(run.status == .exited(0), "\(run.stderr)")
    return try pageData(atPath: output)
  }

  static func boxes(_ data: JSON, frame: Int = 0) -> [String: JSON] {
    var result: [String: JSON] = [:]
    for box in data["frames"]?[frame]?["boxes"]?.elements ?? [] {
      if let key = box["k"]?.stringValue { result[key] = box }
    }
    return result
  }

  static func numbers(_ json: JSON?) -> [Double] {
    json?.elements.compactMap(\.doubleValue) ?? []
  }

  static func points(_ json: JSON?) -> [[Double]] {
    json?.elements.map { numbers($0) } ?? []
  }

  static func close(_ a: [[Double]], _ b: [[Double]]) -> Bool {
    a.count == b.count
      && zip(a, b).allSatisfy { p, q in p.count == q.count && zip(p, q).allSatisfy { abs($0 - $1) < 1e-9 } }
  }

  @Test func clippingAncestorsBecomeAPolygonInTheViewsOwnCoordinates() throws {
    // P (100 × 50) at (10, 20) clips; C (100 × 100) at (60, 30) is its child. P's box in C's coordinates is
    // P's corners minus C's origin: x from 10 − 60 to 110 − 60, y from 20 − 30 to 70 − 30.
    let parent = Self.view(
      "p", parent: "container", width: 100, height: 50, matrix: Self.translation(10, 20),
      extra: [("clipsToBounds", true)])
    let child = Self.view("c", parent: "p", width: 100, height: 100, matrix: Self.translation(60, 30))
    // Q (100 × 50) turned 90°: (u, v) · [0 1; −1 0] + (200, 0) = (200 − v, u), so its corners land on (200, 0),
    // (200, 100), (150, 100), (150, 0). D at (120, 50) sees them at those points minus (120, 50).
    let turned = Self.view(
      "q", parent: "container", width: 100, height: 50, matrix: [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 200, 0, 0, 1],
      extra: [("clipsToBounds", true)])
    let inTurned = Self.view("d", parent: "q", width: 100, height: 100, matrix: Self.translation(120, 50))
    // E lies wholly outside its clipping parent P: clipped away.
    let outside = Self.view("e", parent: "p", width: 10, height: 10, matrix: Self.translation(300, 300))

    let data = try Self.page([Self.frameLine([Self.container, parent, child, turned, inTurned, outside], seq: 0)])
    let boxes = Self.boxes(data)
    #expect(Self.close(Self.points(boxes["c"]?["c"]), [[-50, -10], [50, -10], [50, 40], [-50, 40]]))
    #expect(Self.close(Self.points(boxes["d"]?["c"]), [[80, -50], [80, 50], [30, 50], [30, -50]]))
    #expect(boxes["e"]?["c"]?.count == 0)
    #expect(boxes["p"]?["c"] == nil)  // nothing clips the clipping view itself
  }

  @Test func aSnapshotShowsItsSourcesSubviewsOnItsOwnPlane() throws {
    // Source X (200 × 100) at (0, 100), hidden (as animators hide what they snapshot); its subview Y (50 × 50) at
    // (20, 110), i.e. (20, 10) inside X. Snapshot S of X: scale 0.5 then (300, 400), opacity 0.8. Y drawn on S:
    // (u, v) → X (u + 20, v + 10) → S 0.5 · that + (300, 400) = (0.5 u + 310, 0.5 v + 405).
    let source = Self.view(
      "x", parent: "container", width: 200, height: 100, matrix: Self.translation(0, 100),
      extra: [("hidden", true), ("opacity", 0), ("backgroundColor", [0, 0, 1, 1])])
    let subview = Self.view(
      "y", parent: "x", width: 50, height: 50, matrix: Self.translation(20, 110),
      extra: [("opacity", 0), ("backgroundColor", [1, 0, 0, 1])])
    let snapshot = Self.view(
      "s", parent: "container", width: 200, height: 100, matrix: Self.translation(300, 400, scale: 0.5),
      extra: [("snapshotOf", "x"), ("opacity", 0.8), ("alpha", 0.8), ("backgroundColor", [0, 0, 1, 1])])
    let data = try Self.page([Self.frameLine([Self.container, source, subview, snapshot], seq: 0)])
    let keys = data["frames"]?[0]?["boxes"]?.elements.compactMap { $0["k"]?.stringValue }
    #expect(keys == ["container", "s", "s/y"])
    let drawn = try #require(Self.boxes(data)["s/y"])
    #expect(Self.numbers(drawn["m"]) == [0.5, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 1, 0, 310, 405, 0, 1])
    #expect(drawn["o"]?.doubleValue == 0.8)
    #expect(drawn["b"]?.stringValue == "rgba(255, 0, 0, 1)")
    #expect(drawn["w"]?.doubleValue == 50)
  }

  @Test func gradientsFollowCoreAnimationsAxis() throws {
    // Top to bottom on 100 × 200: CSS 180deg, stops at the ends.
    let vertical = Self.view(
      "v", parent: "container", width: 100, height: 200, matrix: Self.translation(0, 0),
      extra: [
        (
          "gradient",
          try JSON.parse(
            #"{"colors":[[1,0,0,1],[0,0,1,1]],"locations":[0,1],"startPoint":{"x":0.5,"y":0},"endPoint":{"x":0.5,"y":1}}"#
          )
        )
      ])
    // On 200 × 100 from (0.5, 0) to (1, 1), i.e. (100, 0) → (200, 100): direction (1, 1)/√2, CSS angle 135deg;
    // the CSS line through the centre (100, 50) is 200/√2 + 100/√2 = 300/√2 long. The first stop projects to
    // ((100 − 100) + (0 − 50))/√2 / (300/√2) + 0.5 = 1/3, the last to (100 + 50)/300 + 0.5 = 1.
    let diagonal = Self.view(
      "d", parent: "container", width: 200, height: 100, matrix: Self.translation(0, 300),
      extra: [
        (
          "gradient",
          try JSON.parse(
            #"{"colors":[[1,0,0,1],[0,0,1,0.5]],"locations":null,"startPoint":{"x":0.5,"y":0},"endPoint":{"x":1,"y":1}}"#
          )
        )
      ])
    let boxes = Self.boxes(try Self.page([Self.frameLine([Self.container, vertical, diagonal], seq: 0)]))
    #expect(boxes["v"]?["g"]?.stringValue == "linear-gradient(180deg, rgba(255, 0, 0, 1) 0%, rgba(0, 0, 255, 1) 100%)")
    #expect(
      boxes["d"]?["g"]?.stringValue == "linear-gradient(135deg, rgba(255, 0, 0, 1) 33.333%, rgba(0, 0, 255, 0.5) 100%)")
  }

  @Test func textContentHiddenViewsAndScriptSafety() throws {
    let label = Self.view(
      "label", parent: "container", width: 100, height: 30, matrix: Self.translation(0, 0),
      extra: [
        ("content", try JSON.parse(#"{"text":"Hi </script><b>","fontSize":20,"color":[0,0,0,1],"align":"left"}"#))
      ])
    let plain = Self.view(
      "plain", parent: "container", width: 100, height: 30, matrix: Self.translation(0, 40),
      extra: [("content", "Yo")])
    let image = Self.view(
      "image", parent: "container", width: 100, height: 30, matrix: Self.translation(0, 80),
      extra: [("content", try JSON.parse(#"{"image":"photo.png"}"#))])
    let hidden = Self.view(
      "hidden", parent: "container", width: 10, height: 10, matrix: Self.translation(0, 0), extra: [("hidden", true)])
    let behind = Self.view(
      "behind", parent: "container", width: 10, height: 10, matrix: Self.translation(0, 0),
      extra: [("boundingBox", .null)])
    let data = try Self.page([Self.frameLine([Self.container, label, plain, image, hidden, behind], seq: 0)])
    let boxes = Self.boxes(data)
    #expect(
      boxes["label"]?["t"]
        == (try JSON.parse(#"{"s":"Hi </script><b>","f":20,"c":"rgba(0, 0, 0, 1)","a":"left"}"#)))
    #expect(boxes["plain"]?["t"] == (try JSON.parse(#"{"s":"Yo"}"#)))
    // An image view's content (Protocol.md, "Content of the animator's image and effect views"): its name as a small
    // grey label, and an outline.
    #expect(boxes["image"]?["t"] == (try JSON.parse(#"{"s":"photo.png","f":12,"c":"rgba(0, 0, 0, 0.55)"}"#)))
    #expect(boxes["image"]?["i"] == true && boxes["plain"]?["i"] == nil)
    #expect(boxes["hidden"] == nil && boxes["behind"] == nil)
  }

  /// A visual-effect view's blur is drawn with CSS `backdrop-filter` under a tint: dark styles darken, light ones
  /// lighten, the others lighten a little; no effect, no blur.
  @Test func blurViewsBlurWhatIsBehindThem() throws {
    func blur(_ id: String, _ content: String) throws -> JSON {
      Self.view(
        id, parent: "container", width: 400, height: 800, matrix: Self.translation(0, 0),
        extra: [("content", try JSON.parse(content))])
    }
    let views = [
      Self.container, try blur("dark", #"{"effect":{"blur":"dark"}}"#),
      try blur("thin", #"{"effect":{"blur":"systemThinMaterialLight"}}"#),
      try blur("regular", #"{"effect":{"blur":"regular"}}"#), try blur("none", #"{"effect":null}"#),
    ]
    let input = NSTemporaryDirectory() + "preview-blur-\(getpid()).jsonl"
    let output = input + ".html"
    try (Self.frameLine(views, seq: 0) + "\n").write(toFile: input, atomically: true, encoding: .utf8)
    defer {
      unlink(input)
      unlink(output)
    }
    let run = try RenderTests.run(["render", "--frames", input, "-o", output])
    #expect(run.status == .exited(0), "\(run.stderr)")
    let boxes = Self.boxes(try Self.pageData(atPath: output))
    #expect(boxes["dark"]?["e"]?.stringValue == "rgba(0, 0, 0, 0.45)")
    #expect(boxes["thin"]?["e"]?.stringValue == "rgba(255, 255, 255, 0.6)")
    #expect(boxes["regular"]?["e"]?.stringValue == "rgba(255, 255, 255, 0.3)")
    #expect(boxes["none"] != nil && boxes["none"]?["e"] == nil && boxes["none"]?["t"] == nil)
    let page = try String(contentsOfFile: output, encoding: .utf8)
    #expect(page.contains(#"s.backdropFilter = box.e ? "blur(20px)" : "none";"#))
  }

  @Test func deltaFramesAreMergedAndTheTimelineFollowsTheFrameRate() throws {
    let a = Self.view(
      "a", parent: "container", width: 50, height: 50, matrix: Self.translation(0, 0),
      extra: [("backgroundColor", [0, 1, 0, 1]), ("zIndex", 1)])
    let b = Self.view("b", parent: "container", width: 50, height: 50, matrix: Self.translation(0, 0))
    let moved: JSON = ["id": "a", "worldTransform": .array(Self.translation(5, 7).map { JSON($0) })]
    let c = Self.view("c", parent: "container", width: 20, height: 20, matrix: Self.translation(1, 1))
    let lines = [
      Self.frameLine([Self.container, a, b], seq: 0),
      #"{"jsonrpc":"2.0","id":3,"result":{"transitions":[]}}"#,  // replies and other lines are skipped
      Self.frameLine([moved, c], seq: 1, extra: [("delta", true), ("removed", ["b"])]),
      Self.frameLine([Self.container], seq: 0).replacingOccurrences(of: #""t1""#, with: #""t2""#),  // another one
    ]
    let data = try Self.page(lines, arguments: ["--fps", "10"])
    let frames = try #require(data["frames"]).elements
    #expect(frames.count == 2)
    #expect(frames.map { $0["at"]?.doubleValue } == [0, 0.1])
    let second = Self.boxes(data, frame: 1)
    #expect(Set(second.keys) == ["container", "a", "c"])
    #expect(Self.numbers(second["a"]?["m"]) == Self.translation(5, 7))
    #expect(second["a"]?["b"]?.stringValue == "rgba(0, 255, 0, 1)")  // kept from the full frame
    // The container's size comes from the view without a parent unless --container says otherwise.
    #expect(data["container"] == (try JSON.parse(#"{"width":400,"height":800}"#)))
    let resized = try Self.page(lines, arguments: ["--container", "320x480"])
    #expect(resized["container"] == (try JSON.parse(#"{"width":320,"height":480}"#)))
  }

  @Test func aRecordingWithoutFramesIsAnError() throws {
    let input = NSTemporaryDirectory() + "preview-empty-\(getpid()).jsonl"
    try "not json\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":null}\n".write(
      toFile: input, atomically: true, encoding: .utf8)
    defer { unlink(input) }
    let run = try RenderTests.run(["render", "--frames", input])
    #expect(run.status == .exited(1))
    #expect(run.stderr.contains("no transition/frame found"))
    #expect(run.stderr.contains("skipped 1 line(s)"))
  }
}
