// Layer timing (CAMediaTiming speed, timeOffset, beginTime on layers) composing into a UIViewPropertyAnimator's
// animations, as in Core Animation, where they are CAAnimations on the views' layers. A layer's local time is
// (t_parent − beginTime) × speed + timeOffset, from the container down. A run's animations are added to their layers
// when the run begins, so a layer's animation has advanced by (local(t) − local(t_run)) of the run when the timeline
// is at t; the animator's fractionComplete stays its own clock; a paused animator holds its animations in their own
// time (layer timing does not reach them); the animator ends when the last of its animations ends in its layer's
// time. Every expectation is written out here from those rules and a linear curve (x = 100 × progress).
import TestSupport
import Testing

@testable import TransitionEngine

@Suite struct PropertyAnimatorLayerTimingTests {
  /// A scene with views "v" and "w" at x = 0 in the container, and animators that move them to x = 100.
  private struct Stage {
    let scene = Scene(containerSize: Size(width: 400, height: 800))
    let v: View
    let w: View

    init() {
      v = try! scene.makeView(id: "v")
      w = try! scene.makeView(id: "w")
      for view in [v, w] {
        view.frame = Rect(x: 0, y: 0, width: 10, height: 10)
        scene.container.addSubview(view)
        view.position = Point(x: 0, y: 0)
      }
    }

    func x(_ view: View, at t: Double) -> Double { scene.presentedValues(of: view, at: t).position.x }

    /// A linear 1 s animator moving `views` to x = 100, and the positions its completions receive.
    func linear(_ views: [View]) throws -> (PropertyAnimator, Box<[AnimatingPosition]>) {
      let animator = try PropertyAnimator(scene: scene, duration: 1, timing: .curve(.linear))
      try animator.addAnimations { for view in views { view.position = Point(x: 100, y: 0) } }
      let positions = Box<[AnimatingPosition]>([])
      animator.addCompletion { positions.value.append($0) }
      return (animator, positions)
    }
  }

  private func close(_ a: Double?, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
    guard let a else { return false }
    return abs(a - b) <= tolerance
  }

  /// Container speed 0.5: local = 0.5·t, so the 1 s run's animation shows x = 100·0.5·t and ends at local 1, t = 2.
  /// The animator's own clock reaches 1 at t = 1 (fractionComplete 1, still running); its completion follows the
  /// layer, at t = 2.
  @Test func aSlowLayerStretchesARunAndItsCompletion() throws {
    let stage = Stage()
    stage.scene.container.layerTiming = LayerTiming(speed: 0.5)
    let (animator, positions) = try stage.linear([stage.v])
    try animator.startAnimation()
    for t in [0.5, 1, 1.5] {
      #expect(close(stage.x(stage.v, at: t), 100 * 0.5 * t), "t = \(t)")
    }
    #expect(close(stage.scene.nextEventTime, 2))
    stage.scene.advance(to: 1.5)
    #expect(close(animator.fractionComplete, 1))
    #expect(animator.isRunning && positions.value.isEmpty)
    stage.scene.advance(to: 1.999)
    #expect(positions.value.isEmpty)
    stage.scene.advance(to: 2)
    #expect(positions.value == [.end])
    #expect(animator.state == .inactive)
    #expect(stage.v.position.x == 100 && stage.x(stage.v, at: 3) == 100)
  }

  /// One animator on two layers: v at the container's speed 1 (x = 100·t, done at 1), w at speed 0.5 (x = 50·t,
  /// done at 2). It completes with the slowest, at t = 2; on a layer at speed 2 alone it completes at 0.5 (x = 200·t).
  @Test func theAnimatorEndsWithTheLastOfItsLayers() throws {
    let stage = Stage()
    stage.w.layerTiming = LayerTiming(speed: 0.5)
    let (animator, positions) = try stage.linear([stage.v, stage.w])
    try animator.startAnimation()
    #expect(close(stage.x(stage.v, at: 0.5), 50))
    #expect(close(stage.x(stage.w, at: 0.5), 25))
    #expect(close(stage.x(stage.v, at: 1.5), 100))
    #expect(close(stage.x(stage.w, at: 1.5), 75))
    stage.scene.advance(to: 1.5)
    #expect(positions.value.isEmpty)
    stage.scene.advance(to: 2)
    #expect(positions.value == [.end])

    let fast = Stage()
    fast.v.layerTiming = LayerTiming(speed: 2)
    let (quick, ended) = try fast.linear([fast.v])
    try quick.startAnimation()
    #expect(close(fast.x(fast.v, at: 0.25), 50))
    #expect(close(fast.scene.nextEventTime, 0.5))
    fast.scene.advance(to: 0.5)
    #expect(ended.value == [.end] && quick.state == .inactive)
  }

