// What the HTML preview draws of the layer members (Protocol.md, "Layers in frames"): borders and masked corners,
// shadows (box-shadow, or the shadowPath as a blurred SVG path), gradients of every type, shape layers (an SVG path
// in the box, so it lies under the box's matrix3d like everything else), and masks (a CSS mask image: an SVG of the
// mask layer's shape mapped into the masked box). Masks and their sublayers are not drawn themselves.

import Glibc
import JSON
import TransitionEngine

extension PreviewStyle {
  /// SVG path data (`M x y L x y Q … C … Z`) from a frame's path; nil for null or a malformed path.
  static func svgPath(_ json: JSON?) -> String? {
    guard let json, json.kind == .array else { return nil }
    var parts: [String] = []
    for element in json.elements {
      guard element.kind == .array, let command = element[0]?.stringValue, ["M", "L", "Q", "C", "Z"].contains(command)
      else { return nil }
      let numbers = element.elements.dropFirst().compactMap(\.doubleValue)
      guard numbers.count == element.count - 1, numbers.allSatisfy(\.isFinite) else { return nil }
      parts.append(([command] + numbers.map { number(($0 * 1000).rounded() / 1000) }).joined(separator: " "))
    }
    return parts.joined(separator: " ")
  }

  /// `border-radius` for `cornerRadius` on `maskedCorners` (top-left, top-right, bottom-right, bottom-left).
  static func cornerRadii(_ radius: Double, masked: JSON?) -> String {
    guard let masked, masked.kind == .array else { return "\(number(radius))px" }
    let names = Set(masked.elements.compactMap(\.stringValue))
    return ["minXMinY", "maxXMinY", "maxXMaxY", "minXMaxY"].map { names.contains($0) ? "\(number(radius))px" : "0" }
      .joined(separator: " ")
  }

  /// A CSS gradient for `gradientType` (`axial` is `linearGradient`): radial ellipses about startPoint reaching
  /// endPoint at the last stop; conic round startPoint, angle 0 toward endPoint, clockwise on screen.
  static func gradient(_ gradient: JSON, type: String?, width: Double, height: Double) -> String? {
    guard let type, type != "axial" else { return linearGradient(gradient, width: width, height: height) }
    guard let colorList = gradient["colors"], colorList.kind == .array, colorList.count >= 1 else { return nil }
    let colors = colorList.elements.compactMap { color($0) }
    guard colors.count == colorList.count else { return nil }
    var locations = gradient["locations"]?.elements.compactMap(\.doubleValue) ?? []
    if locations.count != colors.count {
      locations = colors.count == 1 ? [0] : colors.indices.map { Double($0) / Double(colors.count - 1) }
    }
    let start = point(gradient["startPoint"]) ?? Point(x: 0.5, y: 0)
    let end = point(gradient["endPoint"]) ?? Point(x: 0.5, y: 1)
    let cx = start.x * width
    let cy = start.y * height
    if type == "radial" {
      let rx = max(abs(end.x - start.x) * width, 1e-3)
      let ry = max(abs(end.y - start.y) * height, 1e-3)
      let stops = zip(colors, locations).map { "\(css($0)) \(number(($1 * 100_000).rounded() / 1000))%" }
      return "radial-gradient(\(number(rx))px \(number(ry))px at \(number(cx))px \(number(cy))px, "
        + stops.joined(separator: ", ") + ")"
    }
    // Conic: CSS angles start at the top and turn clockwise; Core Animation's angle 0 points toward endPoint.
    let angle = Glibc.atan2(end.y * height - cy, end.x * width - cx) * 180 / Double.pi + 90
    let stops = zip(colors, locations).map { "\(css($0)) \(number(($1 * 360_000).rounded() / 1000))deg" }
    return "conic-gradient(from \(number((angle * 1000).rounded() / 1000))deg at \(number(cx))px \(number(cy))px, "
      + stops.joined(separator: ", ") + ")"
  }
}

extension PreviewView {
  /// Whether the entry is a mask (drawn only as its owner's mask).
  var isMask: Bool { entry["maskOf"]?.stringValue != nil }

  /// Whether the entry casts a shadow along its shadowPath (drawn as a box of its own, behind the view's).
  var hasPathShadow: Bool {
    layerNumber("shadowOpacity", 0) > 0 && layerColor("shadowColor", .black) != nil
      && PreviewStyle.svgPath(entry["shadowPath"]) != nil
  }

