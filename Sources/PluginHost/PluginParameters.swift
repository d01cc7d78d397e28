import TransitionEngine

// Declared parameters in the engine's terms. Checking a transition's values against the declarations is the
// transition service's job (its ParameterValidator, the one set of rules); here is only what the declaration says.

extension PluginParameter.Kind {
  /// The engine type of a declared parameter kind.
  package var engineType: ParameterType {
    switch self {
    case .number: .number
    case .bool: .bool
    case .enum: .enum
    case .color: .color
    case .string: .string
    case .point: .point
    case .rect: .rect
    }
  }
}

extension PluginParameter {
  /// The declared default as an engine value (an enum's default as `.enumCase`).
  package var defaultEngineValue: ParameterValue {
    switch defaultValue {
    case .number(let v): .number(v)
    case .bool(let v): .bool(v)
    case .string(let v): kind == .enum ? .enumCase(v) : .string(v)
    case .color(let r, let g, let b, let a): .color(Color(r: r, g: g, b: b, a: a))
    case .point(let x, let y): .point(Point(x: x, y: y))
    case .rect(let x, let y, let w, let h): .rect(Rect(x: x, y: y, width: w, height: h))
    }
  }
}

extension AnimatorInfo {
  /// The values an animator reads: every declared parameter, at the transition's value where it has one (the
  /// service validated it), else at its default.
  package func parameterValues(_ given: [String: ParameterValue]) -> [String: ParameterValue] {
    var values: [String: ParameterValue] = [:]
    for parameter in params { values[parameter.name] = given[parameter.name] ?? parameter.defaultEngineValue }
    return values
  }
}
