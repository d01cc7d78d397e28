internal import CTransitionABI

/// One animator instance: the plugin-side state of one transition, from the host's `create` to its `destroy`.
///
/// It owns the animator object, its presentation controller, the context object handed to the animator and the view
/// proxies (one per host view, so `===` works as in UIKit). Every call from the host enters the session, which makes
/// it the *current* one for UIKit's context-free class methods (`UIView.animate`, `UIView(frame:)`).
///
/// `@unchecked Sendable`: the ABI runs everything on the host's thread, during host → plugin calls; the session is
/// only touched there (the task-local that names the current session is bound per thread).
final class Session: @unchecked Sendable {
  /// The session of the host → plugin call running on this thread, if any.
  @TaskLocal static var current: Session?

  let host: Host
  /// The plugin's own context (for logging when no transition context is known).
  let pluginContext: th_context
  /// The transition context of the latest host call (the host passes the same one to every call of a transition;
  /// {0} before the first call that has one).
  private(set) var ctx = th_context(id: 0)
  let animator: any TransitionAnimator
  /// Made once, when the instance is created (the host asks for the extension before anything else).
  let presentationController: UIPresentationController?
  /// How many animations functions are running (for `UIView.performWithoutAnimation`).
  var animationDepth = 0
  /// The blocks whose closures are running, innermost last, with the part that runs ("animations",
  /// "completion"): reports of refused calls say where the closure was written.
  private var runningBlocks: [(origin: BlockOrigin, part: String)] = []
  /// The view proxies by handle.
  private var views: [UInt64: UIView] = [:]
  /// The UIKit-shaped context given to the animator.
  private(set) lazy var context = TransitionContext(session: self)

  init(host: Host, pluginContext: th_context, animatorType: any TransitionAnimator.Type) {
    self.host = host
    self.pluginContext = pluginContext
    let animator = animatorType.init()
    self.animator = animator
    self.presentationController = animator.makePresentationController()
  }

  deinit {
    // The host has paid every completion it owed before destroying the instance; what is left was refused.
    BlockRegistry.purge(self)
  }

  /// Runs `body` as a host → plugin call with `ctx`: the session is current, and calls use that context.
  func enter<R>(_ ctx: th_context, _ body: () -> R) -> R {
    if ctx.id != 0 { self.ctx = ctx }
    presentationController?.session = self
    return Session.$current.withValue(self, operation: body)
  }

  /// Whether a transition context is known (the host passes {0} when it asks for a duration before a transition
  /// exists, as UIKit's nil context).
  var hasContext: Bool { ctx.id != 0 }

  /// The proxy of a host view; nil for the handle {0} (UIKit's nil).
  func view(_ handle: th_view) -> UIView? {
    guard handle.id != 0 else { return nil }
    if let view = views[handle.id] { return view }
    let view = UIView(handle: handle.id, session: self)
    views[handle.id] = view
    return view
  }

  /// Registers a proxy made by the plugin (`UIView(frame:)`).
  func register(_ view: UIView) {
    views[view.handle] = view
  }

  /// Runs `body`, the `part` closure of `block`.
  func running(_ block: AnimationBlock, _ part: String, _ body: () -> Void) {
    runningBlocks.append((block.origin, part))
    body()
    runningBlocks.removeLast()
  }

  /// Where the call being made was written, for reports: " (in the animations of UIView.animate at F:L)", or
  /// "" outside every block.
  var blockContext: String {
    guard let innermost = runningBlocks.last else { return "" }
    return " (in the \(innermost.part) of \(innermost.origin))"
  }

  /// Logs through the host with the transition's context.
  func log(_ level: th_log_level, _ message: String) {
    host.log(hasContext ? ctx : pluginContext, level, message)
  }

  /// Calls a host function with this session's context (see `Host.call`).
  @discardableResult
  func call<F>(
    _ member: KeyPath<th_host_api, F?>, _ what: @autoclosure () -> String, quiet: [th_status] = [],
    _ body: (F, th_context) -> th_status
  ) -> Bool {
    let ctx = hasContext ? self.ctx : pluginContext
    return host.call(ctx, member, what(), quiet: quiet, logContext: pluginContext, context: blockContext) {
      body($0, ctx)
    }
  }
}

/// Logging for plugin code: messages go to the host's log (stderr), tagged with the plugin and, during a transition,
/// the animator and the transition.
public enum TransitionLog {
  /// The severity of a message.
  public enum Level: Sendable {
    case debug, info, warning, error
  }

  /// Logs `message` at `level`.
  public static func log(_ message: String, level: Level = .info) {
    let thLevel: th_log_level =
      switch level {
      case .debug: TH_LOG_DEBUG
      case .info: TH_LOG_INFO
      case .warning: TH_LOG_WARNING
      case .error: TH_LOG_ERROR
      }
    if let session = Session.current {
      session.log(thLevel, message)
    } else {
      PluginRuntime.log(thLevel, message)
    }
  }

  public static func debug(_ message: String) { log(message, level: .debug) }
  public static func info(_ message: String) { log(message, level: .info) }
  public static func warning(_ message: String) { log(message, level: .warning) }
  public static func error(_ message: String) { log(message, level: .error) }
}
