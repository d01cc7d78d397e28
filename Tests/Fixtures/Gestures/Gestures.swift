// TestPluginGestures: interaction controllers and gesture recognizers (ABI 1.2), written as UIKit code. Each
// interaction controller is a UIPercentDrivenInteractiveTransition subclass that attaches its recognizer when the
// transition starts (`startInteractiveTransition`, calling super first) and decides finish or cancel itself; the
// handlers write what they saw to the host's log ("note: …") for Tests/AnimatorTests/GestureTests.swift and the
// protocol tests. Actions use the closure form of Selector that `#selector` becomes on Linux. Scenes.swift has the
// scene export's view controllers.

import UIKit

@_cdecl("th_plugin_entry") public func entry(_ h: UnsafeRawPointer?) -> UnsafeRawPointer? {
  GesturesPlugin.entry(h)
}

enum GesturesPlugin: TransitionPlugin {
  static let id: StaticString = "com.example.test.gestures"
  static let name: StaticString = "Gestures"
  static let version: StaticString = "1.0.0"
  static let exports: [TransitionPluginExport] = [
    .transitioningDelegate(id: "pull", name: "Pull down by a pan") { PullDelegate() },
    .navigationControllerDelegate(id: "edge", name: "Pop by a left-edge pan") { EdgeDelegate() },
    .transitioningDelegate(id: "hit", name: "Hit-testing") { HitDelegate() },
    .transitioningDelegate(id: "no-recognizers", name: "Interaction without recognizers") {
      NoRecognizersDelegate()
    },
    .transitioningDelegate(id: "bare-selector", name: "A selector without a method") { BareSelectorDelegate() },
    .transitioningDelegate(id: "running", name: "Grabbed while running") { RunningDelegate() },
    .transitioningDelegate(id: "no-interaction", name: "No interaction controller") { NoInteractionDelegate() },
    .transitioningDelegate(id: "recognizers", name: "Recognizer API") { RecognizersDelegate() },
    .transitioningDelegate(id: "scene", name: "An app's view controllers") { PlainPullDelegate() }
      .viewControllers(SceneRoot.self, storyboard: ["Modal": SceneModal.self]),
    .navigationControllerDelegate(id: "stack", name: "A navigation stack") { StackDelegate() }
      .viewControllers(
        StackRoot.self, storyboard: ["Detail": StackDetail.self], segues: ["showDetail": .show("Detail")],
        embeddedInNavigationController: true),
  ]
}

private func note(_ message: String) { TransitionLog.info("note: \(message)") }

private func describe(_ point: CGPoint) -> String { "(\(point.x), \(point.y))" }

// MARK: - Pull down (PullDown's seed: percent = translation.y / height, the velocity decides)

/// PullDown's animator: the presented view comes down from above the screen over 0.5 s with UIView's default curve;
/// the dismissal rolls it back up.
final class PullAnimator: NSObject, UIViewControllerAnimatedTransitioning {
  let presenting: Bool
  init(presenting: Bool) {
    self.presenting = presenting
    super.init()
  }

  func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 0.5 }

  func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
    let container = transitionContext.containerView
    // Without a presentation controller the presenter's view stays: its view(forKey:) is nil, its controller's is not.
    guard let toView = transitionContext.viewController(forKey: .to)?.view,
      let fromView = transitionContext.viewController(forKey: .from)?.view
    else {
      transitionContext.completeTransition(false)
      return
    }
    var above = container.bounds
    above.origin.y = -above.height
    if presenting {
      toView.frame = above
      container.addSubview(toView)
      UIView.animate(withDuration: 0.5, animations: { toView.frame = container.bounds }) { _ in
        transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
      }
    } else {
      toView.frame = container.bounds
      container.insertSubview(toView, belowSubview: fromView)
      UIView.animate(withDuration: 0.5, animations: { fromView.frame = above }) { _ in
        transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
      }
    }
  }
}

