// `serve`'s isolation options (CONVENTIONS, "Names and flags"): where plugins run, and the bounds on a worker.

extension HostCommandLine {
  /// `--isolation`, `--plugin-timeout`, `--plugin-memory-limit`, `--plugin-crash-limit`, `--plugin-crash-window`.
  static var isolationOptions: [OptionSpec] {
    [
      OptionSpec(
        ["--isolation"],
        .value(placeholder: "process|none") { options, value throws(CommandLineError) in
          guard let isolation = HostOptions.Isolation(rawValue: value) else {
            throw CommandLineError("invalid value '\(value)' for '--isolation': expected process or none")
          }
          options.isolation = isolation
        }, help: "run each plugin in a worker process (process, the default) or in the host (none)"),
      OptionSpec(
        ["--plugin-timeout"],
        .value(placeholder: "SECONDS") { options, value throws(CommandLineError) in
          options.pluginTimeout = try seconds(value, option: "--plugin-timeout")
        }, help: "longest call into plugin code before its worker is killed (default 2)"),
      OptionSpec(
        ["--plugin-memory-limit"],
        .value(placeholder: "BYTES") { options, value throws(CommandLineError) in
          options.pluginMemoryLimit = try byteCount(value, option: "--plugin-memory-limit")
        }, help: "each worker's memory limit; K, M, G suffixes; 0: none (default 1G)"),
      OptionSpec(
        ["--plugin-crash-limit"],
        .value(placeholder: "N") { options, value throws(CommandLineError) in
          options.pluginCrashLimit = try CommandLineInterface.integer(
            value, option: "--plugin-crash-limit", in: 1...1_000_000)
        }, help: "crashes within the crash window that mark a plugin crashed (default 3)"),
      OptionSpec(
        ["--plugin-crash-window"],
        .value(placeholder: "SECONDS") { options, value throws(CommandLineError) in
          options.pluginCrashWindow = try seconds(value, option: "--plugin-crash-window")
        }, help: "the window of --plugin-crash-limit in seconds (default 60)"),
    ]
  }

  /// A number of seconds in (0, 86400].
  static func seconds(_ text: String, option: String) throws(CommandLineError) -> Double {
    guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 86_400 else {
      throw CommandLineError(
        "invalid value '\(text)' for '\(option)': expected seconds, a number above 0 and at most 86400")
    }
    return seconds
  }

  /// Bytes, with an optional K, M or G suffix (powers of 1024): `512M`, `1G`, `1048576`.
  static func byteCount(_ text: String, option: String) throws(CommandLineError) -> UInt64 {
    var digits = Substring(text)
    var scale: UInt64 = 1
    switch text.last {
    case "K", "k": scale = 1 << 10
    case "M", "m": scale = 1 << 20
    case "G", "g": scale = 1 << 30
    default: break
    }
    if scale > 1 { digits = digits.dropLast() }
    guard let value = UInt64(digits), value <= (1 << 50) / scale else {
      throw CommandLineError(
        "invalid value '\(text)' for '\(option)': expected bytes, a whole number with an optional K, M or G suffix")
    }
    return value * scale
  }
}
