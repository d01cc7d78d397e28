// What the sampling fast paths must not change: a path animation that blends into storage kept from earlier samples
// (ResolvedAnimation's `PathSpares`), the remainder-free phase of a one-cycle timing (`MediaTiming.plainPhase`), and
// entries written in place over another sample's (`Scene.presentation(at:into:)`).
// Expected points are blended here from the two ends' own points (a + (b − a)·t); phases are the general rule's.
import TestSupport
import Testing

@testable import TransitionEngine

@Suite struct SampleReuseTests {
  private static let small = Path(ellipseIn: Rect(x: 10, y: 10, width: 2, height: 2))
  private static let big = Path(ellipseIn: Rect(x: -10, y: -10, width: 42, height: 42))

  /// A shape layer whose ellipse grows from `small` to `big` over 1 s (fromValue and toValue, so the ends are fixed and
  /// each sample may blend into kept storage).
  private func growingShape() throws -> ModelHarness {
    let h = ModelHarness()
    let shape = try h.scene.makeLayer(id: "shape", kind: .shape)
    h.scene.container.addSublayer(shape)
    shape.path = Self.big
    var animation = ExplicitAnimation.basic("path", from: .path(Self.small), to: .path(Self.big))
    animation.timing.duration = 1
    shape.add(animation, forKey: "path")
    return h
  }

  /// Each point of the blend at t, from the ends' points.
  private func expectBlend(_ path: Path?, at t: Double, sourceLocation: SourceLocation = #_sourceLocation) {
    guard let path else {
      Issue.record("no path at \(t)", sourceLocation: sourceLocation)
      return
    }
    #expect(path.elements.count == Self.small.elements.count, sourceLocation: sourceLocation)
    for (index, element) in path.elements.enumerated() {
      let a = Self.small.elements[index].points
      let b = Self.big.elements[index].points
      #expect(element.kind == Self.small.elements[index].kind, sourceLocation: sourceLocation)
      for (k, p) in element.points.enumerated() {
        let x = a[k].x + (b[k].x - a[k].x) * t
        let y = a[k].y + (b[k].y - a[k].y) * t
        #expect(abs(p.x - x) < 1e-12 && abs(p.y - y) < 1e-12, "t \(t) element \(index)", sourceLocation: sourceLocation)
      }
    }
  }

  /// Samples kept while later ones are taken keep their own points: storage someone holds is never written.
  @Test func keptSamplesKeepTheirPoints() throws {
    let h = try growingShape()
    var buffer: [ViewState] = []
    var kept: [(Double, Path?)] = []
    for k in 1...7 {
      let t = Double(k) / 8
      h.scene.presentation(at: t, into: &buffer)
      kept.append((t, buffer.first { $0.id == "shape" }?.layer.path))
    }
    for (t, path) in kept { expectBlend(path, at: t) }
  }

  /// Samples that nobody keeps (the storage is reused in place) show the same points, back and forth in time, and the
  /// animation's ends and model values are untouched.
  @Test func reusedStorageShowsEachSamplesPoints() throws {
    let h = try growingShape()
    var buffer: [ViewState] = []
    for t in [0.5, 0.25, 0.75, 0.125, 0.875, 0.5, 0.3, 0.6, 0.9] {
      h.scene.presentation(at: t, into: &buffer)
      expectBlend(buffer.first { $0.id == "shape" }?.layer.path, at: t)
    }
    h.scene.presentation(at: 0, into: &buffer)
    #expect(buffer.first { $0.id == "shape" }?.layer.path == Self.small)
    h.scene.presentation(at: 2, into: &buffer)
    #expect(buffer.first { $0.id == "shape" }?.layer.path == Self.big)
    #expect(Self.small == Path(ellipseIn: Rect(x: 10, y: 10, width: 2, height: 2)))
  }

  /// Blending into a path that another value shares copies it first; into one of another length, makes a new one.
  @Test func interpolatingIntoSharedOrOtherStorage() {
    let a = Path(rect: Rect(x: 0, y: 0, width: 10, height: 10))
    let b = Path(rect: Rect(x: 10, y: 20, width: 30, height: 40))
    var target = Path(rect: Rect(x: 1, y: 2, width: 3, height: 4))
    let shared = target
    Path.interpolate(from: a, to: b, fraction: 0.5, into: &target)
    #expect(shared == Path(rect: Rect(x: 1, y: 2, width: 3, height: 4)))
    #expect(target == Path(rect: Rect(x: 5, y: 10, width: 20, height: 25)))
    var short = Path()
    Path.interpolate(from: a, to: b, fraction: 0.5, into: &short)
    #expect(short == target)
    // Different structures: `from` until the end, whatever was in the target.
    var other = target
    Path.interpolate(from: a, to: Path(ellipseIn: Rect(x: 0, y: 0, width: 1, height: 1)), fraction: 0.5, into: &other)
    #expect(other == a)
  }

