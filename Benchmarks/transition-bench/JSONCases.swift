// JSON and JSON-RPC in process: one message parsed and serialized, the dispatcher turning requests into replies,
// and the line framer's throughput.

import JSON
import JSONRPC

/// A typical small request: 130 bytes, nested params, a string, numbers and a boolean.
let sampleMessage =
  #"{"jsonrpc":"2.0","id":42,"method":"transition/update","params":{"transition":"t17","percent":0.4375,"#
  + #""velocity":-1.25,"flag":true}}"#

func jsonCases(_ effort: Effort) -> [Figure] {
  var figures: [Figure] = []
  let message = Array(sampleMessage.utf8)

  // Parse and serialize into a reused buffer, as the host does with every message it reads and writes.
  var out: [UInt8] = []
  out.reserveCapacity(256)
  figures.append(
    measure(
      "json: parse+serialize \(message.count)-byte message", iterations: effort.count(200_000), effort: effort,
      bytesPerOp: Double(message.count)
    ) { n in
      message.withUnsafeBytes { bytes in
        for _ in 0..<n {
          guard let value = try? JSON.parse(bytes) else { fatalError("the sample message must parse") }
          out.removeAll(keepingCapacity: true)
          value.appendSerialized(to: &out)
        }
      }
      blackHole(out)
    })
  figures[figures.count - 1].note = "op = parse + serialize"

  // The dispatcher: a third each of a request with a result, an unknown method (−32601 with data) and a
  // notification (no reply), all through one output that counts the bytes it is handed.
  var written = 0
  var replies = 0
  let dispatcher = Dispatcher { reply in
    written += reply.count
    replies += 1
  }
  dispatcher.register("bench/echo") { request in request.params ?? .null }
  dispatcher.register("bench/note") { request, _ in blackHole(request.method) }
  let messages = [
    #"{"jsonrpc":"2.0","id":1,"method":"bench/echo","params":{"a":[1,2,3],"b":"text"}}"#,
    #"{"jsonrpc":"2.0","id":2,"method":"bench/unknown","params":{"a":1}}"#,
    #"{"jsonrpc":"2.0","method":"bench/note","params":{"a":1}}"#,
  ].map { Array($0.utf8) }
  figures.append(
    measure(
      "dispatcher: request -> reply (result / -32601 / notification)", iterations: effort.count(100_000),
      effort: effort
    ) { n in
      for i in 0..<n { messages[i % 3].withUnsafeBytes { dispatcher.handle($0) } }
    })
  precondition(replies > 0 && written > 0, "the dispatcher must have replied")
  figures[figures.count - 1].note = "mixed 1:1:1"

  // The line framer over 4 MB of such messages, fed in 64 KB chunks as read(2) hands them over.
  var stream: [UInt8] = []
  var lines = 0
  while stream.count < 4 << 20 {
    stream += message + [0x0A]
    lines += 1
  }
  let chunk = 64 << 10
  var framed = 0
  figures.append(
    measure(
      "line framer: 64 KB chunks", iterations: effort.count(40), effort: effort, bytesPerOp: Double(stream.count)
    ) { n in
      for _ in 0..<n {
        var framer = LineFramer()
        var found = 0
        stream.withUnsafeBytes { all in
          var offset = 0
          while offset < all.count {
            let end = min(offset + chunk, all.count)
            framer.feed(UnsafeRawBufferPointer(rebasing: all[offset..<end])) { event in
              if case .message(let body) = event, body.count == message.count { found += 1 }
            }
            offset = end
          }
        }
        precondition(found == lines, "the framer must report every line whole")
        framed += found
      }
    })
  precondition(framed > 0, "the framer must report messages")
  figures[figures.count - 1].note = "op = 4 MB of \(message.count + 1)-byte lines"
  return figures
}
