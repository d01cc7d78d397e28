// TestPluginSwiftSDK: one animator per part of the TransitionKit SDK that the built-in Swift animators leave out —
// keyframes and their calculation modes, custom drivers, gradient views, 3-D transforms and anchor points,
// performWithoutAnimation inside animations blocks, the bounce spring, CASpringAnimation- and
// UISpringTimingParameters-style springs, coordinate conversion, snapshots, parameters
// of every type and alongside animations. The numbers are chosen so that Tests/AnimatorTests/SDKSurfaceTests.swift
// can work out every sampled value by hand. Notes for the tests go to the host's log with TransitionLog.info.

import TransitionKit

@_cdecl("th_plugin_entry") public func entry(_ h: UnsafeRawPointer?) -> UnsafeRawPointer? { SwiftSDKPlugin.entry(h) }

/// The plugin: one animator per SDK feature.
enum SwiftSDKPlugin: TransitionPlugin {
  static let id: StaticString = "com.example.test.swiftsdk"
  static let name: StaticString = "TransitionKit surface"
  static let version: StaticString = "1.0.0"
  static let vendor: StaticString? = "transition-host tests"
  static var animators: [any TransitionAnimator.Type] {
    [
      KeyframesAnimator.self, DriverAnimator.self, GradientAnimator.self, GradientMismatchAnimator.self,
      TransformAnimator.self,
      WithoutAnimationAnimator.self, BounceAnimator.self, SpringParametersAnimator.self, ConvertAnimator.self,
      SnapshotAnimator.self,
      ParametersAnimator.self, AlongsideAnimator.self, MisbehavingAnimator.self,
    ]
  }
}

// MARK: - Shared steps

/// Puts the to view at its final frame on top of the container (every animator here presents) and returns the
/// container.
@discardableResult
private func addToView(_ context: any UIViewControllerContextTransitioning) -> UIView {
  let container = context.containerView
  if let toVC = context.viewController(forKey: .to), let toView = context.view(forKey: .to) {
    toView.frame = context.finalFrame(for: toVC)
    container.addSubview(toView)
  }
  return container
}

/// A completion that completes the transition unless it was cancelled.
private func complete(_ context: any UIViewControllerContextTransitioning) -> (Bool) -> Void {
  { _ in context.completeTransition(!context.transitionWasCancelled) }
}

/// A completion shared by `count` blocks: the last of them to end completes the transition unless it was cancelled.
private func complete(_ context: any UIViewControllerContextTransitioning, after count: Int) -> (Bool) -> Void {
  var running = count
  return { _ in
    running -= 1
    if running == 0 { context.completeTransition(!context.transitionWasCancelled) }
  }
}

/// A 20 × 20 view "dot" centred at (100, 400), on top of the container.
private func addDot(_ container: UIView) -> UIView {
  let dot = UIView(frame: CGRect(x: 90, y: 390, width: 20, height: 20), id: "dot")
  container.addSubview(dot)
  return dot
}

// MARK: - Keyframes

/// Four keyframes of a quarter each on the dot: its centre (100, 400) → (400, 400) → (400, 500) → (200, 500) →
/// (200, 600) (legs of 300, 100, 200 and 100 points) and its alpha 0.2 → 0.4 → 0.6 → 0.8 → 1, over 1.2 s, in the
/// calculation mode `mode`; `.curveLinear` is cast into the options unless `linearTimeline` is false.
final class KeyframesAnimator: TransitionAnimator {
  static let id: StaticString = "keyframes"
  static let name: StaticString = "Keyframes"

  enum Mode: String, CaseIterable, Sendable {
    case linear, discrete, cubic, paced, cubicPaced
  }

  static let mode = TransitionParameter.enumeration("mode", default: Mode.linear, doc: "The calculation mode.")
  static let linearTimeline = TransitionParameter.bool(
    "linearTimeline", default: true, doc: "Cast .curveLinear into the options (else easeInOut shapes the timeline).")
  static let parameters: [AnyTransitionParameter] = [mode, linearTimeline]

  func transitionDuration(using transitionContext: (any UIViewControllerContextTransitioning)?) -> TimeInterval { 1.2 }

