// The host extension "th.percent-driven/1" (ABI 1.2): UIPercentDrivenInteractiveTransition's control of the
// plugin's own transition, on the engine's percent-driven interaction (the same calls as the protocol's
// transition/update, pause, finish and cancel).

import CTransitionABI
import TransitionEngine

extension PluginAnimator {
  /// The scene of a scene context (th.scenes/1), else TH_ERR_WRONG_PHASE.
  func sceneOfContext() throws(HostFailure) -> PluginScene {
    guard let scene else { throw .wrongPhase("th.scenes/1 is called on a scene's context only") }
    return scene
  }

  /// The engine transition, for a call that moves it (phase: animate, animations).
  private func movableTransition() throws(HostFailure) -> Transition {
    try require(.animate)
    guard scene == nil else { throw .wrongPhase("a scene's context has no transition to move") }
    guard let transition = try engineContext().transition else {
      throw HostFailure(status: TH_ERR_STALE_HANDLE, kind: nil, detail: "the transition is gone")
    }
    return transition
  }

  func interactionUpdate(_ percent: Double) throws(HostFailure) -> th_status {
    let transition = try movableTransition()
    try Self.mapped { () throws(TransitionError) in _ = try transition.update(percent: percent) }
    return TH_OK
  }

  func interactionPause() throws(HostFailure) -> th_status {
    let transition = try movableTransition()
    try Self.mapped { () throws(TransitionError) in try transition.pause() }
    return TH_OK
  }

  func interactionFinish(_ options: UnsafePointer<th_interaction_completion>?) throws(HostFailure) -> th_status {
    let transition = try movableTransition()
    let (velocity, speed, curve) = try Self.completion(options)
    try Self.mapped { () throws(TransitionError) in
      try transition.finish(velocity: velocity, speed: speed, curve: curve)
    }
    return TH_OK
  }

  func interactionCancel(_ options: UnsafePointer<th_interaction_completion>?) throws(HostFailure) -> th_status {
    let transition = try movableTransition()
    let (velocity, speed, curve) = try Self.completion(options)
    try Self.mapped { () throws(TransitionError) in
      try transition.cancel(velocity: velocity, speed: speed, curve: curve)
    }
    return TH_OK
  }

  func interactionStatus(_ out: UnsafeMutablePointer<th_interaction_status>?) throws(HostFailure) -> th_status {
    try require(.read)
    guard let out else { throw .null("out_status") }
    guard let transition = try engineContext().transition else {
      throw HostFailure(status: TH_ERR_STALE_HANDLE, kind: nil, detail: "the transition is gone")
    }
    let state: th_interaction_state
    switch transition.state {
    case .paused, .idle: state = TH_INTERACTION_PAUSED
    case .finishing: state = TH_INTERACTION_FINISHING
    case .cancelling: state = TH_INTERACTION_CANCELLING
    case .running, .ended: state = TH_INTERACTION_RUNNING
    }
    out.pointee = th_interaction_status(
      struct_size: UInt32(MemoryLayout<th_interaction_status>.size), state: state, percent: transition.percent,
      duration: transition.duration, time: transition.time, is_interactive: transition.isInteractive)
    return TH_OK
  }

  /// The velocity, speed and curve of a finish or cancel; nil for the transition's own defaults.
  private static func completion(
    _ options: UnsafePointer<th_interaction_completion>?
  ) throws(HostFailure) -> (Double, Double?, TimingCurve?) {
    guard let options else { return (0, nil, nil) }
    let size = Int(options.pointee.struct_size)
    guard size >= MemoryLayout<th_interaction_completion>.size else {
      throw .invalidArgument(
        "options.struct_size",
        "options.struct_size \(size) is below sizeof(th_interaction_completion) = \(MemoryLayout<th_interaction_completion>.size)"
      )
    }
    let o = options.pointee
    let known = TH_COMPLETION_SPEED | TH_COMPLETION_TIMING
    guard o.flags & ~known == 0 else {
      throw .unsupported("options.flags", "options.flags has unknown bits 0x\(String(o.flags & ~known, radix: 16))")
    }
    guard o.velocity.isFinite else {
      throw .invalidValue("options.velocity", "options.velocity \(o.velocity) is not finite")
    }
    var speed: Double?
    if o.flags & TH_COMPLETION_SPEED != 0 {
      guard o.completion_speed.isFinite, o.completion_speed > 0 else {
        throw .invalidValue(
          "options.completion_speed", "options.completion_speed \(o.completion_speed) is not finite and > 0")
      }
      speed = o.completion_speed
    }
    var curve: TimingCurve?
    if o.flags & TH_COMPLETION_TIMING != 0 {
      guard o.timing.kind == TH_TIMING_CURVE else {
        throw .unsupported(
          "options.timing.kind",
          "options.timing.kind must be TH_TIMING_CURVE: a finish or cancel tail follows a curve (a spring tail comes "
            + "from options.velocity)")
      }
      curve = try Self.curve(o.timing)
    }
    return (o.velocity, speed, curve)
  }

  /// Runs an engine call, its refusal as a host failure (a state that does not allow it is the wrong phase).
  private static func mapped(_ body: () throws(TransitionError) -> Void) throws(HostFailure) {
    do throws(TransitionError) { try body() } catch {
      switch error {
      case .invalidValue(let field, let reason): throw .invalidValue(field, "\(field) \(reason)")
      default: throw .wrongPhase("\(error)")
      }
    }
  }
}
