// Matrix decomposition and interpolation as CSS Transforms Level 2 specifies it ("unmatrix" / "recompose"),
// which is how Core Animation and browsers animate between arbitrary transforms.

/// A unit quaternion (x, y, z, w) for a rotation; w ≥ 0 after decomposition.
package struct Quaternion: Hashable, Sendable {
  package var x: Double, y: Double, z: Double, w: Double

  /// Creates a quaternion from its components (not normalized).
  package init(x: Double, y: Double, z: Double, w: Double) {
    self.x = x
    self.y = y
    self.z = z
    self.w = w
  }

  /// No rotation.
  package static let identity = Quaternion(x: 0, y: 0, z: 0, w: 1)

  func dot(_ o: Quaternion) -> Double { x * o.x + y * o.y + z * o.z + w * o.w }

  var negated: Quaternion { Quaternion(x: -x, y: -y, z: -z, w: -w) }

  var normalized: Quaternion {
    let n = (x * x + y * y + z * z + w * w).squareRoot()
    guard n > 0, n.isFinite else { return .identity }
    return Quaternion(x: x / n, y: y / n, z: z / n, w: w / n)
  }

  /// Spherical linear interpolation along the shorter arc (the operand is negated when the dot product is
  /// negative, as WebKit's TransformationMatrix does; CSS's pseudo-code omits this, which would turn the long way
  /// between nearly opposite orientations). Fractions outside [0, 1] continue along the same great circle.
  /// Nearly equal quaternions use a normalized linear blend, where the slerp weights lose precision.
  package static func slerp(_ a: Quaternion, _ b: Quaternion, _ t: Double) -> Quaternion {
    var b = b
    var d = a.dot(b)
    if d < 0 {
      b = b.negated
      d = -d
    }
    d = min(d, 1)
    let wa: Double
    let wb: Double
    if d > 0.999_999 {
      wa = 1 - t
      wb = t
    } else {
      let theta = arcCosine(d)
      let s = sine(theta)
      wa = sine((1 - t) * theta) / s
      wb = sine(t * theta) / s
    }
    return Quaternion(
      x: a.x * wa + b.x * wb, y: a.y * wa + b.y * wb, z: a.z * wa + b.z * wb, w: a.w * wa + b.w * wb
    ).normalized
  }
}

