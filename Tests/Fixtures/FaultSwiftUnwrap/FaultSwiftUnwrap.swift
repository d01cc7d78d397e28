// TestPluginFaultSwiftUnwrap: UIKit code ported as it is, force-unwraps included. "faulty" does what many ported
// seeds do: `transitionContext.view(forKey: .from)!`, which is nil when presenting (the presentation keeps the
// presenter's view, as UIKit's default presentation does), so the Swift runtime traps. "sound" fades the to view in
// (alpha 0 → 1, 0.4 s, linear) and completes.

import TransitionKit

@_cdecl("th_plugin_entry") public func entry(_ h: UnsafeRawPointer?) -> UnsafeRawPointer? { UnwrapPlugin.entry(h) }

enum UnwrapPlugin: TransitionPlugin {
  static let id: StaticString = "com.example.test.fault.swiftunwrap"
  static let name: StaticString = "Force-unwrapping Swift plugin"
  static let version: StaticString = "1.0.0"
  static let vendor: StaticString? = "transition-host tests"
  static var animators: [any TransitionAnimator.Type] { [SoundAnimator.self, FaultyAnimator.self] }
}

/// Puts the to view at its final frame, transparent, on top of the container.
private func addToView(_ context: any UIViewControllerContextTransitioning) -> UIView? {
  guard let toVC = context.viewController(forKey: .to), let toView = context.view(forKey: .to) else { return nil }
  toView.frame = context.finalFrame(for: toVC)
  toView.alpha = 0
  context.containerView.addSubview(toView)
  return toView
}

final class SoundAnimator: TransitionAnimator {
  static let id: StaticString = "sound"
  static let name: StaticString = "Sound"

  func transitionDuration(using transitionContext: (any UIViewControllerContextTransitioning)?) -> TimeInterval { 0.4 }

  func animateTransition(using transitionContext: any UIViewControllerContextTransitioning) {
    let toView = addToView(transitionContext)
    UIView.animate(
      withDuration: 0.4, delay: 0, options: .curveLinear, animations: { toView?.alpha = 1 },
      completion: { _ in transitionContext.completeTransition(!transitionContext.transitionWasCancelled) })
  }
}

final class FaultyAnimator: TransitionAnimator {
  static let id: StaticString = "faulty"
  static let name: StaticString = "Faulty"

  func transitionDuration(using transitionContext: (any UIViewControllerContextTransitioning)?) -> TimeInterval { 0.4 }

  func animateTransition(using transitionContext: any UIViewControllerContextTransitioning) {
    let fromView = transitionContext.view(forKey: .from)!
    let toView = transitionContext.view(forKey: .to)!
    transitionContext.containerView.insertSubview(toView, belowSubview: fromView)
    UIView.animate(
      withDuration: 0.4, animations: { fromView.alpha = 0 },
      completion: { _ in transitionContext.completeTransition(!transitionContext.transitionWasCancelled) })
  }
}
