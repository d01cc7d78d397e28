import JSON
import JSONRPC
import Testing

/// The examples of the JSON-RPC 2.0 specification, section 7, each collapsed to one line as NDJSON
/// needs, with the replies the specification gives (nil: no reply at all).
@Suite struct SpecExampleTests {
  struct Example: CustomTestStringConvertible, Sendable {
    let name: String
    let request: String
    let reply: String?
    var testDescription: String { name }
  }

  static let examples: [Example] = [
    Example(
      name: "positional parameters 1",
      request: #"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#,
      reply: #"{"jsonrpc": "2.0", "result": 19, "id": 1}"#
    ),
    Example(
      name: "positional parameters 2",
      request: #"{"jsonrpc": "2.0", "method": "subtract", "params": [23, 42], "id": 2}"#,
      reply: #"{"jsonrpc": "2.0", "result": -19, "id": 2}"#
    ),
    Example(
      name: "named parameters 1",
      request: #"{"jsonrpc": "2.0", "method": "subtract", "params": {"subtrahend": 23, "minuend": 42}, "id": 3}"#,
      reply: #"{"jsonrpc": "2.0", "result": 19, "id": 3}"#
    ),
    Example(
      name: "named parameters 2",
      request: #"{"jsonrpc": "2.0", "method": "subtract", "params": {"minuend": 42, "subtrahend": 23}, "id": 4}"#,
      reply: #"{"jsonrpc": "2.0", "result": 19, "id": 4}"#
    ),
    Example(
      name: "notification 1",
      request: #"{"jsonrpc": "2.0", "method": "update", "params": [1,2,3,4,5]}"#,
      reply: nil
    ),
    Example(name: "notification 2", request: #"{"jsonrpc": "2.0", "method": "foobar"}"#, reply: nil),
    Example(
      name: "non-existent method",
      request: #"{"jsonrpc": "2.0", "method": "foobar", "id": "1"}"#,
      reply: #"{"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}, "id": "1"}"#
    ),
    Example(
      name: "invalid JSON",
      request: #"{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]"#,
      reply: #"{"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}, "id": null}"#
    ),
    Example(
      name: "invalid Request object",
      request: #"{"jsonrpc": "2.0", "method": 1, "params": "bar"}"#,
      reply: #"{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}"#
    ),
    Example(
      name: "batch, invalid JSON",
      request: #"[ {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"}, {"jsonrpc": "2.0", "method" ]"#,
      reply: #"{"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}, "id": null}"#
    ),
    Example(
      name: "empty Array",
      request: "[]",
      reply: #"{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}"#
    ),
    Example(
      name: "invalid Batch (but not empty)",
      request: "[1]",
      reply: #"[ {"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null} ]"#
    ),
    Example(
      name: "invalid Batch",
      request: "[1,2,3]",
      reply: """
        [ {"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}, \
        {"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}, \
        {"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null} ]
        """
    ),
    Example(
      name: "Batch",
      request: """
        [ {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"}, \
        {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}, \
        {"jsonrpc": "2.0", "method": "subtract", "params": [42,23], "id": "2"}, \
        {"foo": "boo"}, \
        {"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"}, \
        {"jsonrpc": "2.0", "method": "get_data", "id": "9"} ]
        """,
      reply: """
        [ {"jsonrpc": "2.0", "result": 7, "id": "1"}, \
        {"jsonrpc": "2.0", "result": 19, "id": "2"}, \
        {"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}, \
        {"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}, "id": "5"}, \
        {"jsonrpc": "2.0", "result": ["hello", 5], "id": "9"} ]
        """
    ),
    Example(
      name: "Batch (all notifications)",
      request: """
        [ {"jsonrpc": "2.0", "method": "notify_sum", "params": [1,2,4]}, \
        {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]} ]
        """,
      reply: nil
    ),
  ]

  @Test(arguments: examples)
  func example(_ example: Example) throws {
    let fixture = SpecFixture()
    #expect(!example.request.contains("\n"))
    fixture.connection.send(example.request)
    let replies = fixture.connection.takeMessages()
    if let expectedText = example.reply {
      let expected = try JSON.parse(expectedText)
      try #require(replies.count == 1)
      #expect(replyMatches(replies[0], expected), "got \(replies[0])")
    } else {
      #expect(replies.isEmpty, "got \(replies)")
    }
    // Silence proven: a sentinel request sent next gets the very next (and only) reply.
    fixture.connection.send(#"{"jsonrpc":"2.0","method":"get_data","id":"sentinel"}"#)
    let sentinel = fixture.connection.takeMessages()
    #expect(sentinel.count == 1)
    #expect(sentinel.first?["id"] == "sentinel")
  }

  /// All examples through one connection in order: replies in order, notifications delivered, silence
  /// where the spec returns nothing.
  @Test func allExamplesInOneStream() throws {
    let fixture = SpecFixture()
    var expectedCount = 0
    for example in SpecExampleTests.examples {
      fixture.connection.send(example.request)
      if example.reply != nil { expectedCount += 1 }
    }
    let replies = fixture.connection.takeMessages()
    let expected = try SpecExampleTests.examples.compactMap(\.reply).map { try JSON.parse($0) }
    try #require(replies.count == expectedCount)
    for (reply, expectedReply) in zip(replies, expected) {
      #expect(replyMatches(reply, expectedReply), "got \(reply), expected \(expectedReply)")
    }
    #expect(fixture.notifications.map(\.0) == ["update", "notify_hello", "notify_sum", "notify_hello"])
    #expect(fixture.notifications.map(\.1) == ["[1,2,3,4,5]", "[7]", "[1,2,4]", "[7]"])
  }

  /// The comparison itself must be able to fail.
  @Test func comparisonRejectsWrongReplies() throws {
    let expected = try JSON.parse(#"{"jsonrpc": "2.0", "result": 19, "id": 1}"#)
    #expect(!replyMatches(try JSON.parse(#"{"jsonrpc":"2.0","result":19,"id":"1"}"#), expected))
    #expect(!replyMatches(try JSON.parse(#"{"jsonrpc":"2.0","result":19.0,"id":1}"#), expected))
    #expect(!replyMatches(try JSON.parse(#"{"jsonrpc":"2.0","result":-19,"id":1}"#), expected))
    #expect(!replyMatches(try JSON.parse(#"{"jsonrpc":"1.0","result":19,"id":1}"#), expected))
    let batch = try JSON.parse(#"[{"jsonrpc":"2.0","result":1,"id":1},{"jsonrpc":"2.0","result":2,"id":2}]"#)
    let swapped = try JSON.parse(#"[{"jsonrpc":"2.0","result":2,"id":2},{"jsonrpc":"2.0","result":1,"id":1}]"#)
    let wrong = try JSON.parse(#"[{"jsonrpc":"2.0","result":1,"id":1},{"jsonrpc":"2.0","result":1,"id":1}]"#)
    #expect(replyMatches(swapped, batch))
    #expect(!replyMatches(wrong, batch))
  }
}
