internal import CJSONC
import Glibc

/// Why a text was not accepted as JSON.
package struct JSONParseError: Error, Equatable, CustomStringConvertible {
  /// The byte offset in the input at which the problem was found.
  package var offset: Int
  /// What is wrong, in json-c's words when json-c found it ("unexpected character", "nesting too deep",
  /// "invalid utf-8 string"), otherwise in the same style ("trailing data", "NaN and Infinity are not JSON").
  package var reason: String

  package init(offset: Int, reason: String) {
    self.offset = offset
    self.reason = reason
  }

  package var description: String { "\(reason) at byte \(offset)" }
}

extension JSON {
  /// Parses one JSON text (RFC 8259), strictly.
  ///
  /// - A top-level scalar is fine (`42`, `"x"`, `null`); whitespace may surround the value; anything else
  ///   after it is an error ("trailing data"), as are comments, single quotes, trailing commas, `NaN`,
  ///   `Infinity`, leading zeros (`01`), `1.`, raw control characters in strings and invalid UTF-8
  ///   (overlong forms and UTF-8-encoded surrogates included).
  /// - Values may nest `maxDepth` levels, counting the innermost value (json-c's measure: `1` and `[]`
  ///   are one level, `[1]` and `[[]]` two); one more is an error ("nesting too deep").
  /// - A number too large for a double (`1e400`) is an error ("number out of range"); an integer beyond
  ///   `Int64` is a `.double` that serializes as its original text.
  /// - A lone surrogate escape (`"\ud800"`) reads as U+FFFD, as json-c decodes it (UTF-8 text cannot hold
  ///   it); such a string keeps its source text, which is what it serializes as (`sourceText`), so a value
  ///   echoed from input (a request id) comes back exactly as it was written.
  ///
  /// Creates a tokener per call; to parse many texts, keep a `JSONParser`.
  package static func parse(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = 512) throws(JSONParseError) -> JSON {
    try JSONParser(maxDepth: maxDepth).parse(bytes)
  }

  /// Parses the UTF-8 text of `string` as `parse(_:maxDepth:)` does.
  package static func parse(_ string: String, maxDepth: Int = 512) throws(JSONParseError) -> JSON {
    try JSONParser(maxDepth: maxDepth).parse(string)
  }
}

/// A reusable strict JSON parser: one json-c tokener, kept between texts (cheaper than a tokener per text).
///
/// - Important: Not thread-safe; use one parser per thread or owner.
package final class JSONParser {
  /// How many values may nest inside each other, counting the innermost one (`[1]` is two levels).
  package let maxDepth: Int
  private let tokener: UnsafeMutablePointer<json_tokener>

  /// A parser that accepts up to `maxDepth` levels of nesting (json-c's own default is only 32).
  package init(maxDepth: Int = 512) {
    precondition(maxDepth >= 1, "maxDepth must be at least 1")
    self.maxDepth = maxDepth
    guard let tokener = json_tokener_new_ex(Int32(clamping: maxDepth)) else {
      fatalError("json_tokener_new_ex: out of memory")
    }
    json_tokener_set_flags(tokener, Int32(JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8))
    self.tokener = tokener
  }

  deinit {
    json_tokener_free(tokener)
  }

  /// glibc's C locale object, which every parse runs under (static in glibc: never freed).
  private let cLocale = cjsonc_c_locale()

  /// Parses `string`'s UTF-8 text; see `JSON.parse(_:maxDepth:)` for the rules.
  package func parse(_ string: String) throws(JSONParseError) -> JSON {
    var string = string
    let result = string.withUTF8 { utf8 in
      Result { () throws(JSONParseError) -> JSON in try parse(UnsafeRawBufferPointer(utf8)) }
    }
    return try result.get()
  }

  /// Parses `bytes` as one JSON text; see `JSON.parse(_:maxDepth:)` for the rules.
  package func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONParseError) -> JSON {
    // json-c takes an `int` length and one more byte is fed below.
    guard bytes.count < Int(Int32.max) else { throw JSONParseError(offset: 0, reason: "input too large") }
    guard let base = bytes.baseAddress, !bytes.isEmpty else {
      throw JSONParseError(offset: 0, reason: "unexpected end of data")
    }
    json_tokener_reset(tokener)
    // json-c switches the thread to LC_NUMERIC "C" around every parse (duplocale, newlocale and freelocale: some
    // 1.9 k instructions and a global lock per message, 15 % of a small request's parse); glibc makes that switch a
    // few loads when the thread already uses its C locale object, so the parse runs under it. The same bytes parse the
    // same way: json-c reads numbers under "C" either way, and its strict tokener consults no other category.
    let previousLocale = uselocale(cLocale)
    defer { uselocale(previousLocale) }
    var root = json_tokener_parse_ex(tokener, base.assumingMemoryBound(to: CChar.self), Int32(bytes.count))
    var end = json_tokener_get_parse_end(tokener)
    if json_tokener_get_error(tokener) == json_tokener_continue {
      // A number has no end of its own: json-c finishes it only at a NUL ("the length passed MUST include
      // the final '\0' character"). Feeding the NUL as a second chunk spares copying the input.
      var nul: CChar = 0
      root = json_tokener_parse_ex(tokener, &nul, 1)
      end = bytes.count
    }
    let error = json_tokener_get_error(tokener)
    guard error == json_tokener_success else {
      json_object_put(root)
      let offset = min(end, bytes.count)
      throw JSONParseError(offset: offset, reason: String(cString: json_tokener_error_desc(error)))
    }
    // Adopt at once so every throw below releases the tree.
    var value = JSON(adopting: root)
    // json-c stops after the first value and reports success; anything but whitespace after it is an error.
    for index in end..<bytes.count where !isJSONWhitespace(bytes[index]) {
      throw JSONParseError(offset: index, reason: "trailing data")
    }
    // json-c's STRICT mode still lets some non-JSON through; a lexical pass over the value rejects it and
    // finds integers that json-c would saturate.
    let scan = try StrictScanner.scan(UnsafeRawBufferPointer(rebasing: bytes[..<end]))
    if scan.hasWideIntegers || scan.hasLoneSurrogates {
      var builder = ExactTreeBuilder(bytes: UnsafeRawBufferPointer(rebasing: bytes[..<end]))
      value = JSON(adopting: builder.value())
    }
    return value
  }
}

