import UIKit

extension UIView {
  /// The view in this view's subtree (this view included) whose accessibilityIdentifier is `name`.
  func descendant(identifiedBy name: String) -> UIView? {
    if accessibilityIdentifier == name { return self }
    for subview in subviews {
      if let found = subview.descendant(identifiedBy: name) { return found }
    }
    return nil
  }
}

/// The push: the tapped cell's image flies to the detail screen's avatar while the detail screen fades in.
class MagicMoveTransition: NSObject, UIViewControllerAnimatedTransitioning {
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
    // Without the cell's image or the avatar (another screen) the detail screen only fades in.
    let cellImageView = fromVC.view.descendant(identifiedBy: "cellImage")
    let avatarImageView = toVC.view.descendant(identifiedBy: "avatar")
    let snapshotView = avatarImageView == nil ? nil : cellImageView?.snapshotView(afterScreenUpdates: false)

    if let cellImageView, let snapshotView {
      snapshotView.frame = containerView.convert(cellImageView.frame, from: cellImageView.superview)
      cellImageView.isHidden = true
      avatarImageView?.isHidden = true
    }

    toVC.view.frame = transitionContext.finalFrame(for: toVC)
    toVC.view.alpha = 0

    // The destination first, then the snapshot above it.
    containerView.addSubview(toVC.view)
    if let snapshotView { containerView.addSubview(snapshotView) }
    avatarImageView?.layoutIfNeeded()

    UIView.animate(
      withDuration: duration, delay: 0, options: [.curveEaseInOut],
      animations: {
        if let snapshotView, let avatarImageView {
          snapshotView.frame = containerView.convert(avatarImageView.frame, from: avatarImageView.superview)
        }
        toVC.view.alpha = 1
      },
      completion: { _ in
        avatarImageView?.isHidden = false
        cellImageView?.isHidden = false
        snapshotView?.removeFromSuperview()
        transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
      })
  }
}
