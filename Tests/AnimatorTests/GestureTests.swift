// Interaction controllers and gesture recognizers (ABI 1.2), driven through the TestPluginGestures fixture
// (Tests/Fixtures/Gestures, UIKit code) loaded with dlopen as a real plugin: the delegates are asked for their
// interaction controllers, samples reach the recognizers UIKit's hit-testing picks, and the controllers' own rules
// decide finish or cancel. Expected geometry comes from the seeds' formulas with TestSupport's reference curves.

import PluginHost
import TestSupport
import Testing
import TransitionEngine

@Suite struct GestureTests {
  static let pluginID = "com.example.test.gestures"

  /// One transition of fixture animator `id` in a 400 × 800 container (from and to roots 400 × 800, `toChildren`
  /// under the to root), started on creation; the interaction controller decides whether it starts held.
  final class Run {
    let log = LogCapture()
    let base: PluginTransitionRun

    init(
      _ id: String, _ operation: TransitionOperation, interactive: Bool? = nil,
      toChildren: [(id: String, frame: Rect, parent: String?, configure: (View) -> Void)] = []
    ) throws {
      let scene = Scene(containerSize: Size(width: 400, height: 800))
      let fromView = try makeView(scene, "from", Rect(x: 0, y: 0, width: 400, height: 800))
      let toView = try makeView(scene, "to", Rect(x: 0, y: 0, width: 400, height: 800))
      for child in toChildren {
        let parent = child.parent.flatMap { scene.view(withID: $0) } ?? toView
        child.configure(try makeView(scene, child.id, child.frame, in: parent))
      }
      if operation == .dismiss { scene.container.addSubview(toView) }
      scene.container.addSubview(fromView)
      var options = TransitionOptions(isInteractive: interactive ?? false)
      options.interactivityFromController = interactive == nil
      let registry = try TestSupport.registry(loadingFixtures: ["Gestures"], log: log)
      base = try PluginTransitionRun(
        registry, id, scene: scene, from: fromView, to: toView, operation: operation, options: options)
      try base.start()
    }

    var transition: Transition { base.transition }

    func notes() -> [String] {
      let sources = [GestureTests.pluginID] + GesturesIDs.all.map { "\(GestureTests.pluginID)/\($0)" }
      return log.records.filter { sources.contains($0.source) && $0.message.hasPrefix("note: ") }
        .map { String($0.message.dropFirst(6)) }
    }

    @discardableResult
    func gesture(
      _ state: GestureSample.State, at location: Point, moved translation: Point = .zero, velocity: Point = .zero
    ) throws -> GestureDelivery {
      try transition.deliverGesture(
        GestureSample(state: state, location: location, translation: translation, velocity: velocity))
    }

    func frame(_ id: String) throws -> Rect {
      try #require(try base.state(id, at: transition.time), "no view \(id)").frame
    }

    func advance(_ seconds: Double) throws {
      _ = try base.driver.perform(.advance(seconds: seconds))
    }
  }

  enum GesturesIDs {
    static let all = [
      "pull", "edge", "hit", "no-recognizers", "bare-selector", "running", "no-interaction", "recognizers", "scene",
    ]
  }

  // MARK: PullDown's rule: percent = translation.y / height; the velocity's sign decides, else percent > 0.5

  /// The presented view's y while the pull-down is at timeline time τ (0.5 s, easeInOut, from −800 to 0).
  static func pulledY(time: Double) -> Double { -800 * (1 - Reference.easeInOut(min(max(time / 0.5, 0), 1))) }

  @Test func thePresentationAsksForItsInteractionControllerAndStartsHeld() throws {
    let run = try Run("pull", .present)
    #expect(run.notes() == ["interactionControllerForPresentation true"])
    #expect(run.transition.state == .paused)
    #expect(run.transition.isInteractive)
    #expect(run.transition.time == 0)
  }

