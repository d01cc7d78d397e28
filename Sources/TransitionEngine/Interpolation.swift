// Interpolation of animatable values: linear blends, distances (for paced keyframes) and the weighted
// four-point combinations that cubic keyframes need.

/// A value an animation can blend.
package protocol Interpolatable: Sendable {
  /// The value at `fraction` between `from` (0) and `to` (1). Fractions outside [0, 1] extrapolate where the
  /// type allows it (springs and overshooting curves produce them).
  static func interpolate(from: Self, to: Self, fraction: Double) -> Self

  /// A non-negative distance between two values, used to pace keyframes by arc length.
  static func distance(from: Self, to: Self) -> Double

  /// The affine combination w₀·a + w₁·b + w₂·c + w₃·d with w₀ + w₁ + w₂ + w₃ = 1 (callers guarantee the sum):
  /// what a cubic (Hermite / Kochanek–Bartels) keyframe segment evaluates to.
  static func combine(
    _ a: Self, _ wa: Double, _ b: Self, _ wb: Double, _ c: Self, _ wc: Double, _ d: Self, _ wd: Double
  ) -> Self
}

extension Double: Interpolatable {
  /// a + (b − a)·t, returning the endpoints exactly at 0 and 1.
  package static func interpolate(from a: Double, to b: Double, fraction t: Double) -> Double {
    lerp(a, b, t)
  }

  /// |b − a|.
  package static func distance(from a: Double, to b: Double) -> Double { abs(b - a) }

  /// The weighted sum.
  package static func combine(
    _ a: Double, _ wa: Double, _ b: Double, _ wb: Double, _ c: Double, _ wc: Double, _ d: Double, _ wd: Double
  ) -> Double {
    a * wa + b * wb + c * wc + d * wd
  }
}

extension Point: Interpolatable {
  /// Componentwise.
  package static func interpolate(from a: Point, to b: Point, fraction t: Double) -> Point {
    Point(x: lerp(a.x, b.x, t), y: lerp(a.y, b.y, t))
  }

  /// Euclidean distance.
  package static func distance(from a: Point, to b: Point) -> Double {
    hypot2(b.x - a.x, b.y - a.y)
  }

  /// Componentwise.
  package static func combine(
    _ a: Point, _ wa: Double, _ b: Point, _ wb: Double, _ c: Point, _ wc: Double, _ d: Point, _ wd: Double
  ) -> Point {
    Point(
      x: a.x * wa + b.x * wb + c.x * wc + d.x * wd,
      y: a.y * wa + b.y * wb + c.y * wc + d.y * wd)
  }
}

extension Size: Interpolatable {
  /// Componentwise.
  package static func interpolate(from a: Size, to b: Size, fraction t: Double) -> Size {
    Size(width: lerp(a.width, b.width, t), height: lerp(a.height, b.height, t))
  }

  /// Euclidean distance of (width, height).
  package static func distance(from a: Size, to b: Size) -> Double {
    hypot2(b.width - a.width, b.height - a.height)
  }

  /// Componentwise.
  package static func combine(
    _ a: Size, _ wa: Double, _ b: Size, _ wb: Double, _ c: Size, _ wc: Double, _ d: Size, _ wd: Double
  ) -> Size {
    Size(
      width: a.width * wa + b.width * wb + c.width * wc + d.width * wd,
      height: a.height * wa + b.height * wb + c.height * wc + d.height * wd)
  }
}

extension Rect: Interpolatable {
  /// Origin and size componentwise (as Core Animation animates `bounds`; the stored, not standardized, values).
  package static func interpolate(from a: Rect, to b: Rect, fraction t: Double) -> Rect {
    Rect(
      origin: .interpolate(from: a.origin, to: b.origin, fraction: t),
      size: .interpolate(from: a.size, to: b.size, fraction: t))
  }

  /// Euclidean distance of (x, y, width, height).
  package static func distance(from a: Rect, to b: Rect) -> Double {
    let dx = b.origin.x - a.origin.x
    let dy = b.origin.y - a.origin.y
    let dw = b.size.width - a.size.width
    let dh = b.size.height - a.size.height
    return (dx * dx + dy * dy + dw * dw + dh * dh).squareRoot()
  }

  /// Componentwise.
  package static func combine(
    _ a: Rect, _ wa: Double, _ b: Rect, _ wb: Double, _ c: Rect, _ wc: Double, _ d: Rect, _ wd: Double
  ) -> Rect {
    Rect(
      origin: .combine(a.origin, wa, b.origin, wb, c.origin, wc, d.origin, wd),
      size: .combine(a.size, wa, b.size, wb, c.size, wc, d.size, wd))
  }
}

extension Color: Interpolatable {
  /// Componentwise on straight (non-premultiplied) RGBA, as Core Animation blends CGColor components.
  package static func interpolate(from a: Color, to b: Color, fraction t: Double) -> Color {
    Color(r: lerp(a.r, b.r, t), g: lerp(a.g, b.g, t), b: lerp(a.b, b.b, t), a: lerp(a.a, b.a, t))
  }

  /// Euclidean distance in RGBA.
  package static func distance(from a: Color, to b: Color) -> Double {
    let dr = b.r - a.r
    let dg = b.g - a.g
    let db = b.b - a.b
    let da = b.a - a.a
    return (dr * dr + dg * dg + db * db + da * da).squareRoot()
  }

