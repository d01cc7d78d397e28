import UIKit

/// The presented screen's transitioning delegate: a page turn each way, and a full-screen presentation; interactive
/// while an edge pan holds the percent driver (one serves both directions).
class FlipDelegate: NSObject, UIViewControllerTransitioningDelegate {
  var interactionController: UIPercentDrivenInteractiveTransition?

  func animationController(
    forPresented presented: UIViewController, presenting: UIViewController, source: UIViewController
  ) -> UIViewControllerAnimatedTransitioning? {
    return PageTurnAnimator(isPresenting: true)
  }

  func animationController(forDismissed dismissed: UIViewController) -> UIViewControllerAnimatedTransitioning? {
    return PageTurnAnimator(isPresenting: false)
  }

  func interactionControllerForPresentation(
    using animator: UIViewControllerAnimatedTransitioning
  ) -> UIViewControllerInteractiveTransitioning? {
    return interactionController
  }

  func interactionControllerForDismissal(
    using animator: UIViewControllerAnimatedTransitioning
  ) -> UIViewControllerInteractiveTransitioning? {
    return interactionController
  }

  func presentationController(
    forPresented presented: UIViewController, presenting: UIViewController?, source: UIViewController
  ) -> UIPresentationController? {
    return FullScreenPresentationController(presentedViewController: presented, presenting: presenting)
  }
}

/// A full-screen cover: the presenting screen leaves the hierarchy once it has turned away (the dismissal brings it
/// back), and the presented one fills the screen.
class FullScreenPresentationController: UIPresentationController {
  override var shouldRemovePresentersView: Bool {
    return true
  }

  override var frameOfPresentedViewInContainerView: CGRect {
    return UIScreen.main.bounds
  }
}
