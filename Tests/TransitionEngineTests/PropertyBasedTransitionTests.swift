import TestSupport
import Testing

@testable import TransitionEngine

/// An animator built from a seed: a random number of blocks (curves, springs, delays, some outlasting the
/// transition), maybe keyframes, a driver and a chained block, on random views, ending in a random way.
private final class RandomAnimator: TransitionAnimator {
  let animatorID = "test/random"
  let duration: Double
  let style: CompletionStyle
  let addsToRoot: Bool
  let controller: TestPresentationController?
  private var plan: [UInt64]
  var ended: [Bool] = []
  private var pendingCompletions = 0

  init(generator: inout SplitMix64, controller: TestPresentationController?) {
    let durations = [0, 0.05, 0.2, 0.35, 0.5, 1.0]
    duration = durations.randomElement(using: &generator)!
    style = CompletionStyle.allCases.randomElement(using: &generator)!
    addsToRoot = Int.random(in: 0..<5, using: &generator) > 0
    self.controller = controller
    plan = (0..<24).map { _ in generator.next() }
  }

  var presentationController: (any PresentationControllerBehavior)? { controller }

  func transitionDuration(_ context: TransitionContext?) -> Double { duration }

  private func take(_ n: UInt64) -> Int {
    let value = plan.isEmpty ? 0 : plan.removeFirst()
    return Int(value % n)
  }

  private func completeIfLast(_ context: TransitionContext) {
    pendingCompletions -= 1
    guard pendingCompletions == 0 else { return }
    switch style {
    case .normal: context.completeTransition(!context.transitionWasCancelled)
    case .twice:
      context.completeTransition(!context.transitionWasCancelled)
      context.completeTransition(context.transitionWasCancelled)
    case .ignoresCancel: context.completeTransition(true)
    case .never, .nothing, .synchronousTrue, .synchronousFalse: break
    }
  }

  func animateTransition(_ context: TransitionContext) {
    let scene = context.scene
    let container = context.containerView
    switch style {
    case .nothing: return
    case .synchronousTrue:
      context.completeTransition(true)
      return
    case .synchronousFalse:
      context.completeTransition(false)
      return
    default: break
    }
    let from = context.viewController(forKey: .from)
    if let to = context.view(forKey: .to), addsToRoot, to.superview == nil {
      if context.operation.kind == .presentation || context.operation == .push {
        container.addSubview(to)
      } else {
        container.insertSubview(to, belowSubview: from)
      }
    }
    // Only views the animator may touch.
    var views: [View] = []
    for key in TransitionContext.Key.allCases {
      if let root = context.view(forKey: key) { views += [root] + root.subviews }
    }
    let extra = scene.makeView(hint: "extra")
    extra.frame = Rect(x: 5, y: 5, width: 30, height: 30)
    container.addSubview(extra)
    views.append(extra)

    let d = max(duration, 0.01)
    let blockCount = take(5)
    for _ in 0..<blockCount {
      let view = views[take(UInt64(views.count))]
      let property = take(7)
      let length = d * Double(take(16)) / 10  // 0 … 1.5 D
      let delay = d * Double(take(6)) / 10
      let timing: AnimationTiming =
        take(3) == 0
        ? .spring(Spring(dampingRatio: 0.3 + Double(take(8)) / 10, initialVelocity: 0, duration: max(length, 0.01)))
        : .curve([TimingCurve.linear, .easeIn, .easeOut, .easeInOut, .default][take(5)])
      let chains = take(4) == 0
      pendingCompletions += 1
      scene.animate(duration: length, delay: delay, timing: timing) {
        switch property {
        case 0: view.alpha = 0.25
        case 1: view.frame = view.frame.offsetBy(dx: 40, dy: -30)
        case 2: view.transform = Transform3D(rotationAngle: 1.1, x: 0, y: 1, z: 0)
        case 3: view.cornerRadius = 17
        case 4: view.backgroundColor = Color(r: 0.1, g: 0.9, b: 0.3, a: 0.8)
        case 5: view.anchorPoint = Point(x: 0.1, y: 0.9)
        default: view.zPosition = 4
        }
      } completion: { [self] _ in
        if chains {
          pendingCompletions += 1
          scene.animate(duration: d / 2, delay: 0, timing: .curve(.linear)) {
            view.alpha = 0.6
          } completion: {
            [self] _ in
            completeIfLast(context)
          }
        }
        completeIfLast(context)
      }
    }
    if take(3) == 0 {
      let view = views[take(UInt64(views.count))]
      pendingCompletions += 1
      scene.animateKeyframes(duration: d, delay: 0, timing: .curve(.easeInOut), mode: .linear) {
        scene.addKeyframe(relativeStart: 0, relativeDuration: 0.5) {
          view.transform = Transform3D(scaleX: 2, y: 2, z: 1)
        }
        scene.addKeyframe(relativeStart: 0.5, relativeDuration: 0) { view.alpha = 0.3 }
        scene.addKeyframe(relativeStart: 0.5, relativeDuration: 0.5) {
          view.transform = Transform3D(rotationAngle: 0.5, x: 0, y: 0, z: 1)
        }
      } completion: { [self] _ in
        completeIfLast(context)
      }
    }
    if take(3) == 0 {
      let view = views[take(UInt64(views.count))]
      pendingCompletions += 1
      scene.addDriver(duration: d * 1.2) { frame in
        frame.set(.cornerRadius, of: view, to: 10 * frame.fraction)
      } completion: { [self] _ in
        completeIfLast(context)
      }
    }
  }

