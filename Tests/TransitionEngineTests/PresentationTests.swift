// The presentation tree: drawing order, zIndex, composited opacity, purity, buffers.
import Testing
import TransitionEngine

@Suite struct PresentationTests {
  @Test func drawingOrderSortsSiblingsByZPositionStably() {
    let h = ModelHarness()
    let a = h.view("a", .zero)
    let b = h.view("b", .zero)
    let c = h.view("c", .zero)
    _ = h.view("a1", .zero, in: a)
    _ = h.view("a2", .zero, in: a)
    b.zPosition = -1
    _ = c
    let states = h.scene.presentation(at: 0)
    // b (z −1) first, then a and its subtree, then c (a and c tie at 0 and keep their order).
    #expect(states.map(\.id) == ["container", "b", "a", "a1", "a2", "c"])
    #expect(states.map(\.zIndex) == [0, 1, 2, 3, 4, 5])
    #expect(states.map(\.parentID) == [nil, "container", "container", "a", "a", "container"])
  }

  @Test func animatedZPositionReordersMidAnimation() {
    let h = ModelHarness()
    let a = h.view("a", .zero)
    _ = h.view("b", .zero)
    h.scene.animate(duration: 1, timing: .curve(.linear)) { a.zPosition = 2 }
    #expect(h.scene.presentation(at: 0).map(\.id) == ["container", "a", "b"])
    // At 0.5 a's presented zPosition is 1 > 0.
    #expect(h.scene.presentation(at: 0.5).map(\.id) == ["container", "b", "a"])
  }

  @Test func opacityCompositesAlphasAndHiding() {
    let h = ModelHarness()
    let a = h.view("a", .zero)
    let b = h.view("b", .zero, in: a)
    let c = h.view("c", .zero, in: b)
    a.alpha = 0.5
    b.alpha = 0.5
    c.alpha = 1.5  // stored as written; composited clamped to 1
    var s = h.scene.presentation(at: 0)
    #expect(s.first { $0.id == "b" }?.opacity == 0.25)
    #expect(s.first { $0.id == "c" }?.opacity == 0.25)
    #expect(s.first { $0.id == "c" }?.alpha == 1.5)
    b.isHidden = true
    s = h.scene.presentation(at: 0)
    #expect(s.first { $0.id == "a" }?.opacity == 0.5)
    #expect(s.first { $0.id == "b" }.map { ($0.opacity, $0.isHidden) } ?? (1, false) == (0, true))
    #expect(s.first { $0.id == "c" }.map { ($0.opacity, $0.isHidden) } ?? (1, true) == (0, false))
  }

  @Test func entriesCarryEveryPresentedField() throws {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 10, y: 20, width: 100, height: 50))
    v.backgroundColor = Color(r: 0, g: 0, b: 1)
    v.cornerRadius = 6
    v.clipsToBounds = true
    v.gradient = Gradient(colors: [.black, .white])
    v.sublayerTransform = modelPerspective(800)
    let snap = v.snapshotView()
    h.scene.container.addSubview(snap)
    h.scene.animate(duration: 1, timing: .curve(.linear)) {
      v.backgroundColor = Color(r: 1, g: 0, b: 1)
      v.cornerRadius = 10
    }
    let s = try #require(h.state("v", at: 0.5))
    #expect(s.frame == Rect(x: 10, y: 20, width: 100, height: 50))
    #expect(s.bounds == Rect(x: 0, y: 0, width: 100, height: 50))
    #expect(s.position == Point(x: 60, y: 45))
    #expect(s.anchorPoint == Point(x: 0.5, y: 0.5))
    #expect(s.transform == .identity)
    #expect(s.sublayerTransform == modelPerspective(800))
    #expect(s.boundingBox == Rect(x: 10, y: 20, width: 100, height: 50))
    #expect(modelProject(s.worldTransform, 100, 50) == (110, 70, 1))
    #expect(s.backgroundColor == Color(r: 0.5, g: 0, b: 1))
    #expect(s.cornerRadius == 8)
    #expect(s.clipsToBounds)
    #expect(s.gradient == Gradient(colors: [.black, .white]))
    #expect(s.snapshotOf == nil)
    #expect(h.state(snap.id, at: 0.5)?.snapshotOf == "v")
  }

  @Test func backgroundColourFromNoneFadesTheColourIn() {
    let h = ModelHarness()
    let v = h.view("v", .zero)
    h.scene.animate(duration: 1, timing: .curve(.linear)) { v.backgroundColor = Color(r: 1, g: 0.5, b: 0) }
    #expect(h.state("v", at: 0)?.backgroundColor == nil)
    #expect(h.state("v", at: 0.5)?.backgroundColor == Color(r: 1, g: 0.5, b: 0, a: 0.5))
    #expect(h.state("v", at: 1)?.backgroundColor == Color(r: 1, g: 0.5, b: 0))
  }

  @Test func gradientAppearsHalfwayAndKeyframedColoursTreatNoneAsClear() {
    let h = ModelHarness()
    let v = h.view("v", .zero)
    let g = Gradient(colors: [.black, .white])
    h.scene.animate(duration: 1, timing: .curve(.linear)) { v.gradient = g }
    // Nothing to blend between no gradient and one: CSS's discrete rule, switching at 0.5.
    #expect(h.state("v", at: 0.49)?.gradient == nil)
    #expect(h.state("v", at: 0.5)?.gradient == g)
    let w = h.view("w", .zero)
    h.scene.animateKeyframes(duration: 1, timing: .curve(.linear)) {
      h.scene.addKeyframe(relativeStart: 0, relativeDuration: 1) { w.backgroundColor = Color(r: 1, g: 1, b: 1) }
    }
    #expect(h.state("w", at: 0.25)?.backgroundColor == Color(r: 0.25, g: 0.25, b: 0.25, a: 0.25))
  }

  @Test func samplingIsPureAndRepeatable() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    var fired = false
    h.scene.animate(duration: 1) {
      v.transform = modelRotationY(0.7)
    } completion: { _ in
      fired = true
    }
    let late = h.scene.presentation(at: 5)
    let mid = h.scene.presentation(at: 0.4)
    #expect(!fired && h.scene.hasPendingWork && h.scene.currentTime == 0)
    #expect(v.transform == modelRotationY(0.7))
    var buffer: [ViewState] = []
    h.scene.presentation(at: 0.4, into: &buffer)
    #expect(buffer == mid)
    h.scene.presentation(at: 5, into: &buffer)
    #expect(buffer == late)
    #expect(h.scene.presentedValues(of: v, at: 0.4).transform == mid[1].transform)
    // Transforms interpolate by decomposition: halfway through a rotation about y is the half rotation.
    let halfway = modelRotationY(0.35)
    let sampled = h.scene.presentedValues(of: v, at: 0.5).transform
    for (a, b) in zip(sampled.values, halfway.values) { #expect(modelClose(a, b, 1e-12)) }
  }

  @Test func detachedViewsAreNotPresented() throws {
    let h = ModelHarness()
    _ = try h.scene.makeView(id: "loose")
    #expect(h.scene.presentation(at: 0).map(\.id) == ["container"])
  }
}
