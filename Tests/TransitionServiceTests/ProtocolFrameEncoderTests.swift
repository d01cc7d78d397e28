import JSON
import Testing
import TransitionEngine

@testable import TransitionService

@Suite struct ProtocolFrameEncoderTests {
  /// A 400 × 800 container holding "card" (frame 10, 20, 100, 50; scale 2 about its centre; alpha 0.5) with one
  /// child "badge" (frame 10, 10, 20, 20; alpha 0.5).
  private final class Fixture {
    let scene = Scene(containerSize: Size(width: 400, height: 800))
    let card: View
    let badge: View
    /// Contents are the client's, fixed for the transition's life: "label" is a view that joins later.
    let contents: [String: JSON] = ["card": ["text": "Card"], "label": "text"]
    lazy var encoder = FrameEncoder(contents: contents)
    var states: [ViewState] = []

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
      let message = try JSON.parse(text(seq: seq, mode: mode))
      #expect(message["jsonrpc"]?.stringValue == "2.0")
      #expect(message["method"]?.stringValue == "transition/frame")
      return try #require(message["params"])
    }

    /// The whole message's text for the scene as it is now.
    func text(seq: Int, mode: FrameMode, time: Double = 0.25, percent: Double = 0.5, transition: String = "t1")
      -> String
    {
      scene.presentation(at: 0, into: &states)
      var message: [UInt8] = []
      encoder.appendNotification(
        FrameStamp(transition: transition, seq: seq, time: time, percent: percent, phase: "running"), mode: mode,
        states: states, to: &message)
      return String(decoding: message, as: UTF8.self)
    }

    /// A sample's frame object for the scene as it is now.
    func object(_ stamp: FrameStamp) throws -> JSON {
      scene.presentation(at: 0, into: &states)
      var text: [UInt8] = []
      encoder.appendObject(stamp, states: states, to: &text)
      return try text.withUnsafeBytes { try JSON.parse($0) }
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
    let text = fixture.text(seq: 0, mode: .full, time: 0, percent: 0)
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
    let sample = try fixture.object(FrameStamp(transition: "t1", seq: nil, time: 0, percent: 0, phase: "paused"))
    #expect(sample["seq"] == nil)
    #expect(sample["views"]?.count == 3)
    #expect(sample.view("card")?["content"] != nil)
    // The next streamed delta still compares against the first frame.
    let next = try fixture.notification(seq: 1, mode: .delta)
    #expect(next.view("card")?["alpha"]?.doubleValue == 1)
  }