  func animationEnded(_ completed: Bool) { ended.append(completed) }
}

/// Thousands of seeded random sequences of update / pause / finish / cancel / reverse / release / advance / sample
/// on random animators and operations. Invariants: exactly one `onEnd`; `animationEnded` once, agreeing with the
/// outcome; percent always in [0, 1]; refused calls change nothing; every transition ends (no hang) once driven;
/// not completed ⇒ the start restored bit for bit; completed ⇒ the hierarchy settled as the operation says.
@Suite struct PropertyBasedTransitionTests {
  static let sequences = 3000

  @Test func randomSequencesKeepTheInvariants() throws {
    var failures = 0
    var tally = Tally()
    for seed in 0..<UInt64(Self.sequences) where failures < 5 {
      if !runSequence(seed: seed, tally: &tally) { failures += 1 }
    }
    #expect(failures == 0)
    // The sequences really reach every kind of end and exercise refusals (a vacuous run would pass the rest).
    #expect(tally.outcomes["completed", default: 0] > 300)
    #expect(tally.outcomes["cancelled", default: 0] > 300)
    #expect(tally.outcomes["inputClosed", default: 0] > 50)
    #expect(tally.outcomes["neverCompleted", default: 0] > 100)
    #expect(tally.refusedCalls > 1000)
    #expect(tally.restoredAfterAnimating > 300)
  }

  struct Tally {
    var outcomes: [String: Int] = [:]
    var refusedCalls = 0
    /// Not-completed transitions whose scene had changed before it was restored.
    var restoredAfterAnimating = 0
  }

