// Layers that are not views: the sublayer tree and its drawing order, geometry under transforms and
// sublayerTransform, masks, and Core Animation's interpolation of the layer properties (paths, colours, shadows,
// transform key paths). Expected values are derived by hand or from formulas written here.
import Testing

@testable import TransitionEngine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// iOS code for a layer property a UIView block does not animate: `write` sets the model to the end value, then a
/// CABasicAnimation of `keyPath` runs from the value before the write (fromValue) to the model's (no toValue: the
/// presentation's value) for `duration` on `curve` (nil: linear).
func animateLayer(
  _ layer: View, _ keyPath: String, duration: Double, curve: TimingCurve? = nil, _ write: () -> Void
) {
  let before = AnimationKeyPath(keyPath)!.accept(ReadChannel(values: layer.model))
  write()
  var animation = ExplicitAnimation.basic(keyPath, from: before)
  animation.timing.duration = duration
  animation.timingFunction = curve
  layer.add(animation, forKey: keyPath)
}

@Suite struct LayerTreeTests {
  /// Sublayers and subviews share one drawing order: a view's layer goes where UIKit puts it, a layer where the
  /// CALayer call says; zPosition sorts siblings stably.
  @Test func sublayersInterleaveWithSubviewsInUIKitsOrder() throws {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 100, height: 100))
    let a = h.view("a", Rect(x: 0, y: 0, width: 10, height: 10), in: v)
    let b = h.view("b", Rect(x: 0, y: 0, width: 10, height: 10), in: v)
    let l = try h.scene.makeLayer(id: "L")
    v.addSublayer(l)
    let c = h.view("c", Rect(x: 0, y: 0, width: 10, height: 10), in: v)
    #expect(v.sublayers.map(\.id) == ["a", "b", "L", "c"])
    #expect(v.subviews.map(\.id) == ["a", "b", "c"])
    // insertSubview(_:at: 0): below the layer of the subview then at index 0 (a).
    let d = try h.scene.makeView(id: "d")
    v.insertSubview(d, at: 0)
    #expect(v.sublayers.map(\.id) == ["d", "a", "b", "L", "c"])
    let m = try h.scene.makeLayer(id: "M", kind: .shape)
    v.insertSublayer(m, below: b)
    #expect(v.sublayers.map(\.id) == ["d", "a", "M", "b", "L", "c"])
    v.insertSublayer(m, above: c)
    #expect(v.sublayers.map(\.id) == ["d", "a", "b", "L", "c", "M"])
    v.insertSublayer(m, at: 1)
    #expect(v.sublayers.map(\.id) == ["d", "M", "a", "b", "L", "c"])
    v.bringSubviewToFront(a)
    v.sendSubviewToBack(c)
    #expect(v.sublayers.map(\.id) == ["c", "d", "M", "b", "L", "a"])
    #expect(v.subviews.map(\.id) == ["c", "d", "b", "a"])
    #expect(m.superlayer === v && l.superlayer === v)

    // Drawing order: depth first, siblings by zPosition (stable).
    l.zPosition = -1
    b.zPosition = 2
    let order = h.scene.presentation(at: 0).map(\.id)
    #expect(order == ["container", "v", "L", "c", "d", "M", "a", "b"])
    let states = h.scene.presentation(at: 0)
    #expect(states.first { $0.id == "L" }?.isView == false)
    #expect(states.first { $0.id == "L" }?.parentID == "v")
    #expect(states.first { $0.id == "M" }?.kindName == "shape")
    #expect(states.first { $0.id == "a" }?.kindName == "view")

    m.removeFromSuperlayer()
    #expect(v.sublayers.map(\.id) == ["c", "d", "b", "L", "a"])
    #expect(m.superlayer == nil)
    // Layers hold sublayers of their own.
    let n = try h.scene.makeLayer(id: "N")
    l.addSublayer(n)
    l.addSublayer(m)
    #expect(l.sublayers.map(\.id) == ["N", "M"])
    #expect(h.scene.presentation(at: 0).map(\.id) == ["container", "v", "L", "N", "M", "c", "d", "a", "b"])
    #expect(h.misuses.isEmpty)
  }

  @Test func misuseOfTheLayerCallsIsReportedAndIgnored() throws {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 100, height: 100))
    let w = h.view("w", Rect(x: 0, y: 0, width: 100, height: 100))
    let l = try h.scene.makeLayer(id: "L")
    let stray = try h.scene.makeLayer(id: "stray")
    v.addSublayer(w)
    #expect(w.superview === h.scene.container)
    v.addSublayer(l)
    l.addSublayer(l)
    let other = Scene(containerSize: Size(width: 1, height: 1))
    v.addSublayer(try other.makeLayer(id: "foreign"))
    v.insertSublayer(try h.scene.makeLayer(id: "K"), below: stray)
    #expect(
      h.misuses == [
        .viewLayerAsSublayer(viewID: "w"), .hierarchyCycle(viewID: "L", superviewID: "L"),
        .foreignView(viewID: "foreign"), .notASublayer(layerID: "stray", superlayerID: "v"),
      ])
    #expect(v.sublayers.map(\.id) == ["L", "K"])
    #expect(throws: SceneError.duplicateID("v")) { try h.scene.makeLayer(id: "v") }
  }

  /// A sublayer under a rotation, its superlayer's sublayerTransform and a bounds origin, corner by corner.
  @Test func sublayerGeometryUnderTransformsAndSublayerTransform() throws {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 100, y: 50, width: 200, height: 100))
    v.sublayerTransform = Transform3D(scaleX: 2, y: 2)
    let l = try h.scene.makeLayer(id: "L")
    l.bounds = Rect(x: 5, y: 5, width: 40, height: 20)
    l.position = Point(x: 50, y: 30)
    // Row vectors: (x, y)·Rz(π/2) = (−y, x).
    l.transform = Transform3D(
      m11: 0, m12: 1, m13: 0, m14: 0, m21: -1, m22: 0, m23: 0, m24: 0, m31: 0, m32: 0, m33: 1, m34: 0, m41: 0, m42: 0,
      m43: 0, m44: 1)
    v.addSublayer(l)
    let l2 = try h.scene.makeLayer(id: "L2")
    l2.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
    l2.position = .zero
    l.addSublayer(l2)

    // L: (u, v) − anchor (20, 10), rotated to (−(v − 10), u − 20), plus position (50, 30) = (60 − v, u + 10) in v's
    // bounds; v's sublayerTransform scales by 2 about v's anchor (100, 50); v's top-left sits at (100, 50).
    func throughV(_ x: Double, _ y: Double) -> Point { Point(x: (x - 100) * 2 + 100 + 100, y: (y - 50) * 2 + 50 + 50) }
    let states = h.scene.presentation(at: 0)
    let ls = try #require(states.first { $0.id == "L" })
    for (u, w) in [(0.0, 0.0), (40.0, 0.0), (0.0, 20.0), (40.0, 20.0)] {
      let p = modelProject(ls.worldTransform, u, w)
      #expect(modelClose(Point(x: p.x, y: p.y), throughV(60 - w, u + 10)))
    }
    // The frame: the rotated 40 × 20 box about the anchor at the position → 20 × 40 centred on (50, 30).
    #expect(modelClose(l.frame, Rect(x: 40, y: 10, width: 20, height: 40)))
    // L2: its top-left (−5, −5) in L's bounds, whose origin (5, 5) puts it at (−10, −10) on L's plane.
    let l2s = try #require(states.first { $0.id == "L2" })
    let corner = modelProject(l2s.worldTransform, 0, 0)
    #expect(modelClose(Point(x: corner.x, y: corner.y), throughV(60 - (-10), -10 + 10)))
    #expect(modelClose(l2.worldTransform.m41, corner.x) && modelClose(l2.worldTransform.m42, corner.y))
  }

  /// anchorPointZ puts the layer's plane behind its anchor: under the superlayer's perspective m34 = −1/500 a layer
  /// with anchorPointZ 100 sits at z = −100, w = 1 + 100/500 = 1.2, so it shows 1/1.2 as large about the vanishing
  /// point (the superlayer's anchor).
  @Test func anchorPointZMovesTheLayerAlongZ() throws {
    let h = ModelHarness()
    let p = h.view("p", Rect(x: 0, y: 0, width: 400, height: 300))
    p.sublayerTransform = modelPerspective(500)
    let l = try h.scene.makeLayer(id: "L")
    l.bounds = Rect(x: 0, y: 0, width: 100, height: 100)
    l.position = Point(x: 200, y: 150)
    l.anchorPointZ = 100
    p.addSublayer(l)
    let s = try #require(h.scene.presentation(at: 0).first { $0.id == "L" })
    let c = modelProject(s.worldTransform, 0, 0)
    #expect(modelClose(c.x, 200 - 50 / 1.2) && modelClose(c.y, 150 - 50 / 1.2))
    let e = modelProject(s.worldTransform, 100, 100)
    #expect(modelClose(e.x, 200 + 50 / 1.2) && modelClose(e.y, 150 + 50 / 1.2))
  }

  /// A mask follows its owner in drawing order, in the owner's bounds coordinates but outside its sublayerTransform.
  @Test func masksAreSampledWithTheirOwner() throws {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 10, y: 20, width: 200, height: 100))
    v.sublayerTransform = Transform3D(scaleX: 3, y: 3)
    v.bounds.origin = Point(x: 5, y: 0)
    let child = h.view("child", Rect(x: 0, y: 0, width: 10, height: 10), in: v)
    let mask = try h.scene.makeLayer(id: "mask", kind: .shape)
    mask.bounds = Rect(x: 0, y: 0, width: 200, height: 100)
    mask.position = Point(x: 100, y: 50)
    mask.path = Path(ellipseIn: Rect(x: 0, y: 0, width: 200, height: 100))
    mask.alpha = 0.5
    v.alpha = 0.5
    v.setMask(mask)
    let states = h.scene.presentation(at: 0)
    #expect(states.map(\.id) == ["container", "v", "mask", "child"])
    let ms = try #require(states.first { $0.id == "mask" })
    #expect(ms.maskOwnerID == "v" && ms.parentID == "v")
    #expect(states.first { $0.id == "v" }?.maskID == "mask")
    // (0, 0) of the mask: (0, 0) in v's bounds, minus the origin (5, 0), on v's plane at (10, 20).
    #expect(modelClose(ms.worldTransform.m41, 5) && modelClose(ms.worldTransform.m42, 20))
    #expect(ms.opacity == 0.5)
    // A view can be a mask (UIView.mask); taking the layer into a tree ends its masking.
    let maskView = try h.scene.makeView(id: "maskView")
    v.setMask(maskView)
    #expect(mask.maskOwner == nil && maskView.maskOwner === v)
    child.addSublayer(mask)
    v.setMask(mask)
    #expect(mask.superlayer == nil && child.sublayers.isEmpty && maskView.maskOwner == nil)
    v.setMask(v)
    #expect(h.misuses == [.hierarchyCycle(viewID: "v", superviewID: "v")])
    #expect(v.mask === mask)
    _ = child
  }
}

