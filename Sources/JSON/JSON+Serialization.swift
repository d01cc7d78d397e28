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
      // The digits json-c's "%" PRId64 prints (JSONTests check them against json-c), without a String.
      let value = json_object_get_int64(node)
      buffer.appendJSONText(maxBytes: 20) { $0.integer(value) }
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

/// Writes strings as json-c serializes them, through one reused json-c string object: no object, String or print
/// buffer is made per string (what `JSON(string).appendSerialized(to:)` would cost), and every byte still comes
/// from json-c's own escaping. For the error replies' hot path (an error's message and its data's strings).
///
/// - Important: Not thread-safe; one per thread or owner (the dispatcher has one).
package final class JSONStringEncoder {
  private let object: OpaquePointer

  package init() {
    guard let object = json_object_new_string_len("", 0) else {
      fatalError("json_object_new_string_len: out of memory")
    }
    self.object = object
  }

  deinit {
    json_object_put(object)
  }

  /// Appends `string` with its quotes, escaped by json-c (as `JSON(string).appendSerialized(to:)` would).
  package func append(_ string: String, to buffer: inout [UInt8]) {
    var string = string
    string.withUTF8 { append(UnsafeRawBufferPointer($0), to: &buffer) }
  }

  private func append(_ utf8: UnsafeRawBufferPointer, to buffer: inout [UInt8]) {
    precondition(utf8.count < Int(Int32.max), "string too long for json-c")
    if let base = utf8.baseAddress, !utf8.isEmpty {
      json_object_set_string_len(object, base.assumingMemoryBound(to: CChar.self), Int32(utf8.count))
    } else {
      json_object_set_string_len(object, "", 0)
    }
    var length = 0
    let text = json_object_to_json_string_length(object, JSON.outputFlags, &length)
    buffer.append(contentsOf: UnsafeRawBufferPointer(start: text, count: length))
  }
}
