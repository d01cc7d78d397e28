// Frames, world matrices and coordinate conversion, derived from bounds, position, anchorPoint, transform and
// the ancestors' bounds origins and sublayer transforms exactly as Core Animation composes them.

extension AnimatableValues {
  /// UIKit's `frame` for these values, in the superview's bounds coordinates.
  ///
  /// With the identity transform: origin = position − anchorPoint·size, size = bounds.size. Otherwise the
  /// axis-aligned box of the four bounds corners transformed about the anchor point (p′ = (p − anchor)·transform
  /// + position, divided by w). UIKit calls the frame "undefined" with a non-identity transform; this is what
  /// CALayer reports for affine transforms. When a corner lands at w ≤ 0 (behind the eye of a perspective
  /// transform) no finite box exists, so the corners are taken without the w divide (the affine part).
  package var frame: Rect {
    let w = bounds.size.width
    let h = bounds.size.height
    let ax = anchorPoint.x * w
    let ay = anchorPoint.y * h
    if hasIdentityTransform {
      return Rect(x: position.x - ax, y: position.y - ay, width: w, height: h)
    }
    let t = transform
    // The corners sit at z = −anchorPointZ relative to the anchor (0 unless a layer sets it).
    let z = -anchorPointZ
    func corner(_ u: Double, _ v: Double) -> (x: Double, y: Double, w: Double) {
      let x = u - ax
      let y = v - ay
      return (
        x * t.m11 + y * t.m21 + z * t.m31 + t.m41, x * t.m12 + y * t.m22 + z * t.m32 + t.m42,
        x * t.m14 + y * t.m24 + z * t.m34 + t.m44
      )
    }
    let c0 = corner(0, 0)
    let c1 = corner(w, 0)
    let c2 = corner(w, h)
    let c3 = corner(0, h)
    // Projected corners when all are in front of the eye, else the affine part (no finite box exists).
    let divide = c0.w > 0 && c1.w > 0 && c2.w > 0 && c3.w > 0
    let k0 = divide ? 1 / c0.w : 1
    let k1 = divide ? 1 / c1.w : 1
    let k2 = divide ? 1 / c2.w : 1
    let k3 = divide ? 1 / c3.w : 1
    let xs = (c0.x * k0, c1.x * k1, c2.x * k2, c3.x * k3)
    let ys = (c0.y * k0, c1.y * k1, c2.y * k2, c3.y * k3)
    let x0 = min(xs.0, xs.1, xs.2, xs.3)
    let x1 = max(xs.0, xs.1, xs.2, xs.3)
    let y0 = min(ys.0, ys.1, ys.2, ys.3)
    let y1 = max(ys.0, ys.1, ys.2, ys.3)
    return Rect(x: position.x + x0, y: position.y + y0, width: x1 - x0, height: y1 - y0)
  }

  /// The matrix taking a point (u, v) measured from this view's top-left corner into its superview's bounds
  /// coordinates: T(−anchor·size, −anchorPointZ) · transform · T(position).
  var localMatrix: Transform3D {
    let w = bounds.size.width
    let h = bounds.size.height
    var m = transform.prependingTranslation(x: -anchorPoint.x * w, y: -anchorPoint.y * h)
    if layerBox != nil {
      let z = -anchorPointZ
      if z != 0 {
        let t = transform
        m.m41 += z * t.m31
        m.m42 += z * t.m32
        m.m43 += z * t.m33
        m.m44 += z * t.m34
      }
    }
    return m.appendingTranslation(x: position.x, y: position.y)
  }

  /// The matrix taking a point in this view's bounds coordinates (where its subviews' positions live) onto
  /// this view's plane, measured from its top-left corner: T(−bounds.origin) · T(−a) · sublayerTransform · T(a)
  /// with a = anchorPoint·size. (A subview's matrix into this plane is then flattened, see `flattenZ`.)
  ///
  /// The sublayer transform's centre is the anchor point *on the layer* (a from the top-left), so the vanishing
  /// point of a perspective stays at the layer's position on screen whatever its bounds origin; reference §11's
  /// derived composition puts it at a in bounds coordinates instead, which agrees whenever bounds.origin = 0.
  var childBasis: Transform3D {
    let ox = bounds.origin.x
    let oy = bounds.origin.y
    var m: Transform3D
    if hasIdentitySublayerTransform {
      m = Transform3D(translationX: -ox, y: -oy)
    } else {
      let ax = anchorPoint.x * bounds.size.width
      let ay = anchorPoint.y * bounds.size.height
      m = sublayerTransform.prependingTranslation(x: -ax - ox, y: -ay - oy).appendingTranslation(x: ax, y: ay)
    }
    return m
  }

