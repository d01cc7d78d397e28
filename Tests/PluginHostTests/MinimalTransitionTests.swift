import PluginHost
import TestSupport
import Testing
import TransitionEngine
import TransitionService

/// The Minimal fixture's C animators run whole transitions on the engine through the host API.
@Suite struct MinimalTransitionTests {
  /// "fade": to.frame = finalFrame(to) (the container's bounds), alpha 0, added on top; alpha → 1 over the
  /// "duration" param (default 0.4 s), easeInOut; the completion completes with !cancelled.
  @Test func fadePresentsWithEaseInOutAlpha() throws {
    let registry = try registry(loadingFixtures: ["Minimal"])
    let run = try PluginTransitionRun(registry, "fade")
    try run.transition.start()
    #expect(run.transition.duration == 0.4)
    #expect(run.containerSubviews == ["from", "to"])
    // easeInOut (0.42, 0, 0.58, 1) is point-symmetric about (0.5, 0.5): halfway in time is halfway in alpha.
    #expect(close(try run.state("to", at: 0.2)?.alpha, 0.5, 1e-6))
    // A quarter of the way: y of the Bézier at x = 0.25, solved independently.
    let quarter = Reference.bezier(0.42, 0, 0.58, 1, at: 0.25)
    #expect(close(try run.state("to", at: 0.1)?.alpha, quarter, 1e-6))
    #expect(close(try run.state("to", at: 0)?.alpha, 0))
    #expect(try run.state("to", at: 0)?.frame == Rect(x: 0, y: 0, width: 400, height: 800))

    #expect(try run.run() == .completed)
    #expect(run.misbehaviors.isEmpty)
    // A presentation keeps the presenter's view (no presentation controller): from below, to on top.
    #expect(run.containerSubviews == ["from", "to"])
    #expect(run.to.alpha == 1)
    #expect(run.animator.isClosed)
  }

  @Test func fadeReadsItsDurationParameter() throws {
    let registry = try registry(loadingFixtures: ["Minimal"])
    let run = try PluginTransitionRun(registry, "fade", params: ["duration": .number(1.0)])
    try run.transition.start()
    #expect(run.transition.duration == 1.0)
    #expect(close(try run.state("to", at: 0.5)?.alpha, 0.5, 1e-6))
    #expect(try run.run() == .completed)
  }

  /// "slide" present: to starts at (0, 800) (below the container), springs (damping 1) to (0, 0) in 0.4 s.
  @Test func slidePresentsFromBelowWithACriticallyDampedSpring() throws {
    let registry = try registry(loadingFixtures: ["Minimal"])
    let run = try PluginTransitionRun(registry, "slide")
    try run.transition.start()
    #expect(try run.state("to", at: 0)?.frame == Rect(x: 0, y: 800, width: 400, height: 800))
    // A critically damped spring never overshoots: y falls monotonically from 800 to 0.
    var last = 800.0
    for step in 1...20 {
      let y = try #require(try run.state("to", at: 0.4 * Double(step) / 20)?.frame.origin.y)
      #expect(y <= last + 1e-9 && y >= -1e-9)
      last = y
    }
    #expect(last == 0)
    #expect(try run.run() == .completed)
    #expect(run.to.frame == Rect(x: 0, y: 0, width: 400, height: 800))
  }

  /// "slide" dismiss: the from root slides down to y = 800; completing removes it.
  @Test func slideDismissesDownAndTheFromRootLeaves() throws {
    let registry = try registry(loadingFixtures: ["Minimal"])
    let run = try PluginTransitionRun(registry, "slide", operation: .dismiss)
    #expect(try run.run() == .completed)
    #expect(run.from.frame == Rect(x: 0, y: 800, width: 400, height: 800))
    #expect(run.containerSubviews == ["to"])
  }

  /// The host ends a running transition (SIGTERM): the pending completion runs with finished = false, fade
  /// completes with `!cancelled` = false, everything is restored, and the animator lets its generation go.
  @Test func terminatingMidwayRestoresTheStartAndReleasesTheLease() throws {
    let registry = try registry(loadingFixtures: ["Minimal"])
    let run = try PluginTransitionRun(registry, "fade")
    try run.transition.start()
    try run.transition.advance(by: 0.2)
    #expect(registry.plugins.first?.runningTransitions == 1)
    run.transition.terminate(reason: "terminated")
    #expect(run.outcome == .cancelled(reason: "terminated"))
    #expect(run.misbehaviors.isEmpty)
    #expect(run.containerSubviews == ["from"])
    #expect(run.animator.isClosed)
    #expect(registry.plugins.first?.runningTransitions == 0)
  }

  @Test func unsupportedOperationIsRefusedWith2003() throws {
    let registry = try registry(loadingFixtures: ["Minimal"])
    #expect(
      throws: TransitionStartError.operationNotSupported(
        animator: "com.example.test.minimal/slide", operation: "push", supported: ["present", "dismiss"])
    ) { try PluginTransitionRun(registry, "slide", operation: .push) }
  }
}
