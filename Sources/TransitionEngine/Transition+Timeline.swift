// How the transition's timeline time τ moves: linear runs, finish/cancel tails, the drain after a cancel, and the
// pure sampling of any moment.

/// How time moves when a transition is advanced.
enum Motion {
  /// Time does not move (paused, not started, ended).
  case still
  /// Forward at a constant speed: a non-interactive run (speed 1), and the continuation after a finish tail while
  /// animations outlast the duration.
  case play(speed: Double)
  /// A finish or cancel tail.
  case tail(Tail)
  /// Forward at `speed` after a cancel reached 0 while work is still pending (the scene fires chained blocks at once
  /// too, so only what it left, such as the rest of a runaway chain it capped, runs on here).
  case drain(speed: Double)
}

/// A finish or cancel tail: τ goes from `from` to `to` over `length` seconds of clock time, shaped by a timing curve
/// or by a spring.
struct Tail {
  var from: Double
  var to: Double
  var length: Double
  var elapsed: Double = 0
  /// The curve used when there is no spring (and kept for a later `reverse`).
  var curve: TimingCurve
  /// The velocity-seeded spring, when the tail has one.
  var spring: Spring?
  /// The clock-to-timeline speed (the completion speed).
  var speed: Double
  /// Toward completion (`to` = D) or toward the start (`to` = 0).
  var isForward: Bool

  var isDone: Bool { elapsed >= length }

  /// τ after `elapsed` seconds: exactly `to` at the end, and never outside [from, to] before it (a spring that
  /// overshoots shapes the approach but cannot run time past its end, where completions would fire early).
  var time: Double {
    if isDone { return to }
    let fraction = elapsed / length
    let raw = spring.map { Self.landedProgress($0, at: elapsed) } ?? curve.progress(at: fraction)
    let progress = raw.isFinite ? min(max(raw, 0), 1) : fraction
    return from + (to - from) * progress
  }

  /// A velocity tail's spring lands exactly on its end instead of jumping there as an animator's spring does (Core
  /// Animation's rule, `Spring.progress(at:)`): τ is the timeline's own time, which must arrive at D or 0 without
  /// a step. Over the last tenth of the spring's duration L its residual r = x(L) is blended out with a smoothstep,
  /// progress = 1 − [x(t) − r·σ((t − 0.9L)/(0.1L))], σ(u) = 3u² − 2u³; before that it is the closed form. The
  /// tail's spring is critically damped and lasts L, so |r| ≤ ε = 0.001 and the landing moves τ by at most that
  /// fraction of the tail.
  static func landedProgress(_ spring: Spring, at t: Double) -> Double {
    let length = spring.duration
    guard t > 0 else { return 0 }
    guard t < length else { return 1 }
    let u = (t - 0.9 * length) / (0.1 * length)
    let sigma = u <= 0 ? 0 : u * u * (3 - 2 * u)
    return 1 - (spring.displacement(at: t) - spring.displacement(at: length) * sigma)
  }
}

extension Transition {
  /// Moves time on by `dt` seconds of clock time: the non-interactive run, a finish or cancel tail, or the time
  /// animations take beyond the duration. Completions, chained animations and `completeTransition` happen here
  /// (in time order; the transition stops at the completion that ends it). A paused transition does not move.
  /// - Throws: `notStarted`, `ended`, or `invalidValue` for a negative or non-finite `dt` (nothing changes).
  package func advance(by dt: Double) throws(TransitionError) {
    try requireActive()
    guard dt.isFinite, dt >= 0 else { throw .invalidValue(field: "dt", reason: "must be a finite number ≥ 0") }
    advanceTimeline(by: dt)
    guard dt > 0 else { return }
    let frameStart = clockTime
    clockTime += dt
    if !displayLinks.isEmpty, !state.isEnded {
      fireDisplayLinks(from: frameStart, to: clockTime)
      checkNeverCompleted()
    }
  }

  /// `advance(by:)`'s move of the timeline (display links aside).
  private func advanceTimeline(by dt: Double) {
    var remaining = dt
    while !state.isEnded {
      switch motion {
      case .still:
        return
      case .play(let speed):
        let used: Double
        let target: Double
        if time < duration {
          let needed = (duration - time) / speed
          if remaining >= needed - Self.timeTolerance {
            (used, target) = (min(needed, remaining), duration)
          } else {
            (used, target) = (remaining, time + remaining * speed)
          }
        } else {
          if duration == 0 { zeroDurationPercent = 1 }
          guard scene.hasPendingWork else {
            checkNeverCompleted()
            return
          }
          (used, target) = (remaining, time + remaining * speed)
        }
        playForward(to: target)
        remaining -= used
        if duration == 0 && time >= duration && !state.isEnded { zeroDurationPercent = 1 }
        checkNeverCompleted()
        if remaining <= 0 { return }
      case .tail(var tail):
        let used = min(remaining, tail.length - tail.elapsed)
        tail.elapsed += used
        motion = .tail(tail)
        if tail.isForward {
          playForward(to: tail.time)
        } else {
          moveTime(to: tail.time)
        }
        remaining -= used
        guard !state.isEnded, tail.isDone, case .tail = motion else {
          if remaining <= 0 { return }
          continue
        }
        if tail.isForward {
          if duration == 0 { zeroDurationPercent = 1 }
          motion = .play(speed: tail.speed)
        } else {
          zeroDurationPercent = 0
          reachStartOfCancel(speed: tail.speed)
        }
        checkNeverCompleted()
        if remaining <= 0 { return }
      case .drain(let speed):
        guard scene.hasPendingWork else {
          checkNeverCompleted()
          return
        }
        playForward(to: time + remaining * speed)
        checkNeverCompleted()
        return
      }
    }
  }

