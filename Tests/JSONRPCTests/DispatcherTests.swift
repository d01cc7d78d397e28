import JSON
import JSONRPC
import Testing

/// The raw text of the `id` member in a serialized reply, cut from the output bytes themselves (so the
/// check does not go through the JSON module's own reading).
private func idText(inReply bytes: [UInt8]) -> String? {
  let text = String(decoding: bytes, as: UTF8.self)
  guard let start = text.firstRange(of: #""id":"#)?.upperBound else { return nil }
  let rest = text[start...]
  guard let end = rest.firstRange(of: #","result""#)?.lowerBound ?? rest.firstRange(of: #","error""#)?.lowerBound else {
    return nil
  }
  return String(rest[..<end])
}

@Suite struct RequestValidationTests {
  private func reply(to line: String, register: (Dispatcher) -> Void = { _ in }) -> [JSON] {
    let connection = LocalConnection()
    connection.dispatcher.register("echo", returning: { $0.params ?? "no params" })
    register(connection.dispatcher)
    connection.send(line)
    return connection.takeMessages()
  }

  private func error(_ replies: [JSON]) -> (code: Int64?, id: JSON?) {
    (replies.first?["error"]?["code"]?.intValue, replies.first?["id"])
  }

  /// geth's choice: a detectable id is echoed even when the request is invalid.
  @Test func idAloneIsInvalidRequestEchoingTheId() {
    let replies = reply(to: #"{"id":1}"#)
    #expect(replies.count == 1)
    #expect(error(replies).code == -32600)
    #expect(error(replies).id == 1)
  }

  @Test(arguments: [#"[]"#, #"{}"#, "true", #"{"a":1}"#])
  func badIdTypeIsInvalidRequestWithNullId(_ id: String) {
    let replies = reply(to: #"{"jsonrpc":"2.0","method":"echo","id":\#(id)}"#)
    #expect(error(replies).code == -32600)
    #expect(error(replies).id == .null)
  }

  @Test(arguments: [
    #"{"method":"echo","id":5}"#,
    #"{"jsonrpc":"1.0","method":"echo","id":5}"#,
    #"{"jsonrpc":2.0,"method":"echo","id":5}"#,
    #"{"jsonrpc":"2.0 ","method":"echo","id":5}"#,
    #"{"jsonrpc":"2.0","id":5}"#,
    #"{"jsonrpc":"2.0","method":["echo"],"id":5}"#,
    #"{"jsonrpc":"2.0","method":null,"id":5}"#,
    #"{"jsonrpc":"2.0","method":"echo","params":"bar","id":5}"#,
    #"{"jsonrpc":"2.0","method":"echo","params":3,"id":5}"#,
    #"{"jsonrpc":"2.0","method":"echo","params":false,"id":5}"#,
    #"{"jsonrpc":"2.0","result":1,"id":5}"#,
  ])
  func invalidRequestsEchoTheirValidId(_ line: String) {
    let replies = reply(to: line)
    #expect(replies.count == 1)
    #expect(error(replies).code == -32600)
    #expect(error(replies).id == 5)
  }

  /// An invalid object is answered even without an id (it is not a valid notification).
  @Test func invalidObjectWithoutIdIsAnsweredWithNullId() {
    let replies = reply(to: #"{"jsonrpc":"2.0","method":7}"#)
    #expect(error(replies).code == -32600)
    #expect(error(replies).id == .null)
  }

  @Test(arguments: ["1", #""text""#, "null", "true", "3.5"])
  func nonObjectMessageIsInvalidRequest(_ line: String) {
    let replies = reply(to: line)
    #expect(replies.count == 1)
    #expect(error(replies).code == -32600)
    #expect(error(replies).id == .null)
  }

  @Test func nullParamsAreAbsent() {
    let replies = reply(to: #"{"jsonrpc":"2.0","method":"echo","params":null,"id":1}"#)
    #expect(replies.first?["result"] == "no params")
  }

  @Test func paramsByPositionAndByNameReachTheHandler() {
    #expect(reply(to: #"{"jsonrpc":"2.0","method":"echo","params":[1,"a"],"id":1}"#).first?["result"] == [1, "a"])
    #expect(reply(to: #"{"jsonrpc":"2.0","method":"echo","params":{"b":[]},"id":1}"#).first?["result"] == ["b": []])
  }

  @Test func nullIdIsARequestAnsweredWithNullId() {
    let replies = reply(to: #"{"jsonrpc":"2.0","method":"echo","params":[],"id":null}"#)
    #expect(replies.count == 1)
    #expect(replies.first?["id"] == .null)
    #expect(replies.first?["result"] == [])
  }

  @Test func reservedRpcMethodsAreNotFound() {
    let replies = reply(to: #"{"jsonrpc":"2.0","method":"rpc.echo","id":2}"#) {
      $0.register("rpc.echo", returning: { _ in 1 })
    }
    #expect(error(replies).code == -32601)
    #expect(error(replies).id == 2)
    #expect(reply(to: #"{"jsonrpc":"2.0","method":"rpc.echo"}"#).isEmpty)
  }

  @Test func unknownMethodNamesTheMethod() {
    let replies = reply(to: #"{"jsonrpc":"2.0","method":"no/such","id":"x"}"#)
    #expect(error(replies).code == -32601)
    #expect(replies.first?["error"]?["message"]?.stringValue?.contains("no/such") == true)
    #expect(replies.first?["error"]?["data"]?["method"] == "no/such")
  }

  @Test func parseErrorHasNullIdAndPosition() {
    let line = #"{"jsonrpc":"2.0","id":1,"method":"echo",}"#
    let replies = reply(to: line)
    #expect(error(replies).code == -32700)
    #expect(error(replies).id == .null)
    // The offending byte is the closing brace after the trailing comma: the last byte of the line.
    #expect(replies.first?["error"]?["data"]?["offset"] == JSON(line.utf8.count - 1))
  }

  @Test func notificationsAreNeverAnswered() {
    // Unknown, failing, throwing, rpc.*, and with an invalid params member type that is still valid.
    let connection = LocalConnection()
    connection.dispatcher.register("fails") { _, responder in responder.fail(.invalidParams("no")) }
    connection.dispatcher.register("throws", returning: { _ in throw ResponseError.internalError("x") })
    connection.dispatcher.register("replies", returning: { _ in 1 })
    for method in ["unknown", "fails", "throws", "replies", "rpc.x", "$/cancelRequest", "$/unknown"] {
      connection.send(#"{"jsonrpc":"2.0","method":"\#(method)","params":{"a":1}}"#)
    }
    #expect(connection.takeMessages().isEmpty)
    #expect(connection.request("replies")?["result"] == 1)
    #expect(connection.takeMessages().isEmpty)
  }

  @Test func invalidParamsNameTheField() throws {
    let connection = LocalConnection()
    connection.dispatcher.register(
      "start",
      returning: { request in
        let name = try request.requiredParam("transition").string(at: "params.transition")
        return JSON(name)
      })
    let missing = try #require(connection.request("start", ["other": 1]))
    #expect(missing["error"]?["code"] == -32602)
    #expect(missing["error"]?["message"] == "Invalid params: params.transition is required.")
    #expect(missing["error"]?["data"]?["field"] == "params.transition")
    let wrongType = try #require(connection.request("start", ["transition": 3]))
    #expect(wrongType["error"]?["message"] == "Invalid params: params.transition must be a string.")
    let positional = try #require(connection.request("start", [1]))
    #expect(positional["error"]?["data"]?["field"] == "params")
    #expect(connection.request("start", ["transition": "t1"])?["result"] == "t1")
  }

  /// −32603 carries a short detail, never a stack trace.
  @Test func internalErrorsStayShort() throws {
    struct Failure: Error, CustomStringConvertible {
      var description: String { String(repeating: "frame\n", count: 500) }
    }
    let connection = LocalConnection()
    connection.dispatcher.register("boom", returning: { _ in throw Failure() })
    let reply = try #require(connection.request("boom"))
    #expect(reply["error"]?["code"] == -32603)
    #expect(reply["error"]?["message"] == "Internal error.")
    let detail = try #require(reply["error"]?["data"]?["detail"]?.stringValue)
    #expect(detail.count <= 200)
  }
}

@Suite struct IdRoundTripTests {
  /// Each id comes back with the same JSON type and value; the reply text is cut from the raw output.
  /// `-0` is read by json-c as the integer 0, so it comes back as `0` (CONVENTIONS: same type and value).
  @Test(arguments: [
    ("1", "1"),
    (#""1""#, #""1""#),
    ("-0", "0"),
    ("9007199254740993", "9007199254740993"),
    (#""héllo ✓ 😀""#, #""héllo ✓ 😀""#),
    (#""\u00e9\ud83d\ude00""#, #""é😀""#),
    ("1.0", "1.0"),
    ("-12.50", "-12.50"),
    ("18446744073709551616", "18446744073709551616"),
    ("-9223372036854775808", "-9223372036854775808"),
    (#""""#, #""""#),
    ("null", "null"),
    // Lone surrogate escapes: no UTF-8 text holds them (json-c decodes U+FFFD), so the id's source text is echoed.
    (#""\udc00x""#, #""\udc00x""#),
    (#""\uD800""#, #""\uD800""#),
    (#""a\udbff\u0041 \/ é""#, #""a\udbff\u0041 \/ é""#),
  ])
  func idIsEchoedExactly(_ sent: String, _ echoed: String) throws {
    let connection = LocalConnection()
    connection.dispatcher.register("ping", returning: { _ in "pong" })
    connection.send(#"{"jsonrpc":"2.0","method":"ping","id":\#(sent)}"#)
    #expect(idText(inReply: connection.outputBytes) == echoed)
    let reply = try #require(connection.takeMessages().first)
    #expect(reply["id"] == (try JSON.parse(echoed)))
    #expect(reply["id"]?.kind == (try JSON.parse(sent)).kind)
  }

  @Test func idsEchoInErrorsAndBatches() throws {
    let connection = LocalConnection()
    connection.send(#"[{"jsonrpc":"2.0","method":"none","id":9007199254740993},{"id":"x"}]"#)
    let reply = try #require(connection.takeMessages().first)
    #expect(reply[0]?["id"]?.intValue == 9_007_199_254_740_993)
    #expect(reply[1]?["id"] == "x")
    #expect(reply[1]?["error"]?["code"] == -32600)
  }

  /// A lone-surrogate id comes back as written in an error reply of an invalid request and inside a batch.
  @Test func loneSurrogateIdsEchoInErrorsAndBatches() throws {
    let connection = LocalConnection()
    connection.send(#"{"id":"\udc00x"}"#)
    #expect(idText(inReply: connection.outputBytes) == #""\udc00x""#)
    _ = connection.takeMessages()
    connection.send(
      #"[{"jsonrpc":"2.0","method":"none","id":"\ud800"},{"jsonrpc":"2.0","method":"none","id":"\udc00"}]"#)
    let text = String(decoding: connection.outputBytes, as: UTF8.self)
    #expect(text.contains(#"{"jsonrpc":"2.0","id":"\ud800","error":"#), "\(text)")
    #expect(text.contains(#"{"jsonrpc":"2.0","id":"\udc00","error":"#), "\(text)")
  }
}

@Suite struct BatchTests {
  @Test func batchOfNotificationsWritesNothing() {
    let connection = LocalConnection()
    var calls = 0
    connection.dispatcher.register("tick") { _, _ in calls += 1 }
    connection.send(
      #"[{"jsonrpc":"2.0","method":"tick"},{"jsonrpc":"2.0","method":"tick"},{"jsonrpc":"2.0","method":"x"}]"#)
    #expect(connection.outputBytes.isEmpty)
    #expect(calls == 2)
  }

  @Test func invalidElementsEachGetAnError() throws {
    let connection = LocalConnection()
    connection.send(#"[null, 1, "a", [], {"jsonrpc":"2.0"}]"#)
    let reply = try #require(connection.takeMessages().first)
    #expect(reply.count == 5)
    for element in reply.elements {
      #expect(element["error"]?["code"] == -32600)
      #expect(element["id"] == .null)
    }
  }

  @Test func repliesComeInRequestOrderAsOneArray() throws {
    let connection = LocalConnection()
    connection.dispatcher.register("double", returning: { JSON(try $0.requiredParam("n").integer(at: "params.n") * 2) })
    connection.send(
      #"[{"jsonrpc":"2.0","method":"double","params":{"n":1},"id":"a"},{"jsonrpc":"2.0","method":"double","params":{"n":2}},{"jsonrpc":"2.0","method":"double","params":{"n":3},"id":"b"}]"#
    )
    let messages = connection.takeMessages()
    #expect(messages.count == 1)
    #expect(
      messages.first?.serialized() == #"[{"jsonrpc":"2.0","id":"a","result":2},{"jsonrpc":"2.0","id":"b","result":6}]"#)
  }

  /// A batch reply is written once, when its last member (here a deferred one) has replied.
  @Test func batchWaitsForDeferredMembers() throws {
    let connection = LocalConnection()
    var held: [Responder] = []
    connection.dispatcher.register("later") { _, responder in held.append(responder) }
    connection.dispatcher.register("now", returning: { _ in "now" })
    connection.send(
      #"[{"jsonrpc":"2.0","method":"later","id":1},{"jsonrpc":"2.0","method":"now","id":2},{"jsonrpc":"2.0","method":"later","id":3}]"#
    )
    #expect(connection.outputBytes.isEmpty)
    #expect(connection.dispatcher.pendingRequestCount == 2)
    held[1].reply("third")
    #expect(connection.outputBytes.isEmpty)
    held[0].reply("first")
    let messages = connection.takeMessages()
    #expect(messages.count == 1)
    #expect(
      messages.first?.serialized()
        == #"[{"jsonrpc":"2.0","id":1,"result":"first"},{"jsonrpc":"2.0","id":2,"result":"now"},{"jsonrpc":"2.0","id":3,"result":"third"}]"#
    )
    #expect(connection.dispatcher.pendingRequestCount == 0)
  }
}

@Suite struct PendingAndCancellationTests {
  final class Waiter {
    var held: [Responder] = []
    var cancelled: [String] = []

    func install(on dispatcher: Dispatcher) {
      dispatcher.register("wait") { [unowned self] request, responder in
        responder.onCancel = { [unowned self] in cancelled.append(request.id?.serialized() ?? "?") }
        held.append(responder)
      }
    }
  }

  @Test func cancelAnswersAPendingRequestOnce() throws {
    let connection = LocalConnection()
    let waiter = Waiter()
    waiter.install(on: connection.dispatcher)
    connection.send(#"{"jsonrpc":"2.0","method":"wait","id":7}"#)
    #expect(connection.outputBytes.isEmpty)
    #expect(connection.dispatcher.pendingRequestCount == 1)

    connection.send(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":7}}"#)
    let replies = connection.takeMessages()
    #expect(replies.count == 1)
    #expect(replies.first?["id"] == 7)
    #expect(replies.first?["error"]?["code"] == -32800)
    #expect(waiter.cancelled == ["7"])
    #expect(waiter.held[0].isCancelled)
    #expect(connection.dispatcher.pendingRequestCount == 0)

    // The handler's late reply is dropped; cancelling again does nothing.
    waiter.held[0].reply("too late")
    connection.send(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":7}}"#)
    #expect(connection.takeMessages().isEmpty)
    #expect(waiter.cancelled == ["7"])
  }

  @Test func cancellingUnknownOrFinishedRequestsDoesNothing() {
    let connection = LocalConnection()
    connection.dispatcher.register("quick", returning: { _ in 1 })
    #expect(connection.request("quick")?["result"] == 1)
    connection.send(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}}"#)
    connection.send(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"nobody"}}"#)
    connection.send(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{}}"#)
    connection.send(#"{"jsonrpc":"2.0","method":"$/cancelRequest"}"#)
    #expect(connection.takeMessages().isEmpty)
  }

  @Test func cancelMatchesIdsByTypeAndValue() throws {
    let connection = LocalConnection()
    let waiter = Waiter()
    waiter.install(on: connection.dispatcher)
    connection.send(#"{"jsonrpc":"2.0","method":"wait","id":"1"}"#)
    connection.send(#"{"jsonrpc":"2.0","method":"wait","id":1}"#)
    connection.send(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}}"#)
    let replies = connection.takeMessages()
    #expect(replies.count == 1)
    #expect(replies.first?["id"]?.kind == .int)
    waiter.held[0].reply("done")
    #expect(connection.takeMessages().first?["id"] == "1")
  }

  /// Two lone-surrogate ids that both decode to U+FFFD are still two ids: a cancel names one of them.
  @Test func cancelTellsLoneSurrogateIdsApart() throws {
    let connection = LocalConnection()
    let waiter = Waiter()
    waiter.install(on: connection.dispatcher)
    connection.send(#"{"jsonrpc":"2.0","method":"wait","id":"\udc00"}"#)
    connection.send(#"{"jsonrpc":"2.0","method":"wait","id":"\udc01"}"#)
    connection.send(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"\udc01"}}"#)
    #expect(idText(inReply: connection.outputBytes) == #""\udc01""#)
    #expect(connection.takeMessages().count == 1)
    waiter.held[0].reply("done")
    let text = String(decoding: connection.outputBytes, as: UTF8.self)
    #expect(text.hasSuffix(#"{"jsonrpc":"2.0","id":"\udc00","result":"done"}"# + "\n"), "\(text)")
  }

  /// Sent as a request, `$/cancelRequest` itself gets `null` back.
  @Test func cancelSentAsARequestIsAnswered() throws {
    let connection = LocalConnection()
    let waiter = Waiter()
    waiter.install(on: connection.dispatcher)
    connection.send(#"{"jsonrpc":"2.0","method":"wait","id":"w"}"#)
    connection.send(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"w"},"id":"c"}"#)
    let replies = connection.takeMessages()
    #expect(replies.map { $0["id"] } == ["w", "c"])
    #expect(replies.last?["result"] == .null)
    let bad = try #require(connection.request("$/cancelRequest", ["id": [1]]))
    #expect(bad["error"]?["code"] == -32602)
  }

  @Test func cancelInsideABatchFillsItsSlot() throws {
    let connection = LocalConnection()
    let waiter = Waiter()
    waiter.install(on: connection.dispatcher)
    connection.send(#"[{"jsonrpc":"2.0","method":"wait","id":"a"},{"jsonrpc":"2.0","method":"nothing","id":"b"}]"#)
    #expect(connection.outputBytes.isEmpty)
    connection.send(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"a"}}"#)
    let reply = try #require(connection.takeMessages().first)
    #expect(reply[0]?["error"]?["code"] == -32800)
    #expect(reply[1]?["error"]?["code"] == -32601)
  }

  @Test func exactlyOneReplyPerRequest() throws {
    let connection = LocalConnection()
    var log: [String] = []
    connection.dispatcher.log = { log.append($0) }
    connection.dispatcher.register("twice") { _, responder in
      responder.reply(1)
      responder.reply(2)
      responder.fail(.internalError())
    }
    connection.send(#"{"jsonrpc":"2.0","method":"twice","id":1}"#)
    let replies = connection.takeMessages()
    #expect(replies.count == 1)
    #expect(replies.first?["result"] == 1)
    #expect(log.count == 2)
  }

  /// A handler that lets its responder go without replying still produces exactly one reply.
  @Test func droppedResponderAnswersInternalError() throws {
    let connection = LocalConnection()
    connection.dispatcher.register("forgets") { _, _ in }
    let reply = try #require(connection.request("forgets"))
    #expect(reply["error"]?["code"] == -32603)
    #expect(connection.dispatcher.pendingRequestCount == 0)
    #expect(connection.takeMessages().isEmpty)
  }

  @Test func failAllPendingAnswersEveryone() {
    let connection = LocalConnection()
    let waiter = Waiter()
    waiter.install(on: connection.dispatcher)
    for id in 1...3 { connection.send(#"{"jsonrpc":"2.0","method":"wait","id":\#(id)}"#) }
    #expect(connection.dispatcher.pendingRequestCount == 3)
    connection.dispatcher.failAllPending(with: .requestCancelled)
    let replies = connection.takeMessages()
    #expect(Set(replies.compactMap { $0["id"]?.intValue }) == [1, 2, 3])
    #expect(replies.allSatisfy { $0["error"]?["code"] == -32800 })
    #expect(connection.dispatcher.pendingRequestCount == 0)
    for responder in waiter.held { responder.reply("late") }
    #expect(connection.takeMessages().isEmpty)
  }
}

@Suite struct DispatcherOutputTests {
  @Test func hostNotificationsAndErrors() throws {
    var lines: [String] = []
    let dispatcher = Dispatcher { lines.append(String(decoding: $0, as: UTF8.self)) }
    dispatcher.sendNotification("transition/didEnd", ["transition": "t1", "completed": true])
    dispatcher.sendNotification("ping")
    dispatcher.sendError(.messageTooLarge(limit: 10))
    #expect(lines.count == 3)
    #expect(
      lines[0] == #"{"jsonrpc":"2.0","method":"transition/didEnd","params":{"transition":"t1","completed":true}}"#)
    #expect(lines[1] == #"{"jsonrpc":"2.0","method":"ping"}"#)
    let error = try JSON.parse(lines[2])
    #expect(error["id"] == .null)
    #expect(error["error"]?["code"] == -32600)
    #expect(error["error"]?["data"]?["limit"] == 10)
  }

  /// An error reply splices `data`'s stored text in; the bytes are those json-c writes for the object (escaped
  /// quote and newline, `/` and non-ASCII as they are, control characters as \u00XX), written out by hand.
  @Test func errorRepliesAreWrittenExactly() {
    var lines: [String] = []
    let dispatcher = Dispatcher { lines.append(String(decoding: $0, as: UTF8.self)) }
    let data: JSON = ["path": "a/b", "list": [1, 0.5, true, nil], "nested": ["é": "\u{1}"]]
    let error = ResponseError(code: .invalidParams, message: "say \"hi\"\n/ok", data: data)
    dispatcher.sendError(error, id: 7)
    dispatcher.sendError(.invalidRequest("x"), id: "s")
    let expected = [
      #"{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"say \"hi\"\n/ok","data":"#
        + #"{"path":"a/b","list":[1,0.5,true,null],"nested":{"é":"\u0001"}}}}"#,
      #"{"jsonrpc":"2.0","id":"s","error":{"code":-32600,"message":"Invalid Request: x."}}"#,
    ]
    #expect(lines == expected)
    var bytes: [UInt8] = []
    error.appendSerialized(to: &bytes)
    #expect(String(decoding: bytes, as: UTF8.self) == error.json.serialized())
  }

  @Test func decodeThenDispatchLaterEqualsHandle() throws {
    var output: [String] = []
    let dispatcher = Dispatcher { output.append(String(decoding: $0, as: UTF8.self)) }
    dispatcher.register("n", returning: { $0.params?[0] ?? .null })
    let texts = [
      #"{"jsonrpc":"2.0","method":"n","params":[1],"id":1}"#,
      #"{"jsonrpc":"2.0","method":"n","params":[2]}"#,
      #"[{"jsonrpc":"2.0","method":"n","params":[3],"id":3},{"jsonrpc":"2.0","method":"n","params":[4]}]"#,
      "[]",
      "{",
    ]
    var decoded: [DecodedMessage] = []
    for text in texts {
      var text = text
      decoded.append(text.withUTF8 { dispatcher.decode(UnsafeRawBufferPointer($0)) })
    }
    #expect(output.isEmpty)
    #expect(decoded[0].singleNotification == nil)
    #expect(decoded[1].singleNotification?.params?[0] == 2)
    #expect(decoded[2].singleNotification == nil)
    #expect(decoded[2].requests.map(\.isNotification) == [false, true])
    #expect(decoded[3].requests.isEmpty)
    for message in decoded { dispatcher.dispatch(message) }
    var direct: [String] = []
    let reference = Dispatcher { direct.append(String(decoding: $0, as: UTF8.self)) }
    reference.register("n", returning: { $0.params?[0] ?? .null })
    for text in texts { reference.handle(text) }
    #expect(output == direct)
    #expect(output.count == 4)
  }

  @Test func errorFactoriesFollowTheSpecCodes() {
    #expect(ResponseError.parseError(JSONParseError(offset: 1, reason: "x")).code.rawValue == -32700)
    #expect(ResponseError.invalidRequest("x").code.rawValue == -32600)
    #expect(ResponseError.methodNotFound("x").code.rawValue == -32601)
    #expect(ResponseError.invalidParams("x").code.rawValue == -32602)
    #expect(ResponseError.internalError().code.rawValue == -32603)
    #expect(ResponseError.requestCancelled.code.rawValue == -32800)
    // An application's own code travels as it is, with its data.
    let error = ResponseError(code: ErrorCode(rawValue: 2004), message: "bad", data: ["node": "a", "field": "frame"])
    #expect(error.data == ["node": "a", "field": "frame"])
    #expect(error.json.serialized() == #"{"code":2004,"message":"bad","data":{"node":"a","field":"frame"}}"#)
  }
}

@Suite struct ReentrancyTests {
  /// An output callback may cause more output (for example a server that answers every pending request
  /// when a write fails); each message still comes out whole.
  @Test func outputCallbackMayWriteAgain() {
    var lines: [String] = []
    var held: [Responder] = []
    var dispatcher: Dispatcher?
    dispatcher = Dispatcher { bytes in
      lines.append(String(decoding: bytes, as: UTF8.self))
      if lines.count == 1 { dispatcher?.failAllPending(with: .internalError("closing")) }
    }
    dispatcher?.register("hold") { _, responder in held.append(responder) }
    dispatcher?.register("now", returning: { _ in "now" })
    dispatcher?.handle(#"{"jsonrpc":"2.0","method":"hold","id":1}"#)
    dispatcher?.handle(#"{"jsonrpc":"2.0","method":"now","id":2}"#)
    #expect(lines.count == 2)
    #expect(lines.first == #"{"jsonrpc":"2.0","id":2,"result":"now"}"#)
    #expect(lines.last?.hasPrefix(#"{"jsonrpc":"2.0","id":1,"error":{"code":-32603"#) == true)
    dispatcher = nil
  }
}
