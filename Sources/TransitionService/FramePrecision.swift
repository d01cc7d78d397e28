// `transition/start`'s `precision` (CONVENTIONS, "frame rounding"): a renderer that draws at device pixels does not
// need 17 significant digits of every length, and shorter numbers make smaller frames that are faster to write.

import TransitionEngine

/// A grid, in points, that a frame's lengths are rounded to.
///
/// Rounded: every length in points — `frame`, `bounds`, `position`, `boundingBox`, `cornerRadius` and the translation
/// entries `m41`, `m42`, `m43` of `transform` and `worldTransform`. Left exact: what is not a length — the other
/// matrix entries (scales, rotations and perspective are ratios that multiply a view's size, so a point grid would
/// move a 1,000-point view's far edge by 1,000 × the grid), `anchorPoint` and the gradient's points (unit
/// coordinates), `alpha`, `opacity` and colours (fractions), `zIndex`, and the frame's `time` and `percent`.
///
/// A value becomes the nearest multiple of the grid, halves away from zero (C's `round`), printed with the shortest
/// digits that read back as that double. For a decimal grid (10⁻ᵏ, k ≤ 15: `0.001`, `0.01`) the value is computed as
/// round(v × 10ᵏ) / 10ᵏ, the double nearest the decimal, so it prints as that decimal (`12.346`); any other grid g
/// as round(v / g) × g. A value more than 2⁵² grid steps from 0 (where doubles are coarser than the grid) and a
/// non-finite one are left as they are.
package struct FramePrecision: Equatable, Sendable {
  /// The grid in points (positive, finite).
  package let grid: Double
  /// 10ᵏ when the grid is the double nearest 10⁻ᵏ.
  private let decimalScale: Double?

  /// The grid `grid`; nil unless it is a positive finite number.
  package init?(grid: Double) {
    guard grid.isFinite, grid > 0 else { return nil }
    self.grid = grid
    var scale = 1.0
    var found: Double?
    for _ in 1...15 {
      scale *= 10  // exact: 10^15 < 2^53
      if 1 / scale == grid {
        found = scale
        break
      }
    }
    decimalScale = found
  }

  /// `value` on the grid (see the type's rules).
  @inline(__always)
  package func round(_ value: Double) -> Double {
    if let decimalScale {
      let steps = value * decimalScale
      guard abs(steps) < Self.exactSteps else { return value }
      return steps.rounded(.toNearestOrAwayFromZero) / decimalScale
    }
    let steps = value / grid
    guard abs(steps) < Self.exactSteps else { return value }
    return steps.rounded(.toNearestOrAwayFromZero) * grid
  }

  /// 2^52: from here on every double is a whole number of steps, and rounding would only add error. The comparison is
  /// also false for NaN and infinity, which stay as they are.
  private static let exactSteps = 4_503_599_627_370_496.0

  /// Rounds the lengths of every state in place (see the type's rules).
  package func apply(to states: inout [ViewState]) {
    for index in states.indices {
      states[index].frame = round(states[index].frame)
      states[index].bounds = round(states[index].bounds)
      states[index].position = round(states[index].position)
      if let box = states[index].boundingBox { states[index].boundingBox = round(box) }
      states[index].cornerRadius = round(states[index].cornerRadius)
      roundTranslation(&states[index].transform)
      roundTranslation(&states[index].worldTransform)
    }
  }

  private func round(_ point: Point) -> Point {
    Point(x: round(point.x), y: round(point.y))
  }

  private func round(_ rect: Rect) -> Rect {
    Rect(
      x: round(rect.origin.x), y: round(rect.origin.y), width: round(rect.size.width), height: round(rect.size.height))
  }

  private func roundTranslation(_ matrix: inout Transform3D) {
    matrix.m41 = round(matrix.m41)
    matrix.m42 = round(matrix.m42)
    matrix.m43 = round(matrix.m43)
  }
}
