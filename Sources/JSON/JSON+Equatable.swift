internal import CJSONC

/// Values compare by content: numbers of the same kind by value (`1 == 1`, `0.5 == 0.5`, `-0.0 == 0.0`),
/// but an integer never equals a double (`1 != 1.0`); strings by their bytes, and a string read with a lone
/// surrogate escape (which its bytes cannot hold) only a string read from the same text (`sourceText`);
/// arrays element by element; objects by their members regardless of order.
extension JSON: Equatable {
  package static func == (lhs: JSON, rhs: JSON) -> Bool {
    if lhs.node == rhs.node { return true }
    // json_object_equal compares types first, so int 1 and double 1.0 differ, as documented above.
    guard json_object_equal(lhs.node, rhs.node) != 0 else { return false }
    return haveSameSourceTexts(lhs, rhs)
  }

  /// Whether the strings of two trees json-c found equal also agree in `sourceText` (json-c compares decoded
  /// bytes, which hold U+FFFD for every lone surrogate escape).
  private static func haveSameSourceTexts(_ lhs: JSON, _ rhs: JSON) -> Bool {
    switch lhs.kind {
    case .string: lhs.sourceText == rhs.sourceText
    case .array: zip(lhs.elements, rhs.elements).allSatisfy { haveSameSourceTexts($0, $1) }
    case .object:
      lhs.members.allSatisfy { member in rhs[member.key].map { haveSameSourceTexts(member.value, $0) } ?? false }
    default: true
    }
  }
}

extension JSON: CustomStringConvertible, CustomDebugStringConvertible {
  /// The compact serialization, as `serialized()` returns it.
  package var description: String { serialized() }

  package var debugDescription: String { "JSON(\(serialized()))" }
}
