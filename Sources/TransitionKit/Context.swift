internal import CTransitionABI

#if canImport(Glibc)
  import Glibc
#endif

/// UITransitionContextViewKey: which side's view `view(forKey:)` returns.
public struct UITransitionContextViewKey: Hashable, Sendable {
  let key: UInt32
  /// The view shown at the start (and at the end of a cancelled transition).
  public static let from = UITransitionContextViewKey(key: TH_KEY_FROM.rawValue)
  /// The view shown at the end of a completed transition.
  public static let to = UITransitionContextViewKey(key: TH_KEY_TO.rawValue)
}

/// UITransitionContextViewControllerKey: which side's view controller `viewController(forKey:)` returns.
public struct UITransitionContextViewControllerKey: Hashable, Sendable {
  let key: UInt32
  public static let from = UITransitionContextViewControllerKey(key: TH_KEY_FROM.rawValue)
  public static let to = UITransitionContextViewControllerKey(key: TH_KEY_TO.rawValue)
}

/// What a transition does. The six standard operations have names; any other string is the client's own and
/// settles like `present`.
public struct TransitionOperation: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
  /// The protocol's name ("present", "push", …).
  public let rawValue: String

  public init(rawValue: String) { self.rawValue = rawValue }
  public init(stringLiteral value: String) { self.rawValue = value }

  public static let present = TransitionOperation(rawValue: "present")
  public static let dismiss = TransitionOperation(rawValue: "dismiss")
  public static let push = TransitionOperation(rawValue: "push")
  public static let pop = TransitionOperation(rawValue: "pop")
  public static let segue = TransitionOperation(rawValue: "segue")
  public static let unwind = TransitionOperation(rawValue: "unwind")

  /// Dismiss and unwind: the presented side (`from`) goes away.
  public var isDismissal: Bool { self == .dismiss || self == .unwind }
  /// Push and pop.
  public var isNavigation: Bool { self == .push || self == .pop }
  /// Present, segue and custom operations: the presented side (`to`) comes in.
  public var isPresentation: Bool { !isDismissal && !isNavigation }

  public var description: String { rawValue }
}

/// A view controller of the transition, as UIKit's: one side (presenting or presented; from or to), whose `view` is
/// the root of that side's tree, or the navigation controller of a push or pop.
///
/// The SDK makes one object per side for the animator instance's life, so `===` holds between what the delegate
/// was given, the presentation controller's `presentedViewController` and `viewController(forKey:)`. `view` is nil
/// until the host has given the transition's context (a delegate asked for a presentation controller before the
/// transition starts sees the objects, not their views yet).
///
/// An app's own view controllers (`class ViewController: UIViewController`, named in the declaration file with
/// `viewControllers(_:storyboard:)`) live in a scene instead (Protocol.md, "Scenes"): their `view` is the root of the
/// client's tree for them, `viewDidLoad` runs when it is first needed, and `present`, `show` and `dismiss` start the
/// transition with the presented controller's `transitioningDelegate` (Scenes.swift).
open class UIViewController: NSObject {
  enum Role {
    /// An app's own view controller, in a scene.
    case app
    /// The to side of a presentation, push or segue; the from side of a dismissal, pop or unwind.
    case presented
    /// The other side.
    case presenting
    /// The navigation controller of a push or pop; its view is the container.
    case navigation
  }

  let role: Role
  weak var session: Session?
  private var resolvedView: UIView?
  /// An app controller's scene side: its storyboard identifier, the controllers it presents or that present it, its
  /// transitioning delegate and presentation style (Scenes.swift).
  let scene = SceneSide()
  /// The pending `beginAppearanceTransition` (is appearing), for UIKit's unbalanced-calls warning.
  private var pendingAppearance: Bool?
  private var pendingAppearanceAnimated = false

  init(role: Role, session: Session?) {
    self.role = role
    self.session = session
  }

  /// An app's view controller (what `UIStoryboard.instantiateViewController(withIdentifier:)` and the scene's root
  /// make). Made outside a scene's call, it has no scene: its `view` stays nil and it presents nothing.
  public required override init() {
    self.role = .app
    self.session = Session.current?.sceneState == nil ? nil : Session.current
    super.init()
  }

