// What the HTML preview draws for each frame: a flat list of boxes, each a `width × height` div placed by a CSS
// `matrix3d` (the view's world transform, `transform-origin: 0 0`) with its composited opacity, colours, corner
// radius, text, and a clip polygon for the ancestors that clip. Computed here, once, so the page only sets styles.

import Glibc
import JSON
import TransitionEngine

/// One view of one frame, as far as drawing goes (read from a frame entry of the protocol).
struct PreviewView {
  var id: String
  var parent: String?
  var width: Double
  var height: Double
  /// The entry's `worldTransform`, m11…m44.
  var matrix: [Double]
  var plane: Homography
  var alpha: Double
  var opacity: Double
  var isHidden: Bool
  /// False when the protocol gave no bounding box (a corner behind the eye).
  var isProjectable: Bool
  var backgroundColor: Color?
  var cornerRadius: Double
  var clipsToBounds: Bool
  var gradient: JSON?
  var snapshotOf: String?
  var content: JSON?
  /// The whole entry (the layer members are read from it: PreviewLayers.swift).
  var entry: JSON

  /// Reads a full frame entry; nil when it lacks what drawing needs (id, bounds, a finite world transform).
  init?(entry: JSON) {
    guard let id = entry["id"]?.stringValue,
      let bounds = entry["bounds"],
      let width = bounds["width"]?.doubleValue, let height = bounds["height"]?.doubleValue,
      width.isFinite, height.isFinite,
      let values = entry["worldTransform"]?.elements.compactMap(\.doubleValue), values.count == 16,
      let plane = Homography(matrix: values)
    else { return nil }
    self.id = id
    parent = entry["parent"]?.stringValue
    self.width = max(0, width)
    self.height = max(0, height)
    matrix = values
    self.plane = plane
    alpha = entry["alpha"]?.doubleValue ?? 1
    opacity = entry["opacity"]?.doubleValue ?? alpha
    isHidden = entry["hidden"]?.boolValue ?? false
    isProjectable = !(entry["boundingBox"]?.isNull ?? false)
    backgroundColor = PreviewStyle.color(entry["backgroundColor"])
    cornerRadius = max(0, entry["cornerRadius"]?.doubleValue ?? 0)
    clipsToBounds = entry["clipsToBounds"]?.boolValue ?? false
    gradient = entry["gradient"].flatMap { $0.isNull ? nil : $0 }
    snapshotOf = entry["snapshotOf"]?.stringValue
    content = entry["content"].flatMap { $0.isNull ? nil : $0 }
    self.entry = entry
  }
}

/// A region that clips: a `width × height` box on the plane `plane` (into container coordinates).
struct PreviewClipper {
  var plane: Homography
  var width: Double
  var height: Double
}

/// One box of the page.
struct PreviewBox {
  /// Unique within the frame: the view's id, or `snapshot/descendant` for what a snapshot shows.
  var key: String
  var view: PreviewView
  /// CSS `matrix3d` values.
  var matrix: [Double]
  var plane: Homography
  var opacity: Double
  /// The clipping regions of the ancestors, nearest first.
  var clippers: [PreviewClipper]
  /// The mask that applies (the view's or an ancestor's) and its plane mapped into the box's.
  var mask: (PreviewView, Homography)? = nil
  /// Whether the box is the shadow of its view's shadowPath, drawn behind the view (PreviewLayers.swift).
  var isShadow = false

  /// The clip polygon in the box's own coordinates: nil when nothing clips it (or a clip cannot be mapped onto
  /// its plane, which then is ignored), empty when it is clipped away entirely.
  func clipPolygon() -> [Point]? {
    guard !clippers.isEmpty, let toLocal = plane.inverted() else { return nil }
    var region: [Point]?
    for clipper in clippers {
      let map = clipper.plane.concatenating(toLocal)
      let corners = ConvexPolygon.box(width: clipper.width, height: clipper.height).map { map.apply($0) }
      let quad = corners.compactMap { $0 }
      guard quad.count == 4 else { continue }
      region = region.map { ConvexPolygon.intersect($0, quad) } ?? quad
      if region?.isEmpty == true { return [] }
    }
    // Nothing of the view left inside the region: clipped away (the region itself stays as it is otherwise).
    if let region, ConvexPolygon.intersect(ConvexPolygon.box(width: view.width, height: view.height), region).isEmpty {
      return []
    }
    return region
  }
}