  /// A running animator on a paused layer (speed 0): its animation stands at its start, and its completion waits
  /// (parked: nothing due) however far time goes, while fractionComplete follows the animator's clock to 1. Resumed
  /// at t = 10 QA1673-style (speed 1, beginTime = 10 − 0: local = t − 10) it runs its second from there: x(10.25) =
  /// 25, completion at t = 11.
  @Test func aPausedLayerHoldsARunningAnimatorUntilItResumes() throws {
    let stage = Stage()
    let layer = stage.scene.container
    layer.layerTiming = LayerTiming(speed: 0)
    let (animator, positions) = try stage.linear([stage.v])
    try animator.startAnimation()
    #expect(stage.x(stage.v, at: 5) == 0)
    stage.scene.advance(to: 10)
    #expect(positions.value.isEmpty)
    #expect(stage.scene.hasPendingWork && stage.scene.nextEventTime == nil)
    #expect(animator.isRunning && close(animator.fractionComplete, 1))
    let pausedTime = layer.localTime(at: 10)
    #expect(pausedTime == 0)
    layer.layerTiming = LayerTiming()
    layer.layerTiming = LayerTiming(beginTime: layer.localTime(at: 10) - pausedTime, speed: 1, timeOffset: 0)
    #expect(close(stage.x(stage.v, at: 10.25), 25))
    #expect(close(stage.scene.nextEventTime, 11))
    stage.scene.advance(to: 11)
    #expect(positions.value == [.end])
  }

  /// A paused layer's timeOffset scrubs a running animator's animation (x = 100 × offset), and carried to the end
  /// (offset 1) ends it at once, as Core Animation ends any animation whose layer time has passed its end.
  @Test func aPausedLayersTimeOffsetScrubsARunningAnimator() throws {
    let stage = Stage()
    stage.v.layerTiming = LayerTiming(speed: 0)
    let (animator, positions) = try stage.linear([stage.v])
    try animator.startAnimation()
    stage.v.layerTiming = LayerTiming(speed: 0, timeOffset: 0.3)
    #expect(close(stage.x(stage.v, at: 0), 30))
    #expect(close(stage.x(stage.v, at: 4), 30))
    stage.scene.advance(to: 4)
    stage.v.layerTiming = LayerTiming(speed: 0, timeOffset: 1)
    #expect(stage.scene.nextEventTime == 4)
    stage.scene.advance(to: 4)
    #expect(positions.value == [.end] && animator.state == .inactive)
  }

  /// A paused animator holds its animations in their own time (a CAAnimation at speed 0 with a timeOffset), so its
  /// layer's timing does not move them: scrubbed to 0.3 it shows x = 30 on a paused layer with any timeOffset. Started
  /// at t = 1 it continues from 0.3 over the remaining 0.7 s in the layer's time: local 5 at t = 1, so with the
  /// offset at 5.35 it is 0.35 s in (x = 30 + 70·0.35/0.7 = 65) and at 5.7 it is over.
  @Test func aPausedAnimatorIgnoresItsLayersTimingUntilItRuns() throws {
    let stage = Stage()
    let layer = stage.scene.container
    layer.layerTiming = LayerTiming(speed: 0, timeOffset: 5)
    let (animator, positions) = try stage.linear([stage.v])
    try animator.setFractionComplete(0.3)
    #expect(close(stage.x(stage.v, at: 0), 30))
    layer.layerTiming = LayerTiming(speed: 0, timeOffset: 0.7)
    #expect(close(stage.x(stage.v, at: 0), 30))
    layer.layerTiming = LayerTiming(speed: 2)
    #expect(close(stage.x(stage.v, at: 0.5), 30))
    layer.layerTiming = LayerTiming(speed: 0, timeOffset: 5)
    stage.scene.advance(to: 1)
    try animator.startAnimation()
    #expect(close(stage.x(stage.v, at: 3), 30))
    layer.layerTiming = LayerTiming(speed: 0, timeOffset: 5.35)
    #expect(close(stage.x(stage.v, at: 3), 65))
    stage.scene.advance(to: 3)
    #expect(positions.value.isEmpty)
    layer.layerTiming = LayerTiming(speed: 0, timeOffset: 5.7)
    stage.scene.advance(to: 3)
    #expect(positions.value == [.end])
  }