  /// Called once the view is loaded (its tree's root set as `view`): where an app adds its gesture recognizers.
  open func viewDidLoad() {}

  /// The context key of this side, once the operation is known.
  var key: UITransitionContextViewControllerKey? {
    guard let session, session.hasContext else { return nil }
    switch role {
    case .presented: return session.isBackward ? .from : .to
    case .presenting: return session.isBackward ? .to : .from
    case .navigation, .app: return nil
    }
  }

  /// The root view of the side's tree (UIKit's `viewController.view`); the container for the navigation
  /// controller; nil before the host gave the transition's context.
  public var view: UIView! {
    get {
      if let resolvedView { return resolvedView }
      if role == .app { return loadSceneView() }
      return transitionView
    }
    set {
      resolvedView = newValue
      if role == .app { scene.isViewLoaded = true }
    }
  }

  /// Whether the view is loaded (an app controller's is loaded when `view` is first read).
  public var isViewLoaded: Bool { role == .app ? scene.isViewLoaded : resolvedView != nil }

  /// The root view of a transition's side.
  private var transitionView: UIView! {
    guard let session, session.hasContext else { return nil }
    if role == .navigation {
      resolvedView = session.context.containerView
    } else if let key {
      resolvedView = session.context.rootView(forKey: key)
    }
    return resolvedView
  }

  /// The coordinator of the transition that is running, for alongside animations (UIKit's
  /// `viewController.transitionCoordinator`).
  public var transitionCoordinator: (any UIViewControllerTransitionCoordinator)? {
    guard let session, session.hasContext else { return nil }
    return session.context
  }

  /// The navigation controller of a push or pop; nil for other operations (and for the navigation controller).
  public var navigationController: UINavigationController? {
    if role == .app { return scene.navigation }
    guard role != .navigation, let session, session.hasContext, session.context.operation.isNavigation
    else {
      return nil
    }
    return session.navigationController
  }

  /// Tells the view controller that its view is about to appear (`true`) or disappear: as in UIKit, an app's
  /// controller (in a scene) gets `viewWillAppear(animated)` or `viewWillDisappear(animated)` now and the matching
  /// `viewDid…` at `endAppearanceTransition`. A transition's own sides have no life cycle: the call is recorded (the
  /// host's log, debug level). An `endAppearanceTransition` without it is logged as UIKit logs it ("Unbalanced calls").
  public func beginAppearanceTransition(_ isAppearing: Bool, animated: Bool) {
    pendingAppearance = isAppearing
    pendingAppearanceAnimated = animated
    log(TH_LOG_DEBUG, "beginAppearanceTransition(\(isAppearing), animated: \(animated)) on \(self)")
    guard role == .app else { return }
    if isAppearing { viewWillAppear(animated) } else { viewWillDisappear(animated) }
  }

  /// Ends the appearance transition `beginAppearanceTransition` began: `viewDidAppear` or `viewDidDisappear` on an
  /// app's controller; recorded on a transition's side.
  public func endAppearanceTransition() {
    guard let isAppearing = pendingAppearance else {
      log(TH_LOG_WARNING, "Unbalanced calls to begin/end appearance transitions for \(self)")
      return
    }
    pendingAppearance = nil
    log(TH_LOG_DEBUG, "endAppearanceTransition() on \(self) (did \(isAppearing ? "appear" : "disappear"))")
    guard role == .app else { return }
    if isAppearing { viewDidAppear(pendingAppearanceAnimated) } else { viewDidDisappear(pendingAppearanceAnimated) }
  }

  /// Called on the source controller before a segue runs (`performSegue(withIdentifier:sender:)`), as UIKit does:
  /// set up `segue.destination` here (its transitioning delegate, its data). The segue passed is of the declared
  /// class, made for this call; the transition runs `perform()` on an instance of its own (one per transition).
  open func prepare(for segue: UIStoryboardSegue, sender: Any?) {}

