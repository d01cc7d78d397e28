import PluginHost
import TestSupport
import Testing
import TransitionEngine

#if canImport(Glibc)
  import Glibc
#endif

/// The Features fixture's animators: every part of the host API used the way real animators use it, checked
/// against geometry computed by hand (see Tests/Fixtures/Features/features.c for the numbers).
@Suite struct FeatureTransitionTests {
  final class Host {
    let log = LogCapture()
    let registry: PluginRegistry

    init() throws {
      registry = try TestSupport.registry(loadingFixtures: ["Features"], log: log)
    }

    func run(
      _ id: String, operation: TransitionOperation = .present, params: [String: ParameterValue] = [:],
      options: TransitionOptions = TransitionOptions(), setUp: (Scene, View, View) -> Void = { _, _, _ in }
    ) throws -> PluginTransitionRun {
      try PluginTransitionRun(
        registry, "com.example.test.features/" + id, operation: operation, params: params, options: options,
        setUp: setUp)
    }

    func notes(_ id: String) -> [String] {
      log.notes(of: "com.example.test.features/\(id)")
    }
  }

  /// Two linear keyframes on center.x: 200 → 300 over [0, 0.5 s], → 100 over [0.5, 1 s].
  @Test func keyframesInterpolateLinearlyBetweenKeyTimes() throws {
    let host = try Host()
    let run = try host.run("keyframes")
    try run.transition.start()
    for (t, x) in [(0.0, 200.0), (0.25, 250), (0.5, 300), (0.75, 200), (1.0, 100)] {
      #expect(close(try run.state("to", at: t)?.position.x, x, 1e-9), "t = \(t)")
    }
    #expect(try run.run() == .completed && run.misbehaviors.isEmpty)
    #expect(run.to.center == Point(x: 100, y: 400))
  }

  @Test func bezierStepsAndNamedCurves() throws {
    let host = try Host()
    let run = try host.run("curves")
    try run.transition.start()
    let at03 = try #require(try run.state("to", at: 0.3))
    // alpha 0 → 1 on Bézier (0.25, 0.1, 0.25, 1).
    #expect(close(at03.alpha, Reference.bezier(0.25, 0.1, 0.25, 1, at: 0.3), 1e-6))
    // cornerRadius 0 → 40 on steps(4, end): floor(4t) / 4; zPosition 0 → 8 on steps(4, start): ceil(4t) / 4.
    #expect(try close(at03.cornerRadius, 10) && close(try run.state("to", at: 0.6)?.cornerRadius, 20))
    #expect(close(try run.state("to", at: 0.99)?.cornerRadius, 30))
    #expect(try close(at03.zPosition, 4) && close(try run.state("to", at: 0.1)?.zPosition, 2))
    // center.y 400 → 500 on easeIn (0.42, 0, 1, 1).
    #expect(close(try run.state("to", at: 0.5)?.position.y, 400 + 100 * Reference.bezier(0.42, 0, 1, 1, at: 0.5), 1e-6))
    #expect(try run.run() == .completed && run.misbehaviors.isEmpty)
    #expect(run.to.cornerRadius == 40 && run.to.zPosition == 8 && run.to.alpha == 1)
  }

  /// Critically damped springs (ζ = 1) follow x(t) = (1 + ω0·t)·e^(−ω0·t) of the remaining distance until their block
  /// ends (SpringFormTests covers every form in depth).
  @Test func theThreeSpringForms() throws {
    let host = try Host()
    let run = try host.run("springs")
    try run.transition.start()
    #expect(run.transition.duration == 2)
    let t = 0.3
    let at = try #require(try run.state("to", at: t))
    // mass 1, stiffness 100, damping 20: ω0 = 10.
    let physical = 1 - (1 + 10 * t) * exp(-10 * t)
    #expect(close(at.position.x, 200 + 100 * physical, 1e-6))
    // The same spring with TH_DURATION_AUTOMATIC (it settles at 1.0 s).
    #expect(close(at.zPosition, 10 * physical, 1e-6))
    // perceptual duration 1, bounce 0: ω0 = 2π / 1; the block lasts its settling duration, 1.5 s
    // ((1 + 2π·1.4)·e^(−2π·1.4) = 1.5e-3, (1 + 2π·1.5)·e^(−2π·1.5) = 8.4e-4).
    let bounce = 1 - (1 + 2 * Double.pi * t) * exp(-2 * Double.pi * t)
    #expect(close(at.alpha, bounce, 1e-6))
    let late = 1.45
    #expect(close(try run.state("to", at: late)?.alpha, 1 - (1 + 2 * Double.pi * late) * exp(-2 * Double.pi * late)))
    #expect(try run.state("to", at: 1.5)?.alpha == 1)
    // UIKit spring, damping 0.5 over 0.8 s: overshoots 40, and is exactly on it from 0.8 s.
    let radii = try (1...79).map { try #require(try run.state("to", at: Double($0) / 100)?.cornerRadius) }
    #expect(radii.contains { $0 > 40 })
    #expect(close(try run.state("to", at: 0.8)?.cornerRadius, 40))
    #expect(try run.run() == .completed && run.misbehaviors.isEmpty)
    #expect(run.to.center.x == 300 && run.to.zPosition == 10)
  }

  /// A driver of 1 s after a 0.5 s delay writing alpha = fraction and center.x = 200 + 100·fraction.
  @Test func aDelayedDriverWritesPresentationValuesThenCommitsItsLastFrame() throws {
    let host = try Host()
    let run = try host.run("driver")
    try run.transition.start()
    #expect(host.notes("driver") == ["driver added"])
    // During the delay nothing is written: the model (alpha 0.25, center.x 200) shows.
    #expect(
      try close(try run.state("to", at: 0.25)?.alpha, 0.25) && close(try run.state("to", at: 0.25)?.position.x, 200))
    #expect(try close(try run.state("to", at: 1.0)?.alpha, 0.5) && close(try run.state("to", at: 1.0)?.position.x, 250))
    #expect(close(try run.state("to", at: 1.25)?.alpha, 0.75))
    // Sampling is pure: sampling again gives the same values.
    #expect(close(try run.state("to", at: 1.0)?.alpha, 0.5))
    #expect(try run.run() == .completed && run.misbehaviors.isEmpty)
    #expect(run.to.alpha == 1 && run.to.center == Point(x: 300, y: 400))
  }

