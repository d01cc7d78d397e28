import JSON
import JSONRPC
import TestSupport
import Testing

/// A framing event with owned bytes, comparable in tests.
enum Event: Equatable, CustomStringConvertible {
  case message(String)
  case oversized(Int)
  case error(String)

  init(_ event: FramingEvent) {
    switch event {
    case .message(let bytes): self = .message(String(decoding: bytes, as: UTF8.self))
    case .oversized(let limit): self = .oversized(limit)
    case .framingError(let reason): self = .error(reason)
    }
  }

  var description: String {
    switch self {
    case .message(let text): "message(\(text.debugDescription))"
    case .oversized(let limit): "oversized(\(limit))"
    case .error(let reason): "error(\(reason))"
    }
  }
}

/// Feeds `chunks` to `framer`, then (optionally) ends the input; returns every event.
func run<Framer: MessageFramer>(_ framer: Framer, _ chunks: [[UInt8]], finish: Bool = true) -> [Event] {
  var framer = framer
  var events: [Event] = []
  for chunk in chunks {
    chunk.withUnsafeBytes { framer.feed($0) { events.append(Event($0)) } }
  }
  if finish { framer.finish { events.append(Event($0)) } }
  return events
}

/// `bytes` cut into random pieces (sizes 1…`maxPiece`, some empty).
func randomChunks(_ bytes: [UInt8], using generator: inout SplitMix64, maxPiece: Int) -> [[UInt8]] {
  var chunks: [[UInt8]] = []
  var index = 0
  while index < bytes.count {
    let size = Int(generator.next() % UInt64(maxPiece + 1))
    let end = min(index + size, bytes.count)
    chunks.append(Array(bytes[index..<end]))
    index = end
  }
  return chunks
}

/// Checks that `bytes` gives `expected` whole, byte by byte and in 50 seeded random chunkings.
func expectSameEventsInAnyChunking<Framer: MessageFramer>(
  _ framer: Framer,
  _ bytes: [UInt8],
  _ expected: [Event],
  sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(run(framer, [bytes]) == expected, "whole", sourceLocation: sourceLocation)
  #expect(run(framer, bytes.map { [$0] }) == expected, "byte by byte", sourceLocation: sourceLocation)
  var generator = SplitMix64(seed: UInt64(bytes.count) &* 7919)
  for round in 0..<50 {
    let chunks = randomChunks(bytes, using: &generator, maxPiece: 1 + round % 12)
    #expect(run(framer, chunks) == expected, "chunks \(chunks.map(\.count))", sourceLocation: sourceLocation)
  }
}

