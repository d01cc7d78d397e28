// `render` is a client of the transition service: a session on the start-up plugins, reached through a
// LocalConnection (real framing, real JSON-RPC), on a clock that never moves by itself. So a rendered frame is byte
// for byte the frame a client on stdin would have received for the same calls on the manual clock.

import JSON
import JSONRPC
import PluginHost
import TransitionService

/// A private host and its client.
///
/// - Important: Single-threaded, like the host.
final class RenderSession {
  /// A notification the host sent: its exact bytes (unframed) and the parsed value.
  typealias Message = LocalConnection.Received

  /// Why a call failed: the error reply.
  struct CallError: Error, CustomStringConvertible {
    var code: Int
    var message: String
    var description: String { "\(message) (error \(code))" }
  }

  private let connection = LocalConnection(recordsOutputBytes: false)
  private let session: TransitionSession

  /// Loads plugins as `serve` does (the built-ins beside the binary, `--plugin-dir`, TRANSITION_HOST_PLUGIN_PATH).
  init(plugins: PluginSetup, maxTransitions: Int, logger: Logger) {
    session = TransitionSession.loadingPlugins(
      plugins, configuration: TransitionSession.Configuration(maxTransitions: maxTransitions),
      output: connection.dispatcher, scheduler: StoppedClock(), logger: logger)
    session.register(on: connection.dispatcher)
  }

  /// Every available animator.
  var animators: [AnimatorEntry] { session.catalog.entries }

  /// The start-up plugins that failed to load, by file or folder (each was a warning on stderr).
  var startupLoadFailures: [(path: String, error: PluginLoadError)] { session.startupLoadFailures }

  /// Sends a request; returns its result and the notifications the host sent meanwhile, in order, log messages
  /// (`window/logMessage`) included: the session has already put each of them on stderr.
  func call(_ method: String, _ params: JSON) -> (result: Result<JSON, CallError>, notifications: [Message]) {
    let reply = connection.request(method, params)
    let notifications = connection.takeReceived().filter { $0.json["method"] != nil }
    guard let reply else { return (.failure(CallError(code: -32603, message: "\(method): no reply")), notifications) }
    if let error = reply["error"] {
      let failure = CallError(
        code: Int(error["code"]?.intValue ?? -32603), message: error["message"]?.stringValue ?? "error")
      return (.failure(failure), notifications)
    }
    return (.success(reply["result"] ?? .null), notifications)
  }

  /// Ends every live transition (there is no end of input to do it).
  func close() {
    session.terminateAll(reason: "inputClosed")
    _ = connection.takeReceived()
  }
}
