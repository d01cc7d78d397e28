// The one place where bytes from a worker reach the client unparsed: a frame, encoded in the worker and forwarded as
// it is (parsing 8 KB per frame again would cost what isolation must not). A plugin can write anything onto its
// worker's channel, well-formed channel messages included, so before forwarding the parent checks that the bytes can
// only be one `transition/frame` notification of that transition: the exact prefix the encoder writes for it (with the
// expected `seq`), then one complete JSON value whose `params` object closes just before the message does, without a
// raw control byte (so no newline can split it into two lines). A cheap scan of string, escape and nesting state, not
// a parse: it guarantees the framing, and the prefix guarantees what the message is.

import Glibc

/// Checks forwarded frames.
enum FrameCheck {
  private static let messageHead = Array(#"{"jsonrpc":"2.0","method":"transition/frame","params":{"transition":""#.utf8)
  private static let seqHead = Array(#"","seq":"#.utf8)

  /// `{"jsonrpc":"2.0","method":"transition/frame","params":{"transition":"<id>","seq":<seq>,`: how the frame
  /// encoder starts the message of frame `seq` of transition `id` (json-c keeps insertion order and writes no
  /// spaces).
  static func prefix(transition id: String, seq: Int) -> [UInt8] {
    messageHead + Array(id.utf8) + seqHead + Array(String(seq).utf8) + [UInt8(ascii: ",")]
  }

  /// Why `bytes` is not frame `seq` of transition `id`'s notification; nil when it is.
  static func problem(_ bytes: UnsafeRawBufferPointer, transition id: String, seq: Int) -> String? {
    // The prefix compared in place, part by part (no array made per frame).
    var offset = 0
    func take(_ part: UnsafeRawBufferPointer) -> Bool {
      guard bytes.count - offset >= part.count, memcmp(bytes.baseAddress! + offset, part.baseAddress!, part.count) == 0
      else { return false }
      offset += part.count
      return true
    }
    var id = id
    let matches =
      !bytes.isEmpty && messageHead.withUnsafeBytes(take) && id.withUTF8 { take(UnsafeRawBufferPointer($0)) }
      && seqHead.withUnsafeBytes(take) && takeDecimal(seq, in: bytes, at: &offset)
      && offset < bytes.count && bytes[offset] == UInt8(ascii: ",")
    guard matches, bytes.count > offset + 3 else {
      return "a frame that does not start as the next frame of its transition"
    }
    return scan(bytes, from: offset + 1)
  }

  /// Whether the bytes at `offset` start with `value` in decimal (as `String(value)` writes it); moves `offset` past
  /// them.
  private static func takeDecimal(_ value: Int, in bytes: UnsafeRawBufferPointer, at offset: inout Int) -> Bool {
    guard value >= 0 else { return false }
    var digits = 1
    var power = 1
    while value / power >= 10 {
      power *= 10
      digits += 1
    }
    guard bytes.count - offset >= digits else { return false }
    var rest = value
    for index in 0..<digits {
      let digit = rest / power
      guard bytes[offset + index] == UInt8(ascii: "0") + UInt8(digit) else { return false }
      rest -= digit * power
      power /= 10
    }
    offset += digits
    return true
  }

  /// Why `bytes` is not one frame object of transition `id` (a `transition/sample` result: `{"transition":"<id>",…}`),
  /// or nil: the encoder's prefix, then the same scan.
  static func objectProblem(_ bytes: UnsafeRawBufferPointer, transition id: String) -> String? {
    let prefix = Array(#"{"transition":""#.utf8) + Array(id.utf8) + Array(#"","#.utf8)
    guard bytes.count > prefix.count + 1, prefix.withUnsafeBytes({ bytes.starts(with: $0) }) else {
      return "a frame object that does not start as one of its transition"
    }
    return scan(bytes, from: prefix.count, depth: 1, closingFirst: false)
  }

  /// Why `bytes` is not one JSON array (the `views` of a frame), or nil: the same scan, from the outside.
  static func arrayProblem(_ bytes: UnsafeRawBufferPointer) -> String? {
    guard bytes.first == UInt8(ascii: "[") else { return "not an array" }
    var stack = BracketStack()
    stack.push(object: false)
    return scan(bytes, from: 1, stack: stack, closingFirst: false)
  }

  /// Open brackets, innermost last: the first 64 levels as bits of one word (1 for an object), deeper ones in an
  /// array (a client's `content` may nest deeply; a frame's own members nest a few levels).
  struct BracketStack {
    private var word: UInt64 = 0
    private var deeper: [Bool] = []
    private(set) var depth = 0

    mutating func push(object: Bool) {
      if depth < 64 {
        if object { word |= 1 << UInt64(depth) } else { word &= ~(1 << UInt64(depth)) }
      } else {
        deeper.append(object)
      }
      depth += 1
    }

    /// Whether the innermost open bracket was an object's; nil when none is open.
    mutating func pop() -> Bool? {
      guard depth > 0 else { return nil }
      depth -= 1
      return depth < 64 ? word & (1 << UInt64(depth)) != 0 : deeper.removeLast()
    }
  }

  /// Scans from `start`, inside `depth` objects (the message object and its `params` object): nil when the rest is
  /// well nested, holds no raw control byte and ends with `params` closing and then the message.
  static func scan(_ bytes: UnsafeRawBufferPointer, from start: Int, depth: Int = 2, closingFirst: Bool = true)
    -> String?
  {
    var stack = BracketStack()
    for _ in 0..<depth { stack.push(object: true) }
    return scan(bytes, from: start, stack: stack, closingFirst: closingFirst)
  }

  /// The scan: bytes that cannot change the state (everything but control bytes, quotes, backslashes in strings and
  /// brackets outside them) are skipped by a tight loop each, which is most of a frame's bytes.
  private static func scan(
    _ bytes: UnsafeRawBufferPointer, from start: Int, stack initial: BracketStack, closingFirst: Bool
  ) -> String? {
    let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
    var stack = initial
    var index = start
    let count = bytes.count
    while index < count {
      var byte = bytes[index]
      // Outside strings: `[` and `{` are 0x5B and 0x7B, `]` and `}` 0x5D and 0x7D.
      while byte >= 0x20 && byte != quote && byte | 0x20 != 0x7B && byte | 0x20 != 0x7D {
        index += 1
        guard index < count else { return "a frame that ends before its last bracket" }
        byte = bytes[index]
      }
      if byte < 0x20 { return "a frame with a raw control byte (\(byte)) at byte \(index)" }
      if byte == quote {
        // A string: to its closing quote, an escape taking the byte after it.
        index += 1
        while true {
          guard index < count else { return "a frame that ends before its last bracket" }
          let inner = bytes[index]
          if inner < 0x20 { return "a frame with a raw control byte (\(inner)) at byte \(index)" }
          if inner == quote { break }
          if inner == backslash {
            // The escaped byte is the string's too: it may be a quote, never a control byte.
            index += 1
            guard index < count else { return "a frame that ends before its last bracket" }
            if bytes[index] < 0x20 { return "a frame with a raw control byte (\(bytes[index])) at byte \(index)" }
          }
          index += 1
        }
      } else if byte | 0x20 == 0x7B {
        stack.push(object: byte == 0x7B)
      } else {
        guard let isObject = stack.pop(), isObject == (byte == 0x7D) else {
          return "a frame whose brackets do not match at byte \(index)"
        }
        if closingFirst && stack.depth == 1 && index != count - 2 {
          return "a frame whose params end at byte \(index), early"
        }
        if stack.depth == 0 { return index == count - 1 ? nil : "bytes after the end of a frame" }
      }
      index += 1
    }
    return "a frame that ends before its last bracket"
  }
}
