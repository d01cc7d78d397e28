import POSIX
import Testing

@testable import TransitionHost

@Suite struct CommandLineTests {
  /// The host's real interface plus a made-up `inspect` subcommand that takes one or two operands, to show that a
  /// later subcommand is one registration and gets the shared options.
  private var cli: CommandLineInterface {
    var cli = HostCommandLine.make()
    cli.register(
      Subcommand(
        name: "inspect", summary: "inspect a plugin", operandsUsage: "<plugin.so> [animator]",
        operandCount: 1...2,
        options: [OptionSpec(["--json"], .flag { $0.maxTransitions = 7 }, help: "machine output")]
      ) { _, _ in 0 })
    return cli
  }

  private func options(_ arguments: [String], environment: [String: String] = [:]) throws -> (String, HostOptions) {
    guard case .run(let command, let options) = try cli.parse(arguments, environment: { environment[$0] }) else {
      Issue.record("expected a run invocation for \(arguments)")
      return ("", HostOptions())
    }
    return (command.name, options)
  }

  private func failure(_ arguments: [String]) -> String? {
    do {
      _ = try cli.parse(arguments)
      return nil
    } catch {
      return error.message
    }
  }

  @Test func noArgumentsServesWithTheDocumentedDefaults() throws {
    let (command, options) = try options([])
    #expect(command == "serve")
    #expect(options.maxMessageBytes == 8 * 1024 * 1024)
    #expect(options.framing == .newline)
    #expect(options.maxTransitions == 1024)
    #expect(options.logLevel == .warn)
    #expect(options.pluginDirectories.isEmpty && !options.allowAnyPluginPath && options.operands.isEmpty)
  }

  @Test func everyFlagSetsItsField() throws {
    let (command, options) = try options([
      "--stdio", "--plugin-dir", "/a", "--plugin-dir=/b", "--allow-any-plugin-path", "--max-line-bytes", "64",
      "--framing", "content-length", "--max-transitions=3", "--log-level", "debug",
    ])
    #expect(command == "serve")
    #expect(options.pluginDirectories == ["/a", "/b"])
    #expect(options.allowAnyPluginPath)
    #expect(options.maxMessageBytes == 64)
    #expect(options.framing == .contentLength)
    #expect(options.maxTransitions == 3)
    #expect(options.logLevel == .debug)
  }

  @Test func framesAheadIsOnUnlessTurnedOff() throws {
    #expect(try options([]).1.buildsFramesAhead)
    #expect(try options(["--frames-ahead", "off"]).1.buildsFramesAhead == false)
    #expect(try options(["--frames-ahead=on"]).1.buildsFramesAhead)
  }

  @Test func theIsolationFlagsHaveTheDocumentedDefaultsAndSetTheirFields() throws {
    let (_, defaults) = try options([])
    #expect(defaults.isolation == .process)
    #expect(defaults.pluginTimeout == 2)
    #expect(defaults.pluginMemoryLimit == 1_073_741_824)
    #expect(defaults.pluginCrashLimit == 3)
    #expect(defaults.pluginCrashWindow == 60)
    let (_, options) = try options([
      "--isolation", "none", "--plugin-timeout", "0.25", "--plugin-memory-limit", "512M", "--plugin-crash-limit=5",
      "--plugin-crash-window", "120",
    ])
    #expect(options.isolation == HostOptions.Isolation.none)
    #expect(options.pluginTimeout == 0.25)
    #expect(options.pluginMemoryLimit == 512 * 1024 * 1024)
    #expect(options.pluginCrashLimit == 5)
    #expect(options.pluginCrashWindow == 120)
    // K, M and G are powers of 1024, either case; a plain number is bytes; 0 is no limit.
    for (text, bytes) in [("64k", 65_536), ("3G", 3 * 1_073_741_824), ("1000", 1000), ("0", 0)] as [(String, UInt64)] {
      #expect(try self.options(["--plugin-memory-limit", text]).1.pluginMemoryLimit == bytes)
    }
  }

  @Test func explicitServeAndLaterValuesWin() throws {
    let (command, options) = try options(["serve", "--log-level", "info", "--log-level=error"])
    #expect(command == "serve")
    #expect(options.logLevel == .error)
  }

  @Test func lspClientsExtraArgumentsAreAccepted() throws {
    let (_, options) = try options(["--stdio", "--clientProcessId=4242"])
    #expect(options == HostOptions())
  }

