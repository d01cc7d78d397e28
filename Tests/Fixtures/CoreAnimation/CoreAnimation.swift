// TestPluginCoreAnimation: Core Animation's explicit animations written as UIKit code (CABasicAnimation,
// CAKeyframeAnimation, CASpringAnimation, CAAnimationGroup, CATransaction, a CAAnimationDelegate, layer timing),
// one animator per behaviour CoreAnimationSDKTests checks against closed forms. The to view (400 × 800) slides
// up from y = 1200 to its model position 400; what the animator observes goes to the host's log ("note: …").

import QuartzCore
import UIKit

@_cdecl("th_plugin_entry") public func entry(_ h: UnsafeRawPointer?) -> UnsafeRawPointer? {
  CoreAnimationPlugin.entry(h)
}

enum CoreAnimationPlugin: TransitionPlugin {
  static let id: StaticString = "com.example.test.coreanimation"
  static let name: StaticString = "Core Animation"
  static let version: StaticString = "1.0.0"
  static let exports: [TransitionPluginExport] = [
    .animator(id: "slide", name: "CABasicAnimation slide with a delegate") { Slide() },
    .animator(id: "frozen", name: "Layer speed 0 scrubbed by timeOffset") { Frozen() },
  ]
}

private func note(_ message: String) { TransitionLog.info("note: \(message)") }

/// Slides the to view in with a CABasicAnimation whose delegate completes the transition, rounds its corners with
/// keyframes, fades it with a spring and shrinks the from view in a group, all in a CATransaction.
final class Slide: NSObject, UIViewControllerAnimatedTransitioning, CAAnimationDelegate {
  var context: UIViewControllerContextTransitioning?

  func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 1 }

  func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
    context = transitionContext
    let toView = transitionContext.view(forKey: .to)!
    let fromView = transitionContext.viewController(forKey: .from)!.view!
    transitionContext.containerView.addSubview(toView)
    CATransaction.begin()
    CATransaction.setCompletionBlock { note("transaction done") }
    let slide = CABasicAnimation(keyPath: "position.y")
    slide.fromValue = 1200.0
    slide.toValue = 400.0
    slide.duration = 1
    slide.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
    slide.delegate = self
    toView.layer.add(slide, forKey: "slide")

    let corners = CAKeyframeAnimation(keyPath: "cornerRadius")
    corners.values = [0.0, 20.0, 0.0]
    corners.keyTimes = [0, 0.25, 1]
    corners.duration = 1
    toView.layer.add(corners, forKey: "corners")

    let fade = CASpringAnimation(keyPath: "opacity")
    fade.fromValue = 0.0
    fade.toValue = 1.0
    fade.damping = 20
    note("settling \(fade.settlingDuration)")
    toView.layer.add(fade, forKey: "fade")

    let shrink = CABasicAnimation(keyPath: "transform.scale")
    shrink.fromValue = 1.0
    shrink.toValue = 0.9
    let group = CAAnimationGroup()
    group.animations = [shrink]
    group.duration = 0.5
    fromView.layer.add(group, forKey: "shrink")
    CATransaction.commit()
    note("keys \(toView.layer.animationKeys() ?? [])")
    note("found \(toView.layer.animation(forKey: "slide") === slide)")
  }

  func animationDidStart(_ anim: CAAnimation) { note("did start") }

  func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
    note("did stop \(flag)")
    context?.completeTransition(!(context?.transitionWasCancelled ?? false))
  }
}

/// Freezes the container (speed 0) and scrubs the to view's animation with the container's timeOffset, as a
/// hand-written percent driver does; then lets it run from there.
final class Frozen: NSObject, UIViewControllerAnimatedTransitioning {
  func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 1 }

  func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
    let container = transitionContext.containerView
    let toView = transitionContext.view(forKey: .to)!
    container.addSubview(toView)
    container.layer.speed = 0
    container.layer.timeOffset = 0
    let slide = CABasicAnimation(keyPath: "position.y")
    slide.fromValue = 1200.0
    slide.toValue = 400.0
    slide.duration = 1
    slide.beginTime = CACurrentMediaTime()
    toView.layer.add(slide, forKey: "slide")
    container.layer.timeOffset = 0.3
    note("speed \(container.layer.speed) offset \(container.layer.timeOffset)")
    UIView.animate(withDuration: 1, animations: { toView.alpha = 0.5 }) { _ in
      transitionContext.completeTransition(true)
    }
  }
}
