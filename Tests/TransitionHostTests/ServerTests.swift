import Glibc
import JSON
import JSONRPC
import POSIX
import PluginHost
import Testing

@testable import TransitionHost

/// Runs a server in-process over two pipes: `input` is written and closed before it starts (a `printf … |`
/// client), its output is drained on another thread and parsed line by line.
private struct Harness {
  var configuration = Server.Configuration()
  var closeOutputReader = false

  func run(_ input: String, configure: (Server) -> Void = { _ in }) -> (status: Int32, replies: [JSON], raw: String) {
    StdoutProtection.ignoreSIGPIPE()
    let stdin = TestPipe()
    let stdout = TestPipe()
    stdin.send(input)
    stdin.closeWrite()
    if closeOutputReader { stdout.closeRead() }
    let reader = closeOutputReader ? nil : stdout.drainInBackground()
    let server = Server(configuration: configuration, input: stdin.readEnd, output: stdout.writeEnd)
    configure(server)
    let status = server.run()
    stdout.closeWrite()
    let raw = String(decoding: reader?.wait() ?? [], as: UTF8.self)
    let replies = raw.split(separator: "\n").map { line in
      (try? JSON.parse(String(line))) ?? JSON("unparseable: \(line)")
    }
    return (status, replies, raw)
  }
}

private func parse(_ text: String) -> JSON {
  (try? JSON.parse(text)) ?? JSON("invalid expectation: \(text)")
}

@Suite struct ServerTests {
  @Test func initializeReportsNamesVersionsAndCapabilities() {
    let (status, replies, _) = Harness().run(
      #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"t"}}}"# + "\n")
    #expect(status == 0)
    let expected = parse(
      """
      {"jsonrpc":"2.0","id":1,"result":{"serverInfo":{"name":"transition-host","version":"\(HostIdentity.version)"},
      "protocolVersion":"1.0","pluginABI":{"major":1,"minor":3},
      "capabilities":{"framing":["newline","content-length"],"maxMessageBytes":8388608,"batches":true,
      "cancelRequest":true,"frames":[],"clocks":[]}}}
      """)
    #expect(replies == [expected])
  }

  @Test func initializeRejectsAClientInfoThatIsNotAnObject() {
    let (_, replies, _) = Harness().run(
      #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":3}}"# + "\n")
    #expect(replies.first?["error"]?["code"]?.intValue == -32602)
    #expect(replies.first?["error"]?["data"]?["field"]?.stringValue == "params.clientInfo")
  }

  @Test func endOfInputWithoutExitAnswersEverythingAndEndsWithZero() {
    let input = (1...500).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"initialize"}"# }.joined(separator: "\n")
    let (status, replies, _) = Harness().run(input)  // and no final newline: the last line still counts
    #expect(status == 0)
    #expect(replies.map { $0["id"]?.intValue } == (1...500).map { Int64($0) })
    #expect(replies.allSatisfy { $0["result"]?["serverInfo"]?["name"]?.stringValue == "transition-host" })
  }

  @Test func noInputIsReadWhileShouldPauseInputSaysSoAndEveryRequestIsAnsweredOnceAfter() {
    var paused = true
    var resumed = false
    var handledWhilePaused = 0
    let input = (1...300).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"probe"}"# }.joined(separator: "\n") + "\n"
    let (status, replies, _) = Harness().run(input) { server in
      server.register(
        method: "probe",
        returning: { _ in
          if !resumed { handledWhilePaused += 1 }
          return .null
        })
      server.shouldPauseInput = { paused }
      // Input is waiting in the pipe from the start; nothing of it may be read before this timer lifts the pause.
      server.loop.schedule(after: 0.05) {
        resumed = true
        paused = false
      }
    }
    #expect(status == 0)
    #expect(handledWhilePaused == 0)
    #expect(replies.map { $0["id"]?.intValue } == (1...300).map { Int64($0) })
    #expect(replies.allSatisfy { $0["result"]?.isNull == true })
  }

