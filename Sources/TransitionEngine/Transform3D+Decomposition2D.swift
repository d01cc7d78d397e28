// The 2-D decomposition CSS Transforms uses when both ends of an interpolation are affine (as WebKit's
// TransformationMatrix::blend does), so flips and planar rotations animate in the plane.

/// The components of an affine transform per CSS Transforms Level 1 §"Unmatrix" (2-D).
///
/// In row-vector terms the upper 2×2 block is S · R(angle) · K: a scale S = diag(`scale`) (one axis negated for
/// a reflection), a rotation by `angle` (radians, in (−π, π], positive turning x toward y) and the residual
/// matrix K (identity unless there is a shear); the translation is separate.
package struct DecomposedTransform2D: Equatable, Sendable {
  /// The translation (m41, m42).
  package var translation: (x: Double, y: Double)
  /// The scale factors; a reflection shows as one negative factor.
  package var scale: (x: Double, y: Double)
  /// The rotation in radians.
  package var angle: Double
  /// The residual 2×2 matrix K (m11, m12, m21, m22).
  package var residual: (m11: Double, m12: Double, m21: Double, m22: Double)

  /// Decomposes an affine matrix; nil when it is not exactly affine (`isAffine`), has non-finite entries or a
  /// singular 2×2 block (for example a zero scale), the cases CSS and Core Animation cannot interpolate.
  package init?(_ m: Transform3D) {
    guard m.isAffine, m.isFinite else { return nil }
    let det = m.m11 * m.m22 - m.m12 * m.m21
    guard det != 0, det.isFinite else { return nil }
    var sx = (m.m11 * m.m11 + m.m12 * m.m12).squareRoot()
    var sy = (m.m21 * m.m21 + m.m22 * m.m22).squareRoot()
    // A reflection: flip the axis whose unit vectors' dot product is smaller (CSS's rule).
    if det < 0 {
      if m.m11 < m.m22 { sx = -sx } else { sy = -sy }
    }
    let n0 = (x: m.m11 / sx, y: m.m12 / sx)
    let n1 = (x: m.m21 / sy, y: m.m22 / sy)
    let theta = arcTangent2(n0.y, n0.x)
    let c = cosine(theta)
    let s = sine(theta)
    // K = R(θ)⁻¹ · N, with R(θ) = [[c, s], [−s, c]] in row-vector form.
    residual = (
      m11: c * n0.x - s * n1.x, m12: c * n0.y - s * n1.y,
      m21: s * n0.x + c * n1.x, m22: s * n0.y + c * n1.y
    )
    translation = (m.m41, m.m42)
    scale = (sx, sy)
    angle = theta
  }

  /// Creates a decomposition from its parts.
  package init(
    translation: (x: Double, y: Double), scale: (x: Double, y: Double), angle: Double,
    residual: (m11: Double, m12: Double, m21: Double, m22: Double)
  ) {
    self.translation = translation
    self.scale = scale
    self.angle = angle
    self.residual = residual
  }

  /// The affine matrix S · R(angle) · K with the translation.
  package var recomposed: Transform3D {
    let c = cosine(angle)
    let s = sine(angle)
    let k = residual
    var m = Transform3D.identity
    m.m11 = (c * k.m11 + s * k.m21) * scale.x
    m.m12 = (c * k.m12 + s * k.m22) * scale.x
    m.m21 = (-s * k.m11 + c * k.m21) * scale.y
    m.m22 = (-s * k.m12 + c * k.m22) * scale.y
    m.m41 = translation.x
    m.m42 = translation.y
    return m
  }

  /// CSS's 2-D interpolation: when one end flips x and the other y, the first is rewritten as an unflipped
  /// rotation by ±180°; the angles are brought within 180° of each other (the shorter way round); then
  /// translation, scale, angle and the residual matrix blend linearly.
  package static func interpolate(
    from a: DecomposedTransform2D, to b: DecomposedTransform2D, fraction t: Double
  ) -> DecomposedTransform2D {
    var (start, end) = aligned(a, b)
    if abs(start.angle - end.angle) > .pi {
      if start.angle > end.angle { start.angle -= 2 * .pi } else { end.angle -= 2 * .pi }
    }
    return DecomposedTransform2D(
      translation: (lerp(start.translation.x, end.translation.x, t), lerp(start.translation.y, end.translation.y, t)),
      scale: (lerp(start.scale.x, end.scale.x, t), lerp(start.scale.y, end.scale.y, t)),
      angle: lerp(start.angle, end.angle, t),
      residual: (
        lerp(start.residual.m11, end.residual.m11, t), lerp(start.residual.m12, end.residual.m12, t),
        lerp(start.residual.m21, end.residual.m21, t), lerp(start.residual.m22, end.residual.m22, t)
      ))
  }

  /// The flip fix of `interpolate`: −S · R(θ ± π) is the same matrix as S · R(θ).
  static func aligned(
    _ a: DecomposedTransform2D, _ b: DecomposedTransform2D
  ) -> (DecomposedTransform2D, DecomposedTransform2D) {
    var a = a
    if (a.scale.x < 0 && b.scale.y < 0) || (a.scale.y < 0 && b.scale.x < 0) {
      a.scale = (-a.scale.x, -a.scale.y)
      a.angle += a.angle < 0 ? .pi : -.pi
    }
    return (a, b)
  }

  package static func == (l: DecomposedTransform2D, r: DecomposedTransform2D) -> Bool {
    l.translation == r.translation && l.scale == r.scale && l.angle == r.angle && l.residual == r.residual
  }
}
