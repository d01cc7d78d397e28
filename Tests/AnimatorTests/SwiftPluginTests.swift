import CTransitionABI
import PluginHost
import TestSupport
import Testing
import TransitionEngine

/// What the TransitionKit SDK promises every Swift plugin, checked on the built-in ones: the one-line entry, the
/// presentation-controller extension, misuse that is logged and never fatal, and hot reload of a Swift library.
@Suite struct SwiftPluginTests {
  @Test func eachLibraryExportsOneEntryAndDescribesItsAnimators() throws {
    let registry = try registry(loadingBuiltIns: ["PullDown", "Sheet", "MagicMove"])
    #expect(
      registry.plugins.map(\.info.id) == [
        "com.transitionhost.pulldown", "com.transitionhost.sheet", "com.transitionhost.magicmove",
      ])
    #expect(
      registry.animators.map(\.qualifiedID).sorted() == [
        "com.transitionhost.magicmove/magic-move", "com.transitionhost.pulldown/pull-down",
        "com.transitionhost.sheet/sheet",
      ])
    for plugin in registry.plugins {
      #expect(plugin.info.abi == .host)
      #expect(plugin.info.vendor == "transition-host")
    }
  }

  @Test func presentationControllerExtensionIsOfferedByTheAnimatorsThatHaveOne() throws {
    let registry = try registry(loadingBuiltIns: ["PullDown", "Sheet", "MagicMove"])
    for (id, expected) in [("pull-down", true), ("sheet", true), ("magic-move", false)] {
      let lease = try registry.lease(animatorID: id)
      let instance = try #require(lease.makeInstance())
      let getExtension = try #require(lease.descriptor.pointee.get_extension)
      let table = TH_EXT_PRESENTATION_CONTROLLER.withCString { getExtension(instance.state, $0) }
      #expect((table != nil) == expected, "\(id)")
      #expect("th.unknown/1".withCString { getExtension(instance.state, $0) } == nil)
      if let table {
        let controller = table.assumingMemoryBound(to: th_presentation_controller.self).pointee
        #expect(Int(controller.struct_size) == MemoryLayout<th_presentation_controller>.size)
        // pull-down's PresentationController removes the presenter's view; the sheet keeps it (UIKit's default).
        let removes = try #require(controller.should_remove_presenters_view)
        #expect(removes(instance.state, th_context(id: 0)) == (id == "pull-down"))
        // Without a transition context the default frame is the container bounds the host passes.
        var frame = th_rect()
        let bounds = th_rect(x: 0, y: 0, width: 320, height: 480)
        let frameOfPresentedView = try #require(controller.frame_of_presented_view)
        let answered = frameOfPresentedView(instance.state, th_context(id: 0), bounds, &frame)
        #expect(answered)
        #expect(frame.x == 0 && frame.y == 0 && frame.width == 320 && frame.height == 480)
      }
    }
  }

  /// Plugin code called outside any host call with a made-up context: every host function refuses, the SDK logs
  /// each refusal with the Swift call that caused it, and nothing crashes.
  @Test func refusedHostCallsAreLoggedNeverFatal() throws {
    let log = LogCapture()
    let registry = try registry(loadingBuiltIns: ["PullDown"], log: log)
    let lease = try registry.lease(animatorID: "pull-down")
    let instance = try #require(lease.makeInstance())
    lease.descriptor.pointee.animate_transition(instance.state, th_context(id: 0xDEAD_BEEF))
    let messages = log.warnings.joined(separator: "\n")
    #expect(messages.contains("TransitionKit: transitionContext.containerView failed: TH_ERR_"))
    #expect(messages.contains("TransitionKit: transitionContext.completeTransition(false) failed: TH_ERR_"))
    // The duration still answers (the parameter read falls back to its default).
    #expect(lease.descriptor.pointee.transition_duration(instance.state, th_context(id: 0xDEAD_BEEF)) == 0.5)
  }

  @Test func aRunningTransitionFinishesOnTheOldCopyAfterAReload() throws {
    let registry = try registry(loadingBuiltIns: ["PullDown"])
    let scene = Scene(containerSize: Size(width: 400, height: 800))
    let (from, to) = try PullDownTests.trees(scene, dismissing: false)
    let old = try PluginTransitionRun(registry, "pull-down", scene: scene, from: from, to: to, operation: .present)
    try old.start()
    _ = try old.driver.perform(.advance(seconds: 0.25))

    try registry.reload(pluginID: "com.transitionhost.pulldown")
    #expect(registry.plugins.map(\.generation) == [2])
    #expect(old.animator.generation.isRetired && !old.animator.generation.isShutDown)

    // A new transition runs on the new copy, with its own Swift globals (its descriptor built afresh).
    let newScene = Scene(containerSize: Size(width: 400, height: 800))
    let (newFrom, newTo) = try PullDownTests.trees(newScene, dismissing: false)
    let new = try PluginTransitionRun(
      registry, "pull-down", scene: newScene, from: newFrom, to: newTo, operation: .present)
    #expect(new.animator.generation.number == 2)
    try new.start()
    expectClose(
      try #require(try new.transition.sample(time: 0.1).first { $0.id == "presented" }).frame.origin.y,
      -800 * (1 - Reference.easeInOut(0.2)))

    // The old one finishes on the old code, which stays mapped (a Swift library is never unmapped).
    #expect(try old.run() == .completed)
    #expect(scene.container.subviews.map(\.id) == ["presented"])
    #expect(old.animator.generation.isShutDown)
    #expect(old.animator.generation.libraryDisposition == .keptMapped)
    #expect(try new.run() == .completed)
  }
}
