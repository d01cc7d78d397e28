import UIKit

/// The first screen: a pan in from the right edge turns it away like a book's page, as far as the finger has
/// travelled across the screen; past half way the page turns over, otherwise it falls back.
class FirstViewController: UIViewController {
  let flipDelegate = FlipDelegate()

  override func viewDidLoad() {
    super.viewDidLoad()
    let edgePan = UIScreenEdgePanGestureRecognizer(target: self, action: #selector(edgePanGesture(_:)))
    edgePan.edges = .right
    view.addGestureRecognizer(edgePan)
  }

  @objc func edgePanGesture(_ edgePan: UIScreenEdgePanGestureRecognizer) {
    let progress = abs(edgePan.translation(in: view).x) / view.bounds.size.width

    switch edgePan.state {
    case .began:
      flipDelegate.interactionController = UIPercentDrivenInteractiveTransition()
      performSegue(withIdentifier: "present", sender: self)
    case .changed:
      flipDelegate.interactionController?.update(progress)
    case .ended, .cancelled:
      if progress > 0.5 {
        flipDelegate.interactionController?.finish()
      } else {
        flipDelegate.interactionController?.cancel()
      }
      flipDelegate.interactionController = nil
    default:
      break
    }
  }

  override func prepare(for segue: UIStoryboardSegue, sender: Any?) {
    if let second = segue.destination as? SecondViewController {
      second.transitioningDelegate = flipDelegate
      second.modalPresentationStyle = .custom
    }
  }
}
