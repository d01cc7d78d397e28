// Keyframe evaluation with CAKeyframeAnimation's calculation modes, and UIKit's keyframe-block helpers.

/// How values between keyframes are computed (CAAnimationCalculationMode).
package enum KeyframeCalculationMode: String, Hashable, Sendable, CaseIterable {
  /// Straight-line interpolation between consecutive values at their key times.
  case linear
  /// Each value holds until the next key time; no interpolation.
  case discrete
  /// A Kochanek–Bartels spline through the values (Catmull–Rom with zero tension, continuity and bias).
  case cubic
  /// Linear, with key times ignored and recomputed so that the value moves at constant speed (by distance).
  case paced
  /// Cubic, with key times and timing functions ignored, moving at constant speed along the spline.
  case cubicPaced
}

/// Why keyframe input was rejected by `Keyframes.validate`.
package enum KeyframeError: Error, Hashable, Sendable {
  /// No values.
  case noValues
  /// `keyTimes` has the wrong number of entries for the mode (n, or n or n + 1 for discrete).
  case keyTimeCount(expected: Int, got: Int)
  /// A key time is outside [0, 1], not finite, or smaller than the one before it.
  case keyTimesNotIncreasing(index: Int)
  /// `timingFunctions` should have one entry per segment (n − 1).
  case timingFunctionCount(expected: Int, got: Int)
  /// tension / continuity / bias arrays should have one entry per value.
  case splineParameterCount(expected: Int, got: Int)
}

