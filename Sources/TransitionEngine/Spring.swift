// Damped springs in the three parametrisations of UIKit, Core Animation and iOS 17, with closed forms.

/// Why spring parameters were rejected by `Spring.validated…`.
package enum SpringError: Error, Hashable, Sendable {
  /// A parameter is NaN or infinite.
  case nonFinite(parameter: String)
  /// A parameter is outside its allowed range.
  case outOfRange(parameter: String, value: Double)
}

/// A damped harmonic oscillator driving progress from 0 to 1.
///
/// With x = 1 − progress, the motion is m·x″ + c·x′ + k·x = 0, x(0) = 1, x′(0) = −v₀, where the initial
/// velocity v₀ is in UIKit's units: fractions of the total distance per second, positive toward the target
/// (a 200 pt move starting at 100 pt/s has v₀ = 0.5). ω₀ = √(k/m), ζ = c / (2√(km)), and
///
/// - ζ < 1: x(t) = e^(−ζω₀t)·[cos ω_d t + ((ζω₀ − v₀)/ω_d)·sin ω_d t], ω_d = ω₀√(1 − ζ²);
/// - ζ = 1: x(t) = (1 + (ω₀ − v₀)t)·e^(−ω₀t);
/// - ζ > 1: x(t) = A·e^(r₁t) + (1 − A)·e^(r₂t), r₁,₂ = −ω₀(ζ ∓ √(ζ² − 1)), A = (−v₀ − r₂)/(r₁ − r₂),
///   the real over-damped motion, only when `allowsOverdamping` is set. Otherwise, as Core Animation's
///   CASpringAnimation (and WebKit's SpringSolver, and SwiftUI's `allowOverDamping: false`), a spring with ζ > 1
///   moves as the critically damped one with the same ω₀: c is taken as 2√(km), and it settles as that one does.
///   iOS 17's duration + bounce springs set `allowsOverdamping` when bounce < 0.
///
/// **Duration.** Every spring has a `duration`, the length of an animation that uses it (its completion runs
/// then): a UIKit spring (`init(dampingRatio:initialVelocity:duration:)`) lasts exactly the requested duration;
/// the mass/stiffness and duration + bounce parametrisations last `settlingDuration` unless a duration is given
/// (the bounce form's own `duration` is perceptual). As in Core Animation, `progress(at:)` is the closed form
/// 1 − x(t) for 0 < t < `duration` and exactly 1 from `duration` on, when the animation is removed and the model
/// value shows: a spring that has settled jumps by at most ε = 0.001 of the distance there, one cut short by an
/// explicit duration by what it had left.
package struct Spring: Hashable, Sendable {
  /// The mass m (> 0).
  package let mass: Double
  /// The stiffness k (> 0).
  package let stiffness: Double
  /// The damping coefficient c (≥ 0).
  package let damping: Double
  /// The initial velocity v₀ in fractions of the whole distance per second, positive toward the target.
  package let initialVelocity: Double
  /// The length of an animation using this spring, in seconds (see the type's documentation).
  package let duration: Double
  /// Whether ζ > 1 moves really over-damped; when false (Core Animation's default) it moves critically damped.
  package let allowsOverdamping: Bool

  /// Core Animation's threshold for "at rest" (SwiftUI documents the same epsilon, 0.001).
  package static let settlingEpsilon = 0.001

  /// A CASpringAnimation-style spring. Non-finite or non-positive mass or stiffness fall back to Core
  /// Animation's defaults (1 and 100), negative or non-finite damping to 0 and a non-finite velocity to 0, so
  /// bad input never crashes (use `validated` to reject it instead). `duration` nil (or not positive and
  /// finite) means `settlingDuration`; with ζ = 0, which never settles, the duration is
  /// `Spring.undampedDuration`. ζ > 1 moves critically damped unless `allowsOverdamping`.
  package init(
    mass: Double = 1, stiffness: Double = 100, damping: Double = 10, initialVelocity: Double = 0,
    duration: Double? = nil, allowsOverdamping: Bool = false
  ) {
    let m = mass.isFinite && mass > 0 ? mass : 1
    let k = stiffness.isFinite && stiffness > 0 ? stiffness : 100
    let c = damping.isFinite && damping > 0 ? damping : 0
    let v = initialVelocity.isFinite ? initialVelocity : 0
    self.mass = m
    self.stiffness = k
    self.damping = c
    self.initialVelocity = v
    self.allowsOverdamping = allowsOverdamping
    if let duration, duration.isFinite, duration > 0 {
      self.duration = duration
    } else {
      self.duration =
        SpringMotion(mass: m, stiffness: k, damping: c, velocity: v, allowsOverdamping: allowsOverdamping)
        .settlingDuration()
    }
  }

  /// A spring after checking the CASpringAnimation constraints: mass > 0, stiffness > 0, damping ≥ 0, all
  /// finite; duration, if given, finite and > 0.
  package static func validated(
    mass: Double, stiffness: Double, damping: Double, initialVelocity: Double = 0, duration: Double? = nil,
    allowsOverdamping: Bool = false
  ) throws(SpringError) -> Spring {
    try check("mass", mass, mass > 0)
    try check("stiffness", stiffness, stiffness > 0)
    try check("damping", damping, damping >= 0)
    try check("initialVelocity", initialVelocity, true)
    if let duration { try check("duration", duration, duration > 0) }
    return Spring(
      mass: mass, stiffness: stiffness, damping: damping, initialVelocity: initialVelocity, duration: duration,
      allowsOverdamping: allowsOverdamping)
  }

  /// A UIKit spring: `UIView.animate(withDuration:delay:usingSpringWithDamping:initialSpringVelocity:…)` and
  /// `UISpringTimingParameters(dampingRatio:initialVelocity:)` on an animator of that duration.
  ///
  /// Apple does not document how UIKit turns (ζ, duration) into a physical spring; this uses Framer's published
  /// reconstruction (reference §10.5), made robust for large initial velocities — see
  /// `uikitStiffnessAndDamping`. The spring lasts exactly `duration` (unclamped; non-positive or non-finite
  /// durations become 0.01 s), where progress becomes exactly 1 (see the type's "Duration").
  package init(dampingRatio: Double, initialVelocity: Double = 0, duration: Double) {
    let v = initialVelocity.isFinite ? initialVelocity : 0
    let requested = duration.isFinite && duration > 0 ? duration : 0.01
    let (k, c) = Spring.uikitStiffnessAndDamping(dampingRatio: dampingRatio, initialVelocity: v, duration: requested)
    self.init(mass: 1, stiffness: k, damping: c, initialVelocity: v, duration: requested)
  }

  /// A UIKit spring after checking ζ ∈ (0, 1] and duration > 0 (both finite).
  package static func validated(
    dampingRatio: Double, initialVelocity: Double = 0, duration: Double
  ) throws(SpringError) -> Spring {
    try check("dampingRatio", dampingRatio, dampingRatio > 0 && dampingRatio <= 1)
    try check("initialVelocity", initialVelocity, true)
    try check("duration", duration, duration > 0)
    return Spring(dampingRatio: dampingRatio, initialVelocity: initialVelocity, duration: duration)
  }

  /// An iOS 17 / SwiftUI spring: `Spring(duration:bounce:)`, `UISpringTimingParameters(duration:bounce:)`.
  ///
  /// m = 1, k = (2π/d)², ζ = 1 − bounce for bounce ≥ 0, else 1/(1 + bounce), c = 2ζ√k (reference §10.6); a
  /// negative bounce sets `allowsOverdamping` (CASpringAnimation(perceptualDuration:bounce:) does), so it is really
  /// over-damped. `d` is the *perceptual* duration (the undamped period); the animation lasts `settlingDuration`
  /// unless `animationDuration` is given. bounce is clamped to (−1, 1]; d must be positive and finite
  /// (otherwise 0.5, the iOS default).
  package init(
    duration perceptual: Double, bounce: Double, initialVelocity: Double = 0, animationDuration: Double? = nil
  ) {
    let d = perceptual.isFinite && perceptual > 0 ? perceptual : 0.5
    var b = bounce.isFinite ? bounce : 0
    b = min(max(b, -0.999_999), 1)
    let k = 4 * Double.pi * Double.pi / (d * d)
    let zeta = b >= 0 ? 1 - b : 1 / (1 + b)
    self.init(
      mass: 1, stiffness: k, damping: zeta * 2 * k.squareRoot(), initialVelocity: initialVelocity,
      duration: animationDuration, allowsOverdamping: b < 0)
  }

  /// A duration/bounce spring after checking d > 0 and bounce ∈ (−1, 1].
  package static func validated(
    duration: Double, bounce: Double, initialVelocity: Double = 0
  ) throws(SpringError) -> Spring {
    try check("duration", duration, duration > 0)
    try check("bounce", bounce, bounce > -1 && bounce <= 1)
    try check("initialVelocity", initialVelocity, true)
    return Spring(duration: duration, bounce: bounce, initialVelocity: initialVelocity)
  }

  /// ζ = c / (2√(km)), as given (the motion uses min(ζ, 1) unless `allowsOverdamping`).
  package var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }

  /// ω₀ = √(k/m), in radians per second.
  package var naturalFrequency: Double { (stiffness / mass).squareRoot() }

  /// The perceptual duration 2π/ω₀ of the iOS 17 parametrisation.
  package var perceptualDuration: Double { 2 * Double.pi / naturalFrequency }

  /// The iOS 17 bounce: 1 − ζ when ζ ≤ 1, else 1/ζ − 1 (negative: overdamped), the inverse of
  /// ζ = 1/(1 + bounce). (Reference §10.6 writes 1 − 1/ζ, which has the sign flipped.)
  package var bounce: Double {
    let zeta = dampingRatio
    return zeta <= 1 ? 1 - zeta : 1 / zeta - 1
  }

  /// Core Animation's `settlingDuration` (reference §10.4, ε = 0.001), independent of `duration`.
  ///
  /// ζ < 1: T = (−ln ε + ln(1 + |B|)) / (ζω₀), B = (ζω₀ − v₀)/ω_d, floored at 0 (an envelope bound);
  /// ζ ≥ 1: the first multiple of 0.1 s from which |x(t)| ≤ ε for good (Core Animation steps t by 0.1 s),
  /// on the motion this spring makes (critical when ζ > 1 is clamped, else really over-damped). ζ = 0 never
  /// settles: `undampedDuration`.
  package var settlingDuration: Double { motion.settlingDuration() }

  /// The settling duration reported for an undamped spring, which never settles: Core Animation's MAXFLOAT.
  package static let undampedDuration = Double(Float.greatestFiniteMagnitude)

  /// The motion this spring makes: its closed forms, with ζ > 1 clamped to 1 unless `allowsOverdamping`.
  private var motion: SpringMotion {
    SpringMotion(
      mass: mass, stiffness: stiffness, damping: damping, velocity: initialVelocity,
      allowsOverdamping: allowsOverdamping)
  }

  /// The closed-form displacement x(t) = 1 − progress of the free spring, at any t (also past `duration`).
  package func displacement(at time: Double) -> Double { motion.displacement(at: time) }

  /// Progress at `time` seconds: 0 at t ≤ 0, the closed form 1 − x(t) for 0 < t < `duration`, exactly 1 from
  /// `duration` on (see the type's "Duration"). NaN counts as 0.
  package func progress(at time: Double) -> Double {
    guard time > 0 else { return 0 }
    guard time < duration else { return 1 }
    return 1 - motion.displacement(at: time)
  }

  /// d(progress)/dt at `time` in 1/s: v₀ at t = 0, −x′(t) before `duration`, 0 from `duration` on.
  package func velocity(at time: Double) -> Double {
    guard time.isFinite, time < duration else { return 0 }
    return -motion.displacementRate(at: max(time, 0))
  }

  /// UIKit's (ζ, T, v₀) → (k, c) with mass 1, after Framer's reconstruction (reference §10.5).
  ///
  /// ζ is clamped to (0, 1] and T to [0.01, 10] s; ε = 0.001. Newton runs 11 steps from ω = 5/T on
  /// f(ω) = ε − G(ω), G being the envelope at T:
  /// - ζ < 1: G = max(|B|, B₀)·e^(−ζωT), B = (ζω − v₀)/(ω√(1 − ζ²)), B₀ = ζ/√(1 − ζ²);
  /// - ζ = 1: G = max(|1 + (ω − v₀)T|, 1 + ωT)·e^(−ωT).
  ///
  /// B₀ and 1 + ωT are the v₀ = 0 values, so for v₀ = 0, and for every v₀ < 0 (moving away from the target),
  /// G is exactly Framer's envelope term and the iteration is Framer's (it reproduces the published check value).
  /// Framer's own G is signed, which breaks down once v₀ > 0: at v₀ > ζω its term turns negative (Framer flips
  /// its derivative's sign there, the derivative of |·|, but not the value, and the iteration runs off to ω ≈ 0;
  /// OpenUXKit's decompilation takes |·|), and near v₀ = ζω it vanishes, leaving a soft spring far from its target
  /// at T. Never letting the envelope term drop below its value at rest means a spring thrown toward its target
  /// is never made softer than the same spring at rest, and bounds the real displacement at T: |x(T)| ≤ ε/ζ for
  /// ζ < 1 (since |x| ≤ √(1 + B²)·e^(−ζωT)) and |x(T)| ≤ ε for ζ = 1. If Newton does not converge
  /// (|f| > 1e-9, or ω not finite and positive), a bracketed bisection finds the largest root of f instead; if
  /// even that fails, Framer's fallback k = 100, c = 10 applies. Then k = ω², c = 2ζ√k.
  package static func uikitStiffnessAndDamping(
    dampingRatio: Double, initialVelocity v: Double, duration: Double
  ) -> (stiffness: Double, damping: Double) {
    let epsilon = 0.001
    let zeta = min(max(dampingRatio.isNaN ? 1 : dampingRatio, Double.leastNonzeroMagnitude), 1)
    let T = min(max(duration.isNaN ? 0.01 : duration, 0.01), 10)
    let root = (1 - zeta * zeta).squareRoot()

    // G(ω) and G′(ω) on the active branch of the max.
    func envelope(_ w: Double) -> (Double, Double) {
      if zeta < 1 {
        let decay = w * zeta
        let e = exponential(-decay * T)
        let b = (decay - v) / (w * root)
        let b0 = zeta / root
        if abs(b) > b0 {
          // d/dω [B·e^(−ζωT)] = e^(−ζωT)·(v + ζωTv − ζ²ω²T)/(ω²√(1 − ζ²)) (Framer's d, e, f, g).
          let derivative = (decay * T * v + v - zeta * zeta * w * w * T) * e / (w * w * root)
          return b > 0 ? (b * e, derivative) : (-b * e, -derivative)
        }
        return (b0 * e, -zeta * T * b0 * e)
      } else {
        let e = exponential(-w * T)
        let h = 1 + (w - v) * T
        let h0 = 1 + w * T
        if abs(h) > h0 {
          // d/dω [h·e^(−ωT)] = e^(−ωT)·(v − ω)·T².
          let derivative = e * (v - w) * T * T
          return h > 0 ? (h * e, derivative) : (-h * e, -derivative)
        }
        return (h0 * e, -w * T * T * e)
      }
    }
    func f(_ w: Double) -> Double { epsilon - envelope(w).0 }

    var w = 5 / T
    for _ in 0..<11 {
      let (g, dg) = envelope(w)
      w -= (epsilon - g) / -dg
    }
    if !(w.isFinite && w > 0 && abs(f(w)) <= 1e-9) {
      w = bisectLargestRoot(f, start: 5 / T) ?? .nan
    }
    let k = w * w
    guard k.isFinite, k > 0 else { return (100, 10) }
    return (k, zeta * 2 * k.squareRoot())
  }

  /// The largest ω in (0, start·2⁴⁰] with f(ω) = 0, for an f that is positive for large ω: scan down by halves
  /// from a point where f > 0 to the first point where f ≤ 0, then bisect.
  private static func bisectLargestRoot(_ f: (Double) -> Double, start: Double) -> Double? {
    var hi = start
    var expansions = 0
    while !(f(hi) > 0) && expansions < 40 {
      hi *= 2
      expansions += 1
    }
    guard f(hi) > 0 else { return nil }
    var lo = hi / 2
    var halvings = 0
    while f(lo) > 0 && halvings < 80 {
      hi = lo
      lo /= 2
      halvings += 1
    }
    guard !(f(lo) > 0) else { return nil }
    for _ in 0..<200 where hi - lo > 1e-13 * hi {
      let mid = (lo + hi) / 2
      if f(mid) > 0 { hi = mid } else { lo = mid }
    }
    return hi
  }

  private static func check(_ name: String, _ value: Double, _ inRange: Bool) throws(SpringError) {
    guard value.isFinite else { throw .nonFinite(parameter: name) }
    guard inRange else { throw .outOfRange(parameter: name, value: value) }
  }
}

