// TestPluginUIKitSurface: the UIKit surface of the SDK (issue 15's declarations and names), written as UIKit code
// and declared through `TransitionPluginExport`: a bare NSObject animator, a transitioning delegate with a
// presentation controller made by UIKit's initializer, one that vends nothing, and a navigation-controller delegate.
// Each animator writes what it observed to the host's log (TransitionLog.info, "note: …") and moves views with
// numbers Tests/AnimatorTests/UIKitSurfaceTests.swift works out by hand.

import UIKit

@_cdecl("th_plugin_entry") public func entry(_ h: UnsafeRawPointer?) -> UnsafeRawPointer? {
  UIKitSurfacePlugin.entry(h)
}

enum UIKitSurfacePlugin: TransitionPlugin {
  static let id: StaticString = "com.example.test.uikitsurface"
  static let name: StaticString = "UIKit surface"
  static let version: StaticString = "1.0.0"
  static let exports: [TransitionPluginExport] = [
    .animator(id: "bare", name: "Bare animator", operations: [.present]) { BareAnimator() },
    .transitioningDelegate(id: "delegate", name: "Transitioning delegate") { SurfaceTransitioningDelegate() },
    .transitioningDelegate(id: "silent-delegate", name: "Delegate without animators") { SilentDelegate() },
    .navigationControllerDelegate(id: "navigation", name: "Navigation delegate") { SurfaceNavigationDelegate() },
    .segue(id: "handler-segue", name: "Segue with a handler", duration: 0) { identifier, source, destination in
      UIStoryboardSegue(identifier: identifier, source: source, destination: destination) {
        note("perform \(identifier ?? "nil") \(source.view.identifier) → \(destination.view.identifier)")
        UIApplication.shared.keyWindow?.addSubview(destination.view)
        source.present(destination, animated: false) { note("presented") }
      }
    },
    .native(NativeAnimator.self),
  ]
}

private func note(_ message: String) { TransitionLog.info("note: \(message)") }

// MARK: - NSObject

/// An app value object with its own equality, as UIKit code overrides `isEqual` and `hash`.
final class Token: NSObject {
  let number: Int
  init(_ number: Int) {
    self.number = number
    super.init()
  }
  override func isEqual(_ object: Any?) -> Bool { (object as? Token)?.number == number }
  override var hash: Int { number }
  override var description: String { "Token(\(number))" }
}

/// A bare animator: an NSObject subclass with `init()` (its own, calling `super.init()`), exported by itself.
final class BareAnimator: NSObject, UIViewControllerAnimatedTransitioning {
  let made: String

  override init() {
    made = "made"
    super.init()
  }

