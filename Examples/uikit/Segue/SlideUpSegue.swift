import UIKit

/// The custom segue to the second screen: it comes up from below the first one and lands with a bounce, then is
/// presented without a second animation.
class SlideUpSegue: UIStoryboardSegue {
  override func perform() {
    let firstView = source.view!
    let secondView = destination.view!
    let screenSize = UIScreen.main.bounds.size

    secondView.frame = CGRect(x: 0, y: screenSize.height, width: screenSize.width, height: screenSize.height)
    let window = UIApplication.shared.keyWindow
    window?.insertSubview(secondView, aboveSubview: firstView)

    UIView.animate(
      withDuration: 0.5, delay: 0, usingSpringWithDamping: 0.5, initialSpringVelocity: 0, options: .curveLinear,
      animations: {
        secondView.frame = secondView.frame.offsetBy(dx: 0, dy: -screenSize.height)
      },
      completion: { _ in
        self.source.present(self.destination, animated: false, completion: nil)
      })
  }
}
