// Subview order and UIKit's insertion calls, lookup by id, misuse, snapshot views.
import Testing
import TransitionEngine

private func ids(_ v: View) -> [String] { v.subviews.map(\.id) }

@Suite struct ViewHierarchyTests {
  @Test func insertionCallsPlaceViewsLikeUIKit() throws {
    let h = ModelHarness()
    let c = h.scene.container
    let a = try h.scene.makeView(id: "a")
    let b = try h.scene.makeView(id: "b")
    let x = try h.scene.makeView(id: "x")
    let y = try h.scene.makeView(id: "y")
    c.addSubview(a)
    c.addSubview(b)
    #expect(ids(c) == ["a", "b"])
    c.insertSubview(x, belowSubview: b)
    #expect(ids(c) == ["a", "x", "b"])
    c.insertSubview(y, aboveSubview: a)
    #expect(ids(c) == ["a", "y", "x", "b"])
    c.insertSubview(y, belowSubview: a)
    #expect(ids(c) == ["y", "a", "x", "b"])
    c.bringSubviewToFront(y)
    #expect(ids(c) == ["a", "x", "b", "y"])
    c.sendSubviewToBack(b)
    #expect(ids(c) == ["b", "a", "x", "y"])
    // addSubview of a subview moves it to the front.
    c.addSubview(b)
    #expect(ids(c) == ["a", "x", "y", "b"])
    c.insertSubview(b, at: 1)
    #expect(ids(c) == ["a", "b", "x", "y"])
    c.insertSubview(b, at: 99)
    #expect(ids(c) == ["a", "x", "y", "b"])
    c.insertSubview(b, at: -5)
    #expect(ids(c) == ["b", "a", "x", "y"])
    x.removeFromSuperview()
    #expect(ids(c) == ["b", "a", "y"])
    #expect(x.superview == nil)
    // Moving to another parent removes from the old one.
    a.addSubview(y)
    #expect(ids(c) == ["b", "a"])
    #expect(ids(a) == ["y"])
    #expect(y.superview === a)
    #expect(h.misuses.isEmpty)
  }

  @Test func reorderingANonSubviewIsANoOp() throws {
    let h = ModelHarness()
    let a = h.view("a", .zero)
    let loose = try h.scene.makeView(id: "loose")
    h.scene.container.bringSubviewToFront(loose)
    h.scene.container.sendSubviewToBack(loose)
    #expect(ids(h.scene.container) == ["a"])
    #expect(loose.superview == nil)
    _ = a
  }

  @Test func misuseIsReportedAndIgnored() throws {
    let h = ModelHarness()
    let a = h.view("a", .zero)
    let b = h.view("b", .zero, in: a)
    b.addSubview(a)
    a.addSubview(a)
    #expect(b.subviews.isEmpty)
    #expect(a.superview === h.scene.container)
    let other = Scene(containerSize: Size(width: 10, height: 10))
    let foreign = try other.makeView(id: "f")
    a.addSubview(foreign)
    #expect(foreign.superview == nil)
    // A sibling that is not a subview: reported, and the view goes on top as addSubview would.
    let x = try h.scene.makeView(id: "x")
    h.scene.container.insertSubview(x, belowSubview: b)
    #expect(ids(h.scene.container) == ["a", "x"])
    #expect(
      h.misuses == [
        .hierarchyCycle(viewID: "a", superviewID: "b"), .hierarchyCycle(viewID: "a", superviewID: "a"),
        .foreignView(viewID: "f"), .notASubview(viewID: "b", superviewID: "container"),
      ])
  }

  @Test func lookupByID() throws {
    let h = ModelHarness()
    let a = h.view("a", .zero)
    let b = h.view("b", .zero, in: a)
    let loose = try h.scene.makeView(id: "loose")
    #expect(h.scene.container.view(withID: "b") === b)
    #expect(a.view(withID: "a") === a)
    #expect(b.view(withID: "a") == nil)
    #expect(h.scene.container.view(withID: "loose") == nil)
    #expect(h.scene.view(withID: "loose") === loose)
    #expect(h.scene.view(withID: "container") === h.scene.container)
  }
}

