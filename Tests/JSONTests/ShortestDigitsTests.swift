import JSON
import TestSupport
import Testing

/// The frame encoder's own shortest-digits formatter (`ShortestDigits`, Schubfach) against the text it replaces:
/// Swift's `description` (the standard library's formatter, which json-c's reference encoder also prints with). Every
/// expectation is `description`'s output, never the formatter's.
@Suite struct ShortestDigitsTests {
  private func check(_ value: Double, _ comment: @autoclosure () -> String = "") {
    guard value.isFinite else { return }
    let expected = value.description
    let text = ShortestDigits.text(value)
    if text != expected {
      Issue.record("\(value.bitPattern): \(text ?? "nil") != \(expected) \(comment())")
    }
    // The cursor's path for numbers that are not whole (the short-decimal path first).
    if !JSONTextCursor.printsAsInteger(value) {
      let fraction = ShortestDigits.fractionText(value)
      if fraction != expected {
        Issue.record("\(value.bitPattern): fraction path \(fraction ?? "nil") != \(expected) \(comment())")
      }
    }
  }

  /// A value and its two neighbours.
  private func checkAround(_ value: Double) {
    check(value)
    check(value.nextUp)
    check(value.nextDown)
  }

  @Test func spelledOutLayouts() {
    // The layouts of `description`, written out: exponent from below 1e-4 and above 2^53, two exponent digits at
    // least, no trailing zeros, `.0` on whole numbers.
    #expect(ShortestDigits.text(0.1) == "0.1")
    #expect(ShortestDigits.text(1e-7) == "1e-07")
    #expect(ShortestDigits.text(0.0001) == "0.0001")
    #expect(ShortestDigits.text(-2.5e-5) == "-2.5e-05")
    #expect(ShortestDigits.text(0.1 + 0.2) == "0.30000000000000004")
    #expect(ShortestDigits.text(320) == "320.0")
    #expect(ShortestDigits.text(-0.0) == "-0.0")
    #expect(ShortestDigits.text(0x1p53) == "9007199254740992.0")
    #expect(ShortestDigits.text(0x1p53 + 2) == "9.007199254740994e+15")
    #expect(ShortestDigits.text(1e300) == "1e+300")
    #expect(ShortestDigits.text(Double.leastNonzeroMagnitude) == "5e-324")
    #expect(ShortestDigits.text(-Double.greatestFiniteMagnitude) == "-1.7976931348623157e+308")
    #expect(ShortestDigits.text(.nan) == nil)
    #expect(ShortestDigits.text(.infinity) == nil)
  }

  /// Any bit pattern (every exponent equally likely: subnormals, huge and tiny values). A release build of the same
  /// comparison ran 400 million values with no difference (docs/bench.md, "1,000 layers within budget").
  @Test func randomBitPatterns() {
    var generator = SplitMix64(seed: 16)
    for _ in 0..<300_000 { check(Double(bitPattern: generator.next())) }
  }

  /// The numbers frames carry: geometry of a few hundred or thousand points, interpolated, and fractions in [0, 1].
  @Test func randomGeometry() {
    var generator = SplitMix64(seed: 1_000)
    for _ in 0..<150_000 {
      let a = Double(generator.below(4_000)) - 2_000
      let b = Double(generator.below(4_000)) - 2_000
      let t = generator.unit()
      check(a + (b - a) * t)
      check(t)
    }
  }

  /// Decimals with up to 17 significant digits at every scale, and their neighbours (the values next to a short
  /// decimal are where a formatter's interval ends matter).
  @Test func decimalsAndTheirNeighbours() {
    var generator = SplitMix64(seed: 2_022)
    for _ in 0..<50_000 {
      let digits = 1 + generator.below(17)
      var n = 0.0
      for _ in 0..<digits { n = n * 10 + Double(generator.below(10)) }
      let exponent = generator.below(600) - 300
      guard let value = Double("\(Int(n))e\(exponent)") else { continue }
      checkAround(value)
    }
    // Every short decimal with up to six places between 0 and 10 (the short-decimal path and its edge).
    for n in stride(from: 1, through: 10_000_000, by: 97) {
      checkAround(Double(n) / 1e6)
    }
  }

  /// Powers of two and ten, the ends of the binades, subnormals, the largest and smallest doubles, the thresholds of
  /// the exponent form, whole numbers.
  @Test func edges() {
    var power = Double.leastNonzeroMagnitude
    while power.isFinite {
      checkAround(power)
      checkAround(power * 3)
      checkAround(power * 5)
      power *= 2
    }
    for e in -325...309 {
      guard let value = Double("1e\(e)") else { continue }
      checkAround(value)
      if let five = Double("5e\(e)") { checkAround(five) }
      if let nine = Double("9.999999999999999e\(e)") { checkAround(nine) }
    }
    for bits in UInt64(1)...20_000 { check(Double(bitPattern: bits)) }
    for bits in UInt64(0x000F_FFFF_FFFF_FFFF - 20_000)...0x0010_0000_0000_1000 { check(Double(bitPattern: bits)) }
    for bits in UInt64(0x7FEF_FFFF_FFFF_FFFF - 20_000)...0x7FEF_FFFF_FFFF_FFFF { check(Double(bitPattern: bits)) }
    for n in 0...20_000 {
      check(Double(n))
      check(-Double(n) - 0.5)
    }
    for value in [1e-4, 1e-5, 9.9999e-5, 0x1p53, 0x1p54, 1e15, 1e16, 1e17, 1e22, 1e23, 123_456_789_012_345_678] {
      checkAround(value)
      checkAround(-value)
    }
  }
}
