import Glibc
import JSONRPC
import POSIX
import PluginHost
import PluginIsolation
import TransitionService

/// The program: protects stdout, parses the command line, runs the chosen subcommand.
package enum HostMain {
  /// Runs `transition-host` with `arguments` (without the program name) and returns the exit status:
  /// 0 on success, 2 for a command-line error, 1 when the process cannot even set up its stdout.
  package static func run(arguments: [String]) -> Int32 {
    // A plugin's worker process (the host re-executed by itself): its descriptors are set up by its parent already.
    if arguments.first == WorkerMain.mode {
      return WorkerMain.run(arguments: Array(arguments.dropFirst()))
    }
    // Before anything else can run (and print): closed stdin/stderr filled with /dev/null, SIGPIPE off,
    // protocol output on a private fd, fd 1 → stderr.
    StdoutProtection.reopenClosed()
    StdoutProtection.ignoreSIGPIPE()
    let output: FileDescriptor
    do {
      output = try StdoutProtection.takeOver()
    } catch {
      let reason =
        error.errno == .badFileDescriptor
        ? "stdout is not open" : "\(error.call) failed (errno \(error.errno.rawValue))"
      Logger(level: .error).error("cannot serve: \(reason)")
      return 1
    }

    let cli = HostCommandLine.make()
    let invocation: Invocation
    do {
      invocation = try cli.parse(arguments) { name in getenv(name).map { String(cString: $0) } }
    } catch {
      try? FileDescriptor.standardError.writeAll(
        "\(HostIdentity.name): \(error.message)\nRun '\(HostIdentity.name) --help' for usage.\n")
      return 2
    }
    switch invocation {
    case .help(let usage):
      try? output.writeAll(usage)
      return 0
    case .version:
      try? output.writeAll("\(HostIdentity.name) \(HostIdentity.version)\n")
      return 0
    case .run(let command, let options):
      return command.run(options, RunContext(output: output, logger: Logger(level: options.logLevel)))
    }
  }
}

/// The host's command line: `serve` (the default), `render`, `validate`, `record` and `compare`.
package enum HostCommandLine {
  /// The interface with every subcommand registered. Adding a subcommand is one `register` call here.
  package static func make() -> CommandLineInterface {
    var cli = CommandLineInterface()
    cli.register(serve)
    cli.register(render)
    cli.register(validate)
    cli.register(record)
    cli.register(compare)
    return cli
  }

  /// `transition-host [serve] [OPTION…]`: JSON-RPC on stdin/stdout until `exit`, end of input or SIGTERM.
  package static var serve: Subcommand {
    Subcommand(
      name: "serve", summary: "serve JSON-RPC 2.0 on stdin/stdout (the default)", options: isolationOptions
    ) { options, context in
      let signals: SignalPipe?
      do throws(Errno) {
        signals = try SignalPipe(nonBlocking: context.output)
      } catch {
        context.logger.error("cannot watch SIGTERM (errno \(error.rawValue)); it will end the host abruptly")
        signals = nil
      }
      let server = Server(
        configuration: Server.Configuration(options: options),
        input: .standardInput,
        output: context.output,
        signals: signals,
        logger: context.logger
      )
      // The protocol layer (plugins, animators, transitions) installs its methods and hooks here.
      TransitionProtocol.install(on: server, options: options)
      return server.run()
    }
  }
}
