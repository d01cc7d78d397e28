// Expected values computed from published definitions, independently of the engine: nothing here calls
// TransitionEngine's timing-curve or spring code, so tests compare the engine against values it did not produce.

#if canImport(Glibc)
  import Glibc
#endif

/// Timing curves from their definitions.
package enum Reference {
  /// y(x) of the CSS / Core Animation cubic Bézier through (0, 0), (x1, y1), (x2, y2), (1, 1): the curve
  /// parameter s with x(s) = x by bisection (x(s) increases for x1, x2 in [0, 1]; 200 halvings reach the limit of
  /// Double precision), then y(s). The curve passes through its end points, so x ≤ 0 gives 0 and x ≥ 1 gives 1
  /// (bisection could not resolve the ends where x′ = 0).
  package static func bezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, at x: Double) -> Double {
    if x <= 0 { return 0 }
    if x >= 1 { return 1 }
    func coordinate(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
      let u = 1 - s
      return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
    }
    var low = 0.0
    var high = 1.0
    for _ in 0..<200 {
      let mid = (low + high) / 2
      if coordinate(x1, x2, mid) < x { low = mid } else { high = mid }
    }
    return coordinate(y1, y2, (low + high) / 2)
  }

  /// Core Animation's easeIn (0.42, 0, 1, 1).
  package static func easeIn(_ x: Double) -> Double { bezier(0.42, 0, 1, 1, at: x) }

  /// Core Animation's easeOut (0, 0, 0.58, 1).
  package static func easeOut(_ x: Double) -> Double { bezier(0, 0, 0.58, 1, at: x) }

  /// easeInOut (0.42, 0, 0.58, 1), UIView's default curve.
  package static func easeInOut(_ x: Double) -> Double { bezier(0.42, 0, 0.58, 1, at: x) }
}

/// A damped spring m·x″ + c·x′ + k·x = 0 with x = 1 − progress, x(0) = 1, x′(0) = −v₀ (v₀ in UIKit's units: the whole
/// distance per second, positive toward the target), written out from its closed forms (reference §10.3) with
/// ω₀ = √(k/m) and ζ = c / (2√(km)):
/// - ζ < 1: x(t) = e^(−ζω₀t)·[cos ω_d t + ((ζω₀ − v₀)/ω_d)·sin ω_d t], ω_d = ω₀√(1 − ζ²);
/// - ζ = 1: x(t) = (1 + (ω₀ − v₀)t)·e^(−ω₀t);
/// - ζ > 1: x(t) = A·e^(r₁t) + (1 − A)·e^(r₂t), r₁,₂ = −ω₀(ζ ∓ √(ζ² − 1)), A = (−v₀ − r₂)/(r₁ − r₂) (from x(0) = 1
///   and x′(0) = −v₀).
///
/// This is the motion as given: Core Animation's clamp of ζ > 1 to critical (unless `allowsOverdamping`) is for
/// the caller to write out, as a spring with c = 2√(km).
package struct ClosedFormSpring: Sendable {
  /// The natural frequency ω₀ and damping ratio ζ.
  package let omega: Double
  package let zeta: Double
  /// v₀.
  package let velocity: Double

  package init(mass: Double, stiffness: Double, damping: Double, initialVelocity velocity: Double = 0) {
    omega = (stiffness / mass).squareRoot()
    zeta = damping / (2 * (stiffness * mass).squareRoot())
    self.velocity = velocity
  }

  package init(omega: Double, zeta: Double, initialVelocity velocity: Double = 0) {
    self.omega = omega
    self.zeta = zeta
    self.velocity = velocity
  }

  /// x(t).
  package func displacement(_ t: Double) -> Double {
    if zeta < 1 {
      let wd = omega * (1 - zeta * zeta).squareRoot()
      return exp(-zeta * omega * t) * (cos(wd * t) + (zeta * omega - velocity) / wd * sin(wd * t))
    }
    if zeta == 1 { return (1 + (omega - velocity) * t) * exp(-omega * t) }
    let root = (zeta * zeta - 1).squareRoot()
    let r1 = -omega * (zeta - root)
    let r2 = -omega * (zeta + root)
    let a = (-velocity - r2) / (r1 - r2)
    return a * exp(r1 * t) + (1 - a) * exp(r2 * t)
  }

  /// Core Animation's `settlingDuration` with ε = 0.001 (reference §10.4): for ζ < 1 the envelope bound
  /// T = (−ln ε + ln(1 + |B|)) / (ζω₀), B = (ζω₀ − v₀)/ω_d, floored at 0; for ζ ≥ 1 the first point of the 0.1 s
  /// grid from which |x| ≤ ε at every later grid point (checked here up to 1,000 s).
  package var settlingDuration: Double {
    let epsilon = 0.001
    if zeta < 1 {
      let wd = omega * (1 - zeta * zeta).squareRoot()
      let b = (zeta * omega - velocity) / wd
      return max(0, (-log(epsilon) + log(1 + abs(b))) / (zeta * omega))
    }
    var lastAbove = -1
    for n in 0...10_000 where abs(displacement(Double(n) / 10)) > epsilon { lastAbove = n }
    return Double(lastAbove + 1) / 10
  }

  /// Progress of an animation of this spring lasting `duration` (Core Animation's rule): 0 until t > 0, the free
  /// motion 1 − x(t) while t < duration, and exactly 1 (the model value) from `duration` on.
  package func progress(_ t: Double, duration: Double) -> Double {
    guard t > 0 else { return 0 }
    return t < duration ? 1 - displacement(t) : 1
  }
}