  func animateTransition(using transitionContext: any UIViewControllerContextTransitioning) {
    let dot = addDot(addToView(transitionContext))
    dot.alpha = 0.2
    var options: UIView.KeyframeAnimationOptions =
      switch transitionContext[Self.mode] {
      case .linear: .calculationModeLinear
      case .discrete: .calculationModeDiscrete
      case .cubic: .calculationModeCubic
      case .paced: .calculationModePaced
      case .cubicPaced: .calculationModeCubicPaced
      }
    if transitionContext[Self.linearTimeline] { options.insert(.curveLinear) }
    let stops: [(CGPoint, CGFloat)] = [
      (CGPoint(x: 400, y: 400), 0.4), (CGPoint(x: 400, y: 500), 0.6), (CGPoint(x: 200, y: 500), 0.8),
      (CGPoint(x: 200, y: 600), 1),
    ]
    UIView.animateKeyframes(
      withDuration: 1.2, delay: 0, options: options,
      animations: {
        for (index, stop) in stops.enumerated() {
          UIView.addKeyframe(withRelativeStartTime: Double(index) * 0.25, relativeDuration: 0.25) {
            dot.center = stop.0
            dot.alpha = stop.1
          }
        }
      }, completion: complete(transitionContext))
  }
}

// MARK: - Custom drivers

/// Two drivers: after a 0.2 s delay, 0.8 s of dot.center = (100 + 200f, 400 + 100f²), dot.alpha = 1 − f/2 and
/// dot.layer.cornerRadius = 10·time (f the driver's fraction, time its own seconds); and from 0, 0.5 s of the to
/// view's alpha = f (the convenience form). The first one's completion completes the transition.
final class DriverAnimator: TransitionAnimator {
  static let id: StaticString = "driver"
  static let name: StaticString = "Custom drivers"

  func transitionDuration(using transitionContext: (any UIViewControllerContextTransitioning)?) -> TimeInterval { 1.0 }

  func animateTransition(using transitionContext: any UIViewControllerContextTransitioning) {
    let container = addToView(transitionContext)
    guard let toView = transitionContext.view(forKey: .to) else { return transitionContext.completeTransition(false) }
    toView.alpha = 0
    let dot = addDot(container)
    let first = transitionContext.addDriver(
      duration: 0.8, delay: 0.2,
      update: { time, fraction in
        dot.center = CGPoint(x: 100 + 200 * fraction, y: 400 + 100 * fraction * fraction)
        dot.alpha = 1 - fraction / 2
        dot.layer.cornerRadius = 10 * time
      },
      completion: { finished in
        TransitionLog.info("driver finished \(finished)")
        transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
      })
    let second = transitionContext.addDriver(duration: 0.5) { _, fraction in toView.alpha = fraction }
    TransitionLog.info("drivers added \(first) \(second)")
  }
}

// MARK: - Gradients

/// Gradient views over 1 s, linear: "shade" (black → clear, locations 0 and 1, vertical, then its end point set to
/// (1, 1) at once) animates to red → blue, locations 0.25 and 0.75, start point (0, 0) through the GradientView
/// setters; "bands" (red, green, blue, evenly spaced, horizontal) becomes a two-colour gradient (white → black)
/// through `layer.gradient`. A plain view reads no gradient.
final class GradientAnimator: TransitionAnimator {
  static let id: StaticString = "gradient"
  static let name: StaticString = "Gradient views"

  func transitionDuration(using transitionContext: (any UIViewControllerContextTransitioning)?) -> TimeInterval { 1.0 }

  func animateTransition(using transitionContext: any UIViewControllerContextTransitioning) {
    let container = addToView(transitionContext)
    let shade = GradientView(
      frame: CGRect(x: 0, y: 600, width: 400, height: 200), id: "shade",
      gradient: Gradient(colors: [.black, .clear], locations: [0, 1]))
    shade.endPoint = CGPoint(x: 1, y: 1)
    container.addSubview(shade)
    let bands = GradientView(
      frame: CGRect(x: 0, y: 0, width: 400, height: 100), id: "bands",
      gradient: Gradient(
        colors: [.red, .green, .blue], startPoint: CGPoint(x: 0, y: 0.5), endPoint: CGPoint(x: 1, y: 0.5))
    )
    container.addSubview(bands)
    let plain = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10), id: "plain")
    TransitionLog.info("plain gradient \(plain.layer.gradient == nil ? "none" : "set")")
    UIView.animate(
      withDuration: 1.0, delay: 0, options: .curveLinear,
      animations: {
        shade.colors = [.red, .blue]
        shade.locations = [0.25, 0.75]
        shade.startPoint = CGPoint(x: 0, y: 0)
        bands.layer.gradient = Gradient(
          colors: [.white, .black], startPoint: CGPoint(x: 0, y: 0.5), endPoint: CGPoint(x: 1, y: 0.5))
      },
      completion: { _ in
        // What the setters left in the model, read back through the host.
        let colors = shade.colors.map { "\($0.red) \($0.green) \($0.blue) \($0.alpha)" }.joined(separator: ", ")
        TransitionLog.info("shade colors \(colors)")
        TransitionLog.info("shade locations \(shade.locations ?? []) start \(shade.startPoint) end \(shade.endPoint)")
        TransitionLog.info("bands colors \(bands.colors.count) locations \(bands.locations == nil ? "even" : "set")")
        transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
      })
  }
}

