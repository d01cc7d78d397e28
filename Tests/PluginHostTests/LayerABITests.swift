import CTransitionABI
import PluginHost
import TestSupport
import Testing
import TransitionEngine

/// ABI 1.3's layers from C (TestPluginLayersC): "reveal" builds a card with a border, a shadow along a shadowPath,
/// a circular CAShapeLayer mask, a radial gradient layer, a plain layer and a dashed shape layer through
/// "th.layers/1" and animates them in one linear 1 s block; "misuse" makes each kind of bad call. Expectations are
/// hand-derived: linear blends of the written values, CGPath's ellipse and arc structure (handle 4/3·tan(θ/4)·r).
@Suite struct LayerABITests {
  static let pluginID = "com.example.test.layers.c"

  /// The LayersC fixture loaded; its animators run as the host runs them.
  static func makeHost() throws -> FixtureAnimatorHost {
    try FixtureAnimatorHost(fixture: "LayersC", pluginID: pluginID)
  }

  /// The points of a path's elements, in order (controls, then the end point).
  private func points(_ path: Path?) -> [Point] {
    (path?.elements ?? []).flatMap { e -> [Point] in
      switch e {
      case .move(let p), .line(let p): [p]
      case .quadCurve(let p, let c): [c, p]
      case .curve(let p, let c1, let c2): [c1, c2, p]
      case .closeSubpath: []
      }
    }
  }

  private func near(_ a: Point, _ b: Point, _ tolerance: Double = 1e-9) -> Bool {
    abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
  }

  @Test func theHostSpeaksABI13AndOffersTheExtension() {
    #expect(ABIVersion.host == ABIVersion(major: 1, minor: 3))
  }

  @Test func theCardsBorderShadowAndCornersBlendLinearly() throws {
    let host = try Self.makeHost()
    let run = try host.run("reveal")
    #expect(host.notes("reveal") == ["sublayers: badge shade ring"])
    for t in [0.0, 0.25, 0.5, 0.8] {
      let to = try #require(try run.state("to", at: t))
      #expect(close(to.cornerRadius, 20 * t))
      #expect(close(to.layer.borderWidth, 2))
      #expect(to.layer.borderColor == Color(r: 1 - t, g: 0, b: t, a: 1), "borderColor at \(t)")
      #expect(close(to.layer.shadowOpacity, 0.5 * t))
      #expect(close(to.layer.shadowRadius, 4))
      #expect(to.layer.shadowOffset == Size(width: 0, height: 6))
      #expect(to.layer.maskedCorners == [.minXMinY, .maxXMinY])
      // Rounded rectangles of radius 0 and 20 share their structure, so the path at t is the one of radius 20·t:
      // it starts on the top side at x = r.
      let shadow = points(to.layer.shadowPath)
      #expect(shadow.count == 1 + 4 + 4 * 3)
      #expect(shadow.first.map { near($0, Point(x: 20 * t, y: 0)) } == true, "shadowPath start at \(t)")
      #expect(to.maskID == "reveal")
    }
    #expect(try run.run() == .completed)
    #expect(run.misbehaviors.isEmpty)
  }

  @Test func theMaskIsACircleGrowingFromTheCentre() throws {
    let host = try Self.makeHost()
    let run = try host.run("reveal")
    let full = (400.0 * 400 + 800 * 800).squareRoot() / 2
    let k = 4.0 / 3.0 * (2.0.squareRoot() - 1)
    for t in [0.1, 0.5, 0.9] {
      let mask = try #require(try run.state("reveal", at: t))
      #expect(mask.maskOwnerID == "to")
      #expect(mask.parentID == "to")
      #expect(mask.kindName == "shape")
      let r = full * t
      let elements = mask.layer.path?.elements ?? []
      #expect(elements.map(\.kind) == [.move, .curve, .curve, .curve, .curve, .closeSubpath])
      // Every end point is on the circle's axes, every control point a handle k·r off an axis point.
      let ends = elements.dropFirst().dropLast().compactMap { e -> Point? in
        if case .curve(let p, _, _) = e { return p }
        return nil
      }
      let axes = [
        Point(x: 200 + r, y: 400), Point(x: 200, y: 400 + r), Point(x: 200 - r, y: 400), Point(x: 200, y: 400 - r),
      ]
      #expect(ends.allSatisfy { p in axes.contains { near($0, p, 1e-9) } }, "ends at \(t)")
      let controls = elements.compactMap { e -> [Point]? in
        if case .curve(_, let c1, let c2) = e { return [c1, c2] }
        return nil
      }.flatMap { $0 }
      for c in controls {
        let dx = abs(c.x - 200)
        let dy = abs(c.y - 400)
        #expect((close(dx, r, 1e-9) && close(dy, k * r, 1e-9)) || (close(dx, k * r, 1e-9) && close(dy, r, 1e-9)))
      }
    }
  }

