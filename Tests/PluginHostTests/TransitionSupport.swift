import CTransitionABI
import PluginHost
import Synchronization
import TransitionEngine

/// One transition run by a plugin animator on a fresh scene, with what it reported.
///
/// The scene is a 400 × 800 container holding the from root "from" (frame = the container's bounds); the to
/// root "to" starts detached with frame (0, 0, 400, 800).
final class PluginRun {
  let scene: Scene
  let from: View
  let to: View
  let transition: Transition
  let animator: PluginAnimator
  private(set) var outcome: TransitionOutcome?
  private(set) var misbehaviors: [Misbehavior] = []

  init(
    _ registry: PluginRegistry, _ animatorID: String, operation: TransitionOperation = .present,
    params: [String: ParameterValue] = [:], options: TransitionOptions = TransitionOptions(),
    setUp: (Scene, View, View) -> Void = { _, _, _ in }
  ) throws {
    scene = Scene(containerSize: Size(width: 400, height: 800))
    from = try scene.makeView(id: "from")
    to = try scene.makeView(id: "to")
    from.frame = Rect(x: 0, y: 0, width: 400, height: 800)
    to.frame = Rect(x: 0, y: 0, width: 400, height: 800)
    scene.container.addSubview(from)
    setUp(scene, from, to)
    let made = try registry.makeTransition(
      animatorID: animatorID, scene: scene, from: from, to: to, operation: operation, params: params,
      options: options)
    transition = made.transition
    animator = made.animator
    transition.onEnd = { [unowned self] in self.outcome = $0 }
    transition.onMisbehavior = { [unowned self] in self.misbehaviors.append($0) }
  }

  /// Starts and advances in steps of `step` until the transition ends (or `limit` seconds pass).
  @discardableResult
  func run(step: Double = 1.0 / 60, limit: Double = 10) throws -> TransitionOutcome? {
    if case .idle = transition.state { try transition.start() }
    var elapsed = 0.0
    while outcome == nil, elapsed < limit {
      try transition.advance(by: step)
      elapsed += step
    }
    return outcome
  }

  /// The presented state of view `id` at time `t`.
  func state(_ id: String, at t: Double) throws -> ViewState? {
    try transition.sample(time: t).first { $0.id == id }
  }

  /// The ids of the container's subviews, back to front.
  var containerSubviews: [String] { scene.container.subviews.map(\.id) }

  /// The kind names and messages reported.
  var reports: [String] { misbehaviors.map { "\($0.kindName): \($0.message)" } }
}

/// A registry with the fixture plugins `names` loaded.
func registry(loading names: [String], log: LogCapture = LogCapture()) throws -> PluginRegistry {
  let registry = PluginRegistry(
    searchPath: PluginSearchPath(builtInFolder: nil, pluginDirs: [Fixtures.folder]), logger: log.logger)
  for name in names { try registry.load(path: Fixtures.path(name)) }
  return registry
}

/// y(x) of the cubic Bézier (0,0) (x1,y1) (x2,y2) (1,1), solved by bisection on x (independent of the engine).
func bezierProgress(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, at x: Double) -> Double {
  func coordinate(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
    3 * (1 - s) * (1 - s) * s * p1 + 3 * (1 - s) * s * s * p2 + s * s * s
  }
  var low = 0.0
  var high = 1.0
  for _ in 0..<200 {
    let mid = (low + high) / 2
    if coordinate(x1, x2, mid) < x { low = mid } else { high = mid }
  }
  return coordinate(y1, y2, (low + high) / 2)
}

/// Whether two numbers agree to within `tolerance`.
func close(_ a: Double?, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
  guard let a else { return false }
  return abs(a - b) <= tolerance
}
