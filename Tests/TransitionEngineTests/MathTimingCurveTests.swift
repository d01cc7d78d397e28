import TestSupport
import Testing
import TransitionEngine

private let named: [(TimingCurve, (Double, Double, Double, Double))] = [
  (.linear, (0, 0, 1, 1)),
  (.easeIn, (0.42, 0, 1, 1)),
  (.easeOut, (0, 0, 0.58, 1)),
  (.easeInOut, (0.42, 0, 0.58, 1)),
  (.default, (0.25, 0.1, 0.25, 1)),
]

@Suite("Math: timing curves")
struct MathTimingCurveTests {
  @Test func namedCurvesUseApplesControlPoints() {
    for (curve, p) in named {
      let c = curve.controlPoints!
      #expect(c.x1 == p.0 && c.y1 == p.1 && c.x2 == p.2 && c.y2 == p.3)
    }
    #expect(TimingCurve.steps(3, .end).controlPoints == nil)
  }

  @Test func wireNamesRoundTrip() {
    for (name, curve) in [
      ("linear", TimingCurve.linear), ("easeIn", .easeIn), ("easeOut", .easeOut), ("easeInOut", .easeInOut),
      ("default", .default),
    ] {
      #expect(TimingCurve(name: name) == curve)
      #expect(curve.name == name)
    }
    #expect(TimingCurve(name: "easeInEaseOut") == nil)
    #expect(TimingCurve.bezier(0, 0, 1, 1).name == nil)
  }

  @Test func endpointsAreExact() {
    let curves: [TimingCurve] = named.map(\.0) + [.bezier(0.175, 0.885, 0.32, 1.275), .bezier(0, 1, 0, 1)]
    for curve in curves {
      #expect(curve.progress(at: 0) == 0)
      #expect(curve.progress(at: 1) == 1)
      // Input is clamped to [0, 1].
      #expect(curve.progress(at: -3) == 0)
      #expect(curve.progress(at: 7) == 1)
      #expect(curve.progress(at: .nan) == 0)
    }
  }

  @Test func easeInOutIsPointSymmetric() {
    for i in 0...200 {
      let t = Double(i) / 200
      let f = TimingCurve.easeInOut.progress(at: t)
      let g = TimingCurve.easeInOut.progress(at: 1 - t)
      #expect(mathClose(g, 1 - f, 1e-7), "t = \(t)")
    }
    #expect(mathClose(TimingCurve.easeInOut.progress(at: 0.5), 0.5, 1e-12))
  }

  @Test func easeInAndEaseOutMirrorEachOther() {
    // easeOut's control points are easeIn's rotated by 180° about (0.5, 0.5): easeOut(t) = 1 − easeIn(1 − t).
    for i in 0...100 {
      let t = Double(i) / 100
      #expect(mathClose(TimingCurve.easeOut.progress(at: t), 1 - TimingCurve.easeIn.progress(at: 1 - t), 1e-7))
    }
  }

  @Test func namedCurvesAreMonotonic() {
    for (curve, _) in named {
      var previous = 0.0
      for i in 1...1000 {
        let value = curve.progress(at: Double(i) / 1000)
        #expect(value >= previous)
        previous = value
      }
    }
  }

  @Test func bezierMatchesAnIndependentHighPrecisionSolve() {
    let curves: [(Double, Double, Double, Double)] =
      named.map(\.1) + [
        (0.175, 0.885, 0.32, 1.275),  // Hero's easeOutBack: y overshoots
        (0, 1, 0, 1),  // x(s) = s³: steep start, Newton's derivative vanishes at 0
        (1, 0, 1, 0),  // x′ vanishes at the end
        (0.4, 0, 0.2, 1),  // Material standard
        (0.9, -0.5, 0.1, 1.5),  // y below 0 and above 1
      ]
    for (x1, y1, x2, y2) in curves {
      let curve = TimingCurve.bezier(x1, y1, x2, y2)
      for i in 0...1000 {
        let t = Double(i) / 1000
        let expected = Reference.bezier(x1, y1, x2, y2, at: t)
        #expect(mathClose(curve.progress(at: t), expected, 1e-7), "(\(x1), \(y1), \(x2), \(y2)) at \(t)")
      }
    }
  }

