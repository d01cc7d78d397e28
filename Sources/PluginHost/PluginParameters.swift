import TransitionEngine

/// Why a transition's `params` do not fit the animator's metadata; `field` names the offending member
/// (`params.duration`), so the protocol layer answers -32602 with it.
package struct ParameterValidationError: Error, Equatable, Sendable, CustomStringConvertible {
  /// `params.<name>`.
  package var field: String
  /// What is wrong, e.g. "must be a number in [0, 10]".
  package var reason: String

  package init(field: String, reason: String) {
    self.field = field
    self.reason = reason
  }

  package var description: String { "\(field) \(reason)" }
}

/// Parameter values checked against, and completed from, an animator's metadata.
package enum PluginParameters {
  /// The engine type of a declared parameter kind.
  package static func type(of kind: PluginParameter.Kind) -> ParameterType {
    switch kind {
    case .number: .number
    case .bool: .bool
    case .enum: .enum
    case .color: .color
    case .string: .string
    case .point: .point
    case .rect: .rect
    }
  }

  /// A declared default as an engine value.
  package static func value(of value: PluginParameter.Value, kind: PluginParameter.Kind) -> ParameterValue {
    switch value {
    case .number(let v): .number(v)
    case .bool(let v): .bool(v)
    case .string(let v): kind == .enum ? .enumCase(v) : .string(v)
    case .color(let r, let g, let b, let a): .color(Color(r: r, g: g, b: b, a: a))
    case .point(let x, let y): .point(Point(x: x, y: y))
    case .rect(let x, let y, let w, let h): .rect(Rect(x: x, y: y, width: w, height: h))
    }
  }

  /// Checks `params` against the animator's declared parameters and returns the complete set: every declared
  /// parameter, with its default where `params` has none; enum values as `.enumCase` (a plain `.string` is
  /// accepted for an enum). Rules: no undeclared names; each value of its declared type; numbers finite and
  /// within [min, max]; enum values among the options; colour components in [0, 1]; points and rects finite,
  /// rect sizes ≥ 0.
  ///
  /// - Throws: the first offending member, by name order.
  package static func validate(
    _ params: [String: ParameterValue], against animator: AnimatorInfo
  ) throws(ParameterValidationError) -> [String: ParameterValue] {
    var result: [String: ParameterValue] = [:]
    for name in params.keys.sorted() where !animator.params.contains(where: { $0.name == name }) {
      let declared = animator.params.map(\.name)
      throw ParameterValidationError(
        field: "params.\(name)",
        reason: declared.isEmpty
          ? "is not a parameter of \(animator.id) (it has none)"
          : "is not a parameter of \(animator.id) (it has \(declared.joined(separator: ", ")))")
    }
    for param in animator.params {
      guard let given = params[param.name] else {
        result[param.name] = value(of: param.defaultValue, kind: param.kind)
        continue
      }
      result[param.name] = try check(given, param)
    }
    return result
  }

  private static func check(_ value: ParameterValue, _ param: PluginParameter) throws(ParameterValidationError)
    -> ParameterValue
  {
    func fail(_ reason: String) -> ParameterValidationError {
      ParameterValidationError(field: "params.\(param.name)", reason: reason)
    }
    switch (param.kind, value) {
    case (.number, .number(let v)):
      let low = param.minimum ?? -.infinity
      let high = param.maximum ?? .infinity
      guard v.isFinite, v >= low, v <= high else {
        throw fail("must be a finite number in [\(bound(low)), \(bound(high))]")
      }
      return value
    case (.bool, .bool):
      return value
    case (.string, .string):
      return value
    case (.enum, .string(let v)), (.enum, .enumCase(let v)):
      guard param.options.contains(v) else {
        throw fail("must be one of \(param.options.map { "\"\($0)\"" }.joined(separator: ", "))")
      }
      return .enumCase(v)
    case (.color, .color(let c)):
      guard [c.r, c.g, c.b, c.a].allSatisfy({ $0 >= 0 && $0 <= 1 }) else {
        throw fail("must be a colour [r, g, b, a] with every component in [0, 1]")
      }
      return value
    case (.point, .point(let p)):
      guard p.x.isFinite, p.y.isFinite else { throw fail("must be a point with finite x and y") }
      return value
    case (.rect, .rect(let r)):
      guard [r.origin.x, r.origin.y, r.size.width, r.size.height].allSatisfy(\.isFinite), r.size.width >= 0,
        r.size.height >= 0
      else { throw fail("must be a finite rect with width and height ≥ 0") }
      return value
    default:
      throw fail(
        "must be \(article(param.kind)) \(param.kind.rawValue), not \(article(value.type)) \(value.type.rawValue)")
    }
  }

  private static func bound(_ v: Double) -> String {
    v == .infinity ? "inf" : v == -.infinity ? "-inf" : "\(v)"
  }

  private static func article(_ kind: PluginParameter.Kind) -> String {
    kind == .enum ? "an" : "a"
  }

  private static func article(_ type: ParameterType) -> String {
    type == .enum ? "an" : "a"
  }

  /// The values an animator reads: the declared defaults overlaid with the given values that fit their
  /// declaration (`validate` is the gate; a value that slipped past it is replaced by the default).
  static func effectiveValues(_ params: [String: ParameterValue], for animator: AnimatorInfo) -> [String:
    ParameterValue]
  {
    var result: [String: ParameterValue] = [:]
    for param in animator.params {
      if let given = params[param.name], let checked = try? check(given, param) {
        result[param.name] = checked
      } else {
        result[param.name] = value(of: param.defaultValue, kind: param.kind)
      }
    }
    return result
  }
}

/// Checks a transition's `params` against an animator's metadata and completes them with defaults (see
/// `PluginParameters.validate(_:against:)`).
///
/// - Throws: `ParameterValidationError` naming the member (`params.<name>`), for the protocol's -32602.
package func validateParams(
  _ params: [String: ParameterValue], against animator: AnimatorInfo
) throws(ParameterValidationError) -> [String: ParameterValue] {
  try PluginParameters.validate(params, against: animator)
}
