import CTransitionABI
import PluginHost
import Testing
import TransitionEngine

private typealias S = CAnimatorSupport

@Suite struct FlipTests {
  @Test func describesItselfWithTheSeedsDefaults() throws {
    let log = S.LogCapture()
    let registry = try S.registry(loading: ["Flip"], log: log)
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
    #expect(log.problems.isEmpty)
  }

  @Test func asksWithoutAContextForTheSeedsDuration() throws {
    let registry = try S.registry(loading: ["Flip"])
    let lease = try registry.lease(animatorID: "flip")
    let instance = try #require(lease.makeInstance())
    #expect(instance.transitionDuration() == 0.8)
  }

  @Test func itsPresentationControllerRemovesThePresentersView() throws {
    // The flip turns the presenting view, which view(forKey: .from) only gives when the presentation removes it.
    let registry = try S.registry(loading: ["Flip"])
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
}
