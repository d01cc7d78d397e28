// Explicit Core Animation animations: CABasicAnimation's absent-value rules, removal on completion (the snap-back)
// and fill modes, repeats and autoreverse, layer timing composing down the tree, CATransaction, implicit actions,
// keyframe paths with rotationMode, groups, springs, delegate order and interactive scrubbing. Every expectation is
// derived by hand or from a formula written here (never from the engine's own curves).
import TestSupport
import Testing

@testable import TransitionEngine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Records delegate callbacks into a shared log.
final class LoggingDelegate: ExplicitAnimationDelegate {
  let name: String
  let log: EventLog
  init(_ name: String, _ log: EventLog) {
    self.name = name
    self.log = log
  }
  func animationDidStart() { log.add("start \(name)") }
  func animationDidStop(finished: Bool) { log.add("stop \(name) \(finished)") }
}

private func near(_ a: Double?, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
  guard let a else { return false }
  return abs(a - b) <= tolerance
}

private func basic(
  _ keyPath: String, from: Double? = nil, to: Double? = nil, by: Double? = nil, duration: Double = 1
) -> ExplicitAnimation {
  var a = ExplicitAnimation.basic(
    keyPath, from: from.map { .number($0) }, to: to.map { .number($0) }, by: by.map { .number($0) })
  a.timing.duration = duration
  return a
}

@Suite struct ExplicitAnimationValueTests {
  /// CABasicAnimation's "Setting Interpolation Values" rules, one by one, on opacity with a model value of 0.2,
  /// linear timing, 1 s, sampled at 0.25 s: value = start + (end − start) · 0.25.
  @Test func absentValueRules() {
    let cases: [(Double?, Double?, Double?, Double)] = [
      (0, 1, nil, 0 + 1 * 0.25),  // from and to
      (0.4, nil, 0.4, 0.4 + 0.4 * 0.25),  // from and by: 0.4 → 0.8
      (nil, 1, 0.4, 0.6 + 0.4 * 0.25),  // by and to: 0.6 → 1
      (0.8, nil, nil, 0.8 + (0.2 - 0.8) * 0.25),  // from only: 0.8 → the current value 0.2
      (nil, 1, nil, 0.2 + (1 - 0.2) * 0.25),  // to only: 0.2 → 1
      (nil, nil, 0.4, 0.2 + 0.4 * 0.25),  // by only: 0.2 → 0.6
      (0, 1, 5, 0.25),  // all three: from and to, by ignored
    ]
    for (from, to, by, expected) in cases {
      let h = ModelHarness()
      let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
      v.alpha = 0.2
      v.add(basic("opacity", from: from, to: to, by: by), forKey: "fade")
      #expect(
        near(h.state("v", at: 0.25)?.alpha, expected),
        "from \(String(describing: from)) to \(String(describing: to)) by \(String(describing: by))")
    }
  }

  /// No value set: from the previous value in the render tree to the current one (the model written this turn).
  @Test func noValuesAnimatesFromThePreviousToTheCurrentValue() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    v.alpha = 0.2
    h.scene.advance(to: 1)
    v.alpha = 0.6
    v.add(basic("opacity"), forKey: "fade")
    #expect(near(h.state("v", at: 1.25)?.alpha, 0.2 + (0.6 - 0.2) * 0.25))
    #expect(near(h.state("v", at: 2.5)?.alpha, 0.6))
  }

  /// An additive animation adds to the value under it: position.x −100 → 0 over a model of 50.
  @Test func additiveAddsToTheUnderlyingValue() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 20, height: 20))
    v.position = Point(x: 50, y: 10)
    var a = basic("position.x", from: -100, to: 0)
    a.isAdditive = true
    v.add(a, forKey: nil)
    #expect(near(h.state("v", at: 0.5)?.position.x, 50 + (-100 + 100 * 0.5)))
    #expect(near(h.state("v", at: 0.5)?.position.y, 10))
  }

  /// `transform.rotation.z` interpolates the angle: 0 → 3π/2 is at 3π/4 half-way (the matrices would turn back).
  @Test func transformKeyPathInterpolatesTheComponent() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 20, height: 20))
    v.add(basic("transform.rotation.z", from: 0, to: 3 * Double.pi / 2), forKey: "spin")
    let m = h.state("v", at: 0.5)!.transform
    #expect(near(m.m11, cos(3 * Double.pi / 4), 1e-9) && near(m.m12, sin(3 * Double.pi / 4), 1e-9))
  }

  /// The timing function shapes progress: easeInEaseOut (0.42, 0, 0.58, 1) solved independently.
  @Test func timingFunctionShapesProgress() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 20, height: 20))
    var a = basic("cornerRadius", from: 0, to: 40)
    a.timingFunction = .easeInOut
    v.add(a, forKey: nil)
    for t in [0.2, 0.5, 0.7] {
      #expect(near(h.state("v", at: t)?.cornerRadius, 40 * Reference.bezier(0.42, 0, 0.58, 1, at: t), 1e-5))
    }
  }

  /// An unknown key path and a value of the wrong type are reported and add nothing.
  @Test func badKeyPathsAndValuesAreReported() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 20, height: 20))
    v.add(basic("wobble", from: 0, to: 1), forKey: "a")
    v.add(ExplicitAnimation.basic("position", to: .number(3)), forKey: "b")
    #expect(v.animationKeys() == nil)
    #expect(
      h.misuses == [
        .unknownAnimationKeyPath(layerID: "v", keyPath: "wobble"),
        .animationValueMismatch(layerID: "v", keyPath: "position"),
      ])
  }
}

