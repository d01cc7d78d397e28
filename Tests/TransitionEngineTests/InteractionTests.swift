import Testing

@testable import TransitionEngine

/// Interaction beyond UIKit's percent-driven transition: grab again, reverse mid-flight, scrub clamping.
@Suite struct InteractionTests {
  private func make(
    interactive: Bool, duration: Double = 0.5
  ) throws -> (TestTrees, Transition, Box<[TransitionOutcome]>, start: [String]) {
    let trees = TestTrees()
    trees.placeForStart(.presentation, removesPresentersView: false)
    let start = exactDump(trees)
    let transition = trees.transition(.present, animator: SlideAnimator(duration: duration), interactive: interactive)
    let ends = Box<[TransitionOutcome]>([])
    transition.onEnd = { ends.value.append($0) }
    try transition.start()
    return (trees, transition, ends, start)
  }

  @Test func updateClampsAndMapsPercentToTimeLinearly() throws {
    let (_, transition, _, _) = try make(interactive: true)
    #expect(try transition.update(percent: 1.7) == 1)
    #expect(transition.time == 0.5)
    #expect(transition.percent == 1)
    #expect(try transition.update(percent: -3) == 0)
    #expect(transition.time == 0)
    #expect(try transition.update(percent: 0.8) == 0.8)
    #expect(abs(transition.time - 0.4) < 1e-15)
  }

  /// Reversing a non-interactive run turns it into a cancel that takes as long as the run had taken (speed 1).
  @Test func reverseOfARunCancels() throws {
    let (trees, transition, ends, start) = try make(interactive: false)
    try transition.advance(by: 0.2)
    #expect(try transition.reverse() == .cancelling)
    #expect(transition.transitionWasCancelled)
    #expect(!transition.isInteractive)
    try transition.advance(by: 0.2 - 1e-6)
    #expect(ends.value.isEmpty)
    try transition.advance(by: 2e-6)
    #expect(ends.value == [.cancelled(reason: nil)])
    #expect(exactDump(trees) == start)
  }

  @Test func reverseTwiceFinishesAgain() throws {
    let (_, transition, ends, _) = try make(interactive: true)
    try transition.update(percent: 0.4)
    try transition.finish(speed: 2, curve: .linear)
    try transition.advance(by: 0.05)
    // Linear at speed 2: τ = 0.2 + 0.05·2.
    #expect(abs(transition.time - 0.3) < 1e-12)
    #expect(try transition.reverse() == .cancelling)
    try transition.advance(by: 0.05)
    #expect(abs(transition.time - 0.2) < 1e-12)
    #expect(try transition.reverse() == .finishing)
    #expect(!transition.transitionWasCancelled)
    // The rest, 0.3 s of timeline at speed 2.
    try transition.advance(by: 0.15 - 1e-6)
    #expect(ends.value.isEmpty)
    try transition.advance(by: 2e-6)
    #expect(ends.value == [.completed])
  }

  @Test(arguments: [true, false])
  func grabbingAgainPausesWhereTimeIs(whileFinishing: Bool) throws {
    let (_, transition, ends, _) = try make(interactive: true)
    try transition.update(percent: 0.5)
    if whileFinishing { try transition.finish() } else { try transition.cancel() }
    try transition.advance(by: 0.1)
    let grabbedAt = transition.time
    #expect(grabbedAt != 0.25)
    try transition.pause()
    #expect(transition.state == .paused)
    #expect(transition.isInteractive)
    #expect(transition.time == grabbedAt)
    try transition.advance(by: 5)
    #expect(transition.time == grabbedAt)
    try transition.pause()
    #expect(transition.state == .paused)
    try transition.update(percent: 0.9)
    #expect(try transition.release(velocity: 0) == .finish)
    try transition.advance(by: 0.1 * 0.5 + 1e-9)
    #expect(ends.value == [.completed])
  }

  @Test func updateWhileRunningGrabs() throws {
    let (_, transition, ends, _) = try make(interactive: false)
    try transition.advance(by: 0.1)
    try transition.update(percent: 0.3)
    #expect(transition.state == .paused)
    #expect(transition.isInteractive)
    try transition.advance(by: 10)
    #expect(ends.value.isEmpty)
    try transition.cancel()
    try transition.advance(by: 0.15 + 1e-9)
    #expect(ends.value == [.cancelled(reason: nil)])
  }

  /// Reversing during the time animations take beyond the duration cancels from there.
  @Test func reverseAfterTheDurationCancels() throws {
    let trees = TestTrees()
    trees.placeForStart(.presentation, removesPresentersView: false)
    let start = exactDump(trees)
    let transition = trees.transition(.present, animator: LongAnimator(duration: 0.5, animationLength: 1))
    var ends: [TransitionOutcome] = []
    transition.onEnd = { ends.append($0) }
    try transition.start()
    try transition.advance(by: 0.7)
    #expect(transition.state == .running)
    #expect(transition.percent == 1)
    try transition.reverse()
    try transition.advance(by: 0.7 + 1e-9)
    #expect(ends == [.cancelled(reason: nil)])
    #expect(exactDump(trees) == start)
  }

  @Test func finishFromACancelTurnsAround() throws {
    let (_, transition, ends, _) = try make(interactive: true)
    try transition.update(percent: 0.6)
    try transition.cancel(curve: .linear)
    try transition.advance(by: 0.1)
    #expect(abs(transition.time - 0.2) < 1e-12)
    try transition.finish(curve: .linear)
    try transition.advance(by: 0.3 - 1e-6)
    #expect(ends.value.isEmpty)
    try transition.advance(by: 2e-6)
    #expect(ends.value == [.completed])
  }
}