/// The components of a 3-D transform per CSS Transforms Level 2 §"Decomposing a 3D matrix".
///
/// In CATransform3D's row-vector terms the transform is M = [[S·K·R, 0], [t, 1]] · P: first a scale S
/// (diag `scale`), then the skews K (unit lower-triangular with `skew.xy` at (2,1), `skew.xz` at (3,1),
/// `skew.yz` at (3,2)), then the rotation R of `quaternion`, then the translation t, and finally P, the identity
/// with its last column replaced by `perspective` (so m34 = −1/d is `perspective.z`). A reflection
/// (negative determinant) is folded into negative scales.
package struct DecomposedTransform3D: Equatable, Sendable {
  /// The translation (m41, m42, m43 of a matrix without perspective).
  package var translation: (x: Double, y: Double, z: Double)
  /// The scale factors along the (skewed) axes.
  package var scale: (x: Double, y: Double, z: Double)
  /// The shear factors xy, xz, yz.
  package var skew: (xy: Double, xz: Double, yz: Double)
  /// The perspective column (m14, m24, m34, m44 of a pure perspective matrix); (0, 0, 0, 1) for none.
  package var perspective: (x: Double, y: Double, z: Double, w: Double)
  /// The rotation.
  package var quaternion: Quaternion

  /// Components of the identity.
  package static let identity = DecomposedTransform3D(
    translation: (0, 0, 0), scale: (1, 1, 1), skew: (0, 0, 0), perspective: (0, 0, 0, 1), quaternion: .identity)

  /// Creates a decomposition from its parts.
  package init(
    translation: (x: Double, y: Double, z: Double),
    scale: (x: Double, y: Double, z: Double),
    skew: (xy: Double, xz: Double, yz: Double),
    perspective: (x: Double, y: Double, z: Double, w: Double),
    quaternion: Quaternion
  ) {
    self.translation = translation
    self.scale = scale
    self.skew = skew
    self.perspective = perspective
    self.quaternion = quaternion
  }

  /// Decomposes `matrix`, or returns nil when it cannot be decomposed: m44 = 0, a singular upper 3×3 (for
  /// example a zero scale), or non-finite entries. The matrix is first divided by m44 (the same projective map),
  /// so `recomposed` gives M/m44.
  package init?(_ matrix: Transform3D) {
    guard matrix.isFinite, matrix.m44 != 0 else { return nil }
    // Normalize so m44 = 1.
    var m = matrix
    if m.m44 != 1 {
      let k = 1 / m.m44
      m = Transform3D(
        m11: m.m11 * k, m12: m.m12 * k, m13: m.m13 * k, m14: m.m14 * k,
        m21: m.m21 * k, m22: m.m22 * k, m23: m.m23 * k, m24: m.m24 * k,
        m31: m.m31 * k, m32: m.m32 * k, m33: m.m33 * k, m34: m.m34 * k,
        m41: m.m41 * k, m42: m.m42 * k, m43: m.m43 * k, m44: 1)
    }

    // The matrix without its perspective column; its determinant is that of the upper 3×3.
    var withoutPerspective = m
    withoutPerspective.m14 = 0
    withoutPerspective.m24 = 0
    withoutPerspective.m34 = 0
    withoutPerspective.m44 = 1
    let det3 =
      m.m11 * (m.m22 * m.m33 - m.m23 * m.m32) - m.m12 * (m.m21 * m.m33 - m.m23 * m.m31)
      + m.m13 * (m.m21 * m.m32 - m.m22 * m.m31)
    guard det3 != 0, det3.isFinite else { return nil }

    // Perspective: solve withoutPerspective · p = (m14, m24, m34, m44)ᵀ.
    if m.m14 != 0 || m.m24 != 0 || m.m34 != 0 {
      guard let inv = withoutPerspective.inverted() else { return nil }
      let (r1, r2, r3, r4) = (m.m14, m.m24, m.m34, m.m44)
      perspective = (
        x: inv.m11 * r1 + inv.m12 * r2 + inv.m13 * r3 + inv.m14 * r4,
        y: inv.m21 * r1 + inv.m22 * r2 + inv.m23 * r3 + inv.m24 * r4,
        z: inv.m31 * r1 + inv.m32 * r2 + inv.m33 * r3 + inv.m34 * r4,
        w: inv.m41 * r1 + inv.m42 * r2 + inv.m43 * r3 + inv.m44 * r4
      )
    } else {
      perspective = (0, 0, 0, 1)
    }

    translation = (m.m41, m.m42, m.m43)

    // Scale and shear by Gram–Schmidt on the rows (the images of the basis vectors).
    var row0 = Vector3(m.m11, m.m12, m.m13)
    var row1 = Vector3(m.m21, m.m22, m.m23)
    var row2 = Vector3(m.m31, m.m32, m.m33)

    var sx = row0.length
    row0 = row0 / sx
    var xy = row0.dot(row1)
    row1 = row1 - row0 * xy
    var sy = row1.length
    row1 = row1 / sy
    xy /= sy

    var xz = row0.dot(row2)
    row2 = row2 - row0 * xz
    var yz = row1.dot(row2)
    row2 = row2 - row1 * yz
    var sz = row2.length
    row2 = row2 / sz
    xz /= sz
    yz /= sz

    // A reflection: negate the scales and the rows so the rows form a proper rotation.
    if row0.dot(row1.cross(row2)) < 0 {
      sx = -sx
      sy = -sy
      sz = -sz
      row0 = row0 * -1
      row1 = row1 * -1
      row2 = row2 * -1
    }
    scale = (sx, sy, sz)
    skew = (xy, xz, yz)
    quaternion = Self.quaternion(rows: row0, row1, row2)
  }

  /// The unit quaternion of the rotation whose row-vector matrix has the given orthonormal rows.
  ///
  /// The rows form N = Rᵀ, R being the column-vector rotation of the quaternion. Shepperd's method (branching
  /// on the largest diagonal term) stays accurate near 180°, where CSS's sign-copying variant loses the
  /// relative signs of the axis components. w ≥ 0 on return.
  private static func quaternion(rows n0: Vector3, _ n1: Vector3, _ n2: Vector3) -> Quaternion {
    // R[i][j] = N[j][i].
    let r00 = n0.x
    let r11 = n1.y
    let r22 = n2.z
    let r01 = n1.x
    let r10 = n0.y
    let r02 = n2.x
    let r20 = n0.z
    let r12 = n2.y
    let r21 = n1.z
    let trace = r00 + r11 + r22
    var q: Quaternion
    if trace > 0 {
      let s = (trace + 1).squareRoot() * 2
      q = Quaternion(x: (r21 - r12) / s, y: (r02 - r20) / s, z: (r10 - r01) / s, w: 0.25 * s)
    } else if r00 > r11 && r00 > r22 {
      let s = (1 + r00 - r11 - r22).squareRoot() * 2
      q = Quaternion(x: 0.25 * s, y: (r01 + r10) / s, z: (r02 + r20) / s, w: (r21 - r12) / s)
    } else if r11 > r22 {
      let s = (1 + r11 - r00 - r22).squareRoot() * 2
      q = Quaternion(x: (r01 + r10) / s, y: 0.25 * s, z: (r12 + r21) / s, w: (r02 - r20) / s)
    } else {
      let s = (1 + r22 - r00 - r11).squareRoot() * 2
      q = Quaternion(x: (r02 + r20) / s, y: (r12 + r21) / s, z: 0.25 * s, w: (r10 - r01) / s)
    }
    if q.w < 0 { q = q.negated }
    return q.normalized
  }

  /// The matrix these components describe (CSS "recompose", in row-vector form).
  package var recomposed: Transform3D {
    let q = quaternion
    let (x, y, z, w) = (q.x, q.y, q.z, q.w)
    // N = Rᵀ: the row-vector rotation matrix of q.
    let n0 = Vector3(1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w))
    let n1 = Vector3(2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w))
    let n2 = Vector3(2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y))
    // U = S · K · N, row by row.
    let u0 = n0 * scale.x
    let u1 = (n1 + n0 * skew.xy) * scale.y
    let u2 = (n2 + n0 * skew.xz + n1 * skew.yz) * scale.z
    let p = Vector3(perspective.x, perspective.y, perspective.z)
    let t = Vector3(translation.x, translation.y, translation.z)
    return Transform3D(
      m11: u0.x, m12: u0.y, m13: u0.z, m14: u0.dot(p),
      m21: u1.x, m22: u1.y, m23: u1.z, m24: u1.dot(p),
      m31: u2.x, m32: u2.y, m33: u2.z, m34: u2.dot(p),
      m41: t.x, m42: t.y, m43: t.z, m44: t.dot(p) + perspective.w)
  }

  /// Componentwise blend: translation, scale, skew and perspective linearly, the rotation by slerp.
  package static func interpolate(
    from a: DecomposedTransform3D, to b: DecomposedTransform3D, fraction t: Double
  ) -> DecomposedTransform3D {
    DecomposedTransform3D(
      translation: (
        lerp(a.translation.x, b.translation.x, t), lerp(a.translation.y, b.translation.y, t),
        lerp(a.translation.z, b.translation.z, t)
      ),
      scale: (lerp(a.scale.x, b.scale.x, t), lerp(a.scale.y, b.scale.y, t), lerp(a.scale.z, b.scale.z, t)),
      skew: (lerp(a.skew.xy, b.skew.xy, t), lerp(a.skew.xz, b.skew.xz, t), lerp(a.skew.yz, b.skew.yz, t)),
      perspective: (
        lerp(a.perspective.x, b.perspective.x, t), lerp(a.perspective.y, b.perspective.y, t),
        lerp(a.perspective.z, b.perspective.z, t), lerp(a.perspective.w, b.perspective.w, t)
      ),
      quaternion: Quaternion.slerp(a.quaternion, b.quaternion, t))
  }

  package static func == (l: DecomposedTransform3D, r: DecomposedTransform3D) -> Bool {
    l.translation == r.translation && l.scale == r.scale && l.skew == r.skew && l.perspective == r.perspective
      && l.quaternion == r.quaternion
  }
}

