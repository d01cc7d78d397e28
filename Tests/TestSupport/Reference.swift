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

/// UIKit's spring `animate(withDuration: T, usingSpringWithDamping: ζ, initialSpringVelocity: v₀)` as the engine
/// realises it (CONVENTIONS: a UIKit spring lasts exactly its duration; reference §10.5, Framer's reconstruction):
/// mass 1; ω₀ chosen so that the envelope of x = 1 − progress at rest is ε = 0.001 at T —
/// ζ < 1: (ζ/√(1−ζ²))·e^(−ζω₀T) = ε, so ω₀ = ln(ζ / (√(1−ζ²)·ε)) / (ζT);
/// ζ = 1: (1 + ω₀T)·e^(−ω₀T) = ε, solved here by bisection.
/// A spring thrown toward its target no faster than 2ζω₀ has a smaller envelope term than at rest, and the engine
/// (its documented rule: never softer than the same spring at rest) keeps that ω₀; this type only covers that
/// range. Then the closed form x(t) (reference §10.3), with the engine's documented landing
/// (`landedSpringProgress`).
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
    if zeta < 1 {
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
    precondition(velocity >= 0 && velocity <= 2 * zeta * omega, "outside the range this type covers")
  }

  /// x(t) = 1 − progress of the free spring: under-damped
  /// e^(−ζω₀t)·[cos ω_d t + ((ζω₀ − v₀)/ω_d)·sin ω_d t], ω_d = ω₀√(1 − ζ²); critically damped (1 + (ω₀ − v₀)t)·e^(−ω₀t).
  package func displacement(_ t: Double) -> Double {
    if zeta < 1 {
      let wd = omega * (1 - zeta * zeta).squareRoot()
      return exp(-zeta * omega * t) * (cos(wd * t) + ((zeta * omega - velocity) / wd) * sin(wd * t))
    }
    return (1 + (omega - velocity) * t) * exp(-omega * t)
  }

  /// Progress at `t` seconds, landing included.
  package func progress(_ t: Double) -> Double {
    landedSpringProgress(at: t, duration: duration, displacement: displacement)
  }
}

/// iOS 17's `spring(duration: d, bounce: b)` as a damped oscillator written out here: mass 1, ω₀ = 2π/d,
/// ζ = 1 − b for b ≥ 0 and 1/(1 + b) for b < 0; x = 1 − progress with x(0) = 1, x′(0) = −v₀. The closed forms:
/// ζ < 1: e^(−ζω₀t)(cos ω_d t + ((ζω₀ − v₀)/ω_d) sin ω_d t), ω_d = ω₀√(1 − ζ²); ζ = 1: (1 + (ω₀ − v₀)t)e^(−ω₀t);
/// ζ > 1: A e^(r₁t) + (1 − A) e^(r₂t), r₁,₂ = −ω₀(ζ ∓ √(ζ² − 1)), A = (−v₀ − r₂)/(r₁ − r₂) (from x(0) = 1 and
/// x′(0) = −v₀). The animation lasts d and lands as `UIKitSpring` does (the engine's documented landing).
package struct BounceSpring: Sendable {
  package let duration: Double
  package let velocity: Double
  /// The natural frequency ω₀ and damping ratio ζ.
  package let omega: Double
  package let zeta: Double

  package init(duration: Double, bounce: Double, initialVelocity velocity: Double = 0) {
    self.duration = duration
    self.velocity = velocity
    omega = 2 * Double.pi / duration
    zeta = bounce >= 0 ? 1 - bounce : 1 / (1 + bounce)
  }

  /// x(t) = 1 − progress of the free spring.
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

  /// Progress at `t` seconds, landing included.
  package func progress(_ t: Double) -> Double {
    landedSpringProgress(at: t, duration: duration, displacement: displacement)
  }
}

/// The engine's documented landing of a spring that lasts exactly `duration` T (Spring, "Duration and landing"):
/// 0 until t > 0; over the last 10 % of T the residual r = x(T) is blended out with the smoothstep
/// σ(u) = 3u² − 2u³, u = (t − 0.9T)/(0.1T): progress = 1 − [x(t) − r·σ(u)]; exactly 1 from T on.
func landedSpringProgress(at t: Double, duration: Double, displacement: (Double) -> Double) -> Double {
  guard t > 0 else { return 0 }
  guard t < duration else { return 1 }
  let u = (t - 0.9 * duration) / (0.1 * duration)
  let sigma = u <= 0 ? 0 : (u >= 1 ? 1 : u * u * (3 - 2 * u))
  return 1 - (displacement(t) - displacement(duration) * sigma)
}
