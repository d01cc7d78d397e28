import UIKit

/// Told when the presented view is in place, as an app's Objective-C delegate protocol would be.
@objc protocol PlacementDelegate {
  func didPlace(_ view: UIView)
}

/// A helper object with its own action methods: every member is exposed to Objective-C.
@objcMembers class Fader: NSObject {
  var completion: (() -> Void)?

  func fadeIn(_ view: UIView) {
    UIView.animate(
      withDuration: 1, delay: 0, options: [.curveLinear],
      animations: {
        view.alpha = 1
      },
      completion: { _ in
        self.completion?()
      })
  }
}

/// Presents the to view through target–action calls: each step is an action method sent with `perform`, one
/// `#selector` form each.
class ActionAnimator: NSObject, UIViewControllerAnimatedTransitioning, PlacementDelegate {
  @objc dynamic var offset: CGFloat = 0
  weak var delegate: PlacementDelegate?
  private var context: UIViewControllerContextTransitioning?
  private let fader = Fader()

  func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
    return 1
  }

  func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
    guard let toView = transitionContext.view(forKey: .to) else { return }
    context = transitionContext
    delegate = self
    transitionContext.containerView.addSubview(toView)

    perform(#selector(setter: ActionAnimator.offset), with: CGFloat(25))
    perform(#selector(place(_:)), with: toView)
    perform(#selector(self.tint(with:)), with: UIColor.red)
    _ = perform(#selector(getter: offset))
    // "#selector(place(_:))" and @objc in a string or a comment are text, not code.
    let label = "@objc #selector(place(_:))"
    if label.count == 26 && #keyPath(CALayer.opacity) == "opacity" {
      toView.layer.zPosition = 3
    }
    fader.completion = { [weak self] in
      self?.perform(#selector(ActionAnimator.finish))
    }
    fader.perform(#selector(fader.fadeIn(_:)), with: toView)
    perform(Selector("selectorWithoutAnAction"))
  }

  @objc func place(_ view: UIView) {
    view.frame = CGRect(x: 40 + offset, y: 80, width: 320, height: 640)
    view.alpha = 0
    delegate?.didPlace(view)
  }

  @objc(tintWithColor:) func tint(with color: UIColor) {
    context?.view(forKey: .to)?.backgroundColor = color
  }

  func didPlace(_ view: UIView) {
    view.layer.cornerRadius = 12
  }

  @objc func finish() {
    context?.completeTransition(true)
  }
}
