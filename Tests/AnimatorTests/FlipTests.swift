import CTransitionABI
import PluginHost
import TestSupport
import Testing
import TransitionEngine

private typealias S = CAnimatorSupport

@Suite struct FlipTests {
  @Test func describesItselfWithTheSeedsDefaults() throws {
    let log = LogCapture()
    let registry = try registry(loadingBuiltIns: ["Flip"], log: log)
    let plugin = try #require(registry.plugins.first)
    #expect(plugin.info.id == "com.transitionhost.flip")
    #expect(plugin.info.abi.major == TH_ABI_VERSION_MAJOR)
    let flip = try registry.resolve(animatorID: "flip")
    #expect(flip.qualifiedID == "com.transitionhost.flip/flip")
    #expect(flip.info.operations == ["present", "dismiss"])
    #expect(!flip.info.supports(operation: "push"))

    let params = Dictionary(uniqueKeysWithValues: flip.info.params.map { ($0.name, $0) })
    #expect(flip.info.params.map(\.name) == ["duration", "perspective", "shadow"])
    // FlipTransion: 0.8 s; m34 = −0.002, an eye 500 points away; the gradient shadow on.
    #expect(params["duration"]?.kind == .number)
    #expect(params["duration"]?.defaultValue == .number(0.8))
    #expect(params["duration"]?.minimum == 0)
    #expect(params["perspective"]?.defaultValue == .number(500))
    #expect(params["perspective"].map { $0.minimum! > 0 } == true)
    #expect(params["shadow"]?.kind == .bool)
    #expect(params["shadow"]?.defaultValue == .bool(true))
    #expect(flip.info.params.allSatisfy { $0.doc?.isEmpty == false })
    #expect(log.warnings.isEmpty)
  }

  @Test func asksWithoutAContextForTheSeedsDuration() throws {
    let registry = try registry(loadingBuiltIns: ["Flip"])
    let lease = try registry.lease(animatorID: "flip")
    let instance = try #require(lease.makeInstance())
    #expect(instance.transitionDuration() == 0.8)
  }

  @Test func itsPresentationControllerRemovesThePresentersView() throws {
    // The flip turns the presenting view, which view(forKey: .from) only gives when the presentation removes it.
    let registry = try registry(loadingBuiltIns: ["Flip"])
    let lease = try registry.lease(animatorID: "flip")
    let instance = try #require(lease.makeInstance())
    let getExtension = try #require(lease.descriptor.pointee.get_extension)
    let raw = try #require(getExtension(instance.state, TH_EXT_PRESENTATION_CONTROLLER))
    let controller = raw.assumingMemoryBound(to: th_presentation_controller.self)
    #expect(controller.pointee.struct_size >= UInt32(MemoryLayout<th_presentation_controller>.size))
    let shouldRemove = try #require(controller.pointee.should_remove_presenters_view)
    #expect(shouldRemove(instance.state, th_context(id: 0)))
    #expect(controller.pointee.frame_of_presented_view == nil)  // UIKit's default: the container's bounds
    #expect(getExtension(instance.state, "th.no-such-extension/1") == nil)
    #expect(getExtension(instance.state, nil) == nil)
  }

  // MARK: - Transitions on the manual clock

