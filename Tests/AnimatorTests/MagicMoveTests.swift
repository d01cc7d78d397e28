import PluginHost
import TestSupport
import Testing
import TransitionEngine

/// magic-move (reference §12.3): 0.5 s easeInOut; the shared element is paired by match key or named by params.
/// Push: a snapshot of the source (the cell's image) flies from its
/// frame, converted to the container, to the target's (the detail avatar) while the detail screen fades in from 0;
/// pop: the reverse flight while the detail screen fades out over the list inserted below it. Source and target are
/// hidden during the flight and shown again afterwards.
///
/// The seed's storyboard: a 375 × 667 screen; a 182 × 204 cell (here at (10, 120)) with its image at (8, 8, 166, 166);
/// the detail avatar at (48, 72, 280, 280).
@Suite struct MagicMoveTests {
  static let screen = Rect(x: 0, y: 0, width: 375, height: 667)
  static let cellImageInContainer = Rect(x: 18, y: 128, width: 166, height: 166)
  static let avatarFrame = Rect(x: 48, y: 72, width: 280, height: 280)

  /// With `keyed`, the client marks the shared element as Hero does: `match` "photo" on the cell's image and on
  /// the avatar, plus keys without a counterpart ("badge", "caption") that must not be paired.
  static func trees(_ scene: Scene, popping: Bool, keyed: Bool = false) throws -> (from: View, to: View) {
    let list = try makeView(scene, "list", screen)
    let badge = try makeView(scene, "badge", Rect(x: 300, y: 20, width: 40, height: 40), in: list)
    let cell = try makeView(scene, "cell", Rect(x: 10, y: 120, width: 182, height: 204), in: list)
    let cellImage = try makeView(scene, "cellImage", Rect(x: 8, y: 8, width: 166, height: 166), in: cell)
    let detail = try makeView(scene, "detail", screen)
    let caption = try makeView(scene, "caption", Rect(x: 48, y: 380, width: 280, height: 40), in: detail)
    let avatar = try makeView(scene, "avatar", avatarFrame, in: detail)
    if keyed {
      badge.matchKey = "badge"
      caption.matchKey = "caption"
      cellImage.matchKey = "photo"
      avatar.matchKey = "photo"
    }
    let roots = popping ? (from: detail, to: list) : (from: list, to: detail)
    scene.container.addSubview(roots.from)
    return roots
  }

  static func run(
    _ operation: TransitionOperation, params: [String: ParameterValue]? = nil, interactive: Bool = false,
    keyed: Bool = false
  ) throws -> AnimatorRun {
    let popping = operation == .pop
    let shared: [String: ParameterValue] =
      popping
      ? ["source": .string("avatar"), "target": .string("cellImage")]
      : ["source": .string("cellImage"), "target": .string("avatar")]
    return try AnimatorRun(
      "MagicMove", "magic-move", operation: operation, container: Size(width: 375, height: 667),
      params: params ?? shared, interactive: interactive
    ) { try trees($0, popping: popping, keyed: keyed) }
  }

  /// The snapshot view's state at `t` (the one view with `snapshotOf`).
  static func snapshot(_ run: AnimatorRun, at t: Double) throws -> ViewState {
    let snapshots = try run.transition.sample(time: t).filter { $0.snapshotOf != nil }
    #expect(snapshots.count == 1)
    return try #require(snapshots.first)
  }

  static func lerp(_ a: Rect, _ b: Rect, _ p: Double) -> Rect {
    Rect(
      x: a.origin.x + (b.origin.x - a.origin.x) * p, y: a.origin.y + (b.origin.y - a.origin.y) * p,
      width: a.size.width + (b.size.width - a.size.width) * p,
      height: a.size.height + (b.size.height - a.size.height) * p)
  }

  static let times = [0, 0.04, 0.1, 0.2, 0.25, 0.3, 0.4, 0.46, 0.5]

