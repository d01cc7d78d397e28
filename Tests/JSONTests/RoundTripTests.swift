import JSON
import Testing

/// Every kind of value at every nesting depth up to the limit (512) and one past it.
@Suite struct RoundTripTests {
  /// The innermost value: its JSON text, how to build it, and the kind it must read as.
  struct Leaf: CustomTestStringConvertible, Sendable {
    let text: String
    let kind: JSON.Kind
    var testDescription: String { text }

    func build() -> JSON {
      switch kind {
      case .null: .null
      case .bool: JSON(true)
      case .int: JSON(-7)
      case .double: JSON(2.5)
      case .string: JSON("s/é")
      case .array: .array([])
      case .object: .object([])
      }
    }
  }

  static let leaves: [Leaf] = [
    Leaf(text: "null", kind: .null),
    Leaf(text: "true", kind: .bool),
    Leaf(text: "-7", kind: .int),
    Leaf(text: "2.5", kind: .double),
    Leaf(text: "\"s/é\"", kind: .string),
    Leaf(text: "[]", kind: .array),
    Leaf(text: "{}", kind: .object),
  ]

  /// `leaf` wrapped in `wrappers` containers, alternating array and object from the outside in.
  static func nestedText(_ leaf: Leaf, wrappers: Int) -> String {
    var text = ""
    for level in 0..<wrappers { text += level.isMultiple(of: 2) ? "[" : "{\"k\":" }
    text += leaf.text
    for level in (0..<wrappers).reversed() { text += level.isMultiple(of: 2) ? "]" : "}" }
    return text
  }

  @Test(arguments: leaves)
  func everyDepthUpToTheLimit(_ leaf: Leaf) throws {
    let limit = 512
    for wrappers in 0..<limit {
      let text = RoundTripTests.nestedText(leaf, wrappers: wrappers)
      let parsed = try JSON.parse(text)
      #expect(parsed.serialized() == text)

      var built = leaf.build()
      for level in (0..<wrappers).reversed() {
        built = level.isMultiple(of: 2) ? .array([built]) : .object([("k", built)])
      }
      #expect(built.serialized() == text)
      #expect(built == parsed)

      var inner = parsed
      for level in 0..<wrappers {
        inner = level.isMultiple(of: 2) ? inner[0]! : inner["k"]!
      }
      #expect(inner.kind == leaf.kind)
      #expect(inner == leaf.build())
    }
    let tooDeep = RoundTripTests.nestedText(leaf, wrappers: limit)
    #expect(parseError(tooDeep)?.reason == "nesting too deep")
  }

  @Test func depthLimitIsConfigurable() {
    #expect(parseError("[[[]]]", maxDepth: 3) == nil)
    #expect(parseError("[[[[]]]]", maxDepth: 3)?.reason == "nesting too deep")
    #expect(parseError("[[1]]", maxDepth: 3) == nil)
    #expect(parseError("[[[1]]]", maxDepth: 3)?.reason == "nesting too deep")
    #expect(parseError("{\"a\":{\"b\":[1]}}", maxDepth: 4) == nil)
    #expect(parseError("{\"a\":{\"b\":[1]}}", maxDepth: 3)?.reason == "nesting too deep")
    #expect(parseError("1", maxDepth: 1) == nil)
    #expect(parseError("[]", maxDepth: 1) == nil)
    #expect(parseError("[1]", maxDepth: 1)?.reason == "nesting too deep")
  }

  @Test func reusedParserStartsAfreshEachTime() throws {
    let parser = JSONParser(maxDepth: 4)
    #expect(throws: JSONParseError.self) { try parser.parse("[1,") }
    #expect(try parser.parse("[1]") == [1])
    #expect(throws: JSONParseError.self) { try parser.parse("42 x") }
    #expect(try parser.parse("42") == 42)
    #expect(throws: JSONParseError.self) { try parser.parse("[[[[[1]]]]]") }
    #expect(try parser.parse("{\"a\":[true]}") == ["a": [true]])
  }
}
