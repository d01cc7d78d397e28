// `render` talks to the protocol's own method handlers in-process: the same TransitionSession a client on stdin
// reaches, with its dispatcher's output captured instead of written to a pipe. So a rendered frame is byte for
// byte the frame a client would have received for the same calls on the manual clock.

import JSON
import JSONRPC
import TransitionService

/// A private host: plugins from the usual search path, the protocol's methods, and a captured output.
///
/// - Important: Single-threaded, like the host.
final class RenderSession {
  /// A message the host sent: its exact bytes (unframed) and the parsed value.
  struct Message {
    var bytes: [UInt8]
    var json: JSON
    var method: String? { json["method"]?.stringValue }
  }

  /// Why a call failed: the error reply.
  struct CallError: Error, CustomStringConvertible {
    var code: Int
    var message: String
    var description: String { "\(message) (error \(code))" }
  }

  let dispatcher: Dispatcher
  let service: TransitionSession
  let catalog: any AnimatorCatalog
  private let logger: Logger
  private var outbox: [[UInt8]] = []
  private var nextID: Int64 = 1

  /// Loads plugins as `serve` does (the built-ins beside the binary, `--plugin-dir`, TRANSITION_HOST_PLUGIN_PATH).
  init(options: HostOptions, logger: Logger) {
    self.logger = logger
    // The same search path and registry as TransitionProtocol.install, minus the event loop.
    dispatcher = Dispatcher()
    service = TransitionSession.loadingPlugins(
      options.pluginSetup, configuration: TransitionSession.Configuration(maxTransitions: options.maxTransitions),
      output: dispatcher, scheduler: IdleScheduler(), logger: logger)
    catalog = service.catalog
    service.register(on: dispatcher)
    dispatcher.output = { [unowned self] body in outbox.append(Array(body)) }
  }

  /// Sends a request; returns its result and the notifications the host sent meanwhile, in order. Log messages
  /// (`window/logMessage`) go to stderr instead.
  func call(_ method: String, _ params: JSON) -> (result: Result<JSON, CallError>, notifications: [Message]) {
    let id = nextID
    nextID += 1
    let request: JSON = ["jsonrpc": "2.0", "id": JSON(id), "method": JSON(method), "params": params]
    outbox.removeAll(keepingCapacity: true)
    dispatcher.handle(request.serialized())
    var result: Result<JSON, CallError> = .failure(CallError(code: -32603, message: "\(method): no reply"))
    var notifications: [Message] = []
    for bytes in outbox {
      guard let json = try? bytes.withUnsafeBytes({ buffer throws(JSONParseError) in try JSON.parse(buffer) }) else {
        continue
      }
      if json["method"] == nil {
        if json["id"]?.intValue == id {
          if let error = json["error"] {
            result = .failure(
              CallError(
                code: Int(error["code"]?.intValue ?? -32603), message: error["message"]?.stringValue ?? "error"))
          } else {
            result = .success(json["result"] ?? .null)
          }
        }
      } else if json["method"]?.stringValue == "window/logMessage" {
        let type = json["params"]?["type"]?.intValue ?? 4
        let text = json["params"]?["message"]?.stringValue ?? ""
        logger.log(type <= 1 ? .error : type == 2 ? .warn : .info, text)
      } else {
        notifications.append(Message(bytes: bytes, json: json))
      }
    }
    outbox.removeAll(keepingCapacity: true)
    return (result, notifications)
  }

  /// Ends every live transition (there is no end of input to do it).
  func close() {
    service.terminateAll(reason: "inputClosed")
  }
}

/// The scheduler of a host without real time: render only starts manual-clock transitions, which never ask for a
/// timer; `now` is the start of time.
private final class IdleScheduler: ProtocolScheduler {
  private var next: UInt64 = 1
  var now: Double { 0 }

  func schedule(at deadline: Double, _ action: @escaping () -> Void) -> ProtocolTimerID {
    // Never called for manual clocks; a real-time transition would simply never get a frame timer here.
    defer { next += 1 }
    return ProtocolTimerID(rawValue: next)
  }

  func cancel(_ timer: ProtocolTimerID) {}
}
