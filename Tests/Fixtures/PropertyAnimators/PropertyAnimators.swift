// TestPluginPropertyAnimators: UIViewPropertyAnimator written as UIKit code (import UIKit, NSObject animators), one
// animator per behaviour PropertyAnimatorSDKTests checks against closed forms. Every animator moves the to view's
// center from x = 600 to x = 200 (y = 400) in a 400 × 800 container, and writes what it observed to the host's log
// ("note: …").

import UIKit

@_cdecl("th_plugin_entry") public func entry(_ h: UnsafeRawPointer?) -> UnsafeRawPointer? {
  PropertyAnimatorsPlugin.entry(h)
}

enum PropertyAnimatorsPlugin: TransitionPlugin {
  static let id: StaticString = "com.example.test.propertyanimators"
  static let name: StaticString = "Property animators"
  static let version: StaticString = "1.0.0"
  static let exports: [TransitionPluginExport] = [
    .animator(id: "interruptible", name: "Interruptible slide") { InterruptibleSlide() },
    .animator(id: "scrub-continue", name: "Scrub then continue with a spring") { ScrubContinue() },
    .animator(id: "stop-finish", name: "Stop and finish at the start") { StopFinish() },
    .animator(id: "reverse-pauses", name: "Pauses on completion, then reversed") { ReversePauses() },
    .animator(id: "physical", name: "Mass/stiffness spring") { PhysicalSpring() },
    .animator(id: "damping", name: "init(duration:dampingRatio:)") {
      Form { UIViewPropertyAnimator(duration: 1, dampingRatio: 0.6, animations: nil) }
    },
    .animator(id: "default-curve", name: "UICubicTimingParameters()") {
      Form { UIViewPropertyAnimator(duration: 1, timingParameters: UICubicTimingParameters()) }
    },
    .animator(id: "ease-in", name: "UICubicTimingParameters(animationCurve:)") {
      Form { UIViewPropertyAnimator(duration: 1, timingParameters: UICubicTimingParameters(animationCurve: .easeIn)) }
    },
    .animator(id: "bounce", name: "UISpringTimingParameters(duration:bounce:)") {
      Form {
        UIViewPropertyAnimator(duration: 3, timingParameters: UISpringTimingParameters(duration: 0.5, bounce: 0.3))
      }
    },
    .animator(id: "curved-scrub", name: "scrubsLinearly = false") { CurvedScrub() },
    .transitioningDelegate(id: "timing-curve", name: "A percent-driven interaction's timingCurve") {
      TimingCurveDelegate()
    },
    .transitioningDelegate(id: "timing-spring", name: "A percent-driven interaction's spring timingCurve") {
      TimingCurveDelegate(UISpringTimingParameters(dampingRatio: 0.4))
    },
  ]
}

private func note(_ message: String) { TransitionLog.info("note: \(message)") }

/// The to view, in the container at x = 600.
private func slidingView(_ transitionContext: UIViewControllerContextTransitioning) -> UIView {
  let toView = transitionContext.view(forKey: .to)!
  transitionContext.containerView.addSubview(toView)
  toView.center = CGPoint(x: 600, y: 400)
  return toView
}

/// A helper view whose one linear alpha animation of `duration` seconds calls `then` when it ends: a timer on the
/// transition's timeline.
private func after(
  _ duration: TimeInterval, in transitionContext: UIViewControllerContextTransitioning, then: @escaping () -> Void
) {
  let timer = UIView(frame: CGRect(x: 0, y: 0, width: 1, height: 1))
  transitionContext.containerView.addSubview(timer)
  UIView.animate(
    withDuration: duration, delay: 0, options: .curveLinear, animations: { timer.alpha = 0 },
    completion: { _ in then() })
}

/// The corpus' interruptible animator: one property animator, made lazily and returned every time.
final class InterruptibleSlide: NSObject, UIViewControllerAnimatedTransitioning {
  private var animator: UIViewImplicitlyAnimating?

