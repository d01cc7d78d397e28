// The layer members of view-tree nodes (Protocol.md, "Layers in view trees"): a node's `kind` (a view, or a layer
// that is not a view: `layer`, `gradient`, `shape`), its `mask` (a node), and the layer-only properties, with the
// names and value forms frames use. Errors name the field (2004).

import JSON
import TransitionEngine

extension ValueDecoding {
  /// A node's `kind`: nil for a view (absent or `"view"`), else the kind of a layer that is not a view.
  static func layerKind(_ json: JSON, _ path: String) throws(FieldError) -> LayerKind? {
    guard let value = member(json, "kind") else { return nil }
    let text = try string(value, path + ".kind")
    if text == "view" { return nil }
    guard let kind = LayerKind(rawValue: text) else {
      throw FieldError(path + ".kind", "must be \"view\", \"layer\", \"gradient\" or \"shape\"")
    }
    return kind
  }

  /// A colour that may be null (no colour).
  static func optionalColor(_ value: JSON, _ field: String) throws(FieldError) -> Color? {
    value.isNull ? nil : try color(value, field)
  }

  /// A path as frames write it: `[["M", x, y], ["L", x, y], ["Q", cx, cy, x, y], ["C", c1x, c1y, c2x, c2y, x, y],
  /// ["Z"]]`, or null (none).
  static func path(_ value: JSON, _ field: String) throws(FieldError) -> Path? {
    if value.isNull { return nil }
    guard value.kind == .array else { throw FieldError(field, "must be an array of path elements or null") }
    var elements: [PathElement] = []
    for index in 0..<value.count {
      let element = value[index]!
      let at = "\(field)[\(index)]"
      guard element.kind == .array, element.count >= 1, let command = element[0]?.stringValue else {
        throw FieldError(at, "must be an array starting with \"M\", \"L\", \"Q\", \"C\" or \"Z\"")
      }
      let counts = ["M": 2, "L": 2, "Q": 4, "C": 6, "Z": 0]
      guard let count = counts[command] else {
        throw FieldError(at + "[0]", "must be \"M\", \"L\", \"Q\", \"C\" or \"Z\"")
      }
      guard element.count == count + 1 else { throw FieldError(at, "\"\(command)\" takes \(count) numbers") }
      var n: [Double] = []
      for i in 1...max(count, 1) where i <= count { n.append(try number(element[i]!, "\(at)[\(i)]")) }
      switch command {
      case "M": elements.append(.move(to: Point(x: n[0], y: n[1])))
      case "L": elements.append(.line(to: Point(x: n[0], y: n[1])))
      case "Q": elements.append(.quadCurve(to: Point(x: n[2], y: n[3]), control: Point(x: n[0], y: n[1])))
      case "C":
        elements.append(
          .curve(
            to: Point(x: n[4], y: n[5]), control1: Point(x: n[0], y: n[1]), control2: Point(x: n[2], y: n[3])))
      default: elements.append(.closeSubpath)
      }
    }
    return Path(elements: elements)
  }

  /// `{"width", "height"}`.
  static func size(_ value: JSON, _ field: String) throws(FieldError) -> Size {
    let object = try object(value, field)
    return Size(
      width: try number(required(object, "width", field), field + ".width"),
      height: try number(required(object, "height", field), field + ".height"))
  }

  /// Writes the layer-only members of a node to `view` (immediate writes: initial values).
  static func applyLayerMembers(_ json: JSON, to view: View, path: String) throws(FieldError) {
    func value(_ key: String) -> JSON? { json[key] }
    if let v = member(json, "anchorPointZ") { view.anchorPointZ = try number(v, path + ".anchorPointZ") }
    if let v = member(json, "borderWidth") { view.borderWidth = try nonNegative(v, path + ".borderWidth") }
    if let v = value("borderColor") { view.borderColor = try optionalColor(v, path + ".borderColor") }
    if let v = value("shadowColor") { view.shadowColor = try optionalColor(v, path + ".shadowColor") }
    if let v = member(json, "shadowOpacity") { view.shadowOpacity = try unit(v, path + ".shadowOpacity") }
    if let v = member(json, "shadowRadius") { view.shadowRadius = try nonNegative(v, path + ".shadowRadius") }
    if let v = member(json, "shadowOffset") { view.shadowOffset = try size(v, path + ".shadowOffset") }
    if let v = value("shadowPath") { view.shadowPath = try self.path(v, path + ".shadowPath") }
    if let v = member(json, "maskedCorners") {
      let field = path + ".maskedCorners"
      guard v.kind == .array else { throw FieldError(field, "must be an array of corner names") }
      var corners: MaskedCorners = []
      for index in 0..<v.count {
        let name = try string(v[index]!, "\(field)[\(index)]")
        guard let corner = MaskedCorners.frameNames.first(where: { $0.1 == name })?.0 else {
          throw FieldError("\(field)[\(index)]", "must be \"minXMinY\", \"maxXMinY\", \"minXMaxY\" or \"maxXMaxY\"")
        }
        corners.insert(corner)
      }
      view.maskedCorners = corners
    }
    if let v = value("path") { view.path = try self.path(v, path + ".path") }
    if let v = value("fillColor") { view.fillColor = try optionalColor(v, path + ".fillColor") }
    if let v = value("strokeColor") { view.strokeColor = try optionalColor(v, path + ".strokeColor") }
    if let v = member(json, "lineWidth") { view.lineWidth = try nonNegative(v, path + ".lineWidth") }
    if let v = member(json, "strokeStart") { view.strokeStart = try number(v, path + ".strokeStart") }
    if let v = member(json, "strokeEnd") { view.strokeEnd = try number(v, path + ".strokeEnd") }
    if let v = member(json, "lineDashPhase") { view.lineDashPhase = try number(v, path + ".lineDashPhase") }
    if let v = member(json, "lineDashPattern") {
      let field = path + ".lineDashPattern"
      guard v.kind == .array else { throw FieldError(field, "must be an array of numbers ≥ 0 or null") }
      var lengths: [Double] = []
      for index in 0..<v.count { lengths.append(try nonNegative(v[index]!, "\(field)[\(index)]")) }
      view.lineDashPattern = lengths
    }
    if let v = member(json, "fillRule") {
      guard let rule = FillRule(rawValue: try string(v, path + ".fillRule")) else {
        throw FieldError(path + ".fillRule", "must be \"nonZero\" or \"evenOdd\"")
      }
      view.fillRule = rule
    }
    if let v = member(json, "gradientType") {
      guard let type = GradientType(rawValue: try string(v, path + ".gradientType")) else {
        throw FieldError(path + ".gradientType", "must be \"axial\", \"radial\" or \"conic\"")
      }
      view.gradientType = type
    }
  }
}
