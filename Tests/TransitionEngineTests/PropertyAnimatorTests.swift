import Foundation
import TestSupport
import Testing

@testable import TransitionEngine

/// UIViewPropertyAnimator in the engine: runs, delay factors, pausing and scrubbing, reversing, continuing with a
/// spring, stopping and finishing, and an interactive transition driving its interruptible animator. Expected values
/// are the closed forms (Bézier by bisection and the springs of TestSupport's `Reference`), never the engine's own.
@Suite struct PropertyAnimatorTests {
  /// A scene with one view at x = 0 that the animators move to x = 100.
  private struct Stage {
    let scene = Scene(containerSize: Size(width: 400, height: 800))
    let view: View

    init() {
      view = try! scene.makeView(id: "v")
      view.frame = Rect(x: 0, y: 0, width: 10, height: 10)
      scene.container.addSubview(view)
      view.position = Point(x: 0, y: 0)
    }

    func x(at t: Double) -> Double { scene.presentedValues(of: view, at: t).position.x }
    var modelX: Double { view.position.x }

    func animator(_ duration: Double, _ timing: PropertyAnimatorTiming, to x: Double = 100) throws -> PropertyAnimator {
      let animator = try PropertyAnimator(scene: scene, duration: duration, timing: timing)
      try animator.addAnimations { self.view.position = Point(x: x, y: 0) }
      return animator
    }

    /// A linear 1 s animator to x = 100, started now, and the positions its completions receive.
    func startedLinear() throws -> (PropertyAnimator, Box<[AnimatingPosition]>) {
      let animator = try self.animator(1, .curve(.linear))
      let positions = Box<[AnimatingPosition]>([])
      animator.addCompletion { positions.value.append($0) }
      try animator.startAnimation()
      return (animator, positions)
    }
  }

  private func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

  @Test func aCubicRunFollowsItsCurveAndCompletesAtTheEnd() throws {
    let stage = Stage()
    let animator = try stage.animator(1, .curve(.bezier(0.3, 0.1, 0.2, 1)))
    let positions = Box<[AnimatingPosition]>([])
    animator.addCompletion { positions.value.append($0) }
    #expect(animator.state == .inactive)
    try animator.startAnimation()
    #expect(animator.state == .active && animator.isRunning)
    for t in [0.1, 0.35, 0.6, 0.95] {
      #expect(close(stage.x(at: t), 100 * Reference.bezier(0.3, 0.1, 0.2, 1, at: t)))
    }
    stage.scene.advance(to: 0.35)
    #expect(close(animator.fractionComplete, 0.35))
    stage.scene.advance(to: 1)
    #expect(positions.value == [.end])
    #expect(animator.state == .inactive && !animator.isRunning)
    #expect(stage.modelX == 100 && stage.x(at: 2) == 100)
  }

  @Test func delayFactorsStartGroupsLateAndEndThemTogether() throws {
    let stage = Stage()
    let other = try stage.scene.makeView(id: "w")
    stage.scene.container.addSubview(other)
    other.alpha = 1
    let animator = try stage.animator(2, .curve(.easeIn))
    try animator.addAnimations(delayFactor: 0.25) { other.alpha = 0 }
    try animator.startAnimation(afterDelay: 0.5)
    // Group 1 runs from 0.5 over 2 s; group 2 from 0.5 + 0.25·2 over 1.5 s, both easeIn.
    for t in [0.4, 0.9, 1.3, 2.2] {
      #expect(close(stage.x(at: t), 100 * Reference.easeIn(max(t - 0.5, 0) / 2)))
      let local = max(t - 1, 0) / 1.5
      #expect(close(stage.scene.presentedValues(of: other, at: t).alpha, 1 - Reference.easeIn(local)))
    }
    stage.scene.advance(to: 2.5)
    #expect(animator.state == .inactive && other.alpha == 0)
  }

  /// UIKit: delay = delayFactor × the remaining duration for a group added to a running animator.
  @Test func aGroupAddedWhileRunningUsesTheRemainingDuration() throws {
    let stage = Stage()
    let other = try stage.scene.makeView(id: "w")
    stage.scene.container.addSubview(other)
    let animator = try stage.animator(1, .curve(.linear))
    try animator.startAnimation()
    stage.scene.advance(to: 0.2)
    try animator.addAnimations(delayFactor: 0.5) { other.alpha = 0 }
    // Remaining 0.8 s: the group waits 0.4 s and lasts 0.4 s.
    #expect(close(stage.scene.presentedValues(of: other, at: 0.5).alpha, 1))
    #expect(close(stage.scene.presentedValues(of: other, at: 0.8).alpha, 0.5))
    stage.scene.advance(to: 1)
    #expect(other.alpha == 0 && animator.state == .inactive)
  }