  func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 1 }

  func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
    note("animateTransition")
    interruptibleAnimator(using: transitionContext).startAnimation()
  }

  func interruptibleAnimator(using transitionContext: UIViewControllerContextTransitioning)
    -> UIViewImplicitlyAnimating
  {
    if let animator { return animator }
    note("interruptibleAnimator made")
    let toView = slidingView(transitionContext)
    let animator = UIViewPropertyAnimator(duration: transitionDuration(using: transitionContext), curve: .easeInOut) {
      toView.center = CGPoint(x: 200, y: 400)
    }
    animator.addCompletion { position in
      note("completion \(position == .end ? "end" : position == .start ? "start" : "current")")
      transitionContext.completeTransition(position == .end)
    }
    self.animator = animator
    return animator
  }
}

/// Pauses, scrubs to 0.25, then continues with a damping-ratio spring (velocity 0.8) over twice the remaining time.
/// A second group fades the view from half-way (delay factor 0.5).
final class ScrubContinue: NSObject, UIViewControllerAnimatedTransitioning {
  func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 2 }

  func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
    let toView = slidingView(transitionContext)
    let animator = UIViewPropertyAnimator(
      duration: 1, controlPoint1: CGPoint(x: 0.3, y: 0.1), controlPoint2: CGPoint(x: 0.2, y: 1)
    ) {
      toView.center = CGPoint(x: 200, y: 400)
    }
    animator.addAnimations({ toView.alpha = 0.5 }, delayFactor: 0.5)
    note("state \(animator.state.rawValue) running \(animator.isRunning)")
    animator.pauseAnimation()
    animator.fractionComplete = 0.25
    note("state \(animator.state.rawValue) running \(animator.isRunning) fraction \(animator.fractionComplete)")
    animator.addCompletion { position in
      note("completion \(position.rawValue)")
      transitionContext.completeTransition(position == .end)
    }
    after(0.5, in: transitionContext) {
      let spring = UISpringTimingParameters(dampingRatio: 0.5, initialVelocity: CGVector(dx: 0.8, dy: 0))
      animator.continueAnimation(withTimingParameters: spring, durationFactor: 2)
      note("continued running \(animator.isRunning)")
    }
  }
}

/// runningPropertyAnimator (linear), stopped at 0.3 s with stopAnimation(false), then finished at the start.
final class StopFinish: NSObject, UIViewControllerAnimatedTransitioning {
  func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 1 }

  func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
    let toView = slidingView(transitionContext)
    let animator = UIViewPropertyAnimator.runningPropertyAnimator(
      withDuration: 1, delay: 0.1, options: [.curveLinear], animations: { toView.center = CGPoint(x: 200, y: 400) }
    ) { position in
      note("completion \(position.rawValue) center \(toView.center.x)")
      transitionContext.completeTransition(true)
    }
    let unfinished = UIViewPropertyAnimator(duration: 1, curve: .linear) { toView.alpha = 0 }
    unfinished.addCompletion { _ in note("never") }
    unfinished.startAnimation()
    after(0.4, in: transitionContext) {
      unfinished.stopAnimation(true)
      note("unfinished state \(unfinished.state.rawValue) alpha \(toView.alpha)")
      animator.stopAnimation(false)
      note("stopped state \(animator.state.rawValue) center \(toView.center.x)")
      animator.finishAnimation(at: .start)
    }
  }
}

/// pausesOnCompletion: at its end (0.5 s) it stays active; at 0.6 s it is reversed and started, back over 0.5 s.
final class ReversePauses: NSObject, UIViewControllerAnimatedTransitioning {
  func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 1.1 }

  func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
    let toView = slidingView(transitionContext)
    let animator = UIViewPropertyAnimator(duration: 0.5, curve: .linear) { toView.center = CGPoint(x: 200, y: 400) }
    animator.pausesOnCompletion = true
    animator.addCompletion { position in
      note("completion \(position.rawValue)")
      transitionContext.completeTransition(true)
    }
    animator.startAnimation()
    after(0.6, in: transitionContext) {
      note(
        "at 0.6 state \(animator.state.rawValue) running \(animator.isRunning) fraction \(animator.fractionComplete)")
      animator.pausesOnCompletion = false
      animator.isReversed = true
      animator.startAnimation()
    }
  }
}