  /// Componentwise.
  package static func combine(
    _ a: Color, _ wa: Double, _ b: Color, _ wb: Double, _ c: Color, _ wc: Double, _ d: Color, _ wd: Double
  ) -> Color {
    Color(
      r: a.r * wa + b.r * wb + c.r * wc + d.r * wd,
      g: a.g * wa + b.g * wb + c.g * wc + d.g * wd,
      b: a.b * wa + b.b * wb + c.b * wc + d.b * wd,
      a: a.a * wa + b.a * wb + c.a * wc + d.a * wd)
  }
}

extension Gradient: Interpolatable {
  /// Colours, locations and both points componentwise, when both gradients have the same number of colours
  /// (nil locations count as evenly spaced; the result keeps nil only when both are nil). With different
  /// colour counts the gradient changes discretely at 0.5 (CSS's rule for values that cannot be blended;
  /// Core Animation does not document this case). Exactly `from` at 0 and `to` at 1.
  package static func interpolate(from a: Gradient, to b: Gradient, fraction t: Double) -> Gradient {
    if t == 0 { return a }
    if t == 1 { return b }
    guard a.colors.count == b.colors.count else { return t < 0.5 ? a : b }
    let n = a.colors.count
    var colors = [Color]()
    colors.reserveCapacity(n)
    for i in 0..<n { colors.append(.interpolate(from: a.colors[i], to: b.colors[i], fraction: t)) }
    var locations: [Double]?
    if a.locations != nil || b.locations != nil {
      let la = a.effectiveLocations
      let lb = b.effectiveLocations
      locations = (0..<n).map { lerp(la[$0], lb[$0], t) }
    }
    return Gradient(
      colors: colors, locations: locations,
      startPoint: .interpolate(from: a.startPoint, to: b.startPoint, fraction: t),
      endPoint: .interpolate(from: a.endPoint, to: b.endPoint, fraction: t))
  }

  /// The Euclidean distance over every colour component, location and point coordinate; with different
  /// colour counts, the distance of the parts that can be compared plus 1 per extra colour.
  package static func distance(from a: Gradient, to b: Gradient) -> Double {
    let n = min(a.colors.count, b.colors.count)
    let la = a.effectiveLocations
    let lb = b.effectiveLocations
    var sum = 0.0
    for i in 0..<n {
      let d = Color.distance(from: a.colors[i], to: b.colors[i])
      sum += d * d + (lb[i] - la[i]) * (lb[i] - la[i])
    }
    let ds = Point.distance(from: a.startPoint, to: b.startPoint)
    let de = Point.distance(from: a.endPoint, to: b.endPoint)
    sum += ds * ds + de * de + Double(abs(a.colors.count - b.colors.count))
    return sum.squareRoot()
  }

  /// Componentwise when all four have the same number of colours; otherwise the value with the largest weight.
  package static func combine(
    _ a: Gradient, _ wa: Double, _ b: Gradient, _ wb: Double, _ c: Gradient, _ wc: Double, _ d: Gradient,
    _ wd: Double
  ) -> Gradient {
    let n = a.colors.count
    guard b.colors.count == n, c.colors.count == n, d.colors.count == n else {
      var best = (a, wa)
      for (value, weight) in [(b, wb), (c, wc), (d, wd)] where weight > best.1 { best = (value, weight) }
      return best.0
    }
    var colors = [Color]()
    colors.reserveCapacity(n)
    for i in 0..<n {
      colors.append(.combine(a.colors[i], wa, b.colors[i], wb, c.colors[i], wc, d.colors[i], wd))
    }
    var locations: [Double]?
    if a.locations != nil || b.locations != nil || c.locations != nil || d.locations != nil {
      let (la, lb, lc, ld) = (a.effectiveLocations, b.effectiveLocations, c.effectiveLocations, d.effectiveLocations)
      locations = (0..<n).map { la[$0] * wa + lb[$0] * wb + lc[$0] * wc + ld[$0] * wd }
    }
    return Gradient(
      colors: colors, locations: locations,
      startPoint: .combine(a.startPoint, wa, b.startPoint, wb, c.startPoint, wc, d.startPoint, wd),
      endPoint: .combine(a.endPoint, wa, b.endPoint, wb, c.endPoint, wc, d.endPoint, wd))
  }
}

extension Gradient {
  /// The stops in effect: `locations` when it has one entry per colour, else evenly spaced from 0 to 1
  /// (CAGradientLayer's rule for nil locations; a mismatched array is treated the same way).
  package var effectiveLocations: [Double] {
    let n = colors.count
    if let locations, locations.count == n { return locations }
    if n == 1 { return [0] }
    return (0..<n).map { Double($0) / Double(n - 1) }
  }
}

/// a + (b − a)·t with the endpoints returned exactly at t = 0 and t = 1.
@inline(__always)
func lerp(_ a: Double, _ b: Double, _ t: Double) -> Double {
  if t == 0 { return a }
  if t == 1 { return b }
  return a + (b - a) * t
}

@inline(__always)
func hypot2(_ x: Double, _ y: Double) -> Double { (x * x + y * y).squareRoot() }
