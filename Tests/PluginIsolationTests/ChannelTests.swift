// The parent ↔ worker channel: the wire layout of a message (written out by hand from the layout Channel.swift
// documents), the deframer across arbitrary chunk boundaries, the reader's refusal of every malformed value, the
// values that cross the driver seam surviving the trip, and FrameCheck's guarantee that forwarded bytes can only be
// the one frame the parent expects.

import Testing
import TransitionEngine
import TransitionService

@testable import PluginIsolation

@Suite struct ChannelTests {
  /// Reads `bytes` as one payload with `body`.
  private func read<T>(
    _ bytes: [UInt8], _ body: (inout MessageReader) throws(ChannelError) -> T
  ) throws(ChannelError) -> T {
    let result: Result<T, ChannelError> = bytes.withUnsafeBytes { raw in
      var reader = MessageReader(raw)
      do throws(ChannelError) {
        let value = try body(&reader)
        try reader.expectEnd()
        return .success(value)
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  /// Splits `stream` into messages, fed `chunk` bytes at a time.
  private func deframe(_ stream: [UInt8], chunk: Int) throws(ChannelError) -> [(UInt8, [UInt8])] {
    var deframer = MessageDeframer()
    var messages: [(UInt8, [UInt8])] = []
    var offset = 0
    while offset < stream.count {
      let end = min(offset + chunk, stream.count)
      let slice = Array(stream[offset..<end])
      let outcome: Result<Void, ChannelError> = slice.withUnsafeBytes { raw in
        do throws(ChannelError) {
          try deframer.feed(raw) { kind, payload in messages.append((kind, Array(payload))) }
          return .success(())
        } catch {
          return .failure(error)
        }
      }
      try outcome.get()
      offset = end
    }
    #expect(deframer.pendingBytes == 0)
    return messages
  }

  @Test func aMessageIsItsLittleEndianLengthThenItsKindThenItsPayload() {
    var writer = MessageWriter(.perform)
    writer.u8(7)
    writer.string("ab")
    writer.u32(0x0102_0304)
    // length = kind (1) + u8 (1) + string length (4) + "ab" (2) + u32 (4) = 12.
    #expect(writer.finish() == [12, 0, 0, 0, 3, 7, 2, 0, 0, 0, 0x61, 0x62, 4, 3, 2, 1])
    var double = MessageWriter(.reply)
    double.double(1.5)
    // 1.5 = 0x3FF8_0000_0000_0000 (IEEE 754), written low byte first.
    #expect(double.finish() == [9, 0, 0, 0, 64, 0, 0, 0, 0, 0, 0, 0xF8, 0x3F])
  }

  @Test(arguments: [1, 2, 3, 5, 7, 64, 4096])
  func theDeframerFindsEveryMessageWhateverTheChunks(_ chunk: Int) throws {
    var stream: [UInt8] = []
    var expected: [(UInt8, [UInt8])] = []
    for index in 0..<20 {
      var writer = MessageWriter(index.isMultiple(of: 2) ? .event : .log)
      let text = String(repeating: "x", count: index * 37)
      writer.string(text)
      stream += writer.finish()
      expected.append(((index.isMultiple(of: 2) ? MessageKind.event : .log).rawValue, [UInt8](text.utf8)))
    }
    let messages = try deframe(stream, chunk: chunk)
    #expect(messages.count == expected.count)
    for (message, want) in zip(messages, expected) {
      #expect(message.0 == want.0)
      // Each payload is its string: a 4-byte length, then the bytes.
      #expect(Array(message.1.dropFirst(4)) == want.1)
    }
  }

  @Test func theDeframerRefusesAnEmptyOrOversizedLength() {
    #expect(throws: ChannelError.self) { try deframe([0, 0, 0, 0, 1], chunk: 5) }
    let tooLong = UInt32(MessageDeframer.maximumLength + 1)
    let header = (0..<4).map { UInt8(truncatingIfNeeded: tooLong >> (8 * $0)) }
    #expect(throws: ChannelError.self) { try deframe(header + [1], chunk: 5) }
  }

  @Test func theDeframerKeepsAnIncompleteMessageForTheNextChunk() throws {
    var writer = MessageWriter(.log)
    writer.string("hello")
    let message = writer.finish()
    var deframer = MessageDeframer()
    var seen = 0
    let fed: Result<Void, ChannelError> = Array(message.dropLast()).withUnsafeBytes { raw in
      do throws(ChannelError) {
        try deframer.feed(raw) { _, _ in seen += 1 }
        return .success(())
      } catch {
        return .failure(error)
      }
    }
    try fed.get()
    #expect(seen == 0)
    #expect(deframer.pendingBytes == message.count - 1)
  }

  @Test func theReaderRefusesEveryMalformedValue() {
    // A string claiming 10 bytes with 2 there.
    #expect(throws: ChannelError.self) {
      try read([10, 0, 0, 0, 0x61, 0x62]) { r throws(ChannelError) in try r.string() }
    }
    // A boolean byte other than 0 or 1.
    #expect(throws: ChannelError.self) { try read([2]) { r throws(ChannelError) in try r.bool() } }
    // A count larger than the bytes left.
    #expect(throws: ChannelError.self) { try read([200, 0, 0, 0, 1]) { r throws(ChannelError) in try r.strings() } }
    // Bytes left over after the message's values.
    #expect(throws: ChannelError.self) { try read([1, 9]) { r throws(ChannelError) in try r.u8() } }
    // An unknown tag.
    #expect(throws: ChannelError.self) { try read([99]) { r throws(ChannelError) in try r.command() } }
    #expect(throws: ChannelError.self) { try read([42]) { r throws(ChannelError) in try r.curve() } }
  }

  static let commands: [TransitionCommand] = [
    .update(percent: 0.25), .pause, .finish(), .finish(velocity: 1.5, speed: 2, curve: .bezier(0.1, 0.2, 0.3, 1.4)),
    .cancel(velocity: -0.5, speed: nil, curve: .steps(4, .start)), .cancel(curve: .easeOut), .release(velocity: -0.3),
    .reverse, .advance(seconds: 1.0 / 120),
    .gesture(
      GestureSample(
        state: .changed, location: Point(x: 12.5, y: -3), translation: Point(x: 0.25, y: 400),
        velocity: Point(x: -1e3, y: 7))),
    .gesture(GestureSample(state: .cancelled, location: .zero)),
  ]

  @Test(arguments: commands)
  func aCommandCrossesTheChannelUnchanged(_ command: TransitionCommand) throws {
    var writer = MessageWriter(.perform)
    writer.command(command)
    let payload = Array(writer.finish().dropFirst(5))
    #expect(try read(payload) { r throws(ChannelError) in try r.command() } == command)
  }

  @Test func gestureResultsAndTheirRefusalCrossTheChannelUnchanged() throws {
    let results: [Result<TransitionCommandResult, DriverError>] = [
      .success(.gesture(.received(recognizers: 2))), .success(.gesture(.noRecognizers)),
      .success(.gesture(.notHit)), .success(.gesture(.notInProgress)),
    ]
    for result in results {
      var writer = MessageWriter(.reply)
      writer.commandResult(result)
      let back = try read(Array(writer.finish().dropFirst(5))) { r throws(ChannelError) in try r.commandResult() }
      #expect(try back.get() == result.get())
    }
    var writer = MessageWriter(.reply)
    writer.commandResult(.failure(.engine(.noInteractionController)))
    let back = try read(Array(writer.finish().dropFirst(5))) { r throws(ChannelError) in try r.commandResult() }
    guard case .failure(.engine(.noInteractionController)) = back else {
      Issue.record("\(back)")
      return
    }
  }

  @Test func statusesAndParameterValuesCrossTheChannelUnchanged() throws {
    let statuses = [
      TransitionStatus.idle,
      TransitionStatus(state: .paused, time: 0.2, percent: 0.4, duration: 0.5, isInteractive: true),
      TransitionStatus(state: .running, time: 0.1, percent: 0.2, duration: 0.5, isInteractive: false, nextEventIn: 0.4),
      TransitionStatus(
        state: .running, time: 0.7, percent: 1, duration: 0.5, isInteractive: false, canMoveWithoutInput: false),
      TransitionStatus(
        state: .ended(.cancelled(reason: "pluginCrashed")), time: 0, percent: 0, duration: 0.5, isInteractive: false),
      TransitionStatus(
        state: .ended(.failed(reason: "neverCompleted")), time: 1, percent: 1, duration: 1, isInteractive: false),
    ]
    for status in statuses {
      var writer = MessageWriter(.reply)
      writer.status(status)
      #expect(try read(Array(writer.finish().dropFirst(5))) { r throws(ChannelError) in try r.status() } == status)
    }
    let values: [ParameterValue] = [
      .number(-0.125), .bool(true), .string("ünïcode ✓"), .enumCase("left"), .color(Color(r: 1, g: 0.5, b: 0, a: 0.25)),
      .point(Point(x: 3, y: -4)), .rect(Rect(x: 1, y: 2, width: 30, height: 40)),
    ]
    for value in values {
      var writer = MessageWriter(.start)
      writer.parameter(value)
      #expect(try read(Array(writer.finish().dropFirst(5))) { r throws(ChannelError) in try r.parameter() } == value)
    }
  }

  // MARK: FrameCheck

  private let prefix = #"{"jsonrpc":"2.0","method":"transition/frame","params":{"transition":"t4","seq":2,"#

  private func problem(_ text: String, seq: Int = 2) -> String? {
    Array(text.utf8).withUnsafeBytes { FrameCheck.problem($0, transition: "t4", seq: seq) }
  }

  @Test func aWellFormedFrameIsForwarded() {
    #expect(problem(prefix + #""time":0.5,"views":[{"id":"a","content":"say \"}]}\" \\"}]}}"#) == nil)
    #expect(problem(prefix + #""time":0,"views":[]}}"#) == nil)
  }

  @Test func anythingButTheExpectedFrameIsRefused() {
    let good = prefix + #""time":0,"views":[]}}"#
    #expect(problem(good, seq: 3) != nil, "the wrong seq")
    #expect(problem(good.replacing("\"t4\"", with: "\"t5\"")) != nil, "another transition")
    #expect(problem(#"{"jsonrpc":"2.0","id":1,"result":"forged"}"#) != nil, "a reply")
    #expect(problem(prefix + "\"time\":0,\"views\":[]}}\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":1}") != nil)
    #expect(problem(prefix + "\"time\":0,\"views\":[\"a\nb\"]}}") != nil, "a raw newline inside a string")
    #expect(problem(prefix + #""time":0,"views":[]},"id":1}"#) != nil, "a member after params")
    #expect(problem(prefix + #""time":0,"views":[}}"#) != nil, "brackets that do not match")
    #expect(problem(prefix + #""time":0,"views":["}]}}"#) != nil, "an unterminated string")
    #expect(problem(prefix + #""time":0,"views":[]}}}"#) != nil, "bytes after the end")
    #expect(problem(prefix + "\"time\":0,\"views\":[\"a\\\nb\"]}}") != nil, "a raw newline after a backslash")
    #expect(problem(prefix + #""time":0,"views":["a\"]}}"#) != nil, "an escaped quote does not end the string")
    #expect(problem(prefix.replacing(#""seq":2,"#, with: #""seq":23,"#) + #""time":0,"views":[]}}"#) != nil, "seq 23")
    #expect(problem(prefix.replacing(#""seq":2,"#, with: #""seq":2"#) + #""time":0,"views":[]}}"#) != nil)
    #expect(problem(String(prefix.dropLast())) != nil, "the prefix cut short")
  }

  /// A view's `content` is the client's JSON and may nest deeper than the frame's own members: the check follows
  /// any depth (the first 64 levels are bits of a word, the rest an array).
  @Test func deeplyNestedContentIsCheckedAtEveryDepth() {
    let nested = String(repeating: #"{"a":["#, count: 100) + "1" + String(repeating: "]}", count: 100)
    #expect(problem(prefix + #""time":0,"views":[{"content":\#(nested)}]}}"#) == nil)
    let mismatched = String(repeating: #"{"a":["#, count: 100) + "1" + String(repeating: "]}", count: 99) + "}]"
    #expect(problem(prefix + #""time":0,"views":[{"content":\#(mismatched)}]}}"#) != nil)
    let ten = prefix.replacing(#""seq":2,"#, with: #""seq":10,"#) + #""time":0,"views":[]}}"#
    #expect(Array(ten.utf8).withUnsafeBytes { FrameCheck.problem($0, transition: "t4", seq: 10) } == nil)
  }
}
