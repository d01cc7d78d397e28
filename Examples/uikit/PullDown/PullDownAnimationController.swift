import UIKit

/// Pulls the presented screen down over the presenting one like a window blind, and rolls it back up on dismissal,
/// with UIView's default curve.
class PullDownAnimationController: NSObject, UIViewControllerAnimatedTransitioning {
  enum TransitionType {
    case presenting
    case dismissing
  }

  let transitionType: TransitionType

  init(transitionType: TransitionType) {
    self.transitionType = transitionType
    super.init()
  }

  func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
    return 0.5
  }

  func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
    let containerView = transitionContext.containerView
    guard let toView = transitionContext.view(forKey: .to), let fromView = transitionContext.view(forKey: .from)
    else {
      transitionContext.completeTransition(false)
      return
    }
    let duration = transitionDuration(using: transitionContext)
    var aboveTheScreen = containerView.bounds
    aboveTheScreen.origin.y = -aboveTheScreen.height

    switch transitionType {
    case .presenting:
      toView.frame = aboveTheScreen
      containerView.addSubview(toView)
      UIView.animate(
        withDuration: duration,
        animations: {
          toView.frame = containerView.bounds
        },
        completion: { _ in
          transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
        })
    case .dismissing:
      toView.frame = containerView.bounds
      containerView.insertSubview(toView, belowSubview: fromView)
      UIView.animate(
        withDuration: duration,
        animations: {
          fromView.frame = aboveTheScreen
        },
        completion: { _ in
          transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
        })
    }
  }
}