  /// FlipTransion's geometry at timeline time t for a page of `frame` turned to θ: the turning root has anchor
  /// (0, 0.5) at the left middle of the frame, rotation θ about y, under m34 = −1/d on the container; its world
  /// matrix and bounding box are computed twice, by the matrix chain and by the corner formulas. The shadow
  /// (`isPage` false) covers the page's bounds exactly, so it has the page's matrix and box.
  private func expectTurned(
    _ state: ViewState?, theta: Double, perspective d: Double = 500, frame: Rect = Rect(origin: .zero, size: S.screen),
    isPage: Bool = true, _ comment: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard let state else {
      Issue.record("\(comment): not on screen", sourceLocation: sourceLocation)
      return
    }
    let expected = S.worldInContainer(
      size: frame.size, anchor: Point(x: 0, y: 0.5), transform: S.rotationY(theta),
      position: Point(x: frame.x, y: frame.y + frame.height / 2), container: S.screen, sublayer: S.perspective(d))
    #expect(
      S.maxDifference(S.matrix(state.worldTransform), expected) < 1e-6, "\(comment)", sourceLocation: sourceLocation)
    let box = S.box(S.turnedCorners(frame: frame, theta: theta, container: S.screen, perspective: d))
    if let actual = state.boundingBox {
      #expect(S.maxDifference(actual, box) < 1e-6, "\(comment): \(actual) vs \(box)", sourceLocation: sourceLocation)
    } else {
      Issue.record("\(comment): no bounding box", sourceLocation: sourceLocation)
    }
    // The shadow (isPage false) has its own centred anchor in the page's bounds; its matrix and box are the page's.
    guard isPage else { return }
    #expect(state.anchorPoint == Point(x: 0, y: 0.5), "\(comment)", sourceLocation: sourceLocation)
    #expect(
      state.position == Point(x: frame.x, y: frame.y + frame.height / 2), "\(comment)", sourceLocation: sourceLocation)
  }

  /// The flat view under (or over) the page: identity transform at the container's centre, under the perspective.
  private func expectFlat(
    _ state: ViewState?, perspective d: Double = 500, _ comment: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard let state else {
      Issue.record("\(comment): not on screen", sourceLocation: sourceLocation)
      return
    }
    let expected = S.worldInContainer(
      size: S.screen, anchor: Point(x: 0.5, y: 0.5), transform: S.identity,
      position: Point(x: S.screen.width / 2, y: S.screen.height / 2), container: S.screen, sublayer: S.perspective(d))
    #expect(
      S.maxDifference(S.matrix(state.worldTransform), expected) < 1e-6, "\(comment)", sourceLocation: sourceLocation)
    #expect(state.frame == Rect(origin: .zero, size: S.screen), "\(comment)", sourceLocation: sourceLocation)
    #expect(state.boundingBox.map { S.maxDifference($0, state.frame) < 1e-9 } == true, sourceLocation: sourceLocation)
    #expect(state.alpha == 1, "\(comment)", sourceLocation: sourceLocation)
  }

  /// The shadow over the page: FlipTransion's three colours (the third one valid now), left to right.
  private static let shadowGradient = Gradient(
    colors: [Color(r: 0, g: 0, b: 0, a: 1), Color(r: 0, g: 0, b: 0, a: 0.5), Color(r: 1, g: 1, b: 1, a: 0.5)],
    locations: nil, startPoint: Point(x: 0, y: 0.5), endPoint: Point(x: 1, y: 0.5))

  private static let times = [0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8]

  @Test func presentTurnsThePresenterAwayAboutItsLeftEdge() throws {
    let log = LogCapture()
    let registry = try registry(loadingBuiltIns: ["Flip"], log: log)
    let run = try S.Run(registry, "flip", .present, fromFirst: true)
    try run.transition.start()
    #expect(run.transition.duration == 0.8)
    // The new screen lies under the page: added, then the presenter brought to the front.
    #expect(run.containerSubviews == ["second", "first"])
    #expect(run.first.subviews.map(\.id) == ["first-label", "flip-shadow"])
    #expect(run.scene.container.sublayerTransform.m34 == -0.002)

    for t in Self.times {
      let progress = Reference.easeOut(t / 0.8)
      let theta = -Double.pi / 2 * progress
      let views = try run.transition.sample(time: t)
      let page = views.first { $0.id == "first" }
      expectTurned(page, theta: theta, "present, t = \(t)")
      #expect(page?.alpha == 1)
      expectFlat(views.first { $0.id == "second" }, "the presented view, t = \(t)")
      let shadow = try #require(views.first { $0.id == "flip-shadow" })
      #expect(shadow.parentID == "first")
      #expect(abs(shadow.alpha - progress) < 1e-6, "shadow alpha at t = \(t)")
      #expect(abs(shadow.opacity - progress) < 1e-6)
      #expect(shadow.gradient == Self.shadowGradient)
      // The shadow covers the page exactly, so it turns with it.
      expectTurned(shadow, theta: theta, isPage: false, "shadow, t = \(t)")
      #expect(shadow.frame == Rect(origin: .zero, size: S.screen))
      // The page is drawn over the presented view.
      if let page, let under = views.first(where: { $0.id == "second" }) { #expect(page.zIndex > under.zIndex) }
    }
    // At the end the page is edge-on: its right edge is 375 points nearer the eye (w = 1 − 375/500 = 1/4), so
    // it projects to x = 187.5 − 187.5·4 = −562.5, and its height to 667·4 about y = 333.5.
    let end = try #require(try run.state("first", at: 0.8)?.boundingBox)
    #expect(abs(end.x + 562.5) < 1e-6 && abs(end.width - 562.5) < 1e-6)
    #expect(abs(end.y + 1000.5) < 1e-6 && abs(end.height - 2668) < 1e-6)

    #expect(try run.runToEnd() == .completed)
    // The presenter's view leaves (shouldRemovePresentersView), restored: anchor, position, transform, no shadow.
    #expect(run.containerSubviews == ["second"])
    #expect(run.first.anchorPoint == Point(x: 0.5, y: 0.5))
    #expect(run.first.position == Point(x: 187.5, y: 333.5))
    #expect(run.first.transform == .identity)
    #expect(run.first.subviews.map(\.id) == ["first-label"])
    #expect(run.scene.container.sublayerTransform == .identity)
    #expect(run.second.frame == Rect(origin: .zero, size: S.screen))
    #expect(run.misbehaviors.isEmpty)
    #expect(log.warnings.isEmpty)
  }

  @Test func dismissTurnsThePresenterBackOnTop() throws {
    let log = LogCapture()
    let registry = try registry(loadingBuiltIns: ["Flip"], log: log)
    let run = try S.Run(registry, "flip", .dismiss, fromFirst: false)
    try run.transition.start()
    #expect(run.transition.duration == 0.8)
    // The presenter's view was removed by the presentation, so the flip adds it on top.
    #expect(run.containerSubviews == ["second", "first"])
    #expect(run.scene.container.sublayerTransform.m34 == -0.002)

    for t in Self.times {
      let progress = Reference.easeIn(t / 0.8)
      let theta = -Double.pi / 2 * (1 - progress)
      let views = try run.transition.sample(time: t)
      let page = views.first { $0.id == "first" }
      expectTurned(page, theta: theta, "dismiss, t = \(t)")
      expectFlat(views.first { $0.id == "second" }, "the presented view, t = \(t)")
      let shadow = try #require(views.first { $0.id == "flip-shadow" })
      #expect(shadow.parentID == "first")
      #expect(abs(shadow.alpha - (1 - progress)) < 1e-6, "shadow alpha at t = \(t)")
      #expect(shadow.gradient == Self.shadowGradient)
      expectTurned(shadow, theta: theta, isPage: false, "shadow, t = \(t)")
      #expect(shadow.frame == Rect(origin: .zero, size: S.screen))
    }

    #expect(try run.runToEnd() == .completed)
    #expect(run.containerSubviews == ["first"])
    #expect(run.first.anchorPoint == Point(x: 0.5, y: 0.5))
    #expect(run.first.position == Point(x: 187.5, y: 333.5))
    #expect(run.first.transform == .identity)
    #expect(run.first.frame == Rect(origin: .zero, size: S.screen))
    #expect(run.first.subviews.map(\.id) == ["first-label"])
    #expect(run.scene.container.sublayerTransform == .identity)
    #expect(run.misbehaviors.isEmpty)
    #expect(log.warnings.isEmpty)
  }

  @Test func parametersSetDurationPerspectiveAndShadow() throws {
    let registry = try registry(loadingBuiltIns: ["Flip"])
    let run = try S.Run(
      registry, "flip", .present, fromFirst: true,
      params: ["duration": .number(1.2), "perspective": .number(1000), "shadow": .bool(false)])
    try run.transition.start()
    #expect(run.transition.duration == 1.2)
    #expect(run.scene.container.sublayerTransform.m34 == -0.001)
    #expect(run.first.subviews.map(\.id) == ["first-label"])
    for t in [0.3, 0.6, 0.9, 1.2] {
      let views = try run.transition.sample(time: t)
      expectTurned(
        views.first { $0.id == "first" }, theta: -Double.pi / 2 * Reference.easeOut(t / 1.2), perspective: 1000,
        "t = \(t)")
      #expect(!views.contains { $0.id.hasPrefix("flip-shadow") })
    }
    #expect(try run.runToEnd() == .completed)
    #expect(run.containerSubviews == ["second"])
  }

  @Test func aPresenterThatDoesNotFillTheContainerTurnsAboutItsOwnLeftEdge() throws {
    // The seed puts the hinge at (0, h/2), which assumes a frame at the origin; the flip uses the frame's left
    // middle, and lays the presented view on the presenter's frame, as the seed does.
    let frame = Rect(x: 20, y: 40, width: 335, height: 600)
    let registry = try registry(loadingBuiltIns: ["Flip"])
    let run = try S.Run(registry, "flip", .present, fromFirst: true, fromFrame: frame)
    try run.transition.start()
    for t in [0, 0.2, 0.4, 0.6, 0.8] {
      let views = try run.transition.sample(time: t)
      expectTurned(
        views.first { $0.id == "first" }, theta: -Double.pi / 2 * Reference.easeOut(t / 0.8), frame: frame, "t = \(t)")
      #expect(views.first { $0.id == "second" }?.frame == frame)
    }
    #expect(try run.runToEnd() == .completed)
    #expect(run.first.frame == frame && run.first.anchorPoint == Point(x: 0.5, y: 0.5))
    #expect(run.first.transform == .identity)
  }

  @Test func scrubbedPresentationFollowsTheCurveAndCancelsBackToTheStart() throws {
    let registry = try registry(loadingBuiltIns: ["Flip"])
    let run = try S.Run(registry, "flip", .present, fromFirst: true, options: TransitionOptions(isInteractive: true))
    try run.transition.start()
    for percent in [0.3, 0.6, 0.45] {
      try run.transition.update(percent: percent)
      // Scrubbing maps percent to time linearly; the block's easeOut still shapes the turn.
      let views = run.transition.presentation()
      expectTurned(
        views.first { $0.id == "first" }, theta: -Double.pi / 2 * Reference.easeOut(percent), "at \(percent)")
      let shadow = views.first { $0.id == "flip-shadow" }
      #expect(shadow.map { abs($0.alpha - Reference.easeOut(percent)) < 1e-6 } == true)
    }
    try run.transition.cancel()
    #expect(try run.runToEnd() == .cancelled(reason: nil))
    // Every view exactly as it started: the presenter alone, flat, centred, no shadow, no perspective.
    #expect(S.Run.records(of: run.scene) == run.recordsBefore)
    #expect(run.scene.presentation(at: 0) == run.presentationBefore)
    #expect(run.misbehaviors.isEmpty)
  }

  @Test func releasedForwardsItCompletesAndBackwardsItCancels() throws {
    let registry = try registry(loadingBuiltIns: ["Flip"])
    let forward = try S.Run(
      registry, "flip", .dismiss, fromFirst: false, options: TransitionOptions(isInteractive: true))
    try forward.transition.start()
    try forward.transition.update(percent: 0.6)
    _ = try forward.transition.release()
    #expect(try forward.runToEnd() == .completed)
    #expect(forward.containerSubviews == ["first"])
    #expect(forward.first.transform == .identity && forward.first.anchorPoint == Point(x: 0.5, y: 0.5))

    let backward = try S.Run(
      registry, "flip", .dismiss, fromFirst: false, options: TransitionOptions(isInteractive: true))
    try backward.transition.start()
    try backward.transition.update(percent: 0.6)
    _ = try backward.transition.release(velocity: -1)
    #expect(try backward.runToEnd() == .cancelled(reason: nil))
    #expect(S.Run.records(of: backward.scene) == backward.recordsBefore)
    #expect(backward.scene.presentation(at: 0) == backward.presentationBefore)
  }

  @Test func aRunningPresentationCancelledHalfwayReturnsToItsStart() throws {
    let registry = try registry(loadingBuiltIns: ["Flip"])
    let run = try S.Run(registry, "flip", .present, fromFirst: true)
    try run.transition.start()
    try run.transition.advance(by: 0.4)
    try run.transition.cancel()
    #expect(try run.runToEnd() == .cancelled(reason: nil))
    #expect(S.Run.records(of: run.scene) == run.recordsBefore)
    #expect(run.scene.presentation(at: 0) == run.presentationBefore)
  }
}
