import Foundation
import JSON
import POSIX
import TestSupport
import Testing

/// SIGTERM while the client has stopped reading: whatever the framing, the stream must end at a message boundary
/// once the reader reads again (Protocol.md, "End of input, signals, a closed stdout").
@Suite(.serialized) struct TerminationTests {
  /// A tree of `count` views, so that each frame is tens of kilobytes.
  static func tree(_ id: String, views count: Int) -> JSON {
    let children = (0..<count).map { index -> JSON in
      ["id": JSON("\(id)-\(index)"), "frame": ["x": JSON(index), "y": JSON(2 * index), "width": 40, "height": 20]]
    }
    return ["id": JSON(id), "frame": ["x": 0, "y": 0, "width": 400, "height": 800], "children": .array(children)]
  }

  /// Splits a Content-Length stream into bodies; nil when it does not end exactly after a whole message.
  static func contentLengthBodies(_ bytes: [UInt8]) -> [[UInt8]]? {
    var bodies: [[UInt8]] = []
    var rest = bytes[...]
    let separator = Array("\r\n\r\n".utf8)
    while !rest.isEmpty {
      guard let end = rest.firstRange(of: separator) else { return nil }
      let header = String(decoding: rest[..<end.lowerBound], as: UTF8.self)
      guard header.hasPrefix("Content-Length: "), let length = Int(header.dropFirst("Content-Length: ".count)) else {
        return nil
      }
      let body = rest[end.upperBound...].prefix(length)
      guard body.count == length else { return nil }
      bodies.append(Array(body))
      rest = rest[(end.upperBound + length)...]
    }
    return bodies
  }

  @Test(arguments: ["newline", "content-length"])
  func aStalledReaderThatReadsAgainGetsOnlyWholeMessages(framing: String) throws {
    let host = try HostProcess(["--framing", framing], drainStdout: false)
    let reader = try #require(host.stdoutReader)
    func message(_ id: Int, _ method: String, _ params: JSON) -> [UInt8] {
      let request: JSON = ["jsonrpc": "2.0", "id": JSON(id), "method": JSON(method), "params": params]
      let body = Array(request.serialized().utf8)
      return framing == "newline" ? body + [10] : Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
    }
    // 40 real-time transitions of 60 views each (about 30 KB a frame) at 120 fps: far more than the pipe holds.
    var input = message(1, "plugins/load", ["path": "libTestPluginMinimal.so"])
    for index in 0..<40 {
      input += message(
        2 + index, "transition/start",
        [
          "animator": "fade", "operation": "present", "fps": 120, "params": ["duration": 10],
          "container": ["width": 400, "height": 800], "from": Self.tree("from\(index)", views: 30),
          "to": Self.tree("to\(index)", views: 30),
        ])
    }
    // From another thread: the host stops reading stdin while it is blocked on the full stdout.
    let everything = input
    let writer = host.writeInBackground { write in _ = write(everything) }
    // Wait until the host is blocked on the full pipe (the reader has stopped), then a little more.
    let capacity = try reader.pipeCapacity()
    let filled = Date(timeIntervalSinceNow: 30)
    while (try reader.unreadByteCount()) < capacity - 8192 && Date() < filled { usleep(10_000) }
    usleep(200_000)
    host.kill(SIGTERM)
    // The reader stays away for a third of the host's 0.9 s, then reads slowly: 4 KiB every 10 ms, far less than the
    // host has left to say (a last frame and a didEnd per transition), so the deadline comes while it writes.
    usleep(300_000)
    var stream: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    let ended = Date(timeIntervalSinceNow: 30)
    while Date() < ended {
      let count = try reader.read(into: &chunk)
      if count == 0 { break }
      stream += chunk[0..<count]
      usleep(10_000)
    }
    #expect(host.waitForExit(timeout: 10) == .exited(0))
    host.closeStdin()
    while writer.isExecuting { usleep(1000) }
    let bodies: [[UInt8]]
    if framing == "newline" {
      #expect(stream.last == 10, "the stream ends inside a line")
      bodies = stream.split(separator: 10).map(Array.init)
    } else {
      let parsed = Self.contentLengthBodies(stream)
      #expect(parsed != nil, "the stream ends inside a message")
      bodies = parsed ?? []
    }
    #expect(bodies.count > 2)
    for body in bodies {
      #expect(
        (try? JSON.parse(String(decoding: body, as: UTF8.self))) != nil,
        "a message that is not JSON: \(String(decoding: body.prefix(80), as: UTF8.self))")
    }
  }
}
