import JSONRPC
import POSIX
import PluginHost
import TransitionService

/// A command-line error: the message names the offending argument. The process prints it and exits 2.
package struct CommandLineError: Error, Equatable, Sendable {
  package var message: String
  package init(_ message: String) { self.message = message }
}

/// One option: its spelling, help text, and how it changes `HostOptions`.
package struct OptionSpec {
  /// What the option takes.
  package enum Kind {
    /// A switch such as `--stdio`; `--name=value` is an error.
    case flag((inout HostOptions) -> Void)
    /// An option with one value, as `--name VALUE` or `--name=VALUE`; the closure validates it.
    case value(placeholder: String, (inout HostOptions, String) throws(CommandLineError) -> Void)
  }

  /// `--long-name`, plus any aliases such as `-h`.
  package var names: [String]
  package var kind: Kind
  /// One line for `--help`.
  package var help: String
  /// Hidden from `--help` (accepted for compatibility only).
  package var isHidden = false

  package init(_ names: [String], _ kind: Kind, help: String, isHidden: Bool = false) {
    self.names = names
    self.kind = kind
    self.help = help
    self.isHidden = isHidden
  }
}

/// A subcommand (`serve`, later `render`, `validate`): adding one is one `register` call.
package struct Subcommand {
  /// The word that selects it (`transition-host render …`).
  package var name: String
  /// One line for the overview in `--help`.
  package var summary: String
  /// Operands after the options, for usage text (e.g. `<plugin.so>`); empty when it takes none.
  package var operandsUsage: String
  /// How many operands it accepts.
  package var operandCount: ClosedRange<Int>
  /// Its own options, besides the shared ones.
  package var options: [OptionSpec]
  /// More of `--help`, after the options and the environment (exit statuses, formats): lines without the trailing
  /// newline; empty when there is nothing more to say.
  package var details: [String]
  /// Runs it; returns the process exit status.
  package var run: (HostOptions, RunContext) -> Int32

  package init(
    name: String,
    summary: String,
    operandsUsage: String = "",
    operandCount: ClosedRange<Int> = 0...0,
    options: [OptionSpec] = [],
    details: [String] = [],
    run: @escaping (HostOptions, RunContext) -> Int32
  ) {
    self.name = name
    self.summary = summary
    self.operandsUsage = operandsUsage
    self.operandCount = operandCount
    self.options = options
    self.details = details
    self.run = run
  }
}

/// What a subcommand gets besides its options.
package struct RunContext {
  /// Where its results go: the private duplicate of the original stdout (fd 1 itself points at stderr).
  package var output: FileDescriptor
  /// Log lines (stderr) at the level the options chose.
  package var logger: Logger

  package init(output: FileDescriptor, logger: Logger) {
    self.output = output
    self.logger = logger
  }
}

/// What the command line asks for.
package enum Invocation {
  /// Print this text (usage) and exit 0.
  case help(String)
  /// Print the version and exit 0.
  case version
  /// Run a subcommand with these options.
  case run(Subcommand, HostOptions)
}

