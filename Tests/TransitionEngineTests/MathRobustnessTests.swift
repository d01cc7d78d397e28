import TestSupport
import Testing
import TransitionEngine

@Suite("Math: robustness sweeps")
struct MathRobustnessTests {
  @Test func randomBeziersStayWithinTheirHullAndMatchTheReference() {
    var random = SplitMix64(seed: 7)
    for _ in 0..<300 {
      let (x1, y1, x2, y2) = (random.unit(), random.range(-2, 3), random.unit(), random.range(-2, 3))
      let curve = TimingCurve.bezier(x1, y1, x2, y2)
      let t = random.unit()
      let value = curve.progress(at: t)
      // A cubic Bézier lies inside the convex hull of its control points.
      #expect(value >= min(0, y1, y2) - 1e-12 && value <= max(1, y1, y2) + 1e-12)
      #expect(
        mathClose(value, Reference.bezier(x1, y1, x2, y2, at: t), 1e-7), "(\(x1), \(y1), \(x2), \(y2)) at \(t)")
    }
  }

  @Test func randomSpringsAreFiniteAndLand() {
    var random = SplitMix64(seed: 11)
    for _ in 0..<300 {
      let spring = Spring(
        mass: random.range(0.1, 5), stiffness: random.range(1, 2000), damping: random.range(0, 200),
        initialVelocity: random.range(-30, 30))
      let times = [0, 0.3 * spring.duration, 0.95 * spring.duration, spring.duration]
      let values = times.map { spring.progress(at: $0) }
      if spring.damping > 0 {
        #expect(values.allSatisfy { $0.isFinite })
        #expect(values.last == 1)
        #expect(spring.settlingDuration.isFinite && spring.settlingDuration >= 0)
      }
      let uikit = Spring(
        dampingRatio: random.range(0.01, 1), initialVelocity: random.range(-30, 30), duration: random.range(0.05, 3))
      #expect(uikit.stiffness.isFinite && uikit.damping.isFinite)
      #expect(uikit.progress(at: uikit.duration) == 1 && uikit.progress(at: uikit.duration / 2).isFinite)
    }
  }

  @Test func randomTransformsDecomposeAndRecompose() {
    var random = SplitMix64(seed: 23)
    for _ in 0..<300 {
      let m = Transform3D(
        rotationAngle: random.range(-4, 4), x: random.range(-1, 1), y: random.range(-1, 1), z: random.unit()
      )
      .concatenating(Transform3D(scaleX: random.range(-3, 3), y: random.range(0.1, 3), z: random.range(0.1, 3)))
      .concatenating(
        Transform3D(translationX: random.range(-500, 500), y: random.range(-500, 500), z: random.range(-50, 50))
      )
      .concatenating(Transform3D(perspectiveDistance: random.range(200, 2000)))
      guard let d = DecomposedTransform3D(m) else {
        #expect(abs(m.determinant) < 1e-9)
        continue
      }
      let back = d.recomposed
      let scale = m.values.map(abs).max()!
      #expect(zip(back.values, m.values.map { $0 / m.m44 }).allSatisfy { mathClose($0, $1, 1e-9 * scale) })
      // Interpolating toward the identity stays finite everywhere.
      for f in [0.1, 0.5, 0.9, 1.3] {
        #expect(Transform3D.interpolate(from: m, to: .identity, fraction: f).isFinite)
      }
    }
  }
}
