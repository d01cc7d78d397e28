import PluginHost
import TestSupport
import Testing
import TransitionEngine

/// sheet (reference §12.2, CONVENTIONS "sheet"): UIView's spring with `duration` 1.0, `springDamping` 1.0,
/// `initialSpringVelocity` 0. Present: a black dimming view over the container fades to `backgroundAlpha` (0.4)
/// while the presented view rises from origin.y = the container's maxY to its frame (`presentedFrame`, default the
/// container's bounds). Dismiss: the reverse; the dimming view leaves the hierarchy when the dismissal completes.
@Suite struct SheetTests {
  static let bounds = Rect(x: 0, y: 0, width: 400, height: 800)

  /// "presenter" (with "title") and "sheet" (with "handle"). On screen before a presentation: the presenter; before
  /// a dismissal: the presenter (kept: no shouldRemovePresentersView) below the sheet, and the dimming view between
  /// them when `dimming` (as a client that shows the presentation's chrome would send it).
  static func trees(_ scene: Scene, dismissing: Bool, dimming: Bool = false) throws -> (from: View, to: View) {
    let presenter = try makeView(scene, "presenter", bounds)
    try makeView(scene, "title", Rect(x: 16, y: 60, width: 300, height: 40), in: presenter)
    let sheet = try makeView(scene, "sheet", bounds)
    try makeView(scene, "handle", Rect(x: 180, y: 8, width: 40, height: 5), in: sheet)
    if dismissing {
      scene.container.addSubview(presenter)
      if dimming {
        let view = try makeView(scene, "dimming", bounds, in: scene.container)
        view.backgroundColor = Color(r: 0, g: 0, b: 0, a: 1)
        view.alpha = 0.4
      }
      scene.container.addSubview(sheet)
      return (sheet, presenter)
    }
    scene.container.addSubview(presenter)
    return (presenter, sheet)
  }

  static func run(
    _ operation: TransitionOperation, params: [String: ParameterValue] = [:], interactive: Bool = false,
    dimming: Bool = false
  ) throws -> AnimatorRun {
    try AnimatorRun("Sheet", "sheet", operation: operation, params: params, interactive: interactive) {
      try trees($0, dismissing: operation == .dismiss, dimming: dimming)
    }
  }

  /// Sample times over the 1 s spring, with several in its last tenth, one just before its end and one after.
  static let times = [0, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.93, 0.97, 0.99, 1 - 1e-9, 1.0, 1.2]

