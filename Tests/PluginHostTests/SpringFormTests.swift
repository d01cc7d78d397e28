import PluginHost
import TestSupport
import Testing
import TransitionEngine

#if canImport(Glibc)
  import Glibc
#endif

/// Every spring form through the C ABI (TestPluginSprings and TestPluginSprings10, written against th_plugin.h
/// alone), on the manual clock, against closed forms written out in TestSupport (`ClosedFormSpring`,
/// `UIKitSpring`, `BounceSpring`) and here: the to view's zPosition goes from 0 to 1, so it is the spring's progress.
/// Core Animation's rule: the closed form for 0 ≤ t < duration, exactly 1 from the duration on, and the block's
/// completion at the duration.
@Suite struct SpringFormTests {
  final class Host {
    let log = LogCapture()
    let registry: PluginRegistry

    init() throws {
      registry = try TestSupport.registry(loadingFixtures: ["Springs", "Springs10"], log: log)
    }

    func run(_ params: [String: ParameterValue], plugin: String = "com.example.test.springs") throws
      -> PluginTransitionRun
    {
      try PluginTransitionRun(registry, plugin + "/spring", params: params)
    }

    func notes(_ plugin: String = "com.example.test.springs") -> [String] {
      log.notes(of: "\(plugin)/spring")
    }
  }

  /// One spring as the fixture's params, what it should do, and how long its block should last.
  struct Form: CustomStringConvertible {
    var description: String
    var params: [String: ParameterValue]
    var progress: (Double) -> Double
    var duration: Double
  }

  static func physical(
    _ m: Double, _ k: Double, _ c: Double, _ v: Double, duration: Double? = nil, overdamping: Bool = false
  ) -> [String: ParameterValue] {
    var params: [String: ParameterValue] = [
      "form": .string("physical"), "mass": .number(m), "stiffness": .number(k), "damping": .number(c),
      "velocity": .number(v), "allowsOverdamping": .bool(overdamping),
    ]
    if let duration { params["duration"] = .number(duration) }
    return params
  }

  static func ratio(_ zeta: Double, _ v: Double, duration: Double) -> [String: ParameterValue] {
    ["form": .string("ratio"), "dampingRatio": .number(zeta), "velocity": .number(v), "duration": .number(duration)]
  }

  static func bounce(_ b: Double, _ v: Double = 0, perceptual d: Double) -> [String: ParameterValue] {
    ["form": .string("bounce"), "bounce": .number(b), "velocity": .number(v), "duration": .number(d)]
  }

  /// Samples `form` at 400 times before its duration and at several from it on, and plays it on the manual clock in
  /// 1/240 s frames, comparing the presented zPosition with the expectation at the transition's time; then checks
  /// that the completion runs exactly at the duration. Returns the worst error before the duration.
  @discardableResult
  func check(_ form: Form, plugin: String = "com.example.test.springs", tolerance: Double = 1e-9) throws -> Double {
    let host = try Host()
    var worst = 0.0
    // Sampling: pure evaluation at any time.
    let sampled = try host.run(form.params, plugin: plugin)
    try sampled.start()
    #expect(host.notes(plugin) == ["animate TH_OK"], "\(form)")
    var times = (0..<400).map { Double($0) / 400 * form.duration }
    times += [form.duration * (1 - 1e-12), form.duration - 1e-9, form.duration - 1e-6]
    for t in times where t < form.duration {
      let z = try #require(try sampled.state("to", at: t)?.zPosition)
      worst = max(worst, abs(z - form.progress(t)))
    }
    #expect(worst <= tolerance, "\(form): worst error \(worst) before the duration \(form.duration)")
    for t in [form.duration, form.duration + 1e-9, form.duration * 1.5 + 0.1, form.duration + 10] {
      #expect(try sampled.state("to", at: t)?.zPosition == 1, "\(form) at \(t) ≥ duration")
    }
    // The manual clock: frames of 1/240 s; each presented value is the closed form at the transition's time.
    let played = try host.run(form.params, plugin: plugin)
    try played.start()
    var frames = 0
    while played.outcome == nil, played.transition.time + 1.0 / 240 < form.duration - 1e-6 {
      try played.transition.advance(by: 1.0 / 240)
      frames += 1
      let t = played.transition.time
      let z = try #require(played.transition.presentation().first { $0.id == "to" }?.zPosition)
      worst = max(worst, abs(z - form.progress(t)))
      #expect(abs(z - form.progress(t)) <= tolerance, "\(form): frame \(frames) at t = \(t)")
    }
    // The block (and its completion, which completes the transition) ends exactly at the duration.
    let rest = form.duration - played.transition.time
    try played.transition.advance(by: rest - 1e-7)
    #expect(played.outcome == nil, "\(form): ended before its duration \(form.duration)")
    #expect(!host.notes(plugin).contains("completion finished=1"), "\(form)")
    try played.transition.advance(by: 2e-7)
    #expect(played.outcome == .completed, "\(form): not completed at its duration \(form.duration)")
    #expect(host.notes(plugin).filter { $0.hasPrefix("completion") } == ["completion finished=1"], "\(form)")
    #expect(played.to.zPosition == 1 && played.misbehaviors.isEmpty, "\(form)")
    // The transition's duration is the animator's own answer, whatever its springs do.
    #expect(played.transition.duration == 1, "\(form)")
    return worst
  }

