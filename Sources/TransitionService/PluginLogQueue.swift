// Plugin log lines on their way to the client as `window/logMessage`. A plugin may call `log` from any thread, so
// lines are queued under a lock and sent from the host thread (after each method and each frame timer).

import JSON
import PluginHost
import Synchronization

/// Plugin log records waiting to be sent.
package final class PluginLogQueue: Sendable {
  private let records = Mutex<[PluginLogRecord]>([])
  /// How many records are queued, readable without the lock: the host thread takes the queue after every method, and
  /// almost always finds it empty (a plain load then, where the lock costs two atomic operations per request).
  private let queuedCount = Atomic<Int>(0)
  /// The least severe level that is forwarded (the host's `--log-level`).
  package let minimumLevel: PluginLogLevel

  package init(minimumLevel: PluginLogLevel = .warning) {
    self.minimumLevel = minimumLevel
  }

  /// A logger that writes each record at `minimumLevel` or above to stderr and queues it for the client.
  package func logger() -> PluginLogger {
    let stderr = PluginLogger.standardError(minimumLevel: minimumLevel)
    return PluginLogger { [self] record in
      guard record.level >= minimumLevel else { return }
      stderr.write(record)
      append(record)
    }
  }

  /// Adds a record as if a plugin had logged it.
  package func append(_ record: PluginLogRecord) {
    records.withLock { queued in
      queued.append(record)
      queuedCount.store(queued.count, ordering: .releasing)
    }
  }

  /// Takes every queued record.
  package func take() -> [PluginLogRecord] {
    // A record appended after this load is taken the next time, as one appended just after the lock would be.
    guard queuedCount.load(ordering: .acquiring) > 0 else { return [] }
    return records.withLock { queued in
      defer {
        queued = []
        queuedCount.store(0, ordering: .releasing)
      }
      return queued
    }
  }

  /// LSP's `MessageType` for a plugin log level: 1 error, 2 warning, 3 info, 4 log.
  static func messageType(_ level: PluginLogLevel) -> Int {
    switch level {
    case .debug: 4
    case .info: 3
    case .warning: 2
    case .error, .fatal, .hostMisbehaving, .pluginMisbehaving: 1
    }
  }
}