  @Test func pausingHoldsAndScrubbingIsLinearOrCurved() throws {
    let stage = Stage()
    let animator = try stage.animator(1, .curve(.easeInOut))
    try animator.startAnimation()
    stage.scene.advance(to: 0.4)
    try animator.pauseAnimation()
    #expect(animator.state == .active && !animator.isRunning)
    let shown = 100 * Reference.easeInOut(0.4)
    stage.scene.advance(to: 3)
    #expect(close(stage.x(at: 3), shown))
    // Scrubbing linearly, the pause reports the on-screen fraction, so scrubbing there does not jump.
    #expect(close(animator.fractionComplete, shown / 100))
    try animator.setFractionComplete(0.25)
    #expect(close(stage.x(at: 3), 25))
    animator.scrubsLinearly = false
    try animator.setFractionComplete(0.25)
    #expect(close(stage.x(at: 3), 100 * Reference.easeInOut(0.25)))
    try animator.setFractionComplete(7)
    #expect(animator.fractionComplete == 1)
  }

  /// The setter of fractionComplete is a no-op while running (UIKit), and activates an inactive animator.
  @Test func fractionCompleteActivatesAndIsIgnoredWhileRunning() throws {
    let stage = Stage()
    let animator = try stage.animator(1, .curve(.linear))
    try animator.setFractionComplete(0.6)
    #expect(animator.state == .active && !animator.isRunning && close(stage.x(at: 0), 60))
    try animator.startAnimation()
    stage.scene.advance(to: 0.2)
    try animator.setFractionComplete(0.1)
    #expect(close(animator.fractionComplete, 0.6 + 0.4 * (0.2 / 0.4)))
  }

  /// continueAnimation with a damping-ratio spring from a paused fraction: the remaining 75 % over durationFactor ×
  /// the remaining duration, the spring's closed form with its initial velocity in remaining distance per second.
  @Test func continuingWithASpringCarriesItsVelocity() throws {
    let stage = Stage()
    let animator = try stage.animator(1, .curve(.easeInOut))
    let positions = Box<[AnimatingPosition]>([])
    animator.addCompletion { positions.value.append($0) }
    try animator.pauseAnimation()
    try animator.setFractionComplete(0.25)
    stage.scene.advance(to: 1)
    try animator.continueAnimation(timing: .dampingRatio(0.5, initialVelocity: 0.8), durationFactor: 2)
    let length = 0.75 * 1 * 2
    let spring = UIKitSpring(dampingRatio: 0.5, duration: length, initialVelocity: 0.8)
    for dt in [0.05, 0.2, 0.5, 0.9, 1.4] {
      #expect(close(stage.x(at: 1 + dt), 25 + 75 * spring.progress(dt), 1e-7))
    }
    stage.scene.advance(to: 1 + length)
    #expect(positions.value == [.end] && stage.modelX == 100)
  }

