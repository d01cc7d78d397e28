import JSON
import JSONRPC
import Testing

/// Handlers registered with `registerImmediate` answer through a value on the dispatcher's stack; they keep every
/// promise a responder handler keeps: exactly one reply per id, none for a notification, −32603 when dropped, a
/// deferred request pending and cancellable.
@Suite struct ImmediateReplyTests {
  final class Log {
    var lines: [String] = []
  }

  /// A connection whose dispatcher logs misuse into `log`.
  func connection(_ log: Log) -> LocalConnection {
    let connection = LocalConnection()
    connection.dispatcher.log = { log.lines.append($0) }
    return connection
  }

  @Test func aReplyIsTheAnswer() {
    let connection = LocalConnection()
    connection.dispatcher.registerImmediate("now") { _, reply in reply.reply(["ok": true]) }
    connection.dispatcher.registerImmediate("text") { _, reply in
      reply.reply(writingResult: { $0.append(contentsOf: Array(#"{"a":[1,2]}"#.utf8)) })
    }
    connection.dispatcher.registerImmediate("fails") { _, reply in reply.fail(.invalidParams(field: "params.x", "bad"))
    }
    connection.send(#"{"jsonrpc":"2.0","id":1,"method":"now"}"#)
    connection.send(#"{"jsonrpc":"2.0","id":"two","method":"text"}"#)
    connection.send(#"{"jsonrpc":"2.0","id":3,"method":"fails"}"#)
    let replies = connection.takeMessages().map { $0.serialized() }
    #expect(replies.count == 3)
    #expect(replies[0] == #"{"jsonrpc":"2.0","id":1,"result":{"ok":true}}"#)
    #expect(replies[1] == #"{"jsonrpc":"2.0","id":"two","result":{"a":[1,2]}}"#)
    let error = try? JSON.parse(replies[2])
    #expect(error?["error"]?["code"] == -32602)
    #expect(connection.dispatcher.pendingRequestCount == 0)
  }

  @Test func aSecondReplyIsIgnoredAndLogged() {
    let log = Log()
    let connection = connection(log)
    connection.dispatcher.registerImmediate("twice") { _, reply in
      reply.reply("first")
      reply.reply("second")
    }
    connection.send(#"{"jsonrpc":"2.0","id":1,"method":"twice"}"#)
    #expect(connection.takeMessages().map { $0.serialized() } == [#"{"jsonrpc":"2.0","id":1,"result":"first"}"#])
    #expect(log.lines.count == 1)
    #expect(log.lines.first?.contains("second reply") == true)
  }

  @Test func aDroppedRequestIsAnsweredWithAnInternalError() {
    let log = Log()
    let connection = connection(log)
    connection.dispatcher.registerImmediate("forgets") { _, _ in }
    connection.send(#"{"jsonrpc":"2.0","id":9,"method":"forgets"}"#)
    let replies = connection.takeMessages()
    #expect(replies.count == 1)
    #expect(replies.first?["id"] == 9)
    #expect(replies.first?["error"]?["code"] == -32603)
    #expect(log.lines.first?.contains("dropped without a reply") == true)
  }

  @Test func notificationsGetNoReply() {
    let log = Log()
    let connection = connection(log)
    var calls = 0
    var sawNotification = false
    connection.dispatcher.registerImmediate("note") { _, reply in
      calls += 1
      sawNotification = reply.isNotification
      reply.reply("ignored")
    }
    connection.dispatcher.registerImmediate("silent") { _, _ in calls += 1 }
    connection.send(#"{"jsonrpc":"2.0","method":"note"}"#)
    connection.send(#"{"jsonrpc":"2.0","method":"silent"}"#)
    #expect(calls == 2)
    #expect(sawNotification)
    #expect(connection.outputBytes.isEmpty)
    #expect(log.lines.isEmpty)
  }

  @Test func aDeferredRequestIsPendingUntilItsResponderReplies() {
    let connection = LocalConnection()
    var held: [Responder] = []
    connection.dispatcher.registerImmediate("later") { _, reply in held.append(reply.deferred()) }
    connection.send(#"{"jsonrpc":"2.0","id":4,"method":"later"}"#)
    #expect(connection.outputBytes.isEmpty)
    #expect(connection.dispatcher.pendingRequestCount == 1)
    held[0].reply("done")
    #expect(connection.takeMessages().map { $0.serialized() } == [#"{"jsonrpc":"2.0","id":4,"result":"done"}"#])
    #expect(connection.dispatcher.pendingRequestCount == 0)
  }

  @Test func aDeferredRequestCanBeCancelled() {
    let connection = LocalConnection()
    var held: [Responder] = []
    connection.dispatcher.registerImmediate("later") { _, reply in held.append(reply.deferred()) }
    connection.send(#"{"jsonrpc":"2.0","id":5,"method":"later"}"#)
    connection.send(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":5}}"#)
    let replies = connection.takeMessages()
    #expect(replies.count == 1)
    #expect(replies.first?["error"]?["code"] == -32800)
    held[0].reply("too late")
    #expect(connection.takeMessages().isEmpty)
    #expect(connection.dispatcher.pendingRequestCount == 0)
  }

  @Test func aDeferredResponderLetGoAnswersAnInternalError() {
    let connection = LocalConnection()
    connection.dispatcher.registerImmediate("loses") { _, reply in _ = reply.deferred() }
    connection.send(#"{"jsonrpc":"2.0","id":6,"method":"loses"}"#)
    let replies = connection.takeMessages()
    #expect(replies.count == 1)
    #expect(replies.first?["error"]?["code"] == -32603)
    #expect(connection.dispatcher.pendingRequestCount == 0)
  }

  @Test func batchMembersAnswerInTheirSlots() {
    let connection = LocalConnection()
    var held: [Responder] = []
    connection.dispatcher.registerImmediate("now") { request, reply in reply.reply(request.params?[0] ?? .null) }
    connection.dispatcher.registerImmediate("later") { _, reply in held.append(reply.deferred()) }
    connection.send(
      #"[{"jsonrpc":"2.0","id":1,"method":"later"},{"jsonrpc":"2.0","id":2,"method":"now","params":["b"]},{"jsonrpc":"2.0","method":"now","params":["x"]}]"#
    )
    #expect(connection.outputBytes.isEmpty)
    held[0].reply("a")
    #expect(
      connection.takeMessages().map { $0.serialized() } == [
        #"[{"jsonrpc":"2.0","id":1,"result":"a"},{"jsonrpc":"2.0","id":2,"result":"b"}]"#
      ])
  }
}