  func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
    return 0.5
  }

  func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
    // NSObject: identity equality by default, the subclass's own when overridden; descriptions.
    let a = NSObject()
    let b = NSObject()
    note(
      "NSObject a == a \(a == a), a == b \(a == b), a.isEqual(nil) \(a.isEqual(nil)), hashes \(a.hash == a.hash) \(Token(1).hashValue == Token(1).hashValue)"
    )
    note("Token(1) == Token(1) \(Token(1) == Token(1)), set \(Set([Token(1), Token(1), Token(2)]).count)")
    note(
      "descriptions \(a.description.hasPrefix("<NSObject: 0x")) \(description.hasPrefix("<TestPluginUIKitSurface.BareAnimator: 0x")) \(Token(3))"
    )

    // UIScreen and UIApplication: the container's bounds.
    let screen = UIScreen.main.bounds
    let window = UIApplication.shared.keyWindow!
    note("screen \(screen), window \(window.bounds), windows \(UIApplication.shared.windows.count)")
    note(
      "window is the container \(window == transitionContext.containerView) but its own object \(window !== transitionContext.containerView)"
    )

    // The math UIKit brings in: sqrt, fmax, asin.
    let toView = transitionContext.view(forKey: .to)!
    toView.frame = screen.insetBy(dx: sqrt(16), dy: fmax(2, 3))
    transitionContext.containerView.addSubview(toView)

    // UIView() and UIView(frame:), added to the key window.
    let plain = UIView()
    note("UIView() frame \(plain.frame) alpha \(plain.alpha) hidden \(plain.isHidden)")
    plain.frame = CGRect(x: 2 * asin(1), y: 0, width: 10, height: 10)
    window.addSubview(plain)
    let framed = UIView(frame: CGRect(x: 1, y: 2, width: 3, height: 4))
    toView.addSubview(framed)

    // isUserInteractionEnabled: true by default, kept per view for the transition.
    note("interaction \(framed.isUserInteractionEnabled)")
    framed.isUserInteractionEnabled = false
    note(
      "interaction after \(toView.subviews.first { $0 == framed }!.isUserInteractionEnabled) \(plain.isUserInteractionEnabled)"
    )

    // Tags: 0 by default; viewWithTag searches the receiver and its subtree.
    note("tags \(framed.tag) \(toView.viewWithTag(7) == nil) \(toView.viewWithTag(0) === toView)")
    framed.tag = 7
    note("viewWithTag \(transitionContext.containerView.viewWithTag(7) === framed) \(window.viewWithTag(7) === framed)")

    // UIEdgeInsets and CGRect.inset(by:).
    let insets = UIEdgeInsets(top: 10, left: 20, bottom: 30, right: 40)
    note(
      "inset \(CGRect(x: 0, y: 0, width: 400, height: 800).inset(by: insets)) \(insets) \(UIEdgeInsets.zero == UIEdgeInsets())"
    )

    // Appearance transitions: recorded, harmless; an unbalanced end is logged as UIKit logs it.
    let toVC = transitionContext.viewController(forKey: .to)!
    toVC.beginAppearanceTransition(true, animated: true)
    toVC.endAppearanceTransition()
    toVC.endAppearanceTransition()
    note(
      "navigationController \(toVC.navigationController == nil) targetTransform \(transitionContext.targetTransform.isIdentity)"
    )
    // Outside a segue's perform(), present and dismiss start nothing: logged, ignored.
    transitionContext.viewController(forKey: .from)!.present(toVC, animated: true) { note("never") }
    toVC.dismiss(animated: true)

    UIView.animate(
      withDuration: 0.5, delay: 0, options: .curveLinear,
      animations: { plain.alpha = 0 },
      completion: { _ in transitionContext.completeTransition(!transitionContext.transitionWasCancelled) })
  }
}

// MARK: - A transitioning delegate and its presentation controller

final class SurfaceTransitioningDelegate: NSObject, UIViewControllerTransitioningDelegate {
  var presented: UIViewController?

  func animationController(
    forPresented presented: UIViewController, presenting: UIViewController, source: UIViewController
  ) -> UIViewControllerAnimatedTransitioning? {
    note(
      "animationController(forPresented:) same presented \(presented === self.presented), source is presenting \(source === presenting)"
    )
    return SlideAnimator(presenting: true)
  }

  func animationController(forDismissed dismissed: UIViewController) -> UIViewControllerAnimatedTransitioning? {
    note("animationController(forDismissed:) same \(dismissed === presented)")
    return SlideAnimator(presenting: false)
  }

  func presentationController(
    forPresented presented: UIViewController, presenting: UIViewController?, source: UIViewController
  ) -> UIPresentationController? {
    self.presented = presented
    note("presentationController(forPresented:) view before the transition \(presented.view == nil)")
    return SurfacePresentationController(presentedViewController: presented, presenting: presenting)
  }
}

final class SurfacePresentationController: UIPresentationController {
  override var frameOfPresentedViewInContainerView: CGRect {
    return CGRect(x: 0, y: 100, width: containerView!.bounds.width, height: containerView!.bounds.height - 100)
  }

  override func presentationTransitionWillBegin() {
    note(
      "presentationTransitionWillBegin fullscreen \(shouldPresentInFullscreen) presented \(presentedViewController.view.identifier) presenting \(presentingViewController.view.identifier)"
    )
  }

  override func dismissalTransitionWillBegin() {
    note(
      "dismissalTransitionWillBegin presented \(presentedViewController.view.identifier) presenting \(presentingViewController.view.identifier)"
    )
  }

  override func containerViewWillLayoutSubviews() { note("containerViewWillLayoutSubviews") }
  override func containerViewDidLayoutSubviews() { note("containerViewDidLayoutSubviews") }
}

