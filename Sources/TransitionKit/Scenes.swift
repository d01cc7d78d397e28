// Scenes (ABI 1.2, "th.scene-controller/1" and "th.scenes/1"): an app's own view controllers, for gestures that
// arrive before any transition exists. The host opens a scene on one instance of an export whose declaration names
// the app's controllers (`viewControllers(_:storyboard:)`); the SDK instantiates the root controller, gives it the
// root tree as `view` and runs `viewDidLoad`; gesture samples reach the recognizers the controllers added; and
// `present`, `show` and `dismiss` start the transition with the presented controller's transitioning delegate, run
// by an instance the SDK makes for it (so the interaction controller the handler holds is the transition's).

internal import CTransitionABI

/// UIModalPresentationStyle, with UIKit's raw values. Only `.custom` makes the host ask the transitioning delegate
/// for a presentation controller, as UIKit does.
public enum UIModalPresentationStyle: Int, Sendable {
  case fullScreen = 0
  case pageSheet = 1
  case formSheet = 2
  case currentContext = 3
  case custom = 4
  case overFullScreen = 5
  case overCurrentContext = 6
  case popover = 7
  case none = -1
  case automatic = -2
}

/// What a declaration names for a scene: the root view controller's class and the classes of the storyboard
/// identifiers `instantiateViewController(withIdentifier:)` resolves.
struct SceneDeclaration {
  let root: UIViewController.Type
  let storyboard: [String: UIViewController.Type]
  /// The storyboard's segues by identifier (`performSegue(withIdentifier:sender:)`).
  var segues: [String: TransitionPluginSegue] = [:]
  /// Whether the root controller is embedded in a navigation controller (the storyboard's initial controller).
  var embedsInNavigationController = false

  /// The class for storyboard identifier `identifier`: the declared one, else the root's module's
  /// `UIViewController` subclass of that name (storyboard identifiers are usually the class names, and Swift finds a
  /// class by its qualified name as Foundation's `NSClassFromString` does).
  func type(for identifier: String) -> UIViewController.Type? {
    if let declared = storyboard[identifier] { return declared }
    let module = String(reflecting: root).prefix { $0 != "." }
    return _typeByName("\(module).\(identifier)") as? UIViewController.Type
  }
}

extension TransitionPluginExport {
  /// The app's view controllers, for scenes (Protocol.md, "Scenes"): `root` is the controller whose view is the
  /// scene's root tree (the storyboard's initial one). A storyboard identifier names the class of the same name in
  /// `root`'s module unless `storyboard` maps it to another class; the client sends a tree for each identifier the
  /// app instantiates. Transitions the controllers start run on this export.
  ///
  /// - Parameters:
  ///   - segues: the storyboard's segues by identifier, for `performSegue(withIdentifier:sender:)`: a string is a
  ///     custom segue (this export's `UIStoryboardSegue` class, operation `segue`) to the controller of that
  ///     storyboard identifier; `.show(id)` UIKit's show segue (a push inside a navigation controller, else a
  ///     presentation with the destination's transitioning delegate); `.unwind` an unwind segue (this export's
  ///     unwind class, operation `unwind`) back to the controller that presented the source.
  ///   - embeddedInNavigationController: the storyboard's initial controller is a `UINavigationController` whose
  ///     root is `root` ("Embed In ▸ Navigation Controller"): the controllers get a `navigationController`, and
  ///     `pushViewController` / `popViewController` run this export's push and pop.
  public func viewControllers(
    _ root: UIViewController.Type, storyboard: [String: UIViewController.Type] = [:],
    segues: [String: TransitionPluginSegue] = [:], embeddedInNavigationController: Bool = false
  ) -> TransitionPluginExport {
    var export = self
    export.scene = SceneDeclaration(
      root: root, storyboard: storyboard, segues: segues, embedsInNavigationController: embeddedInNavigationController)
    return export
  }
}