/// The seed's pan handling, moved into an interaction controller: a downward pan presents, an upward one dismisses.
final class PullInteraction: UIPercentDrivenInteractiveTransition {
  let presenting: Bool
  init(presenting: Bool) {
    self.presenting = presenting
    super.init()
  }

  override func startInteractiveTransition(_ transitionContext: UIViewControllerContextTransitioning) {
    super.startInteractiveTransition(transitionContext)
    let pan = UIPanGestureRecognizer(
      target: self,
      action: Selector("handlePan(_:)") { target, sender in
        (target as! PullInteraction).handlePan(sender as! UIPanGestureRecognizer)
      })
    transitionContext.containerView.addGestureRecognizer(pan)
  }

  func handlePan(_ gesture: UIPanGestureRecognizer) {
    let translation = gesture.translation(in: gesture.view)
    let height = gesture.view!.bounds.height
    let percent = (presenting ? translation.y : -translation.y) / height
    let velocity = gesture.velocity(in: gesture.view)
    switch gesture.state {
    case .began:
      note("began at \(describe(gesture.location(in: gesture.view))) touches \(gesture.numberOfTouches)")
    case .changed:
      update(percent)
      note("changed \(percent) percentComplete \(percentComplete) duration \(duration)")
    case .ended:
      completionSpeed = 0.999
      let finishes =
        presenting
        ? (percent > 0.5 && velocity.y == 0) || velocity.y > 0 : (percent > 0.5 && velocity.y == 0) || velocity.y < 0
      note("ended \(percent) velocity \(describe(velocity)) \(finishes ? "finish" : "cancel")")
      if finishes { finish() } else { cancel() }
    case .cancelled:
      note("cancelled")
      cancel()
    default:
      break
    }
  }
}

final class PullDelegate: NSObject, UIViewControllerTransitioningDelegate {
  func animationController(
    forPresented presented: UIViewController, presenting: UIViewController, source: UIViewController
  ) -> UIViewControllerAnimatedTransitioning? { PullAnimator(presenting: true) }

  func animationController(forDismissed dismissed: UIViewController) -> UIViewControllerAnimatedTransitioning? {
    PullAnimator(presenting: false)
  }

  func interactionControllerForPresentation(
    using animator: UIViewControllerAnimatedTransitioning
  ) -> UIViewControllerInteractiveTransitioning? {
    note("interactionControllerForPresentation \(animator is PullAnimator)")
    return PullInteraction(presenting: true)
  }

  func interactionControllerForDismissal(
    using animator: UIViewControllerAnimatedTransitioning
  ) -> UIViewControllerInteractiveTransitioning? {
    note("interactionControllerForDismissal \(animator is PullAnimator)")
    return PullInteraction(presenting: false)
  }
}

// MARK: - Left-edge pop (MagicMove's seed: progress = translation.x / width, > 0.5 finishes)

/// Pops by sliding the top screen off to the right over 0.5 s, linearly; pushes by sliding the new one in.
final class SlideAnimator: NSObject, UIViewControllerAnimatedTransitioning {
  let operation: UINavigationController.Operation
  init(_ operation: UINavigationController.Operation) {
    self.operation = operation
    super.init()
  }

  func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 0.5 }

  func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
    let container = transitionContext.containerView
    let fromView = transitionContext.view(forKey: .from)!
    let toView = transitionContext.view(forKey: .to)!
    let width = container.bounds.width
    if operation == .pop {
      toView.frame = container.bounds
      container.insertSubview(toView, belowSubview: fromView)
    } else {
      toView.frame = container.bounds.offsetBy(dx: width, dy: 0)
      container.addSubview(toView)
    }
    UIView.animate(
      withDuration: 0.5, delay: 0, options: [.curveLinear],
      animations: {
        if self.operation == .pop {
          fromView.frame = container.bounds.offsetBy(dx: width, dy: 0)
        } else {
          toView.frame = container.bounds
        }
      },
      completion: { _ in transitionContext.completeTransition(!transitionContext.transitionWasCancelled) })
  }
}

