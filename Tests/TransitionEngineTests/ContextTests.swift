import TestSupport
import Testing

@testable import TransitionEngine

/// Records what the context says during `animateTransition`, then completes at once.
private final class ProbeAnimator: TransitionAnimator {
  let animatorID = "test/probe"
  let controller: TestPresentationController?
  var fromView: View??
  var toView: View??
  var fromRoot: View?
  var toRoot: View?
  var containerAtStart: [String] = []
  var initial: [TransitionContext.Key: Rect] = [:]
  var final: [TransitionContext.Key: Rect] = [:]
  var otherFrames: (Rect, Rect)?
  var isInteractive: Bool?
  var isAnimated: Bool?
  var operation: TransitionOperation?
  var params: [String: ParameterValue] = [:]
  var durationContext: TransitionContext??
  var completesAtOnce = true

  init(controller: TestPresentationController? = nil) { self.controller = controller }

  var presentationController: (any PresentationControllerBehavior)? { controller }

  func transitionDuration(_ context: TransitionContext?) -> Double {
    durationContext = .some(context)
    return 0.4
  }

  func animateTransition(_ context: TransitionContext) {
    fromView = .some(context.view(forKey: .from))
    toView = .some(context.view(forKey: .to))
    fromRoot = context.viewController(forKey: .from)
    toRoot = context.viewController(forKey: .to)
    containerAtStart = context.containerView.subviews.map(\.id)
    for key in TransitionContext.Key.allCases {
      initial[key] = context.initialFrame(forKey: key)
      final[key] = context.finalFrame(forKey: key)
    }
    let child = context.viewController(forKey: .from).subviews[0]
    otherFrames = (context.initialFrame(for: child), context.finalFrame(for: child))
    isInteractive = context.isInteractive
    isAnimated = context.isAnimated
    operation = context.operation
    params = context.params
    if completesAtOnce {
      if let to = context.view(forKey: .to), to.superview == nil { context.containerView.addSubview(to) }
      context.completeTransition(true)
    }
  }
}

