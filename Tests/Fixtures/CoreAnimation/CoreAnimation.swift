// TestPluginCoreAnimation: Core Animation's explicit animations written as UIKit code (CABasicAnimation,
// CAKeyframeAnimation, CASpringAnimation, CAAnimationGroup, CATransaction, a CAAnimationDelegate, layer timing),
// one animator per behaviour CoreAnimationSDKTests checks against closed forms. The to view (400 × 800) slides
// up from y = 1200 to its model position 400; what the animator observes goes to the host's log ("note: …").
// "circular-reveal" and "shadow-push" are the reveal and the push of issue 16 as iOS code writes them
// (CoreAnimationProtocolTests).

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
    .animator(id: "scrubbed-block", name: "A UIView block on a paused layer, scrubbed by timeOffset") {
      ScrubbedBlock()
    },
    .animator(id: "stalled-block", name: "A UIView block on a paused layer that nothing resumes") { StalledBlock() },
    .animator(id: "mirrored-block", name: "A paused container whose timeOffset follows the interaction") {
      MirroredBlock()
    },
    .animator(id: "scrubbed-animator", name: "A property animator on a paused layer, scrubbed by timeOffset") {
      ScrubbedAnimator()
    },
    .animator(id: "slowed-animator", name: "A property animator on a container at speed 0.5") { SlowedAnimator() },
    .animator(id: "circular-reveal", name: "Circular reveal (a CAShapeLayer mask)") { CircularReveal() },
    .animator(id: "shadow-push", name: "Push with a shadow") { ShadowPush() },
    .animator(id: "follow-path", name: "CAKeyframeAnimation along a CGPath") { FollowPath() },
    .animator(id: "follow-path-key-times", name: "CAKeyframeAnimation along a CGPath with keyTimes") {
      FollowPath(keyTimes: [0, 0.8, 1])
    },
    .animator(id: "follow-path-paced", name: "CAKeyframeAnimation along a CGPath, paced") {
      FollowPath(calculationMode: .paced)
    },
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
/// hand-written percent driver does; then, from a display link once a second of the transition has passed, lets it
/// run from there (Apple QA1673's resume: speed 1, beginTime = the time since the pause), so the paused block
/// completes.
final class Frozen: NSObject, UIViewControllerAnimatedTransitioning {
  private var link: CADisplayLink?
  private weak var container: UIView?

  func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 1 }

  func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
    let container = transitionContext.containerView
    self.container = container
    let link = CADisplayLink(
      target: self,
      selector: Selector("step:") { target, sender in
        (target as! Frozen).step(sender as! CADisplayLink)
      })
    link.add(to: .main, forMode: .common)
    self.link = link
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

  func step(_ link: CADisplayLink) {
    guard let layer = container?.layer, CACurrentMediaTime() >= 1 else { return }
    link.invalidate()
    let pausedTime = layer.timeOffset
    layer.speed = 1
    layer.timeOffset = 0
    layer.beginTime = 0
    layer.beginTime = layer.convertTime(CACurrentMediaTime(), from: nil) - pausedTime
    note("resumed from \(pausedTime)")
  }
}

/// The scrub pattern on a view's own layer: `layer.speed = 0`, a UIView block (1 s, UIView's default easeInOut)
/// sliding the to view's centre from y 1200 to 400, `layer.timeOffset = 0.3`; then a display link carries the
/// offset on at half speed, 0.3 + 0.5·t, up to 1, where the block is over and completes the transition.
final class ScrubbedBlock: NSObject, UIViewControllerAnimatedTransitioning {
  private var link: CADisplayLink?
  private weak var view: UIView?

  func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 1 }

  func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
    let toView = transitionContext.view(forKey: .to)!
    transitionContext.containerView.addSubview(toView)
    view = toView
    toView.center.y = 1200
    toView.layer.speed = 0
    UIView.animate(withDuration: 1, animations: { toView.center.y = 400 }) { finished in
      note("completed \(finished) offset \(toView.layer.timeOffset)")
      transitionContext.completeTransition(true)
    }
    toView.layer.timeOffset = 0.3
    note("speed \(toView.layer.speed) offset \(toView.layer.timeOffset)")
    let link = CADisplayLink(
      target: self,
      selector: Selector("step:") { target, sender in
        (target as! ScrubbedBlock).step(sender as! CADisplayLink)
      })
    link.add(to: .main, forMode: .common)
    self.link = link
  }

  func step(_ link: CADisplayLink) {
    guard let layer = view?.layer else { return }
    layer.timeOffset = min(0.3 + 0.5 * CACurrentMediaTime(), 1)
    if layer.timeOffset >= 1 { link.invalidate() }
  }
}

