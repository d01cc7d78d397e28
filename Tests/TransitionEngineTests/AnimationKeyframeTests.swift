import TestSupport
// Keyframe blocks (UIKit's animateKeyframes/addKeyframe) and custom drivers.
import Testing
import TransitionEngine

private func x(_ h: ModelHarness, _ id: String, _ t: Double) -> Double {
  h.state(id, at: t)!.position.x
}

/// The hand-built track of `twoKeyframes`: 0 → 100 over [0, 0.25], hold, 100 → 0 over [0.5, 0.75], hold.
private func twoKeyframesValue(_ f: Double) -> Double {
  if f <= 0.25 { return 400 * f }
  if f <= 0.5 { return 100 }
  if f <= 0.75 { return 100 - 400 * (f - 0.5) }
  return 0
}

@Suite struct AnimationKeyframeTests {
  private func twoKeyframes(timing: AnimationTiming?) -> (ModelHarness, [Bool]) {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: -5, y: 0, width: 10, height: 10))
    var done: [Bool] = []
    h.scene.animateKeyframes(duration: 1, timing: timing) {
      h.scene.addKeyframe(relativeStart: 0, relativeDuration: 0.25) { v.position.x = 100 }
      h.scene.addKeyframe(relativeStart: 0.5, relativeDuration: 0.25) { v.position.x = 0 }
    } completion: {
      done.append($0)
    }
    h.scene.advance(to: 2)
    return (h, done)
  }

  @Test func linearTimelineHoldsBetweenKeyframes() {
    let (h, done) = twoKeyframes(timing: .curve(.linear))
    #expect(done == [true])
    for (t, e) in [(0.125, 50.0), (0.25, 100), (0.3, 100), (0.49, 100), (0.625, 50), (0.8, 0), (1.5, 0)] {
      #expect(modelClose(x(h, "v", t), e), "t = \(t)")
    }
  }

  @Test func defaultTimelineCurveIsEaseInOutOverTheWholeDuration() {
    let (h, _) = twoKeyframes(timing: nil)
    for t in [0.1, 0.2, 0.35, 0.6, 0.7, 0.9] {
      let f = Reference.bezier(0.42, 0, 0.58, 1, at: t)
      #expect(modelClose(x(h, "v", t), twoKeyframesValue(f), 1e-4), "t = \(t)")
    }
  }

  @Test func trackStartsFromThePresentationValueAtTheBlocksStart() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: -5, y: 0, width: 10, height: 10))
    var first: Bool?
    h.scene.animate(duration: 1, timing: .curve(.linear)) {
      v.position.x = 100
    } completion: {
      first = $0
    }
    h.scene.advance(to: 0.5)
    h.scene.animateKeyframes(duration: 1, timing: .curve(.linear)) {
      h.scene.addKeyframe(relativeStart: 0.5, relativeDuration: 0.5) { v.position.x = 200 }
    }
    // Holds the presented 50 until 0.5 of the keyframe block, then 50 → 200.
    #expect(modelClose(x(h, "v", 0.75), 50))
    #expect(modelClose(x(h, "v", 1.25), 125))
    h.scene.advance(to: 0.5)
    #expect(first == false)
  }

  @Test func discreteAndPacedModes() {
    let h = ModelHarness()
    let a = h.view("a", Rect(x: -5, y: 0, width: 10, height: 10))
    let b = h.view("b", Rect(x: -5, y: 0, width: 10, height: 10))
    h.scene.animateKeyframes(duration: 1, timing: .curve(.linear), mode: .discrete) {
      h.scene.addKeyframe(relativeStart: 0, relativeDuration: 0.5) { a.position.x = 100 }
      h.scene.addKeyframe(relativeStart: 0.5, relativeDuration: 0.5) { a.position.x = 200 }
    }
    // Values 0, 100, 200 at key times 0, 0.5, 1: each holds from its key time.
    #expect(x(h, "a", 0.25) == 0)
    #expect(x(h, "a", 0.6) == 100)
    // Paced: 0 → 100 → 400 at constant speed, whatever the key times and the (default easeInOut) curve.
    h.scene.animateKeyframes(duration: 1, mode: .paced) {
      h.scene.addKeyframe(relativeStart: 0, relativeDuration: 0.9) { b.position.x = 100 }
      h.scene.addKeyframe(relativeStart: 0.9, relativeDuration: 0.1) { b.position.x = 400 }
    }
    for t in [0.125, 0.25, 0.5, 0.8] {
      #expect(modelClose(x(h, "b", t), 400 * t, 1e-9), "t = \(t)")
    }
  }

  @Test func zeroDurationKeyframeIsAStepAndChangesOutsideKeyframesSpanTheWholeBlock() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: -5, y: 0, width: 10, height: 10))
    h.scene.animateKeyframes(duration: 2, timing: .curve(.linear)) {
      h.scene.addKeyframe(relativeStart: 0.5, relativeDuration: 0) { v.position.x = 100 }
      v.alpha = 0
    }
    #expect(x(h, "v", 0.99) == 0)
    #expect(x(h, "v", 1.01) == 100)
    #expect(modelClose(h.state("v", at: 1)!.alpha, 0.5))
  }

  @Test func addKeyframeOutsideAKeyframeBlockIsReported() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    h.scene.addKeyframe(relativeStart: 0, relativeDuration: 1) { v.alpha = 0.5 }
    #expect(h.state("v", at: 0)?.alpha == 0.5)
    #expect(h.misuses == [.keyframeOutsideKeyframeBlock])
    // In a zero-duration keyframe block it is legitimate and immediate.
    h.scene.animateKeyframes(duration: 0) {
      h.scene.addKeyframe(relativeStart: 0.5, relativeDuration: 0.5) { v.alpha = 0.25 }
    }
    #expect(h.state("v", at: 0)?.alpha == 0.25)
    #expect(h.misuses.count == 1)
  }
}