/// A keyframe track: values, their key times and how to interpolate, evaluated at any fraction of the
/// animation's duration, like `CAKeyframeAnimation`.
///
/// Semantics:
/// - `keyTimes` nil means evenly spaced: i/(n − 1) for n values, except `discrete`, whose n values share n equal
///   intervals (i/n), as Core Animation expects n + 1 key times there. Discrete also accepts n key times (value i
///   from key time i on, the last one held to the end), which is how UIKit's keyframe blocks describe a track.
///   Before the first key time the first value holds; after the last, the last value.
/// - Invalid key times (wrong count, outside [0, 1], decreasing) are replaced by the even spacing, so bad input
///   never crashes; `validate` reports them for callers that must reject them.
/// - Equal consecutive key times make a step: at that time the later value applies.
/// - `timingFunctions` (n − 1 of them) warp each segment's local fraction in `linear`, `discrete` is unaffected,
///   and `cubic` uses them too; paced modes ignore them. With a different count, segment i uses entry
///   min(i, count − 1).
/// - `cubic`: a Kochanek–Bartels spline with per-key tension, continuity and bias (default 0: Catmull–Rom).
///   Tangents are scaled for uneven key spacing (Kochanek & Bartels' 2Δᵢ/(Δᵢ₋₁ + Δᵢ) adjustment); the end
///   keys use a phantom neighbour equal to themselves, so the curve starts and ends with half the chord's slope.
///   Core Animation does not document its end conditions; this is the common choice.
/// - `paced` and `cubicPaced` really pace by distance (`Interpolatable.distance`): `paced` sets key times
///   proportional to cumulative chord length; `cubicPaced` reparametrises the spline by arc length (from a table
///   of 128 chords per segment built once), so equal fractions cover equal distances along the curve.
///
/// Construction allocates (it copies the values and builds tables); `value(at:)` does not.
package struct Keyframes<Value: Interpolatable>: Sendable {
  /// The values, at least one.
  package let values: [Value]
  /// The key times in effect (computed for paced modes and the default spacing).
  package let keyTimes: [Double]
  /// The per-segment timing functions, if any.
  package let timingFunctions: [TimingCurve]?
  /// The calculation mode.
  package let mode: KeyframeCalculationMode
  private let tension: [Double]?
  private let continuity: [Double]?
  private let bias: [Double]?
  /// cubicPaced: cumulative arc length at `arcSamples` uniform parameter steps per segment, normalized to 1.
  private var arcTable: [Double] = []

  /// Chords per segment in the cubicPaced arc-length table.
  private static var arcSamples: Int { 128 }

  /// Builds a track; nil when `values` is empty. See the type's documentation for how each input is used and
  /// sanitized.
  package init?(
    values: [Value],
    keyTimes: [Double]? = nil,
    timingFunctions: [TimingCurve]? = nil,
    mode: KeyframeCalculationMode = .linear,
    tensionValues: [Double]? = nil,
    continuityValues: [Double]? = nil,
    biasValues: [Double]? = nil
  ) {
    guard !values.isEmpty else { return nil }
    let n = values.count
    self.values = values
    self.mode = mode
    self.timingFunctions = timingFunctions?.isEmpty == true ? nil : timingFunctions
    self.tension = tensionValues?.count == n ? tensionValues : nil
    self.continuity = continuityValues?.count == n ? continuityValues : nil
    self.bias = biasValues?.count == n ? biasValues : nil

    switch mode {
    case .paced:
      self.keyTimes = Self.pacedKeyTimes(values)
    case .cubicPaced:
      self.keyTimes = Self.evenKeyTimes(count: n)
    case .discrete:
      if let keyTimes, Self.firstInvalidKeyTime(keyTimes) == nil, keyTimes.count == n || keyTimes.count == n + 1 {
        self.keyTimes = keyTimes
      } else {
        self.keyTimes = (0...n).map { Double($0) / Double(n) }
      }
    case .linear, .cubic:
      if let keyTimes, keyTimes.count == n, Self.firstInvalidKeyTime(keyTimes) == nil {
        self.keyTimes = keyTimes
      } else {
        self.keyTimes = Self.evenKeyTimes(count: n)
      }
    }
    if mode == .cubicPaced && n > 1 {
      self.arcTable = buildArcTable()
    }
  }

  /// Checks keyframe input the way `init` would silently repair it.
  package static func validate(
    valueCount n: Int, keyTimes: [Double]?, timingFunctionCount: Int? = nil, mode: KeyframeCalculationMode,
    splineParameterCounts: [Int] = []
  ) throws(KeyframeError) {
    guard n > 0 else { throw .noValues }
    if let keyTimes, mode != .paced, mode != .cubicPaced {
      let ok = keyTimes.count == n || (mode == .discrete && keyTimes.count == n + 1)
      guard ok else { throw .keyTimeCount(expected: mode == .discrete ? n + 1 : n, got: keyTimes.count) }
      if let i = firstInvalidKeyTime(keyTimes) { throw .keyTimesNotIncreasing(index: i) }
    }
    if let count = timingFunctionCount, count != max(n - 1, 0) {
      throw .timingFunctionCount(expected: max(n - 1, 0), got: count)
    }
    for count in splineParameterCounts where count != n {
      throw .splineParameterCount(expected: n, got: count)
    }
  }

  /// The value at `fraction` of the animation (clamped to [0, 1]; NaN counts as 0).
  package func value(at fraction: Double) -> Value {
    let f = clamp01(fraction)
    let n = values.count
    if n == 1 { return values[0] }
    switch mode {
    case .discrete:
      let i = Self.lastIndex(atOrBefore: f, in: keyTimes)
      return values[min(max(i, 0), n - 1)]
    case .linear, .paced:
      guard let (i, s) = segment(at: f) else { return f < keyTimes[0] ? values[0] : values[n - 1] }
      let local = mode == .paced ? s : warp(s, segment: i)
      return Value.interpolate(from: values[i], to: values[i + 1], fraction: local)
    case .cubic:
      guard let (i, s) = segment(at: f) else { return f < keyTimes[0] ? values[0] : values[n - 1] }
      return splineValue(segment: i, s: warp(s, segment: i), timed: true)
    case .cubicPaced:
      let (i, s) = arcLengthParameter(f)
      return splineValue(segment: i, s: s, timed: false)
    }
  }

  // MARK: - Key times

  private static func evenKeyTimes(count n: Int) -> [Double] {
    n == 1 ? [0] : (0..<n).map { Double($0) / Double(n - 1) }
  }

  /// The index of the first key time that is outside [0, 1], not finite, or below the one before it; nil when
  /// all are valid.
  private static func firstInvalidKeyTime(_ keyTimes: [Double]) -> Int? {
    for (i, t) in keyTimes.enumerated() {
      guard t.isFinite, t >= 0, t <= 1, i == 0 || t >= keyTimes[i - 1] else { return i }
    }
    return nil
  }

  /// Key times proportional to cumulative distance; even spacing when every value is the same.
  private static func pacedKeyTimes(_ values: [Value]) -> [Double] {
    let n = values.count
    guard n > 1 else { return [0] }
    var cumulative = [0.0]
    cumulative.reserveCapacity(n)
    for i in 1..<n {
      let d = Value.distance(from: values[i - 1], to: values[i])
      cumulative.append(cumulative[i - 1] + (d.isFinite ? d : 0))
    }
    let total = cumulative[n - 1]
    guard total > 0 else { return evenKeyTimes(count: n) }
    var times = cumulative.map { $0 / total }
    times[n - 1] = 1
    return times
  }

  /// The largest index i with keyTimes[i] ≤ f, or −1 when f precedes every key time.
  private static func lastIndex(atOrBefore f: Double, in keyTimes: [Double]) -> Int {
    var lo = 0
    var hi = keyTimes.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if keyTimes[mid] <= f { lo = mid + 1 } else { hi = mid }
    }
    return lo - 1
  }

  /// The segment containing f and the local fraction in it, or nil before the first or from the last key time.
  private func segment(at f: Double) -> (Int, Double)? {
    let i = Self.lastIndex(atOrBefore: f, in: keyTimes)
    guard i >= 0, i < values.count - 1 else { return nil }
    let t0 = keyTimes[i]
    let t1 = keyTimes[i + 1]
    // t1 > f ≥ t0, so the span is positive.
    return (i, (f - t0) / (t1 - t0))
  }

  private func warp(_ s: Double, segment i: Int) -> Double {
    guard let functions = timingFunctions else { return s }
    return functions[min(i, functions.count - 1)].progress(at: s)
  }

  // MARK: - Cubic spline

  /// The Kochanek–Bartels value on segment i (values i → i + 1) at local parameter s. `timed` scales the
  /// tangents for the key-time spacing; the paced spline is parametrised uniformly.
  private func splineValue(segment i: Int, s: Double, timed: Bool) -> Value {
    let n = values.count
    let p0 = values[max(i - 1, 0)]
    let p1 = values[i]
    let p2 = values[i + 1]
    let p3 = values[min(i + 2, n - 1)]
    let t1 = tension?[i] ?? 0
    let c1 = continuity?[i] ?? 0
    let b1 = bias?[i] ?? 0
    let t2 = tension?[i + 1] ?? 0
    let c2 = continuity?[i + 1] ?? 0
    let b2 = bias?[i + 1] ?? 0
    // Outgoing tangent at p1: a·(p1 − p0) + b·(p2 − p1); incoming tangent at p2: c·(p2 − p1) + d·(p3 − p2).
    var a = (1 - t1) * (1 + b1) * (1 + c1) / 2
    var b = (1 - t1) * (1 - b1) * (1 - c1) / 2
    var c = (1 - t2) * (1 + b2) * (1 - c2) / 2
    var d = (1 - t2) * (1 - b2) * (1 + c2) / 2
    if timed {
      let span = keyTimes[i + 1] - keyTimes[i]
      let before = i > 0 ? keyTimes[i] - keyTimes[i - 1] : span
      let after = i + 2 < n ? keyTimes[i + 2] - keyTimes[i + 1] : span
      let outScale = before + span > 0 ? 2 * span / (before + span) : 1
      let inScale = span + after > 0 ? 2 * span / (span + after) : 1
      a *= outScale
      b *= outScale
      c *= inScale
      d *= inScale
    }
    // Hermite basis.
    let s2 = s * s
    let s3 = s2 * s
    let h00 = 2 * s3 - 3 * s2 + 1
    let h10 = s3 - 2 * s2 + s
    let h01 = -2 * s3 + 3 * s2
    let h11 = s3 - s2
    return Value.combine(
      p0, -h10 * a,
      p1, h00 + h10 * (a - b) - h11 * c,
      p2, h01 + h10 * b + h11 * (c - d),
      p3, h11 * d)
  }

  /// Cumulative chord lengths along the uniformly parametrised spline, normalized to end at 1.
  private func buildArcTable() -> [Double] {
    let segments = values.count - 1
    let k = Self.arcSamples
    var table = [0.0]
    table.reserveCapacity(segments * k + 1)
    var previous = values[0]
    var total = 0.0
    for i in 0..<segments {
      for j in 1...k {
        let point = splineValue(segment: i, s: Double(j) / Double(k), timed: false)
        let d = Value.distance(from: previous, to: point)
        total += d.isFinite ? d : 0
        table.append(total)
        previous = point
      }
    }
    guard total > 0 else {
      // No length at all: fall back to uniform parameter spacing.
      return (0...(segments * k)).map { Double($0) / Double(segments * k) }
    }
    for index in table.indices { table[index] /= total }
    table[table.count - 1] = 1
    return table
  }

  /// The segment and local spline parameter covering arc-length fraction f.
  private func arcLengthParameter(_ f: Double) -> (Int, Double) {
    let k = Self.arcSamples
    let segments = values.count - 1
    let last = segments * k
    var j = Self.lastIndex(atOrBefore: f, in: arcTable)
    j = min(max(j, 0), last - 1)
    // Skip zero-length chords so the step below divides by a positive length.
    let l0 = arcTable[j]
    let l1 = arcTable[j + 1]
    let within = l1 > l0 ? min(max((f - l0) / (l1 - l0), 0), 1) : 1
    let u = (Double(j) + within) / Double(k)
    let i = min(Int(u), segments - 1)
    return (i, u - Double(i))
  }
}

