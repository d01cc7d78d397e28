/// What the host calls itself, in one place: `--version`, `initialize`'s `serverInfo`, log lines, and the
/// `th_host_info` every plugin gets.
package enum HostIdentity {
  /// The executable's name.
  package static let name = "transition-host"
  /// The host's own version.
  package static let version = "0.1.0"
}
