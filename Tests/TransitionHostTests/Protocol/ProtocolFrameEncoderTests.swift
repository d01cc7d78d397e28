import JSON
import Testing
import TransitionEngine

@testable import TransitionHost

@Suite struct ProtocolFrameEncoderTests {
  /// A 400 × 800 container holding "card" (frame 10, 20, 100, 50; scale 2 about its centre; alpha 0.5) with one
  /// child "badge" (frame 10, 10, 20, 20; alpha 0.5).
  private final class Fixture {
    let scene = Scene(containerSize: Size(width: 400, height: 800))
    let card: View
    let badge: View
    var encoder = FrameEncoder()
    var contents: [String: JSON] = ["card": ["text": "Card"]]

    init() {
      card = try! scene.makeView(id: "card")
      badge = try! scene.makeView(id: "badge")
      card.frame = Rect(x: 10, y: 20, width: 100, height: 50)
      card.transform = Transform3D(scaleX: 2, y: 2)
      card.alpha = 0.5
      card.backgroundColor = Color(r: 1, g: 0, b: 0, a: 1)
      badge.frame = Rect(x: 10, y: 10, width: 20, height: 20)
      badge.alpha = 0.5
      scene.container.addSubview(card)
      card.addSubview(badge)
    }

    func notification(seq: Int, mode: FrameMode) throws -> JSON {
      scene.presentation(at: 0, into: &encoder.states)
      encoder.encodeNotification(
        FrameHeader(transition: "t1", seq: seq, time: 0.25, percent: 0.5, phase: "running"), mode: mode,
        contents: contents)
      let message = try JSON.parse(String(decoding: encoder.output.bytes, as: UTF8.self))
      #expect(message["jsonrpc"]?.stringValue == "2.0")
      #expect(message["method"]?.stringValue == "transition/frame")
      return try #require(message["params"])
    }
  }

  @Test func aFullFrameCarriesEveryFieldWithHandComputedGeometry() throws {
    let fixture = Fixture()
    let frame = try fixture.notification(seq: 0, mode: .full)
    #expect(frame["transition"]?.stringValue == "t1")
    #expect(frame["seq"]?.intValue == 0)
    #expect(frame["time"]?.doubleValue == 0.25)
    #expect(frame["percent"]?.doubleValue == 0.5)
    #expect(frame["phase"]?.stringValue == "running")
    #expect(frame["views"]?.elements.map { $0["id"]?.stringValue } == ["container", "card", "badge"])
    #expect(frame["delta"] == nil)

    let container = try #require(frame.view("container"))
    #expect(container["parent"]?.isNull == true)
    #expect(container["zIndex"]?.intValue == 0)

    let card = try #require(frame.view("card"))
    #expect(card["parent"]?.stringValue == "container")
    // Scale 2 about the centre (60, 45) of a 100 × 50 view: (u, v) ↦ (2u − 40, 2v − 5).
    #expect(card["worldTransform"]?.numbers == [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1, 0, -40, -5, 0, 1])
    #expect(card["transform"]?.numbers == [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
    #expect(card["boundingBox"]?.rect ?? (0, 0, 0, 0) == (-40, -5, 200, 100))
    // UIKit's frame of a transformed view is the bounding box of its transformed bounds, in parent coordinates.
    #expect(card["frame"]?.rect ?? (0, 0, 0, 0) == (-40, -5, 200, 100))
    #expect(card["bounds"]?.rect ?? (0, 0, 0, 0) == (0, 0, 100, 50))
    #expect(card["position"]?["x"]?.doubleValue == 60)
    #expect(card["position"]?["y"]?.doubleValue == 45)
    #expect(card["anchorPoint"]?["x"]?.doubleValue == 0.5)
    #expect(card["alpha"]?.doubleValue == 0.5)
    #expect(card["opacity"]?.doubleValue == 0.5)
    #expect(card["hidden"]?.boolValue == false)
    #expect(card["zIndex"]?.intValue == 1)
    #expect(card["backgroundColor"]?.numbers == [1, 0, 0, 1])
    #expect(card["cornerRadius"]?.doubleValue == 0)
    #expect(card["clipsToBounds"]?.boolValue == false)
    #expect(card["gradient"] == nil)
    #expect(card["snapshotOf"] == nil)
    #expect(card["content"]?.serialized() == #"{"text":"Card"}"#)

    let badge = try #require(frame.view("badge"))
    // (u, v) in the badge is (10 + u, 10 + v) in the card: ↦ (2u − 20, 2v + 15).
    #expect(badge["worldTransform"]?.numbers == [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1, 0, -20, 15, 0, 1])
    #expect(badge["boundingBox"]?.rect ?? (0, 0, 0, 0) == (-20, 15, 40, 40))
    #expect(badge["frame"]?.rect ?? (0, 0, 0, 0) == (10, 10, 20, 20))
    #expect(badge["opacity"]?.doubleValue == 0.25)
    #expect(badge["backgroundColor"]?.isNull == true)
    #expect(badge["content"] == nil)
  }

