import CTransitionABI
import PluginHost
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// A registry whose only folder is `folder` (no built-in folder).
func makeRegistry(folder: String, allowAnyPath: Bool = false, log: LogCapture = LogCapture()) -> PluginRegistry {
  PluginRegistry(
    searchPath: PluginSearchPath(builtInFolder: nil, pluginDirs: [folder]), allowAnyPath: allowAnyPath,
    logger: log.logger)
}

/// The error `body` throws, or nil.
func loadError(_ body: () throws(PluginLoadError) -> Void) -> PluginLoadError? {
  do {
    try body()
    return nil
  } catch {
    return error
  }
}