/// Gradients whose locations do not match their colours, which the SDK refuses before the host sees them: "odd"
/// (black → clear at locations 0 and 1) is given three colours through `colors` (the two locations stay), then one
/// colour with three locations through `layer.gradient`. Both leave the gradient as it was.
final class GradientMismatchAnimator: TransitionAnimator {
  static let id: StaticString = "gradient-mismatch"
  static let name: StaticString = "Mismatched gradient locations"

  func transitionDuration(using transitionContext: (any UIViewControllerContextTransitioning)?) -> TimeInterval { 0 }

  func animateTransition(using transitionContext: any UIViewControllerContextTransitioning) {
    let container = addToView(transitionContext)
    let odd = GradientView(
      frame: CGRect(x: 0, y: 0, width: 400, height: 100), id: "odd",
      gradient: Gradient(colors: [.black, .clear], locations: [0, 1]))
    container.addSubview(odd)
    odd.colors = [.red, .green, .blue]
    odd.layer.gradient = Gradient(colors: [.white], locations: [0, 0.5, 1])
    transitionContext.completeTransition(true)
  }
}

// MARK: - 3-D transforms and anchor points

/// Under a perspective of 500 points on the container (sublayerTransform.m34 = −1/500), over 1 s, linear:
/// "card" (frame (100, 200, 200, 300)) gets anchor point (0, 0.5), then its position is moved back to the left edge
/// (100, 350), and it turns to CATransform3DTranslate(CATransform3DRotate(identity, −π/3, 0, 1, 0), 40, 0, 0);
/// "tile" (frame (0, 0, 100, 100)) animates its anchor point to (1, 1) and its transform to
/// CATransform3DConcat(scale (0.5, 0.5, 1), translation (20, 30, 0)).
final class TransformAnimator: TransitionAnimator {
  static let id: StaticString = "transform3d"
  static let name: StaticString = "3-D transforms"

  func transitionDuration(using transitionContext: (any UIViewControllerContextTransitioning)?) -> TimeInterval { 1.0 }

  func animateTransition(using transitionContext: any UIViewControllerContextTransitioning) {
    let container = addToView(transitionContext)
    var perspective = CATransform3DIdentity
    perspective.m34 = -1.0 / 500
    container.layer.sublayerTransform = perspective
    let card = UIView(frame: CGRect(x: 100, y: 200, width: 200, height: 300), id: "card")
    container.addSubview(card)
    card.layer.anchorPoint = CGPoint(x: 0, y: 0.5)
    // The position stayed at the old centre, so the frame moved right by half its width.
    let moved = card.frame
    TransitionLog.info("card frame after anchor \(moved.origin.x) \(moved.origin.y) \(moved.width) \(moved.height)")
    card.layer.position = CGPoint(x: 100, y: 350)
    let tile = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 100), id: "tile")
    container.addSubview(tile)
    let turn = CATransform3DTranslate(CATransform3DRotate(CATransform3DIdentity, -.pi / 3, 0, 1, 0), 40, 0, 0)
    let shrink = CATransform3DConcat(CATransform3DMakeScale(0.5, 0.5, 1), CATransform3DMakeTranslation(20, 30, 0))
    UIView.animate(
      withDuration: 1.0, delay: 0, options: .curveLinear,
      animations: {
        card.layer.transform = turn
        tile.layer.anchorPoint = CGPoint(x: 1, y: 1)
        tile.layer.transform = shrink
      }, completion: complete(transitionContext))
  }
}

// MARK: - performWithoutAnimation inside blocks

