// A scene (ABI 1.2, scenes): the app's view controllers with no transition running, so that a gesture can arrive
// before any transition exists. One instance of the scene's animator gets a scene context over the client's trees
// ("th.scene-controller/1"); its handlers ask for transitions through "th.scenes/1", each run by an instance the
// plugin made, which the host adopts.

import CTransitionABI
import TransitionEngine

/// One scene's plugin side: the instance, its scene context, and the transition a handler asked for.
///
/// Single-threaded, like `PluginAnimator`.
package final class PluginScene {
  /// The plugin's "th.scene-controller/1", read once.
  private struct Table {
    let openScene: (@convention(c) (UnsafeMutableRawPointer?, th_context) -> th_status)?
    let handleGesture:
      (
        @convention(c) (
          UnsafeMutableRawPointer?, th_context, UnsafePointer<th_gesture_sample>?, th_view,
          UnsafeMutablePointer<UInt32>?
        ) -> th_gesture_delivery
      )?
    let transitionEnded: (@convention(c) (UnsafeMutableRawPointer?, th_context, th_view, th_view, Bool) -> Void)?

    init(_ table: UnsafeRawPointer) {
      let size = Int(table.load(as: UInt32.self))
      func field<T>(_ path: KeyPath<th_scene_controller, T?>) -> T? {
        guard let offset = MemoryLayout<th_scene_controller>.offset(of: path),
          offset + MemoryLayout<T?>.size <= size
        else { return nil }
        return table.load(fromByteOffset: offset, as: T?.self)
      }
      openScene = field(\.open_scene)
      handleGesture = field(\.handle_gesture)
      transitionEnded = field(\.transition_ended)
    }
  }

  /// A transition a handler asked for: the views are roots of the scene's trees.
  package struct Request {
    package var operation: TransitionOperation
    package var from: View
    package var to: View
    /// The plugin's new instance of the scene's animator, owned by the host until adopted or discarded.
    fileprivate var instance: UnsafeMutableRawPointer
  }

  /// Why a scene could not be opened.
  package enum OpenError: Error, Equatable {
    /// The animator did not resolve.
    case lookup(AnimatorLookupError)
    /// The animator offers no "th.scene-controller/1" (no view controllers are declared).
    case noSceneController(animator: String)
    /// `open_scene` failed (its status name).
    case refused(animator: String, status: String)
  }

  private let registry: PluginRegistry
  private let animator: PluginAnimator
  private let table: Table
  /// The scene context's engine side.
  package let context: TransitionContext
  /// The roots of the client's trees by storyboard identifier.
  package let trees: [String: View]
  /// `pluginId/animatorId` of the scene's animator.
  package var animatorID: String { animator.animatorID }
  /// What the current call asked for (taken by `takeRequest`).
  private(set) var request: Request?
  /// Whether a transition this scene started is still running (a new request is refused meanwhile).
  package var isTransitionRunning = false
  /// `open_scene` is running (a transition cannot be asked for before the scene is open).
  private var isOpening = false
  /// Whether a scene call is running now: the percent-driven calls of its handlers may move a transition of the
  /// same plugin from there (a view controller's pan drives the interaction controller it handed over).
  nonisolated(unsafe) static var delivering = 0

  /// Opens the scene: one instance of `animatorID`, its context over `scene` (the root tree in the container,
  /// `trees` by identifier), then the plugin's `open_scene`.
  package init(
    registry: PluginRegistry, animatorID: String, scene: Scene, trees: [String: View]
  ) throws(OpenError) {
    let animator: PluginAnimator
    do { animator = try registry.makeAnimator(id: animatorID, forScene: true) } catch { throw .lookup(error) }
    guard let raw = animator.extensionTable(TH_EXT_SCENE_CONTROLLER) else {
      animator.close()
      throw .noSceneController(animator: animator.animatorID)
    }
    let table = Table(raw)
    guard let openScene = table.openScene, table.handleGesture != nil else {
      animator.close()
      throw .noSceneController(animator: animator.animatorID)
    }
    self.registry = registry
    self.animator = animator
    self.table = table
    self.context = TransitionContext(scene: scene)
    self.trees = trees
    animator.attachContext(context)
    animator.scene = self
    var status = TH_OK
    let ctx = animator.handle
    isOpening = true
    call { animator.callout(.animate, .sceneController) { status = openScene(animator.instanceState, ctx) } }
    isOpening = false
    guard status == TH_OK else {
      animator.close()
      throw .refused(animator: animator.animatorID, status: statusName(status))
    }
  }

  deinit {
    close()
  }

  /// Ends the scene: a pending request's instance is destroyed, then the scene's own instance.
  package func close() {
    discardRequest()
    animator.close()
  }

  /// Hands one gesture sample to the scene's recognizers (a began one hit-tested on the scene as it stands).
  /// `running` is the animator of the transition this scene started, when one still runs: its handlers may drive it.
  package func deliverGesture(_ sample: GestureSample, running: PluginAnimator?) -> GestureDelivery {
    guard let handleGesture = table.handleGesture, !animator.isClosed else { return .noRecognizers }
    let hit =
      sample.state == .began
      ? (context.scene.hitTest(sample.location, at: 0).map { animator.viewHandle($0) } ?? th_view(id: 0))
      : th_view(id: 0)
    var delivery = GestureDelivery.notHit
    let deliver = { [animator] in
      delivery = PluginInteractionController.deliver(
        sample, hit: hit, to: handleGesture, of: animator, as: .sceneController)
    }
    // The running transition's animator is in a call too, so its percent-driven calls are in their phase.
    call {
      if let running, !running.isClosed {
        running.callout(.animate, .interactionController, deliver)
      } else {
        deliver()
      }
    }
    return delivery
  }

  /// The transition the last call asked for, now the caller's (adopt or discard it).
  package func takeRequest() -> Request? {
    defer { request = nil }
    return request
  }

  /// The engine animator that runs `request`: the plugin's instance, adopted (destroyed after the transition as
  /// one from `create` is).
  package func adopt(_ request: Request) -> PluginAnimator? {
    guard let lease = try? registry.lease(animatorID: animator.animatorID) else {
      destroy(request.instance)
      return nil
    }
    return PluginAnimator(
      resolved: lease, instance: AnimatorInstance(lease: lease, state: request.instance), logger: registry.logger)
  }

  /// Destroys a request's instance that will not run.
  package func discard(_ request: Request) {
    destroy(request.instance)
  }

  /// A transition this scene started ended: `to` is shown when it completed, `from` otherwise (the container
  /// arranged as CONVENTIONS' table says), then the plugin's `transition_ended`.
  package func transitionEnded(from: View, to: View, completed: Bool, removesFromView: Bool) {
    isTransitionRunning = false
    let container = context.containerView
    if completed {
      let backward = to.superview === container
      if !backward { container.addSubview(to) }
      if backward || removesFromView { from.removeFromSuperview() }
    }
    guard let transitionEnded = table.transitionEnded, !animator.isClosed else { return }
    let ctx = animator.handle
    let (fromHandle, toHandle) = (animator.viewHandle(from), animator.viewHandle(to))
    call {
      animator.callout(.animate, .sceneController) {
        transitionEnded(animator.instanceState, ctx, fromHandle, toHandle, completed)
      }
    }
    discardRequest()
  }

  // MARK: th.scenes/1

  func tree(_ identifier: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<th_view>?) throws(HostFailure) -> th_status
  {
    guard let identifier else { throw .null("identifier") }
    guard let out else { throw .null("out_root") }
    guard let root = trees[String(cString: identifier)] else { return TH_ERR_NOT_FOUND }
    out.pointee = animator.viewHandle(root)
    return TH_OK
  }

  func startTransition(_ pointer: UnsafePointer<th_scene_transition>?) throws(HostFailure) -> th_status {
    guard let pointer else { throw .null("request") }
    let size = Int(pointer.pointee.struct_size)
    guard size >= MemoryLayout<th_scene_transition>.size else {
      throw .invalidArgument(
        "request.struct_size",
        "request.struct_size \(size) is below sizeof(th_scene_transition) = \(MemoryLayout<th_scene_transition>.size)")
    }
    let r = pointer.pointee
    guard let instance = r.instance else { throw .null("request.instance") }
    // From here on the instance is the host's: destroyed on every refusal.
    do throws(HostFailure) {
      guard Self.delivering > 0, !isOpening else {
        throw HostFailure.wrongPhase("start_transition is called from handle_gesture and transition_ended only")
      }
      guard let name = r.operation else { throw HostFailure.null("request.operation") }
      guard request == nil else {
        throw HostFailure.wrongPhase("a transition was already asked for in this call (one per call)")
      }
      guard !isTransitionRunning else {
        throw HostFailure.wrongPhase("a transition of this scene is still running (UIKit ignores the call too)")
      }
      let from = try animator.view(r.from, "request.from")
      let to = try animator.view(r.to, "request.to")
      guard trees.values.contains(where: { $0 === from }), from.superview === context.containerView else {
        throw HostFailure.invalidValue("request.from", "request.from is not the root of a tree on screen")
      }
      guard trees.values.contains(where: { $0 === to }), to !== from else {
        throw HostFailure.invalidValue("request.to", "request.to is not the root of another tree of the scene")
      }
      request = Request(
        operation: TransitionOperation(name: String(cString: name)), from: from, to: to, instance: instance)
      return TH_OK
    } catch {
      destroy(instance)
      throw error
    }
  }

  // MARK: Helpers

  private func call(_ body: () -> Void) {
    Self.delivering += 1
    defer { Self.delivering -= 1 }
    body()
  }

  private func discardRequest() {
    if let request = takeRequest() { destroy(request.instance) }
  }

  private func destroy(_ instance: UnsafeMutableRawPointer) {
    guard let lease = try? registry.lease(animatorID: animator.animatorID) else { return }
    _ = AnimatorInstance(lease: lease, state: instance)  // destroyed at once, then the lease ends
    lease.end()
  }
}
