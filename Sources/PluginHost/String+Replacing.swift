extension String {
  /// `self` with every occurrence of `target` replaced, left to right without overlaps; an empty `target`
  /// changes nothing. (No Foundation here; the HTML preview uses it too.)
  package func replacingAll(_ target: String, with replacement: String) -> String {
    guard !target.isEmpty else { return self }
    var result = ""
    var rest = self[...]
    while let range = rest.firstRange(of: target) {
      result += rest[..<range.lowerBound]
      result += replacement
      rest = rest[range.upperBound...]
    }
    result += rest
    return result
  }
}
