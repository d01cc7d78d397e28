import Foundation
import JSON
import TestSupport
import Testing

/// An interactive transition whose animator vends an interruptible UIViewPropertyAnimator (TestPluginPropertyAnimators'
/// "interruptible", UIKit code: the to view's center from x = 600 to 200 on easeInOut over 1 s), driven over the
/// protocol alone — update, release, finish, cancel, ticks of the manual clock — with plugins in worker processes
/// (serve's default) and in the host's own process. Expected positions are closed forms (`Reference`, `UIKitSpring`).
@Suite(.serialized) struct PropertyAnimatorProtocolTests {
  static let animator = "com.example.test.propertyanimators/interruptible"

  static func start() -> JSON {
    [
      "animator": JSON(animator), "operation": "present", "container": ["width": 400, "height": 800],
      "from": ["id": "home", "frame": ["x": 0, "y": 0, "width": 400, "height": 800]],
      "to": ["id": "detail", "frame": ["x": 0, "y": 0, "width": 400, "height": 800]], "clock": "manual",
      "interactive": true,
    ]
  }

  private func client(_ isolation: String) throws -> TransitionClient {
    let client = try TransitionClient(["--isolation", isolation])
    let loaded = client.result("plugins/load", ["path": "libTestPluginPropertyAnimators.so"])
    #expect(loaded["id"]?.stringValue == "com.example.test.propertyanimators")
    #expect(loaded["abi"]?.stringValue == "1.3")
    return client
  }

  private func x(_ frame: JSON?) -> Double? { frame?.view("detail")?["position"]?["x"]?.doubleValue }

  private func lastFrame(_ client: TransitionClient) -> JSON? {
    TransitionClient.frames(client.takeNotifications()).last
  }

  @Test(arguments: ["process", "none"])
  func scrubbedThenReleasedForwardContinuesOnTheSpring(isolation: String) throws {
    let client = try client(isolation)
    client.result("transition/start", Self.start())
    for percent in [0.3, 0.1, 0.3] {
      let reply = client.result("transition/update", ["transition": "t1", "percent": JSON(percent)])
      #expect(reply["phase"]?.stringValue == "paused")
      // The animator is scrubbed linearly: 600 − 400·p, whatever its easeInOut.
      let frame = lastFrame(client)
      #expect(abs((x(frame) ?? .nan) - (600 - 400 * percent)) < 1e-9, "x at \(percent)")
    }
    let released = client.result("transition/release", ["transition": "t1", "velocity": 1.4])
    #expect(released["decision"]?.stringValue == "finish")
    // The rest, 0.7 s, on a critically damped spring with v / (1 − p) = 2 of the remaining distance per second.
    let spring = UIKitSpring(dampingRatio: 1, duration: 0.7, initialVelocity: 2)
    var elapsed = 0.0
    for dt in [0.05, 0.1, 0.2] {
      client.result("transition/tick", ["transition": "t1", "dt": JSON(dt)])
      elapsed += dt
      let frame = lastFrame(client)
      let expected = 480 - 280 * spring.progress(elapsed)
      #expect(abs((x(frame) ?? .nan) - expected) < 1e-6, "x at \(elapsed): expected \(expected)")
      #expect(frame?["phase"]?.stringValue == "finishing")
    }
    client.result("transition/tick", ["transition": "t1", "dt": 0.5])
    #expect(client.waitForDidEnd("t1")?["completed"]?.boolValue == true)
    let (_, status) = client.finish()
    #expect(status == .exited(0))
  }

  @Test(arguments: ["process", "none"])
  func cancelRunsTheAnimatorBackAndRestoresTheStart(isolation: String) throws {
    let client = try client(isolation)
    client.result("transition/start", Self.start())
    let first = TransitionClient.frames(client.takeNotifications()).first
    client.result("transition/update", ["transition": "t1", "percent": 0.4])
    client.result("transition/cancel", ["transition": "t1"])
    client.result("transition/tick", ["transition": "t1", "dt": 0.1])
    // Back over p·D = 0.4 s on the completion curve (easeInOut).
    let frame = lastFrame(client)
    #expect(abs((x(frame) ?? .nan) - (440 + 160 * Reference.easeInOut(0.25))) < 1e-9)
    #expect(abs((frame?["percent"]?.doubleValue ?? .nan) - 0.3) < 1e-9)
    client.result("transition/tick", ["transition": "t1", "dt": 0.3])
    let didEnd = client.waitForDidEnd("t1")
    #expect(didEnd?["cancelled"]?.boolValue == true)
    // Everything as it started: only the from root in the container, as in the first frame but for the to view the
    // animator had added.
    let last = TransitionClient.frames(client.received).last
    #expect(last?["views"]?.elements.compactMap { $0["id"]?.stringValue } == ["container", "home"])
    #expect(last?.view("home") == first?.view("home"))
    let (_, status) = client.finish()
    #expect(status == .exited(0))
  }

  @Test func finishAtTheCompletionSpeedOverTheRemainingDuration() throws {
    let client = try client("process")
    client.result("transition/start", Self.start())
    client.result("transition/update", ["transition": "t1", "percent": 0.5])
    client.result("transition/finish", ["transition": "t1", "completionSpeed": 2])
    client.result("transition/tick", ["transition": "t1", "dt": 0.125])
    // The remaining 0.5 s at speed 2: 0.25 s on easeInOut.
    #expect(abs((x(lastFrame(client)) ?? .nan) - (400 - 200 * Reference.easeInOut(0.5))) < 1e-9)
    client.result("transition/tick", ["transition": "t1", "dt": 0.125])
    #expect(client.waitForDidEnd("t1")?["completed"]?.boolValue == true)
    let (_, status) = client.finish()
    #expect(status == .exited(0))
  }
}
