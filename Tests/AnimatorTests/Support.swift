import CTransitionABI
import PluginHost
import Synchronization
import Testing
import TransitionEngine

#if canImport(Glibc)
  import Glibc
#endif

/// Where the built-in plugins (`libTransitionPlugin<Name>.so`) are: beside the test binary, as SwiftPM builds every
/// product into one folder, or in `TRANSITION_HOST_PLUGIN_DIR` for other layouts. They are loaded with dlopen, never
/// linked (they all export th_plugin_entry).
enum BuiltPlugins {
  static var folder: String {
    if let value = getenv("TRANSITION_HOST_PLUGIN_DIR"), value.pointee != 0 { return String(cString: value) }
    let resolved = realpath("/proc/self/exe", nil)!
    defer { free(resolved) }
    let executable = String(cString: resolved)
    return String(executable[..<executable.lastIndex(of: "/")!])
  }

  static func path(_ name: String) -> String {
    folder + "/libTransitionPlugin\(name).so"
  }
}

/// A logger that keeps what plugins log.
final class LogCapture: Sendable {
  private let records = Mutex<[PluginLogRecord]>([])

  var logger: PluginLogger {
    PluginLogger { record in self.records.withLock { $0.append(record) } }
  }

  /// Messages logged so far at warning level or above, as "source: message".
  var warnings: [String] {
    records.withLock { $0.filter { $0.level >= .warning }.map { "\($0.source): \($0.message)" } }
  }
}

/// A registry with the built-in plugins `names` loaded.
func registry(loading names: [String], log: LogCapture = LogCapture()) throws -> PluginRegistry {
  let registry = PluginRegistry(
    searchPath: PluginSearchPath(builtInFolder: nil, pluginDirs: [BuiltPlugins.folder]), logger: log.logger)
  for name in names { try registry.load(path: BuiltPlugins.path(name)) }
  return registry
}

/// One transition run by a built-in animator on a fresh scene, with what it reported.
///
/// `build` makes the from and to trees in the scene and puts what is on screen before the transition into the
/// container (the from root, and below it the to root when a presentation kept the presenter's view); it returns
/// the two roots.
final class AnimatorRun {
  let scene: Scene
  let from: View
  let to: View
  let transition: Transition
  let log: LogCapture
  private(set) var outcome: TransitionOutcome?
  private(set) var misbehaviors: [Misbehavior] = []

  init(
    _ plugin: String, _ animatorID: String, operation: TransitionOperation,
    container: Size = Size(width: 400, height: 800),
    params: [String: ParameterValue] = [:], interactive: Bool = false,
    build: (Scene) throws -> (from: View, to: View)
  ) throws {
    log = LogCapture()
    let registry = try registry(loading: [plugin], log: log)
    scene = Scene(containerSize: container)
    (from, to) = try build(scene)
    let made = try registry.makeTransition(
      animatorID: animatorID, scene: scene, from: from, to: to, operation: operation, params: params,
      options: TransitionOptions(isInteractive: interactive))
    transition = made.transition
    transition.onEnd = { [unowned self] in self.outcome = $0 }
    transition.onMisbehavior = { [unowned self] in self.misbehaviors.append($0) }
  }

  /// Starts the transition.
  func start() throws {
    try transition.start()
  }

  /// Advances in steps of `step` until the transition ends (or `limit` seconds pass).
  @discardableResult
  func run(step: Double = 1.0 / 60, limit: Double = 20) throws -> TransitionOutcome? {
    if case .idle = transition.state { try transition.start() }
    var elapsed = 0.0
    while outcome == nil, elapsed < limit {
      try transition.advance(by: step)
      elapsed += step
    }
    return outcome
  }

  /// The presented state of view `id` at time `t`.
  func state(_ id: String, at t: Double) throws -> ViewState {
    try #require(try transition.sample(time: t).first { $0.id == id }, "no view \(id) at \(t)")
  }

