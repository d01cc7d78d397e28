import JSON
import TestSupport
import Testing

/// `JSON.number(_:)` and the builders' `number:` members: the text the host prints computed numbers with.
@Suite struct OutputNumberTests {
  /// The text of `value` through each of the three ways in; all three must agree.
  private func text(_ value: Double) -> String {
    let single = JSON.number(value).serialized()
    var object = JSONObjectBuilder()
    object.setNew("n", number: value)
    var array = JSONArrayBuilder()
    array.append(number: value)
    #expect(object.build().serialized() == #"{"n":\#(single)}"#)
    #expect(array.build().serialized() == "[\(single)]")
    return single
  }

  @Test func wholeNumbersPrintAsIntegers() {
    #expect(text(320) == "320")
    #expect(text(-42) == "-42")
    #expect(text(0) == "0")
    #expect(text(-0.0) == "0")
    // 2^53 is the largest whole double whose neighbours are all representable; beyond it, exponent form.
    #expect(text(9_007_199_254_740_992) == "9007199254740992")
    #expect(text(-9_007_199_254_740_992) == "-9007199254740992")
    #expect(text(18_014_398_509_481_984) == "1.8014398509481984e+16")
    #expect(JSON.number(320).kind == .int)
    #expect(JSON.number(320).intValue == 320)
  }

  @Test func fractionsPrintShortestRoundTripDigits() {
    #expect(text(0.1) == "0.1")
    #expect(text(0.5) == "0.5")
    #expect(text(-2.25) == "-2.25")
    // The sum really is 0.30000000000000004; what must never appear is %.17g padding of exact values.
    #expect(text(0.1 + 0.2) == "0.30000000000000004")
    #expect(text(1.0 / 3.0) == "0.3333333333333333")
    #expect(text(1e-7) == "1e-07")
    #expect(text(Double.leastNonzeroMagnitude) == "5e-324")
    #expect(text(-Double.greatestFiniteMagnitude) == "-1.7976931348623157e+308")
    #expect(text(-2.2250738585072014e-308) == "-2.2250738585072014e-308")
    #expect(JSON.number(0.5).kind == .double)
    #expect(JSON.number(0.5).doubleValue == 0.5)
  }

  @Test func nonFiniteNumbersBecomeNull() {
    #expect(text(.nan) == "null")
    #expect(text(.infinity) == "null")
    #expect(text(-.infinity) == "null")
    #expect(JSON.number(.nan).isNull)
  }

  @Test func everyPrintedNumberReadsBackExactly() throws {
    var generator = SplitMix64(seed: 7)
    for _ in 0..<2_000 {
      let value = Double(bitPattern: generator.next())
      guard value.isFinite else { continue }
      let printed = text(value)
      let parsed = try JSON.parse(printed)
      #expect(parsed.doubleValue == (value == 0 ? 0 : value), "\(printed)")
      // What was built equals what a reader of the text gets, kind included.
      #expect(parsed == JSON.number(value), "\(printed)")
    }
  }
}

@Suite struct OutputBuilderTests {
  @Test func scalarMembersAndElements() {
    var object = JSONObjectBuilder()
    object.setNew("s", string: "a\"b")
    object.setNew("i", integer: -7)
    object.setNew("t", bool: true)
    object.setNew("f", bool: false)
    object.setNewNull("z")
    var array = JSONArrayBuilder()
    array.append(string: "x")
    array.append(number: 1.5)
    object.setNew("a", array)
    #expect(object.count == 6)
    #expect(object.build().serialized() == #"{"s":"a\"b","i":-7,"t":true,"f":false,"z":null,"a":["x",1.5]}"#)
    var max = JSONObjectBuilder()
    max.setNew("i", integer: Int.max)
    #expect(max.build().serialized() == #"{"i":9223372036854775807}"#)
  }

  @Test func stringsKeepNULsAndMultibyteText() throws {
    var object = JSONObjectBuilder()
    object.setNew("s", string: "a\u{0}b é 漢")
    var array = JSONArrayBuilder()
    array.append(string: "\u{0}")
    array.append(string: "")
    object.setNew("a", array)
    let built = object.build()
    #expect(built.serialized() == #"{"s":"a\u0000b é 漢","a":["\u0000",""]}"#)
    #expect(built["s"]?.stringValue == "a\u{0}b é 漢")
    #expect(try JSON.parse(built.serialized()) == built)
  }

  /// Nested builders move in: the outer tree holds them, in order, and they print in place.
  @Test func nestedBuildersMoveIn() {
    var inner = JSONObjectBuilder()
    inner.setNew("x", number: 1)
    var list = JSONArrayBuilder()
    var element = JSONObjectBuilder()
    element.setNew("y", number: 0.25)
    list.append(element)
    var row = JSONArrayBuilder()
    row.append(number: 2)
    list.append(row)
    list.append(JSONArrayBuilder())
    var outer = JSONObjectBuilder()
    outer.setNew("inner", inner)
    outer.setNew("list", list)
    outer.setNew("empty", JSONObjectBuilder())
    #expect(outer.build().serialized() == #"{"inner":{"x":1},"list":[{"y":0.25},[2],[]],"empty":{}}"#)
  }

  /// A value added with `setNew(_:_:)` is shared by reference: it stays alive as long as any tree holding it, and
  /// may sit in several places at once.
  @Test func valuesAreSharedByReference() throws {
    var built: JSON?
    var content: JSON? = try JSON.parse(#"{"text":"Card","n":1.50}"#)["text"]
    do {
      var object = JSONObjectBuilder()
      object.setNew("content", try #require(content))
      built = object.build()
    }
    content = nil
    // The parsed root is gone; the member keeps the string alive.
    #expect(built?.serialized() == #"{"content":"Card"}"#)
    let parsed = try JSON.parse(#"{"n":1.50}"#)
    var object = JSONObjectBuilder()
    object.setNew("a", parsed)
    object.setNew("b", parsed)
    // A parsed double keeps its text: the shared object prints exactly as read.
    #expect(object.build().serialized() == #"{"a":{"n":1.50},"b":{"n":1.50}}"#)
  }
}
