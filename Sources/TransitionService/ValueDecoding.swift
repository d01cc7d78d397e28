// Reading the protocol's value types (CONVENTIONS, "Protocol values") out of request JSON: rects, points, colours,
// matrices, gradients and timing curves. Every failure names the field by its path, so the caller can turn it into
// -32602 (params) or 2004 (view trees) without losing where it happened.

import JSON
import TransitionEngine

/// A value that could not be read: `field` is its path (`to.children[1].frame.width`), `problem` the rest of the
/// sentence ("must be a finite number ≥ 0").
package struct FieldError: Error, Equatable, Sendable, CustomStringConvertible {
  package var field: String
  package var problem: String

  package init(_ field: String, _ problem: String) {
    self.field = field
    self.problem = problem
  }

  /// "`field` `problem`".
  package var description: String { "\(field) \(problem)" }
}

/// Typed reads that throw `FieldError`.
enum ValueDecoding {
  static func number(_ value: JSON, _ field: String) throws(FieldError) -> Double {
    guard let number = value.doubleValue, number.isFinite else { throw FieldError(field, "must be a finite number") }
    return number
  }

  static func number(
    _ value: JSON, _ field: String, in range: ClosedRange<Double>, _ problem: @autoclosure () -> String
  ) throws(FieldError) -> Double {
    let number = try number(value, field)
    guard range.contains(number) else { throw FieldError(field, problem()) }
    return number
  }

  static func nonNegative(_ value: JSON, _ field: String) throws(FieldError) -> Double {
    try number(value, field, in: 0...Double.greatestFiniteMagnitude, "must be a finite number ≥ 0")
  }

  static func unit(_ value: JSON, _ field: String) throws(FieldError) -> Double {
    try number(value, field, in: 0...1, "must be a number in [0, 1]")
  }

  static func bool(_ value: JSON, _ field: String) throws(FieldError) -> Bool {
    guard let flag = value.boolValue else { throw FieldError(field, "must be a boolean") }
    return flag
  }

  static func string(_ value: JSON, _ field: String) throws(FieldError) -> String {
    guard let text = value.stringValue else { throw FieldError(field, "must be a string") }
    return text
  }

  static func object(_ value: JSON, _ field: String) throws(FieldError) -> JSON {
    guard value.kind == .object else { throw FieldError(field, "must be an object") }
    return value
  }

  /// The member `key` of `object` (nil when absent or null).
  static func member(_ object: JSON, _ key: String) -> JSON? {
    guard let value = object[key], !value.isNull else { return nil }
    return value
  }

  static func required(_ object: JSON, _ key: String, _ path: String) throws(FieldError) -> JSON {
    guard let value = member(object, key) else { throw FieldError(join(path, key), "is required") }
    return value
  }

  static func join(_ path: String, _ key: String) -> String {
    path.isEmpty ? key : path + "." + key
  }

  /// `{"x", "y"}`.
  static func point(_ value: JSON, _ field: String) throws(FieldError) -> Point {
    let object = try object(value, field)
    return Point(
      x: try number(required(object, "x", field), field + ".x"),
      y: try number(required(object, "y", field), field + ".y"))
  }

  /// `{"x", "y", "width", "height"}`; with `nonNegativeSize`, width and height must be ≥ 0.
  static func rect(_ value: JSON, _ field: String, nonNegativeSize: Bool = false) throws(FieldError) -> Rect {
    let object = try object(value, field)
    let x = try number(required(object, "x", field), field + ".x")
    let y = try number(required(object, "y", field), field + ".y")
    let widthValue = try required(object, "width", field)
    let heightValue = try required(object, "height", field)
    let width = try nonNegativeSize ? nonNegative(widthValue, field + ".width") : number(widthValue, field + ".width")
    let height =
      try nonNegativeSize ? nonNegative(heightValue, field + ".height") : number(heightValue, field + ".height")
    return Rect(x: x, y: y, width: width, height: height)
  }

  /// `[r, g, b, a]`, each in [0, 1].
  static func color(_ value: JSON, _ field: String) throws(FieldError) -> Color {
    guard value.kind == .array, value.count == 4 else {
      throw FieldError(field, "must be an array [r, g, b, a] of four numbers in [0, 1]")
    }
    var parts: [Double] = []
    for index in 0..<4 {
      parts.append(try unit(value[index]!, "\(field)[\(index)]"))
    }
    return Color(r: parts[0], g: parts[1], b: parts[2], a: parts[3])
  }

