// Frames, centres, world matrices and conversions, against hand geometry.
import Testing
import TransitionEngine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite struct ViewFrameTests {
  @Test func anchorPositionAndFrame() throws {
    let h = ModelHarness()
    let v = try h.scene.makeView(id: "v")
    v.bounds = Rect(x: 0, y: 0, width: 100, height: 50)
    v.anchorPoint = Point(x: 0, y: 0.5)
    v.position = Point(x: 0, y: 25)
    // origin = position − anchor·size = (0 − 0·100, 25 − 0.5·50).
    #expect(v.frame == Rect(x: 0, y: 0, width: 100, height: 50))
    // Moving the anchor without the position moves the frame: (0 − 0.5·100, 25 − 0.5·50).
    v.anchorPoint = Point(x: 0.5, y: 0.5)
    #expect(v.frame == Rect(x: -50, y: 0, width: 100, height: 50))
    #expect(v.position == Point(x: 0, y: 25))
    #expect(v.center == Point(x: 0, y: 25))
  }

  @Test func settingTheFrameKeepsTheBoundsOriginAndUsesTheAnchor() throws {
    let h = ModelHarness()
    let v = try h.scene.makeView(id: "v")
    v.bounds = Rect(x: 5, y: 7, width: 1, height: 1)
    v.anchorPoint = Point(x: 0.25, y: 0.75)
    v.frame = Rect(x: 10, y: 20, width: 40, height: 80)
    #expect(v.bounds == Rect(x: 5, y: 7, width: 40, height: 80))
    // position = origin + anchor·size = (10 + 10, 20 + 60).
    #expect(v.position == Point(x: 20, y: 80))
    #expect(v.frame == Rect(x: 10, y: 20, width: 40, height: 80))
    v.center = Point(x: 0, y: 0)
    #expect(v.frame == Rect(x: -10, y: -60, width: 40, height: 80))
  }

  @Test func frameOfATransformedViewIsTheBoxOfItsCorners() throws {
    let h = ModelHarness()
    let v = try h.scene.makeView(id: "v")
    v.bounds = Rect(x: 0, y: 0, width: 100, height: 50)
    v.position = Point(x: 200, y: 100)
    // A quarter turn about the centre: a 50 × 100 box centred on the position.
    v.transform = Transform3D(rotationAngle: Double.pi / 2, x: 0, y: 0, z: 1)
    #expect(modelClose(v.frame, Rect(x: 175, y: 50, width: 50, height: 100)))
    // Scale 2 about the top-left anchor: the box grows right and down from the position.
    v.transform = Transform3D(scaleX: 2, y: 2)
    v.anchorPoint = .zero
    v.position = Point(x: 10, y: 10)
    #expect(v.frame == Rect(x: 10, y: 10, width: 200, height: 100))
    // Setting the frame does not undo the transform: bounds.size = size, position = origin + anchor·size,
    // so the frame read back is the scaled box.
    v.frame = Rect(x: 0, y: 0, width: 30, height: 40)
    #expect(v.bounds.size == Size(width: 30, height: 40))
    #expect(v.position == Point(x: 0, y: 0))
    #expect(v.frame == Rect(x: 0, y: 0, width: 60, height: 80))
  }

  @Test func nonFiniteWritesAreReportedAndNotStored() throws {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 1, y: 2, width: 3, height: 4))
    v.alpha = .nan
    v.frame = Rect(x: .infinity, y: 0, width: 1, height: 1)
    var t = Transform3D.identity
    t.m34 = .nan
    v.transform = t
    v.backgroundColor = Color(r: .nan, g: 0, b: 0)
    #expect(v.alpha == 1)
    #expect(v.frame == Rect(x: 1, y: 2, width: 3, height: 4))
    #expect(v.transform == .identity)
    #expect(v.backgroundColor == nil)
    #expect(
      h.misuses == [
        .invalidValue(viewID: "v", property: .alpha), .invalidValue(viewID: "v", property: .bounds),
        .invalidValue(viewID: "v", property: .transform), .invalidValue(viewID: "v", property: .backgroundColor),
      ])
  }
}

@Suite struct ViewConversionTests {
  /// container ▸ a (frame (10, 20, 200, 200), scrolled: bounds.origin (0, 50)) ▸ b (frame (30, 70, 50, 50)).
  private func nested() -> (ModelHarness, View, View) {
    let h = ModelHarness()
    let a = h.view("a", Rect(x: 10, y: 20, width: 200, height: 200))
    a.bounds.origin = Point(x: 0, y: 50)
    let b = h.view("b", Rect(x: 30, y: 70, width: 50, height: 50), in: a)
    return (h, a, b)
  }