  /// The colour `key` of the entry, with CALayer's default when absent (`fallback`), nil when null.
  func layerColor(_ key: String, _ fallback: Color?) -> Color? {
    guard let value = entry[key] else { return fallback }
    return value.isNull ? nil : PreviewStyle.color(value)
  }

  func layerNumber(_ key: String, _ fallback: Double) -> Double {
    guard let v = entry[key]?.doubleValue, v.isFinite else { return fallback }
    return v
  }

  /// The SVG of what a mask draws, in its own bounds coordinates: a shape layer's filled path, else its bounds
  /// (rounded) where it has a background or content; nil when it draws nothing.
  func maskShape() -> String? {
    let alpha = min(max(opacity, 0), 1)
    if entry["kind"]?.stringValue == "shape" {
      guard let d = PreviewStyle.svgPath(entry["path"]), let fill = layerColor("fillColor", .black) else { return nil }
      let rule = entry["fillRule"]?.stringValue == "evenOdd" ? "evenodd" : "nonzero"
      return "<path d='\(d)' fill='black' fill-opacity='\(PreviewStyle.number(fill.a * alpha))' fill-rule='\(rule)'/>"
    }
    let a = (backgroundColor?.a ?? (gradient != nil || content != nil ? 1 : 0)) * alpha
    guard a > 0 else { return nil }
    let r = PreviewStyle.number(cornerRadius)
    return "<rect width='\(PreviewStyle.number(width))' height='\(PreviewStyle.number(height))' rx='\(r)' "
      + "fill='black' fill-opacity='\(PreviewStyle.number(a))'/>"
  }
}

extension PreviewDocument {
  /// The box of a view's shadowPath shadow: `sp` `{d, f, x, y, b}` (path, colour with the shadow's opacity, offset,
  /// blur σ = shadowRadius), drawn outside the bounds, under the view's own mask and clips.
  static func shadowBoxJSON(_ box: PreviewBox) -> JSON {
    let view = box.view
    var shadow = view.layerColor("shadowColor", .black) ?? .black
    shadow.a *= min(max(view.layerNumber("shadowOpacity", 0), 0), 1)
    let offset = view.entry["shadowOffset"]
    var members: [(String, JSON)] = [
      ("k", JSON(box.key)), ("w", number(view.width)), ("h", number(view.height)), ("m", .array(box.matrix.map(exact))),
      ("o", number(min(max(box.opacity, 0), 1))),
      (
        "sp",
        [
          "d": JSON(PreviewStyle.svgPath(view.entry["shadowPath"]) ?? ""), "f": JSON(PreviewStyle.css(shadow)),
          "x": number(offset?["width"]?.doubleValue ?? 0), "y": number(offset?["height"]?.doubleValue ?? -3),
          "b": number(max(view.layerNumber("shadowRadius", 3), 0)),
        ]
      ),
      ("v", JSON(true)),
    ]
    if let polygon = box.clipPolygon() {
      members.append(("c", .array(polygon.map { .array([number($0.x), number($0.y)]) })))
    }
    return .object(members)
  }

