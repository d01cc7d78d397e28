import UIKit

/// The second screen: swiping down sends it back to the first one with the slide-down unwind segue.
class SecondViewController: UIViewController {
  var arrivedBySwipe = false

  override func viewDidLoad() {
    super.viewDidLoad()
    let swipeDown = UISwipeGestureRecognizer(target: self, action: #selector(returnToFirstViewController(_:)))
    swipeDown.direction = .down
    view.addGestureRecognizer(swipeDown)
  }

  @objc func returnToFirstViewController(_ gesture: UISwipeGestureRecognizer) {
    if gesture.state == .recognized {
      performSegue(withIdentifier: "firstUnwind", sender: self)
    }
  }
}
