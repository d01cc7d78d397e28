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