/// A paused layer that nothing resumes: `layer.speed = 0` on the to view, then a UIView block (0.2 s) sliding its
/// centre from y 1200 to 400 whose completion completes the transition, and no display link. The completion waits
/// for a layer time that never comes, so time alone never ends the transition: only the client can (`cancel`), or
/// the host at end of input.
final class StalledBlock: NSObject, UIViewControllerAnimatedTransitioning {
  func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 0.2 }

  func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
    let toView = transitionContext.view(forKey: .to)!
    transitionContext.containerView.addSubview(toView)
    toView.center.y = 1200
    toView.layer.speed = 0
    UIView.animate(withDuration: 0.2, animations: { toView.center.y = 400 }) { finished in
      note("completed \(finished)")
      transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
    }
  }
}

/// How UIPercentDrivenInteractiveTransition works on iOS, written by hand: the container's layer is paused
/// (speed 0) and a UIView block (1 s, linear) slides the to view's centre from y 1200 to 400; a display link sets
/// the container's timeOffset to the transition's time, so scrubbing, finishing and cancelling the interaction move
/// the block. Its completion completes the transition with !transitionWasCancelled.
final class MirroredBlock: NSObject, UIViewControllerAnimatedTransitioning {
  private var link: CADisplayLink?
  private weak var container: UIView?

  func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 1 }

  func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
    let container = transitionContext.containerView
    let toView = transitionContext.view(forKey: .to)!
    container.addSubview(toView)
    self.container = container
    toView.center.y = 1200
    container.layer.speed = 0
    UIView.animate(withDuration: 1, delay: 0, options: [.curveLinear], animations: { toView.center.y = 400 }) {
      finished in
      self.link?.invalidate()
      note("completed \(finished) cancelled \(transitionContext.transitionWasCancelled)")
      transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
    }
    let link = CADisplayLink(
      target: self,
      selector: Selector("step:") { target, sender in
        (target as! MirroredBlock).step(sender as! CADisplayLink)
      })
    link.add(to: .main, forMode: .common)
    self.link = link
  }

  func step(_ link: CADisplayLink) {
    container?.layer.timeOffset = CACurrentMediaTime()
  }
}

/// `layer.speed = 0` on the to view, then a started UIViewPropertyAnimator (1 s, linear, centre y 1200 → 400) and
/// `timeOffset = 0.3`: its animation is a CAAnimation of that layer, so it stands at 0.3 s while the animator's own
/// clock runs on; a display link carries the offset on at 0.3 + 0.5·t, and the animator completes (and with it the
/// transition) when the offset reaches its end, 1.
final class ScrubbedAnimator: NSObject, UIViewControllerAnimatedTransitioning {
  private var link: CADisplayLink?
  private weak var view: UIView?
  private var animator: UIViewPropertyAnimator?

  func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 1 }

  func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
    let toView = transitionContext.view(forKey: .to)!
    transitionContext.containerView.addSubview(toView)
    view = toView
    toView.center.y = 1200
    toView.layer.speed = 0
    let animator = UIViewPropertyAnimator(duration: 1, curve: .linear) { toView.center.y = 400 }
    animator.addCompletion { position in
      note("completed \(position == .end) offset \(toView.layer.timeOffset)")
      transitionContext.completeTransition(true)
    }
    animator.startAnimation()
    self.animator = animator
    toView.layer.timeOffset = 0.3
    note("speed \(toView.layer.speed) offset \(toView.layer.timeOffset)")
    let link = CADisplayLink(
      target: self,
      selector: Selector("step:") { target, sender in
        (target as! ScrubbedAnimator).step(sender as! CADisplayLink)
      })
    link.add(to: .main, forMode: .common)
    self.link = link
  }

  func step(_ link: CADisplayLink) {
    guard let layer = view?.layer else { return }
    layer.timeOffset = min(0.3 + 0.5 * CACurrentMediaTime(), 1)
    if layer.timeOffset >= 1 { link.invalidate() }
  }
}

/// The container's layer at speed 0.5, then a started UIViewPropertyAnimator (1 s, linear, centre y 1200 → 400):
/// its animation runs in the container's time, taking 2 s of the transition's, and the animator completes (the
/// transition with it, finished unless cancelled) when it ends there.
final class SlowedAnimator: NSObject, UIViewControllerAnimatedTransitioning {
  private var animator: UIViewPropertyAnimator?

  func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 1 }

  func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
    let container = transitionContext.containerView
    let toView = transitionContext.view(forKey: .to)!
    container.addSubview(toView)
    toView.center.y = 1200
    container.layer.speed = 0.5
    let animator = UIViewPropertyAnimator(duration: 1, curve: .linear) { toView.center.y = 400 }
    animator.addCompletion { position in
      note("completed at \(position == .end ? "end" : position == .start ? "start" : "current")")
      transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
    }
    animator.startAnimation()
    self.animator = animator
  }
}

/// A circular reveal: the to view's layer.mask is a CAShapeLayer whose circle grows, with a CABasicAnimation of
/// `path` (1 s, easeInEaseOut), from radius 10 at (100, 200) to the distance to the container's farthest corner.
/// The model path is the end circle (set before the animation is added, so nothing snaps back); the CATransaction's
/// completion removes the mask and completes the transition.
final class CircularReveal: NSObject, UIViewControllerAnimatedTransitioning {
  static let origin = CGPoint(x: 100, y: 200)
  static let startRadius: CGFloat = 10