@Suite struct ExplicitAnimationTimingTests {
  /// The classic trap: position.x 0 → 100 with the model left at 50 shows the animation until its end, then the
  /// model again. `isRemovedOnCompletion = false` with fillMode forwards holds 100; either alone does not.
  @Test func snapBackAndFillModes() {
    func run(removed: Bool, fill: AnimationFillMode) -> (Double, Double, Double, [String]?, [SnapBack]) {
      let h = ModelHarness()
      let v = h.view("v", Rect(x: 40, y: 0, width: 20, height: 20))  // position.x = 50
      var a = basic("position.x", from: 0, to: 100)
      a.isRemovedOnCompletion = removed
      a.timing.fillMode = fill
      v.add(a, forKey: "move")
      let mid = h.state("v", at: 0.5)!.position.x
      let late = h.state("v", at: 0.999)!.position.x
      h.scene.advance(to: 2)
      return (mid, late, h.state("v", at: 2)!.position.x, v.animationKeys(), h.scene.snapBacks)
    }
    let trap = run(removed: true, fill: .removed)
    #expect(near(trap.0, 50) && near(trap.1, 99.9, 1e-9) && near(trap.2, 50))
    #expect(trap.3 == nil)
    #expect(trap.4.count == 1 && trap.4[0].layerID == "v" && trap.4[0].keyPath == "position.x")
    #expect(trap.4.first?.endValue == .number(100) && trap.4.first?.modelValue == .number(50))
    let held = run(removed: false, fill: .forwards)
    #expect(near(held.2, 100) && held.3 == ["move"] && held.4.isEmpty)
    #expect(near(run(removed: true, fill: .forwards).2, 50))
    #expect(near(run(removed: false, fill: .removed).2, 50))
  }

  /// fillMode backwards shows the start value during a delay; removed shows the model.
  @Test func backwardsFillCoversTheDelay() {
    for (fill, expected) in [(AnimationFillMode.backwards, 0.0), (.removed, 50), (.both, 0)] {
      let h = ModelHarness()
      let v = h.view("v", Rect(x: 40, y: 0, width: 20, height: 20))
      var a = basic("position.x", from: 0, to: 100)
      a.timing.beginTime = h.scene.currentMediaTime + 0.5
      a.timing.fillMode = fill
      v.add(a, forKey: nil)
      #expect(near(h.state("v", at: 0.25)?.position.x, expected))
      #expect(near(h.state("v", at: 0.75)?.position.x, 25))
    }
  }

