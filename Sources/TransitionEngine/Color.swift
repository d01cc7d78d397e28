// Colours and gradients as Core Animation stores them for a layer.

/// An RGBA colour with components in [0, 1] (straight, not premultiplied alpha).
package struct Color: Hashable, Sendable {
  /// Red.
  package var r: Double
  /// Green.
  package var g: Double
  /// Blue.
  package var b: Double
  /// Alpha (opacity).
  package var a: Double

  /// Creates a colour from its components; values are stored as given (clamping is the caller's choice).
  package init(r: Double, g: Double, b: Double, a: Double = 1) {
    self.r = r
    self.g = g
    self.b = b
    self.a = a
  }

  /// Fully transparent black (UIColor.clear).
  package static let clear = Color(r: 0, g: 0, b: 0, a: 0)
  /// Opaque black.
  package static let black = Color(r: 0, g: 0, b: 0)
  /// Opaque white.
  package static let white = Color(r: 1, g: 1, b: 1)

  /// The components clamped to [0, 1] (NaN becomes 0).
  package var clamped: Color {
    Color(r: clamp01(r), g: clamp01(g), b: clamp01(b), a: clamp01(a))
  }
}

/// An axial gradient as CAGradientLayer describes one.
///
/// `locations` nil means the colours are spread evenly from 0 to 1; `startPoint` and `endPoint` are in the
/// layer's unit coordinate space, defaulting to CAGradientLayer's (0.5, 0) and (0.5, 1) (top to bottom).
package struct Gradient: Hashable, Sendable {
  /// The colours, in order along the axis.
  package var colors: [Color]
  /// The stop of each colour in [0, 1], or nil for evenly spaced stops.
  package var locations: [Double]?
  /// The start of the axis, unit coordinates.
  package var startPoint: Point
  /// The end of the axis, unit coordinates.
  package var endPoint: Point

  /// Creates a gradient; the points default to CAGradientLayer's vertical axis.
  package init(
    colors: [Color],
    locations: [Double]? = nil,
    startPoint: Point = Point(x: 0.5, y: 0),
    endPoint: Point = Point(x: 0.5, y: 1)
  ) {
    self.colors = colors
    self.locations = locations
    self.startPoint = startPoint
    self.endPoint = endPoint
  }
}

/// Clamps to [0, 1]; NaN becomes 0 so that bad input never propagates.
@inline(__always)
func clamp01(_ v: Double) -> Double {
  if v.isNaN { return 0 }
  return v < 0 ? 0 : (v > 1 ? 1 : v)
}