  @Test func describesItself() throws {
    let registry = try registry(loadingBuiltIns: ["MagicMove"])
    let plugin = try #require(registry.plugins.first)
    #expect(plugin.info.id == "com.transitionhost.magicmove")
    let animator = try #require(plugin.info.animators.first)
    #expect(animator.id == "magic-move")
    #expect(animator.operations == ["push", "pop"])
    #expect(animator.params.map(\.name) == ["duration", "source", "target"])
    #expect(animator.params[0].defaultValue == .number(0.5))
    #expect(animator.params[1].kind == .string && animator.params[1].defaultValue == .string(""))
    let instance = try registry.makeAnimator(id: "magic-move")
    #expect(instance.transitionDuration(nil) == 0.5)
    instance.close()
  }

  @Test func pushFliesTheSnapshotToTheAvatarWhileTheDetailFadesIn() throws {
    let run = try Self.run(.push)
    try run.start()
    let snapshotID = try Self.snapshot(run, at: 0).id
    // The destination first, then the snapshot on top (the order matters).
    #expect(run.containerSubviews == ["list", "detail", snapshotID])
    #expect(try Self.snapshot(run, at: 0).snapshotOf == "cellImage")
    for t in Self.times {
      let p = Reference.easeInOut(t / 0.5)
      expectView(
        try Self.snapshot(run, at: t), frame: Self.lerp(Self.cellImageInContainer, Self.avatarFrame, p), alpha: 1,
        "t=\(t)")
      expectView(try run.state("detail", at: t), frame: Self.screen, alpha: p, "t=\(t)")
      expectView(try run.state("list", at: t), frame: Self.screen, alpha: 1)
      // Both ends of the flight are hidden while the snapshot stands in for them.
      #expect(try run.state("cellImage", at: t).isHidden)
      #expect(try run.state("avatar", at: t).isHidden)
    }
    #expect(try run.run() == .completed)
    #expect(run.containerSubviews == ["detail"])
    #expect(run.scene.view(withID: "cellImage")?.isHidden == false)
    #expect(run.scene.view(withID: "avatar")?.isHidden == false)
    #expect(run.scene.view(withID: snapshotID)?.superview == nil)
    #expect(run.to.alpha == 1)
    #expect(run.problems.isEmpty)
  }

  @Test func popFliesTheSnapshotBackWhileTheDetailFadesOut() throws {
    let run = try Self.run(.pop)
    try run.start()
    let snapshotID = try Self.snapshot(run, at: 0).id
    // The list goes below the detail screen.
    #expect(run.containerSubviews == ["list", "detail", snapshotID])
    #expect(try Self.snapshot(run, at: 0).snapshotOf == "avatar")
    for t in Self.times {
      let p = Reference.easeInOut(t / 0.5)
      expectView(
        try Self.snapshot(run, at: t), frame: Self.lerp(Self.avatarFrame, Self.cellImageInContainer, p), alpha: 1,
        "t=\(t)")
      expectView(try run.state("detail", at: t), frame: Self.screen, alpha: 1 - p, "t=\(t)")
      expectView(try run.state("list", at: t), frame: Self.screen, alpha: 1)
      #expect(try run.state("cellImage", at: t).isHidden && run.state("avatar", at: t).isHidden)
    }
    #expect(try run.run() == .completed)
    #expect(run.containerSubviews == ["list"])
    #expect(run.scene.view(withID: "cellImage")?.isHidden == false)
    #expect(run.scene.view(withID: "avatar")?.isHidden == false)
    // The original left the popped screen transparent; here its alpha is restored.
    #expect(run.from.alpha == 1)
    #expect(run.problems.isEmpty)
  }