/// A precomputed interpolation between two transforms: decomposes both ends once, so per-frame evaluation is a
/// blend and a recomposition. See `Transform3D.interpolate` for the rules.
package struct Transform3DInterpolation: Sendable {
  /// The start value.
  package let from: Transform3D
  /// The end value.
  package let to: Transform3D
  private let plan: Plan

  private enum Plan {
    case planar(DecomposedTransform2D, DecomposedTransform2D)
    case spatial(DecomposedTransform3D, DecomposedTransform3D)
    case discrete
    /// One named component (a transform key path; TransformKeyPath.swift).
    case component(TransformComponentAnimation)
  }

  /// The interpolation of one component between the ends of `animation` (the matrix is not interpolated).
  init(component animation: TransformComponentAnimation) {
    from = animation.from
    to = animation.to
    plan = .component(animation)
  }

  /// Prepares the interpolation from `from` to `to`.
  package init(from: Transform3D, to: Transform3D) {
    self.from = from
    self.to = to
    if from.isAffine && to.isAffine {
      if let a = DecomposedTransform2D(from), let b = DecomposedTransform2D(to) {
        plan = .planar(DecomposedTransform2D.aligned(a, b).0, b)
      } else {
        plan = .discrete
      }
    } else if let a = DecomposedTransform3D(from), let b = DecomposedTransform3D(to) {
      plan = .spatial(a, b)
    } else {
      plan = .discrete
    }
  }

  /// Whether both ends decomposed (otherwise the interpolation is discrete at 0.5).
  package var isDecomposable: Bool {
    if case .discrete = plan { return false }
    return true
  }

  /// Whether the 2-D decomposition is used (both ends affine).
  package var isPlanar: Bool {
    if case .planar = plan { return true }
    return false
  }

  /// The transform at `fraction`; exactly `from` at 0 and `to` at 1.
  package func value(at fraction: Double) -> Transform3D {
    // A component may turn while the matrices at both ends are equal (a rotation by 2π).
    if case .component(let c) = plan { return c.value(at: fraction) }
    if fraction == 0 || from == to { return from }
    if fraction == 1 { return to }
    guard fraction.isFinite else { return to }
    switch plan {
    case .planar(let a, let b):
      return DecomposedTransform2D.interpolate(from: a, to: b, fraction: fraction).recomposed
    case .spatial(let a, let b):
      return DecomposedTransform3D.interpolate(from: a, to: b, fraction: fraction).recomposed
    case .discrete, .component:
      return fraction < 0.5 ? from : to
    }
  }
}

