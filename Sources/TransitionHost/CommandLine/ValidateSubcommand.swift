import Glibc
import POSIX
import PluginHost
import PluginValidator
import TransitionRender
import TransitionService

/// What `validate` takes besides the shared options (kept in `HostOptions.validate`).
package struct ValidateOptions: Equatable, Sendable {
  /// `--json`: one JSON object instead of the table.
  package var json = false
  /// `--only-failed`: list failed and crashed checks only (the summary still counts everything).
  package var onlyFailed = false
  /// `--list`: print the checks and what each proves, then exit.
  package var list = false
  /// `--run-check`: be the check process (hidden; the validator starts it).
  package var runCheck = false
  /// `--golden TRACE` (repeatable): golden traces to compare, each as a `golden` check (docs/golden-traces.md).
  package var golden: [String] = []
  /// `--run-golden`: be the process that compares one golden trace (hidden; the validator starts it).
  package var runGolden = false
  /// `--timeout S`, `--jobs N`, `--include REGEX`, `--exclude REGEX`, `--animator ID`, `--operation NAME`.
  package var settings = ValidatorSettings()

  package init() {}
}

extension HostCommandLine {
  /// `transition-host validate [OPTION…] <plugin.so>`: the plugin battery (docs/validate.md).
  package static var validate: Subcommand {
    Subcommand(
      name: "validate",
      summary: "check a plugin file: every check in its own process (docs/validate.md)",
      operandsUsage: "<plugin.so>",
      operandCount: 0...3,
      options: validateOptions
    ) { options, context in
      runValidate(options, context)
    }
  }

  private static var validateOptions: [OptionSpec] {
    [
      OptionSpec(["--json"], .flag { $0.validate.json = true }, help: "print the results as one JSON object"),
      OptionSpec(
        ["--only-failed"], .flag { $0.validate.onlyFailed = true }, help: "list only the checks that failed or crashed"),
      OptionSpec(
        ["--timeout"],
        .value(placeholder: "S") { options, value throws(CommandLineError) in
          guard let seconds = Double(value), seconds.isFinite, seconds > 0, seconds <= 86_400 else {
            throw CommandLineError("invalid value '\(value)' for '--timeout': expected seconds, more than 0")
          }
          options.validate.settings.timeout = seconds
        }, help: "seconds each check may take before it is killed (default 20)"),
      OptionSpec(
        ["--jobs"],
        .value(placeholder: "N") { options, value throws(CommandLineError) in
          options.validate.settings.jobs = try CommandLineInterface.integer(value, option: "--jobs", in: 1...64)
        }, help: "check processes at a time (default 2)"),
      OptionSpec(
        ["--include"],
        .value(placeholder: "REGEX") { options, value throws(CommandLineError) in
          options.validate.settings.include = value
          if let error = options.validate.settings.patternError() { throw CommandLineError(error) }
        }, help: "run only the checks whose id matches REGEX"),
      OptionSpec(
        ["--exclude"],
        .value(placeholder: "REGEX") { options, value throws(CommandLineError) in
          options.validate.settings.exclude = value
          if let error = options.validate.settings.patternError() { throw CommandLineError(error) }
        }, help: "skip the checks whose id matches REGEX"),
      OptionSpec(
        ["--animator"],
        .value(placeholder: "ID") { options, value throws(CommandLineError) in
          options.validate.settings.animators.append(value)
        }, help: "check only this animator (short id; repeatable)"),
      OptionSpec(
        ["--operation"],
        .value(placeholder: "NAME") { options, value throws(CommandLineError) in
          options.validate.settings.operations.append(value)
        }, help: "run only this operation (repeatable; default: every one the animator declares)"),
      OptionSpec(
        ["--golden"],
        .value(placeholder: "TRACE") { options, value throws(CommandLineError) in options.validate.golden.append(value)
        },
        help: "also compare this golden trace as a check (repeatable; without a plugin: only the traces)"),
      OptionSpec(
        ["--run-golden"], .flag { $0.validate.runGolden = true },
        help: "compare one golden trace in this process (used by validate itself)", isHidden: true),
      OptionSpec(["--list"], .flag { $0.validate.list = true }, help: "list the checks and what each proves"),
      OptionSpec(
        ["--run-check"], .flag { $0.validate.runCheck = true },
        help: "run one check in this process (used by validate itself)", isHidden: true),
    ]
  }

