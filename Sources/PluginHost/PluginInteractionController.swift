import CTransitionABI
import TransitionEngine

/// The engine's interaction controller for an animator that offers "th.interaction-controller/1" (ABI 1.2) and
/// answered TH_INTERACTION_CONTROLLER for its transition.
///
/// Only the functions within the table's `struct_size` are read. The plugin's answers are data to check: an unknown
/// delivery value, or a received count of 0 with TH_GESTURE_RECEIVED, is reported as misbehaviour.
final class PluginInteractionController: InteractionControllerBehavior {
  /// The plugin's table, read once.
  struct Table {
    let interactionController: (@convention(c) (UnsafeMutableRawPointer?, th_context) -> UInt32)?
    let handleGesture:
      (
        @convention(c) (
          UnsafeMutableRawPointer?, th_context, UnsafePointer<th_gesture_sample>?, th_view,
          UnsafeMutablePointer<UInt32>?
        ) -> th_gesture_delivery
      )?

    /// `table` as the plugin returned it from `get_extension`.
    init(_ table: UnsafeRawPointer) {
      let size = Int(table.load(as: UInt32.self))
      func field<T>(_ path: KeyPath<th_interaction_controller, T?>) -> T? {
        guard let offset = MemoryLayout<th_interaction_controller>.offset(of: path),
          offset + MemoryLayout<T?>.size <= size
        else { return nil }
        return table.load(fromByteOffset: offset, as: T?.self)
      }
      interactionController = field(\.interaction_controller)
      handleGesture = field(\.handle_gesture)
    }
  }

  private unowned let animator: PluginAnimator
  private let handleGesture:
    @convention(c) (
      UnsafeMutableRawPointer?, th_context, UnsafePointer<th_gesture_sample>?, th_view, UnsafeMutablePointer<UInt32>?
    ) -> th_gesture_delivery
  let wantsInteractiveStart: Bool

  private init(
    animator: PluginAnimator,
    handleGesture:
      @escaping @convention(c) (
        UnsafeMutableRawPointer?, th_context, UnsafePointer<th_gesture_sample>?, th_view, UnsafeMutablePointer<UInt32>?
      ) -> th_gesture_delivery, wantsInteractiveStart: Bool
  ) {
    self.animator = animator
    self.handleGesture = handleGesture
    self.wantsInteractiveStart = wantsInteractiveStart
  }

  /// Asks the plugin's `interaction_controller` (phase: duration); nil when it has none for this transition.
  static func ask(_ table: Table, animator: PluginAnimator) -> PluginInteractionController? {
    guard let ask = table.interactionController, let handleGesture = table.handleGesture else { return nil }
    var bits: UInt32 = 0
    let ctx = animator.handle
    animator.callout(.duration, .interactionController) { bits = ask(animator.instanceState, ctx) }
    let known = TH_INTERACTION_CONTROLLER | TH_INTERACTION_WANTS_INTERACTIVE_START
    if bits & ~known != 0 {
      animator.report(
        .invalidValue(field: "interaction_controller"),
        "interaction_controller returned unknown bits 0x\(String(bits & ~known, radix: 16)); they are ignored")
    }
    guard bits & TH_INTERACTION_CONTROLLER != 0 else { return nil }
    return PluginInteractionController(
      animator: animator, handleGesture: handleGesture,
      wantsInteractiveStart: bits & TH_INTERACTION_WANTS_INTERACTIVE_START != 0)
  }

  func deliverGesture(_ sample: GestureSample, hitView: View?, context: TransitionContext) -> GestureDelivery {
    // After complete_transition the recognizers' handlers could only misuse the transition.
    guard !animator.isClosed, !animator.completed else { return .notInProgress }
    let hit = hitView.map { animator.viewHandle($0) } ?? th_view(id: 0)
    return Self.deliver(sample, hit: hit, to: handleGesture, of: animator, as: .interactionController)
  }

  /// Calls a plugin's gesture function (an interaction controller's or a scene controller's `handle_gesture`, the same
  /// signature) in the animate phase and checks its answer: an unknown delivery value, or a received count of 0 with
  /// TH_GESTURE_RECEIVED, is reported as misbehaviour.
  static func deliver(
    _ sample: GestureSample, hit: th_view,
    to handleGesture:
      @convention(c) (
        UnsafeMutableRawPointer?, th_context, UnsafePointer<th_gesture_sample>?, th_view, UnsafeMutablePointer<UInt32>?
      ) -> th_gesture_delivery, of animator: PluginAnimator, as call: PluginCall
  ) -> GestureDelivery {
    var abiSample = th_gesture_sample(
      state: sample.state.abi, reserved: 0, location: sample.location.abi, translation: sample.translation.abi,
      velocity: sample.velocity.abi)
    var received: UInt32 = 0
    var delivery = TH_GESTURE_NOT_HIT
    let ctx = animator.handle
    animator.callout(.animate, call) {
      delivery = handleGesture(animator.instanceState, ctx, &abiSample, hit, &received)
    }
    switch delivery {
    case TH_GESTURE_RECEIVED:
      guard received > 0 else {
        animator.report(
          .invalidValue(field: "handle_gesture"),
          "handle_gesture answered TH_GESTURE_RECEIVED with 0 recognizers; taken as 1")
        return .received(recognizers: 1)
      }
      return .received(recognizers: Int(received))
    case TH_GESTURE_NO_RECOGNIZERS: return .noRecognizers
    case TH_GESTURE_NOT_HIT: return .notHit
    case TH_GESTURE_NOT_IN_PROGRESS: return .notInProgress
    default:
      animator.report(
        .invalidValue(field: "handle_gesture"),
        "handle_gesture returned \(delivery.rawValue), not a th_gesture_delivery; taken as TH_GESTURE_NOT_HIT")
      return .notHit
    }
  }
}

extension GestureSample.State {
  var abi: th_gesture_state {
    switch self {
    case .began: TH_GESTURE_BEGAN
    case .changed: TH_GESTURE_CHANGED
    case .ended: TH_GESTURE_ENDED
    case .cancelled: TH_GESTURE_CANCELLED
    }
  }
}
