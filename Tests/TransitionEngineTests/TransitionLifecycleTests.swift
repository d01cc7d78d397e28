import TestSupport
import Testing

@testable import TransitionEngine

/// Ends of transitions: settling per operation, cancel restoring everything, misbehaving animators, host-initiated
/// ends and refused calls.
@Suite struct TransitionLifecycleTests {
  /// Runs a non-interactive transition to its end and returns the container's subviews.
  private func settle(
    _ operation: TransitionOperation, controller: TestPresentationController?, animator: (any TransitionAnimator)? = nil
  ) throws -> (TestTrees, [String], [TransitionOutcome]) {
    let trees = TestTrees()
    let transition = trees.transition(
      operation, animator: animator ?? SlideAnimator(duration: 0.5, controller: controller))
    var ends: [TransitionOutcome] = []
    transition.onEnd = { ends.append($0) }
    try transition.start()
    try transition.advance(by: 0.5)
    return (trees, trees.scene.container.subviews.map(\.id), ends)
  }

  /// The hierarchy after completion, per CONVENTIONS' table.
  @Test(arguments: [
    (TransitionOperation.present, nil as Bool?, ["from", "to"]),
    (.present, false, ["from", "to"]),
    (.present, true, ["to"]),
    (.segue, nil, ["to"]),
    (.segue, false, ["from", "to"]),
    (.custom("zoom"), nil, ["from", "to"]),
    (.dismiss, nil, ["to"]),
    (.dismiss, true, ["to"]),
    (.unwind, nil, ["to"]),
    (.push, nil, ["to"]),
    (.pop, nil, ["to"]),
  ])
  func hierarchyAfterCompletion(operation: TransitionOperation, removes: Bool?, expected: [String]) throws {
    let controller = removes.map { TestPresentationController(removesPresentersView: $0, addsDimming: false) }
    let (trees, subviews, ends) = try settle(operation, controller: controller)
    #expect(ends == [.completed])
    #expect(subviews == expected)
    if operation.kind != .dismissal {
      // The to root sits at its final frame (the animation's end value).
      #expect(trees.to.frame == Rect(x: 0, y: 0, width: 400, height: 800))
    }
  }

  /// A dismissal whose animator never inserts the to root: the engine adds it at the bottom.
  @Test func dismissalAddsTheToRootWhenTheAnimatorDidNot() throws {
    let (trees, subviews, ends) = try settle(.unwind, controller: nil, animator: FadeOutAnimator())
    #expect(ends == [.completed])
    #expect(subviews == ["to"])
    #expect(trees.from.superview == nil)
  }

  /// A presentation whose animator never added the to root: it is put on top, since a completed presentation shows it.
  @Test func presentationAddsTheToRootWhenTheAnimatorDidNot() throws {
    let (_, subviews, ends) = try settle(.present, controller: nil, animator: FadeOutAnimator())
    #expect(ends == [.completed])
    #expect(subviews == ["from", "to"])
  }