  @Test func pointsThroughNestedBoundsOrigins() {
    let (h, a, b) = nested()
    // b's (5, 5) is a's bounds point (35, 75), a's top-left plane (35, 25), the container's (45, 45).
    #expect(modelClose(b.convert(Point(x: 5, y: 5), to: a), Point(x: 35, y: 75)))
    #expect(modelClose(b.convert(Point(x: 5, y: 5), to: h.scene.container), Point(x: 45, y: 45)))
    #expect(modelClose(b.convert(Point(x: 45, y: 45), from: h.scene.container), Point(x: 5, y: 5)))
    // b's own bounds origin shifts its coordinates: its top-left is now the point (−10, 0).
    b.bounds.origin = Point(x: -10, y: 0)
    #expect(modelClose(b.convert(Point(x: -10, y: 0), to: h.scene.container), Point(x: 40, y: 40)))
    #expect(modelClose(h.scene.container.convert(Point(x: 40, y: 40), to: b), Point(x: -10, y: 0)))
  }

  @Test func rectsBetweenSiblingSubtrees() {
    let (h, _, b) = nested()
    let c = h.view("c", Rect(x: 100, y: 0, width: 50, height: 50))
    // b's bounds sit at (40, 40) in the container; in c's coordinates that is (40 − 100, 40 − 0).
    #expect(modelClose(b.convert(b.bounds, to: c), Rect(x: -60, y: 40, width: 50, height: 50)))
    #expect(modelClose(c.convert(b.bounds, from: b), Rect(x: -60, y: 40, width: 50, height: 50)))
  }

  @Test func throughAScaleAndAProjectiveTransform() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 50, y: 50, width: 100, height: 100))
    v.transform = Transform3D(scaleX: 2, y: 2)
    // About the centre (100, 100): (u − 50)·2 + 100 = 2u.
    #expect(modelClose(v.convert(Point(x: 10, y: 20), to: h.scene.container), Point(x: 20, y: 40)))
    #expect(modelClose(v.convert(Point(x: 20, y: 40), from: h.scene.container), Point(x: 10, y: 20)))
    #expect(modelClose(v.convert(v.bounds, to: h.scene.container), Rect(x: 0, y: 0, width: 200, height: 200)))
    // A perspective on the container: the round trip through the plane's homography returns the point.
    h.scene.container.sublayerTransform = modelPerspective(500)
    v.transform = modelRotationY(-Double.pi / 3)
    let p = Point(x: 80, y: 30)
    let inContainer = v.convert(p, to: h.scene.container)
    #expect(modelClose(v.convert(inContainer!, from: h.scene.container), p, 1e-9))
  }

  @Test func viewsOfDifferentTreesConvertThroughTheirRootsFrames() throws {
    let h = ModelHarness()
    let attached = h.view("a", Rect(x: 20, y: 30, width: 10, height: 10))
    // A root not added anywhere, framed at (100, 50): converts as if it were added there.
    let loose = try h.scene.makeView(id: "loose")
    loose.frame = Rect(x: 100, y: 50, width: 40, height: 40)
    let inner = try h.scene.makeView(id: "inner")
    inner.frame = Rect(x: 5, y: 5, width: 10, height: 10)
    loose.addSubview(inner)
    // a's (1, 1) is the container's (21, 31); in loose: (21 − 100, 31 − 50); in inner: 5 less each way.
    #expect(modelClose(attached.convert(Point(x: 1, y: 1), to: loose), Point(x: -79, y: -19)))
    #expect(modelClose(attached.convert(Point(x: 1, y: 1), to: inner), Point(x: -84, y: -24)))
    #expect(modelClose(inner.convert(inner.bounds, to: h.scene.container), Rect(x: 105, y: 55, width: 10, height: 10)))
    // Another scene's view: no conversion.
    let other = Scene(containerSize: Size(width: 10, height: 10))
    #expect(attached.convert(Point(x: 1, y: 1), to: other.container) == nil)
    #expect(attached.convert(Rect(x: 0, y: 0, width: 1, height: 1), to: other.container) == nil)
    // Edge-on plane (zero x scale): no inverse.
    attached.transform = Transform3D(scaleX: 0, y: 1)
    #expect(h.scene.container.convert(Point(x: 1, y: 1), to: attached) == nil)
  }
}

@Suite struct ViewWorldMatrixTests {
  /// The page-turn geometry of the flip animator: container 400 × 300 with m34 = −1/500 about its centre
  /// (200, 150); a 200 × 100 page hinged on its left edge (anchor (0, 0.5)) at (100, 150), turned by θ about y.
  /// A page point (u, v) sits at (100 + u·cosθ, 100 + v, −u·sinθ) before the perspective, which maps
  /// (X, Y, Z) to ((X − 200)/w + 200, (Y − 150)/w + 150) with w = 1 − Z/500.
  private func page(theta: Double, width: Double = 200) -> (ModelHarness, View) {
    let h = ModelHarness()
    h.scene.container.sublayerTransform = modelPerspective(500)
    let v = h.view("page", Rect(x: 100, y: 100, width: width, height: 100))
    v.anchorPoint = Point(x: 0, y: 0.5)
    v.position = Point(x: 100, y: 150)
    v.transform = modelRotationY(theta)
    return (h, v)
  }

  private func expected(_ u: Double, _ v: Double, theta: Double) -> (x: Double, y: Double) {
    let x = 100 + u * cos(theta)
    let y = 100 + v
    let z = -u * sin(theta)
    let w = 1 - z / 500
    return ((x - 200) / w + 200, (y - 150) / w + 150)
  }