  @Test func aDownwardPanScrubsByTranslationOverHeightAndAFlickDownFinishes() throws {
    let run = try Run("pull", .present)
    #expect(try run.gesture(.began, at: Point(x: 200, y: 100)) == .received(recognizers: 1))
    #expect(
      try run.gesture(.changed, at: Point(x: 200, y: 300), moved: Point(x: 0, y: 200)) == .received(recognizers: 1))
    #expect(abs(run.transition.percent - 0.25) <= 1e-12)
    #expect(abs(try run.frame("to").origin.y - Self.pulledY(time: 0.125)) <= 1e-6)
    // A flick down finishes from 37.5 %, with completionSpeed 0.999 and the default easeInOut completion curve.
    try run.gesture(.changed, at: Point(x: 200, y: 400), moved: Point(x: 0, y: 300))
    try run.gesture(.ended, at: Point(x: 200, y: 400), moved: Point(x: 0, y: 300), velocity: Point(x: 0, y: 50))
    #expect(run.transition.state == .finishing)
    let from = 0.375 * 0.5
    let length = (0.5 - from) / 0.999
    try run.advance(0.1)
    let expectedTime = from + (0.5 - from) * Reference.easeInOut(0.1 / length)
    #expect(abs(run.transition.time - expectedTime) <= 1e-9)
    #expect(abs(try run.frame("to").origin.y - Self.pulledY(time: expectedTime)) <= 1e-6)
    let outcome = try run.base.run()
    #expect(outcome == .completed)
    #expect(
      run.notes() == [
        "interactionControllerForPresentation true", "began at (200.0, 100.0) touches 1",
        "changed 0.25 percentComplete 0.25 duration 0.5", "changed 0.375 percentComplete 0.375 duration 0.5",
        "ended 0.375 velocity (0.0, 50.0) finish",
      ])
  }

  @Test(arguments: [
    // (translation.y, velocity.y, finishes): the velocity's sign dominates (a 99 % drag with a slight reverse
    // cancels); without velocity, past half finishes.
    (792.0, -10.0, false), (8.0, 1.0, true), (480.0, 0.0, true), (320.0, 0.0, false), (400.0, 0.0, false),
  ])
  func theReleaseFollowsTheSeedsRule(_ moved: Double, _ velocity: Double, _ finishes: Bool) throws {
    let run = try Run("pull", .present)
    try run.gesture(.began, at: Point(x: 200, y: 10))
    try run.gesture(.changed, at: Point(x: 200, y: 10 + moved), moved: Point(x: 0, y: moved))
    try run.gesture(
      .ended, at: Point(x: 200, y: 10 + moved), moved: Point(x: 0, y: moved), velocity: Point(x: 0, y: velocity))
    #expect(run.transition.state == (finishes ? .finishing : .cancelling))
    let outcome = try run.base.run()
    #expect((outcome == .completed) == finishes)
    if !finishes {
      // Cancelled: everything is back where it started, the to root out of the container.
      #expect(run.base.containerSubviews == ["from"])
    }
  }

  @Test func anUpwardPanDismissesThroughTheDismissalsInteractionController() throws {
    let run = try Run("pull", .dismiss)
    #expect(run.notes() == ["interactionControllerForDismissal true"])
    try run.gesture(.began, at: Point(x: 200, y: 700))
    try run.gesture(.changed, at: Point(x: 200, y: 300), moved: Point(x: 0, y: -400))
    #expect(abs(run.transition.percent - 0.5) <= 1e-12)
    // The dismissal rolls the from view up: y = −800 · easeInOut(τ / 0.5).
    #expect(abs(try run.frame("from").origin.y - -800 * Reference.easeInOut(0.5)) <= 1e-6)
    try run.gesture(.ended, at: Point(x: 200, y: 300), moved: Point(x: 0, y: -400), velocity: Point(x: 0, y: -30))
    #expect(run.transition.state == .finishing)
    #expect(try run.base.run() == .completed)
  }

  @Test func aCancelledGestureCancels() throws {
    let run = try Run("pull", .present)
    try run.gesture(.began, at: Point(x: 200, y: 10))
    try run.gesture(.changed, at: Point(x: 200, y: 610), moved: Point(x: 0, y: 600))
    try run.gesture(.cancelled, at: Point(x: 200, y: 610), moved: Point(x: 0, y: 600))
    #expect(run.transition.state == .cancelling)
    #expect(run.notes().last == "cancelled")
  }

  // MARK: Gesture sequence

  @Test func samplesOutsideAGestureReachNoRecognizer() throws {
    let run = try Run("pull", .present)
    #expect(try run.gesture(.changed, at: Point(x: 1, y: 1)) == .notInProgress)
    #expect(try run.gesture(.ended, at: Point(x: 1, y: 1)) == .notInProgress)
    try run.gesture(.began, at: Point(x: 200, y: 10))
    try run.gesture(.changed, at: Point(x: 200, y: 110), moved: Point(x: 0, y: 100))
    try run.gesture(.ended, at: Point(x: 200, y: 110), moved: Point(x: 0, y: 100), velocity: Point(x: 0, y: 5))
    // The gesture is over: a later change has no recognizer.
    #expect(try run.gesture(.changed, at: Point(x: 200, y: 120)) == .notInProgress)
  }

  @Test func aTransitionWithoutAnInteractionControllerTakesNoGestures() throws {
    let run = try Run("no-interaction", .present, interactive: true)
    #expect(throws: TransitionError.noInteractionController) { try run.gesture(.began, at: Point(x: 1, y: 1)) }
    // Left open, no controller: it runs.
    let open = try Run("no-interaction", .present)
    #expect(open.transition.state == .running)
  }

  @Test func aControllerWithoutRecognizersSaysSo() throws {
    let run = try Run("no-recognizers", .present)
    #expect(try run.gesture(.began, at: Point(x: 1, y: 1)) == .noRecognizers)
  }

  @Test func nonFiniteSamplesAreRefusedNamingTheField() throws {
    let run = try Run("pull", .present)
    #expect(throws: TransitionError.invalidValue(field: "translation", reason: "must have finite x and y")) {
      try run.gesture(.began, at: Point(x: 1, y: 1), moved: Point(x: .nan, y: 0))
    }
    #expect(throws: TransitionError.invalidValue(field: "velocity", reason: "must have finite x and y")) {
      try run.gesture(.began, at: Point(x: 1, y: 1), velocity: Point(x: 0, y: .infinity))
    }
  }

  @Test func anActionWithoutAMethodIsReportedNotFatal() throws {
    let run = try Run("bare-selector", .present)
    #expect(try run.gesture(.began, at: Point(x: 5, y: 5)) == .received(recognizers: 1))
    let errors = run.log.records.filter { $0.level == .error }.map(\.message)
    #expect(errors.count == 1)
    #expect(errors.first?.contains("could not send handlePan: to BareSelectorInteraction") == true)
    #expect(errors.first?.contains("unrecognized selector") == true)
    #expect(run.transition.state == .paused)
  }

  // MARK: wantsInteractiveStart = false, completionSpeed and completionCurve

  @Test func aControllerThatStartsRunningIsGrabbedAndFinishesWithItsSpeedAndCurve() throws {
    let run = try Run("running", .present)
    #expect(run.transition.state == .running)
    try run.advance(0.1)
    try run.gesture(.began, at: Point(x: 200, y: 100))
    #expect(run.transition.state == .paused)
    #expect(run.notes() == ["paused at 0.2"])
    try run.gesture(.changed, at: Point(x: 200, y: 500), moved: Point(x: 0, y: 400))
    #expect(abs(run.transition.percent - 0.5) <= 1e-12)
    try run.gesture(.ended, at: Point(x: 200, y: 500), moved: Point(x: 0, y: 400))
    #expect(run.transition.state == .finishing)
    // Speed 2, linear: the remaining 0.25 s of timeline take 0.125 s.
    try run.advance(0.0625)
    #expect(abs(run.transition.time - 0.375) <= 1e-9)
    #expect(abs(try run.frame("to").origin.y - Self.pulledY(time: 0.375)) <= 1e-6)
    #expect(run.base.misbehaviors.isEmpty, "\(run.base.reports)")
  }

  @Test func theClientsWordOnInteractivityWins() throws {
    let running = try Run("pull", .present, interactive: false)
    #expect(running.transition.state == .running)
    // Its controller still takes the gesture, and an update grabs the transition.
    try running.gesture(.began, at: Point(x: 200, y: 10))
    try running.gesture(.changed, at: Point(x: 200, y: 210), moved: Point(x: 0, y: 200))
    #expect(running.transition.state == .paused)
    #expect(abs(running.transition.percent - 0.25) <= 1e-12)
  }

  // MARK: MagicMove's left-edge pop: progress = translation.x / width, > 0.5 finishes

  @Test func thePushHasNoInteractionControllerAndRuns() throws {
    let run = try Run("edge", .push)
    #expect(run.transition.state == .running)
    #expect(throws: TransitionError.noInteractionController) { try run.gesture(.began, at: Point(x: 5, y: 5)) }
  }

  @Test func aLeftEdgePanPopsOnlyFromTheEdge() throws {
    let run = try Run("edge", .pop)
    #expect(run.transition.state == .paused)
    // Away from the left edge the screen-edge recognizer does not begin.
    #expect(try run.gesture(.began, at: Point(x: 200, y: 400)) == .notHit)
    #expect(try run.gesture(.began, at: Point(x: 10, y: 400)) == .received(recognizers: 1))
    try run.gesture(.changed, at: Point(x: 250, y: 400), moved: Point(x: 240, y: 0))
    #expect(abs(run.transition.percent - 0.6) <= 1e-12)
    // Linear slide: the from view's x = width · τ / D.
    #expect(abs(try run.frame("from").origin.x - 400 * 0.6) <= 1e-6)
    try run.gesture(.ended, at: Point(x: 250, y: 400), moved: Point(x: 240, y: 0))
    #expect(run.transition.state == .finishing)
    #expect(try run.base.run() == .completed)
    #expect(run.notes() == ["edge began", "edge ended 0.6"])
  }

  @Test func aShortLeftEdgePanCancelsThePop() throws {
    let run = try Run("edge", .pop)
    try run.gesture(.began, at: Point(x: 0, y: 400))
    try run.gesture(.changed, at: Point(x: 160, y: 400), moved: Point(x: 160, y: 0))
    try run.gesture(.ended, at: Point(x: 160, y: 400), moved: Point(x: 160, y: 0))
    #expect(run.transition.state == .cancelling)
    #expect(try run.base.run() == .cancelled(reason: nil))
  }

  // MARK: Hit-testing: hidden, alpha < 0.01 and isUserInteractionEnabled = false take no touches

  typealias Child = (id: String, frame: Rect, parent: String?, configure: (View) -> Void)
  nonisolated(unsafe) static let target: Child = (
    "target", Rect(x: 100, y: 100, width: 100, height: 100), nil, { _ in }
  )

  static func cover(_ id: String, _ configure: @escaping (View) -> Void) -> Child {
    (id, Rect(x: 50, y: 50, width: 300, height: 300), nil, configure)
  }

  @Test func theRecognizersViewReceivesTheTouchInItsOwnCoordinates() throws {
    let run = try Run("hit", .present, toChildren: [Self.target])
    #expect(try run.gesture(.began, at: Point(x: 150, y: 120)) == .received(recognizers: 1))
    #expect(run.notes() == ["began on target at (50.0, 20.0)"])
    // Outside the target the hit view is the to root, whose chain has no recognizer.
    let other = try Run("hit", .present, toChildren: [Self.target])
    #expect(try other.gesture(.began, at: Point(x: 50, y: 50)) == .notHit)
  }

  @Test(arguments: [
    ("a visible cover", false), ("a hidden cover", true), ("a cover at alpha 0.005", true),
    ("a cover at alpha 0.01", false), ("a cover without user interaction", true),
  ])
  func coversAboveTheTargetTakeTheTouchUnlessTheyCannot(_ name: String, _ reaches: Bool) throws {
    let cover: Child =
      switch name {
      case "a hidden cover": Self.cover("cover") { $0.isHidden = true }
      case "a cover at alpha 0.005": Self.cover("cover") { $0.alpha = 0.005 }
      case "a cover at alpha 0.01": Self.cover("cover") { $0.alpha = 0.01 }
      case "a cover without user interaction": Self.cover("noTouchCover") { _ in }
      default: Self.cover("cover") { _ in }
      }
    let run = try Run("hit", .present, toChildren: [Self.target, cover])
    #expect(try run.gesture(.began, at: Point(x: 150, y: 150)) == (reaches ? .received(recognizers: 1) : .notHit))
  }

  @Test func aSuperviewWithoutUserInteractionHidesItsSubtree() throws {
    let run = try Run(
      "hit", .present,
      toChildren: [
        ("noTouchBox", Rect(x: 0, y: 0, width: 400, height: 400), nil, { _ in }),
        ("target", Rect(x: 100, y: 100, width: 100, height: 100), "noTouchBox", { _ in }),
      ])
    #expect(try run.gesture(.began, at: Point(x: 150, y: 150)) == .notHit)
  }

  @Test func aSubviewOutsideItsSuperviewsBoundsIsNotHit() throws {
    let run = try Run(
      "hit", .present,
      toChildren: [
        ("box", Rect(x: 0, y: 0, width: 50, height: 50), nil, { _ in }),
        ("target", Rect(x: 100, y: 100, width: 100, height: 100), "box", { _ in }),
      ])
    #expect(try run.gesture(.began, at: Point(x: 150, y: 150)) == .notHit)
  }

  @Test func translationVelocityAndSetTranslation() throws {
    let run = try Run("hit", .present, toChildren: [Self.target])
    try run.gesture(.began, at: Point(x: 150, y: 150))
    try run.gesture(.changed, at: Point(x: 170, y: 150), moved: Point(x: 20, y: 0), velocity: Point(x: 100, y: -5))
    #expect(abs(run.transition.percent - 0.2) <= 1e-12)
    // Past 50 points the handler resets the translation; later movement adds to zero.
    try run.gesture(.changed, at: Point(x: 210, y: 150), moved: Point(x: 60, y: 0))
    try run.gesture(.changed, at: Point(x: 220, y: 150), moved: Point(x: 70, y: 0))
    #expect(abs(run.transition.percent - 0.1) <= 1e-12)
    #expect(
      run.notes() == [
        "began on target at (50.0, 50.0)", "translation (20.0, 0.0) velocity (100.0, -5.0)",
        "translation (60.0, 0.0) velocity (0.0, 0.0)", "reset to (0.0, 0.0)",
        "translation (10.0, 0.0) velocity (0.0, 0.0)",
      ])
  }

  @Test func aScaledViewSeesTheMovementInItsOwnUnits() throws {
    // The target is scaled 2× about its centre: 20 container points are 10 of its own.
    let run = try Run(
      "hit", .present,
      toChildren: [
        ("target", Rect(x: 100, y: 100, width: 100, height: 100), nil, { $0.transform = Transform3D(scaleX: 2, y: 2) })
      ])
    try run.gesture(.began, at: Point(x: 150, y: 150))
    try run.gesture(.changed, at: Point(x: 170, y: 150), moved: Point(x: 20, y: 0), velocity: Point(x: 40, y: 0))
    #expect(run.notes() == ["began on target at (50.0, 50.0)", "translation (10.0, 0.0) velocity (40.0, 0.0)"])
  }

  // MARK: The recognizer API

  nonisolated(unsafe) static let recognizerChildren: [Child] = ["refuse", "disabled", "removed", "switch"].enumerated()
    .map { index, id in
      (id, Rect(x: Double(index) * 100, y: 0, width: 100, height: 100), nil, { _ in })
    }

  @Test func targetsDelegatesEnablingRemovalEdgesAndHitTesting() throws {
    let run = try Run("recognizers", .present, toChildren: Self.recognizerChildren)
    #expect(run.notes() == ["to has 2, removed has 0, container has none", "hitTest refuse"])
    // A refusing delegate, a disabled recognizer and a removed one pass the touch up to the root's pan, whose
    // removed target–action pair is not called; the root's edge pan (added first) declines away from its edges.
    for x in [50.0, 150, 250] {
      #expect(try run.gesture(.began, at: Point(x: x, y: 50)) == .received(recognizers: 1))
      try run.gesture(.ended, at: Point(x: x, y: 50))
    }
    // The right and bottom edges start the edge pan.
    try run.gesture(.began, at: Point(x: 395, y: 400))
    try run.gesture(.cancelled, at: Point(x: 395, y: 400))
    try run.gesture(.began, at: Point(x: 200, y: 790))
    try run.gesture(.ended, at: Point(x: 200, y: 790))
    // A recognizer disabled during its gesture is cancelled at once and receives nothing more.
    try run.gesture(.began, at: Point(x: 350, y: 50))
    try run.gesture(.changed, at: Point(x: 360, y: 50), moved: Point(x: 10, y: 0))
    #expect(try run.gesture(.changed, at: Point(x: 370, y: 50), moved: Point(x: 20, y: 0)) == .notInProgress)
    #expect(
      Array(run.notes().dropFirst(2)) == [
        "b began at (50.0, 50.0) on to", "b ended at (50.0, 50.0) on to",
        "b began at (150.0, 50.0) on to", "b ended at (150.0, 50.0) on to",
        "b began at (250.0, 50.0) on to", "b ended at (250.0, 50.0) on to",
        "edge began at (395.0, 400.0) on to", "edge cancelled at (395.0, 400.0) on to",
        "edge began at (200.0, 790.0) on to", "edge ended at (200.0, 790.0) on to",
        "switch began at (350.0, 50.0) on switch", "switch changed at (360.0, 50.0) on switch",
        "switch cancelled at (360.0, 50.0) on switch",
      ])
  }
}
