// Where the session's plugins live and its transitions run: in this process (`InProcessPlugins`: `--isolation none`,
// render, the tests) or in one worker process per plugin generation (PluginIsolation's `WorkerPlugins`, the default
// for `serve`). The session only ever sees this protocol, the catalog's metadata and the drivers it makes.

import JSON
import JSONRPC
import PluginHost

/// A loaded plugin as `plugins/list` shows it.
package struct PluginStatus: Sendable, Equatable {
  /// Whether new transitions may use the plugin.
  package enum State: String, Sendable, Equatable {
    /// Loaded and usable.
    case loaded
    /// It crashed `--plugin-crash-limit` times within `--plugin-crash-window`: new transitions get 1010 until
    /// `plugins/reload` loads it again.
    case crashed
  }

  package var info: PluginInfo
  /// The absolute path it was loaded from.
  package var path: String
  /// Whether it is one of the host's built-ins (a `libTransitionPlugin*.so` in the binary's folder).
  package var builtin: Bool
  /// 1 for the first load, one more per reload.
  package var generation: Int
  /// Transitions of the current generation still running.
  package var runningTransitions: Int
  package var state: State
  /// How many times the current generation crashed or hung (its worker died).
  package var crashCount: Int
  /// The last of those crashes.
  package var lastCrash: PluginFault?
  /// `plugins/load` found this file loaded already and changed nothing.
  package var alreadyLoaded = false

  package init(
    info: PluginInfo, path: String, builtin: Bool, generation: Int, runningTransitions: Int, state: State = .loaded,
    crashCount: Int = 0, lastCrash: PluginFault? = nil
  ) {
    self.info = info
    self.path = path
    self.builtin = builtin
    self.generation = generation
    self.runningTransitions = runningTransitions
    self.state = state
    self.crashCount = crashCount
    self.lastCrash = lastCrash
  }
}

/// A plugin file that the start-up auto-load could not load, as `plugins/list` reports it.
package struct LoadFailure: Sendable {
  package var path: String
  /// The error `plugins/load` would have answered.
  package var error: ResponseError

  package init(path: String, error: ResponseError) {
    self.path = path
    self.error = error
  }
}

/// The completion of one transition's call in a batch (`PluginHosting.advance`): the transition's index in the batch,
/// what the call returned and its frame.
package typealias BatchCompletion = (Int, Result<TransitionCommandResult, DriverError>, FrameBytes?) -> Void

/// Where plugins are loaded and transitions made.
///
/// - Important: Used on the host thread only; completions run on it, in the order the calls were made for any one
///   plugin.
package protocol PluginHosting: AnyObject {
  /// The animators transitions can use (metadata only; `transition/start`'s checks run against it).
  var catalog: any AnimatorCatalog { get }
  /// Whether plugins can be loaded at all (false for a fixed catalog of Swift animators: no `plugins/…` methods).
  var managesPlugins: Bool { get }
  /// Every loaded plugin, in load order.
  var plugins: [PluginStatus] { get }
  /// What could not be loaded (`plugins/list`'s `failed`), one entry per path, until that path loads: every file the
  /// start-up auto-load could not load, and every file whose `plugins/load` or `plugins/reload` crashed or hung its
  /// worker (1009: a fault of the plugin's code, which the list shows as it shows a loaded plugin's `lastCrash`; the
  /// other errors of a run-time load are the request's, answered to it alone).
  var loadFailures: [LoadFailure] { get }
  /// Told about each crash or hang of a plugin's worker, first (the session sends `window/logMessage`).
  var onFault: (PluginFault) -> Void { get set }

  /// Loads the plugin file at `path` (`plugins/load`): a plugin object, or 1001…1009.
  func load(path: String, completion: @escaping (Result<PluginStatus, ResponseError>) -> Void)
  /// Makes a new generation of plugin `pluginID` from its file (`plugins/reload`); clears a crashed state.
  func reload(pluginID: String, completion: @escaping (Result<PluginStatus, ResponseError>) -> Void)
  /// Unloads plugin `pluginID`: 1008 while transitions of its current generation run.
  func unload(pluginID: String, completion: @escaping (Result<Void, ResponseError>) -> Void)

  /// A driver for a prepared transition (not started), streaming its frames as `frames` says.
  ///
  /// - Throws: 1010 for a plugin marked crashed, 2008 when the animator cannot be made here and now.
  func makeDriver(
    _ prepared: PreparedTransition, frames: FrameMode, precision: FramePrecision?
  ) throws(ResponseError) -> any TransitionDriver
  /// Advances every one of `drivers` by `dt` seconds, each streaming a frame (one message per worker, not one per
  /// transition); `each` completes each one, `completion` runs after the last.
  func advance(
    _ drivers: [any TransitionDriver], by dt: Double, each: @escaping BatchCompletion, completion: @escaping () -> Void)
  /// Opens a scene where the animator's plugin runs (`scene/open`): the driver at once (calls made on it wait for
  /// the open), whether it opened in `completion`.
  ///
  /// - Throws: what is known before the plugin is asked (2001/2002, 1010).
  func openScene(
    _ request: SceneOpenRequest, completion: @escaping (Result<Void, ResponseError>) -> Void
  ) throws(ResponseError) -> any SceneDriver

  /// Whether calls are still on their way to or from plugin code elsewhere.
  var hasOutstandingCalls: Bool { get }
  /// Whether calls wait, unwritten, for plugin code elsewhere to take them, more than it should be given for now:
  /// while true the host reads no more input (flow control; the client's writes wait in its pipe instead).
  var isBackedUp: Bool { get }
  /// Waits, until `deadline` at most (monotonic seconds, as `ProtocolScheduler.now`), for the calls in flight; then
  /// completes whatever is still outstanding as lost. For SIGTERM and `exit`, which must end within the shutdown budget.
  func settle(until deadline: Double)
  /// Ends everything: no process of ours is left behind.
  func close()
}

