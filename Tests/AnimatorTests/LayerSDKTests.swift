// Core Animation layers through the SDK's UIKit names (TestPluginLayersUIKit, loaded with dlopen as a real plugin
// is): a page turn (a CAGradientLayer shadow sublayer under the container's m34 perspective, UIView.animate of the
// page's transform) and a card (cornerRadius, borderColor, shadowOpacity, shadowPath; a CAShapeLayer of a
// CGMutablePath; UIView.mask). Expected values are worked out here: the projection of the page's corner written out
// as row vectors, linear blends of the written values, CGPath's arc structure.

import PluginHost
import TestSupport
import Testing
import TransitionEngine

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct LayerSDKTests {
  static let pluginID = "com.example.test.layers.uikit"

  final class Run {
    let log = LogCapture()
    let base: PluginTransitionRun

    init(_ id: String, _ operation: TransitionOperation, interactive: Bool = false) throws {
      let scene = Scene(containerSize: Size(width: 400, height: 800))
      let fromView = try makeView(scene, "from", Rect(x: 0, y: 0, width: 400, height: 800))
      let toView = try makeView(scene, "to", Rect(x: 0, y: 0, width: 400, height: 800))
      scene.container.addSubview(fromView)
      let registry = try TestSupport.registry(loadingFixtures: ["LayersUIKit"], log: log)
      base = try PluginTransitionRun(
        registry, id, scene: scene, from: fromView, to: toView, operation: operation,
        options: TransitionOptions(isInteractive: interactive))
      try base.start()
    }

    func notes() -> [String] {
      log.records.filter { $0.message.hasPrefix("note: ") }.map { String($0.message.dropFirst(6)) }
    }

    func state(_ id: String, at t: Double) throws -> ViewState {
      try #require(try base.state(id, at: t), "no entry \(id) at \(t)")
    }
  }

  /// (u, v) of a view's bounds through its world matrix, divided by w.
  private func project(_ m: Transform3D, _ u: Double, _ v: Double) -> (Double, Double) {
    let w = u * m.m14 + v * m.m24 + m.m44
    return ((u * m.m11 + v * m.m21 + m.m41) / w, (u * m.m12 + v * m.m22 + m.m42) / w)
  }

  /// The page's corner (u, v) at turn angle θ: about its left edge (anchor (0, 0.5) at (0, 400)), rotated about y,
  /// then the container's perspective about its centre (200, 400) with m34 = −1/500.
  private func expectedCorner(_ u: Double, _ v: Double, angle θ: Double) -> (Double, Double) {
    let x = u * cos(θ)
    let z = -u * sin(θ)
    let w = 1 + z * (-1.0 / 500)
    return ((x - 200) / w + 200, (v - 400) / w + 400)
  }

  @Test func thePageTurnsUnderPerspectiveWithItsGradientShadow() throws {
    let run = try Run("page-turn", .push)
    #expect(run.notes() == ["sublayers 1, gradient 2 colours", "superlayer is the page true"])
    let page = try #require(run.base.scene.view(withID: "from"))
    let shadowID = try #require(page.sublayers.first?.id)
    for t in [0.2, 0.5, 0.9] {
      let from = try run.state("from", at: t)
      for (u, v) in [(400.0, 0.0), (400.0, 800.0), (0.0, 0.0)] {
        let (x, y) = project(from.worldTransform, u, v)
        let (ex, ey) = expectedCorner(u, v, angle: -Double.pi / 2 * t)
        #expect(abs(x - ex) < 1e-9 && abs(y - ey) < 1e-9, "corner (\(u), \(v)) at \(t): (\(x), \(y)) vs (\(ex), \(ey))")
      }
      let shadow = try run.state(shadowID, at: t)
      #expect(shadow.kindName == "gradient")
      #expect(shadow.parentID == "from")
      #expect(abs(shadow.opacity - t) < 1e-9)
      #expect(shadow.gradient?.colors == [Color(r: 0, g: 0, b: 0, a: 0), Color(r: 0, g: 0, b: 0, a: 0.5)])
      #expect(shadow.gradient?.startPoint == Point(x: 0, y: 0.5))
      #expect(shadow.gradient?.endPoint == Point(x: 1, y: 0.5))
      // Its frame is the page's bounds, so it maps as the page does.
      let (sx, sy) = project(shadow.worldTransform, 400, 0)
      let (px, py) = project(from.worldTransform, 400, 0)
      #expect(abs(sx - px) < 1e-9 && abs(sy - py) < 1e-9)
    }
    #expect(try run.base.run() == .completed)
    #expect(page.sublayers.isEmpty)
    #expect(run.base.misbehaviors.isEmpty)
  }

  @Test func aScrubbedPageTurnCancelsBackToTheStart() throws {
    let run = try Run("page-turn", .push, interactive: true)
    try run.base.transition.update(percent: 0.3)
    let from = try run.state("from", at: run.base.transition.time)
    let (x, y) = project(from.worldTransform, 400, 0)
    let (ex, ey) = expectedCorner(400, 0, angle: -Double.pi / 2 * 0.3)
    #expect(abs(x - ex) < 1e-9 && abs(y - ey) < 1e-9)
    try run.base.transition.cancel(curve: .linear)
    #expect(try run.base.run() == .cancelled(reason: nil))
    let page = try #require(run.base.scene.view(withID: "from"))
    #expect(page.sublayers.isEmpty)
    #expect(page.anchorPoint == Point(x: 0.5, y: 0.5))
    #expect(page.transform == .identity)
    #expect(run.base.scene.container.sublayerTransform == .identity)
    #expect(run.base.containerSubviews == ["from"])
  }

  /// The card scrubbed to 40 %: the block's cornerRadius and the CABasicAnimations' borderColor and shadowOpacity are
  /// all 40 % of the way (linear, 1 s); a cancel puts every layer property, the badge sublayer and the mask back.
  @Test func aScrubbedCardCancelsEveryLayerPropertyBack() throws {
    let run = try Run("card", .present, interactive: true)
    try run.base.transition.update(percent: 0.4)
    let card = try run.state("to", at: run.base.transition.time)
    #expect(abs(card.cornerRadius - 16 * 0.4) < 1e-9)
    let border = try #require(card.layer.borderColor)
    #expect(abs(border.r - 0.6) < 1e-9 && border.g == 0 && abs(border.b - 0.4) < 1e-9 && border.a == 1)
    #expect(abs(card.layer.shadowOpacity - Double(Float(0.4)) * 0.4) < 1e-12)
    try run.base.transition.cancel(curve: .linear)
    #expect(try run.base.run() == .cancelled(reason: nil))
    let to = try #require(run.base.scene.view(withID: "to"))
    #expect(to.cornerRadius == 0 && to.borderWidth == 0 && to.shadowOpacity == 0 && to.shadowPath == nil)
    #expect(to.borderColor == Color(r: 0, g: 0, b: 0, a: 1))  // CALayer's default border colour
    #expect(to.sublayers.isEmpty && to.mask == nil)
    #expect(to.animationKeys() == nil)
  }

  @Test func theCardsLayerMembersBlendAndTheSDKReadsThemBack() throws {
    let run = try Run("card", .present)
    #expect(
      run.notes() == [
        "shadow 10.0 (0.0, 4.0) 0.0", "corners 3", "badge path true dashes [4.0, 2.0]", "badge fill true rule true",
        "mask is the view true",
      ])
    let to = try #require(run.base.scene.view(withID: "to"))
    let maskID = try #require(to.mask?.id)
    let badgeID = try #require(to.sublayers.first?.id)
    for t in [0.25, 0.5, 0.75] {
      let card = try run.state("to", at: t)
      #expect(abs(card.cornerRadius - 16 * t) < 1e-9)
      #expect(card.layer.borderColor == Color(r: 1 - t, g: 0, b: t, a: 1))
      // shadowOpacity is a Float, as Core Animation's: 0.4 is written as Float(0.4).
      #expect(abs(card.layer.shadowOpacity - Double(Float(0.4)) * t) < 1e-12)
      #expect(card.layer.shadowRadius == 10)
      #expect(card.layer.shadowOffset == Size(width: 0, height: 4))
      #expect(card.layer.maskedCorners == [.minXMinY, .maxXMinY])
      // The shadowPath is the rounded rectangle of radius 16·t: it starts on the top side at x = r.
      if case .move(let p) = card.layer.shadowPath?.elements.first {
        #expect(abs(p.x - 16 * t) < 1e-9 && p.y == 0)
      } else {
        Issue.record("shadowPath does not start with a move at \(t)")
      }
      #expect(card.maskID == maskID)
    }
    // CGMutablePath's clockwise arc (Core Graphics' sense: decreasing angle on screen) from 0 to π about (30, 30),
    // radius 20: two quarter curves through the top, (30, 10); then a line to the centre and a close.
    let badge = try run.state(badgeID, at: 0.5)
    #expect(badge.kindName == "shape")
    let elements = badge.layer.path?.elements ?? []
    #expect(elements.map(\.kind) == [.move, .curve, .curve, .line, .closeSubpath])
    if elements.count == 5, case .move(let start) = elements[0], case .curve(let top, _, _) = elements[1],
      case .curve(let end, _, _) = elements[2]
    {
      #expect(abs(start.x - 50) < 1e-9 && abs(start.y - 30) < 1e-9)
      #expect(abs(top.x - 30) < 1e-9 && abs(top.y - 10) < 1e-9)
      #expect(abs(end.x - 10) < 1e-9 && abs(end.y - 30) < 1e-12)
    }
    #expect(badge.layer.lineDashPattern == [4, 2])
    #expect(badge.layer.fillRule == .evenOdd)
    #expect(badge.layer.fillColor == nil)
    #expect(try run.base.run() == .completed)
    #expect(run.base.misbehaviors.isEmpty)
  }
}
