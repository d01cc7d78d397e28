// Core Graphics' value types with UIKit's names and members, so ported animator code compiles unchanged.
//
// They are TransitionKit's own types, not Foundation's: linking Foundation into a plugin would load about 64 MB of
// libraries (Foundation, FoundationEssentials, ICU) into a host that uses none of them (measured: +7.7 MB peak RSS and
// +5 ms per dlopen for a one-function plugin). Do not `import Foundation` in a plugin file that uses these names, or
// qualify them (`TransitionKit.CGRect`).

#if canImport(Glibc)
  import Glibc
#endif

/// A distance in points. UIKit's `CGFloat` is a 64-bit floating-point number on every current platform, and Swift
/// converts between it and `Double` implicitly; here it is `Double` itself.
public typealias CGFloat = Double

/// A time interval in seconds, as Foundation's.
public typealias TimeInterval = Double

/// A point in a two-dimensional coordinate system (y grows downward, as in UIKit).
public struct CGPoint: Hashable, Sendable, CustomStringConvertible {
  public var x: CGFloat
  public var y: CGFloat

  /// The point (x, y).
  public init(x: CGFloat, y: CGFloat) {
    self.x = x
    self.y = y
  }

  /// The point (0, 0).
  public init() { self.init(x: 0, y: 0) }

  /// The origin.
  public static let zero = CGPoint(x: 0, y: 0)

  /// The point mapped by an affine transform (row vector times matrix, as CGPointApplyAffineTransform).
  public func applying(_ t: CGAffineTransform) -> CGPoint {
    CGPoint(x: t.a * x + t.c * y + t.tx, y: t.b * x + t.d * y + t.ty)
  }

  public var description: String { "(\(x), \(y))" }
}

/// A width and a height.
public struct CGSize: Hashable, Sendable, CustomStringConvertible {
  public var width: CGFloat
  public var height: CGFloat

  /// The size width × height.
  public init(width: CGFloat, height: CGFloat) {
    self.width = width
    self.height = height
  }

  /// The size 0 × 0.
  public init() { self.init(width: 0, height: 0) }

  /// The size 0 × 0.
  public static let zero = CGSize(width: 0, height: 0)

  public var description: String { "(\(width), \(height))" }
}

/// A two-dimensional vector, as CGVector (UIKit gives spring velocities as one).
public struct CGVector: Hashable, Sendable, CustomStringConvertible {
  public var dx: CGFloat
  public var dy: CGFloat

  /// The vector (dx, dy).
  public init(dx: CGFloat, dy: CGFloat) {
    self.dx = dx
    self.dy = dy
  }

  /// The vector (0, 0).
  public init() { self.init(dx: 0, dy: 0) }

  /// The vector (0, 0).
  public static let zero = CGVector(dx: 0, dy: 0)

  public var description: String { "(\(dx), \(dy))" }
}

/// A rectangle: an origin and a size, as CGRect (a negative width or height extends left or up).
public struct CGRect: Hashable, Sendable, CustomStringConvertible {
  public var origin: CGPoint
  public var size: CGSize

  /// The rectangle at `origin` of `size`.
  public init(origin: CGPoint, size: CGSize) {
    self.origin = origin
    self.size = size
  }

  /// The rectangle (x, y, width, height).
  public init(x: CGFloat, y: CGFloat, width: CGFloat, height: CGFloat) {
    self.init(origin: CGPoint(x: x, y: y), size: CGSize(width: width, height: height))
  }

  /// The rectangle (0, 0, 0, 0).
  public init() { self.init(origin: .zero, size: .zero) }

  /// The rectangle (0, 0, 0, 0).
  public static let zero = CGRect()

  /// The width as stored (CGRect's `width` is the standardized one: its absolute value).
  public var width: CGFloat { abs(size.width) }
  public var height: CGFloat { abs(size.height) }
  public var minX: CGFloat { min(origin.x, origin.x + size.width) }
  public var midX: CGFloat { origin.x + size.width / 2 }
  public var maxX: CGFloat { max(origin.x, origin.x + size.width) }
  public var minY: CGFloat { min(origin.y, origin.y + size.height) }
  public var midY: CGFloat { origin.y + size.height / 2 }
  public var maxY: CGFloat { max(origin.y, origin.y + size.height) }

  /// Whether the rectangle has no area.
  public var isEmpty: Bool { size.width == 0 || size.height == 0 }

  /// The same rectangle with a non-negative width and height.
  public var standardized: CGRect {
    CGRect(x: minX, y: minY, width: width, height: height)
  }