  @Test func shutdownThenRequestsAreRefusedAndExitEndsTheServer() {
    var terminated: [TerminationReason] = []
    let input = [
      #"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#,
      #"{"jsonrpc":"2.0","id":2,"method":"initialize"}"#,
      #"{"jsonrpc":"2.0","method":"initialized"}"#,
      #"[{"jsonrpc":"2.0","id":3,"method":"initialize"},{"jsonrpc":"2.0","method":"x"}]"#,
      #"{"jsonrpc":"2.0","method":"exit"}"#,
      #"{"jsonrpc":"2.0","id":4,"method":"initialize"}"#,
    ].joined(separator: "\n")
    let (status, replies, _) = Harness().run(input) { server in
      server.onTerminate = { terminated.append($0) }
    }
    #expect(status == 0)
    let refusal = #"{"code":-32600,"message":"Invalid Request: the server is shut down; only exit is accepted."}"#
    #expect(
      replies == [
        parse(#"{"jsonrpc":"2.0","id":1,"result":null}"#),
        parse(#"{"jsonrpc":"2.0","id":2,"error":\#(refusal)}"#),
        parse(#"[{"jsonrpc":"2.0","id":3,"error":\#(refusal)}]"#),
      ], "nothing after exit is answered")
    #expect(terminated == [.exitNotification])
  }

  @Test func exitWithoutShutdownAlsoEndsWithZero() {
    let input = #"{"jsonrpc":"2.0","method":"exit"}"# + "\n" + #"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#
    let (status, replies, _) = Harness().run(input)
    #expect(status == 0)
    #expect(replies.isEmpty)
  }

  @Test func queuedNotificationsWithTheSameKeyCollapseToTheLatest() {
    var handled: [String] = []
    let update = { (target: String, value: Int) in
      #"{"jsonrpc":"2.0","method":"test/update","params":{"target":"\#(target)","value":\#(value)}}"#
    }
    let input =
      [
        update("t", 1), update("t", 2), #"{"jsonrpc":"2.0","id":7,"method":"test/ping"}"#, update("t", 3),
        update("a", 1), #"{"jsonrpc":"2.0","id":8,"method":"test/update","params":{"target":"t","value":9}}"#,
        update("t", 4),
      ].joined(separator: "\n") + "\n"  // a last line without newline would be completed only by end of input
    let (_, replies, _) = Harness().run(input) { server in
      server.register(method: "test/ping") { _, responder in
        handled.append("ping")
        responder.reply(JSON("pong"))
      }
      server.register(method: "test/update") { request, responder in
        let target = request.params?["target"]?.stringValue ?? "?"
        handled.append("\(target):\(request.params?["value"]?.intValue ?? -1)")
        responder.reply(.null)
      }
      server.coalescingKey = { request in
        request.method == "test/update" ? "update:" + (request.params?["target"]?.stringValue ?? "") : nil
      }
    }
    // t:1 and t:2 and t:3 are superseded by t:4; the request with id 8 is never collapsed.
    #expect(handled == ["ping", "a:1", "t:9", "t:4"])
    #expect(replies.map { $0["id"]?.intValue } == [7, 8])
  }

  /// One read holding results, unknown methods, invalid requests, a parse error, an immediate handler's reply and
  /// notifications: each message is run as it is decoded while nothing is queued, and through the queue behind a
  /// notification that a later one could supersede; either way every request with an id gets exactly one reply, in
  /// the order it was read, errors in their places.
  @Test(arguments: [false, true])
  func everyRequestOfAChunkGetsOneReplyInOrderWithErrorsInterleaved(queuedBehindANotification: Bool) {
    var handled: [String] = []
    let lines = [
      queuedBehindANotification ? #"{"jsonrpc":"2.0","method":"test/update","params":{"value":1}}"# : nil,
      #"{"jsonrpc":"2.0","id":1,"method":"test/ping"}"#,
      #"{"jsonrpc":"2.0","id":2,"method":"test/nosuch"}"#,
      #"{"jsonrpc":"2.0","id":"3","method":"test/now"}"#,
      #"{"jsonrpc":"2.0","method":"test/nosuch"}"#,
      #"{"jsonrpc":"1.0","id":4,"method":"test/ping"}"#,
      #"{"jsonrpc":"2.0","id":5,"method":"test/nosuch"}"#,
      #"{"jsonrpc":"2.0","id":6,"method":"test/ping"}"#,
      "{not json",
      #"{"jsonrpc":"2.0","id":7,"method":"rpc.reserved"}"#,
      #"{"jsonrpc":"2.0","id":8.5,"method":"test/now","params":[1]}"#,
      queuedBehindANotification ? #"{"jsonrpc":"2.0","method":"test/update","params":{"value":2}}"# : nil,
      #"{"jsonrpc":"2.0","id":9,"method":"test/ping"}"#,
    ].compactMap { $0 }
    let (status, replies, _) = Harness().run(lines.joined(separator: "\n") + "\n") { server in
      server.register(method: "test/ping") { _, responder in
        handled.append("ping")
        responder.reply(JSON("pong"))
      }
      server.dispatcher.registerImmediate("test/now") { request, reply in
        handled.append("now")
        reply.reply(JSON(request.params?.count ?? 0))
      }
      server.register(method: "test/update") { request, responder in
        handled.append("update \(request.params?["value"]?.intValue ?? -1)")
        responder.reply(.null)
      }
      server.coalescingKey = { $0.method == "test/update" ? "update" : nil }
    }
    #expect(status == 0)
    let expected = [
      #"{"jsonrpc":"2.0","id":1,"result":"pong"}"#,
      #"{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found: test/nosuch.","data":{"method":"test/nosuch"}}}"#,
      #"{"jsonrpc":"2.0","id":"3","result":0}"#,
      #"{"jsonrpc":"2.0","id":4,"error":{"code":-32600,"message":"Invalid Request: jsonrpc must be \"2.0\"."}}"#,
      #"{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"Method not found: test/nosuch.","data":{"method":"test/nosuch"}}}"#,
      #"{"jsonrpc":"2.0","id":6,"result":"pong"}"#,
      "-32700 with id null",
      #"{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"Method not found: rpc.reserved.","data":{"method":"rpc.reserved"}}}"#,
      #"{"jsonrpc":"2.0","id":8.5,"result":1}"#,
      #"{"jsonrpc":"2.0","id":9,"result":"pong"}"#,
    ]
    #expect(replies.count == expected.count)
    for (reply, text) in zip(replies, expected) {
      if text.hasPrefix("-32700") {
        #expect(reply["id"]?.isNull == true && reply["error"]?["code"]?.intValue == -32700)
      } else {
        #expect(reply == parse(text))
      }
    }
    // The superseded first update never ran; the later one ran at its own place.
    #expect(
      handled == ["ping", "now", "ping", "now"] + (queuedBehindANotification ? ["update 2"] : []) + ["ping"])
  }

  @Test func pendingWorkKeepsTheServerAliveAfterEndOfInput() {
    var ticks = 0
    var inputClosedAt: Int?
    let (status, replies, _) = Harness().run(#"{"jsonrpc":"2.0","id":1,"method":"test/start"}"#) { server in
      server.register(method: "test/start") { _, responder in
        func tick() {
          ticks += 1
          server.sendNotification("test/tick", ["n": JSON(ticks)])
          if ticks < 3 { server.loop.schedule(after: 0.001, tick) }
        }
        server.loop.schedule(after: 0.001, tick)
        responder.reply(JSON(true))
      }
      server.onInputClosed = { inputClosedAt = ticks }
      server.hasPendingWork = { ticks < 3 }
    }
    #expect(status == 0)
    #expect(inputClosedAt == 0, "end of input is seen before the first tick")
    #expect(
      replies == [
        parse(#"{"jsonrpc":"2.0","id":1,"result":true}"#),
        parse(#"{"jsonrpc":"2.0","method":"test/tick","params":{"n":1}}"#),
        parse(#"{"jsonrpc":"2.0","method":"test/tick","params":{"n":2}}"#),
        parse(#"{"jsonrpc":"2.0","method":"test/tick","params":{"n":3}}"#),
      ])
  }

  @Test func aRequestLeftPendingAtTheEndIsAnsweredNotDropped() {
    var kept: Responder?
    let (status, replies, _) = Harness().run(#"{"jsonrpc":"2.0","id":"w","method":"test/wait"}"#) { server in
      server.register(method: "test/wait") { _, responder in kept = responder }
    }
    #expect(status == 0)
    #expect(
      replies == [
        parse(
          #"{"jsonrpc":"2.0","id":"w","error":{"code":-32800,"message":"Request cancelled: the host is exiting."}}"#)
      ])
    #expect(kept?.hasReplied == true)
  }

  @Test func anOverlongMessageGetsOneErrorAndTheNextMessageIsServed() {
    var harness = Harness()
    harness.configuration = Server.Configuration(maxMessageBytes: 64)
    let long =
      #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"pad":""# + String(repeating: "x", count: 200)
      + #""}}"#
    let (_, replies, _) = harness.run(long + "\n" + #"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"# + "\n")
    #expect(replies.count == 2)
    #expect(replies.first?["id"]?.isNull == true)
    #expect(replies.first?["error"]?["code"]?.intValue == -32600)
    #expect(replies.first?["error"]?["data"]?["limit"]?.intValue == 64)
    #expect(replies.last == parse(#"{"jsonrpc":"2.0","id":2,"result":null}"#))
  }

  @Test func contentLengthFramingBothWays() {
    var harness = Harness()
    harness.configuration = Server.Configuration(framing: .contentLength)
    let body = #"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#
    let (status, _, raw) = harness.run("Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
    #expect(status == 0)
    let reply = #"{"jsonrpc":"2.0","id":1,"result":null}"#
    #expect(raw == "Content-Length: \(reply.utf8.count)\r\n\r\n\(reply)")
  }

  @Test func aClosedStdoutEndsTheServerCleanly() {
    var harness = Harness()
    harness.closeOutputReader = true
    var terminated: [TerminationReason] = []
    let input = String(repeating: #"{"jsonrpc":"2.0","id":1,"method":"initialize"}"# + "\n", count: 100)
    let (status, _, _) = harness.run(input) { server in server.onTerminate = { terminated.append($0) } }
    #expect(status == 0)
    #expect(terminated == [.outputClosed])
  }
}