  /// The view is about to come on screen (an app's controller in a scene: before a transition that shows it
  /// starts, and when the scene opens with it on screen).
  open func viewWillAppear(_ animated: Bool) {}
  /// The view came on screen (after the transition that shows it completed).
  open func viewDidAppear(_ animated: Bool) {}
  /// The view is about to leave the screen (before a transition that covers or removes it starts).
  open func viewWillDisappear(_ animated: Bool) {}
  /// The view left the screen (after that transition completed).
  open func viewDidDisappear(_ animated: Bool) {}

  /// `<UIViewController: presented (to), view second>`: which side, and its root's id once known.
  public override var description: String {
    let side = key.map { " (\($0 == .to ? "to" : "from"))" } ?? ""
    let root = resolvedView.map { ", view \($0.identifier)" } ?? ""
    return "<\(String(describing: type(of: self))): \(role)\(side)\(root)>"
  }

  private func log(_ level: th_log_level, _ message: String) {
    if let session { session.log(level, "TransitionKit: \(message)") } else { PluginRuntime.log(level, message) }
  }
}

/// UIViewControllerContextTransitioning: what an animator sees of its transition.
public protocol UIViewControllerContextTransitioning: AnyObject {
  /// The view in which the transition happens.
  var containerView: UIView { get }
  /// Usually true; a transition the client asked to run without animation still calls `animateTransition`.
  var isAnimated: Bool { get }
  /// Whether the user currently drives the transition's progress.
  var isInteractive: Bool { get }
  /// Whether the transition was cancelled (pass `!transitionWasCancelled` to `completeTransition`).
  var transitionWasCancelled: Bool { get }
  /// What the transition does (present, dismiss, push, pop, segue, unwind or the client's own).
  var operation: TransitionOperation { get }
  /// The rotation the container undergoes during the transition: always the identity here (the host's container
  /// never rotates; UIKit gives ±90° or 180° for an interface rotation).
  var targetTransform: CGAffineTransform { get }

  /// The view to animate for `key`, or nil when UIKit would return nil: the presenter's view that a presentation
  /// keeps on screen (the animator must not touch it).
  func view(forKey key: UITransitionContextViewKey) -> UIView?
  /// The side's view controller, whose `view` is the root of that side's tree.
  func viewController(forKey key: UITransitionContextViewControllerKey) -> UIViewController?
  /// The view controller's frame at the start, in container coordinates; `.zero` when it is not on screen.
  func initialFrame(for vc: UIViewController) -> CGRect
  /// The view controller's frame at the end, in container coordinates; `.zero` when unknown or, for the from side,
  /// when its view will be removed. When not zero it must be respected.
  func finalFrame(for vc: UIViewController) -> CGRect
  /// Ends the transition: must be called exactly once, usually from the last completion, with
  /// `!transitionWasCancelled`.
  func completeTransition(_ didComplete: Bool)

  /// The view with id `id` anywhere in the transition's scene (both trees and the chrome), or nil.
  func view(withID id: String) -> UIView?
  /// The value of one of the animator's parameters: the client's, or the declared default.
  subscript<Value>(parameter: TransitionParameter<Value>) -> Value { get }
  /// Adds a procedural animation (the host's custom driver): `update(time, fraction)` is called whenever the host
  /// needs the driven values, for any time in any order, and must be a pure function of time that only sets
  /// properties. Returns false when the host does not offer drivers (fall back to blocks then).
  @discardableResult
  func addDriver(
    duration: TimeInterval, delay: TimeInterval, update: @escaping (TimeInterval, CGFloat) -> Void,
    completion: ((Bool) -> Void)?
  ) -> Bool
}

/// The context given to the transition coordinator's alongside animations.
public typealias UIViewControllerTransitionCoordinatorContext = UIViewControllerContextTransitioning