  @Test func slopeMatchesTheReferenceDerivative() {
    for (curve, p) in named {
      for t in [0.1, 0.3, 0.5, 0.8] {
        let h = 1e-6
        let numeric =
          (Reference.bezier(p.0, p.1, p.2, p.3, at: t + h) - Reference.bezier(p.0, p.1, p.2, p.3, at: t - h))
          / (2 * h)
        #expect(mathClose(curve.slope(at: t), numeric, 1e-5))
      }
    }
    #expect(TimingCurve.linear.slope(at: 0.3) == 1)
    #expect(TimingCurve.steps(4, .end).slope(at: 0.3) == 0)
  }

  @Test func validationRejectsOutOfRangeX() throws {
    #expect(throws: TimingCurveError.controlPointXOutOfRange(-0.1)) {
      try TimingCurve.validatedBezier(-0.1, 0, 0.5, 1)
    }
    #expect(throws: TimingCurveError.controlPointXOutOfRange(1.5)) {
      try TimingCurve.validatedBezier(0.5, 0, 1.5, 1)
    }
    #expect(throws: TimingCurveError.nonFiniteControlPoint) { try TimingCurve.validatedBezier(0.5, .nan, 0.5, 1) }
    #expect(throws: TimingCurveError.invalidStepCount(0)) { try TimingCurve.validatedSteps(0, .end) }
    // y is free to overshoot.
    #expect(try TimingCurve.validatedBezier(0.2, -1, 0.8, 2) == .bezier(0.2, -1, 0.8, 2))
    #expect(try TimingCurve.validatedSteps(2, .start) == .steps(2, .start))
  }

  @Test func unvalidatedBadInputDoesNotCrash() {
    // x outside [0, 1] is clamped at evaluation: (−1, 0, 2, 1) behaves as (0, 0, 1, 1) = linear.
    #expect(mathClose(TimingCurve.bezier(-1, 0, 2, 1).progress(at: 0.3), 0.3, 1e-7))
    #expect(TimingCurve.bezier(0.5, .infinity, 0.5, 1).progress(at: 0.5).isFinite)
    #expect(TimingCurve.steps(0, .end).progress(at: 0.5) == 0)
    #expect(TimingCurve.steps(-3, .start).progress(at: 0.5) == 1)
  }

  @Test func stepsFollowCSSJumpStartAndJumpEnd() {
    let end = TimingCurve.steps(4, .end)
    #expect(end.progress(at: 0) == 0)
    #expect(end.progress(at: 0.249) == 0)
    #expect(end.progress(at: 0.25) == 0.25)
    #expect(end.progress(at: 0.99) == 0.75)
    #expect(end.progress(at: 1) == 1)
    let start = TimingCurve.steps(4, .start)
    #expect(start.progress(at: 0) == 0.25)
    #expect(start.progress(at: 0.249) == 0.25)
    #expect(start.progress(at: 0.25) == 0.5)
    #expect(start.progress(at: 0.99) == 1)
    #expect(start.progress(at: 1) == 1)
  }

  @Test func validatedHugeStepCountsDoNotTrap() throws {
    // validatedSteps accepts any n ≥ 1. Int.max as a Double is 2⁶³, so t = 1 gives ⌊2⁶³⌋ steps (capped at n:
    // progress 1), t = 0.5 gives exactly 2⁶² of 2⁶³ (0.5), and jump-start at 0 gives one step, 2⁻⁶³.
    let end = try TimingCurve.validatedSteps(Int.max, .end)
    #expect(end.progress(at: 1) == 1)
    #expect(end.progress(at: 0.5) == 0.5)
    #expect(end.progress(at: 0) == 0)
    let start = try TimingCurve.validatedSteps(Int.max, .start)
    #expect(start.progress(at: 1) == 1)
    #expect(start.progress(at: 0) == 0x1p-63)
  }
}