extension PluginHosting {
  /// One call after the other, in this process.
  package func advanceEachInTurn(
    _ drivers: [any TransitionDriver], by dt: Double, each: @escaping BatchCompletion, completion: @escaping () -> Void
  ) {
    guard !drivers.isEmpty else { return completion() }
    var remaining = drivers.count
    for (index, driver) in drivers.enumerated() {
      driver.perform(.advance(seconds: dt), stream: true) { result, frame in
        each(index, result, frame)
        remaining -= 1
        if remaining == 0 { completion() }
      }
    }
  }
}

/// Plugins loaded into this process (`--isolation none`, render, the tests): the registry's generations, the factory's
/// local drivers. A crashing plugin takes the process down.
package final class InProcessPlugins: PluginHosting {
  /// The loaded plugins; nil for a fixed catalog.
  package let registry: PluginRegistry?
  package let catalog: any AnimatorCatalog
  private let factory: TransitionFactory
  package var loadFailures: [LoadFailure] = []
  package var onFault: (PluginFault) -> Void = { _ in }

  package init(catalog: any AnimatorCatalog, registry: PluginRegistry?) {
    self.catalog = catalog
    self.registry = registry
    self.factory = TransitionFactory(catalog: catalog)
  }

  /// The registry's plugins as a catalog.
  package convenience init(registry: PluginRegistry) {
    self.init(catalog: PluginAnimatorCatalog(registry: registry), registry: registry)
  }

  package var managesPlugins: Bool { registry != nil }

  package var plugins: [PluginStatus] {
    guard let registry else { return [] }
    return registry.plugins.map { status($0, registry) }
  }

  private func status(_ plugin: PluginRegistry.LoadedPlugin, _ registry: PluginRegistry) -> PluginStatus {
    var status = PluginStatus(
      info: plugin.info, path: plugin.path, builtin: registry.searchPath.isBuiltIn(plugin.path),
      generation: plugin.generation, runningTransitions: plugin.runningTransitions)
    status.alreadyLoaded = plugin.alreadyLoaded
    return status
  }

  package func load(path: String, completion: (Result<PluginStatus, ResponseError>) -> Void) {
    guard let registry else { return completion(.failure(.internalError("no plugins here"))) }
    do {
      let loaded = try registry.load(path: path)
      loadFailures.removeAll { $0.path == loaded.path }
      completion(.success(status(loaded, registry)))
    } catch {
      completion(.failure(.plugin(error)))
    }
  }

  package func reload(pluginID: String, completion: (Result<PluginStatus, ResponseError>) -> Void) {
    guard let registry else { return completion(.failure(.internalError("no plugins here"))) }
    do {
      completion(.success(status(try registry.reload(pluginID: pluginID), registry)))
    } catch {
      completion(.failure(.plugin(error)))
    }
  }

  package func unload(pluginID: String, completion: (Result<Void, ResponseError>) -> Void) {
    guard let registry else { return completion(.failure(.internalError("no plugins here"))) }
    do {
      try registry.unload(pluginID: pluginID)
      completion(.success(()))
    } catch {
      completion(.failure(.plugin(error)))
    }
  }

  package func makeDriver(
    _ prepared: PreparedTransition, frames: FrameMode, precision: FramePrecision?
  ) throws(ResponseError) -> any TransitionDriver {
    var adopted: AnimatorBinding?
    if let scene = prepared.request.scene {
      guard let local = scene as? LocalSceneDriver, let binding = local.runner.takeBinding() else {
        throw .internalError("the scene's transition is not pending here")
      }
      adopted = binding
    }
    do throws(TransitionStartError) {
      return try factory.make(prepared, frames: frames, precision: precision, adopting: adopted)
    } catch {
      throw error.responseError
    }
  }

  package func openScene(
    _ request: SceneOpenRequest, completion: (Result<Void, ResponseError>) -> Void
  ) throws(ResponseError) -> any SceneDriver {
    guard let registry else { throw .invalidParams(field: "params.animator", "this host runs no plugins") }
    let driver = LocalSceneDriver(runner: try SceneRunner(registry: registry, request: request))
    completion(.success(()))
    return driver
  }

  package func advance(
    _ drivers: [any TransitionDriver], by dt: Double, each: @escaping BatchCompletion, completion: @escaping () -> Void
  ) {
    advanceEachInTurn(drivers, by: dt, each: each, completion: completion)
  }

  package var hasOutstandingCalls: Bool { false }
  package var isBackedUp: Bool { false }
  package func settle(until deadline: Double) {}
  package func close() {}
}

extension PluginSearchPath {
  /// Whether `path` is a built-in plugin: a `libTransitionPlugin*.so` in the host binary's folder.
  package func isBuiltIn(_ path: String) -> Bool {
    guard let folder = builtInFolder, let slash = path.lastIndex(of: "/") else { return false }
    let name = path[path.index(after: slash)...]
    return path[..<slash] == folder && name.hasPrefix(PluginSearchPath.builtInPrefix)
  }
}
