// The scene side of TestPluginGestures (export "scene"): an app's own view controllers whose pan handler, by where
// the pan begins, exercises what UIKit code does with them — an unknown storyboard identifier, a presentation
// without a transitioning delegate, a full-screen one (no presentation controller is asked) with a completion, and
// a non-interactive custom one. Each step is written to the host's log ("note: …") for
// Tests/EndToEndTests/SceneTests.swift.

import UIKit

private func note(_ message: String) { TransitionLog.info("note: \(message)") }

/// The scene's root controller: `view` is the root tree; its pan's x decides what the handler does.
final class SceneRoot: UIViewController {
  let delegate = PlainPullDelegate()

  override func viewDidLoad() {
    super.viewDidLoad()
    note("viewDidLoad root \(view.accessibilityIdentifier ?? "nil") loaded \(isViewLoaded)")
    view.addGestureRecognizer(
      UIPanGestureRecognizer(
        target: self,
        action: Selector("handlePan(_:)") { target, sender in
          (target as! SceneRoot).handlePan(sender as! UIPanGestureRecognizer)
        }))
  }

  func handlePan(_ pan: UIPanGestureRecognizer) {
    guard pan.state == .began else { return }
    let x = pan.location(in: view).x
    if x < 100 {
      let missing = storyboard!.instantiateViewController(withIdentifier: "Nope")
      note("unknown identifier gives \(type(of: missing)) view \(missing.view == nil ? "nil" : "set")")
    } else if x < 200 {
      let modal = storyboard!.instantiateViewController(withIdentifier: "Modal")
      present(modal, animated: true)
      note("no delegate presented \(presentedViewController != nil)")
    } else if x < 300 {
      let modal = storyboard!.instantiateViewController(withIdentifier: "Modal")
      modal.transitioningDelegate = delegate
      modal.modalPresentationStyle = .fullScreen
      present(modal, animated: true) { [weak self] in
        note("completion presented \(self?.presentedViewController === modal)")
      }
    } else {
      let modal = storyboard!.instantiateViewController(withIdentifier: "Modal")
      modal.transitioningDelegate = delegate
      modal.modalPresentationStyle = .custom
      show(modal, sender: self)
    }
  }
}

/// The presented controller (storyboard identifier "Modal").
final class SceneModal: UIViewController {
  override func viewDidLoad() {
    super.viewDidLoad()
    note("viewDidLoad modal \(view.accessibilityIdentifier ?? "nil")")
  }
}

/// The pull-down without an interaction controller, with a presentation controller that removes the presenter's view
/// (asked only for `.custom`).
final class PlainPullDelegate: NSObject, UIViewControllerTransitioningDelegate {
  func animationController(
    forPresented presented: UIViewController, presenting: UIViewController, source: UIViewController
  ) -> UIViewControllerAnimatedTransitioning? { PullAnimator(presenting: true) }

  func animationController(forDismissed dismissed: UIViewController) -> UIViewControllerAnimatedTransitioning? {
    PullAnimator(presenting: false)
  }

  func presentationController(
    forPresented presented: UIViewController, presenting: UIViewController?, source: UIViewController
  ) -> UIPresentationController? {
    note("presentationController asked")
    return RemovingPresentationController(presentedViewController: presented, presenting: presenting)
  }
}

final class RemovingPresentationController: UIPresentationController {
  override var shouldRemovePresentersView: Bool { true }
}

// MARK: - A navigation stack (export "stack"): push by a leftward pan through a show segue, pop by a left-edge pan

/// The stack's animator: the pushed view slides in from the right edge, the popped one out to it, linearly over
/// 0.5 s (so a scrubbed frame is x = width · (1 − percent) while pushing, width · percent while popping).
final class StackSlideAnimator: NSObject, UIViewControllerAnimatedTransitioning {
  let operation: UINavigationController.Operation
  init(_ operation: UINavigationController.Operation) {
    self.operation = operation
    super.init()
  }

  func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 0.5 }

  func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
    let container = transitionContext.containerView
    guard let toView = transitionContext.view(forKey: .to), let fromView = transitionContext.view(forKey: .from) else {
      transitionContext.completeTransition(false)
      return
    }
    let offscreen = container.bounds.offsetBy(dx: container.bounds.width, dy: 0)
    toView.frame = operation == .push ? offscreen : container.bounds
    if operation == .push {
      container.addSubview(toView)
    } else {
      container.insertSubview(toView, belowSubview: fromView)
    }
    UIView.animate(
      withDuration: 0.5, delay: 0, options: .curveLinear,
      animations: {
        if self.operation == .push { toView.frame = container.bounds } else { fromView.frame = offscreen }
      },
      completion: { _ in transitionContext.completeTransition(!transitionContext.transitionWasCancelled) })
  }
}

/// The navigation controller's delegate (set by the root controller): the slide both ways, interactive while a
/// controller's pan holds an interaction controller.
final class StackDelegate: NSObject, UINavigationControllerDelegate {
  weak var interactionController: UIPercentDrivenInteractiveTransition?

