// The shortest round-trip digits of a double, written exactly as Swift's `description` writes them, without going
// through the standard library's formatter (about 585 instructions a number, measured; this is about a third of
// it). Frames are mostly numbers, so this is the frame encoder's hottest code (docs/bench.md, "1,000 layers within
// budget").
//
// The digits are Schubfach's (Raffaello Giulietti, "The Schubfach way to render doubles", 2020–2022): the decimal
// with the fewest significant digits inside the double's rounding interval (its ends included when the significand
// is even, as a round-to-nearest-even reader would read them back), and of those the closest to the double (a tie
// to the even digit). Swift's formatter promises the same digits ("Always Short", "Always Close", an exact tie even;
// stdlib/public/core/FloatingPointToString.swift), and JSONTests' ShortestDigitsTests check the two agree on millions
// of random and edge doubles. The text layout is `description`'s: `1e-07`, `0.0001`, `123.45`, `1.8014398509481984e+16`.

@usableFromInline
package enum ShortestDigits {
  /// `value` as `description` spells it (the tests' view of `write`); nil when it is not finite.
  package static func text(_ value: Double) -> String? {
    guard value.isFinite else { return nil }
    return String(unsafeUninitializedCapacity: 32) { write(value, to: $0.baseAddress!) }
  }

  /// `value` as `JSONTextCursor.number` writes a value that is not a whole number within ±2^53 (the short-decimal path
  /// first); nil when it is not finite.
  package static func fractionText(_ value: Double) -> String? {
    guard value.isFinite else { return nil }
    return String(unsafeUninitializedCapacity: 32) { writeFraction(value, to: $0.baseAddress!) }
  }

  /// Writes `value` (finite, not a whole number within ±2^53: `JSONTextCursor.number` prints those as integers) at
  /// `out` (at least 24 bytes of room) as `description` does; returns the bytes written.
  @usableFromInline
  static func writeFraction(_ value: Double, to out: UnsafeMutablePointer<UInt8>) -> Int {
    let written = writeShortDecimal(value, to: out)
    return written > 0 ? written : write(value, to: out)
  }

  /// Writes `value` and returns the bytes written when its shortest digits have at most six decimals and it is at
  /// least 1e-4 in magnitude (so `description` writes it without an exponent): `0.5`, `12.25`, `-0.001`, every length
  /// on a decimal `precision` grid. Such numbers need no digit generation: `value` is the double nearest n / 10⁶ for an
  /// integer n of at most 15 digits, and two decimals of at most 15 significant digits never share a double (DBL_DIG),
  /// so that decimal, trailing zeros dropped, is the shortest text that reads back as `value`. Returns 0, having
  /// written nothing, for any other value (and for whole ones).
  @inline(__always)
  static func writeShortDecimal(_ value: Double, to out: UnsafeMutablePointer<UInt8>) -> Int {
    let product = value * 1e6
    // The candidate n: the product rounded (how ties go does not matter: the exact test below decides).
    guard product.magnitude < 1e15 else { return 0 }
    let micros = Int64(product + (product < 0 ? -0.5 : 0.5))
    let magnitude = micros.magnitude
    // A quick no for most other values (a computed coordinate with 17 digits) before the exact test's division: for
    // the double nearest n / 10⁶, value × 10⁶ is within n × 2.3e-16 of n (two roundings of at most 2⁻⁵³ each), so a
    // product further than that bound (× 4) from n is no such double.
    let candidate = Double(micros)
    guard (product - candidate).magnitude <= product.magnitude * 1e-15 else { return 0 }
    guard magnitude >= 100, candidate / 1e6 == value else { return 0 }
    let fraction = magnitude % 1_000_000
    guard fraction != 0 else { return 0 }
    var p = out
    if micros < 0 {
      p.pointee = UInt8(ascii: "-")
      p += 1
    }
    let whole = magnitude / 1_000_000
    let wholeDigits = whole == 0 ? 1 : digitCount(whole)
    writeDigits(whole, count: wholeDigits, at: p)
    p += wholeDigits
    p.pointee = UInt8(ascii: ".")
    // All six places, then the trailing zeros dropped (the fraction is not 0, so this stops before the point).
    let places = UInt32(truncatingIfNeeded: fraction)
    let first = places / 10_000
    let rest = places &- first &* 10_000
    let second = rest / 100
    writePair(first, at: p + 1)
    writePair(second, at: p + 3)
    writePair(rest &- second &* 100, at: p + 5)
    p += 7
    while (p - 1).pointee == UInt8(ascii: "0") { p -= 1 }
    return p - out
  }

  /// Writes `value` (finite) as `description` does at `out` (at least 24 bytes of room); returns the bytes written.
  static func write(_ value: Double, to out: UnsafeMutablePointer<UInt8>) -> Int {
    var p = out
    if value.sign == .minus {
      p.pointee = UInt8(ascii: "-")
      p += 1
    }
    if value == 0 {
      p[0] = UInt8(ascii: "0")
      p[1] = UInt8(ascii: ".")
      p[2] = UInt8(ascii: "0")
      return p + 3 - out
    }
    var (digits, exponent) = decimal(value)
    // Schubfach may leave trailing zeros (when the shorter decimal wins); the text has none.
    if digits % 10 == 0 {
      while digits % 100 == 0 {
        digits /= 100
        exponent += 2
      }
      if digits % 10 == 0 {
        digits /= 10
        exponent += 1
      }
    }
    let count = digitCount(digits)
    // value = d.ddd × 10^scientific
    let scientific = exponent + count - 1
    // `description` switches to exponential form below 10^-4 and above 2^53 (where not every whole number is a
    // double any more).
    if scientific < -4 || value.magnitude > 9_007_199_254_740_992 {
      if count == 1 {
        p.pointee = UInt8(truncatingIfNeeded: digits) &+ UInt8(ascii: "0")
        p += 1
      } else {
        // All digits one place on, then the first moved in front of the point: splitting `digits` by 10^(count − 1)
        // would be a hardware division (its divisor is not a constant), the slowest instruction of the number.
        writeDigits(digits, count: count, at: p + 1)
        p[0] = p[1]
        p[1] = UInt8(ascii: ".")
        p += count + 1
      }
      p[0] = UInt8(ascii: "e")
      var e = scientific
      if e < 0 {
        p[1] = UInt8(ascii: "-")
        e = -e
      } else {
        p[1] = UInt8(ascii: "+")
      }
      p += 2
      if e >= 100 {
        p.pointee = UInt8(truncatingIfNeeded: e / 100) &+ UInt8(ascii: "0")
        p += 1
        e %= 100
      }
      writeDigits(UInt64(e), count: 2, at: p)
      return p + 2 - out
    }
    if scientific < 0 {
      // 0.000ddd
      let zeros = -scientific - 1
      p[0] = UInt8(ascii: "0")
      p[1] = UInt8(ascii: ".")
      p += 2
      for i in 0..<zeros { p[i] = UInt8(ascii: "0") }
      p += zeros
      writeDigits(digits, count: count, at: p)
      return p + count - out
    }
    if scientific + 1 < count {
      // ddd.ddd: as above, the digits one place on and the whole ones moved back in front of the point.
      let whole = scientific + 1
      writeDigits(digits, count: count, at: p + 1)
      if whole < 8 {
        // Eight bytes at once, not a loop (which became a call to memmove): the whole digits one place back, the
        // point, the fraction's first digits where they are (the eighth is at p[8] already).
        let raw = UnsafeMutableRawPointer(p)
        let first = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 1, as: UInt64.self))
        let shift = UInt64(truncatingIfNeeded: whole &* 8)
        let wholeMask: UInt64 = (1 << shift) &- 1
        let merged = first & wholeMask | UInt64(UInt8(ascii: ".")) << shift | (first & ~wholeMask) << 8
        raw.storeBytes(of: merged.littleEndian, as: UInt64.self)
      } else {
        for i in 0..<whole { p[i] = p[i + 1] }
        p[whole] = UInt8(ascii: ".")
      }
      return p + 1 + count - out
    }
    // ddd000.0 (whole numbers up to 2^53)
    writeDigits(digits, count: count, at: p)
    p += count
    let zeros = scientific + 1 - count
    for i in 0..<zeros { p[i] = UInt8(ascii: "0") }
    p += zeros
    p[0] = UInt8(ascii: ".")
    p[1] = UInt8(ascii: "0")
    return p + 2 - out
  }

  /// Writes exactly `count` decimal digits of `value` (< 10^count; leading zeros included) at `at`: eight at a time
  /// in 32-bit arithmetic, as digit pairs from a table.
  @inline(__always)
  private static func writeDigits(_ value: UInt64, count: Int, at: UnsafeMutablePointer<UInt8>) {
    var v = value
    var end = at + count
    var remaining = count
    while remaining > 8 {
      let q = v / 100_000_000
      writeEight(UInt32(truncatingIfNeeded: v &- q &* 100_000_000), at: end - 8)
      v = q
      end -= 8
      remaining -= 8
    }
    var n = UInt32(truncatingIfNeeded: v)
    while remaining >= 2 {
      let q = n / 100
      writePair(n &- q &* 100, at: end - 2)
      n = q
      end -= 2
      remaining -= 2
    }
    if remaining == 1 { (end - 1).pointee = UInt8(truncatingIfNeeded: n) &+ UInt8(ascii: "0") }
  }

  /// The eight digits of `n` (< 10^8).
  @inline(__always)
  private static func writeEight(_ n: UInt32, at: UnsafeMutablePointer<UInt8>) {
    let high = n / 10_000
    let low = n &- high &* 10_000
    let a = high / 100
    let b = low / 100
    writePair(a, at: at)
    writePair(high &- a &* 100, at: at + 2)
    writePair(b, at: at + 4)
    writePair(low &- b &* 100, at: at + 6)
  }

  /// The two digits of `n` (< 100).
  @inline(__always)
  private static func writePair(_ n: UInt32, at: UnsafeMutablePointer<UInt8>) {
    JSONTextCursor.digitPairs.withUTF8Buffer { table in
      let index = Int(truncatingIfNeeded: n) &* 2
      at[0] = table[index]
      at[1] = table[index &+ 1]
    }
  }

  /// How many decimal digits `v` (> 0, < 10^19) has.
  @inline(__always)
  private static func digitCount(_ v: UInt64) -> Int {
    // log10(v) from the bit length (1233/4096 ≈ log10 2), then one correction.
    let bits = 64 - v.leadingZeroBitCount
    let estimate = (bits &* 1233) >> 12
    return estimate + (v >= powersOf10[estimate] ? 1 : 0)
  }

  /// 10^0 … 10^19 (a literal, so no lazy initialization is checked on each use).
  private static let powersOf10: [UInt64] = [
    1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000, 10_000_000_000,
    100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000, 1_000_000_000_000_000,
    10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000, 10_000_000_000_000_000_000,
  ]

  // MARK: Schubfach

  /// The shortest, closest decimal of a finite nonzero `value`'s magnitude: digits × 10^exponent (the digits may end
  /// in zeros).
  package static func decimal(_ value: Double) -> (digits: UInt64, exponent: Int) {
    let fraction = value.significandBitPattern
    let biased = Int(value.exponentBitPattern)
    // value = c × 2^q
    let c: UInt64
    let q: Int
    if biased != 0 {
      c = fraction | (1 << 52)
      q = biased - 1075
    } else {
      c = fraction
      q = -1074
    }
    let isEven = c & 1 == 0
    // The lower neighbour is half as far when c is a power of two above the smallest normal exponent.
    let lowerIsCloser = fraction == 0 && biased > 1
    // The interval's ends and the value, × 4 (cbl, cb, cbr).
    let cbl = 4 &* c &- 2 &+ (lowerIsCloser ? 1 : 0)
    let cb = 4 &* c
    let cbr = 4 &* c &+ 2
    // k = ⌊log10(2^q)⌋, or ⌊log10(¾·2^q)⌋ for the closer lower end.
    let k = (q &* 1_262_611 &- (lowerIsCloser ? 524_031 : 0)) >> 22
    // h = q + ⌊log2(10^-k)⌋ + 1, in 1...4.
    let h = q &+ ((-k &* 1_741_647) >> 19) &+ 1
    let index = (-k - minimumPower) &* 2
    let g1 = tenPowers[index]
    let g0 = tenPowers[index + 1]
    let vbl = roundToOdd(g1, g0, cbl << h)
    let vb = roundToOdd(g1, g0, cb << h)
    let vbr = roundToOdd(g1, g0, cbr << h)
    // The ends count only for an even significand (a reader rounds a tie to it).
    let lower = vbl &+ (isEven ? 0 : 1)
    let upper = vbr &- (isEven ? 0 : 1)
    let s = vb >> 2
    if s >= 10 {
      // One digit fewer: a decimal of the coarser grid inside the interval, when exactly one of its two candidates
      // is (both inside cannot happen: the interval is narrower than that grid's step).
      let sp = s / 10
      let upInside = lower <= 40 &* sp
      let wpInside = 40 &* sp &+ 40 <= upper
      if upInside != wpInside { return (sp &+ (wpInside ? 1 : 0), k + 1) }
    }
    let uInside = lower <= 4 &* s
    let wInside = 4 &* s &+ 4 <= upper
    if uInside != wInside { return (s &+ (wInside ? 1 : 0), k) }
    // Both (or neither) of s and s + 1: the closer one, a tie to the even one.
    let middle = 4 &* s &+ 2
    let roundsUp = vb > middle || (vb == middle && s & 1 != 0)
    return (s &+ (roundsUp ? 1 : 0), k)
  }

  /// ⌊g·cp / 2^128⌋ with the bits below made sticky in its lowest bit (Schubfach's rounding to odd).
  @inline(__always)
  private static func roundToOdd(_ g1: UInt64, _ g0: UInt64, _ cp: UInt64) -> UInt64 {
    let x = cp.multipliedFullWidth(by: g0)
    let y = cp.multipliedFullWidth(by: g1)
    let (middle, carry) = y.low.addingReportingOverflow(x.high)
    let high = y.high &+ (carry ? 1 : 0)
    return high | (middle > 1 ? 1 : 0)
  }

  /// The powers 10^e for e in `minimumPower...maximumPower` that `decimal` scales by.
  private static let minimumPower = -292
  private static let maximumPower = 324

  /// For each e, g = ⌊10^e · 2^(127 − ⌊log2 10^e⌋)⌋ + 1 (in [2^127, 2^128): 10^e to 128 bits, rounded up), as its high
  /// and low 64 bits. Computed once with exact integer arithmetic rather than pasted as 1,234 constants.
  private static let tenPowers: [UInt64] = {
    var table = [UInt64](repeating: 0, count: (maximumPower - minimumPower + 1) * 2)
    func store(_ e: Int, _ g: (UInt64, UInt64)) {
      let index = (e - minimumPower) * 2
      table[index] = g.0
      table[index + 1] = g.1
    }
    // e ≥ 0: the top 128 bits of 10^e (exact below 2^128), plus one.
    var power = BigNatural(1)
    for e in 0...maximumPower {
      store(e, power.top128(roundedUp: true))
      power.multiply(by: 10)
    }
    // e < 0: ⌊2^(127 + b) / 10^-e⌋ + 1 with b the bit length of 10^-e, taken from one large power of two divided by
    // ten again and again (⌊⌊a / 10⌋ / 10⌋ = ⌊a / 100⌋, so each step stays exact).
    let shift = 127 + 1_100
    var quotient = BigNatural(1)
    quotient.shiftLeft(by: shift)
    var divisor = BigNatural(1)
    for n in 1...(-minimumPower) {
      quotient.divide(by: 10)
      divisor.multiply(by: 10)
      // ⌊2^(127 + b) / 10^n⌋ = ⌊2^shift / 10^n⌋ >> (shift − 127 − b)
      var g = quotient
      g.shiftRight(by: shift - 127 - divisor.bitLength)
      let (high, low) = g.top128(roundedUp: false)
      let (sum, carry) = low.addingReportingOverflow(1)
      store(-n, (high &+ (carry ? 1 : 0), sum))
    }
    return table
  }()
}