  /// 16 finite numbers, m11 … m44 (CATransform3D order).
  static func transform(_ value: JSON, _ field: String) throws(FieldError) -> Transform3D {
    guard value.kind == .array, value.count == 16 else {
      throw FieldError(field, "must be an array of 16 numbers (m11 … m44)")
    }
    var values: [Double] = []
    values.reserveCapacity(16)
    for index in 0..<16 {
      values.append(try number(value[index]!, "\(field)[\(index)]"))
    }
    return Transform3D(values: values)!
  }

  /// `{"colors": [[r,g,b,a], …], "locations"?: [numbers in [0, 1], one per colour], "startPoint"?, "endPoint"?}`;
  /// the points default to CAGradientLayer's (0.5, 0) and (0.5, 1).
  static func gradient(_ value: JSON, _ field: String) throws(FieldError) -> Gradient {
    let object = try object(value, field)
    let colorsValue = try required(object, "colors", field)
    guard colorsValue.kind == .array, colorsValue.count >= 1 else {
      throw FieldError(field + ".colors", "must be a non-empty array of colours [r, g, b, a]")
    }
    var colors: [Color] = []
    for (index, element) in colorsValue.elements.enumerated() {
      colors.append(try color(element, "\(field).colors[\(index)]"))
    }
    var locations: [Double]?
    if let locationsValue = member(object, "locations") {
      guard locationsValue.kind == .array, locationsValue.count == colors.count else {
        throw FieldError(field + ".locations", "must be an array with one number in [0, 1] per colour")
      }
      var list: [Double] = []
      for (index, element) in locationsValue.elements.enumerated() {
        list.append(try unit(element, "\(field).locations[\(index)]"))
      }
      locations = list
    }
    let start = try member(object, "startPoint").map { v throws(FieldError) in try point(v, field + ".startPoint") }
    let end = try member(object, "endPoint").map { v throws(FieldError) in try point(v, field + ".endPoint") }
    return Gradient(
      colors: colors, locations: locations, startPoint: start ?? Point(x: 0.5, y: 0),
      endPoint: end ?? Point(x: 0.5, y: 1))
  }

  /// A timing curve (CONVENTIONS, "Curves"): `"linear"`, `"easeIn"`, `"easeOut"`, `"easeInOut"`, `"default"`,
  /// `{"bezier": [x1, y1, x2, y2]}` (x1, x2 in [0, 1]) or `{"steps": n, "position": "start"|"end"}` (position
  /// defaults to "end"). Springs are refused here: a completion tail gets a spring from a non-zero velocity.
  static func curve(_ value: JSON, _ field: String) throws(FieldError) -> TimingCurve {
    if let name = value.stringValue {
      switch name {
      case "linear": return .linear
      case "easeIn": return .easeIn
      case "easeOut": return .easeOut
      case "easeInOut": return .easeInOut
      case "default": return .default
      default:
        throw FieldError(
          field,
          "must be \"linear\", \"easeIn\", \"easeOut\", \"easeInOut\", \"default\", {\"bezier\": […]} or "
            + "{\"steps\": n}, not \"\(name)\"")
      }
    }
    guard value.kind == .object else { throw FieldError(field, "must be a curve name or a curve object") }
    if let points = member(value, "bezier") {
      guard points.kind == .array, points.count == 4 else {
        throw FieldError(field + ".bezier", "must be an array [x1, y1, x2, y2]")
      }
      var p: [Double] = []
      for index in 0..<4 { p.append(try number(points[index]!, "\(field).bezier[\(index)]")) }
      for index in [0, 2] where !(0...1).contains(p[index]) {
        throw FieldError("\(field).bezier[\(index)]", "must be in [0, 1] (an x coordinate)")
      }
      return .bezier(p[0], p[1], p[2], p[3])
    }
    if let stepsValue = member(value, "steps") {
      guard let count = stepsValue.intValue, count >= 1, count <= 1_000_000 else {
        throw FieldError(field + ".steps", "must be an integer from 1 to 1000000")
      }
      var position = StepPosition.end
      if let positionValue = member(value, "position") {
        guard let name = positionValue.stringValue, let parsed = StepPosition(rawValue: name) else {
          throw FieldError(field + ".position", "must be \"start\" or \"end\"")
        }
        position = parsed
      }
      return .steps(Int(count), position)
    }
    if member(value, "spring") != nil {
      throw FieldError(
        field,
        "cannot be a spring: completion tails use a curve; give a velocity to finish, cancel or release "
          + "for a spring tail")
    }
    throw FieldError(field, "must be a curve name, {\"bezier\": [x1, y1, x2, y2]} or {\"steps\": n}")
  }
}