@inline(__always)
func isJSONWhitespace(_ byte: UInt8) -> Bool {
  byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
}

@inline(__always)
private func isDigit(_ byte: UInt8) -> Bool {
  byte &- 0x30 < 10
}

private enum ASCII {
  static let quote = UInt8(ascii: "\"")
  static let backslash = UInt8(ascii: "\\")
  static let minus = UInt8(ascii: "-")
  static let plus = UInt8(ascii: "+")
  static let zero = UInt8(ascii: "0")
  static let dot = UInt8(ascii: ".")
  static let lowerE = UInt8(ascii: "e")
  static let upperE = UInt8(ascii: "E")
  static let upperN = UInt8(ascii: "N")
  static let upperI = UInt8(ascii: "I")
  static let lowerU = UInt8(ascii: "u")
}

/// The `\uXXXX` escape (json-c has validated it) at `index`, its backslash: the scalar it stands for as json-c
/// decodes it, how many bytes it takes (12 for a surrogate pair), and whether it is a lone surrogate (decoded
/// as U+FFFD, since no UTF-8 text can hold it).
private func unicodeEscape(_ bytes: UnsafeRawBufferPointer, at index: Int) -> (
  scalar: UInt32, length: Int, isLone: Bool
) {
  let unit = hex4(bytes, at: index + 2)
  switch unit {
  case 0xD800..<0xDC00:
    // A high surrogate pairs with an immediately following low one.
    if index + 12 <= bytes.count && bytes[index + 6] == ASCII.backslash && bytes[index + 7] == ASCII.lowerU {
      let next = hex4(bytes, at: index + 8)
      if (0xDC00..<0xE000).contains(next) { return (0x10000 + ((unit - 0xD800) << 10) + (next - 0xDC00), 12, false) }
    }
    return (0xFFFD, 6, true)
  case 0xDC00..<0xE000: return (0xFFFD, 6, true)
  default: return (unit, 6, false)
  }
}

/// The value of the four hex digits at `index`.
private func hex4(_ bytes: UnsafeRawBufferPointer, at index: Int) -> UInt32 {
  var value: UInt32 = 0
  for byte in bytes[index..<(index + 4)] {
    let digit: UInt8 =
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
      default: byte - UInt8(ascii: "A") + 10
      }
    value = value << 4 | UInt32(digit)
  }
  return value
}

