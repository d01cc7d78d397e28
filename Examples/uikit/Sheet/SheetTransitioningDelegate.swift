import UIKit

/// The transitioning delegate of a modal sheet: it slides up over a dimmed presenter and back down.
class SheetTransitioningDelegate: NSObject, UIViewControllerTransitioningDelegate {
  func animationController(
    forPresented presented: UIViewController, presenting: UIViewController, source: UIViewController
  ) -> UIViewControllerAnimatedTransitioning? {
    return SheetPresentationAnimator()
  }

  func animationController(forDismissed dismissed: UIViewController) -> UIViewControllerAnimatedTransitioning? {
    return SheetDismissalAnimator()
  }
}
