// Wiring the transition protocol into the server: plugins from the search path, the event loop's timers for real-time
// clocks, the dispatcher for output, and the server's lifecycle hooks.

import JSONRPC
import POSIX
import PluginIsolation
import TransitionService

/// Installs plugins/…, animators/list and transition/… on a server.
package enum TransitionProtocol {
  /// How long SIGTERM waits for workers to end their transitions (of the second the host has to exit in).
  static let terminationBudget = 0.3

  /// Loads the start-up plugins (the built-ins beside the binary, then `--plugin-dir` and
  /// `TRANSITION_HOST_PLUGIN_PATH` folders), registers every method and sets the server's hooks: coalescing of
  /// `transition/update` notifications, end of input (paused and manual transitions end "inputClosed", real-time
  /// ones play on), pending work (live transitions keep the host running after end of input), and termination
  /// (every transition ends "terminated").
  ///
  /// - Returns: the service (the server's hooks keep it alive).
  @discardableResult
  package static func install(on server: Server, options: HostOptions) -> TransitionSession {
    let scheduler = EventLoopScheduler(loop: server.loop)
    var configuration = TransitionSession.Configuration(maxTransitions: options.maxTransitions)
    configuration.buildsFramesAhead = options.buildsFramesAhead
    let service: TransitionSession
    switch options.isolation {
    case .none:
      service = TransitionSession.loadingPlugins(
        options.pluginSetup, configuration: configuration, output: server.dispatcher, scheduler: scheduler,
        logger: server.logger)
    case .process:
      let setup = options.pluginSetup
      setup.warnAboutIgnoredEntries(of: setup.searchPath, logger: server.logger)
      let logs = PluginLogQueue(minimumLevel: setup.pluginLogLevel)
      let plugins = WorkerPlugins(
        settings: IsolationSettings(
          // The very binary that is running, even if its file was replaced since.
          executable: "/proc/self/exe", pluginTimeout: options.pluginTimeout, memoryLimit: options.pluginMemoryLimit,
          crashLimit: options.pluginCrashLimit, crashWindow: options.pluginCrashWindow, logLevel: setup.pluginLogLevel),
        searchPath: setup.searchPath, allowAnyPath: setup.allowAnyPluginPath, logs: logs, logger: server.logger)
      plugins.loadStartupPlugins()
      plugins.attach(scheduler: scheduler, watcher: scheduler)
      service = TransitionSession(
        configuration: configuration, hosting: plugins, output: server.dispatcher, scheduler: scheduler,
        pluginLogs: logs)
      service.diagnostic = { [logger = server.logger] in logger.warn($0) }
    }
    service.register(on: server.dispatcher)
    server.coalescingKey = { [unowned service] in service.coalescingKey($0) }
    server.onInputClosed = { service.inputClosed() }
    server.hasPendingWork = { [unowned service] in service.hasPendingWork }
    server.shouldPauseInput = { [unowned service] in service.shouldPauseInput }
    server.onTerminate = { [unowned service, unowned scheduler] _ in
      // Workers that do not answer within the budget are killed; their transitions still end "terminated".
      service.terminateAll(reason: "terminated", deadline: scheduler.now + Self.terminationBudget)
    }
    server.onExit = { [unowned service] in service.hosting.close() }
    server.capabilities.frames = FrameMode.allCases.map(\.rawValue)
    server.capabilities.clocks = ClockKind.allCases.map(\.rawValue)
    return service
  }
}

/// The event loop's monotonic timers as a `ProtocolScheduler`, and its descriptors as `DescriptorWatching`.
final class EventLoopScheduler: ProtocolScheduler, DescriptorWatching {
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

  func watch(_ descriptor: FileDescriptor, for events: PollEvents, _ handler: @escaping (PollEvents) -> Void) {
    loop.watch(descriptor, for: events, handler)
  }

  func unwatch(_ descriptor: FileDescriptor) {
    loop.unwatch(descriptor)
  }
}
