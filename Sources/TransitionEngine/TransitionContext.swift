/// What an animator sees of its transition: the engine's `UIViewControllerContextTransitioning`.
///
/// The context is created by `Transition` and stays valid for the transition's life; it holds the transition
/// weakly, so an animator that keeps it longer only gets ignored calls (reported as misbehaviour when they matter).
///
/// **Which views are where** (CONVENTIONS): at the start the from root is in the container; for a dismissal whose
/// presentation kept the presenter's view, the to root is below it. `view(forKey:)` follows UIKit and is nil for the
/// from view of a presentation and the to view of a dismissal when the presentation controller keeps the presenter's
/// view (`shouldRemovePresentersView` false): that view is on screen, but the animator must not touch it.
/// `viewController(forKey:)` always gives the root of that tree.
package final class TransitionContext {
  /// The from and to sides of a transition (UIKit's `UITransitionContextViewKey` and `…ViewControllerKey`).
  package enum Key: String, Hashable, Sendable, CaseIterable {
    /// The side shown at the start of the transition, and at the end of a cancelled one.
    case from
    /// The side shown at the end of a completed transition.
    case to
  }

  /// The transition this context belongs to; nil once it has been released.
  package private(set) weak var transition: Transition?

  /// The scene every view of the transition lives in.
  package let scene: Scene
  /// The view in which the transition happens.
  package let containerView: View
  /// What the transition does.
  package let operation: TransitionOperation
  /// The values the client chose for the animator's parameters.
  package let params: [String: ParameterValue]
  /// Usually true. A non-animated transition still calls `animateTransition` (as UIKit's custom presentations do,
  /// to add and remove views); the animator decides what to do without animation.
  package let isAnimated: Bool

  init(
    transition: Transition, scene: Scene, operation: TransitionOperation, params: [String: ParameterValue],
    isAnimated: Bool
  ) {
    self.transition = transition
    self.scene = scene
    self.containerView = scene.container
    self.operation = operation
    self.params = params
    self.isAnimated = isAnimated
  }

  /// The context of a scene (the app's view controllers with no transition running, Protocol.md "Scenes"): what the
  /// scene's animator instance works in. Nothing of a transition is there: no keyed views, duration 0.
  package init(scene: Scene) {
    self.transition = nil
    self.scene = scene
    self.containerView = scene.container
    self.operation = TransitionOperation(name: "scene")
    self.params = [:]
    self.isAnimated = false
  }

  /// Whether the user currently drives the transition (scrubbing or holding it paused). Changes when the
  /// transition is grabbed (update, pause) or let go (finish, cancel, release).
  package var isInteractive: Bool { transition?.isInteractive ?? false }

  /// Whether the transition is heading back to its start: set by cancel (and by reverse toward the start), cleared
  /// when it is turned toward completion again. Animators pass `!transitionWasCancelled` to `completeTransition`.
  package var transitionWasCancelled: Bool { transition?.transitionWasCancelled ?? false }

  /// The transition's duration (the animator's `transitionDuration`, captured at the start).
  package var duration: Double { transition?.duration ?? 0 }

  /// The view of one side, or nil when the animator must not touch it (see the type's documentation).
  package func view(forKey key: Key) -> View? {
    transition?.contextView(forKey: key)
  }

  /// The root view of one side's tree; never nil (UIKit's view controller, whose view is this root).
  package func viewController(forKey key: Key) -> View {
    transition?.root(forKey: key) ?? containerView
  }

  /// The frame the side's root occupies at the start, in container coordinates; `.zero` when it is not on screen
  /// at the start (the to root of a presentation or push).
  package func initialFrame(forKey key: Key) -> Rect {
    transition?.initialFrame(forKey: key) ?? .zero
  }

  /// The frame the side's root must have at the end, in container coordinates; `.zero` when unknown, and for the
  /// from root exactly when it will be removed. A presented view's final frame is the presentation controller's
  /// `frameOfPresentedView` (default: the container's bounds).
  package func finalFrame(forKey key: Key) -> Rect {
    transition?.finalFrame(forKey: key) ?? .zero
  }

  /// The initial frame of a root view (`.zero` for any view that is not one of the two roots), like UIKit's
  /// `initialFrame(for: viewController)`.
  package func initialFrame(for root: View) -> Rect {
    guard let key = transition?.key(ofRoot: root) else { return .zero }
    return initialFrame(forKey: key)
  }

  /// The final frame of a root view (`.zero` for any view that is not one of the two roots), like UIKit's
  /// `finalFrame(for: viewController)`.
  package func finalFrame(for root: View) -> Rect {
    guard let key = transition?.key(ofRoot: root) else { return .zero }
    return finalFrame(forKey: key)
  }

  /// Tells the engine the transition is over: `true` settles it as completed, `false` as cancelled.
  ///
  /// Must be called exactly once, by the animator (usually from the completion of its last animation, with
  /// `!transitionWasCancelled`). A second call is reported as `completedTwice` misbehaviour and ignored.
  package func completeTransition(_ didComplete: Bool) {
    guard let transition else { return }
    transition.animatorDidComplete(didComplete)
  }

  /// Animates `animations` alongside the transition, in the same timeline: UIKit's
  /// `transitionCoordinator.animate(alongsideTransition:completion:)`, used by presentation controllers for their
  /// chrome.
  ///
  /// Calls made before `animateTransition` has returned are queued and run just after it, as one animation block
  /// with the transition's duration and easeInOut; later calls run at once, over the rest of the duration.
  /// `completion` receives the block's `finished`.
  /// - Returns: false (and reports `callAfterCompletion`) when the transition has already ended.
  @discardableResult
  package func animateAlongside(_ animations: @escaping () -> Void, completion: ((Bool) -> Void)? = nil) -> Bool {
    guard let transition else { return false }
    return transition.animateAlongside(animations, completion: completion)
  }

  /// Reports misbehaviour of the animator through the transition (used by the plugin host for misuse it detects,
  /// such as unknown view ids or invalid values).
  package func reportMisbehavior(_ kind: Misbehavior.Kind, _ message: String) {
    transition?.report(kind, message)
  }
}
