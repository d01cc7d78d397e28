import CTransitionABI

/// What the host calls itself, in one place: `--version`, `initialize`'s `serverInfo`, log lines, and the
/// `th_host_info` every plugin gets.
package enum HostIdentity {
  /// The executable's name.
  package static let name = "transition-host"
  /// The host's own version.
  package static let version = "0.1.0"
}

extension ABIVersion {
  /// The version this host speaks: the header's `TH_ABI_VERSION_MAJOR` / `_MINOR`, read through the C module, so
  /// the header is the one place it is written.
  package static let host = ABIVersion(major: TH_ABI_VERSION_MAJOR, minor: TH_ABI_VERSION_MINOR)
}
