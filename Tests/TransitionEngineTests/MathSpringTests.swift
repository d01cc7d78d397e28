import Testing
import TransitionEngine

@Suite("Math: springs")
struct MathSpringTests {
  @Test func applesPublishedSettlingFigures() {
    // CASpringAnimation.settlingDuration docs: mass 1, stiffness 100, damping 5 → about 2.85 s.
    let five = Spring(mass: 1, stiffness: 100, damping: 5)
    #expect(mathClose(five.settlingDuration, 2.85, 0.01))
    // The rule by hand: ω₀ = 10, ζ = 0.25, B = 2.5/(10·√0.9375), T = (ln 1000 + ln(1 + B))/2.5.
    let b = 2.5 / (10 * (0.9375).squareRoot())
    #expect(mathClose(five.settlingDuration, (mathLog(1000) + mathLog(1 + b)) / 2.5, 1e-12))
    // Damping 15 → "just over 1 second".
    let fifteen = Spring(mass: 1, stiffness: 100, damping: 15).settlingDuration
    #expect(fifteen > 1 && fifteen < 1.1)
    // Without a duration a mass/stiffness spring lasts its settling duration.
    #expect(five.duration == five.settlingDuration)
    #expect(Spring(mass: 1, stiffness: 100, damping: 5, duration: 0.7).duration == 0.7)
  }

  @Test func criticalAndOverdampedSettlingStepsBy100ms() {
    // ζ = 1 (c = 20): (1 + 10t)e^(−10t) is 1.23e-3 at 0.9 s and 5.0e-4 at 1.0 s.
    #expect(Spring(mass: 1, stiffness: 100, damping: 20).settlingDuration == 1.0)
    // Independently: step an RK4 solution by 0.1 s until |x| ≤ ε from then on. Over-damped springs are integrated
    // with their own damping when they allow it, and with the critical c = 2√(km) = 20 when they do not (Core
    // Animation's clamp).
    for (damping, v0) in [(20.0, 0.0), (50, 0), (50, 30), (20, 25), (35, -4)] {
      for allows in [false, true] {
        let spring = Spring(
          mass: 1, stiffness: 100, damping: damping, initialVelocity: v0, allowsOverdamping: allows)
        let grid = (0...120).map { Double($0) / 10 }
        let moving = allows ? damping : min(damping, 20)
        let xs = mathRK4Spring(mass: 1, stiffness: 100, damping: moving, v0: v0, times: grid)
        let lastAbove = xs.lastIndex { abs($0) > 0.001 } ?? -1
        let expected = Double(lastAbove + 1) / 10
        #expect(mathClose(spring.settlingDuration, expected, 1e-9), "c = \(damping), v0 = \(v0), over \(allows)")
        #expect(spring.duration == spring.settlingDuration)
      }
    }
    // ζ = 0 never settles.
    #expect(Spring(mass: 1, stiffness: 100, damping: 0).settlingDuration == Double(Float.greatestFiniteMagnitude))
  }

  @Test func closedFormsMatchANumericalIntegrationInAllRegimes() {
    // under (ζ 0.25), critical (ζ 1), over (ζ 2.5, ζ 4.56), with initial velocities in both directions. An
    // over-damped spring moves as integrated with its own damping when it allows over-damping, and as the critical
    // one with the same ω₀ (c = 2√(km)) when it does not.
    let cases: [(m: Double, k: Double, c: Double, v0: Double)] = [
      (1, 100, 5, 0), (1, 100, 5, 3), (2, 300, 10, -2),
      (1, 100, 20, 0), (1, 100, 20, 12),
      (1, 100, 50, 0), (3, 1000, 500, 1.5), (1, 100, 50, 40),
    ]
    for s in cases {
      for allows in [false, true] {
        let spring = Spring(
          mass: s.m, stiffness: s.k, damping: s.c, initialVelocity: s.v0, allowsOverdamping: allows)
        let moving = allows ? s.c : min(s.c, 2 * (s.k * s.m).squareRoot())
        let times = (0..<60).map { Double($0) * spring.duration / 60 }
        let reference = mathRK4Spring(mass: s.m, stiffness: s.k, damping: moving, v0: s.v0, times: times)
        for (t, x) in zip(times, reference) {
          #expect(mathClose(spring.displacement(at: t), x, 1e-9), "\(s), over \(allows) at \(t)")
          // Progress is the closed form for the whole duration (Core Animation has no landing blend)…
          #expect(mathClose(spring.progress(at: t), t > 0 ? 1 - x : 0, 1e-9), "\(s), over \(allows) at \(t)")
        }
        // … and exactly 1 from the duration on.
        #expect(spring.progress(at: spring.duration) == 1 && spring.progress(at: spring.duration + 1) == 1)
      }
    }
  }