  @Test func wholeNumbersAreWrittenWithoutFractionDigits() {
    let fixture = Fixture()
    fixture.scene.presentation(at: 0, into: &fixture.encoder.states)
    fixture.encoder.encodeNotification(
      FrameHeader(transition: "t1", seq: 0, time: 0, percent: 0, phase: "paused"), mode: .full, contents: [:])
    let text = String(decoding: fixture.encoder.output.bytes, as: UTF8.self)
    #expect(text.contains(#""bounds":{"x":0,"y":0,"width":100,"height":50}"#))
    #expect(text.contains(#""worldTransform":[2,0,0,0,0,2,0,0,0,0,1,0,-40,-5,0,1]"#))
    #expect(!text.contains(".0,"))
    #expect(!text.contains("\n"))
  }

  @Test func hiddenAncestorsMakeOpacityZeroAndGradientsAndSnapshotsAppear() throws {
    let fixture = Fixture()
    fixture.card.isHidden = true
    let overlay = fixture.scene.makeView(hint: "overlay")
    overlay.frame = Rect(x: 0, y: 0, width: 10, height: 10)
    overlay.gradient = Gradient(
      colors: [Color(r: 0, g: 0, b: 0, a: 0), Color(r: 0, g: 0, b: 0, a: 0.5)], locations: nil,
      startPoint: Point(x: 0.5, y: 0), endPoint: Point(x: 0.5, y: 1))
    overlay.snapshotOf = "card"
    fixture.scene.container.addSubview(overlay)
    let frame = try fixture.notification(seq: 0, mode: .full)
    #expect(frame.view("card")?["opacity"]?.doubleValue == 0)
    #expect(frame.view("card")?["hidden"]?.boolValue == true)
    #expect(frame.view("badge")?["opacity"]?.doubleValue == 0)
    #expect(frame.view("badge")?["hidden"]?.boolValue == false)
    let entry = try #require(frame.view("overlay"))
    #expect(entry["zIndex"]?.intValue == 3)
    #expect(entry["snapshotOf"]?.stringValue == "card")
    #expect(entry["gradient"]?["colors"]?.elements.map(\.numbers) == [[0, 0, 0, 0], [0, 0, 0, 0.5]])
    #expect(entry["gradient"]?["locations"]?.isNull == true)
    #expect(entry["gradient"]?["endPoint"]?["y"]?.doubleValue == 1)
  }

  @Test func deltaFramesCarryOnlyChangedViewsAndFields() throws {
    let fixture = Fixture()
    let first = try fixture.notification(seq: 0, mode: .delta)
    #expect(first["delta"] == nil)
    #expect(first["views"]?.count == 3)

    // Nothing changed: an empty delta.
    let same = try fixture.notification(seq: 1, mode: .delta)
    #expect(same["delta"]?.boolValue == true)
    #expect(same["views"]?.count == 0)
    #expect(same["removed"] == nil)

    // The card's alpha changes: the card's alpha and opacity, and the badge's composited opacity.
    fixture.card.alpha = 1
    let changed = try fixture.notification(seq: 2, mode: .delta)
    #expect(changed["views"]?.count == 2)
    let card = try #require(changed.view("card"))
    #expect(card.keys == ["id", "alpha", "opacity"])
    #expect(card["alpha"]?.doubleValue == 1)
    let badge = try #require(changed.view("badge"))
    #expect(badge.keys == ["id", "opacity"])
    #expect(badge["opacity"]?.doubleValue == 0.5)

    // The badge leaves, a new view with content arrives (full entry, content included).
    fixture.badge.removeFromSuperview()
    let label = try fixture.scene.makeView(id: "label")
    label.frame = Rect(x: 1, y: 2, width: 3, height: 4)
    fixture.scene.container.addSubview(label)
    fixture.contents["label"] = "text"
    let moved = try fixture.notification(seq: 3, mode: .delta)
    #expect(moved["removed"]?.elements.map(\.stringValue) == ["badge"])
    let entry = try #require(moved.view("label"))
    #expect(entry["frame"]?.rect ?? (0, 0, 0, 0) == (1, 2, 3, 4))
    #expect(entry["content"]?.stringValue == "text")
    // The label is drawn after the card, which lost its child: zIndex 2 is the label's now.
    #expect(entry["zIndex"]?.intValue == 2)
    #expect(moved.view("card") == nil)
  }

  @Test func aSampleObjectIsFullAndLeavesTheDeltaBaselineAlone() throws {
    let fixture = Fixture()
    _ = try fixture.notification(seq: 0, mode: .delta)
    fixture.card.alpha = 1
    fixture.scene.presentation(at: 0, into: &fixture.encoder.states)
    fixture.encoder.encodeObject(
      FrameHeader(transition: "t1", seq: nil, time: 0, percent: 0, phase: "paused"), contents: fixture.contents)
    let sample = try JSON.parse(String(decoding: fixture.encoder.output.bytes, as: UTF8.self))
    #expect(sample["seq"] == nil)
    #expect(sample["views"]?.count == 3)
    #expect(sample.view("card")?["content"] != nil)
    // The next streamed delta still compares against the first frame.
    let next = try fixture.notification(seq: 1, mode: .delta)
    #expect(next.view("card")?["alpha"]?.doubleValue == 1)
  }
}
