import Glibc
import JSON
import JSONRPC
import POSIX
import Synchronization
import Testing

@testable import TransitionHost

@Suite struct StdoutProtectionTests {
  @Test func strayOutputGoesToStderrAndProtocolOutputToTheOriginalStdout() throws {
    let stdout = TestPipe()
    let stderr = TestPipe()
    let protocolOutput = try StdoutProtection.takeOver(stdout: stdout.writeEnd, stderr: stderr.writeEnd)
    #expect(protocolOutput.rawValue >= 3 && protocolOutput.rawValue != stdout.write)
    #expect(fcntl(protocolOutput.rawValue, F_GETFD) & FD_CLOEXEC != 0, "children must not inherit the protocol fd")

    // What a plugin's printf would do: write to the old stdout fd number.
    var stray = Array("stray printf\n".utf8)
    #expect(FileDescriptorIOForTests.writeAll(stdout.write, &stray))
    var message = Array("{\"jsonrpc\":\"2.0\"}\n".utf8)
    #expect(FileDescriptorIOForTests.writeAll(protocolOutput.rawValue, &message))

    close(protocolOutput.rawValue)
    stdout.closeWrite()  // now a second reference to the stderr pipe
    stderr.closeWrite()
    let onStdout = String(decoding: FileDescriptorIOForTests.readToEnd(stdout.read), as: UTF8.self)
    let onStderr = String(decoding: FileDescriptorIOForTests.readToEnd(stderr.read), as: UTF8.self)
    #expect(onStdout == "{\"jsonrpc\":\"2.0\"}\n")
    #expect(onStderr == "stray printf\n")
  }

  @Test func aBadDescriptorIsReportedNotFatal() {
    #expect(throws: StdoutProtection.Failure.self) {
      try StdoutProtection.takeOver(stdout: FileDescriptor(rawValue: 9999), stderr: .standardError)
    }
  }
}

@Suite struct OutputChannelTests {
  init() { StdoutProtection.ignoreSIGPIPE() }

  @Test func newlineFramingWritesEachMessageOnItsOwnLine() {
    let pipe = TestPipe()
    let channel = OutputChannel(descriptor: pipe.writeEnd, framing: .newline)
    for body in ["{\"a\":1}", "[]", "\"é\""] { channel.appendMessage(body) }
    #expect(channel.flush() == .flushed)
    #expect(channel.pendingByteCount == 0)
    pipe.closeWrite()
    #expect(String(decoding: FileDescriptorIOForTests.readToEnd(pipe.read), as: UTF8.self) == "{\"a\":1}\n[]\n\"é\"\n")
  }

  @Test func contentLengthFramingCountsBytesNotCharacters() {
    let pipe = TestPipe()
    let channel = OutputChannel(descriptor: pipe.writeEnd, framing: .contentLength)
    channel.appendMessage("\"é\"")  // 4 bytes: quote, 2-byte é, quote
    channel.appendMessage("{}")
    #expect(channel.flush() == .flushed)
    pipe.closeWrite()
    let expected = "Content-Length: 4\r\n\r\n\"é\"Content-Length: 2\r\n\r\n{}"
    #expect(String(decoding: FileDescriptorIOForTests.readToEnd(pipe.read), as: UTF8.self) == expected)
  }

  /// A message written straight into the channel's buffer is framed there, between messages appended as bytes.
  @Test func messagesWrittenInPlaceAreFramedLikeAppendedOnes() {
    for framing in Framing.allCases {
      let pipe = TestPipe()
      let channel = OutputChannel(descriptor: pipe.writeEnd, framing: framing)
      channel.appendMessage("[1]")
      channel.appendMessage { $0.append(contentsOf: "\"é\"".utf8) }
      channel.appendMessage("{}")
      #expect(channel.flush() == .flushed)
      pipe.closeWrite()
      let expected = ["[1]", "\"é\"", "{}"].flatMap { framing.encode(Array($0.utf8)) }
      #expect(FileDescriptorIOForTests.readToEnd(pipe.read) == expected, "\(framing)")
    }
  }

