import CTransitionABI
import PluginHost
import TestSupport
import Testing
import TransitionEngine

/// ABI 1.2's property animators from C (TestPluginPropertyAnimatorsC): an interruptible animator vended through
/// th_animator_descriptor.interruptible_animator and driven by the transition, and every kind of misuse of the
/// "th.property-animators/1" extension returning its documented status, reported, never fatal.
@Suite struct PropertyAnimatorABITests {
  static let pluginID = "com.example.test.propertyanimators.c"

  /// The PropertyAnimatorsC fixture loaded; its animators run as the host runs them.
  static func makeHost() throws -> FixtureAnimatorHost {
    try FixtureAnimatorHost(fixture: "PropertyAnimatorsC", pluginID: pluginID)
  }

  private func alpha(_ run: PluginTransitionRun) -> Double {
    (try? run.state("to", at: run.transition.time))?.alpha ?? .nan
  }

  @Test func theExtensionAndTheDescriptorEntryAreThere() throws {
    #expect(ABIVersion.host == ABIVersion(major: 1, minor: 3))
    let host = try Self.makeHost()
    let run = try host.run("interruptible")
    #expect(host.notes("interruptible") == ["interruptible animator made"])
    // Not interactive: animate_transition started it; cubic-bezier(0.3, 0.1, 0.2, 1) over 1 s.
    for t in [0.1, 0.4, 0.8] {
      #expect(close((try run.state("to", at: t))?.alpha, Reference.bezier(0.3, 0.1, 0.2, 1, at: t)))
    }
    #expect(try run.run() == .completed)
    #expect(host.notes("interruptible").last == "completion end")
  }

  @Test func anInteractiveTransitionDrivesTheCAnimator() throws {
    let host = try Self.makeHost()
    let run = try host.run("interruptible", interactive: true)
    try run.transition.update(percent: 0.3)
    #expect(close(alpha(run), 0.3))
    try run.transition.finish(velocity: 1.4)
    let spring = UIKitSpring(dampingRatio: 1, duration: 0.7, initialVelocity: 2)
    _ = try run.driver.perform(.advance(seconds: 0.25))
    #expect(close(alpha(run), 0.3 + 0.7 * spring.progress(0.25), 1e-7))
    #expect(try run.run() == .completed)
    #expect(run.misbehaviors.isEmpty)
  }

  @Test func aCancelledInteractiveTransitionRunsTheAnimatorBackAndRestores() throws {
    let host = try Self.makeHost()
    let run = try host.run("interruptible", interactive: true)
    try run.transition.update(percent: 0.5)
    try run.transition.cancel(curve: .linear)
    _ = try run.driver.perform(.advance(seconds: 0.25))
    #expect(close(alpha(run), 0.25))
    #expect(try run.run() == .cancelled(reason: nil))
    #expect(host.notes("interruptible").last == "completion start")
    #expect(run.containerSubviews == ["from"])
  }

  @Test func misuseReturnsItsStatusAndIsReported() throws {
    let host = try Self.makeHost()
    let run = try host.run("misuse")
    #expect(
      host.notes("misuse") == [
        "create(NULL timing) -> TH_ERR_INVALID_ARGUMENT",
        "create(duration -1) -> TH_ERR_INVALID_VALUE",
        "create(struct_size 8) -> TH_ERR_INVALID_ARGUMENT",
        "create(damping ratio 2) -> TH_ERR_INVALID_VALUE",
        "create -> TH_OK",
        "pause(made-up animator) -> TH_ERR_INVALID_HANDLE",
        "pause(a view handle) -> TH_ERR_INVALID_HANDLE",
        "add_animations(delay factor 2) -> TH_ERR_INVALID_VALUE",
        "add_animations(NULL) -> TH_ERR_INVALID_ARGUMENT",
        "finish(inactive) -> TH_ERR_WRONG_PHASE",
        "stop(inactive) -> TH_ERR_WRONG_PHASE",
        "set_flag(is_running) -> TH_ERR_UNSUPPORTED",
        "add_completion -> TH_OK",
        "start -> TH_OK",
        "set_flag(is_interruptible, active) -> TH_ERR_WRONG_PHASE",
        "continue_animation(duration factor -1) -> TH_ERR_INVALID_VALUE",
        "get_flag(is_running) -> TH_OK",
        "get_fraction_complete(NULL) -> TH_ERR_INVALID_ARGUMENT",
        // stop(true): UIKit never calls the completion; the ABI calls it once, unfinished, to free user data.
        "completion finished=false position=2",
        "stop(true) -> TH_OK",
        "state inactive -> TH_OK",
      ])
    #expect(run.outcome == .completed)
    #expect(run.misbehaviors.count == 14)
    #expect(run.misbehaviors.first?.message.hasPrefix("property_animators.create: TH_ERR_INVALID_ARGUMENT") == true)
    // A handle kept from that transition is stale in the next one.
    let second = try host.run("misuse")
    #expect(host.notes("misuse").dropFirst(21).first == "start(animator of an ended transition) -> TH_ERR_STALE_HANDLE")
    #expect(second.outcome == .completed)
  }
}
