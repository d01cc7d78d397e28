import CTransitionABI
import PluginHost
import Testing
import TransitionEngine

private typealias S = CAnimatorSupport

@Suite struct SegueSlideTests {
  @Test func describesItselfWithTheSeedsDefaults() throws {
    let log = S.LogCapture()
    let registry = try S.registry(loading: ["SegueSlide"], log: log)
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
    #expect(log.problems.isEmpty)
  }

  @Test func asksWithoutAContextForTheSeedsDurationAndHasNoExtensions() throws {
    let registry = try S.registry(loading: ["SegueSlide"])
    let lease = try registry.lease(animatorID: "segue-slide")
    let instance = try #require(lease.makeInstance())
    #expect(instance.transitionDuration() == 0.5)
    // Segues replace the source scene by default: no presentation controller is needed.
    #expect(lease.descriptor.pointee.get_extension == nil)
  }

  @Test func referenceSpringMatchesFramersPublishedCheckValue() {
    // framer/SpringsExample: T = 3, ζ = 0.25 → stiffness 54.83363359078326 (mass 1, so k = ω₀²). This checks the
    // closed-form root the tests use for the spring against a published number.
    let omega = S.springOmega(dampingRatio: 0.25, duration: 3)
    #expect(abs(omega * omega - 54.83363359078326) < 1e-9)
  }
}
