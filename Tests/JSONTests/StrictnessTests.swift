import JSON
import Testing

/// What json-c's STRICT mode lets through, and what RFC 8259 rejects, must be rejected.
@Suite struct StrictnessTests {
  static let rejectedTexts: [String] = [
    "",
    "   ",
    "{} x",
    "{}{}",
    "[1]]",
    "[1,2,]",
    "{\"a\":1,}",
    "[1 2]",
    "{1:2}",
    "{\"a\" 1}",
    "/* comment */ 1",
    "[1] // comment",
    "'x'",
    "['x']",
    "NaN",
    "[NaN]",
    "Infinity",
    "-Infinity",
    "[1, -Infinity]",
    "{\"a\": NaN}",
    "nan",
    "tRue",
    "tru",
    "nul",
    "1.",
    "[1.]",
    "01",
    "[00]",
    "[-01]",
    "[0.e1]",
    "[.5]",
    "+1",
    "[-]",
    "[1e]",
    "[1e+]",
    "0x10",
    "1e400",
    "[-1e400]",
    "[1e309]",
    "\"\\u12\"",
    "\"\\x\"",
    "\"unterminated",
    "\"a\tb\"",
    "\"a\u{1}b\"",
    "[\"new\nline\"]",
  ]

  @Test(arguments: rejectedTexts)
  func rejects(_ text: String) {
    #expect(parseError(text) != nil, "accepted \(text.debugDescription)")
  }

