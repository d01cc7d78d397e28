// Helpers shared by the model's tests (View*, Scene*, Animation*, Presentation*).
import TransitionEngine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// |a − b| ≤ tolerance.
func modelClose(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
  abs(a - b) <= tolerance
}

/// Rectangles equal within a tolerance.
func modelClose(_ a: Rect?, _ b: Rect, _ tolerance: Double = 1e-9) -> Bool {
  guard let a else { return false }
  return modelClose(a.origin.x, b.origin.x, tolerance) && modelClose(a.origin.y, b.origin.y, tolerance)
    && modelClose(a.size.width, b.size.width, tolerance) && modelClose(a.size.height, b.size.height, tolerance)
}

/// Points equal within a tolerance.
func modelClose(_ a: Point?, _ b: Point, _ tolerance: Double = 1e-9) -> Bool {
  guard let a else { return false }
  return modelClose(a.x, b.x, tolerance) && modelClose(a.y, b.y, tolerance)
}

/// (u, v, 0, 1) · m, divided by w, written out independently of the engine.
func modelProject(_ m: Transform3D, _ u: Double, _ v: Double) -> (x: Double, y: Double, w: Double) {
  let x = u * m.m11 + v * m.m21 + m.m41
  let y = u * m.m12 + v * m.m22 + m.m42
  let w = u * m.m14 + v * m.m24 + m.m44
  return (x / w, y / w, w)
}

/// A rotation by `theta` about the y axis written out as CATransform3DMakeRotation(θ, 0, 1, 0) does for row
/// vectors: x′ = x·cosθ + z·sinθ, z′ = −x·sinθ + z·cosθ.
func modelRotationY(_ theta: Double) -> Transform3D {
  let c = cos(theta)
  let s = sin(theta)
  return Transform3D(
    m11: c, m12: 0, m13: -s, m14: 0,
    m21: 0, m22: 1, m23: 0, m24: 0,
    m31: s, m32: 0, m33: c, m34: 0,
    m41: 0, m42: 0, m43: 0, m44: 1)
}

/// A perspective with the eye at distance d (m34 = −1/d).
func modelPerspective(_ d: Double) -> Transform3D {
  var t = Transform3D.identity
  t.m34 = -1 / d
  return t
}

/// A scene whose misuse reports are collected.
final class ModelHarness {
  let scene: Scene
  var misuses: [SceneMisuse] = []

  init(width: Double = 400, height: Double = 300) {
    scene = Scene(containerSize: Size(width: width, height: height))
    scene.onMisuse = { [unowned self] in self.misuses.append($0) }
  }

  /// A view attached to `parent` (the container by default) with the given frame.
  func view(_ id: String, _ frame: Rect, in parent: View? = nil) -> View {
    let v = try! scene.makeView(id: id)
    v.frame = frame
    (parent ?? scene.container).addSubview(v)
    return v
  }

  /// The presented state of one view at t.
  func state(_ id: String, at t: Double) -> ViewState? {
    scene.presentation(at: t).first { $0.id == id }
  }
}