/// UIKit's spring `animate(withDuration: T, usingSpringWithDamping: ζ, initialSpringVelocity: v₀)` as the engine
/// documents it (CONVENTIONS: a UIKit spring lasts exactly its duration; reference §10.5, Framer's reconstruction):
/// mass 1, and ω₀ chosen so that the envelope of x = 1 − progress is ε = 0.001 at T. Framer's envelope term is
/// ((ζω₀ − v₀)/ω_d)·e^(−ζω₀T) (ζ < 1) or (1 + (ω₀ − v₀)T)·e^(−ω₀T) (ζ = 1); the engine keeps it at or above its
/// value at rest (v₀ = 0), so:
/// - v₀ = 0, and 0 < v₀ ≤ 2ζω₀ (thrown toward the target, where Framer's term is smaller than at rest): ω₀ solves
///   the at-rest equation — ζ < 1: (ζ/√(1−ζ²))·e^(−ζω₀T) = ε, so ω₀ = ln(ζ / (√(1−ζ²)·ε)) / (ζT); ζ = 1:
///   (1 + ω₀T)·e^(−ω₀T) = ε, by bisection;
/// - v₀ < 0 (thrown away from it): Framer's own solve, written out from `SpringCurveValueConverter.coffee` —
///   11 Newton steps (`for i in [1...12]`) from ω = 5/T on f(ω) = ε − G(ω) with Framer's derivative.
/// Then the closed form x(t) (`ClosedFormSpring`), free for t < T and exactly 1 from T on.
package struct UIKitSpring: Sendable {
  package let zeta: Double
  package let duration: Double
  package let velocity: Double
  /// The natural frequency ω₀.
  package let omega: Double

  package init(dampingRatio zeta: Double, duration: Double, initialVelocity velocity: Double = 0) {
    self.zeta = zeta
    self.duration = duration
    self.velocity = velocity
    let epsilon = 0.001
    if velocity < 0 {
      omega = Self.framerOmega(zeta: zeta, duration: duration, velocity: velocity)
    } else if zeta < 1 {
      omega = log(zeta / ((1 - zeta * zeta).squareRoot() * epsilon)) / (zeta * duration)
    } else {
      // (1 + wT)e^(−wT) falls monotonically in w > 0: bisect for ε.
      var low = 0.0
      var high = 1000.0 / duration
      for _ in 0..<300 {
        let mid = (low + high) / 2
        if (1 + mid * duration) * exp(-mid * duration) > epsilon { low = mid } else { high = mid }
      }
      omega = (low + high) / 2
    }
    precondition(velocity <= 2 * zeta * omega, "outside the range this type covers")
  }

  /// Framer's `computeDerivedCurveOptions` for mass 1: its envelope and derivative functions and its Newton loop.
  private static func framerOmega(zeta: Double, duration: Double, velocity: Double) -> Double {
    let epsilon = 0.001
    let envelope: (Double) -> Double
    let derivative: (Double) -> Double
    if zeta < 1 {
      envelope = { w in
        let exponentialDecay = w * zeta
        let a = exponentialDecay - velocity
        let b = w * (1 - zeta * zeta).squareRoot()
        return epsilon - (a / b) * exp(-exponentialDecay * duration)
      }
      derivative = { w in
        let currentDisplacement = w * zeta * duration
        let d = currentDisplacement * velocity + velocity
        let e = zeta * zeta * w * w * duration
        let f = exp(-currentDisplacement)
        let g = w * w * (1 - zeta * zeta).squareRoot()
        let factor: Double = -envelope(w) + epsilon > 0 ? -1 : 1
        return factor * ((d - e) * f) / g
      }
    } else {
      envelope = { w in -epsilon + exp(-w * duration) * ((w - velocity) * duration + 1) }
      derivative = { w in exp(-w * duration) * (velocity - w) * duration * duration }
    }
    var w = 5 / duration
    for _ in 1..<12 { w -= envelope(w) / derivative(w) }
    return w
  }

  /// The free motion x(t).
  package var motion: ClosedFormSpring { ClosedFormSpring(omega: omega, zeta: zeta, initialVelocity: velocity) }

  /// x(t) = 1 − progress of the free spring.
  package func displacement(_ t: Double) -> Double { motion.displacement(t) }

  /// Progress at `t` seconds: the closed form before T, exactly 1 from T on.
  package func progress(_ t: Double) -> Double { motion.progress(t, duration: duration) }
}

/// iOS 17's `spring(duration: d, bounce: b)` (reference §10.6): mass 1, ω₀ = 2π/d, ζ = 1 − b for b ≥ 0 and
/// 1/(1 + b) for b < 0 (truly over-damped: bounce < 0 sets `allowsOverdamping`). d is perceptual: the animation
/// lasts the spring's settling duration (`ClosedFormSpring.settlingDuration`) and is exactly 1 from then on.
package struct BounceSpring: Sendable {
  package let motion: ClosedFormSpring
  /// How long the animation lasts: the settling duration.
  package let duration: Double

  package init(duration perceptual: Double, bounce: Double, initialVelocity velocity: Double = 0) {
    motion = ClosedFormSpring(
      omega: 2 * Double.pi / perceptual, zeta: bounce >= 0 ? 1 - bounce : 1 / (1 + bounce), initialVelocity: velocity)
    duration = motion.settlingDuration
  }

  /// x(t) = 1 − progress of the free spring.
  package func displacement(_ t: Double) -> Double { motion.displacement(t) }

  /// Progress at `t` seconds: the closed form before the settling duration, exactly 1 from it on.
  package func progress(_ t: Double) -> Double { motion.progress(t, duration: duration) }
}
