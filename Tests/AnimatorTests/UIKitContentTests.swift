// ABI 1.2's presentation and view content through UIKit code (Tests/Fixtures/UIKitBridged, built through the UIKit
// source bridge): `layer.presentation()` mid-animation against the curves worked out by hand, and image and
// visual-effect views as frames' `content`.

import JSON
import PluginHost
import TestSupport
import Testing
import TransitionEngine

@Suite struct UIKitContentTests {
  /// One transition of the fixture's animator `id` in a 400 × 800 container (from on screen, to off).
  func run(_ id: String, log: LogCapture = LogCapture()) throws -> PluginTransitionRun {
    let scene = Scene(containerSize: Size(width: 400, height: 800))
    let from = try makeView(scene, "from", Rect(x: 0, y: 0, width: 400, height: 800))
    let to = try makeView(scene, "to", Rect(x: 0, y: 0, width: 400, height: 800))
    scene.container.addSubview(from)
    let registry = try TestSupport.registry(loadingFixtures: ["UIKitBridged"], log: log)
    let run = try PluginTransitionRun(registry, id, scene: scene, from: from, to: to, operation: .present)
    try run.start()
    return run
  }

  /// The to view slides from y = 800 to 0 (position y 1200 → 400) while alpha goes 1 → 0.5 and the scale 1 → 0.5,
  /// with UIView's default curve, easeInOut over 1 s; a fader's alpha goes 1 → 0 linearly over 1 s. Each probe has
  /// the presented frame, opacity, background and (as corner radius) 100 × the transform's m11 of its moment:
  /// - t = 0, right after the blocks were added: still the start, frame (0, 800, 400, 800), opacity 1, scale 1;
  /// - t = 0.25, the fader: frame (0, 0, 10, 10), opacity 1 − 0.25 = 0.75, its background red (a linear block of
  ///   0.25 s that has just ended);
  /// - t = 0.5: easeInOut (0.42, 0, 0.58, 1) is symmetric, so its progress is exactly 0.5: position (200, 800),
  ///   opacity 0.75, scale 0.75, so the frame is the 300 × 600 box about (200, 800): (50, 500, 300, 600);
  /// - the presentation of that presentation layer: the same values.
  @Test func presentationLayersShowTheirMoment() throws {
    let log = LogCapture()
    let run = try run("presentation", log: log)
    #expect(try run.run() == .completed)
    let subviews = run.containerSubviews
    #expect(subviews.count == 7, "\(subviews)")
    let probes = try subviews.suffix(4).map { try #require(try run.state($0, at: 1)) }
    guard probes.count == 4 else { return }
    let expected: [(Rect, Double, Color?, Double)] = [
      (Rect(x: 0, y: 800, width: 400, height: 800), 1, nil, 100),
      (Rect(x: 0, y: 0, width: 10, height: 10), 0.75, Color(r: 1, g: 0, b: 0), 100),
      (Rect(x: 50, y: 500, width: 300, height: 600), 0.75, nil, 75),
      (Rect(x: 50, y: 500, width: 300, height: 600), 0.75, nil, 75),
    ]
    for (index, (probe, (frame, alpha, color, radius))) in zip(probes, expected).enumerated() {
      expectClose(probe.frame, frame, 1e-9, "probe \(index) frame")
      expectClose(probe.alpha, alpha, 1e-9, "probe \(index) alpha")
      #expect(probe.backgroundColor == color, "probe \(index)")
      expectClose(probe.cornerRadius, radius, 1e-9, "probe \(index) m11")
    }
    // Setting a presentation layer's property changes nothing, and says so.
    #expect(
      log.warnings.contains {
        $0.hasSuffix(
          "TransitionKit: UIView(to).layer.presentation().position was set: a presentation layer is "
            + "read-only; set the layer")
      })
    #expect(try #require(try run.state("to", at: 1)).position == Point(x: 200, y: 400))
    #expect(run.misbehaviors.isEmpty)
  }

  /// The image view, the blur and the snapshot have their content (the snapshot's copied from the image view when
  /// it was taken); `UIView()` has a zero frame (the animator made it 8 high); at the end the blur's effect and the
  /// image are cleared.
  @Test func imageAndEffectViewsHaveTheirContent() throws {
    let run = try run("images")
    let scene = run.scene
    let container = run.containerSubviews
    #expect(container.count == 3 && container[0] == "from" && container[2] == "to", "\(container)")
    let blur = try #require(scene.view(withID: container[1]))
    let children = try #require(scene.view(withID: "to")).subviews
    #expect(children.count == 3)
    guard children.count == 3 else { return }
    let (avatar, spacer, snapshot) = (children[0], children[1], children[2])
    #expect(blur.content == .visualEffect(blurStyle: .dark))
    #expect(blur.frame == Rect(x: 0, y: 0, width: 400, height: 800))
    #expect(avatar.content == .image(name: "avatar", contentMode: .scaleAspectFill))
    #expect(avatar.frame == Rect(x: 20, y: 20, width: 100, height: 100))
    #expect(spacer.content == nil && spacer.frame == Rect(x: 0, y: 0, width: 0, height: 8))
    #expect(snapshot.content == .image(name: "avatar", contentMode: .scaleAspectFill))
    #expect(snapshot.snapshotOf == avatar.id)
    #expect(snapshot.frame == Rect(x: 200, y: 20, width: 100, height: 100))

    // In frames: the content of each, as Protocol.md shows it.
    let views = try JSON.parse(String(decoding: run.driver.encodeViews(), as: UTF8.self))
    func content(_ id: String) -> String? {
      for index in 0..<views.count where views[index]?["id"]?.stringValue == id {
        return views[index]?["content"].map { $0.serialized() }
      }
      return "(no view \(id))"
    }
    #expect(content(blur.id) == #"{"effect":{"blur":"dark"}}"#)
    #expect(content(avatar.id) == #"{"image":"avatar","contentMode":"scaleAspectFill"}"#)
    #expect(content(snapshot.id) == #"{"image":"avatar","contentMode":"scaleAspectFill"}"#)
    #expect(content(spacer.id) == nil)
    #expect(content("to") == nil)

    #expect(try run.run() == .completed)
    #expect(blur.content == .visualEffect(blurStyle: nil))
    #expect(avatar.content == .image(name: nil, contentMode: .scaleAspectFill))
    let after = try JSON.parse(String(decoding: run.driver.encodeViews(), as: UTF8.self))
    let entries = (0..<after.count).compactMap { after[$0] }
    let contents = entries.filter { $0["id"]?.stringValue == blur.id || $0["id"]?.stringValue == avatar.id }
      .map { $0["content"]!.serialized() }
    #expect(contents == [#"{"effect":null}"#, #"{"image":null,"contentMode":"scaleAspectFill"}"#])
    #expect(run.misbehaviors.isEmpty)
  }
}
