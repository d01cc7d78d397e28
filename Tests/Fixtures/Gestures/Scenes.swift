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