/// A mass/stiffness spring: the animator's duration (5 s) is ignored; it lasts the spring's settling duration.
final class PhysicalSpring: NSObject, UIViewControllerAnimatedTransitioning {
  func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 1 }

  func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
    let toView = slidingView(transitionContext)
    let spring = UISpringTimingParameters(mass: 1, stiffness: 200, damping: 12, initialVelocity: .zero)
    let animator = UIViewPropertyAnimator(duration: 5, timingParameters: spring)
    animator.addAnimations { toView.center = CGPoint(x: 200, y: 400) }
    animator.addCompletion { _ in transitionContext.completeTransition(true) }
    animator.startAnimation()
    note("duration \(animator.duration)")
  }
}

/// One timing form: the animator `make` returns moves the to view and is started at once.
final class Form: NSObject, UIViewControllerAnimatedTransitioning {
  let make: () -> UIViewPropertyAnimator

  init(_ make: @escaping () -> UIViewPropertyAnimator) {
    self.make = make
    super.init()
  }

  func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 1 }

  func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
    let toView = slidingView(transitionContext)
    let animator = make()
    animator.addAnimations { toView.center = CGPoint(x: 200, y: 400) }
    animator.addCompletion { _ in transitionContext.completeTransition(true) }
    let timing = animator.timingParameters
    note("type \(timing?.timingCurveType.rawValue ?? -1) duration \(animator.duration)")
    animator.startAnimation()
  }
}

/// scrubsLinearly = false: paused at 0.5, the values follow the curve; isInterruptible cannot change while active.
final class CurvedScrub: NSObject, UIViewControllerAnimatedTransitioning {
  func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 1 }

  func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
    let toView = slidingView(transitionContext)
    let animator = UIViewPropertyAnimator(duration: 1, curve: .easeIn) { toView.center = CGPoint(x: 200, y: 400) }
    animator.scrubsLinearly = false
    animator.isInterruptible = false
    note("interruptible \(animator.isInterruptible) scrubsLinearly \(animator.scrubsLinearly)")
    animator.isInterruptible = true
    animator.pauseAnimation()
    animator.isInterruptible = false
    note("interruptible \(animator.isInterruptible)")
    animator.fractionComplete = 0.5
    animator.addCompletion { position in transitionContext.completeTransition(position == .end) }
    after(0.2, in: transitionContext) {
      animator.continueAnimation(withTimingParameters: nil, durationFactor: 1)
    }
  }
}

/// A transitioning delegate whose percent-driven interaction controller (no interactive start) has a `timingCurve`
/// (linear unless given): at 0.25 s it scrubs the running transition to 0.5 and finishes it, and the interruptible
/// animator continues on that timing rather than on the easeInOut `completionCurve`.
final class TimingCurveDelegate: NSObject, UIViewControllerTransitioningDelegate {
  let animator = GrabbedSlide()
  let interaction = UIPercentDrivenInteractiveTransition()

  init(_ timing: any UITimingCurveProvider = UICubicTimingParameters(animationCurve: .linear)) {
    super.init()
    interaction.wantsInteractiveStart = false
    interaction.timingCurve = timing
    animator.interaction = interaction
  }

  func animationController(
    forPresented presented: UIViewController, presenting: UIViewController, source: UIViewController
  ) -> UIViewControllerAnimatedTransitioning? { animator }

  func interactionControllerForPresentation(using animator: UIViewControllerAnimatedTransitioning)
    -> UIViewControllerInteractiveTransitioning?
  { interaction }
}

/// InterruptibleSlide that, 0.25 s into its run, has its interaction controller grab it at 0.5 and finish it.
final class GrabbedSlide: NSObject, UIViewControllerAnimatedTransitioning {
  weak var interaction: UIPercentDrivenInteractiveTransition?
  private let slide = InterruptibleSlide()

  func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 1 }

  func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
    slide.animateTransition(using: transitionContext)
    after(0.25, in: transitionContext) {
      self.interaction?.update(0.5)
      self.interaction?.finish()
    }
  }

  func interruptibleAnimator(using transitionContext: UIViewControllerContextTransitioning)
    -> UIViewImplicitlyAnimating
  {
    slide.interruptibleAnimator(using: transitionContext)
  }
}