// MARK: - Paths

@Suite struct PathTests {
  /// The quarter-circle handle: 4/3·(√2 − 1) = 0.5522847498…, the published constant of cubic circle arcs.
  static let k = 0.552_284_749_830_793_4

  /// The points of CGPath's ellipse in `r`, written out: start at (maxX, midY), then clockwise (y down).
  static func ellipsePoints(_ r: Rect) -> [Point] {
    let (cx, cy, rx, ry) = (r.midX, r.midY, r.width / 2, r.height / 2)
    return [
      Point(x: cx + rx, y: cy),
      Point(x: cx + rx, y: cy + k * ry), Point(x: cx + k * rx, y: cy + ry), Point(x: cx, y: cy + ry),
      Point(x: cx - k * rx, y: cy + ry), Point(x: cx - rx, y: cy + k * ry), Point(x: cx - rx, y: cy),
      Point(x: cx - rx, y: cy - k * ry), Point(x: cx - k * rx, y: cy - ry), Point(x: cx, y: cy - ry),
      Point(x: cx + k * rx, y: cy - ry), Point(x: cx + rx, y: cy - k * ry), Point(x: cx + rx, y: cy),
    ]
  }

  static func points(_ path: Path?) -> [Point] {
    (path?.elements ?? []).flatMap { e -> [Point] in
      switch e {
      case .move(let p), .line(let p): [p]
      case .quadCurve(let p, let c): [c, p]
      case .curve(let p, let c1, let c2): [c1, c2, p]
      case .closeSubpath: []
      }
    }
  }

