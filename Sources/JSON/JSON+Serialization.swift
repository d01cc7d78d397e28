internal import CJSONC

extension JSON {
  /// json-c output flags: compact, and `/` left unescaped (json-c writes `\/` by default).
  static let outputFlags = Int32(JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

  /// The compact JSON text. Non-ASCII characters are written as UTF-8, control characters as `\u00XX`, so
  /// the text never contains a raw newline.
  package func serialized() -> String {
    withSerializedBytes { String(decoding: $0, as: UTF8.self) }
  }

  /// Appends the compact JSON text (as `serialized()`) to `buffer`.
  package func appendSerialized(to buffer: inout [UInt8]) {
    // Scalars without text of their own are written directly: json-c would allocate a print buffer
    // inside the object for them (ids and small results are mostly such scalars).
    switch json_object_get_type(node) {
    case json_type_null:
      buffer.append(contentsOf: "null".utf8)
    case json_type_boolean:
      buffer.append(contentsOf: (json_object_get_boolean(node) != 0 ? "true" : "false").utf8)
    case json_type_int:
      buffer.append(contentsOf: String(json_object_get_int64(node)).utf8)
    default:
      withSerializedBytes { buffer.append(contentsOf: $0) }
    }
  }

  /// Calls `body` with the compact JSON text, borrowed from json-c (valid only during the call).
  package func withSerializedBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    var length = 0
    // json-c keeps the text in a buffer inside the object until the next serialization or its release;
    // `self` (and so the owner) is alive for the whole call.
    let text = json_object_to_json_string_length(node, JSON.outputFlags, &length)
    return try withExtendedLifetime(self) { try body(UnsafeRawBufferPointer(start: text, count: length)) }
  }
}
