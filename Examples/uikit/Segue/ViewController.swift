import UIKit

/// The first screen: swiping up brings the second screen in with the custom slide-up segue.
class ViewController: UIViewController {
  override func viewDidLoad() {
    super.viewDidLoad()
    let swipeUp = UISwipeGestureRecognizer(target: self, action: #selector(showSecondViewController(_:)))
    swipeUp.direction = .up
    view.addGestureRecognizer(swipeUp)
  }

  @objc func showSecondViewController(_ gesture: UISwipeGestureRecognizer) {
    if gesture.state == .recognized {
      performSegue(withIdentifier: "firstSegue", sender: self)
    }
  }

  override func prepare(for segue: UIStoryboardSegue, sender: Any?) {
    if let second = segue.destination as? SecondViewController {
      second.arrivedBySwipe = sender is ViewController
    }
  }
}