  static func close(_ a: [Point], _ b: [Point], _ tolerance: Double = 1e-9) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { modelClose($0, $1, tolerance) }
  }

  @Test func buildersStoreWhatCGPathStores() {
    let e = Path(ellipseIn: Rect(x: 10, y: 20, width: 100, height: 50))
    #expect(e.elements.map(\.kind) == [.move, .curve, .curve, .curve, .curve, .closeSubpath])
    #expect(Self.close(Self.points(e), Self.ellipsePoints(Rect(x: 10, y: 20, width: 100, height: 50))))
    let r = Path(rect: Rect(x: 1, y: 2, width: 3, height: 4))
    #expect(
      r.elements == [
        .move(to: Point(x: 1, y: 2)), .line(to: Point(x: 4, y: 2)), .line(to: Point(x: 4, y: 6)),
        .line(to: Point(x: 1, y: 6)), .closeSubpath,
      ])
    // Rounded rect, radius 10 on the top right only: the corner's cubic runs from (90, 0) to (100, 10) with handles
    // (1 − k)·10 short of the corner point (100, 0).
    let rr = Path(
      roundedRect: Rect(x: 0, y: 0, width: 100, height: 50),
      radii: CornerRadii(topLeft: 0, topRight: 10, bottomRight: 0, bottomLeft: 0))
    #expect(rr.elements.count == 10)
    #expect(rr.elements[1] == .line(to: Point(x: 90, y: 0)))
    guard case .curve(let to, let c1, let c2) = rr.elements[2] else {
      Issue.record("expected a curve")
      return
    }
    #expect(modelClose(to, Point(x: 100, y: 10)))
    #expect(modelClose(c1, Point(x: 90 + Self.k * 10, y: 0)))
    #expect(modelClose(c2, Point(x: 100, y: 10 - Self.k * 10)))
    // Radii larger than half the shorter side are clamped to it (25).
    let pill = Path(roundedRect: Rect(x: 0, y: 0, width: 100, height: 50), cornerRadius: 40)
    #expect(pill.elements[0] == .move(to: Point(x: 25, y: 0)))
    // Lines and curves.
    var p = Path()
    p.addLines(between: [Point(x: 0, y: 0), Point(x: 5, y: 0)])
    p.addQuadCurve(to: Point(x: 5, y: 5), control: Point(x: 9, y: 1))
    p.closeSubpath()
    #expect(p.elements.map(\.kind) == [.move, .line, .quadCurve, .closeSubpath])
  }

  /// An arc of a quarter turn is one cubic whose handles are 4/3·tan(θ/4)·r long, tangent to the circle; half a
  /// circle is two; the direction follows UIBezierPath's `clockwise` (increasing angle on a y-down screen).
  @Test func arcsAreCubicsOfAtMostAQuarterTurn() {
    var p = Path()
    p.addArc(center: Point(x: 0, y: 0), radius: 10, startAngle: 0, endAngle: .pi / 2, direction: .increasingAngle)
    #expect(p.elements.map(\.kind) == [.move, .curve])
    let h = 4.0 / 3.0 * tan(Double.pi / 8) * 10
    #expect(
      Self.close(Self.points(p), [Point(x: 10, y: 0), Point(x: 10, y: h), Point(x: h, y: 10), Point(x: 0, y: 10)]))
    var half = Path()
    half.move(to: Point(x: 50, y: 50))
    half.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi, direction: .decreasingAngle)
    #expect(half.elements.map(\.kind) == [.move, .line, .curve, .curve])
    // Decreasing from 0 to π passes through −π/2: (0, −10).
    guard case .curve(let mid, _, _) = half.elements[2] else {
      Issue.record("expected a curve")
      return
    }
    #expect(modelClose(mid, Point(x: 0, y: -10)))
  }

  /// A circular reveal: the mask's ellipse grows from a point to cover the container. With a linear curve every
  /// point at time t is the point of the ellipse of the linearly blended rectangle.
  @Test func pathsInterpolatePointByPoint() throws {
    let h = ModelHarness()
    let shape = try h.scene.makeLayer(id: "shape", kind: .shape)
    h.scene.container.addSublayer(shape)
    let small = Rect(x: 195, y: 145, width: 10, height: 10)
    let big = Rect(x: -300, y: -350, width: 1000, height: 1000)
    shape.path = Path(ellipseIn: small)
    animateLayer(shape, "path", duration: 2) { shape.path = Path(ellipseIn: big) }
    for t in [0.0, 0.5, 1.3, 1.9] {
      let f = t / 2
      let r = Rect(
        x: 195 + (-300 - 195) * f, y: 145 + (-350 - 145) * f, width: 10 + 990 * f, height: 10 + 990 * f)
      let presented = h.scene.presentation(at: t).first { $0.id == "shape" }?.layer.path
      #expect(Self.close(Self.points(presented), Self.ellipsePoints(r), 1e-9), "t = \(t)")
    }
    #expect(h.scene.presentation(at: 2).first { $0.id == "shape" }?.layer.path == Path(ellipseIn: big))
  }

  /// Paths whose element structures differ do not blend: the start shape shows for the whole animation and the end
  /// shape from its end on; the same between none and a path.
  @Test func mismatchedPathsJumpAtTheEnd() throws {
    let h = ModelHarness()
    let shape = try h.scene.makeLayer(id: "shape", kind: .shape)
    h.scene.container.addSublayer(shape)
    let rect = Path(rect: Rect(x: 0, y: 0, width: 10, height: 10))
    let ellipse = Path(ellipseIn: Rect(x: 0, y: 0, width: 10, height: 10))
    shape.path = rect
    shape.shadowPath = nil
    animateLayer(shape, "path", duration: 1) { shape.path = ellipse }
    animateLayer(shape, "shadowPath", duration: 1) { shape.shadowPath = ellipse }
    for t in [0.01, 0.5, 0.999] {
      let s = h.scene.presentation(at: t).first { $0.id == "shape" }
      #expect(s?.layer.path == rect)
      #expect(s?.layer.shadowPath == nil)
    }
    let end = h.scene.presentation(at: 1).first { $0.id == "shape" }
    #expect(end?.layer.path == ellipse && end?.layer.shadowPath == ellipse)
  }

  /// shadowPath blends as path does (a card's shadow following its growing rounded rectangle).
  @Test func shadowPathInterpolatesLikePath() throws {
    let h = ModelHarness()
    let card = h.view("card", Rect(x: 0, y: 0, width: 100, height: 100))
    card.shadowPath = Path(roundedRect: Rect(x: 0, y: 0, width: 100, height: 100), cornerRadius: 10)
    animateLayer(card, "shadowPath", duration: 1) {
      card.shadowPath = Path(roundedRect: Rect(x: 0, y: 0, width: 200, height: 300), cornerRadius: 20)
    }
    let s = h.scene.presentation(at: 0.25).first { $0.id == "card" }?.layer.shadowPath
    // At 1/4: width 125, height 150, radius 12.5; the path starts at (radius, 0), its first line ends at
    // (width − radius, 0), the bottom-right corner's curve ends at (width − radius, height).
    #expect(s?.elements[0] == .move(to: Point(x: 12.5, y: 0)))
    #expect(s?.elements[1] == .line(to: Point(x: 112.5, y: 0)))
    guard case .curve(let p, _, _)? = s?.elements[4] else {
      Issue.record("expected a curve")
      return
    }
    #expect(modelClose(p, Point(x: 112.5, y: 150)))
  }
}