  @Test func outputLargerThanThePipeArrivesWholeAndInOrder() {
    let pipe = TestPipe()
    let reader = pipe.drainInBackground()
    let channel = OutputChannel(descriptor: pipe.writeEnd)
    var expected: [UInt8] = []
    for i in 0..<20_000 {
      let body = "{\"id\":\(i),\"pad\":\"\(String(repeating: "x", count: i % 97))\"}"
      channel.appendMessage(body)
      expected += Array(body.utf8) + [10]
    }
    #expect(channel.flush() == .flushed)
    pipe.closeWrite()
    #expect(reader.wait() == expected)
  }

  /// A large message goes out in writes of at most `writeChunkBytes`, so a reader wakes after the first piece instead of
  /// after the whole copy. A SOCK_SEQPACKET socket keeps each write a record of its own: a 70,000-byte message and its
  /// newline arrive as 32,768 + 32,768 + 4,465 bytes.
  @Test func aLargeMessageIsWrittenInPieces() throws {
    var ends: [Int32] = [0, 0]
    #expect(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &ends) == 0)
    defer { for end in ends { close(end) } }
    let channel = OutputChannel(descriptor: FileDescriptor(rawValue: ends[0]))
    #expect(channel.writeChunkBytes == 32 * 1024)
    let body = "\"" + String(repeating: "x", count: 69_998) + "\""
    channel.appendMessage(body)
    #expect(channel.flush() == .flushed)
    var records: [Int] = []
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 17)
    while received.count < 70_001 {
      let n = buffer.withUnsafeMutableBytes { recv(ends[1], $0.baseAddress, $0.count, 0) }
      guard n > 0 else { break }
      records.append(n)
      received += buffer[0..<n]
    }
    #expect(records == [32_768, 32_768, 4_465])
    #expect(received == Array(body.utf8) + [10])
  }

  /// A message that would be flushed at once (at least `flushThreshold`) with nothing buffered before it is written
  /// from where it is: its body in pieces, then its newline, each its own SOCK_SEQPACKET record (300,000 bytes:
  /// 9 × 32,768 + 5,088, then 1); the messages before and after it keep their order, and with Content-Length framing
  /// the header goes first.
  @Test(arguments: Framing.allCases)
  func aLargeMessageWithNothingBeforeItIsWrittenFromWhereItIs(framing: Framing) throws {
    var ends: [Int32] = [0, 0]
    #expect(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &ends) == 0)
    defer { for end in ends { close(end) } }
    let reader = ends[1]
    let records = Background { () -> [[UInt8]] in
      var records: [[UInt8]] = []
      var buffer = [UInt8](repeating: 0, count: 1 << 17)
      while true {
        let n = buffer.withUnsafeMutableBytes { recv(reader, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { break }
        records.append(Array(buffer[0..<n]))
      }
      return records
    }
    let channel = OutputChannel(descriptor: FileDescriptor(rawValue: ends[0]), framing: framing)
    let large = "\"" + String(repeating: "x", count: 299_998) + "\""
    channel.appendMessage("{\"first\":1}")
    #expect(channel.flush() == .flushed)
    channel.appendMessage(large)
    #expect(channel.pendingByteCount == 0, "written at once, as a flush would have")
    channel.appendMessage("{\"last\":2}")
    #expect(channel.flush() == .flushed)
    shutdown(ends[0], Int32(SHUT_WR))
    let got = records.wait()
    #expect(got.flatMap { $0 } == ["{\"first\":1}", large, "{\"last\":2}"].flatMap { framing.encode(Array($0.utf8)) })
    let sizes = got.map(\.count)
    let pieces: [Int] = Array(repeating: 32_768, count: 9) + [5_088]
    switch framing {
    case .newline:
      let expected: [Int] = [11 + 1] + pieces + [1, 10 + 1]
      #expect(sizes == expected)
    case .contentLength:
      // "Content-Length: 11\r\n\r\n" is 16 + 2 + 4 bytes before the first body's 11; the large one's header 16 + 6 + 4.
      let expected: [Int] = [22 + 11, 16 + 6 + 4] + pieces + [22 + 10]
      #expect(sizes == expected)
    }
  }

  @Test func aClosedReaderClosesTheChannelWithoutCrashing() {
    let pipe = TestPipe()
    pipe.closeRead()
    let channel = OutputChannel(descriptor: pipe.writeEnd)
    channel.appendMessage("{}")
    #expect(channel.flush() == .closed)
    #expect(channel.isClosed)
    #expect(channel.closeError == .brokenPipe)
    channel.appendMessage("{}")
    #expect(channel.pendingByteCount == 0, "a closed channel drops later messages")
    #expect(channel.flush() == .flushed)
  }

  @Test func aDeadlineBoundsAFlushToAReaderThatStoppedReading() {
    let pipe = TestPipe()
    pipe.fill()
    let channel = OutputChannel(descriptor: pipe.writeEnd)
    channel.appendMessage("{\"late\":true}")
    #expect(channel.flush(deadline: MonotonicInstant.now().advanced(bySeconds: 0.05)) == .timedOut)
    #expect(channel.pendingByteCount == 14, "nothing is lost: 13 bytes of JSON and a newline wait")
    #expect(!channel.isClosed)
  }

  /// Reads exactly `count` bytes from `fd` (the test's own read loop).
  private func take(_ count: Int, from fd: Int32) -> [UInt8] {
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while result.count < count {
      let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, min($0.count, count - result.count)) }
      if n <= 0 { break }
      result += chunk[0..<n]
    }
    return result
  }

  /// A pipe of `capacity` bytes (F_SETPIPE_SZ = 1031) holding `unread` bytes of filler.
  private func pipe(capacity: Int32, unread: Int) -> TestPipe {
    let pipe = TestPipe()
    _ = fcntl(pipe.write, 1031, capacity)
    var filler = [UInt8](repeating: 0x2E, count: unread)
    precondition(FileDescriptorIOForTests.writeAll(pipe.write, &filler))
    return pipe
  }

  @Test func aTerminatingFlushBeginsAMessageOnlyWhenThePipeCanTakeAllOfIt() {
    // 65536 bytes of room, 50000 taken: a 12 KB message does not fit (less two pages kept for partly used ones).
    let pipe = pipe(capacity: 65536, unread: 50_000)
    let channel = OutputChannel(descriptor: pipe.writeEnd)
    let message = "[" + String(repeating: "1,", count: 6000) + "1]"
    channel.appendMessage(message)
    #expect(!channel.canTakeWhole(message.utf8.count + 1))
    #expect(channel.flush(deadline: MonotonicInstant.now().advanced(bySeconds: 0.05)) == .timedOut)
    #expect(channel.pendingByteCount == message.utf8.count + 1, "nothing of it was begun")
    // Once the reader takes the filler, the message goes whole.
    #expect(take(50_000, from: pipe.read).count == 50_000)
    #expect(channel.flush(deadline: MonotonicInstant.now().advanced(bySeconds: 5)) == .flushed)
    #expect(take(message.utf8.count + 1, from: pipe.read) == Array((message + "\n").utf8))
  }

  /// A channel to a 64 KiB pipe holding `unread` bytes, as a signal leaves it: the pipe non-blocking (what the signal
  /// handler does) and a byte waiting in the signal pipe.
  private func signalledChannel(unread: Int) -> (pipe: TestPipe, signals: TestPipe, channel: OutputChannel) {
    let pipe = pipe(capacity: 65536, unread: unread)
    _ = fcntl(pipe.write, F_SETFL, fcntl(pipe.write, F_GETFL) | O_NONBLOCK)
    let signals = TestPipe()
    signals.send("x")
    let channel = OutputChannel(descriptor: pipe.writeEnd)
    channel.interruptDescriptor = signals.readEnd
    return (pipe, signals, channel)
  }

  @Test func aTerminatingFlushFinishesTheMessageASignalCutShortThenStopsAtABoundary() {
    let (pipe, signals, channel) = signalledChannel(unread: 60_000)
    let first = "[" + String(repeating: "2,", count: 5000) + "2]"  // 10 KB: only part of it fits now
    channel.appendMessage(first)
    #expect(channel.flush() == .interrupted)
    let begun = first.utf8.count + 1 - channel.pendingByteCount
    #expect(begun > 0 && begun < first.utf8.count, "the signal came in the middle of the message")
    _ = take(1, from: signals.read)
    let second = "[" + String(repeating: "3,", count: 20000) + "3]"  // 40 KB
    channel.appendMessage(second)
    // The reader takes 20000 bytes: room for the rest of the first message, not for all of the second.
    #expect(take(20_000, from: pipe.read).count == 20_000)
    #expect(channel.flush(deadline: MonotonicInstant.now().advanced(bySeconds: 0.1)) == .timedOut)
    #expect(channel.pendingByteCount == second.utf8.count + 1, "the first message is finished, the second not begun")
    let inPipe = take(40_000 + begun + (first.utf8.count + 1 - begun), from: pipe.read)
    #expect(inPipe.suffix(first.utf8.count + 1) == ArraySlice((first + "\n").utf8))
  }

  /// A large message written from where it is, cut short by a signal, is left as `flush` leaves one: all of it
  /// buffered past what went out, so a terminating flush finishes it first and stops at the boundary after it.
  @Test func aSignalCuttingShortALargeMessageLeavesItToBeFinished() {
    let (pipe, signals, channel) = signalledChannel(unread: 0)
    let large = "[" + String(repeating: "4,", count: 150_000) + "4]"  // 300 KB: a 64 KiB pipe takes part of it
    channel.appendMessage(large)
    #expect(channel.isInterrupted)
    let begun = large.utf8.count + 1 - channel.pendingByteCount
    #expect(begun == channel.writeChunkBytes, "one piece went out, then the pending signal was seen")
    _ = take(1, from: signals.read)
    channel.appendMessage("{\"after\":true}")
    let reader = pipe.drainInBackground()
    #expect(channel.flush(deadline: MonotonicInstant.now().advanced(bySeconds: 30)) == .flushed)
    pipe.closeWrite()
    #expect(reader.wait() == Array((large + "\n" + "{\"after\":true}\n").utf8))
  }

  @Test func restoreFlagsUndoesANonBlockingSwitch() {
    let pipe = TestPipe()
    let channel = OutputChannel(descriptor: pipe.writeEnd)
    _ = fcntl(pipe.write, F_SETFL, fcntl(pipe.write, F_GETFL) | O_NONBLOCK)
    channel.restoreFlags()
    #expect(fcntl(pipe.write, F_GETFL) & O_NONBLOCK == 0)
  }

  @Test func aNonBlockingDescriptorAfterASignalReportsTheInterruptInsteadOfWaiting() {
    let pipe = TestPipe()
    pipe.fill()
    _ = fcntl(pipe.write, F_SETFL, fcntl(pipe.write, F_GETFL) | O_NONBLOCK)  // what the handler does
    let signals = TestPipe()
    signals.send("x")
    let channel = OutputChannel(descriptor: pipe.writeEnd)
    channel.interruptDescriptor = signals.readEnd
    channel.appendMessage("{}")
    #expect(channel.flush() == .interrupted)
    #expect(channel.isInterrupted)
    channel.appendMessage(String(repeating: " ", count: 300_000))
    #expect(channel.pendingByteCount == 300_004, "no automatic flush while interrupted")
  }

  @Test func aSignalByteInterruptsAFlushThatWouldWait() {
    let pipe = TestPipe()
    pipe.fill()
    let signals = TestPipe()
    signals.send("x")
    let channel = OutputChannel(descriptor: pipe.writeEnd)
    channel.interruptDescriptor = signals.readEnd
    channel.appendMessage("{}")
    #expect(channel.flush(deadline: MonotonicInstant.now().advanced(bySeconds: 60)) == .interrupted)
    #expect(channel.pendingByteCount == 3)
  }
}