/// UIViewControllerTransitionCoordinator: animations alongside the transition, for presentation controllers.
public protocol UIViewControllerTransitionCoordinator: UIViewControllerContextTransitioning {
  /// Animates the changes `animation` makes alongside the transition, as a block of its own with UIView's default
  /// curve (easeInOut), whatever timing the animator's blocks use. Called before `animateTransition` has returned
  /// (from `presentationTransitionWillBegin`, say), the block runs right after it returns, from time 0 for the
  /// transition's whole duration; called later (from a completion), it runs at once over the rest of the duration.
  ///
  /// That is UIKit's rule for animators that do not use UIView animations; UIKit runs alongside animations of an
  /// animator that does in its animation context (its duration and curve), which the host does not track. To follow
  /// the animator's timing, start a block with that timing inside `animation`: blocks started there keep their own.
  /// An interactive transition scrubs the block with its own animations, and a cancel runs it back. `completion` runs
  /// when the block ends (usually at the transition's duration, so possibly before the animator calls
  /// `completeTransition`), or, when the transition is cancelled, once it is back at its start. Returns false when
  /// the transition has ended or the host refused.
  @discardableResult
  func animate(
    alongsideTransition animation: ((any UIViewControllerTransitionCoordinatorContext) -> Void)?,
    completion: ((any UIViewControllerTransitionCoordinatorContext) -> Void)?
  ) -> Bool
}

extension UIViewControllerTransitionCoordinator {
  /// `animate(alongsideTransition:completion:)` without a completion.
  @discardableResult
  public func animate(
    alongsideTransition animation: ((any UIViewControllerTransitionCoordinatorContext) -> Void)?
  ) -> Bool {
    animate(alongsideTransition: animation, completion: nil)
  }
}

extension UIViewControllerContextTransitioning {
  public var targetTransform: CGAffineTransform { .identity }

  /// `addDriver(duration:delay:update:completion:)` with no delay and no completion.
  @discardableResult
  public func addDriver(duration: TimeInterval, update: @escaping (TimeInterval, CGFloat) -> Void) -> Bool {
    addDriver(duration: duration, delay: 0, update: update, completion: nil)
  }
}

/// The transition context handed to an animator: UIKit's `UIViewControllerContextTransitioning` and its
/// transition coordinator, bound to the host.
public final class TransitionContext: UIViewControllerTransitionCoordinator {
  /// Weak: the session owns the context; an animator that keeps the context past its transition gets logged
  /// no-ops and neutral answers.
  weak var session: Session?
  private var cachedOperation: TransitionOperation?

  init(session: Session) {
    self.session = session
  }

  /// The session, or nil after logging that `name` was called on a context whose transition is gone.
  private func live(_ name: String) -> Session? {
    if let session { return session }
    PluginRuntime.log(TH_LOG_WARNING, "TransitionKit: transitionContext.\(name) after the transition ended")
    return nil
  }

  public var containerView: UIView {
    var out = th_view(id: 0)
    guard let session = live("containerView"),
      session.call(\.container_view, "transitionContext.containerView", { $0($1, &out) }),
      let view = session.view(out)
    else { return UIView(handle: 0, session: nil) }
    return view
  }

  public var isAnimated: Bool { query(\.is_animated, "isAnimated", fallback: true) }
  public var isInteractive: Bool { query(\.is_interactive, "isInteractive", fallback: false) }
  public var transitionWasCancelled: Bool {
    query(\.transition_was_cancelled, "transitionWasCancelled", fallback: false)
  }

  public var operation: TransitionOperation {
    if let cachedOperation { return cachedOperation }
    var out: UnsafePointer<CChar>?
    guard let session = live("operation"), session.call(\.operation, "transitionContext.operation", { $0($1, &out) }),
      let out
    else {
      return .present
    }
    let operation = TransitionOperation(rawValue: String(cString: out))
    cachedOperation = operation
    return operation
  }

  public func view(forKey key: UITransitionContextViewKey) -> UIView? {
    guard let session = live("view(forKey:)") else { return nil }
    var out = th_view(id: 0)
    let ok = session.call(\.view_for_key, "transitionContext.view(forKey:)") {
      $0($1, th_view_key(rawValue: key.key), &out)
    }
    return ok ? session.view(out) : nil
  }

  public func viewController(forKey key: UITransitionContextViewControllerKey) -> UIViewController? {
    guard let controller = live("viewController(forKey:)")?.viewController(forKey: key) else { return nil }
    return controller.view == nil ? nil : controller
  }