  /// The rectangle moved by (dx, dy).
  public func offsetBy(dx: CGFloat, dy: CGFloat) -> CGRect {
    CGRect(x: origin.x + dx, y: origin.y + dy, width: size.width, height: size.height)
  }

  /// The rectangle shrunk by dx on the left and right and dy at the top and bottom (grown for negative values).
  public func insetBy(dx: CGFloat, dy: CGFloat) -> CGRect {
    let r = standardized
    return CGRect(x: r.origin.x + dx, y: r.origin.y + dy, width: r.width - 2 * dx, height: r.height - 2 * dy)
  }

  /// Whether `point` lies inside (the maximum edges excluded, as CGRectContainsPoint).
  public func contains(_ point: CGPoint) -> Bool {
    point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
  }

  /// The bounding box of the rectangle's corners mapped by an affine transform.
  public func applying(_ t: CGAffineTransform) -> CGRect {
    let corners = [
      CGPoint(x: minX, y: minY), CGPoint(x: maxX, y: minY), CGPoint(x: minX, y: maxY), CGPoint(x: maxX, y: maxY),
    ].map { $0.applying(t) }
    let xs = corners.map(\.x)
    let ys = corners.map(\.y)
    return CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
  }

  public var description: String { "(\(origin.x), \(origin.y), \(size.width), \(size.height))" }
}

/// UIEdgeInsets: distances to inset each edge of a rectangle by (negative values grow it).
public struct UIEdgeInsets: Hashable, Sendable, CustomStringConvertible {
  public var top: CGFloat
  public var left: CGFloat
  public var bottom: CGFloat
  public var right: CGFloat

  /// The insets (top, left, bottom, right).
  public init(top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat) {
    (self.top, self.left, self.bottom, self.right) = (top, left, bottom, right)
  }

  /// No insets.
  public init() { self.init(top: 0, left: 0, bottom: 0, right: 0) }

  /// No insets.
  public static let zero = UIEdgeInsets()

  public var description: String { "{\(top), \(left), \(bottom), \(right)}" }
}

extension CGRect {
  /// The rectangle with each edge moved inward by `insets` (UIKit's `inset(by:)`, UIEdgeInsetsInsetRect: the
  /// origin moves by left and top, the size shrinks by left + right and top + bottom).
  public func inset(by insets: UIEdgeInsets) -> CGRect {
    CGRect(
      x: origin.x + insets.left, y: origin.y + insets.top, width: size.width - insets.left - insets.right,
      height: size.height - insets.top - insets.bottom)
  }
}

/// A 2-D affine transform, as CGAffineTransform: the matrix [a b 0; c d 0; tx ty 1] applied to row vectors.
/// A view's `transform` is the affine part of its layer's `CATransform3D`.
public struct CGAffineTransform: Hashable, Sendable, CustomStringConvertible {
  public var a: CGFloat
  public var b: CGFloat
  public var c: CGFloat
  public var d: CGFloat
  public var tx: CGFloat
  public var ty: CGFloat