/// Slides the presented view up from the bottom to its final frame (present) or down out of the container
/// (dismiss), linearly over 0.4 s.
final class SlideAnimator: NSObject, UIViewControllerAnimatedTransitioning {
  let presenting: Bool

  init(presenting: Bool) {
    self.presenting = presenting
    super.init()
  }

  func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 0.4 }

  func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
    note("animateTransition")
    let container = transitionContext.containerView
    let key: UITransitionContextViewControllerKey = presenting ? .to : .from
    let controller = transitionContext.viewController(forKey: key)!
    let view = controller.view!
    let bottom = CGRect(
      x: 0, y: container.bounds.maxY, width: container.bounds.width, height: container.bounds.height - 100)
    if presenting {
      view.frame = bottom
      container.addSubview(view)
    }
    UIView.animate(
      withDuration: 0.4, delay: 0, options: .curveLinear,
      animations: { view.frame = self.presenting ? transitionContext.finalFrame(for: controller) : bottom },
      completion: { _ in transitionContext.completeTransition(!transitionContext.transitionWasCancelled) })
  }
}

/// A delegate that implements nothing: UIKit's defaults.
final class SilentDelegate: NSObject, UIViewControllerTransitioningDelegate {}

// MARK: - A navigation-controller delegate

final class SurfaceNavigationDelegate: NSObject, UINavigationControllerDelegate {
  func navigationController(
    _ navigationController: UINavigationController,
    animationControllerFor operation: UINavigationController.Operation, from fromVC: UIViewController,
    to toVC: UIViewController
  ) -> UIViewControllerAnimatedTransitioning? {
    note("operation \(operation.rawValue) delegate \(navigationController.delegate === self)")
    return PushPopAnimator(operation: operation, from: fromVC, to: toVC)
  }
}

/// Push: the to view slides in from the right; pop: the from view slides out to the right over the to view.
/// Linear, 0.3 s.
final class PushPopAnimator: NSObject, UIViewControllerAnimatedTransitioning {
  let operation: UINavigationController.Operation
  let fromVC: UIViewController
  let toVC: UIViewController

  init(operation: UINavigationController.Operation, from fromVC: UIViewController, to toVC: UIViewController) {
    self.operation = operation
    self.fromVC = fromVC
    self.toVC = toVC
    super.init()
  }

  func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 0.3 }

  func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
    let container = transitionContext.containerView
    let navigation = toVC.navigationController!
    note(
      "sides \(fromVC === transitionContext.viewController(forKey: .from)) \(toVC === transitionContext.viewController(forKey: .to)) stack \(navigation.viewControllers.map { $0.view.identifier }) top \(navigation.topViewController === toVC) visible \(navigation.visibleViewController === toVC) view \(navigation.view == container)"
    )
    let width = container.bounds.width
    let toView = toVC.view!
    let fromView = fromVC.view!
    toView.frame = transitionContext.finalFrame(for: toVC)
    if operation == .push {
      toView.frame = toView.frame.offsetBy(dx: width, dy: 0)
      container.addSubview(toView)
    } else {
      container.insertSubview(toView, belowSubview: fromView)
    }
    UIView.animate(
      withDuration: 0.3, delay: 0, options: .curveLinear,
      animations: {
        if self.operation == .push {
          toView.frame = toView.frame.offsetBy(dx: -width, dy: 0)
        } else {
          fromView.frame = fromView.frame.offsetBy(dx: width, dy: 0)
        }
      },
      completion: { _ in transitionContext.completeTransition(!transitionContext.transitionWasCancelled) })
  }
}

// MARK: - The native style beside the UIKit one

/// A TransitionKit-native animator in the same plugin (`.native`): it keeps working beside the declarations.
final class NativeAnimator: TransitionAnimator {
  static let id: StaticString = "native"
  static let name: StaticString = "Native"

  func transitionDuration(using transitionContext: (any UIViewControllerContextTransitioning)?) -> TimeInterval { 0 }

  func animateTransition(using transitionContext: any UIViewControllerContextTransitioning) {
    let toView = transitionContext.view(forKey: .to)!
    transitionContext.containerView.addSubview(toView)
    note("native \(transitionContext.operation)")
    transitionContext.completeTransition(true)
  }
}
