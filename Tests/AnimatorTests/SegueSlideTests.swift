import CTransitionABI
import PluginHost
import TestSupport
import Testing
import TransitionEngine

private typealias S = CAnimatorSupport

/// Who runs the seed's segue and unwind: the built-in C animator, or the UIKit example (Examples/uikit/Segue, two
/// UIStoryboardSegue subclasses and a declaration file). Both must give the seed's geometry.
enum SegueImplementation: String, CaseIterable, Sendable {
  case builtIn = "segue-slide"
  case uikitExample = "slide"

  var animatorID: String { rawValue }

  func registry(_ log: LogCapture = LogCapture()) throws -> PluginRegistry {
    switch self {
    case .builtIn: try TestSupport.registry(loadingBuiltIns: ["SegueSlide"], log: log)
    case .uikitExample: try TestSupport.registry(loadingPaths: [BuildProducts.uikitExample("Segue")], log: log)
    }
  }
}

@Suite struct SegueSlideTests {
  @Test func describesItselfWithTheSeedsDefaults() throws {
    let log = LogCapture()
    let registry = try registry(loadingBuiltIns: ["SegueSlide"], log: log)
    #expect(registry.plugins.first?.info.id == "com.transitionhost.segue-slide")
    let slide = try registry.resolve(animatorID: "segue-slide")
    #expect(slide.info.operations == ["segue", "unwind"])
    #expect(!slide.info.supports(operation: "present"))
    // SegueTransion: UIView.animate(0.5, usingSpringWithDamping: 0.5, initialSpringVelocity: 0).
    #expect(slide.info.params.map(\.name) == ["duration", "dampingRatio", "initialVelocity"])
    #expect(slide.info.params.map(\.defaultValue) == [.number(0.5), .number(0.5), .number(0)])
    #expect(slide.info.params.allSatisfy { $0.kind == .number && $0.doc?.isEmpty == false })
    let ratio = try #require(slide.info.params.first { $0.name == "dampingRatio" })
    // UIKit's damping ratio lies in (0, 1].
    #expect(ratio.minimum.map { $0 > 0 } == true)
    #expect(ratio.maximum == 1)
    #expect(log.warnings.isEmpty)
  }

  @Test func asksWithoutAContextForTheSeedsDurationAndHasNoExtensions() throws {
    let registry = try registry(loadingBuiltIns: ["SegueSlide"])
    let lease = try registry.lease(animatorID: "segue-slide")
    let instance = try #require(lease.makeInstance())
    #expect(instance.transitionDuration() == 0.5)
    // Segues replace the source scene by default: no presentation controller is needed.
    #expect(lease.descriptor.pointee.get_extension == nil)
  }

  @Test func referenceSpringMatchesFramersPublishedCheckValue() {
    // framer/SpringsExample: T = 3, ζ = 0.25 → stiffness 54.83363359078326 (mass 1, so k = ω₀²). This checks the
    // closed-form root the tests use for the spring against a published number.
    let omega = UIKitSpring(dampingRatio: 0.25, duration: 3).omega
    #expect(abs(omega * omega - 54.83363359078326) < 1e-9)
  }

  // MARK: - Transitions on the manual clock

  /// Sample times over the 0.5 s spring, with several in the last tenth and one just before the end: Core Animation
  /// shows the spring's closed form until the animation ends, then the model value (a jump by x(0.5)).
  private static let times = [
    0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.44, 0.46, 0.48, 0.49, 0.5 - 1e-9, 0.5, 0.6,
  ]