  /// autoreverses with repeatCount 1.5: one cycle is 2 s (forward, back), the active duration 3 s; it ends half-way
  /// through the second cycle's forward half, at the far end.
  @Test func autoreversesWithFractionalRepeatCount() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    var a = basic("cornerRadius", from: 0, to: 10)
    a.timing.autoreverses = true
    a.timing.repeatCount = 1.5
    a.timing.fillMode = .forwards
    a.isRemovedOnCompletion = false
    v.add(a, forKey: nil)
    let expected: [(Double, Double)] = [
      (0.5, 5), (1, 10), (1.5, 10 * (2 - 1.5)), (1.75, 10 * (2 - 1.75)), (2.25, 10 * 0.25), (2.9, 10 * 0.9), (4, 10),
    ]
    for (t, value) in expected {
      #expect(near(h.state("v", at: t)?.cornerRadius, value, 1e-9), "t = \(t)")
    }
    // repeatDuration 2.5 without autoreverse: 0 → 10 each second, ending at 0.5 s of the third repeat.
    let w = h.view("w", Rect(x: 0, y: 0, width: 10, height: 10))
    var b = basic("cornerRadius", from: 0, to: 10)
    b.timing.repeatDuration = 2.5
    b.timing.fillMode = .forwards
    b.isRemovedOnCompletion = false
    w.add(b, forKey: nil)
    #expect(near(h.state("w", at: 1.25)?.cornerRadius, 2.5, 1e-9))
    #expect(near(h.state("w", at: 3)?.cornerRadius, 5, 1e-9))
  }

  /// An animation's own speed and timeOffset: t = (t_parent − begin) · speed + offset, wrapped in the active
  /// duration (a 1 s animation with timeOffset 0.25 shows 0.25 → 1, then 0 → 0.25).
  @Test func animationSpeedAndTimeOffset() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    var a = basic("cornerRadius", from: 0, to: 100)
    a.timing.timeOffset = 0.25
    v.add(a, forKey: nil)
    #expect(near(h.state("v", at: 0.5)?.cornerRadius, 75, 1e-9))
    #expect(near(h.state("v", at: 0.9)?.cornerRadius, 15, 1e-9))  // (0.9 + 0.25) mod 1 = 0.15
    let w = h.view("w", Rect(x: 0, y: 0, width: 10, height: 10))
    var b = basic("cornerRadius", from: 0, to: 100)
    b.timing.speed = 2
    w.add(b, forKey: nil)
    #expect(near(h.state("w", at: 0.25)?.cornerRadius, 50, 1e-9))
    #expect(near(h.state("w", at: 0.6)?.cornerRadius, 0))  // ended at 0.5 s, removed
  }

  /// Layer timing composes down the tree: B's local time = ((τ − 0)·0 + offsetA − 0)·2 + 0.1 with A frozen
  /// (speed 0) and B at speed 2. Scrubbing A's timeOffset scrubs B's animation, whatever τ is.
  @Test func layerSpeedZeroAndTimeOffsetScrubThroughTwoLevels() throws {
    let h = ModelHarness()
    let a = h.view("a", Rect(x: 0, y: 0, width: 100, height: 100))
    let b = try h.scene.makeLayer(id: "b")
    a.addSublayer(b)
    a.layerTiming = LayerTiming(speed: 0, timeOffset: 0.3)
    b.layerTiming = LayerTiming(speed: 2, timeOffset: 0.1)
    #expect(near(b.localTime(at: 7), (0.3 * 1) * 2 + 0.1))
    // Added at B's local time (0.3)·2 + 0.1 = 0.7: that is its beginTime.
    b.add(basic("position.x", from: 0, to: 100), forKey: "x")
    #expect(near(h.state("b", at: 0)?.position.x, 0))
    #expect(near(h.state("b", at: 5)?.position.x, 0))
    a.layerTiming = LayerTiming(speed: 0, timeOffset: 0.5)  // B at 1.1: 0.4 s in
    #expect(near(h.state("b", at: 0)?.position.x, 40, 1e-9))
    #expect(near(h.state("b", at: 9)?.position.x, 40, 1e-9))
    a.layerTiming = LayerTiming(speed: 0, timeOffset: 0.75)  // B at 1.6: 0.9 s in
    #expect(near(h.state("b", at: 3)?.position.x, 90, 1e-9))
    // Frozen: time advancing does not end it; unfreezing at speed 1 from here runs on. A's local time is then
    // (τ − beginTime) + 0.75; with beginTime = τ now (3), B reaches its end 0.05 s of timeline later.
    h.scene.advance(to: 3)
    #expect(b.animationKeys() == ["x"])
    a.layerTiming = LayerTiming(beginTime: 3, speed: 1, timeOffset: 0.75)
    #expect(near(h.state("b", at: 3.025)?.position.x, 95, 1e-9))
    h.scene.advance(to: 3.06)
    #expect(b.animationKeys() == nil)
  }
}