@Suite struct ContextTests {
  /// (operation, presentation controller removes the presenter's view?) → (from view nil?, to view nil?), per
  /// CONVENTIONS' "Which views are where" and UIKit's `view(forKey:)`.
  @Test(arguments: [
    (TransitionOperation.present, nil as Bool?, true, false),
    (.present, false, true, false),
    (.present, true, false, false),
    (.segue, nil, false, false),
    (.segue, false, true, false),
    (.custom("zoom"), nil, true, false),
    (.custom("zoom"), true, false, false),
    (.dismiss, nil, false, true),
    (.dismiss, false, false, true),
    (.dismiss, true, false, false),
    (.unwind, nil, false, false),
    (.unwind, false, false, true),
    (.push, nil, false, false),
    (.push, false, false, false),
    (.pop, nil, false, false),
    (.pop, false, false, false),
  ])
  func viewForKeyFollowsUIKitsNilRules(
    operation: TransitionOperation, removes: Bool?, fromIsNil: Bool, toIsNil: Bool
  ) throws {
    let trees = TestTrees()
    let controller = removes.map { TestPresentationController(removesPresentersView: $0, addsDimming: false) }
    let probe = ProbeAnimator(controller: controller)
    let transition = trees.transition(operation, animator: probe)
    try transition.start()
    #expect((probe.fromView! == nil) == fromIsNil)
    #expect((probe.toView! == nil) == toIsNil)
    if let from = probe.fromView! { #expect(from === trees.from) }
    if let to = probe.toView! { #expect(to === trees.to) }
    // viewController(forKey:) is always the root, shown or not.
    #expect(probe.fromRoot === trees.from)
    #expect(probe.toRoot === trees.to)
  }

  /// The container at the start: the from root; below it the to root for a dismissal that kept the presenter's view.
  @Test(arguments: [
    (TransitionOperation.present, nil as Bool?, ["from"]),
    (.present, true, ["from"]),
    (.dismiss, nil, ["to", "from"]),
    (.dismiss, true, ["from"]),
    (.unwind, nil, ["from"]),
    (.unwind, false, ["to", "from"]),
    (.push, nil, ["from"]),
    (.pop, nil, ["from"]),
  ])
  func containerAtStart(operation: TransitionOperation, removes: Bool?, expected: [String]) throws {
    let trees = TestTrees()
    // Wherever the host left the roots, start() puts them where the operation wants them.
    trees.scene.container.addSubview(trees.to)
    let controller = removes.map { TestPresentationController(removesPresentersView: $0, addsDimming: false) }
    let probe = ProbeAnimator(controller: controller)
    try trees.transition(operation, animator: probe).start()
    #expect(probe.containerAtStart == expected)
  }

  @Test func framesOfAPresentationThatKeepsThePresenter() throws {
    let trees = TestTrees()
    trees.from.frame = Rect(x: 10, y: 20, width: 380, height: 760)
    let sheet = Rect(x: 0, y: 200, width: 400, height: 600)
    let probe = ProbeAnimator(
      controller: TestPresentationController(removesPresentersView: false, presentedFrame: sheet, addsDimming: false))
    try trees.transition(.present, animator: probe).start()
    #expect(probe.initial[.from] == Rect(x: 10, y: 20, width: 380, height: 760))
    #expect(probe.initial[.to] == .zero)
    #expect(probe.final[.to] == sheet)
    // Kept, so its final frame is known and must be respected: where it is.
    #expect(probe.final[.from] == Rect(x: 10, y: 20, width: 380, height: 760))
    // Views that are not roots have no frames in the context.
    #expect(probe.otherFrames?.0 == .zero)
    #expect(probe.otherFrames?.1 == .zero)
  }

  @Test func framesOfAPresentationThatRemovesThePresenter() throws {
    let trees = TestTrees()
    let probe = ProbeAnimator(controller: TestPresentationController(removesPresentersView: true, addsDimming: false))
    try trees.transition(.present, animator: probe).start()
    #expect(probe.final[.from] == .zero)
    // No frame from the controller: the container's bounds (UIKit's default frameOfPresentedViewInContainerView).
    #expect(probe.final[.to] == Rect(x: 0, y: 0, width: 400, height: 800))
  }

  @Test func framesOfADismissal() throws {
    let trees = TestTrees()
    trees.to.frame = Rect(x: 0, y: 0, width: 400, height: 800)
    trees.from.frame = Rect(x: 0, y: 200, width: 400, height: 600)
    let probe = ProbeAnimator()
    try trees.transition(.dismiss, animator: probe).start()
    #expect(probe.initial[.from] == Rect(x: 0, y: 200, width: 400, height: 600))
    #expect(probe.initial[.to] == Rect(x: 0, y: 0, width: 400, height: 800))
    #expect(probe.final[.from] == .zero)
    #expect(probe.final[.to] == Rect(x: 0, y: 0, width: 400, height: 800))

    let removed = TestTrees()
    let probe2 = ProbeAnimator(controller: TestPresentationController(removesPresentersView: true, addsDimming: false))
    try removed.transition(.dismiss, animator: probe2).start()
    // Not on screen at the start.
    #expect(probe2.initial[.to] == .zero)
  }

  @Test(arguments: [TransitionOperation.push, .pop])
  func framesOfNavigation(operation: TransitionOperation) throws {
    let trees = TestTrees()
    trees.to.frame = Rect(x: 50, y: 50, width: 10, height: 10)
    let probe = ProbeAnimator()
    try trees.transition(operation, animator: probe).start()
    #expect(probe.initial[.from] == Rect(x: 0, y: 0, width: 400, height: 800))
    #expect(probe.initial[.to] == .zero)
    #expect(probe.final[.from] == .zero)
    #expect(probe.final[.to] == Rect(x: 0, y: 0, width: 400, height: 800))
  }

  @Test func nonFinitePresentedFrameIsReportedAndReplaced() throws {
    let trees = TestTrees()
    let probe = ProbeAnimator(
      controller: TestPresentationController(
        removesPresentersView: false, presentedFrame: Rect(x: .nan, y: 0, width: 1, height: 1), addsDimming: false))
    let transition = trees.transition(.present, animator: probe)
    var reports: [Misbehavior] = []
    transition.onMisbehavior = { reports.append($0) }
    try transition.start()
    #expect(probe.final[.to] == Rect(x: 0, y: 0, width: 400, height: 800))
    #expect(reports.map(\.kind) == [.invalidValue(field: "frameOfPresentedView")])
    #expect(reports.first?.animatorID == "test/probe")
  }

  @Test func operationParamsAndFlagsReachTheAnimator() throws {
    let trees = TestTrees()
    let probe = ProbeAnimator()
    probe.completesAtOnce = false
    let params: [String: ParameterValue] = [
      "duration": .number(0.7), "dim": .bool(true), "tint": .color(Color(r: 1, g: 0, b: 0)),
      "edge": .enumCase("left"), "title": .string("Hi"), "origin": .point(Point(x: 1, y: 2)),
      "sheet": .rect(Rect(x: 0, y: 1, width: 2, height: 3)),
    ]
    let transition = try Transition(
      scene: trees.scene, from: trees.from, to: trees.to, operation: TransitionOperation(name: "flip"),
      animator: probe, params: params, options: TransitionOptions(isInteractive: true, isAnimated: false))
    try transition.start()
    #expect(probe.operation == .custom("flip"))
    #expect(probe.params == params)
    #expect(probe.isInteractive == true)
    #expect(probe.isAnimated == false)
    // The duration is asked with the context.
    #expect(probe.durationContext! === transition.context)
    #expect(transition.duration == 0.4)
    #expect(transition.context.params["edge"]?.stringValue == "left")
    #expect(transition.context.params["edge"]?.type == .enum)
    #expect(transition.context.params["tint"]?.colorValue == Color(r: 1, g: 0, b: 0))
    #expect(transition.context.params["dim"]?.numberValue == nil)
  }

  @Test(arguments: ["present", "dismiss", "push", "pop", "segue", "unwind", "flip", ""])
  func operationNamesRoundTrip(name: String) {
    let operation = TransitionOperation(name: name)
    #expect(operation.name == name)
    let known = ["present", "dismiss", "push", "pop", "segue", "unwind"]
    if known.contains(name) {
      if case .custom = operation { Issue.record("\(name) should not be custom") }
    } else {
      #expect(operation == .custom(name))
      #expect(operation.kind == .presentation)
    }
  }

  @Test func isInteractiveAndWasCancelledFollowTheInteraction() throws {
    let trees = TestTrees()
    let transition = trees.transition(.present, animator: SlideAnimator(duration: 0.5), interactive: true)
    let context = transition.context
    try transition.start()
    #expect(context.isInteractive)
    #expect(!context.transitionWasCancelled)
    try transition.update(percent: 0.5)
    try transition.cancel()
    #expect(!context.isInteractive)
    #expect(context.transitionWasCancelled)
    try transition.update(percent: 0.4)
    #expect(context.isInteractive)
    try transition.finish()
    #expect(!context.isInteractive)
    #expect(!context.transitionWasCancelled)
  }

  /// Alongside animations run just after animateTransition as one block with the transition's duration and
  /// easeInOut: the dimming view's alpha at half the duration is 0.4 × easeInOut(0.5).
  @Test func alongsideAnimationsShareTheTimeline() throws {
    let trees = TestTrees()
    let log = EventLog()
    let controller = TestPresentationController(removesPresentersView: false, log: log)
    let transition = trees.transition(
      .present, animator: SlideAnimator(duration: 0.5, controller: controller, log: log))
    transition.onEnd = { log.add("onEnd(\($0))") }
    try transition.start()
    let dimmingID = try #require(controller.dimming?.id)
    func alpha(atPercent p: Double) throws -> Double {
      try #require(transition.sample(percent: p).first { $0.id == dimmingID }).alpha
    }
    #expect(try alpha(atPercent: 0) == 0)
    #expect(abs(try alpha(atPercent: 0.5) - 0.4 * Reference.easeInOut(0.5)) < 1e-9)
    #expect(abs(try alpha(atPercent: 0.25) - 0.4 * Reference.easeInOut(0.25)) < 1e-9)
    try transition.advance(by: 0.5)
    #expect(transition.state == .ended(.completed))
    #expect(
      log.entries == [
        // Every completion due at that moment runs (the animator's block was made first), then the end.
        "presentationWillBegin", "animateTransition", "completion(true)", "alongsideCompletion(true)",
        "presentationDidEnd(true)", "animationEnded(true)", "onEnd(completed)",
      ])
    #expect(trees.scene.container.subviews.map(\.id) == ["from", dimmingID, "to"])
  }

  @Test func alongsideAfterTheEndIsRefusedAndReported() throws {
    let trees = TestTrees()
    let transition = trees.transition(.present, animator: SlideAnimator(duration: 0.5))
    var reports: [Misbehavior.Kind] = []
    transition.onMisbehavior = { reports.append($0.kind) }
    try transition.start()
    try transition.advance(by: 1)
    #expect(transition.context.animateAlongside({}) == false)
    #expect(reports == [.callAfterCompletion])
  }

  /// A presentation controller's chrome is gone after a cancel, and it hears did-end(false) before the animator.
  @Test func cancelledPresentationRemovesChrome() throws {
    let trees = TestTrees()
    let log = EventLog()
    let controller = TestPresentationController(removesPresentersView: false, log: log)
    let transition = trees.transition(
      .present, animator: SlideAnimator(duration: 0.5, controller: controller, log: log), interactive: true)
    transition.onEnd = { log.add("onEnd(\($0))") }
    try transition.start()
    try transition.update(percent: 0.5)
    try transition.cancel()
    try transition.advance(by: 0.25)
    #expect(transition.state == .ended(.cancelled(reason: nil)))
    #expect(controller.dimming?.superview == nil)
    #expect(trees.scene.container.subviews.map(\.id) == ["from"])
    #expect(
      log.entries == [
        "presentationWillBegin", "animateTransition", "completion(true)", "alongsideCompletion(true)",
        "presentationDidEnd(false)", "animationEnded(false)", "onEnd(cancelled(reason: nil))",
      ])
  }
}
