// A small newline-JSON client for the transition end-to-end tests: requests by id over a real `transition-host`
// process, with every notification kept in order. The expected curves are TestSupport's `Reference` and
// `UIKitSpring`, computed from their published definitions, never with the engine's code.

import Foundation
import JSON

/// Drives a `HostProcess` with requests and collects what it sends back.
final class TransitionClient {
  let host: HostProcess
  /// Every message received, in order.
  private(set) var received: [JSON] = []
  /// How many of `received` were handed out by `takeNotifications`.
  private var consumed = 0
  private var nextID = 1

  init(_ arguments: [String] = [], environment: [String: String]? = nil) throws {
    host = try HostProcess(arguments, environment: environment)
  }

  /// A client of a host started by the caller.
  init(host: HostProcess) {
    self.host = host
  }

  /// Sends `message` as one line.
  func send(_ message: JSON) {
    host.send(lines: [message.serialized()])
  }

  /// Sends a request and waits for its reply; the messages before it stay queued for `takeNotifications`.
  @discardableResult
  func request(_ method: String, _ params: JSON = [:], timeout: Double = 30) -> JSON {
    let id = nextID
    nextID += 1
    send(["jsonrpc": "2.0", "id": JSON(id), "method": JSON(method), "params": params])
    return waitFor(timeout: timeout) { $0["id"]?.intValue == Int64(id) } ?? .null
  }

  /// The result of a request (null when it failed).
  @discardableResult
  func result(_ method: String, _ params: JSON = [:]) -> JSON {
    request(method, params)["result"] ?? .null
  }

  /// The error of a request (null when it succeeded).
  func error(_ method: String, _ params: JSON = [:]) -> JSON {
    request(method, params)["error"] ?? .null
  }

  /// Sends a notification.
  func notify(_ method: String, _ params: JSON) {
    send(["jsonrpc": "2.0", "method": JSON(method), "params": params])
  }

  /// Returns the first received message (earlier ones included) that satisfies `isWanted`, waiting for more
  /// output while there is none; nil after `timeout` or once the host's stdout ended without one.
  func waitFor(timeout: Double = 30, _ isWanted: (JSON) -> Bool) -> JSON? {
    let deadline = Date(timeIntervalSinceNow: timeout)
    var checked = 0
    while true {
      if let found = received[checked...].first(where: isWanted) { return found }
      checked = received.count
      let remaining = deadline.timeIntervalSinceNow
      guard remaining > 0 else { return nil }
      let lines = host.lines(atLeast: received.count + 1, timeout: remaining)
      // No new line: the wait timed out or stdout ended.
      guard lines.count > received.count else { return nil }
      received += lines[received.count...].map { try! JSON.parse($0) }
    }
  }

  /// Waits for the didEnd of `transition`.
  @discardableResult
  func waitForDidEnd(_ transition: String, timeout: Double = 30) -> JSON? {
    waitFor(timeout: timeout) {
      $0["method"]?.stringValue == "transition/didEnd" && $0["params"]?["transition"]?.stringValue == transition
    }?["params"]
  }

  /// The messages received since the last call (replies included), in order.
  func takeNotifications() -> [JSON] {
    let lines = host.lines(atLeast: 0, timeout: 0)
    if lines.count > received.count { received += lines[received.count...].map { try! JSON.parse($0) } }
    defer { consumed = received.count }
    return Array(received[consumed...])
  }

  /// Closes stdin and returns every remaining message once the host has exited, with its exit status.
  func finish(timeout: Double = 30) -> (messages: [JSON], status: ExitStatus?) {
    host.closeStdin()
    let lines = host.allLines(timeout: timeout)
    received = lines.map { try! JSON.parse($0) }
    let status = host.waitForExit(timeout: timeout)
    defer { consumed = received.count }
    return (Array(received[consumed...]), status)
  }

  /// Frames (their params) among `messages`, optionally of one transition.
  static func frames(_ messages: [JSON], of transition: String? = nil) -> [JSON] {
    messages.filter { $0["method"]?.stringValue == "transition/frame" }.compactMap { $0["params"] }.filter {
      transition == nil || $0["transition"]?.stringValue == transition
    }
  }
}

extension JSON {
  /// The entry of view `id` in a frame's `views`.
  func view(_ id: String) -> JSON? {
    self["views"]?.elements.first { $0["id"]?.stringValue == id }
  }

  /// A view's frame origin y.
  func y(_ id: String) -> Double? { view(id)?["frame"]?["y"]?.doubleValue }
}
