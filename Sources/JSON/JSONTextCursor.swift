// JSON text written straight into a byte buffer, byte for byte as json-c serializes the same values: compact, `/`
// unescaped, strings escaped as json-c's `json_escape_str` escapes them, numbers as `JSON.number` prints them. It is
// for the one hot path that may skip json-c's trees (frames, CONVENTIONS: "frames may be written by a dedicated
// encoder proven equal to json-c's output"); JSONTests check every rule against json-c itself, and the frame
// encoder's tests check whole frames.

// The cursor is public (not package, like the rest of the module) only so that its small methods can be
// `@inlinable`: a package declaration cannot be, and a frame calls them some 120 times per view.

extension Array where Element == UInt8 {
  /// Appends the JSON text `write` produces through a cursor that may write at most `maxBytes` bytes.
  ///
  /// The bytes go straight into the array's storage (it grows once, if at all); only what `write` wrote is kept.
  /// Writing past `maxBytes` stops the program (each cursor call checks its room before it writes).
  @inlinable
  public mutating func appendJSONText(maxBytes: Int, _ write: (inout JSONTextCursor) -> Void) {
    append(addingCapacity: maxBytes) { span in
      span.withUnsafeMutableBufferPointer { buffer, initialized in
        var cursor = JSONTextCursor(start: buffer.baseAddress! + initialized, capacity: buffer.count - initialized)
        write(&cursor)
        initialized += cursor.count
      }
    }
  }
}

extension Array where Element == UInt8 {
  /// Appends the bytes of a literal (JSON punctuation and keys) with one copy, not element by element.
  @inlinable
  public mutating func append(literal text: StaticString) {
    append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }
}

/// Writes JSON tokens into memory reserved by `Array.appendJSONText(maxBytes:_:)`.
///
/// Each call checks that its largest possible text fits before it writes (`maxNumberBytes` for a number,
/// `maxStringBytes(_:)` for a string), so a caller's bound that is too small traps instead of writing past the
/// reservation.
public struct JSONTextCursor: TextOutputStream {
  /// The most bytes a number takes: `-1.7976931348623157e+308` (24).
  public static let maxNumberBytes = 24
  /// 2^53: beyond it not every whole value is a double, so whole values print as integers only up to here.
  @usableFromInline static let largestExactInteger = 9_007_199_254_740_992.0

  /// Whether `number(_:)` (and `JSON.number(_:)`) prints `value` as an integer: whole and within ±2^53.
  @inlinable
  public static func printsAsInteger(_ value: Double) -> Bool {
    // The conversion truncates toward zero, as `rounded(.towardZero)` would, without its libm call (`trunc`); the
    // magnitude test comes first, so it never traps (and NaN fails it).
    abs(value) <= largestExactInteger && Double(Int64(value)) == value
  }

  @usableFromInline let start: UnsafeMutablePointer<UInt8>
  @usableFromInline let end: UnsafeMutablePointer<UInt8>
  @usableFromInline var next: UnsafeMutablePointer<UInt8>

  @inlinable
  init(start: UnsafeMutablePointer<UInt8>, capacity: Int) {
    self.start = start
    self.end = start + capacity
    self.next = start
  }

  /// The bytes written so far.
  @inlinable public var count: Int { next - start }

  /// The bytes written from `offset` on (borrowed: valid until the cursor writes again), to keep a copy of a part.
  @inlinable
  public func written(from offset: Int) -> UnsafeRawBufferPointer {
    precondition(offset >= 0 && offset <= count, "an offset past the written text")
    return UnsafeRawBufferPointer(start: start + offset, count: count - offset)
  }

  /// Drops what was written after the first `count` bytes (an entry that turned out to be empty).
  @inlinable
  public mutating func rewind(to count: Int) {
    precondition(count >= 0 && count <= self.count, "rewinding past the written text")
    next = start + count
  }

  /// The most bytes a string of `utf8Count` bytes takes, quotes included (every byte may become `\u00XX`).
  @inlinable
  public static func maxStringBytes(_ utf8Count: Int) -> Int { 6 * utf8Count + 2 }

  @inlinable @inline(__always)
  func ensureRoom(_ bytes: Int) {
    precondition(end - next >= bytes, "JSON text longer than the room reserved for it")
  }

  // MARK: Punctuation and literal text

  /// Writes one ASCII byte (`{`, `,`, …).
  @inlinable @inline(__always)
  public mutating func byte(_ byte: UInt8) {
    ensureRoom(1)
    next.pointee = byte
    next += 1
  }

  /// Writes literal JSON text as it is (keys with their quotes and colon, punctuation): the caller's text must
  /// already be JSON.
  @inlinable @inline(__always)
  public mutating func raw(_ text: StaticString) {
    let count = text.utf8CodeUnitCount
    ensureRoom(count)
    // Copied byte by byte: the count of a literal is a constant once inlined, so this becomes a few moves, where
    // `update(from:count:)` called libc's memmove for every key of every entry (about 50,000 calls a frame of 1,000
    // layers).
    let source = text.utf8Start
    for index in 0..<count { next[index] = source[index] }
    next += count
  }

  /// Writes bytes that already are JSON text (a value serialized earlier).
  @inlinable
  public mutating func raw(_ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
    ensureRoom(bytes.count)
    UnsafeMutableRawPointer(next).copyMemory(from: base, byteCount: bytes.count)
    next += bytes.count
  }