  /// A full-screen view at vertical offset y, with no transform and no perspective: frame, world matrix (a plain
  /// translation) and bounding box.
  private func expectAt(
    _ state: ViewState?, y: Double, _ comment: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard let state else {
      Issue.record("\(comment): not on screen", sourceLocation: sourceLocation)
      return
    }
    let frame = Rect(x: 0, y: y, width: S.screen.width, height: S.screen.height)
    #expect(
      S.maxDifference(state.frame, frame) < 1e-6, "\(comment): \(state.frame) vs y = \(y)",
      sourceLocation: sourceLocation)
    #expect(
      S.maxDifference(S.matrix(state.worldTransform), S.translation(0, y)) < 1e-6, "\(comment)",
      sourceLocation: sourceLocation)
    #expect(
      state.boundingBox.map { S.maxDifference($0, frame) < 1e-6 } == true, "\(comment)", sourceLocation: sourceLocation)
    #expect(state.alpha == 1, "\(comment)", sourceLocation: sourceLocation)
  }

  @Test(arguments: SegueImplementation.allCases)
  func segueSpringsTheDestinationUpFromBelow(_ implementation: SegueImplementation) throws {
    let log = LogCapture()
    let run = try S.Run(try implementation.registry(log), implementation.animatorID, .segue, fromFirst: true)
    try run.transition.start()
    #expect(run.transition.duration == 0.5)
    // The destination goes above the source.
    #expect(run.containerSubviews == ["first", "second"])
    var lowest = Double.infinity
    for t in Self.times {
      let progress = UIKitSpring(dampingRatio: 0.5, duration: 0.5).progress(t)
      let views = try run.transition.sample(time: t)
      // Starts at (0, H) and moves by −H·progress.
      expectAt(views.first { $0.id == "second" }, y: 667 * (1 - progress), "segue, t = \(t)")
      expectAt(views.first { $0.id == "first" }, y: 0, "the source stays, t = \(t)")
      lowest = min(lowest, 667 * (1 - progress))
    }
    // ζ = 0.5 overshoots: the destination rises above the top of the container before it lands.
    #expect(lowest < -50)
    // The last instant before 0.5 s is the free spring, 667·x(0.5) from the top: the mapping puts the envelope term
    // (ζ/√(1 − ζ²))·e^(−ζω₀T) at 0.001, so |x(T)| ≤ √(1 + ζ²/(1 − ζ²))·e^(−ζω₀T) = 0.001/ζ. At 0.5 s the animation
    // ends and the model frame shows.
    let residual = UIKitSpring(dampingRatio: 0.5, duration: 0.5).displacement(0.5)
    #expect(abs(residual) <= 0.002 && residual != 0)
    expectAt(try run.state("second", at: 0.5 - 1e-9), y: 667 * residual, "just before the end")
    expectAt(try run.state("second", at: 0.5), y: 0, "at the end")

    #expect(try run.runToEnd() == .completed)
    // A segue replaces the source scene.
    #expect(run.containerSubviews == ["second"])
    #expect(run.second.frame == Rect(origin: .zero, size: S.screen))
    #expect(run.misbehaviors.isEmpty)
    #expect(log.warnings.isEmpty)
  }

  @Test(arguments: SegueImplementation.allCases)
  func unwindSpringsTheSourceDownOverTheDestination(_ implementation: SegueImplementation) throws {
    let log = LogCapture()
    let run = try S.Run(try implementation.registry(log), implementation.animatorID, .unwind, fromFirst: false)
    try run.transition.start()
    // The screen unwound to goes below the source.
    #expect(run.containerSubviews == ["first", "second"])
    for t in Self.times {
      let progress = UIKitSpring(dampingRatio: 0.5, duration: 0.5).progress(t)
      let views = try run.transition.sample(time: t)
      expectAt(views.first { $0.id == "second" }, y: 667 * progress, "unwind, t = \(t)")
      expectAt(views.first { $0.id == "first" }, y: 0, "the destination stays, t = \(t)")
    }
    #expect(try run.runToEnd() == .completed)
    #expect(run.containerSubviews == ["first"])
    #expect(run.first.frame == Rect(origin: .zero, size: S.screen))
    #expect(run.misbehaviors.isEmpty)
    #expect(log.warnings.isEmpty)
  }

  @Test func parametersShapeTheSpring() throws {
    let registry = try registry(loadingBuiltIns: ["SegueSlide"])
    let run = try S.Run(
      registry, "segue-slide", .segue, fromFirst: true,
      params: ["duration": .number(0.7), "dampingRatio": .number(0.8)])
    try run.transition.start()
    #expect(run.transition.duration == 0.7)
    for t in [0.05, 0.1, 0.2, 0.35, 0.5, 0.63, 0.66, 0.69, 0.7] {
      let progress = UIKitSpring(dampingRatio: 0.8, duration: 0.7).progress(t)
      expectAt(try run.state("second", at: t), y: 667 * (1 - progress), "ζ 0.8, T 0.7, t = \(t)")
    }
    #expect(try run.runToEnd() == .completed)
  }

  @Test(arguments: SegueImplementation.allCases)
  func scrubbedSegueFollowsTheSpringAndCancelsBackToTheStart(_ implementation: SegueImplementation) throws {
    let run = try S.Run(
      try implementation.registry(), implementation.animatorID, .segue, fromFirst: true,
      options: TransitionOptions(isInteractive: true))
    try run.transition.start()
    for percent in [0.2, 0.5, 0.35] {
      try run.transition.update(percent: percent)
      let progress = UIKitSpring(dampingRatio: 0.5, duration: 0.5).progress(percent * 0.5)
      expectAt(run.transition.presentation().first { $0.id == "second" }, y: 667 * (1 - progress), "at \(percent)")
    }
    try run.transition.cancel()
    #expect(try run.runToEnd() == .cancelled(reason: nil))
    #expect(S.Run.records(of: run.scene) == run.recordsBefore)
    #expect(run.scene.presentation(at: 0) == run.presentationBefore)
    #expect(run.misbehaviors.isEmpty)
  }

  @Test func interactiveUnwindFinishesOrCancelsOnRelease() throws {
    let registry = try registry(loadingBuiltIns: ["SegueSlide"])
    let forward = try S.Run(
      registry, "segue-slide", .unwind, fromFirst: false, options: TransitionOptions(isInteractive: true))
    try forward.transition.start()
    try forward.transition.update(percent: 0.3)
    _ = try forward.transition.release(velocity: 1)
    #expect(try forward.runToEnd() == .completed)
    #expect(forward.containerSubviews == ["first"])

    let backward = try S.Run(
      registry, "segue-slide", .unwind, fromFirst: false, options: TransitionOptions(isInteractive: true))
    try backward.transition.start()
    try backward.transition.update(percent: 0.7)
    _ = try backward.transition.release(velocity: -1)
    #expect(try backward.runToEnd() == .cancelled(reason: nil))
    #expect(S.Run.records(of: backward.scene) == backward.recordsBefore)
    #expect(backward.scene.presentation(at: 0) == backward.presentationBefore)
  }
}