/// The lexical checks json-c's STRICT mode leaves out, run over text json-c has already accepted (so the
/// structure is known to be sound and only tokens need a look).
///
/// json-c 0.16 in STRICT mode accepts `NaN`, `Infinity`, `-Infinity`, `1.`, `00`, `-01`, `0.e1`, raw
/// control characters inside strings and UTF-8-encoded surrogates; it parses `1e400` as infinity and
/// saturates integers beyond `UInt64` (or below `Int64.min`) without an error.
private enum StrictScanner {
  struct Result {
    /// An integer literal outside `Int64`: json-c's tree cannot hold it exactly.
    var hasWideIntegers = false
    /// A string with a lone surrogate escape: json-c's tree holds U+FFFD instead.
    var hasLoneSurrogates = false
  }

  static func scan(_ bytes: UnsafeRawBufferPointer) throws(JSONParseError) -> Result {
    var result = Result()
    var index = 0
    guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return result }
    while index < bytes.count {
      let byte = base[index]
      if byte == ASCII.quote {
        index = try skipString(bytes, from: index + 1, result: &result)
      } else if byte == ASCII.minus || isDigit(byte) {
        index = try checkNumber(bytes, from: index, result: &result)
      } else if byte == ASCII.upperN || byte == ASCII.upperI {
        throw JSONParseError(offset: index, reason: "NaN and Infinity are not JSON")
      } else {
        index += 1
      }
    }
    return result
  }

  /// Checks a string's bytes from just after its opening quote; returns the index after its closing quote.
  private static func skipString(
    _ bytes: UnsafeRawBufferPointer, from start: Int, result: inout Result
  ) throws(JSONParseError) -> Int {
    guard let base = bytes.baseAddress else { throw JSONParseError(offset: start, reason: "unexpected end of data") }
    let count = bytes.count
    var index = start
    while true {
      index = skipPlainBytes(base, from: index, count: count)
      guard index < count else { break }
      let byte = base.load(fromByteOffset: index, as: UInt8.self)
      if byte == ASCII.quote { return index + 1 }
      if byte == ASCII.backslash {
        // json-c has validated the escape; the escaped byte (and \u's hex digits) are ASCII.
        if bytes[index + 1] == ASCII.lowerU {
          let (_, length, isLone) = unicodeEscape(bytes, at: index)
          if isLone { result.hasLoneSurrogates = true }
          index += length
        } else {
          index += 2
        }
      } else if byte < 0x20 {
        throw JSONParseError(offset: index, reason: "control character in string")
      } else {
        index = try skipUTF8Sequence(bytes, at: index)
      }
    }
    throw JSONParseError(offset: count, reason: "unexpected end of data")
  }

  /// The index of the first byte from `index` on that a string cannot simply contain — a quote, a backslash, a
  /// control character or a non-ASCII byte — or `count`. Eight bytes at a time while eight remain: in each 64-bit
  /// word the lowest byte flagged by `specialBytes` is the first such byte (the subtractions' borrows can only
  /// flag bytes above a byte that is really flagged).
  @inline(__always)
  private static func skipPlainBytes(_ base: UnsafeRawPointer, from start: Int, count: Int) -> Int {
    var index = start
    while index + 8 <= count {
      let flagged = specialBytes(UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
      if flagged != 0 { return index + flagged.trailingZeroBitCount >> 3 }
      index += 8
    }
    while index < count {
      let byte = base.load(fromByteOffset: index, as: UInt8.self)
      if byte < 0x20 || byte >= 0x80 || byte == ASCII.quote || byte == ASCII.backslash { return index }
      index += 1
    }
    return count
  }

  /// The high bit of each byte of `word` that is `"`, `\`, below 0x20 or from 0x80 (and possibly of bytes above the
  /// lowest such byte).
  @inline(__always)
  private static func specialBytes(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highBits: UInt64 = 0x8080_8080_8080_8080
    let quotes = word ^ (ones &* UInt64(ASCII.quote))
    let backslashes = word ^ (ones &* UInt64(ASCII.backslash))
    let zeroAfterXOR = ((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes)
    let control = (word &- ones &* 0x20) & ~word
    return (zeroAfterXOR | control | word) & highBits
  }

  /// Validates one multi-byte UTF-8 sequence as RFC 3629 defines it (no overlong forms, no surrogates,
  /// nothing above U+10FFFF); returns the index after it.
  private static func skipUTF8Sequence(_ bytes: UnsafeRawBufferPointer, at start: Int) throws(JSONParseError) -> Int {
    let lead = bytes[start]
    let length: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0:
      length = 3
      low = 0xA0
    case 0xED:
      length = 3
      high = 0x9F
    case 0xE1...0xEF: length = 3
    case 0xF0:
      length = 4
      low = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4:
      length = 4
      high = 0x8F
    default: throw JSONParseError(offset: start, reason: "invalid utf-8 string")
    }
    guard start + length <= bytes.count else { throw JSONParseError(offset: start, reason: "invalid utf-8 string") }
    let second = bytes[start + 1]
    guard second >= low && second <= high else { throw JSONParseError(offset: start, reason: "invalid utf-8 string") }
    for index in (start + 2)..<(start + length) where bytes[index] & 0xC0 != 0x80 {
      throw JSONParseError(offset: start, reason: "invalid utf-8 string")
    }
    return start + length
  }

  /// Checks one number token against RFC 8259's grammar; returns the index after it.
  private static func checkNumber(
    _ bytes: UnsafeRawBufferPointer,
    from start: Int,
    result: inout Result
  ) throws(JSONParseError) -> Int {
    var index = start
    let negative = bytes[index] == ASCII.minus
    if negative { index += 1 }
    guard index < bytes.count, isDigit(bytes[index]) else {
      if index < bytes.count && bytes[index] == ASCII.upperI {
        throw JSONParseError(offset: start, reason: "NaN and Infinity are not JSON")
      }
      throw JSONParseError(offset: index, reason: "number expected")
    }
    let integerStart = index
    if bytes[index] == ASCII.zero {
      index += 1
      if index < bytes.count && isDigit(bytes[index]) {
        throw JSONParseError(offset: index, reason: "leading zero in number")
      }
    } else {
      while index < bytes.count && isDigit(bytes[index]) { index += 1 }
    }
    let integerDigits = index - integerStart
    var isInteger = true
    if index < bytes.count && bytes[index] == ASCII.dot {
      isInteger = false
      index += 1
      let fractionStart = index
      while index < bytes.count && isDigit(bytes[index]) { index += 1 }
      guard index > fractionStart else { throw JSONParseError(offset: index, reason: "digit expected after '.'") }
    }
    var exponent = 0
    if index < bytes.count && (bytes[index] == ASCII.lowerE || bytes[index] == ASCII.upperE) {
      isInteger = false
      index += 1
      var exponentSign = 1
      if index < bytes.count && (bytes[index] == ASCII.plus || bytes[index] == ASCII.minus) {
        if bytes[index] == ASCII.minus { exponentSign = -1 }
        index += 1
      }
      let exponentStart = index
      while index < bytes.count && isDigit(bytes[index]) {
        // Clamped: only "far beyond 308" matters below.
        exponent = min(exponent * 10 + Int(bytes[index] &- ASCII.zero), 100_000)
        index += 1
      }
      guard index > exponentStart else { throw JSONParseError(offset: index, reason: "digit expected in exponent") }
      exponent *= exponentSign
    }
    if isInteger && integerDigits >= 19
      && !fitsInt64(UnsafeRawBufferPointer(rebasing: bytes[integerStart..<index]), negative)
    {
      result.hasWideIntegers = true
    }
    if integerDigits + exponent > 308 {
      // Possibly beyond Double.greatestFiniteMagnitude (1.8e308): decide exactly.
      let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
      guard let value = Double(text), value.isFinite else {
        throw JSONParseError(offset: start, reason: "number out of range")
      }
    }
    return index
  }

  /// Whether the digits (no sign, no leading zero) of an integer literal are within `Int64`.
  private static func fitsInt64(_ digits: UnsafeRawBufferPointer, _ negative: Bool) -> Bool {
    if digits.count != 19 { return digits.count < 19 }
    let limit: StaticString = negative ? "9223372036854775808" : "9223372036854775807"
    for index in 0..<19 {
      let digit = digits[index]
      let limitDigit = limit.utf8Start[index]
      if digit != limitDigit { return digit < limitDigit }
    }
    return true
  }
}

