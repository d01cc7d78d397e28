import Foundation
import JSON
import TestSupport
import Testing

/// Layers over the protocol, with plugins in worker processes (serve's default) and in the host's own process:
/// TestPluginLayersC's "reveal" (a card with a 2 pt border red → blue, corners 0 → 20, a shadow of radius 4 at
/// (0, 6) whose opacity goes 0 → 0.5 along a rounded-rectangle shadowPath, a circular shape mask growing from the
/// container's centre to its half-diagonal, gradient / plain / dashed shape sublayers; one linear 1 s block). The
/// frames must carry every layer member, the mask and the sublayers in drawing order; expected values are the linear
/// blends written out here.
@Suite(.serialized) struct LayerProtocolTests {
  static func start(interactive: Bool = false) -> JSON {
    [
      "animator": "com.example.test.layers.c/reveal", "operation": "present",
      "container": ["width": 400, "height": 800],
      "from": ["id": "home", "frame": ["x": 0, "y": 0, "width": 400, "height": 800]],
      "to": ["id": "detail", "frame": ["x": 0, "y": 0, "width": 400, "height": 800]], "clock": "manual",
      "interactive": JSON(interactive),
    ]
  }

  private func client(_ isolation: String) throws -> TransitionClient {
    let client = try TransitionClient(["--isolation", isolation])
    let loaded = client.result("plugins/load", ["path": "libTestPluginLayersC.so"])
    #expect(loaded["abi"]?.stringValue == "1.3")
    return client
  }

  private func lastFrame(_ client: TransitionClient) -> JSON? {
    TransitionClient.frames(client.takeNotifications()).last
  }

  private func near(_ value: JSON?, _ expected: [Double], _ tolerance: Double = 1e-9) -> Bool {
    guard let elements = value?.elements, elements.count == expected.count else { return false }
    return zip(elements, expected).allSatisfy { abs(($0.doubleValue ?? .nan) - $1) <= tolerance }
  }

  @Test(arguments: ["process", "none"])
  func framesCarryTheLayersAndTheirMembers(isolation: String) throws {
    let client = try client(isolation)
    client.result("transition/start", Self.start())
    let first = try #require(lastFrame(client))
    let ids = first["views"]?.elements.compactMap { $0["id"]?.stringValue } ?? []
    // The to view, its mask right after it, then its sublayers in the order the plugin gave them.
    #expect(ids == ["container", "home", "detail", "reveal", "badge", "shade", "ring"])
    let card = try #require(first.view("detail"))
    #expect(card["kind"] == nil)  // a view's plain layer: the default kind, not written
    #expect(card["borderWidth"]?.doubleValue == 2)
    #expect(near(card["borderColor"], [1, 0, 0, 1]))
    #expect(card["shadowRadius"]?.doubleValue == 4)
    #expect(card["shadowOffset"] == ["width": 0, "height": 6])
    #expect(card["shadowOpacity"] == nil)  // 0, its default
    #expect(card["maskedCorners"] == ["minXMinY", "maxXMinY"])
    #expect(card["mask"]?.stringValue == "reveal")
    // A rounded rectangle of radius 0: a move, four lines, four cubics, a close.
    #expect(card["shadowPath"]?.elements.compactMap { $0[0]?.stringValue }.joined() == "MLCLCLCLCZ")
    let mask = try #require(first.view("reveal"))
    #expect(mask["kind"]?.stringValue == "shape")
    #expect(mask["maskOf"]?.stringValue == "detail")
    #expect(mask["parent"]?.stringValue == "detail")
    #expect(mask["path"]?[0] == ["M", 200, 400])
    let shade = try #require(first.view("shade"))
    #expect(shade["kind"]?.stringValue == "gradient")
    #expect(shade["gradientType"]?.stringValue == "radial")
    let ring = try #require(first.view("ring"))
    #expect(ring["kind"]?.stringValue == "shape")
    #expect(ring["fillColor"]?.isNull == true)
    #expect(near(ring["strokeColor"], [1, 1, 1, 1]))
    #expect(ring["lineDashPattern"] == [4, 2])
    #expect(ring["fillRule"]?.stringValue == "evenOdd")
    #expect(ring["strokeEnd"]?.doubleValue == 0)
    #expect(first.view("badge")?["kind"]?.stringValue == "layer")

    client.result("transition/tick", ["transition": "t1", "dt": 0.25])
    let frame = try #require(lastFrame(client))
    let t = 0.25
    let at = try #require(frame.view("detail"))
    #expect(abs((at["cornerRadius"]?.doubleValue ?? .nan) - 20 * t) < 1e-9)
    #expect(near(at["borderColor"], [1 - t, 0, t, 1]))
    #expect(abs((at["shadowOpacity"]?.doubleValue ?? .nan) - 0.5 * t) < 1e-9)
    // The shadowPath is the rounded rectangle of radius 20·t: it starts on the top side at x = r.
    #expect(at["shadowPath"]?[0]?[0]?.stringValue == "M")
    #expect(abs((at["shadowPath"]?[0]?[1]?.doubleValue ?? .nan) - 20 * t) < 1e-9)
    let r = (400.0 * 400 + 800 * 800).squareRoot() / 2 * t
    let move = frame.view("reveal")?["path"]?[0]
    #expect(move?[0]?.stringValue == "M")
    #expect(abs((move?[1]?.doubleValue ?? .nan) - (200 + r)) < 1e-9)
    #expect(abs((move?[2]?.doubleValue ?? .nan) - 400) < 1e-9)
    #expect(abs((frame.view("ring")?["strokeEnd"]?.doubleValue ?? .nan) - t) < 1e-9)
    client.result("transition/tick", ["transition": "t1", "dt": 1])
    #expect(client.waitForDidEnd("t1")?["completed"]?.boolValue == true)
    let (_, status) = client.finish()
    #expect(status == .exited(0))
  }

  @Test(arguments: ["process", "none"])
  func cancelRestoresTheLayerTree(isolation: String) throws {
    let client = try client(isolation)
    client.result("transition/start", Self.start(interactive: true))
    client.result("transition/update", ["transition": "t1", "percent": 0.5])
    let paused = try #require(lastFrame(client))
    #expect(abs((paused.view("detail")?["shadowOpacity"]?.doubleValue ?? .nan) - 0.25) < 1e-9)
    client.result("transition/cancel", ["transition": "t1"])
    client.result("transition/tick", ["transition": "t1", "dt": 1])
    #expect(client.waitForDidEnd("t1")?["cancelled"]?.boolValue == true)
    let last = TransitionClient.frames(client.received).last
    #expect(last?["views"]?.elements.compactMap { $0["id"]?.stringValue } == ["container", "home"])
    let (_, status) = client.finish()
    #expect(status == .exited(0))
  }
}
