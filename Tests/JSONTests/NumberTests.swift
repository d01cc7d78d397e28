import Glibc
import JSON
import TestSupport
import Testing

@Suite struct NumberTests {
  /// A parse runs under glibc's C locale object (json-c's own per-parse switch to LC_NUMERIC "C" is then free) and
  /// gives the thread back the locale it had, whichever that was.
  @Test func parsingGivesTheThreadBackItsLocale() throws {
    let before = uselocale(nil)
    let value = try JSON.parse(#"[1.5, -2.25e3, 3, "x"]"#)
    #expect(uselocale(nil) == before)
    #expect(value[0]?.doubleValue == 1.5)
    #expect(value[1]?.doubleValue == -2250)
    // Under another thread locale (a copy of the global one: a distinct object, which json-c switches from and back
    // the slow way) the same text gives the same values, and that locale is restored too.
    guard let copy = duplocale(uselocale(nil)) else { return }
    defer { freelocale(copy) }
    let previous = uselocale(copy)
    defer { uselocale(previous) }
    let again = try JSON.parse(#"[1.5, -2.25e3, 3, "x"]"#)
    #expect(uselocale(nil) == copy)
    #expect(again == value)
  }

  @Test func int64RangeIsExact() throws {
    let max = try JSON.parse("9223372036854775807")
    #expect(max.kind == .int)
    #expect(max.intValue == Int64.max)
    #expect(max.serialized() == "9223372036854775807")
    let min = try JSON.parse("-9223372036854775808")
    #expect(min.kind == .int)
    #expect(min.intValue == Int64.min)
    #expect(min.serialized() == "-9223372036854775808")
    // 2^53 + 1: not representable as a double, exact as an integer.
    let beyondDouble = try JSON.parse("9007199254740993")
    #expect(beyondDouble.intValue == 9_007_199_254_740_993)
    #expect(beyondDouble.serialized() == "9007199254740993")
  }

  /// json-c would saturate these (`Int64.max`, `UInt64.max`, `Int64.min`); they become doubles that
  /// keep their text.
  @Test(arguments: [
    ("9223372036854775808", 9_223_372_036_854_775_808.0),
    ("18446744073709551615", 18_446_744_073_709_551_615.0),
    ("18446744073709551616", 18_446_744_073_709_551_616.0),
    ("99999999999999999999999", 1e23),
    ("-9223372036854775809", -9_223_372_036_854_775_809.0),
    ("-100000000000000000000000000000", -1e29),
  ])
  func integersBeyondInt64AreDoublesWithTheirText(_ text: String, _ value: Double) throws {
    let number = try JSON.parse(text)
    #expect(number.kind == .double)
    #expect(number.intValue == nil)
    #expect(number.doubleValue == value)
    #expect(number.serialized() == text)
    let nested = try JSON.parse("{\"id\": \(text), \"list\": [1, \(text), \"x\"]}")
    #expect(nested.serialized() == "{\"id\":\(text),\"list\":[1,\(text),\"x\"]}")
    #expect(nested["list"]?[0]?.intValue == 1)
  }

  @Test func negativeZero() throws {
    let integer = try JSON.parse("-0")
    #expect(integer.kind == .int)
    #expect(integer.intValue == 0)
    #expect(integer.serialized() == "0")
    let double = try JSON.parse("-0.0")
    #expect(double.kind == .double)
    #expect(double.doubleValue?.sign == .minus)
    #expect(double.serialized() == "-0.0")
    #expect(JSON(-0.0).serialized() == "-0.0")
  }

  @Test func parsedDoublesKeepTheirText() throws {
    for text in ["1.0", "1.50", "1e5", "1E+2", "2.5e-3", "0.1", "1e-400"] {
      #expect(try JSON.parse(text).serialized() == text)
      #expect(try JSON.parse(text).kind == .double)
    }
    #expect(try JSON.parse("1.0").intValue == nil)
    #expect(try JSON.parse("1e5").doubleValue == 100_000)
    #expect(try JSON.parse("1e-400").doubleValue == 0)
  }

  /// Built doubles print Swift's shortest round-trip digits (json-c alone would print `%.17g`:
  /// `0.10000000000000001`); whole values keep `.0` so they read back as doubles.
  @Test(arguments: [
    (0.1, "0.1"),
    (1.0, "1.0"),
    (-2.0, "-2.0"),
    (1e300, "1e+300"),
    (1e-7, "1e-07"),
    (123.456, "123.456"),
    (Double.leastNonzeroMagnitude, "5e-324"),
    (1.7976931348623157e308, "1.7976931348623157e+308"),
    (0.30000000000000004, "0.30000000000000004"),
  ])
  func builtDoublesPrintShortestDigits(_ value: Double, _ text: String) throws {
    let json = JSON(value)
    #expect(json.serialized() == text)
    let reread = try JSON.parse(text)
    #expect(reread.kind == .double)
    #expect(reread.doubleValue == value)
  }

  @Test func doublesRoundTripBitForBit() throws {
    var generator = SplitMix64(seed: 0x5EED)
    for _ in 0..<2000 {
      let value = Double(bitPattern: generator.next())
      guard value.isFinite else { continue }
      let reread = try JSON.parse(JSON(value).serialized())
      #expect(reread.doubleValue?.bitPattern == value.bitPattern)
    }
  }

  /// Integers too large even for a double are refused like `1e400`; up to 1.79e308 they are doubles.
  @Test func integersBeyondDoubleRangeAreRefused() throws {
    let huge = "1" + String(repeating: "0", count: 400)
    #expect(parseError(huge) == JSONParseError(offset: 0, reason: "number out of range"))
    #expect(parseError("[-\(huge)]") == JSONParseError(offset: 1, reason: "number out of range"))
    let large = "1" + String(repeating: "0", count: 300)
    let value = try JSON.parse(large)
    #expect(value.kind == .double)
    #expect(value.doubleValue == 1e300)
    #expect(value.serialized() == large)
  }

  @Test func nonFiniteDoublesAreRefused() {
    #expect(JSON(finite: .nan) == nil)
    #expect(JSON(finite: .infinity) == nil)
    #expect(JSON(finite: -.infinity) == nil)
    #expect(JSON(finite: 1.5) == JSON(1.5))
  }

  @Test func integersAreNotCoerced() throws {
    #expect(JSON("12abc").intValue == nil)
    #expect(JSON("1").doubleValue == nil)
    #expect(JSON(true).intValue == nil)
    #expect(JSON(1).boolValue == nil)
    #expect(JSON(2.0).intValue == nil)
    #expect(JSON(2).doubleValue == 2.0)
    #expect(JSON(Int64.min).intValue == Int64.min)
  }
}
