import CTransitionABI
import TransitionEngine

// Animation blocks, keyframes, alongside animations and custom drivers of the host API.

extension PluginAnimator {
  /// The timing flags this host knows (ABI 1.1).
  static let knownTimingFlags = UInt32(TH_TIMING_ALLOWS_OVERDAMPING)

  /// The engine timing of an ABI timing, and the duration a block with it lasts (0 = applied at once): a curve or
  /// a UIKit spring lasts `duration`, a physical spring `duration` or (automatic) its settling duration, a bounce
  /// spring, whose `duration` is its perceptual duration, its settling duration.
  ///
  /// - Parameters:
  ///   - duration: the block's duration (seconds ≥ 0, or `TH_DURATION_AUTOMATIC` with a physical spring).
  ///   - abi: the ABI the plugin declared; `flags` (1.0's reserved[0]) is read only from 1.1 on, so a 1.0 plugin
  ///     gets the defaults whatever it left there.
  static func timing(_ t: th_timing, duration: Double, abi: ABIVersion) throws(HostFailure) -> (AnimationTiming, Double)
  {
    let automatic = duration == TH_DURATION_AUTOMATIC
    guard automatic || (duration.isFinite && duration >= 0) else {
      throw .invalidValue("duration", "duration \(duration) is not a finite number ≥ 0")
    }
    if automatic && t.kind != TH_TIMING_SPRING_PHYSICAL {
      throw .invalidValue("duration", "TH_DURATION_AUTOMATIC needs a TH_TIMING_SPRING_PHYSICAL timing")
    }
    let flags = abi.minor >= 1 ? t.flags : 0
    guard flags & ~Self.knownTimingFlags == 0 else {
      throw .unsupported(
        "timing.flags", "unknown th_timing flags 0x\(String(flags & ~Self.knownTimingFlags, radix: 16))")
    }
    let allowsOverdamping = flags & UInt32(TH_TIMING_ALLOWS_OVERDAMPING) != 0
    // Springs are checked with a positive duration even when the block has none (its writes apply at once).
    let springDuration = duration > 0 ? duration : 1
    switch t.kind {
    case TH_TIMING_CURVE:
      return (.curve(try curve(t)), duration)
    case TH_TIMING_SPRING:
      let s = try Self.spring { () throws(SpringError) in
        try Spring.validated(
          dampingRatio: t.damping_ratio, initialVelocity: t.initial_velocity, duration: springDuration)
      }
      return (.spring(s), duration)
    case TH_TIMING_SPRING_PHYSICAL:
      let s = try Self.spring { () throws(SpringError) in
        try Spring.validated(
          mass: t.mass, stiffness: t.stiffness, damping: t.damping, initialVelocity: t.initial_velocity,
          duration: automatic ? nil : springDuration, allowsOverdamping: allowsOverdamping)
      }
      if automatic {
        guard t.damping > 0 else {
          throw .invalidValue("timing.damping", "an undamped spring never settles: give it a duration")
        }
        return (.spring(s), s.duration)
      }
      return (.spring(s), duration)
    case TH_TIMING_SPRING_BOUNCE:
      // `duration` is perceptual; the block lasts the settling duration, which bounce 1 (undamped) never reaches.
      let s = try Self.spring { () throws(SpringError) in
        try Spring.validated(duration: springDuration, bounce: t.bounce, initialVelocity: t.initial_velocity)
      }
      guard t.bounce < 1 else {
        throw .invalidValue("timing.bounce", "bounce 1 (undamped) never settles: the block would never end")
      }
      return (.spring(s), duration > 0 ? s.duration : 0)
    default:
      throw .unsupported("timing.kind", "unknown th_timing_kind \(t.kind.rawValue)")
    }
  }

  /// A spring made by a `Spring.validated…` call, its rejection as TH_ERR_INVALID_VALUE naming the parameter.
  static func spring(_ make: () throws(SpringError) -> Spring) throws(HostFailure) -> Spring {
    do {
      return try make()
    } catch {
      switch error {
      case .nonFinite(let parameter):
        throw .invalidValue("timing.\(parameter)", "spring \(parameter) is not finite")
      case .outOfRange(let parameter, let value):
        throw .invalidValue("timing.\(parameter)", "spring \(parameter) \(value) is out of range")
      }
    }
  }

