import UIKit

/// The presented screen's transitioning delegate: a page turn each way, and a full-screen presentation.
class FlipDelegate: NSObject, UIViewControllerTransitioningDelegate {
  func animationController(
    forPresented presented: UIViewController, presenting: UIViewController, source: UIViewController
  ) -> UIViewControllerAnimatedTransitioning? {
    return PageTurnAnimator(isPresenting: true)
  }

  func animationController(forDismissed dismissed: UIViewController) -> UIViewControllerAnimatedTransitioning? {
    return PageTurnAnimator(isPresenting: false)
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
