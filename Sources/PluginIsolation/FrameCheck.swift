// The one place where bytes from a worker reach the client unparsed: a frame, encoded in the worker and forwarded as
// it is (parsing 8 KB per frame again would cost what isolation must not). A plugin can write anything onto its
// worker's channel, well-formed channel messages included, so before forwarding the parent checks that the bytes can
// only be one `transition/frame` notification of that transition: the exact prefix the encoder writes for it (with the
// expected `seq`), then one complete JSON value whose `params` object closes just before the message does, without a
// raw control byte (so no newline can split it into two lines). A cheap scan of string, escape and nesting state, not
// a parse: it guarantees the framing, and the prefix guarantees what the message is.

/// Checks forwarded frames.
enum FrameCheck {
  /// `{"jsonrpc":"2.0","method":"transition/frame","params":{"transition":"<id>","seq":<seq>,`: how the frame
  /// encoder starts the message of frame `seq` of transition `id` (json-c keeps insertion order and writes no
  /// spaces).
  static func prefix(transition id: String, seq: Int) -> [UInt8] {
    Array(#"{"jsonrpc":"2.0","method":"transition/frame","params":{"transition":""#.utf8) + Array(id.utf8)
      + Array(#"","seq":"#.utf8) + Array(String(seq).utf8) + [UInt8(ascii: ",")]
  }

  /// Why `bytes` is not frame `seq` of transition `id`'s notification; nil when it is.
  static func problem(_ bytes: UnsafeRawBufferPointer, transition id: String, seq: Int) -> String? {
    let prefix = prefix(transition: id, seq: seq)
    guard bytes.count > prefix.count + 2, prefix.withUnsafeBytes({ bytes.starts(with: $0) }) else {
      return "a frame that does not start as the next frame of its transition"
    }
    return scan(bytes, from: prefix.count)
  }

  /// Why `bytes` is not one frame object of transition `id` (a `transition/sample` result: `{"transition":"<id>",…}`),
  /// or nil: the encoder's prefix, then the same scan.
  static func objectProblem(_ bytes: UnsafeRawBufferPointer, transition id: String) -> String? {
    let prefix = Array(#"{"transition":""#.utf8) + Array(id.utf8) + Array(#"","#.utf8)
    guard bytes.count > prefix.count + 1, prefix.withUnsafeBytes({ bytes.starts(with: $0) }) else {
      return "a frame object that does not start as one of its transition"
    }
    return scan(bytes, from: prefix.count, open: [UInt8(ascii: "{")], closingFirst: false)
  }

  /// Why `bytes` is not one JSON array (the `views` of a frame), or nil: the same scan, from the outside.
  static func arrayProblem(_ bytes: UnsafeRawBufferPointer) -> String? {
    guard bytes.first == UInt8(ascii: "[") else { return "not an array" }
    return scan(bytes, from: 1, open: [UInt8(ascii: "[")], closingFirst: false)
  }

  /// Scans from `start`, inside the message object and its `params` object: nil when the rest is well nested, holds
  /// no raw control byte and ends with `params` closing and then the message.
  static func scan(
    _ bytes: UnsafeRawBufferPointer, from start: Int,
    open initial: [UInt8] = [UInt8(ascii: "{"), UInt8(ascii: "{")], closingFirst: Bool = true
  ) -> String? {
    let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
    let openObject = UInt8(ascii: "{"), closeObject = UInt8(ascii: "}")
    let openArray = UInt8(ascii: "["), closeArray = UInt8(ascii: "]")
    var open = initial
    var inString = false
    var escaped = false
    var index = start
    let count = bytes.count
    while index < count {
      let byte = bytes[index]
      if byte < 0x20 { return "a frame with a raw control byte (\(byte)) at byte \(index)" }
      if inString {
        if escaped {
          escaped = false
        } else if byte == backslash {
          escaped = true
        } else if byte == quote {
          inString = false
        }
      } else {
        switch byte {
        case quote: inString = true
        case openObject, openArray: open.append(byte)
        case closeObject, closeArray:
          guard let top = open.popLast(), top == (byte == closeObject ? openObject : openArray) else {
            return "a frame whose brackets do not match at byte \(index)"
          }
          if closingFirst && open.count == 1 && index != count - 2 {
            return "a frame whose params end at byte \(index), early"
          }
          if open.isEmpty { return index == count - 1 ? nil : "bytes after the end of a frame" }
        default: break
        }
      }
      index += 1
    }
    return "a frame that ends before its last bracket"
  }
}