@Suite struct ExplicitAnimationReparentingTests {
  /// A layer moved to another superlayer keeps its animation, whose times are the layer's local times: added at
  /// τ = 0 under the container (local = τ), begin 0, 1 s linear from 0 to 100; at τ = 0.25 it moves under a layer
  /// of speed 2 (local = 2τ), so at τ = 0.3 it is 0.6 s in (60) and it ends, its delegate hearing the stop, at
  /// τ = 0.5 instead of 1.
  @Test func aMovedLayerKeepsItsAnimationsInItsNewTimeSpace() throws {
    let h = ModelHarness()
    let log = EventLog()
    let fast = try h.scene.makeLayer(id: "fast")
    h.scene.container.addSublayer(fast)
    fast.layerTiming = LayerTiming(speed: 2)
    let l = try h.scene.makeLayer(id: "l")
    h.scene.container.addSublayer(l)
    var move = basic("position.x", from: 0, to: 100)
    move.delegate = LoggingDelegate("move", log)
    l.add(move, forKey: "move")
    #expect(near(h.state("l", at: 0.2)?.position.x, 20, 1e-9))
    h.scene.advance(to: 0.25)
    fast.addSublayer(l)
    #expect(l.animationKeys() == ["move"])
    #expect(near(h.state("l", at: 0.3)?.position.x, 60, 1e-9))
    h.scene.advance(to: 0.49)
    #expect(log.entries == ["start move"])
    h.scene.advance(to: 0.5)
    #expect(log.entries == ["start move", "stop move true"])
    #expect(l.animationKeys() == nil)
  }
}

@Suite struct ExplicitAnimationCallbackTests {
  /// Delegates hear start and stop in time order, only when time advances; a removal or a replacement by the same
  /// key stops the old one with finished false.
  @Test func delegateOrder() {
    let h = ModelHarness()
    let log = EventLog()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    var a = basic("opacity", from: 0, to: 1, duration: 0.5)
    a.delegate = LoggingDelegate("a", log)
    var b = basic("cornerRadius", from: 0, to: 1, duration: 0.1)
    b.timing.beginTime = h.scene.currentMediaTime + 0.2
    b.delegate = LoggingDelegate("b", log)
    var c = basic("borderWidth", from: 0, to: 1, duration: 5)
    c.delegate = LoggingDelegate("c", log)
    v.add(a, forKey: "a")
    v.add(b, forKey: "b")
    v.add(c, forKey: "c")
    _ = h.scene.presentation(at: 3)
    #expect(log.entries.isEmpty)
    h.scene.advance(to: 0.1)
    #expect(log.entries == ["start a", "start c"])
    v.removeAnimation(forKey: "c")
    #expect(v.animationKeys() == ["a", "b"])
    h.scene.advance(to: 0.25)
    #expect(log.entries == ["start a", "start c", "stop c false", "start b"])
    var b2 = basic("cornerRadius", from: 0, to: 1, duration: 1)
    b2.delegate = LoggingDelegate("b2", log)
    v.add(b2, forKey: "b")
    h.scene.advance(to: 1)
    #expect(
      log.entries == [
        "start a", "start c", "stop c false", "start b", "stop b false", "start b2", "stop a true",
      ])
  }

  /// A transaction's completion runs once every animation added while it was set has stopped, after their
  /// delegates; an empty one completes at the next advance; nesting counts inner animations in the outer one.
  @Test func transactionCompletion() {
    let h = ModelHarness()
    let log = EventLog()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    h.scene.beginTransaction()
    h.scene.setTransactionCompletion { log.add("outer done") }
    var a = basic("opacity", from: 0, to: 1, duration: 0.5)
    a.delegate = LoggingDelegate("a", log)
    v.add(a, forKey: "a")
    h.scene.beginTransaction()
    h.scene.setTransactionCompletion { log.add("inner done") }
    var b = basic("cornerRadius", from: 0, to: 1, duration: 1)
    b.delegate = LoggingDelegate("b", log)
    v.add(b, forKey: "b")
    h.scene.commitTransaction()
    h.scene.commitTransaction()
    h.scene.beginTransaction()
    h.scene.setTransactionCompletion { log.add("empty done") }
    h.scene.commitTransaction()
    #expect(log.entries.isEmpty)
    h.scene.advance(to: 0.6)
    // The animations start in the turn after the commit, the empty transaction completes in it too (after them).
    #expect(log.entries == ["start a", "start b", "empty done", "stop a true"])
    h.scene.advance(to: 1)
    #expect(
      log.entries == ["start a", "start b", "empty done", "stop a true", "stop b true", "inner done", "outer done"])
    h.scene.commitTransaction()
    #expect(h.misuses == [.unbalancedTransactionCommit])
  }

  /// Implicit actions: a standalone layer in a tree animates a model write from its presented value over 0.25 s
  /// with the default curve (0.25, 0.1, 0.25, 1); disabled actions and a view's own layer change at once; the
  /// transaction's duration and timing function apply.
  @Test func implicitActions() throws {
    let h = ModelHarness()
    let l = try h.scene.makeLayer(id: "L")
    l.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
    h.scene.container.addSublayer(l)
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    #expect(near(h.state("L", at: 0)?.alpha, 1))  // configured at creation: no action
    h.scene.advance(to: 1)
    l.opacity = 0
    v.alpha = 0
    #expect(l.animationKeys() == ["opacity"])
    for t in [1.05, 1.125, 1.2] {
      let x = (t - 1) / 0.25
      #expect(near(h.state("L", at: t)?.alpha, 1 - Reference.bezier(0.25, 0.1, 0.25, 1, at: x), 1e-5))
    }
    #expect(near(h.state("v", at: 1.1)?.alpha, 0))
    #expect(v.animationKeys() == nil)

    h.scene.advance(to: 2)
    h.scene.beginTransaction()
    h.scene.transactionDisablesActions = true
    l.opacity = 0.5
    h.scene.commitTransaction()
    #expect(near(h.state("L", at: 2.1)?.alpha, 0.5))

    h.scene.advance(to: 3)
    h.scene.beginTransaction()
    h.scene.transactionAnimationDuration = 1
    h.scene.transactionTimingFunction = .linear
    l.cornerRadius = 8
    h.scene.commitTransaction()
    #expect(near(h.state("L", at: 3.5)?.cornerRadius, 4, 1e-9))
    // Inside a UIView block a layer that is not a view runs its implicit action all the same (the block's 2 s and
    // linear curve do not reach it): 0.25 s on the default curve, from 0 to 4.
    h.scene.advance(to: 5)
    h.scene.animate(duration: 2, timing: .curve(.linear)) { l.borderWidth = 4 }
    #expect(near(h.state("L", at: 5.1)?.layer.borderWidth, 4 * Reference.bezier(0.25, 0.1, 0.25, 1, at: 0.4), 1e-5))
    #expect(near(h.state("L", at: 5.25)?.layer.borderWidth, 4))
  }
}

