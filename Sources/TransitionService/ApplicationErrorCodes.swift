// The transition protocol's own error codes (CONVENTIONS, "Errors"), outside the range JSON-RPC reserves, in one
// place: JSONRPC knows only JSON-RPC's codes, PluginHost reports typed errors, and this file says which code each
// failure has on the wire. Messages are one sentence; structure goes into `data` (ProtocolErrors.swift).

import JSONRPC
import PluginHost

extension ErrorCode {
  // MARK: Plugins

  /// 1001: the plugin file does not exist.
  package static let pluginNotFound = ErrorCode(rawValue: 1001)
  /// 1002: the file is not a loadable shared object (`data` carries the dlerror text).
  package static let pluginNotLoadable = ErrorCode(rawValue: 1002)
  /// 1003: the shared object has no `th_plugin_entry` symbol.
  package static let pluginEntryMissing = ErrorCode(rawValue: 1003)
  /// 1004: the plugin's ABI version is incompatible with the host's.
  package static let pluginABIIncompatible = ErrorCode(rawValue: 1004)
  /// 1005: the plugin's descriptor is invalid.
  package static let invalidPluginDescriptor = ErrorCode(rawValue: 1005)
  /// 1006: the plugin's init function failed.
  package static let pluginInitFailed = ErrorCode(rawValue: 1006)
  /// 1007: loading from this path is not allowed: outside the plugin folders (after links are resolved), or writable by
  /// other users (see `--allow-any-plugin-path`).
  package static let pluginPathNotAllowed = ErrorCode(rawValue: 1007)
  /// 1008: the plugin cannot be unloaded while transitions use it.
  package static let pluginBusy = ErrorCode(rawValue: 1008)
  /// 1009: the plugin's worker process died (or hung) while loading it: a crashing library constructor, entry point
  /// or `init` (`data` carries the signal or exit status).
  package static let pluginCrashedWhileLoading = ErrorCode(rawValue: 1009)
  /// 1010: the plugin is marked crashed (it crashed `--plugin-crash-limit` times within `--plugin-crash-window`);
  /// `plugins/reload` clears it.
  package static let pluginMarkedCrashed = ErrorCode(rawValue: 1010)

  // MARK: Transitions

  /// 2001: no animator has this id.
  package static let unknownAnimator = ErrorCode(rawValue: 2001)
  /// 2002: a short animator id matches several animators.
  package static let ambiguousAnimator = ErrorCode(rawValue: 2002)
  /// 2003: the animator does not support the operation.
  package static let operationNotSupported = ErrorCode(rawValue: 2003)
  /// 2004: the view tree is invalid (`data` names the node id and field).
  package static let invalidViewTree = ErrorCode(rawValue: 2004)
  /// 2005: no transition has this id.
  package static let unknownTransition = ErrorCode(rawValue: 2005)
  /// 2006: the call is not allowed in the transition's current state.
  package static let invalidTransitionState = ErrorCode(rawValue: 2006)
  /// 2007: the concurrency limit (`--max-transitions`) is reached.
  package static let tooManyTransitions = ErrorCode(rawValue: 2007)
  /// 2008: the animator misbehaved (never or twice completed, invalid values, no instance).
  package static let animatorMisbehaved = ErrorCode(rawValue: 2008)
  /// 2009: the plugin crashed: its worker process died (`data`: plugin, animator, phase, signal or exit status,
  /// stderr tail).
  package static let pluginCrashed = ErrorCode(rawValue: 2009)
  /// 2010: the plugin hung: a call into it exceeded `--plugin-timeout` and its worker was killed.
  package static let pluginHung = ErrorCode(rawValue: 2010)
  /// 2011: no gesture recognizer received a `transition/gesture` sample (`data.reason`: `noRecognizers`, `notHit`
  /// or `notInProgress`).
  package static let gestureNotReceived = ErrorCode(rawValue: 2011)
  /// 2012: `scene/open` named an animator that declares no view controllers (no "th.scene-controller/1").
  package static let noScene = ErrorCode(rawValue: 2012)
  /// 2013: no open scene has that id (`scene/gesture`, `scene/close`).
  package static let unknownScene = ErrorCode(rawValue: 2013)

  /// Every application code, for tables and tests.
  package static let applicationCodes: [ErrorCode] = [
    .pluginNotFound, .pluginNotLoadable, .pluginEntryMissing, .pluginABIIncompatible, .invalidPluginDescriptor,
    .pluginInitFailed, .pluginPathNotAllowed, .pluginBusy, .pluginCrashedWhileLoading, .pluginMarkedCrashed,
    .unknownAnimator, .ambiguousAnimator, .operationNotSupported, .invalidViewTree, .unknownTransition,
    .invalidTransitionState, .tooManyTransitions, .animatorMisbehaved, .pluginCrashed, .pluginHung,
    .gestureNotReceived, .noScene, .unknownScene,
  ]
}

extension PluginLoadError {
  /// The code this failure has on the wire (an unknown plugin id is invalid params).
  package var errorCode: ErrorCode {
    switch self {
    case .fileNotFound: .pluginNotFound
    case .notLoadable: .pluginNotLoadable
    case .entrySymbolMissing: .pluginEntryMissing
    case .abiIncompatible: .pluginABIIncompatible
    case .invalidDescriptor: .invalidPluginDescriptor
    case .initFailed: .pluginInitFailed
    case .pathNotAllowed, .unsafePermissions: .pluginPathNotAllowed
    case .busy: .pluginBusy
    case .unknownPlugin: .invalidParams
    }
  }
}

extension AnimatorLookupError {
  /// The code this failure has on the wire.
  package var errorCode: ErrorCode {
    switch self {
    case .unknown: .unknownAnimator
    case .ambiguous: .ambiguousAnimator
    case .creationFailed: .animatorMisbehaved
    }
  }
}