/// Over 1 s, linear: the dot's centre moves to (300, 400) while a performWithoutAnimation inside the same block sets
/// its alpha to 0.5 and corner radius to 8 at once; a keyframe block (also linear) sets its background colour at
/// once (performWithoutAnimation directly in the keyframes function) and grows its bounds to 40 × 40 in a keyframe
/// over the first half, inside which another performWithoutAnimation sets zPosition 5 at once. Outside any block,
/// performWithoutAnimation just runs its closure (zPosition 3, replaced by 5).
final class WithoutAnimationAnimator: TransitionAnimator {
  static let id: StaticString = "without-animation"
  static let name: StaticString = "performWithoutAnimation"

  func transitionDuration(using transitionContext: (any UIViewControllerContextTransitioning)?) -> TimeInterval { 1.0 }

  func animateTransition(using transitionContext: any UIViewControllerContextTransitioning) {
    let dot = addDot(addToView(transitionContext))
    UIView.performWithoutAnimation { dot.layer.zPosition = 3 }
    UIView.animate(
      withDuration: 1.0, delay: 0, options: .curveLinear,
      animations: {
        dot.center = CGPoint(x: 300, y: 400)
        UIView.performWithoutAnimation {
          dot.alpha = 0.5
          dot.layer.cornerRadius = 8
        }
      })
    UIView.animateKeyframes(
      withDuration: 1.0, delay: 0, options: .curveLinear,
      animations: {
        UIView.performWithoutAnimation { dot.backgroundColor = .red }
        UIView.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.5) {
          dot.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
          UIView.performWithoutAnimation { dot.layer.zPosition = 5 }
        }
      }, completion: complete(transitionContext))
  }
}

// MARK: - The bounce spring

/// Three iOS 17 springs on the dot: centre.x 100 → 300 with springDuration 0.6, bounce 0.3; cornerRadius 0 → 10 with
/// springDuration 0.8, bounce −0.4 (overdamped), initialSpringVelocity 1; alpha 1 → 0.2 with the defaults but the
/// duration (0.5 s, bounce 0). The last completion completes the transition.
final class BounceAnimator: TransitionAnimator {
  static let id: StaticString = "bounce"
  static let name: StaticString = "Bounce springs"

  func transitionDuration(using transitionContext: (any UIViewControllerContextTransitioning)?) -> TimeInterval { 0.8 }

  func animateTransition(using transitionContext: any UIViewControllerContextTransitioning) {
    let dot = addDot(addToView(transitionContext))
    let done = complete(transitionContext, after: 3)
    UIView.animate(
      springDuration: 0.6, bounce: 0.3, animations: { dot.center = CGPoint(x: 300, y: 400) }, completion: done)
    UIView.animate(
      springDuration: 0.8, bounce: -0.4, initialSpringVelocity: 1, animations: { dot.layer.cornerRadius = 10 },
      completion: done)
    UIView.animate(springDuration: 0.5, animations: { dot.alpha = 0.2 }, completion: done)
  }
}

// MARK: - CASpringAnimation- and UISpringTimingParameters-style springs

/// Seven springs made with the SDK's Core Animation and UIKit spellings, on two dots ("dot" at (100, 400) and "dot2"
/// at (100, 500)); the last completion completes the transition (transitionDuration 0.5):
/// - dot.center.x 100 → 300: `AnimationTiming(mass: 3, stiffness: 1000, damping: 500)` (clamped to critical);
/// - dot.layer.cornerRadius 0 → 10: the same with `allowsOverdamping: true`;
/// - dot.alpha 1 → 0.2: `UISpringTimingParameters(duration: 0.5, bounce: -0.3, initialVelocity: (1, 0))`;
/// - dot.layer.zPosition 0 → 1: `UISpringTimingParameters(dampingRatio: 0.6, initialVelocity: (-1, 0))` over 0.7 s;
/// - dot2.center.x 100 → 300: `UISpringTimingParameters(mass: 1, stiffness: 200, damping: 40, initialVelocity: .zero)`
///   (ζ = √2, clamped);
/// - dot2.layer.cornerRadius 0 → 10: `AnimationTiming(perceptualDuration: 0.4, bounce: 0.2)`;
/// - dot2.alpha 1 → 0.5: `UISpringTimingParameters()` (the system spring).
final class SpringParametersAnimator: TransitionAnimator {
  static let id: StaticString = "spring-parameters"
  static let name: StaticString = "Spring parameters"

  func transitionDuration(using transitionContext: (any UIViewControllerContextTransitioning)?) -> TimeInterval { 0.5 }

