internal import CJSONC

/// Values compare by content: numbers of the same kind by value (`1 == 1`, `0.5 == 0.5`, `-0.0 == 0.0`),
/// but an integer never equals a double (`1 != 1.0`); strings by their bytes; arrays element by element;
/// objects by their members regardless of order.
extension JSON: Equatable {
  package static func == (lhs: JSON, rhs: JSON) -> Bool {
    if lhs.node == rhs.node { return true }
    // json_object_equal compares types first, so int 1 and double 1.0 differ, as documented above.
    return json_object_equal(lhs.node, rhs.node) != 0
  }
}

extension JSON: CustomStringConvertible, CustomDebugStringConvertible {
  /// The compact serialization, as `serialized()` returns it.
  package var description: String { serialized() }

  package var debugDescription: String { "JSON(\(serialized()))" }
}
