// A small newline-JSON client for the transition end-to-end tests: requests by id over a real `transition-host`
// process, with every notification kept in order, plus independent implementations of the curves the fixture
// animators use (computed from their published definitions, never with the engine's code).

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

  init(_ arguments: [String] = []) throws {
    host = try HostProcess(arguments)
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

/// Curves computed from their definitions.
enum Reference {
  /// A CSS/Core Animation cubic Bézier through (0, 0), (x1, y1), (x2, y2), (1, 1) at input time t: the curve
  /// parameter s with x(s) = t by bisection (x is monotonic for x1, x2 in [0, 1]), then y(s).
  static func bezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, at t: Double) -> Double {
    func coordinate(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
      3 * (1 - s) * (1 - s) * s * p1 + 3 * (1 - s) * s * s * p2 + s * s * s
    }
    var low = 0.0
    var high = 1.0
    for _ in 0..<200 {
      let mid = (low + high) / 2
      if coordinate(x1, x2, mid) < t { low = mid } else { high = mid }
    }
    return coordinate(y1, y2, (low + high) / 2)
  }

  /// easeInOut (0.42, 0, 0.58, 1).
  static func easeInOut(_ t: Double) -> Double { bezier(0.42, 0, 0.58, 1, at: t) }

  /// A critically damped UIKit spring (damping ratio 1, initial velocity 0) of duration T, before its last 10 %:
  /// progress 1 − (1 + ωt)·e^(−ωt), where ω makes the envelope (1 + ωT)·e^(−ωT) equal 0.001 at T (Framer's and
  /// Core Animation's settling rule).
  static func criticalSpring(duration T: Double, at t: Double) -> Double {
    var low = 0.0
    var high = 1000.0
    for _ in 0..<200 {
      let mid = (low + high) / 2
      // (1 + u)·e^(−u) decreases in u: too big means u must grow.
      if (1 + mid) * exp(-mid) > 0.001 { low = mid } else { high = mid }
    }
    let omega = (low + high) / 2 / T
    return 1 - (1 + omega * t) * exp(-omega * t)
  }
}