@Suite struct ExplicitAnimationKindTests {
  /// A path keyframe animation: (0,0) → (300,0) → (300,100), 1 s. Linear mode gives each segment half the time;
  /// paced moves by length (400 in all); rotationMode auto turns the layer to the tangent, autoReverse by π more.
  @Test func keyframePathWithRotationMode() {
    var path = Path()
    path.move(to: Point(x: 0, y: 0))
    path.addLine(to: Point(x: 300, y: 0))
    path.addLine(to: Point(x: 300, y: 100))
    func run(_ mode: KeyframeCalculationMode, _ rotation: AnimationRotationMode?, at t: Double) -> ViewState {
      let h = ModelHarness()
      let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
      var spec = ExplicitAnimation.KeyframeSpec()
      spec.path = path
      spec.calculationMode = mode
      spec.rotationMode = rotation
      var a = ExplicitAnimation(kind: .keyframes(spec), keyPath: "position")
      a.timing.duration = 1
      v.add(a, forKey: "follow")
      return h.state("v", at: t)!
    }
    let linear = run(.linear, .auto, at: 0.25)
    #expect(near(linear.position.x, 150) && near(linear.position.y, 0))
    #expect(near(linear.transform.m11, 1) && near(linear.transform.m12, 0))
    let down = run(.linear, .auto, at: 0.75)
    #expect(near(down.position.x, 300) && near(down.position.y, 50))
    // Tangent (0, 1): angle π/2 (y down), so m11 = cos, m12 = sin.
    #expect(near(down.transform.m11, 0, 1e-12) && near(down.transform.m12, 1, 1e-12))
    let reversed = run(.linear, .autoReverse, at: 0.75)
    #expect(near(reversed.transform.m11, 0, 1e-12) && near(reversed.transform.m12, -1, 1e-12))
    let paced = run(.paced, nil, at: 0.5)  // 200 of 400
    #expect(near(paced.position.x, 200, 1e-6) && near(paced.position.y, 0, 1e-6))
    let pacedLate = run(.paced, nil, at: 0.875)  // 350: 50 down the second segment
    #expect(near(pacedLate.position.x, 300, 1e-6) && near(pacedLate.position.y, 50, 1e-6))
    #expect(near(pacedLate.transform.m11, 1))  // no rotation mode: the transform is the model's
  }

