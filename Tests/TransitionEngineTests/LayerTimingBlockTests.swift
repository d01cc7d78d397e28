// Layer timing (CAMediaTiming speed, timeOffset, beginTime on layers) composing into UIView blocks, as in Core
// Animation, where a block's animations are CAAnimations on the views' layers. A layer's local time is
// (t_parent − beginTime) × speed + timeOffset, from the container down; a block's begin is its layer's local time
// when the block ran (plus the delay) and its end begin + duration in that time. Every expectation is written out
// here from that formula and a linear curve (x = from + fraction × (to − from)).
import Testing

@testable import TransitionEngine

private func near(_ a: Double?, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
  guard let a else { return false }
  return abs(a - b) <= tolerance
}

/// A 1 s linear block moving `v`'s x to 100 (y 0, 10 × 10), logging each completion's finished flag.
private func slide(_ scene: Scene, _ v: View) -> Box<[Bool]> {
  let finished = Box<[Bool]>([])
  scene.animate(duration: 1, timing: .curve(.linear)) {
    v.frame = Rect(x: 100, y: 0, width: 10, height: 10)
  } completion: {
    finished.value.append($0)
  }
  return finished
}

@Suite struct LayerTimingBlockTests {
  /// The scrub pattern (Hero, UIPercentDrivenInteractiveTransition): `container.layer.speed = 0`, a 1 s linear
  /// block moving x from 0 to 100, then `timeOffset = p × 1`: x = 0 + p·(100 − 0) whatever the timeline time.
  @Test func aPausedLayerScrubsABlockByTimeOffset() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    h.scene.container.layerTiming = LayerTiming(speed: 0)
    let finished = slide(h.scene, v)
    #expect(near(h.state("v", at: 0)?.frame.origin.x, 0))
    #expect(near(h.state("v", at: 5)?.frame.origin.x, 0))
    h.scene.container.layerTiming = LayerTiming(speed: 0, timeOffset: 0.3)
    #expect(near(h.state("v", at: 0)?.frame.origin.x, 30))
    #expect(near(h.state("v", at: 7)?.frame.origin.x, 30))
    h.scene.container.layerTiming = LayerTiming(speed: 0, timeOffset: 0.75)
    #expect(near(h.state("v", at: 2)?.frame.origin.x, 75))
    // A paused layer's block never completes, however far time goes.
    h.scene.advance(to: 50)
    #expect(finished.value.isEmpty)
    #expect(h.scene.hasPendingWork)
    #expect(h.scene.nextEventTime == nil)
    // Until the offset is carried to its end (local time 1 ≥ the end): then it is over, due at once.
    h.scene.container.layerTiming = LayerTiming(speed: 0, timeOffset: 1)
    #expect(h.scene.nextEventTime == 50)
    h.scene.advance(to: 50)
    #expect(finished.value == [true])
  }

  /// Apple QA1673 pause and resume: pausedTime = local time; speed 0, timeOffset = pausedTime; later speed 1,
  /// timeOffset 0, beginTime 0, then beginTime = local − pausedTime. Paused at τ = 0.4 (x = 40), resumed at τ = 3:
  /// local = τ − 2.6, so x = 40 at 3, 50 at 3.1, and the block completes at τ = 3.6 (local 1).
  @Test func pauseThenResumeContinuesFromThePausedValue() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    let finished = slide(h.scene, v)
    h.scene.advance(to: 0.4)
    let layer = h.scene.container
    let pausedTime = layer.localTime(at: h.scene.currentMediaTime)
    #expect(near(pausedTime, 0.4))
    layer.layerTiming = LayerTiming(speed: 0, timeOffset: pausedTime)
    h.scene.advance(to: 3)
    #expect(finished.value.isEmpty)
    #expect(near(h.state("v", at: 3)?.frame.origin.x, 40))
    // Resume.
    layer.layerTiming = LayerTiming()
    let timeSincePause = layer.localTime(at: h.scene.currentMediaTime) - pausedTime
    layer.layerTiming = LayerTiming(beginTime: timeSincePause, speed: 1, timeOffset: 0)
    #expect(near(h.state("v", at: 3)?.frame.origin.x, 40))
    #expect(near(h.state("v", at: 3.1)?.frame.origin.x, 50))
    h.scene.advance(to: 3.599)
    #expect(finished.value.isEmpty)
    h.scene.advance(to: 3.6)
    #expect(finished.value == [true])
  }

  /// Speed 0.5 on the container: a 1 s linear block of 0 → 100 takes 2 s of timeline (x = 100·τ/2), delays too
  /// are in the layer's time (a 0.5 s delay starts it at τ = 1), and each completes at its end.
  @Test func halfSpeedGivesTheTwoSecondFigure() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    let w = h.view("w", Rect(x: 0, y: 20, width: 10, height: 10))
    h.scene.container.layerTiming = LayerTiming(speed: 0.5)
    var log: [String] = []
    h.scene.animate(duration: 1, timing: .curve(.linear)) {
      v.frame = Rect(x: 100, y: 0, width: 10, height: 10)
    } completion: { _ in
      log.append("v")
    }
    h.scene.animate(duration: 1, delay: 0.5, timing: .curve(.linear)) {
      w.frame = Rect(x: 100, y: 20, width: 10, height: 10)
    } completion: { _ in
      log.append("w")
    }
    #expect(near(h.state("v", at: 0.5)?.frame.origin.x, 25))
    #expect(near(h.state("v", at: 1)?.frame.origin.x, 50))
    #expect(near(h.state("v", at: 2)?.frame.origin.x, 100))
    // w: local 0.5·τ, elapsed 0.5·τ − 0.5.
    #expect(near(h.state("w", at: 0.8)?.frame.origin.x, 0))
    #expect(near(h.state("w", at: 1.5)?.frame.origin.x, 25))
    h.scene.advance(to: 1.999)
    #expect(log.isEmpty)
    h.scene.advance(to: 2)
    #expect(log == ["v"])
    h.scene.advance(to: 3)
    #expect(log == ["v", "w"])
  }

  /// Nested layers compose: parent speed 2, child speed 0.5, so the child's local time is τ (2 × 0.5 = 1) and the
  /// parent's is 2τ. One block animating both: the parent's x is at 100·2τ, the child's at 100·τ (one block, two
  /// elapsed times in one sample), and the block completes when the later one ends (τ = 1).
  @Test func nestedLayerTimingsMultiply() {
    let h = ModelHarness()
    let a = h.view("a", Rect(x: 0, y: 0, width: 100, height: 100))
    let b = h.view("b", Rect(x: 0, y: 0, width: 10, height: 10), in: a)
    a.layerTiming = LayerTiming(speed: 2)
    b.layerTiming = LayerTiming(speed: 0.5)
    #expect(near(b.localTime(at: 0.7), 0.7))
    let finished = Box<[Bool]>([])
    h.scene.animate(duration: 1, timing: .curve(.linear)) {
      a.frame = Rect(x: 100, y: 0, width: 100, height: 100)
      b.frame = Rect(x: 100, y: 0, width: 10, height: 10)
    } completion: {
      finished.value.append($0)
    }
    let frame = h.scene.presentation(at: 0.2)
    #expect(near(frame.first { $0.id == "a" }?.frame.origin.x, 40))
    #expect(near(frame.first { $0.id == "b" }?.frame.origin.x, 20))
    #expect(near(h.state("a", at: 0.6)?.frame.origin.x, 100))
    #expect(near(h.state("b", at: 0.6)?.frame.origin.x, 60))
    h.scene.advance(to: 0.999)
    #expect(finished.value.isEmpty)
    h.scene.advance(to: 1)
    #expect(finished.value == [true])
  }

  /// Changing a layer's speed mid-animation re-maps its local time; the animation's begin stays in local time. At
  /// τ = 0.5 (x = 50) the container goes to speed 2 from where it is (beginTime 0.5, timeOffset 0.5: local =
  /// (τ − 0.5)·2 + 0.5): x = 70 at τ = 0.6 and the end (local 1) at τ = 0.75. A bare `speed = 2` instead makes
  /// local = 2τ = 1 at once: the animation is over and its completion is due now.
  @Test func aSpeedChangeMidAnimationRemapsTheLocalTime() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    let finished = slide(h.scene, v)
    h.scene.advance(to: 0.5)
    h.scene.container.layerTiming = LayerTiming(beginTime: 0.5, speed: 2, timeOffset: 0.5)
    #expect(near(h.state("v", at: 0.6)?.frame.origin.x, 70))
    #expect(near(h.scene.nextEventTime, 0.75))
    h.scene.advance(to: 0.75)
    #expect(finished.value == [true])

    let g = ModelHarness()
    let w = g.view("w", Rect(x: 0, y: 0, width: 10, height: 10))
    let done = slide(g.scene, w)
    g.scene.advance(to: 0.5)
    g.scene.container.layerTiming = LayerTiming(speed: 2)
    #expect(near(g.state("w", at: 0.5)?.frame.origin.x, 100))
    #expect(g.scene.nextEventTime == 0.5)
    g.scene.advance(to: 0.5)
    #expect(done.value == [true])
  }

  /// A block made while its layer is paused begins at the paused local time (0.2 here): it shows its from value
  /// until the offset moves, then 100·(offset − 0.2).
  @Test func aBlockMadeWhilePausedBeginsAtThePausedLocalTime() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    h.scene.advance(to: 1)
    h.scene.container.layerTiming = LayerTiming(speed: 0, timeOffset: 0.2)
    h.scene.animate(duration: 1, timing: .curve(.linear)) {
      v.frame = Rect(x: 100, y: 0, width: 10, height: 10)
    }
    #expect(near(h.state("v", at: 1)?.frame.origin.x, 0))
    #expect(near(h.state("v", at: 4)?.frame.origin.x, 0))
    h.scene.container.layerTiming = LayerTiming(speed: 0, timeOffset: 0.7)
    #expect(near(h.state("v", at: 4)?.frame.origin.x, 50))
  }

  /// A view moved to another superview keeps its block animation in its own local time, now composed with the new
  /// superview's speed 2: moved at τ = 0.25 (local 0.25 → 0.5 under the fast parent, local = 2τ), it shows 60 at
  /// τ = 0.3 and completes at τ = 0.5.
  @Test func aMovedViewKeepsItsBlockInItsNewTimeSpace() {
    let h = ModelHarness()
    let fast = h.view("fast", Rect(x: 0, y: 0, width: 200, height: 200))
    fast.layerTiming = LayerTiming(speed: 2)
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    let finished = slide(h.scene, v)
    #expect(near(h.state("v", at: 0.2)?.frame.origin.x, 20))
    h.scene.advance(to: 0.25)
    fast.addSubview(v)
    #expect(near(h.state("v", at: 0.3)?.frame.origin.x, 60))
    h.scene.advance(to: 0.49)
    #expect(finished.value.isEmpty)
    h.scene.advance(to: 0.5)
    #expect(finished.value == [true])
  }

  /// A keyframe block on a layer at speed 0.5: keyframe 1 (0 → 0.5 of 1 s) moves x to 100, keyframe 2 (0.5 → 1)
  /// to 200, linear; at τ = 0.5 (local 0.25) x = 50, at τ = 1.5 (local 0.75) x = 150.
  @Test func keyframeBlocksRunInLayerTimeToo() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    h.scene.container.layerTiming = LayerTiming(speed: 0.5)
    h.scene.animateKeyframes(duration: 1, timing: .curve(.linear)) {
      h.scene.addKeyframe(relativeStart: 0, relativeDuration: 0.5) { v.frame.origin.x = 100 }
      h.scene.addKeyframe(relativeStart: 0.5, relativeDuration: 0.5) { v.frame.origin.x = 200 }
    }
    #expect(near(h.state("v", at: 0.5)?.frame.origin.x, 50))
    #expect(near(h.state("v", at: 1.5)?.frame.origin.x, 150))
  }

  /// Ending everything (a cancel reaching its start, a terminated transition) runs what a paused layer holds: the
  /// completion of a block whose layer never resumed fires, with the finished flag asked for.
  @Test func fireAllPendingRunsParkedCompletions() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    h.scene.container.layerTiming = LayerTiming(speed: 0)
    let finished = Box<[Bool]>([])
    h.scene.animate(duration: 1) {
      v.alpha = 0
    } completion: {
      finished.value.append($0)
    }
    h.scene.advance(to: 2)
    #expect(finished.value.isEmpty)
    h.scene.fireAllPending(finished: false)
    #expect(finished.value == [false])
    #expect(!h.scene.hasPendingWork)
  }

  /// The timeline places a block animation through its layer's timing: at speed 0.5 a 1 s block added at τ = 0
  /// with a 0.5 s delay begins at τ = 1 and ends at τ = 3, one iteration lasting 2 s; on a paused layer it begins
  /// now and has no end.
  @Test func theTimelineMapsBlockAnimationsThroughTheLayersTiming() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    let p = h.view("p", Rect(x: 0, y: 0, width: 10, height: 10))
    v.layerTiming = LayerTiming(speed: 0.5)
    p.layerTiming = LayerTiming(speed: 0)
    h.scene.animate(duration: 1, delay: 0.5, timing: .curve(.linear)) { v.alpha = 0 }
    h.scene.animate(duration: 1, timing: .curve(.linear)) { p.alpha = 0 }
    let animations = h.scene.timelineAnimations(at: 0)
    let scaled = animations.first { $0.target == "v" }
    #expect(near(scaled?.begin, 1))
    #expect(near(scaled?.end, 3))
    #expect(near(scaled?.duration, 2))
    let paused = animations.first { $0.target == "p" }
    #expect(paused?.begin == 0)
    #expect(paused?.end == .infinity)
    #expect(paused?.state == .running)
    // Carried past its end, it is over: finished once its block completed.
    p.layerTiming = LayerTiming(speed: 0, timeOffset: 1)
    h.scene.advance(to: 0.1)
    #expect(h.scene.timelineAnimations(at: 0.1).first { $0.target == "p" }?.state == .finished)
  }
}

