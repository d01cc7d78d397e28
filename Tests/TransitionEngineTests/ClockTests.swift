import Testing

@testable import TransitionEngine

@Suite struct ClockTests {
  @Test func manualClockMovesOnlyWhenTicked() throws {
    let clock = ManualClock(start: 2)
    #expect(clock.now == 2)
    try clock.tick(0.25)
    try clock.tick(0)
    #expect(clock.now == 2.25)
  }

  @Test(arguments: [-0.001, Double.nan, Double.infinity, -Double.infinity])
  func manualClockRejectsBadTicks(_ dt: Double) {
    let clock = ManualClock()
    #expect(throws: TransitionError.invalidValue(field: "dt", reason: "must be a finite number ≥ 0")) {
      try clock.tick(dt)
    }
    #expect(clock.now == 0)
  }

  @Test func manualClockStartsAtZeroForANonFiniteStart() {
    #expect(ManualClock(start: .nan).now == 0)
  }

  @Test func cursorReportsTheTimeSinceTheLastReading() throws {
    let clock = ManualClock(start: 10)
    var cursor = ClockCursor(clock: clock)
    #expect(cursor.take() == 0)
    try clock.tick(0.5)
    try clock.tick(0.25)
    #expect(cursor.take() == 0.75)
    #expect(cursor.take() == 0)
    #expect(cursor.lastReading == 10.75)
  }

  @Test func monotonicClockNeverGoesBack() {
    let clock = MonotonicClock()
    var previous = clock.now
    for _ in 0..<1000 {
      let now = clock.now
      #expect(now >= previous)
      previous = now
    }
    #expect(previous > 0)
  }

  /// A transition driven through a cursor on a manual clock runs exactly as far as the clock moved.
  @Test func transitionFollowsAClock() throws {
    let trees = TestTrees()
    let transition = trees.transition(.present, animator: SlideAnimator(duration: 0.5))
    let clock = ManualClock(start: 100)
    var cursor = ClockCursor(clock: clock)
    try transition.start()
    try clock.tick(0.2)
    try transition.advance(following: &cursor)
    #expect(abs(transition.time - 0.2) < 1e-12)
    try clock.tick(0.1)
    try transition.advance(following: &cursor)
    #expect(abs(transition.time - 0.3) < 1e-12)
  }
}