  /// Returns false (after recording issues) when an invariant broke.
  private func runSequence(seed: UInt64, tally: inout Tally) -> Bool {
    var generator = SplitMix64(seed: seed)
    var ok = true
    func check(_ condition: Bool, _ what: @autoclosure () -> String) {
      if !condition {
        ok = false
        Issue.record("seed \(seed): \(what())")
      }
    }

    let operations: [TransitionOperation] = [.present, .dismiss, .push, .pop, .segue, .unwind, .custom("zoom")]
    let operation = operations.randomElement(using: &generator)!
    let controllerChoice = Int.random(in: 0..<3, using: &generator)
    let controller =
      controllerChoice == 0
      ? nil
      : TestPresentationController(
        removesPresentersView: controllerChoice == 1, addsDimming: Bool.random(using: &generator))
    let animator = RandomAnimator(generator: &generator, controller: controller)
    let interactive = Bool.random(using: &generator)
    let trees = TestTrees()
    let transition = trees.transition(
      operation, animator: animator, interactive: interactive,
      completionSpeed: [0.5, 1, 2, 0.999].randomElement(using: &generator)!,
      completionCurve: [TimingCurve.easeInOut, .linear, .easeOut].randomElement(using: &generator)!)
    trees.placeForStart(operation.kind, removesPresentersView: transition.removesPresentersView)
    let start = exactDump(trees)
    let startPresentation = presentationDump(trees.scene, at: 0)

    var ends: [TransitionOutcome] = []
    var reports: [Misbehavior.Kind] = []
    transition.onEnd = { ends.append($0) }
    transition.onMisbehavior = { reports.append($0.kind) }
    do { try transition.start() } catch { check(false, "start threw \(error)") }
    let changedAtStart = exactDump(trees) != start

    func invariants(_ step: String) {
      check((0...1).contains(transition.percent), "\(step): percent \(transition.percent)")
      check(transition.time.isFinite && transition.time >= 0, "\(step): time \(transition.time)")
      check(ends.count <= 1, "\(step): \(ends.count) onEnd calls")
      check(animator.ended.count <= 1, "\(step): animationEnded \(animator.ended.count) times")
      check(ends.count == animator.ended.count, "\(step): onEnd and animationEnded disagree")
      check(transition.state.isEnded == (ends.count == 1), "\(step): state \(transition.state) vs ends \(ends)")
    }
    invariants("start")

    let steps = Int.random(in: 1...25, using: &generator)
    for index in 0..<steps {
      let before = (transition.state, transition.time, transition.percent)
      let choice = Int.random(in: 0..<12, using: &generator)
      let velocity = [0, 0, 0.1, -0.1, 1.5, -1.5, 4].randomElement(using: &generator)!
      var name = ""
      do {
        switch choice {
        case 0, 1:
          let p = [Double.random(in: -0.2...1.2, using: &generator), .nan, 0, 1].randomElement(using: &generator)!
          name = "update(\(p))"
          try transition.update(percent: p)
        case 2:
          name = "pause"
          try transition.pause()
        case 3:
          name = "finish(\(velocity))"
          try transition.finish(velocity: velocity, speed: Bool.random(using: &generator) ? nil : 3)
        case 4:
          name = "cancel(\(velocity))"
          try transition.cancel(velocity: velocity)
        case 5:
          name = "reverse"
          try transition.reverse()
        case 6:
          name = "release(\(velocity))"
          try transition.release(velocity: velocity)
        case 7, 8, 9:
          let dt = [0, 1.0 / 120, 1.0 / 60, 0.1, 0.37, 2].randomElement(using: &generator)!
          name = "advance(\(dt))"
          try transition.advance(by: dt)
        case 10:
          name = "sample"
          let dumpBefore = exactDump(trees)
          _ = try transition.sample(percent: Double.random(in: -1...2, using: &generator))
          _ = try transition.sample(time: Double.random(in: 0...3, using: &generator))
          check(exactDump(trees) == dumpBefore, "sample changed the scene")
          check(transition.state == before.0 && transition.time == before.1, "sample changed the transition")
        default:
          name = "terminate"
          if Int.random(in: 0..<8, using: &generator) == 0 { transition.terminate(reason: "inputClosed") }
        }
      } catch {
        tally.refusedCalls += 1
        let unchanged =
          transition.state == before.0 && transition.time.bitPattern == before.1.bitPattern
          && transition.percent.bitPattern == before.2.bitPattern
        check(unchanged, "step \(index) \(name) threw \(error) but changed the transition")
      }
      invariants("step \(index) \(name)")
    }

    // Drive it to its end: let go if held, then let time pass. Every transition must end (no hang).
    var guardSteps = 0
    while !transition.state.isEnded && guardSteps < 2000 {
      guardSteps += 1
      do {
        if transition.state == .paused {
          try transition.release(velocity: 0)
        } else {
          try transition.advance(by: 0.05)
        }
      } catch {
        check(false, "driving to the end threw \(error)")
        break
      }
      invariants("drive")
    }
    check(transition.state.isEnded, "did not end: \(transition.state), time \(transition.time)")
    guard let outcome = ends.first else { return ok }
    tally.outcomes[outcome.reason ?? (outcome.didComplete ? "completed" : "cancelled"), default: 0] += 1
    if !outcome.didComplete && changedAtStart { tally.restoredAfterAnimating += 1 }

    check(ends.count == 1, "onEnd \(ends.count) times")
    check(animator.ended == [outcome.didComplete], "animationEnded \(animator.ended) for \(outcome)")
    // A late completeTransition is only reported.
    transition.context.completeTransition(true)
    check(ends.count == 1 && animator.ended.count == 1, "late completeTransition had an effect")
    check(
      (outcome == .failed(reason: "neverCompleted")) == reports.contains(.neverCompleted),
      "neverCompleted reported \(reports) for \(outcome)")

    let container = trees.scene.container
    if outcome.didComplete {
      check(trees.to.isDescendant(of: container), "completed without the to root in the container")
      let keepsFrom = operation.kind == .presentation && !transition.removesPresentersView
      check(trees.from.isDescendant(of: container) == keepsFrom, "from root placement after completion (\(operation))")
    } else {
      check(exactDump(trees) == start, "not completed (\(outcome)) but the start was not restored")
      check(presentationDump(trees.scene, at: 0) == startPresentation, "presentation differs from the start")
      check(presentationDump(trees.scene, at: 0.3) == startPresentation, "animations left after \(outcome)")
    }
    return ok
  }
}
