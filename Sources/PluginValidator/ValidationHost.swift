import CTransitionABI
import PluginHost
import Synchronization
import TransitionEngine

#if canImport(Glibc)
  import Glibc
#endif

/// The host side of a check process: the host's own `PluginRegistry` (any path allowed, no built-in folder),
/// with the plugin's log lines kept so that misbehaviour reported outside a transition is seen.
final class ValidationHost {
  let registry: PluginRegistry
  let log = LogRecorder()

  init() {
    registry = PluginRegistry(
      searchPath: PluginSearchPath(builtInFolder: nil), allowAnyPath: true, logger: log.logger)
  }

  /// Loads the plugin as the host does.
  func load(_ plugin: String) -> Result<PluginRegistry.LoadedPlugin, PluginLoadError> {
    do { return .success(try registry.load(path: plugin)) } catch { return .failure(error) }
  }

  /// Unloads every plugin (their final deinit runs).
  func unloadAll() throws(PluginLoadError) {
    for plugin in registry.plugins { try registry.unload(pluginID: plugin.info.id) }
  }

  /// Opens the library the registry loaded for `pluginID` once more (the same mapping: dlopen finds it by the
  /// name it was loaded under, RTLD_NOLOAD) and calls `body` with its entry function and the generation's own
  /// `th_host_info`, the one the plugin got from the loader.
  private func withLoadedLibrary<T>(
    pluginID: String, _ body: (th_plugin_entry_fn, UnsafePointer<th_host_info>) -> Result<T, CheckFailure>
  ) -> Result<T, CheckFailure> {
    guard let plugin = registry.plugins.first(where: { $0.info.id == pluginID }),
      let first = plugin.info.animators.first,
      let lease = try? registry.lease(animatorID: "\(pluginID)/\(first.id)")
    else { return .failure(CheckFailure("the loaded plugin \(pluginID) cannot be found again")) }
    defer { lease.end() }
    _ = dlerror()
    guard let handle = dlopen(lease.generation.loadedCopyPath, RTLD_NOW | RTLD_NOLOAD) else {
      return .failure(CheckFailure("cannot open the loaded library again: \(String(cString: dlerror()))"))
    }
    defer { dlclose(handle) }  // only drops the reference taken above
    guard let address = dlsym(handle, TH_PLUGIN_ENTRY_SYMBOL) else {
      return .failure(CheckFailure("th_plugin_entry is gone from the loaded library"))
    }
    return body(unsafeBitCast(address, to: th_plugin_entry_fn.self), lease.hostInfo)
  }

  /// th_plugin_entry called once more on the loaded library.
  func callEntryAgain(pluginID: String) -> Result<UnsafePointer<th_plugin_descriptor>?, CheckFailure> {
    withLoadedLibrary(pluginID: pluginID) { entry, hostInfo in .success(entry(hostInfo)) }
  }

  /// Whether the loaded plugin's descriptor has an `init` function.
  func hasInit(pluginID: String) -> Result<Bool, CheckFailure> {
    withLoadedLibrary(pluginID: pluginID) { entry, hostInfo in
      guard let descriptor = entry(hostInfo) else {
        return .failure(CheckFailure("a second call of th_plugin_entry returned NULL"))
      }
      return .success(descriptor.pointee.`init` != nil)
    }
  }

  /// What a second `init` on the loaded library did.
  enum SecondInit: Equatable {
    /// It returned true; one `deinit` was then called to balance it.
    case ran
    /// It returned false.
    case refused
    /// The plugin has no `init`.
    case noInit
  }

  /// Calls `init` a second time on the loaded library (as a host that loads the same file twice would) and,
  /// when it succeeds, `deinit` once.
  func initAgain(pluginID: String) -> Result<SecondInit, CheckFailure> {
    withLoadedLibrary(pluginID: pluginID) { entry, hostInfo in
      guard let descriptor = entry(hostInfo) else {
        return .failure(CheckFailure("a second call of th_plugin_entry returned NULL"))
      }
      guard let initialize = descriptor.pointee.`init` else { return .success(.noInit) }
      guard initialize(hostInfo) else { return .success(.refused) }
      descriptor.pointee.deinit?()
      return .success(.ran)
    }
  }
}

/// Why a step of a check could not go on.
struct CheckFailure: Error {
  var reason: String
  init(_ reason: String) { self.reason = reason }
}

/// Keeps a check process's plugin log lines.
final class LogRecorder: Sendable {
  private let records = Mutex<[PluginLogRecord]>([])

  var logger: PluginLogger {
    PluginLogger { record in self.records.withLock { $0.append(record) } }
  }

  /// Records at the `pluginMisbehaving` level: misuse the host saw outside a transition.
  var misbehaviour: [PluginLogRecord] {
    records.withLock { $0.filter { $0.level == .pluginMisbehaving } }
  }
}
