import UIKit

/// Slides the to view up from below the screen while it shrinks to half size and half opacity, and records what
/// Core Animation's presentation layer says on the way: each probe view is given the presented frame, opacity and
/// transform of the moment it was taken.
class PresentationAnimator: NSObject, UIViewControllerAnimatedTransitioning {
  func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
    return 1
  }

  func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
    let containerView = transitionContext.containerView
    guard let toView = transitionContext.view(forKey: .to) else { return }
    toView.frame = containerView.bounds.offsetBy(dx: 0, dy: containerView.bounds.height)
    containerView.addSubview(toView)
    let fader = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
    containerView.addSubview(fader)

    UIView.animate(
      withDuration: 1,
      animations: {
        toView.frame = containerView.bounds
        toView.alpha = 0.5
        toView.transform = CGAffineTransform(scaleX: 0.5, y: 0.5)
      },
      completion: { _ in
        transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
      })
    UIView.animate(withDuration: 1, delay: 0, options: [.curveLinear], animations: { fader.alpha = 0 })

    // What is on screen when the animations have just been added: still the start.
    record(toView.layer.presentation(), in: containerView)
    UIView.animate(
      withDuration: 0.25, delay: 0, options: [.curveLinear], animations: { fader.backgroundColor = .red },
      completion: { _ in
        self.record(fader.layer.presentation(), in: containerView)
      })
    UIView.animate(
      withDuration: 0.5, delay: 0, options: [.curveLinear], animations: { fader.layer.cornerRadius = 4 },
      completion: { _ in
        let presented = toView.layer.presentation()
        presented?.position = .zero  // a presentation layer is read-only: this changes nothing
        self.record(presented, in: containerView)
        self.record(presented?.presentation(), in: containerView)
      })
  }

  /// A probe: a view with `layer`'s presented frame (its model frame, with no transform), opacity and background.
  private func record(_ layer: CALayer?, in containerView: UIView) {
    guard let layer = layer else { return }
    let probe = UIView(frame: layer.frame)
    probe.alpha = CGFloat(layer.opacity)
    probe.backgroundColor = layer.backgroundColor
    probe.layer.cornerRadius = layer.transform.m11 * 100
    containerView.addSubview(probe)
  }
}