  /// UINavigationController's push spring, spring(3 1000 500 0) (ζ ≈ 4.56), as Core Animation runs it: the critical
  /// spring with ω₀ = √(1000/3), x = (1 + ω₀t)·e^(−ω₀t), settling at 0.6 s; with over-damping allowed, the over-damped
  /// form x = A·e^(r₁t) + (1 − A)·e^(r₂t), r₁,₂ = −ω₀(ζ ∓ √(ζ² − 1)), A = −r₂/(r₁ − r₂), settling after 3 s.
  @Test func overdampedSpringsMoveCriticallyUnlessAllowed() {
    let w = (1000.0 / 3).squareRoot()
    let zeta = 500 / (2 * (3000.0).squareRoot())
    let clamped = Spring(mass: 3, stiffness: 1000, damping: 500)
    #expect(!clamped.allowsOverdamping && mathClose(clamped.dampingRatio, zeta, 1e-15))
    #expect(clamped.settlingDuration == 0.6 && clamped.duration == 0.6)
    let root = (zeta * zeta - 1).squareRoot()
    let r1 = -w * (zeta - root)
    let r2 = -w * (zeta + root)
    let a = -r2 / (r1 - r2)
    let over = Spring(mass: 3, stiffness: 1000, damping: 500, allowsOverdamping: true)
    #expect(over.settlingDuration > 3 && over.settlingDuration < 4)
    for t in stride(from: 0.0, through: 0.6, by: 0.01) {
      #expect(mathClose(clamped.displacement(at: t), (1 + w * t) * mathExp(-w * t), 1e-12), "at \(t)")
      #expect(mathClose(over.displacement(at: t), a * mathExp(r1 * t) + (1 - a) * mathExp(r2 * t), 1e-12), "at \(t)")
    }
    // The over-damped rule for the settling duration: the first 0.1 s step after which x stays within ε.
    let overX = { (t: Double) in a * mathExp(r1 * t) + (1 - a) * mathExp(r2 * t) }
    #expect(overX(over.settlingDuration) <= 0.001 && overX(over.settlingDuration - 0.1) > 0.001)
    // Validation passes the flag through.
    #expect(throws: Never.self) {
      let checked = try Spring.validated(mass: 3, stiffness: 1000, damping: 500, allowsOverdamping: true)
      #expect(checked == over)
    }
  }

  @Test func velocityIsInFractionsOfTheDistancePerSecond() {
    let spring = Spring(mass: 1, stiffness: 200, damping: 12, initialVelocity: 2.5)
    #expect(mathClose(spring.velocity(at: 0), 2.5, 1e-12))
    // Central difference of the RK4 solution: p′ = −x′.
    for t in [0.05, 0.2, 0.4] {
      let h = 1e-4
      let xs = mathRK4Spring(mass: 1, stiffness: 200, damping: 12, v0: 2.5, times: [t - h, t + h], dt: 1e-5)
      #expect(mathClose(spring.velocity(at: t), -(xs[1] - xs[0]) / (2 * h), 1e-5))
    }
    #expect(spring.velocity(at: spring.duration) == 0)
    // No landing: just before the end the velocity is still the closed form's −x′(t).
    let late = spring.duration * 0.99
    let xs = mathRK4Spring(mass: 1, stiffness: 200, damping: 12, v0: 2.5, times: [late - 1e-4, late + 1e-4], dt: 1e-5)
    #expect(mathClose(spring.velocity(at: late), -(xs[1] - xs[0]) / 2e-4, 1e-6))
  }

  @Test func framersPublishedCheckValue() {
    // framer/SpringsExample: duration 3, damping ratio 0.25 → tension 54.83363359078326, friction 3.702486785620688.
    let spring = Spring(dampingRatio: 0.25, duration: 3)
    #expect(mathClose(spring.stiffness, 54.83363359078326, 1e-9))
    #expect(mathClose(spring.damping, 3.702486785620688, 1e-9))
    #expect(spring.mass == 1)
    #expect(mathClose(spring.dampingRatio, 0.25, 1e-12))
  }

  @Test func uikitSpringEnvelopeIsEpsilonAtItsDuration() {
    // The solve's target: max(|B|, B₀)·e^(−ζω₀T) = 0.001 with B = (ζω₀ − v)/(ω₀√(1 − ζ²)), B₀ = ζ/√(1 − ζ²)
    // (Framer's envelope ((ζω₀ − v)/(ω₀√(1 − ζ²)))·e^(−ζω₀T) whenever v ≤ 0).
    for (zeta, duration, v) in [(0.5, 0.5, 0.0), (0.8, 1.2, 0.3), (0.3, 0.35, 0), (0.6, 0.8, -2)] {
      let s = Spring(dampingRatio: zeta, initialVelocity: v, duration: duration)
      let w = s.stiffness.squareRoot()
      let root = (1 - zeta * zeta).squareRoot()
      let b = max(abs((zeta * w - v) / (w * root)), zeta / root)
      #expect(mathClose(b * mathExp(-zeta * w * duration), 0.001, 1e-9), "ζ \(zeta), T \(duration)")
      if v <= 0 {
        let framer = (zeta * w - v) / (w * root) * mathExp(-zeta * w * duration)
        #expect(mathClose(framer, 0.001, 1e-9))
      }
    }
    // ζ = 1: (1 + (ω₀ − v)T)e^(−ω₀T) = 0.001.
    let critical = Spring(dampingRatio: 1, duration: 0.5)
    let w = critical.stiffness.squareRoot()
    #expect(mathClose((1 + w * 0.5) * mathExp(-w * 0.5), 0.001, 1e-9))
    let away = Spring(dampingRatio: 1, initialVelocity: -4, duration: 0.5)
    let wa = away.stiffness.squareRoot()
    #expect(mathClose((1 + (wa + 4) * 0.5) * mathExp(-wa * 0.5), 0.001, 1e-9))
  }

  @Test func uikitSpringStaysPhysicalWithLargeInitialVelocities() {
    // Framer's own iteration collapses to k ≈ 0 when v₀ > ζω (its envelope term turns negative). The envelope
    // term kept at or above its value at rest bounds the real displacement at T by ε/ζ (ζ < 1) or ε (ζ = 1).
    for zeta in [0.1, 0.5, 0.9, 1] {
      for v in [-20.0, -3, 3, 10, 50, 500] {
        for duration in [0.2, 0.5, 2] {
          let s = Spring(dampingRatio: zeta, initialVelocity: v, duration: duration)
          #expect(s.stiffness.isFinite && s.stiffness > 1, "ζ \(zeta) v \(v) T \(duration)")
          let x = mathRK4Spring(mass: 1, stiffness: s.stiffness, damping: s.damping, v0: v, times: [duration], dt: 1e-5)
          let bound = zeta < 1 ? 0.001 / zeta : 0.001
          #expect(abs(x[0]) <= bound * (1 + 1e-6), "ζ \(zeta) v \(v) T \(duration): x(T) = \(x[0])")
          #expect(s.progress(at: duration) == 1)
        }
      }
    }
  }

  @Test func uikitSpringLastsExactlyItsDurationThenJumpsByItsResidual() {
    for (zeta, duration, v) in [(0.5, 0.5, 0.0), (1.0, 1.0, 0), (0.25, 2.0, 1.5), (0.7, 0.3, -1)] {
      let s = Spring(dampingRatio: zeta, initialVelocity: v, duration: duration)
      #expect(s.duration == duration)
      #expect(s.progress(at: 0) == 0)
      #expect(s.progress(at: duration) == 1)
      #expect(s.progress(at: duration + 5) == 1)
      #expect(s.velocity(at: duration) == 0)
      // The closed form up to the end, as Core Animation presents it; then the model value, a jump by the residual
      // x(T), which the ε = 0.001 envelope keeps small.
      let times = (0..<100).map { Double($0) * duration / 100 } + [duration * (1 - 1e-9)]
      let reference = mathRK4Spring(mass: 1, stiffness: s.stiffness, damping: s.damping, v0: v, times: times)
      for (t, x) in zip(times, reference) {
        #expect(mathClose(s.progress(at: t), t > 0 ? 1 - x : 0, 1e-9), "ζ \(zeta) at \(t)")
      }
      #expect(abs(reference.last!) < 0.005)
    }
  }

  @Test func durationAndBounceMatchApplesFigures() {
    // SwiftUI Spring docs: Spring(duration: 0.5, bounce: 0.3) → mass 1, stiffness 157.9, damping 17.6.
    let s = Spring(duration: 0.5, bounce: 0.3)
    #expect(s.mass == 1)
    #expect(mathClose(s.stiffness, 157.9, 0.05))
    #expect(mathClose(s.damping, 17.6, 0.05))
    #expect(mathClose(s.perceptualDuration, 0.5, 1e-12))
    #expect(mathClose(s.bounce, 0.3, 1e-12))
    // Spring(mass: 1, stiffness: 100, damping: 10) → duration 0.63, bounce 0.5.
    let back = Spring(mass: 1, stiffness: 100, damping: 10)
    #expect(mathClose(back.perceptualDuration, 0.63, 0.005))
    #expect(mathClose(back.bounce, 0.5, 1e-12))
    // Negative bounce is overdamped: ζ = 1/(1 + bounce), so bounce = 1/ζ − 1 (the reference's "1 − 1/ζ" has the
    // sign flipped: it would give +0.5 here).
    let over = Spring(duration: 0.5, bounce: -0.5)
    #expect(mathClose(over.dampingRatio, 2, 1e-12))
    #expect(mathClose(over.bounce, -0.5, 1e-12))
    // A negative bounce allows over-damping (the motion is really over-damped); a positive one needs no flag.
    #expect(over.allowsOverdamping && !s.allowsOverdamping)
    let root = (2.0 * 2 - 1).squareRoot()
    let w = 4 * Double.pi
    let (r1, r2) = (-w * (2 - root), -w * (2 + root))
    let a = -r2 / (r1 - r2)
    #expect(mathClose(over.displacement(at: 0.2), a * mathExp(r1 * 0.2) + (1 - a) * mathExp(r2 * 0.2), 1e-12))
    // It lasts its settling duration unless told otherwise.
    #expect(over.duration == over.settlingDuration)
    #expect(s.duration == s.settlingDuration)
    #expect(Spring(duration: 0.5, bounce: 0, animationDuration: 0.5).duration == 0.5)
  }

  @Test func badInputNeverCrashesAndValidationReportsIt() {
    let s = Spring(mass: -1, stiffness: .nan, damping: -3, initialVelocity: .infinity)
    #expect(s.mass == 1 && s.stiffness == 100 && s.damping == 0 && s.initialVelocity == 0)
    #expect(Spring(dampingRatio: .nan, duration: -1).progress(at: 0.005).isFinite)
    #expect(Spring(dampingRatio: 5, duration: 0.5).dampingRatio <= 1 + 1e-12)
    #expect(throws: SpringError.outOfRange(parameter: "mass", value: 0)) {
      try Spring.validated(mass: 0, stiffness: 100, damping: 10)
    }
    #expect(throws: SpringError.nonFinite(parameter: "stiffness")) {
      try Spring.validated(mass: 1, stiffness: .infinity, damping: 10)
    }
    #expect(throws: SpringError.outOfRange(parameter: "dampingRatio", value: 1.5)) {
      try Spring.validated(dampingRatio: 1.5, duration: 1)
    }
    #expect(throws: SpringError.outOfRange(parameter: "bounce", value: -1)) {
      try Spring.validated(duration: 0.5, bounce: -1)
    }
    #expect(throws: Never.self) { try Spring.validated(duration: 0.5, bounce: 0.2) }
  }
}