  @Test func describesItselfWithTheOriginalsDefaults() throws {
    let registry = try registry(loadingBuiltIns: ["Sheet"])
    let plugin = try #require(registry.plugins.first)
    #expect(plugin.info.id == "com.transitionhost.sheet")
    let animator = try #require(plugin.info.animators.first)
    #expect(animator.id == "sheet")
    #expect(animator.operations == ["present", "dismiss"])
    let params = Dictionary(uniqueKeysWithValues: animator.params.map { ($0.name, $0) })
    #expect(
      animator.params.map(\.name) == [
        "duration", "springDamping", "initialSpringVelocity", "backgroundAlpha", "presentedFrame",
      ])
    #expect(params["duration"]?.defaultValue == .number(1.0))
    #expect(params["springDamping"]?.defaultValue == .number(1.0))
    #expect(params["initialSpringVelocity"]?.defaultValue == .number(0))
    #expect(params["backgroundAlpha"]?.defaultValue == .number(0.4))
    #expect(params["backgroundAlpha"]?.minimum == 0 && params["backgroundAlpha"]?.maximum == 1)
    #expect(params["presentedFrame"]?.kind == .rect)
    #expect(params["presentedFrame"]?.defaultValue == .rect(x: 0, y: 0, width: 0, height: 0))
    let instance = try registry.makeAnimator(id: "sheet")
    #expect(instance.transitionDuration(nil) == 1.0)
    instance.close()
  }

  @Test func presentSpringsTheSheetUpOverAFadingDimmingView() throws {
    let run = try Self.run(.present)
    try run.start()
    #expect(run.transition.duration == 1.0)
    // The dimming view is really there: made by the presentation controller, below the sheet.
    #expect(run.containerSubviews == ["presenter", "dimming", "sheet"])
    let dimming = try #require(run.scene.view(withID: "dimming"))
    #expect(dimming.backgroundColor == Color(r: 0, g: 0, b: 0, a: 1))
    let spring = UIKitSpring(dampingRatio: 1, duration: 1)
    for t in Self.times {
      let p = spring.progress(t)
      expectView(
        try run.state("sheet", at: t), frame: Rect(x: 0, y: 800 * (1 - p), width: 400, height: 800), alpha: 1, "t=\(t)")
      expectView(try run.state("dimming", at: t), frame: Self.bounds, alpha: 0.4 * p, "t=\(t)")
      expectView(try run.state("presenter", at: t), frame: Self.bounds, alpha: 1)
    }
    // Critically damped with the envelope (1 + ω₀T)·e^(−ω₀T) = 0.001 at T = 1 s: until the animation ends the sheet is
    // still 800 × 0.001 = 0.8 points short of its frame, then it shows its model frame (Core Animation's jump).
    expectClose(try run.state("sheet", at: 1 - 1e-9).frame.origin.y, 0.8, 1e-6)
    #expect(try run.state("sheet", at: 1).frame.origin.y == 0)
    #expect(try run.run() == .completed)
    // The presentation keeps the presenter's view; the dimming view stays for the dismissal.
    #expect(run.containerSubviews == ["presenter", "dimming", "sheet"])
    #expect(dimming.alpha == 0.4)
    #expect(run.to.frame == Self.bounds)
    #expect(run.problems.isEmpty)
  }

  @Test func presentedFrameAndDampingParameters() throws {
    let run = try Self.run(
      .present,
      params: [
        "presentedFrame": .rect(Rect(x: 20, y: 300, width: 360, height: 500)), "springDamping": .number(0.5),
        "backgroundAlpha": .number(0.6), "duration": .number(0.8),
      ])
    try run.start()
    #expect(run.transition.duration == 0.8)
    let spring = UIKitSpring(dampingRatio: 0.5, duration: 0.8)
    var overshoots = false
    for t in [0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.6, 0.7, 0.75, 0.79, 0.8] {
      let p = spring.progress(t)
      overshoots = overshoots || p > 1
      // From origin.y = maxY (800) to the presented frame's 300, in the presented frame's size.
      expectView(
        try run.state("sheet", at: t), frame: Rect(x: 20, y: 800 + (300 - 800) * p, width: 360, height: 500),
        alpha: 1, "t=\(t)")
      expectView(try run.state("dimming", at: t), frame: Self.bounds, alpha: 0.6 * p, "t=\(t)")
    }
    #expect(overshoots)  // ζ = 0.5 rings past the target
    #expect(try run.run() == .completed)
    #expect(run.to.frame == Rect(x: 20, y: 300, width: 360, height: 500))
    #expect(run.problems.isEmpty)
  }

  @Test func initialSpringVelocityParameter() throws {
    // Thrown up at 2 (UIKit's unit: twice the distance per second): x(t) = (1 + (ω₀ − 2)t)·e^(−ω₀t).
    let run = try Self.run(.present, params: ["initialSpringVelocity": .number(2)])
    try run.start()
    let spring = UIKitSpring(dampingRatio: 1, duration: 1, initialVelocity: 2)
    let atRest = UIKitSpring(dampingRatio: 1, duration: 1)
    #expect(spring.progress(0.1) > atRest.progress(0.1))
    for t in Self.times {
      let p = spring.progress(t)
      expectView(
        try run.state("sheet", at: t), frame: Rect(x: 0, y: 800 * (1 - p), width: 400, height: 800), alpha: 1, "t=\(t)")
      expectView(try run.state("dimming", at: t), frame: Self.bounds, alpha: 0.4 * p, "t=\(t)")
    }
    #expect(try run.run() == .completed)
    #expect(run.problems.isEmpty)
  }

  @Test func dismissPutsTheDimmingViewBackThenFadesAndRemovesIt() throws {
    let run = try Self.run(.dismiss)
    try run.start()
    // The client's scene had no dimming view: the controller put one under the sheet, as dim as the presentation
    // left it.
    #expect(run.containerSubviews == ["presenter", "dimming", "sheet"])
    let spring = UIKitSpring(dampingRatio: 1, duration: 1)
    for t in Self.times {
      let p = spring.progress(t)
      expectView(
        try run.state("sheet", at: t), frame: Rect(x: 0, y: 800 * p, width: 400, height: 800), alpha: 1, "t=\(t)")
      expectView(try run.state("dimming", at: t), frame: Self.bounds, alpha: 0.4 * (1 - p), "t=\(t)")
      expectView(try run.state("presenter", at: t), frame: Self.bounds, alpha: 1)
    }
    #expect(try run.run() == .completed)
    // The dimming view is gone, and so is the dismissed sheet.
    #expect(run.containerSubviews == ["presenter"])
    #expect(run.problems.isEmpty)
  }

  @Test func dismissUsesTheDimmingViewTheClientSent() throws {
    let run = try Self.run(.dismiss, dimming: true)
    try run.start()
    #expect(run.containerSubviews == ["presenter", "dimming", "sheet"])
    #expect(run.scene.view(withID: "dimming-2") == nil)
    expectClose(
      try run.state("dimming", at: 0.5).alpha, 0.4 * (1 - UIKitSpring(dampingRatio: 1, duration: 1).progress(0.5)))
    #expect(try run.run() == .completed)
    #expect(run.containerSubviews == ["presenter"])
    #expect(run.problems.isEmpty)
  }

  @Test(arguments: [TransitionOperation.present, .dismiss])
  func cancelLeavesEveryViewAsItStarted(_ operation: TransitionOperation) throws {
    let run = try Self.run(operation, interactive: true)
    let start = SceneState(run)
    try run.start()
    let spring = UIKitSpring(dampingRatio: 1, duration: 1)
    for percent in [0.2, 0.5] {
      try run.transition.update(percent: percent)
      let p = spring.progress(percent)
      let y = operation == .present ? 800 * (1 - p) : 800 * p
      expectView(try run.current("sheet"), frame: Rect(x: 0, y: y, width: 400, height: 800), alpha: 1)
    }
    try run.transition.cancel()
    #expect(try run.run() == .cancelled(reason: nil))
    // Cancellation is honoured (the original completed anyway) and the start is restored: no dimming view left.
    #expect(SceneState(run) == start)
    #expect(run.scene.container.subviews.allSatisfy { $0.id != "dimming" })
    #expect(run.problems.isEmpty)
  }

  @Test func releaseForwardAndBackward() throws {
    let forward = try Self.run(.present, interactive: true)
    try forward.start()
    try forward.transition.update(percent: 0.6)
    #expect(try forward.transition.release(velocity: 0) == .finish)
    #expect(try forward.run() == .completed)
    #expect(forward.containerSubviews == ["presenter", "dimming", "sheet"])

    let backward = try Self.run(.dismiss, interactive: true, dimming: true)
    let start = SceneState(backward)
    try backward.start()
    try backward.transition.update(percent: 0.3)
    #expect(try backward.transition.release(velocity: 0) == .cancel)
    #expect(try backward.run() == .cancelled(reason: nil))
    #expect(SceneState(backward) == start)
    #expect(forward.problems.isEmpty && backward.problems.isEmpty)
  }
}
