import CTransitionABI

/// An ABI version as `major.minor`.
package struct ABIVersion: Sendable, Equatable, CustomStringConvertible {
  package var major: UInt32
  package var minor: UInt32

  package init(major: UInt32, minor: UInt32) {
    self.major = major
    self.minor = minor
  }

  /// The version this host speaks: the header's `TH_ABI_VERSION_MAJOR` / `_MINOR`.
  package static let host = ABIVersion(major: TH_ABI_VERSION_MAJOR, minor: TH_ABI_VERSION_MINOR)

  package var description: String { "\(major).\(minor)" }
}

/// Why a plugin could not be loaded, unloaded or reloaded: one case per application error code of
/// CONVENTIONS.md (1001–1008), plus `unknownPlugin` for an id that names no loaded plugin.
///
/// `code` and `message` are what the protocol layer sends; the associated values are the error's `data`.
package enum PluginLoadError: Error, Sendable, Equatable {
  /// 1001: no file at the path, or no file of that name in any plugin folder.
  case fileNotFound(path: String)
  /// 1002: the file exists but is not a loadable shared object; `reason` is dlerror's text (or the
  /// system error met while reading it).
  case notLoadable(path: String, reason: String)
  /// 1003: the library does not export `th_plugin_entry`; `reason` is dlerror's text.
  case entrySymbolMissing(path: String, reason: String)
  /// 1004: the plugin was built for another ABI major version (`pluginABI`), or its entry returned NULL
  /// to say that this host is too old for it (`pluginABI` nil).
  case abiIncompatible(path: String, pluginABI: ABIVersion?, hostABI: ABIVersion)
  /// 1005: the descriptor breaks the header's rules; `reason` names the field (e.g.
  /// `animators[1].id "probe" is used twice`).
  case invalidDescriptor(path: String, reason: String)
  /// 1006: the plugin's `init` returned false.
  case initFailed(path: String, pluginID: String)
  /// 1007: the path lies outside every plugin folder and `--allow-any-plugin-path` was not given.
  case pathNotAllowed(path: String, folders: [String])
  /// 1008: the plugin cannot be unloaded while transitions of it run.
  case busy(pluginID: String, runningTransitions: Int)
  /// No loaded plugin has this id (code -32602, invalid params: the caller named something that is not there).
  case unknownPlugin(pluginID: String)

  /// The JSON-RPC error code.
  package var code: Int {
    switch self {
    case .fileNotFound: 1001
    case .notLoadable: 1002
    case .entrySymbolMissing: 1003
    case .abiIncompatible: 1004
    case .invalidDescriptor: 1005
    case .initFailed: 1006
    case .pathNotAllowed: 1007
    case .busy: 1008
    case .unknownPlugin: -32602
    }
  }

  /// One sentence for people.
  package var message: String {
    switch self {
    case .fileNotFound(let path):
      "plugin file not found: \(path)"
    case .notLoadable(let path, let reason):
      "not a loadable shared object: \(path): \(reason)"
    case .entrySymbolMissing(let path, _):
      "\(path) does not export the entry function th_plugin_entry"
    case .abiIncompatible(let path, let plugin?, let host):
      "\(path) was built for plugin ABI \(plugin); this host speaks ABI \(host) (the major versions must match)"
    case .abiIncompatible(let path, nil, let host):
      "\(path) declined this host: th_plugin_entry returned NULL for host ABI \(host)"
    case .invalidDescriptor(let path, let reason):
      "invalid plugin descriptor in \(path): \(reason)"
    case .initFailed(let path, let pluginID):
      "plugin \(pluginID) (\(path)) failed to initialise: its init returned false"
    case .pathNotAllowed(let path, let folders):
      "\(path) is outside the plugin folders (\(folders.joined(separator: ", "))); "
        + "add its folder with --plugin-dir or start the host with --allow-any-plugin-path"
    case .busy(let pluginID, let running):
      "plugin \(pluginID) is busy: \(running) transition\(running == 1 ? "" : "s") of it still running"
    case .unknownPlugin(let pluginID):
      "no plugin with id \(pluginID) is loaded"
    }
  }
}

/// Why an animator id did not resolve (CONVENTIONS: 2001, 2002).
package enum AnimatorLookupError: Error, Sendable, Equatable {
  /// 2001: no loaded plugin has an animator with this id.
  case unknown(id: String)
  /// 2002: a short id that several plugins use; `candidates` are the full `pluginId/animatorId`s.
  case ambiguous(id: String, candidates: [String])
  /// 2008: the animator's `create` returned NULL (`id` is `pluginId/animatorId`).
  case creationFailed(id: String)

  /// The JSON-RPC error code.
  package var code: Int {
    switch self {
    case .unknown: 2001
    case .ambiguous: 2002
    case .creationFailed: 2008
    }
  }

  /// One sentence for people.
  package var message: String {
    switch self {
    case .unknown(let id):
      "unknown animator \(id)"
    case .ambiguous(let id, let candidates):
      "ambiguous animator id \(id): use one of \(candidates.joined(separator: ", "))"
    case .creationFailed(let id):
      "animator \(id) misbehaved: its create returned NULL"
    }
  }
}
