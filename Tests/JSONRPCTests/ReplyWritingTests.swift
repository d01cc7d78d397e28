import JSON
import TestSupport
import Testing

@testable import JSONRPC

/// The replies the dispatcher writes without building a tree for them: unknown-method errors from a kept object,
/// error strings through one reused json-c string, results appended as text, and messages written straight into a
/// sink. Every expectation is json-c's own serialization of the same value.
@Suite struct ReplyWritingTests {
  private static let hostileNames = [
    "x", "transition/nosuch", "a\"b\\c", "tab\there", "\u{0}\u{1}\u{1f}", "é/日本/😀", "",
    String(repeating: "n", count: 300),
  ]

  @Test func unknownMethodRepliesAreTheErrorsOwnJSON() throws {
    var lines: [String] = []
    let dispatcher = Dispatcher { lines.append(String(decoding: $0, as: UTF8.self)) }
    // Twice each, and more names than the dispatcher keeps, so the second pass mixes kept and remade objects.
    var names = Self.hostileNames + (0..<12).map { "m\($0)" }
    names += names
    for (index, name) in names.enumerated() {
      let request: JSON = ["jsonrpc": "2.0", "id": JSON(index), "method": JSON(name)]
      dispatcher.handle(request.serialized())
    }
    #expect(lines.count == names.count)
    for (index, name) in names.enumerated() {
      let expected: JSON = ["jsonrpc": "2.0", "id": JSON(index), "error": ResponseError.methodNotFound(name).json]
      #expect(lines[index] == expected.serialized(), "\(name)")
    }
  }

  @Test func aHandlerRegisteredLaterIsFoundAfterAMiss() {
    var lines: [String] = []
    let dispatcher = Dispatcher { lines.append(String(decoding: $0, as: UTF8.self)) }
    dispatcher.handle(#"{"jsonrpc":"2.0","id":1,"method":"late"}"#)
    dispatcher.register("late", returning: { _ in "here" })
    dispatcher.handle(#"{"jsonrpc":"2.0","id":2,"method":"late"}"#)
    dispatcher.register("late", returning: { _ in "replaced" })
    dispatcher.handle(#"{"jsonrpc":"2.0","id":3,"method":"late"}"#)
    #expect(lines[0].contains("-32601"))
    #expect(lines[1] == #"{"jsonrpc":"2.0","id":2,"result":"here"}"#)
    #expect(lines[2] == #"{"jsonrpc":"2.0","id":3,"result":"replaced"}"#)
  }

  @Test func errorStringsAreEscapedAsJSONCEscapesThem() {
    let encoder = JSONStringEncoder()
    var generator = SplitMix64(seed: 32601)
    var strings = Self.hostileNames
    for _ in 0..<2_000 {
      strings.append(
        String(
          String.UnicodeScalarView(
            (0..<generator.below(40)).map { _ in Unicode.Scalar(UInt32(generator.below(0xD800))) ?? "x" })))
    }
    for string in strings {
      var bytes: [UInt8] = []
      encoder.append(string, to: &bytes)
      #expect(String(decoding: bytes, as: UTF8.self) == JSON(string).serialized())
    }
  }

  @Test func errorsWithOneMemberDataWriteAndReadAsTheirJSON() {
    for name in Self.hostileNames {
      for error in [ResponseError.methodNotFound(name), .invalidParams(field: name, "is wrong"), .internalError(name)] {
        var bytes: [UInt8] = []
        error.appendSerialized(to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == error.json.serialized())
        // The same error given its data as a value is equal, and reads back the same data.
        #expect(ResponseError(code: error.code, message: error.message, data: error.data) == error)
        #expect(error.data?.count == 1)
      }
    }
  }

  @Test func writtenResultsGoIntoTheReplyAndBatches() {
    var lines: [String] = []
    let dispatcher = Dispatcher { lines.append(String(decoding: $0, as: UTF8.self)) }
    dispatcher.register("text") { _, responder in
      responder.reply(writingResult: { $0.append(contentsOf: #"{"a":[1,2]}"#.utf8) })
      // A second reply is ignored; its text is never asked for.
      responder.reply(writingResult: { _ in Issue.record("a second reply must not write") })
    }
    dispatcher.handle(#"{"jsonrpc":"2.0","id":1,"method":"text"}"#)
    dispatcher.handle(#"{"jsonrpc":"2.0","method":"text"}"#)
    dispatcher.handle(#"[{"jsonrpc":"2.0","id":2,"method":"text"},{"jsonrpc":"2.0","id":3,"method":"nope"}]"#)
    #expect(
      lines == [
        #"{"jsonrpc":"2.0","id":1,"result":{"a":[1,2]}}"#,
        #"[{"jsonrpc":"2.0","id":2,"result":{"a":[1,2]}},"#
          + #"{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"Method not found: nope.","data":{"method":"nope"}}}]"#,
      ])
  }

  /// A sink gets every message as a writer into its own buffer; `output` is then not used.
  @Test func messagesAreWrittenIntoTheSink() {
    final class Sink: MessageSink {
      var buffer: [UInt8] = []
      func appendMessage(writing write: (inout [UInt8]) -> Void) {
        write(&buffer)
        buffer.append(0x0A)
      }
    }
    let sink = Sink()
    let dispatcher = Dispatcher { _ in Issue.record("output must not be used while there is a sink") }
    dispatcher.sink = sink
    dispatcher.register("one", returning: { _ in 1 })
    dispatcher.handle(#"{"jsonrpc":"2.0","id":"a","method":"one"}"#)
    dispatcher.sendNotification("note", ["x": true])
    dispatcher.writeMessage { $0.append(contentsOf: "{}".utf8) }
    #expect(
      String(decoding: sink.buffer, as: UTF8.self)
        == #"{"jsonrpc":"2.0","id":"a","result":1}"# + "\n" + #"{"jsonrpc":"2.0","method":"note","params":{"x":true}}"#
        + "\n{}\n")
  }

  @Test func aBodyWrittenInPlaceIsFramedInPlace() {
    for framing in Framing.allCases {
      var buffer = Array("before".utf8)
      let start = buffer.count
      buffer.append(contentsOf: #"{"k":"é"}"#.utf8)
      framing.frameBody(startingAt: start, in: &buffer)
      #expect(buffer == Array("before".utf8) + framing.encode(Array(#"{"k":"é"}"#.utf8)))
    }
  }
}
