/// An animator of a custom transition: the engine's `UIViewControllerAnimatedTransitioning`.
///
/// The engine calls `transitionDuration` once when the transition starts (the percent-driven interaction maps
/// percent to time with it), then `animateTransition` at timeline time 0, then, once the animator has called
/// `TransitionContext.completeTransition(_:)`, `animationEnded`. Animators animate through the context's scene
/// (blocks, keyframes, drivers); those animations are what interaction scrubs, finishes and cancels.
package protocol TransitionAnimator: AnyObject {
  /// A stable id for logs and misbehaviour reports (`pluginId/animatorId` for plugins).
  var animatorID: String { get }

  /// The length of the transition in seconds. The context may be nil (UIKit allows asking without one).
  ///
  /// Should equal what `animateTransition` uses; a non-finite or negative value is reported as misbehaviour and
  /// treated as 0.
  func transitionDuration(_ context: TransitionContext?) -> Double

  /// Sets up and starts the animations; must eventually lead to exactly one `completeTransition` call.
  func animateTransition(_ context: TransitionContext)

  /// Called after `completeTransition`, once the hierarchy has settled. The default implementation does nothing.
  func animationEnded(_ completed: Bool)

  /// The presentation controller that accompanies presentations and dismissals by this animator, if any.
  ///
  /// The same animator serves present and dismiss, so one controller describes both. The default is nil: UIKit's
  /// defaults apply (the presented view fills the container, the presenter's view stays).
  var presentationController: (any PresentationControllerBehavior)? { get }

  /// The interaction controller of this transition (UIKit asks the delegate's `interactionControllerFor…`), which
  /// receives gesture samples; nil, the default, for none. Asked once, at the start, after `transitionDuration`
  /// and before the presentation controller's will-begin and `animateTransition`.
  func interactionController(_ context: TransitionContext) -> (any InteractionControllerBehavior)?

  /// UIKit's `interruptibleAnimator(using:)`: the property animator that performs the transition, when the animator
  /// offers one (nil otherwise, the default). It must be a property animator of the context's scene and the same one
  /// every time it is asked. The transition asks once: at the start of an interactive transition *instead of*
  /// `animateTransition` (it then pauses the animator and drives it), and right after `animateTransition` for any
  /// other. When there is one, the interaction scrubs its `fractionComplete`, continues it on finish and reverses it
  /// on cancel (see `Transition`).
  func interruptibleAnimator(_ context: TransitionContext) -> PropertyAnimator?
}

extension TransitionAnimator {
  package func animationEnded(_ completed: Bool) {}
  package var presentationController: (any PresentationControllerBehavior)? { nil }
  package func interactionController(_ context: TransitionContext) -> (any InteractionControllerBehavior)? { nil }
  package func interruptibleAnimator(_ context: TransitionContext) -> PropertyAnimator? { nil }
}

/// What a `UIPresentationController` contributes to a presentation or dismissal (present, segue, custom operations
/// and dismiss, unwind). Navigation operations (push, pop) have none.
///
/// The will-begin calls come before `animateTransition`, so a controller can add chrome (a dimming view) and animate
/// it with `TransitionContext.animateAlongside(_:completion:)`; the did-end calls come after the hierarchy settled
/// (completed) or was restored (not completed).
package protocol PresentationControllerBehavior: AnyObject {
  /// The presented view's final frame in container coordinates; nil means the default, the container's bounds.
  /// Asked once per transition (UIKit asks repeatedly and requires the same answer).
  func frameOfPresentedView(containerBounds: Rect) -> Rect?

  /// Whether the presenting view leaves the container once the presentation completes (UIKit's default: false).
  /// A dismissal by the same controller then finds the presenter's view outside the container.
  var shouldRemovePresentersView: Bool { get }

  /// Before a presentation's `animateTransition`. The default does nothing.
  func presentationTransitionWillBegin(_ context: TransitionContext)
  /// After a presentation ended; `completed` is false when it was cancelled or failed. The default does nothing.
  func presentationTransitionDidEnd(_ completed: Bool)
  /// Before a dismissal's `animateTransition`. The default does nothing.
  func dismissalTransitionWillBegin(_ context: TransitionContext)
  /// After a dismissal ended; `completed` is false when it was cancelled or failed. The default does nothing.
  func dismissalTransitionDidEnd(_ completed: Bool)
}

extension PresentationControllerBehavior {
  package func frameOfPresentedView(containerBounds: Rect) -> Rect? { nil }
  package var shouldRemovePresentersView: Bool { false }
  package func presentationTransitionWillBegin(_ context: TransitionContext) {}
  package func presentationTransitionDidEnd(_ completed: Bool) {}
  package func dismissalTransitionWillBegin(_ context: TransitionContext) {}
  package func dismissalTransitionDidEnd(_ completed: Bool) {}
}
