// Animators on the wire: their metadata in `animators/list`, and the JSON of `transition/start`'s `params` decoded
// into the typed values that ParameterValidator checks.

import JSON
import JSONRPC
import PluginHost
import TransitionEngine

enum AnimatorJSON {
  /// The members of `transition/start`'s `params` as typed values, each decoded as its declaration's type (the
  /// range, option and completeness rules are ParameterValidator's, applied when the transition is made).
  ///
  /// - Throws: -32602 naming `params.params.<name>` for an undeclared name or a value of the wrong shape.
  static func parameterValues(_ given: JSON?, for entry: AnimatorEntry) throws(ResponseError) -> [String:
    ParameterValue]
  {
    guard let given, !given.isNull else { return [:] }
    guard given.kind == .object else { throw .invalidParams(field: "params.params", "must be an object") }
    var values: [String: ParameterValue] = [:]
    do throws(FieldError) {
      for (name, value) in given.members {
        let parameter = try ParameterValidator.declaration(named: name, of: entry, prefix: "params.params")
        values[name] = try decode(value, as: parameter, field: "params.params." + name)
      }
    } catch {
      throw .invalidParams(field: error.field, error.problem)
    }
    return values
  }

  private static func decode(
    _ value: JSON, as parameter: PluginParameter, field: String
  ) throws(FieldError) -> ParameterValue {
    switch parameter.kind {
    case .number: .number(try ValueDecoding.number(value, field))
    case .bool: .bool(try ValueDecoding.bool(value, field))
    case .string: .string(try ValueDecoding.string(value, field))
    case .enum: .enumCase(try ValueDecoding.string(value, field))
    case .color: .color(try ValueDecoding.color(value, field))
    case .point: .point(try ValueDecoding.point(value, field))
    case .rect: .rect(try ValueDecoding.rect(value, field))
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
