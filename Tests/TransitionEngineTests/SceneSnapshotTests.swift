// Capturing and restoring the whole scene (cancel back to the initial state, bit for bit).
import Testing
import TransitionEngine

@Suite struct SceneSnapshotTests {
  @Test func restoreReturnsEveryPropertyAndTheHierarchyBitForBit() throws {
    let h = ModelHarness()
    let from = h.view("from", Rect(x: 1.0 / 3, y: 2.0 / 7, width: 400.0 / 3, height: 299.9))
    let child = h.view("child", Rect(x: 0.1, y: 0.2, width: 0.3, height: 0.7), in: from)
    child.transform = modelRotationY(0.123456789)
    child.alpha = 0.1 + 0.2
    child.backgroundColor = Color(r: 0.1, g: 0.2, b: 0.3, a: 0.4)
    child.gradient = Gradient(colors: [.black, .white], locations: [0.1, 0.9])
    h.scene.container.sublayerTransform = modelPerspective(1600)
    let to = try h.scene.makeView(id: "to")
    to.frame = Rect(x: 0, y: 300, width: 400, height: 300)
    let before = (0..<3).map { h.scene.presentation(at: Double($0) * 0.4) }
    let toBefore = to.model
    let snapshot = h.scene.snapshot()

    // An animator's work: new views, reparenting, animations, chained blocks, immediate writes.
    h.scene.container.addSubview(to)
    let shot = child.snapshotView()
    h.scene.container.addSubview(shot)
    h.scene.animate(duration: 0.8, timing: .spring(Spring(dampingRatio: 0.6, duration: 0.8))) {
      to.frame = h.scene.container.bounds
      from.transform = Transform3D(scaleX: 0.9, y: 0.9)
      child.alpha = 0
      child.backgroundColor = nil
    } completion: { _ in
      h.scene.animateKeyframes(duration: 0.5) {
        h.scene.addKeyframe(relativeStart: 0, relativeDuration: 1) { child.cornerRadius = 30 }
      }
    }
    h.scene.addDriver(duration: 2) { frame in
      frame.set(.cornerRadius, of: from, to: 50 * frame.fraction)
      frame.set(.position, of: child, to: Point(x: 9, y: 9))
    }
    to.addSubview(child)
    from.isHidden = true
    h.scene.advance(to: 0.9)
    h.scene.fireAllPending(finished: true)
    #expect(from.cornerRadius == 50)

    h.scene.restore(snapshot)
    #expect(from.isHidden == false)
    #expect(child.superview === from && to.superview == nil && shot.superview == nil)
    #expect(h.scene.container.subviews.map(\.id) == ["from"])
    #expect(to.model == toBefore)
    for (i, t) in [0.0, 0.4, 0.8].enumerated() {
      #expect(h.scene.presentation(at: t) == before[i])
    }
    #expect(h.scene.presentation(at: 1.5) == before[0])
    #expect(h.scene.presentation(at: 17) == before[0])

    #expect(snapshot.values(of: child)?.alpha == 0.1 + 0.2)
  }

  @Test func restoreStopsDriversButKeepsTheirCompletionsPending() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    let s = h.scene.snapshot()
    var finished: Bool?
    h.scene.addDriver(duration: 1) { frame in
      frame.set(.alpha, of: v, to: 0.5)
    } completion: {
      finished = $0
    }
    h.scene.animate(duration: 1) { v.cornerRadius = 5 }
    h.scene.restore(s)
    #expect(h.state("v", at: 0.5)?.alpha == 1)
    #expect(h.state("v", at: 0.5)?.cornerRadius == 0)
    #expect(h.scene.hasPendingWork)
    h.scene.advance(to: 2)
    #expect(finished == true)
    #expect(v.alpha == 1 && h.state("v", at: 2)?.alpha == 1)
  }

  @Test func restoreWithoutHierarchyKeepsTheTree() {
    let h = ModelHarness()
    let a = h.view("a", Rect(x: 0, y: 0, width: 10, height: 10))
    let b = h.view("b", Rect(x: 0, y: 0, width: 10, height: 10))
    let s = h.scene.snapshot()
    a.addSubview(b)
    a.alpha = 0.5
    h.scene.restore(s, hierarchy: false)
    #expect(b.superview === a)
    #expect(a.alpha == 1)
  }

  /// A snapshot keeps a view's model values only from its first write after the capture: snapshots taken in turn,
  /// with writes before, between and after them, each restore exactly what was there when they were taken.
  @Test func snapshotsTakenInTurnEachRestoreTheirOwnCapture() throws {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    let w = h.view("w", Rect(x: 20, y: 0, width: 10, height: 10))
    let first = h.scene.snapshot()
    v.alpha = 0.25
    let second = h.scene.snapshot()
    v.alpha = 0.5
    w.cornerRadius = 4
    let late = try h.scene.makeView(id: "late")
    late.alpha = 0.75
    #expect(first.values(of: v)?.alpha == 1 && second.values(of: v)?.alpha == 0.25)
    #expect(first.values(of: w)?.cornerRadius == 0 && second.values(of: w)?.cornerRadius == 0)
    #expect(first.values(of: late) == nil && second.values(of: late) == nil)

    h.scene.restore(second)
    #expect(v.alpha == 0.25 && w.cornerRadius == 0 && late.alpha == 0.75)
    v.alpha = 0.125
    w.frame = Rect(x: 1, y: 2, width: 3, height: 4)
    h.scene.restore(first)
    #expect(v.alpha == 1 && w.cornerRadius == 0 && late.alpha == 0.75)
    #expect(w.frame == Rect(x: 20, y: 0, width: 10, height: 10))
    // Restoring again after more writes still has the capture (the journal is not used up).
    v.alpha = 0.5
    h.scene.restore(first)
    #expect(v.alpha == 1)
  }
}
