import CTransitionABI
import PluginHost
import TestSupport
import Testing
import TransitionEngine
import TransitionService

/// Every kind of host-API misuse, one Misuse fixture animator each: the call returns its documented status and
/// changes nothing, the misbehaviour is reported naming the animator, the transition ends as documented, and a
/// good transition runs right after on the same host.
@Suite struct MisuseTests {
  /// A host with the Misuse and Minimal fixtures loaded.
  final class Host {
    let log = LogCapture()
    let registry: PluginRegistry

    init() throws {
      registry = try TestSupport.registry(loadingFixtures: ["Misuse", "Minimal"], log: log)
    }

    /// Runs Misuse animator `id` to its end.
    func run(_ id: String, operation: TransitionOperation = .present) throws -> PluginTransitionRun {
      let run = try PluginTransitionRun(registry, "com.example.test.misuse/" + id, operation: operation)
      try run.run()
      return run
    }

    /// What animator `id` logged, in order.
    func notes(_ id: String) -> [String] {
      log.notes(of: "com.example.test.misuse/\(id)")
    }

    /// A good transition (Minimal's fade) still runs to completion without reports.
    func goodTransitionStillRuns() throws -> Bool {
      let run = try PluginTransitionRun(registry, "com.example.test.minimal/fade")
      return try run.run() == .completed && run.misbehaviors.isEmpty && run.to.alpha == 1
    }
  }

  /// The reports' kinds, in order.
  func kinds(_ run: PluginTransitionRun) -> [String] { run.misbehaviors.map(\.kindName) }

