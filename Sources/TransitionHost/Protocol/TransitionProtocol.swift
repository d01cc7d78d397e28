// Wiring the transition protocol into the server: plugins from the search path, the event loop's timers for real-time
// clocks, the dispatcher for output, and the server's lifecycle hooks.

import JSONRPC
import POSIX
import PluginHost

/// Installs plugins/…, animators/list and transition/… on a server.
package enum TransitionProtocol {
  /// Loads the start-up plugins (the built-ins beside the binary, then `--plugin-dir` and
  /// `TRANSITION_HOST_PLUGIN_PATH` folders), registers every method and sets the server's hooks: coalescing of
  /// `transition/update` notifications, end of input (paused and manual transitions end "inputClosed", real-time
  /// ones play on), pending work (live transitions keep the host running after end of input), and termination
  /// (every transition ends "terminated").
  ///
  /// - Returns: the service (the server's hooks keep it alive).
  @discardableResult
  package static func install(on server: Server, options: HostOptions) -> TransitionService {
    let (registry, logs) = loadStartupPlugins(options: options, logger: server.logger)
    let service = TransitionService(
      configuration: TransitionService.Configuration(maxTransitions: options.maxTransitions),
      catalog: PluginAnimatorCatalog(registry: registry), registry: registry, output: server.dispatcher,
      scheduler: EventLoopScheduler(loop: server.loop), pluginLogs: logs)
    service.diagnostic = { [logger = server.logger] in logger.warn($0) }
    service.register(on: server.dispatcher)
    server.coalescingKey = { [unowned service] in service.coalescingKey($0) }
    server.onInputClosed = { service.inputClosed() }
    server.hasPendingWork = { [unowned service] in service.hasPendingWork }
    server.onTerminate = { [unowned service] _ in service.terminateAll(reason: "terminated") }
    server.capabilities.frames = FrameMode.allCases.map(\.rawValue)
    server.capabilities.clocks = ClockKind.allCases.map(\.rawValue)
    return service
  }

  /// The start-up plugins, as both `serve` and `render` load them: the built-ins beside the binary, then
  /// `--plugin-dir` and `TRANSITION_HOST_PLUGIN_PATH` folders. A plugin that fails to load is a warning on
  /// `logger`, not an error; what plugins logged while loading has gone to stderr and is dropped from the queue
  /// (nobody was listening for notifications yet).
  ///
  /// - Returns: the registry and the queue its plugins log to from now on.
  static func loadStartupPlugins(options: HostOptions, logger: Logger) -> (PluginRegistry, PluginLogQueue) {
    let logs = PluginLogQueue(minimumLevel: pluginLevel(options.logLevel))
    let searchPath = PluginSearchPath(
      builtInFolder: PluginSearchPath.executableFolder(), pluginDirs: options.pluginDirectories,
      environmentPath: options.environmentPluginDirectories.isEmpty
        ? nil : options.environmentPluginDirectories.joined(separator: ":"))
    let registry = PluginRegistry(
      searchPath: searchPath, allowAnyPath: options.allowAnyPluginPath, logger: logs.logger())
    for failure in registry.loadAutomatically() {
      logger.warn("plugin \(failure.path) was not loaded: \(failure.error.message)")
    }
    _ = logs.take()
    return (registry, logs)
  }

  /// The plugin log level that matches the host's `--log-level`.
  static func pluginLevel(_ level: LogLevel) -> PluginLogLevel {
    switch level {
    case .error: .error
    case .warn: .warning
    case .info: .info
    case .debug: .debug
    }
  }
}

/// The event loop's monotonic timers as a `ProtocolScheduler`.
final class EventLoopScheduler: ProtocolScheduler {
  private let loop: EventLoop
  private var timers: [ProtocolTimerID: TimerID] = [:]
  private var nextID: UInt64 = 1

  init(loop: EventLoop) {
    self.loop = loop
  }

  var now: Double { Double(loop.now.nanoseconds) / 1e9 }

  func schedule(at deadline: Double, _ action: @escaping () -> Void) -> ProtocolTimerID {
    let id = ProtocolTimerID(rawValue: nextID)
    nextID += 1
    // Rounded up: a timer must not fire before its deadline, or a frame would advance by less than asked.
    // A deadline beyond Int64 nanoseconds (a client's fps of 1e-12 puts the next frame 1e12 s away) saturates
    // instead of trapping: that timer never fires, as it should not within the process's life.
    let nanoseconds = (deadline * 1e9).rounded(.up)
    let instant = MonotonicInstant(nanoseconds: nanoseconds < 9.2e18 ? Int64(max(nanoseconds, 0)) : .max)
    timers[id] = loop.schedule(at: instant) { [weak self] in
      self?.timers[id] = nil
      action()
    }
    return id
  }

  func cancel(_ timer: ProtocolTimerID) {
    if let id = timers.removeValue(forKey: timer) { loop.cancel(id) }
  }
}