@Suite struct AnimationDriverTests {
  @Test func driverWritesPresentationThenCommitsItsFinalFrame() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    var done: [(Bool, Double)] = []
    h.scene.addDriver(duration: 1) { frame in
      frame.set(.alpha, of: v, to: 1 - frame.fraction)
    } completion: {
      done.append(($0, h.scene.currentTime))
    }
    #expect(modelClose(h.state("v", at: 0.25)!.alpha, 0.75))
    #expect(v.alpha == 1)
    #expect(h.scene.hasPendingWork && h.scene.nextEventTime == 1)
    // Past its end but not committed yet: the final frame shows.
    #expect(h.state("v", at: 1.5)?.alpha == 0)
    h.scene.advance(to: 2)
    #expect(done.count == 1 && done[0].0 && done[0].1 == 1)
    #expect(v.alpha == 0)
    #expect(h.state("v", at: 1.5)?.alpha == 0)
    #expect(modelClose(h.state("v", at: 0.5)!.alpha, 0.5))
    #expect(!h.scene.hasPendingWork)
  }

  @Test func driverOverridesAnimationsWhileItRuns() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    h.scene.animate(duration: 2, timing: .curve(.linear)) { v.alpha = 0 }
    h.scene.addDriver(duration: 1) { frame in frame.set(.alpha, of: v, to: 0.3) }
    #expect(h.state("v", at: 0.5)?.alpha == 0.3)
    // After its end the running animation shows, before and after the commit alike.
    #expect(modelClose(h.state("v", at: 1.5)!.alpha, 0.25))
    h.scene.advance(to: 1.2)
    #expect(modelClose(h.state("v", at: 1.5)!.alpha, 0.25))
    #expect(h.state("v", at: 2.5)?.alpha == 0.3)
  }

  @Test func blockStartedWhileADriverRunsStartsFromTheDrivenValue() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    h.scene.addDriver(duration: 1) { frame in frame.set(.cornerRadius, of: v, to: 40 * frame.fraction) }
    h.scene.advance(to: 0.5)
    h.scene.animate(duration: 1, timing: .curve(.linear)) { v.cornerRadius = 0 }
    // The animation starts from the driven 20 (20 → 0 over [0.5, 1.5]); the driver still wins until its end.
    #expect(h.state("v", at: 0.75)?.cornerRadius == 30)
    h.scene.advance(to: 1)
    #expect(modelClose(h.state("v", at: 1.25)!.cornerRadius, 20 * 0.25))
  }

  @Test func nonFiniteDriverValuesAreIgnoredAndReportedOnce() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    h.scene.addDriver(duration: 1) { frame in frame.set(.alpha, of: v, to: .nan) }
    #expect(h.state("v", at: 0.5)?.alpha == 1)
    #expect(h.state("v", at: 0.6)?.alpha == 1)
    #expect(h.misuses == [.invalidDriverValue(viewID: "v", property: .alpha)])
  }
}
