// Running a plugin animator's transition on the manual clock, for the tests that load plugins with dlopen
// (PluginHostTests, AnimatorTests): a registry loaded from the build folder, a logger that keeps what plugins log,
// and one transition, made and driven as the host makes and drives it (TransitionFactory, its driver), with its
// outcome and misbehaviour reports.

import PluginHost
import Synchronization
import TransitionEngine
import TransitionService

/// A logger that keeps what plugins log.
package final class LogCapture: Sendable {
  private let kept = Mutex<[PluginLogRecord]>([])

  package init() {}

  /// The logger to give a registry.
  package var logger: PluginLogger {
    PluginLogger { record in self.kept.withLock { $0.append(record) } }
  }

  /// Every record logged so far, in order.
  package var records: [PluginLogRecord] { kept.withLock { $0 } }

  /// Every message logged so far, as "source: message".
  package var lines: [String] { records.map { "\($0.source): \($0.message)" } }

  /// Messages logged so far at warning level or above, as "source: message".
  package var warnings: [String] { records.filter { $0.level >= .warning }.map { "\($0.source): \($0.message)" } }

  /// What `animator` ("pluginId/animatorId") logged so far, in order, without the source.
  package func notes(of animator: String) -> [String] {
    let prefix = "\(animator): "
    return lines.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
  }
}

/// A registry whose only folder is the build folder (no built-in folder, so nothing is auto-loaded) with the
/// plugins at `paths` loaded.
package func registry(loadingPaths paths: [String], log: LogCapture = LogCapture()) throws -> PluginRegistry {
  let registry = PluginRegistry(
    searchPath: PluginSearchPath(builtInFolder: nil, pluginDirs: [BuildProducts.folder]), logger: log.logger)
  for path in paths { try registry.load(path: path) }
  return registry
}

/// A registry with the built-in animators `names` (`TransitionPlugin<name>`) loaded.
package func registry(loadingBuiltIns names: [String], log: LogCapture = LogCapture()) throws -> PluginRegistry {
  try registry(loadingPaths: names.map(BuildProducts.builtInPlugin), log: log)
}

/// A registry with the fixture plugins `names` (`TestPlugin<name>`) loaded.
package func registry(loadingFixtures names: [String], log: LogCapture = LogCapture()) throws -> PluginRegistry {
  try registry(loadingPaths: names.map(BuildProducts.fixturePlugin), log: log)
}

/// One transition of a plugin animator on a scene the caller built, run on the manual clock, with what it reported.
package final class PluginTransitionRun {
  package let scene: Scene
  package let from: View
  package let to: View
  /// The service's driver of the transition (the engine transition is `transition`).
  package let driver: LocalTransitionDriver
  package let animator: PluginAnimator
  package private(set) var outcome: TransitionOutcome?
  package private(set) var misbehaviors: [Misbehavior] = []

  /// Makes the transition of `animatorID` from `from` to `to` in `scene` (not started), through the service's
  /// `TransitionFactory`: the params are checked and completed as `transition/start` checks them.
  ///
  /// - Throws: `TransitionStartError` (unknown animator, unsupported operation, a bad parameter …).
  package init(
    _ registry: PluginRegistry, _ animatorID: String, scene: Scene, from: View, to: View,
    operation: TransitionOperation, params: [String: ParameterValue] = [:],
    options: TransitionOptions = TransitionOptions()
  ) throws {
    self.scene = scene
    self.from = from
    self.to = to
    let factory = TransitionFactory(catalog: PluginAnimatorCatalog(registry: registry))
    driver = try factory.make(
      TransitionRequest(
        animator: animatorID, operation: operation, trees: ViewTrees(scene: scene, fromRoot: from, toRoot: to),
        params: params, options: options))
    animator = driver.engineAnimator as! PluginAnimator
    driver.onEvent = { [unowned self] event in
      switch event {
      case .ended(let outcome): self.outcome = outcome
      case .misbehaved(let report): misbehaviors.append(report)
      case .misusedViewModel, .timelineChanged, .lost, .abandoned: break
      }
    }
  }

  /// The engine transition.
  package var transition: Transition { driver.transition }

  /// Starts the transition.
  package func start() throws {
    try driver.start()
  }

  /// Starts the transition if it is idle, then advances the manual clock in frames of `step` seconds until it ends
  /// (at most `limit` seconds); the outcome, or nil when it did not end.
  @discardableResult
  package func run(step: Double = 1.0 / 60, limit: Double = 10) throws -> TransitionOutcome? {
    if case .idle = transition.state { try driver.start() }
    var elapsed = 0.0
    while outcome == nil, elapsed < limit {
      _ = try driver.perform(.advance(seconds: step))
      elapsed += step
    }
    return outcome
  }

  /// The presented state of view `id` at timeline time `t` (nil when it is not in the container's tree).
  package func state(_ id: String, at t: Double) throws -> ViewState? {
    try transition.sample(time: t).first { $0.id == id }
  }

  /// The ids of the container's subviews, back to front.
  package var containerSubviews: [String] { scene.container.subviews.map(\.id) }

  /// The misbehaviour reports, as "kind: message".
  package var reports: [String] { misbehaviors.map { "\($0.kindName): \($0.message)" } }
}
