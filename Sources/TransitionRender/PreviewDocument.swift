// The input of the HTML preview: frames as the protocol sends them, each stamped with the moment of the
// preview's own timeline (the render clock) at which it was taken.

import JSON
import TransitionEngine

/// One frame for the preview: a full `transition/frame` params object and when it happened.
package struct PreviewFrame {
  /// Seconds on the preview's timeline (the render clock: ticks of 1/fps). Not the transition's `time`, which
  /// stands still or runs backwards while an interactive transition is dragged.
  package var at: Double
  /// The frame object (`transition`, `seq`, `time`, `percent`, `phase`, `views` with full entries).
  package var frame: JSON

  package init(at: Double, frame: JSON) {
    self.at = at
    self.frame = frame
  }
}

/// Everything one preview page shows.
package struct PreviewDocument {
  /// The page title (e.g. the animator id and operation).
  package var title: String
  /// A second line: parameters, script, outcome.
  package var subtitle: String
  /// The container's size in points (the stage).
  package var container: Size
  /// The frame rate the frames were taken at (for stepping a frame at a time).
  package var fps: Double
  /// The frames in timeline order.
  package var frames: [PreviewFrame]
  /// Why the transition did not end as asked (render's last line on stderr), shown above the stage; nil when it did.
  package var failure: String?
  /// A golden trace's frames, drawn as outlines over `frames` (`render --compare`); nil: no overlay.
  package var expected: [PreviewFrame]?
  /// The transition's timeline (`transition/timeline`'s result, Protocol.md), drawn as lanes under the stage; nil:
  /// no lanes.
  package var timeline: JSON?

  package init(
    title: String, subtitle: String = "", container: Size, fps: Double, frames: [PreviewFrame], failure: String? = nil
  ) {
    self.title = title
    self.subtitle = subtitle
    self.container = container
    self.fps = fps
    self.frames = frames
    self.failure = failure
  }

  /// The page's data: per frame its header and boxes (see `PreviewHTML`).
  func pageData() -> JSON {
    let views = frames.map { frame in frame.frame["views"]?.elements.compactMap(PreviewView.init(entry:)) ?? [] }
    var drawing = PreviewDrawing(frames: views)
    var frameList: [JSON] = []
    frameList.reserveCapacity(frames.count)
    for (index, frame) in frames.enumerated() {
      var members: [(String, JSON)] = [
        ("at", Self.number(frame.at)),
        ("time", Self.number(frame.frame["time"]?.doubleValue ?? 0)),
        ("percent", Self.number(frame.frame["percent"]?.doubleValue ?? 0)),
        ("phase", JSON(frame.frame["phase"]?.stringValue ?? "")),
      ]
      if let seq = frame.frame["seq"]?.intValue { members.append(("seq", JSON(seq))) }
      members.append(("boxes", .array(drawing.boxes(ofFrame: index).map(Self.boxJSON))))
      frameList.append(.object(members))
    }
    return [
      "title": JSON(title),
      "subtitle": JSON(subtitle),
      "failure": failure.map { JSON($0) } ?? .null,
      "container": ["width": Self.number(container.width), "height": Self.number(container.height)],
      "fps": Self.number(fps),
      "frames": .array(frameList),
      "timeline": timeline.map { PreviewTimeline(timeline: $0, frames: frames).pageData() } ?? .null,
    ]
  }

  /// The overlay's data (`render --compare`): per expected frame its `at` and boxes `{k, w, h, m}`, drawn as they
  /// are drawn for the actual frames; nil without an overlay.
  func expectedData() -> JSON? {
    guard let expected else { return nil }
    let views = expected.map { frame in frame.frame["views"]?.elements.compactMap(PreviewView.init(entry:)) ?? [] }
    var drawing = PreviewDrawing(frames: views)
    var frameList: [JSON] = []
    for (index, frame) in expected.enumerated() {
      let boxes = drawing.boxes(ofFrame: index).map { box -> JSON in
        [
          "k": JSON(box.key), "w": Self.number(box.view.width), "h": Self.number(box.view.height),
          "m": .array(box.matrix.map(Self.exact)),
        ]
      }
      frameList.append(["at": Self.number(frame.at), "boxes": .array(boxes)])
    }
    return .array(frameList)
  }

  /// A box: `k` key, `w`/`h` size, `m` matrix3d values, `o` opacity, and when present `b` background colour, `g`
  /// gradient, `r` corner radius, `t` text, `e` a blur's tint (a visual-effect view), `i` an image view, `c` clip
  /// polygon (`[]`: clipped away); the layer members (PreviewLayers.swift).
  private static func boxJSON(_ box: PreviewBox) -> JSON {
    if box.isShadow { return shadowBoxJSON(box) }
    if box.isBorder { return borderBoxJSON(box) }
    var members: [(String, JSON)] = [
      ("k", JSON(box.key)),
      ("w", number(box.view.width)),
      ("h", number(box.view.height)),
      ("m", .array(box.matrix.map(exact))),
      ("o", number(min(max(box.opacity, 0), 1))),
    ]
    if let color = box.view.backgroundColor { members.append(("b", JSON(PreviewStyle.css(color)))) }
    if let gradient = box.view.gradient,
      let css = PreviewStyle.linearGradient(gradient, width: box.view.width, height: box.view.height)
    {
      members.append(("g", JSON(css)))
    }
    if box.view.cornerRadius > 0 { members.append(("r", number(box.view.cornerRadius))) }
    if let text = PreviewStyle.text(box.view.content) { members.append(("t", text)) }
    if let tint = PreviewStyle.blurTint(box.view.content) { members.append(("e", JSON(tint))) }
    if PreviewStyle.isImage(box.view.content) { members.append(("i", JSON(true))) }
    if let polygon = box.clipPolygon() {
      members.append(("c", .array(polygon.map { .array([number($0.x), number($0.y)]) })))
    }
    layerMembers(box, into: &members)
    return .object(members)
  }

  /// A finite number as JSON, unrounded (matrices: perspective terms are tiny), whole numbers as integers.
  static func exact(_ value: Double) -> JSON {
    guard value.isFinite else { return .null }
    if value == value.rounded(), abs(value) < 1e15 { return JSON(Int64(value)) }
    return JSON(value)
  }

  /// A finite number as JSON (null otherwise); whole numbers as integers, the rest with at most 6 decimals
  /// (a millionth of a point is far below a pixel, and it keeps the page small).
  static func number(_ value: Double) -> JSON {
    guard value.isFinite else { return .null }
    if value == value.rounded(), abs(value) < 1e15 { return JSON(Int64(value)) }
    let rounded = (value * 1e6).rounded() / 1e6
    if rounded == rounded.rounded(), abs(rounded) < 1e15 { return JSON(Int64(rounded)) }
    return JSON(rounded)
  }
}