@Suite struct LineFramerTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let input: [UInt8]
    let expected: [Event]
    var testDescription: String { String(decoding: input, as: UTF8.self).debugDescription }

    init(_ input: String, _ expected: [Event]) {
      self.input = Array(input.utf8)
      self.expected = expected
    }

    init(bytes: [UInt8], _ expected: [Event]) {
      self.input = bytes
      self.expected = expected
    }
  }

  static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

  /// Limit 8 bytes per line.
  static let cases: [Case] = [
    Case("a\nb\n", [.message("a"), .message("b")]),
    Case("a\r\nb\r\n", [.message("a"), .message("b")]),
    Case("a\r\r\n", [.message("a\r")]),
    Case("\n\n  \n\t\r\n \r\nx\n\r\n", [.message("x")]),
    Case(" x \n", [.message(" x ")]),
    Case("a\nlast", [.message("a"), .message("last")]),
    Case("12345678\n", [.message("12345678")]),
    Case("12345678\r\n", [.message("12345678")]),
    Case("123456789\n", [.oversized(8)]),
    Case("123456789\r\n", [.oversized(8)]),
    Case("12345678\r\r\n", [.oversized(8)]),
    Case("\(String(repeating: "x", count: 100))\nok\n", [.oversized(8), .message("ok")]),
    Case("a\n\(String(repeating: "y", count: 30))", [.message("a"), .oversized(8)]),
    Case("1234567890\n12345678", [.oversized(8), .message("12345678")]),
    Case(bytes: bom + Array("{}\n[]\n".utf8), [.message("{}"), .message("[]")]),
    Case(bytes: bom + Array("\n".utf8), []),
    Case(bytes: bom, []),
    Case(bytes: Array("{}\n".utf8) + bom + Array("x\n".utf8), [.message("{}"), .message("\u{FEFF}x")]),
    Case(bytes: [0xEF, 0xBB] + Array("x\n".utf8), [.message(String(decoding: [0xEF, 0xBB, 0x78], as: UTF8.self))]),
    Case(bytes: [0xEF], [.message(String(decoding: [0xEF], as: UTF8.self))]),
  ]

  @Test(arguments: cases)
  func sameEventsInAnyChunking(_ testCase: Case) {
    expectSameEventsInAnyChunking(LineFramer(maxLineBytes: 8), testCase.input, testCase.expected)
  }

  @Test func withoutEndOfInputALastPartialLineWaits() {
    #expect(run(LineFramer(), [Array("a\nb".utf8)], finish: false) == [.message("a")])
  }

  /// A 100 MB line with a limit of 1 KiB: one error, the next line intact, and never more than the
  /// limit (plus one byte for a possible `\r`) held.
  @Test func overlongLineNeverHeldInMemory() {
    var framer = LineFramer(maxLineBytes: 1024)
    var events: [Event] = []
    var largestBuffer = 0
    let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 64 * 1024)
    chunk.withUnsafeBytes { bytes in
      for _ in 0..<1600 {
        framer.feed(bytes) { events.append(Event($0)) }
        largestBuffer = max(largestBuffer, framer.bufferedByteCount)
      }
    }
    Array("\n{\"ok\":1}\n".utf8).withUnsafeBytes { framer.feed($0) { events.append(Event($0)) } }
    #expect(events == [.oversized(1024), .message("{\"ok\":1}")])
    #expect(largestBuffer <= 1025)
  }

  @Test func defaultLimitIsEightMebibytes() {
    #expect(LineFramer().maxLineBytes == 8 * 1024 * 1024)
    #expect(Framing.defaultMaxMessageBytes == 8_388_608)
  }
}

@Suite struct ContentLengthFramerTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let input: String
    let expected: [Event]
    var testDescription: String { input.debugDescription }

    init(_ input: String, _ expected: [Event]) {
      self.input = input
      self.expected = expected
    }
  }

  /// Limit 16 bytes per body.
  static let cases: [Case] = [
    Case("Content-Length: 2\r\n\r\n{}Content-Length: 3\r\n\r\n[1]", [.message("{}"), .message("[1]")]),
    Case(
      "content-length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}",
      [.message("{}")]
    ),
    Case("CONTENT-LENGTH:2\r\nX-Other: y\r\n\r\n[]", [.message("[]")]),
    Case("Content-Length: 2\n\n{}", [.message("{}")]),
    Case("\r\n\r\nContent-Length: 2\r\n\r\n{}", [.message("{}")]),
    Case("Content-Length:   4  \r\n\r\n\"é\"", [.message("\"é\"")]),
    Case("Content-Length: 0\r\n\r\n", [.message("")]),
    Case(
      "Content-Type: x\r\n\r\n{}Content-Length: 2\r\n\r\n[]",
      [.error("missing Content-Length header"), .message("[]")]
    ),
    Case(
      "Content-Length: abc\r\n\r\n{}Content-Length: 2\r\n\r\n[]",
      [.error("invalid Content-Length"), .message("[]")]
    ),
    Case(
      "Content-Length: -2\r\n\r\n{}Content-Length: 2\r\n\r\n[]",
      [.error("invalid Content-Length"), .message("[]")]
    ),
    Case("garbage\r\nContent-Length: 2\r\n\r\n{}", [.error("malformed header line"), .message("{}")]),
    Case(
      "Content-Length: 20\r\n\r\n01234567890123456789Content-Length: 2\r\n\r\n{}",
      [.oversized(16), .message("{}")]
    ),
    Case("Content-Length: 5\r\n\r\nab", [.error("end of input inside a message")]),
    Case("Content-Length: 5\r\n", [.error("end of input inside a message")]),
    Case("Content-Length: 999999999999999999999999\r\n\r\n", [.error("invalid Content-Length")]),
  ]

  @Test(arguments: cases)
  func sameEventsInAnyChunking(_ testCase: Case) {
    expectSameEventsInAnyChunking(ContentLengthFramer(maxBodyBytes: 16), Array(testCase.input.utf8), testCase.expected)
  }

  @Test func oversizedHeaderBlockResynchronizes() {
    let input = "X-Long: \(String(repeating: "a", count: 9000))\r\n\r\n{}Content-Length: 2\r\n\r\n[]"
    let events = run(ContentLengthFramer(), [Array(input.utf8)])
    #expect(events == [.error("header block longer than 8192 bytes"), .message("[]")])
  }

  @Test func oversizedBodyIsSkippedNotHeld() {
    var framer = ContentLengthFramer(maxBodyBytes: 1024)
    var events: [Event] = []
    var largest = 0
    Array("Content-Length: 104857600\r\n\r\n".utf8).withUnsafeBytes { framer.feed($0) { events.append(Event($0)) } }
    let chunk = [UInt8](repeating: 0x20, count: 64 * 1024)
    chunk.withUnsafeBytes { bytes in
      for _ in 0..<1600 {
        framer.feed(bytes) { events.append(Event($0)) }
        largest = max(largest, framer.bufferedByteCount)
      }
    }
    Array("Content-Length: 2\r\n\r\n{}".utf8).withUnsafeBytes { framer.feed($0) { events.append(Event($0)) } }
    #expect(events == [.oversized(1024), .message("{}")])
    #expect(largest <= 1024)
  }
}

