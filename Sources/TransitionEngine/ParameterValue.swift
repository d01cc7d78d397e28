/// The type of an animator parameter, as the animator's metadata declares it (CONVENTIONS, "Protocol values").
package enum ParameterType: String, Hashable, Sendable, CaseIterable {
  case number
  case bool
  case `enum`
  case color
  case string
  case point
  case rect
}

/// One value of a transition's `params`: what the client chose for a parameter the animator declares.
///
/// The engine does not interpret these values; it hands them to the animator through the context. The protocol
/// layer converts them from JSON and checks them against the animator's metadata.
package enum ParameterValue: Equatable, Sendable {
  case number(Double)
  case bool(Bool)
  case string(String)
  case color(Color)
  case point(Point)
  case rect(Rect)
  /// One of the options an `enum` parameter lists.
  case enumCase(String)

  /// The declared type this value belongs to.
  package var type: ParameterType {
    switch self {
    case .number: .number
    case .bool: .bool
    case .string: .string
    case .color: .color
    case .point: .point
    case .rect: .rect
    case .enumCase: .enum
    }
  }

  /// The number, or nil for any other kind of value.
  package var numberValue: Double? {
    if case .number(let value) = self { return value }
    return nil
  }

  /// The boolean, or nil for any other kind of value.
  package var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// The text of a `string` or `enum` value, or nil for any other kind of value.
  package var stringValue: String? {
    switch self {
    case .string(let value), .enumCase(let value): value
    default: nil
    }
  }

  /// The colour, or nil for any other kind of value.
  package var colorValue: Color? {
    if case .color(let value) = self { return value }
    return nil
  }

  /// The point, or nil for any other kind of value.
  package var pointValue: Point? {
    if case .point(let value) = self { return value }
    return nil
  }

  /// The rectangle, or nil for any other kind of value.
  package var rectValue: Rect? {
    if case .rect(let value) = self { return value }
    return nil
  }
}