  /// Pausing at t = 0.6 holds each layer's animation where its layer took it: v (speed 1) at 60, w (speed 0.5) at 30;
  /// changing w's speed to 2 moves nothing while paused. Scrubbed to 0.8, both show 80 (the scrub sets the
  /// animations' own time). Started at t = 1 over the remaining 0.2 s: v reaches 100 at 1.2 (x = 80 + 20·(t − 1)/0.2),
  /// w, whose local time is now 2·t, at 1.1 (x = 80 + 20·2(t − 1)/0.2); the animator ends with v, at 1.2.
  @Test func pausingHoldsEachLayerWhereItsTimeTookIt() throws {
    let stage = Stage()
    stage.w.layerTiming = LayerTiming(speed: 0.5)
    let (animator, positions) = try stage.linear([stage.v, stage.w])
    try animator.startAnimation()
    stage.scene.advance(to: 0.6)
    try animator.pauseAnimation()
    #expect(close(animator.fractionComplete, 0.6))
    stage.w.layerTiming = LayerTiming(speed: 2)
    for t in [0.6, 3] {
      #expect(close(stage.x(stage.v, at: t), 60))
      #expect(close(stage.x(stage.w, at: t), 30))
    }
    try animator.setFractionComplete(0.8)
    #expect(close(stage.x(stage.v, at: 0.7), 80) && close(stage.x(stage.w, at: 0.7), 80))
    stage.scene.advance(to: 1)
    try animator.startAnimation()
    #expect(close(stage.x(stage.v, at: 1.05), 80 + 20 * 0.05 / 0.2))
    #expect(close(stage.x(stage.w, at: 1.05), 80 + 20 * 2 * 0.05 / 0.2))
    #expect(close(stage.x(stage.w, at: 1.15), 100))
    #expect(close(stage.scene.nextEventTime, 1.2))
    stage.scene.advance(to: 1.2)
    #expect(positions.value == [.end])
  }

  /// Reversed at t = 0.5 (fractionComplete 0.5: back over 0.5 s), each layer's animation turns back from what it
  /// shows: v (speed 1) from 50, x = 50·(1 − (t − 0.5)/0.5), at 0 at t = 1; w (speed 0.5) from 25 in its own time,
  /// x = 25·(1 − 0.5(t − 0.5)/0.5), at 0 at t = 1.5, when the animator completes at .start.
  @Test func reversingTurnsEachLayerBackFromWhereItIs() throws {
    let stage = Stage()
    stage.w.layerTiming = LayerTiming(speed: 0.5)
    let (animator, positions) = try stage.linear([stage.v, stage.w])
    try animator.startAnimation()
    stage.scene.advance(to: 0.5)
    try animator.setReversed(true)
    for t in [0.5, 0.75, 1] {
      #expect(close(stage.x(stage.v, at: t), 50 * (1 - (t - 0.5) / 0.5)), "v at \(t)")
      #expect(close(stage.x(stage.w, at: t), 25 * (1 - 0.5 * (t - 0.5) / 0.5)), "w at \(t)")
    }
    stage.scene.advance(to: 1.4)
    #expect(positions.value.isEmpty)
    stage.scene.advance(to: 1.5)
    #expect(positions.value == [.start])
    #expect(stage.v.position.x == 0 && stage.w.position.x == 0)
  }

  /// continueAnimation(durationFactor: 2) from a pause at 0.5 on a layer at speed 0.5: the remaining half over
  /// 2 × 0.5 = 1 s of the layer's time, 2 s of the timeline: x = 50 + 50·0.5(t − 0.5)/1, done at t = 2.5.
  @Test func aContinuationRunsInTheLayersTime() throws {
    let stage = Stage()
    let (animator, positions) = try stage.linear([stage.v])
    try animator.setFractionComplete(0.5)
    stage.v.layerTiming = LayerTiming(speed: 0.5)
    stage.scene.advance(to: 0.5)
    try animator.continueAnimation(timing: nil, durationFactor: 2)
    for t in [1.0, 1.5, 2.25] {
      #expect(close(stage.x(stage.v, at: t), 50 + 50 * 0.5 * (t - 0.5)), "t = \(t)")
    }
    #expect(close(stage.scene.nextEventTime, 2.5))
    stage.scene.advance(to: 2.5)
    #expect(positions.value == [.end])
  }

  /// stopAnimation(false) at t = 1 on a layer at speed 0.5 keeps what is on screen, x = 50 (not the animator's clock,
  /// which is at its end); finishAnimation(at: .current) leaves it there.
  @Test func stoppingKeepsWhatTheLayerShows() throws {
    let stage = Stage()
    stage.v.layerTiming = LayerTiming(speed: 0.5)
    let (animator, positions) = try stage.linear([stage.v])
    try animator.startAnimation()
    stage.scene.advance(to: 1)
    try animator.stopAnimation(withoutFinishing: false)
    #expect(close(stage.v.position.x, 50))
    #expect(close(stage.x(stage.v, at: 2), 50))
    try animator.finishAnimation(at: .current)
    #expect(positions.value == [.current])
    #expect(close(stage.x(stage.v, at: 3), 50))
  }

