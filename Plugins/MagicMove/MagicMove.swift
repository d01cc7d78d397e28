// The magic-move animator: a port of BourneWeng/MagicMove (Swift 1.x, 2015) — MagicMoveTransion (push) and
// MagicMovePopTransion (pop) — to TransitionKit. A snapshot of the shared element (the cell's image view, the detail
// avatar) flies between the two screens while the destination fades in (push) or the source screen fades out (pop).
//
// The original's storyboard outlets become the views' shared-element keys: the first view of the from screen whose
// `match` key also names a view of the to screen is the element, and that view its counterpart. Params `source`
// (a view id in the from tree) and `target` (in the to tree) name them explicitly and win when given. Fixes: the
// push honours cancellation (the original always completed), both elements are hidden during the flight and shown
// again afterwards whatever the outcome, and the pop restores the from view's alpha (the original left it at 0).
// Without a pair the animator still runs the fade alone.

import TransitionKit

@_cdecl("th_plugin_entry") public func entry(_ h: UnsafeRawPointer?) -> UnsafeRawPointer? { MagicMovePlugin.entry(h) }

/// The plugin: one animator.
enum MagicMovePlugin: TransitionPlugin {
  static let id: StaticString = "com.transitionhost.magicmove"
  static let name: StaticString = "Magic move"
  static let version: StaticString = "1.0.0"
  static let vendor: StaticString? = "transition-host"
  static var animators: [any TransitionAnimator.Type] { [MagicMoveTransition.self] }
}

/// A shared-element push and pop.
final class MagicMoveTransition: TransitionAnimator {
  static let id: StaticString = "magic-move"
  static let name: StaticString = "Magic move"
  static let summary: StaticString? =
    "A snapshot of a shared element flies to its counterpart's frame while the new screen fades in; pop reverses it."
  static let operations: [TransitionOperation]? = [.push, .pop]

  static let duration = TransitionParameter.number("duration", default: 0.5, min: 0, max: 10, doc: "Seconds.")
  static let source = TransitionParameter.string(
    "source", default: "", doc: "The id of the shared element in the from tree (default: paired by match key).")
  static let target = TransitionParameter.string(
    "target", default: "", doc: "The id of its counterpart in the to tree (default: paired by match key).")
  static let parameters: [AnyTransitionParameter] = [duration, source, target]

  func transitionDuration(using transitionContext: (any UIViewControllerContextTransitioning)?) -> TimeInterval {
    Self.duration.value(in: transitionContext)
  }

  func animateTransition(using transitionContext: any UIViewControllerContextTransitioning) {
    guard let fromVC = transitionContext.viewController(forKey: .from),
      let toVC = transitionContext.viewController(forKey: .to)
    else {
      transitionContext.completeTransition(false)
      return
    }
    let container = transitionContext.containerView
    let isPop = transitionContext.operation == .pop

    // The shared element and its counterpart, each inside its own screen.
    let (source, target) = Self.sharedElement(transitionContext, from: fromVC.view, to: toVC.view)
    if source == nil || target == nil {
      TransitionLog.info("magic-move: no shared element (match keys or params source/target); only the screens fade")
    }

    // 1. Snapshot the element, in container coordinates, and hide it.
    var snapshot: UIView?
    if let source, target != nil, let copy = source.snapshotView(afterScreenUpdates: false) {
      copy.frame = container.convert(source.frame, from: source.superview)
      source.isHidden = true
      snapshot = copy
    }

    // 2. The destination screen at its final frame; its counterpart hidden until the snapshot lands.
    toVC.view.frame = transitionContext.finalFrame(for: toVC)
    if isPop {
      // 3. Pop: the destination goes below the source screen, which fades out.
      container.insertSubview(toVC.view, belowSubview: fromVC.view)
    } else {
      // 3. Push: the destination fades in from alpha 0, added before the snapshot (the order matters).
      toVC.view.alpha = 0
      container.addSubview(toVC.view)
    }
    if let snapshot { container.addSubview(snapshot) }
    target?.isHidden = snapshot != nil
    target?.layoutIfNeeded()

    // 4. Fly the snapshot to the counterpart's frame.
    let targetFrame = target.map { container.convert($0.frame, from: $0.superview) }
    UIView.animate(
      withDuration: transitionDuration(using: transitionContext), delay: 0, options: .curveEaseInOut,
      animations: {
        if let snapshot, let targetFrame { snapshot.frame = targetFrame }
        if isPop { fromVC.view.alpha = 0 } else { toVC.view.alpha = 1 }
      },
      completion: { _ in
        // 5. Show the real views again and drop the snapshot, whatever the outcome.
        source?.isHidden = false
        target?.isHidden = false
        snapshot?.removeFromSuperview()
        if isPop { fromVC.view.alpha = 1 }
        transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
      })
  }

  /// The views named by the params (each must lie in its own screen), the rest paired by match key.
  static func sharedElement(
    _ context: any UIViewControllerContextTransitioning, from fromView: UIView, to toView: UIView
  ) -> (UIView?, UIView?) {
    func named(_ parameter: TransitionParameter<String>, in screen: UIView) -> UIView? {
      let id = context[parameter]
      guard !id.isEmpty, let view = context.view(withID: id), view.isDescendant(of: screen) else { return nil }
      return view
    }
    var source = named(Self.source, in: fromView)
    var target = named(Self.target, in: toView)
    if let source, target == nil, let key = source.matchKey { target = toView.viewWithMatchKey(key) }
    if let target, source == nil, let key = target.matchKey { source = fromView.viewWithMatchKey(key) }
    if source == nil, target == nil, context[Self.source].isEmpty, context[Self.target].isEmpty {
      // The first keyed view of the from screen (depth first, back to front) with a counterpart.
      var pending = [fromView]
      while !pending.isEmpty {
        let view = pending.removeFirst()
        if let key = view.matchKey, let counterpart = toView.viewWithMatchKey(key) { return (view, counterpart) }
        pending.insert(contentsOf: view.subviews, at: 0)
      }
    }
    return (source, target)
  }
}
