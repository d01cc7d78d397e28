import Testing
import TransitionEngine

private func nearlyEqual(_ a: Transform3D, _ b: Transform3D, _ tolerance: Double = 1e-12) -> Bool {
  zip(a.values, b.values).allSatisfy { mathClose($0, $1, tolerance) }
}

/// R_y(θ) written out by hand in the row-vector layout: (1, 0, 0) ↦ (cos θ, 0, −sin θ).
private func rotationY(_ theta: Double) -> Transform3D {
  Transform3D(
    m11: mathCos(theta), m12: 0, m13: -mathSin(theta), m14: 0,
    m21: 0, m22: 1, m23: 0, m24: 0,
    m31: mathSin(theta), m32: 0, m33: mathCos(theta), m34: 0,
    m41: 0, m42: 0, m43: 0, m44: 1)
}

private func rotationZ(_ theta: Double) -> Transform3D {
  Transform3D(
    m11: mathCos(theta), m12: mathSin(theta), m13: 0, m14: 0,
    m21: -mathSin(theta), m22: mathCos(theta), m23: 0, m24: 0,
    m31: 0, m32: 0, m33: 1, m34: 0,
    m41: 0, m42: 0, m43: 0, m44: 1)
}

@Suite("Math: transform decomposition")
struct MathDecompositionTests {
  @Test func recomposingADecompositionGivesTheMatrixBack() throws {
    var shear = Transform3D.identity
    shear.m21 = 0.5
    shear.m31 = -0.25
    shear.m32 = 0.75
    let matrices: [Transform3D] = [
      .identity,
      Transform3D(translationX: 10, y: -20, z: 5),
      Transform3D(scaleX: 2, y: 0.5, z: 3),
      Transform3D(rotationAngle: 1.1, x: 1, y: 2, z: -0.5),
      Transform3D(rotationAngle: .pi, x: 1, y: -1, z: 0),  // 180°: the quaternion's w is 0
      Transform3D(rotationAngle: .pi, x: 0, y: 0, z: 1),
      Transform3D(scaleX: -1, y: 1, z: 1),  // a reflection
      shear.concatenating(Transform3D(rotationAngle: 0.3, x: 0, y: 1, z: 0)),
      Transform3D(perspectiveDistance: 500),
      Transform3D(scaleX: 1.5, y: 1.5).concatenating(Transform3D(rotationAngle: -0.7, x: 0.2, y: 1, z: 0.1))
        .concatenating(Transform3D(translationX: 30, y: 40, z: -50)).concatenating(
          Transform3D(perspectiveDistance: 800)),
    ]
    for m in matrices {
      let d = try #require(DecomposedTransform3D(m))
      // The decomposition describes M/m44 (the same projective map), so compare after that normalization.
      let normalized = Transform3D(values: m.values.map { $0 / m.m44 })!
      #expect(nearlyEqual(d.recomposed, normalized, 1e-12), "\(m.values)")
    }
  }

  @Test func componentsOfASimpleMatrix() throws {
    // Scale (2, 3, 1), then rotate 90° about z, then translate (5, 6, 0).
    let m = Transform3D(scaleX: 2, y: 3).concatenating(rotationZ(.pi / 2))
      .concatenating(Transform3D(translationX: 5, y: 6))
    let d = try #require(DecomposedTransform3D(m))
    #expect(d.translation == (5, 6, 0))
    #expect(mathClose(d.scale.x, 2, 1e-12) && mathClose(d.scale.y, 3, 1e-12) && mathClose(d.scale.z, 1, 1e-12))
    // 90° about +z: q = (0, 0, sin 45°, cos 45°).
    #expect(mathClose(d.quaternion.z, 0.5.squareRoot(), 1e-12) && mathClose(d.quaternion.w, 0.5.squareRoot(), 1e-12))
    #expect(d.perspective == (0, 0, 0, 1))
    // Perspective alone lands in the perspective vector.
    let p = try #require(DecomposedTransform3D(Transform3D(perspectiveDistance: 250)))
    #expect(p.perspective == (0, 0, -0.004, 1))
  }

  @Test func rotationsAboutYInterpolateByAngle() {
    let from = Transform3D(rotationAngle: 20 * .pi / 180, x: 0, y: 1, z: 0)
    let to = Transform3D(rotationAngle: 80 * .pi / 180, x: 0, y: 1, z: 0)
    for f in [0.1, 0.25, 0.5, 0.9] {
      let angle = (20 + 60 * f) * .pi / 180
      #expect(nearlyEqual(Transform3D.interpolate(from: from, to: to, fraction: f), rotationY(angle)), "f = \(f)")
    }
    // Overshoot (a spring) continues along the same rotation.
    #expect(nearlyEqual(Transform3D.interpolate(from: from, to: to, fraction: 1.2), rotationY(92 * .pi / 180)))
  }

  @Test func rotationTakesTheShorterArc() {
    // 170° → −170° passes through 180°, not through 0°.
    let mid = Transform3D.interpolate(
      from: rotationZ(170 * .pi / 180), to: rotationZ(-170 * .pi / 180), fraction: 0.5)
    #expect(nearlyEqual(mid, rotationZ(.pi)))
  }

