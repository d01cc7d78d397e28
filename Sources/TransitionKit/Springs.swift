// Springs as Core Animation and UIKit spell them: CASpringAnimation's parameters and UISpringTimingParameters'
// initialisers, both turned into an `AnimationTiming` for `UIView.animate(withDuration:delay:timing:…)`.

extension AnimationTiming {
  /// A spring with CASpringAnimation's parameters and defaults: mass 1, stiffness 100, damping 10, initial velocity
  /// 0 (UIKit's unit: 1 = the whole distance per second), and `allowsOverdamping` false, under which a damping ratio
  /// c / (2√(km)) above 1 moves (and settles) as the critically damped spring with the same √(k/m). Animate with
  /// duration nil for its settling duration, as CASpringAnimation's `settlingDuration`.
  public init(
    mass: CGFloat = 1, stiffness: CGFloat = 100, damping: CGFloat = 10, initialVelocity: CGFloat = 0,
    allowsOverdamping: Bool = false
  ) {
    self = .springPhysical(
      mass: mass, stiffness: stiffness, damping: damping, initialVelocity: initialVelocity,
      allowsOverdamping: allowsOverdamping)
  }

  /// CASpringAnimation(perceptualDuration:bounce:) (iOS 17): mass 1, stiffness (2π / perceptualDuration)², damping
  /// ratio 1 − bounce for bounce ≥ 0 and 1 / (1 + bounce) below, where it allows over-damping (as Core Animation
  /// sets `allowsOverdamping` for a negative bounce). Animate with duration nil: it lasts its settling duration.
  public init(perceptualDuration: TimeInterval, bounce: CGFloat = 0, initialVelocity: CGFloat = 0) {
    let stiffness = 4 * Double.pi * Double.pi / (perceptualDuration * perceptualDuration)
    let ratio = bounce >= 0 ? 1 - bounce : 1 / (1 + bounce)
    self = .springPhysical(
      mass: 1, stiffness: stiffness, damping: ratio * 2 * stiffness.squareRoot(), initialVelocity: initialVelocity,
      allowsOverdamping: bounce < 0)
  }

  /// The timing of UIKit's spring parameters: the damping-ratio form is `.spring(dampingRatio:_:)` (animate with its
  /// duration); the mass/stiffness form a CASpringAnimation spring without over-damping; the duration/bounce form
  /// `AnimationTiming(perceptualDuration:bounce:initialVelocity:)` (animate both with duration nil: UIKit runs them
  /// for their settling duration). The velocity is the vector's dx, as UIKit uses for one-dimensional properties.
  public init(_ parameters: UISpringTimingParameters) {
    let velocity = parameters.initialVelocity.dx
    switch parameters.form {
    case .dampingRatio(let ratio):
      self = .spring(dampingRatio: ratio, velocity)
    case .physical(let mass, let stiffness, let damping):
      self = .springPhysical(mass: mass, stiffness: stiffness, damping: damping, initialVelocity: velocity)
    case .durationBounce(let duration, let bounce):
      self.init(perceptualDuration: duration, bounce: bounce, initialVelocity: velocity)
    }
  }
}

/// UIKit's spring timing parameters, with UIKit's initialisers. Give them to
/// `UIView.animate(withDuration:delay:timing:…)` as `AnimationTiming(parameters)`.
///
/// How long an animation with them lasts is UIKit's rule: the damping-ratio form lasts the animation's duration;
/// the mass/stiffness and duration/bounce forms their settling duration (pass duration nil). Velocities are in
/// UIKit's unit, 1 = the whole distance per second; one-dimensional properties use `dx`.
public final class UISpringTimingParameters: Sendable, CustomStringConvertible {
  /// Which initialiser made it.
  enum Form: Hashable, Sendable {
    case dampingRatio(CGFloat)
    case physical(mass: CGFloat, stiffness: CGFloat, damping: CGFloat)
    case durationBounce(TimeInterval, CGFloat)
  }

  let form: Form
  /// The initial velocity, as UIKit's property.
  public let initialVelocity: CGVector

  private init(_ form: Form, _ initialVelocity: CGVector) {
    self.form = form
    self.initialVelocity = initialVelocity
  }

  /// The system's spring: UINavigationController's mass 3, stiffness 1000, damping 500 (reference §10.5: react-
  /// navigation's "exact values from UINavigationController's animation configuration"; damping ratio ≈ 4.56, so
  /// Core Animation runs it critically damped and it settles in 0.6 s).
  public convenience init() {
    self.init(.physical(mass: 3, stiffness: 1000, damping: 500), .zero)
  }

  /// A spring with `ratio` in (0, 1] (1 = no overshoot), at rest.
  public convenience init(dampingRatio ratio: CGFloat) {
    self.init(dampingRatio: ratio, initialVelocity: .zero)
  }

  /// A spring with `ratio` in (0, 1] and an initial velocity; it lasts the animation's duration.
  public convenience init(dampingRatio ratio: CGFloat, initialVelocity velocity: CGVector) {
    self.init(.dampingRatio(ratio), velocity)
  }

  /// A CASpringAnimation-style spring (mass > 0, stiffness > 0, damping ≥ 0); it lasts its settling duration, and a
  /// damping ratio above 1 moves critically damped, as Core Animation runs it.
  public convenience init(mass: CGFloat, stiffness: CGFloat, damping: CGFloat, initialVelocity velocity: CGVector) {
    self.init(.physical(mass: mass, stiffness: stiffness, damping: damping), velocity)
  }

  /// iOS 17's spring: `duration` perceptual (the pace), `bounce` in (-1, 1); it lasts its settling duration.
  public convenience init(duration: TimeInterval, bounce: CGFloat) {
    self.init(duration: duration, bounce: bounce, initialVelocity: .zero)
  }

  /// iOS 17's spring with an initial velocity.
  public convenience init(duration: TimeInterval, bounce: CGFloat, initialVelocity velocity: CGVector) {
    self.init(.durationBounce(duration, bounce), velocity)
  }

  public var description: String {
    switch form {
    case .dampingRatio(let ratio): return "UISpringTimingParameters(dampingRatio: \(ratio), \(initialVelocity))"
    case .physical(let m, let k, let c):
      return "UISpringTimingParameters(mass: \(m), stiffness: \(k), damping: \(c), \(initialVelocity))"
    case .durationBounce(let d, let b):
      return "UISpringTimingParameters(duration: \(d), bounce: \(b), \(initialVelocity))"
    }
  }
}