  @Test func bogusHandlesAreInvalid() throws {
    let host = try Host()
    let run = try host.run("bogus-handle")
    #expect(
      host.notes("bogus-handle") == [
        "set_number(made-up view) -> TH_ERR_INVALID_HANDLE",
        "set_number({0}) -> TH_ERR_INVALID_HANDLE",
        "get_number(unissued index) -> TH_ERR_INVALID_HANDLE",
        "container_view(made-up context) -> TH_ERR_INVALID_HANDLE",
        "container_view({0}) -> TH_ERR_INVALID_HANDLE",
        "container_view(plugin context) -> TH_ERR_INVALID_HANDLE",
      ])
    #expect(run.outcome == .completed)
    #expect(
      kinds(run) == ["unknownView", "unknownView", "unknownView", "invalidValue", "invalidValue", "invalidValue"])
    // Every report names the animator and the function with its status.
    #expect(run.misbehaviors.allSatisfy { $0.animatorID == "com.example.test.misuse/bogus-handle" })
    #expect(run.misbehaviors.first?.message.hasPrefix("set_number: TH_ERR_INVALID_HANDLE: view 3735928559") == true)
    #expect(try host.goodTransitionStillRuns())
  }

  @Test func handlesOfAnEndedTransitionAreStale() throws {
    let host = try Host()
    let first = try host.run("stale-handle")
    #expect(first.outcome == .completed && first.misbehaviors.isEmpty)
    let second = try host.run("stale-handle")
    #expect(
      host.notes("stale-handle") == [
        "kept the context and the to view",
        "set_number(view of an ended transition) -> TH_ERR_STALE_HANDLE",
        "container_view(context of an ended transition) -> TH_ERR_STALE_HANDLE",
        // `log` accepts any context; an ended transition's is still attributed to its animator.
        "logged with the context of an ended transition",
      ])
    #expect(kinds(second) == ["unknownView", "callAfterCompletion"])
    #expect(second.outcome == .completed)
    #expect(try host.goodTransitionStillRuns())
  }

  @Test func invalidValuesChangeNothing() throws {
    let host = try Host()
    let run = try host.run("nan-setter")
    #expect(
      host.notes("nan-setter") == [
        "set_number(alpha, 0.25) -> TH_OK",
        "set_number(alpha, NaN) -> TH_ERR_INVALID_VALUE",
        "set_number(alpha, inf) -> TH_ERR_INVALID_VALUE",
        "set_number(alpha, 1.5) -> TH_ERR_INVALID_VALUE",
        "set_number(cornerRadius, -1) -> TH_ERR_INVALID_VALUE",
        "set_rect(frame, inf width) -> TH_ERR_INVALID_VALUE",
        "set_rect(bounds, negative width) -> TH_ERR_INVALID_VALUE",
        "set_transform(NaN m34) -> TH_ERR_INVALID_VALUE",
        "set_color(r = 1.2) -> TH_ERR_INVALID_VALUE",
        "alpha is 0.25",
      ])
    #expect(kinds(run) == Array(repeating: "invalidValue", count: 8))
    #expect(run.outcome == .completed)
    // Nothing of the rejected writes reached the view.
    #expect(run.to.frame == Rect(x: 0, y: 0, width: 400, height: 800))
    #expect(run.to.transform == .identity && run.to.cornerRadius == 0 && run.to.backgroundColor == nil)
    #expect(try host.goodTransitionStillRuns())
  }

  @Test func badTimingsAreRefusedBeforeAnythingRuns() throws {
    let host = try Host()
    let run = try host.run("bad-timing")
    #expect(
      host.notes("bad-timing") == [
        "animate(bezier x1 = 1.5) -> TH_ERR_INVALID_VALUE",
        "animate(bezier y1 = NaN) -> TH_ERR_INVALID_VALUE",
        "animate(steps 0) -> TH_ERR_INVALID_VALUE",
        "animate(spring damping 0) -> TH_ERR_INVALID_VALUE",
        "animate(physical spring mass -1) -> TH_ERR_INVALID_VALUE",
        "animate(undamped automatic spring) -> TH_ERR_INVALID_VALUE",
        "animate(automatic with a curve) -> TH_ERR_INVALID_VALUE",
        "animate(bounce -1) -> TH_ERR_INVALID_VALUE",
        "animate(bounce 1) -> TH_ERR_INVALID_VALUE",
        "animate(timing flag 1 << 7) -> TH_ERR_UNSUPPORTED",
        "animate(timing kind 99) -> TH_ERR_UNSUPPORTED",
        "animate(curve 42) -> TH_ERR_UNSUPPORTED",
        "animate(duration -1) -> TH_ERR_INVALID_VALUE",
        "animate(delay NaN) -> TH_ERR_INVALID_VALUE",
        "animate(struct_size 8) -> TH_ERR_INVALID_ARGUMENT",
        "bad animations ran 0 times",
      ])
    #expect(run.misbehaviors.count == 15)
    #expect(run.reports.contains { $0.hasSuffix("TH_ERR_UNSUPPORTED: unknown th_timing flags 0x80") })
    #expect(run.outcome == .completed)
    #expect(try host.goodTransitionStillRuns())
  }

  @Test func animatingAfterCompleteIsTheWrongPhaseButCleanUpIsAllowed() throws {
    let host = try Host()
    let run = try host.run("animate-after-complete")
    #expect(
      host.notes("animate-after-complete") == [
        "complete_transition(true) -> TH_OK",
        "animate after complete -> TH_ERR_WRONG_PHASE",
        "add_driver after complete -> TH_ERR_WRONG_PHASE",
        "set_number after complete -> TH_OK",
        "make_view after complete -> TH_OK",
      ])
    #expect(kinds(run) == ["callAfterCompletion", "callAfterCompletion"])
    #expect(run.outcome == .completed)
    #expect(run.containerSubviews == ["from", "to"])
    #expect(try host.goodTransitionStillRuns())
  }

  @Test func completingTwiceIsReportedAndTheFirstCallCounts() throws {
    let host = try Host()
    let run = try host.run("complete-twice")
    #expect(
      host.notes("complete-twice") == [
        "first complete_transition -> TH_OK", "second complete_transition -> TH_ERR_WRONG_PHASE",
      ])
    #expect(kinds(run) == ["completedTwice"])
    #expect(run.outcome == .completed)
    #expect(try host.goodTransitionStillRuns())
  }

  @Test(arguments: ["never-completes", "does-nothing"])
  func neverCompletingFailsTheTransitionAndRestoresTheStart(id: String) throws {
    let host = try Host()
    let run = try host.run(id)
    #expect(run.outcome == .failed(reason: "neverCompleted"))
    #expect(kinds(run) == ["neverCompleted"])
    #expect(run.containerSubviews == ["from"])
    #expect(run.animator.isClosed)
    #expect(try host.goodTransitionStillRuns())
  }

  @Test func settersAndTreeChangesInsideTransitionDurationAreTheWrongPhase() throws {
    let host = try Host()
    let run = try host.run("setter-in-duration")
    #expect(
      host.notes("setter-in-duration") == [
        "container_view in transition_duration -> TH_OK",
        "set_number in transition_duration -> TH_ERR_WRONG_PHASE",
        "add_subview in transition_duration -> TH_ERR_WRONG_PHASE",
        "complete_transition in transition_duration -> TH_ERR_WRONG_PHASE",
      ])
    #expect(kinds(run) == ["wrongPhase", "wrongPhase", "wrongPhase"])
    #expect(run.outcome == .completed)
    #expect(try host.goodTransitionStillRuns())
  }

  @Test func aDriverMayOnlyWritePresentationValues() throws {
    let host = try Host()
    let run = try PluginTransitionRun(host.registry, "com.example.test.misuse/tree-in-driver")
    try run.transition.start()
    // The driver writes alpha = fraction: halfway through its 0.2 s, 0.5.
    #expect(close(try run.state("to", at: 0.1)?.alpha, 0.5))
    #expect(try run.run() == .completed)
    #expect(
      host.notes("tree-in-driver") == [
        "add_subview in a driver -> TH_ERR_WRONG_PHASE",
        "set_bool(hidden) in a driver -> TH_ERR_WRONG_PHASE",
        "make_view in a driver -> TH_ERR_WRONG_PHASE",
        "complete_transition in a driver -> TH_ERR_WRONG_PHASE",
        "set_number(alpha) in a driver -> TH_OK",
      ])
    // The refused calls changed nothing: no new view, the to view visible; the last frame was committed.
    #expect(run.scene.view(withID: "from-driver") == nil)
    #expect(!run.to.isHidden && run.to.alpha == 1)
    #expect(
      kinds(run).allSatisfy { $0 == "wrongPhase" } && run.misbehaviors.count >= 4 && run.misbehaviors.count % 4 == 0)
    #expect(try host.goodTransitionStillRuns())
  }

  /// ABI 1.2's presentation, content and display-link functions refuse what they document: a struct too short for
  /// the frame, NULL, an unknown content mode, an over-long image name, an unknown blur style, a bad frame rate, a
  /// link never issued or invalidated, and (in a driver) presentation and content. A shorter struct gets its header
  /// and frame and not one byte more.
  @Test func presentationAndContentMisuse() throws {
    let host = try Host()
    let run = try host.run("presentation-misuse")
    #expect(
      host.notes("presentation-misuse") == [
        "get_presentation(struct_size 8) -> TH_ERR_INVALID_ARGUMENT",
        "get_presentation(NULL) -> TH_ERR_INVALID_ARGUMENT",
        "short struct: TH_OK, frame width 400, byte 40 untouched 1",
        "set_image_content(mode 99) -> TH_ERR_UNSUPPORTED",
        "set_image_content(5000-byte name) -> TH_ERR_LIMIT",
        "set_visual_effect(\"purple\") -> TH_ERR_INVALID_VALUE",
        "add_display_link(-1 fps) -> TH_ERR_INVALID_VALUE",
        "add_display_link(NULL callback) -> TH_ERR_INVALID_ARGUMENT",
        "set_display_link_paused(99) -> TH_ERR_INVALID_HANDLE",
        "invalidate_display_link -> TH_OK",
        "invalidate_display_link again -> TH_OK",
        "set_display_link_rate(invalidated) -> TH_ERR_INVALID_VALUE",
        "get_presentation in a driver -> TH_ERR_WRONG_PHASE",
        "set_image_content in a driver -> TH_ERR_WRONG_PHASE",
      ])
    #expect(run.outcome == .completed)
    #expect(run.scene.view(withID: "to")?.content == nil)
    #expect(Array(kinds(run).prefix(9)) == Array(repeating: "invalidValue", count: 9))
    #expect(kinds(run).dropFirst(9).allSatisfy { $0 == "wrongPhase" })
    #expect(try host.goodTransitionStillRuns())
  }

  /// A driver that misbehaves on every frame cannot flood the client: an instance reports 100 times at most.
  @Test func reportsAreCappedPerAnimatorInstance() throws {
    let host = try Host()
    let run = try PluginTransitionRun(host.registry, "com.example.test.misuse/tree-in-driver")
    try run.transition.start()
    // Each sample runs the update once, and each update makes four mistakes: 40 samples, 160 mistakes.
    for i in 0..<40 { _ = try run.state("to", at: 0.2 * Double(i) / 40) }
    #expect(run.misbehaviors.count == 100)
    #expect(
      run.misbehaviors.last?.message.hasSuffix("(further misbehaviour of this animator instance is not reported)")
        == true)
    #expect(try run.run() == .completed)
    #expect(run.misbehaviors.count == 100)
  }

  @Test func keyframesOutsideAKeyframeBlockAreTheWrongPhase() throws {
    let host = try Host()
    let run = try host.run("keyframe-outside")
    #expect(
      host.notes("keyframe-outside") == [
        "add_keyframe in animate_transition -> TH_ERR_WRONG_PHASE",
        "add_keyframe inside animate -> TH_ERR_WRONG_PHASE",
        "add_keyframe(1.2, 0) -> TH_ERR_INVALID_VALUE",
        "add_keyframe(0.5, 0.6) -> TH_ERR_INVALID_VALUE",
        "add_keyframe inside a keyframe -> TH_ERR_WRONG_PHASE",
        "add_keyframe(0, 1) -> TH_OK",
      ])
    #expect(kinds(run) == ["wrongPhase", "wrongPhase", "invalidValue", "invalidValue", "wrongPhase"])
    #expect(run.outcome == .completed)
    #expect(try host.goodTransitionStillRuns())
  }

  @Test func callsFromAnotherThreadAreRefusedAndReportedOnTheHostThread() throws {
    let host = try Host()
    let run = try PluginTransitionRun(host.registry, "com.example.test.misuse/other-thread")
    try run.transition.start()
    // finish() set alpha 0 before animating; the other thread's 0.5 never landed.
    #expect(close(try run.state("to", at: 0)?.alpha, 0))
    #expect(try run.run() == .completed)
    #expect(
      host.notes("other-thread") == [
        "log from another thread", "set_number from another thread -> TH_ERR_WRONG_THREAD",
      ])
    #expect(kinds(run) == ["wrongPhase"])
    #expect(run.misbehaviors.first?.message.contains("set_number") == true)
    #expect(run.misbehaviors.first?.message.contains("TH_ERR_WRONG_THREAD") == true)
    #expect(try host.goodTransitionStillRuns())
  }

  @Test func writingToStdoutBreaksNothing() throws {
    let host = try Host()
    let run = try host.run("writes-stdout")
    #expect(run.outcome == .completed && run.misbehaviors.isEmpty)
    #expect(try host.goodTransitionStillRuns())
  }

  @Test(arguments: ["negative-duration", "nan-duration"])
  func anUnusableDurationIsReportedAndTakenAsZero(id: String) throws {
    let host = try Host()
    let run = try host.run(id)
    #expect(run.transition.duration == 0)
    #expect(run.misbehaviors.map(\.kind) == [.invalidValue(field: "transitionDuration")])
    // The animations still run their 0.2 s, and the animator completes.
    #expect(run.outcome == .completed)
    #expect(try host.goodTransitionStillRuns())
  }

  @Test func nullPointersAndBadStringsAreInvalidArguments() throws {
    let host = try Host()
    let run = try host.run("null-pointers")
    #expect(
      host.notes("null-pointers") == [
        "container_view(NULL out) -> TH_ERR_INVALID_ARGUMENT",
        "find_view(NULL id) -> TH_ERR_INVALID_ARGUMENT",
        "find_view(invalid UTF-8) -> TH_ERR_INVALID_ARGUMENT",
        "operation(NULL out) -> TH_ERR_INVALID_ARGUMENT",
        "set_transform(NULL value) -> TH_ERR_INVALID_ARGUMENT",
        "animate(NULL options) -> TH_ERR_INVALID_ARGUMENT",
        "animate(NULL animations) -> TH_ERR_INVALID_ARGUMENT",
        "find_view(no such id) -> TH_ERR_NOT_FOUND",
      ])
    // A lookup that finds nothing is an answer, not misuse: seven reports for eight failed calls.
    #expect(kinds(run) == Array(repeating: "invalidValue", count: 7))
    #expect(run.outcome == .completed)
    #expect(try host.goodTransitionStillRuns())
  }

  @Test func wrongKindsAndUnknownEnumValues() throws {
    let host = try Host()
    let run = try host.run("wrong-kind")
    #expect(
      host.notes("wrong-kind") == [
        "get_number(frame) -> TH_ERR_TYPE_MISMATCH",
        "set_point(alpha) -> TH_ERR_TYPE_MISMATCH",
        "get_number(property 99) -> TH_ERR_UNSUPPORTED",
        "view_for_key(key 7) -> TH_ERR_UNSUPPORTED",
        "param_number(label) -> TH_ERR_TYPE_MISMATCH",
        "param_number(undeclared) -> TH_ERR_NOT_FOUND",
      ])
    #expect(run.misbehaviors.count == 5)
    #expect(run.outcome == .completed)
    #expect(try host.goodTransitionStillRuns())
  }

  @Test func impossibleTreeChangesAreRefused() throws {
    let host = try Host()
    let run = try host.run("bad-tree")
    #expect(
      host.notes("bad-tree") == [
        "add_subview(to, container) -> TH_ERR_INVALID_TREE",
        "add_subview(to, to) -> TH_ERR_INVALID_TREE",
        "add_subview(child, to) -> TH_ERR_INVALID_TREE",
        "insert_subview_below(container, loose, child) -> TH_ERR_INVALID_TREE",
        "bring_subview_to_front(container, child) -> TH_ERR_INVALID_TREE",
        "remove_from_superview(container) -> TH_ERR_INVALID_TREE",
        "subview_at(container, 99) -> TH_ERR_INVALID_VALUE",
        "to has 1 subview(s)",
      ])
    #expect(run.misbehaviors.count == 7)
    #expect(run.outcome == .completed)
    // The container kept its place and the loose view stayed out of the tree.
    #expect(run.scene.container.superview == nil)
    #expect(run.scene.view(withID: "loose")?.superview == nil)
    #expect(run.containerSubviews == ["from", "to"])
    #expect(try host.goodTransitionStillRuns())
  }

  @Test func createReturningNullIs2008AndReleasesTheLease() throws {
    let host = try Host()
    #expect(
      throws: TransitionStartError.animatorRefused(
        animator: "com.example.test.misuse/create-fails", reason: "its create returned NULL")
    ) { try PluginTransitionRun(host.registry, "com.example.test.misuse/create-fails") }
    #expect(host.registry.plugins.allSatisfy { $0.runningTransitions == 0 })
    #expect(try host.goodTransitionStillRuns())
  }

  /// A plugin that keeps its context and calls the host outside any host -> plugin call (its own timer), and
  /// after the transition ended.
  @Test func callsOutsideAnyCallAreTheWrongPhaseAndAfterTheEndStale() throws {
    let host = try Host()
    let lease = try host.registry.lease(animatorID: "com.example.test.misuse/good")
    defer { lease.end() }
    let api = try #require(lease.hostInfo.pointee.api)
    let run = try PluginTransitionRun(host.registry, "com.example.test.misuse/good")
    try run.transition.start()
    var view = th_view()
    #expect(api.pointee.container_view(run.animator.handle, &view) == TH_ERR_WRONG_PHASE)
    #expect(view.id == 0)
    #expect(kinds(run) == ["wrongPhase"])
    #expect(try run.run() == .completed)
    // The transition ended: its context is stale; with no transition to report to, the plugin's log says so.
    #expect(api.pointee.container_view(run.animator.handle, &view) == TH_ERR_STALE_HANDLE)
    #expect(
      host.log.lines.last
        == "com.example.test.misuse/good: container_view: TH_ERR_STALE_HANDLE: context \(run.animator.handle.id) belongs to a transition that has ended"
    )
    #expect(try host.goodTransitionStillRuns())
  }
}
