/// A small deterministic generator (SplitMix64, Steele, Lea & Flood 2014), so "random" cases are the same on every
/// run and a failure reproduces from its seed.
package struct SplitMix64: RandomNumberGenerator, Sendable {
  package var state: UInt64

  package init(seed: UInt64) {
    state = seed
  }

  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A uniform Double in [0, 1) from the top 53 bits.
  package mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

  /// A uniform Double in [lo, hi).
  package mutating func range(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * unit() }

  /// next() mod n (n > 0).
  package mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
