// What an advance would show when it runs nothing: the real-time clock's frames built ahead of their tick
// (TransitionSession's frames ahead) need the moment a later `advance(by:)` will reach, without taking it.

extension Transition {
  /// The timeline time and percent that `advance(by: dt)` would reach, when that advance would run nothing: no
  /// completion, chained block, tail end or end of the duration falls within it (with a nanosecond to spare), no
  /// display link is scheduled and no property animator drives the percent. nil otherwise (then only the real
  /// advance knows what the moment shows). Pure: nothing fires, nothing changes.
  package func quietAdvance(by dt: Double) -> (time: Double, percent: Double)? {
    guard dt.isFinite, dt > 0, displayLinks.isEmpty, drivenAnimator == nil else { return nil }
    switch state {
    case .running, .finishing, .cancelling: break
    default: return nil
    }
    if let next = clockTimeUntilNextEvent, next <= dt + Self.quietMargin { return nil }
    let reached: Double
    switch motion {
    case .play(let speed):
      guard time < duration || scene.hasPendingWork else { return nil }
      reached = time + dt * speed
    case .tail(var tail):
      guard tail.elapsed + dt < tail.length else { return nil }
      tail.elapsed += dt
      reached = tail.time
    case .still, .drain:
      return nil
    }
    guard duration > 0 else { return nil }
    let value = reached / duration
    return (reached, value.isNaN ? 0 : min(max(value, 0), 1))
  }

  /// How far clear of an event a quiet advance must stay (seconds): far above `timeTolerance`, far below a frame.
  static let quietMargin = 1e-9
}