  /// A physical spring ignores the animator's duration: it lasts its settling duration.
  @Test func aMassStiffnessSpringLastsItsSettlingDuration() throws {
    let stage = Stage()
    let animator = try stage.animator(5, .physical(mass: 1, stiffness: 200, damping: 12, initialVelocity: 0))
    let reference = ClosedFormSpring(mass: 1, stiffness: 200, damping: 12)
    #expect(close(animator.duration, reference.settlingDuration, 1e-9))
    try animator.startAnimation()
    for t in [0.05, 0.2, 0.4] { #expect(close(stage.x(at: t), 100 * (1 - reference.displacement(t)), 1e-7)) }
  }

  @Test func reversingARunGoesBackToTheStart() throws {
    let stage = Stage()
    let (animator, positions) = try stage.startedLinear()
    stage.scene.advance(to: 0.5)
    try animator.setReversed(true)
    #expect(animator.isReversed && animator.isRunning)
    // Back from 50 over F·duration = 0.5 s, linear.
    #expect(close(stage.x(at: 0.6), 40))
    #expect(close(animator.fractionComplete, 0.5))
    stage.scene.advance(to: 1)
    #expect(positions.value == [.start])
    #expect(stage.modelX == 0 && stage.x(at: 1.5) == 0)
  }

  @Test func stopWithoutFinishingKeepsTheValuesAndRunsNoCompletion() throws {
    let stage = Stage()
    let (animator, positions) = try stage.startedLinear()
    stage.scene.advance(to: 0.3)
    try animator.stopAnimation(withoutFinishing: true)
    #expect(animator.state == .inactive && positions.value.isEmpty)
    #expect(close(stage.modelX, 30) && close(stage.x(at: 5), 30))
    stage.scene.advance(to: 5)
    #expect(positions.value.isEmpty)
  }

  @Test func stopThenFinishSetsThePositionsValues() throws {
    for (position, expected) in [(AnimatingPosition.start, 0.0), (.end, 100), (.current, 30)] {
      let stage = Stage()
      let (animator, positions) = try stage.startedLinear()
      stage.scene.advance(to: 0.3)
      #expect(throws: PropertyAnimatorError.self) { try animator.finishAnimation(at: .end) }
      try animator.stopAnimation(withoutFinishing: false)
      #expect(animator.state == .stopped && positions.value.isEmpty && close(stage.x(at: 0.3), 30))
      #expect(throws: PropertyAnimatorError.self) { try animator.startAnimation() }
      try animator.finishAnimation(at: position)
      #expect(positions.value == [position] && animator.state == .inactive)
      #expect(close(stage.modelX, expected) && close(stage.x(at: 0.31), expected))
    }
  }

  @Test func pausesOnCompletionStaysActiveAtTheEnd() throws {
    let stage = Stage()
    let animator = try stage.animator(1, .curve(.linear))
    animator.pausesOnCompletion = true
    let positions = Box<[AnimatingPosition]>([])
    animator.addCompletion { positions.value.append($0) }
    try animator.startAnimation()
    stage.scene.advance(to: 2)
    #expect(positions.value.isEmpty && animator.state == .active && !animator.isRunning)
    #expect(animator.fractionComplete == 1 && stage.x(at: 2) == 100)
    try animator.setReversed(true)
    try animator.startAnimation()
    stage.scene.advance(to: 2.25)
    #expect(close(stage.x(at: 2.25), 75))
  }

  @Test func misuseIsRefusedWithoutChangingAnything() throws {
    let stage = Stage()
    let animator = try stage.animator(1, .curve(.linear))
    #expect(throws: PropertyAnimatorError.self) { try animator.addAnimations(delayFactor: 1.5) {} }
    #expect(throws: PropertyAnimatorError.self) { try animator.stopAnimation(withoutFinishing: true) }
    #expect(throws: PropertyAnimatorError.self) { try animator.startAnimation(afterDelay: .nan) }
    #expect(throws: PropertyAnimatorError.self) {
      try PropertyAnimator(scene: stage.scene, duration: -1, timing: .curve(.linear))
    }
    try animator.startAnimation()
    #expect(throws: PropertyAnimatorError.self) { try animator.setInterruptible(false) }
    #expect(animator.isInterruptible)
  }

  // MARK: Interactive transitions

  /// An animator whose transition is one property animator (the corpus' shape): the to root slides in from x = 400
  /// to 0; its completion completes the transition with `position == .end`.
  final class InterruptibleSlide: TransitionAnimator {
    let animatorID = "test/interruptible"
    var propertyAnimator: PropertyAnimator?
    var animateCalls = 0
    var asked = 0

    func transitionDuration(_ context: TransitionContext?) -> Double { 1 }

    func animateTransition(_ context: TransitionContext) {
      animateCalls += 1
      try? interruptibleAnimator(context)?.startAnimation()
    }

    func interruptibleAnimator(_ context: TransitionContext) -> PropertyAnimator? {
      asked += 1
      if let propertyAnimator { return propertyAnimator }
      guard let to = context.view(forKey: .to) else { return nil }
      context.containerView.addSubview(to)
      to.position = Point(x: 600, y: 400)
      let animator = try! PropertyAnimator(scene: context.scene, duration: 1, timing: .curve(.easeInOut))
      try! animator.addAnimations { to.position = Point(x: 200, y: 400) }
      animator.addCompletion { context.completeTransition($0 == .end) }
      propertyAnimator = animator
      return animator
    }
  }