/// Turns frames into the page's draw lists.
///
/// Snapshot views (`snapshotOf`) show their source's content, subviews included (UIKit's snapshotView): the
/// source's subtree is taken from the frame where the snapshot first appears (or the latest earlier one holding
/// the source), frozen relative to the source, and drawn on the snapshot's plane in every frame.
struct PreviewDrawing {
  /// What a snapshot shows: the source's descendants relative to the source's plane.
  private struct FrozenContent {
    struct Item {
      var view: PreviewView
      /// Descendant plane → source plane.
      var relative: Homography
      /// Alpha composited from the descendant up to (not including) the source.
      var alpha: Double
      /// Clipping ancestors strictly between the source and the descendant, relative to the source plane.
      var clippers: [PreviewClipper]
    }
    var items: [Item]
  }

  private var frozen: [String: FrozenContent] = [:]
  private let frames: [[PreviewView]]

  /// `frames`: each frame's views in drawing order.
  init(frames: [[PreviewView]]) {
    self.frames = frames
  }

  /// The boxes of frame `index`, in drawing order.
  mutating func boxes(ofFrame index: Int) -> [PreviewBox] {
    let views = frames[index]
    var byID: [String: PreviewView] = [:]
    for view in views { byID[view.id] = view }
    var boxes: [PreviewBox] = []
    for view in views {
      guard view.isProjectable, !view.isHidden, view.opacity > 0, !Self.isInsideMask(view, in: byID) else { continue }
      let clippers = Self.clippingAncestors(of: view, in: byID)
      if view.hasPathShadow {
        boxes.append(
          PreviewBox(
            key: view.id + "/shadow", view: view, matrix: view.matrix, plane: view.plane, opacity: view.opacity,
            clippers: clippers, mask: Self.mask(of: view, in: byID), isShadow: true))
      }
      boxes.append(
        PreviewBox(
          key: view.id, view: view, matrix: view.matrix, plane: view.plane, opacity: view.opacity, clippers: clippers,
          mask: Self.mask(of: view, in: byID)))
      guard let source = view.snapshotOf, let content = frozenContent(of: view.id, source: source, frame: index) else {
        continue
      }
      let outer =
        (view.clipsToBounds ? [PreviewClipper(plane: view.plane, width: view.width, height: view.height)] : [])
        + clippers
      for item in content.items where item.alpha > 0 {
        let plane = item.relative.concatenating(view.plane)
        let inner = item.clippers.map {
          PreviewClipper(plane: $0.plane.concatenating(view.plane), width: $0.width, height: $0.height)
        }
        boxes.append(
          PreviewBox(
            key: view.id + "/" + item.view.id, view: item.view, matrix: plane.matrix, plane: plane,
            opacity: item.alpha * view.opacity, clippers: inner + outer))
      }
    }
    return boxes
  }

  /// Ancestors with clipsToBounds, nearest first, as regions in container coordinates.
  private static func clippingAncestors(of view: PreviewView, in byID: [String: PreviewView]) -> [PreviewClipper] {
    var result: [PreviewClipper] = []
    var next = view.parent
    var steps = 0
    while let id = next, let ancestor = byID[id], steps < byID.count {
      if ancestor.clipsToBounds {
        result.append(PreviewClipper(plane: ancestor.plane, width: ancestor.width, height: ancestor.height))
      }
      next = ancestor.parent
      steps += 1
    }
    return result
  }

  private mutating func frozenContent(of snapshot: String, source: String, frame: Int) -> FrozenContent? {
    if let known = frozen[snapshot] { return known }
    // The frame where the snapshot first appears is the first one that asks; search back from it for the source.
    var found: FrozenContent?
    for index in stride(from: frame, through: 0, by: -1) {
      if let content = Self.freeze(source: source, in: frames[index]) {
        found = content
        break
      }
    }
    if found == nil {
      for index in frames.indices where index > frame {
        if let content = Self.freeze(source: source, in: frames[index]) {
          found = content
          break
        }
      }
    }
    let result = found ?? FrozenContent(items: [])
    frozen[snapshot] = result
    return result
  }