  /// The world matrix of a view with these values whose superview has the child basis `parentBasis` and the
  /// world matrix `parentWorld`: flatten(local · parentBasis) · parentWorld. The flattening drops the z a subview
  /// gets in its superview's plane, because a plain CALayer renders its sublayers flattened into its own plane
  /// (only CATransformLayer preserves 3-D): depth from a transform reaches the perspective of the superview's
  /// sublayerTransform, but not the perspective of ancestors further up.
  func world(parentBasis: Transform3D, parentWorld: Transform3D) -> Transform3D {
    var m = localMatrix.concatenating(parentBasis)
    m.flattenZ()
    return m.concatenating(parentWorld)
  }
}

extension Transform3D {
  /// T(x, y, 0) · self: a translation applied before self.
  @inline(__always)
  func prependingTranslation(x dx: Double, y dy: Double) -> Transform3D {
    var r = self
    r.m41 += dx * m11 + dy * m21
    r.m42 += dx * m12 + dy * m22
    r.m43 += dx * m13 + dy * m23
    r.m44 += dx * m14 + dy * m24
    return r
  }

  /// self · T(x, y, 0): a translation applied after self.
  @inline(__always)
  func appendingTranslation(x dx: Double, y dy: Double) -> Transform3D {
    var r = self
    r.m11 += m14 * dx
    r.m12 += m14 * dy
    r.m21 += m24 * dx
    r.m22 += m24 * dy
    r.m31 += m34 * dx
    r.m32 += m34 * dy
    r.m41 += m44 * dx
    r.m42 += m44 * dy
    return r
  }

  /// Sets the third column to (0, 0, 1, 0): points of the view's plane (z = 0) come out with z = 0 — the
  /// projection onto the superview's plane, with x, y and w untouched — while the matrix stays invertible
  /// whenever its plane mapping is (a singular matrix3d would make a browser skip the element).
  @inline(__always)
  mutating func flattenZ() {
    m13 = 0
    m23 = 0
    m33 = 1
    m43 = 0
  }

  /// The plane-to-plane mapping of this matrix restricted to z = 0 inputs with the z output dropped: the 3×3
  /// homography on (x, y, w).
  var planeHomography: Homography {
    Homography(a: (m11, m12, m14), b: (m21, m22, m24), c: (m41, m42, m44))
  }
}

/// A 3×3 matrix acting on row vectors (x, y, w): a plane-to-plane projective map.
struct Homography {
  var a: (Double, Double, Double)
  var b: (Double, Double, Double)
  var c: (Double, Double, Double)

  /// The image of (x, y, 1), divided by w; nil when w ≤ 0 (behind the eye) or not finite.
  func map(_ p: Point) -> Point? {
    let x = p.x * a.0 + p.y * b.0 + c.0
    let y = p.x * a.1 + p.y * b.1 + c.1
    let w = p.x * a.2 + p.y * b.2 + c.2
    guard w > 0 else { return nil }
    let r = Point(x: x / w, y: y / w)
    return r.x.isFinite && r.y.isFinite ? r : nil
  }

  /// The inverse (adjugate / determinant), or nil when singular or not finite.
  func inverted() -> Homography? {
    let (a0, a1, a2) = a
    let (b0, b1, b2) = b
    let (c0, c1, c2) = c
    let k0 = b1 * c2 - b2 * c1
    let k1 = b2 * c0 - b0 * c2
    let k2 = b0 * c1 - b1 * c0
    let det = a0 * k0 + a1 * k1 + a2 * k2
    guard det != 0, det.isFinite else { return nil }
    let s = 1 / det
    let r = Homography(
      a: (k0 * s, (a2 * c1 - a1 * c2) * s, (a1 * b2 - a2 * b1) * s),
      b: (k1 * s, (a0 * c2 - a2 * c0) * s, (a2 * b0 - a0 * b2) * s),
      c: (k2 * s, (a1 * c0 - a0 * c1) * s, (a0 * b1 - a1 * b0) * s))
    let all = [r.a.0, r.a.1, r.a.2, r.b.0, r.b.1, r.b.2, r.c.0, r.c.1, r.c.2]
    return all.allSatisfy(\.isFinite) ? r : nil
  }
}

extension View {
  /// UIKit's frame in the superview's bounds coordinates (see `AnimatableValues.frame`).
  ///
  /// Setting it does what UIKit does: bounds.size = size (bounds.origin kept) and
  /// position = origin + anchorPoint·size. The transform is not undone, so with a non-identity transform the
  /// frame read back afterwards is the transformed box, not the one written (UIKit: "undefined").
  /// Inside an animation block this animates bounds and position.
  package var frame: Rect {
    get { model.frame }
    set {
      guard newValue.isFiniteValue else {
        scene?.report(.invalidValue(viewID: id, property: .bounds))
        return
      }
      var b = model.bounds
      b.size = newValue.size
      let a = model.anchorPoint
      bounds = b
      position = Point(
        x: newValue.origin.x + a.x * newValue.size.width, y: newValue.origin.y + a.y * newValue.size.height)
    }
  }

