import TestSupport
// Seeded random sequences of blocks, keyframes, drivers, seeks and advances: completions fire exactly once, in
// time order, at or after their block's creation; samples stay finite and repeatable.
import Testing
import TransitionEngine

private final class Run {
  var rng: SplitMix64
  let h = ModelHarness()
  var views: [View] = []
  /// Per completion id: the times it fired at.
  var fired: [Int: [Double]] = [:]
  var created: [Int: Double] = [:]
  var nextID = 0
  /// Firing times seen during the current advance.
  var firingTimes: [Double] = []

  init(seed: UInt64) {
    rng = SplitMix64(seed: seed)
    for i in 0..<6 {
      let parent = i < 3 ? h.scene.container : views[i - 3]
      views.append(h.view("v\(i)", Rect(x: Double(i) * 10, y: 5, width: 40, height: 30), in: parent))
    }
  }

  func duration() -> Double {
    switch rng.below(8) {
    case 0: return 0
    case 1: return -0.5
    case 2: return .nan
    default: return rng.unit() * 1.5
    }
  }

  func completion(depth: Int) -> (Bool) -> Void {
    nextID += 1
    let id = nextID
    created[id] = h.scene.currentTime
    return { [self] _ in
      fired[id, default: []].append(h.scene.currentTime)
      firingTimes.append(h.scene.currentTime)
      if depth < 3 && rng.below(3) == 0 { randomBlock(depth: depth + 1) }
    }
  }

  func randomChanges() {
    for _ in 0..<(1 + rng.below(3)) {
      let v = views[rng.below(views.count)]
      switch rng.below(6) {
      case 0: v.alpha = rng.unit()
      case 1: v.position = Point(x: rng.unit() * 300, y: rng.unit() * 200)
      case 2: v.transform = Transform3D(rotationAngle: rng.unit() * 6 - 3, x: 0, y: 1, z: 0)
      case 3: v.backgroundColor = rng.below(2) == 0 ? nil : Color(r: rng.unit(), g: rng.unit(), b: rng.unit())
      case 4: v.bounds.size = Size(width: rng.unit() * 100, height: rng.unit() * 100)
      default: v.zPosition = rng.unit() * 4 - 2
      }
    }
  }

  func randomBlock(depth: Int) {
    let h = self.h
    switch rng.below(4) {
    case 0:
      h.scene.animateKeyframes(
        duration: duration(), delay: rng.unit() * 0.3, mode: [.linear, .discrete, .cubic, .paced][rng.below(4)],
        animations: {
          h.scene.addKeyframe(relativeStart: rng.unit(), relativeDuration: rng.unit()) { randomChanges() }
          h.scene.addKeyframe(relativeStart: rng.unit(), relativeDuration: rng.unit()) { randomChanges() }
        }, completion: completion(depth: depth))
    case 1:
      let v = views[rng.below(views.count)]
      let amplitude = rng.unit() * 20
      h.scene.addDriver(
        duration: duration(), update: { frame in frame.set(.cornerRadius, of: v, to: amplitude * frame.fraction) },
        completion: completion(depth: depth))
    default:
      let spring = rng.below(3) == 0
      h.scene.animate(
        duration: duration(), delay: rng.unit() * 0.3,
        timing: spring ? .spring(Spring(dampingRatio: 0.3 + rng.unit(), duration: 0.2 + rng.unit())) : nil,
        animations: {
          randomChanges()
          if rng.below(4) == 0 {
            h.scene.animate(duration: duration(), animations: { randomChanges() }, completion: completion(depth: depth))
          }
        }, completion: completion(depth: depth))
    }
  }

  func checkSample(at t: Double) {
    let a = h.scene.presentation(at: t)
    #expect(a == h.scene.presentation(at: t))
    for s in a {
      #expect(s.alpha.isFinite && s.position.x.isFinite && s.bounds.size.width.isFinite)
      #expect(s.worldTransform.values.allSatisfy(\.isFinite) && s.transform.values.allSatisfy(\.isFinite))
      #expect(s.opacity >= 0 && s.opacity <= 1)
    }
  }
}

@Suite struct AnimationRandomizedTests {
  @Test(arguments: 1...40)
  func completionsFireExactlyOnceInOrder(seed: UInt64) {
    let run = Run(seed: seed)
    var target = 0.0
    for _ in 0..<30 {
      switch run.rng.below(6) {
      case 0, 1:
        run.randomBlock(depth: 0)
      case 2:
        run.h.scene.seek(to: max(0, target + run.rng.unit() - 0.3))
      case 3:
        run.checkSample(at: run.rng.unit() * 4)
      default:
        target = max(0, run.h.scene.currentTime + run.rng.unit() - 0.2)
        run.firingTimes = []
        run.h.scene.advance(to: target)
        #expect(run.firingTimes == run.firingTimes.sorted())
        #expect(run.firingTimes.allSatisfy { $0 <= target })
        #expect(run.h.scene.currentTime == target)
      }
    }
    run.h.scene.advance(to: 1_000)
    #expect(!run.h.scene.hasPendingWork)
    #expect(run.fired.count == run.nextID)
    for (id, times) in run.fired {
      #expect(times.count == 1)
      #expect(times[0] >= run.created[id]!)
    }
    run.checkSample(at: 0.7)
    #expect(!run.h.misuses.contains { if case .runawayCompletions = $0 { true } else { false } })
  }
}