/// The free spring's closed forms; a small value computed on demand so `Spring` stays a plain value.
struct SpringMotion {
  let omega: Double
  let zeta: Double
  let velocity: Double

  /// ζ > 1 becomes 1 (the critical spring with the same ω₀) unless `allowsOverdamping`.
  init(mass: Double, stiffness: Double, damping: Double, velocity: Double, allowsOverdamping: Bool) {
    omega = (stiffness / mass).squareRoot()
    let ratio = damping / (2 * (stiffness * mass).squareRoot())
    zeta = allowsOverdamping ? ratio : min(ratio, 1)
    self.velocity = velocity
  }

  /// How far ζ may be from 1 and still use the critical form (the other forms divide by ω_d or r₁ − r₂).
  private static let criticalBand = 1e-9

  /// x(t).
  func displacement(at t: Double) -> Double {
    if zeta < 1 - Self.criticalBand {
      let wd = omega * (1 - zeta * zeta).squareRoot()
      let b = (zeta * omega - velocity) / wd
      return exponential(-zeta * omega * t) * (cosine(wd * t) + b * sine(wd * t))
    } else if zeta <= 1 + Self.criticalBand {
      return (1 + (omega - velocity) * t) * exponential(-omega * t)
    } else {
      let (r1, r2, a) = overdampedTerms
      return a * exponential(r1 * t) + (1 - a) * exponential(r2 * t)
    }
  }

