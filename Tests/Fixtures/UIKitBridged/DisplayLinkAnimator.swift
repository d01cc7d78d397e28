import UIKit

/// Drives the presentation from a display link at 30 frames per second, as UIKit code does for procedural
/// animation: each frame adds a probe view whose frame records the link's timestamps (× 6000, so 1/60 s is 100
/// points). The link pauses after its second frame; a 0.1 s animation's completion resumes it; the fourth frame
/// completes the transition.
class DisplayLinkAnimator: NSObject, UIViewControllerAnimatedTransitioning {
  private var displayLink: CADisplayLink?
  private var context: UIViewControllerContextTransitioning?
  private var frameCount = 0

  func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
    return 0.2
  }

  func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
    guard let toView = transitionContext.view(forKey: .to) else { return }
    context = transitionContext
    transitionContext.containerView.addSubview(toView)
    let link = CADisplayLink(target: self, selector: #selector(step(_:)))
    link.preferredFramesPerSecond = 30
    link.add(to: .main, forMode: .common)
    displayLink = link
    UIView.animate(
      withDuration: 0.1, delay: 0, options: [.curveLinear],
      animations: {
        toView.layer.cornerRadius = 10
      },
      completion: { _ in
        self.displayLink?.isPaused = false
      })
  }

  @objc func step(_ link: CADisplayLink) {
    frameCount += 1
    let scale: CFTimeInterval = 6000
    let probe = UIView(
      frame: CGRect(
        x: link.timestamp * scale, y: link.targetTimestamp * scale, width: link.duration * scale,
        height: CGFloat(link.preferredFramesPerSecond)))
    context?.containerView.addSubview(probe)
    if frameCount == 2 {
      link.isPaused = true
    } else if frameCount == 4 {
      link.invalidate()
      context?.completeTransition(true)
    }
  }
}
