internal import CJSONC

#if canImport(Glibc)
  import Glibc
#endif

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
  /// bytes, which hold U+FFFD for every lone surrogate escape). Walks json-c's objects directly: no Swift copy of a
  /// key or a value is made.
  private static func haveSameSourceTexts(_ lhs: JSON, _ rhs: JSON) -> Bool {
    sameSourceTexts(lhs.node, rhs.node)
  }

  private static func sameSourceTexts(_ lhs: OpaquePointer?, _ rhs: OpaquePointer?) -> Bool {
    switch json_object_get_type(lhs) {
    case json_type_string:
      let left = json_object_get_userdata(lhs)
      let right = json_object_get_userdata(rhs)
      guard let left, let right else { return left == nil && right == nil }
      return strcmp(left.assumingMemoryBound(to: CChar.self), right.assumingMemoryBound(to: CChar.self)) == 0
    case json_type_array:
      for index in 0..<json_object_array_length(lhs)
      where !sameSourceTexts(json_object_array_get_idx(lhs, index), json_object_array_get_idx(rhs, index)) {
        return false
      }
      return true
    case json_type_object:
      var iterator = json_object_iter_begin(lhs)
      var end = json_object_iter_end(lhs)
      while json_object_iter_equal(&iterator, &end) == 0 {
        var other: OpaquePointer?
        guard json_object_object_get_ex(rhs, json_object_iter_peek_name(&iterator), &other) != 0,
          sameSourceTexts(json_object_iter_peek_value(&iterator), other)
        else { return false }
        json_object_iter_next(&iterator)
      }
      return true
    default:
      return true
    }
  }
}

extension JSON: CustomStringConvertible, CustomDebugStringConvertible {
  /// The compact serialization, as `serialized()` returns it.
  package var description: String { serialized() }

  package var debugDescription: String { "JSON(\(serialized()))" }
}
