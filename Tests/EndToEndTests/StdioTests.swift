import Foundation
import Glibc
import JSON
import TestSupport
import Testing

/// The built `transition-host`, spawned over pipes: stdio behaviour that only a real process shows.
@Suite struct StdioTests {
  private static let initialize = #"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#

  private func json(_ text: String) -> JSON? { try? JSON.parse(text) }

  @Test func aHundredMegabyteLineGetsOneErrorThenTheNextRequestIsServedInBoundedMemory() throws {
    let host = try HostProcess()
    let megabyte = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
    let writer = host.writeInBackground { write in
      guard write(Array(#"{"jsonrpc":"2.0","id":"big","method":"initialize","params":{"pad":""#.utf8)) else { return }
      for _ in 0..<100 where !write(megabyte) { return }
      _ = write(Array("\"}}\n".utf8) + Array(#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#.utf8) + [10])
    }
    let lines = host.lines(atLeast: 2, timeout: 120)
    // Read while the host still runs (stdin open): its peak resident set so far.
    let peakKilobytes = host.statusField("VmHWM")
    _ = writer
    host.closeStdin()
    #expect(host.waitForExit() == .exited(0))

    #expect(lines.count == 2, "stderr: \(String(decoding: host.stderr.snapshot, as: UTF8.self))")
    guard lines.count == 2 else { return }
    let error = json(lines[0])
    #expect(error?["id"]?.isNull == true, "the oversized message's id was never read")
    #expect(error?["error"]?["code"]?.intValue == -32600)
    #expect(error?["error"]?["data"]?["limit"]?.intValue == 8_388_608)  // 8 MiB, the default limit
    #expect(json(lines[1]) == json(#"{"jsonrpc":"2.0","id":2,"result":null}"#))
    let peak = try #require(peakKilobytes)
    print("peak RSS after a 100 MiB line: \(peak) kB")
    // 100 MiB went through; holding it would need over 102,400 kB. The limit allows the 8 MiB line buffer
    // plus the runtime's own footprint.
    #expect(peak < 48 * 1024, "peak RSS \(peak) kB")
  }

  @Test func aShellPipelineWithoutExitGetsEveryReplyAndExitsZero() throws {
    // The README's example, literally: printf into the host, no `exit`, no `shutdown`.
    let script = """
      printf '%s\\n' \
        '{"jsonrpc":"2.0","id":1,"method":"initialize"}' \
        '{"jsonrpc":"2.0","method":"initialized"}' \
        '{"jsonrpc":"2.0","id":"two","method":"no/such"}' \
        '[{"jsonrpc":"2.0","id":3,"method":"shutdown"},{"jsonrpc":"2.0","method":"note"}]' \
        | "$0"
      """
    let shell = try HostProcess(["-c", script, BuildProducts.hostBinary], executable: "/bin/sh")
    #expect(shell.waitForExit() == .exited(0))
    let lines = shell.allLines()
    try #require(lines.count == 3, "one line per request: \(lines)")
    #expect(json(lines[0])?["result"]?["serverInfo"]?["name"]?.stringValue == "transition-host")
    #expect(json(lines[1])?["id"]?.stringValue == "two")
    #expect(json(lines[1])?["error"]?["code"]?.intValue == -32601)
    #expect(json(lines[2]) == json(#"[{"jsonrpc":"2.0","id":3,"result":null}]"#))
  }

  @Test func crlfBlankLinesAndAByteOrderMarkAreTolerated() throws {
    let host = try HostProcess()
    host.write([0xEF, 0xBB, 0xBF] + Array((Self.initialize + "\r\n\r\n   \n\n").utf8))
    host.write(#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"# + "\r\n")
    host.closeStdin()
    #expect(host.waitForExit() == .exited(0))
    let ids = host.allLines().map { json($0)?["id"]?.intValue }
    #expect(ids == [1, 2])
  }

  @Test(arguments: [[], [SIGTERM]])
  func sigtermEndsTheHostWithStatusZero(blockedByTheParent: [Int32]) throws {
    // A parent that spawns the host from a thread that blocks signals passes that mask on.
    let host = try HostProcess(blockedSignals: blockedByTheParent)
    host.send(lines: [Self.initialize])
    #expect(host.lines(atLeast: 1).count == 1, "the host is up and its handlers are installed")
    host.kill(SIGTERM)
    #expect(host.waitForExit(timeout: 10) == .exited(0))
  }

  @Test func sigtermEndsTheHostEvenWhileItsStdoutIsFullAndUnread() throws {
    let host = try HostProcess(drainStdout: false)
    // About 30 MB of replies that nobody reads: the host blocks writing long before the end.
    let request = Array((Self.initialize + "\n").utf8)
    let writer = host.writeInBackground { write in
      for _ in 0..<100_000 where !write(request) { return }
    }
    _ = writer
    // Wait until the host has filled the pipe (its write is blocked), then ask it to stop.
    var blocked = false
    for _ in 0..<2_000 where !blocked {
      blocked = host.threadState() == "S" && host.wchan()?.contains("pipe_write") == true
      if !blocked { usleep(5_000) }
    }
    #expect(blocked, "the host never blocked on its full stdout")
    host.kill(SIGTERM)
    #expect(host.waitForExit(timeout: 10) == .exited(0))
  }

  @Test func aClosedStdoutEndsTheHostCleanly() throws {
    let host = try HostProcess(closeStdoutReader: true)
    host.send(lines: Array(repeating: Self.initialize, count: 1000))
    host.closeStdin()
    #expect(host.waitForExit() == .exited(0), "SIGPIPE is ignored and EPIPE ends the host quietly")
    let log = String(decoding: host.stderr.all(), as: UTF8.self)
    #expect(!log.contains("Fatal error"), "stderr: \(log)")
  }

  @Test func strayOutputOnFdOneCannotReachTheProtocolStream() throws {
    let host = try HostProcess()
    host.send(lines: [Self.initialize])
    #expect(host.lines(atLeast: 1).count == 1)
    // fd 1 (where printf, puts and print write) is now the stderr pipe; the stdout pipe is held by another fd.
    let fd1 = host.fdTarget(1)
    let fd2 = host.fdTarget(2)
    #expect(fd1 != nil && fd1 == fd2)
    let stdoutPipe = "pipe:[\(host.stdoutPipeInode)]"
    #expect(fd1 != stdoutPipe)
    let holders = (3..<64).filter { host.fdTarget(Int32($0)) == stdoutPipe }
    #expect(holders.count == 1, "exactly one private fd keeps the protocol stream")
    host.closeStdin()
    #expect(host.waitForExit() == .exited(0))
  }
}

@Suite struct ClosedStandardDescriptorTests {
  private func shell(_ redirection: String) throws -> (ExitStatus?, String) {
    let shell = try HostProcess(["-c", "\"$0\" \(redirection)", BuildProducts.hostBinary], executable: "/bin/sh")
    shell.closeStdin()
    let status = shell.waitForExit(timeout: 10)
    if status == nil { shell.kill(SIGKILL) }
    return (status, String(decoding: shell.stderr.all(), as: UTF8.self))
  }

  @Test func aClosedStdinIsEndOfInput() throws {
    // Without care the signal pipe would take fd 0 and the host would wait on itself forever.
    let (status, log) = try shell("<&-")
    #expect(status == .exited(0), "stderr: \(log)")
  }

  @Test func aClosedStdoutAtStartIsAnError() throws {
    let (status, log) = try shell(">&-")
    #expect(status == .exited(1))
    #expect(log.contains("stdout is not open"), "stderr: \(log)")
  }

  @Test func aClosedStderrDoesNotStopTheHost() throws {
    let shell = try HostProcess(
      [
        "-c", "printf '%s\\n' '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"shutdown\"}' | \"$0\" --log-level debug 2>&-",
        BuildProducts.hostBinary,
      ], executable: "/bin/sh")
    #expect(shell.waitForExit(timeout: 10) == .exited(0))
    #expect(shell.allLines() == [#"{"jsonrpc":"2.0","id":1,"result":null}"#])
  }
}

@Suite struct CommandLineEndToEndTests {
  private func run(_ arguments: [String]) throws -> (ExitStatus?, String, String) {
    let host = try HostProcess(arguments)
    host.closeStdin()
    let status = host.waitForExit()
    return (
      status, String(decoding: host.stdout.all(), as: UTF8.self), String(decoding: host.stderr.all(), as: UTF8.self)
    )
  }

  @Test func versionAndHelpGoToStdout() throws {
    let (status, out, err) = try run(["--version"])
    #expect(status == .exited(0))
    #expect(out.hasPrefix("transition-host ") && out.hasSuffix("\n") && out.split(separator: " ").count == 2)
    #expect(err.isEmpty)
    let (helpStatus, help, _) = try run(["--help"])
    #expect(helpStatus == .exited(0))
    for option in [
      "--plugin-dir", "--allow-any-plugin-path", "--max-line-bytes", "--framing", "--max-transitions",
      "--log-level", "--stdio", "--version",
    ] {
      #expect(help.contains(option), "--help does not mention \(option)")
    }
  }

  @Test(arguments: [
    (["--bogus"], "unknown option '--bogus'"),
    (["--framing", "xml"], "invalid value 'xml' for '--framing'"),
    (["--max-line-bytes"], "option '--max-line-bytes' needs a value"),
    (["--log-level=loud"], "invalid value 'loud' for '--log-level'"),
    (["stray"], "unexpected argument 'stray'"),
  ])
  func badArgumentsExitTwoNamingTheProblem(arguments: [String], message: String) throws {
    let (status, out, err) = try run(arguments)
    #expect(status == .exited(2))
    #expect(out.isEmpty)
    #expect(err.contains(message), "stderr: \(err)")
    #expect(err.contains("--help"))
  }

  @Test func theEditorsFlagIsAccepted() throws {
    let (status, out, _) = try run(["--stdio", "--log-level", "debug"])
    #expect(status == .exited(0))
    #expect(out.isEmpty)
  }
}
