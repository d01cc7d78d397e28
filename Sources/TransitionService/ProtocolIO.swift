// What the transition protocol needs from around it: a way to send messages and a monotonic timer source. The
// server provides both (its dispatcher and its event loop); tests provide a LocalConnection and a manual clock.

import JSON
import JSONRPC
import POSIX

/// Where the protocol layer's notifications go.
///
/// - Important: Used on the host thread only.
package protocol ProtocolOutput: AnyObject {
  /// Sends a notification `{"jsonrpc": "2.0", "method", "params"}`.
  func notify(_ method: String, _ params: JSON)
  /// Sends one whole message that `write` appends (compact JSON, no newline) to the buffer it is given: the output
  /// buffer itself where there is one, so a frame is written once, where it is sent from.
  func sendMessage(_ write: (inout [UInt8]) -> Void)
  /// Sends one whole message already written (compact, no newline; borrowed during the call): a frame a driver's call
  /// handed back, which came from another process or from a buffer of its own.
  func sendSerializedMessage(_ message: UnsafeRawBufferPointer)
}

extension ProtocolOutput {
  package func sendSerializedMessage(_ message: UnsafeRawBufferPointer) {
    sendMessage { $0.append(contentsOf: message) }
  }
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

  /// A frame written already goes to the output channel as it is, which writes a large one from where it is.
  package func sendSerializedMessage(_ message: UnsafeRawBufferPointer) {
    writeSerializedMessage(message)
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

/// Descriptors watched by the host's event loop: what a plugin's worker processes need (their channel, their log
/// pipe, their exit) to be served between the client's messages and the frame timers.
///
/// - Important: Used on the host thread only; handlers run on it.
package protocol DescriptorWatching: AnyObject {
  /// Calls `handler` with the returned events whenever `descriptor` is ready for what `events` asks (readable,
  /// writable; hang-ups and errors are always reported). Replaces an earlier handler for the same descriptor.
  func watch(_ descriptor: FileDescriptor, for events: PollEvents, _ handler: @escaping (PollEvents) -> Void)
  /// Stops watching `descriptor` (it is not closed).
  func unwatch(_ descriptor: FileDescriptor)
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
