// Scenes (Protocol.md, "Scenes"): the app's view controllers with no transition running, so that a gesture can
// arrive before any transition exists. A `SceneRunner` is one scene where its plugin runs (this process, or the
// plugin's worker): the plugin side (`PluginScene`), the trees it was opened with, and the transition a handler asked
// for, until the session starts it through the one transition path (TransitionFactory), adopting the plugin's
// instance.

import JSON
import JSONRPC
import PluginHost
import TransitionEngine

/// `scene/open` decoded: the animator, the container, and the trees by storyboard identifier.
package struct SceneOpenRequest {
  package var animator: String
  /// `{"width", "height"}` as the client sent it.
  package var container: JSON
  /// The root controller's tree (identifier "") first, then one per storyboard identifier.
  package var trees: [SceneTree]

  package init(animator: String, container: JSON, trees: [SceneTree]) {
    self.animator = animator
    self.container = container
    self.trees = trees
  }

  /// The tree of `identifier`.
  package func tree(_ identifier: String) -> JSON? {
    trees.first { $0.identifier == identifier }?.json
  }
}

/// One tree of a scene: its storyboard identifier ("" for the root controller's) and the node as the client sent it.
package struct SceneTree {
  package var identifier: String
  package var json: JSON
  /// Where it was in `scene/open`'s params, for error messages ("root", "storyboard.Presented").
  package var path: String { identifier.isEmpty ? "root" : "storyboard.\(identifier)" }

  package init(identifier: String, json: JSON) {
    self.identifier = identifier
    self.json = json
  }
}

/// A transition a scene's handler asked for: the operation and the storyboard identifiers of its trees.
package struct SceneTransitionAsk: Equatable, Sendable {
  package var operation: String
  package var from: String
  package var to: String

  package init(operation: String, from: String, to: String) {
    self.operation = operation
    self.from = from
    self.to = to
  }
}

/// What became of a scene's gesture sample.
package struct SceneGestureOutcome: Equatable, Sendable {
  package var delivery: GestureDelivery
  /// The transition a handler asked for, which the session starts now.
  package var ask: SceneTransitionAsk?

  package init(delivery: GestureDelivery, ask: SceneTransitionAsk? = nil) {
    self.delivery = delivery
    self.ask = ask
  }
}

/// One open scene where its plugin runs.
package final class SceneRunner {
  private let scene: PluginScene
  private let identifiers: [ObjectIdentifier: String]
  /// The transition asked for by the last gesture, not started yet.
  private var pending: PluginScene.Request?
  /// The animator of the transition this scene started, while it runs.
  private weak var running: SceneTransitionAnimator?

  /// Opens the scene: decodes the trees (2004 naming the node and field), makes the animator's scene instance
  /// (2001/2002, 2012 when it has no view controllers, 2008 when its open_scene fails).
  package init(registry: PluginRegistry, request: SceneOpenRequest) throws(ResponseError) {
    let decoded: (scene: Scene, roots: [View], contents: [String: JSON])
    do {
      decoded = try ViewTreeDecoder.decodeScene(
        container: request.container, trees: request.trees.map { ($0.path, $0.json) })
    } catch {
      throw error.responseError
    }
    var trees: [String: View] = [:]
    var identifiers: [ObjectIdentifier: String] = [:]
    for (tree, root) in zip(request.trees, decoded.roots) {
      trees[tree.identifier] = root
      identifiers[ObjectIdentifier(root)] = tree.identifier
    }
    do {
      scene = try PluginScene(registry: registry, animatorID: request.animator, scene: decoded.scene, trees: trees)
    } catch {
      switch error {
      case .lookup(let lookup): throw .animator(lookup)
      case .noSceneController(let animator):
        throw ResponseError(
          code: .noScene,
          message:
            "Animator \(animator) has no scene: its plugin declares no view controllers (th.scene-controller/1).",
          data: ["animator": JSON(animator), "field": "animator"])
      case .refused(let animator, let status):
        throw ResponseError(
          code: .animatorMisbehaved,
          message: "Animator \(animator) could not open the scene: open_scene returned \(status).",
          data: ["animator": JSON(animator)])
      }
    }
    self.identifiers = identifiers
  }

  deinit {
    close()
  }

  /// `pluginId/animatorId`: the animator of every transition the scene starts.
  package var animatorID: String { scene.animatorID }

  /// Hands a sample to the scene's recognizers (the running transition's animator in a call too, so that the
  /// handlers' update / finish / cancel move it). A transition a handler asked for is kept for `takeBinding`.
  package func gesture(_ sample: GestureSample) -> SceneGestureOutcome {
    let delivery = scene.deliverGesture(sample, running: running?.animator)
    guard let request = scene.takeRequest() else { return SceneGestureOutcome(delivery: delivery) }
    if let old = pending { scene.discard(old) }
    pending = request
    let ask = SceneTransitionAsk(
      operation: request.operation.name, from: identifiers[ObjectIdentifier(request.from)] ?? "",
      to: identifiers[ObjectIdentifier(request.to)] ?? "")
    return SceneGestureOutcome(delivery: delivery, ask: ask)
  }

  /// The animator binding of the transition asked for (the plugin's instance, adopted), once; nil when none is
  /// pending. Its transition's end arranges the scene and tells the plugin.
  package func takeBinding() -> AnimatorBinding? {
    guard let request = pending else { return nil }
    pending = nil
    guard let animator = scene.adopt(request) else { return nil }
    let wrapper = SceneTransitionAnimator(animator: animator) { [weak self] completed, removesFromView in
      self?.scene.transitionEnded(
        from: request.from, to: request.to, completed: completed, removesFromView: removesFromView)
    }
    running = wrapper
    scene.isTransitionRunning = true
    let entry = AnimatorEntry(
      qualifiedID: animator.animatorID, pluginID: animator.generation.info.id, info: animator.info)
    return AnimatorBinding(
      entry: entry, animator: wrapper,
      attach: { [unowned wrapper] in wrapper.attach(to: $0) },
      discard: { [weak self, unowned wrapper] in
        wrapper.animator.close()
        self?.scene.isTransitionRunning = false
      })
  }

  /// Ends the scene (a pending request's instance and the scene's own are destroyed; a running transition runs on).
  package func close() {
    if let pending { scene.discard(pending) }
    pending = nil
    scene.close()
  }
}