  func animateTransition(using transitionContext: any UIViewControllerContextTransitioning) {
    let container = addToView(transitionContext)
    let dot = addDot(container)
    let dot2 = UIView(frame: CGRect(x: 90, y: 490, width: 20, height: 20), id: "dot2")
    container.addSubview(dot2)
    let done = complete(transitionContext, after: 7)
    UIView.animate(
      withDuration: nil, timing: AnimationTiming(mass: 3, stiffness: 1000, damping: 500),
      animations: { dot.center = CGPoint(x: 300, y: 400) }, completion: done)
    UIView.animate(
      withDuration: nil, timing: AnimationTiming(mass: 3, stiffness: 1000, damping: 500, allowsOverdamping: true),
      animations: { dot.layer.cornerRadius = 10 }, completion: done)
    let thrown = UISpringTimingParameters(duration: 0.5, bounce: -0.3, initialVelocity: CGVector(dx: 1, dy: 0))
    UIView.animate(
      withDuration: nil, timing: AnimationTiming(thrown), animations: { dot.alpha = 0.2 }, completion: done)
    let ratio = UISpringTimingParameters(dampingRatio: 0.6, initialVelocity: CGVector(dx: -1, dy: 0))
    UIView.animate(
      withDuration: 0.7, timing: AnimationTiming(ratio), animations: { dot.layer.zPosition = 1 }, completion: done)
    let physical = UISpringTimingParameters(mass: 1, stiffness: 200, damping: 40, initialVelocity: .zero)
    UIView.animate(
      withDuration: nil, timing: AnimationTiming(physical), animations: { dot2.center = CGPoint(x: 300, y: 500) },
      completion: done)
    UIView.animate(
      withDuration: nil, timing: AnimationTiming(perceptualDuration: 0.4, bounce: 0.2),
      animations: { dot2.layer.cornerRadius = 10 }, completion: done)
    UIView.animate(
      withDuration: nil, timing: AnimationTiming(UISpringTimingParameters()), animations: { dot2.alpha = 0.5 },
      completion: done)
  }
}

// MARK: - Coordinate conversion

/// Builds a small tree in the to view and leaves the answers of `convert` as the frames of marker views in the
/// container: "panel" (frame (50, 100, 200, 100), scaled ×2 about its centre) holding "chip" (10, 10, 20, 20);
/// "side" (frame (300, 600, 50, 50), bounds origin (10, 20)); "tilt" (frame (100, 300, 200, 200), turned π/3 about
/// y, no perspective). Completes at once.
final class ConvertAnimator: TransitionAnimator {
  static let id: StaticString = "convert"
  static let name: StaticString = "Coordinate conversion"

  func transitionDuration(using transitionContext: (any UIViewControllerContextTransitioning)?) -> TimeInterval { 0 }

  func animateTransition(using transitionContext: any UIViewControllerContextTransitioning) {
    let container = addToView(transitionContext)
    guard let toView = transitionContext.view(forKey: .to) else { return transitionContext.completeTransition(false) }
    let panel = UIView(frame: CGRect(x: 50, y: 100, width: 200, height: 100), id: "panel")
    panel.transform = CGAffineTransform(scaleX: 2, y: 2)
    toView.addSubview(panel)
    let chip = UIView(frame: CGRect(x: 10, y: 10, width: 20, height: 20), id: "chip")
    panel.addSubview(chip)
    let side = UIView(frame: CGRect(x: 300, y: 600, width: 50, height: 50), id: "side")
    side.bounds = CGRect(x: 10, y: 20, width: 50, height: 50)
    toView.addSubview(side)
    let tilt = UIView(frame: CGRect(x: 100, y: 300, width: 200, height: 200), id: "tilt")
    tilt.layer.transform = CATransform3DMakeRotation(.pi / 3, 0, 1, 0)
    toView.addSubview(tilt)

    func mark(_ id: String, _ rect: CGRect) {
      container.addSubview(UIView(frame: rect, id: id))
    }
    func mark(_ id: String, _ point: CGPoint) {
      mark(id, CGRect(origin: point, size: .zero))
    }
    mark("chip-in-container", chip.convert(chip.bounds, to: nil))
    mark("chip-corner-in-side", side.convert(CGRect(x: 0, y: 0, width: 10, height: 10), from: chip))
    mark("chip-point-in-panel", chip.convert(CGPoint(x: 5, y: 5), to: panel))
    mark("container-point-in-panel", panel.convert(CGPoint(x: 150, y: 150), from: nil))
    mark("side-point-in-container", side.convert(CGPoint(x: 10, y: 20), to: container))
    mark("tilt-in-container", tilt.convert(tilt.bounds, to: nil))
    transitionContext.completeTransition(true)
  }
}