  @Test(arguments: [TransitionOperation.push, .pop])
  func cancelLeavesEveryViewAsItStarted(_ operation: TransitionOperation) throws {
    let run = try Self.run(operation, interactive: true)
    let start = SceneState(run)
    try run.start()
    try run.transition.update(percent: 0.35)
    let from = operation == .push ? Self.cellImageInContainer : Self.avatarFrame
    let to = operation == .push ? Self.avatarFrame : Self.cellImageInContainer
    let snapshot = try #require(run.transition.presentation().first { $0.snapshotOf != nil })
    expectView(snapshot, frame: Self.lerp(from, to, Reference.easeInOut(0.35)), alpha: 1)
    try run.transition.cancel()
    #expect(try run.run() == .cancelled(reason: nil))
    #expect(SceneState(run) == start)
    #expect(run.problems.isEmpty)
  }

  @Test func releaseFinishesPastHalfway() throws {
    let run = try Self.run(.pop, interactive: true)
    try run.start()
    try run.transition.update(percent: 0.55)
    #expect(try run.transition.release(velocity: 0) == .finish)
    #expect(try run.run() == .completed)
    #expect(run.containerSubviews == ["list"])
    #expect(run.problems.isEmpty)
  }

  @Test(arguments: [TransitionOperation.push, .pop])
  func pairsTheSharedElementByItsMatchKey(_ operation: TransitionOperation) throws {
    let run = try Self.run(operation, params: [:], keyed: true)
    try run.start()
    let push = operation == .push
    #expect(try Self.snapshot(run, at: 0).snapshotOf == (push ? "cellImage" : "avatar"))
    let (start, end) =
      push ? (Self.cellImageInContainer, Self.avatarFrame) : (Self.avatarFrame, Self.cellImageInContainer)
    for t in Self.times {
      expectView(
        try Self.snapshot(run, at: t), frame: Self.lerp(start, end, Reference.easeInOut(t / 0.5)), alpha: 1, "t=\(t)")
    }
    // Keys without a counterpart are left alone.
    #expect(try !run.state("badge", at: 0.25).isHidden && !run.state("caption", at: 0.25).isHidden)
    #expect(try run.run() == .completed)
    #expect(run.problems.isEmpty)
  }

  @Test func paramsWinOverMatchKeysAndAOneSidedParamIsCompletedByKey() throws {
    // Both named: the whole cell flies to the avatar although the keys pair the images.
    let named = try Self.run(.push, params: ["source": .string("cell"), "target": .string("avatar")], keyed: true)
    try named.start()
    #expect(try Self.snapshot(named, at: 0).snapshotOf == "cell")
    expectView(
      try Self.snapshot(named, at: 0.2),
      frame: Self.lerp(Rect(x: 10, y: 120, width: 182, height: 204), Self.avatarFrame, Reference.easeInOut(0.4)),
      alpha: 1)
    #expect(try named.run() == .completed)
    // Only the source named: its key finds the counterpart.
    let half = try Self.run(.push, params: ["source": .string("cellImage")], keyed: true)
    try half.start()
    #expect(try half.state("avatar", at: 0.1).isHidden)
    expectView(
      try Self.snapshot(half, at: 0.4),
      frame: Self.lerp(Self.cellImageInContainer, Self.avatarFrame, Reference.easeInOut(0.8)),
      alpha: 1)
    #expect(try half.run() == .completed)
    #expect(named.problems.isEmpty && half.problems.isEmpty)
  }

  @Test func withoutASharedElementOnlyTheScreensFade() throws {
    // No params, and a source named in the wrong tree: no snapshot, the detail screen still fades in.
    for params: [String: ParameterValue] in [[:], ["source": .string("avatar"), "target": .string("avatar")]] {
      let run = try Self.run(.push, params: params)
      try run.start()
      #expect(try run.transition.sample(time: 0.25).allSatisfy { $0.snapshotOf == nil })
      expectView(try run.state("detail", at: 0.25), frame: Self.screen, alpha: 0.5)
      #expect(try run.state("cellImage", at: 0.25).isHidden == false)
      #expect(try run.run() == .completed)
      #expect(run.containerSubviews == ["detail"])
      #expect(run.problems.isEmpty)
    }
  }
}