@Suite struct EventLoopTests {
  @Test func timersFireInDeadlineOrder() {
    let loop = EventLoop()
    var fired: [String] = []
    loop.schedule(after: 0.03) { fired.append("a") }
    loop.schedule(after: 0.01) { fired.append("b") }
    loop.schedule(after: 0.02) { fired.append("c") }
    loop.schedule(after: -1) { fired.append("past") }
    while loop.hasTimers { loop.runOnce() }
    #expect(fired == ["past", "b", "c", "a"])
    #expect(!loop.runOnce(), "nothing left to wait for")
  }

  /// With the timerfd (which wakes the loop early and spins) and with poll's millisecond timeout alone, a timer fires
  /// at or after its deadline, never before.
  @Test func timersNeverFireBeforeTheirDeadline() {
    for precise in [true, false] {
      let loop = EventLoop(preciseTimers: precise)
      var early: [Int64] = []
      for index in 0..<20 {
        let deadline = loop.now.advanced(bySeconds: 0.0005 + Double(index % 5) * 0.0003)
        loop.schedule(at: deadline) { [loop] in
          let now = loop.now
          if now < deadline { early.append(deadline.nanoseconds - now.nanoseconds) }
        }
        while loop.hasTimers { loop.runOnce() }
      }
      #expect(early.isEmpty, "precise: \(precise); early by \(early) ns")
    }
  }

