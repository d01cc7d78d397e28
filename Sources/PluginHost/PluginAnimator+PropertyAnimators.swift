import CTransitionABI
import TransitionEngine

// ABI 1.2 — property animators: the host extension "th.property-animators/1" bound to the engine's PropertyAnimator.

extension PluginAnimator {
  /// Property animators one transition may create (TH_ERR_LIMIT beyond).
  static let maximumPropertyAnimators = 10_000
  /// Set in a property animator handle's low word, so a view handle is never taken for one (views count from 1 and
  /// stay far below 2³¹).
  static let propertyAnimatorTag: UInt64 = 1 << 31

  /// The handle of the animator at `index` in this transition.
  func propertyAnimatorHandle(_ index: Int) -> th_property_animator {
    th_property_animator(id: handle.id << 32 | Self.propertyAnimatorTag | UInt64(index))
  }

  /// The animator behind a handle: another live transition's is invalid here, an ended one's stale.
  func propertyAnimator(_ animator: th_property_animator, _ field: String) throws(HostFailure) -> PropertyAnimator {
    let owner = animator.id >> 32
    let low = animator.id & 0xFFFF_FFFF
    if owner == handle.id, low & Self.propertyAnimatorTag != 0 {
      let index = Int(low & ~Self.propertyAnimatorTag)
      if index < propertyAnimators.count { return propertyAnimators[index] }
    }
    if owner != handle.id, owner != 0, case .stale = ContextDirectory.shared.lookup(th_context(id: owner)) {
      throw HostFailure(
        status: TH_ERR_STALE_HANDLE, kind: .invalidValue(field: field),
        detail: "\(field) \(animator.id) is a property animator of a transition that has ended")
    }
    throw HostFailure(
      status: TH_ERR_INVALID_HANDLE, kind: .invalidValue(field: field),
      detail: "\(field) \(animator.id) is not a property animator of this transition")
  }

  /// The engine timing of a `th_property_animator_timing`.
  static func propertyAnimatorTiming(
    _ pointer: UnsafePointer<th_property_animator_timing>?, _ field: String
  ) throws(HostFailure) -> PropertyAnimatorTiming {
    guard let pointer else { throw .null(field) }
    guard Int(pointer.pointee.struct_size) >= MemoryLayout<th_property_animator_timing>.size else {
      throw .invalidArgument(
        "\(field).struct_size",
        "\(field).struct_size \(pointer.pointee.struct_size) is smaller than th_property_animator_timing "
          + "(\(MemoryLayout<th_property_animator_timing>.size))")
    }
    let t = pointer.pointee.timing
    guard t.flags == 0 else {
      throw .unsupported("timing.flags", "a property animator's spring takes no th_timing flags (\(t.flags))")
    }
    switch t.kind {
    case TH_TIMING_CURVE:
      return .curve(try curve(t))
    case TH_TIMING_SPRING:
      _ = try spring { () throws(SpringError) in
        try Spring.validated(dampingRatio: t.damping_ratio, initialVelocity: t.initial_velocity, duration: 1)
      }
      return .dampingRatio(t.damping_ratio, initialVelocity: t.initial_velocity)
    case TH_TIMING_SPRING_PHYSICAL:
      _ = try spring { () throws(SpringError) in
        try Spring.validated(
          mass: t.mass, stiffness: t.stiffness, damping: t.damping, initialVelocity: t.initial_velocity)
      }
      guard t.damping > 0 else {
        throw .invalidValue("timing.damping", "an undamped spring never settles: a property animator would never end")
      }
      return .physical(mass: t.mass, stiffness: t.stiffness, damping: t.damping, initialVelocity: t.initial_velocity)
    case TH_TIMING_SPRING_BOUNCE:
      let d = pointer.pointee.perceptual_duration
      _ = try spring { () throws(SpringError) in
        try Spring.validated(duration: d, bounce: t.bounce, initialVelocity: t.initial_velocity)
      }
      guard t.bounce < 1 else {
        throw .invalidValue("timing.bounce", "bounce 1 (undamped) never settles: the animator would never end")
      }
      return .bounce(duration: d, bounce: t.bounce, initialVelocity: t.initial_velocity)
    default:
      throw .unsupported("timing.kind", "unknown th_timing_kind \(t.kind.rawValue)")
    }
  }

  /// Runs an engine call, its refusal as TH_ERR_WRONG_PHASE (a state rule) or TH_ERR_INVALID_VALUE.
  private func engine(_ body: () throws(PropertyAnimatorError) -> Void) throws(HostFailure) -> th_status {
    do {
      try body()
    } catch {
      switch error {
      case .wrongState(let reason): throw .wrongPhase(reason)
      case .invalidValue(let field, let reason): throw .invalidValue(field, "\(field) \(reason)")
      }
    }
    return TH_OK
  }

  // MARK: The extension's functions

  func createPropertyAnimator(
    _ duration: Double, _ timing: UnsafePointer<th_property_animator_timing>?,
    _ out: UnsafeMutablePointer<th_property_animator>?
  ) throws(HostFailure) -> th_status {
    try require(.animate)
    guard let out else { throw .null("out_animator") }
    guard duration.isFinite, duration >= 0 else {
      throw .invalidValue("duration", "duration \(duration) is not a finite number ≥ 0")
    }
    let checked = try Self.propertyAnimatorTiming(timing, "timing")
    let scene = try engineContext().scene
    guard propertyAnimators.count < Self.maximumPropertyAnimators else {
      throw .limit("create", "more than \(Self.maximumPropertyAnimators) property animators in one transition")
    }
    var made: PropertyAnimator?
    let status = try engine { () throws(PropertyAnimatorError) in
      made = try PropertyAnimator(scene: scene, duration: duration, timing: checked)
    }
    propertyAnimators.append(made!)
    out.pointee = propertyAnimatorHandle(propertyAnimators.count - 1)
    return status
  }