  // MARK: - CASpringAnimation: mass, stiffness, damping, initial velocity

  @Test func massStiffnessSpringsLastTheirSettlingDuration() throws {
    for (m, k, c, v) in [(1.0, 100.0, 15.0, 0.0), (1, 100, 5, 0), (2, 300, 10, -2), (1, 200, 12, 2.5), (1, 100, 20, 0)]
    {
      let motion = ClosedFormSpring(mass: m, stiffness: k, damping: c, initialVelocity: v)
      let settling = motion.settlingDuration
      try check(
        Form(
          description: "spring(\(m) \(k) \(c) \(v))", params: Self.physical(m, k, c, v),
          progress: { motion.progress($0, duration: settling) }, duration: settling))
    }
    // Apple's figures (CASpringAnimation.settlingDuration): damping 5 → about 2.85 s, damping 15 → just over 1 s.
    #expect(abs(ClosedFormSpring(mass: 1, stiffness: 100, damping: 5).settlingDuration - 2.85) < 0.01)
    #expect((1.0...1.1).contains(ClosedFormSpring(mass: 1, stiffness: 100, damping: 15).settlingDuration))
  }

  @Test func aGivenDurationCutsTheSpringShortAndJumpsToTheTarget() throws {
    // spring(1 100 5 0) settles in 2.85 s; cut at 0.7 s it is still 0.0195 from its target then, and jumps.
    let motion = ClosedFormSpring(mass: 1, stiffness: 100, damping: 5)
    try check(
      Form(
        description: "spring(1 100 5 0) for 0.7 s", params: Self.physical(1, 100, 5, 0, duration: 0.7),
        progress: { motion.progress($0, duration: 0.7) }, duration: 0.7))
    #expect(abs(motion.displacement(0.7)) > 0.01)
  }

  /// UINavigationController's push spring, spring(3 1000 500 0): ζ = 500 / (2√3000) ≈ 4.56 moves as the critical
  /// spring with the same ω₀ = √(1000/3), x = (1 + ω₀t)·e^(−ω₀t), which is within 0.001 from 0.6 s.
  @Test func anOverdampedSpringMovesCriticallyDampedUnlessAllowed() throws {
    let omega = (1000.0 / 3).squareRoot()
    let critical = ClosedFormSpring(omega: omega, zeta: 1)
    #expect(critical.settlingDuration == 0.6)
    // By hand: 0.5 s is still above ε, 0.6 s is below.
    #expect((1 + omega * 0.5) * exp(-omega * 0.5) > 0.001 && (1 + omega * 0.6) * exp(-omega * 0.6) <= 0.001)
    try check(
      Form(
        description: "spring(3 1000 500 0)", params: Self.physical(3, 1000, 500, 0),
        progress: { t in t <= 0 ? 0 : (t < 0.6 ? 1 - (1 + omega * t) * exp(-omega * t) : 1) }, duration: 0.6))
    // With a velocity the clamp keeps ω₀ and the velocity: x = (1 + (ω₀ − v₀)t)·e^(−ω₀t).
    let thrown = ClosedFormSpring(omega: (100.0 / 2).squareRoot(), zeta: 1, initialVelocity: 4)
    try check(
      Form(
        description: "spring(2 100 60 4)", params: Self.physical(2, 100, 60, 4),
        progress: { thrown.progress($0, duration: thrown.settlingDuration) }, duration: thrown.settlingDuration))

    // allowsOverdamping: the real over-damped motion, which settles far later (3.5 s by the 0.1 s grid rule).
    let over = ClosedFormSpring(mass: 3, stiffness: 1000, damping: 500)
    #expect(over.settlingDuration > 3)
    try check(
      Form(
        description: "spring(3 1000 500 0) allowing over-damping",
        params: Self.physical(3, 1000, 500, 0, overdamping: true),
        progress: { over.progress($0, duration: over.settlingDuration) }, duration: over.settlingDuration))
    // The over-damped closed form is not the critical one: the clamp really changes the motion.
    #expect(abs(over.displacement(0.3) - critical.displacement(0.3)) > 0.3)
  }