final class EdgeInteraction: UIPercentDrivenInteractiveTransition {
  override func startInteractiveTransition(_ transitionContext: UIViewControllerContextTransitioning) {
    super.startInteractiveTransition(transitionContext)
    let edge = UIScreenEdgePanGestureRecognizer(
      target: self,
      action: Selector("edgePanGesture(_:)") { target, sender in
        (target as! EdgeInteraction).edgePanGesture(sender as! UIScreenEdgePanGestureRecognizer)
      })
    edge.edges = .left
    transitionContext.view(forKey: .from)!.addGestureRecognizer(edge)
  }

  func edgePanGesture(_ edgePan: UIScreenEdgePanGestureRecognizer) {
    let progress = edgePan.translation(in: edgePan.view!).x / edgePan.view!.bounds.width
    switch edgePan.state {
    case .began: note("edge began")
    case .changed: update(progress)
    case .ended, .cancelled:
      note("edge ended \(progress)")
      if progress > 0.5 { finish() } else { cancel() }
    default: break
    }
  }
}

final class EdgeDelegate: NSObject, UINavigationControllerDelegate {
  func navigationController(
    _ navigationController: UINavigationController, animationControllerFor operation: UINavigationController.Operation,
    from fromVC: UIViewController, to toVC: UIViewController
  ) -> UIViewControllerAnimatedTransitioning? { SlideAnimator(operation) }

  func navigationController(
    _ navigationController: UINavigationController,
    interactionControllerFor animationController: UIViewControllerAnimatedTransitioning
  ) -> UIViewControllerInteractiveTransitioning? {
    // The pop alone is interactive, as in MagicMove.
    (animationController as? SlideAnimator)?.operation == .pop ? EdgeInteraction() : nil
  }
}

// MARK: - Hit-testing

/// Presents the to view where it ends (no motion) over 1 s; the recognizer sits on its subview "target".
final class StillAnimator: NSObject, UIViewControllerAnimatedTransitioning {
  func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 1 }

  func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
    let toView = transitionContext.view(forKey: .to)!
    transitionContext.containerView.addSubview(toView)
    UIView.animate(withDuration: 1, animations: { toView.alpha = 1 }) { _ in
      transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
    }
  }
}

/// Attaches a pan to the view "target" of the to tree; views whose id starts with "noTouch" get
/// `isUserInteractionEnabled = false`. Each began note names the view the recognizer is on and where the touch is
/// in it; a change scrubs to translation.x / 100.
final class HitInteraction: UIPercentDrivenInteractiveTransition {
  override func startInteractiveTransition(_ transitionContext: UIViewControllerContextTransitioning) {
    super.startInteractiveTransition(transitionContext)
    func visit(_ view: UIView) {
      if view.identifier.hasPrefix("noTouch") { view.isUserInteractionEnabled = false }
      if view.identifier == "target" {
        view.addGestureRecognizer(
          UIPanGestureRecognizer(
            target: self,
            action: Selector("pan(_:)") { target, sender in
              (target as! HitInteraction).pan(sender as! UIPanGestureRecognizer)
            }))
      }
      view.subviews.forEach(visit)
    }
    visit(transitionContext.view(forKey: .to)!)
  }

  func pan(_ gesture: UIPanGestureRecognizer) {
    switch gesture.state {
    case .began:
      note("began on \(gesture.view!.identifier) at \(describe(gesture.location(in: gesture.view)))")
    case .changed:
      note(
        "translation \(describe(gesture.translation(in: gesture.view))) velocity \(describe(gesture.velocity(in: nil)))"
      )
      if gesture.translation(in: nil).x > 50 {
        gesture.setTranslation(.zero, in: nil)
        note("reset to \(describe(gesture.translation(in: nil)))")
      }
      update(gesture.translation(in: nil).x / 100)
    case .ended: finish()
    case .cancelled: cancel()
    default: break
    }
  }
}