  @Test func aSheetPresentsWithItsFrameDimmingAndRemovesThePresenter() throws {
    let host = try Host()
    let run = try host.run("sheet")
    try run.transition.start()
    // The controller's frame: the lower three quarters of the 400 × 800 container.
    #expect(run.transition.context.finalFrame(forKey: .to) == Rect(x: 0, y: 200, width: 400, height: 600))
    #expect(run.containerSubviews == ["from", "dimming", "to"])
    // Alongside the transition (0.5 s, easeInOut, symmetric): dimming 0 → 0.5, to.y 800 → 200; halfway at 0.25 s.
    #expect(close(try run.state("dimming", at: 0.25)?.alpha, 0.25, 1e-6))
    #expect(close(try run.state("to", at: 0.25)?.frame.origin.y, 500, 1e-6))
    #expect(try run.run() == .completed && run.misbehaviors.isEmpty)
    #expect(run.to.frame == Rect(x: 0, y: 200, width: 400, height: 600))
    // shouldRemovePresentersView: the from root leaves; the chrome stays for the dismissal.
    #expect(run.containerSubviews == ["dimming", "to"])
    #expect(
      host.notes("sheet") == [
        "not interactive", "final frame 0 200 400 600", "presentation did end: completed",
      ])
    #expect(host.log.lines.contains("com.example.test.features: should_remove asked without a context"))
    #expect(host.log.lines.last == "com.example.test.features: destroy sheet")
  }

  @Test func aSheetDismissesAndItsControllerRemovesTheChrome() throws {
    let host = try Host()
    let run = try host.run("sheet", operation: .dismiss) { scene, from, _ in
      // As a sheet presentation left things: dimming (alpha 0.5) below the presented view.
      let dimming = try! scene.makeView(id: "dimming")
      dimming.frame = Rect(x: 0, y: 0, width: 400, height: 800)
      dimming.alpha = 0.5
      scene.container.insertSubview(dimming, belowSubview: from)
    }
    try run.transition.start()
    // The presenter's view was removed by the presentation: the animator puts it back below.
    #expect(run.containerSubviews == ["dimming", "to", "from"])
    #expect(close(try run.state("dimming", at: 0.25)?.alpha, 0.25, 1e-6))
    #expect(try run.run() == .completed && run.misbehaviors.isEmpty)
    #expect(run.from.frame.origin.y == 800)
    #expect(run.containerSubviews == ["to"])
    #expect(host.notes("sheet").last == "dismissal did end: completed")
  }

  /// A controller table whose struct_size covers only frame_of_presented_view, ending right before an unreadable
  /// page: the host reads that one function (the frame: the container's lower half) and nothing past it, so the
  /// presenter stays (shouldRemovePresentersView's default, false).
  @Test func aControllerTableIsReadOnlyUpToItsStructSize() throws {
    let host = try Host()
    let run = try host.run("short-controller")
    try run.transition.start()
    #expect(run.transition.context.finalFrame(forKey: .to) == Rect(x: 0, y: 400, width: 400, height: 400))
    #expect(try run.run() == .completed && run.misbehaviors.isEmpty)
    #expect(run.to.frame == Rect(x: 0, y: 400, width: 400, height: 400))
    #expect(run.containerSubviews == ["from", "to"])
  }

  @Test func aCancelledInteractiveSheetRestoresTheStart() throws {
    let host = try Host()
    let run = try host.run("sheet", options: TransitionOptions(isInteractive: true))
    try run.transition.start()
    _ = try run.transition.update(percent: 0.5)
    #expect(close(try run.state("dimming", at: run.transition.time)?.alpha, 0.25, 1e-6))
    try run.transition.cancel()
    #expect(try run.run() == .cancelled(reason: nil))
    #expect(run.misbehaviors.isEmpty)
    #expect(run.containerSubviews == ["from"])
    #expect(run.scene.view(withID: "dimming")?.superview == nil)
    #expect(host.notes("sheet") == ["interactive", "final frame 0 200 400 600", "presentation did end: cancelled"])
  }

  @Test func theViewTreePropertiesAndParameters() throws {
    let host = try Host()
    let run = try host.run("tree", params: ["amount": .number(0.75), "mode": .string("b")])
    #expect(try run.run() == .completed)
    #expect(run.misbehaviors.isEmpty)
    #expect(
      host.notes("tree") == [
        "view_for_key(from): (none)",
        "view_controller_for_key(from): from",
        "find_view(from) is the same handle",
        "initial_frame(from) 0 0 400 800",
        "initial_frame(to) 0 0 0 0",
        "final_frame(to) 0 0 400 800",
        "match key of from: (none)",
        "find_view_by_match(to, hero): not found",
        "animated 1 cancelled 0",
        "made overlay",
        "made overlay-2",
        "convert_rect to container 60 70 20 20",
        "convert_point to overlay -50 -60",
        "frame after anchor (0, 0): 100 100 100 80",
        "snapshot from-snapshot",
        "to has 3 subviews",
        "first: overlay-2",
        "front after bring_subview_to_front: overlay-2",
        "back after send_subview_to_back: overlay",
        "front after insert_subview_at(99): from-snapshot",
        "superview(overlay): to",
        "superview(removed snapshot): (none)",
        "superview(container): (none)",
        "colour unset",
        "colour 1 0 0 1",
        "gradient count 2 second alpha 0.5 locations 0.2 0.8",
        "sublayer m34 -0.002",
        "hidden 0 clips 1",
        "params amount=0.75 flag=1 mode=b label=hi tint=0.1,0.2,0.3,0.4 origin=1,2 box=1,2,3,4",
      ])
    #expect(run.scene.view(withID: "from-snapshot")?.snapshotOf == "from")
    #expect(run.to.subviews.map(\.id) == ["overlay", "overlay-2"])
    #expect(run.scene.container.sublayerTransform.m34 == -0.002)
  }

  /// Shared elements: a node's `match` key is readable, and find_view_by_match pairs it with the view of the other
  /// tree that has the same key (depth first, the first one wins).
  @Test func sharedElementKeysPairViewsAcrossTrees() throws {
    let host = try Host()
    let run = try host.run("tree", params: ["amount": .number(0.75), "mode": .string("b")]) { scene, from, to in
      from.matchKey = "avatar"
      let header = try! scene.makeView(id: "header")
      let avatar = try! scene.makeView(id: "big-avatar")
      let decoy = try! scene.makeView(id: "decoy")
      avatar.matchKey = "hero"
      decoy.matchKey = "hero"
      to.addSubview(header)
      header.addSubview(avatar)
      to.addSubview(decoy)
    }
    #expect(try run.run() == .completed)
    let notes = host.notes("tree")
    #expect(notes.contains("match key of from: avatar"))
    #expect(notes.contains("find_view_by_match(to, hero): big-avatar"))
  }

  /// A plugin cannot grow a tree past 1,000 levels (the engine walks trees recursively): a detached chain of
  /// views takes 999 add_subview calls (1,000 levels), the next is TH_ERR_LIMIT; so is hanging the whole chain
  /// under the container, which would make 1,001 levels. Reported, never fatal; the transition still completes.
  @Test func treesStopAtAThousandLevels() throws {
    let host = try Host()
    let run = try host.run("deep-chain")
    #expect(try run.run() == .completed)
    #expect(host.notes("deep-chain") == ["chain links added 999", "TH_ERR_LIMIT", "TH_ERR_LIMIT"])
    #expect(run.misbehaviors.count == 2)
    #expect(run.misbehaviors.allSatisfy { $0.message.contains("at most 1000") })
  }

  /// Completing from the first of two blocks: the second's completion is still owed when the transition ends; it
  /// runs after animation_ended with finished = false, before destroy.
  @Test func completionsStillOwedRunOnceWithFinishedFalse() throws {
    let host = try Host()
    let run = try host.run("early-complete")
    #expect(try run.run() == .completed)
    #expect(run.transition.time < 1)
    #expect(
      host.log.lines.suffix(3) == [
        "com.example.test.features/early-complete: animation_ended completed=1",
        "com.example.test.features/early-complete: long block finished=0",
        "com.example.test.features: destroy early-complete",
      ])
  }
}