/// UIKit's `animateKeyframes` realised as Core Animation does it (reference §9, "How keyframes are realised").
package enum UIKitKeyframes {
  /// One `addKeyframe(withRelativeStartTime:relativeDuration:animations:)` setting a property to `value`.
  package struct Keyframe<Value: Interpolatable>: Sendable {
    /// The start, as a fraction of the whole animation.
    package var relativeStart: Double
    /// The length, as a fraction of the whole animation (0 = a step at `relativeStart`).
    package var relativeDuration: Double
    /// The value the keyframe animates to.
    package var value: Value

    /// Creates a keyframe.
    package init(relativeStart: Double, relativeDuration: Double, value: Value) {
      self.relativeStart = relativeStart
      self.relativeDuration = relativeDuration
      self.value = value
    }
  }

  /// The fraction of the keyframe timeline shown at `fraction` of the animation's duration.
  ///
  /// UIKit installs one CAKeyframeAnimation per property whose `timingFunction` is the animation's curve option
  /// (easeInEaseOut unless the options carry another curve), applied over the whole duration — so the key times
  /// are warped, and only `.linear` (UIViewAnimationOptionCurveLinear cast into the keyframe options) keeps them
  /// exact.
  package static func timelineFraction(_ fraction: Double, curve: TimingCurve = .easeInOut) -> Double {
    curve.progress(at: fraction)
  }

  /// The values and key times of one property's CAKeyframeAnimation: it starts at `initial`, holds until each
  /// keyframe's start, reaches the keyframe's value at its end, and holds the last value to 1.
  ///
  /// Keyframes are taken in order of start time (stable for equal starts). Starts and ends are clamped to
  /// [0, 1]; a keyframe that starts before the previous one ended begins where that one ended (UIKit does not
  /// document overlaps). A zero duration gives two equal key times: a step.
  package static func track<Value: Interpolatable>(
    initial: Value, keyframes: [Keyframe<Value>]
  ) -> (values: [Value], keyTimes: [Double]) {
    var values = [initial]
    var times = [0.0]
    var current = initial
    let ordered = keyframes.enumerated().sorted {
      clamp01($0.element.relativeStart) != clamp01($1.element.relativeStart)
        ? clamp01($0.element.relativeStart) < clamp01($1.element.relativeStart) : $0.offset < $1.offset
    }
    for (_, keyframe) in ordered {
      let last = times[times.count - 1]
      let start = max(clamp01(keyframe.relativeStart), last)
      let duration = keyframe.relativeDuration.isFinite ? max(keyframe.relativeDuration, 0) : 0
      let end = max(min(clamp01(keyframe.relativeStart) + duration, 1), start)
      if start > last {
        values.append(current)
        times.append(start)
      }
      // With end == start this follows a point at `start`: two equal key times, a step.
      values.append(keyframe.value)
      times.append(end)
      current = keyframe.value
    }
    if times[times.count - 1] < 1 {
      values.append(current)
      times.append(1)
    }
    return (values, times)
  }
}