// MARK: - Layer properties

@Suite struct LayerPropertyInterpolationTests {
  /// Cubic Bézier easing solved by bisection on x (independent of the engine's solver).
  static func bezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ x: Double) -> Double {
    func coordinate(_ a: Double, _ b: Double, _ s: Double) -> Double {
      3 * a * s * (1 - s) * (1 - s) + 3 * b * s * s * (1 - s) + s * s * s
    }
    var lo = 0.0
    var hi = 1.0
    for _ in 0..<200 {
      let mid = (lo + hi) / 2
      if coordinate(x1, x2, mid) < x { lo = mid } else { hi = mid }
    }
    return coordinate(y1, y2, (lo + hi) / 2)
  }

  /// A card animating cornerRadius (UIView.animate) and its border and shadow (CABasicAnimations, as a UIView
  /// block does not animate them): every member blends linearly by the curve's progress, colours componentwise.
  @Test func layerPropertiesBlendComponentwise() throws {
    let h = ModelHarness()
    let card = h.view("card", Rect(x: 0, y: 0, width: 100, height: 100))
    card.borderWidth = 1
    card.borderColor = Color(r: 1, g: 0, b: 0, a: 1)
    card.shadowColor = Color(r: 0, g: 0, b: 0, a: 1)
    h.scene.animate(duration: 1, timing: .curve(.linear)) { card.cornerRadius = 20 }
    animateLayer(card, "borderWidth", duration: 1) { card.borderWidth = 5 }
    animateLayer(card, "borderColor", duration: 1) { card.borderColor = Color(r: 0, g: 0, b: 1, a: 0.5) }
    animateLayer(card, "shadowOpacity", duration: 1) { card.shadowOpacity = 0.8 }
    animateLayer(card, "shadowRadius", duration: 1) { card.shadowRadius = 13 }
    animateLayer(card, "shadowOffset", duration: 1) { card.shadowOffset = Size(width: 10, height: 7) }
    animateLayer(card, "shadowColor", duration: 1) { card.shadowColor = Color(r: 0.5, g: 1, b: 0, a: 1) }
    let s = try #require(h.scene.presentation(at: 0.3).first { $0.id == "card" })
    #expect(modelClose(s.cornerRadius, 6))
    #expect(modelClose(s.layer.borderWidth, 1 + 4 * 0.3))
    let c = try #require(s.layer.borderColor)
    #expect(modelClose(c.r, 0.7) && modelClose(c.g, 0) && modelClose(c.b, 0.3) && modelClose(c.a, 0.85))
    #expect(modelClose(s.layer.shadowOpacity, 0.24))
    // From CALayer's defaults: radius 3, offset (0, −3).
    #expect(modelClose(s.layer.shadowRadius, 3 + 10 * 0.3))
    #expect(modelClose(s.layer.shadowOffset.width, 3) && modelClose(s.layer.shadowOffset.height, -3 + 10 * 0.3))
    let sc = try #require(s.layer.shadowColor)
    #expect(modelClose(sc.r, 0.15) && modelClose(sc.g, 0.3) && modelClose(sc.b, 0))
    // The model holds the end values at once, as UIKit's.
    #expect(card.shadowOpacity == 0.8 && card.borderWidth == 5)
  }

  /// strokeEnd drawing a shape in, on the default easeInOut curve (0.42, 0, 0.58, 1).
  @Test func strokeEndFollowsTheCurve() throws {
    let h = ModelHarness()
    let shape = try h.scene.makeLayer(id: "shape", kind: .shape)
    h.scene.container.addSublayer(shape)
    shape.strokeEnd = 0
    shape.strokeStart = 0.5
    animateLayer(shape, "strokeEnd", duration: 2, curve: .easeInOut) { shape.strokeEnd = 1 }
    animateLayer(shape, "strokeStart", duration: 2, curve: .easeInOut) { shape.strokeStart = 0 }
    animateLayer(shape, "lineWidth", duration: 2, curve: .easeInOut) { shape.lineWidth = 9 }
    for t in [0.2, 0.9, 1.5] {
      let p = Self.bezier(0.42, 0, 0.58, 1, t / 2)
      let s = try #require(h.scene.presentation(at: t).first { $0.id == "shape" })
      #expect(modelClose(s.layer.strokeEnd, p, 1e-6))
      #expect(modelClose(s.layer.strokeStart, 0.5 - 0.5 * p, 1e-6))
      #expect(modelClose(s.layer.lineWidth, 1 + 8 * p, 1e-6))
    }
  }

  /// A gradient layer's colours and locations blend elementwise (a page-turn shadow darkening); the type is not
  /// animatable.
  @Test func gradientColorsAndLocationsBlendElementwise() throws {
    let h = ModelHarness()
    let g = try h.scene.makeLayer(id: "g", kind: .gradient)
    h.scene.container.addSublayer(g)
    g.gradientType = .radial
    g.gradient = Gradient(colors: [Color(r: 0, g: 0, b: 0, a: 0), Color(r: 0, g: 0, b: 0, a: 0.2)], locations: [0, 1])
    h.scene.animate(duration: 1, timing: .curve(.linear)) {
      g.gradient = Gradient(
        colors: [Color(r: 0, g: 0, b: 0, a: 0.4), Color(r: 1, g: 0, b: 0, a: 1)], locations: [0.5, 1])
      g.gradientType = .conic
    }
    let s = try #require(h.scene.presentation(at: 0.5).first { $0.id == "g" })
    #expect(s.layer.gradientType == .conic)
    #expect(s.kindName == "gradient")
    let colors = try #require(s.gradient?.colors)
    #expect(modelClose(colors[0].a, 0.2) && modelClose(colors[1].r, 0.5) && modelClose(colors[1].a, 0.6))
    #expect(s.gradient?.locations == [0.25, 1])
  }

  /// Keyframe blocks and property animators follow the same rule as UIView.animate: a view's cornerRadius animates,
  /// its shadowOpacity and borderWidth change at once.
  @Test func keyframesAndPropertyAnimatorsAnimateOnlyUIKitsKeys() throws {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 100, height: 100))
    h.scene.animateKeyframes(duration: 1, timing: .curve(.linear)) {
      h.scene.addKeyframe(relativeStart: 0, relativeDuration: 0.5) {
        v.cornerRadius = 10
        v.shadowOpacity = 1
      }
      h.scene.addKeyframe(relativeStart: 0.5, relativeDuration: 0.5) {
        v.cornerRadius = 20
        v.shadowOpacity = 0.5
      }
    }
    let quarter = try #require(h.scene.presentation(at: 0.25).first { $0.id == "v" })
    #expect(modelClose(quarter.cornerRadius, 5))
    #expect(quarter.layer.shadowOpacity == 0.5)
    #expect(modelClose(h.scene.presentation(at: 0.75).first { $0.id == "v" }!.cornerRadius, 15))

    h.scene.advance(to: 2)
    let animator = try PropertyAnimator(scene: h.scene, duration: 1, timing: .curve(.linear))
    try animator.addAnimations {
      v.cornerRadius = 0
      v.borderWidth = 10
    }
    try animator.setFractionComplete(0.3)
    let s = try #require(h.scene.presentation(at: 2).first { $0.id == "v" })
    #expect(modelClose(s.cornerRadius, 20 - 20 * 0.3))
    #expect(s.layer.borderWidth == 10)
  }

  /// CALayer's defaults, and nil written to a member whose default is a colour stays nil.
  @Test func defaultsAreCALayersAndNilIsKept() throws {
    let h = ModelHarness()
    let l = try h.scene.makeLayer(id: "l", kind: .shape)
    #expect(l.borderColor == Color(r: 0, g: 0, b: 0, a: 1) && l.shadowColor == Color(r: 0, g: 0, b: 0, a: 1))
    #expect(l.shadowRadius == 3 && l.shadowOffset == Size(width: 0, height: -3) && l.shadowOpacity == 0)
    #expect(l.fillColor == Color(r: 0, g: 0, b: 0, a: 1) && l.strokeColor == nil && l.lineWidth == 1)
    #expect(l.strokeStart == 0 && l.strokeEnd == 1 && l.maskedCorners == .all && l.fillRule == .nonZero)
    l.borderColor = nil
    l.fillColor = nil
    #expect(l.borderColor == nil && l.fillColor == nil && l.shadowColor == Color(r: 0, g: 0, b: 0, a: 1))
    h.scene.container.addSublayer(l)
    let s = try #require(h.scene.presentation(at: 0).first { $0.id == "l" })
    #expect(s.layer.borderColor == nil && s.layer.fillColor == nil)
  }

  @Test func nonFiniteLayerValuesAreRefused() throws {
    let h = ModelHarness()
    let l = try h.scene.makeLayer(id: "l")
    l.shadowRadius = .nan
    l.path = Path(rect: Rect(x: 0, y: 0, width: .infinity, height: 1))
    l.lineDashPattern = [1, .nan]
    #expect(l.shadowRadius == 3 && l.path == nil && l.lineDashPattern == nil)
    #expect(
      h.misuses == [
        .invalidValue(viewID: "l", property: .shadowRadius), .invalidValue(viewID: "l", property: .path),
        .invalidValue(viewID: "l", property: .lineDashPhase),
      ])
  }
}