  // MARK: - UIKit: damping ratio, duration, initial velocity

  @Test func dampingRatioSpringsLastExactlyTheirDuration() throws {
    for (zeta, duration) in [(0.3, 1.0), (0.5, 0.5), (0.8, 1.2), (1.0, 0.4)] {
      let spring = UIKitSpring(dampingRatio: zeta, duration: duration)
      try check(
        Form(
          description: "ζ \(zeta), \(duration) s", params: Self.ratio(zeta, 0, duration: duration),
          progress: spring.progress, duration: duration))
    }
  }

  /// With a velocity the mapping is Framer's, written out in TestSupport's `UIKitSpring` (its Newton solve for a
  /// spring thrown away from the target; the at-rest stiffness for one thrown toward it no faster than 2ζω₀).
  @Test func dampingRatioSpringsWithAnInitialVelocity() throws {
    for (zeta, v, duration) in [(0.6, -2.0, 0.8), (1.0, -4, 0.5), (0.3, -1, 1), (0.5, 1.5, 0.5), (1.0, 3, 0.6)] {
      let spring = UIKitSpring(dampingRatio: zeta, duration: duration, initialVelocity: v)
      try check(
        Form(
          description: "ζ \(zeta), v \(v), \(duration) s", params: Self.ratio(zeta, v, duration: duration),
          progress: spring.progress, duration: duration))
    }
  }

  // MARK: - iOS 17: duration and bounce

  /// spring(duration: d, bounce: b): d is perceptual (ω₀ = 2π/d); the block, and its completion, last the settling
  /// duration. bounce < 0 is really over-damped (ζ = 1/(1 + b)).
  @Test func durationAndBounceSpringsLastTheirSettlingDuration() throws {
    for b in [-0.5, 0, 0.3, 0.7] {
      let spring = BounceSpring(duration: 1, bounce: b)
      try check(
        Form(
          description: "bounce \(b), d 1", params: Self.bounce(b, perceptual: 1), progress: spring.progress,
          duration: spring.duration))
    }
    let thrown = BounceSpring(duration: 0.5, bounce: 0.3, initialVelocity: 2)
    try check(
      Form(
        description: "bounce 0.3, d 0.5, v 2", params: Self.bounce(0.3, 2, perceptual: 0.5), progress: thrown.progress,
        duration: thrown.duration))
    // bounce −0.5 is ζ = 2: the over-damped form, not the critical one with the same ω₀.
    let over = BounceSpring(duration: 1, bounce: -0.5)
    let critical = ClosedFormSpring(omega: 2 * Double.pi, zeta: 1)
    #expect(abs(over.displacement(0.5) - critical.displacement(0.5)) > 0.05)
    // Bounce 1 never settles: the block is refused, and says so.
    let host = try Host()
    let refused = try host.run(Self.bounce(1, perceptual: 1))
    try refused.start()
    #expect(host.notes() == ["animate TH_ERR_INVALID_VALUE"])
    #expect(refused.misbehaviors.map(\.message).contains { $0.contains("bounce") && $0.contains("never settles") })
  }

  // MARK: - ABI 1.0 plugins

  /// A plugin that declares ABI 1.0 gets the default: its timing's flags word (1.0's reserved[0]) is not read, so
  /// spring(3 1000 500 0) moves critically damped even when that word is non-zero.
  @Test func aPluginBuiltAgainstABI10GetsTheCriticalClamp() throws {
    let host = try Host()
    #expect(host.registry.plugins.first { $0.info.id == "com.example.test.springs10" }?.info.abi.minor == 0)
    let omega = (1000.0 / 3).squareRoot()
    let critical: (Double) -> Double = { t in t <= 0 ? 0 : (t < 0.6 ? 1 - (1 + omega * t) * exp(-omega * t) : 1) }
    for overdamping in [false, true] {
      try check(
        Form(
          description: "1.0 plugin, spring(3 1000 500 0), flags word \(overdamping ? 1 : 0)",
          params: Self.physical(3, 1000, 500, 0, overdamping: overdamping), progress: critical, duration: 0.6),
        plugin: "com.example.test.springs10")
    }
    // And its other forms run as the 1.1 plugin's do.
    let bounce = BounceSpring(duration: 1, bounce: 0.3)
    try check(
      Form(
        description: "1.0 plugin, bounce 0.3", params: Self.bounce(0.3, perceptual: 1), progress: bounce.progress,
        duration: bounce.duration),
      plugin: "com.example.test.springs10")
  }
}
