import TestSupport
import Testing
import TransitionEngine

/// Catmull–Rom on uniformly spaced keys, written from the textbook matrix form.
private func catmullRom(_ p0: Double, _ p1: Double, _ p2: Double, _ p3: Double, _ s: Double) -> Double {
  0.5
    * (2 * p1 + (-p0 + p2) * s + (2 * p0 - 5 * p1 + 4 * p2 - p3) * s * s
      + (-p0 + 3 * p1 - 3 * p2 + p3) * s * s * s)
}

@Suite("Math: keyframes")
struct MathKeyframesTests {
  @Test func linearUsesKeyTimes() throws {
    let k = try #require(Keyframes(values: [0.0, 10, 30], keyTimes: [0, 0.8, 1]))
    #expect(k.value(at: 0) == 0)
    #expect(mathClose(k.value(at: 0.4), 5, 1e-12))
    #expect(mathClose(k.value(at: 0.8), 10, 1e-12))
    #expect(mathClose(k.value(at: 0.9), 20, 1e-12))
    #expect(k.value(at: 1) == 30)
    // Evenly spaced without key times.
    let even = try #require(Keyframes(values: [0.0, 10, 30]))
    #expect(even.keyTimes == [0, 0.5, 1])
    #expect(mathClose(even.value(at: 0.75), 20, 1e-12))
    // Before the first key time the first value holds; from the last, the last.
    let late = try #require(Keyframes(values: [1.0, 2], keyTimes: [0.2, 0.6]))
    #expect(late.value(at: 0.1) == 1 && late.value(at: 0.8) == 2 && mathClose(late.value(at: 0.4), 1.5, 1e-12))
  }

