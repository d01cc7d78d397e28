import CTransitionABI
import TransitionEngine

/// The engine's presentation controller for an animator that offers "th.presentation-controller/1".
///
/// Only the functions within the table's `struct_size` are read; a NULL (or missing) function means UIKit's
/// default. Each call runs in the phase the header gives it.
final class PluginPresentationController: PresentationControllerBehavior {
  private unowned let animator: PluginAnimator
  private let frameOfPresentedViewFunction:
    (@convention(c) (UnsafeMutableRawPointer?, th_context, th_rect, UnsafeMutablePointer<th_rect>?) -> Bool)?
  private let shouldRemoveFunction: (@convention(c) (UnsafeMutableRawPointer?, th_context) -> Bool)?
  private let willBegin: [Bool: @convention(c) (UnsafeMutableRawPointer?, th_context) -> Void]
  private let didEnd: [Bool: @convention(c) (UnsafeMutableRawPointer?, th_context, Bool) -> Void]

  /// `table` as the plugin returned it from `get_extension`.
  init(animator: PluginAnimator, table: UnsafeRawPointer) {
    self.animator = animator
    let size = Int(table.load(as: UInt32.self))
    // A field is read only when it lies within struct_size: the table may be smaller than this host's, and
    // the memory after it need not be readable.
    func field<T>(_ path: KeyPath<th_presentation_controller, T?>) -> T? {
      guard let offset = MemoryLayout<th_presentation_controller>.offset(of: path),
        offset + MemoryLayout<T?>.size <= size
      else { return nil }
      return table.load(fromByteOffset: offset, as: T?.self)
    }
    frameOfPresentedViewFunction = field(\.frame_of_presented_view)
    shouldRemoveFunction = field(\.should_remove_presenters_view)
    var willBegin: [Bool: @convention(c) (UnsafeMutableRawPointer?, th_context) -> Void] = [:]
    var didEnd: [Bool: @convention(c) (UnsafeMutableRawPointer?, th_context, Bool) -> Void] = [:]
    // Keys: true = presentation, false = dismissal.
    willBegin[true] = field(\.presentation_transition_will_begin)
    willBegin[false] = field(\.dismissal_transition_will_begin)
    didEnd[true] = field(\.presentation_transition_did_end)
    didEnd[false] = field(\.dismissal_transition_did_end)
    self.willBegin = willBegin
    self.didEnd = didEnd
  }

  /// The context handle, or {0} while the transition has not handed its context over.
  private var ctx: th_context { animator.context == nil ? th_context(id: 0) : animator.handle }

  func frameOfPresentedView(containerBounds: Rect) -> Rect? {
    guard let function = frameOfPresentedViewFunction, !animator.isClosed else { return nil }
    var out = th_rect()
    var answered = false
    let ctx = self.ctx
    animator.callout(.duration, .presentationController) {
      answered = function(animator.instanceState, ctx, containerBounds.abi, &out)
    }
    guard answered else { return nil }
    let frame = Rect(out)
    guard frame.isFinite, frame.size.width >= 0, frame.size.height >= 0 else {
      animator.report(
        .invalidValue(field: "frameOfPresentedView"),
        "frame_of_presented_view returned \(frame): not finite, or a negative size; using the container's bounds")
      return nil
    }
    return frame
  }

  var shouldRemovePresentersView: Bool {
    guard let function = shouldRemoveFunction, !animator.isClosed else { return false }
    var answer = false
    let ctx = self.ctx
    animator.callout(.duration, .presentationController) { answer = function(animator.instanceState, ctx) }
    return answer
  }

  func presentationTransitionWillBegin(_ context: TransitionContext) { begin(context, presentation: true) }
  func dismissalTransitionWillBegin(_ context: TransitionContext) { begin(context, presentation: false) }
  func presentationTransitionDidEnd(_ completed: Bool) { end(completed, presentation: true) }
  func dismissalTransitionDidEnd(_ completed: Bool) { end(completed, presentation: false) }

  private func begin(_ context: TransitionContext, presentation: Bool) {
    animator.attachContext(context)
    guard let function = willBegin[presentation], !animator.isClosed else { return }
    let ctx = animator.handle
    animator.callout(.animate, .presentationController) { function(animator.instanceState, ctx) }
  }

  private func end(_ completed: Bool, presentation: Bool) {
    guard let function = didEnd[presentation], !animator.isClosed else { return }
    let ctx = animator.handle
    animator.callout(.ended, .presentationController) { function(animator.instanceState, ctx, completed) }
  }
}
