import PluginHost
import TestSupport
import Testing
import TransitionEngine

/// Who runs the seed's pull-down: the built-in TransitionKit animator, or the UIKit example (Examples/uikit/PullDown: a
/// transitioning delegate, an animation controller and a presentation controller as the app has them, and a
/// declaration file). Both must give the seed's geometry.
enum PullDownImplementation: String, CaseIterable, Sendable {
  case builtIn = "pull-down"
  case uikitExample = "pull"

  var animatorID: String { rawValue }
  var path: String {
    self == .builtIn ? BuildProducts.builtInPlugin("PullDown") : BuildProducts.uikitExample("PullDown")
  }
}

/// pull-down (reference §12.1): 0.5 s, easeInOut. Present: the to view starts at y = −height (the container's
/// bounds shifted up), is added on top, and moves to the bounds. Dismiss: the to view is inserted below at the
/// bounds, the from view moves to y = −height. The presentation controller removes the presenter's view.
@Suite struct PullDownTests {
  /// A 400 × 800 container; "presenter" (with a subview "label") and "presented" (with "content"). On screen: the
  /// from root only (after a pull-down presentation the presenter's view has left the hierarchy).
  static func trees(_ scene: Scene, dismissing: Bool) throws -> (from: View, to: View) {
    let presenter = try makeView(scene, "presenter", Rect(x: 0, y: 0, width: 400, height: 800))
    try makeView(scene, "label", Rect(x: 20, y: 40, width: 200, height: 30), in: presenter)
    let presented = try makeView(scene, "presented", Rect(x: 0, y: 0, width: 400, height: 800))
    try makeView(scene, "content", Rect(x: 10, y: 100, width: 380, height: 600), in: presented)
    let roots = dismissing ? (from: presented, to: presenter) : (from: presenter, to: presented)
    scene.container.addSubview(roots.from)
    return roots
  }

  static func run(
    _ operation: TransitionOperation, params: [String: ParameterValue] = [:], interactive: Bool = false,
    by implementation: PullDownImplementation = .builtIn
  ) throws -> AnimatorRun {
    try AnimatorRun(
      "PullDown", implementation.animatorID, operation: operation, params: params, interactive: interactive,
      pluginPath: implementation.path
    ) { try trees($0, dismissing: operation == .dismiss) }
  }

  static let times = [0, 0.05, 0.125, 0.2, 0.25, 0.33, 0.4, 0.49, 0.5]

  @Test func describesItselfWithTheOriginalsDefaults() throws {
    let registry = try registry(loadingBuiltIns: ["PullDown"])
    let plugin = try #require(registry.plugins.first)
    #expect(plugin.info.id == "com.transitionhost.pulldown")
    #expect(plugin.info.version == "1.0.0")
    #expect(plugin.info.animators.map(\.id) == ["pull-down"])
    let animator = plugin.info.animators[0]
    #expect(animator.name == "Pull down")
    #expect(animator.operations == ["present", "dismiss"])
    #expect(animator.params.map(\.name) == ["duration", "curve"])
    let duration = animator.params[0]
    #expect(duration.kind == .number && duration.defaultValue == .number(0.5))
    #expect(duration.minimum == 0 && duration.maximum == 10)
    let curve = animator.params[1]
    #expect(curve.kind == .enum && curve.defaultValue == .string("easeInOut"))
    #expect(curve.options == ["easeInOut", "easeIn", "easeOut", "linear"])
    // transitionDuration(using: nil): the host asks before a transition exists.
    let instance = try registry.makeAnimator(id: "pull-down")
    #expect(instance.transitionDuration(nil) == 0.5)
    instance.close()
  }

  @Test(arguments: PullDownImplementation.allCases)
  func presentSlidesTheToViewDownFromAboveAndRemovesThePresenter(_ implementation: PullDownImplementation) throws {
    let run = try Self.run(.present, by: implementation)
    try run.start()
    #expect(run.transition.duration == 0.5)
    // Added on top of the presenter.
    #expect(run.containerSubviews == ["presenter", "presented"])
    for t in Self.times {
      let y = -800 * (1 - Reference.easeInOut(t / 0.5))
      expectView(
        try run.state("presented", at: t), frame: Rect(x: 0, y: y, width: 400, height: 800), alpha: 1, "t=\(t)")
      expectView(
        try run.state("content", at: t), frame: Rect(x: 10, y: 100, width: 380, height: 600), alpha: 1,
        origin: Point(x: 10, y: y + 100))
      expectView(try run.state("presenter", at: t), frame: Rect(x: 0, y: 0, width: 400, height: 800), alpha: 1)
    }
    #expect(try run.run() == .completed)
    // shouldRemovePresentersView: the presenter's view has left the hierarchy.
    #expect(run.containerSubviews == ["presented"])
    #expect(run.from.superview == nil)
    #expect(run.to.frame == Rect(x: 0, y: 0, width: 400, height: 800))
    #expect(run.problems.isEmpty)
  }