  @Test func orderOfTheEndCallbacks() throws {
    let log = EventLog()
    let controller = TestPresentationController(removesPresentersView: true, addsDimming: false, log: log)
    let trees = TestTrees()
    let transition = trees.transition(
      .dismiss, animator: SlideAnimator(duration: 0.5, controller: controller, log: log))
    transition.onEnd = { log.add("onEnd(\($0))") }
    try transition.start()
    try transition.advance(by: 0.6)
    #expect(
      log.entries == [
        "dismissalWillBegin", "animateTransition", "completion(true)", "dismissalDidEnd(true)",
        "animationEnded(true)", "onEnd(completed)",
      ])
  }

  // MARK: Cancel restores everything

  private func runManyPropertiesCancel(_ drive: (Transition) throws -> Void) throws {
    let trees = TestTrees()
    trees.placeForStart(.navigation, removesPresentersView: true)
    let start = exactDump(trees)
    let startPresentation = presentationDump(trees.scene, at: 0)
    let animator = ManyPropertiesAnimator(duration: 0.6)
    let transition = trees.transition(.push, animator: animator, interactive: true)
    var ends: [TransitionOutcome] = []
    transition.onEnd = { ends.append($0) }
    try transition.start()
    // The animator really changed things.
    #expect(exactDump(trees) != start)
    #expect(presentationDump(trees.scene, at: 0.3) != startPresentation)
    try drive(transition)
    #expect(ends == [.cancelled(reason: nil)])
    #expect(animator.ended == [false])
    #expect(exactDump(trees) == start)
    // No animation is left: every moment shows the start.
    #expect(presentationDump(trees.scene, at: 0) == startPresentation)
    #expect(presentationDump(trees.scene, at: 0.45) == startPresentation)
    #expect(trees.scene.hasPendingWork == false)
  }

  @Test func cancelRestoresEveryPropertyBitForBit() throws {
    try runManyPropertiesCancel { transition in
      try transition.update(percent: 0.7)
      try transition.cancel()
      try transition.advance(by: 0.7 * 0.6 + 1e-9)
    }
  }

  @Test func cancelAfterRunningPastChainedBlocksRestoresEverything() throws {
    try runManyPropertiesCancel { transition in
      // Run past the first block's end (its completion chains another block), grab, then fling back.
      try transition.finish(curve: .linear)
      try transition.advance(by: 0.5)
      #expect(transition.state == .finishing)
      try transition.update(percent: 0.8)
      #expect(try transition.release(velocity: -2) == .cancel)
      for _ in 0..<100 where !transition.state.isEnded { try transition.advance(by: 0.05) }
    }
  }

  @Test func reverseOfARunRestoresEverything() throws {
    try runManyPropertiesCancel { transition in
      try transition.update(percent: 0.1)
      try transition.finish()
      try transition.advance(by: 0.2)
      #expect(try transition.reverse() == .cancelling)
      for _ in 0..<100 where !transition.state.isEnded { try transition.advance(by: 1.0 / 60) }
    }
  }

  // MARK: Misbehaving animators

  @Test func secondCompleteTransitionIsReportedAndIgnored() throws {
    let trees = TestTrees()
    let animator = SlideAnimator(duration: 0.5, style: .twice)
    let transition = trees.transition(.present, animator: animator)
    var ends: [TransitionOutcome] = []
    var reports: [Misbehavior] = []
    transition.onEnd = { ends.append($0) }
    transition.onMisbehavior = { reports.append($0) }
    try transition.start()
    try transition.advance(by: 0.5)
    #expect(ends == [.completed])
    #expect(animator.ended == [true])
    #expect(reports.map(\.kind) == [.completedTwice])
    #expect(reports.first?.animatorID == "test/slide")
    // Still ignored much later.
    transition.context.completeTransition(false)
    #expect(ends == [.completed])
    #expect(reports.map(\.kind) == [.completedTwice, .completedTwice])
    #expect(trees.scene.container.subviews.map(\.id) == ["from", "to"])
  }

  @Test(arguments: [CompletionStyle.never, .nothing])
  func neverCompletedIsDetectedWhenTheWorkRunsOut(style: CompletionStyle) throws {
    let trees = TestTrees()
    trees.placeForStart(.presentation, removesPresentersView: false)
    let start = exactDump(trees)
    let animator = SlideAnimator(duration: 0.5, style: style)
    let transition = trees.transition(.present, animator: animator)
    var ends: [TransitionOutcome] = []
    var reports: [Misbehavior.Kind] = []
    transition.onEnd = { ends.append($0) }
    transition.onMisbehavior = { reports.append($0.kind) }
    try transition.start()
    try transition.advance(by: 0.5 - 1e-6)
    #expect(ends.isEmpty)
    try transition.advance(by: 2e-6)
    #expect(ends == [.failed(reason: "neverCompleted")])
    #expect(reports == [.neverCompleted])
    #expect(animator.ended == [false])
    #expect(exactDump(trees) == start)
    #expect(throws: TransitionError.ended) { try transition.advance(by: 1) }
    // A late completeTransition is reported, not acted on.
    transition.context.completeTransition(true)
    #expect(reports == [.neverCompleted, .callAfterCompletion])
    #expect(ends.count == 1)
  }

  /// A paused interactive transition waits for its user, however much time passes; the detection happens once a
  /// tail has run out.
  @Test func pausedTransitionIsNotNeverCompleted() throws {
    let trees = TestTrees()
    let transition = trees.transition(
      .present, animator: SlideAnimator(duration: 0.5, style: .never), interactive: true)
    var ends: [TransitionOutcome] = []
    transition.onEnd = { ends.append($0) }
    try transition.start()
    try transition.advance(by: 1000)
    try transition.update(percent: 1)
    try transition.advance(by: 1000)
    #expect(ends.isEmpty)
    #expect(transition.state == .paused)
    try transition.cancel()
    try transition.advance(by: 0.5 - 1e-6)
    #expect(ends.isEmpty)
    try transition.advance(by: 2e-6)
    #expect(ends == [.failed(reason: "neverCompleted")])
  }

  @Test func synchronousCompletionEndsAtOnce() throws {
    let trees = TestTrees()
    let transition = trees.transition(.present, animator: SlideAnimator(duration: 0.5, style: .synchronousTrue))
    var ends: [TransitionOutcome] = []
    transition.onEnd = { ends.append($0) }
    try transition.start()
    #expect(ends == [.completed])
    #expect(trees.scene.container.subviews.map(\.id) == ["from", "to"])
  }

  @Test func synchronousCancellationRestoresAtOnce() throws {
    let trees = TestTrees()
    trees.placeForStart(.presentation, removesPresentersView: false)
    let start = exactDump(trees)
    let transition = trees.transition(.present, animator: SlideAnimator(duration: 0.5, style: .synchronousFalse))
    var ends: [TransitionOutcome] = []
    transition.onEnd = { ends.append($0) }
    try transition.start()
    #expect(ends == [.cancelled(reason: nil)])
    #expect(exactDump(trees) == start)
  }

  /// The animator has the last word: completing with true after a cancel settles as completed (MagicMove's push).
  @Test func completingTrueAfterACancelSettlesAsCompleted() throws {
    let trees = TestTrees()
    let animator = SlideAnimator(duration: 0.5, style: .ignoresCancel)
    let transition = trees.transition(.push, animator: animator, interactive: true)
    var ends: [TransitionOutcome] = []
    transition.onEnd = { ends.append($0) }
    try transition.start()
    try transition.update(percent: 0.5)
    try transition.cancel()
    try transition.advance(by: 0.25)
    #expect(ends == [.completed])
    #expect(trees.scene.container.subviews.map(\.id) == ["to"])
  }

  /// At the end of a cancel the pending completions fire with finished = true (the reversed animations ran to their
  /// start); on terminate they were cut short: finished = false.
  @Test func completionsAtTheEndOfACancelAndOnTerminate() throws {
    let trees = TestTrees()
    let animator = SlideAnimator(duration: 0.5)
    let transition = trees.transition(.present, animator: animator, interactive: true)
    try transition.start()
    try transition.update(percent: 0.5)
    try transition.cancel()
    try transition.advance(by: 0.3)
    #expect(animator.finishedFlags == [true])

    let trees2 = TestTrees()
    trees2.placeForStart(.presentation, removesPresentersView: false)
    let start = exactDump(trees2)
    let animator2 = SlideAnimator(duration: 0.5)
    let transition2 = trees2.transition(.present, animator: animator2, interactive: true)
    var ends: [TransitionOutcome] = []
    transition2.onEnd = { ends.append($0) }
    try transition2.start()
    try transition2.update(percent: 0.5)
    transition2.terminate(reason: "inputClosed")
    #expect(animator2.finishedFlags == [false])
    #expect(ends == [.cancelled(reason: "inputClosed")])
    #expect(animator2.ended == [false])
    #expect(exactDump(trees2) == start)
    transition2.terminate(reason: "terminated")
    transition2.fail(reason: "x")
    #expect(ends.count == 1)
  }

  /// Completions that fire at the end of a cancel may chain more blocks; the scene fires those at once too (the
  /// cancelled run is over), so the animator's completion from the chained block ends the transition right there.
  @Test func blocksChainedAtTheEndOfACancelCompleteAtOnce() throws {
    let trees = TestTrees()
    trees.placeForStart(.presentation, removesPresentersView: false)
    let start = exactDump(trees)
    let transition = trees.transition(.present, animator: ChainingAnimator(), interactive: true)
    var ends: [TransitionOutcome] = []
    transition.onEnd = { ends.append($0) }
    try transition.start()
    try transition.update(percent: 0.5)
    try transition.cancel(speed: 2)
    // 0.25 s of timeline back at speed 2.
    try transition.advance(by: 0.125 - 1e-6)
    #expect(ends.isEmpty)
    try transition.advance(by: 2e-6)
    #expect(ends == [.cancelled(reason: nil)])
    #expect(exactDump(trees) == start)
  }

  @Test func failEndsAsFailedAndRestores() throws {
    let trees = TestTrees()
    trees.placeForStart(.presentation, removesPresentersView: false)
    let start = exactDump(trees)
    let transition = trees.transition(.present, animator: ManyPropertiesAnimator())
    var ends: [TransitionOutcome] = []
    transition.onEnd = { ends.append($0) }
    try transition.start()
    try transition.advance(by: 0.2)
    transition.fail(reason: "pluginUnloaded")
    #expect(ends == [.failed(reason: "pluginUnloaded")])
    #expect(exactDump(trees) == start)
  }

  @Test func terminateBeforeStartEndsWithoutCallingTheAnimator() {
    let trees = TestTrees()
    let log = EventLog()
    let transition = trees.transition(.present, animator: SlideAnimator(log: log))
    var ends: [TransitionOutcome] = []
    transition.onEnd = { ends.append($0) }
    transition.terminate(reason: "terminated")
    #expect(ends == [.cancelled(reason: "terminated")])
    #expect(log.entries.isEmpty)
    #expect(throws: TransitionError.ended) { try transition.start() }
  }

  /// A host that fails the transition from inside a misbehaviour report (itself inside an animator callback): the
  /// end waits until the callback has returned, and it wins over the animator's own completion.
  @Test func endRequestedInsideACallbackWaitsForIt() throws {
    let trees = TestTrees()
    trees.placeForStart(.presentation, removesPresentersView: false)
    let start = exactDump(trees)
    let animator = SlideAnimator(duration: 0.5, style: .twice)
    let transition = trees.transition(.present, animator: animator)
    var ends: [TransitionOutcome] = []
    transition.onEnd = { ends.append($0) }
    transition.onMisbehavior = { [unowned transition] _ in transition.fail(reason: "animatorMisbehaved") }
    try transition.start()
    try transition.advance(by: 0.5)
    #expect(ends == [.failed(reason: "animatorMisbehaved")])
    #expect(animator.ended == [false])
    #expect(exactDump(trees) == start)
  }

  /// A host that fails the transition from the report of a bad duration, made inside `start()` before the transition
  /// has left idle: it ends once, restored, and the animator is not asked to animate an ended transition.
  @Test func endRequestedWhileStartingEndsOnceWithoutAnimating() throws {
    let trees = TestTrees()
    trees.placeForStart(.presentation, removesPresentersView: false)
    let start = exactDump(trees)
    let log = EventLog()
    let animator = SlideAnimator(duration: .nan, log: log)
    let transition = trees.transition(.present, animator: animator)
    var ends: [TransitionOutcome] = []
    transition.onEnd = { ends.append($0) }
    transition.onMisbehavior = { [unowned transition] _ in transition.fail(reason: "animatorMisbehaved") }
    try transition.start()
    #expect(ends == [.failed(reason: "animatorMisbehaved")])
    #expect(transition.state == .ended(.failed(reason: "animatorMisbehaved")))
    #expect(!log.entries.contains("animateTransition"))
    #expect(animator.ended == [false])
    #expect(exactDump(trees) == start)
    #expect(throws: TransitionError.ended) { try transition.advance(by: 1) }
  }

  // MARK: Refused calls

  @Test func callsThatMakeNoSenseThrowAndChangeNothing() throws {
    let trees = TestTrees()
    let transition = trees.transition(.present, animator: SlideAnimator(duration: 0.5), interactive: true)
    #expect(throws: TransitionError.notStarted) { try transition.update(percent: 0.5) }
    #expect(throws: TransitionError.notStarted) { try transition.advance(by: 0.1) }
    #expect(throws: TransitionError.notStarted) { try transition.finish() }
    try transition.start()
    #expect(throws: TransitionError.alreadyStarted) { try transition.start() }
    #expect(throws: TransitionError.notRunning) { try transition.reverse() }
    try transition.update(percent: 0.4)
    #expect(throws: TransitionError.invalidValue(field: "percent", reason: "must be a finite number")) {
      try transition.update(percent: .nan)
    }
    #expect(throws: TransitionError.invalidValue(field: "dt", reason: "must be a finite number ≥ 0")) {
      try transition.advance(by: -1)
    }
    #expect(throws: TransitionError.invalidValue(field: "completionSpeed", reason: "must be a finite number > 0")) {
      try transition.finish(speed: 0)
    }
    #expect(throws: TransitionError.invalidValue(field: "velocity", reason: "must be a finite number")) {
      try transition.cancel(velocity: .infinity)
    }
    #expect(transition.state == .paused)
    #expect(abs(transition.percent - 0.4) < 1e-15)
    try transition.finish()
    #expect(throws: TransitionError.alreadyFinishing) { try transition.finish() }
    #expect(throws: TransitionError.notInteractive) { try transition.release(velocity: 1) }
    try transition.cancel()
    #expect(throws: TransitionError.alreadyCancelling) { try transition.cancel() }
    #expect(transition.state == .cancelling)
    try transition.advance(by: 1)
    #expect(transition.state == .ended(.cancelled(reason: nil)))
    for call in [
      { try transition.update(percent: 0.5) }, { try transition.pause() }, { try transition.finish() },
      { try transition.cancel() }, { _ = try transition.release() }, { _ = try transition.reverse() },
      { try transition.advance(by: 0.1) },
    ] as [() throws -> Void] {
      #expect(throws: TransitionError.ended) { try call() }
    }
    #expect(transition.state == .ended(.cancelled(reason: nil)))
  }

  @Test func finishOnARunningTransitionIsRefused() throws {
    let trees = TestTrees()
    let transition = trees.transition(.present, animator: SlideAnimator(duration: 0.5))
    try transition.start()
    #expect(throws: TransitionError.alreadyFinishing) { try transition.finish() }
    #expect(transition.state == .running)
  }

  @Test func invalidConstructionIsRefused() {
    let trees = TestTrees()
    #expect(throws: TransitionError.invalidValue(field: "completionSpeed", reason: "must be a finite number > 0")) {
      _ = try Transition(
        scene: trees.scene, from: trees.from, to: trees.to, operation: .present, animator: SlideAnimator(),
        options: TransitionOptions(completionSpeed: .nan))
    }
    #expect(throws: TransitionError.self) {
      _ = try Transition(
        scene: trees.scene, from: trees.from, to: trees.from, operation: .present, animator: SlideAnimator())
    }
    let other = TestTrees()
    #expect(throws: TransitionError.self) {
      _ = try Transition(
        scene: trees.scene, from: trees.from, to: other.to, operation: .present, animator: SlideAnimator())
    }
  }

  @Test func nonFiniteDurationIsReportedAndTreatedAsZero() throws {
    let trees = TestTrees()
    let transition = trees.transition(.present, animator: SlideAnimator(duration: -.infinity))
    var reports: [Misbehavior.Kind] = []
    transition.onMisbehavior = { reports.append($0.kind) }
    try transition.start()
    #expect(transition.duration == 0)
    #expect(reports == [.invalidValue(field: "transitionDuration")])
  }

  // MARK: Sampling

  @Test func samplingIsPure() throws {
    let trees = TestTrees()
    let log = EventLog()
    let transition = trees.transition(.present, animator: SlideAnimator(duration: 0.5, log: log), interactive: true)
    try transition.start()
    try transition.update(percent: 0.25)
    let before = exactDump(trees)
    let late = presentationDump(trees.scene, at: 0.5)
    // Sampling past the end of the animation fires nothing.
    let atEnd = try transition.sample(percent: 1)
    _ = try transition.sample(time: 10)
    #expect(try transition.sample(time: 0.5).map(\.id) == atEnd.map(\.id))
    #expect(presentationDump(trees.scene, at: 0.5) == late)
    #expect(log.entries == ["animateTransition"])
    #expect(transition.state == .paused)
    #expect(transition.time == 0.125)
    #expect(exactDump(trees) == before)
    // The to view's frame at 100 %: its final frame.
    let to = try #require(atEnd.first { $0.id == "to" })
    #expect(to.frame == Rect(x: 0, y: 0, width: 400, height: 800))
    // At 50 %: offset by the container height × (1 − easeInOut(0.5)) = 400.
    let half = try #require(transition.sample(percent: 0.5).first { $0.id == "to" })
    #expect(abs(half.frame.origin.y - 800 * (1 - Reference.easeInOut(0.5))) < 1e-9)
    #expect(throws: TransitionError.invalidValue(field: "time", reason: "must be a finite number")) {
      _ = try transition.sample(time: .nan)
    }
  }

  @Test func scrubbingFiresNothing() throws {
    let trees = TestTrees()
    let log = EventLog()
    let transition = trees.transition(.present, animator: SlideAnimator(duration: 0.5, log: log), interactive: true)
    try transition.start()
    try transition.update(percent: 1)
    try transition.update(percent: 0.2)
    try transition.update(percent: 1)
    #expect(log.entries == ["animateTransition"])
    // Finishing from 100 % is an empty tail; the completion fires on the next advance.
    try transition.finish()
    try transition.advance(by: 0)
    #expect(log.entries == ["animateTransition", "completion(true)", "animationEnded(true)"])
  }
}