  /// With pausesOnCompletion the run stops at the end of its slowest layer (t = 2 at speed 0.5), active and paused
  /// there, no completion run.
  @Test func pausesOnCompletionWaitsForTheSlowestLayer() throws {
    let stage = Stage()
    stage.v.layerTiming = LayerTiming(speed: 0.5)
    let (animator, positions) = try stage.linear([stage.v])
    animator.pausesOnCompletion = true
    try animator.startAnimation()
    stage.scene.advance(to: 1.5)
    #expect(animator.isRunning)
    stage.scene.advance(to: 2)
    #expect(animator.state == .active && !animator.isRunning && positions.value.isEmpty)
    #expect(close(stage.x(stage.v, at: 5), 100))
  }

  /// A transition ending early (fireAllPending: a cancel reaching its start) ends an animator held by a paused layer
  /// with the rest, at .start.
  @Test func endingEverythingEndsAnAnimatorHeldByAPausedLayer() throws {
    let stage = Stage()
    stage.v.layerTiming = LayerTiming(speed: 0)
    let (_, positions) = try stage.linear([stage.v])
    let animator = stage.scene.propertyAnimators.last!
    try animator.startAnimation()
    stage.scene.advance(to: 3)
    #expect(positions.value.isEmpty)
    stage.scene.fireAllPending(finished: true)
    #expect(positions.value == [.start])
    #expect(!stage.scene.hasPendingWork)
  }

  /// The timeline places a run's animation through its layer's timing like a block's: at speed 0.5 the 1 s run
  /// begins at 0, lasts 2 s and ends at 2; on a paused layer it begins when added and has no end.
  @Test func theTimelineMapsAnimatorAnimationsThroughTheLayersTiming() throws {
    let stage = Stage()
    stage.v.layerTiming = LayerTiming(speed: 0.5)
    stage.w.layerTiming = LayerTiming(speed: 0)
    let (animator, _) = try stage.linear([stage.v, stage.w])
    try animator.startAnimation()
    let animations = stage.scene.timelineAnimations(at: 0.5)
    let slow = animations.first { $0.target == "v" }
    #expect(close(slow?.begin, 0) && close(slow?.duration, 2) && close(slow?.end, 2))
    #expect(slow?.state == .running)
    let paused = animations.first { $0.target == "w" }
    #expect(paused?.begin == 0 && paused?.end == .infinity)
    #expect(paused?.state == .running)
  }

  /// A group added at t = 0.2 to a running 1 s animator, on w at speed 0.5: its animation is added to w's layer then
  /// (local 0.1) and lasts the remaining 0.8 s of w's time: alpha = 1 − 0.5(t − 0.2)/0.8, 0.5 at t = 1, done at local
  /// 0.1 + 0.8 = 0.9, t = 1.8, where the animator ends (v finished at 1).
  @Test func aGroupAddedWhileRunningStartsInItsLayersTimeThen() throws {
    let stage = Stage()
    stage.w.layerTiming = LayerTiming(speed: 0.5)
    let (animator, positions) = try stage.linear([stage.v])
    try animator.startAnimation()
    stage.scene.advance(to: 0.2)
    try animator.addAnimations { stage.w.alpha = 0 }
    for t in [0.6, 1, 1.4] {
      #expect(close(stage.scene.presentedValues(of: stage.w, at: t).alpha, 1 - 0.5 * (t - 0.2) / 0.8), "t = \(t)")
    }
    #expect(close(stage.scene.nextEventTime, 1.8))
    stage.scene.advance(to: 1.8)
    #expect(positions.value == [.end] && stage.w.alpha == 0)
  }

  /// A layer's speed changed mid-run re-maps its local time, the run's begin staying in local time: speed 2 set at
  /// t = 0.25 makes local = 2t = 0.5 there (x = 50), x = 200·t after, the end (local 1) at t = 0.5.
  @Test func aSpeedChangeMidRunRemapsTheLayersTime() throws {
    let stage = Stage()
    let (animator, positions) = try stage.linear([stage.v])
    try animator.startAnimation()
    stage.scene.advance(to: 0.25)
    #expect(close(stage.x(stage.v, at: 0.25), 25))
    stage.v.layerTiming = LayerTiming(speed: 2)
    #expect(close(stage.x(stage.v, at: 0.25), 50))
    #expect(close(stage.x(stage.v, at: 0.4), 80))
    #expect(close(stage.scene.nextEventTime, 0.5))
    stage.scene.advance(to: 0.5)
    #expect(positions.value == [.end] && animator.state == .inactive)
  }
}
