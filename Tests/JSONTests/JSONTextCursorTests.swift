import JSON
import TestSupport
import Testing

/// `JSONTextCursor` must write, byte for byte, what json-c serializes for the same value: every expectation below is
/// json-c's own output (`JSON(...)`/`JSON.number(...)` serialized), never the cursor's.
@Suite struct JSONTextCursorTests {
  private func written(maxBytes: Int = 4096, _ write: (inout JSONTextCursor) -> Void) -> String {
    var bytes: [UInt8] = []
    bytes.appendJSONText(maxBytes: maxBytes, write)
    return String(decoding: bytes, as: UTF8.self)
  }

  private func cursorText(_ string: String) -> String { written { $0.string(string) } }
  private func cursorText(_ number: Double) -> String { written { $0.number(number) } }

  @Test func everyByteBelowDELAndDELItselfEscapesAsJSONCEscapesIt() {
    for byte in UInt8(0)...0x7F {
      let string = String(decoding: [UInt8(ascii: "a"), byte, UInt8(ascii: "b")], as: UTF8.self)
      #expect(cursorText(string) == JSON(string).serialized(), "byte \(byte)")
    }
    // Spelled out: json-c's short escapes, lowercase \u00xx for the other controls, `/` and DEL as they are.
    #expect(cursorText("\u{8}\u{9}\u{a}\u{c}\u{d}\"\\/\u{0}\u{1f}\u{7f}") == #""\b\t\n\f\r\"\\/\u0000\u001f\#u{7f}""#)
  }

  @Test func randomStringsOfHostileAndNonASCIIScalarsMatchJSONC() {
    var generator = SplitMix64(seed: 14)
    let pool: [Unicode.Scalar] = [
      "\"", "\\", "/", "\u{0}", "\u{8}", "\u{c}", "\n", "\r", "\t", "\u{1b}", "\u{7f}", "\u{80}", "\u{ff}", "é",
      "\u{2028}", "\u{feff}", "\u{fffd}", "日", "😀", "\u{10ffff}", "a", " ",
    ]
    for _ in 0..<10_000 {
      var scalars = String.UnicodeScalarView()
      for _ in 0..<generator.below(24) {
        if generator.below(3) == 0 {
          // Any scalar at all (surrogates are not scalars, so skip them).
          let value = UInt32(generator.below(0x11_0000))
          scalars.append(Unicode.Scalar(value) ?? "x")
        } else {
          scalars.append(pool[generator.below(pool.count)])
        }
      }
      let string = String(scalars)
      #expect(cursorText(string) == JSON(string).serialized())
    }
  }

  @Test func edgeNumbersMatchJSONC() {
    let edges: [Double] = [
      0, -0.0, 1, -1, 0.5, -0.5, 0.1, 0.2, 0.30000000000000004, 1.0 / 3.0, 2.0 / 3.0, 1e-7, 1e-4, 9.999e-5, 0.0001,
      0.00012, 0.001, 1e15, 1e15 + 0.5, 123_456_789.123456, 999_999_999.999999, 1e9 + 0.5, 1e16, 1e21, 1e22, 1e300,
      1e308, -1e308, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude,
      -.leastNonzeroMagnitude, .leastNormalMagnitude, 2.2250738585072009e-308, 9_007_199_254_740_991,
      9_007_199_254_740_992, 9_007_199_254_740_993, 9_007_199_254_740_994, -9_007_199_254_740_992,
      -9_007_199_254_740_994, 4_503_599_627_370_495.5, 0x1p52 + 0.5, .nan, .infinity, -.infinity, 320.5, 12.346,
      -0.001, 0.000999, 1.000001, 1.0000001,
    ]
    for value in edges {
      #expect(cursorText(value) == JSON.number(value).serialized(), "\(value)")
    }
  }

  @Test func randomBitPatternsMatchJSONC() {
    var generator = SplitMix64(seed: 53)
    for _ in 0..<50_000 {
      let value = Double(bitPattern: generator.next())
      #expect(cursorText(value) == JSON.number(value).serialized(), "\(value.bitPattern)")
    }
  }

  /// Geometry-like values: fractions of a few hundred points, animated values in [0, 1], and short decimals (what a
  /// `precision` grid produces), where the cursor's short-decimal path applies.
  @Test func everydayAndShortDecimalNumbersMatchJSONC() {
    var generator = SplitMix64(seed: 120)
    for _ in 0..<50_000 {
      let places = generator.below(8)
      var scale = 1.0
      for _ in 0..<places { scale *= 10 }
      let magnitude = [1.0, 1e3, 1e6, 1e9, 1e12, 1e15][generator.below(6)]
      let integer = (generator.unit() * 2 - 1) * magnitude * scale
      let values = [integer.rounded() / scale, generator.range(-1000, 1000), generator.unit()]
      for value in values {
        #expect(cursorText(value) == JSON.number(value).serialized(), "\(value.bitPattern)")
      }
    }
  }

  @Test func integersMatchJSONC() {
    var generator = SplitMix64(seed: 64)
    for value in [Int64.min, .max, 0, -1, 9, 10, -10, 99, 100]
      + (0..<1000).map({ _ in Int64(bitPattern: generator.next()) })
    {
      #expect(written { $0.integer(value) } == JSON(value).serialized())
    }
  }

  @Test func literalsAndRewind() {
    #expect(
      written { out in
        out.raw(#"{"a":"#)
        out.bool(true)
        out.byte(UInt8(ascii: ","))
        let mark = out.count
        out.raw(#""b":"#)
        out.null()
        out.rewind(to: mark)
        out.raw(#""c":false}"#)
      } == #"{"a":true,"c":false}"#)
  }

  @Test func textIsAppendedAfterWhatTheBufferHolds() {
    var bytes = Array("[1,".utf8)
    bytes.appendJSONText(maxBytes: 64) { $0.number(2.5) }
    bytes.appendJSONText(maxBytes: 64) { $0.raw("]") }
    #expect(String(decoding: bytes, as: UTF8.self) == "[1,2.5]")
  }

  /// A caller whose bound is too small stops the program instead of writing past the reservation.
  @Test func writingPastTheReservationTraps() async {
    await #expect(processExitsWith: .failure) {
      var bytes: [UInt8] = []
      bytes.appendJSONText(maxBytes: 4) { $0.string("longer than four bytes") }
    }
  }
}
