import UIKit

/// The presented screen: an upward pan rolls it back up, interactively, by the mirror of the first screen's rule.
class SecondViewController: UIViewController {
  var interactionController: UIPercentDrivenInteractiveTransition?

  override func viewDidLoad() {
    super.viewDidLoad()
    let pan = UIPanGestureRecognizer(target: self, action: #selector(handlePan(_:)))
    view.addGestureRecognizer(pan)
  }

  @objc func handlePan(_ gesture: UIPanGestureRecognizer) {
    let translate = gesture.translation(in: gesture.view)
    let percent = -translate.y / gesture.view!.bounds.size.height

    switch gesture.state {
    case .began:
      // Only a pan within π/8 of straight up dismisses.
      let angle = atan2(translate.y, translate.x)
      guard abs(angle + .pi / 2) < .pi / 8 else { return }
      interactionController = UIPercentDrivenInteractiveTransition()
      (transitioningDelegate as? TransitioningDelegate)?.interactionController = interactionController
      dismiss(animated: true)
    case .changed:
      interactionController?.update(percent)
    case .ended, .cancelled:
      let velocity = gesture.velocity(in: gesture.view)
      interactionController?.completionSpeed = 0.999
      if (percent > 0.5 && velocity.y == 0) || velocity.y < 0 {
        interactionController?.finish()
      } else {
        interactionController?.cancel()
      }
      interactionController = nil
    default:
      break
    }
  }
}
