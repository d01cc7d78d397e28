import QuartzCore
import UIKit

/// FlipTransion's page turn: presenting turns the presenting screen away about its left edge, like a book's page,
/// uncovering the new one (easeOut); dismissing turns it back over the presented one (easeIn).
class PageTurnAnimator: TransitionAnimator {
  let isPresenting: Bool

  init(isPresenting: Bool) {
    self.isPresenting = isPresenting
    super.init(duration: 0.8)
  }

  override func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
    guard let fromVC = transitionContext.viewController(forKey: .from),
      let toVC = transitionContext.viewController(forKey: .to)
    else {
      transitionContext.completeTransition(false)
      return
    }
    let containerView = transitionContext.containerView
    let frame = transitionContext.initialFrame(for: fromVC)
    let turnedAway = CATransform3DMakeRotation(-.pi / 2, 0, 1, 0)
    // The page is the presenting screen: on top of the presented one in both directions.
    let page: UIView = isPresenting ? fromVC.view : toVC.view
    if isPresenting {
      containerView.addSubview(toVC.view)
      containerView.bringSubviewToFront(page)
      toVC.view.frame = frame
    } else {
      containerView.addSubview(page)
    }
    addPerspective(to: containerView)
    page.frame = frame
    hinge(page, in: frame)
    if !isPresenting {
      page.layer.transform = turnedAway
    }

    UIView.animate(
      withDuration: transitionDuration(using: transitionContext), delay: 0,
      options: isPresenting ? .curveEaseOut : .curveEaseIn,
      animations: {
        page.layer.transform = self.isPresenting ? turnedAway : CATransform3DIdentity
      },
      completion: { _ in
        self.unhinge(page, in: frame, containerView: containerView)
        transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
      })
  }
}
