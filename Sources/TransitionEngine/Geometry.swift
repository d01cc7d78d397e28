// Geometry value types with CoreGraphics' semantics (CGPoint, CGSize, CGRect), in Double.

/// A point in a two-dimensional coordinate system (CGPoint).
package struct Point: Hashable, Sendable {
  /// The x coordinate.
  package var x: Double
  /// The y coordinate.
  package var y: Double

  /// Creates a point from its coordinates.
  package init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// The origin (0, 0).
  package static let zero = Point(x: 0, y: 0)
}

/// A width and a height (CGSize). Negative values are allowed, as in CoreGraphics.
package struct Size: Hashable, Sendable {
  /// The width.
  package var width: Double
  /// The height.
  package var height: Double

  /// Creates a size from its dimensions.
  package init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  /// The size (0, 0).
  package static let zero = Size(width: 0, height: 0)
}

/// A rectangle given by an origin and a size (CGRect).
///
/// As in CoreGraphics, the size may be negative; `minX`…`maxY`, `width` and `height` are computed on the
/// standardized rectangle, while `origin` and `size` keep what was stored. `Rect.null` is the "no rectangle"
/// value (infinite origin) that `union` ignores and `intersection` returns when there is no overlap.
package struct Rect: Hashable, Sendable {
  /// The stored origin (not necessarily the top-left corner when the size is negative).
  package var origin: Point
  /// The stored size (may be negative).
  package var size: Size

  /// Creates a rectangle from an origin and a size.
  package init(origin: Point, size: Size) {
    self.origin = origin
    self.size = size
  }

  /// Creates a rectangle from its origin's coordinates and its size.
  package init(x: Double, y: Double, width: Double, height: Double) {
    self.origin = Point(x: x, y: y)
    self.size = Size(width: width, height: height)
  }

  /// The rectangle at the origin with zero size.
  package static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

  /// The null rectangle (CGRectNull): infinite origin, zero size.
  package static let null = Rect(x: .infinity, y: .infinity, width: 0, height: 0)

  /// Whether this is the null rectangle (an infinite origin coordinate, as CGRectIsNull tests).
  package var isNull: Bool { origin.x.isInfinite || origin.y.isInfinite }

  /// Whether the rectangle has zero area or is null (CGRectIsEmpty).
  package var isEmpty: Bool { isNull || size.width == 0 || size.height == 0 }

  /// The stored origin's x.
  package var x: Double { origin.x }
  /// The stored origin's y.
  package var y: Double { origin.y }
  /// The standardized width (never negative), as `CGRect.width`.
  package var width: Double { abs(size.width) }
  /// The standardized height (never negative), as `CGRect.height`.
  package var height: Double { abs(size.height) }

  /// The smallest x of the rectangle.
  package var minX: Double { size.width < 0 ? origin.x + size.width : origin.x }
  /// The x of the centre.
  package var midX: Double { origin.x + size.width / 2 }
  /// The largest x of the rectangle.
  package var maxX: Double { size.width < 0 ? origin.x : origin.x + size.width }
  /// The smallest y of the rectangle.
  package var minY: Double { size.height < 0 ? origin.y + size.height : origin.y }
  /// The y of the centre.
  package var midY: Double { origin.y + size.height / 2 }
  /// The largest y of the rectangle.
  package var maxY: Double { size.height < 0 ? origin.y : origin.y + size.height }

  /// The same rectangle with a non-negative size (CGRectStandardize).
  package var standardized: Rect {
    if isNull { return self }
    return Rect(x: minX, y: minY, width: width, height: height)
  }

  /// The rectangle moved by (dx, dy) (CGRectOffset). The null rectangle stays null.
  package func offsetBy(dx: Double, dy: Double) -> Rect {
    if isNull { return self }
    return Rect(x: origin.x + dx, y: origin.y + dy, width: size.width, height: size.height)
  }

  /// The standardized rectangle shrunk by dx on the left and right and dy on top and bottom (CGRectInset);
  /// negative values grow it. Returns `Rect.null` when the result would have a negative size, as CoreGraphics.
  package func insetBy(dx: Double, dy: Double) -> Rect {
    if isNull { return self }
    let r = standardized
    let w = r.size.width - 2 * dx
    let h = r.size.height - 2 * dy
    if !(w >= 0 && h >= 0) { return .null }
    return Rect(x: r.origin.x + dx, y: r.origin.y + dy, width: w, height: h)
  }

  /// The smallest rectangle containing both (CGRectUnion); a null operand is ignored.
  package func union(_ other: Rect) -> Rect {
    if isNull { return other.standardized }
    if other.isNull { return standardized }
    let x0 = Swift.min(minX, other.minX)
    let y0 = Swift.min(minY, other.minY)
    let x1 = Swift.max(maxX, other.maxX)
    let y1 = Swift.max(maxY, other.maxY)
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }

  /// The overlap of both rectangles (CGRectIntersection), or `Rect.null` when they do not overlap.
  /// Rectangles that only touch along an edge give a zero-width or zero-height rectangle, as CoreGraphics.
  package func intersection(_ other: Rect) -> Rect {
    if isNull || other.isNull { return .null }
    let x0 = Swift.max(minX, other.minX)
    let y0 = Swift.max(minY, other.minY)
    let x1 = Swift.min(maxX, other.maxX)
    let y1 = Swift.min(maxY, other.maxY)
    if x1 < x0 || y1 < y0 { return .null }
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }

  /// Whether the point lies inside: min edges included, max edges excluded (CGRectContainsPoint).
  package func contains(_ point: Point) -> Bool {
    if isNull { return false }
    return point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
  }
}
