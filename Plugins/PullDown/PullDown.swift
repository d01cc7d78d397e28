// The pull-down animator: a port of robertmryan/SwiftCustomTransitions' PullDownAnimationController and its
// PresentationController (Swift 4, HEAD e4e0e85) to TransitionKit, kept line for line where UIKit and the SDK agree.
// Changes: the transition type comes from the context's operation instead of an init argument, the views are
// guarded instead of force-unwrapped, and the duration and curve are parameters (defaults: the original's).

import TransitionKit

@_cdecl("th_plugin_entry") public func entry(_ h: UnsafeRawPointer?) -> UnsafeRawPointer? { PullDownPlugin.entry(h) }

/// The plugin: one animator.
enum PullDownPlugin: TransitionPlugin {
  static let id: StaticString = "com.transitionhost.pulldown"
  static let name: StaticString = "Pull down"
  static let version: StaticString = "1.0.0"
  static let vendor: StaticString? = "transition-host"
  static var animators: [any TransitionAnimator.Type] { [PullDownAnimationController.self] }
}

/// The presented view slides down from above the container; dismissal slides it back up over the presenting view.
final class PullDownAnimationController: TransitionAnimator {
  static let id: StaticString = "pull-down"
  static let name: StaticString = "Pull down"
  static let summary: StaticString? =
    "The presented view slides down from above the container; dismissal slides it back up over the presenting view."
  static let operations: [TransitionOperation]? = [.present, .dismiss]

  /// UIView.AnimationCurve by name (the curve bits of UIView.AnimationOptions, in order).
  enum Curve: String, CaseIterable, Sendable {
    case easeInOut, easeIn, easeOut, linear
  }

  static let duration = TransitionParameter.number(
    "duration", default: 0.5, min: 0, max: 10, doc: "Seconds (the original: 0.5).")
  static let curve = TransitionParameter.enumeration(
    "curve", default: Curve.easeInOut, doc: "The timing curve (the original: UIView.animate's default, easeInOut).")
  static let parameters: [AnyTransitionParameter] = [duration, curve]

  func makePresentationController() -> UIPresentationController? { PresentationController() }

  func transitionDuration(using transitionContext: (any UIViewControllerContextTransitioning)?) -> TimeInterval {
    Self.duration.value(in: transitionContext)
  }

  func animateTransition(using transitionContext: any UIViewControllerContextTransitioning) {
    let inView = transitionContext.containerView
    guard let toView = transitionContext.view(forKey: .to), let fromView = transitionContext.view(forKey: .from) else {
      transitionContext.completeTransition(false)
      return
    }
    let curveBits = UInt(Curve.allCases.firstIndex(of: transitionContext[Self.curve])!) << 16
    let options = UIView.AnimationOptions(rawValue: curveBits)

    var frame = inView.bounds
    if transitionContext.operation.isDismissal {
      toView.frame = frame
      inView.insertSubview(toView, belowSubview: fromView)
      UIView.animate(
        withDuration: transitionDuration(using: transitionContext), delay: 0, options: options,
        animations: {
          frame.origin.y = -frame.size.height
          fromView.frame = frame
        },
        completion: { _ in
          transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
        })
    } else {
      frame.origin.y = -frame.size.height
      toView.frame = frame
      inView.addSubview(toView)
      UIView.animate(
        withDuration: transitionDuration(using: transitionContext), delay: 0, options: options,
        animations: {
          toView.frame = inView.bounds
        },
        completion: { _ in
          transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
        })
    }
  }
}

/// The original's PresentationController: the presenter's view leaves the hierarchy after the presentation.
final class PresentationController: UIPresentationController {
  override var shouldRemovePresentersView: Bool { true }
}