  func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 1 }

  func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
    let container = transitionContext.containerView
    guard let toView = transitionContext.view(forKey: .to) else { return }
    container.addSubview(toView)
    let bounds = container.bounds
    let o = Self.origin
    let farthest = max(
      hypot(o.x - bounds.minX, o.y - bounds.minY), hypot(o.x - bounds.maxX, o.y - bounds.minY),
      hypot(o.x - bounds.minX, o.y - bounds.maxY), hypot(o.x - bounds.maxX, o.y - bounds.maxY))
    func circle(_ r: CGFloat) -> CGPath {
      UIBezierPath(ovalIn: CGRect(x: o.x - r, y: o.y - r, width: 2 * r, height: 2 * r)).cgPath
    }

    let mask = CAShapeLayer()
    mask.frame = toView.bounds
    mask.path = circle(farthest)
    toView.layer.mask = mask

    CATransaction.begin()
    CATransaction.setCompletionBlock {
      toView.layer.mask = nil
      transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
    }
    let grow = CABasicAnimation(keyPath: "path")
    grow.fromValue = circle(Self.startRadius)
    grow.toValue = mask.path
    grow.duration = transitionDuration(using: transitionContext)
    grow.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
    mask.add(grow, forKey: "reveal")
    CATransaction.commit()
    note("radius \(farthest)")
  }
}

/// A push with a shadow: the to view slides in from the right edge with UIView.animate (1 s, easeInOut) while its
/// layer's shadowOpacity (0 → 0.5) and shadowPath (its bounds inset by 16 → its bounds) animate through
/// CABasicAnimations of the same duration and curve, as iOS code must (a UIView block does not animate shadows).
/// Shadow: black, radius 8, offset (−12, 0). Model values are set to the end values first.
final class ShadowPush: NSObject, UIViewControllerAnimatedTransitioning {
  func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 1 }

  func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
    let container = transitionContext.containerView
    guard let toView = transitionContext.view(forKey: .to) else { return }
    container.addSubview(toView)
    let duration = transitionDuration(using: transitionContext)
    let bounds = toView.bounds
    toView.frame.origin.x = container.bounds.width

    let layer = toView.layer
    layer.shadowColor = UIColor.black.cgColor
    layer.shadowRadius = 8
    layer.shadowOffset = CGSize(width: -12, height: 0)
    let startPath = UIBezierPath(rect: bounds.insetBy(dx: 16, dy: 16)).cgPath
    let endPath = UIBezierPath(rect: bounds).cgPath
    layer.shadowOpacity = 0.5
    layer.shadowPath = endPath

    let opacity = CABasicAnimation(keyPath: "shadowOpacity")
    opacity.fromValue = 0.0
    opacity.toValue = 0.5
    let path = CABasicAnimation(keyPath: "shadowPath")
    path.fromValue = startPath
    path.toValue = endPath
    for animation in [opacity, path] {
      animation.duration = duration
      animation.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
      layer.add(animation, forKey: animation.keyPath)
    }
    UIView.animate(
      withDuration: duration, delay: 0, options: .curveEaseInOut,
      animations: { toView.frame.origin.x = 0 },
      completion: { _ in transitionContext.completeTransition(!transitionContext.transitionWasCancelled) })
  }
}

/// The to view's position follows a CGMutablePath, (0, 0) → (300, 0) → (300, 400), with a CAKeyframeAnimation
/// (1 s, linear timing, calculation mode linear: each segment takes half the time); its model position is the
/// path's end.
final class FollowPath: NSObject, UIViewControllerAnimatedTransitioning {
  /// The keyframe animation's keyTimes and calculationMode (with its path and no values: the path's vertices are the
  /// keyframes).
  let keyTimes: [Double]?
  let calculationMode: CAAnimationCalculationMode

  init(keyTimes: [Double]? = nil, calculationMode: CAAnimationCalculationMode = .linear) {
    self.keyTimes = keyTimes
    self.calculationMode = calculationMode
  }

  func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 1 }

  func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
    guard let toView = transitionContext.view(forKey: .to) else { return }
    transitionContext.containerView.addSubview(toView)
    let path = CGMutablePath()
    path.move(to: .zero)
    path.addLines(between: [.zero, CGPoint(x: 300, y: 0), CGPoint(x: 300, y: 400)])
    toView.layer.position = CGPoint(x: 300, y: 400)
    let follow = CAKeyframeAnimation(keyPath: "position")
    follow.path = path
    follow.keyTimes = keyTimes
    follow.calculationMode = calculationMode
    follow.duration = 1
    follow.timingFunction = CAMediaTimingFunction(name: .linear)
    CATransaction.begin()
    CATransaction.setCompletionBlock { transitionContext.completeTransition(true) }
    toView.layer.add(follow, forKey: "follow")
    CATransaction.commit()
  }
}