final class HitDelegate: NSObject, UIViewControllerTransitioningDelegate {
  func animationController(
    forPresented presented: UIViewController, presenting: UIViewController, source: UIViewController
  ) -> UIViewControllerAnimatedTransitioning? { StillAnimator() }

  func interactionControllerForPresentation(
    using animator: UIViewControllerAnimatedTransitioning
  ) -> UIViewControllerInteractiveTransitioning? { HitInteraction() }
}

// MARK: - Misuse and variants

/// Vends an interaction controller that attaches no recognizer.
final class NoRecognizersDelegate: NSObject, UIViewControllerTransitioningDelegate {
  func animationController(
    forPresented presented: UIViewController, presenting: UIViewController, source: UIViewController
  ) -> UIViewControllerAnimatedTransitioning? { StillAnimator() }

  func interactionControllerForPresentation(
    using animator: UIViewControllerAnimatedTransitioning
  ) -> UIViewControllerInteractiveTransitioning? { UIPercentDrivenInteractiveTransition() }
}

/// A recognizer whose selector was made from a bare name (no method to call): reported, never a crash.
final class BareSelectorInteraction: UIPercentDrivenInteractiveTransition {
  override func startInteractiveTransition(_ transitionContext: UIViewControllerContextTransitioning) {
    super.startInteractiveTransition(transitionContext)
    transitionContext.containerView.addGestureRecognizer(
      UIPanGestureRecognizer(target: self, action: Selector("handlePan:")))
  }
}

final class BareSelectorDelegate: NSObject, UIViewControllerTransitioningDelegate {
  func animationController(
    forPresented presented: UIViewController, presenting: UIViewController, source: UIViewController
  ) -> UIViewControllerAnimatedTransitioning? { StillAnimator() }

  func interactionControllerForPresentation(
    using animator: UIViewControllerAnimatedTransitioning
  ) -> UIViewControllerInteractiveTransitioning? { BareSelectorInteraction() }
}

/// wantsInteractiveStart = false: the transition runs; a began grabs it (pause), changes scrub it, the end lets it
/// finish with completionSpeed 2 and a linear curve.
final class RunningInteraction: UIPercentDrivenInteractiveTransition {
  override init() {
    super.init()
    wantsInteractiveStart = false
  }

  override func startInteractiveTransition(_ transitionContext: UIViewControllerContextTransitioning) {
    super.startInteractiveTransition(transitionContext)
    transitionContext.containerView.addGestureRecognizer(
      UIPanGestureRecognizer(
        target: self,
        action: Selector("drag(_:)") { target, sender in
          (target as! RunningInteraction).drag(sender as! UIPanGestureRecognizer)
        }))
  }

  func drag(_ gesture: UIPanGestureRecognizer) {
    switch gesture.state {
    case .began:
      pause()
      note("paused at \(percentComplete)")
    case .changed: update(gesture.translation(in: nil).y / 800)
    case .ended:
      completionSpeed = 2
      completionCurve = .linear
      finish()
      finish()  // a second finish while finishing changes nothing
    default: break
    }
  }
}

final class RunningDelegate: NSObject, UIViewControllerTransitioningDelegate {
  func animationController(
    forPresented presented: UIViewController, presenting: UIViewController, source: UIViewController
  ) -> UIViewControllerAnimatedTransitioning? { PullAnimator(presenting: true) }

  func interactionControllerForPresentation(
    using animator: UIViewControllerAnimatedTransitioning
  ) -> UIViewControllerInteractiveTransitioning? { RunningInteraction() }
}

/// Vends an animator and no interaction controller: the transition takes no gestures.
final class NoInteractionDelegate: NSObject, UIViewControllerTransitioningDelegate {
  func animationController(
    forPresented presented: UIViewController, presenting: UIViewController, source: UIViewController
  ) -> UIViewControllerAnimatedTransitioning? { PullAnimator(presenting: true) }
}