  @Test func aTimerCancelledByAnEarlierOneNeverFires() {
    let loop = EventLoop()
    var fired: [String] = []
    let deadline = loop.now
    var second: TimerID?
    loop.schedule(at: deadline) {
      fired.append("first")
      if let second { loop.cancel(second) }
    }
    second = loop.schedule(at: deadline) { fired.append("second") }
    loop.runOnce()
    #expect(fired == ["first"])
    #expect(!loop.hasTimers)
  }

  @Test func aTimerReschedulingItselfNowRunsOncePerTurn() {
    let loop = EventLoop()
    var count = 0
    func tick() {
      count += 1
      if count < 100 { loop.schedule(after: 0, tick) }
    }
    loop.schedule(after: 0, tick)
    loop.runOnce()
    #expect(count == 1)
    loop.runOnce()
    #expect(count == 2)
  }

  @Test func readableDescriptorsCallTheirHandlerUntilUnwatched() {
    let loop = EventLoop()
    let pipe = TestPipe()
    var received: [UInt8] = []
    var sawEnd = false
    loop.watchReadable(pipe.readEnd) { _ in
      var buffer = [UInt8](repeating: 0, count: 16)
      let n = buffer.withUnsafeMutableBytes { read(pipe.read, $0.baseAddress, 16) }
      if n > 0 {
        received += buffer[0..<n]
      } else {
        sawEnd = true
        loop.unwatch(pipe.readEnd)
      }
    }
    pipe.send("hello")
    loop.runOnce()
    #expect(received == Array("hello".utf8))
    pipe.closeWrite()
    loop.runOnce()
    #expect(sawEnd)
    #expect(!loop.isWatching(pipe.readEnd))
    #expect(!loop.runOnce())
  }