/// A natural number of any size, only as much of one as the table above needs (little-endian 32-bit limbs).
private struct BigNatural {
  private var limbs: [UInt32]

  init(_ value: UInt32) { limbs = [value] }

  var bitLength: Int {
    guard let last = limbs.last(where: { $0 != 0 }), let index = limbs.lastIndex(where: { $0 != 0 }) else { return 0 }
    return index * 32 + 32 - last.leadingZeroBitCount
  }

  mutating func multiply(by m: UInt32) {
    var carry: UInt64 = 0
    for i in limbs.indices {
      let product = UInt64(limbs[i]) * UInt64(m) + carry
      limbs[i] = UInt32(truncatingIfNeeded: product)
      carry = product >> 32
    }
    if carry != 0 { limbs.append(UInt32(carry)) }
  }

  mutating func divide(by d: UInt32) {
    var remainder: UInt64 = 0
    for i in limbs.indices.reversed() {
      let current = remainder << 32 | UInt64(limbs[i])
      limbs[i] = UInt32(current / UInt64(d))
      remainder = current % UInt64(d)
    }
  }

  mutating func shiftLeft(by bits: Int) {
    let words = bits / 32
    let rest = bits % 32
    var out = [UInt32](repeating: 0, count: words) + limbs + [0]
    if rest > 0 {
      for i in stride(from: out.count - 1, through: words, by: -1) {
        let low = i > words ? out[i - 1] >> (32 - rest) : 0
        out[i] = out[i] << rest | low
      }
    }
    limbs = out
  }