  @Test func cornersOfAPageTurnedMinus90Degrees() throws {
    let (h, v) = page(theta: -Double.pi / 2)
    let world = v.worldTransform
    // θ = −90°: the far edge comes 200 toward the eye (w = 0.6): (100 − 200)/0.6 + 200 = 33.33…
    let far = modelProject(world, 200, 0)
    #expect(modelClose(far.x, 100.0 / 3, 1e-9) && modelClose(far.y, 200.0 / 3, 1e-9) && modelClose(far.w, 0.6))
    let near = modelProject(world, 0, 100)
    #expect(modelClose(near.x, 100) && modelClose(near.y, 200) && modelClose(near.w, 1))
    for (u, vv) in [(0.0, 0.0), (200.0, 0.0), (200.0, 100.0), (0.0, 100.0)] {
      let p = modelProject(world, u, vv)
      let e = expected(u, vv, theta: -Double.pi / 2)
      #expect(modelClose(p.x, e.x, 1e-9) && modelClose(p.y, e.y, 1e-9))
    }
    #expect(modelClose(v.boundingBox, Rect(x: 100.0 / 3, y: 200.0 / 3, width: 200.0 / 3, height: 500.0 / 3), 1e-9))
    // The sampled frame entry carries the same matrix and box.
    let state = try #require(h.state("page", at: 0))
    #expect(modelClose(state.boundingBox, Rect(x: 100.0 / 3, y: 200.0 / 3, width: 200.0 / 3, height: 500.0 / 3), 1e-9))
    let p = modelProject(state.worldTransform, 200, 100)
    #expect(modelClose(p.x, 100.0 / 3, 1e-9) && modelClose(p.y, 700.0 / 3, 1e-9))
  }

  @Test func cornersAtMinus60Degrees() {
    let theta = -Double.pi / 3
    let (h, v) = page(theta: theta)
    #expect(v.superview === h.scene.container)
    for (u, vv) in [(0.0, 0.0), (200.0, 0.0), (200.0, 100.0), (0.0, 100.0), (73.0, 41.0)] {
      let p = modelProject(v.worldTransform, u, vv)
      let e = expected(u, vv, theta: theta)
      #expect(modelClose(p.x, e.x, 1e-9) && modelClose(p.y, e.y, 1e-9))
    }
  }

  @Test func boundingBoxIsNilBehindTheEye() throws {
    // A 600-wide page turned −90°: its far edge at z = 600 is behind the eye at 500 (w = −0.2).
    let (h, v) = page(theta: -Double.pi / 2, width: 600)
    #expect(modelProject(v.worldTransform, 600, 0).w < 0)
    #expect(v.boundingBox == nil)
    #expect(try #require(h.state("page", at: 0)).boundingBox == nil)
  }

  @Test func sublayerTransformPivotsOnTheAnchorAndIgnoresTheScrollOffset() {
    let h = ModelHarness()
    // A parent 200 × 100 at (100, 100) with its anchor at the top-left, scrolled by (30, 0), scaling its
    // sublayers by 2 about that anchor.
    let parent = h.view("p", Rect(x: 100, y: 100, width: 200, height: 100))
    parent.anchorPoint = .zero
    parent.position = Point(x: 100, y: 100)
    parent.bounds.origin = Point(x: 30, y: 0)
    parent.sublayerTransform = Transform3D(scaleX: 2, y: 2)
    // A child whose frame starts at the parent's bounds point (40, 10): 10 right of the visible top-left.
    let child = h.view("c", Rect(x: 40, y: 10, width: 10, height: 10), in: parent)
    // In the parent's plane (before scaling) the child's top-left is (10, 10); doubled about the plane's
    // origin (the anchor) it is (20, 20); the parent's plane starts at (100, 100).
    let p = modelProject(child.worldTransform, 0, 0)
    #expect(modelClose(p.x, 120) && modelClose(p.y, 120))
    #expect(modelClose(child.boundingBox, Rect(x: 120, y: 120, width: 20, height: 20)))
  }

  @Test func sublayersAreFlattenedIntoTheirParentsPlane() {
    // A child pushed 250 toward the eye under the container's m34 = −1/500 appears twice as large about the
    // vanishing point (200, 150) (w = 0.5); the same child inside a plain full-size view is flattened into
    // that view's plane first, as CALayer (not CATransformLayer) renders, so it keeps its size.
    let h = ModelHarness()
    h.scene.container.sublayerTransform = modelPerspective(500)
    let direct = h.view("direct", Rect(x: 150, y: 100, width: 100, height: 100))
    direct.transform = Transform3D(translationX: 0, y: 0, z: 250)
    let plain = h.view("plain", Rect(x: 0, y: 0, width: 400, height: 300))
    let nested = h.view("nested", Rect(x: 150, y: 100, width: 100, height: 100), in: plain)
    nested.transform = Transform3D(translationX: 0, y: 0, z: 250)
    #expect(modelClose(direct.boundingBox, Rect(x: 100, y: 50, width: 200, height: 200)))
    #expect(modelClose(nested.boundingBox, Rect(x: 150, y: 100, width: 100, height: 100)))
  }
}
