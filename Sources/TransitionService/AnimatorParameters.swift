// Animator parameters on the wire: their metadata in `animators/list`, and the values of `transition/start`'s
// `params` checked against it.

import JSON
import JSONRPC
import PluginHost
import TransitionEngine

enum AnimatorParameters {
  /// The values for a transition: each given value checked against its declaration, every other declared
  /// parameter at its default. The animator therefore always finds a value for each of its parameters.
  ///
  /// - Throws: -32602 naming `params.params.<name>` for an undeclared name or a value of the wrong type or range.
  static func values(_ given: JSON?, for entry: AnimatorEntry) throws(ResponseError) -> [String: ParameterValue] {
    let declared = entry.info.params
    var values: [String: ParameterValue] = [:]
    for parameter in declared { values[parameter.name] = engineValue(parameter.defaultValue, kind: parameter.kind) }
    guard let given, !given.isNull else { return values }
    guard given.kind == .object else { throw .invalidParams(field: "params.params", "must be an object") }
    for (name, value) in given.members {
      let field = "params.params." + name
      guard let parameter = declared.first(where: { $0.name == name }) else {
        let known = declared.isEmpty ? "it has none" : "it has " + declared.map(\.name).joined(separator: ", ")
        throw .invalidParams(field: field, "is not a parameter of \(entry.qualifiedID) (\(known))")
      }
      do {
        values[name] = try decode(value, as: parameter, field: field)
      } catch {
        throw .invalidParams(field: error.field, error.problem)
      }
    }
    return values
  }

  private static func decode(
    _ value: JSON, as parameter: PluginParameter, field: String
  ) throws(FieldError) -> ParameterValue {
    switch parameter.kind {
    case .number:
      let number = try ValueDecoding.number(value, field)
      let low = parameter.minimum ?? -.infinity
      let high = parameter.maximum ?? .infinity
      guard number >= low, number <= high else {
        throw FieldError(field, "must be in [\(bound(low)), \(bound(high))]")
      }
      return .number(number)
    case .bool:
      return .bool(try ValueDecoding.bool(value, field))
    case .string:
      return .string(try ValueDecoding.string(value, field))
    case .enum:
      let text = try ValueDecoding.string(value, field)
      guard parameter.options.contains(text) else {
        throw FieldError(field, "must be one of " + parameter.options.map { "\"\($0)\"" }.joined(separator: ", "))
      }
      return .enumCase(text)
    case .color:
      return .color(try ValueDecoding.color(value, field))
    case .point:
      return .point(try ValueDecoding.point(value, field))
    case .rect:
      return .rect(try ValueDecoding.rect(value, field))
    }
  }

  private static func bound(_ value: Double) -> String {
    value.isInfinite ? (value < 0 ? "-inf" : "inf") : JSON.number(value).serialized()
  }

  private static func engineValue(_ value: PluginParameter.Value, kind: PluginParameter.Kind) -> ParameterValue {
    switch value {
    case .number(let n): .number(n)
    case .bool(let b): .bool(b)
    case .string(let s): kind == .enum ? .enumCase(s) : .string(s)
    case .color(let r, let g, let b, let a): .color(Color(r: r, g: g, b: b, a: a))
    case .point(let x, let y): .point(Point(x: x, y: y))
    case .rect(let x, let y, let width, let height): .rect(Rect(x: x, y: y, width: width, height: height))
    }
  }

  // MARK: Metadata

  /// `{"id", "plugin", "name", "description", "operations", "params"}`; `operations` null means any operation.
  static func json(_ entry: AnimatorEntry) -> JSON {
    var object = JSONObjectBuilder()
    object.setNew("id", JSON(entry.qualifiedID))
    object.setNew("plugin", JSON(entry.pluginID))
    object.setNew("name", JSON(entry.info.name))
    object.setNew("description", entry.info.description.map { JSON($0) } ?? .null)
    object.setNew("operations", entry.info.operations.map { .array($0.map { JSON($0) }) } ?? .null)
    object.setNew("params", .array(entry.info.params.map(json)))
    return object.build()
  }

  /// `{"name", "type", "default", "min"?, "max"?, "options"?, "doc"?}`; an infinite bound is left out.
  static func json(_ parameter: PluginParameter) -> JSON {
    var object = JSONObjectBuilder()
    object.setNew("name", JSON(parameter.name))
    object.setNew("type", JSON(parameter.kind.rawValue))
    object.setNew("default", json(parameter.defaultValue))
    if parameter.kind == .number {
      if let low = parameter.minimum, low.isFinite { object.setNew("min", JSON.number(low)) }
      if let high = parameter.maximum, high.isFinite { object.setNew("max", JSON.number(high)) }
    }
    if parameter.kind == .enum { object.setNew("options", .array(parameter.options.map { JSON($0) })) }
    if let doc = parameter.doc { object.setNew("doc", JSON(doc)) }
    return object.build()
  }

  static func json(_ value: PluginParameter.Value) -> JSON {
    switch value {
    case .number(let n): JSON.number(n)
    case .bool(let b): JSON(b)
    case .string(let s): JSON(s)
    case .color(let r, let g, let b, let a): .array([r, g, b, a].map(JSON.number))
    case .point(let x, let y): ["x": JSON.number(x), "y": JSON.number(y)]
    case .rect(let x, let y, let width, let height):
      ["x": JSON.number(x), "y": JSON.number(y), "width": JSON.number(width), "height": JSON.number(height)]
    }
  }
}