/// The animator of a transition a scene started: the plugin's adopted instance, and the scene told when it ends.
final class SceneTransitionAnimator: TransitionAnimator {
  let animator: PluginAnimator
  private let ended: (_ completed: Bool, _ removesFromView: Bool) -> Void
  private weak var transition: Transition?

  init(animator: PluginAnimator, ended: @escaping (Bool, Bool) -> Void) {
    self.animator = animator
    self.ended = ended
  }

  func attach(to transition: Transition) {
    self.transition = transition
    animator.attach(to: transition)
  }

  var animatorID: String { animator.animatorID }
  func transitionDuration(_ context: TransitionContext?) -> Double { animator.transitionDuration(context) }
  func animateTransition(_ context: TransitionContext) { animator.animateTransition(context) }
  var presentationController: (any PresentationControllerBehavior)? { animator.presentationController }
  func interactionController(_ context: TransitionContext) -> (any InteractionControllerBehavior)? {
    animator.interactionController(context)
  }
  func interruptibleAnimator(_ context: TransitionContext) -> PropertyAnimator? {
    animator.interruptibleAnimator(context)
  }

  func animationEnded(_ completed: Bool) {
    let removes = transition?.removesPresentersView ?? false
    animator.animationEnded(completed)
    ended(completed, removes)
  }
}

/// What the session asks of an open scene; its plugin runs here (`LocalSceneDriver`) or in its worker process.
package protocol SceneDriver: AnyObject {
  /// `pluginId/animatorId` of the scene's animator.
  var animatorID: String { get }
  /// The plugin's worker died or hung (not called for a scene in this process): the scene is gone.
  var onLost: ((PluginFault) -> Void)? { get set }
  /// Hands a sample to the scene's recognizers.
  func gesture(_ sample: GestureSample, completion: @escaping (Result<SceneGestureOutcome, DriverError>) -> Void)
  /// Ends the scene.
  func close()
}

/// A scene whose plugin runs in this process.
package final class LocalSceneDriver: SceneDriver {
  let runner: SceneRunner
  package var onLost: ((PluginFault) -> Void)?

  init(runner: SceneRunner) {
    self.runner = runner
  }

  package var animatorID: String { runner.animatorID }

  package func gesture(
    _ sample: GestureSample, completion: (Result<SceneGestureOutcome, DriverError>) -> Void
  ) {
    completion(.success(runner.gesture(sample)))
  }

  package func close() {
    runner.close()
  }
}
