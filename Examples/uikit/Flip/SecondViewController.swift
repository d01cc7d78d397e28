import UIKit

/// The second screen: a pan in from the left edge turns the first screen's page back over it.
class SecondViewController: UIViewController {
  override func viewDidLoad() {
    super.viewDidLoad()
    let edgePan = UIScreenEdgePanGestureRecognizer(target: self, action: #selector(edgePanGesture(_:)))
    edgePan.edges = .left
    view.addGestureRecognizer(edgePan)
  }

  @objc func edgePanGesture(_ edgePan: UIScreenEdgePanGestureRecognizer) {
    let progress = abs(edgePan.translation(in: view).x) / view.bounds.size.width
    let flipDelegate = transitioningDelegate as? FlipDelegate

    switch edgePan.state {
    case .began:
      flipDelegate?.interactionController = UIPercentDrivenInteractiveTransition()
      dismiss(animated: true, completion: nil)
    case .changed:
      flipDelegate?.interactionController?.update(progress)
    case .ended, .cancelled:
      if progress > 0.5 {
        flipDelegate?.interactionController?.finish()
      } else {
        flipDelegate?.interactionController?.cancel()
      }
      flipDelegate?.interactionController = nil
    default:
      break
    }
  }
}