/// One storyboard segue of a scene's declaration (`viewControllers(_:storyboard:segues:)`), as Interface Builder
/// would have it: its kind and its destination's storyboard identifier. A string literal is a custom segue to that
/// identifier. The name is the SDK's (no app calls a type `TransitionPluginSegue`).
public enum TransitionPluginSegue: Sendable, ExpressibleByStringLiteral {
  /// A custom segue (the export's `UIStoryboardSegue` class) to the controller of this storyboard identifier.
  case custom(String)
  /// UIKit's "show" segue to the controller of this storyboard identifier: a push in a navigation controller, else
  /// a presentation.
  case show(String)
  /// An unwind segue (the export's unwind class) back to the controller that presented the source.
  case unwind

  public init(stringLiteral destination: String) {
    self = .custom(destination)
  }
}

/// UIStoryboard: the declaration's view controllers by storyboard identifier, with the client's trees as their views.
open class UIStoryboard: NSObject {
  private weak var session: Session?

  init(session: Session) {
    self.session = session
    super.init()
  }

  /// A new controller of the class declared for `identifier`, its view the client's tree for it (loaded, with
  /// `viewDidLoad`, when first needed). UIKit raises for an unknown identifier; here it is logged and the controller
  /// is a plain `UIViewController` without a view.
  open func instantiateViewController(withIdentifier identifier: String) -> UIViewController {
    guard let session, let state = session.sceneState else {
      PluginRuntime.log(TH_LOG_WARNING, "TransitionKit: instantiateViewController outside its scene")
      return Session.$current.withValue(nil) { UIViewController() }
    }
    guard let type = state.declaration.type(for: identifier) else {
      session.log(
        TH_LOG_ERROR,
        "TransitionKit: Storyboard doesn't contain a view controller with identifier '\(identifier)' (neither the "
          + "declaration's storyboard nor a UIViewController subclass of that name in \(state.declaration.root)'s module)"
      )
      return Session.$current.withValue(nil) { UIViewController() }
    }
    return session.makeSceneController(type, identifier: identifier)
  }

  /// The root controller's class, new (its view is the scene's root tree).
  open func instantiateInitialViewController() -> UIViewController? {
    guard let session, let state = session.sceneState else { return nil }
    return session.makeSceneController(state.declaration.root, identifier: "")
  }
}

/// An app controller's scene side (see `UIViewController.scene`).
final class SceneSide {
  /// The storyboard identifier whose tree is the view ("" for the root controller); nil outside a scene.
  var identifier: String?
  var isViewLoaded = false
  weak var transitioningDelegate: (any UIViewControllerTransitioningDelegate)?
  var modalPresentationStyle = UIModalPresentationStyle.automatic
  /// The controller this one presents (kept, as UIKit keeps it) and the one presenting this one.
  var presented: UIViewController?
  weak var presenting: UIViewController?
  /// The navigation controller whose stack holds the controller.
  weak var navigation: UINavigationController?
}

/// A transition a scene's controller started: what its end changes, and whose life cycle it drives.
struct SceneTransition {
  let operation: TransitionOperation
  let animated: Bool
  /// The controller whose view leaves the screen, and the one whose view comes on it.
  let disappearing: UIViewController
  let appearing: UIViewController
  /// What the end changes (who presents whom, the navigation stack), told whether the transition completed; run
  /// before the `viewDid…` calls, so they see the state the transition left.
  let ended: (Bool) -> Void
  /// The caller's completion (present's, dismiss's), after the `viewDid…` calls of a completed transition.
  var completion: (() -> Void)? = nil
}

/// One scene's plugin-side state, on the scene's session.
final class SceneState {
  let declaration: SceneDeclaration
  private(set) lazy var storyboard = UIStoryboard(session: session)
  unowned let session: Session
  var root: UIViewController?
  /// The root navigation controller, when the declaration embeds the root controller in one.
  var navigation: UINavigationController?
  /// The transition a controller started, until it ends.
  var running: SceneTransition?

  init(declaration: SceneDeclaration, session: Session) {
    self.declaration = declaration
    self.session = session
  }
}

