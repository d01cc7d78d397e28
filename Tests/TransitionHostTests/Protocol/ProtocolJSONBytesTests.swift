import JSON
import TestSupport
import Testing

@testable import TransitionHost

@Suite struct ProtocolJSONBytesTests {
  private func text(_ write: (inout JSONBytes) -> Void) -> String {
    var bytes = JSONBytes()
    write(&bytes)
    return String(decoding: bytes.bytes, as: UTF8.self)
  }

  @Test func wholeNumbersPrintAsIntegers() {
    #expect(text { $0.number(320) } == "320")
    #expect(text { $0.number(-42) } == "-42")
    #expect(text { $0.number(0) } == "0")
    #expect(text { $0.number(-0.0) } == "0")
    // 2^53 is the largest whole double whose neighbours are all representable; beyond it, exponent form.
    #expect(text { $0.number(9_007_199_254_740_992) } == "9007199254740992")
    #expect(text { $0.number(-9_007_199_254_740_992) } == "-9007199254740992")
    #expect(text { $0.number(18_014_398_509_481_984) } == "1.8014398509481984e+16")
  }

  @Test func fractionsPrintShortestRoundTripDigits() {
    #expect(text { $0.number(0.1) } == "0.1")
    #expect(text { $0.number(0.5) } == "0.5")
    #expect(text { $0.number(-2.25) } == "-2.25")
    // The sum really is 0.30000000000000004; what must never appear is %.17g padding of exact values.
    #expect(text { $0.number(0.1 + 0.2) } == "0.30000000000000004")
    #expect(text { $0.number(1.0 / 3.0) } == "0.3333333333333333")
    #expect(text { $0.number(1e-7) } == "1e-07")
    #expect(text { $0.number(Double.leastNonzeroMagnitude) } == "5e-324")
  }

  @Test func nonFiniteNumbersBecomeNull() {
    #expect(text { $0.number(.nan) } == "null")
    #expect(text { $0.number(.infinity) } == "null")
  }

  @Test func everyPrintedNumberReadsBackExactly() throws {
    var generator = SplitMix64(seed: 7)
    for _ in 0..<2_000 {
      let bits = generator.next()
      let value = Double(bitPattern: bits)
      guard value.isFinite else { continue }
      let printed = text { $0.number(value) }
      let parsed = try JSON.parse(printed)
      #expect(parsed.doubleValue == (value == 0 ? 0 : value), "\(printed)")
    }
  }

  @Test func integersPrintEveryDigit() {
    #expect(text { $0.integer(Int64.max) } == "9223372036854775807")
    #expect(text { $0.integer(Int64.min) } == "-9223372036854775808")
    #expect(text { $0.integer(7) } == "7")
  }

  @Test func stringsEscapeQuotesBackslashesAndControlCharacters() throws {
    let samples = ["plain", "quote \" here", "back\\slash", "new\nline\ttab\r", "\u{1}\u{1f}", "é ü 漢字 🙂", ""]
    for sample in samples {
      let printed = text { $0.string(sample) }
      #expect(!printed.contains("\n"))
      #expect(try JSON.parse(printed).stringValue == sample)
    }
    #expect(text { $0.string("a\"b\\c\n\u{1}") } == #""a\"b\\c\n\u0001""#)
  }
}
