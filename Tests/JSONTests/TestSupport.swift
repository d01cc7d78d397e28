import JSON

/// Parses raw bytes (which may be invalid UTF-8 or hold NULs).
func parseBytes(_ bytes: [UInt8], maxDepth: Int = 512) throws(JSONParseError) -> JSON {
  let result = bytes.withUnsafeBytes { raw in
    Result { () throws(JSONParseError) -> JSON in try JSON.parse(raw, maxDepth: maxDepth) }
  }
  return try result.get()
}

/// The parse error for `bytes`, or nil when they parse.
func parseError(_ bytes: [UInt8], maxDepth: Int = 512) -> JSONParseError? {
  do {
    _ = try parseBytes(bytes, maxDepth: maxDepth)
    return nil
  } catch {
    return error
  }
}

func parseError(_ text: String, maxDepth: Int = 512) -> JSONParseError? {
  parseError(Array(text.utf8), maxDepth: maxDepth)
}

/// A small deterministic generator (SplitMix64), so "random" cases are the same on every run.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