  static let rejectedBytes: [[UInt8]] = [
    [0x22, 0xFF, 0x22],  // not UTF-8 at all
    [0x22, 0xC0, 0x80, 0x22],  // overlong NUL
    [0x22, 0xE0, 0x80, 0xAF, 0x22],  // overlong '/'
    [0x22, 0xED, 0xA0, 0x80, 0x22],  // the surrogate U+D800 encoded in UTF-8
    [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // above U+10FFFF
    [0x22, 0xC3, 0x22],  // truncated sequence
    [0x22, 0x80, 0x22],  // stray continuation byte
    [0x22, 0x61, 0x00, 0x62, 0x22],  // raw NUL inside a string
    [0x31, 0x00],  // NUL after a value
    [0x7B, 0x7D, 0x00],
    [0xEF, 0xBB, 0xBF, 0x31],  // a byte order mark is framing's business, not JSON's
  ]

  @Test(arguments: rejectedBytes)
  func rejectsBytes(_ bytes: [UInt8]) {
    #expect(parseError(bytes) != nil, "accepted \(bytes)")
  }

  /// The scanner reads strings eight bytes at a time: a byte it must refuse is found at every offset within a word
  /// and in the bytes after the last whole word, with a plain run of any length before it.
  @Test func rejectedBytesAreFoundAtEveryOffsetOfAString() {
    let refused: [[UInt8]] = [
      [0x01], [0x1F], [0x09], [0x0A], [0x7F, 0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0x80],
    ]
    for prefixLength in 0..<20 {
      for bad in refused {
        let plain = Array(repeating: UInt8(ascii: "a"), count: prefixLength)
        for suffixLength in [0, 3, 11] {
          let suffix = Array(repeating: UInt8(ascii: "z"), count: suffixLength)
          let text = [UInt8(ascii: "[")] + [0x22] + plain + bad + suffix + [0x22] + [UInt8(ascii: "]")]
          #expect(parseError(text) != nil, "accepted \(text)")
        }
      }
    }
  }

  /// And the bytes a string may hold are accepted at every offset: escapes, multi-byte UTF-8, DEL.
  @Test func acceptedBytesAreAcceptedAtEveryOffsetOfAString() throws {
    let allowed: [(bytes: [UInt8], decoded: String)] = [
      (Array(#"\""#.utf8), "\""), (Array(#"\\"#.utf8), "\\"), (Array(#"\u00e9"#.utf8), "é"), ([0xC3, 0xA9], "é"),
      ([0xF0, 0x9F, 0x98, 0x80], "😀"), ([0x7F], "\u{7F}"), (Array("~ ".utf8), "~ "),
    ]
    for prefixLength in 0..<20 {
      for item in allowed {
        let plain = String(repeating: "a", count: prefixLength)
        let text = [0x22] + Array(plain.utf8) + item.bytes + Array("zz".utf8) + [0x22]
        let value = try text.withUnsafeBytes { try JSON.parse($0) }
        #expect(value.stringValue == plain + item.decoded + "zz")
      }
    }
  }

  /// STRICT json-c stops at the first byte after the value ("unexpected character"); the module's own
  /// check catches what json-c reports as success.
  @Test func trailingDataIsReportedWhereItStarts() {
    #expect(parseError("{} x")?.offset == 3)
    #expect(parseError("{}{}")?.offset == 2)
    #expect(parseError("[1]  ]")?.offset == 5)
    #expect(parseError("42 43")?.offset == 3)
    #expect(parseError("\"a\" \"b\"")?.offset == 4)
  }

  @Test func errorsCarryJSONCsDescriptionAndPosition() {
    #expect(parseError("[1,2,]") == JSONParseError(offset: 5, reason: "unexpected character"))
    #expect(parseError("[1,2") == JSONParseError(offset: 4, reason: "unexpected end of data"))
    #expect(parseError([0x22, 0xFF, 0x22]) == JSONParseError(offset: 1, reason: "invalid utf-8 string"))
    #expect(parseError("[1, NaN]")?.offset == 4)
    #expect(parseError("[-Infinity]")?.offset == 1)
    #expect(parseError("[\"a\tb\"]") == JSONParseError(offset: 3, reason: "control character in string"))
    #expect(parseError("[1e400]") == JSONParseError(offset: 1, reason: "number out of range"))
    #expect(parseError([0x22, 0xED, 0xA0, 0x80, 0x22]) == JSONParseError(offset: 1, reason: "invalid utf-8 string"))
    #expect(parseError("") == JSONParseError(offset: 0, reason: "unexpected end of data"))
  }

  static let acceptedTexts: [(String, String)] = [
    ("42", "42"),
    (" \t\r\n42 \r\n", "42"),
    ("\"x\"", "\"x\""),
    ("null", "null"),
    ("true", "true"),
    ("false", "false"),
    ("0", "0"),
    ("-0", "0"),
    ("-0.0", "-0.0"),
    ("1e5", "1e5"),
    ("1E+2", "1E+2"),
    ("1.5e308", "1.5e308"),
    ("1e-400", "1e-400"),
    ("0.000001e310", "0.000001e310"),
    ("[1, 2.5, -3]", "[1,2.5,-3]"),
    ("{ \"a\" : [ ] , \"b\" : { } }", "{\"a\":[],\"b\":{}}"),
    ("\"a/b\"", "\"a/b\""),
    ("\"a\\/b\"", "\"a/b\""),
    ("\"\\u00e9\"", "\"é\""),
    ("\"\\\"\\\\\\b\\f\\n\\r\\t\"", "\"\\\"\\\\\\b\\f\\n\\r\\t\""),
  ]

  @Test(arguments: acceptedTexts)
  func accepts(_ text: String, _ serialized: String) throws {
    #expect(try JSON.parse(text).serialized() == serialized)
  }

  /// Lone surrogate escapes are valid JSON grammar but no Unicode text; json-c decodes them as U+FFFD
  /// (the replacement character), and so does this module, but the string keeps the text it was read from and
  /// serializes as that text, so it round-trips exactly.
  @Test func loneSurrogatesReadAsReplacementCharacterAndKeepTheirText() throws {
    #expect(try JSON.parse(#""\ud800""#).stringValue == "\u{FFFD}")
    #expect(try JSON.parse(#""\udc00""#).stringValue == "\u{FFFD}")
    #expect(try JSON.parse(#""a\ud800b""#).stringValue == "a\u{FFFD}b")
    #expect(try JSON.parse(#""\ud83d\ude00""#).stringValue == "😀")
    for text in [#""\ud800""#, #""\udc00x""#, #""a\uDBFF\u0041\/b""#, #""\ud800\ud800\udc00""#, #""\udfff\ud800""#] {
      let value = try JSON.parse(text)
      #expect(value.serialized() == text)
      #expect(value.sourceText == text)
    }
    // Inside containers, and once the value is put into a new tree (an id echoed in a reply).
    let tree = try JSON.parse(#"{"a": ["\udc00", 1, "\u00e9"], "b": "\ud800!"}"#)
    #expect(tree.serialized() == #"{"a":["\udc00",1,"é"],"b":"\ud800!"}"#)
    #expect(JSON.object([("id", tree["b"]!)]).serialized() == #"{"id":"\ud800!"}"#)
    // A pair, or a plain U+FFFD, is ordinary text.
    #expect(try JSON.parse(#""\ud83d\ude00""#).sourceText == nil)
    #expect(try JSON.parse(#""\ufffd""#).serialized() == "\"\u{FFFD}\"")
  }

  /// Such a string equals only a string read from the same text: its decoded bytes are not its value.
  @Test func loneSurrogateStringsCompareByTheirText() throws {
    #expect(try JSON.parse(#""\udc00""#) == JSON.parse(#""\udc00""#))
    #expect(try JSON.parse(#""\udc00""#) != JSON.parse(#""\udc01""#))
    #expect(try JSON.parse(#""\udc00""#) != JSON.parse(#""\ufffd""#))
    #expect(try JSON.parse(#""\ufffd""#) != JSON.parse(#""\udc00""#))
    #expect(try JSON.parse(#"[{"k": "\udc00"}]"#) == JSON.parse(#"[{"k":"\udc00"}]"#))
    #expect(try JSON.parse(#"[{"k": "\udc00"}]"#) != JSON.parse(#"[{"k": "\ud800"}]"#))
  }
}