  @Test func scaleAndTranslateInterpolateLinearly() {
    // S(1)·T(0) → S(3, 5)·T(100, 50): halfway S(2, 3)·T(50, 25).
    let to = Transform3D(scaleX: 3, y: 5).concatenating(Transform3D(translationX: 100, y: 50))
    let mid = Transform3D.interpolate(from: .identity, to: to, fraction: 0.5)
    let expected = Transform3D(scaleX: 2, y: 3).concatenating(Transform3D(translationX: 50, y: 25))
    #expect(nearlyEqual(mid, expected))
    // Rotation and translation together: R(90°)·T(100, 0) → halfway R(45°)·T(50, 0).
    let rt = rotationZ(.pi / 2).concatenating(Transform3D(translationX: 100, y: 0))
    #expect(
      nearlyEqual(
        Transform3D.interpolate(from: .identity, to: rt, fraction: 0.5),
        rotationZ(.pi / 4).concatenating(Transform3D(translationX: 50, y: 0))))
  }

  @Test func perspectiveAndSkewInterpolateLinearly() {
    let mid = Transform3D.interpolate(from: .identity, to: Transform3D(perspectiveDistance: 500), fraction: 0.5)
    var expected = Transform3D.identity
    expected.m34 = -0.001
    #expect(nearlyEqual(mid, expected, 1e-15))
    // A 3-D shear (made non-affine by a z translation) blends its skew factor linearly.
    var shear = Transform3D(translationX: 0, y: 0, z: 10)
    shear.m21 = 0.5
    var halfShear = Transform3D(translationX: 0, y: 0, z: 5)
    halfShear.m21 = 0.25
    #expect(nearlyEqual(Transform3D.interpolate(from: .identity, to: shear, fraction: 0.5), halfShear))
  }

  @Test func affineEndsUseTheTwoDimensionalDecomposition() {
    // CSS 2-D unmatrix of the shear rows (1, 0), (0.5, 1) by hand: sx = 1, sy = √1.25, angle 0,
    // K = [[1, 0], [0.5/√1.25, 1/√1.25]]. Halfway from the identity: sy = (1 + √1.25)/2 and K's second row is the
    // average of (0, 1) and K's, so m21 = sy·K21, m22 = sy·K22.
    var shear = Transform3D.identity
    shear.m21 = 0.5
    let root = 1.25.squareRoot()
    let sy = (1 + root) / 2
    var expected = Transform3D.identity
    expected.m21 = sy * (0.5 / root) / 2
    expected.m22 = sy * (1 + 1 / root) / 2
    #expect(Transform3DInterpolation(from: .identity, to: shear).isPlanar)
    #expect(nearlyEqual(Transform3D.interpolate(from: .identity, to: shear, fraction: 0.5), expected))
    // A horizontal flip narrows in the plane: scale x goes 1 → −1 through 0, y stays 1.
    let flipX = Transform3D(scaleX: -1, y: 1)
    #expect(
      nearlyEqual(Transform3D.interpolate(from: .identity, to: flipX, fraction: 0.25), Transform3D(scaleX: 0.5, y: 1)))
    #expect(
      nearlyEqual(Transform3D.interpolate(from: .identity, to: flipX, fraction: 0.5), Transform3D(scaleX: 0, y: 1)))
    let flipY = Transform3D(scaleX: 1, y: -1)
    #expect(
      nearlyEqual(Transform3D.interpolate(from: .identity, to: flipY, fraction: 0.75), Transform3D(scaleX: 1, y: -0.5)))
    // One end flipped in x, the other in y: CSS rewrites scale(−1, 1) as scale(1, −1)·R(−180°), so the angle runs
    // −180° → 0° and halfway is scale(1, −1)·R(−90°) = [[0, −1], [−1, 0]]: still a full-size mirror, no collapse.
    let mid = Transform3D.interpolate(from: flipX, to: flipY, fraction: 0.5)
    var mirrored = Transform3D.identity
    mirrored.m11 = 0
    mirrored.m12 = -1
    mirrored.m21 = -1
    mirrored.m22 = 0
    #expect(nearlyEqual(mid, mirrored))
    // A UIKit rotation + translation pair stays planar and matches the hand-built matrix.
    let a = Transform3D(affine: AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 10, ty: 0))
    let b = rotationZ(.pi / 2).concatenating(Transform3D(translationX: 30, y: 40))
    #expect(
      nearlyEqual(
        Transform3D.interpolate(from: a, to: b, fraction: 0.5),
        rotationZ(.pi / 4).concatenating(Transform3D(translationX: 20, y: 20))))
  }

  @Test func endpointsAreExact() {
    let a = Transform3D(rotationAngle: 0.3, x: 1, y: 1, z: 0).concatenating(Transform3D(translationX: 1, y: 2, z: 3))
    let b = Transform3D(scaleX: 2, y: 2).concatenating(Transform3D(perspectiveDistance: 700))
    #expect(Transform3D.interpolate(from: a, to: b, fraction: 0) == a)
    #expect(Transform3D.interpolate(from: a, to: b, fraction: 1) == b)
    #expect(Transform3D.interpolate(from: .identity, to: b, fraction: 0) == .identity)
    #expect(Transform3D.interpolate(from: a, to: .identity, fraction: 1) == .identity)
    let cached = Transform3DInterpolation(from: a, to: b)
    #expect(cached.value(at: 0) == a && cached.value(at: 1) == b)
    #expect(cached.value(at: 0.3) == Transform3D.interpolate(from: a, to: b, fraction: 0.3))
  }

  @Test func nonDecomposableMatricesSwitchAtOneHalf() {
    let collapsed = Transform3D(scaleX: 0, y: 0)
    #expect(DecomposedTransform3D(collapsed) == nil)
    var noW = Transform3D.identity
    noW.m44 = 0
    #expect(DecomposedTransform3D(noW) == nil)
    #expect(Transform3D.interpolate(from: .identity, to: collapsed, fraction: 0.49) == .identity)
    #expect(Transform3D.interpolate(from: .identity, to: collapsed, fraction: 0.5) == collapsed)
    #expect(!Transform3DInterpolation(from: collapsed, to: .identity).isDecomposable)
    #expect(Transform3D.interpolate(from: .identity, to: collapsed, fraction: .nan) == collapsed)
  }
}