/// An interactive transition whose animator pauses the container's layer and scrubs it by timeOffset, as
/// UIPercentDrivenInteractiveTransition does on iOS (AWPercentDrivenInteractiveTransition's mechanism).
@Suite struct LayerTimingInteractiveTests {
  final class ScrubbingAnimator: TransitionAnimator {
    let animatorID = "test/layer-scrub"
    var context: TransitionContext?
    var completions: [Bool] = []

    var presentationController: (any PresentationControllerBehavior)? { nil }
    func transitionDuration(_ context: TransitionContext?) -> Double { 1 }

    func animateTransition(_ context: TransitionContext) {
      self.context = context
      let container = context.containerView
      guard let to = context.view(forKey: .to) else { return }
      let final = context.finalFrame(forKey: .to)
      to.frame = final.offsetBy(dx: final.size.width, dy: 0)
      container.addSubview(to)
      container.layerTiming = LayerTiming(speed: 0)
      context.scene.animate(duration: 1, timing: .curve(.linear)) {
        to.frame = final
      } completion: { [self] in
        completions.append($0)
        context.completeTransition(!context.transitionWasCancelled)
      }
    }

    func animationEnded(_ completed: Bool) {}
    func interactionController(_ context: TransitionContext) -> (any InteractionControllerBehavior)? { nil }
  }

