// Plane-to-plane maps for the HTML preview. Every view is a plane: its world matrix, restricted to the view's
// own plane (z = 0), is a 2-D homography from its bounds (u, v) to the container. Snapshot contents and clipping
// regions move between such planes, so they are composed and inverted as 3 × 3 homographies.

import TransitionEngine

/// A projective map of the plane, in the row-vector convention of CATransform3D: `(u, v, 1) · H = (x, y, w)`,
/// the image point being (x / w, y / w).
struct Homography: Equatable {
  var h11, h12, h13: Double
  var h21, h22, h23: Double
  var h31, h32, h33: Double

  static let identity = Homography(h11: 1, h12: 0, h13: 0, h21: 0, h22: 1, h23: 0, h31: 0, h32: 0, h33: 1)

  init(
    h11: Double, h12: Double, h13: Double, h21: Double, h22: Double, h23: Double, h31: Double, h32: Double,
    h33: Double
  ) {
    (self.h11, self.h12, self.h13) = (h11, h12, h13)
    (self.h21, self.h22, self.h23) = (h21, h22, h23)
    (self.h31, self.h32, self.h33) = (h31, h32, h33)
  }

  /// The part of a CATransform3D (m11…m44, row order) that acts on points with z = 0: rows 1, 2 and 4 of
  /// columns 1, 2 and 4. The z output is dropped: a flat page shows the projection, not the depth.
  init?(matrix m: [Double]) {
    guard m.count == 16, m.allSatisfy(\.isFinite) else { return nil }
    self.init(h11: m[0], h12: m[1], h13: m[3], h21: m[4], h22: m[5], h23: m[7], h31: m[12], h32: m[13], h33: m[15])
  }

  /// The CATransform3D that acts like this map on the plane z = 0 and keeps z (for CSS `matrix3d`).
  var matrix: [Double] {
    [h11, h12, 0, h13, h21, h22, 0, h23, 0, 0, 1, 0, h31, h32, 0, h33]
  }

  /// `self` then `other`: `(p · self) · other`.
  func concatenating(_ o: Homography) -> Homography {
    Homography(
      h11: h11 * o.h11 + h12 * o.h21 + h13 * o.h31,
      h12: h11 * o.h12 + h12 * o.h22 + h13 * o.h32,
      h13: h11 * o.h13 + h12 * o.h23 + h13 * o.h33,
      h21: h21 * o.h11 + h22 * o.h21 + h23 * o.h31,
      h22: h21 * o.h12 + h22 * o.h22 + h23 * o.h32,
      h23: h21 * o.h13 + h22 * o.h23 + h23 * o.h33,
      h31: h31 * o.h11 + h32 * o.h21 + h33 * o.h31,
      h32: h31 * o.h12 + h32 * o.h22 + h33 * o.h32,
      h33: h31 * o.h13 + h32 * o.h23 + h33 * o.h33)
  }

  var determinant: Double {
    h11 * (h22 * h33 - h23 * h32) - h12 * (h21 * h33 - h23 * h31) + h13 * (h21 * h32 - h22 * h31)
  }

  /// The inverse, nil when the map squashes the plane onto a line (a view scaled to zero, seen edge-on).
  func inverted() -> Homography? {
    let det = determinant
    // Relative to the entries' size, so that tiny but healthy maps (scale 1e-4) still invert.
    let scale = [h11, h12, h13, h21, h22, h23, h31, h32, h33].map(abs).max() ?? 0
    guard det.isFinite, scale > 0, abs(det) > 1e-12 * scale * scale * scale else { return nil }
    let inverse = 1 / det
    return Homography(
      h11: (h22 * h33 - h23 * h32) * inverse, h12: (h13 * h32 - h12 * h33) * inverse,
      h13: (h12 * h23 - h13 * h22) * inverse,
      h21: (h23 * h31 - h21 * h33) * inverse, h22: (h11 * h33 - h13 * h31) * inverse,
      h23: (h13 * h21 - h11 * h23) * inverse,
      h31: (h21 * h32 - h22 * h31) * inverse, h32: (h12 * h31 - h11 * h32) * inverse,
      h33: (h11 * h22 - h12 * h21) * inverse)
  }

  /// The image of `p`, nil when it lands on or behind the eye (w ≤ 0) — what CSS does not draw either.
  func apply(_ p: Point) -> Point? {
    let w = p.x * h13 + p.y * h23 + h33
    guard w > 1e-12 else { return nil }
    let x = (p.x * h11 + p.y * h21 + h31) / w
    let y = (p.x * h12 + p.y * h22 + h32) / w
    guard x.isFinite, y.isFinite else { return nil }
    return Point(x: x, y: y)
  }
}

/// Convex polygons in a view's own coordinates (clip regions for CSS `clip-path: polygon(…)`).
enum ConvexPolygon {
  /// The corners of a `width` × `height` box from its top-left corner, clockwise on screen.
  static func box(width: Double, height: Double) -> [Point] {
    [Point(x: 0, y: 0), Point(x: width, y: 0), Point(x: width, y: height), Point(x: 0, y: height)]
  }

  /// Twice the signed area (positive when the corners run clockwise on a y-down screen).
  static func signedArea2(_ polygon: [Point]) -> Double {
    var sum = 0.0
    for index in polygon.indices {
      let a = polygon[index]
      let b = polygon[(index + 1) % polygon.count]
      sum += a.x * b.y - b.x * a.y
    }
    return sum
  }

  /// `subject ∩ clip` for convex polygons (Sutherland–Hodgman), either orientation. Empty when they do not
  /// overlap; a result with fewer than three corners means an empty region.
  static func intersect(_ subject: [Point], _ clip: [Point]) -> [Point] {
    guard subject.count >= 3, clip.count >= 3 else { return [] }
    let orientation: Double = signedArea2(clip) >= 0 ? 1 : -1
    var output = subject
    for index in clip.indices {
      let a = clip[index]
      let b = clip[(index + 1) % clip.count]
      // Inside = on the interior side of the directed edge a → b (with a small tolerance for shared edges).
      func side(_ p: Point) -> Double { orientation * ((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)) }
      let input = output
      output = []
      guard !input.isEmpty else { break }
      for pointIndex in input.indices {
        let current = input[pointIndex]
        let previous = input[(pointIndex + input.count - 1) % input.count]
        let sideCurrent = side(current)
        let sidePrevious = side(previous)
        let tolerance = 1e-9
        if sideCurrent >= -tolerance {
          if sidePrevious < -tolerance {
            output.append(crossing(previous, current, sidePrevious, sideCurrent))
          }
          output.append(current)
        } else if sidePrevious >= -tolerance {
          output.append(crossing(previous, current, sidePrevious, sideCurrent))
        }
      }
    }
    return output.count >= 3 ? output : []
  }

  private static func crossing(_ p: Point, _ q: Point, _ sp: Double, _ sq: Double) -> Point {
    let t = sp / (sp - sq)
    return Point(x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t)
  }
}
