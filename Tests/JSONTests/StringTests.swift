import JSON
import Testing

@Suite struct StringTests {
  @Test func nulInsideStringsRoundTrips() throws {
    let parsed = try JSON.parse(#""x\u0000y""#)
    #expect(parsed.stringValue == "x\0y")
    #expect(parsed.stringValue?.utf8.count == 3)
    #expect(parsed.serialized() == #""x\u0000y""#)
    let built = JSON("a\0b")
    #expect(built.serialized() == #""a\u0000b""#)
    #expect(try JSON.parse(built.serialized()) == built)
  }

  /// json-c keeps keys as C strings: a key is cut at its first NUL (documented on `JSON.keys`).
  @Test func keysAreCutAtNul() throws {
    #expect(try JSON.parse(#"{"a\u0000b":1}"#).keys == ["a"])
    var builder = JSONObjectBuilder()
    builder.set("k\0ey", 1)
    #expect(builder.build().serialized() == #"{"k":1}"#)
  }

  @Test func unicodeIsWrittenAsUTF8() throws {
    let text = "héllo ✓ 😀 日本"
    let json = JSON(text)
    #expect(json.serialized() == "\"\(text)\"")
    #expect(try JSON.parse(json.serialized()).stringValue == text)
    #expect(try JSON.parse(#""\u65e5\u672c\ud83d\ude00""#).stringValue == "日本😀")
  }

  @Test func slashesAreNotEscaped() throws {
    #expect(JSON("a/b").serialized() == #""a/b""#)
    #expect(try JSON.parse(#"{"path":"/usr/lib/x.so"}"#).serialized() == #"{"path":"/usr/lib/x.so"}"#)
  }

  /// Control characters are escaped, so serialized text never holds a raw newline (NDJSON needs that).
  @Test func controlCharactersAreEscaped() throws {
    let all = String(decoding: (0..<32).map { UInt8($0) }, as: UTF8.self)
    let object: JSON = ["key\n": JSON(all)]
    let serialized = object.serialized()
    #expect(!serialized.utf8.contains { $0 < 0x20 })
    #expect(try JSON.parse(serialized)["key\n"]?.stringValue == all)
    #expect(JSON("a\nb\tc\"d\\e").serialized() == #""a\nb\tc\"d\\e""#)
  }

  @Test func stringReadsInPlace() throws {
    let json = try JSON.parse(#"{"method":"transition/start"}"#)
    #expect(json["method"]?.isString("transition/start") == true)
    #expect(json["method"]?.isString("transition/star") == false)
    #expect(json["missing"]?.isString("x") == nil)
    #expect(JSON(1).isString("1") == false)
    #expect(JSON("").isString("") == true)
    #expect(json["method"]?.withUTF8 { $0.count } == 16)
  }
}