  @Test func environmentPluginPathIsSplitOnColons() throws {
    let (_, options) = try options([], environment: ["TRANSITION_HOST_PLUGIN_PATH": "/x::/y/z:"])
    #expect(options.environmentPluginDirectories == ["/x", "/y/z"])
  }

  @Test func helpAndVersionWinEvenOverBadArguments() throws {
    guard case .help(let text) = try cli.parse(["--bogus", "--help"]) else {
      Issue.record("expected help")
      return
    }
    for expected in [
      "Usage: transition-host", "--plugin-dir DIR", "--framing newline|content-length", "inspect",
      "--isolation process|none", "--plugin-timeout SECONDS", "--plugin-memory-limit BYTES", "--plugin-crash-limit N",
      "--plugin-crash-window SECONDS",
    ] {
      #expect(text.contains(expected), "help lacks \(expected)")
    }
    #expect(!text.contains("--clientProcessId"), "hidden options stay hidden")
    guard case .version = try cli.parse(["-V"]) else {
      Issue.record("expected version")
      return
    }
    guard case .help(let inspectHelp) = try cli.parse(["inspect", "-h"]) else {
      Issue.record("expected help")
      return
    }
    #expect(inspectHelp.contains("Usage: transition-host inspect [OPTION…] <plugin.so> [animator]"))
    #expect(inspectHelp.contains("--json"))
    // After `--`, "--help" is an operand.
    let (_, options) = try options(["inspect", "--", "--help"])
    #expect(options.operands == ["--help"])
  }

  @Test func aSubcommandGetsSharedAndOwnOptionsAndOperands() throws {
    let (command, options) = try options(["inspect", "--json", "p.so", "--log-level", "info", "fade"])
    #expect(command == "inspect")
    #expect(options.operands == ["p.so", "fade"])
    #expect(options.maxTransitions == 7, "the subcommand's own flag ran")
    #expect(options.logLevel == .info)
  }

  @Test(arguments: [
    (["--bogus"], "unknown option '--bogus'"),
    (["--bogus=1"], "unknown option '--bogus'"),
    (["-x"], "unknown option '-x'"),
    (["--json"], "unknown option '--json'"),  // another subcommand's option
    (["--plugin-dir"], "option '--plugin-dir' needs a value (DIR)"),
    (["--plugin-dir="], "option '--plugin-dir' needs a folder, not ''"),
    (["--stdio=yes"], "option '--stdio' takes no value"),
    (["--max-line-bytes", "0"], "invalid value '0' for '--max-line-bytes': expected an integer from 1 to 1073741824"),
    (
      ["--max-line-bytes", "8M"], "invalid value '8M' for '--max-line-bytes': expected an integer from 1 to 1073741824"
    ),
    (["--max-transitions", "-1"], "invalid value '-1' for '--max-transitions': expected an integer from 1 to 1000000"),
    (["--framing", "lsp"], "invalid value 'lsp' for '--framing': expected newline or content-length"),
    (["--log-level", "trace"], "invalid value 'trace' for '--log-level': expected error, warn, info or debug"),
    (["--isolation", "thread"], "invalid value 'thread' for '--isolation': expected process or none"),
    (["--frames-ahead", "no"], "invalid value 'no' for '--frames-ahead': expected on or off"),
    (
      ["--plugin-timeout", "0"],
      "invalid value '0' for '--plugin-timeout': expected seconds, a number above 0 and at most 86400"
    ),
    (
      ["--plugin-crash-window", "forever"],
      "invalid value 'forever' for '--plugin-crash-window': expected seconds, a number above 0 and at most 86400"
    ),
    (
      ["--plugin-memory-limit", "1T"],
      "invalid value '1T' for '--plugin-memory-limit': expected bytes, a whole number with an optional K, M or G suffix"
    ),
    (
      ["--plugin-crash-limit", "0"],
      "invalid value '0' for '--plugin-crash-limit': expected an integer from 1 to 1000000"
    ),
    (["inspect", "--isolation", "none", "p.so"], "unknown option '--isolation'"),  // serve's own option
    (["extra"], "unexpected argument 'extra'"),
    (["--stdio", "inspect"], "unexpected argument 'inspect'"),
    (["inspect"], "'inspect' needs <plugin.so> [animator]"),
    (["inspect", "a", "b", "c"], "unexpected argument 'c' for 'inspect'"),
  ])
  func errorsNameTheOffendingArgument(arguments: [String], message: String) {
    #expect(failure(arguments) == message)
  }
}
