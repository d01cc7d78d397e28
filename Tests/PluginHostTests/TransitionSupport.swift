import CTransitionABI
import PluginHost
import TestSupport
import TransitionEngine

extension PluginTransitionRun {
  /// One transition run by a plugin animator on a fresh scene: a 400 × 800 container holding the from root "from"
  /// (frame = the container's bounds); the to root "to" starts detached with frame (0, 0, 400, 800). `setUp` runs
  /// before the transition is made.
  convenience init(
    _ registry: PluginRegistry, _ animatorID: String, operation: TransitionOperation = .present,
    params: [String: ParameterValue] = [:], options: TransitionOptions = TransitionOptions(),
    setUp: (Scene, View, View) -> Void = { _, _, _ in }
  ) throws {
    let scene = Scene(containerSize: Size(width: 400, height: 800))
    let from = try scene.makeView(id: "from")
    let to = try scene.makeView(id: "to")
    from.frame = Rect(x: 0, y: 0, width: 400, height: 800)
    to.frame = Rect(x: 0, y: 0, width: 400, height: 800)
    scene.container.addSubview(from)
    setUp(scene, from, to)
    try self.init(
      registry, animatorID, scene: scene, from: from, to: to, operation: operation, params: params, options: options)
  }
}

/// Whether two numbers agree to within `tolerance`.
func close(_ a: Double?, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
  guard let a else { return false }
  return abs(a - b) <= tolerance
}

/// One fixture plugin loaded, its animators started as the host starts them and what they log read back: what the
/// ABI tests of each extension need.
final class FixtureAnimatorHost {
  let log = LogCapture()
  let registry: PluginRegistry
  let pluginID: String

  /// Loads fixture `fixture` (`TestPlugin<fixture>`), whose plugin id is `pluginID`.
  init(fixture: String, pluginID: String) throws {
    self.pluginID = pluginID
    registry = try TestSupport.registry(loadingFixtures: [fixture], log: log)
  }

  /// Animator `id` of the plugin, started (not run to its end).
  func run(_ id: String, interactive: Bool = false) throws -> PluginTransitionRun {
    let run = try PluginTransitionRun(
      registry, "\(pluginID)/\(id)", options: TransitionOptions(isInteractive: interactive))
    try run.start()
    return run
  }

  /// What animator `id` logged so far, in order.
  func notes(_ id: String) -> [String] { log.notes(of: "\(pluginID)/\(id)") }
}
