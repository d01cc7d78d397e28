// Writing JSON text straight into a byte buffer: the frame encoder's hot path. Frames are mostly numbers, and
// building a json-c object per number costs an allocation and a formatting pass each; appending the shortest digits
// to one reused buffer does not.

import JSON

/// Appends JSON tokens to a reused byte buffer.
///
/// Numbers are written with the shortest digits that read back as the same double: whole values within ±2^53 as
/// integers (`320`, not `320.0`; negative zero as `0`), anything else as Swift's `description`, which is the
/// shortest round-trip form (`0.1`, `0.30000000000000004`, `1e-07`). Never `%.17g` padding.
struct JSONBytes {
  /// The text written so far.
  var bytes: [UInt8] = []

  init(capacity: Int = 0) {
    bytes.reserveCapacity(capacity)
  }

  /// Forgets the text but keeps the storage.
  mutating func reset() {
    bytes.removeAll(keepingCapacity: true)
  }

  @inline(__always)
  mutating func raw(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  @inline(__always)
  mutating func byte(_ value: UInt8) {
    bytes.append(value)
  }

  /// `"key":` (the key must need no escaping: a literal of the protocol).
  @inline(__always)
  mutating func key(_ name: StaticString) {
    bytes.append(UInt8(ascii: "\""))
    name.withUTF8Buffer { bytes.append(contentsOf: $0) }
    bytes.append(UInt8(ascii: "\""))
    bytes.append(UInt8(ascii: ":"))
  }

  /// `,"key":`.
  @inline(__always)
  mutating func nextKey(_ name: StaticString) {
    bytes.append(UInt8(ascii: ","))
    key(name)
  }

  mutating func bool(_ value: Bool) {
    if value { raw("true") } else { raw("false") }
  }

  mutating func null() {
    raw("null")
  }

  /// A finite number in its shortest form; a non-finite one (which the engine never presents) as `null`.
  mutating func number(_ value: Double) {
    guard value.isFinite else {
      null()
      return
    }
    if value == value.rounded(.towardZero), abs(value) <= 9_007_199_254_740_992 {
      integer(Int64(value))
      return
    }
    // Double's TextOutputStreamable conformance formats into a stack buffer and hands over ASCII bytes:
    // no String is made, so long fractions (0.30000000000000004) cost no allocation.
    var sink = ByteSink(bytes: bytes)
    bytes = []
    value.write(to: &sink)
    bytes = sink.bytes
  }

  mutating func integer(_ value: Int64) {
    if value == 0 {
      bytes.append(UInt8(ascii: "0"))
      return
    }
    var magnitude = value.magnitude
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    // At most 20 digits; written backwards into a small tuple-free buffer, then appended in order.
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
    var count = 0
    withUnsafeMutableBytes(of: &digits) { scratch in
      while magnitude > 0 {
        scratch[count] = UInt8(ascii: "0") &+ UInt8(magnitude % 10)
        magnitude /= 10
        count += 1
      }
      var index = count - 1
      while index >= 0 {
        bytes.append(scratch[index])
        index -= 1
      }
    }
  }

  /// A JSON string: `"`, `\` and control characters escaped, everything else (UTF-8) as is.
  mutating func string(_ value: String) {
    var value = value
    value.withUTF8 { utf8 in
      bytes.append(UInt8(ascii: "\""))
      var start = 0
      for index in 0..<utf8.count {
        let c = utf8[index]
        guard c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") else { continue }
        if start < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index])) }
        start = index + 1
        switch c {
        case UInt8(ascii: "\""): raw("\\\"")
        case UInt8(ascii: "\\"): raw("\\\\")
        case 0x0A: raw("\\n")
        case 0x0D: raw("\\r")
        case 0x09: raw("\\t")
        default:
          raw("\\u00")
          let hex: StaticString = "0123456789abcdef"
          hex.withUTF8Buffer { digits in
            bytes.append(digits[Int(c >> 4)])
            bytes.append(digits[Int(c & 0x0F)])
          }
        }
      }
      if start < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...])) }
      bytes.append(UInt8(ascii: "\""))
    }
  }

  /// A JSON value as json-c serializes it (compact).
  mutating func json(_ value: JSON) {
    value.appendSerialized(to: &bytes)
  }
}

/// A text stream appending UTF-8 to a byte array (what `Double.write(to:)` prints into).
private struct ByteSink: TextOutputStream {
  var bytes: [UInt8]

  mutating func write(_ string: String) {
    var string = string
    string.withUTF8 { bytes.append(contentsOf: $0) }
  }

  mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
    bytes.append(contentsOf: buffer)
  }
}