  private static func freeze(source: String, in views: [PreviewView]) -> FrozenContent? {
    guard let root = views.first(where: { $0.id == source }), let toSource = root.plane.inverted() else {
      return nil
    }
    var byID: [String: PreviewView] = [:]
    for view in views { byID[view.id] = view }
    var items: [FrozenContent.Item] = []
    for view in views where view.id != source && view.snapshotOf == nil {
      // Walk up to the source: the view is inside it when the walk reaches it.
      var alpha = view.isHidden ? 0 : view.alpha
      var clippers: [PreviewClipper] = []
      var next = view.parent
      var inside = false
      var steps = 0
      while let id = next, steps <= views.count {
        if id == source {
          inside = true
          break
        }
        guard let ancestor = byID[id] else { break }
        alpha *= ancestor.isHidden ? 0 : ancestor.alpha
        if ancestor.clipsToBounds {
          clippers.append(
            PreviewClipper(
              plane: ancestor.plane.concatenating(toSource), width: ancestor.width, height: ancestor.height))
        }
        next = ancestor.parent
        steps += 1
      }
      guard inside, view.isProjectable else { continue }
      items.append(
        FrozenContent.Item(
          view: view, relative: view.plane.concatenating(toSource), alpha: alpha, clippers: clippers))
    }
    return FrozenContent(items: items)
  }
}

/// CSS text for colours, gradients and content.
enum PreviewStyle {
  /// `[r, g, b, a]` in [0, 1] (a defaults to 1); nil for null or anything else.
  static func color(_ json: JSON?) -> Color? {
    guard let json, json.kind == .array, json.count == 3 || json.count == 4 else { return nil }
    let values = json.elements.compactMap(\.doubleValue)
    guard values.count == json.count, values.allSatisfy(\.isFinite) else { return nil }
    return Color(r: values[0], g: values[1], b: values[2], a: values.count == 4 ? values[3] : 1)
  }

  /// `rgba(R, G, B, A)` with channels clamped to [0, 1].
  static func css(_ color: Color) -> String {
    func channel(_ value: Double) -> Int { Int((min(max(value, 0), 1) * 255).rounded()) }
    let alpha = (min(max(color.a, 0), 1) * 10_000).rounded() / 10_000
    return "rgba(\(channel(color.r)), \(channel(color.g)), \(channel(color.b)), \(number(alpha)))"
  }

  /// A CSS `linear-gradient` that matches CAGradientLayer's axial gradient on a `width × height` layer.
  ///
  /// Core Animation runs the gradient from `startPoint` to `endPoint` (unit coordinates of the layer), each
  /// colour at its location along that segment, constant beyond its ends. CSS runs a gradient along a line
  /// through the box's centre at an angle, 0 % and 100 % where the perpendiculars through opposite corners cross
  /// it. The same direction and each stop's projection onto the CSS line give an identical picture.
  static func linearGradient(_ gradient: JSON, width: Double, height: Double) -> String? {
    guard let colorList = gradient["colors"], colorList.kind == .array, colorList.count >= 1 else { return nil }
    let colors = colorList.elements.compactMap { color($0) }
    guard colors.count == colorList.count else { return nil }
    var locations: [Double] = []
    if let list = gradient["locations"], list.kind == .array, list.count == colors.count {
      locations = list.elements.compactMap(\.doubleValue)
    }
    if locations.count != colors.count {
      locations = colors.count == 1 ? [0] : colors.indices.map { Double($0) / Double(colors.count - 1) }
    }
    let start = point(gradient["startPoint"]) ?? Point(x: 0.5, y: 0)
    let end = point(gradient["endPoint"]) ?? Point(x: 0.5, y: 1)
    let s = Point(x: start.x * width, y: start.y * height)
    let e = Point(x: end.x * width, y: end.y * height)
    let dx = e.x - s.x
    let dy = e.y - s.y
    let length = (dx * dx + dy * dy).squareRoot()
    guard length > 1e-9, width > 0, height > 0 else {
      // No direction: Core Animation shows the first colour.
      return "linear-gradient(\(css(colors[0])), \(css(colors[0])))"
    }
    let ux = dx / length
    let uy = dy / length
    // CSS angles: 0deg points up (−y), clockwise. The gradient line's length for that angle:
    let cssLength = abs(width * ux) + abs(height * uy)
    let angle = atan2Degrees(ux, -uy)
    let center = Point(x: width / 2, y: height / 2)
    var stops: [String] = []
    for (color, location) in zip(colors, locations) {
      let p = Point(x: s.x + dx * location, y: s.y + dy * location)
      let along = ((p.x - center.x) * ux + (p.y - center.y) * uy) / cssLength + 0.5
      stops.append("\(css(color)) \(number((along * 100 * 1000).rounded() / 1000))%")
    }
    return "linear-gradient(\(number((angle * 1000).rounded() / 1000))deg, \(stops.joined(separator: ", ")))"
  }