  private func interactive() throws -> (TestTrees, Transition, InterruptibleSlide, Box<[TransitionOutcome]>, [String]) {
    let trees = TestTrees()
    trees.placeForStart(.presentation, removesPresentersView: false)
    let start = exactDump(trees)
    let slide = InterruptibleSlide()
    let transition = trees.transition(.present, animator: slide, interactive: true)
    let ends = Box<[TransitionOutcome]>([])
    transition.onEnd = { ends.value.append($0) }
    try transition.start()
    return (trees, transition, slide, ends, start)
  }

  private func toX(_ trees: TestTrees, _ transition: Transition) -> Double {
    trees.scene.presentedValues(of: trees.to, at: transition.time).position.x
  }

  @Test func anInteractiveStartPausesTheInterruptibleAnimatorAndScrubsIt() throws {
    let (trees, transition, slide, _, _) = try interactive()
    #expect(slide.animateCalls == 0 && slide.asked == 1)
    #expect(slide.propertyAnimator?.state == .active && slide.propertyAnimator?.isRunning == false)
    try transition.update(percent: 0.3)
    // Scrubbing linearly: 600 − 400·0.3, whatever the animator's easeInOut.
    #expect(close(toX(trees, transition), 480))
    #expect(close(transition.percent, 0.3))
    try transition.update(percent: 0.1)
    #expect(close(toX(trees, transition), 560))
  }

  @Test func finishWithVelocityContinuesWithACriticallyDampedSpring() throws {
    let (trees, transition, slide, ends, _) = try interactive()
    try transition.update(percent: 0.3)
    try transition.finish(velocity: 1.4)
    #expect(transition.state == .finishing && slide.propertyAnimator?.isRunning == true)
    // Remaining 0.7 s; initial velocity v / (1 − p) = 2 of the remaining distance per second.
    let spring = UIKitSpring(dampingRatio: 1, duration: 0.7, initialVelocity: 2)
    var elapsed = 0.0
    for dt in [0.05, 0.1, 0.2, 0.2] {
      try transition.advance(by: dt)
      elapsed += dt
      #expect(close(toX(trees, transition), 480 - 280 * spring.progress(elapsed), 1e-7))
    }
    try transition.advance(by: 0.2)
    #expect(ends.value == [.completed])
  }

  @Test func cancelReversesAlongTheCompletionCurveAndRestores() throws {
    let (trees, transition, _, ends, start) = try interactive()
    try transition.update(percent: 0.4)
    try transition.cancel()
    #expect(transition.transitionWasCancelled)
    // Back over p·D = 0.4 s along the completion curve (easeInOut).
    try transition.advance(by: 0.1)
    #expect(close(toX(trees, transition), 440 + 160 * Reference.easeInOut(0.25)))
    #expect(close(transition.percent, 0.4 - 0.4 * 0.25))
    try transition.advance(by: 0.3)
    #expect(ends.value == [.cancelled(reason: nil)])
    #expect(exactDump(trees) == start)
  }

  @Test func releaseDecidesAndCancelsWithTheConvertedVelocity() throws {
    let (trees, transition, _, ends, _) = try interactive()
    try transition.update(percent: 0.5)
    #expect(try transition.release(velocity: -1) == .cancel)
    // −v / p = 2 of the remaining distance per second, back over 0.5 s.
    let spring = UIKitSpring(dampingRatio: 1, duration: 0.5, initialVelocity: 2)
    try transition.advance(by: 0.15)
    #expect(close(toX(trees, transition), 400 + 200 * spring.progress(0.15), 1e-7))
    try transition.advance(by: 0.35)
    #expect(ends.value == [.cancelled(reason: nil)])
  }

  /// A non-interactive transition runs its animator from animateTransition; grabbing it pauses and scrubs it.
  @Test func aRunningTransitionCanBeGrabbedAndFinished() throws {
    let trees = TestTrees()
    trees.placeForStart(.presentation, removesPresentersView: false)
    let slide = InterruptibleSlide()
    let transition = trees.transition(.present, animator: slide)
    let ends = Box<[TransitionOutcome]>([])
    transition.onEnd = { ends.value.append($0) }
    try transition.start()
    #expect(slide.animateCalls == 1)
    try transition.advance(by: 0.25)
    #expect(close(toX(trees, transition), 600 - 400 * Reference.easeInOut(0.25)))
    try transition.update(percent: 0.5)
    #expect(close(toX(trees, transition), 400))
    try transition.finish(speed: 2, curve: .linear)
    try transition.advance(by: 0.125)
    #expect(close(toX(trees, transition), 300))
    try transition.advance(by: 0.125)
    #expect(ends.value == [.completed])
  }
}