// MARK: - Transform key paths

@Suite struct TransformKeyPathTests {
  static func rotationZ(_ angle: Double, scale: Double = 1) -> Transform3D {
    Transform3D(
      m11: scale * cos(angle), m12: scale * sin(angle), m13: 0, m14: 0, m21: -scale * sin(angle),
      m22: scale * cos(angle), m23: 0, m24: 0, m31: 0, m32: 0, m33: 1, m34: 0, m41: 0, m42: 0, m43: 0, m44: 1)
  }

  static func close(_ a: Transform3D?, _ b: Transform3D, _ tolerance: Double = 1e-9) -> Bool {
    guard let a else { return false }
    return zip(a.values, b.values).allSatisfy { abs($0 - $1) <= tolerance }
  }

  /// `transform.rotation.z` from 0 to 3π/2 turns three quarters of the way (the component is interpolated); the
  /// matrix interpolation of the same two ends turns a quarter back (the shorter way).
  @Test func rotationZGoesTheLongWay() throws {
    let h = ModelHarness()
    let a = h.view("a", Rect(x: 0, y: 0, width: 10, height: 10))
    let b = h.view("b", Rect(x: 0, y: 0, width: 10, height: 10))
    h.scene.animate(duration: 1, timing: .curve(.linear)) {
      a.animateTransformComponent(.rotationZ, to: 3 * .pi / 2)
      b.transform = Self.rotationZ(3 * .pi / 2)
    }
    for t in [0.25, 0.5, 0.75] {
      let states = h.scene.presentation(at: t)
      #expect(Self.close(states.first { $0.id == "a" }?.transform, Self.rotationZ(3 * .pi / 2 * t)), "t = \(t)")
      #expect(Self.close(states.first { $0.id == "b" }?.transform, Self.rotationZ(-.pi / 2 * t)), "t = \(t)")
    }
    #expect(Self.close(a.transform, Self.rotationZ(3 * .pi / 2)))
  }