  /// The engine curve of a `TH_TIMING_CURVE` timing.
  static func curve(_ t: th_timing) throws(HostFailure) -> TimingCurve {
    switch t.curve {
    case TH_CURVE_EASE_IN_OUT: return .easeInOut
    case TH_CURVE_EASE_IN: return .easeIn
    case TH_CURVE_EASE_OUT: return .easeOut
    case TH_CURVE_LINEAR: return .linear
    case TH_CURVE_DEFAULT: return .default
    case TH_CURVE_BEZIER:
      let p = t.control_points
      do {
        return try TimingCurve.validatedBezier(p.0, p.1, p.2, p.3)
      } catch {
        throw .invalidValue(
          "timing.control_points",
          "Bézier control points (\(p.0), \(p.1), \(p.2), \(p.3)): x1 and x2 must be in [0, 1], all finite")
      }
    case TH_CURVE_STEPS:
      let position: StepPosition
      switch t.step_position {
      case TH_STEP_END: position = .end
      case TH_STEP_START: position = .start
      default: throw .unsupported("timing.step_position", "unknown th_step_position \(t.step_position.rawValue)")
      }
      guard t.steps >= 1 else { throw .invalidValue("timing.steps", "steps \(t.steps) is below 1") }
      return .steps(Int(t.steps), position)
    default:
      throw .unsupported("timing.curve", "unknown th_curve \(t.curve.rawValue)")
    }
  }

  /// A delay: finite, ≥ 0.
  private static func delay(_ value: Double) throws(HostFailure) -> Double {
    guard value.isFinite, value >= 0 else { throw .invalidValue("delay", "delay \(value) is not a finite number ≥ 0") }
    return value
  }

  /// Counts one more block (TH_ERR_LIMIT past the limit).
  func countBlock() throws(HostFailure) {
    guard startedBlocks < Self.maximumBlocks else {
      throw .limit("animate", "more than \(Self.maximumBlocks) animation blocks in one transition")
    }
    startedBlocks += 1
  }

  /// A block call's arguments once checked.
  private struct CheckedBlock {
    var scene: Scene
    var timing: AnimationTiming
    var duration: Double
    var delay: Double
    var animations: th_animations_fn
  }

  /// The checks `animate` and `animateKeyframes` share after their own options, in one order so a call with
  /// several faults reports the same one from either: timing and duration, delay, the animations function, the
  /// phase, nesting, and last the block limit (so a refused call is not counted).
  private func checkBlock(
    _ timing: th_timing, duration: Double, delay: Double, _ animations: th_animations_fn?
  ) throws(HostFailure) -> CheckedBlock {
    let (checkedTiming, checkedDuration) = try Self.timing(timing, duration: duration, abi: generation.info.abi)
    let checkedDelay = try Self.delay(delay)
    guard let animations else { throw .null("animations") }
    let scene = try engineContext().scene
    try checkNesting()
    try countBlock()
    return CheckedBlock(
      scene: scene, timing: checkedTiming, duration: checkedDuration, delay: checkedDelay, animations: animations)
  }

  /// The engine closure that runs a plugin animations function in `phase`.
  func animationsBody(
    _ animations: th_animations_fn, _ userData: UnsafeMutableRawPointer?, _ phase: Phase
  ) -> () -> Void {
    let ctx = handle
    return { [unowned self] in
      self.callout(phase, phase == .keyframes ? .keyframes : .animations) { animations(ctx, userData) }
    }
  }

  // MARK: Blocks

  func animate(
    _ options: UnsafePointer<th_animation_options>?, _ animations: th_animations_fn?, _ completion: th_completion_fn?,
    _ userData: UnsafeMutableRawPointer?
  ) throws(HostFailure) -> th_status {
    try require(.animate)
    guard let options else { throw .null("options") }
    try checkStructSize(UnsafeRawPointer(options), minimum: MemoryLayout<th_animation_options>.size, "options")
    let o = options.pointee
    guard o.flags == 0 else { throw .unsupported("options.flags", "unknown option flags \(o.flags)") }
    let block = try checkBlock(o.timing, duration: o.duration, delay: o.delay, animations)
    block.scene.animate(
      duration: block.duration, delay: block.delay, timing: block.timing,
      animations: animationsBody(block.animations, userData, .animations), completion: owe(completion, userData))
    return TH_OK
  }