  /// Advances with whatever time has elapsed on `cursor`'s clock since it was last read.
  package func advance(following cursor: inout ClockCursor) throws(TransitionError) {
    try advance(by: cursor.take())
  }

  /// The presentation of every view at timeline time `time` (seconds; negative counts as 0), in drawing order.
  /// Pure: nothing fires, nothing changes; possible in any state.
  /// - Throws: `invalidValue` when `time` is not finite.
  package func sample(time: Double) throws(TransitionError) -> [ViewState] {
    guard time.isFinite else { throw .invalidValue(field: "time", reason: "must be a finite number") }
    return scene.presentation(at: max(time, 0))
  }

  /// The presentation at `percent` (clamped to [0, 1]) of the duration. Pure, like `sample(time:)`.
  /// - Throws: `invalidValue` when `percent` is not finite.
  package func sample(percent: Double) throws(TransitionError) -> [ViewState] {
    guard percent.isFinite else { throw .invalidValue(field: "percent", reason: "must be a finite number") }
    return scene.presentation(at: min(max(percent, 0), 1) * duration)
  }

  /// The presentation of every view now (at `time`).
  package func presentation() -> [ViewState] {
    scene.presentation(at: time)
  }

  /// Moves forward to `target`, firing due completions one moment at a time, so that the transition stops at the
  /// moment in which the animator ends it (every completion due at that moment runs; later ones do not).
  func playForward(to target: Double) {
    guard target >= time else {
      moveTime(to: target)
      return
    }
    // Completions that keep scheduling work at the same instant (the scene caps and reports each runaway chain)
    // must not keep this loop from returning.
    var stalls = 0
    while !state.isEnded, requestedCompletion == nil, stalls < Self.maxStalledSteps,
      let next = scene.nextEventTime, next <= target + Self.timeTolerance
    {
      let moment = max(next, time)
      stalls = moment > time ? 0 : stalls + 1
      time = moment
      callout { scene.advance(to: moment) }
    }
    if !state.isEnded, requestedCompletion == nil {
      let reached = max(target, time)
      time = reached
      callout { scene.advance(to: reached) }
    }
  }

  /// Sets time without firing anything (scrubbing, cancel tails).
  func moveTime(to target: Double) {
    time = target
    scene.seek(to: target)
  }

  /// A cancel tail reached 0: every pending completion fires (finished = true: the reversed animations ran to their
  /// start), with those of blocks they chain; the animator should call `completeTransition(false)` from one of them.
  /// Anything still pending afterwards runs forward (`Motion.drain`).
  private func reachStartOfCancel(speed: Double) {
    moveTime(to: 0)
    motion = .drain(speed: speed)
    callout { scene.fireAllPending(finished: true) }
  }

  /// Clock steps are sums of floating-point dts (8 × 0.1 s is 0.7999999999999999 s): an end or an event within a
  /// picosecond of the time reached counts as reached, so a client ticking by 1/fps lands exactly on the end.
  static let timeTolerance = 1e-12

  /// How many times in a row `playForward` fires completions without time moving before it moves on regardless.
  static let maxStalledSteps = 1_000

  func requireActive() throws(TransitionError) {
    switch state {
    case .idle: throw .notStarted
    case .ended: throw .ended
    default: break
    }
  }
}

extension Transition {
  /// Clock seconds from now until `advance(by:)` next does more than move the presentation: the next completion
  /// the scene has scheduled, the end of the duration (where the transition completes, or is found never to
  /// complete), the end of a finish or cancel tail. A real-time clock must advance the transition at that moment,
  /// however rarely it shows frames, so that the timeline follows the clock (`0`: due now). nil when nothing is
  /// scheduled (paused, ended, or only work without a due time left).
  package var clockTimeUntilNextEvent: Double? {
    guard !state.isEnded else { return nil }
    switch motion {
    case .still:
      return nil
    case .play(let speed):
      if time >= duration && !scene.hasPendingWork { return hasRunningDisplayLinks ? nil : 0 }
      let targets = [time < duration ? duration : nil, scene.nextEventTime].compactMap { $0 }
      guard let target = targets.min() else { return nil }
      return max(0, target - time) / speed
    case .tail(let tail):
      let remaining = max(0, tail.length - tail.elapsed)
      guard tail.isForward, let next = scene.nextEventTime, next < tail.to else { return remaining }
      return Self.clockTime(in: tail, until: next)
    case .drain(let speed):
      guard scene.hasPendingWork else { return 0 }
      guard let next = scene.nextEventTime else { return nil }
      return max(0, next - time) / speed
    }
  }

  /// Whether time alone can still move the transition on: it moves (running, finishing or cancelling) and either
  /// something is due on its timeline (`clockTimeUntilNextEvent`) or a display link can still run animator code
  /// (which may resume a paused layer or complete the transition). False when all it has left is work without a due
  /// time, such as a completion parked on a layer whose `speed` is 0 that nothing resumes: only the client
  /// (`cancel`, `finish`, …) can move it then, so at end of input the host ends it (Protocol.md, "End of input and
  /// signals").
  package var canMoveWithoutInput: Bool {
    if case .still = motion { return false }
    return clockTimeUntilNextEvent != nil || hasRunningDisplayLinks
  }

  /// Clock seconds until a forward tail's timeline time first reaches `target` (bisection over its elapsed time:
  /// a tail's time rises from `from` to `to`).
  static func clockTime(in tail: Tail, until target: Double) -> Double {
    var probe = tail
    guard probe.time < target else { return 0 }
    var low = tail.elapsed
    var high = tail.length
    for _ in 0..<48 {
      let middle = (low + high) / 2
      probe.elapsed = middle
      if probe.time >= target { high = middle } else { low = middle }
    }
    return max(0, high - tail.elapsed)
  }
}
