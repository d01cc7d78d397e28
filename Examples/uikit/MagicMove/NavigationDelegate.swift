import UIKit

/// The list's navigation controller delegate: the magic move both ways, and a left-edge pan on the detail screen
/// that pops it interactively.
class NavigationDelegate: NSObject, UINavigationControllerDelegate {
  func navigationController(
    _ navigationController: UINavigationController, animationControllerFor operation: UINavigationController.Operation,
    from fromVC: UIViewController, to toVC: UIViewController
  ) -> UIViewControllerAnimatedTransitioning? {
    switch operation {
    case .push: return MagicMoveTransition()
    case .pop: return MagicMovePopTransition()
    default: return nil
    }
  }

  func navigationController(
    _ navigationController: UINavigationController,
    interactionControllerFor animationController: UIViewControllerAnimatedTransitioning
  ) -> UIViewControllerInteractiveTransitioning? {
    return animationController is MagicMovePopTransition ? EdgePanPopInteraction() : nil
  }
}

/// Pops the detail screen as a finger drags in from its left edge: progress = translation.x / width; past half the
/// pop completes, otherwise it is cancelled.
class EdgePanPopInteraction: UIPercentDrivenInteractiveTransition {
  override func startInteractiveTransition(_ transitionContext: UIViewControllerContextTransitioning) {
    super.startInteractiveTransition(transitionContext)
    let edgePan = UIScreenEdgePanGestureRecognizer(target: self, action: #selector(edgePanGesture(_:)))
    edgePan.edges = .left
    transitionContext.viewController(forKey: .from)?.view.addGestureRecognizer(edgePan)
  }

  @objc func edgePanGesture(_ edgePan: UIScreenEdgePanGestureRecognizer) {
    let progress = edgePan.translation(in: edgePan.view!).x / edgePan.view!.bounds.width
    switch edgePan.state {
    case .changed:
      update(progress)
    case .cancelled, .ended:
      if progress > 0.5 {
        finish()
      } else {
        cancel()
      }
    default:
      break
    }
  }
}
