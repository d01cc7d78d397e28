import Testing
import TransitionEngine

private func maps(_ m: Transform3D, _ p: (Double, Double, Double), to q: (Double, Double, Double)) -> Bool {
  let r = m.apply(to: (x: p.0, y: p.1, z: p.2, w: 1))
  return mathClose(r.x / r.w, q.0, 1e-12) && mathClose(r.y / r.w, q.1, 1e-12) && mathClose(r.z / r.w, q.2, 1e-12)
}

private func nearlyEqual(_ a: Transform3D, _ b: Transform3D, _ tolerance: Double = 1e-12) -> Bool {
  zip(a.values, b.values).allSatisfy { mathClose($0, $1, tolerance) }
}

@Suite("Math: Transform3D")
struct MathTransformTests {
  @Test func rotationSignConventionMatchesCoreAnimation() {
    // CATransform3DMakeRotation(π/2, 0, 0, 1) maps (1, 0) to (0, 1).
    let z = Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1)
    #expect(maps(z, (1, 0, 0), to: (0, 1, 0)))
    #expect(maps(z, (0, 1, 0), to: (-1, 0, 0)))
    // Right-hand rule about +x and +y: y → z and z → x.
    #expect(maps(Transform3D(rotationAngle: .pi / 2, x: 1, y: 0, z: 0), (0, 1, 0), to: (0, 0, 1)))
    #expect(maps(Transform3D(rotationAngle: .pi / 2, x: 0, y: 1, z: 0), (0, 0, 1), to: (1, 0, 0)))
    // 120° about (1, 1, 1) permutes the axes x → y → z → x; the axis need not be normalized.
    let cyclic = Transform3D(rotationAngle: 2 * .pi / 3, x: 2, y: 2, z: 2)
    #expect(maps(cyclic, (1, 0, 0), to: (0, 1, 0)))
    #expect(maps(cyclic, (0, 1, 0), to: (0, 0, 1)))
    #expect(maps(cyclic, (0, 0, 1), to: (1, 0, 0)))
    // The layout is the row-vector one: m12 = sin θ for a z rotation.
    let r = Transform3D(rotationAngle: 0.3, x: 0, y: 0, z: 1)
    #expect(r.m11 == mathCos(0.3) && r.m12 == mathSin(0.3) && r.m21 == -mathSin(0.3))
  }

  @Test func degenerateRotationAxisIsIdentity() {
    #expect(Transform3D(rotationAngle: 1, x: 0, y: 0, z: 0) == .identity)
    #expect(Transform3D(rotationAngle: .nan, x: 0, y: 0, z: 1) == .identity)
  }

  @Test func makeFunctionsAndLayout() {
    let t = Transform3D(translationX: 1, y: 2, z: 3)
    #expect(t.m41 == 1 && t.m42 == 2 && t.m43 == 3)
    #expect(t.values == [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1])
    let s = Transform3D(scaleX: 2, y: 3, z: 4)
    #expect(s.m11 == 2 && s.m22 == 3 && s.m33 == 4)
    #expect(Transform3D(perspectiveDistance: 500).m34 == -1.0 / 500)
    #expect(Transform3D(perspectiveDistance: 0) == .identity)
    #expect(Transform3D(values: Array(repeating: 0, count: 15)) == nil)
    #expect(Transform3D(values: t.values) == t)
  }

  @Test func translateScaleRotateApplyBeforeTheExistingTransform() {
    // CATransform3DTranslate(S, 10, 0, 0) = T · S: translate first, then scale by 2: (1, 0) → 22.
    let s = Transform3D(scaleX: 2, y: 2)
    #expect(maps(s.translated(x: 10, y: 0), (1, 0, 0), to: (22, 0, 0)))
    // CATransform3DScale(T, 2, 2, 1) = S · T: scale first, then translate: (1, 0) → 12.
    let t = Transform3D(translationX: 10, y: 0)
    #expect(maps(t.scaled(x: 2, y: 2), (1, 0, 0), to: (12, 0, 0)))
    // CATransform3DRotate(T, π/2, 0, 0, 1) = R · T: rotate (1, 0) to (0, 1), then translate.
    #expect(maps(t.rotated(by: .pi / 2, x: 0, y: 0, z: 1), (1, 0, 0), to: (10, 1, 0)))
    // Concat(a, b) = a · b: a first.
    #expect(maps(t.concatenating(s), (1, 0, 0), to: (22, 0, 0)))
    #expect(maps(s.concatenating(t), (1, 0, 0), to: (12, 0, 0)))
  }

  @Test func inverseAndDeterminant() {
    #expect(Transform3D(translationX: 3, y: 4, z: 5).inverted() == Transform3D(translationX: -3, y: -4, z: -5))
    #expect(Transform3D(scaleX: 2, y: 4, z: 8).inverted() == Transform3D(scaleX: 0.5, y: 0.25, z: 0.125))
    #expect(Transform3D(scaleX: 2, y: 3, z: 4).determinant == 24)
    #expect(mathClose(Transform3D(rotationAngle: 0.7, x: 1, y: 2, z: 3).determinant, 1, 1e-14))
    // A general matrix with perspective: M · M⁻¹ = I.
    let m = Transform3D(rotationAngle: 0.4, x: 1, y: -2, z: 0.5)
      .concatenating(Transform3D(scaleX: 1.5, y: 0.5, z: 2))
      .concatenating(Transform3D(translationX: 10, y: -20, z: 30))
      .concatenating(Transform3D(perspectiveDistance: 400))
    let inverse = try! #require(m.inverted())
    #expect(nearlyEqual(m.concatenating(inverse), .identity))
    #expect(nearlyEqual(inverse.concatenating(m), .identity))
    // Singular: a zero scale has no inverse.
    #expect(Transform3D(scaleX: 0, y: 1).inverted() == nil)
    var nonFinite = Transform3D.identity
    nonFinite.m11 = .infinity
    #expect(nonFinite.inverted() == nil)
  }

  @Test func identityAndAffinePredicates() {
    #expect(Transform3D.identity.isIdentity)
    #expect(!Transform3D(translationX: 0, y: 0, z: 1e-9).isIdentity)
    #expect(Transform3D(rotationAngle: 1, x: 0, y: 0, z: 1).isAffine)
    #expect(!Transform3D(rotationAngle: 1, x: 1, y: 0, z: 0).isAffine)
    #expect(!Transform3D(perspectiveDistance: 500).isAffine)
    #expect(!Transform3D(translationX: 0, y: 0, z: 1).isAffine)
  }

  @Test func affineRoundTripMapsLikeCGAffineTransform() {
    let a = AffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
    let m = Transform3D(affine: a)
    #expect(m.m11 == 1 && m.m12 == 2 && m.m21 == 3 && m.m22 == 4 && m.m41 == 5 && m.m42 == 6 && m.isAffine)
    #expect(m.affine == a)
    // CGAffineTransform: (x, y) ↦ (a·x + c·y + tx, b·x + d·y + ty) = (1·7 + 3·8 + 5, 2·7 + 4·8 + 6).
    #expect(m.project(Point(x: 7, y: 8)) == Point(x: 36, y: 52))
  }

  @Test func projectionDividesByW() {
    // A point at z = 100 under m34 = −1/500: w = 1 − 100/500 = 0.8, so x grows by 1/0.8.
    let p = Transform3D(perspectiveDistance: 500)
    let projected = try! #require(p.project(Point(x: 100, y: 40), z: 100))
    #expect(mathClose(projected.x, 125, 1e-12) && mathClose(projected.y, 50, 1e-12))
    // At or behind the eye: no projection.
    #expect(p.project(Point(x: 1, y: 1), z: 500) == nil)
    #expect(p.project(Point(x: 1, y: 1), z: 900) == nil)
  }

  @Test func projectedCornersOfARectRotatedAboutYUnderPerspective() {
    // Rect (−50, −50, 100, 100) rotated 60° about y, then m34 = −1/500. By hand: a corner (x, y, 0) goes to
    // (x·cos θ, y, −x·sin θ), w = 1 + z′·m34 = 1 + x·sin θ / 500, then divide by w.
    let theta = Double.pi / 3
    let m = Transform3D(rotationAngle: theta, x: 0, y: 1, z: 0).concatenating(Transform3D(perspectiveDistance: 500))
    func expected(_ x: Double, _ y: Double) -> Point {
      let w = 1 + x * mathSin(theta) / 500
      return Point(x: x * mathCos(theta) / w, y: y / w)
    }
    for (x, y) in [(-50.0, -50.0), (50, -50), (50, 50), (-50, 50)] {
      let got = try! #require(m.project(Point(x: x, y: y)))
      let want = expected(x, y)
      #expect(mathClose(got.x, want.x, 1e-12) && mathClose(got.y, want.y, 1e-12))
    }
    let box = try! #require(m.projectedBoundingBox(of: Rect(x: -50, y: -50, width: 100, height: 100)))
    let left = expected(-50, -50)
    let right = expected(50, 50)
    #expect(mathClose(box.minX, left.x, 1e-12) && mathClose(box.maxX, right.x, 1e-12))
    // The edge at x = −50 turns toward the eye (z′ = −x·sin θ > 0), so it is the taller one.
    #expect(mathClose(box.minY, left.y, 1e-12) && mathClose(box.maxY, -left.y, 1e-12))
    // Pushed behind the eye: no box.
    let behind = Transform3D(translationX: 0, y: 0, z: 600).concatenating(Transform3D(perspectiveDistance: 500))
    #expect(behind.projectedBoundingBox(of: Rect(x: 0, y: 0, width: 10, height: 10)) == nil)
  }
}
