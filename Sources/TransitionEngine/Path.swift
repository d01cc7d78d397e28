// Paths as Core Graphics stores them (CGPath): a sequence of elements, built from rectangles, rounded rectangles,
// ellipses, arcs, lines and curves, and how Core Animation interpolates two of them.

/// One element of a path (CGPathElement): a move, a line, a quadratic or cubic Bézier curve, or a close.
package enum PathElement: Hashable, Sendable {
  /// Starts a new subpath at the point.
  case move(to: Point)
  /// A straight line from the current point.
  case line(to: Point)
  /// A quadratic Bézier curve from the current point with one control point.
  case quadCurve(to: Point, control: Point)
  /// A cubic Bézier curve from the current point with two control points.
  case curve(to: Point, control1: Point, control2: Point)
  /// Closes the current subpath with a line back to its start.
  case closeSubpath

  /// The element's kind without its points (what must agree for two paths to interpolate).
  package var kind: Kind {
    switch self {
    case .move: .move
    case .line: .line
    case .quadCurve: .quadCurve
    case .curve: .curve
    case .closeSubpath: .closeSubpath
    }
  }

  /// The kinds of path elements.
  package enum Kind: Hashable, Sendable {
    case move, line, quadCurve, curve, closeSubpath
  }

  /// The element with every point mapped.
  func mapPoints(_ f: (Point) -> Point) -> PathElement {
    switch self {
    case .move(let p): .move(to: f(p))
    case .line(let p): .line(to: f(p))
    case .quadCurve(let p, let c): .quadCurve(to: f(p), control: f(c))
    case .curve(let p, let c1, let c2): .curve(to: f(p), control1: f(c1), control2: f(c2))
    case .closeSubpath: .closeSubpath
    }
  }

  /// The points in CGPathElement's order (controls first, then the end point).
  var points: [Point] {
    switch self {
    case .move(let p), .line(let p): [p]
    case .quadCurve(let p, let c): [c, p]
    case .curve(let p, let c1, let c2): [c1, c2, p]
    case .closeSubpath: []
    }
  }
}