  mutating func shiftRight(by bits: Int) {
    precondition(bits >= 0)
    let words = bits / 32
    let rest = bits % 32
    guard words < limbs.count else {
      limbs = [0]
      return
    }
    var out = Array(limbs[words...])
    if rest > 0 {
      for i in out.indices {
        let high = i + 1 < out.count ? out[i + 1] << (32 - rest) : 0
        out[i] = out[i] >> rest | high
      }
    }
    limbs = out
  }

  /// The number's top 128 bits (its 128 bits below the first set bit, shifted up to bit 127 when shorter: the number
  /// × 2^(128 − bit length), floored), plus one when `roundedUp`.
  func top128(roundedUp: Bool) -> (UInt64, UInt64) {
    var copy = self
    let length = bitLength
    if length > 128 { copy.shiftRight(by: length - 128) } else { copy.shiftLeft(by: 128 - length) }
    var words = [UInt32](repeating: 0, count: 4)
    for i in 0..<min(4, copy.limbs.count) { words[i] = copy.limbs[i] }
    var high = UInt64(words[3]) << 32 | UInt64(words[2])
    var low = UInt64(words[1]) << 32 | UInt64(words[0])
    if roundedUp {
      let (sum, carry) = low.addingReportingOverflow(1)
      low = sum
      if carry { high &+= 1 }
    }
    return (high, low)
  }
}
