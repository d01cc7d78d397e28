import UIKit

/// The presented screen's transitioning delegate: the pull-down both ways, with a presentation controller that
/// takes the presenting screen out of the hierarchy once it is covered, interactive while a pan drives it.
class TransitioningDelegate: NSObject, UIViewControllerTransitioningDelegate {
  /// Set by the screen whose pan starts the transition; nil: the transition runs by itself.
  weak var interactionController: UIPercentDrivenInteractiveTransition?

  func animationController(
    forPresented presented: UIViewController, presenting: UIViewController, source: UIViewController
  ) -> UIViewControllerAnimatedTransitioning? {
    return PullDownAnimationController(transitionType: .presenting)
  }

  func animationController(forDismissed dismissed: UIViewController) -> UIViewControllerAnimatedTransitioning? {
    return PullDownAnimationController(transitionType: .dismissing)
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
    return PresentationController(presentedViewController: presented, presenting: presenting)
  }
}

/// Covers the whole screen, so the presenter's view can leave the hierarchy.
class PresentationController: UIPresentationController {
  override var shouldRemovePresentersView: Bool {
    return true
  }
}