/// A path (CGPath / UIBezierPath): an immutable value built with the CGMutablePath-style calls below.
///
/// Curved shapes are stored as CGPath stores them: an ellipse is a move and four cubic quarter curves and a
/// close; an arc is a line (or move) to its start and one cubic per quarter turn or less; a rounded rectangle is a
/// move, for each side a line and for each rounded corner a cubic, and a close. Two paths interpolate point by
/// point when their element kinds agree one for one (see `Path.interpolate`).
package struct Path: Hashable, Sendable {
  /// The elements in order.
  package private(set) var elements: [PathElement]

  /// An empty path.
  package init() {
    elements = []
  }

  /// A path with these elements (the current point is the last element's end, as CGPath's would be).
  package init(elements: [PathElement]) {
    self.elements = elements
    for e in elements {
      switch e {
      case .move(let p):
        subpathStart = p
        current = p
      case .line(let p), .quadCurve(let p, _), .curve(let p, _, _): current = p
      case .closeSubpath: current = subpathStart
      }
    }
  }

  /// The circle constant of cubic quarter-ellipse approximations: 4/3·(√2 − 1), the handle length per unit radius
  /// that Core Graphics uses for ellipses and rounded corners.
  package static let quarterCircleHandle = 4.0 / 3.0 * (2.0.squareRoot() - 1)

  /// The current point's subpath start (where `closeSubpath` returns), and the current point.
  private var subpathStart: Point?
  private var current: Point?

  /// CGPathMoveToPoint.
  package mutating func move(to p: Point) {
    elements.append(.move(to: p))
    subpathStart = p
    current = p
  }

  /// CGPathAddLineToPoint (from the origin when the path has no current point, as CGPath would after a move to
  /// (0, 0); CGPath logs a misuse instead).
  package mutating func addLine(to p: Point) {
    if current == nil { move(to: .zero) }
    elements.append(.line(to: p))
    current = p
  }

  /// CGPathAddQuadCurveToPoint.
  package mutating func addQuadCurve(to p: Point, control: Point) {
    if current == nil { move(to: .zero) }
    elements.append(.quadCurve(to: p, control: control))
    current = p
  }

  /// CGPathAddCurveToPoint.
  package mutating func addCurve(to p: Point, control1: Point, control2: Point) {
    if current == nil { move(to: .zero) }
    elements.append(.curve(to: p, control1: control1, control2: control2))
    current = p
  }

  /// CGPathCloseSubpath: the current point goes back to the subpath's start. No-op on an empty path.
  package mutating func closeSubpath() {
    guard current != nil else { return }
    elements.append(.closeSubpath)
    current = subpathStart
  }

  /// CGPathAddLines: a move to the first point and a line to each next one.
  package mutating func addLines(between points: [Point]) {
    guard let first = points.first else { return }
    move(to: first)
    for p in points.dropFirst() { addLine(to: p) }
  }

  /// CGPathAddRect: move to the origin corner, lines along the other three corners (clockwise in a y-down
  /// plane), close.
  package mutating func addRect(_ r: Rect) {
    let s = r.standardized
    move(to: Point(x: s.minX, y: s.minY))
    addLine(to: Point(x: s.maxX, y: s.minY))
    addLine(to: Point(x: s.maxX, y: s.maxY))
    addLine(to: Point(x: s.minX, y: s.maxY))
    closeSubpath()
  }

  /// CGPathAddEllipseInRect: a move to the rightmost point (maxX, midY), four cubic quarter curves through
  /// (midX, maxY), (minX, midY), (midX, minY) and back, then a close.
  package mutating func addEllipse(in r: Rect) {
    let s = r.standardized
    let rx = s.width / 2
    let ry = s.height / 2
    let c = Point(x: s.midX, y: s.midY)
    let k = Path.quarterCircleHandle
    move(to: Point(x: c.x + rx, y: c.y))
    addCurve(
      to: Point(x: c.x, y: c.y + ry), control1: Point(x: c.x + rx, y: c.y + k * ry),
      control2: Point(x: c.x + k * rx, y: c.y + ry))
    addCurve(
      to: Point(x: c.x - rx, y: c.y), control1: Point(x: c.x - k * rx, y: c.y + ry),
      control2: Point(x: c.x - rx, y: c.y + k * ry))
    addCurve(
      to: Point(x: c.x, y: c.y - ry), control1: Point(x: c.x - rx, y: c.y - k * ry),
      control2: Point(x: c.x - k * rx, y: c.y - ry))
    addCurve(
      to: Point(x: c.x + rx, y: c.y), control1: Point(x: c.x + k * rx, y: c.y - ry),
      control2: Point(x: c.x + rx, y: c.y - k * ry))
    closeSubpath()
  }

  /// An arc (CGPathAddArc / UIBezierPath's arc): a line from the current point to the arc's start (a move when
  /// there is none), then the arc as cubic segments of equal angle, each at most a quarter turn. Angles in radians
  /// from the +x axis toward +y. `.increasingAngle` is UIBezierPath's `clockwise: true` (clockwise on a y-down
  /// screen) and CGPath's `clockwise: false`. The sweep is the angle from start to end in that direction, reduced
  /// to [0, 2π); a difference of 2π or more draws one full turn.
  package mutating func addArc(
    center: Point, radius: Double, startAngle: Double, endAngle: Double, direction: ArcDirection
  ) {
    let full = 2 * Double.pi
    let d = direction == .increasingAngle ? endAngle - startAngle : startAngle - endAngle
    let magnitude = d >= full ? full : d - full * (d / full).rounded(.down)
    let sweep = direction == .increasingAngle ? magnitude : -magnitude
    let start = Point(x: center.x + radius * cosine(startAngle), y: center.y + radius * sine(startAngle))
    if current == nil { move(to: start) } else { addLine(to: start) }
    guard sweep != 0, radius != 0 else { return }
    let segments = max(1, Int((abs(sweep) / (Double.pi / 2) - 1e-9).rounded(.up)))
    let step = sweep / Double(segments)
    // Handle length of a cubic approximating an arc of angle `step`: 4/3·tangent(step/4)·r.
    let h = 4.0 / 3.0 * tangent(step / 4) * radius
    var a0 = startAngle
    for _ in 0..<segments {
      let a1 = a0 + step
      let p0 = Point(x: center.x + radius * cosine(a0), y: center.y + radius * sine(a0))
      let p1 = Point(x: center.x + radius * cosine(a1), y: center.y + radius * sine(a1))
      addCurve(
        to: p1, control1: Point(x: p0.x - h * sine(a0), y: p0.y + h * cosine(a0)),
        control2: Point(x: p1.x + h * sine(a1), y: p1.y - h * cosine(a1)))
      a0 = a1
    }
  }

  /// A rounded rectangle with its own radius per corner (UIBezierPath(roundedRect:byRoundingCorners:cornerRadii:)
  /// generalised): a move to the end of the top-left corner on the top side, then clockwise (y down) for each side
  /// a line and for each corner a cubic quarter curve, and a close. The element structure is the same whatever the
  /// radii (a zero radius gives a degenerate curve), so any two rounded rectangles interpolate. Radii are clamped to
  /// half the shorter side.
  package mutating func addRoundedRect(_ r: Rect, radii: CornerRadii) {
    let s = r.standardized
    let limit = min(s.width, s.height) / 2
    func clamp(_ v: Double) -> Double { min(max(v, 0), limit) }
    let tl = clamp(radii.topLeft)
    let tr = clamp(radii.topRight)
    let br = clamp(radii.bottomRight)
    let bl = clamp(radii.bottomLeft)
    let k = 1 - Path.quarterCircleHandle
    move(to: Point(x: s.minX + tl, y: s.minY))
    addLine(to: Point(x: s.maxX - tr, y: s.minY))
    addCurve(
      to: Point(x: s.maxX, y: s.minY + tr), control1: Point(x: s.maxX - k * tr, y: s.minY),
      control2: Point(x: s.maxX, y: s.minY + k * tr))
    addLine(to: Point(x: s.maxX, y: s.maxY - br))
    addCurve(
      to: Point(x: s.maxX - br, y: s.maxY), control1: Point(x: s.maxX, y: s.maxY - k * br),
      control2: Point(x: s.maxX - k * br, y: s.maxY))
    addLine(to: Point(x: s.minX + bl, y: s.maxY))
    addCurve(
      to: Point(x: s.minX, y: s.maxY - bl), control1: Point(x: s.minX + k * bl, y: s.maxY),
      control2: Point(x: s.minX, y: s.maxY - k * bl))
    addLine(to: Point(x: s.minX, y: s.minY + tl))
    addCurve(
      to: Point(x: s.minX + tl, y: s.minY), control1: Point(x: s.minX, y: s.minY + k * tl),
      control2: Point(x: s.minX + k * tl, y: s.minY))
    closeSubpath()
  }

  /// CGPath(rect:transform: nil).
  package init(rect: Rect) {
    self.init()
    addRect(rect)
  }

  /// CGPath(ellipseIn:transform: nil).
  package init(ellipseIn rect: Rect) {
    self.init()
    addEllipse(in: rect)
  }

  /// A rounded rectangle with one radius on every corner (CGPath(roundedRect:cornerWidth:cornerHeight:) with equal
  /// width and height).
  package init(roundedRect rect: Rect, cornerRadius: Double) {
    self.init()
    addRoundedRect(rect, radii: CornerRadii(all: cornerRadius))
  }

  /// A rounded rectangle with per-corner radii.
  package init(roundedRect rect: Rect, radii: CornerRadii) {
    self.init()
    addRoundedRect(rect, radii: radii)
  }

  /// Whether the path has no element.
  package var isEmpty: Bool { elements.isEmpty }

  /// Whether both paths have the same element kinds in the same order (the condition for point-by-point
  /// interpolation).
  package func hasSameStructure(as other: Path) -> Bool {
    elements.count == other.elements.count && zip(elements, other.elements).allSatisfy { $0.kind == $1.kind }
  }

  /// The path with every point mapped (e.g. by an affine transform).
  package func mapPoints(_ f: (Point) -> Point) -> Path {
    Path(elements: elements.map { $0.mapPoints(f) })
  }

  /// Equality of the elements (the builder's bookkeeping of the current point does not count).
  package static func == (a: Path, b: Path) -> Bool { a.elements == b.elements }

  package func hash(into hasher: inout Hasher) { hasher.combine(elements) }
}

