// What reusing a layer's sampled layer-only values must not change (`LayerBoxSpares`): a sample's box is taken back two
// samples later only when no one holds it, and then only the members animated into it are set to the model's again.
// Expected values are the linear blends of the animations' ends, written here (a + (b − a)·t), and the model values
// the test set.
import TestSupport
import Testing

@testable import TransitionEngine

@Suite struct LayerBoxReuseTests {
  private static let startShadow = Path(rect: Rect(x: 0, y: 0, width: 36, height: 36))
  private static let endShadow = Path(rect: Rect(x: -4, y: -4, width: 44, height: 44))

  /// A view with a border and shadow whose shadowOpacity (0 → 0.5), shadowRadius (3 → 8) and shadowPath animate over
  /// 1 s, linearly (CABasicAnimations, fromValue and toValue); the model holds the end values. A view, so that model
  /// writes during the test change the model at once (a layer that is not a view would animate them implicitly).
  private func card() -> (ModelHarness, View) {
    let h = ModelHarness()
    let card = h.view("card", Rect(x: 0, y: 0, width: 36, height: 36))
    card.borderWidth = 2
    card.borderColor = Color(r: 1, g: 0, b: 0)
    card.shadowOpacity = 0.5
    card.shadowRadius = 8
    card.shadowPath = Self.endShadow
    func animate(_ keyPath: String, _ from: AnimationValue, _ to: AnimationValue) {
      var animation = ExplicitAnimation.basic(keyPath, from: from, to: to)
      animation.timing.duration = 1
      animation.timingFunction = .linear
      card.add(animation, forKey: keyPath)
    }
    animate("shadowOpacity", .number(0), .number(0.5))
    animate("shadowRadius", .number(3), .number(8))
    animate("shadowPath", .path(Self.startShadow), .path(Self.endShadow))
    return (h, card)
  }

  private func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-12 }

  /// The card's layer values at t, with `radius` the expected shadowRadius (the animation's unless it was removed).
  private func expectCard(
    _ state: ViewState?, at t: Double, radius: Double? = nil, borderWidth: Double = 2,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard let layer = state?.layer else {
      Issue.record("no card at \(t)", sourceLocation: sourceLocation)
      return
    }
    #expect(near(layer.shadowOpacity, 0.5 * t), "shadowOpacity at \(t)", sourceLocation: sourceLocation)
    #expect(near(layer.shadowRadius, radius ?? 3 + 5 * t), "shadowRadius at \(t)", sourceLocation: sourceLocation)
    #expect(layer.borderWidth == borderWidth, "borderWidth at \(t)", sourceLocation: sourceLocation)
    #expect(layer.borderColor == Color(r: 1, g: 0, b: 0), sourceLocation: sourceLocation)
    // The rectangle's corners move from (0, 0)–(36, 36) to (−4, −4)–(40, 40).
    let corners = (layer.shadowPath?.elements ?? []).flatMap(\.points)
    #expect(corners.count == 4, "shadowPath at \(t)", sourceLocation: sourceLocation)
    let low = -4 * t
    let high = 36 + 4 * t
    for p in corners {
      #expect(
        (near(p.x, low) || near(p.x, high)) && (near(p.y, low) || near(p.y, high)), "corner \(p) at \(t)",
        sourceLocation: sourceLocation)
    }
  }

  /// Samples kept while later ones are taken keep their own values: a box someone holds is never written.
  @Test func keptSamplesKeepTheirValues() {
    let (h, _) = card()
    var buffer: [ViewState] = []
    var kept: [(Double, ViewState?)] = []
    for k in 1...9 {
      let t = Double(k) / 10
      h.scene.presentation(at: t, into: &buffer)
      kept.append((t, buffer.first { $0.id == "card" }))
    }
    for (t, state) in kept { expectCard(state, at: t) }
  }

  /// Samples nobody keeps show each time's values, back and forth, and their box is the one of two samples back (taken
  /// back, not made again); the model's values are untouched.
  @Test func unkeptBoxesAreTakenBack() {
    let (h, card) = card()
    var buffer: [ViewState] = []
    var boxes: [ObjectIdentifier?] = []
    for t in [0.5, 0.25, 0.75, 0.125, 0.875, 0.5, 0.3, 0.6, 0.9] {
      h.scene.presentation(at: t, into: &buffer)
      let state = buffer.first { $0.id == "card" }
      expectCard(state, at: t)
      boxes.append(state?.layerBox.map(ObjectIdentifier.init))
    }
    for k in 2..<boxes.count { #expect(boxes[k] != nil && boxes[k] == boxes[k - 2], "sample \(k)") }
    #expect(boxes[0] != boxes[1])
    #expect(card.model.shadowOpacity == 0.5 && card.model.shadowRadius == 8 && card.model.shadowPath == Self.endShadow)
    #expect(card.model.borderWidth == 2)
  }

  /// A model change between samples reaches the next samples (the box under the animations is a new one).
  @Test func modelChangesReachTheNextSamples() {
    let (h, card) = card()
    var buffer: [ViewState] = []
    for t in [0.1, 0.2, 0.3] {
      h.scene.presentation(at: t, into: &buffer)
      expectCard(buffer.first { $0.id == "card" }, at: t)
    }
    card.borderWidth = 5
    for t in [0.4, 0.5, 0.6, 0.7] {
      h.scene.presentation(at: t, into: &buffer)
      expectCard(buffer.first { $0.id == "card" }, at: t, borderWidth: 5)
    }
  }

  /// A member an animation wrote into a box two samples back, whose animation is gone now, shows the model's value
  /// again (only the animated members are reset, so the reset must cover those written before).
  @Test func aRemovedAnimationsMemberReturnsToTheModel() {
    let (h, card) = card()
    var buffer: [ViewState] = []
    for t in [0.1, 0.2, 0.3, 0.4] {
      h.scene.presentation(at: t, into: &buffer)
      expectCard(buffer.first { $0.id == "card" }, at: t)
    }
    card.removeAnimation(forKey: "shadowRadius")
    for t in [0.5, 0.6, 0.7, 0.8] {
      h.scene.presentation(at: t, into: &buffer)
      expectCard(buffer.first { $0.id == "card" }, at: t, radius: 8)
    }
  }

  /// Two scenes' worth of samples held at once (a delta baseline and the frame after it) and dropped in turn: every
  /// sample, reused box or not, shows its own time.
  @Test func alternatingHoldersSeeTheirOwnSamples() {
    let (h, _) = card()
    var previous: [ViewState] = []
    var current: [ViewState] = []
    for k in 1...12 {
      let t = Double(k % 7 + 1) / 10
      h.scene.presentation(at: t, into: &current)
      expectCard(current.first { $0.id == "card" }, at: t)
      if k > 1 { expectCard(previous.first { $0.id == "card" }, at: Double((k - 1) % 7 + 1) / 10) }
      swap(&previous, &current)
    }
  }
}
