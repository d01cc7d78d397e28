import POSIX
import PluginHost

/// How much the host writes to stderr (`--log-level`).
package enum LogLevel: Int, Comparable, CaseIterable, Sendable {
  case error = 0
  case warn
  case info
  case debug

  /// The spelling used on the command line and in log lines.
  package var name: String {
    switch self {
    case .error: "error"
    case .warn: "warn"
    case .info: "info"
    case .debug: "debug"
    }
  }

  /// Parses a command-line spelling (`error`, `warn`, `info`, `debug`).
  package init?(name: String) {
    guard let level = Self.allCases.first(where: { $0.name == name }) else { return nil }
    self = level
  }

  package static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Writes log lines to a file descriptor (stderr in the host): never to stdout, which belongs to the protocol.
///
/// Each line is one `write(2)` of `transition-host: <level>: <message>\n`, so lines from the host are not
/// interleaved with each other. Messages are built only when their level is enabled.
package struct Logger: Sendable {
  /// The most detailed level that is written.
  package var level: LogLevel
  /// Where lines go; stderr unless a test captures them.
  package var destination: FileDescriptor

  package init(level: LogLevel = .warn, destination: FileDescriptor = .standardError) {
    self.level = level
    self.destination = destination
  }

  /// Whether messages of `level` are written.
  package func isEnabled(_ level: LogLevel) -> Bool { level <= self.level }

  /// Writes `message` at `level` when that level is enabled.
  package func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
    guard isEnabled(level) else { return }
    // A log line is best effort: a closed stderr must not stop the host.
    try? destination.writeAll("\(HostIdentity.name): \(level.name): \(message())\n")
  }

  package func error(_ message: @autoclosure () -> String) { log(.error, message()) }
  package func warn(_ message: @autoclosure () -> String) { log(.warn, message()) }
  package func info(_ message: @autoclosure () -> String) { log(.info, message()) }
  package func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
}
