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
  /// Where the animator comes from: the instance itself, or a delegate that vends it.
  let source: AnimatorSource
  /// The animator the delegate vended, and for which operation (nil: asked before the host gave a context).
  var resolved: (operation: TransitionOperation?, animator: (any UIViewControllerAnimatedTransitioning)?)?
  /// Made once, when the host first asks for the extension (before any transition call), with its session set.
  private(set) lazy var presentationController: UIPresentationController? = {
    let controller = Session.$current.withValue(self) { makePresentationController() }
    controller?.session = self
    return controller
  }()
  /// The presented side (the to side of a presentation, push or segue; the from side of a dismissal, pop or
  /// unwind) and the presenting side: one object each for the instance's life, so `===` holds as in UIKit, with the
  /// side's root as `view` once the host has given a context.
  private(set) lazy var presentedViewController = UIViewController(role: .presented, session: self)
  private(set) lazy var presentingViewController = UIViewController(role: .presenting, session: self)
  /// The navigation controller of a push or pop (`viewController.navigationController`).
  private(set) lazy var navigationController = UINavigationController(session: self)
  /// The segue whose `perform()` runs this transition (a segue export), for `present` and `dismiss`.
  var runningSegue: UIStoryboardSegue?
  /// UIApplication's key window (see `window`).
  private var cachedWindow: UIWindow?
  /// How many animations functions are running (for `UIView.performWithoutAnimation`).
  var animationDepth = 0
  /// Whether the host took the animator's interruptible animator (then interaction continues it).
  var drivesInterruptibleAnimator = false
  /// That interruptible animator (a percent driver's spring `timingCurve` continues it).
  var drivenAnimator: UIViewPropertyAnimator?
  /// The blocks whose closures are running, innermost last, with the part that runs ("animations",
  /// "completion"): reports of refused calls say where the closure was written.
  private var runningBlocks: [(origin: BlockOrigin, part: String)] = []
  /// The view proxies by handle.
  private var views: [UInt64: UIView] = [:]
  /// The UIKit-shaped context given to the animator.
  private(set) lazy var context = TransitionContext(session: self)
  /// The interaction controller the delegate vended for this transition (asked once, when the host asks), and the
  /// recognizers tracking the gesture in progress (Interaction.swift).
  var interaction: (asked: Bool, controller: (any UIViewControllerInteractiveTransitioning)?) = (false, nil)
  var trackingRecognizers: [UIGestureRecognizer] = []

  /// The export's view controllers, when it declares a scene (Scenes.swift); the scene's state once one opened on
  /// this instance.
  let sceneDeclaration: SceneDeclaration?
  var sceneState: SceneState?
  /// Whether the host may ask for a presentation controller: false for a scene's presentation whose style is not
  /// `.custom` (UIKit asks the delegate only then).
  let asksPresentationController: Bool

  init(host: Host, pluginContext: th_context, export: TransitionPluginExport) {
    self.host = host
    self.pluginContext = pluginContext
    self.source = export.makeSource()
    self.sceneDeclaration = export.scene
    self.asksPresentationController = true
  }

  /// The instance of a transition a scene's controller starts, with the presented controller's delegate.
  init(host: Host, pluginContext: th_context, source: AnimatorSource, asksPresentationController: Bool) {
    self.host = host
    self.pluginContext = pluginContext
    self.source = source
    self.sceneDeclaration = nil
    self.asksPresentationController = asksPresentationController
  }

  deinit {
    // The host has paid every completion it owed before destroying the instance; what is left was refused.
    BlockRegistry.purge(self)
  }

  /// Runs `body` as a host → plugin call with `ctx`: the session is current, and calls use that context.
  func enter<R>(_ ctx: th_context, _ body: () -> R) -> R {
    if ctx.id != 0 { self.ctx = ctx }
    return Session.$current.withValue(self, operation: body)
  }

  /// UIApplication's key window here: a proxy of the container (its own object, not `containerView`), so it has
  /// the container's bounds; nil before the host gave a context.
  var window: UIWindow? {
    if let cachedWindow { return cachedWindow }
    var out = th_view(id: 0)
    guard hasContext, call(\.container_view, "UIApplication.shared.keyWindow", { $0($1, &out) }), out.id != 0 else {
      return nil
    }
    cachedWindow = UIWindow(handle: out.id, session: self)
    return cachedWindow
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

  /// Every view proxy made so far (the views the plugin has touched: only those can have gesture recognizers).
  var viewProxies: Dictionary<UInt64, UIView>.Values { views.values }

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