extension UIViewController {
  /// The storyboard the controller came from: the declaration's controllers (nil outside a scene).
  public var storyboard: UIStoryboard? {
    guard role == .app, let state = session?.sceneState else { return nil }
    return state.storyboard
  }

  /// The delegate whose animator, presentation controller and interaction controller present and dismiss this
  /// controller (weak, as in UIKit).
  public var transitioningDelegate: (any UIViewControllerTransitioningDelegate)? {
    get { scene.transitioningDelegate }
    set { scene.transitioningDelegate = newValue }
  }

  /// How the controller is presented; `.custom` makes the delegate's presentation controller take part.
  public var modalPresentationStyle: UIModalPresentationStyle {
    get { scene.modalPresentationStyle }
    set { scene.modalPresentationStyle = newValue }
  }

  /// Shows `vc`: a push inside a navigation controller, else a presentation (UIKit's default `show`).
  public func show(_ vc: UIViewController, sender: Any?) {
    if let navigationController, role == .app {
      return navigationController.pushViewController(vc, animated: true)
    }
    present(vc, animated: true, completion: nil)
  }

  /// An app controller's view: the tree for its storyboard identifier, loaded now, then `viewDidLoad`.
  func loadSceneView() -> UIView? {
    guard !scene.isViewLoaded else { return nil }
    guard let session, session.sceneState != nil, let identifier = scene.identifier else { return nil }
    scene.isViewLoaded = true
    guard let root = session.sceneTree(identifier) else {
      session.log(
        TH_LOG_WARNING,
        "TransitionKit: the scene has no tree for storyboard identifier '\(identifier)' (scene/open's storyboard); "
          + "\(type(of: self)) has no view")
      return nil
    }
    // A storyboard instantiates a new view for each controller; here the tree is the client's one, so what an
    // earlier controller of this identifier attached to it (its recognizers) goes with that controller.
    Self.detachRecognizers(in: root)
    view = root
    viewDidLoad()
    return root
  }

  private static func detachRecognizers(in view: UIView) {
    view.gestureRecognizers = nil
    for subview in view.subviews { detachRecognizers(in: subview) }
  }

  /// `present` of an app controller: starts the presentation with `presented`'s transitioning delegate.
  func presentInScene(_ presented: UIViewController, animated: Bool, completion: (() -> Void)?) {
    guard let session, let state = session.sceneState else {
      return refuseInScene("present(_:animated:completion:)", "outside its scene")
    }
    if let current = scene.presented {
      return refuseInScene("present(_:animated:completion:)", "it is already presenting \(current)")
    }
    guard presented.role == .app, presented.session === session, presented.scene.presenting == nil,
      presented !== self
    else {
      return refuseInScene(
        "present(_:animated:completion:)", "\(presented) is not a controller of this scene to present")
    }
    guard state.running == nil else {
      return refuseInScene("present(_:animated:completion:)", "a transition of this scene is still running")
    }
    guard let delegate = presented.transitioningDelegate else {
      return refuseInScene(
        "present(_:animated:completion:)",
        "\(presented) has no transitioningDelegate (UIKit would run its own animation; this host runs plugins' only)")
    }
    guard let from = view, let to = presented.view else {
      return refuseInScene("present(_:animated:completion:)", "a view is missing")
    }
    session.startSceneTransition(
      from: from, to: to, source: .transitioningDelegate(delegate),
      asksPresentationController: presented.modalPresentationStyle == .custom,
      running: presentation(.present, of: presented, animated: animated, completion: completion))
  }

  /// The scene side of presenting `presented` (present, segue): on completion the two know each other.
  func presentation(
    _ operation: TransitionOperation, of presented: UIViewController, animated: Bool, completion: (() -> Void)?
  ) -> SceneTransition {
    SceneTransition(
      operation: operation, animated: animated, disappearing: self, appearing: presented,
      ended: { completed in
        guard completed else { return }
        self.scene.presented = presented
        presented.scene.presenting = self
      }, completion: completion)
  }