/// Fades the from root out and never touches the to root.
final class FadeOutAnimator: TransitionAnimator {
  let animatorID = "test/fade-out"
  func transitionDuration(_ context: TransitionContext?) -> Double { 0.5 }
  func animateTransition(_ context: TransitionContext) {
    let from = context.viewController(forKey: .from)
    context.scene.animate(duration: 0.5, delay: 0, timing: .curve(.linear), animations: { from.alpha = 0 }) { _ in
      context.completeTransition(!context.transitionWasCancelled)
    }
  }
}

/// Slides the to root in; the slide's completion chains a 0.2 s fade and completes from the fade's completion.
final class ChainingAnimator: TransitionAnimator {
  let animatorID = "test/chaining"
  func transitionDuration(_ context: TransitionContext?) -> Double { 0.5 }
  func animateTransition(_ context: TransitionContext) {
    guard let to = context.view(forKey: .to) else { return }
    let scene = context.scene
    to.frame = context.finalFrame(forKey: .to).offsetBy(dx: 0, dy: 800)
    context.containerView.addSubview(to)
    scene.animate(
      duration: 0.5, delay: 0, timing: .curve(.easeInOut),
      animations: {
        to.frame = context.finalFrame(forKey: .to)
      }
    ) { _ in
      scene.animate(duration: 0.2, delay: 0, timing: .curve(.linear), animations: { to.alpha = 0.5 }) { _ in
        context.completeTransition(!context.transitionWasCancelled)
      }
    }
  }
}
