import TestSupport
// Animation blocks: from presentation values, replace semantics, completions and their timing, nesting,
// immediate writes, springs, misuse.
import Testing
import TransitionEngine

private func x(_ h: ModelHarness, _ id: String, _ t: Double) -> Double? {
  h.state(id, at: t)?.position.x
}

@Suite struct AnimationBlockTests {
  @Test func blockAnimatesFromThePresentationToTheModelValue() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    h.scene.animate(duration: 2, timing: .curve(.linear)) { v.alpha = 0 }
    // The model changes at once; the presentation moves linearly over 2 s.
    #expect(v.alpha == 0)
    #expect(h.state("v", at: 0)?.alpha == 1)
    #expect(modelClose(h.state("v", at: 0.5)!.alpha, 0.75))
    #expect(modelClose(h.state("v", at: 1.5)!.alpha, 0.25))
    #expect(h.state("v", at: 2)?.alpha == 0)
    #expect(h.state("v", at: 7)?.alpha == 0)
  }

  @Test func defaultCurveIsEaseInOut() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    h.scene.animate(duration: 1) { v.position = Point(x: 105, y: 5) }
    // position.x goes 5 → 105 along cubic-bezier(0.42, 0, 0.58, 1), solved independently.
    for t in [0.1, 0.3, 0.5, 0.8] {
      #expect(modelClose(x(h, "v", t)!, 5 + 100 * Reference.bezier(0.42, 0, 0.58, 1, at: t), 1e-5))
    }
  }

  @Test func delayedAnimationShowsItsFromValueDuringTheDelay() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    h.scene.animate(duration: 1, delay: 0.5, timing: .curve(.linear)) { v.alpha = 0 }
    #expect(h.state("v", at: 0.25)?.alpha == 1)
    #expect(modelClose(h.state("v", at: 1)!.alpha, 0.5))
    #expect(h.state("v", at: 1.5)?.alpha == 0)
  }

  @Test func interruptingStartsFromThePresentedValueAndFinishesTheOldBlockUnfinished() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: -5, y: 0, width: 10, height: 10))  // position.x = 0
    var log: [(String, Bool, Double)] = []
    h.scene.animate(duration: 1, timing: .curve(.linear)) {
      v.position.x = 100
    } completion: {
      log.append(("first", $0, h.scene.currentTime))
    }
    h.scene.advance(to: 0.5)
    #expect(modelClose(x(h, "v", 0.5)!, 50))
    h.scene.animate(duration: 1, timing: .curve(.linear)) {
      v.position.x = 0
    } completion: {
      log.append(("second", $0, h.scene.currentTime))
    }
    // From the presented 50 back to 0 over [0.5, 1.5]: at 0.75, 50 − 0.25·50.
    #expect(modelClose(x(h, "v", 0.75)!, 37.5))
    #expect(x(h, "v", 1.5) == 0)
    // Before the interruption the first animation is still what was shown.
    #expect(modelClose(x(h, "v", 0.25)!, 25))
    // The replaced block completes unfinished at the moment of replacement, on the next advance.
    h.scene.advance(to: 0.5)
    #expect(log.count == 1 && log[0].0 == "first" && log[0].1 == false && log[0].2 == 0.5)
    h.scene.advance(to: 2)
    #expect(log.count == 2 && log[1].0 == "second" && log[1].1 == true && log[1].2 == 1.5)
  }

  @Test func replacingOneOfTwoAnimationsWaitsForTheOther() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    var done: [(Bool, Double)] = []
    h.scene.animate(duration: 2, timing: .curve(.linear)) {
      v.alpha = 0
      v.cornerRadius = 10
    } completion: {
      done.append(($0, h.scene.currentTime))
    }
    h.scene.advance(to: 0.5)
    h.scene.animate(duration: 0.5) { v.alpha = 1 }
    h.scene.advance(to: 1.9)
    #expect(done.isEmpty)
    h.scene.advance(to: 3)
    #expect(done.count == 1 && done[0].0 == false && done[0].1 == 2)
  }

  @Test func immediateWriteDoesNotStopARunningAnimation() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    h.scene.animate(duration: 1, timing: .curve(.linear)) { v.alpha = 0 }
    h.scene.advance(to: 0.5)
    v.alpha = 0.7
    // Core Animation: the explicit animation keeps presenting until its end, then the model shows.
    #expect(modelClose(h.state("v", at: 0.75)!.alpha, 0.25))
    #expect(h.state("v", at: 1)?.alpha == 0.7)
    // performWithoutAnimation inside a block is immediate too.
    h.scene.animate(duration: 1) {
      h.scene.performWithoutAnimation { v.cornerRadius = 8 }
    }
    #expect(h.state("v", at: 1)?.cornerRadius == 8)
  }

  @Test func nonAnimatablePropertiesAndHierarchyApplyAtOnce() throws {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    let w = try h.scene.makeView(id: "w")
    var finished: Bool?
    h.scene.animate(duration: 1) {
      v.isHidden = true
      v.clipsToBounds = true
      h.scene.container.addSubview(w)
    } completion: {
      finished = $0
    }
    let state = try #require(h.state("v", at: 0))
    #expect(state.isHidden && state.clipsToBounds && state.opacity == 0)
    #expect(h.state("w", at: 0) != nil)
    // Nothing animatable changed: the completion runs at once (next advance), finished.
    #expect(finished == nil)
    h.scene.advance(to: 0)
    #expect(finished == true)
  }

  @Test func zeroDurationIsImmediateAndCompletesOnTheNextAdvance() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    var calls: [Bool] = []
    h.scene.animate(duration: 0, delay: 3) {
      v.alpha = 0.2
    } completion: {
      calls.append($0)
    }
    #expect(h.state("v", at: 0)?.alpha == 0.2)
    #expect(calls.isEmpty && h.scene.hasPendingWork)
    h.scene.advance(to: 0)
    #expect(calls == [true])
    #expect(!h.scene.hasPendingWork)
    // Writing the value it already shows adds no animation either.
    h.scene.animate(duration: 5) {
      v.alpha = 0.2
    } completion: {
      calls.append($0)
    }
    #expect(h.scene.nextEventTime == 0)
  }

  @Test func chainedBlocksBeginExactlyWhenTheCompletionFires() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: -5, y: 0, width: 10, height: 10))
    var secondStart: Double?
    var secondDone: Double?
    h.scene.animate(duration: 1, timing: .curve(.linear)) {
      v.position.x = 100
    } completion: { _ in
      secondStart = h.scene.currentTime
      h.scene.animate(duration: 1, timing: .curve(.linear)) {
        v.position.x = 200
      } completion: { _ in
        secondDone = h.scene.currentTime
      }
    }
    // One coarse step over the boundary: the chained block still begins at exactly 1.0.
    h.scene.advance(to: 1.7)
    #expect(secondStart == 1)
    #expect(h.scene.currentTime == 1.7)
    #expect(modelClose(x(h, "v", 1.7)!, 170))
    // Sampling before the chain shows the first block.
    #expect(modelClose(x(h, "v", 0.5)!, 50))
    #expect(h.scene.nextEventTime == 2)
    h.scene.advance(to: 10)
    #expect(secondDone == 2)
  }

  @Test func completionsFireInEndTimeOrderThenCreationOrderExactlyOnce() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    var order: [String] = []
    h.scene.animate(duration: 2) {
      v.alpha = 0
    } completion: { _ in
      order.append("A")
    }
    h.scene.animate(duration: 1) {
      v.cornerRadius = 3
    } completion: { _ in
      order.append("B")
    }
    h.scene.animate(duration: 1) {
      v.zPosition = 3
    } completion: { _ in
      order.append("C")
    }
    h.scene.animate(duration: 0.5, delay: 0.5) {
      v.anchorPoint = .zero
    } completion: { _ in
      order.append("D")
    }
    #expect(h.scene.latestEndTime == 2)
    h.scene.advance(to: 1.5)
    #expect(order == ["B", "C", "D"])
    h.scene.advance(to: 0.2)
    h.scene.advance(to: 5)
    h.scene.advance(to: 6)
    #expect(order == ["B", "C", "D", "A"])
    #expect(!h.scene.hasPendingWork && h.scene.nextEventTime == nil && h.scene.latestEndTime == nil)
  }

  @Test func seekPassesOverCompletionsThatFireAtTheirOwnTimeLater() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    var firedAt: Double?
    h.scene.animate(duration: 1) {
      v.alpha = 0
    } completion: { _ in
      firedAt = h.scene.currentTime
    }
    h.scene.seek(to: 3)
    #expect(firedAt == nil)
    h.scene.advance(to: 3)
    #expect(firedAt == 1)
    #expect(h.scene.currentTime == 3)
  }

  @Test func nestedBlocksInheritTheCurveUnlessGivenOne() {
    let h = ModelHarness()
    let a = h.view("a", Rect(x: -5, y: 0, width: 10, height: 10))
    let b = h.view("b", Rect(x: -5, y: 0, width: 10, height: 10))
    h.scene.animate(duration: 1, timing: .curve(.linear)) {
      h.scene.animate(duration: 2) { a.position.x = 100 }
      h.scene.animate(duration: 2, timing: .curve(.easeIn)) { b.position.x = 100 }
    }
    // Inner durations are their own; a's curve is the outer linear one, b's its own easeIn.
    #expect(modelClose(x(h, "a", 0.5)!, 25))
    #expect(modelClose(x(h, "b", 0.5)!, 100 * Reference.bezier(0.42, 0, 1, 1, at: 0.25), 1e-5))
  }

  @Test func secondWriteInABlockRetargetsItsAnimation() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    var calls = 0
    h.scene.animate(duration: 1, timing: .curve(.linear)) {
      v.alpha = 0.5
      v.alpha = 0
    } completion: { _ in
      calls += 1
    }
    #expect(modelClose(h.state("v", at: 0.5)!.alpha, 0.5))
    h.scene.advance(to: 1)
    #expect(calls == 1)
  }

  @Test func frameAnimatesBoundsAndPositionAndAnchorPointIsAnimatable() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 100, height: 100))
    h.scene.animate(duration: 1, timing: .curve(.linear)) {
      v.frame = Rect(x: 100, y: 0, width: 200, height: 100)
      v.anchorPoint = Point(x: 0, y: 0.5)
    }
    let s = h.state("v", at: 0.5)!
    // bounds 100 → 200 wide, position (50, 50) → (200, 50), anchor x 0.5 → 0, all halfway.
    #expect(modelClose(s.bounds.size.width, 150))
    #expect(modelClose(s.position.x, 125))
    #expect(modelClose(s.anchorPoint.x, 0.25))
    #expect(modelClose(s.frame, Rect(x: 125 - 0.25 * 150, y: 0, width: 150, height: 100)))
  }

  @Test func springBlockLastsTheSpringsDurationAndLands() throws {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    let spring = Spring(dampingRatio: 0.5, initialVelocity: 0, duration: 0.5)
    var finishedAt: Double?
    h.scene.animate(duration: 3, timing: .spring(spring)) {
      v.alpha = 0
    } completion: { _ in
      finishedAt = h.scene.currentTime
    }
    // An underdamped spring overshoots: the alpha goes below 0 on the way (composited opacity is clamped).
    let samples = stride(from: 0.05, to: 0.5, by: 0.01).map { h.state("v", at: $0)!.alpha }
    #expect(samples.contains { $0 < 0 })
    #expect(try #require(h.state("v", at: 0.2)).opacity >= 0)
    #expect(h.state("v", at: 0.5)?.alpha == 0)
    h.scene.advance(to: 1)
    #expect(finishedAt == 0.5)
  }

  @Test func invalidTimesAreReportedAndReplaced() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    var called = false
    h.scene.animate(duration: .nan, delay: -1) {
      v.alpha = 0.5
    } completion: { _ in
      called = true
    }
    #expect(h.state("v", at: 0)?.alpha == 0.5)
    h.scene.advance(to: .infinity)
    h.scene.advance(to: 0)
    #expect(called)
    #expect(
      h.misuses == [
        .invalidTime(what: "animation duration"), .invalidTime(what: "animation delay"),
        .invalidTime(what: "advance time"),
      ])
  }

  @Test func runawayChainsAreCutOff() {
    let h = ModelHarness()
    var count = 0
    func again() {
      h.scene.animate(duration: 0, animations: {}) { _ in
        count += 1
        again()
      }
    }
    again()
    h.scene.advance(to: 1)
    #expect(h.misuses.contains(.runawayCompletions(count: 100_000)))
    #expect(count == 100_000)
    #expect(h.scene.hasPendingWork)
  }

  @Test func fireAllPendingRunsEverythingIncludingChains() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    var log: [String] = []
    h.scene.animate(duration: 2) {
      v.alpha = 0
    } completion: {
      log.append("a \($0)")
    }
    h.scene.animate(duration: 1) {
      v.cornerRadius = 4
    } completion: {
      log.append("b \($0)")
      h.scene.animate(duration: 5) {
        v.zPosition = 1
      } completion: {
        log.append("c \($0)")
      }
    }
    h.scene.fireAllPending(finished: false)
    #expect(log == ["b false", "a false", "c false"])
    #expect(!h.scene.hasPendingWork)
  }

  @Test func discardDropsCompletionsAndStopsDrivers() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    var called = false
    h.scene.animate(duration: 1) {
      v.alpha = 0
    } completion: { _ in
      called = true
    }
    h.scene.addDriver(duration: 1) { f in
      f.set(.cornerRadius, of: v, to: 9)
    } completion: { _ in
      called = true
    }
    h.scene.discardPendingWork()
    #expect(!h.scene.hasPendingWork)
    h.scene.advance(to: 5)
    #expect(!called)
    #expect(h.state("v", at: 0.5)?.cornerRadius == 0)
    #expect(v.cornerRadius == 0)
  }
}
