import UIKit

/// Shows an avatar over a dark blur: an image view, a visual-effect view, a plain `UIView()` and a snapshot of the
/// image view, then clears the blur's effect and the image at the end.
class ImageAnimator: NSObject, UIViewControllerAnimatedTransitioning {
  func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
    return 0.5
  }

  func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
    let containerView = transitionContext.containerView
    guard let toView = transitionContext.view(forKey: .to) else { return }

    let blurView = UIVisualEffectView(effect: UIBlurEffect(style: .dark))
    blurView.frame = containerView.bounds
    containerView.addSubview(blurView)
    containerView.addSubview(toView)

    let avatar = UIImageView(image: UIImage(named: "avatar"))
    avatar.frame = CGRect(x: 20, y: 20, width: 100, height: 100)
    avatar.contentMode = .scaleAspectFill
    toView.addSubview(avatar)

    let spacer = UIView()
    spacer.frame.size.height = spacer.bounds.width + 8
    toView.addSubview(spacer)

    if let snapshot = avatar.snapshotView(afterScreenUpdates: true) {
      snapshot.frame.origin = CGPoint(x: 200, y: 20)
      toView.addSubview(snapshot)
    }

    toView.alpha = 0
    UIView.animate(
      withDuration: 0.5,
      animations: {
        toView.alpha = 1
      },
      completion: { _ in
        blurView.effect = nil
        avatar.image = nil
        transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
      })
  }
}