/// The command-line parser: shared options, subcommands, `--help` and `--version`.
///
/// Grammar: `transition-host [SUBCOMMAND] [OPTION…] [--] [OPERAND…]`. The subcommand, when present, is the
/// first argument; without one the default subcommand (`serve`) runs. Options take `--name VALUE` or
/// `--name=VALUE`; later occurrences of a single-valued option win; `--` ends the options. `--help` and
/// `--version` win over everything else, even over errors in other arguments.
package struct CommandLineInterface {
  /// Registered subcommands, in help order; the first one is the default.
  package private(set) var subcommands: [Subcommand] = []
  /// Options every subcommand accepts.
  package var sharedOptions: [OptionSpec]

  /// An interface with the shared options and no subcommand yet.
  package init(sharedOptions: [OptionSpec] = CommandLineInterface.standardOptions) {
    self.sharedOptions = sharedOptions
  }

  /// Adds a subcommand. The first one registered is the default.
  package mutating func register(_ subcommand: Subcommand) {
    precondition(!subcommands.contains { $0.name == subcommand.name }, "duplicate subcommand \(subcommand.name)")
    subcommands.append(subcommand)
  }

  /// Parses `arguments` (without the program name).
  ///
  /// - Parameter environment: looks a variable up (`getenv` in the host; a dictionary in tests).
  package func parse(_ arguments: [String], environment: (String) -> String? = { _ in nil }) throws(CommandLineError)
    -> Invocation
  {
    guard let defaultCommand = subcommands.first else { throw CommandLineError("no subcommand is registered") }
    var rest = arguments[...]
    var command = defaultCommand
    if let first = rest.first, let named = subcommands.first(where: { $0.name == first }) {
      command = named
      rest = rest.dropFirst()
    }
    // --help / --version before anything else (up to `--`): `transition-host --bogus --help` still helps.
    for argument in rest {
      if argument == "--" { break }
      if argument == "--help" || argument == "-h" { return .help(usage(for: command)) }
      if argument == "--version" || argument == "-V" { return .version }
    }

    var options = HostOptions()
    if let path = environment(HostOptions.pluginPathVariable) {
      options.environmentPluginDirectories = HostOptions.pluginDirectories(fromPath: path)
    }
    let specs = sharedOptions + command.options
    var onlyOperands = false
    var index = rest.startIndex
    while index < rest.endIndex {
      let argument = rest[index]
      index += 1
      if onlyOperands || !argument.hasPrefix("-") || argument == "-" {
        options.operands.append(argument)
        continue
      }
      if argument == "--" {
        onlyOperands = true
        continue
      }
      let (name, inlineValue) = Self.split(argument)
      guard let spec = specs.first(where: { $0.names.contains(name) }) else {
        if subcommands.contains(where: { $0.name == name }) {
          throw CommandLineError("'\(name)' must come first: transition-host \(name) [OPTION…]")
        }
        throw CommandLineError("unknown option '\(name)'")
      }
      switch spec.kind {
      case .flag(let apply):
        if inlineValue != nil { throw CommandLineError("option '\(name)' takes no value") }
        apply(&options)
      case .value(let placeholder, let apply):
        let value: String
        if let inlineValue {
          value = inlineValue
        } else if index < rest.endIndex {
          value = rest[index]
          index += 1
        } else {
          throw CommandLineError("option '\(name)' needs a value (\(placeholder))")
        }
        try apply(&options, value)
      }
    }
    if !command.operandCount.contains(options.operands.count) {
      if command.operandCount.upperBound == 0 {
        throw CommandLineError("unexpected argument '\(options.operands[0])'")
      }
      if options.operands.count < command.operandCount.lowerBound {
        throw CommandLineError("'\(command.name)' needs \(command.operandsUsage)")
      }
      throw CommandLineError(
        "unexpected argument '\(options.operands[command.operandCount.upperBound])' for '\(command.name)'")
    }
    return .run(command, options)
  }

  /// `--name=value` → ("--name", "value"); `--name` → ("--name", nil). Short options have no inline value.
  private static func split(_ argument: String) -> (String, String?) {
    guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
    return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
  }

  /// The `--help` text for `command` (the overview lists every subcommand when `command` is the default).
  package func usage(for command: Subcommand) -> String {
    let isDefault = command.name == subcommands.first?.name
    var text = ""
    let operands = command.operandsUsage.isEmpty ? "" : " \(command.operandsUsage)"
    if isDefault {
      text += "\(HostIdentity.name) \(HostIdentity.version): hosts iOS-style custom view-controller transitions,\n"
      text += "speaking JSON-RPC 2.0 on stdin/stdout (see Protocol.md).\n\n"
      text += "Usage: \(HostIdentity.name) [SUBCOMMAND] [OPTION…]\n"
      text += "       \(HostIdentity.name) [\(command.name)] [OPTION…]   \(command.summary)\n"
    } else {
      text += "Usage: \(HostIdentity.name) \(command.name) [OPTION…]\(operands)\n\n\(command.summary)\n"
    }
    if isDefault && subcommands.count > 1 {
      text += "\nSubcommands:\n"
      for subcommand in subcommands {
        text += Self.row(subcommand.name, subcommand.summary)
      }
    }
    text += "\nOptions:\n"
    for spec in command.options + sharedOptions where !spec.isHidden {
      var left = spec.names.joined(separator: ", ")
      if case .value(let placeholder, _) = spec.kind { left += " \(placeholder)" }
      text += Self.row(left, spec.help)
    }
    text += Self.row("-h, --help", "show this help and exit")
    text += Self.row("-V, --version", "print the version and exit")
    text += "\nEnvironment:\n"
    text += Self.row(HostOptions.pluginPathVariable, "extra plugin folders, colon-separated (absolute paths only)")
    if !command.details.isEmpty { text += "\n" + command.details.map { $0 + "\n" }.joined() }
    return text
  }

  private static func row(_ left: String, _ right: String) -> String {
    let padded = left.count < 30 ? left + String(repeating: " ", count: 30 - left.count) : left + "  "
    return "  \(padded)\(right)\n"
  }
}