  /// The presented state of view `id` now (after `update(percent:)`).
  func current(_ id: String) throws -> ViewState {
    try #require(transition.presentation().first { $0.id == id }, "no view \(id) now")
  }

  /// The ids of the container's subviews, back to front.
  var containerSubviews: [String] { scene.container.subviews.map(\.id) }

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

// MARK: - Expected values, computed independently of the engine (never its curve or spring functions)

/// y(x) of the cubic Bézier (0,0) (x1,y1) (x2,y2) (1,1), x solved by bisection on the curve parameter.
func bezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, at x: Double) -> Double {
  guard x > 0 else { return 0 }
  guard x < 1 else { return 1 }
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

/// UIView's default curve, easeInOut = cubic Bézier (0.42, 0, 0.58, 1), at the fraction `x` of the duration.
func easeInOut(_ x: Double) -> Double { bezier(0.42, 0, 0.58, 1, at: x) }

/// UIKit's spring `animate(withDuration: T, usingSpringWithDamping: ζ, initialSpringVelocity: v₀)` as the engine
/// realises it (CONVENTIONS: a UIKit spring lasts exactly its duration; reference §10.5, Framer's reconstruction):
/// mass 1; ω₀ chosen so that the envelope of x = 1 − progress at rest is ε = 0.001 at T —
/// ζ < 1: (ζ/√(1−ζ²))·e^(−ζω₀T) = ε, so ω₀ = ln(ζ / (√(1−ζ²)·ε)) / (ζT);
/// ζ = 1: (1 + ω₀T)·e^(−ω₀T) = ε, solved here by bisection.
/// A spring thrown toward its target no faster than 2ζω₀ has a smaller envelope term than at rest, and the engine
/// (its documented rule: never softer than the same spring at rest) keeps that ω₀; the helper only covers that
/// range. Then the closed form x(t) (reference §10.3), with the engine's documented landing: over the last 10 % of
/// T the residual r = x(T) is blended out with a smoothstep, progress = 1 − [x(t) − r·σ((t − 0.9T)/(0.1T))], and
/// progress = 1 from T on.
struct UIKitSpring {
  let zeta: Double
  let duration: Double
  let velocity: Double
  let omega: Double

  init(dampingRatio zeta: Double, duration: Double, initialVelocity velocity: Double = 0) {
    self.zeta = zeta
    self.duration = duration
    self.velocity = velocity
    let epsilon = 0.001
    if zeta < 1 {
      omega = log(zeta / ((1 - zeta * zeta).squareRoot() * epsilon)) / (zeta * duration)
    } else {
      // (1 + wT)e^(−wT) falls monotonically in w > 0: bisect for ε.
      var low = 0.0
      var high = 1000.0 / duration
      for _ in 0..<300 {
        let mid = (low + high) / 2
        if (1 + mid * duration) * exp(-mid * duration) > epsilon { low = mid } else { high = mid }
      }
      omega = (low + high) / 2
    }
    precondition(velocity >= 0 && velocity <= 2 * zeta * omega, "outside the range this helper covers")
  }

  /// x(t) = 1 − progress of the free spring.
  func displacement(_ t: Double) -> Double {
    if zeta < 1 {
      let wd = omega * (1 - zeta * zeta).squareRoot()
      return exp(-zeta * omega * t) * (cos(wd * t) + ((zeta * omega - velocity) / wd) * sin(wd * t))
    }
    return (1 + (omega - velocity) * t) * exp(-omega * t)
  }

  /// Progress at `t` seconds.
  func progress(_ t: Double) -> Double {
    guard t > 0 else { return 0 }
    guard t < duration else { return 1 }
    let u = (t - 0.9 * duration) / (0.1 * duration)
    let sigma = u <= 0 ? 0 : (u >= 1 ? 1 : u * u * (3 - 2 * u))
    return 1 - (displacement(t) - displacement(duration) * sigma)
  }
}

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