  func addPropertyAnimations(
    _ animator: th_property_animator, _ delayFactor: Double, _ animations: th_animations_fn?,
    _ userData: UnsafeMutableRawPointer?
  ) throws(HostFailure) -> th_status {
    try require(.animate)
    let target = try propertyAnimator(animator, "animator")
    guard let animations else { throw .null("animations") }
    try countBlock()
    let body = animationsBody(animations, userData, .animations)
    return try engine { () throws(PropertyAnimatorError) in try target.addAnimations(delayFactor: delayFactor, body) }
  }

  func addPropertyCompletion(
    _ animator: th_property_animator, _ completion: th_animator_completion_fn?, _ userData: UnsafeMutableRawPointer?
  ) throws(HostFailure) -> th_status {
    try require(.animate)
    let target = try propertyAnimator(animator, "animator")
    guard let completion else { throw .null("completion") }
    let token = nextAnimatorCompletionToken
    nextAnimatorCompletionToken += 1
    let index = Int(animator.id & 0xFFFF_FFFF & ~Self.propertyAnimatorTag)
    animatorCompletions[token] = PendingAnimatorCompletion(function: completion, userData: userData, animator: index)
    target.addCompletion { [weak self] position in
      self?.fireAnimatorCompletion(token, position: position, finished: true, phase: .animate)
    }
    return TH_OK
  }

  func drivePropertyAnimator(
    _ animator: th_property_animator, _ body: (PropertyAnimator) throws(PropertyAnimatorError) -> Void
  ) throws(HostFailure) -> th_status {
    try require(.animate)
    let target = try propertyAnimator(animator, "animator")
    return try engine { () throws(PropertyAnimatorError) in try body(target) }
  }

  func stopPropertyAnimator(_ animator: th_property_animator, _ withoutFinishing: Bool) throws(HostFailure)
    -> th_status
  {
    let status = try drivePropertyAnimator(animator) { (a) throws(PropertyAnimatorError) in
      try a.stopAnimation(withoutFinishing: withoutFinishing)
    }
    if withoutFinishing {
      // UIKit never calls these completions; the ABI still calls each once, unfinished, so user data is freed.
      let index = Int(animator.id & 0xFFFF_FFFF & ~Self.propertyAnimatorTag)
      for token in animatorCompletions.filter({ $0.value.animator == index }).keys.sorted() {
        fireAnimatorCompletion(token, position: .current, finished: false, phase: .animate)
      }
    }
    return status
  }

  func continuePropertyAnimator(
    _ animator: th_property_animator, _ timing: UnsafePointer<th_property_animator_timing>?, _ factor: Double
  ) throws(HostFailure) -> th_status {
    let checked = try timing.map { (t) throws(HostFailure) in try Self.propertyAnimatorTiming(t, "timing") }
    return try drivePropertyAnimator(animator) { (a) throws(PropertyAnimatorError) in
      try a.continueAnimation(timing: checked, durationFactor: factor)
    }
  }

  func readPropertyAnimator<T>(
    _ animator: th_property_animator, _ out: UnsafeMutablePointer<T>?, _ field: String,
    _ read: (PropertyAnimator) throws(HostFailure) -> T
  ) throws(HostFailure) -> th_status {
    try require(.read)
    let target = try propertyAnimator(animator, "animator")
    guard let out else { throw .null(field) }
    out.pointee = try read(target)
    return TH_OK
  }

  func propertyAnimatorFlag(_ a: PropertyAnimator, _ flag: th_animator_flag) throws(HostFailure) -> Bool {
    switch flag {
    case TH_ANIMATOR_IS_RUNNING: return a.isRunning
    case TH_ANIMATOR_IS_REVERSED: return a.isReversed
    case TH_ANIMATOR_SCRUBS_LINEARLY: return a.scrubsLinearly
    case TH_ANIMATOR_PAUSES_ON_COMPLETION: return a.pausesOnCompletion
    case TH_ANIMATOR_IS_INTERRUPTIBLE: return a.isInterruptible
    default: throw .unsupported("flag", "unknown th_animator_flag \(flag.rawValue)")
    }
  }

  func setPropertyAnimatorFlag(_ animator: th_property_animator, _ flag: th_animator_flag, _ value: Bool)
    throws(HostFailure) -> th_status
  {
    guard flag.rawValue >= TH_ANIMATOR_IS_REVERSED.rawValue, flag.rawValue <= TH_ANIMATOR_IS_INTERRUPTIBLE.rawValue
    else {
      throw .unsupported("flag", "th_animator_flag \(flag.rawValue) is read-only or unknown")
    }
    return try drivePropertyAnimator(animator) { (a) throws(PropertyAnimatorError) in
      switch flag {
      case TH_ANIMATOR_IS_REVERSED: try a.setReversed(value)
      case TH_ANIMATOR_SCRUBS_LINEARLY: a.scrubsLinearly = value
      case TH_ANIMATOR_PAUSES_ON_COMPLETION: a.pausesOnCompletion = value
      case TH_ANIMATOR_IS_INTERRUPTIBLE: try a.setInterruptible(value)
      default: break
      }
    }
  }

  /// Calls an owed animator completion once.
  func fireAnimatorCompletion(_ token: Int, position: AnimatingPosition, finished: Bool, phase: Phase) {
    guard !isClosed, let owed = animatorCompletions.removeValue(forKey: token) else { return }
    let abiPosition = th_animating_position(rawValue: UInt32(position.rawValue))
    callout(phase, .completion) { owed.function(handle, abiPosition, finished, owed.userData) }
  }
}