  /// epoll refuses regular files; the loop then polls instead, so a host whose stdin is a file still reads it, and
  /// the pipes watched beside it keep working. Descriptors ready together are handled in the order they were watched,
  /// whichever way the loop waits.
  @Test func aRegularFileIsServedAndReadyDescriptorsComeInWatchOrder() throws {
    for useFile in [false, true] {
      let loop = EventLoop()
      let first = TestPipe()
      let second = TestPipe()
      var order: [String] = []
      loop.watchReadable(second.readEnd) { _ in
        order.append("second")
        loop.unwatch(second.readEnd)
      }
      loop.watchReadable(first.readEnd) { _ in
        order.append("first")
        loop.unwatch(first.readEnd)
      }
      var file: Int32 = -1
      if useFile {
        var template = Array("/tmp/th-loop-XXXXXX".utf8CString)
        file = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        try #require(file >= 0)
        unlink(String(cString: template))
        loop.watchReadable(FileDescriptor(rawValue: file)) { _ in
          order.append("file")
          loop.unwatch(FileDescriptor(rawValue: file))
        }
      }
      first.send("a")
      second.send("b")
      loop.runOnce()
      #expect(order == ["second", "first"] + (useFile ? ["file"] : []), "with a file: \(useFile)")
      if file >= 0 { close(file) }
    }
  }

  @Test func aLimitEndsATurnWhenNothingHappens() {
    let loop = EventLoop()
    let pipe = TestPipe()
    var called = false
    loop.watchReadable(pipe.readEnd) { _ in called = true }
    let limit = loop.now.advanced(bySeconds: 0.01)
    #expect(loop.runOnce(until: limit))
    #expect(!called)
    #expect(loop.now >= limit)
  }
}