  /// The layer members of a box: `r` as per-corner radii, `bd` border, `sh` box-shadow, `sp` a shadowPath shadow
  /// (`{d, f, x, y, b}`), `sv` a shape layer's path (`{d, f, fr, s, lw, da, do}`), `mk` a CSS mask image, `v` the
  /// box draws outside its bounds.
  static func layerMembers(_ box: PreviewBox, into members: inout [(String, JSON)]) {
    let view = box.view
    if view.cornerRadius > 0, view.entry["maskedCorners"] != nil {
      members.removeAll { $0.0 == "r" }
      members.append(("r", JSON(PreviewStyle.cornerRadii(view.cornerRadius, masked: view.entry["maskedCorners"]))))
    }
    let borderWidth = view.layerNumber("borderWidth", 0)
    if borderWidth > 0, let color = view.layerColor("borderColor", .black) {
      members.append(("bd", JSON("\(PreviewStyle.number(borderWidth))px solid \(PreviewStyle.css(color))")))
    }
    let shadowOpacity = min(max(view.layerNumber("shadowOpacity", 0), 0), 1)
    if shadowOpacity > 0, let color = view.layerColor("shadowColor", .black) {
      var shadow = color
      shadow.a *= shadowOpacity
      let radius = max(view.layerNumber("shadowRadius", 3), 0)
      let offset = view.entry["shadowOffset"]
      let dx = offset?["width"]?.doubleValue ?? 0
      let dy = offset?["height"]?.doubleValue ?? -3
      if PreviewStyle.svgPath(view.entry["shadowPath"]) == nil {
        // CSS blurs by a Gaussian of σ = blur / 2; Core Animation's shadowRadius is that σ.
        members.append(
          (
            "sh",
            JSON(
              "\(PreviewStyle.number(dx))px \(PreviewStyle.number(dy))px \(PreviewStyle.number(2 * radius))px "
                + PreviewStyle.css(shadow))
          ))
      }
    }
    if let gradient = view.gradient, let type = view.entry["gradientType"]?.stringValue,
      let css = PreviewStyle.gradient(gradient, type: type, width: view.width, height: view.height)
    {
      members.removeAll { $0.0 == "g" }
      members.append(("g", JSON(css)))
    }
    if view.entry["kind"]?.stringValue == "shape", let d = PreviewStyle.svgPath(view.entry["path"]) {
      var shape: [(String, JSON)] = [("d", JSON(d))]
      shape.append(("f", JSON(view.layerColor("fillColor", .black).map(PreviewStyle.css) ?? "none")))
      shape.append(("fr", JSON(view.entry["fillRule"]?.stringValue == "evenOdd" ? "evenodd" : "nonzero")))
      if let stroke = view.layerColor("strokeColor", nil) {
        shape.append(("s", JSON(PreviewStyle.css(stroke))))
        shape.append(("lw", number(view.layerNumber("lineWidth", 1))))
        let start = min(max(view.layerNumber("strokeStart", 0), 0), 1)
        let end = min(max(view.layerNumber("strokeEnd", 1), 0), 1)
        let dashes = view.entry["lineDashPattern"]?.elements.compactMap(\.doubleValue) ?? []
        if start > 0 || end < 1 {
          // The stroke's part between strokeStart and strokeEnd: a dash of that length on a path of length 1.
          shape.append(("pl", JSON(true)))
          shape.append(("da", JSON("\(PreviewStyle.number(max(end - start, 0))) 2")))
          shape.append(("do", number(-start)))
        } else if !dashes.isEmpty {
          shape.append(("da", JSON(dashes.map(PreviewStyle.number).joined(separator: " "))))
          shape.append(("do", number(view.layerNumber("lineDashPhase", 0))))
        }
      }
      members.append(("sv", .object(shape)))
      members.append(("v", JSON(true)))
    }
    if let (mask, relative) = box.mask, let shape = mask.maskShape() {
      let m = relative
      let matrix = [m.h11, m.h12, m.h21, m.h22, m.h31, m.h32].map { PreviewStyle.number(($0 * 1e6).rounded() / 1e6) }
      let svg =
        "<svg xmlns='http://www.w3.org/2000/svg' width='\(PreviewStyle.number(view.width))' "
        + "height='\(PreviewStyle.number(view.height))'><g transform='matrix(\(matrix.joined(separator: " ")))'>"
        + shape + "</g></svg>"
      let hex = Array("0123456789ABCDEF")
      let encoded = svg.utf8.map { byte -> String in
        let c = Character(Unicode.Scalar(byte))
        let plain = (c.isASCII && (c.isLetter || c.isNumber)) || " ='/.:-_".contains(c)
        return plain ? String(c) : "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 15)])
      }.joined()
      members.append(("mk", JSON("url(\"data:image/svg+xml,\(encoded)\")")))
    }
  }
}

extension PreviewDrawing {
  /// The mask that applies to `view`: its own, or its nearest ancestor's, as (mask, mask plane → view plane); nil
  /// when none (or the planes do not invert).
  static func mask(of view: PreviewView, in byID: [String: PreviewView]) -> (PreviewView, Homography)? {
    var current: PreviewView? = view
    var steps = 0
    while let node = current, steps <= byID.count {
      if let maskID = node.entry["mask"]?.stringValue, let mask = byID[maskID], let toLocal = view.plane.inverted() {
        return (mask, mask.plane.concatenating(toLocal))
      }
      current = node.parent.flatMap { byID[$0] }
      steps += 1
    }
    return nil
  }

  /// Whether `view` is a mask or inside one (drawn only as a mask).
  static func isInsideMask(_ view: PreviewView, in byID: [String: PreviewView]) -> Bool {
    var current: PreviewView? = view
    var steps = 0
    while let node = current, steps <= byID.count {
      if node.isMask { return true }
      current = node.parent.flatMap { byID[$0] }
      steps += 1
    }
    return false
  }
}