  /// The phase of a one-cycle timing is the general rule's at every time, the edges, −0 and NaN included.
  @Test func plainPhaseIsTheGeneralRule() {
    var timing = MediaTiming()
    timing.beginTime = 2
    timing.duration = 0.75
    timing.fillMode = .both
    #expect(timing.hasOnePlainCycle)
    var times: [Double] = [-1, 0, -0.0, 1.999, 2, 2.0.nextUp, 2.5, 2.75.nextDown, 2.75, 2.75.nextUp, 3, 1e9, .nan]
    var generator = SplitMix64(seed: 16)
    for _ in 0..<10_000 { times.append(1.5 + 2 * generator.unit()) }
    func same(_ x: TimingPhase, _ y: TimingPhase) -> Bool {
      switch (x, y) {
      case (.before, .before): return true
      case (.active(let a), .active(let b)), (.after(let a), .after(let b)): return a.bitPattern == b.bitPattern
      default: return false
      }
    }
    for tp in times {
      #expect(same(timing.plainPhase(parentTime: tp), timing.phase(parentTime: tp, duration: 0.75)), "\(tp)")
    }
    for change in [
      { (t: inout MediaTiming) in t.speed = 2 }, { $0.timeOffset = 0.1 }, { $0.repeatCount = 2 },
      { $0.repeatDuration = 3 }, { $0.autoreverses = true }, { $0.duration = .infinity },
    ] {
      var other = timing
      change(&other)
      #expect(!other.hasOnePlainCycle)
    }
  }

  /// A scene with every member an entry can carry off its default: a mask, a snapshot, a gradient layer, a sublayer
  /// transform, a layer-only value, a hidden view.
  private func everyMemberScene() throws -> ModelHarness {
    let h = ModelHarness()
    let card = h.view("card", Rect(x: 10, y: 20, width: 100, height: 50))
    card.sublayerTransform = Transform3D(scaleX: 2, y: 2)
    card.borderWidth = 3
    let mask = try h.scene.makeView(id: "cardMask")
    mask.frame = Rect(x: 0, y: 0, width: 100, height: 50)
    card.setMask(mask)
    let shot = h.view("shot", Rect(x: 0, y: 0, width: 10, height: 10), in: card)
    shot.snapshotOf = "card"
    shot.isHidden = true
    let fill = try h.scene.makeLayer(id: "fill", kind: .gradient)
    fill.gradient = Gradient(colors: [Color(r: 1, g: 0, b: 0, a: 1), Color(r: 0, g: 0, b: 1, a: 1)])
    card.addSublayer(fill)
    return h
  }

  /// Entries written over another scene's (more of them, fewer, other ids and members) are what a fresh buffer gets,
  /// and a plain scene's entries carry none of the other scene's members.
  @Test func entriesWrittenOverAnotherScenesAreFresh() throws {
    let rich = try everyMemberScene()
    let plain = ModelHarness()
    let a = plain.view("a", Rect(x: 1, y: 2, width: 30, height: 40))
    _ = plain.view("b", Rect(x: 5, y: 6, width: 7, height: 8), in: a)
    var buffer: [ViewState] = []
    rich.scene.presentation(at: 0, into: &buffer)
    #expect(buffer.count == 5)
    plain.scene.presentation(at: 0, into: &buffer)
    #expect(buffer == plain.scene.presentation(at: 0))
    #expect(buffer.map(\.id) == ["container", "a", "b"])
    #expect(buffer.map(\.parentID) == [nil, "container", "a"])
    #expect(buffer.map(\.zIndex) == [0, 1, 2])
    // b's frame in a's coordinates; its world box is offset by a's origin.
    #expect(buffer[2].frame == Rect(x: 5, y: 6, width: 7, height: 8))
    #expect(buffer[2].boundingBox == Rect(x: 6, y: 8, width: 7, height: 8))
    for entry in buffer {
      #expect(entry.maskID == nil && entry.maskOwnerID == nil && entry.snapshotOf == nil && entry.gradient == nil)
      #expect(entry.sublayerTransform == .identity && entry.layer == LayerAppearance.defaults)
      #expect(entry.isView && entry.layerKind == .layer && !entry.isHidden && !entry.hasLayerMembers)
    }
    // Back to the rich scene over the plain one's (fewer) entries.
    rich.scene.presentation(at: 0, into: &buffer)
    #expect(buffer == rich.scene.presentation(at: 0))
    // Drawing order: the container, card, its mask right after it, then its sublayers.
    #expect(buffer.map(\.id) == ["container", "card", "cardMask", "shot", "fill"])
    #expect(buffer[1].maskID == "cardMask" && buffer[2].maskOwnerID == "card" && buffer[2].parentID == "card")
    #expect(buffer[1].sublayerTransform == Transform3D(scaleX: 2, y: 2) && buffer[1].layer.borderWidth == 3)
    #expect(buffer[3].snapshotOf == "card" && buffer[3].isHidden && buffer[3].opacity == 0)
    #expect(buffer[4].layerKind == .gradient && !buffer[4].isView && buffer[4].gradient?.colors.count == 2)
  }
}