  /// UIView.center: the layer's position, in the superview's bounds coordinates.
  package var center: Point {
    get { model.position }
    set { position = newValue }
  }

  /// The topmost ancestor (the container for a view on screen; the view itself when it has no superview).
  package var root: View {
    var v = self
    while let s = v.superview { v = s }
    return v
  }

  /// Whether `ancestor` is this view or one of its ancestors.
  package func isDescendant(of ancestor: View) -> Bool {
    var v: View? = self
    while let c = v {
      if c === ancestor { return true }
      v = c.superview
    }
    return false
  }

  /// The world matrix of the model values: maps (u, v) measured from this view's top-left corner into its
  /// root's plane (the container's coordinates for a view on screen) — row vector (u, v, 0, 1) times the
  /// matrix, then divide by w; CSS `matrix3d` with `transform-origin: 0 0`. The root's own geometry is not
  /// part of it (the root *is* the coordinate system).
  package var worldTransform: Transform3D {
    guard let parent = superview else { return .identity }
    return model.world(parentBasis: parent.model.childBasis, parentWorld: parent.worldTransform)
  }

  /// The axis-aligned box of the four projected corners of the model, in the root's coordinates; nil when a
  /// corner is at w ≤ 0 (behind the eye).
  package var boundingBox: Rect? {
    worldTransform.projectedBoundingBox(of: Rect(origin: .zero, size: model.bounds.size))
  }

  /// The homography from this view's bounds coordinates to the plane conversions go through: its root's plane
  /// when `sameTree`, else the space above the roots, reached through the root's own geometry (a root's frame
  /// is meaningful without a superview, as CALayer's is; the container's is (0, 0, width, height)).
  private func boundsToPlane(sameTree: Bool) -> Homography {
    let o = model.bounds.origin
    var m = worldTransform
    if !sameTree {
      var rootLocal = root.model.localMatrix
      rootLocal.flattenZ()
      m = m.concatenating(rootLocal)
    }
    return m.prependingTranslation(x: -o.x, y: -o.y).planeHomography
  }

  /// Converts a point from this view's bounds coordinates to `view`'s (UIView.convert(_:to:)) with the full
  /// projective mapping: through their common root, or, for views of different trees of the scene, through
  /// their roots' frames (so a root not yet added to the container converts as if it were added at its frame).
  /// nil when the views belong to different scenes, when the point is behind the eye, or when `view`'s plane is
  /// seen edge-on (singular).
  package func convert(_ point: Point, to view: View) -> Point? {
    guard let (forward, back) = conversion(to: view), let p = forward.map(point) else { return nil }
    return back.map(p)
  }

  /// The forward homography of this view and the inverse one of `view`, or nil (see `convert(_:to:)`).
  private func conversion(to view: View) -> (Homography, Homography)? {
    guard scene === view.scene else { return nil }
    let sameTree = root === view.root
    guard let back = view.boundsToPlane(sameTree: sameTree).inverted() else { return nil }
    return (boundsToPlane(sameTree: sameTree), back)
  }

  /// Converts a point from `view`'s bounds coordinates to this view's (UIView.convert(_:from:)).
  package func convert(_ point: Point, from view: View) -> Point? {
    view.convert(point, to: self)
  }

  /// Converts a rectangle from this view's bounds coordinates to `view`'s: the axis-aligned box of its four
  /// converted corners (UIView.convert(_:to:)); nil when any corner cannot be converted (see
  /// `convert(_:to:)` for points).
  package func convert(_ rect: Rect, to view: View) -> Rect? {
    guard let (forward, back) = conversion(to: view) else { return nil }
    var x0 = Double.infinity
    var y0 = Double.infinity
    var x1 = -Double.infinity
    var y1 = -Double.infinity
    for p in [
      Point(x: rect.minX, y: rect.minY), Point(x: rect.maxX, y: rect.minY),
      Point(x: rect.maxX, y: rect.maxY), Point(x: rect.minX, y: rect.maxY),
    ] {
      guard let r = forward.map(p), let q = back.map(r) else { return nil }
      x0 = min(x0, q.x)
      y0 = min(y0, q.y)
      x1 = max(x1, q.x)
      y1 = max(y1, q.y)
    }
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }

  /// Converts a rectangle from `view`'s bounds coordinates to this view's (UIView.convert(_:from:)).
  package func convert(_ rect: Rect, from view: View) -> Rect? {
    view.convert(rect, to: self)
  }
}