  /// The text a view's `content` shows: a string, or an object with `text` (and optional `fontSize`, `color`,
  /// `align`, `weight`); an image view's image name (`{"image": name}`, Protocol.md) as a small grey label. Other
  /// content (app data) shows nothing.
  static func text(_ content: JSON?) -> JSON? {
    guard let content else { return nil }
    if let string = content.stringValue { return ["s": JSON(string)] }
    if content.kind == .object, let image = content["image"]?.stringValue, content["text"] == nil {
      return .object([("s", JSON(image)), ("f", 12), ("c", JSON("rgba(0, 0, 0, 0.55)"))])
    }
    guard content.kind == .object, let string = content["text"]?.stringValue else { return nil }
    var members: [(String, JSON)] = [("s", JSON(string))]
    if let size = content["fontSize"]?.doubleValue, size.isFinite, size > 0 {
      members.append(("f", PreviewDocument.number(size)))
    }
    if let color = color(content["color"]) { members.append(("c", JSON(css(color)))) }
    if let align = content["align"]?.stringValue, ["left", "center", "right"].contains(align) {
      members.append(("a", JSON(align)))
    }
    if let weight = content["weight"]?.stringValue, ["regular", "medium", "semibold", "bold"].contains(weight) {
      members.append(("w", JSON(weight)))
    }
    return .object(members)
  }

  /// Whether `content` is an image view's (`{"image": …, "contentMode": …}`): the preview outlines its box.
  static func isImage(_ content: JSON?) -> Bool {
    guard let content, content.kind == .object, let image = content["image"] else { return false }
    return image.kind == .string || image.isNull
  }

  /// The tint a visual-effect view's blur (`{"effect": {"blur": style}}`) draws over the blurred backdrop: dark
  /// styles darken, the others lighten, as UIKit's materials do; nil for other content and for no effect.
  static func blurTint(_ content: JSON?) -> String? {
    guard let content, content.kind == .object, let style = content["effect"]?["blur"]?.stringValue else {
      return nil
    }
    if style == "dark" || style == "extraDark" || style.hasSuffix("Dark") { return "rgba(0, 0, 0, 0.45)" }
    if style == "extraLight" || style == "light" || style.hasSuffix("Light") { return "rgba(255, 255, 255, 0.6)" }
    return "rgba(255, 255, 255, 0.3)"
  }

  static func point(_ json: JSON?) -> Point? {
    guard let json, let x = json["x"]?.doubleValue, let y = json["y"]?.doubleValue, x.isFinite, y.isFinite else {
      return nil
    }
    return Point(x: x, y: y)
  }

  /// Shortest text for a finite number (no trailing `.0`).
  static func number(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return "\(value)"
  }

  private static func atan2Degrees(_ y: Double, _ x: Double) -> Double {
    var degrees = Glibc.atan2(y, x) * 180 / Double.pi
    if degrees < 0 { degrees += 360 }
    return degrees
  }
}