  func navigationController(
    _ navigationController: UINavigationController, animationControllerFor operation: UINavigationController.Operation,
    from fromVC: UIViewController, to toVC: UIViewController
  ) -> UIViewControllerAnimatedTransitioning? {
    note("animationControllerFor \(operation == .push ? "push" : "pop")")
    return StackSlideAnimator(operation)
  }

  func navigationController(
    _ navigationController: UINavigationController,
    interactionControllerFor animationController: UIViewControllerAnimatedTransitioning
  ) -> UIViewControllerInteractiveTransitioning? { interactionController }
}

/// Writes a controller's life-cycle calls and the stack as they happen.
class StackScreen: UIViewController {
  var screen: String { "" }
  var stack: String {
    let names = navigationController?.viewControllers.map { ($0 as? StackScreen)?.screen ?? "?" } ?? []
    return
      "[\(names.joined(separator: ", "))] top \((navigationController?.topViewController as? StackScreen)?.screen ?? "nil")"
  }
  override func viewWillAppear(_ animated: Bool) { note("\(screen) viewWillAppear \(animated)") }
  override func viewDidAppear(_ animated: Bool) { note("\(screen) viewDidAppear \(animated) \(stack)") }
  override func viewWillDisappear(_ animated: Bool) { note("\(screen) viewWillDisappear \(animated)") }
  override func viewDidDisappear(_ animated: Bool) { note("\(screen) viewDidDisappear \(animated) \(stack)") }

  /// percent = |translation.x| / width; past half finishes, otherwise cancels.
  func drive(_ pan: UIPanGestureRecognizer, _ interaction: UIPercentDrivenInteractiveTransition?) {
    let percent = abs(pan.translation(in: view).x) / view.bounds.width
    switch pan.state {
    case .changed: interaction?.update(percent)
    case .ended, .cancelled: if percent > 0.5 { interaction?.finish() } else { interaction?.cancel() }
    default: break
    }
  }
}

/// The stack's root: a pan that begins at x < 100 performs an unknown segue, one at 100 ≤ x < 200 runs an appearance
/// transition by hand (begin/end, then an unbalanced end); any other pushes "Detail" through the show segue
/// "showDetail", interactively.
final class StackRoot: StackScreen {
  let navigationDelegate = StackDelegate()
  var interaction: UIPercentDrivenInteractiveTransition?
  override var screen: String { "root" }

  override func viewDidLoad() {
    super.viewDidLoad()
    note("root viewDidLoad navigationController \(navigationController != nil) \(stack)")
    navigationController?.delegate = navigationDelegate
    view.addGestureRecognizer(
      UIPanGestureRecognizer(
        target: self,
        action: Selector("handlePan(_:)") { target, sender in
          (target as! StackRoot).handlePan(sender as! UIPanGestureRecognizer)
        }))
  }

  func handlePan(_ pan: UIPanGestureRecognizer) {
    guard pan.state == .began else { return drive(pan, interaction) }
    if pan.location(in: view).x < 100 {
      performSegue(withIdentifier: "noSuchSegue", sender: self)
      return
    }
    if pan.location(in: view).x < 200 {
      beginAppearanceTransition(false, animated: true)
      endAppearanceTransition()
      beginAppearanceTransition(true, animated: false)
      endAppearanceTransition()
      endAppearanceTransition()
      return
    }
    interaction = UIPercentDrivenInteractiveTransition()
    navigationDelegate.interactionController = interaction
    performSegue(withIdentifier: "showDetail", sender: self)
  }

  override func prepare(for segue: UIStoryboardSegue, sender: Any?) {
    note(
      "prepare \(segue.identifier ?? "nil") to \((segue.destination as? StackScreen)?.screen ?? "?") sender \(sender is StackRoot)"
    )
  }
}

/// The pushed screen: a left-edge pan pops it, interactively.
final class StackDetail: StackScreen {
  var interaction: UIPercentDrivenInteractiveTransition?
  override var screen: String { "detail" }

  override func viewDidLoad() {
    super.viewDidLoad()
    note("detail viewDidLoad navigationController \(navigationController != nil)")
    let edge = UIScreenEdgePanGestureRecognizer(
      target: self,
      action: Selector("handleEdge(_:)") { target, sender in
        (target as! StackDetail).handleEdge(sender as! UIScreenEdgePanGestureRecognizer)
      })
    edge.edges = .left
    view.addGestureRecognizer(edge)
  }

  func handleEdge(_ pan: UIScreenEdgePanGestureRecognizer) {
    guard pan.state == .began else { return drive(pan, interaction) }
    interaction = UIPercentDrivenInteractiveTransition()
    (navigationController?.delegate as? StackDelegate)?.interactionController = interaction
    let popped = navigationController?.popViewController(animated: true)
    note("popped \((popped as? StackScreen)?.screen ?? "nil") \(stack)")
  }
}