  func animateKeyframes(
    _ options: UnsafePointer<th_keyframe_options>?, _ animations: th_animations_fn?, _ completion: th_completion_fn?,
    _ userData: UnsafeMutableRawPointer?
  ) throws(HostFailure) -> th_status {
    try require(.animate)
    guard let options else { throw .null("options") }
    try checkStructSize(UnsafeRawPointer(options), minimum: MemoryLayout<th_keyframe_options>.size, "options")
    let o = options.pointee
    let mode: KeyframeCalculationMode
    switch o.calculation_mode {
    case TH_CALCULATION_LINEAR: mode = .linear
    case TH_CALCULATION_DISCRETE: mode = .discrete
    case TH_CALCULATION_PACED: mode = .paced
    case TH_CALCULATION_CUBIC: mode = .cubic
    case TH_CALCULATION_CUBIC_PACED: mode = .cubicPaced
    default:
      throw .unsupported("options.calculation_mode", "unknown th_calculation_mode \(o.calculation_mode.rawValue)")
    }
    let block = try checkBlock(o.timing, duration: o.duration, delay: o.delay, animations)
    block.scene.animateKeyframes(
      duration: block.duration, delay: block.delay, timing: block.timing, mode: mode,
      animations: animationsBody(block.animations, userData, .keyframes), completion: owe(completion, userData))
    return TH_OK
  }

  func addKeyframe(
    _ start: Double, _ length: Double, _ animations: th_animations_fn?, _ userData: UnsafeMutableRawPointer?
  ) throws(HostFailure) -> th_status {
    try require(.keyframe)
    guard start.isFinite, start >= 0, start <= 1 else {
      throw .invalidValue("relative_start", "relative_start \(start) is outside [0, 1]")
    }
    guard length.isFinite, length >= 0, start + length <= 1 + 1e-9 else {
      throw .invalidValue(
        "relative_duration", "relative_duration \(length) is negative, not finite, or ends past 1 (start \(start))")
    }
    guard let animations else { throw .null("animations") }
    let scene = try engineContext().scene
    try checkNesting()
    scene.addKeyframe(
      relativeStart: start, relativeDuration: min(length, 1 - start),
      animations: animationsBody(animations, userData, .animations))
    return TH_OK
  }

  func animateAlongside(
    _ animations: th_animations_fn?, _ completion: th_completion_fn?, _ userData: UnsafeMutableRawPointer?
  ) throws(HostFailure) -> th_status {
    try require(.animate)
    guard let animations else { throw .null("animations") }
    let context = try engineContext()
    try countBlock()
    let body = animationsBody(animations, userData, .animations)
    let done = owe(completion, userData)
    guard context.animateAlongside(body, completion: done) else {
      // The engine refused (the transition ended): a failed call owes no completion.
      if done != nil { forgiveLastOwed() }
      throw .wrongPhase("the transition has ended", kind: .callAfterCompletion)
    }
    return TH_OK
  }

  // MARK: Drivers

  func addDriver(
    _ options: UnsafePointer<th_driver_options>?, _ update: th_driver_update_fn?, _ completion: th_completion_fn?,
    _ userData: UnsafeMutableRawPointer?
  ) throws(HostFailure) -> th_status {
    try require(.animate)
    guard let options else { throw .null("options") }
    try checkStructSize(UnsafeRawPointer(options), minimum: MemoryLayout<th_driver_options>.size, "options")
    let o = options.pointee
    guard o.flags == 0 else { throw .unsupported("options.flags", "unknown driver flags \(o.flags)") }
    guard o.duration.isFinite, o.duration >= 0 else {
      throw .invalidValue("duration", "duration \(o.duration) is not a finite number ≥ 0")
    }
    let delay = try Self.delay(o.delay)
    guard let update else { throw .null("update") }
    let scene = try engineContext().scene
    try countBlock()
    let duration = o.duration
    let ctx = handle
    // The engine's driver starts now; a delay is the first part of it, during which nothing is written.
    scene.addDriver(
      duration: delay + duration,
      update: { [weak self] frame in
        guard let self, !self.isClosed, frame.elapsed >= delay else { return }
        let time = min(frame.elapsed - delay, duration)
        let fraction = duration > 0 ? time / duration : 1
        let outer = self.driverFrame
        self.driverFrame = frame
        self.callout(.driver, .driver) { update(ctx, time, fraction, userData) }
        self.driverFrame = outer
      }, completion: owe(completion, userData))
    return TH_OK
  }
}