// MARK: - Snapshots

/// Snapshots "card" (a view of the from tree) and flies the snapshot from the card's place to (100, 500, 100, 60)
/// while it fades out, over 1 s, linear, with the card hidden meanwhile; a snapshot of the snapshot sits at
/// (0, 0, 50, 30). The completion removes both snapshots and shows the card again.
final class SnapshotAnimator: TransitionAnimator {
  static let id: StaticString = "snapshot"
  static let name: StaticString = "Snapshots"

  func transitionDuration(using transitionContext: (any UIViewControllerContextTransitioning)?) -> TimeInterval { 1.0 }

  func animateTransition(using transitionContext: any UIViewControllerContextTransitioning) {
    let container = addToView(transitionContext)
    guard let card = transitionContext.view(withID: "card"), let snapshot = card.snapshotView(afterScreenUpdates: true),
      let copy = snapshot.snapshotView(afterScreenUpdates: false)
    else { return transitionContext.completeTransition(false) }
    snapshot.frame = card.convert(card.bounds, to: container)
    container.addSubview(snapshot)
    copy.frame = CGRect(x: 0, y: 0, width: 50, height: 30)
    container.addSubview(copy)
    card.isHidden = true
    UIView.animate(
      withDuration: 1.0, delay: 0, options: .curveLinear,
      animations: {
        snapshot.frame = CGRect(x: 100, y: 500, width: 100, height: 60)
        snapshot.alpha = 0
      },
      completion: { _ in
        snapshot.removeFromSuperview()
        copy.removeFromSuperview()
        card.isHidden = false
        transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
      })
  }
}

// MARK: - Parameters of every type

/// Parameters of the seven types, applied to a view ("badge", or the id in `label`) and a zero-size marker "pin":
/// frame `box`, alpha `amount`, isHidden `hidden`, backgroundColor `tint`, corner radius 5 or 20 for `size`; the pin
/// at `spot`. The duration is `amount` seconds. Completes at once.
final class ParametersAnimator: TransitionAnimator {
  static let id: StaticString = "parameters"
  static let name: StaticString = "Parameters"

  enum Size: String, CaseIterable, Sendable {
    case small, large
  }

  static let amount = TransitionParameter.number(
    "amount", default: 0.5, min: 0, max: 1, doc: "The badge's alpha, and the duration in seconds.")
  static let hidden = TransitionParameter.bool("hidden", default: false, doc: "Whether the badge is hidden.")
  static let size = TransitionParameter.enumeration(
    "size", default: Size.small, doc: "The badge's corner radius: small 5, large 20.")
  static let tint = TransitionParameter.color(
    "tint", default: UIColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 1), doc: "The badge's background colour.")
  static let label = TransitionParameter.string("label", default: "badge", doc: "The badge's view id.")
  static let spot = TransitionParameter.point("spot", default: CGPoint(x: 10, y: 20), doc: "Where the pin goes.")
  static let box = TransitionParameter.rect(
    "box", default: CGRect(x: 5, y: 6, width: 70, height: 80), doc: "The badge's frame.")
  static let parameters: [AnyTransitionParameter] = [amount, hidden, size, tint, label, spot, box]

  func transitionDuration(using transitionContext: (any UIViewControllerContextTransitioning)?) -> TimeInterval {
    Self.amount.value(in: transitionContext)
  }

  func animateTransition(using transitionContext: any UIViewControllerContextTransitioning) {
    let container = addToView(transitionContext)
    let badge = UIView(frame: transitionContext[Self.box], id: transitionContext[Self.label])
    badge.alpha = transitionContext[Self.amount]
    badge.isHidden = transitionContext[Self.hidden]
    badge.backgroundColor = transitionContext[Self.tint]
    badge.layer.cornerRadius = transitionContext[Self.size] == .large ? 20 : 5
    container.addSubview(badge)
    container.addSubview(UIView(frame: CGRect(origin: transitionContext[Self.spot], size: .zero), id: "pin"))
    transitionContext.completeTransition(true)
  }
}

