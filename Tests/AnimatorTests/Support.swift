import CTransitionABI
import PluginHost
import TestSupport
import Testing
import TransitionEngine

#if canImport(Glibc)
  import Glibc
#endif

/// One transition run by a built-in animator (or the plugin at `pluginPath`) on a fresh scene, with what it
/// reported.
///
/// `build` makes the from and to trees in the scene and puts what is on screen before the transition into the
/// container (the from root, and below it the to root when a presentation kept the presenter's view); it returns
/// the two roots.
final class AnimatorRun {
  let log: LogCapture
  let base: PluginTransitionRun

  init(
    _ plugin: String, _ animatorID: String, operation: TransitionOperation,
    container: Size = Size(width: 400, height: 800),
    params: [String: ParameterValue] = [:], interactive: Bool = false, pluginPath: String? = nil,
    build: (Scene) throws -> (from: View, to: View)
  ) throws {
    log = LogCapture()
    let registry = try registry(loadingPaths: [pluginPath ?? BuildProducts.builtInPlugin(plugin)], log: log)
    let scene = Scene(containerSize: container)
    let (from, to) = try build(scene)
    base = try PluginTransitionRun(
      registry, animatorID, scene: scene, from: from, to: to, operation: operation, params: params,
      options: TransitionOptions(isInteractive: interactive))
  }

  var scene: Scene { base.scene }
  var from: View { base.from }
  var to: View { base.to }
  var transition: Transition { base.transition }
  var outcome: TransitionOutcome? { base.outcome }
  var misbehaviors: [Misbehavior] { base.misbehaviors }

  /// Starts the transition.
  func start() throws {
    try base.start()
  }

  /// Advances in steps of `step` until the transition ends (or `limit` seconds pass).
  @discardableResult
  func run(step: Double = 1.0 / 60, limit: Double = 20) throws -> TransitionOutcome? {
    try base.run(step: step, limit: limit)
  }

  /// The presented state of view `id` at time `t`.
  func state(_ id: String, at t: Double) throws -> ViewState {
    try #require(try base.state(id, at: t), "no view \(id) at \(t)")
  }

  /// The presented state of view `id` now (after `update(percent:)`).
  func current(_ id: String) throws -> ViewState {
    try #require(transition.presentation().first { $0.id == id }, "no view \(id) now")
  }

  /// The ids of the container's subviews, back to front.
  var containerSubviews: [String] { base.containerSubviews }

  /// Misbehaviour reports and plugin warnings (both must stay empty in a correct run).
  var problems: [String] { misbehaviors.map(\.description) + log.warnings }
}

/// The model state of a view and its subtree (everything a client could see), for "exactly as it started".
struct TreeState: Equatable {
  var id: String
  var parent: String?
  var bounds: Rect
  var position: Point
  var anchorPoint: Point
  var transform: Transform3D
  var sublayerTransform: Transform3D
  var alpha: Double
  var isHidden: Bool
  var zPosition: Double
  var cornerRadius: Double
  var backgroundColor: Color?
  var subviews: [TreeState]

  init(_ view: View) {
    id = view.id
    parent = view.superview?.id
    bounds = view.bounds
    position = view.position
    anchorPoint = view.anchorPoint
    transform = view.transform
    sublayerTransform = view.sublayerTransform
    alpha = view.alpha
    isHidden = view.isHidden
    zPosition = view.zPosition
    cornerRadius = view.cornerRadius
    backgroundColor = view.backgroundColor
    subviews = view.subviews.map(TreeState.init)
  }
}

/// Everything about a scene at one moment: the container's tree, both roots' trees (even when detached) and what is
/// presented.
struct SceneState: Equatable {
  var container: TreeState
  var from: TreeState
  var to: TreeState
  var presented: [ViewState]

  init(_ run: AnimatorRun) {
    container = TreeState(run.scene.container)
    from = TreeState(run.from)
    to = TreeState(run.to)
    presented = run.transition.presentation()
  }
}

/// Makes a view with `id` and `frame` in `scene`, optionally adding it to `parent`.
@discardableResult
func makeView(_ scene: Scene, _ id: String, _ frame: Rect, in parent: View? = nil) throws -> View {
  let view = try scene.makeView(id: id)
  view.frame = frame
  parent?.addSubview(view)
  return view
}

// MARK: - Expected values, computed independently of the engine (never its curve or spring functions; the curves and
// springs are TestSupport's `Reference` and `UIKitSpring`)

/// The world transform of an untransformed view whose top-left corner is at `origin` in container coordinates: a
/// pure translation (row vectors: translation in m41, m42).
func translation(_ origin: Point) -> Transform3D {
  Transform3D(translationX: origin.x, y: origin.y, z: 0)
}

/// Expects `actual` to equal `expected` to within `tolerance` in every component.
func expectClose(
  _ actual: Rect, _ expected: Rect, _ tolerance: Double = 1e-6, _ note: @autoclosure () -> String = "",
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let ok = [
    actual.origin.x - expected.origin.x, actual.origin.y - expected.origin.y,
    actual.size.width - expected.size.width, actual.size.height - expected.size.height,
  ].allSatisfy { abs($0) <= tolerance }
  #expect(ok, "\(note()): \(actual) != \(expected)", sourceLocation: sourceLocation)
}

func expectClose(
  _ actual: Double, _ expected: Double, _ tolerance: Double = 1e-6, _ note: @autoclosure () -> String = "",
  sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(abs(actual - expected) <= tolerance, "\(note()): \(actual) != \(expected)", sourceLocation: sourceLocation)
}

func expectClose(
  _ actual: Transform3D, _ expected: Transform3D, _ tolerance: Double = 1e-6, _ note: @autoclosure () -> String = "",
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let ok = zip(actual.values, expected.values).allSatisfy { abs($0 - $1) <= tolerance }
  #expect(ok, "\(note()): \(actual.values) != \(expected.values)", sourceLocation: sourceLocation)
}

/// Expects the presented frame (in the superview's coordinates), alpha and world transform of a view with no
/// transform on it or its ancestors, whose top-left corner is at `origin` in container coordinates (default: the
/// frame's origin, for a view whose superview sits at the container's origin).
func expectView(
  _ state: ViewState, frame: Rect, alpha: Double, origin: Point? = nil, _ note: @autoclosure () -> String = "",
  sourceLocation: SourceLocation = #_sourceLocation
) {
  expectClose(state.frame, frame, 1e-6, "\(note()) \(state.id).frame", sourceLocation: sourceLocation)
  expectClose(state.alpha, alpha, 1e-6, "\(note()) \(state.id).alpha", sourceLocation: sourceLocation)
  expectClose(
    state.worldTransform, translation(origin ?? frame.origin), 1e-6, "\(note()) \(state.id).worldTransform",
    sourceLocation: sourceLocation)
}