  /// A full turn animates although both ends are the identity, and the other components (a scale of 2) stay.
  @Test func aFullTurnKeepsTheOtherComponents() throws {
    let h = ModelHarness()
    let a = h.view("a", Rect(x: 0, y: 0, width: 10, height: 10))
    a.transform = Transform3D(scaleX: 2, y: 2)
    var finished: [Bool] = []
    h.scene.animate(duration: 1, timing: .curve(.linear)) {
      a.animateTransformComponent(.rotation, from: 0, to: 2 * .pi)
    } completion: {
      finished.append($0)
    }
    #expect(
      Self.close(h.scene.presentation(at: 0.25).first { $0.id == "a" }?.transform, Self.rotationZ(.pi / 2, scale: 2)))
    #expect(Self.close(h.scene.presentation(at: 0.5).first { $0.id == "a" }?.transform, Self.rotationZ(.pi, scale: 2)))
    h.scene.advance(to: 1)
    #expect(finished == [true])
    #expect(Self.close(a.transform, Transform3D(scaleX: 2, y: 2)))
  }

  /// Scale and translation key paths: `transform.scale` sets all three factors and reads their mean;
  /// `transform.translation.x` moves along x under a rotation that stays.
  @Test func scaleAndTranslationComponents() throws {
    let h = ModelHarness()
    let a = h.view("a", Rect(x: 0, y: 0, width: 10, height: 10))
    a.transform = Self.rotationZ(.pi / 4)
    h.scene.animate(duration: 1, timing: .curve(.linear)) {
      a.animateTransformComponent(.translationX, to: 100)
      a.animateTransformComponent(.scale, from: 1, to: 3)
    }
    // Both write `transform`: the second replaces the first in the same block (one animation per property, the last
    // write's component) — so only the scale animates, from 1 to 3, over the model's other components (the
    // translation of 100 shows at once).
    let s = try #require(h.scene.presentation(at: 0.5).first { $0.id == "a" })
    var expected = Self.rotationZ(.pi / 4, scale: 2)
    expected.m33 = 2
    expected.m41 = 100
    #expect(Self.close(s.transform, expected))
    #expect(abs(a.transformComponent(.translationX) - 100) < 1e-9)
    #expect(abs(a.transformComponent(.scale) - 3) < 1e-9)
    #expect(abs(a.transformComponent(.rotationZ) - .pi / 4) < 1e-9)

    let b = h.view("b", Rect(x: 0, y: 0, width: 10, height: 10))
    b.transform = Self.rotationZ(.pi / 4)
    h.scene.animate(duration: 1, timing: .curve(.linear)) { b.animateTransformComponent(.translationX, to: 100) }
    var moved = Self.rotationZ(.pi / 4)
    moved.m41 = 25
    #expect(Self.close(h.scene.presentation(at: 0.25).first { $0.id == "b" }?.transform, moved))
  }

  /// Reading and setting Euler components: rotation.x then rotation.y on the identity make Rx(0.3)·Ry(0.2) (row
  /// vectors: x first), written out here.
  @Test func eulerComponentsRoundTrip() {
    let (a, b) = (0.3, 0.2)
    let m = Transform3D.identity.setting(.rotationX, to: a).setting(.rotationY, to: b)
    // Rx(a)·Ry(b) = [[cb, 0, −sb], [sa·sb, ca, sa·cb], [ca·sb, −sa, ca·cb]].
    let expected = Transform3D(
      m11: cos(b), m12: 0, m13: -sin(b), m14: 0, m21: sin(a) * sin(b), m22: cos(a), m23: sin(a) * cos(b), m24: 0,
      m31: cos(a) * sin(b), m32: -sin(a), m33: cos(a) * cos(b), m34: 0, m41: 0, m42: 0, m43: 0, m44: 1)
    #expect(Self.close(m, expected, 1e-12))
    #expect(abs(m[.rotationX] - a) < 1e-12 && abs(m[.rotationY] - b) < 1e-12 && abs(m[.rotationZ]) < 1e-12)
    #expect(abs(Self.rotationZ(2.5)[.rotationZ] - 2.5) < 1e-12)
    #expect(TransformKeyPath.rotationZ.componentName == "rotation.z")
    // Outside an animation block, the component write sets the model at once.
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    v.animateTransformComponent(.translationY, to: 7)
    #expect(v.transform.m42 == 7)
  }
}