  @Test func perSegmentTimingFunctions() throws {
    let k = try #require(
      Keyframes(values: [0.0, 10, 20], timingFunctions: [.steps(2, .end), .linear]))
    #expect(k.value(at: 0.2) == 0)  // segment 0 at local 0.4: steps(2) → 0
    #expect(k.value(at: 0.3) == 5)  // local 0.6 → 0.5
    #expect(mathClose(k.value(at: 0.75), 15, 1e-12))
  }

  @Test func discreteHoldsEachValue() throws {
    // n values without key times share n equal intervals.
    let k = try #require(Keyframes(values: [0.0, 10, 20], mode: .discrete))
    #expect(k.value(at: 0) == 0 && k.value(at: 0.33) == 0)
    #expect(k.value(at: 0.34) == 10 && k.value(at: 0.66) == 10)
    #expect(k.value(at: 0.67) == 20 && k.value(at: 1) == 20)
    // n + 1 key times: the intervals.
    let explicit = try #require(Keyframes(values: [0.0, 10, 20], keyTimes: [0, 0.5, 0.75, 1], mode: .discrete))
    #expect(explicit.value(at: 0.49) == 0 && explicit.value(at: 0.6) == 10 && explicit.value(at: 0.8) == 20)
    // n key times: value i from key time i.
    let uikit = try #require(Keyframes(values: [0.0, 10, 20], keyTimes: [0, 0.2, 0.9], mode: .discrete))
    #expect(uikit.value(at: 0.19) == 0 && uikit.value(at: 0.2) == 10 && uikit.value(at: 0.95) == 20)
  }

  @Test func pacedMovesAtConstantSpeedByDistance() throws {
    // 0 → 10 → 30: 30 units in all, so halfway is 15 (not 10, as even key times would give), whatever the key times.
    let k = try #require(Keyframes(values: [0.0, 10, 30], keyTimes: [0, 0.9, 1], mode: .paced))
    #expect(mathClose(k.value(at: 0.5), 15, 1e-12))
    #expect(mathClose(k.value(at: 0.25), 7.5, 1e-12))
    #expect(k.keyTimes == [0, 1.0 / 3, 1])
    // Timing functions are ignored.
    let timed = try #require(Keyframes(values: [0.0, 10, 30], timingFunctions: [.easeIn, .easeIn], mode: .paced))
    #expect(mathClose(timed.value(at: 0.5), 15, 1e-12))
    // Points: a 3-4-5 leg then a 5-unit leg; halfway (5 of 10 units) is the corner.
    let points = try #require(
      Keyframes(values: [Point(x: 0, y: 0), Point(x: 3, y: 4), Point(x: 8, y: 4)], mode: .paced))
    let corner = points.value(at: 0.5)
    #expect(mathClose(corner.x, 3, 1e-12) && mathClose(corner.y, 4, 1e-12))
    // All values equal: no distance, even spacing, no NaN.
    let flat = try #require(Keyframes(values: [2.0, 2, 2], mode: .paced))
    #expect(flat.value(at: 0.3) == 2)
  }

  @Test func cubicIsCatmullRomWithPhantomEnds() throws {
    let values = [0.0, 1, 4, 9]
    let k = try #require(Keyframes(values: values, mode: .cubic))
    // Passes through the keys.
    for (i, v) in values.enumerated() {
      #expect(mathClose(k.value(at: Double(i) / 3), v, 1e-12))
    }
    // Segment 1 at its middle (fraction 0.5).
    #expect(mathClose(k.value(at: 0.5), catmullRom(0, 1, 4, 9, 0.5), 1e-12))
    // Segment 0 uses a phantom key equal to the first value.
    #expect(mathClose(k.value(at: 1.0 / 6), catmullRom(0, 0, 1, 4, 0.5), 1e-12))
    #expect(mathClose(k.value(at: 5.0 / 6), catmullRom(1, 4, 9, 9, 0.5), 1e-12))
  }

  @Test func cubicTensionContinuityAndBias() throws {
    // Tension 1 zeroes every tangent: a smoothstep between keys.
    let tense = try #require(
      Keyframes(values: [0.0, 1, 4, 9], mode: .cubic, tensionValues: [1, 1, 1, 1]))
    #expect(mathClose(tense.value(at: 0.5), 2.5, 1e-12))
    let s = 0.25
    #expect(mathClose(tense.value(at: (1 + s) / 3), 1 + 3 * (3 * s * s - 2 * s * s * s), 1e-12))
    // Kochanek–Bartels by hand for segment 1 (keys 1 → 2) with bias 1 at key 1 and continuity −1 at key 2:
    // outgoing d₁ = (1−t)(1+b)(1+c)/2·(p1 − p0) + (1−t)(1−b)(1−c)/2·(p2 − p1) = 1·(1 − 0) + 0·3 = 1;
    // incoming d₂ = (1−t)(1+b)(1−c)/2·(p2 − p1) + (1−t)(1−b)(1+c)/2·(p3 − p2) = 1·3 + 0·5 = 3.
    let biased = try #require(
      Keyframes(values: [0.0, 1, 4, 9], mode: .cubic, continuityValues: [0, 0, -1, 0], biasValues: [0, 1, 0, 0]))
    let outgoing: Double = 1
    let incoming: Double = 3
    let h = 0.5
    let h00: Double = 2 * h * h * h - 3 * h * h + 1
    let h10: Double = h * h * h - 2 * h * h + h
    let h01: Double = -2 * h * h * h + 3 * h * h
    let h11: Double = h * h * h - h * h
    let expected = h00 * 1 + h10 * outgoing + h01 * 4 + h11 * incoming
    #expect(mathClose(biased.value(at: 0.5), expected, 1e-12))
  }

  @Test func cubicIsSmoothInTimeAcrossUnevenKeys() throws {
    let k = try #require(Keyframes(values: [0.0, 5, 7], keyTimes: [0, 0.2, 1], mode: .cubic))
    let h = 1e-6
    let left = (k.value(at: 0.2) - k.value(at: 0.2 - h)) / h
    let right = (k.value(at: 0.2 + h) - k.value(at: 0.2)) / h
    #expect(mathClose(left, right, 1e-3 * abs(left)))
    // Catmull–Rom's chord tangent (7 − 0)/2 per unit of s becomes 2/(0.2 + 0.8) · 3.5 = 7 per unit of time.
    #expect(mathClose(left, 7, 1e-3))
  }

  @Test func cubicPacedCoversEqualDistancesInEqualTimes() throws {
    // In one dimension a monotone spline's arc length is its value change, so constant speed means 30·f.
    let line = try #require(Keyframes(values: [0.0, 10, 30], mode: .cubicPaced))
    for i in 0...20 {
      let f = Double(i) / 20
      #expect(mathClose(line.value(at: f), 30 * f, 0.02), "f = \(f)")
    }
    // In two dimensions: equal steps of f cover equal arc lengths, each measured along the evaluated path by 50
    // sub-chords (so the curvature of the corners does not count against the pacing).
    let path = try #require(
      Keyframes(
        values: [Point(x: 0, y: 0), Point(x: 100, y: 0), Point(x: 100, y: 100), Point(x: 300, y: 120)],
        mode: .cubicPaced))
    var arcs: [Double] = []
    for i in 1...20 {
      var arc = 0.0
      for j in 1...50 {
        let f0 = (Double(i - 1) + Double(j - 1) / 50) / 20
        let f1 = (Double(i - 1) + Double(j) / 50) / 20
        arc += Point.distance(from: path.value(at: f0), to: path.value(at: f1))
      }
      arcs.append(arc)
    }
    let mean = arcs.reduce(0, +) / Double(arcs.count)
    #expect(arcs.allSatisfy { abs($0 - mean) < 0.005 * mean }, "\(arcs)")
    #expect(path.value(at: 0) == Point(x: 0, y: 0) && path.value(at: 1) == Point(x: 300, y: 120))
  }

  @Test func invalidInputIsRepairedOrReported() throws {
    #expect(Keyframes<Double>(values: []) == nil)
    let single = try #require(Keyframes(values: [4.0], mode: .cubicPaced))
    #expect(single.value(at: 0.7) == 4)
    // Decreasing key times fall back to even spacing.
    let repaired = try #require(Keyframes(values: [0.0, 10, 20], keyTimes: [0, 0.9, 0.5]))
    #expect(repaired.keyTimes == [0, 0.5, 1])
    #expect(throws: KeyframeError.keyTimesNotIncreasing(index: 2)) {
      try Keyframes<Double>.validate(valueCount: 3, keyTimes: [0, 0.9, 0.5], mode: .linear)
    }
    #expect(throws: KeyframeError.keyTimeCount(expected: 3, got: 2)) {
      try Keyframes<Double>.validate(valueCount: 3, keyTimes: [0, 1], mode: .linear)
    }
    #expect(throws: KeyframeError.timingFunctionCount(expected: 2, got: 3)) {
      try Keyframes<Double>.validate(valueCount: 3, keyTimes: nil, timingFunctionCount: 3, mode: .linear)
    }
    #expect(throws: KeyframeError.noValues) {
      try Keyframes<Double>.validate(valueCount: 0, keyTimes: nil, mode: .linear)
    }
    #expect(throws: Never.self) {
      try Keyframes<Double>.validate(valueCount: 3, keyTimes: [0, 0.5, 0.5, 1], mode: .discrete)
    }
    let k = try #require(Keyframes(values: [0.0, 10]))
    #expect(k.value(at: .nan) == 0 && k.value(at: -1) == 0 && k.value(at: 2) == 10)
  }

  @Test func uikitTrackHoldsBetweenKeyframes() throws {
    let track = UIKitKeyframes.track(
      initial: 0.0,
      keyframes: [
        .init(relativeStart: 0.75, relativeDuration: 0.25, value: 20),
        .init(relativeStart: 0.25, relativeDuration: 0.25, value: 10),
      ])
    #expect(track.values == [0, 0, 10, 10, 20])
    #expect(track.keyTimes == [0, 0.25, 0.5, 0.75, 1])
    let k = try #require(Keyframes(values: track.values, keyTimes: track.keyTimes))
    #expect(k.value(at: 0.2) == 0 && k.value(at: 0.375) == 5 && k.value(at: 0.6) == 10 && k.value(at: 0.875) == 15)
    // A zero duration is a step; the last value holds to the end.
    let step = UIKitKeyframes.track(
      initial: 0.0, keyframes: [.init(relativeStart: 0.5, relativeDuration: 0, value: 10)])
    #expect(step.values == [0, 0, 10, 10] && step.keyTimes == [0, 0.5, 0.5, 1])
    let stepped = try #require(Keyframes(values: step.values, keyTimes: step.keyTimes))
    #expect(stepped.value(at: 0.4999) == 0 && stepped.value(at: 0.5) == 10)
    // A keyframe at 0 with no length replaces the initial value at once.
    let immediate = UIKitKeyframes.track(
      initial: 0.0, keyframes: [.init(relativeStart: 0, relativeDuration: 0, value: 3)])
    let now = try #require(Keyframes(values: immediate.values, keyTimes: immediate.keyTimes))
    #expect(now.value(at: 0) == 3)
  }

  @Test func uikitAppliesTheCurveOverTheWholeTimeline() {
    // Default easeInEaseOut: key times are warped (a key at 0.25 of the time shows less than 0.25 of the track)…
    let warped = UIKitKeyframes.timelineFraction(0.25)
    #expect(mathClose(warped, Reference.bezier(0.42, 0, 0.58, 1, at: 0.25), 1e-7))
    #expect(warped < 0.25)
    // …and only linear keeps them exact.
    #expect(UIKitKeyframes.timelineFraction(0.25, curve: .linear) == 0.25)
  }
}