extension Transform3D: Interpolatable {
  /// The transform at `fraction` between `from` and `to`, by matrix decomposition as CSS Transforms specifies
  /// and WebKit implements it:
  ///
  /// - When both matrices are affine (`isAffine`, e.g. every UIView `transform`), the 2-D decomposition
  ///   (`DecomposedTransform2D`): translation, scale, rotation angle (the shorter way round) and the residual
  ///   matrix blend linearly. A flip such as scale(−1, 1) then animates in the plane (the view narrows to a line
  ///   and widens mirrored), not as a rotation out of the plane.
  /// - Otherwise the 3-D decomposition (`DecomposedTransform3D`, CSS Transforms Level 2): translation, scale,
  ///   skew and perspective blend linearly, the rotation by quaternion slerp along the shorter arc.
  /// - Exactly `from` at fraction 0 and `to` at fraction 1 (no round-off from recomposition).
  /// - When either matrix cannot be decomposed (m44 = 0, a singular upper block such as a zero scale, non-finite
  ///   entries), the result is **discrete**: `from` below 0.5, `to` from 0.5 on — CSS's rule. A matrix lerp is
  ///   deliberately not used. (UIKit users know the symptom: animating to a zero scale jumps; they use a tiny
  ///   scale instead.) A non-finite fraction gives `to`.
  ///
  /// Each call decomposes both ends; `Transform3DInterpolation` caches that for repeated sampling.
  package static func interpolate(from: Transform3D, to: Transform3D, fraction: Double) -> Transform3D {
    if fraction == 0 || from == to { return from }
    if fraction == 1 { return to }
    return Transform3DInterpolation(from: from, to: to).value(at: fraction)
  }

