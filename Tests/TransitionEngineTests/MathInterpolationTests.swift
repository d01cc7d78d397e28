import TestSupport
import Testing
import TransitionEngine

@Suite("Math: interpolation and animation timing")
struct MathInterpolationTests {
  @Test func valuesBlendComponentwise() {
    #expect(Double.interpolate(from: 2, to: 6, fraction: 0.25) == 3)
    #expect(Double.interpolate(from: 2, to: 6, fraction: 1.5) == 8)
    #expect(Point.interpolate(from: Point(x: 0, y: 10), to: Point(x: 10, y: 0), fraction: 0.3) == Point(x: 3, y: 7))
    #expect(Size.interpolate(from: .zero, to: Size(width: 8, height: 4), fraction: 0.5) == Size(width: 4, height: 2))
    #expect(
      Rect.interpolate(
        from: Rect(x: 0, y: 0, width: 10, height: 10), to: Rect(x: 10, y: 20, width: 30, height: 50), fraction: 0.5)
        == Rect(x: 5, y: 10, width: 20, height: 30))
    let c = Color.interpolate(
      from: Color(r: 0, g: 1, b: 0.5, a: 0), to: Color(r: 1, g: 0, b: 0.5, a: 1), fraction: 0.25)
    #expect(c == Color(r: 0.25, g: 0.75, b: 0.5, a: 0.25))
    // Endpoints are exact even where a + (b − a)·1 would round.
    #expect(Double.interpolate(from: 0.1, to: 0.7, fraction: 1) == 0.7)
  }

  @Test func distancesAreEuclidean() {
    #expect(Point.distance(from: Point(x: 1, y: 1), to: Point(x: 4, y: 5)) == 5)
    #expect(Double.distance(from: 3, to: -1) == 4)
    #expect(Rect.distance(from: .zero, to: Rect(x: 1, y: 1, width: 1, height: 1)) == 2)
    #expect(Color.distance(from: .black, to: .white) == 3.0.squareRoot())
    #expect(Transform3D.distance(from: .identity, to: Transform3D(translationX: 3, y: 4)) == 5)
  }

  @Test func combineIsAnAffineCombination() {
    #expect(Double.combine(1, 0.5, 3, 0.25, 5, 0.25, 100, 0) == 2.5)
    let p = Point.combine(
      Point(x: 0, y: 0), 0.25, Point(x: 4, y: 0), 0.25, Point(x: 0, y: 4), 0.25, Point(x: 4, y: 4), 0.25)
    #expect(p == Point(x: 2, y: 2))
    // Transforms combine by components: equal weights of two translations give the midpoint.
    let t = Transform3D.combine(
      Transform3D(translationX: 0, y: 0), 0.5, Transform3D(translationX: 10, y: 20), 0.5, .identity, 0, .identity, 0)
    #expect(t == Transform3D(translationX: 5, y: 10))
  }

  @Test func gradientsBlendColoursLocationsAndPoints() {
    let a = Gradient(colors: [.black, .white])
    let b = Gradient(
      colors: [.white, .black], locations: [0.2, 0.6], startPoint: Point(x: 0, y: 0), endPoint: Point(x: 1, y: 1))
    let mid = Gradient.interpolate(from: a, to: b, fraction: 0.5)
    #expect(mid.colors == [Color(r: 0.5, g: 0.5, b: 0.5), Color(r: 0.5, g: 0.5, b: 0.5)])
    // nil locations count as evenly spaced (0, 1).
    #expect(mid.locations == [0.1, 0.8])
    #expect(mid.startPoint == Point(x: 0.25, y: 0) && mid.endPoint == Point(x: 0.75, y: 1))
    #expect(Gradient.interpolate(from: a, to: a, fraction: 0.5).locations == nil)
    // Different colour counts: discrete at 0.5.
    let three = Gradient(colors: [.black, .white, .black])
    #expect(Gradient.interpolate(from: a, to: three, fraction: 0.49) == a)
    #expect(Gradient.interpolate(from: a, to: three, fraction: 0.5) == three)
    #expect(three.effectiveLocations == [0, 0.5, 1])
    #expect(Gradient(colors: [.black, .white], locations: [0.5]).effectiveLocations == [0, 1])
  }

  @Test func curveTimingStretchesOverTheDuration() {
    let timing = AnimationTiming.curve(.easeInOut)
    #expect(timing.progress(elapsed: 0, duration: 2) == 0)
    #expect(
      mathClose(timing.progress(elapsed: 0.5, duration: 2), Reference.bezier(0.42, 0, 0.58, 1, at: 0.25), 1e-7))
    #expect(timing.progress(elapsed: 2, duration: 2) == 1)
    #expect(timing.progress(elapsed: 3, duration: 2) == 1)
    #expect(timing.progress(elapsed: -1, duration: 2) == 0)
    #expect(timing.naturalDuration == nil)
    // A zero duration finishes at once.
    #expect(timing.progress(elapsed: 0, duration: 0) == 1)
    #expect(AnimationTiming.curve(.linear).velocity(elapsed: 1, duration: 4) == 0.25)
  }

  @Test func springTimingUsesPhysicalTimeAtItsOwnDuration() {
    let spring = Spring(mass: 1, stiffness: 100, damping: 10, initialVelocity: 1)
    let timing = AnimationTiming.spring(spring)
    #expect(timing.naturalDuration == spring.duration)
    let x = mathRK4Spring(mass: 1, stiffness: 100, damping: 10, v0: 1, times: [0.3])[0]
    #expect(mathClose(timing.progress(elapsed: 0.3, duration: spring.duration), 1 - x, 1e-9))
    // Played in half the time: the same shape, twice as fast.
    #expect(
      mathClose(timing.progress(elapsed: 0.15, duration: spring.duration / 2), 1 - x, 1e-9))
    #expect(mathClose(timing.velocity(elapsed: 0, duration: spring.duration), 1, 1e-12))
    #expect(mathClose(timing.velocity(elapsed: 0, duration: spring.duration / 2), 2, 1e-12))
    #expect(timing.progress(elapsed: spring.duration, duration: spring.duration) == 1)
  }
}

@Suite("Math: transform keyframe combinations")
struct MathTransformCombineTests {
  @Test func planarCombinationBlendsAnglesTheShortWay() {
    // Equal weights of +170° and −170° about z: the unwrapped angles average to 180°, not 0°.
    let a = Transform3D(rotationAngle: 170 * .pi / 180, x: 0, y: 0, z: 1)
    let b = Transform3D(rotationAngle: -170 * .pi / 180, x: 0, y: 0, z: 1)
    let mid = Transform3D.combine(a, 0.5, b, 0.5, .identity, 0, .identity, 0)
    #expect(mathClose(mid.m11, -1, 1e-12) && mathClose(mid.m12, 0, 1e-12))
    // Rotation about x is not affine: the 3-D branch (quaternions) gives the 45° rotation halfway to 90°.
    let x90 = Transform3D(rotationAngle: .pi / 2, x: 1, y: 0, z: 0)
    let x45 = Transform3D.combine(.identity, 0.5, x90, 0.5, .identity, 0, .identity, 0)
    #expect(mathClose(x45.m22, mathCos(.pi / 4), 1e-12) && mathClose(x45.m23, mathSin(.pi / 4), 1e-12))
    // A non-decomposable member: the heaviest weight wins.
    let zero = Transform3D(scaleX: 0, y: 0)
    #expect(Transform3D.combine(zero, 0.2, .identity, 0.7, zero, 0.1, zero, 0) == .identity)
  }
}