/// Signal dispositions are process-wide: everything that installs the handlers lives in this one suite.
@Suite(.serialized) struct SignalPipeTests {
  @Test func onlyOnePipeCanExistAtATime() throws {
    let first = try SignalPipe(signals: [SIGUSR2])
    withExtendedLifetime(first) {
      #expect(throws: Errno.self) { try SignalPipe(signals: [SIGUSR2]) }
    }
  }

  @Test func signalsArriveAsBytesInOrder() throws {
    let signals = try SignalPipe()
    #expect(signals.drain().isEmpty)
    withSignalsUnblocked([SIGTERM, SIGINT]) {
      raise(SIGTERM)
      raise(SIGINT)
    }
    #expect(signals.drain() == [SIGTERM, SIGINT])
    #expect(fcntl(signals.readEnd.rawValue, F_GETFL) & O_NONBLOCK != 0)
  }

  @Test func aSignalInterruptsABlockedWrite() throws {
    StdoutProtection.ignoreSIGPIPE()
    let signals = try SignalPipe(signals: [SIGUSR1])
    let pipe = TestPipe()
    pipe.fill()
    let channel = OutputChannel(descriptor: pipe.writeEnd)
    channel.interruptDescriptor = signals.readEnd
    channel.appendMessage("{}")
    // The write blocks on the full pipe; a signal sent from another thread must make it return. The sender
    // repeats until the flush returns, so a first signal that lands before the write blocks does no harm.
    let target = pthread_self()
    let finished = Flag()
    let sender = Background { () -> Int in
      var sent = 0
      while !finished.isSet {
        usleep(20_000)
        if finished.isSet { break }
        if pthread_kill(target, SIGUSR1) == 0 { sent += 1 }
      }
      return sent
    }
    let outcome = withSignalsUnblocked([SIGUSR1]) { channel.flush() }
    #expect(outcome == .interrupted)
    finished.set()
    #expect(sender.wait() >= 1)
    withSignalsUnblocked([SIGUSR1]) {}  // takes a signal sent after the flush returned, while handled
    let received = signals.drain()
    #expect(!received.isEmpty && received.allSatisfy { $0 == SIGUSR1 })
    #expect(channel.pendingByteCount == 3)
  }

  @Test func sigtermEndsTheServerAfterItsTerminateHookAndAnswersPendingRequests() throws {
    StdoutProtection.ignoreSIGPIPE()
    let stdin = TestPipe()  // stays open: only the signal can end the server
    let stdout = TestPipe()
    let signals = try SignalPipe(nonBlocking: stdout.writeEnd)
    let reader = stdout.drainInBackground()
    stdin.send(#"{"jsonrpc":"2.0","id":1,"method":"test/wait"}"# + "\n")
    let server = Server(input: stdin.readEnd, output: stdout.writeEnd, signals: signals)
    var kept: Responder?
    var reasons: [TerminationReason] = []
    server.register(method: "test/wait") { [unowned server] _, responder in
      kept = responder
      server.loop.schedule(after: 0.01) { raise(SIGTERM) }
    }
    var nonBlockingWhileTerminating = false
    server.onTerminate = { [unowned server] reason in
      nonBlockingWhileTerminating = fcntl(stdout.write, F_GETFL) & O_NONBLOCK != 0
      reasons.append(reason)
      server.sendNotification("test/ended", ["reason": JSON("terminated")])
    }
    let status = withSignalsUnblocked([SIGTERM]) { server.run() }
    let flags = fcntl(stdout.write, F_GETFL)
    #expect(nonBlockingWhileTerminating, "the handler makes a write that starts after SIGTERM unable to block")
    #expect(flags >= 0 && flags & O_NONBLOCK == 0, "the handler's O_NONBLOCK was undone")
    stdout.closeWrite()
    let lines = String(decoding: reader.wait(), as: UTF8.self).split(separator: "\n").map(String.init)
    #expect(status == 0)
    #expect(reasons == [.signal(SIGTERM)])
    #expect(kept?.hasReplied == true)
    #expect(
      lines == [
        #"{"jsonrpc":"2.0","method":"test/ended","params":{"reason":"terminated"}}"#,
        #"{"jsonrpc":"2.0","id":1,"error":{"code":-32800,"message":"Request cancelled: the host is exiting."}}"#,
      ])
  }

