// The options of `transition-host record` and `transition-host compare`; the work is TransitionRender's
// GoldenCommand (docs/golden-traces.md).

import TransitionRender

extension HostCommandLine {
  /// `transition-host record [OPTION…] --output TRACE`: render's options that say what to run, plus `--members`.
  package static var record: Subcommand {
    Subcommand(
      name: "record",
      summary: "run one transition as render does and write its frames as a golden trace (docs/golden-traces.md)",
      options: recordOptions,
      details: [
        "Exit status:",
        "  0  the trace is written",
        "  1  the transition did not end as asked (as render's status 1; no trace is written), or the file cannot",
        "     be written",
        "  2  bad options",
      ]
    ) { options, context in
      GoldenCommand.record(
        options.render, options.golden, plugins: options.pluginSetup, maxTransitions: options.maxTransitions,
        output: context.output, logger: context.logger)
    }
  }

  /// `transition-host compare [OPTION…] TRACE…`.
  package static var compare: Subcommand {
    Subcommand(
      name: "compare",
      summary: "run each golden trace's inputs against the current plugins and report where the frames diverge",
      operandsUsage: "TRACE…",
      operandCount: 1...Int.max,
      options: compareOptions,
      details: [
        "Exit status:",
        "  0  every trace matches (or, with --update, was rewritten)",
        "  1  a trace diverges (a frame, a view, a member, the end), or its transition fails to run now",
        "  2  bad options, or a trace that cannot be read (not JSON, another traceVersion) or written back",
        "A different plugin version, host version or ABI is a note, not a failure.",
      ]
    ) { options, context in
      GoldenCommand.compare(
        options.operands, options.golden, plugins: options.pluginSetup, maxTransitions: options.maxTransitions,
        output: context.output, logger: context.logger)
    }
  }

  /// Render's options that only shape its output (the page, recorded frames) have no meaning for a trace.
  private static let renderOnlyOptions: Set<String> = ["--format", "--frames", "--container", "--title"]

  private static var recordOptions: [OptionSpec] {
    var options = renderOptions.filter { $0.names.allSatisfy { !renderOnlyOptions.contains($0) } }
    for index in options.indices where options[index].names.contains("--output") {
      options[index].names = ["-o", "--output"]
      options[index].help = "write the trace there (TRACE.json) instead of standard output"
    }
    options.append(
      OptionSpec(
        ["--members"],
        .value(placeholder: "a,b,…") { o, v throws(CommandLineError) in
          let names = v.split(separator: ",").map { String($0).trimmingSpaces }
          guard !names.isEmpty, !names.contains(where: \.isEmpty) else {
            throw CommandLineError("invalid value '\(v)' for '--members': expected view members such as frame,alpha")
          }
          o.golden.members = names
        }, help: "keep only these members of each view (id always), e.g. frame,alpha,transform (default: all)"))
    return options
  }

  private static var compareOptions: [OptionSpec] {
    [
      OptionSpec(
        ["--tolerance"],
        .value(placeholder: "T") { o, v throws(CommandLineError) in
          guard let tolerance = Double(v), tolerance.isFinite, tolerance >= 0 else {
            throw CommandLineError("invalid value '\(v)' for '--tolerance': expected a number, 0 or more")
          }
          o.golden.tolerance = tolerance
        }, help: "largest absolute difference of two numbers that still match (default 1e-6)"),
      OptionSpec(
        ["--update"], .flag { $0.golden.update = true },
        help: "rewrite each trace with the current frames (its inputs kept)"),
      OptionSpec(
        ["--max-divergences"],
        .value(placeholder: "N") { o, v throws(CommandLineError) in
          o.golden.maxDivergences = try CommandLineInterface.integer(v, option: "--max-divergences", in: 1...1_000_000)
        }, help: "divergences listed per trace (default 10; all are counted)"),
      OptionSpec(["--json"], .flag { $0.golden.json = true }, help: "print the results as one JSON object"),
    ]
  }
}

extension String {
  fileprivate var trimmingSpaces: String {
    String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
  }
}
