/// A JSON-RPC error code: the five the specification reserves, LSP's `RequestCancelled`, and the
/// application's own codes (1001…1008 for plugins, 2001…2008 for transitions), which lie outside the
/// range JSON-RPC reserves (−32768…−32000).
package struct ErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  package var rawValue: Int

  package init(rawValue: Int) {
    self.rawValue = rawValue
  }

  package var description: String { String(rawValue) }

  // MARK: JSON-RPC 2.0

  /// Invalid JSON was received (−32700).
  package static let parseError = ErrorCode(rawValue: -32700)
  /// The JSON sent is not a valid request object (−32600).
  package static let invalidRequest = ErrorCode(rawValue: -32600)
  /// The method does not exist or is not available (−32601).
  package static let methodNotFound = ErrorCode(rawValue: -32601)
  /// Invalid method parameters (−32602).
  package static let invalidParams = ErrorCode(rawValue: -32602)
  /// An internal error of the host (−32603).
  package static let internalError = ErrorCode(rawValue: -32603)

  // MARK: LSP

  /// The request was cancelled with `$/cancelRequest` before it finished (−32800, LSP's RequestCancelled).
  package static let requestCancelled = ErrorCode(rawValue: -32800)

  // MARK: Plugins (1001…1008)

  /// The plugin file does not exist.
  package static let pluginNotFound = ErrorCode(rawValue: 1001)
  /// The file is not a loadable shared object (`data` carries the dlerror text).
  package static let pluginNotLoadable = ErrorCode(rawValue: 1002)
  /// The shared object has no `th_plugin_entry` symbol.
  package static let pluginEntryMissing = ErrorCode(rawValue: 1003)
  /// The plugin's ABI version is incompatible with the host's.
  package static let pluginABIIncompatible = ErrorCode(rawValue: 1004)
  /// The plugin's descriptor is invalid.
  package static let invalidPluginDescriptor = ErrorCode(rawValue: 1005)
  /// The plugin's init function failed.
  package static let pluginInitFailed = ErrorCode(rawValue: 1006)
  /// Loading from this path is not allowed (see `--allow-any-plugin-path`).
  package static let pluginPathNotAllowed = ErrorCode(rawValue: 1007)
  /// The plugin cannot be unloaded while transitions use it.
  package static let pluginBusy = ErrorCode(rawValue: 1008)

  // MARK: Transitions (2001…2008)

  /// No animator has this id.
  package static let unknownAnimator = ErrorCode(rawValue: 2001)
  /// A short animator id matches several animators.
  package static let ambiguousAnimator = ErrorCode(rawValue: 2002)
  /// The animator does not support the operation.
  package static let operationNotSupported = ErrorCode(rawValue: 2003)
  /// The view tree is invalid (`data` names the node id and field).
  package static let invalidViewTree = ErrorCode(rawValue: 2004)
  /// No transition has this id.
  package static let unknownTransition = ErrorCode(rawValue: 2005)
  /// The call is not allowed in the transition's current state.
  package static let invalidTransitionState = ErrorCode(rawValue: 2006)
  /// The concurrency limit (`--max-transitions`) is reached.
  package static let tooManyTransitions = ErrorCode(rawValue: 2007)
  /// The animator misbehaved (never or twice completed, invalid values).
  package static let animatorMisbehaved = ErrorCode(rawValue: 2008)
}