  @Test(arguments: PullDownImplementation.allCases)
  func dismissInsertsThePresenterBelowAndSlidesTheFromViewUp(_ implementation: PullDownImplementation) throws {
    let run = try Self.run(.dismiss, by: implementation)
    try run.start()
    // The presentation removed the presenter's view, so the animator inserted it below the presented one.
    #expect(run.containerSubviews == ["presenter", "presented"])
    for t in Self.times {
      let y = -800 * Reference.easeInOut(t / 0.5)
      expectView(
        try run.state("presented", at: t), frame: Rect(x: 0, y: y, width: 400, height: 800), alpha: 1, "t=\(t)")
      expectView(try run.state("presenter", at: t), frame: Rect(x: 0, y: 0, width: 400, height: 800), alpha: 1)
      expectView(try run.state("label", at: t), frame: Rect(x: 20, y: 40, width: 200, height: 30), alpha: 1)
    }
    #expect(try run.run() == .completed)
    #expect(run.containerSubviews == ["presenter"])
    #expect(run.problems.isEmpty)
  }

  @Test func durationAndCurveParameters() throws {
    let run = try Self.run(.present, params: ["duration": .number(1.2), "curve": .string("easeIn")])
    try run.start()
    #expect(run.transition.duration == 1.2)
    for t in [0.1, 0.3, 0.6, 0.9, 1.1] {
      // easeIn = (0.42, 0, 1, 1): the curve bits of UIView.AnimationOptions decoded as (raw >> 16) & 3.
      let y = -800 * (1 - Reference.bezier(0.42, 0, 1, 1, at: t / 1.2))
      expectView(try run.state("presented", at: t), frame: Rect(x: 0, y: y, width: 400, height: 800), alpha: 1)
    }
    let linear = try Self.run(.dismiss, params: ["curve": .string("linear")])
    try linear.start()
    expectClose(try linear.state("presented", at: 0.1).frame.origin.y, -800 * 0.2)
    #expect(try run.run() == .completed)
    #expect(try linear.run() == .completed)
  }

  @Test(arguments: PullDownImplementation.allCases)
  func interactiveUpdateThenFinish(_ implementation: PullDownImplementation) throws {
    let run = try Self.run(.present, interactive: true, by: implementation)
    try run.start()
    for percent in [0.3, 0.6, 0.45] {
      try run.transition.update(percent: percent)
      // Scrubbing maps percent to time linearly; the animation's own curve still shapes the value.
      let y = -800 * (1 - Reference.easeInOut(percent))
      expectView(try run.current("presented"), frame: Rect(x: 0, y: y, width: 400, height: 800), alpha: 1)
    }
    try run.transition.finish()
    #expect(try run.run() == .completed)
    #expect(run.containerSubviews == ["presented"])
    #expect(run.to.frame == Rect(x: 0, y: 0, width: 400, height: 800))
    #expect(run.problems.isEmpty)
  }

  @Test(arguments: PullDownImplementation.allCases, [TransitionOperation.present, .dismiss])
  func cancelLeavesEveryViewAsItStarted(_ implementation: PullDownImplementation, _ operation: TransitionOperation)
    throws
  {
    let run = try Self.run(operation, interactive: true, by: implementation)
    let start = SceneState(run)
    try run.start()
    try run.transition.update(percent: 0.4)
    #expect(SceneState(run) != start)
    try run.transition.cancel()
    #expect(try run.run() == .cancelled(reason: nil))
    #expect(SceneState(run) == start)
    #expect(run.problems.isEmpty)
  }

  @Test(arguments: PullDownImplementation.allCases)
  func releaseFollowsTheReleaseRule(_ implementation: PullDownImplementation) throws {
    // Past half way with no velocity: finishes.
    let forward = try Self.run(.dismiss, interactive: true, by: implementation)
    try forward.start()
    try forward.transition.update(percent: 0.7)
    #expect(try forward.transition.release(velocity: 0) == .finish)
    #expect(try forward.run() == .completed)
    #expect(forward.containerSubviews == ["presenter"])
    // Past half way but flicked back: cancels, and everything is as it started.
    let backward = try Self.run(.dismiss, interactive: true, by: implementation)
    let start = SceneState(backward)
    try backward.start()
    try backward.transition.update(percent: 0.7)
    #expect(try backward.transition.release(velocity: -1) == .cancel)
    #expect(try backward.run() == .cancelled(reason: nil))
    #expect(SceneState(backward) == start)
    #expect(forward.problems.isEmpty && backward.problems.isEmpty)
  }
}
