import CTransitionABI

/// An ABI version as `major.minor`.
package struct ABIVersion: Sendable, Equatable, CustomStringConvertible {
  package var major: UInt32
  package var minor: UInt32

  package init(major: UInt32, minor: UInt32) {
    self.major = major
    self.minor = minor
  }

  /// The version this host speaks: the header's `TH_ABI_VERSION_MAJOR` / `_MINOR`, read through the C module, so
  /// the header is the one place it is written.
  package static let host = ABIVersion(major: TH_ABI_VERSION_MAJOR, minor: TH_ABI_VERSION_MINOR)

  package var description: String { "\(major).\(minor)" }
}

/// Why a plugin could not be loaded, unloaded or reloaded: one case per failure CONVENTIONS.md gives an application
/// error code (the transition service, which owns the codes, maps each case to its `ErrorCode`), plus
/// `unknownPlugin` for an id that names no loaded plugin.
///
/// `message` is what the protocol layer sends; the associated values are the error's `data`.
package enum PluginLoadError: Error, Sendable, Equatable {
  /// `pluginNotFound`: no file at the path, or no file of that name in any plugin folder.
  case fileNotFound(path: String)
  /// `pluginNotLoadable`: the file exists but is not a loadable shared object; `reason` is dlerror's text (or the
  /// system error met while reading it).
  case notLoadable(path: String, reason: String)
  /// `pluginEntryMissing`: the library does not export `th_plugin_entry`; `reason` is dlerror's text.
  case entrySymbolMissing(path: String, reason: String)
  /// `pluginABIIncompatible`: the plugin was built for another ABI major version (`pluginABI`), or its entry returned NULL
  /// to say that this host is too old for it (`pluginABI` nil).
  case abiIncompatible(path: String, pluginABI: ABIVersion?, hostABI: ABIVersion)
  /// `invalidPluginDescriptor`: the descriptor breaks the header's rules; `reason` names the field (e.g.
  /// `animators[1].id "probe" is used twice`).
  case invalidDescriptor(path: String, reason: String)
  /// `pluginInitFailed`: the plugin's `init` returned false.
  case initFailed(path: String, pluginID: String)
  /// `pluginPathNotAllowed`: the path lies outside every plugin folder and `--allow-any-plugin-path` was not given;
  /// `realPath` is set when the path as written is inside one but a link leads out of it (realpath's answer).
  case pathNotAllowed(path: String, realPath: String?, folders: [String])
  /// `pluginPathNotAllowed` too: another user could write the file or a folder on its way (`unsafePath`; `reason`
  /// says how, e.g. "is writable by every user (mode 0777)"), and `--allow-any-plugin-path` was not given.
  case unsafePermissions(path: String, unsafePath: String, reason: String)
  /// `pluginBusy`: the plugin cannot be unloaded while transitions of it run.
  case busy(pluginID: String, runningTransitions: Int)
  /// No loaded plugin has this id (invalid params: the caller named something that is not there).
  case unknownPlugin(pluginID: String)

  /// Whether the failure belongs to the file's contents (the same file version fails the same way again), rather
  /// than to where it is or to the registry's state.
  package var isIntrinsic: Bool {
    switch self {
    case .notLoadable, .entrySymbolMissing, .abiIncompatible, .invalidDescriptor, .initFailed: true
    case .fileNotFound, .pathNotAllowed, .unsafePermissions, .busy, .unknownPlugin: false
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
    case .pathNotAllowed(let path, nil, let folders):
      "\(path) is outside the plugin folders (\(folders.joined(separator: ", "))); "
        + "add its folder with --plugin-dir or start the host with --allow-any-plugin-path"
    case .pathNotAllowed(let path, let realPath?, let folders):
      "\(path) resolves to \(realPath), which is outside the plugin folders (\(folders.joined(separator: ", "))); "
        + "a link in a plugin folder must stay inside one: add the real folder with --plugin-dir or start the host "
        + "with --allow-any-plugin-path"
    case .unsafePermissions(let path, let unsafePath, let reason):
      "refusing to load \(path): \(unsafePath == path ? "it" : unsafePath) \(reason), so another user could "
        + "replace the plugin or plant one; fix the ownership or mode, or start the host with --allow-any-plugin-path"
    case .busy(let pluginID, let running):
      "plugin \(pluginID) is busy: \(running) transition\(running == 1 ? "" : "s") of it still running"
    case .unknownPlugin(let pluginID):
      "no plugin with id \(pluginID) is loaded"
    }
  }
}

/// Why an animator id did not resolve, or its instance could not be made.
package enum AnimatorLookupError: Error, Sendable, Equatable {
  /// `unknownAnimator`: no loaded plugin has an animator with this id.
  case unknown(id: String)
  /// `ambiguousAnimator`: a short id that several plugins use; `candidates` are the full `pluginId/animatorId`s.
  case ambiguous(id: String, candidates: [String])
  /// `animatorMisbehaved`: the animator's `create` returned NULL (`id` is `pluginId/animatorId`).
  case creationFailed(id: String)

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
