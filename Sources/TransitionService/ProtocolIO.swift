// What the transition protocol needs from around it: a way to send messages and a monotonic timer source. The
// server provides both (its dispatcher and its event loop); tests provide a LocalConnection and a manual clock.

import JSON
import JSONRPC

/// Where the protocol layer's notifications go.
///
/// - Important: Used on the host thread only.
package protocol ProtocolOutput: AnyObject {
  /// Sends a notification `{"jsonrpc": "2.0", "method", "params"}`.
  func notify(_ method: String, _ params: JSON)
  /// Sends one whole message that `write` appends (compact JSON, no newline) to the buffer it is given: the output
  /// buffer itself where there is one, so a frame is written once, where it is sent from.
  func sendMessage(_ write: (inout [UInt8]) -> Void)
}

/// A dispatcher is an output: notifications and written messages go where its replies go, so they interleave with
/// replies in the order they are sent.
extension Dispatcher: ProtocolOutput {
  package func notify(_ method: String, _ params: JSON) {
    sendNotification(method, params)
  }

  package func sendMessage(_ write: (inout [UInt8]) -> Void) {
    writeMessage(write)
  }
}

/// Identifies a scheduled timer.
package struct ProtocolTimerID: Hashable, Sendable {
  package var rawValue: UInt64

  package init(rawValue: UInt64) {
    self.rawValue = rawValue
  }
}

/// Monotonic time and one-shot timers, for real-time transitions.
///
/// - Important: Used on the host thread only; actions run on it.
package protocol ProtocolScheduler: AnyObject {
  /// The current monotonic time in seconds (only differences mean anything).
  var now: Double { get }
  /// Runs `action` once `deadline` (in `now`'s seconds) has passed.
  func schedule(at deadline: Double, _ action: @escaping () -> Void) -> ProtocolTimerID
  /// Cancels a timer that has not fired.
  func cancel(_ timer: ProtocolTimerID)
}

/// The scheduler of a session without real time (`render`, benchmarks): only manual-clock transitions move there,
/// which never ask for a timer; a real-time transition would never get a frame. `now` is the start of time.
package final class StoppedClock: ProtocolScheduler {
  private var issued: UInt64 = 0

  package init() {}

  package var now: Double { 0 }

  package func schedule(at deadline: Double, _ action: @escaping () -> Void) -> ProtocolTimerID {
    issued += 1
    return ProtocolTimerID(rawValue: issued)
  }

  package func cancel(_ timer: ProtocolTimerID) {}
}