  /// Scrubbed to 0.4 by timeOffset (the presented view 40 % of the way in: x = w − 0.4·w), then cancelled: the
  /// cancel reaches the start with the container still paused, the parked completion runs (the animator completes
  /// with false) and everything, the layer's timing included, is as it was.
  @Test func cancelOfAPausedLayerTransitionRestoresEverything() throws {
    let trees = TestTrees()
    trees.placeForStart(.presentation, removesPresentersView: false)
    let start = exactDump(trees)
    let animator = ScrubbingAnimator()
    let transition = trees.transition(.present, animator: animator, interactive: true)
    var ends: [TransitionOutcome] = []
    transition.onEnd = { ends.append($0) }
    try transition.start()
    let width = trees.scene.container.bounds.size.width
    trees.scene.container.layerTiming = LayerTiming(speed: 0, timeOffset: 0.4)
    try transition.update(percent: 0.4)
    let shown = try transition.sample(time: transition.time).first { $0.id == trees.to.id }
    #expect(near(shown?.frame.origin.x, width - 0.4 * width))
    try transition.cancel()
    try transition.advance(by: 5)
    #expect(animator.completions == [true])
    #expect(ends == [.cancelled(reason: nil)])
    #expect(trees.scene.container.layerTiming == LayerTiming())
    #expect(exactDump(trees) == start)
  }

  /// Finishing: the interaction controller resumes the layer QA1673-style (speed 1, beginTime = τ − pausedTime),
  /// the block runs the rest of its second from x = 0.4·… and completes, completing the transition.
  @Test func finishAfterResumingCompletes() throws {
    let trees = TestTrees()
    trees.placeForStart(.presentation, removesPresentersView: false)
    let animator = ScrubbingAnimator()
    let transition = trees.transition(.present, animator: animator, interactive: true)
    var ends: [TransitionOutcome] = []
    transition.onEnd = { ends.append($0) }
    try transition.start()
    let container = trees.scene.container
    container.layerTiming = LayerTiming(speed: 0, timeOffset: 0.4)
    try transition.update(percent: 0.4)
    try transition.finish()
    let now = trees.scene.currentMediaTime
    container.layerTiming = LayerTiming(beginTime: now - 0.4, speed: 1, timeOffset: 0)
    try transition.advance(by: 0.3)
    #expect(ends.isEmpty)
    try transition.advance(by: 0.31)
    #expect(animator.completions == [true])
    #expect(ends == [.completed])
  }
}
