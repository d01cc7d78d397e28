import Foundation
import UIKit

/// The app's base class for its page-turn animators: the duration both directions share, and the hinge a page
/// turns about (its left edge, halfway down), under the container's perspective.
class TransitionAnimator: NSObject, UIViewControllerAnimatedTransitioning {
  let duration: TimeInterval
  /// The eye's distance from the screen, in points (m34 = −1/distance).
  let eyeDistance: CGFloat = 500

  init(duration: TimeInterval) {
    self.duration = duration
    super.init()
  }

  func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
    return duration
  }

  func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
    transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
  }

  /// Gives the container its perspective.
  func addPerspective(to containerView: UIView) {
    var perspective = CATransform3DIdentity
    perspective.m34 = -1 / eyeDistance
    containerView.layer.sublayerTransform = perspective
  }

  /// Moves the page's anchor to its hinge without moving the page.
  func hinge(_ page: UIView, in frame: CGRect) {
    page.layer.anchorPoint = CGPoint(x: 0, y: 0.5)
    page.layer.position = CGPoint(x: frame.minX, y: frame.midY)
  }

  /// Puts the page and the container back as they were before the turn.
  func unhinge(_ page: UIView, in frame: CGRect, containerView: UIView) {
    page.layer.transform = CATransform3DIdentity
    page.layer.anchorPoint = CGPoint(x: 0.5, y: 0.5)
    page.layer.position = CGPoint(x: frame.midX, y: frame.midY)
    containerView.layer.sublayerTransform = CATransform3DIdentity
  }
}