  /// The transform with these six entries.
  public init(a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) {
    (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
  }

  /// The identity.
  public init() { self.init(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0) }

  /// The identity transform.
  public static let identity = CGAffineTransform()

  /// A translation.
  public init(translationX tx: CGFloat, y ty: CGFloat) {
    self.init(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty)
  }

  /// A scale about the origin.
  public init(scaleX sx: CGFloat, y sy: CGFloat) {
    self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
  }

  /// A rotation by `angle` radians (positive = clockwise on screen, since y grows downward).
  public init(rotationAngle angle: CGFloat) {
    let (s, c) = (Math.sin(angle), Math.cos(angle))
    self.init(a: c, b: s, c: -s, d: c, tx: 0, ty: 0)
  }

  /// Whether this is the identity.
  public var isIdentity: Bool { self == .identity }

  /// `self` followed by `t2` (CGAffineTransformConcat(self, t2)).
  public func concatenating(_ t2: CGAffineTransform) -> CGAffineTransform {
    CGAffineTransform(
      a: a * t2.a + b * t2.c, b: a * t2.b + b * t2.d,
      c: c * t2.a + d * t2.c, d: c * t2.b + d * t2.d,
      tx: tx * t2.a + ty * t2.c + t2.tx, ty: tx * t2.b + ty * t2.d + t2.ty)
  }

  /// A translation applied before `self` (CGAffineTransformTranslate).
  public func translatedBy(x: CGFloat, y: CGFloat) -> CGAffineTransform {
    CGAffineTransform(translationX: x, y: y).concatenating(self)
  }

  /// A scale applied before `self` (CGAffineTransformScale).
  public func scaledBy(x: CGFloat, y: CGFloat) -> CGAffineTransform {
    CGAffineTransform(scaleX: x, y: y).concatenating(self)
  }

  /// A rotation applied before `self` (CGAffineTransformRotate).
  public func rotated(by angle: CGFloat) -> CGAffineTransform {
    CGAffineTransform(rotationAngle: angle).concatenating(self)
  }

  /// The inverse, or `self` unchanged when it is not invertible (as CGAffineTransformInvert).
  public func inverted() -> CGAffineTransform {
    let det = a * d - b * c
    guard det != 0, det.isFinite else { return self }
    return CGAffineTransform(
      a: d / det, b: -b / det, c: -c / det, d: a / det,
      tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
  }

  public var description: String { "[\(a), \(b), \(c), \(d), \(tx), \(ty)]" }
}

/// A 3-D transform, as Core Animation's CATransform3D: row vectors (p' = p · M), translation in m41…m43,
/// perspective in m34 = −1/d.
public struct CATransform3D: Hashable, Sendable {
  public var m11: CGFloat, m12: CGFloat, m13: CGFloat, m14: CGFloat
  public var m21: CGFloat, m22: CGFloat, m23: CGFloat, m24: CGFloat
  public var m31: CGFloat, m32: CGFloat, m33: CGFloat, m34: CGFloat
  public var m41: CGFloat, m42: CGFloat, m43: CGFloat, m44: CGFloat

  /// The matrix with these sixteen entries.
  public init(
    m11: CGFloat, m12: CGFloat, m13: CGFloat, m14: CGFloat,
    m21: CGFloat, m22: CGFloat, m23: CGFloat, m24: CGFloat,
    m31: CGFloat, m32: CGFloat, m33: CGFloat, m34: CGFloat,
    m41: CGFloat, m42: CGFloat, m43: CGFloat, m44: CGFloat
  ) {
    (self.m11, self.m12, self.m13, self.m14) = (m11, m12, m13, m14)
    (self.m21, self.m22, self.m23, self.m24) = (m21, m22, m23, m24)
    (self.m31, self.m32, self.m33, self.m34) = (m31, m32, m33, m34)
    (self.m41, self.m42, self.m43, self.m44) = (m41, m42, m43, m44)
  }

  /// The identity (CATransform3D() is the identity here, unlike the zero matrix of the C initialiser: a zeroed
  /// transform is never what an animator means).
  public init() {
    self.init(
      m11: 1, m12: 0, m13: 0, m14: 0, m21: 0, m22: 1, m23: 0, m24: 0,
      m31: 0, m32: 0, m33: 1, m34: 0, m41: 0, m42: 0, m43: 0, m44: 1)
  }

  /// The sixteen entries in m11, m12, …, m44 order.
  public var values: [CGFloat] {
    [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44]
  }

  /// The matrix from sixteen entries in m11 … m44 order (nil unless there are exactly sixteen).
  public init?(values v: [CGFloat]) {
    guard v.count == 16 else { return nil }
    self.init(
      m11: v[0], m12: v[1], m13: v[2], m14: v[3], m21: v[4], m22: v[5], m23: v[6], m24: v[7],
      m31: v[8], m32: v[9], m33: v[10], m34: v[11], m41: v[12], m42: v[13], m43: v[14], m44: v[15])
  }
}

/// The identity transform.
public let CATransform3DIdentity = CATransform3D()

/// Whether `t` is the identity.
public func CATransform3DIsIdentity(_ t: CATransform3D) -> Bool { t == CATransform3DIdentity }

/// Whether `a` and `b` are equal.
public func CATransform3DEqualToTransform(_ a: CATransform3D, _ b: CATransform3D) -> Bool { a == b }

/// A translation by (tx, ty, tz).
public func CATransform3DMakeTranslation(_ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> CATransform3D {
  var t = CATransform3DIdentity
  (t.m41, t.m42, t.m43) = (tx, ty, tz)
  return t
}

/// A scale by (sx, sy, sz).
public func CATransform3DMakeScale(_ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> CATransform3D {
  var t = CATransform3DIdentity
  (t.m11, t.m22, t.m33) = (sx, sy, sz)
  return t
}

/// A rotation by `angle` radians about the axis (x, y, z); the identity when the axis has length 0.
public func CATransform3DMakeRotation(_ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> CATransform3D {
  let length = (x * x + y * y + z * z).squareRoot()
  guard length > 0, length.isFinite, angle.isFinite else { return CATransform3DIdentity }
  let (ux, uy, uz) = (x / length, y / length, z / length)
  let (s, c) = (Math.sin(angle), Math.cos(angle))
  let t = 1 - c
  return CATransform3D(
    m11: c + t * ux * ux, m12: t * ux * uy + s * uz, m13: t * ux * uz - s * uy, m14: 0,
    m21: t * ux * uy - s * uz, m22: c + t * uy * uy, m23: t * uy * uz + s * ux, m24: 0,
    m31: t * ux * uz + s * uy, m32: t * uy * uz - s * ux, m33: c + t * uz * uz, m34: 0,
    m41: 0, m42: 0, m43: 0, m44: 1)
}

/// `a` followed by `b`: the product a · b.
public func CATransform3DConcat(_ a: CATransform3D, _ b: CATransform3D) -> CATransform3D {
  let x = a.values
  let y = b.values
  var r = [CGFloat](repeating: 0, count: 16)
  for row in 0..<4 {
    for column in 0..<4 {
      var sum: CGFloat = 0
      for k in 0..<4 { sum += x[row * 4 + k] * y[k * 4 + column] }
      r[row * 4 + column] = sum
    }
  }
  return CATransform3D(values: r)!
}

/// A translation applied before `t` (T · t).
public func CATransform3DTranslate(_ t: CATransform3D, _ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> CATransform3D {
  CATransform3DConcat(CATransform3DMakeTranslation(tx, ty, tz), t)
}

/// A scale applied before `t` (S · t).
public func CATransform3DScale(_ t: CATransform3D, _ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> CATransform3D {
  CATransform3DConcat(CATransform3DMakeScale(sx, sy, sz), t)
}

/// A rotation applied before `t` (R · t).
public func CATransform3DRotate(
  _ t: CATransform3D, _ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat
) -> CATransform3D {
  CATransform3DConcat(CATransform3DMakeRotation(angle, x, y, z), t)
}

/// The inverse of `t`, or `t` unchanged when it is not invertible (as Core Animation's).
public func CATransform3DInvert(_ t: CATransform3D) -> CATransform3D {
  // Gauss-Jordan elimination with partial pivoting on [t | I].
  var m = t.values
  var inverse = CATransform3DIdentity.values
  for column in 0..<4 {
    var pivot = column
    for row in column..<4 where abs(m[row * 4 + column]) > abs(m[pivot * 4 + column]) { pivot = row }
    let p = m[pivot * 4 + column]
    guard p != 0, p.isFinite else { return t }
    if pivot != column {
      for k in 0..<4 {
        m.swapAt(pivot * 4 + k, column * 4 + k)
        inverse.swapAt(pivot * 4 + k, column * 4 + k)
      }
    }
    for k in 0..<4 {
      m[column * 4 + k] /= p
      inverse[column * 4 + k] /= p
    }
    for row in 0..<4 where row != column {
      let factor = m[row * 4 + column]
      guard factor != 0 else { continue }
      for k in 0..<4 {
        m[row * 4 + k] -= factor * m[column * 4 + k]
        inverse[row * 4 + k] -= factor * inverse[column * 4 + k]
      }
    }
  }
  return CATransform3D(values: inverse)!
}

/// The 3-D transform of an affine transform.
public func CATransform3DMakeAffineTransform(_ m: CGAffineTransform) -> CATransform3D {
  var t = CATransform3DIdentity
  (t.m11, t.m12, t.m21, t.m22, t.m41, t.m42) = (m.a, m.b, m.c, m.d, m.tx, m.ty)
  return t
}

/// Whether `t` is an affine transform (no z and no perspective terms).
public func CATransform3DIsAffine(_ t: CATransform3D) -> Bool {
  t.m13 == 0 && t.m14 == 0 && t.m23 == 0 && t.m24 == 0 && t.m31 == 0 && t.m32 == 0 && t.m33 == 1 && t.m34 == 0
    && t.m43 == 0 && t.m44 == 1
}

/// The affine part of `t` (its x/y entries; the rest is dropped).
public func CATransform3DGetAffineTransform(_ t: CATransform3D) -> CGAffineTransform {
  CGAffineTransform(a: t.m11, b: t.m12, c: t.m21, d: t.m22, tx: t.m41, ty: t.m42)
}

/// libm's sine and cosine (one place that imports the C library for them).
enum Math {
  static func sin(_ x: Double) -> Double { Glibc.sin(x) }
  static func cos(_ x: Double) -> Double { Glibc.cos(x) }
}