// MARK: - The recognizer API: targets, delegates, isEnabled, removal, edges, hit-testing

/// Refuses to begin (UIGestureRecognizerDelegate).
final class Refuser: NSObject, UIGestureRecognizerDelegate {
  func gestureRecognizerShouldBegin(_ gestureRecognizer: UIGestureRecognizer) -> Bool { false }
}

/// Recognizers on the to root's children "refuse" (its delegate refuses), "disabled" (isEnabled = false),
/// "removed" (added, then removed) and "switch" (disables itself on its first change), and on the to root a
/// screen-edge pan for the right and bottom edges (added first) and a pan whose first target–action pair was
/// removed. Each action writes "<name> <state>".
final class RecognizersInteraction: UIPercentDrivenInteractiveTransition {
  let refuser = Refuser()

  override func startInteractiveTransition(_ transitionContext: UIViewControllerContextTransitioning) {
    super.startInteractiveTransition(transitionContext)
    let container = transitionContext.containerView
    let root = transitionContext.view(forKey: .to)!
    func child(_ id: String) -> UIView { root.subviews.first { $0.accessibilityIdentifier == id }! }
    func pan(_ name: String) -> UIPanGestureRecognizer {
      UIPanGestureRecognizer(
        target: self, action: Selector(name) { target, sender in (target as! RecognizersInteraction).act(name, sender) }
      )
    }
    let edge = UIScreenEdgePanGestureRecognizer(
      target: self,
      action: Selector("edge") { target, sender in (target as! RecognizersInteraction).act("edge", sender) })
    edge.edges = [.right, .bottom]
    root.addGestureRecognizer(edge)
    let parent = pan("a")
    parent.addTarget(
      self, action: Selector("b") { target, sender in (target as! RecognizersInteraction).act("b", sender) })
    parent.removeTarget(self, action: Selector("a"))
    root.addGestureRecognizer(parent)
    let refusing = pan("refuse")
    refusing.delegate = refuser
    child("refuse").addGestureRecognizer(refusing)
    let disabled = pan("disabled")
    disabled.isEnabled = false
    child("disabled").addGestureRecognizer(disabled)
    let removed = pan("removed")
    child("removed").addGestureRecognizer(removed)
    child("removed").removeGestureRecognizer(removed)
    child("switch").addGestureRecognizer(pan("switch"))
    note(
      "to has \(root.gestureRecognizers?.count ?? 0), removed has \(child("removed").gestureRecognizers?.count ?? 0), "
        + "container has \(container.gestureRecognizers == nil ? "none" : "some")")
    note("hitTest \(container.hitTest(CGPoint(x: 50, y: 50), with: nil)?.accessibilityIdentifier ?? "nil")")
  }

  func act(_ name: String, _ sender: Any?) {
    let gesture = sender as! UIPanGestureRecognizer
    let state =
      switch gesture.state {
      case .began: "began"
      case .changed: "changed"
      case .ended: "ended"
      case .cancelled: "cancelled"
      default: "other"
      }
    let at = gesture.location(ofTouch: 0, in: nil)
    note("\(name) \(state) at \(describe(at)) on \(gesture.view?.accessibilityIdentifier ?? "nil")")
    if name == "switch", gesture.state == .changed { gesture.isEnabled = false }
  }
}

final class RecognizersDelegate: NSObject, UIViewControllerTransitioningDelegate {
  func animationController(
    forPresented presented: UIViewController, presenting: UIViewController, source: UIViewController
  ) -> UIViewControllerAnimatedTransitioning? { StillAnimator() }

  func interactionControllerForPresentation(
    using animator: UIViewControllerAnimatedTransitioning
  ) -> UIViewControllerInteractiveTransitioning? { RecognizersInteraction() }
}
