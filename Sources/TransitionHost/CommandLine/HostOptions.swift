import JSONRPC
import TransitionRender
import TransitionService

/// Everything the command line (and the environment) configures.
///
/// One struct for every subcommand, so options shared by `serve`, `render` and `validate` are parsed once; a new
/// option is a field here and the flag that sets it (`CommandLineInterface`).
package struct HostOptions: Equatable, Sendable {
  /// Extra plugin folders from `--plugin-dir DIR`, in command-line order.
  package var pluginDirectories: [String] = []
  /// Extra plugin folders from `TRANSITION_HOST_PLUGIN_PATH` (colon-separated; empty entries dropped).
  package var environmentPluginDirectories: [String] = []
  /// `--allow-any-plugin-path`: `plugins/load` may load from any path, not only the plugin folders.
  package var allowAnyPluginPath = false
  /// `--max-line-bytes N`: the longest accepted message (a line, or a Content-Length body; CONVENTIONS names the
  /// flag after the default framing).
  package var maxMessageBytes = Framing.defaultMaxMessageBytes
  /// `--framing newline|content-length`.
  package var framing: Framing = .newline
  /// `--max-transitions N`: how many transitions may run at once.
  package var maxTransitions = 1024
  /// `--frames-ahead on|off` (hidden, for comparisons): real-time frames built ahead of their tick.
  package var buildsFramesAhead = true
  /// `--log-level error|warn|info|debug`.
  package var logLevel: LogLevel = .warn
  /// `--isolation process|none`: plugins in worker processes (the default for `serve`), or in the host's process.
  package var isolation: Isolation = .process
  /// `--plugin-timeout SECONDS`: how long one call into plugin code may take before its worker is killed.
  package var pluginTimeout = 2.0
  /// `--plugin-memory-limit BYTES`: each worker's memory limit (0: none).
  package var pluginMemoryLimit: UInt64 = 1 << 30
  /// `--plugin-crash-limit N` crashes within `--plugin-crash-window SECONDS` mark a plugin crashed.
  package var pluginCrashLimit = 3
  package var pluginCrashWindow = 60.0
  /// Operands after the subcommand's options (e.g. the plugin path of `validate`).
  package var operands: [String] = []
  /// `render`'s own options (Render/RenderOptions.swift).
  package var render = RenderOptions()
  /// `validate`'s own options (ValidateSubcommand.swift).
  package var validate = ValidateOptions()
  /// `record`'s and `compare`'s own options (GoldenSubcommands.swift).
  package var golden = GoldenOptions()

  /// The largest `--max-line-bytes`: json-c takes an `int` length, and the buffer is held in memory.
  package static let largestMaxMessageBytes = 1 << 30

  package init() {}

  /// What the options say about plugins (`serve` and `render` load the start-up plugins from it).
  package var pluginSetup: PluginSetup {
    PluginSetup(
      pluginDirectories: pluginDirectories, environmentPluginDirectories: environmentPluginDirectories,
      allowAnyPluginPath: allowAnyPluginPath, logLevel: logLevel)
  }

  /// Where `serve` runs plugins (`--isolation`).
  package enum Isolation: String, CaseIterable, Sendable {
    /// One worker process per loaded plugin generation: a plugin that crashes, hangs or runs away fails only its own
    /// transitions.
    case process
    /// In the host's own process: no process boundary to cross, and a fault of a plugin ends the host.
    case none
  }

  /// The environment variable that lists extra plugin folders.
  package static let pluginPathVariable = "TRANSITION_HOST_PLUGIN_PATH"

  /// Splits a `TRANSITION_HOST_PLUGIN_PATH` value on colons, dropping empty entries.
  package static func pluginDirectories(fromPath value: String) -> [String] {
    value.split(separator: ":", omittingEmptySubsequences: true).map(String.init)
  }
}