  /// `true` or `false`.
  @inlinable @inline(__always)
  public mutating func bool(_ value: Bool) {
    if value { raw("true") } else { raw("false") }
  }

  /// `null`.
  @inlinable @inline(__always)
  public mutating func null() { raw("null") }

  // MARK: Numbers

  /// An integer, as json-c prints an int64 (`%lld`).
  @inlinable
  public mutating func integer(_ value: Int) { integer(Int64(value)) }

  /// An integer, as json-c prints an int64 (`%lld`).
  @inlinable
  public mutating func integer(_ value: Int64) {
    ensureRoom(20)
    // The magnitude as UInt64, so Int64.min has one too.
    var magnitude = value.magnitude
    if value < 0 {
      next.pointee = UInt8(ascii: "-")
      next += 1
    }
    if magnitude < 10 {
      next.pointee = UInt8(truncatingIfNeeded: magnitude) &+ UInt8(ascii: "0")
      next += 1
      return
    }
    var digits = 2
    var limit: UInt64 = 100
    while digits < 20 && magnitude >= limit {
      digits += 1
      limit &*= 10
    }
    var position = next + digits
    next = position
    // Two digits per division, from a table of "00" … "99".
    while magnitude >= 100 {
      let pair = Int(magnitude % 100) &* 2
      magnitude /= 100
      position -= 2
      Self.digitPairs.withUTF8Buffer { table in
        position[0] = table[pair]
        position[1] = table[pair &+ 1]
      }
    }
    if magnitude >= 10 {
      let pair = Int(magnitude) &* 2
      position -= 2
      Self.digitPairs.withUTF8Buffer { table in
        position[0] = table[pair]
        position[1] = table[pair &+ 1]
      }
    } else {
      position -= 1
      position.pointee = UInt8(truncatingIfNeeded: magnitude) &+ UInt8(ascii: "0")
    }
  }

  @usableFromInline static let digitPairs: StaticString = """
    00010203040506070809101112131415161718192021222324252627282930313233343536373839\
    40414243444546474849505152535455565758596061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899
    """

  /// A computed number as `JSON.number(_:)` prints it: a whole value within ±2^53 as an integer (negative zero as
  /// `0`), any other finite value with the shortest digits that read back as the same double, spelled as Swift's
  /// `description` spells them (`0.1`, `1e-07`), NaN and infinity as `null`. The digits are this module's own
  /// (`ShortestDigits`, proven equal to `description` by ShortestDigitsTests), not the standard library's formatter.
  @inlinable
  public mutating func number(_ value: Double) {
    guard value.isFinite else { return null() }
    if Self.printsAsInteger(value) {
      integer(Int64(value))
    } else {
      ensureRoom(Self.maxNumberBytes)
      next += ShortestDigits.writeFraction(value, to: next)
    }
  }

  /// Receives text from a standard library formatter (`TextOutputStream`).
  @inlinable
  public mutating func write(_ string: String) {
    var string = string
    string.withUTF8 { raw(UnsafeRawBufferPointer($0)) }
  }

  /// Receives the digits of `Double.write(to:)` (`TextOutputStream`).
  @inlinable
  public mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
    raw(UnsafeRawBufferPointer(buffer))
  }

  // MARK: Strings

  /// A string with its quotes, escaped as json-c escapes it with `JSON_C_TO_STRING_NOSLASHESCAPE`: `"` and `\`
  /// with a backslash; backspace, tab, newline, form feed and carriage return as `\b`, `\t`, `\n`, `\f`, `\r`; every
  /// other byte below 0x20 (NUL included) as `\u00xx` with lowercase hex digits; everything else (`/`, DEL, UTF-8
  /// sequences) as it is.
  @inlinable
  public mutating func string(_ value: String) {
    var value = value
    value.withUTF8 { string(utf8: $0) }
  }

  /// A string given as its UTF-8 bytes; see `string(_:)`.
  @inlinable
  public mutating func string(utf8 bytes: UnsafeBufferPointer<UInt8>) {
    ensureRoom(Self.maxStringBytes(bytes.count))
    next.pointee = UInt8(ascii: "\"")
    next += 1
    guard let base = bytes.baseAddress else {
      next.pointee = UInt8(ascii: "\"")
      next += 1
      return
    }
    // Runs of bytes that need no escape are copied whole.
    var runStart = 0
    for index in 0..<bytes.count {
      let byte = base[index]
      guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
      let run = index - runStart
      next.update(from: base + runStart, count: run)
      next += run
      runStart = index + 1
      next.pointee = UInt8(ascii: "\\")
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"): next[1] = byte
      case 0x08: next[1] = UInt8(ascii: "b")
      case 0x09: next[1] = UInt8(ascii: "t")
      case 0x0A: next[1] = UInt8(ascii: "n")
      case 0x0C: next[1] = UInt8(ascii: "f")
      case 0x0D: next[1] = UInt8(ascii: "r")
      default:
        next[1] = UInt8(ascii: "u")
        next[2] = UInt8(ascii: "0")
        next[3] = UInt8(ascii: "0")
        next[4] = Self.hexDigit(byte >> 4)
        next[5] = Self.hexDigit(byte & 0x0F)
        next += 4
      }
      next += 2
    }
    let run = bytes.count - runStart
    next.update(from: base + runStart, count: run)
    next += run
    next.pointee = UInt8(ascii: "\"")
    next += 1
  }

  @inlinable
  static func hexDigit(_ nibble: UInt8) -> UInt8 {
    nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
  }
}