  /// Values keyframes with keyTimes and per-segment timing functions.
  @Test func valueKeyframes() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    var spec = ExplicitAnimation.KeyframeSpec()
    spec.values = [.number(0), .number(10), .number(30)]
    spec.keyTimes = [0, 0.2, 1]
    spec.timingFunctions = [.linear, .easeIn]
    var a = ExplicitAnimation(kind: .keyframes(spec), keyPath: "cornerRadius")
    a.timing.duration = 2
    v.add(a, forKey: nil)
    #expect(near(h.state("v", at: 0.2)?.cornerRadius, 5, 1e-9))  // 0.1 of 0.2 in the first segment
    let u = (0.6 - 0.2) / 0.8
    #expect(near(h.state("v", at: 1.2)?.cornerRadius, 10 + 20 * Reference.bezier(0.42, 0, 1, 1, at: u), 1e-5))
  }

  /// A group's children run in its local time and are clipped to its duration; a child without a duration takes
  /// the group's.
  @Test func groupClipsItsChildren() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 40, y: 0, width: 20, height: 20))  // position.x 50
    let slow = basic("position.x", from: 0, to: 100, duration: 2)
    var late = basic("cornerRadius", from: 0, to: 10, duration: 0.25)
    late.timing.beginTime = 0.5
    let whole = ExplicitAnimation.basic("opacity", from: .number(0), to: .number(1))
    var group = ExplicitAnimation(kind: .group([slow, late, whole]))
    group.timing.duration = 1
    v.add(group, forKey: "g")
    let s = h.state("v", at: 0.5)!
    #expect(near(s.position.x, 25) && near(s.alpha, 0.5) && near(s.cornerRadius, 0))
    let t = h.state("v", at: 0.6)!
    #expect(near(t.cornerRadius, 10 * 0.1 / 0.25, 1e-9) && near(t.alpha, 0.6, 1e-9))
    #expect(near(h.state("v", at: 0.9)?.cornerRadius, 0))  // the late child ended (fill removed)
    #expect(near(h.state("v", at: 0.99)?.position.x, 49.5, 1e-9))
    #expect(near(h.state("v", at: 1.5)?.position.x, 50))  // clipped: the group ended
  }

  /// CASpringAnimation: m 1, k 100, c 20 (ζ = 1, ω₀ = 10): progress 1 − (1 + 10t)e^(−10t); it lasts its settling
  /// duration, which for the critical case is the first multiple of 0.1 s where the envelope is ≤ 0.001.
  @Test func springAnimation() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    var spec = ExplicitAnimation.SpringSpec()
    spec.damping = 20
    let a = ExplicitAnimation(
      kind: .spring(from: .number(0), to: .number(100), by: nil, spring: spec), keyPath: "cornerRadius")
    v.add(a, forKey: nil)
    for t in [0.05, 0.1, 0.3] {
      #expect(near(h.state("v", at: t)?.cornerRadius, 100 * (1 - (1 + 10 * t) * exp(-10 * t)), 1e-9))
    }
    var settle = 0.0
    while (1 + 10 * settle) * exp(-10 * settle) > 0.001 { settle = ((settle + 0.1) * 10).rounded() / 10 }
    #expect(near(spec.settlingDuration, settle, 1e-9))
    #expect(v.animationKeys() == nil)
    h.scene.advance(to: settle + 0.01)
    #expect(near(h.state("v", at: settle + 0.01)?.cornerRadius, 0))  // removed: the model again
  }

  /// Core Animation's order with blocks: a UIView block added after an explicit animation of the same property
  /// covers it while it runs; an explicit animation added after a block covers the block.
  @Test func blocksAndExplicitAnimationsResolveInAddOrder() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    v.add(basic("opacity", from: 0, to: 1, duration: 2), forKey: "fade")
    h.scene.animate(duration: 1, timing: .curve(.linear)) { v.alpha = 0.5 }
    // The block runs 1 → 0.5 over 1 s (its from is the model's presented value as the engine's blocks take it).
    #expect(near(h.state("v", at: 0.4)?.alpha, 1 - 0.5 * 0.4, 1e-9))
    #expect(near(h.state("v", at: 1.6)?.alpha, 1.6 / 2, 1e-9))  // the block ended: the explicit one shows again
    let w = h.view("w", Rect(x: 0, y: 0, width: 10, height: 10))
    h.scene.animate(duration: 1, timing: .curve(.linear)) { w.alpha = 0 }
    w.add(basic("opacity", from: 0.2, to: 0.4, duration: 2), forKey: "fade")
    #expect(near(h.state("w", at: 0.5)?.alpha, 0.25, 1e-9))
  }
}

