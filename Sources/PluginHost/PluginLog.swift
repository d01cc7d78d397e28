import CTransitionABI
import POSIX
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A plugin's log line: who wrote it, how severe, what.
package struct PluginLogRecord: Sendable, Equatable {
  /// The plugin id, with `/animatorId` when it came from a transition context (also one that has ended, while
  /// the host remembers it); "unknown plugin" for a context the host does not know (a made-up one).
  package var source: String
  package var level: PluginLogLevel
  package var message: String

  package init(source: String, level: PluginLogLevel, message: String) {
    self.source = source
    self.level = level
    self.message = message
  }
}

/// The ABI's log levels (`th_log_level`).
package enum PluginLogLevel: Int, Sendable, Comparable, CaseIterable {
  case debug = 0
  case info = 1
  case warning = 2
  case error = 3
  case fatal = 4
  case hostMisbehaving = 5
  case pluginMisbehaving = 6

  package static func < (a: PluginLogLevel, b: PluginLogLevel) -> Bool { a.rawValue < b.rawValue }

  /// The word the host's `--log-level` uses for this severity (the misbehaviour levels are errors).
  package var hostLevelName: String {
    switch self {
    case .debug: "debug"
    case .info: "info"
    case .warning: "warn"
    case .error, .fatal, .hostMisbehaving, .pluginMisbehaving: "error"
    }
  }
}

/// Where plugin log lines go. The default writes one line per record to stderr (never stdout: that is the
/// protocol stream).
package struct PluginLogger: Sendable {
  package var write: @Sendable (PluginLogRecord) -> Void

  package init(write: @escaping @Sendable (PluginLogRecord) -> Void) {
    self.write = write
  }

  /// Writes records at `minimumLevel` or above to fd 2 as `transition-host: [warn] plugin ID: message`.
  package static func standardError(minimumLevel: PluginLogLevel = .warning) -> PluginLogger {
    PluginLogger { record in
      guard record.level >= minimumLevel else { return }
      let message = record.message.replacingAll("\n", with: " ")
      // Best effort: a closed stderr must not stop the plugin or the host.
      try? FileDescriptor.standardError.writeAll(
        "transition-host: [\(record.level.hostLevelName)] plugin \(record.source): \(message)\n")
    }
  }
}

/// The ABI's `log`: routes the line to the logger of the context's plugin. Never fails visibly.
let hostLog: @convention(c) (th_context, th_log_level, UnsafePointer<CChar>?) -> Void = { context, level, message in
  let text = message.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: strlen($0)), as: UTF8.self) }
  let severity = PluginLogLevel(rawValue: Int(level.rawValue)) ?? .error
  let directory = ContextDirectory.shared
  let owner: ContextDirectory.Entry?
  switch directory.lookup(context) {
  case .live(let entry): owner = entry
  // A context of an ended transition is still the plugin's, while its tombstone lasts (as for host calls).
  case .stale: owner = directory.tombstone(context)
  case .invalid: owner = nil
  }
  if let owner {
    owner.logger.write(PluginLogRecord(source: owner.source, level: severity, message: text ?? "(null message)"))
  } else {
    // Nobody to attribute it to: still show it, at the level asked for, on stderr.
    PluginLogger.standardError(minimumLevel: .debug).write(
      PluginLogRecord(source: "unknown plugin", level: severity, message: text ?? "(null message)"))
  }
}
