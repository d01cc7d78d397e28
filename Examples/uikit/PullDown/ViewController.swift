import UIKit

/// The first screen: a downward pan pulls the second screen down over it, interactively. The finger's share of the
/// screen's height is the transition's progress; letting go finishes it when the finger still moves down, or when it
/// rests past half way, and cancels it otherwise.
class ViewController: UIViewController {
  let transitionDelegate = TransitioningDelegate()
  var interactionController: UIPercentDrivenInteractiveTransition?

  override func viewDidLoad() {
    super.viewDidLoad()
    let pan = UIPanGestureRecognizer(target: self, action: #selector(handlePan(_:)))
    view.addGestureRecognizer(pan)
  }

  @objc func handlePan(_ gesture: UIPanGestureRecognizer) {
    let translate = gesture.translation(in: gesture.view)
    let percent = translate.y / gesture.view!.bounds.size.height

    switch gesture.state {
    case .began:
      // Only a pan within π/8 of straight down presents.
      let angle = atan2(translate.y, translate.x)
      guard abs(angle - .pi / 2) < .pi / 8 else { return }
      interactionController = UIPercentDrivenInteractiveTransition()
      transitionDelegate.interactionController = interactionController
      let controller = storyboard!.instantiateViewController(withIdentifier: "SecondViewController")
      controller.transitioningDelegate = transitionDelegate
      controller.modalPresentationStyle = .custom
      show(controller, sender: self)
    case .changed:
      interactionController?.update(percent)
    case .ended, .cancelled:
      let velocity = gesture.velocity(in: gesture.view)
      interactionController?.completionSpeed = 0.999
      if (percent > 0.5 && velocity.y == 0) || velocity.y > 0 {
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