  /// The whole text of a full frame and of the deltas after it, written out by hand from the fixture's geometry
  /// (see `aFullFrameCarriesEveryFieldWithHandComputedGeometry` for how each number follows): member order,
  /// number forms and escapes are all part of what clients see.
  @Test func framesAreExactlyTheHandWrittenText() {
    let fixture = Fixture()
    let identity = "[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]"
    let container =
      #"{"id":"container","parent":null,"frame":{"x":0,"y":0,"width":400,"height":800},"#
      + #""bounds":{"x":0,"y":0,"width":400,"height":800},"position":{"x":200,"y":400},"#
      + #""anchorPoint":{"x":0.5,"y":0.5},"transform":\#(identity),"worldTransform":\#(identity),"#
      + #""boundingBox":{"x":0,"y":0,"width":400,"height":800},"alpha":1,"opacity":1,"hidden":false,"zIndex":0,"#
      + #""backgroundColor":null,"cornerRadius":0,"clipsToBounds":false}"#
    let card =
      #"{"id":"card","parent":"container","frame":{"x":-40,"y":-5,"width":200,"height":100},"#
      + #""bounds":{"x":0,"y":0,"width":100,"height":50},"position":{"x":60,"y":45},"#
      + #""anchorPoint":{"x":0.5,"y":0.5},"transform":[2,0,0,0,0,2,0,0,0,0,1,0,0,0,0,1],"#
      + #""worldTransform":[2,0,0,0,0,2,0,0,0,0,1,0,-40,-5,0,1],"#
      + #""boundingBox":{"x":-40,"y":-5,"width":200,"height":100},"alpha":0.5,"opacity":0.5,"hidden":false,"#
      + #""zIndex":1,"backgroundColor":[1,0,0,1],"cornerRadius":0,"clipsToBounds":false,"#
      + #""content":{"text":"Card"}}"#
    let badge =
      #"{"id":"badge","parent":"card","frame":{"x":10,"y":10,"width":20,"height":20},"#
      + #""bounds":{"x":0,"y":0,"width":20,"height":20},"position":{"x":20,"y":20},"#
      + #""anchorPoint":{"x":0.5,"y":0.5},"transform":\#(identity),"#
      + #""worldTransform":[2,0,0,0,0,2,0,0,0,0,1,0,-20,15,0,1],"#
      + #""boundingBox":{"x":-20,"y":15,"width":40,"height":40},"alpha":0.5,"opacity":0.25,"hidden":false,"#
      + #""zIndex":2,"backgroundColor":null,"cornerRadius":0,"clipsToBounds":false}"#
    // 1/3 and 1e-7 in their shortest round-trip forms; the id's quote escaped, its slash and é left as they are.
    let full = fixture.text(seq: 0, mode: .delta, time: 1.0 / 3.0, percent: 1e-7, transition: "t/\"é")
    #expect(
      full
        == #"{"jsonrpc":"2.0","method":"transition/frame","params":{"transition":"t/\"é","seq":0,"#
        + #""time":0.3333333333333333,"percent":1e-07,"phase":"running","#
        + #""views":[\#(container),\#(card),\#(badge)]}}"#)

    // The card becomes opaque: its alpha and opacity change, and so does the badge's composited opacity.
    fixture.card.alpha = 1
    #expect(
      fixture.text(seq: 1, mode: .delta)
        == #"{"jsonrpc":"2.0","method":"transition/frame","params":{"transition":"t1","seq":1,"time":0.25,"#
        + #""percent":0.5,"phase":"running","views":[{"id":"card","alpha":1,"opacity":1},"#
        + #"{"id":"badge","opacity":0.5}],"delta":true}}"#)

    // The badge leaves: nothing else changed.
    fixture.badge.removeFromSuperview()
    #expect(
      fixture.text(seq: 2, mode: .delta)
        == #"{"jsonrpc":"2.0","method":"transition/frame","params":{"transition":"t1","seq":2,"time":0.25,"#
        + #""percent":0.5,"phase":"running","views":[],"delta":true,"removed":["badge"]}}"#)
  }

  /// A sample is the frame itself: it reads and prints like the streamed frame's params.
  @Test func aSampleIsTheSameFrameAsTheStreamedOne() throws {
    let fixture = Fixture()
    let streamed = try fixture.notification(seq: 0, mode: .full)
    let sample = try fixture.object(FrameStamp(transition: "t1", seq: 0, time: 0.25, percent: 0.5, phase: "running"))
    #expect(sample.serialized() == streamed.serialized())
    // Whole numbers are integers in the tree too, as a parser would read the text.
    #expect(sample.view("card")?["zIndex"]?.intValue == 1)
    #expect(sample.view("card")?["frame"]?["width"]?.intValue == 200)
    #expect(sample.view("card")?["alpha"]?.kind == .double)
    #expect(sample == streamed)
  }

  /// Strings go through json-c's escaping: quotes, backslashes and control characters escaped (backspace and form
  /// feed as `\b` and `\f`), `/`, DEL and non-ASCII as they are, NULs kept.
  @Test func idsAreEscapedAsJSONCEscapesThem() throws {
    let fixture = Fixture()
    let text = fixture.text(seq: 0, mode: .full, transition: "a\"b\\c/\u{8}\u{c}\n\u{1}\u{7f}\u{0}é")
    #expect(text.contains(#"{"transition":"a\"b\\c/\b\f\n\u0001\#u{7f}\u0000é","#))
    let parsed = try JSON.parse(text)
    #expect(parsed["params"]?["transition"]?.stringValue == "a\"b\\c/\u{8}\u{c}\n\u{1}\u{7f}\u{0}é")
  }
}
