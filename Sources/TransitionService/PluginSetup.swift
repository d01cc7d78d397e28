// The start-up plugins, as both `serve` and `render` load them: the built-ins beside the binary, then `--plugin-dir`
// and `TRANSITION_HOST_PLUGIN_PATH` folders.

import PluginHost

/// Where plugins come from and how they may be loaded: what the command line says about plugins.
package struct PluginSetup: Equatable, Sendable {
  /// Extra plugin folders from `--plugin-dir DIR`, in command-line order.
  package var pluginDirectories: [String]
  /// Extra plugin folders from `TRANSITION_HOST_PLUGIN_PATH`.
  package var environmentPluginDirectories: [String]
  /// `--allow-any-plugin-path`: `plugins/load` may load from any path, not only the plugin folders.
  package var allowAnyPluginPath: Bool
  /// `--log-level`: plugin log lines below it are dropped.
  package var logLevel: LogLevel

  package init(
    pluginDirectories: [String] = [], environmentPluginDirectories: [String] = [], allowAnyPluginPath: Bool = false,
    logLevel: LogLevel = .warn
  ) {
    self.pluginDirectories = pluginDirectories
    self.environmentPluginDirectories = environmentPluginDirectories
    self.allowAnyPluginPath = allowAnyPluginPath
    self.logLevel = logLevel
  }

  /// A registry with the start-up plugins loaded. A plugin (or a whole folder) that fails to load is a warning on
  /// `logger`, not an error, and so is each relative `TRANSITION_HOST_PLUGIN_PATH` entry, which is ignored; what
  /// plugins logged while loading has gone to stderr and is dropped from the queue (nobody was listening for
  /// notifications yet).
  ///
  /// - Returns: the registry and the queue its plugins log to from now on.
  package func loadStartupPlugins(logger: Logger) -> (plugins: InProcessPlugins, logs: PluginLogQueue) {
    let logs = PluginLogQueue(minimumLevel: pluginLogLevel)
    let searchPath = self.searchPath
    warnAboutIgnoredEntries(of: searchPath, logger: logger)
    let registry = PluginRegistry(searchPath: searchPath, allowAnyPath: allowAnyPluginPath, logger: logs.logger())
    let plugins = InProcessPlugins(registry: registry)
    for failure in registry.loadAutomatically() {
      let what = searchPath.folders.contains(failure.path) ? "plugin folder" : "plugin"
      logger.warn("\(what) \(failure.path) was not loaded: \(failure.error.message)")
      plugins.loadFailures.append(LoadFailure(path: failure.path, error: .plugin(failure.error)))
    }
    _ = logs.take()
    return (plugins, logs)
  }

  /// A warning for each relative `TRANSITION_HOST_PLUGIN_PATH` entry of `searchPath`, which it ignores.
  package func warnAboutIgnoredEntries(of searchPath: PluginSearchPath, logger: Logger) {
    for entry in searchPath.ignoredEnvironmentEntries {
      logger.warn(
        "\(PluginSearchPath.environmentVariable) entry '\(entry)' is not an absolute path: ignored (what loads must "
          + "not depend on the directory the host was started in)")
    }
  }

  /// Where plugins may come from: the built-ins beside the binary, `--plugin-dir`, `TRANSITION_HOST_PLUGIN_PATH`.
  package var searchPath: PluginSearchPath {
    PluginSearchPath(
      builtInFolder: PluginSearchPath.executableFolder(), pluginDirs: pluginDirectories,
      environmentPath: environmentPluginDirectories.isEmpty ? nil : environmentPluginDirectories.joined(separator: ":"))
  }

  /// The plugin log level that matches the host's `--log-level`.
  package var pluginLogLevel: PluginLogLevel {
    switch logLevel {
    case .error: .error
    case .warn: .warning
    case .info: .info
    case .debug: .debug
    }
  }
}

extension TransitionSession {
  /// The start-up plugins that failed to load, by file or folder (`PluginRegistry.automaticLoadFailures`): `render`
  /// reports them when the animator it was asked for is missing.
  package var startupLoadFailures: [(path: String, error: PluginLoadError)] {
    (hosting as? InProcessPlugins)?.registry?.automaticLoadFailures ?? []
  }

  /// A session on the start-up plugins of `setup` (the host's and render's), its diagnostics going to `logger`.
  /// Register its methods on a dispatcher (`register(on:)`) to serve them.
  package static func loadingPlugins(
    _ setup: PluginSetup, configuration: Configuration, output: any ProtocolOutput, scheduler: any ProtocolScheduler,
    logger: Logger
  ) -> TransitionSession {
    let (plugins, logs) = setup.loadStartupPlugins(logger: logger)
    let session = TransitionSession(
      configuration: configuration, hosting: plugins, output: output, scheduler: scheduler, pluginLogs: logs)
    session.diagnostic = { [logger] in logger.warn($0) }
    return session
  }
}
