// A 4×4 homogeneous transform with exactly CATransform3D's conventions.

/// A 4×4 matrix laid out and used exactly like `CATransform3D`.
///
/// - Row vectors: a point transforms as p′ = p · M, so translation lives in `m41`, `m42`, `m43` and the
///   perspective term of a layer is `m34 = −1/d`.
/// - `translated`, `scaled` and `rotated` apply the new operation *before* `self`
///   (`CATransform3DTranslate(t, …) = T · t`), and `concatenating(b)` is `self · b`, i.e. `self` first, then `b`
///   (`CATransform3DConcat(a, b) = a · b`).
/// - `values` and CSS `matrix3d(…)` use the same order, m11, m12, …, m44.
package struct Transform3D: Hashable, Sendable {
  package var m11: Double, m12: Double, m13: Double, m14: Double
  package var m21: Double, m22: Double, m23: Double, m24: Double
  package var m31: Double, m32: Double, m33: Double, m34: Double
  package var m41: Double, m42: Double, m43: Double, m44: Double

  /// Creates a matrix from its sixteen entries, row by row.
  package init(
    m11: Double, m12: Double, m13: Double, m14: Double,
    m21: Double, m22: Double, m23: Double, m24: Double,
    m31: Double, m32: Double, m33: Double, m34: Double,
    m41: Double, m42: Double, m43: Double, m44: Double
  ) {
    self.m11 = m11
    self.m12 = m12
    self.m13 = m13
    self.m14 = m14
    self.m21 = m21
    self.m22 = m22
    self.m23 = m23
    self.m24 = m24
    self.m31 = m31
    self.m32 = m32
    self.m33 = m33
    self.m34 = m34
    self.m41 = m41
    self.m42 = m42
    self.m43 = m43
    self.m44 = m44
  }

  /// Creates a matrix from sixteen values in m11…m44 order; returns nil unless there are exactly sixteen.
  package init?(values: [Double]) {
    guard values.count == 16 else { return nil }
    self.init(
      m11: values[0], m12: values[1], m13: values[2], m14: values[3],
      m21: values[4], m22: values[5], m23: values[6], m24: values[7],
      m31: values[8], m32: values[9], m33: values[10], m34: values[11],
      m41: values[12], m42: values[13], m43: values[14], m44: values[15])
  }

  /// The identity (CATransform3DIdentity).
  package static let identity = Transform3D(
    m11: 1, m12: 0, m13: 0, m14: 0,
    m21: 0, m22: 1, m23: 0, m24: 0,
    m31: 0, m32: 0, m33: 1, m34: 0,
    m41: 0, m42: 0, m43: 0, m44: 1)

  /// A translation by (tx, ty, tz) (CATransform3DMakeTranslation).
  package init(translationX tx: Double, y ty: Double, z tz: Double = 0) {
    self = .identity
    m41 = tx
    m42 = ty
    m43 = tz
  }

  /// A scale by (sx, sy, sz) (CATransform3DMakeScale).
  package init(scaleX sx: Double, y sy: Double, z sz: Double = 1) {
    self = .identity
    m11 = sx
    m22 = sy
    m33 = sz
  }

  /// A rotation by `angle` radians about the axis (x, y, z) through the origin (CATransform3DMakeRotation).
  ///
  /// Apple's sign convention: with the axis (0, 0, 1) a positive angle turns the x axis toward the y axis, so
  /// in UIKit's y-down screen space a positive angle is clockwise, as `CGAffineTransform(rotationAngle:)`.
  /// The matrix is the transpose of the right-handed (Rodrigues) column-vector rotation, because points are
  /// row vectors. The axis need not be normalized; a zero-length or non-finite axis gives the identity
  /// (Apple leaves that case undefined).
  package init(rotationAngle angle: Double, x: Double, y: Double, z: Double) {
    let length = (x * x + y * y + z * z).squareRoot()
    guard length > 0, length.isFinite, angle.isFinite else {
      self = .identity
      return
    }
    let (ux, uy, uz) = (x / length, y / length, z / length)
    let c = cosine(angle)
    let s = sine(angle)
    let t = 1 - c
    self.init(
      m11: c + t * ux * ux, m12: t * ux * uy + s * uz, m13: t * ux * uz - s * uy, m14: 0,
      m21: t * ux * uy - s * uz, m22: c + t * uy * uy, m23: t * uy * uz + s * ux, m24: 0,
      m31: t * ux * uz + s * uy, m32: t * uy * uz - s * ux, m33: c + t * uz * uz, m34: 0,
      m41: 0, m42: 0, m43: 0, m44: 1)
  }

  /// A perspective matrix for an eye at distance `d` (m34 = −1/d), as Core Animation users build it.
  /// A non-positive or non-finite distance gives the identity (no perspective).
  package init(perspectiveDistance d: Double) {
    self = .identity
    if d > 0, d.isFinite { m34 = -1 / d }
  }

  /// The sixteen entries in m11…m44 order (the order of CSS `matrix3d`).
  package var values: [Double] {
    [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44]
  }

  /// Whether this is exactly the identity (CATransform3DIsIdentity).
  package var isIdentity: Bool { self == .identity }

  /// Whether the matrix is exactly a 2-D affine transform (CATransform3DIsAffine): no z coupling, no
  /// perspective, m33 = m44 = 1.
  package var isAffine: Bool {
    m13 == 0 && m14 == 0 && m23 == 0 && m24 == 0 && m31 == 0 && m32 == 0 && m33 == 1 && m34 == 0
      && m43 == 0 && m44 == 1
  }

  /// `self · other`: `self` applied first, then `other` (CATransform3DConcat(self, other)).
  package func concatenating(_ o: Transform3D) -> Transform3D {
    Transform3D(
      m11: m11 * o.m11 + m12 * o.m21 + m13 * o.m31 + m14 * o.m41,
      m12: m11 * o.m12 + m12 * o.m22 + m13 * o.m32 + m14 * o.m42,
      m13: m11 * o.m13 + m12 * o.m23 + m13 * o.m33 + m14 * o.m43,
      m14: m11 * o.m14 + m12 * o.m24 + m13 * o.m34 + m14 * o.m44,
      m21: m21 * o.m11 + m22 * o.m21 + m23 * o.m31 + m24 * o.m41,
      m22: m21 * o.m12 + m22 * o.m22 + m23 * o.m32 + m24 * o.m42,
      m23: m21 * o.m13 + m22 * o.m23 + m23 * o.m33 + m24 * o.m43,
      m24: m21 * o.m14 + m22 * o.m24 + m23 * o.m34 + m24 * o.m44,
      m31: m31 * o.m11 + m32 * o.m21 + m33 * o.m31 + m34 * o.m41,
      m32: m31 * o.m12 + m32 * o.m22 + m33 * o.m32 + m34 * o.m42,
      m33: m31 * o.m13 + m32 * o.m23 + m33 * o.m33 + m34 * o.m43,
      m34: m31 * o.m14 + m32 * o.m24 + m33 * o.m34 + m34 * o.m44,
      m41: m41 * o.m11 + m42 * o.m21 + m43 * o.m31 + m44 * o.m41,
      m42: m41 * o.m12 + m42 * o.m22 + m43 * o.m32 + m44 * o.m42,
      m43: m41 * o.m13 + m42 * o.m23 + m43 * o.m33 + m44 * o.m43,
      m44: m41 * o.m14 + m42 * o.m24 + m43 * o.m34 + m44 * o.m44)
  }

  /// A translation applied before `self` (CATransform3DTranslate(self, tx, ty, tz) = T · self).
  package func translated(x tx: Double, y ty: Double, z tz: Double = 0) -> Transform3D {
    Transform3D(translationX: tx, y: ty, z: tz).concatenating(self)
  }

  /// A scale applied before `self` (CATransform3DScale(self, sx, sy, sz) = S · self).
  package func scaled(x sx: Double, y sy: Double, z sz: Double = 1) -> Transform3D {
    Transform3D(scaleX: sx, y: sy, z: sz).concatenating(self)
  }

  /// A rotation applied before `self` (CATransform3DRotate(self, angle, x, y, z) = R · self).
  package func rotated(by angle: Double, x: Double, y: Double, z: Double) -> Transform3D {
    Transform3D(rotationAngle: angle, x: x, y: y, z: z).concatenating(self)
  }

  /// The determinant of the 4×4 matrix.
  package var determinant: Double {
    let s = subDeterminants
    return s.s0 * s.c5 - s.s1 * s.c4 + s.s2 * s.c3 + s.s3 * s.c2 - s.s4 * s.c1 + s.s5 * s.c0
  }

  /// The inverse, or nil when the matrix is singular (determinant 0 or not finite) or has non-finite entries.
  ///
  /// `CATransform3DInvert` returns its argument unchanged in that case; returning nil makes the caller
  /// choose (for example keep the original as Core Animation does, or skip a conversion).
  package func inverted() -> Transform3D? {
    let s = subDeterminants
    let det = s.s0 * s.c5 - s.s1 * s.c4 + s.s2 * s.c3 + s.s3 * s.c2 - s.s4 * s.c1 + s.s5 * s.c0
    guard det != 0, det.isFinite else { return nil }
    let k = 1 / det
    let r = Transform3D(
      m11: (m22 * s.c5 - m23 * s.c4 + m24 * s.c3) * k,
      m12: (-m12 * s.c5 + m13 * s.c4 - m14 * s.c3) * k,
      m13: (m42 * s.s5 - m43 * s.s4 + m44 * s.s3) * k,
      m14: (-m32 * s.s5 + m33 * s.s4 - m34 * s.s3) * k,
      m21: (-m21 * s.c5 + m23 * s.c2 - m24 * s.c1) * k,
      m22: (m11 * s.c5 - m13 * s.c2 + m14 * s.c1) * k,
      m23: (-m41 * s.s5 + m43 * s.s2 - m44 * s.s1) * k,
      m24: (m31 * s.s5 - m33 * s.s2 + m34 * s.s1) * k,
      m31: (m21 * s.c4 - m22 * s.c2 + m24 * s.c0) * k,
      m32: (-m11 * s.c4 + m12 * s.c2 - m14 * s.c0) * k,
      m33: (m41 * s.s4 - m42 * s.s2 + m44 * s.s0) * k,
      m34: (-m31 * s.s4 + m32 * s.s2 - m34 * s.s0) * k,
      m41: (-m21 * s.c3 + m22 * s.c1 - m23 * s.c0) * k,
      m42: (m11 * s.c3 - m12 * s.c1 + m13 * s.c0) * k,
      m43: (-m41 * s.s3 + m42 * s.s1 - m43 * s.s0) * k,
      m44: (m31 * s.s3 - m32 * s.s1 + m33 * s.s0) * k)
    return r.isFinite ? r : nil
  }

  /// Whether every entry is finite.
  package var isFinite: Bool {
    m11.isFinite && m12.isFinite && m13.isFinite && m14.isFinite && m21.isFinite && m22.isFinite
      && m23.isFinite && m24.isFinite && m31.isFinite && m32.isFinite && m33.isFinite && m34.isFinite
      && m41.isFinite && m42.isFinite && m43.isFinite && m44.isFinite
  }

  /// The 2×2 minors of the top two rows (s) and the bottom two rows (c), shared by the determinant and the
  /// inverse (Laplace expansion by complementary minors).
  private var subDeterminants:
    (
      s0: Double, s1: Double, s2: Double, s3: Double, s4: Double, s5: Double,
      c0: Double, c1: Double, c2: Double, c3: Double, c4: Double, c5: Double
    )
  {
    (
      s0: m11 * m22 - m21 * m12, s1: m11 * m23 - m21 * m13, s2: m11 * m24 - m21 * m14,
      s3: m12 * m23 - m22 * m13, s4: m12 * m24 - m22 * m14, s5: m13 * m24 - m23 * m14,
      c0: m31 * m42 - m41 * m32, c1: m31 * m43 - m41 * m33, c2: m31 * m44 - m41 * m34,
      c3: m32 * m43 - m42 * m33, c4: m32 * m44 - m42 * m34, c5: m33 * m44 - m43 * m34
    )
  }

  /// The homogeneous row vector (x, y, z, w) · M, without a w divide.
  package func apply(
    to v: (x: Double, y: Double, z: Double, w: Double)
  ) -> (x: Double, y: Double, z: Double, w: Double) {
    (
      x: v.x * m11 + v.y * m21 + v.z * m31 + v.w * m41,
      y: v.x * m12 + v.y * m22 + v.z * m32 + v.w * m42,
      z: v.x * m13 + v.y * m23 + v.z * m33 + v.w * m43,
      w: v.x * m14 + v.y * m24 + v.z * m34 + v.w * m44
    )
  }

  /// The point (x, y, z, 1) · M projected to 2-D by dividing by w; nil when w ≤ 0 (at or behind the eye)
  /// or the result is not finite.
  @inline(__always)  // four per view of every sample (`projectedBoundingBox`)
  package func project(_ p: Point, z: Double = 0) -> Point? {
    let v = apply(to: (x: p.x, y: p.y, z: z, w: 1))
    guard v.w > 0 else { return nil }
    let r = Point(x: v.x / v.w, y: v.y / v.w)
    return r.x.isFinite && r.y.isFinite ? r : nil
  }

  /// The axis-aligned bounding box of the rectangle's four projected corners (z = 0), or nil when any
  /// corner has w ≤ 0 (behind the eye), where no finite box exists.
  package func projectedBoundingBox(of rect: Rect) -> Rect? {
    guard let a = project(Point(x: rect.minX, y: rect.minY)),
      let b = project(Point(x: rect.maxX, y: rect.minY)),
      let c = project(Point(x: rect.maxX, y: rect.maxY)),
      let d = project(Point(x: rect.minX, y: rect.maxY))
    else { return nil }
    let x0 = min(a.x, b.x, c.x, d.x)
    let y0 = min(a.y, b.y, c.y, d.y)
    let x1 = max(a.x, b.x, c.x, d.x)
    let y1 = max(a.y, b.y, c.y, d.y)
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }
}

/// A 2-D affine transform (CGAffineTransform): (x, y) ↦ (a·x + c·y + tx, b·x + d·y + ty).
package struct AffineTransform: Hashable, Sendable {
  package var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

  /// Creates an affine transform from its six entries.
  package init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
    self.a = a
    self.b = b
    self.c = c
    self.d = d
    self.tx = tx
    self.ty = ty
  }

  /// The identity.
  package static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
}

extension Transform3D {
  /// The 3-D matrix of an affine transform (CATransform3DMakeAffineTransform).
  package init(affine t: AffineTransform) {
    self = .identity
    m11 = t.a
    m12 = t.b
    m21 = t.c
    m22 = t.d
    m41 = t.tx
    m42 = t.ty
  }

  /// The affine part (CATransform3DGetAffineTransform): m11, m12, m21, m22, m41, m42. Exact only when
  /// `isAffine`; otherwise the z and perspective terms are dropped (Apple: "undefined").
  package var affine: AffineTransform {
    AffineTransform(a: m11, b: m12, c: m21, d: m22, tx: m41, ty: m42)
  }
}