  /// The root of the tree on side `key` (`viewController(forKey:).view`), or nil when the host refuses.
  func rootView(forKey key: UITransitionContextViewControllerKey) -> UIView? {
    guard let session = live("viewController(forKey:)") else { return nil }
    var out = th_view(id: 0)
    let ok = session.call(\.view_controller_for_key, "transitionContext.viewController(forKey:)") {
      $0($1, th_view_key(rawValue: key.key), &out)
    }
    return ok ? session.view(out) : nil
  }

  public func initialFrame(for vc: UIViewController) -> CGRect {
    frame(\.initial_frame, "initialFrame(for:)", vc)
  }

  public func finalFrame(for vc: UIViewController) -> CGRect {
    frame(\.final_frame, "finalFrame(for:)", vc)
  }

  public func completeTransition(_ didComplete: Bool) {
    live("completeTransition")?.call(\.complete_transition, "transitionContext.completeTransition(\(didComplete))") {
      $0($1, didComplete)
    }
  }

  public func view(withID id: String) -> UIView? {
    live("view(withID:)")?.find(id)
  }

  public subscript<Value>(parameter: TransitionParameter<Value>) -> Value {
    guard let session = live("[\(parameter.name)]") else { return parameter.defaultValue }
    return parameter.read(session)
  }

  @discardableResult
  public func addDriver(
    duration: TimeInterval, delay: TimeInterval = 0, update: @escaping (TimeInterval, CGFloat) -> Void,
    completion: ((Bool) -> Void)? = nil
  ) -> Bool {
    guard let session = live("addDriver"), let getExtension = session.host.function(\.get_extension),
      let raw = getExtension(TH_EXT_CUSTOM_DRIVER)
    else { return false }
    let table = raw.assumingMemoryBound(to: th_host_custom_driver.self)
    let end = MemoryLayout<th_host_custom_driver>.offset(of: \.add_driver)! + MemoryLayout<UnsafeRawPointer?>.size
    guard Int(table.pointee.struct_size) >= end, let addDriver = table.pointee.add_driver else { return false }
    var options = th_driver_options()
    options.struct_size = UInt32(MemoryLayout<th_driver_options>.size)
    options.duration = duration
    options.delay = delay
    let block = DriverBlock(session, update, completion)
    let ctx = session.ctx
    let status = addDriver(ctx, &options, driverThunk, completionThunk, block.key)
    guard status == TH_OK else {
      block.refuse()
      session.log(TH_LOG_WARNING, "TransitionKit: addDriver failed: \(String(cString: th_status_name(status)))")
      return false
    }
    return true
  }

  @discardableResult
  public func animate(
    alongsideTransition animation: ((any UIViewControllerTransitionCoordinatorContext) -> Void)?,
    completion: ((any UIViewControllerTransitionCoordinatorContext) -> Void)? = nil
  ) -> Bool {
    guard let session = live("animate(alongsideTransition:)") else { return false }
    let block = AnimationBlock(
      session, BlockOrigin("transitionCoordinator.animate(alongsideTransition:)"),
      { [unowned self] in animation?(self) }, { [unowned self] _ in completion?(self) })
    let ok = session.call(\.animate_alongside, "transitionCoordinator.animate(alongsideTransition:)") {
      $0($1, animationsThunk, completionThunk, block.key)
    }
    if !ok { block.refuse() }
    return ok
  }

  private func query(
    _ member: KeyPath<th_host_api, (@convention(c) (th_context, UnsafeMutablePointer<Bool>?) -> th_status)?>,
    _ name: String, fallback: Bool
  ) -> Bool {
    var out = fallback
    guard let session = live(name) else { return fallback }
    return session.call(member, "transitionContext.\(name)", { $0($1, &out) }) ? out : fallback
  }

  private func frame(
    _ member: KeyPath<
      th_host_api, (@convention(c) (th_context, th_view_key, UnsafeMutablePointer<th_rect>?) -> th_status)?
    >,
    _ name: String, _ vc: UIViewController
  ) -> CGRect {
    var out = th_rect()
    guard let session = live(name), let key = vc.key, vc.session === session else { return .zero }
    let ok = session.call(member, "transitionContext.\(name)") { $0($1, th_view_key(rawValue: key.key), &out) }
    return ok ? CGRect(out) : .zero
  }
}