/// Builds a json-c tree from text that json-c and `StrictScanner` have accepted, keeping every number and
/// string exact: integers outside `Int64` become doubles that print as their source text, and strings with a
/// lone surrogate escape print as theirs too. Used only for texts with either (json-c's own tree would hold
/// saturated values, or U+FFFD in place of the escape).
private struct ExactTreeBuilder {
  let bytes: UnsafeRawBufferPointer
  var index = 0

  init(bytes: UnsafeRawBufferPointer) {
    self.bytes = bytes
  }

  /// A new reference to the value starting at `index` (nil for null).
  mutating func value() -> OpaquePointer? {
    skipWhitespace()
    switch bytes[index] {
    case UInt8(ascii: "{"):
      index += 1
      let object = json_object_new_object()
      skipWhitespace()
      if bytes[index] == UInt8(ascii: "}") {
        index += 1
        return object
      }
      while true {
        skipWhitespace()
        var key = string().text  // keys are C strings in json-c: they cannot keep their source text
        key.append(0)
        skipWhitespace()
        index += 1  // ':'
        let member = value()
        // A key is a C string for json-c: cut at its first NUL, as json-c's tokener does.
        key.withUnsafeBufferPointer { key in
          key.withMemoryRebound(to: CChar.self) { _ = json_object_object_add(object, $0.baseAddress, member) }
        }
        skipWhitespace()
        let separator = bytes[index]
        index += 1
        if separator != UInt8(ascii: ",") { return object }
      }
    case UInt8(ascii: "["):
      index += 1
      let array = json_object_new_array()
      skipWhitespace()
      if bytes[index] == UInt8(ascii: "]") {
        index += 1
        return array
      }
      while true {
        json_object_array_add(array, value())
        skipWhitespace()
        let separator = bytes[index]
        index += 1
        if separator != UInt8(ascii: ",") { return array }
      }
    case UInt8(ascii: "\""):
      let start = index
      let (text, hasLoneSurrogate) = string()
      let object = text.withUnsafeBufferPointer { JSON.newString($0) }
      if hasLoneSurrogate { JSON.keepSourceText(UnsafeRawBufferPointer(rebasing: bytes[start..<index]), of: object) }
      return object
    case UInt8(ascii: "t"):
      index += 4
      return json_object_new_boolean(1)
    case UInt8(ascii: "f"):
      index += 5
      return json_object_new_boolean(0)
    case UInt8(ascii: "n"):
      index += 4
      return nil
    default:
      return number()
    }
  }

