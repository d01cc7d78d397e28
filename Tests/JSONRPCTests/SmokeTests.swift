import JSON
import JSONRPC
import Testing

@Test func smokeRequestReply() throws {
  let connection = LocalConnection()
  connection.dispatcher.register("subtract") { request in
    JSON((request.params?[0]?.intValue ?? 0) - (request.params?[1]?.intValue ?? 0))
  }
  connection.send(#"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#)
  let messages = connection.takeMessages()
  #expect(messages.map { $0.serialized() } == [#"{"jsonrpc":"2.0","id":1,"result":19}"#])
}
