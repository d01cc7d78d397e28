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
    // Independently: step an RK4 solution by 0.1 s until |x| ≤ ε from then on.
    for (damping, v0) in [(20.0, 0.0), (50, 0), (50, 30), (20, 25), (35, -4)] {
      let spring = Spring(mass: 1, stiffness: 100, damping: damping, initialVelocity: v0)
      let grid = (0...120).map { Double($0) / 10 }
      let xs = mathRK4Spring(mass: 1, stiffness: 100, damping: damping, v0: v0, times: grid)
      let lastAbove = xs.lastIndex { abs($0) > 0.001 } ?? -1
      let expected = Double(lastAbove + 1) / 10
      #expect(mathClose(spring.settlingDuration, expected, 1e-9), "c = \(damping), v0 = \(v0)")
    }
    // ζ = 0 never settles.
    #expect(Spring(mass: 1, stiffness: 100, damping: 0).settlingDuration == Double(Float.greatestFiniteMagnitude))
  }

  @Test func closedFormsMatchANumericalIntegrationInAllRegimes() {
    // under (ζ 0.25), critical (ζ 1), over (ζ 2.5), with initial velocities in both directions.
    let cases: [(m: Double, k: Double, c: Double, v0: Double)] = [
      (1, 100, 5, 0), (1, 100, 5, 3), (2, 300, 10, -2),
      (1, 100, 20, 0), (1, 100, 20, 12),
      (1, 100, 50, 0), (3, 1000, 500, 1.5), (1, 100, 50, 40),
    ]
    for s in cases {
      let spring = Spring(mass: s.m, stiffness: s.k, damping: s.c, initialVelocity: s.v0)
      let times = (0...60).map { Double($0) * 0.9 * spring.duration / 60 }
      let reference = mathRK4Spring(mass: s.m, stiffness: s.k, damping: s.c, v0: s.v0, times: times)
      for (t, x) in zip(times, reference) {
        #expect(mathClose(spring.displacement(at: t), x, 1e-9), "\(s) at \(t)")
        // Before the landing blend (the last 10 %), progress is exactly the closed form.
        #expect(mathClose(spring.progress(at: t), 1 - x, 1e-9), "\(s) at \(t)")
      }
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

  @Test func uikitSpringLastsExactlyItsDurationAndLands() {
    for (zeta, duration, v) in [(0.5, 0.5, 0.0), (1.0, 1.0, 0), (0.25, 2.0, 1.5), (0.7, 0.3, -1)] {
      let s = Spring(dampingRatio: zeta, initialVelocity: v, duration: duration)
      #expect(s.duration == duration)
      #expect(s.progress(at: 0) == 0)
      #expect(s.progress(at: duration) == 1)
      #expect(s.progress(at: duration + 5) == 1)
      #expect(s.velocity(at: duration) == 0)
      // The landing stays within the residual of the physical spring, which is ε-sized at T.
      let times = (0...100).map { Double($0) * duration / 100 }
      let reference = mathRK4Spring(mass: 1, stiffness: s.stiffness, damping: s.damping, v0: v, times: times)
      let residual = abs(reference[100])
      #expect(residual < 0.005)
      for (t, x) in zip(times, reference) {
        let exact = 1 - x
        if t <= 0.9 * duration {
          #expect(mathClose(s.progress(at: t), exact, 1e-9))
        } else {
          #expect(abs(s.progress(at: t) - exact) <= residual + 1e-9)
        }
      }
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
    // It lasts its settling duration unless told otherwise.
    #expect(over.duration == over.settlingDuration)
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