  /// The Euclidean distance between the sixteen entries (used to pace transform keyframes; Core Animation does
  /// not document its metric for matrices).
  package static func distance(from a: Transform3D, to b: Transform3D) -> Double {
    var sum = 0.0
    sum += sq(b.m11 - a.m11) + sq(b.m12 - a.m12) + sq(b.m13 - a.m13) + sq(b.m14 - a.m14)
    sum += sq(b.m21 - a.m21) + sq(b.m22 - a.m22) + sq(b.m23 - a.m23) + sq(b.m24 - a.m24)
    sum += sq(b.m31 - a.m31) + sq(b.m32 - a.m32) + sq(b.m33 - a.m33) + sq(b.m34 - a.m34)
    sum += sq(b.m41 - a.m41) + sq(b.m42 - a.m42) + sq(b.m43 - a.m43) + sq(b.m44 - a.m44)
    return sum.squareRoot()
  }

  /// The affine combination of the decomposed components. When all four are affine without reflections, the
  /// 2-D components (as `interpolate` uses them), each angle unwrapped to within 180° of the previous one;
  /// otherwise the 3-D ones: translation, scale, skew and perspective weighted directly, quaternions (each
  /// aligned to the previous one's hemisphere) weighted and normalized. When any of the four cannot be
  /// decomposed, the value with the largest weight is returned (a discrete fallback, in the spirit of
  /// `interpolate`).
  package static func combine(
    _ a: Transform3D, _ wa: Double, _ b: Transform3D, _ wb: Double, _ c: Transform3D, _ wc: Double,
    _ d: Transform3D, _ wd: Double
  ) -> Transform3D {
    if let planar = combinePlanar(a, wa, b, wb, c, wc, d, wd) { return planar }
    guard let da = DecomposedTransform3D(a), let db = DecomposedTransform3D(b), let dc = DecomposedTransform3D(c),
      let dd = DecomposedTransform3D(d)
    else {
      var best = (a, wa)
      for (value, weight) in [(b, wb), (c, wc), (d, wd)] where weight > best.1 { best = (value, weight) }
      return best.0
    }
    var qb = db.quaternion
    if da.quaternion.dot(qb) < 0 { qb = qb.negated }
    var qc = dc.quaternion
    if qb.dot(qc) < 0 { qc = qc.negated }
    var qd = dd.quaternion
    if qc.dot(qd) < 0 { qd = qd.negated }
    let qa = da.quaternion
    func w(_ x: Double, _ y: Double, _ z: Double, _ u: Double) -> Double { x * wa + y * wb + z * wc + u * wd }
    let q = Quaternion(
      x: w(qa.x, qb.x, qc.x, qd.x), y: w(qa.y, qb.y, qc.y, qd.y), z: w(qa.z, qb.z, qc.z, qd.z),
      w: w(qa.w, qb.w, qc.w, qd.w)
    ).normalized
    let result = DecomposedTransform3D(
      translation: (
        w(da.translation.x, db.translation.x, dc.translation.x, dd.translation.x),
        w(da.translation.y, db.translation.y, dc.translation.y, dd.translation.y),
        w(da.translation.z, db.translation.z, dc.translation.z, dd.translation.z)
      ),
      scale: (
        w(da.scale.x, db.scale.x, dc.scale.x, dd.scale.x), w(da.scale.y, db.scale.y, dc.scale.y, dd.scale.y),
        w(da.scale.z, db.scale.z, dc.scale.z, dd.scale.z)
      ),
      skew: (
        w(da.skew.xy, db.skew.xy, dc.skew.xy, dd.skew.xy), w(da.skew.xz, db.skew.xz, dc.skew.xz, dd.skew.xz),
        w(da.skew.yz, db.skew.yz, dc.skew.yz, dd.skew.yz)
      ),
      perspective: (
        w(da.perspective.x, db.perspective.x, dc.perspective.x, dd.perspective.x),
        w(da.perspective.y, db.perspective.y, dc.perspective.y, dd.perspective.y),
        w(da.perspective.z, db.perspective.z, dc.perspective.z, dd.perspective.z),
        w(da.perspective.w, db.perspective.w, dc.perspective.w, dd.perspective.w)
      ),
      quaternion: q)
    return result.recomposed
  }
}

