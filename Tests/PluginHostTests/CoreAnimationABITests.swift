import CTransitionABI
import PluginHost
import TestSupport
import Testing
import TransitionEngine

#if canImport(Glibc)
  import Glibc
#endif

/// ABI 1.3's Core Animation animations from C (TestPluginCoreAnimationC): explicit animations of every kind added
/// to views' layers inside a CATransaction, a delegate that completes the transition, interactive scrubbing and
/// cancel, the snap-back the validator warns about, and each misuse returning its documented status, reported.
@Suite struct CoreAnimationABITests {
  static let pluginID = "com.example.test.coreanimation.c"

  /// The CoreAnimationC fixture loaded; its animators run as the host runs them.
  static func makeHost() throws -> FixtureAnimatorHost {
    try FixtureAnimatorHost(fixture: "CoreAnimationC", pluginID: pluginID)
  }

  private func near(_ a: Double?, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
    guard let a else { return false }
    return abs(a - b) <= tolerance
  }

  @Test func everyKindOfAnimationFromC() throws {
    #expect(ABIVersion.host == ABIVersion(major: 1, minor: 3))
    let host = try Self.makeHost()
    let run = try host.run("slide")
    // Critically damped spring (ω₀ = 10): settles at the first 0.1 s step where (1 + 10t)e^(−10t) ≤ 0.001:
    // 10e^(−9) ≈ 0.00123 at 0.9 s, 11e^(−10) ≈ 0.0005 at 1 s.
    #expect(host.notes("slide") == ["settling 1.0", "keys 3, third fade"])
    for t in [0.1, 0.25, 0.5, 0.75] {
      let to = try run.state("to", at: t)
      #expect(near(to?.position.y, 1200 - 800 * t))
      // Keyframes 0, 20, 0 at 0, 0.5, 1.
      #expect(near(to?.cornerRadius, t <= 0.5 ? 40 * t : 40 * (1 - t)))
      #expect(near(to?.alpha, t < 1 ? 1 - (1 + 10 * t) * exp(-10 * t) : 1))
      // The group (0.5 s) clips its child, which takes the group's duration: scale 1 → 0.9 over 0.5 s.
      let scale = t < 0.5 ? 1 - 0.1 * t / 0.5 : 1
      let from = try run.state("from", at: t)
      #expect(near(from?.transform.m11, scale), "\(String(describing: from?.transform))")
    }
    #expect(try run.run() == .completed)
    #expect(
      host.notes("slide") == [
        "settling 1.0", "keys 3, third fade", "slide started", "slide stopped finished", "transaction done",
      ])
    #expect(run.misbehaviors.isEmpty)
  }

  @Test func anInteractiveTransitionScrubsAndCancelsTheAnimations() throws {
    let host = try Self.makeHost()
    let run = try host.run("slide", interactive: true)
    try run.transition.update(percent: 0.4)
    #expect(near(try run.state("to", at: run.transition.time)?.position.y, 1200 - 800 * 0.4))
    try run.transition.cancel(curve: .linear)
    _ = try run.driver.perform(.advance(seconds: 0.2))
    #expect(near(try run.state("to", at: run.transition.time)?.position.y, 1200 - 800 * 0.2, 1e-9))
    #expect(try run.run() == .cancelled(reason: nil))
    #expect(host.notes("slide").contains("slide stopped finished"))
    #expect(run.containerSubviews == ["from"])
    #expect(run.scene.view(withID: "to")?.animationKeys() == nil)
  }

  @Test func theSnapBackIsRecorded() throws {
    let host = try Self.makeHost()
    let run = try host.run("snapback")
    #expect(try run.run() == .completed)
    let snap = try #require(run.scene.snapBacks.first)
    #expect(snap.layerID == "to" && snap.keyPath == "position.x" && snap.endValue == .number(1000))
  }

  @Test func misuseReturnsItsStatusAndIsReported() throws {
    let host = try Self.makeHost()
    let run = try host.run("misuse")
    #expect(
      host.notes("misuse") == [
        "add unknown key path -> TH_ERR_INVALID_VALUE",
        "set_value on keyframes -> TH_ERR_WRONG_PHASE",
        "add never issued -> TH_ERR_INVALID_HANDLE",
        "add wrong value type -> TH_ERR_INVALID_VALUE",
        "set_value NaN -> TH_ERR_INVALID_VALUE",
        "transaction_commit without begin -> TH_ERR_WRONG_PHASE",
        "set_layer_timing infinite speed -> TH_ERR_INVALID_VALUE",
        "copy_animation missing -> TH_ERR_NOT_FOUND",
      ])
    #expect(run.outcome == .completed)
    // Every refusal but the not-found answer (a query's result) is reported.
    #expect(run.misbehaviors.count == 7, "\(run.reports)")
  }
}
