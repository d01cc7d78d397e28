// The sheet animator: a port of azubala/CustomPresenter (HEAD f3e11cb) to TransitionKit — its
// CustomControllerPresentationAnimator and CustomControllerDismissAnimator, with the presentation context's tunables
// as parameters (defaults: the original's, except backgroundAlpha 0.4: the original's 0.0 shows no dimming at all).
//
// The original's two bugs are fixed. It completed unconditionally; here cancellation is honoured
// (`completeTransition(!transitionWasCancelled)`). Its dimming ("background") view was never stored with the default
// context, so the dismissal could neither fade nor remove it; here the dimming view belongs to the presentation
// controller, as UIKit intends for chrome: made (id "dimming") and faded in when the presentation begins, found by
// id (or put back) and faded out when the dismissal begins, removed when the dismissal completes. It fades with the
// same spring as the sheet, as in the original's single animation block.

import TransitionKit

@_cdecl("th_plugin_entry") public func entry(_ host: UnsafeRawPointer?) -> UnsafeRawPointer? { SheetPlugin.entry(host) }

/// The plugin: one animator.
enum SheetPlugin: TransitionPlugin {
  static let id: StaticString = "com.transitionhost.sheet"
  static let name: StaticString = "Sheet"
  static let version: StaticString = "1.0.0"
  static let vendor: StaticString? = "transition-host"
  static var animators: [any TransitionAnimator.Type] { [SheetAnimator.self] }
}

/// A spring sheet over a dimmed presenter.
final class SheetAnimator: TransitionAnimator {
  static let id: StaticString = "sheet"
  static let name: StaticString = "Sheet"
  static let summary: StaticString? =
    "The presented view springs up from the bottom of the container over a dimming view; dismissal reverses it."
  static let operations: [TransitionOperation]? = [.present, .dismiss]

  static let duration = TransitionParameter.number("duration", default: 1.0, min: 0, max: 10, doc: "Seconds.")
  static let springDamping = TransitionParameter.number(
    "springDamping", default: 1.0, min: 0.01, max: 1, doc: "The spring's damping ratio (1 = no overshoot).")
  static let initialSpringVelocity = TransitionParameter.number(
    "initialSpringVelocity", default: 0, doc: "UIKit's unit: 1 = the whole distance per second.")
  static let backgroundAlpha = TransitionParameter.number(
    "backgroundAlpha", default: 0.4, min: 0, max: 1, doc: "The dimming view's alpha while the sheet is up.")
  static let presentedFrame = TransitionParameter.rect(
    "presentedFrame", default: .zero, doc: "The sheet's frame in the container; empty (0 × 0) = the container's bounds."
  )
  static let parameters: [AnyTransitionParameter] = [
    duration, springDamping, initialSpringVelocity, backgroundAlpha, presentedFrame,
  ]

  func makePresentationController() -> UIPresentationController? { SheetPresentationController() }

  func transitionDuration(using transitionContext: (any UIViewControllerContextTransitioning)?) -> TimeInterval {
    Self.duration.value(in: transitionContext)
  }

  func animateTransition(using transitionContext: any UIViewControllerContextTransitioning) {
    let containerView = transitionContext.containerView
    if transitionContext.operation.isDismissal {
      guard let fromView = transitionContext.view(forKey: .from) else {
        transitionContext.completeTransition(false)
        return
      }
      var finalFrame = fromView.frame
      finalFrame.origin.y = containerView.bounds.maxY
      Self.animateWithSpring(transitionContext) {
        fromView.frame = finalFrame
      } completion: {
        transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
      }
    } else {
      guard let toView = transitionContext.view(forKey: .to), let toVC = transitionContext.viewController(forKey: .to)
      else {
        transitionContext.completeTransition(false)
        return
      }
      containerView.addSubview(toView)
      let finalFrame = transitionContext.finalFrame(for: toVC)
      var initialFrame = finalFrame
      initialFrame.origin.y = containerView.bounds.maxY
      toView.frame = initialFrame
      toView.layoutIfNeeded()
      Self.animateWithSpring(transitionContext) {
        toView.frame = finalFrame
      } completion: {
        transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
      }
    }
  }

  /// The original's animation: UIView's spring with the context's duration, damping and velocity.
  static func animateWithSpring(
    _ context: any UIViewControllerContextTransitioning, animations: @escaping () -> Void,
    completion: @escaping () -> Void = {}
  ) {
    UIView.animate(
      withDuration: context[duration], delay: 0, usingSpringWithDamping: context[springDamping],
      initialSpringVelocity: context[initialSpringVelocity], options: [], animations: animations,
      completion: { _ in completion() })
  }
}

/// Owns the dimming view: UIKit's place for chrome that outlives one transition.
final class SheetPresentationController: UIPresentationController {
  /// The id the dimming view has in the scene, so that a dismissal finds the one its presentation made.
  static let dimmingID = "dimming"
  private var dimmingView: UIView?

  override var frameOfPresentedViewInContainerView: CGRect {
    let frame = transitionCoordinator?[SheetAnimator.presentedFrame] ?? .zero
    return frame.isEmpty ? super.frameOfPresentedViewInContainerView : frame
  }

  override func presentationTransitionWillBegin() {
    guard let containerView, let coordinator = transitionCoordinator else { return }
    let dimmingView = UIView(frame: containerView.bounds, id: Self.dimmingID)
    dimmingView.backgroundColor = .black
    dimmingView.alpha = 0
    containerView.addSubview(dimmingView)
    self.dimmingView = dimmingView
    coordinator.animate(alongsideTransition: { context in
      SheetAnimator.animateWithSpring(
        context, animations: { dimmingView.alpha = context[SheetAnimator.backgroundAlpha] })
    })
  }

  override func presentationTransitionDidEnd(_ completed: Bool) {
    // A cancelled presentation: the host has put the scene back as it was, without the dimming view.
    if !completed, let dimmingView, dimmingView.superview != nil { dimmingView.removeFromSuperview() }
  }

  override func dismissalTransitionWillBegin() {
    guard let containerView, let coordinator = transitionCoordinator else { return }
    let dimmingView: UIView
    if let existing = containerView.viewWithID(Self.dimmingID) {
      dimmingView = existing
    } else {
      // The client's scene does not carry the presentation's dimming view: put it back where the presentation
      // left it, under the presented view, as dim as the presentation made it.
      dimmingView = UIView(frame: containerView.bounds, id: Self.dimmingID)
      dimmingView.backgroundColor = .black
      dimmingView.alpha = coordinator[SheetAnimator.backgroundAlpha]
      if let presented = presentedViewController.view {
        containerView.insertSubview(dimmingView, belowSubview: presented)
      } else {
        containerView.addSubview(dimmingView)
      }
    }
    self.dimmingView = dimmingView
    coordinator.animate(alongsideTransition: { context in
      SheetAnimator.animateWithSpring(context, animations: { dimmingView.alpha = 0 })
    })
  }

  override func dismissalTransitionDidEnd(_ completed: Bool) {
    if completed { dimmingView?.removeFromSuperview() }
  }
}
