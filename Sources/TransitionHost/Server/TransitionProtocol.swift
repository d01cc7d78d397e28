// Wiring the transition protocol into the server: plugins from the search path, the event loop's timers for real-time
// clocks, the dispatcher for output, and the server's lifecycle hooks.

import JSONRPC
import POSIX
import TransitionService

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
  package static func install(on server: Server, options: HostOptions) -> TransitionSession {
    let service = TransitionSession.loadingPlugins(
      options.pluginSetup, configuration: TransitionSession.Configuration(maxTransitions: options.maxTransitions),
      output: server.dispatcher, scheduler: EventLoopScheduler(loop: server.loop), logger: server.logger)
    service.register(on: server.dispatcher)
    server.coalescingKey = { [unowned service] in service.coalescingKey($0) }
    server.onInputClosed = { service.inputClosed() }
    server.hasPendingWork = { [unowned service] in service.hasPendingWork }
    server.onTerminate = { [unowned service] _ in service.terminateAll(reason: "terminated") }
    server.capabilities.frames = FrameMode.allCases.map(\.rawValue)
    server.capabilities.clocks = ClockKind.allCases.map(\.rawValue)
    return service
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