@Suite struct FramingEncodingTests {
  @Test func encoders() {
    #expect(Framing.newline.encode(Array("{}".utf8)) == Array("{}\n".utf8))
    // "é" is two bytes in UTF-8: the header counts bytes, not characters.
    #expect(Framing.contentLength.encode(Array("\"é\"".utf8)) == Array("Content-Length: 4\r\n\r\n\"é\"".utf8))
    #expect(Framing(rawValue: "content-length") == .contentLength)
    #expect(Framing(rawValue: "newline") == .newline)
  }

  /// Bodies encoded then decoded in random chunks come back unchanged, in order.
  @Test(arguments: Framing.allCases)
  func encodeThenDecode(_ framing: Framing) {
    var bodies = [#"{"a":1}"#, #"["é😀",{"x":"Content-Length: 5"}]"#, "1", #""\n""#]
    if framing == .contentLength { bodies.append("{\n\"multi\":\r\n\"line\"}") }
    var stream: [UInt8] = []
    for body in bodies {
      Array(body.utf8).withUnsafeBytes { framing.encode($0, into: &stream) }
    }
    expectSameEventsInAnyChunking(framing.makeFramer(maxMessageBytes: 1000), stream, bodies.map { .message($0) })
  }
}

@Suite struct LocalConnectionTests {
  @Test func contentLengthFramingEndToEnd() throws {
    let connection = LocalConnection(framing: .contentLength)
    connection.dispatcher.register("initialize", returning: { _ in ["serverInfo": ["name": "transition-host"]] })
    let reply = try #require(connection.request("initialize", ["capabilities": [:]]))
    #expect(reply["result"]?["serverInfo"]?["name"] == "transition-host")
    let header = "Content-Length: \(reply.serialized().utf8.count)\r\n\r\n"
    #expect(connection.outputBytes.starts(with: Array(header.utf8)))
  }

  /// An overlong line gets one error reply, and the request after it its normal reply.
  @Test func overlongLineThenValidRequest() throws {
    let connection = LocalConnection(maxMessageBytes: 64)
    connection.dispatcher.register("ping", returning: { _ in "pong" })
    connection.sendRaw(Array("[\(String(repeating: "1,", count: 500))1]\n".utf8))
    let reply = try #require(connection.request("ping"))
    let messages = connection.takeMessages()
    #expect(messages.count == 1)
    #expect(messages.first?["error"]?["code"] == -32600)
    #expect(messages.first?["id"] == .null)
    #expect(reply["result"] == "pong")
  }

  /// Output is one compact line per message, never an embedded newline.
  @Test func outputIsOneLinePerMessage() {
    let connection = LocalConnection()
    connection.dispatcher.register("text", returning: { _ in "line1\nline2\r\n" })
    connection.send(#"{"jsonrpc":"2.0","method":"text","id":1}"#)
    connection.send(#"[{"jsonrpc":"2.0","method":"text","id":2},{"jsonrpc":"2.0","method":"text","id":3}]"#)
    let lines = connection.outputBytes.split(separator: 0x0A, omittingEmptySubsequences: false)
    #expect(lines.count == 3)
    #expect(lines.last?.isEmpty == true)
    #expect(connection.takeMessages().count == 2)
  }
}
