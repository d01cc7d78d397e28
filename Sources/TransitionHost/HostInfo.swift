/// Names and versions the host reports (`--version`, `initialize`).
///
/// Each is one constant so the issue that changes it changes one line.
package enum HostInfo {
  /// The executable's name, used in `serverInfo.name`, usage text and log lines.
  package static let name = "transition-host"

  /// The host's own version (`--version`, `serverInfo.version`).
  package static let version = "0.1.0"

  /// The version of the protocol that Protocol.md documents. It changes when a method's meaning changes
  /// incompatibly; added methods and fields are announced through capabilities instead.
  package static let protocolVersion = "1.0"

  /// The plugin ABI version the host implements, as `(major, minor)`.
  ///
  /// - Important: The ABI issue defines `TH_ABI_VERSION` in the plugin header; this constant must then be
  ///   derived from it (one line to change).
  package static let pluginABI = (major: 1, minor: 0)
}
