// The delegates through which UIKit asks an app for its custom transitions, with UIKit's names and signatures.
// Their methods are optional in UIKit; here each has a default that answers nil (UIKit's "not implemented"), so an
// app implements only what it needs. A plugin exports a delegate in its declaration file
// (`TransitionPluginExport.transitioningDelegate`, `.navigationControllerDelegate`).

/// UIViewControllerTransitioningDelegate: vends the animators and presentation controller of a presentation and
/// its dismissal.
public protocol UIViewControllerTransitioningDelegate: NSObjectProtocol {
  /// The animator of a presentation (present, segue, the client's own operations), or nil.
  func animationController(
    forPresented presented: UIViewController, presenting: UIViewController, source: UIViewController
  ) -> (any UIViewControllerAnimatedTransitioning)?
  /// The animator of a dismissal (dismiss, unwind), or nil.
  func animationController(forDismissed dismissed: UIViewController) -> (any UIViewControllerAnimatedTransitioning)?
  /// The presentation controller, or nil for UIKit's defaults. Asked before the transition starts: the view
  /// controllers' views are nil then.
  func presentationController(
    forPresented presented: UIViewController, presenting: UIViewController?, source: UIViewController
  ) -> UIPresentationController?
  /// The interaction controller of a presentation driven by `animator`, or nil for a non-interactive one. Asked when
  /// the transition starts (the view controllers' views are set then).
  func interactionControllerForPresentation(
    using animator: any UIViewControllerAnimatedTransitioning
  ) -> (any UIViewControllerInteractiveTransitioning)?
  /// The interaction controller of a dismissal driven by `animator`, or nil.
  func interactionControllerForDismissal(
    using animator: any UIViewControllerAnimatedTransitioning
  ) -> (any UIViewControllerInteractiveTransitioning)?
}

extension UIViewControllerTransitioningDelegate {
  public func animationController(
    forPresented presented: UIViewController, presenting: UIViewController, source: UIViewController
  ) -> (any UIViewControllerAnimatedTransitioning)? { nil }

  public func animationController(
    forDismissed dismissed: UIViewController
  ) -> (any UIViewControllerAnimatedTransitioning)? { nil }

  public func presentationController(
    forPresented presented: UIViewController, presenting: UIViewController?, source: UIViewController
  ) -> UIPresentationController? { nil }

  public func interactionControllerForPresentation(
    using animator: any UIViewControllerAnimatedTransitioning
  ) -> (any UIViewControllerInteractiveTransitioning)? { nil }

  public func interactionControllerForDismissal(
    using animator: any UIViewControllerAnimatedTransitioning
  ) -> (any UIViewControllerInteractiveTransitioning)? { nil }
}

/// UINavigationControllerDelegate: vends the animator of a push or pop.
public protocol UINavigationControllerDelegate: NSObjectProtocol {
  /// The animator of `operation` from `fromVC` to `toVC`, or nil.
  func navigationController(
    _ navigationController: UINavigationController,
    animationControllerFor operation: UINavigationController.Operation, from fromVC: UIViewController,
    to toVC: UIViewController
  ) -> (any UIViewControllerAnimatedTransitioning)?
  /// The interaction controller of a push or pop driven by `animationController`, or nil for a non-interactive one.
  func navigationController(
    _ navigationController: UINavigationController,
    interactionControllerFor animationController: any UIViewControllerAnimatedTransitioning
  ) -> (any UIViewControllerInteractiveTransitioning)?
}

extension UINavigationControllerDelegate {
  public func navigationController(
    _ navigationController: UINavigationController,
    animationControllerFor operation: UINavigationController.Operation, from fromVC: UIViewController,
    to toVC: UIViewController
  ) -> (any UIViewControllerAnimatedTransitioning)? { nil }

  public func navigationController(
    _ navigationController: UINavigationController,
    interactionControllerFor animationController: any UIViewControllerAnimatedTransitioning
  ) -> (any UIViewControllerInteractiveTransitioning)? { nil }
}

/// The navigation controller of a push or pop: the two sides' view controllers as its stack (after the push, the
/// pushed one on top; after the pop, the popped one gone, as UIKit's stack is while the animator runs), its
/// delegate, and the container as its view.
public final class UINavigationController: UIViewController {
  /// UINavigationController.Operation, with UIKit's raw values.
  public enum Operation: Int, Sendable {
    case none = 0
    case push = 1
    case pop = 2
  }

  /// The delegate the declaration exported (nil when the animator was exported by itself).
  public weak var delegate: (any UINavigationControllerDelegate)?

  init(session: Session) {
    super.init(role: .navigation, session: session)
  }

  /// A navigation controller outside any transition: its stack is empty.
  public required init() {
    super.init(role: .navigation, session: nil)
  }

  /// A scene's navigation controller (an app's, made by the SDK when the declaration embeds the root controller
  /// in one): `root` is its stack's bottom.
  init(sceneRoot root: UIViewController, session: Session) {
    super.init(role: .app, session: session)
    sceneStack = [root]
    root.scene.navigation = self
  }

  /// The stack of a scene's navigation controller, bottom first (SceneNavigation.swift).
  var sceneStack: [UIViewController] = []

  /// The stack, bottom first. In a scene, the app's controllers as pushes and pops left them (a push or pop changes
  /// it when it starts, as UIKit's does, and a cancelled one puts it back). While a transition runs: [from, to] for
  /// a push, [to] for a pop (the host knows no deeper stack); empty outside a push or pop.
  public var viewControllers: [UIViewController] {
    if role == .app { return sceneStack }
    guard let session, session.hasContext, session.context.operation.isNavigation else { return [] }
    let to = session.viewController(forKey: .to)
    return session.context.operation == .pop ? [to] : [session.viewController(forKey: .from), to]
  }

  /// The top of the stack (the to side).
  public var topViewController: UIViewController? { viewControllers.last }

  /// The view controller shown (the top; there are no modal presentations over it).
  public var visibleViewController: UIViewController? { topViewController }
}