  private static func runValidate(_ options: HostOptions, _ context: RunContext) -> Int32 {
    let settings = options.validate
    if settings.runCheck { return CheckChild.run(arguments: options.operands, result: context.output) }
    if settings.list {
      var text = ""
      for kind in CheckKind.allCases {
        let padded = kind.rawValue + String(repeating: " ", count: max(20 - kind.rawValue.count, 1))
        text += "\(padded)\(kind.scopeName)  \(kind.summary)\n"
      }
      return write(text, to: context.output)
    }
    if settings.runGolden { return runGoldenCheck(options, context) }
    if !settings.golden.isEmpty && options.operands.count <= 1 { return runGoldenChecks(options, context) }
    guard options.operands.count == 1 else {
      let message = options.operands.isEmpty ? "'validate' needs <plugin.so>" : "'validate' takes one <plugin.so>"
      try? FileDescriptor.standardError.writeAll(
        "\(HostIdentity.name): \(message)\nRun '\(HostIdentity.name) validate --help' for usage.\n")
      return 2
    }
    guard let validator = makeValidator(settings, context) else { return 1 }
    let report = validator.validate(plugin: options.operands[0])
    return write(report, settings, context)
  }

  /// `validate --golden TRACE… [<plugin.so>]`: the battery when a plugin is named, then one `golden` check per
  /// trace, each compared in its own process against the start-up plugins (and the named plugin's folder).
  private static func runGoldenChecks(_ options: HostOptions, _ context: RunContext) -> Int32 {
    let settings = options.validate
    guard let validator = makeValidator(settings, context) else { return 1 }
    var results: [CheckResult] = []
    var pluginDirectories = options.pluginDirectories
    var subject = "golden traces"
    if let plugin = options.operands.first {
      let report = validator.validate(plugin: plugin)
      results = report.results
      subject = report.plugin
      pluginDirectories.append(String(subject[..<(subject.lastIndex(of: "/") ?? subject.endIndex)]))
    }
    var shared: [String] = pluginDirectories.flatMap { ["--plugin-dir", $0] }
    if options.allowAnyPluginPath { shared.append("--allow-any-plugin-path") }
    let checks = settings.golden.map { trace in
      var target = CheckTarget.library
      if case .success(let read) = GoldenTrace.read(path: trace) {
        let shortID = read.inputs.animator.split(separator: "/").last.map(String.init) ?? read.inputs.animator
        target = CheckTarget(animator: shortID, operation: read.inputs.operation)
      }
      return Validator.GoldenCheck(
        trace: trace, target: target, arguments: ["validate", "--run-golden"] + shared + ["--", trace])
    }
    results += validator.validate(golden: checks)
    let report = ValidationReport(plugin: subject, results: results)
    return write(report, settings, context)
  }

  /// The golden check's process: compares one trace, writes one result line.
  private static func runGoldenCheck(_ options: HostOptions, _ context: RunContext) -> Int32 {
    guard let trace = options.operands.first else { return 2 }
    let outcome = GoldenCommand.compareAll(
      [trace], GoldenOptions(), plugins: options.pluginSetup, maxTransitions: options.maxTransitions,
      output: context.output, logger: context.logger)[0]
    let notes = outcome.notes.map { "; note: " + $0 }.joined()
    let result: CheckOutcome
    switch outcome.status {
    case .pass, .updated: result = .pass("\(trace): \(outcome.frameCount) frames match\(notes)")
    case .fail, .error:
      if let message = outcome.message {
        result = .fail(message)
      } else {
        let first = outcome.divergences.first.map { "; first: " + $0.line } ?? ""
        result = .fail(
          "\(trace): \(outcome.divergenceCount) divergence(s) in \(outcome.frameCount) frames\(first)\(notes)")
      }
    }
    return write(CheckResultCoding.encode(result) + "\n", to: context.output)
  }

  /// A validator that starts check processes from this program's own file (nil, logged, when it cannot be found).
  private static func makeValidator(_ settings: ValidateOptions, _ context: RunContext) -> Validator? {
    guard let executable = realpath("/proc/self/exe", nil) else {
      context.logger.error("validate: cannot find this program's own file to start check processes")
      return nil
    }
    defer { free(executable) }
    return Validator(command: CheckCommand(executable: String(cString: executable)), settings: settings.settings)
  }

  /// Prints the report as the options ask; its exit status (1 when it cannot be written).
  private static func write(_ report: ValidationReport, _ settings: ValidateOptions, _ context: RunContext) -> Int32 {
    let text =
      settings.json
      ? report.json(onlyFailed: settings.onlyFailed) + "\n" : report.table(onlyFailed: settings.onlyFailed)
    let status = write(text, to: context.output)
    return status == 0 ? report.exitStatus : status
  }

  private static func write(_ text: String, to output: FileDescriptor) -> Int32 {
    (try? output.writeAll(text)) != nil ? 0 : 1
  }
}

extension CheckKind {
  /// `library`, `animator` or `operation`, for `--list`.
  fileprivate var scopeName: String {
    switch scope {
    case .library: "library  "
    case .animator: "animator "
    case .operation: "operation"
    }
  }
}