// MARK: - Alongside animations

/// A 1 s presentation whose own blocks are linear and half as long: the dot's centre.x 100 → 300 over [0, 0.5], then
/// centre.y 400 → 600 over [0.5, 1] (its completion completes). The presentation controller adds "dimming" (black,
/// alpha 0) and, alongside, fades it to 0.6 and, in a block of its own (linear, 0.5 s), rounds its corners to 10;
/// after the first block the animator animates the dimming's colour to white alongside.
final class AlongsideAnimator: TransitionAnimator {
  static let id: StaticString = "alongside"
  static let name: StaticString = "Alongside animations"
  static let operations: [TransitionOperation]? = [.present]

  func makePresentationController() -> UIPresentationController? { DimmingPresentationController() }

  func transitionDuration(using transitionContext: (any UIViewControllerContextTransitioning)?) -> TimeInterval { 1.0 }

  func animateTransition(using transitionContext: any UIViewControllerContextTransitioning) {
    let dot = addDot(addToView(transitionContext))
    let coordinator = transitionContext.viewController(forKey: .to)?.transitionCoordinator
    UIView.animate(
      withDuration: 0.5, delay: 0, options: .curveLinear,
      animations: { dot.center.x = 300 },
      completion: { _ in
        TransitionLog.info("first block done")
        let dimming = transitionContext.view(withID: "dimming")
        coordinator?.animate(
          alongsideTransition: { _ in dimming?.backgroundColor = .white },
          completion: { _ in TransitionLog.info("late alongside done") })
        UIView.animate(
          withDuration: 0.5, delay: 0, options: .curveLinear,
          animations: { dot.center.y = 600 },
          completion: { _ in
            TransitionLog.info("second block done")
            transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
          })
      })
  }

  func animationEnded(_ transitionCompleted: Bool) {
    TransitionLog.info("animationEnded \(transitionCompleted)")
  }
}

/// Dimming chrome animated alongside the presentation.
final class DimmingPresentationController: UIPresentationController {
  override func presentationTransitionWillBegin() {
    guard let containerView, let coordinator = transitionCoordinator else { return }
    let dimming = UIView(frame: containerView.bounds, id: "dimming")
    dimming.backgroundColor = .black
    dimming.alpha = 0
    containerView.addSubview(dimming)
    coordinator.animate(
      alongsideTransition: { _ in
        dimming.alpha = 0.6
        UIView.animate(withDuration: 0.5, delay: 0, options: .curveLinear) { dimming.layer.cornerRadius = 10 }
      },
      completion: { context in TransitionLog.info("alongside done, cancelled \(context.transitionWasCancelled)") })
  }

  override func presentationTransitionDidEnd(_ completed: Bool) {
    TransitionLog.info("presentation did end \(completed)")
  }
}

// MARK: - Reports of refused calls

/// Makes the mistakes whose SDK reports SDKSurfaceTests checks, each on a line marked `// report:` with a name the
/// test looks up (so the test finds the line in this file, not from the SDK): NaN alpha on the to view and on a view
/// made without an id inside an animations block, NaN inside a keyframe and inside a completion, and a block with a
/// NaN duration. Then it completes normally after 0.5 s.
final class MisbehavingAnimator: TransitionAnimator {
  static let id: StaticString = "misbehaving"
  static let name: StaticString = "Refused calls"

  func transitionDuration(using transitionContext: (any UIViewControllerContextTransitioning)?) -> TimeInterval { 0.5 }

  func animateTransition(using transitionContext: any UIViewControllerContextTransitioning) {
    let container = addToView(transitionContext)
    guard let toView = transitionContext.view(forKey: .to) else { return transitionContext.completeTransition(false) }
    let plain = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
    container.addSubview(plain)
    UIView.animate(withDuration: .nan, animations: { toView.alpha = 0.5 })  // report: nan-duration
    UIView.animate(withDuration: 0.5) {  // report: animate
      toView.alpha = .nan
      plain.alpha = .nan
    } completion: { _ in  // report: animate (the completion belongs to the same call)
      plain.layer.cornerRadius = .nan
      transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
    }
    UIView.animateKeyframes(withDuration: 0.5, delay: 0) {
      UIView.addKeyframe(withRelativeStartTime: 0, relativeDuration: 1) {  // report: keyframe
        toView.center = CGPoint(x: CGFloat.infinity, y: 0)
      }
    }
  }
}
