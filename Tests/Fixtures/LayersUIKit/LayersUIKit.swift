// TestPluginLayersUIKit: Core Animation layers written as UIKit code (LayerSDKTests).
//
// "page-turn" (1 s, linear): the page (the from view) turns about its left edge under the container's perspective
// (m34 = −1/500): anchor (0, 0.5), transform → rotation −π/2 about y, while a CAGradientLayer shadow sublayer
// (black α 0 → black α 0.5, horizontal) fades in (opacity 0 → 1, a CABasicAnimation: a layer's property does not
// follow a UIView block). The completion removes the shadow and restores the anchor, position and transform, then
// completes (the to view stays beneath).
// "card" (1 s, linear): the to view as a card: cornerRadius 0 → 16 in a UIView block; borderColor red → blue,
// shadowOpacity 0 → 0.4 and shadowPath UIBezierPath(roundedRect:cornerRadius:) 0 → 16 as CABasicAnimations (a UIView
// block does not animate them); a CAShapeLayer badge (an arc and lines of a CGMutablePath, dashed) and a UIView.mask
// of an oval. It notes what the SDK reads back.

import UIKit

@_cdecl("th_plugin_entry") public func entry(_ h: UnsafeRawPointer?) -> UnsafeRawPointer? {
  LayersUIKitPlugin.entry(h)
}

enum LayersUIKitPlugin: TransitionPlugin {
  static let id: StaticString = "com.example.test.layers.uikit"
  static let name: StaticString = "Layers (UIKit)"
  static let version: StaticString = "1.0.0"
  static let exports: [TransitionPluginExport] = [
    .animator(id: "page-turn", name: "Page turn", operations: [.push]) { PageTurnAnimator() },
    .animator(id: "card", name: "Card", operations: [.present]) { CardAnimator() },
  ]
}

private func note(_ message: String) { TransitionLog.info("note: \(message)") }

final class PageTurnAnimator: NSObject, UIViewControllerAnimatedTransitioning {
  func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 1 }

  func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
    let container = transitionContext.containerView
    guard let fromView = transitionContext.viewController(forKey: .from)?.view,
      let toView = transitionContext.viewController(forKey: .to)?.view
    else { return }
    container.insertSubview(toView, belowSubview: fromView)
    var perspective = CATransform3DIdentity
    perspective.m34 = -1.0 / 500
    container.layer.sublayerTransform = perspective

    let bounds = fromView.bounds
    fromView.layer.anchorPoint = CGPoint(x: 0, y: 0.5)
    fromView.layer.position = CGPoint(x: 0, y: bounds.height / 2)

    let shadow = CAGradientLayer()
    shadow.frame = bounds
    shadow.colors = [UIColor.black.withAlphaComponent(0).cgColor, UIColor.black.withAlphaComponent(0.5).cgColor]
    shadow.startPoint = CGPoint(x: 0, y: 0.5)
    shadow.endPoint = CGPoint(x: 1, y: 0.5)
    shadow.opacity = 0
    fromView.layer.addSublayer(shadow)
    note("sublayers \(fromView.layer.sublayers?.count ?? 0), gradient \(shadow.colors?.count ?? 0) colours")
    note("superlayer is the page \(shadow.superlayer === fromView.layer)")

    // The shadow is a layer, not a view, and new in this turn: a UIView block does not animate it (nor would its
    // implicit action, which a layer not yet on screen does not run), so its fade is a CABasicAnimation of the
    // block's duration and curve, with the model at the end value.
    let duration = transitionDuration(using: transitionContext)
    shadow.opacity = 1
    let fade = CABasicAnimation(keyPath: "opacity")
    fade.fromValue = 0.0
    fade.toValue = 1.0
    fade.duration = duration
    fade.timingFunction = CAMediaTimingFunction(name: .linear)
    shadow.add(fade, forKey: "fade")
    UIView.animate(
      withDuration: duration, delay: 0, options: .curveLinear,
      animations: { fromView.layer.transform = CATransform3DMakeRotation(-.pi / 2, 0, 1, 0) },
      completion: { _ in
        shadow.removeFromSuperlayer()
        fromView.layer.anchorPoint = CGPoint(x: 0.5, y: 0.5)
        fromView.layer.position = CGPoint(x: bounds.midX, y: bounds.midY)
        fromView.layer.transform = CATransform3DIdentity
        transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
      })
  }
}

final class CardAnimator: NSObject, UIViewControllerAnimatedTransitioning {
  func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 1 }

  func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
    let container = transitionContext.containerView
    guard let toView = transitionContext.view(forKey: .to) else { return }
    container.addSubview(toView)
    let bounds = toView.bounds
    let layer = toView.layer
    layer.borderWidth = 2
    layer.borderColor = UIColor.red.cgColor
    layer.shadowRadius = 10
    layer.shadowOffset = CGSize(width: 0, height: 4)
    layer.shadowPath = UIBezierPath(roundedRect: bounds, cornerRadius: 0).cgPath
    layer.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMinYCorner]
    note("shadow \(layer.shadowRadius) \(layer.shadowOffset) \(layer.shadowOpacity)")
    note("corners \(layer.maskedCorners.rawValue)")

    let badge = CAShapeLayer()
    badge.frame = CGRect(x: 20, y: 20, width: 60, height: 60)
    let path = CGMutablePath()
    path.addArc(center: CGPoint(x: 30, y: 30), radius: 20, startAngle: 0, endAngle: .pi, clockwise: true)
    path.addLine(to: CGPoint(x: 30, y: 30))
    path.closeSubpath()
    badge.path = path
    badge.fillColor = nil
    badge.strokeColor = UIColor.white.cgColor
    badge.lineWidth = 2
    badge.lineDashPattern = [4, 2]
    badge.fillRule = .evenOdd
    layer.addSublayer(badge)
    note("badge path \(badge.path?.isEmpty == false) dashes \(badge.lineDashPattern?.map(\.doubleValue) ?? [])")
    note("badge fill \(badge.fillColor == nil) rule \(badge.fillRule == .evenOdd)")

    let maskView = UIView(frame: bounds)
    let oval = CAShapeLayer()
    oval.path = UIBezierPath(ovalIn: bounds).cgPath
    maskView.layer.addSublayer(oval)
    toView.mask = maskView
    note("mask is the view \(toView.mask === maskView)")

    // A UIView block animates cornerRadius (iOS 11) but not borders or shadows: those are CABasicAnimations of the
    // same duration and curve, with the model set to the end values first (so nothing snaps back when they end).
    let startPath = layer.shadowPath
    layer.borderColor = UIColor.blue.cgColor
    layer.shadowOpacity = 0.4
    layer.shadowPath = UIBezierPath(roundedRect: bounds, cornerRadius: 16).cgPath
    let border = CABasicAnimation(keyPath: "borderColor")
    border.fromValue = UIColor.red.cgColor
    border.toValue = layer.borderColor
    let opacity = CABasicAnimation(keyPath: "shadowOpacity")
    opacity.fromValue = 0.0
    opacity.toValue = layer.shadowOpacity
    let shadowPath = CABasicAnimation(keyPath: "shadowPath")
    shadowPath.fromValue = startPath
    shadowPath.toValue = layer.shadowPath
    for animation in [border, opacity, shadowPath] {
      animation.duration = 1
      animation.timingFunction = CAMediaTimingFunction(name: .linear)
      layer.add(animation, forKey: animation.keyPath)
    }
    UIView.animate(
      withDuration: 1, delay: 0, options: .curveLinear,
      animations: { layer.cornerRadius = 16 },
      completion: { _ in transitionContext.completeTransition(!transitionContext.transitionWasCancelled) })
  }
}