/// Which way an arc turns (see `Path.addArc`).
package enum ArcDirection: Hashable, Sendable {
  /// From the start angle up to the end angle: clockwise on a y-down screen (UIBezierPath's `clockwise: true`).
  case increasingAngle
  /// From the start angle down to the end angle (UIBezierPath's `clockwise: false`, CGPath's `clockwise: true`).
  case decreasingAngle
}

/// The four radii of a rounded rectangle, by corner (top-left etc. in a y-down plane, as UIKit names them).
package struct CornerRadii: Hashable, Sendable {
  package var topLeft: Double
  package var topRight: Double
  package var bottomRight: Double
  package var bottomLeft: Double

  /// Each corner's radius.
  package init(topLeft: Double, topRight: Double, bottomRight: Double, bottomLeft: Double) {
    self.topLeft = topLeft
    self.topRight = topRight
    self.bottomRight = bottomRight
    self.bottomLeft = bottomLeft
  }

  /// The same radius on every corner.
  package init(all r: Double) {
    self.init(topLeft: r, topRight: r, bottomRight: r, bottomLeft: r)
  }
}

// MARK: - Interpolation

extension Path: Interpolatable {
  /// Core Animation's rule for `path` and `shadowPath`: when both paths have the same element kinds one for one,
  /// every point (end and control points) blends linearly; otherwise nothing can be blended and the value is
  /// `from` until the fraction reaches 1 — the animation shows its start shape for its whole duration and jumps
  /// to the end shape when it ends (Apple documents the result of such an animation only as "undefined"; this is
  /// what it shows). Exactly `from` at 0 and `to` at 1.
  ///
  /// One pass writes the blended elements straight into the result's storage and checks the structure as it goes
  /// (no closure or intermediate array per element: a sample of 1,000 animated paths does this 1,000 times).
  package static func interpolate(from a: Path, to b: Path, fraction t: Double) -> Path {
    var path = Path()
    interpolate(from: a, to: b, fraction: t, into: &path)
    return path
  }

