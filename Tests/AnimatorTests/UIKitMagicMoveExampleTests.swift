// Examples/uikit/MagicMove: BourneWeng's MagicMove (reference §12.3) as an iOS app writes it — a navigation
// controller delegate vending the push and pop animators, and for the pop an interaction controller whose left-edge
// pan decides finish (progress = translation.x / width > 0.5) or cancel. Loaded through its one declaration file,
// driven through the host's gesture path, with the geometry checked against the seed's formulas (the storyboard of
// MagicMoveTests, TestSupport's reference easeInOut).

import PluginHost
import TestSupport
import Testing
import TransitionEngine

@Suite struct UIKitMagicMoveExampleTests {
  final class Run {
    let log = LogCapture()
    let base: PluginTransitionRun

    init(_ operation: TransitionOperation) throws {
      let scene = Scene(containerSize: Size(width: 375, height: 667))
      let (from, to) = try MagicMoveTests.trees(scene, popping: operation == .pop)
      var options = TransitionOptions()
      options.interactivityFromController = true
      let registry = try TestSupport.registry(loadingPaths: [BuildProducts.uikitExample("MagicMove")], log: log)
      base = try PluginTransitionRun(
        registry, "magic-move", scene: scene, from: from, to: to, operation: operation, options: options)
      try base.start()
    }

    var transition: Transition { base.transition }

    func snapshot(at t: Double) throws -> ViewState {
      let snapshots = try transition.sample(time: t).filter { $0.snapshotOf != nil }
      #expect(snapshots.count == 1)
      return try #require(snapshots.first)
    }

    func state(_ id: String, at t: Double) throws -> ViewState {
      try #require(try base.state(id, at: t), "no view \(id) at \(t)")
    }

    func gesture(_ state: GestureSample.State, x: Double, moved: Double = 0) throws -> GestureDelivery {
      try transition.deliverGesture(
        GestureSample(state: state, location: Point(x: x, y: 300), translation: Point(x: moved, y: 0)))
    }
  }

  @Test func itLoadsThroughItsDeclaration() throws {
    let registry = try TestSupport.registry(loadingPaths: [BuildProducts.uikitExample("MagicMove")])
    let animator = try registry.resolve(animatorID: "magic-move")
    #expect(animator.qualifiedID == "com.example.uikit.magicmove/magic-move")
    #expect(animator.info.operations == ["push", "pop"])
  }

  @Test func thePushFliesTheCellImageToTheAvatarWhileTheDetailFadesIn() throws {
    let run = try Run(.push)
    // No interaction controller for a push: it runs on its own.
    #expect(run.transition.state == .running)
    let snapshotID = try run.snapshot(at: 0).id
    #expect(try run.snapshot(at: 0).snapshotOf == "cellImage")
    #expect(run.base.containerSubviews == ["list", "detail", snapshotID])
    for t in MagicMoveTests.times {
      let p = Reference.easeInOut(t / 0.5)
      expectView(
        try run.snapshot(at: t),
        frame: MagicMoveTests.lerp(MagicMoveTests.cellImageInContainer, MagicMoveTests.avatarFrame, p), alpha: 1,
        "t=\(t)")
      expectView(try run.state("detail", at: t), frame: MagicMoveTests.screen, alpha: p, "t=\(t)")
      #expect(try run.state("cellImage", at: t).isHidden && run.state("avatar", at: t).isHidden)
    }
    #expect(try run.base.run() == .completed)
    #expect(run.base.containerSubviews == ["detail"])
    #expect(run.base.scene.view(withID: "cellImage")?.isHidden == false)
    #expect(run.base.scene.view(withID: "avatar")?.isHidden == false)
    #expect(run.base.misbehaviors.isEmpty, "\(run.base.reports)")
  }

  @Test func aLeftEdgePanPopsPastHalfWithTheSeedsGeometry() throws {
    let run = try Run(.pop)
    #expect(run.transition.state == .paused)
    #expect(try run.snapshot(at: 0).snapshotOf == "avatar")
    // The detail screen's left edge: the pan begins there, not in the middle of the screen.
    #expect(try run.gesture(.began, x: 180) == .notHit)
    #expect(try run.gesture(.began, x: 6) == .received(recognizers: 1))
    for moved in [37.5, 150, 262.5] {
      try run.gesture(.changed, x: 6 + moved, moved: moved)
      let percent = moved / 375
      #expect(abs(run.transition.percent - percent) <= 1e-12)
      let p = Reference.easeInOut(percent)
      expectView(
        try run.snapshot(at: run.transition.time),
        frame: MagicMoveTests.lerp(MagicMoveTests.avatarFrame, MagicMoveTests.cellImageInContainer, p), alpha: 1,
        "moved \(moved)")
      expectView(try run.state("detail", at: run.transition.time), frame: MagicMoveTests.screen, alpha: 1 - p)
    }
    try run.gesture(.ended, x: 6 + 262.5, moved: 262.5)
    #expect(run.transition.state == .finishing)
    #expect(try run.base.run() == .completed)
    #expect(run.base.containerSubviews == ["list"])
    #expect(run.base.scene.view(withID: "cellImage")?.isHidden == false)
  }

  @Test func aShortLeftEdgePanCancelsThePopAndEverythingReturns() throws {
    let run = try Run(.pop)
    try run.gesture(.began, x: 2)
    try run.gesture(.changed, x: 152, moved: 150)
    try run.gesture(.ended, x: 152, moved: 150)
    #expect(run.transition.state == .cancelling)
    #expect(try run.base.run() == .cancelled(reason: nil))
    #expect(run.base.containerSubviews == ["detail"])
    #expect(run.base.scene.view(withID: "avatar")?.isHidden == false)
    #expect(run.base.scene.view(withID: "detail")?.alpha == 1)
  }
}