  @Test func sublayersKeepTheirKindsAndMembers() throws {
    let host = try Self.makeHost()
    let run = try host.run("reveal")
    let shade = try #require(try run.state("shade", at: 0.5))
    #expect(shade.kindName == "gradient")
    #expect(shade.isView == false)
    #expect(shade.parentID == "to")
    #expect(shade.layer.gradientType == .radial)
    #expect(shade.frame == Rect(x: 0, y: 0, width: 400, height: 400))
    let badge = try #require(try run.state("badge", at: 0.5))
    #expect(badge.kindName == "layer")
    #expect(badge.frame == Rect(x: 30, y: 30, width: 40, height: 40))
    #expect(badge.backgroundColor == Color(r: 0, g: 1, b: 0, a: 1))
    let ring = try #require(try run.state("ring", at: 0.5))
    #expect(close(ring.layer.strokeEnd, 0.5))
    #expect(ring.layer.lineDashPattern == [4, 2])
    #expect(ring.layer.fillRule == .evenOdd)
    #expect(ring.layer.fillColor == nil)
    #expect(ring.layer.strokeColor == Color(r: 1, g: 1, b: 1, a: 1))
    #expect(close(ring.layer.lineWidth, 3))
    // A half turn (0 → π, increasing) of radius 40 about (50, 50): a move to (90, 50) and two quarter cubics with
    // handles h = 4/3·tan(π/8)·40 = 4/3·(√2 − 1)·40 along the tangents.
    let h = 4.0 / 3.0 * (2.0.squareRoot() - 1) * 40
    let arc = points(ring.layer.path)
    let expected = [
      Point(x: 90, y: 50), Point(x: 90, y: 50 + h), Point(x: 50 + h, y: 90), Point(x: 50, y: 90),
      Point(x: 50 - h, y: 90), Point(x: 10, y: 50 + h), Point(x: 10, y: 50),
    ]
    #expect(arc.count == expected.count)
    #expect(zip(arc, expected).allSatisfy { near($0, $1, 1e-9) }, "\(arc)")
    // Drawing order: the to view, its mask, then its sublayers as the plugin ordered them.
    let order = try run.transition.sample(time: 0.5).map(\.id)
    #expect(order.suffix(5) == ["to", "reveal", "badge", "shade", "ring"])
  }

  @Test func aCancelRestoresTheLayersAndTheTree() throws {
    let host = try Self.makeHost()
    let run = try host.run("reveal", interactive: true)
    try run.transition.update(percent: 0.5)
    #expect(close((try run.state("to", at: run.transition.time))?.layer.shadowOpacity, 0.25))
    try run.transition.cancel(curve: .linear)
    #expect(try run.run() == .cancelled(reason: nil))
    #expect(run.to.borderWidth == 0)
    #expect(run.to.borderColor == Color(r: 0, g: 0, b: 0, a: 1))
    #expect(run.to.shadowOpacity == 0)
    #expect(run.to.shadowPath == nil)
    #expect(run.to.mask == nil)
    #expect(run.to.sublayers.isEmpty)
    #expect(run.to.maskedCorners == .all)
    #expect(run.containerSubviews == ["from"])
  }

  @Test func misuseReturnsItsStatusAndIsReported() throws {
    let host = try Self.makeHost()
    let run = try host.run("misuse")
    #expect(
      host.notes("misuse") == [
        "make_layer(kind 9) -> TH_ERR_UNSUPPORTED",
        "make_layer(NULL out) -> TH_ERR_INVALID_ARGUMENT",
        "make_layer -> TH_OK",
        "add_sublayer(a view) -> TH_ERR_INVALID_TREE",
        "add_sublayer -> TH_OK",
        "add_sublayer(into a layer) -> TH_OK",
        "add_sublayer(cycle) -> TH_ERR_INVALID_TREE",
        "insert_sublayer_below(not a sublayer) -> TH_ERR_INVALID_TREE",
        "set_mask(container) -> TH_ERR_INVALID_TREE",
        "set_mask(own superlayer) -> TH_ERR_INVALID_TREE",
        "set_layer_class(a layer) -> TH_ERR_INVALID_VALUE",
        "set_number(shadowOpacity 2) -> TH_ERR_INVALID_VALUE",
        "set_number(borderWidth -1) -> TH_ERR_INVALID_VALUE",
        "set_number(maskedCorners 16) -> TH_ERR_INVALID_VALUE",
        "set_number(fillRule 0.5) -> TH_ERR_INVALID_VALUE",
        "set_number(borderColor) -> TH_ERR_TYPE_MISMATCH",
        "set_bool(shadowRadius) -> TH_ERR_TYPE_MISMATCH",
        "set_path(alpha) -> TH_ERR_TYPE_MISMATCH",
        "set_path(property 99) -> TH_ERR_UNSUPPORTED",
        "set_path(NaN point) -> TH_ERR_INVALID_VALUE",
        "set_path(kind 42) -> TH_ERR_INVALID_VALUE",
        "set_path(NULL elements) -> TH_ERR_INVALID_ARGUMENT",
        "set_line_dash_pattern(-1) -> TH_ERR_INVALID_VALUE",
        "path_shape(radius -1) -> TH_ERR_INVALID_VALUE",
        "path_shape(capacity 4) -> TH_ERR_LIMIT",
        "path_shape(kind 7) -> TH_ERR_UNSUPPORTED",
        "sublayer_at(past the end) -> TH_ERR_INVALID_VALUE",
        "remove_from_superlayer(container) -> TH_ERR_INVALID_TREE",
      ])
    #expect(try run.run() == .completed)
    // Each refusal that is misuse is reported (path_shape has no context to report to).
    #expect(run.misbehaviors.count == 22)
  }
}
