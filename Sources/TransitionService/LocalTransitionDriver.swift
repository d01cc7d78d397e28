// A transition whose engine and animator run in this process: the driver `TransitionFactory` makes. In-process clients
// that need the engine itself (the validator's checks, the animator tests, the benchmarks) reach it through
// `transition`; the session only ever uses the `TransitionDriver` protocol.

import JSON
import TransitionEngine

/// An engine `Transition` and the animator instance that runs it, in this process.
package final class LocalTransitionDriver: TransitionDriver {
  /// The engine transition (for in-process clients; the session goes through the protocol).
  package let transition: Transition
  /// The animator instance, and what keeps its plugin loaded until the transition is released.
  package let binding: AnimatorBinding
  /// Writes the frames (each view's `content` serialized once, the delta baseline).
  private var encoder: FrameEncoder
  /// Where the presentation is sampled for each frame (shared by the factory's drivers).
  private let scratch: FrameScratch
  package var onEvent: (TransitionEvent) -> Void = { _ in }

  /// Wraps `transition`, made by `binding`'s animator; routes the engine's callbacks to `onEvent`.
  init(transition: Transition, binding: AnimatorBinding, contents: [String: JSON], scratch: FrameScratch) {
    self.transition = transition
    self.binding = binding
    self.encoder = FrameEncoder(contents: contents)
    self.scratch = scratch
    transition.scene.presentationScratch = scratch.presentation
    transition.onEnd = { [unowned self] in onEvent(.ended($0)) }
    transition.onMisbehavior = { [unowned self] in onEvent(.misbehaved($0)) }
    let previous = transition.scene.onMisuse  // a scene the caller built may report to it as well
    transition.scene.onMisuse = { [unowned self] misuse in
      previous?(misuse)
      onEvent(.misusedViewModel("\(misuse)"))
    }
  }

  package var animator: AnimatorEntry { binding.entry }
  package var operation: String { transition.operation.name }

  /// The engine animator (a `PluginAnimator` for a plugin's animator).
  package var engineAnimator: any TransitionAnimator { binding.animator }

  package var status: TransitionStatus {
    TransitionStatus(
      state: transition.state, time: transition.time, percent: transition.percent, duration: transition.duration,
      isInteractive: transition.isInteractive, nextEventIn: transition.clockTimeUntilNextEvent)
  }

  package func start() throws(TransitionError) {
    try transition.start()
  }

  package func perform(_ command: TransitionCommand) throws(TransitionError) -> TransitionCommandResult {
    switch command {
    case .update(let percent): _ = try transition.update(percent: percent)
    case .pause: try transition.pause()
    case .finish(let velocity, let speed, let curve):
      try transition.finish(velocity: velocity, speed: speed, curve: curve)
    case .cancel(let velocity, let speed, let curve):
      try transition.cancel(velocity: velocity, speed: speed, curve: curve)
    case .release(let velocity): return .released(try transition.release(velocity: velocity))
    case .reverse: _ = try transition.reverse()
    case .advance(let seconds): try transition.advance(by: seconds)
    }
    return .done
  }

  package func terminate(reason: String) {
    transition.terminate(reason: reason)
  }

  package func streamFrame(
    _ stamp: FrameStamp, mode: FrameMode, precision: FramePrecision?, into message: inout [UInt8]
  ) {
    transition.scene.presentation(at: transition.time, into: &scratch.states)
    precision?.apply(to: &scratch.states)
    encoder.appendNotification(stamp, mode: mode, states: scratch.states, to: &message)
  }

  package func sampleFrame(_ stamp: FrameStamp, at time: Double, precision: FramePrecision?, into text: inout [UInt8]) {
    transition.scene.presentation(at: time, into: &scratch.states)
    precision?.apply(to: &scratch.states)
    encoder.appendObject(stamp, states: scratch.states, to: &text)
  }
}