// MARK: - Cancel

/// An animator that builds a layer scene (a circular-reveal mask, a shadowed card sublayer, a gradient) and animates
/// it; the transition is scrubbed and cancelled.
private final class LayerSceneAnimator: TransitionAnimator {
  let animatorID = "test/layers"
  func transitionDuration(_ context: TransitionContext?) -> Double { 1 }

  func animateTransition(_ context: TransitionContext) {
    let scene = context.scene
    let container = context.containerView
    guard let to = context.view(forKey: .to) else { return }
    container.addSubview(to)
    let mask = scene.makeLayer(hint: "reveal", kind: .shape)
    mask.path = Path(ellipseIn: Rect(x: 195, y: 395, width: 10, height: 10))
    to.setMask(mask)
    let from = context.viewController(forKey: .from)
    let card = scene.makeLayer(hint: "card")
    card.frame = Rect(x: 10, y: 10, width: 100, height: 100)
    from.addSublayer(card)
    let existing = from.sublayers.first { !$0.isView }!
    from.insertSublayer(card, below: existing)
    existing.maskedCorners = [.minXMinY]
    existing.lineDashPattern = [4, 2]
    existing.content = .image(name: "card", contentMode: .scaleAspectFill)
    existing.layerKind = .gradient
    // Layer properties animate with CABasicAnimations (a UIView block does not animate them), in a transaction
    // whose completion completes the transition.
    scene.beginTransaction()
    scene.setTransactionCompletion { context.completeTransition(!context.transitionWasCancelled) }
    animateLayer(mask, "path", duration: 1) {
      mask.path = Path(ellipseIn: Rect(x: -500, y: -500, width: 1400, height: 1800))
    }
    animateLayer(card, "shadowOpacity", duration: 1) { card.shadowOpacity = 1 }
    animateLayer(card, "shadowPath", duration: 1) {
      card.shadowPath = Path(rect: Rect(x: 0, y: 0, width: 200, height: 200))
    }
    animateLayer(existing, "cornerRadius", duration: 1) { existing.cornerRadius = 30 }
    animateLayer(existing, "borderColor", duration: 1) { existing.borderColor = Color(r: 0, g: 1, b: 0) }
    animateLayer(existing, "strokeEnd", duration: 1) { existing.strokeEnd = 0 }
    scene.commitTransaction()
  }
}

@Suite struct LayerCancelTests {
  /// Every node's model (layer members included), sublayer order, mask and kind.
  static func layerDump(_ scene: Scene, _ ids: [String]) -> [String] {
    ids.compactMap { scene.view(withID: $0) }.map { v in
      "\(v.id) \(v.model.hashValue) \(v.model == AnimatableValues() ? "default" : "set") kind=\(v.layerKind)"
        + " sub=\(v.sublayers.map(\.id)) super=\(v.superlayer?.id ?? "-") mask=\(v.mask?.id ?? "-")"
        + " owner=\(v.maskOwner?.id ?? "-") layer=\(v.model.layer)"
    }
  }

