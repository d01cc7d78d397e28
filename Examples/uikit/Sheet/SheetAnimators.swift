import CoreGraphics
import UIKit

/// What the sheet's two animators share: CustomPresenter's spring (one second, critically damped, at rest) and how
/// dark the presenter gets behind the sheet.
enum SheetStyle {
  static let duration: TimeInterval = 1.0
  static let springDamping: CGFloat = 1.0
  static let initialSpringVelocity: CGFloat = 0
  static let dimmedAlpha: CGFloat = 0.4
  static let dimmingColor = UIColor.black

  static func animate(_ animations: @escaping () -> Void, completion: @escaping (Bool) -> Void) {
    UIView.animate(
      withDuration: duration, delay: 0, usingSpringWithDamping: springDamping,
      initialSpringVelocity: initialSpringVelocity, options: [], animations: animations, completion: completion)
  }
}

/// Slides the presented screen up from below the container over a black view that fades in.
class SheetPresentationAnimator: NSObject, UIViewControllerAnimatedTransitioning {
  func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
    return SheetStyle.duration
  }

  func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
    guard let toView = transitionContext.view(forKey: .to),
      let toViewController = transitionContext.viewController(forKey: .to)
    else {
      transitionContext.completeTransition(false)
      return
    }
    let containerView = transitionContext.containerView

    let dimmingView = UIView(frame: containerView.bounds)
    dimmingView.backgroundColor = SheetStyle.dimmingColor
    dimmingView.alpha = 0
    containerView.addSubview(dimmingView)

    let finalFrame = transitionContext.finalFrame(for: toViewController)
    var startFrame = finalFrame
    startFrame.origin.y = containerView.bounds.maxY
    toView.frame = startFrame
    containerView.addSubview(toView)
    toView.layoutIfNeeded()

    SheetStyle.animate(
      {
        toView.frame = finalFrame
        dimmingView.alpha = SheetStyle.dimmedAlpha
      },
      completion: { _ in
        let cancelled = transitionContext.transitionWasCancelled
        if cancelled {
          dimmingView.removeFromSuperview()
        }
        transitionContext.completeTransition(!cancelled)
      })
  }
}

/// Slides the presented screen back down and fades the black view behind it out, then removes it.
class SheetDismissalAnimator: NSObject, UIViewControllerAnimatedTransitioning {
  func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
    return SheetStyle.duration
  }

  func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
    guard let fromView = transitionContext.view(forKey: .from) else {
      transitionContext.completeTransition(false)
      return
    }
    let containerView = transitionContext.containerView
    // The presentation left its dimming view under the sheet.
    let dimmingView = containerView.subviews.last { $0 !== fromView && $0.backgroundColor == SheetStyle.dimmingColor }

    var endFrame = fromView.frame
    endFrame.origin.y = containerView.bounds.maxY

    SheetStyle.animate(
      {
        fromView.frame = endFrame
        dimmingView?.alpha = 0
      },
      completion: { _ in
        let cancelled = transitionContext.transitionWasCancelled
        transitionContext.completeTransition(!cancelled)
        if !cancelled {
          dimmingView?.removeFromSuperview()
        }
      })
  }
}