  /// The scene side of dismissing `presented` (dismiss, unwind) back to `presenter`.
  static func dismissal(
    _ operation: TransitionOperation, of presented: UIViewController, to presenter: UIViewController, animated: Bool,
    completion: (() -> Void)?
  ) -> SceneTransition {
    SceneTransition(
      operation: operation, animated: animated, disappearing: presented, appearing: presenter,
      ended: { completed in
        guard completed else { return }
        presenter.scene.presented = nil
        presented.scene.presenting = nil
      }, completion: completion)
  }

  /// `dismiss` of an app controller: the controller it presents, or itself, goes with its transitioning delegate.
  func dismissInScene(animated: Bool, completion: (() -> Void)?) {
    guard let session, let state = session.sceneState else {
      return refuseInScene("dismiss(animated:completion:)", "outside its scene")
    }
    let presented = scene.presented ?? self
    guard let presenter = presented.scene.presenting else {
      return refuseInScene("dismiss(animated:completion:)", "it is not presenting or presented")
    }
    guard state.running == nil else {
      return refuseInScene("dismiss(animated:completion:)", "a transition of this scene is still running")
    }
    guard let delegate = presented.transitioningDelegate else {
      return refuseInScene("dismiss(animated:completion:)", "\(presented) has no transitioningDelegate")
    }
    guard let from = presented.view, let to = presenter.view else {
      return refuseInScene("dismiss(animated:completion:)", "a view is missing")
    }
    session.startSceneTransition(
      from: from, to: to, source: .transitioningDelegate(delegate),
      asksPresentationController: presented.modalPresentationStyle == .custom,
      running: Self.dismissal(.dismiss, of: presented, to: presenter, animated: animated, completion: completion))
  }

  func refuseInScene(_ call: String, _ why: String) {
    let message = "TransitionKit: \(call) on \(self): \(why); ignored"
    if let session { session.log(TH_LOG_WARNING, message) } else { PluginRuntime.log(TH_LOG_WARNING, message) }
  }
}

extension Session {
  /// A new app controller of `type` for storyboard identifier `identifier`, in this scene.
  func makeSceneController(_ type: UIViewController.Type, identifier: String) -> UIViewController {
    let controller = Session.$current.withValue(self) { type.init() }
    controller.scene.identifier = identifier
    return controller
  }

  /// "th.scenes/1", when the host offers it.
  private var scenes: UnsafePointer<th_host_scenes>? {
    guard let getExtension = host.function(\.get_extension), let raw = getExtension(TH_EXT_HOST_SCENES) else {
      return nil
    }
    let table = raw.assumingMemoryBound(to: th_host_scenes.self)
    guard Int(table.pointee.struct_size) >= MemoryLayout<th_host_scenes>.size else { return nil }
    return table
  }

  /// The root of the client's tree for `identifier` ("" for the root controller's).
  func sceneTree(_ identifier: String) -> UIView? {
    guard let tree = scenes?.pointee.tree else { return nil }
    var out = th_view(id: 0)
    guard identifier.withCString({ tree(ctx, $0, &out) }) == TH_OK else { return nil }
    return view(out)
  }

  /// The scene opened: the root controller, its view the root tree, `viewDidLoad`.
  func openScene(_ declaration: SceneDeclaration) -> th_status {
    let state = SceneState(declaration: declaration, session: self)
    sceneState = state
    let root = makeSceneController(declaration.root, identifier: "")
    state.root = root
    if declaration.embedsInNavigationController {
      let navigation = UINavigationController(sceneRoot: root, session: self)
      state.navigation = navigation
    }
    guard root.view != nil else { return TH_ERR_NOT_FOUND }
    // The root is on screen once the scene is open (UIKit's launch: not animated).
    root.viewWillAppear(false)
    root.viewDidAppear(false)
    return TH_OK
  }