  /// `interpolate(from:to:fraction:)` written into `result`'s storage when it has as many elements (an animation's
  /// path from an earlier sample: its array is reused rather than a new one allocated, unless someone else still holds
  /// it, when copy-on-write copies it first), else into a new array. The same numbers either way.
  package static func interpolate(from a: Path, to b: Path, fraction t: Double, into result: inout Path) {
    if t == 0 {
      result = a
      return
    }
    if t == 1 {
      result = b
      return
    }
    let n = a.elements.count
    guard n == b.elements.count else {
      result = a
      return
    }
    var matched = true
    a.elements.withUnsafeBufferPointer { x in
      b.elements.withUnsafeBufferPointer { y in
        if result.elements.count == n {
          result.elements.withUnsafeMutableBufferPointer { out in
            matched = blend(x, y, t, into: out.baseAddress!, count: n) == n
          }
        } else {
          result.elements = [PathElement](unsafeUninitializedCapacity: n) { out, count in
            count = blend(x, y, t, into: out.baseAddress!, count: n)
            matched = count == n
          }
        }
      }
    }
    guard matched else {
      result = a
      return
    }
    // The builder's state of the blend is the blend of both builders' states (the same elements end them).
    @inline(__always) func mix(_ p: Point, _ q: Point) -> Point { Point(x: lerp(p.x, q.x, t), y: lerp(p.y, q.y, t)) }
    if let p = a.current, let q = b.current { result.current = mix(p, q) } else { result.current = nil }
    if let p = a.subpathStart, let q = b.subpathStart {
      result.subpathStart = mix(p, q)
    } else {
      result.subpathStart = nil
    }
  }