  @Test func requestsReadBeforeASignalButNotYetRunGetTheirOneReply() throws {
    StdoutProtection.ignoreSIGPIPE()
    let stdin = TestPipe()  // stays open: only the signal can end the server
    let stdout = TestPipe()
    let signals = try SignalPipe(nonBlocking: stdout.writeEnd)
    let reader = stdout.drainInBackground()
    // One chunk: the first request's handler takes the signal; the rest were read and must still be answered.
    stdin.send(
      [
        #"{"jsonrpc":"2.0","id":1,"method":"test/big"}"#,
        #"{"jsonrpc":"2.0","id":2,"method":"test/big"}"#,
        #"[{"jsonrpc":"2.0","id":3,"method":"test/big"},{"jsonrpc":"2.0","method":"test/big"},{"jsonrpc":"2.0","id":4}]"#,
        #"{"jsonrpc":"2.0","method":"test/big"}"#,
      ].joined(separator: "\n") + "\n")
    let server = Server(input: stdin.readEnd, output: stdout.writeEnd, signals: signals)
    var ran: [Int64?] = []
    server.register(method: "test/big") { request, responder in
      ran.append(request.id?.intValue)
      raise(SIGTERM)
      // Past the flush threshold and the pipe's capacity: the flush is cut short by the pending signal.
      responder.reply(JSON(String(repeating: "x", count: 300_000)))
    }
    let status = withSignalsUnblocked([SIGTERM]) { server.run() }
    stdout.closeWrite()
    let lines = String(decoding: reader.wait(), as: UTF8.self).split(separator: "\n").map(String.init)
    #expect(status == 0)
    #expect(ran == [1], "nothing runs after the signal")
    let exiting = #"{"code":-32800,"message":"Request cancelled: the host is exiting."}"#
    #expect(lines.count == 3)
    #expect(lines.first?.hasPrefix(#"{"jsonrpc":"2.0","id":1,"result":"xxx"#) == true)
    #expect(lines.dropFirst().first == #"{"jsonrpc":"2.0","id":2,"error":\#(exiting)}"#)
    let batch = try JSON.parse(lines.last ?? "")
    #expect(batch.count == 2)
    #expect(batch[0]?.serialized() == #"{"jsonrpc":"2.0","id":3,"error":\#(exiting)}"#)
    #expect(batch[1]?["id"]?.intValue == 4)
    #expect(batch[1]?["error"]?["code"]?.intValue == -32600)
  }

  @Test func notificationsSentWhileTerminatingCannotBlockOnAnUnreadStdout() throws {
    StdoutProtection.ignoreSIGPIPE()
    let stdin = TestPipe()
    let stdout = TestPipe()
    stdout.fill()  // the client stopped reading long ago
    let signals = try SignalPipe(nonBlocking: stdout.writeEnd)
    var configuration = Server.Configuration()
    configuration.terminationGrace = 0.2
    let server = Server(configuration: configuration, input: stdin.readEnd, output: stdout.writeEnd, signals: signals)
    var sent = 0
    server.loop.schedule(after: 0.01) { raise(SIGTERM) }
    server.onTerminate = { [unowned server] _ in
      // Far more than the automatic flush threshold: each automatic flush must respect the deadline.
      for _ in 0..<20_000 {
        server.sendNotification("test/ended", ["reason": JSON("terminated")])
        sent += 1
      }
    }
    let status = withSignalsUnblocked([SIGTERM]) { server.run() }
    #expect(status == 0)
    #expect(sent == 20_000)
  }
}

/// Runs `body` with `signals` unblocked in the calling thread: test threads come from a pool that blocks
/// asynchronous signals, while the host's own (main) thread has them unblocked.
func withSignalsUnblocked<R>(_ signals: [Int32], _ body: () -> R) -> R {
  var set = sigset_t()
  sigemptyset(&set)
  for signal in signals { sigaddset(&set, signal) }
  var previous = sigset_t()
  pthread_sigmask(SIG_UNBLOCK, &set, &previous)
  defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
  return body()
}

/// A thread-safe one-way switch.
final class Flag: Sendable {
  private let value = Atomic<Bool>(false)
  var isSet: Bool { value.load(ordering: .acquiring) }
  func set() { value.store(true, ordering: .releasing) }
}