@Suite struct ViewSnapshotTests {
  @Test func snapshotIsTheSizeOfTheBoundsAtOriginZero() throws {
    let h = ModelHarness()
    let v = h.view("card", Rect(x: 30, y: 40, width: 120, height: 80))
    v.bounds.origin = Point(x: 7, y: 9)
    v.backgroundColor = Color(r: 1, g: 0, b: 0)
    v.cornerRadius = 12
    v.clipsToBounds = true
    v.alpha = 0.5
    v.transform = Transform3D(scaleX: 2, y: 2)
    let s = v.snapshotView()
    #expect(s.frame == Rect(x: 0, y: 0, width: 120, height: 80))
    #expect(s.bounds == Rect(x: 0, y: 0, width: 120, height: 80))
    #expect(s.snapshotOf == "card")
    #expect(s.id == "card-snapshot")
    #expect(s.backgroundColor == Color(r: 1, g: 0, b: 0))
    #expect(s.cornerRadius == 12)
    #expect(s.clipsToBounds)
    #expect(s.alpha == 1)
    #expect(s.transform == .identity)
    #expect(s.superview == nil && s.subviews.isEmpty)
    #expect(h.scene.view(withID: "card-snapshot") === s)
    // A second snapshot gets its own id; a snapshot of a snapshot shows the original.
    let s2 = v.snapshotView()
    #expect(s2.id == "card-snapshot-2")
    #expect(s2.snapshotView().snapshotOf == "card")
  }

  @Test func snapshotBeforeScreenUpdatesShowsThePresentedValues() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 100, height: 100))
    h.scene.animate(duration: 1, timing: .curve(.linear)) {
      v.bounds = Rect(x: 0, y: 0, width: 200, height: 100)
    }
    h.scene.advance(to: 0.5)
    #expect(v.snapshotView(afterScreenUpdates: false).bounds.size == Size(width: 150, height: 100))
    #expect(v.snapshotView(afterScreenUpdates: true).bounds.size == Size(width: 200, height: 100))
  }
}

@Suite struct SceneIDTests {
  @Test func uniqueIDsAndDuplicates() throws {
    let h = ModelHarness()
    #expect(h.scene.container.frame == Rect(x: 0, y: 0, width: 400, height: 300))
    #expect(h.scene.makeUniqueID(hint: "a") == "a")
    #expect(h.scene.makeUniqueID(hint: "a") == "a-2")
    _ = try h.scene.makeView(id: "b")
    #expect(h.scene.makeUniqueID(hint: "b") == "b-2")
    #expect(h.scene.makeUniqueID(hint: "") == "view")
    #expect(throws: SceneError.duplicateID("b")) { try h.scene.makeView(id: "b") }
    #expect(throws: SceneError.invalidID("")) { try h.scene.makeView(id: "") }
    #expect(throws: SceneError.duplicateID("container")) { try h.scene.makeView(id: "container") }
    // A reserved id can be used once.
    #expect(try h.scene.makeView(id: "a").id == "a")
    #expect(h.scene.makeView(hint: "a").id == "a-3")
  }

  /// Ids taken by name ahead of the counter are skipped: `x-3` made explicitly, then hints give x, x-2, x-4.
  @Test func hintsSkipIDsTakenExplicitly() throws {
    let h = ModelHarness()
    _ = try h.scene.makeView(id: "x-3")
    #expect((0..<3).map { _ in h.scene.makeView(hint: "x").id } == ["x", "x-2", "x-4"])
  }

  /// A plugin may make its whole view budget with one hint (or none): 20,000 views get the ids view, view-2, …,
  /// view-20000, each once. (The search resumes where it stopped; starting over each time made this quadratic.)
  @Test func manyViewsWithOneHintGetConsecutiveIDs() {
    let h = ModelHarness()
    let ids = (0..<20_000).map { _ in h.scene.makeView(hint: "").id }
    #expect(ids.first == "view")
    #expect(ids[1] == "view-2")
    #expect(ids.last == "view-20000")
    #expect(Set(ids).count == ids.count)
  }
}
