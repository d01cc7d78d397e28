// CAMediaTiming's time-space conversion: a layer's local time from its superlayer's (down the tree), and an
// animation's basic local time from its layer's, with repeats, autoreverse and fill modes.

/// CAMediaTiming on a layer (CALayer.beginTime, speed, timeOffset): its local time is
/// (t_superlayer − beginTime) × speed + timeOffset, recursively from the container, whose parent time is the
/// transition's timeline time (so `speed = 0` with a `timeOffset` freezes or scrubs a subtree).
package struct LayerTiming: Hashable, Sendable {
  package var beginTime: Double = 0
  package var speed: Double = 1
  package var timeOffset: Double = 0

  package init(beginTime: Double = 0, speed: Double = 1, timeOffset: Double = 0) {
    self.beginTime = beginTime
    self.speed = speed
    self.timeOffset = timeOffset
  }

  var isIdentity: Bool { beginTime == 0 && speed == 1 && timeOffset == 0 }
}

/// An affine map of time, t ↦ scale·t + offset (what a chain of layer timings composes to).
struct TimeMap {
  var scale: Double
  var offset: Double

  static let identity = TimeMap(scale: 1, offset: 0)

  func callAsFunction(_ t: Double) -> Double { scale * t + offset }

  /// This map followed by a layer's timing.
  func then(_ timing: LayerTiming) -> TimeMap {
    TimeMap(scale: scale * timing.speed, offset: (offset - timing.beginTime) * timing.speed + timing.timeOffset)
  }

  /// The t at which the map reaches `value` (nil when time does not move forward through it).
  func time(reaching value: Double) -> Double? {
    guard scale > 0 else { return nil }
    return (value - offset) / scale
  }
}

extension View {
  /// CALayer's timing (speed, timeOffset, beginTime); identity by default.
  package var layerTiming: LayerTiming {
    get { layerTimingStorage ?? LayerTiming() }
    set {
      guard newValue.beginTime.isFinite, newValue.speed.isFinite, newValue.timeOffset.isFinite else {
        scene?.report(.invalidTime(what: "layer timing of \(id)"))
        return
      }
      let wasSet = layerTimingStorage != nil
      layerTimingStorage = newValue.isIdentity ? nil : newValue
      if let scene {
        scene.layerTimingCount += (layerTimingStorage != nil ? 1 : 0) - (wasSet ? 1 : 0)
        scene.layerTimeChanged()
      }
    }
  }

  /// The node whose time space contains this one's: the superlayer, or for a mask the layer it masks.
  var timeParent: View? { superview ?? maskOwner }

  /// A layer moved to another superlayer (or mask owner) keeps its animations, as Core Animation's does: their
  /// times are in the layer's local time, which now composes with the new ancestors' timing, so their starts and
  /// ends (explicit animations' and UIView blocks') move on the timeline and are scheduled again (only when some
  /// layer has a timing: otherwise every local time is the timeline's and nothing moves).
  func timeParentChanged() {
    guard let scene, scene.layerTimingCount > 0 else { return }
    scene.layerTimeChanged()
  }

  /// The map from the transition's timeline time to this layer's local time (no allocation: the chain of time
  /// parents composed from the top).
  func timeMap() -> TimeMap {
    guard let scene, scene.layerTimingCount > 0 else { return .identity }
    return composedTimeMap()
  }

  private func composedTimeMap() -> TimeMap {
    let above = timeParent?.composedTimeMap() ?? .identity
    guard let own = layerTimingStorage else { return above }
    return above.then(own)
  }

  /// CALayer.convertTime(_:from: nil): this layer's local time at timeline time t.
  package func localTime(at t: Double) -> Double { timeMap()(t) }
}

/// Where a timed object is at a parent time.
enum TimingPhase: Equatable {
  /// Before its begin time (elapsed < 0).
  case before
  /// Inside its active duration, at `basic` seconds of its basic duration.
  case active(basic: Double)
  /// After its active duration; `basic` is where it ended.
  case after(basic: Double)
}

extension MediaTiming {
  /// One cycle: the duration, twice over when autoreversing.
  func cycle(duration d: Double) -> Double { autoreverses ? 2 * d : d }

  /// The active duration for a basic duration `d`: `repeatDuration` when set, else `repeatCount` cycles (at least
  /// part of one: 0 = once); infinite for an infinite count.
  func activeDuration(duration d: Double) -> Double {
    if repeatDuration > 0 { return repeatDuration }
    let count = repeatCount > 0 ? repeatCount : 1
    return cycle(duration: d) * count
  }

  /// The basic local time for an active local time `local` (already offset): the position inside the current
  /// cycle, mirrored in the second half of an autoreversing one.
  func basicTime(active local: Double, duration d: Double) -> Double {
    guard d > 0 else { return 0 }
    let c = cycle(duration: d)
    var within = local.truncatingRemainder(dividingBy: c)
    if within < 0 { within += c }
    return autoreverses && within > d ? c - within : within
  }

  /// The phase at parent time `tp` (begin already resolved) for a basic duration `d`.
  ///
  /// The end is exact: an active duration that is a whole number of cycles ends at the basic duration's end
  /// (at its start when autoreversing); a fractional count ends part-way (2.5 repeats of 1 s end at 0.5 s).
  func phase(parentTime tp: Double, duration d: Double) -> TimingPhase {
    let elapsed = (tp - beginTime) * speed
    let active = activeDuration(duration: d)
    if elapsed < 0 { return .before }
    if active.isFinite && elapsed >= active { return .after(basic: endBasicTime(active: active, duration: d)) }
    var local = elapsed + timeOffset
    if active.isFinite && active > 0 {
      local = local.truncatingRemainder(dividingBy: active)
      if local < 0 { local += active }
    }
    return .active(basic: basicTime(active: local, duration: d))
  }

  /// Where the active duration ends in basic time.
  func endBasicTime(active: Double, duration d: Double) -> Double {
    guard d > 0 else { return 0 }
    let c = cycle(duration: d)
    let local = timeOffset == 0 ? active : (active + timeOffset).truncatingRemainder(dividingBy: active)
    let cycles = local / c
    if cycles > 0 && cycles == cycles.rounded(.down) { return autoreverses ? 0 : d }
    return basicTime(active: local, duration: d)
  }

  /// The parent time at which the active duration ends (nil when it never does going forward).
  func endTime(duration d: Double) -> Double? {
    let active = activeDuration(duration: d)
    guard active.isFinite, speed > 0 else { return nil }
    return beginTime + active / speed
  }
}