  /// x′(t).
  func displacementRate(at t: Double) -> Double {
    if zeta < 1 - Self.criticalBand {
      let wd = omega * (1 - zeta * zeta).squareRoot()
      let b = (zeta * omega - velocity) / wd
      let decay = zeta * omega
      let c = cosine(wd * t)
      let s = sine(wd * t)
      return exponential(-decay * t) * (-decay * (c + b * s) + wd * (b * c - s))
    } else if zeta <= 1 + Self.criticalBand {
      let a = omega - velocity
      return exponential(-omega * t) * (a - omega * (1 + a * t))
    } else {
      let (r1, r2, a) = overdampedTerms
      return a * r1 * exponential(r1 * t) + (1 - a) * r2 * exponential(r2 * t)
    }
  }

  /// r₁ (the slow root), r₂ (the fast root) and A for ζ > 1.
  private var overdampedTerms: (Double, Double, Double) {
    let root = (zeta * zeta - 1).squareRoot()
    let r1 = -omega * (zeta - root)
    let r2 = -omega * (zeta + root)
    return (r1, r2, (-velocity - r2) / (r1 - r2))
  }

  /// Core Animation's settling rule (see `Spring.settlingDuration`).
  func settlingDuration() -> Double {
    let epsilon = Spring.settlingEpsilon
    if zeta <= 0 { return Spring.undampedDuration }
    if zeta < 1 - Self.criticalBand {
      let wd = omega * (1 - zeta * zeta).squareRoot()
      let b = (omega * zeta - velocity) / wd
      return max(0, (-naturalLog(epsilon) + naturalLog(1 + abs(b))) / (omega * zeta))
    }
    // ζ ≥ 1: |x| has at most one zero and one extremum; after the last extremum it decays monotonically.
    // The last time |x| > ε is found by bisection, then rounded up to the 0.1 s grid Core Animation steps on.
    let last = lastTimeAboveEpsilon(epsilon)
    var steps = max(0, (last * 10 - 1e-9).rounded(.up))
    // Guard the rounding: step forward until the grid point really satisfies the rule (at most a step or two).
    var guardCount = 0
    while abs(displacement(at: steps / 10)) > epsilon && guardCount < 8 {
      steps += 1
      guardCount += 1
    }
    return steps / 10
  }