  @Test func cancelRestoresEveryLayerPropertyAndTheTree() throws {
    let trees = TestTrees()
    trees.placeForStart(.presentation, removesPresentersView: false)
    let existing = try trees.scene.makeLayer(id: "existing", kind: .shape)
    existing.path = Path(rect: Rect(x: 0, y: 0, width: 50, height: 50))
    existing.borderColor = Color(r: 1, g: 0, b: 0)
    trees.from.addSublayer(existing)
    let ids = ["container", "from", "fromChild", "to", "toChild", "existing"]
    let start = Self.layerDump(trees.scene, ids)
    let startPresentation = presentationDump(trees.scene, at: 0)
    let transition = trees.transition(.present, animator: LayerSceneAnimator(), interactive: true)
    var outcomes: [TransitionOutcome] = []
    transition.onEnd = { outcomes.append($0) }
    try transition.start()

    // Scrubbing: at 40 % the reveal's ellipse is the blend of its two rectangles, the card's shadow at 0.4.
    _ = try transition.update(percent: 0.4)
    let states = trees.scene.presentation(at: transition.time)
    let reveal = try #require(states.first { $0.maskOwnerID == "to" })
    let r = Rect(x: 195 - 695 * 0.4, y: 395 - 895 * 0.4, width: 10 + 1390 * 0.4, height: 10 + 1790 * 0.4)
    #expect(PathTests.close(PathTests.points(reveal.layer.path), PathTests.ellipsePoints(r), 1e-9))
    #expect(modelClose(try #require(states.first { $0.id == "card" }).layer.shadowOpacity, 0.4))
    #expect(states.map(\.id).firstIndex(of: "card")! < states.map(\.id).firstIndex(of: "existing")!)
    _ = try transition.update(percent: 0.7)
    let later = trees.scene.presentation(at: transition.time).first { $0.id == "existing" }
    #expect(modelClose(later?.cornerRadius ?? -1, 21) && modelClose(later?.layer.strokeEnd ?? -1, 0.3))

    try transition.cancel()
    for _ in 0..<100 where outcomes.isEmpty { try transition.advance(by: 0.05) }
    #expect(outcomes == [.cancelled(reason: nil)])
    #expect(Self.layerDump(trees.scene, ids) == start)
    #expect(existing.maskedCorners == .all && existing.lineDashPattern == nil && existing.content == nil)
    #expect(existing.layerKind == .shape && trees.to.mask == nil)
    #expect(presentationDump(trees.scene, at: trees.scene.currentTime) == startPresentation)
    #expect(!trees.scene.presentation(at: trees.scene.currentTime).contains { $0.id.hasPrefix("card") })
  }
}

// MARK: - What a UIView block animates

@Suite struct ViewBlockAnimatableKeysTests {
  /// UIView.animate animates frame, bounds, center, transform, alpha, backgroundColor and (iOS 11) cornerRadius of
  /// a view; any other layer property written in the block (border, shadow, shadowPath) changes at once: at 30 % of a
  /// 1 s linear block the animated keys are 30 % of the way, the others at their end values.
  @Test func aViewBlockAnimatesOnlyUIKitsKeysOfAViewsLayer() throws {
    let h = ModelHarness()
    let card = h.view("card", Rect(x: 0, y: 0, width: 100, height: 100))
    card.borderColor = Color(r: 1, g: 0, b: 0, a: 1)
    let endPath = Path(roundedRect: Rect(x: 0, y: 0, width: 100, height: 100), cornerRadius: 20)
    h.scene.advance(to: 1)
    h.scene.animate(duration: 1, timing: .curve(.linear)) {
      card.cornerRadius = 20
      card.alpha = 0.5
      card.backgroundColor = Color(r: 0, g: 1, b: 0, a: 1)
      card.position = Point(x: 150, y: 50)
      card.borderColor = Color(r: 0, g: 0, b: 1, a: 1)
      card.borderWidth = 5
      card.shadowOpacity = 0.8
      card.shadowRadius = 12
      card.shadowPath = endPath
    }
    let s = try #require(h.scene.presentation(at: 1.3).first { $0.id == "card" })
    #expect(modelClose(s.cornerRadius, 20 * 0.3))
    #expect(modelClose(s.alpha, 1 - 0.5 * 0.3))
    #expect(modelClose(s.position.x, 50 + 100 * 0.3) && modelClose(s.position.y, 50))
    // backgroundColor from none: the colour fades in (its alpha blends from 0).
    #expect(modelClose(s.backgroundColor?.a ?? -1, 0.3))
    #expect(s.layer.borderColor == Color(r: 0, g: 0, b: 1, a: 1))
    #expect(s.layer.borderWidth == 5)
    #expect(s.layer.shadowOpacity == 0.8)
    #expect(s.layer.shadowRadius == 12)
    #expect(s.layer.shadowPath == endPath)
    // Nothing but the block's own animations is left to end.
    #expect(card.attachedAnimations.isEmpty)
  }

  /// A layer that is not a view does not follow a block: once it has been on screen (a turn after it was added), a
  /// write runs its implicit action — the transaction's duration (0.25 s) and timing function (Core Animation's
  /// default, (0.25, 0.1, 0.25, 1)) — whatever the block's; a layer made in the block's own turn changes at once.
  @Test func aLayerInABlockRunsItsImplicitActionInstead() throws {
    let h = ModelHarness()
    let old = try h.scene.makeLayer(id: "old")
    h.scene.container.addSublayer(old)
    h.scene.advance(to: 1)
    let new = try h.scene.makeLayer(id: "new", kind: .shape)
    h.scene.container.addSublayer(new)
    let circle = Path(ellipseIn: Rect(x: 0, y: 0, width: 10, height: 10))
    h.scene.animate(duration: 2, timing: .curve(.linear)) {
      old.shadowOpacity = 1
      new.path = circle
    }
    for t in [0.05, 0.1, 0.2] {
      let expected = LayerPropertyInterpolationTests.bezier(0.25, 0.1, 0.25, 1, t / 0.25)
      let s = try #require(h.scene.presentation(at: 1 + t).first { $0.id == "old" })
      #expect(modelClose(s.layer.shadowOpacity, expected, 1e-6), "t = \(t)")
    }
    #expect(h.scene.presentation(at: 1.25).first { $0.id == "old" }?.layer.shadowOpacity == 1)
    #expect(h.scene.presentation(at: 1.01).first { $0.id == "new" }?.layer.path == circle)
  }
}