/// The 2-D branch of `Transform3D.combine`, or nil when it does not apply.
private func combinePlanar(
  _ a: Transform3D, _ wa: Double, _ b: Transform3D, _ wb: Double, _ c: Transform3D, _ wc: Double,
  _ d: Transform3D, _ wd: Double
) -> Transform3D? {
  guard a.isAffine, b.isAffine, c.isAffine, d.isAffine, let da = DecomposedTransform2D(a),
    let db = DecomposedTransform2D(b), let dc = DecomposedTransform2D(c), let dd = DecomposedTransform2D(d)
  else { return nil }
  func unflipped(_ p: DecomposedTransform2D) -> Bool { p.scale.x > 0 && p.scale.y > 0 }
  guard unflipped(da), unflipped(db), unflipped(dc), unflipped(dd) else { return nil }
  // Unwrap the angles so consecutive keys are less than 180° apart.
  func unwrap(_ angle: Double, after previous: Double) -> Double {
    var angle = angle
    while angle - previous > .pi { angle -= 2 * .pi }
    while angle - previous < -.pi { angle += 2 * .pi }
    return angle
  }
  let angleB = unwrap(db.angle, after: da.angle)
  let angleC = unwrap(dc.angle, after: angleB)
  let angleD = unwrap(dd.angle, after: angleC)
  func w(_ x: Double, _ y: Double, _ z: Double, _ u: Double) -> Double { x * wa + y * wb + z * wc + u * wd }
  let result = DecomposedTransform2D(
    translation: (
      w(da.translation.x, db.translation.x, dc.translation.x, dd.translation.x),
      w(da.translation.y, db.translation.y, dc.translation.y, dd.translation.y)
    ),
    scale: (w(da.scale.x, db.scale.x, dc.scale.x, dd.scale.x), w(da.scale.y, db.scale.y, dc.scale.y, dd.scale.y)),
    angle: w(da.angle, angleB, angleC, angleD),
    residual: (
      w(da.residual.m11, db.residual.m11, dc.residual.m11, dd.residual.m11),
      w(da.residual.m12, db.residual.m12, dc.residual.m12, dd.residual.m12),
      w(da.residual.m21, db.residual.m21, dc.residual.m21, dd.residual.m21),
      w(da.residual.m22, db.residual.m22, dc.residual.m22, dd.residual.m22)
    ))
  return result.recomposed
}

@inline(__always) private func sq(_ x: Double) -> Double { x * x }

/// A small 3-vector for the decomposition's row arithmetic.
struct Vector3 {
  var x: Double, y: Double, z: Double

  init(_ x: Double, _ y: Double, _ z: Double) {
    self.x = x
    self.y = y
    self.z = z
  }

  var length: Double { (x * x + y * y + z * z).squareRoot() }
  func dot(_ o: Vector3) -> Double { x * o.x + y * o.y + z * o.z }
  func cross(_ o: Vector3) -> Vector3 { Vector3(y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x) }
  static func + (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x + b.x, a.y + b.y, a.z + b.z) }
  static func - (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x - b.x, a.y - b.y, a.z - b.z) }
  static func * (a: Vector3, k: Double) -> Vector3 { Vector3(a.x * k, a.y * k, a.z * k) }
  static func / (a: Vector3, k: Double) -> Vector3 { Vector3(a.x / k, a.y / k, a.z / k) }
}
