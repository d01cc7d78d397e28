import UIKit

/// The unwind back to the first screen: the second one drops down and away, uncovering it, then is dismissed
/// without a second animation.
class SlideDownUnwindSegue: UIStoryboardSegue {
  override func perform() {
    let secondView = source.view!
    let firstView = destination.view!
    let screenHeight = UIScreen.main.bounds.size.height

    firstView.frame = secondView.frame
    let window = UIApplication.shared.keyWindow
    window?.addSubview(firstView)
    window?.addSubview(secondView)

    UIView.animate(
      withDuration: 0.5, delay: 0, usingSpringWithDamping: 0.5, initialSpringVelocity: 0, options: .curveLinear,
      animations: {
        secondView.frame = secondView.frame.offsetBy(dx: 0, dy: screenHeight)
      },
      completion: { _ in
        self.source.dismiss(animated: false, completion: nil)
      })
  }
}
