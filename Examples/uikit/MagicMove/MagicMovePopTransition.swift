import UIKit

/// The pop: the avatar flies back to its cell while the detail screen fades out over the list.
class MagicMovePopTransition: NSObject, UIViewControllerAnimatedTransitioning {
  func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
    return 0.5
  }

  func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
    let containerView = transitionContext.containerView
    guard let fromVC = transitionContext.viewController(forKey: .from),
      let toVC = transitionContext.viewController(forKey: .to)
    else {
      transitionContext.completeTransition(false)
      return
    }
    let duration = transitionDuration(using: transitionContext)
    // Without the avatar or the cell's image the detail screen only fades out.
    let avatarImageView = fromVC.view.descendant(identifiedBy: "avatar")
    let cellImageView = toVC.view.descendant(identifiedBy: "cellImage")
    let snapshotView = cellImageView == nil ? nil : avatarImageView?.snapshotView(afterScreenUpdates: false)

    if let avatarImageView, let snapshotView {
      snapshotView.frame = containerView.convert(avatarImageView.frame, from: avatarImageView.superview)
      avatarImageView.isHidden = true
      cellImageView?.isHidden = true
    }

    toVC.view.frame = transitionContext.finalFrame(for: toVC)

    containerView.insertSubview(toVC.view, belowSubview: fromVC.view)
    if let snapshotView { containerView.addSubview(snapshotView) }

    UIView.animate(
      withDuration: duration, delay: 0, options: [.curveEaseInOut],
      animations: {
        if let snapshotView, let cellImageView {
          snapshotView.frame = containerView.convert(cellImageView.frame, from: cellImageView.superview)
        }
        fromVC.view.alpha = 0
      },
      completion: { _ in
        cellImageView?.isHidden = false
        avatarImageView?.isHidden = false
        snapshotView?.removeFromSuperview()
        transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
      })
  }
}
