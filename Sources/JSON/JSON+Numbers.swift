// Number text for output: the shortest digits that read back as the same double, formatted on the stack. Frames
// are mostly numbers, so this is the hot path of the host's output; a String per number would dominate it.

internal import CJSONC

extension JSON {
  /// A number as the host prints computed values: a whole value within ±2^53 as an integer (`320`, not `320.0`;
  /// negative zero as `0`), any other finite value as a double with the shortest digits that read back as the
  /// same value (Swift's `description`: `0.1`, `0.30000000000000004`, `1e-07`), never `%.17g` padding. NaN and
  /// infinity, which JSON cannot hold, become `null`.
  package static func number(_ value: Double) -> JSON {
    JSON(adopting: NumberText.newObject(value))
  }
}

/// Formats doubles for output (see `JSON.number(_:)` for the rules).
enum NumberText {
  /// Whether `value` prints as an integer (the rule `JSONTextCursor.number(_:)` follows too).
  @inline(__always)
  static func isInteger(_ value: Double) -> Bool {
    JSONTextCursor.printsAsInteger(value)
  }

  /// A new json-c number for `value`: an integer, a double carrying its shortest text, or nil (JSON null) when
  /// `value` is not finite.
  @inline(__always)
  static func newObject(_ value: Double) -> OpaquePointer? {
    guard value.isFinite else { return nil }
    if isInteger(value) { return json_object_new_int64(Int64(value)) }
    return Digits.with { digits in
      value.write(to: &digits)
      // json-c copies the text and prints it verbatim whenever the value is serialized.
      return digits.withCString { json_object_new_double_s(value, $0) }
    }
  }
}

/// ASCII text in a small stack buffer that a `Double` prints into (its shortest form has at most 24 bytes).
///
/// `Double.write(to:)` formats into a stack buffer of its own and hands the bytes over in one `_writeASCII`
/// call, so no String is made; `write(_:)` is there for a standard library that does otherwise.
struct Digits: TextOutputStream {
  private static let capacity = 40
  private let storage: UnsafeMutableBufferPointer<UInt8>
  private var count = 0

  private init(storage: UnsafeMutableBufferPointer<UInt8>) {
    self.storage = storage
  }

  /// Calls `body` with empty digits on the stack.
  static func with<R>(_ body: (inout Digits) throws -> R) rethrows -> R {
    try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { storage in
      var digits = Digits(storage: storage)
      return try body(&digits)
    }
  }

  mutating func write(_ string: String) {
    var string = string
    string.withUTF8 { append($0) }
  }

  mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
    append(buffer)
  }

  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    // One byte stays free for withCString's terminator.
    precondition(count + bytes.count < Digits.capacity, "number text longer than any double's")
    for byte in bytes {
      storage[count] = byte
      count += 1
    }
  }

  /// The text so far, NUL-terminated (borrowed during the call).
  mutating func withCString<R>(_ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
    storage[count] = 0
    return try storage.baseAddress!.withMemoryRebound(to: CChar.self, capacity: count + 1) { try body($0) }
  }
}
