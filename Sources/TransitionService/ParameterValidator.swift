// The one set of rules for a transition's `params` against its animator's metadata (CONVENTIONS, "Protocol values":
// parameter types). `transition/start` decodes its JSON into typed values first (TransitionSession+Methods.swift);
// in-process callers (the validator, the tests, the benchmarks) hand typed values in directly. Both meet the same
// checks and the same sentences here.

import JSON
import PluginHost
import TransitionEngine

/// Parameter values checked against, and completed from, an animator's declared parameters.
package enum ParameterValidator {
  /// The declaration of parameter `name` of `entry`'s animator.
  ///
  /// - Parameter prefix: the path of the params object in error messages (`params.params` on the wire).
  /// - Throws: "is not a parameter of `pluginId/animatorId` (it has a, b)" for a name it does not declare.
  package static func declaration(
    named name: String, of entry: AnimatorEntry, prefix: String = "params"
  ) throws(FieldError) -> PluginParameter {
    let declared = entry.info.params
    guard let parameter = declared.first(where: { $0.name == name }) else {
      let known = declared.isEmpty ? "it has none" : "it has " + declared.map(\.name).joined(separator: ", ")
      throw FieldError(prefix + "." + name, "is not a parameter of \(entry.qualifiedID) (\(known))")
    }
    return parameter
  }

  /// The values for a transition: every declared parameter, the given value where there is one (checked against its
  /// declaration) and the default elsewhere, so the animator always finds a value for each of its parameters. Enum
  /// values come back as `.enumCase` (a `.string` is accepted for an enum).
  ///
  /// Rules: no undeclared names; each value of its declared type; numbers finite and within [min, max]; enum values
  /// among the options; colour components in [0, 1]; points and rects finite, rect sizes ≥ 0.
  ///
  /// - Throws: the first offending value: undeclared names in name order, then the declarations in their order.
  package static func validate(
    _ given: [String: ParameterValue], for entry: AnimatorEntry, prefix: String = "params"
  ) throws(FieldError) -> [String: ParameterValue] {
    for name in given.keys.sorted() { _ = try declaration(named: name, of: entry, prefix: prefix) }
    var values: [String: ParameterValue] = [:]
    for parameter in entry.info.params {
      if let value = given[parameter.name] {
        values[parameter.name] = try check(value, against: parameter, field: prefix + "." + parameter.name)
      } else {
        values[parameter.name] = parameter.defaultEngineValue
      }
    }
    return values
  }

  /// `value` as `parameter` declares it, or the reason it does not fit.
  static func check(
    _ value: ParameterValue, against parameter: PluginParameter, field: String
  ) throws(FieldError) -> ParameterValue {
    switch (parameter.kind, value) {
    case (.number, .number(let number)):
      guard number.isFinite else { throw FieldError(field, "must be a finite number") }
      let low = parameter.minimum ?? -.infinity
      let high = parameter.maximum ?? .infinity
      guard number >= low, number <= high else {
        throw FieldError(field, "must be in [\(bound(low)), \(bound(high))]")
      }
      return value
    case (.bool, .bool), (.string, .string):
      return value
    case (.enum, .string(let text)), (.enum, .enumCase(let text)):
      guard parameter.options.contains(text) else {
        throw FieldError(
          field, "must be one of " + parameter.options.map { "\"\($0)\"" }.joined(separator: ", "))
      }
      return .enumCase(text)
    case (.color, .color(let color)):
      for (index, component) in [color.r, color.g, color.b, color.a].enumerated() where !(0...1).contains(component) {
        throw FieldError("\(field)[\(index)]", "must be a number in [0, 1]")
      }
      return value
    case (.point, .point(let point)):
      try finite([("x", point.x), ("y", point.y)], field)
      return value
    case (.rect, .rect(let rect)):
      try finite([("x", rect.origin.x), ("y", rect.origin.y)], field)
      for (name, size) in [("width", rect.size.width), ("height", rect.size.height)] where !(size.isFinite && size >= 0)
      {
        throw FieldError(field + "." + name, "must be a finite number ≥ 0")
      }
      return value
    default:
      let declared = parameter.kind.engineType
      throw FieldError(
        field, "must be \(article(declared)) \(declared.rawValue), not \(article(value.type)) \(value.type.rawValue)")
    }
  }

  private static func finite(_ members: [(String, Double)], _ field: String) throws(FieldError) {
    for (name, number) in members where !number.isFinite {
      throw FieldError(field + "." + name, "must be a finite number")
    }
  }

  /// A bound as JSON writes it (`10`, `0.5`), or `-inf` / `inf` for none.
  private static func bound(_ value: Double) -> String {
    value.isInfinite ? (value < 0 ? "-inf" : "inf") : JSON.number(value).serialized()
  }

  private static func article(_ type: ParameterType) -> String {
    type == .enum ? "an" : "a"
  }
}