  /// Asks the host to start the transition, run by a new instance with `source` as its animator's source; once the
  /// host took it, the disappearing controller hears `viewWillDisappear` and the appearing one `viewWillAppear`.
  func startSceneTransition(
    from: UIView, to: UIView, source: AnimatorSource, asksPresentationController: Bool, running: SceneTransition
  ) {
    let operation = running.operation
    guard let start = scenes?.pointee.start_transition else {
      return log(TH_LOG_WARNING, "TransitionKit: \(operation): this host does not offer th.scenes/1")
    }
    if !running.animated {
      log(TH_LOG_INFO, "TransitionKit: \(operation) with animated: false still runs the animator (the host has no cut)")
    }
    let transition = Session(
      host: host, pluginContext: pluginContext, source: source, asksPresentationController: asksPresentationController)
    var request = th_scene_transition()
    request.struct_size = UInt32(MemoryLayout<th_scene_transition>.size)
    request.from = from.th
    request.to = to.th
    request.instance = Unmanaged.passRetained(transition).toOpaque()
    // On a refusal the host destroys the instance (the retain above is released there).
    let status = operation.rawValue.withCString { name in
      request.operation = name
      return start(ctx, &request)
    }
    guard status == TH_OK else {
      return log(TH_LOG_WARNING, "TransitionKit: \(operation) failed: \(String(cString: th_status_name(status)))")
    }
    sceneState?.running = running
    running.disappearing.viewWillDisappear(running.animated)
    running.appearing.viewWillAppear(running.animated)
  }

  /// The transition a controller started ended: the controllers learn who presents whom (or the stack), their
  /// `viewDid…` calls come, and a completion runs. A cancelled one gives UIKit's reversal: the appearing controller
  /// hears `viewWillDisappear` / `viewDidDisappear`, the disappearing one `viewWillAppear` / `viewDidAppear`.
  func sceneTransitionEnded(completed: Bool) {
    guard let state = sceneState, let running = state.running else { return }
    state.running = nil
    let (disappearing, appearing, animated) = (running.disappearing, running.appearing, running.animated)
    running.ended(completed)
    if completed {
      disappearing.viewDidDisappear(animated)
      appearing.viewDidAppear(animated)
      running.completion?()
    } else {
      appearing.viewWillDisappear(animated)
      disappearing.viewWillAppear(animated)
      appearing.viewDidDisappear(animated)
      disappearing.viewDidAppear(animated)
    }
  }
}

extension UIViewController {
  /// The controller this one presents (an app controller's, once the presentation completed).
  public var presentedViewController: UIViewController? { role == .app ? scene.presented : nil }
  /// The controller presenting this one (an app controller's, once its presentation completed).
  public var presentingViewController: UIViewController? { role == .app ? scene.presenting : nil }
}

/// The SDK's "th.scene-controller/1".
enum SceneControllerTable {
  nonisolated(unsafe) static let pointer: UnsafeMutablePointer<th_scene_controller> = {
    let table = UnsafeMutablePointer<th_scene_controller>.allocate(capacity: 1)
    table.initialize(to: th_scene_controller())
    table.pointee.struct_size = UInt32(MemoryLayout<th_scene_controller>.size)
    table.pointee.open_scene = { instance, ctx in
      guard let session = Session.from(instance), let declaration = session.sceneDeclaration else {
        return TH_ERR_UNSUPPORTED
      }
      return session.enter(ctx) { session.openScene(declaration) }
    }
    table.pointee.handle_gesture = { instance, ctx, sample, hitView, outReceived in
      guard let session = Session.from(instance), let sample else { return TH_GESTURE_NOT_IN_PROGRESS }
      let (delivery, received) = session.enter(ctx) { session.deliverGesture(sample.pointee, hitView: hitView) }
      outReceived?.pointee = received
      return delivery
    }
    table.pointee.transition_ended = { instance, ctx, _, _, completed in
      guard let session = Session.from(instance) else { return }
      session.enter(ctx) { session.sceneTransitionEnded(completed: completed) }
    }
    return table
  }()
}