extension CommandLineInterface {
  /// The options every subcommand shares (CONVENTIONS.md, "Names and flags").
  package static var standardOptions: [OptionSpec] {
    [
      OptionSpec(
        ["--plugin-dir"],
        .value(placeholder: "DIR") { options, value throws(CommandLineError) in
          guard !value.isEmpty else { throw CommandLineError("option '--plugin-dir' needs a folder, not ''") }
          options.pluginDirectories.append(value)
        }, help: "also load plugins from DIR (repeatable)"),
      OptionSpec(
        ["--allow-any-plugin-path"], .flag { $0.allowAnyPluginPath = true },
        help: "load plugins from any path, and skip the link, ownership and permission checks"),
      OptionSpec(
        ["--max-line-bytes"],
        .value(placeholder: "N") { options, value throws(CommandLineError) in
          options.maxMessageBytes = try integer(
            value, option: "--max-line-bytes", in: 1...HostOptions.largestMaxMessageBytes)
        },
        help:
          "longest accepted message in bytes (default \(Framing.defaultMaxMessageBytes) = "
          + "\(Framing.defaultMaxMessageBytes >> 20) MiB)"),
      OptionSpec(
        ["--framing"],
        .value(placeholder: "newline|content-length") { options, value throws(CommandLineError) in
          guard let framing = Framing(rawValue: value) else {
            throw CommandLineError("invalid value '\(value)' for '--framing': expected newline or content-length")
          }
          options.framing = framing
        }, help: "message framing on stdin/stdout (default newline)"),
      OptionSpec(
        ["--max-transitions"],
        .value(placeholder: "N") { options, value throws(CommandLineError) in
          options.maxTransitions = try integer(value, option: "--max-transitions", in: 1...1_000_000)
        }, help: "most transitions running at once (default 1024)"),
      OptionSpec(
        ["--log-level"],
        .value(placeholder: "error|warn|info|debug") { options, value throws(CommandLineError) in
          guard let level = LogLevel(name: value) else {
            throw CommandLineError(
              "invalid value '\(value)' for '--log-level': expected error, warn, info or debug")
          }
          options.logLevel = level
        }, help: "how much to log on stderr (default warn)"),
      OptionSpec(
        ["--frames-ahead"],
        .value(placeholder: "on|off") { options, value throws(CommandLineError) in
          guard value == "on" || value == "off" else {
            throw CommandLineError("invalid value '\(value)' for '--frames-ahead': expected on or off")
          }
          options.buildsFramesAhead = value == "on"
        }, help: "build each real-time frame ahead of its tick (default on)", isHidden: true),
      OptionSpec(["--stdio"], .flag { _ in }, help: "serve on stdin/stdout (the default; editors pass it)"),
      OptionSpec(
        ["--clientProcessId"], .value(placeholder: "PID") { _, _ in },
        help: "accepted for LSP clients and ignored: the host exits on stdin EOF instead", isHidden: true),
    ]
  }

  /// Parses a decimal integer within `range`, naming the option in the error.
  package static func integer(_ text: String, option: String, in range: ClosedRange<Int>) throws(CommandLineError)
    -> Int
  {
    guard let value = Int(text), range.contains(value) else {
      throw CommandLineError(
        "invalid value '\(text)' for '\(option)': expected an integer from \(range.lowerBound) to \(range.upperBound)"
      )
    }
    return value
  }
}