  /// sup{t ≥ 0 : |x(t)| > ε} for ζ ≥ 1.
  private func lastTimeAboveEpsilon(_ epsilon: Double) -> Double {
    // The extremum after the zero crossing (if any): x′(t*) = 0 with t* > 0.
    let extremum = extremumTime()
    var lo = 0.0
    if let extremum, abs(displacement(at: extremum)) > epsilon {
      lo = extremum
    } else if let extremum {
      // The motion crosses zero before the extremum and the overshoot stays within ε: the last excursion
      // above ε is on the way down, before the extremum.
      return bisectDownward(from: 0, to: extremum, epsilon)
    }
    // From `lo` on |x| decreases monotonically: bracket the crossing by doubling, then bisect.
    var hi = max(lo, 1 / omega) + 1 / omega
    var expansions = 0
    while abs(displacement(at: hi)) > epsilon && expansions < 200 {
      hi = lo + 2 * (hi - lo)
      expansions += 1
    }
    return bisectDownward(from: lo, to: hi, epsilon)
  }

  /// The t in [lo, hi] where |x| drops to ε, assuming |x(lo)| > ε ≥ |x(hi)| and a monotone |x| in between
  /// (or |x(lo)| ≤ ε already, which returns lo).
  private func bisectDownward(from lo: Double, to hi: Double, _ epsilon: Double) -> Double {
    var lo = lo
    var hi = hi
    if abs(displacement(at: lo)) <= epsilon { return lo }
    for _ in 0..<100 where hi - lo > 1e-12 * max(1, hi) {
      let mid = (lo + hi) / 2
      if abs(displacement(at: mid)) > epsilon { lo = mid } else { hi = mid }
    }
    return hi
  }

  /// The time t* > 0 of the extremum of x for ζ ≥ 1, if there is one.
  private func extremumTime() -> Double? {
    if zeta <= 1 + Self.criticalBand {
      // x′ = e^(−ωt)·(a − ω(1 + a t)) = 0 → t* = (a − ω)/(aω), a = ω − v₀.
      let a = omega - velocity
      guard a != 0 else { return nil }
      let t = (a - omega) / (a * omega)
      return t > 0 ? t : nil
    }
    let (r1, r2, a) = overdampedTerms
    // A r₁ e^(r₁t) + (1 − A) r₂ e^(r₂t) = 0 → e^((r₁ − r₂)t) = −(1 − A) r₂ / (A r₁).
    let ratio = -(1 - a) * r2 / (a * r1)
    guard ratio > 0, ratio.isFinite else { return nil }
    let t = naturalLog(ratio) / (r1 - r2)
    return t > 0 ? t : nil
  }
}