  private mutating func number() -> OpaquePointer? {
    let start = index
    var isInteger = true
    while index < bytes.count {
      let byte = bytes[index]
      if byte == ASCII.dot || byte == ASCII.lowerE || byte == ASCII.upperE {
        isInteger = false
      } else if !(isDigit(byte) || byte == ASCII.minus || byte == ASCII.plus) {
        break
      }
      index += 1
    }
    let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    if isInteger, let integer = Int64(text) { return json_object_new_int64(integer) }
    // The scanner has rejected numbers that do not fit a finite double.
    return json_object_new_double_s(Double(text) ?? 0, text)
  }

  /// The decoded bytes of the string starting at `index` (its opening quote), and whether it has a lone
  /// surrogate escape (decoded as U+FFFD, as json-c does).
  private mutating func string() -> (text: [UInt8], hasLoneSurrogate: Bool) {
    index += 1
    var text: [UInt8] = []
    var hasLoneSurrogate = false
    while true {
      let byte = bytes[index]
      index += 1
      if byte == ASCII.quote { return (text, hasLoneSurrogate) }
      guard byte == ASCII.backslash else {
        text.append(byte)
        continue
      }
      let escape = bytes[index]
      switch escape {
      case UInt8(ascii: "b"): text.append(0x08)
      case UInt8(ascii: "f"): text.append(0x0C)
      case UInt8(ascii: "n"): text.append(0x0A)
      case UInt8(ascii: "r"): text.append(0x0D)
      case UInt8(ascii: "t"): text.append(0x09)
      case ASCII.lowerU:
        let (scalar, length, isLone) = unicodeEscape(bytes, at: index - 1)
        hasLoneSurrogate = hasLoneSurrogate || isLone
        text.append(contentsOf: Unicode.UTF8.encode(Unicode.Scalar(scalar)!)!)
        index += length - 2
      default: text.append(escape)  // '"', '\\', '/'
      }
      index += 1
    }
  }

  private mutating func skipWhitespace() {
    while index < bytes.count && isJSONWhitespace(bytes[index]) { index += 1 }
  }
}