  /// Writes the blend of `x` and `y` (both `count` elements) at `out`, element by element while their kinds agree;
  /// returns how many were written (`count` when the structures match). `PathElement` holds only numbers, so writing
  /// over elements already there needs no deinitialization.
  @inline(__always)
  private static func blend(
    _ x: UnsafeBufferPointer<PathElement>, _ y: UnsafeBufferPointer<PathElement>, _ t: Double,
    into out: UnsafeMutablePointer<PathElement>, count n: Int
  ) -> Int {
    @inline(__always) func mix(_ p: Point, _ q: Point) -> Point { Point(x: lerp(p.x, q.x, t), y: lerp(p.y, q.y, t)) }
    var i = 0
    while i < n {
      let blended: PathElement
      switch (x[i], y[i]) {
      case (.move(let p), .move(let q)): blended = .move(to: mix(p, q))
      case (.line(let p), .line(let q)): blended = .line(to: mix(p, q))
      case (.curve(let p, let c1, let c2), .curve(let q, let d1, let d2)):
        blended = .curve(to: mix(p, q), control1: mix(c1, d1), control2: mix(c2, d2))
      case (.quadCurve(let p, let c), .quadCurve(let q, let d)):
        blended = .quadCurve(to: mix(p, q), control: mix(c, d))
      case (.closeSubpath, .closeSubpath): blended = .closeSubpath
      default: return i
      }
      (out + i).initialize(to: blended)
      i += 1
    }
    return n
  }

  /// The Euclidean distance over every point; paths of different structure are 1 apart (they cannot be paced).
  package static func distance(from a: Path, to b: Path) -> Double {
    guard a.hasSameStructure(as: b) else { return 1 }
    var sum = 0.0
    for (x, y) in zip(a.elements, b.elements) {
      for (p, q) in zip(x.points, y.points) {
        let d = Point.distance(from: p, to: q)
        sum += d * d
      }
    }
    return sum.squareRoot()
  }

  /// Point by point when all four have one structure; otherwise the value with the largest weight.
  package static func combine(
    _ a: Path, _ wa: Double, _ b: Path, _ wb: Double, _ c: Path, _ wc: Double, _ d: Path, _ wd: Double
  ) -> Path {
    guard a.hasSameStructure(as: b), a.hasSameStructure(as: c), a.hasSameStructure(as: d) else {
      var best = (a, wa)
      for (value, weight) in [(b, wb), (c, wc), (d, wd)] where weight > best.1 { best = (value, weight) }
      return best.0
    }
    var out = [PathElement]()
    out.reserveCapacity(a.elements.count)
    for i in a.elements.indices {
      let ps = [a.elements[i].points, b.elements[i].points, c.elements[i].points, d.elements[i].points]
      var k = 0
      out.append(
        a.elements[i].mapPoints { _ in
          defer { k += 1 }
          return .combine(ps[0][k], wa, ps[1][k], wb, ps[2][k], wc, ps[3][k], wd)
        })
    }
    return Path(elements: out)
  }
}

extension Path: OptionalTrackWrapped {
  package var isFiniteValue: Bool {
    elements.allSatisfy { $0.points.allSatisfy(\.isFiniteValue) }
  }

  /// Between a path and none nothing blends: `from` until the end (see `Path.interpolate`).
  package static func blendOptional(_ a: Path?, _ b: Path?, _ fraction: Double) -> Path? {
    if let a, let b { return .interpolate(from: a, to: b, fraction: fraction) }
    return a
  }
  package static func optionalKey(_ value: Path?) -> OptionalPath { OptionalPath(value: value) }
  package static func fromOptionalKey(_ key: OptionalPath) -> Path? { key.value }
}

/// A path or none, as a keyframe value: blends as paths when both are present, else keeps `from` until the end
/// of the segment.
package typealias OptionalPath = OptionalKeyValue<Path>