/// Slides the to root in with an explicit `position.y` animation and a standalone shadow layer's `shadowOpacity`,
/// and completes from the position animation's delegate (what a Core Animation animator does).
final class ExplicitSlideAnimator: TransitionAnimator, ExplicitAnimationDelegate {
  let animatorID = "test/explicit-slide"
  var context: TransitionContext?
  var stops: [Bool] = []

  func transitionDuration(_ context: TransitionContext?) -> Double { 1 }

  func animateTransition(_ context: TransitionContext) {
    self.context = context
    let to = context.view(forKey: .to)!
    context.containerView.addSubview(to)
    let shade = context.scene.makeLayer(hint: "shade")
    to.addSublayer(shade)
    shade.shadowOpacity = 0
    var slide = ExplicitAnimation.basic("position.y", from: .number(1200), to: .number(400))
    slide.timing.duration = 1
    slide.delegate = self
    to.add(slide, forKey: "slide")
    var fade = ExplicitAnimation.basic("shadowOpacity", from: .number(0), to: .number(0.8))
    fade.timing.duration = 1
    shade.add(fade, forKey: "fade")
  }

  func animationDidStart() {}

  func animationDidStop(finished: Bool) {
    stops.append(finished)
    context?.completeTransition(!(context?.transitionWasCancelled ?? false))
  }
}

@Suite struct ExplicitAnimationInteractionTests {
  /// A percent-driven transition scrubs explicit animations through the timeline (the container's layer time, as
  /// UIKit's percent driver freezes and offsets it): percent p shows each at p·D; a cancel runs them back, their
  /// delegate hears finished, and the start state comes back with no animation left; a finish completes.
  @Test(arguments: [false, true])
  func scrubThenCancelOrFinish(finishing: Bool) throws {
    let trees = TestTrees()
    trees.placeForStart(.presentation, removesPresentersView: false)
    let start = exactDump(trees)
    let animator = ExplicitSlideAnimator()
    let transition = trees.transition(.present, animator: animator, interactive: true)
    var ends: [TransitionOutcome] = []
    transition.onEnd = { ends.append($0) }
    try transition.start()
    for p in [0.25, 0.6, 0.1] {
      try transition.update(percent: p)
      let frame = transition.presentation()
      #expect(near(frame.first { $0.id == "to" }?.position.y, 1200 - 800 * p, 1e-9))
      let shade = frame.first { $0.id.hasPrefix("shade") }
      #expect(near(shade?.layer.shadowOpacity, 0.8 * p, 1e-9))
    }
    #expect(animator.stops.isEmpty)
    if finishing {
      try transition.finish(curve: .linear)
      for _ in 0..<200 where ends.isEmpty { try transition.advance(by: 1.0 / 60) }
      #expect(ends == [.completed])
      #expect(animator.stops == [true])
      #expect(trees.to.animationKeys() == nil)
    } else {
      try transition.cancel(curve: .linear)
      try transition.advance(by: 0.05)
      #expect(near(transition.presentation().first { $0.id == "to" }?.position.y, 1200 - 800 * 0.05, 1e-9))
      for _ in 0..<200 where ends.isEmpty { try transition.advance(by: 1.0 / 60) }
      #expect(ends == [.cancelled(reason: nil)])
      #expect(animator.stops == [true])
      #expect(exactDump(trees) == start)
      #expect(trees.to.animationKeys() == nil)
    }
  }
}
