// Navigation stacks in a scene through the real binary (Protocol.md, "Scenes"): TestPluginGestures' export "stack"
// embeds its root controller in a navigation controller; the root's pan performs a show segue (which pushes, as UIKit
// does inside a navigation controller) and the pushed controller's left-edge pan pops, both through the navigation
// controller's delegate and its interaction controller. The fixture writes every life-cycle call with the stack it
// sees ("note: …"), so the order UIKit gives — will* when the transition starts, did* after it, the reverse will* /
// did* on a cancel — and the stack after completion and cancel are checked here, with the geometry of its linear slide
// (x = width · (1 − percent) pushing, width · percent popping), in both isolation modes.

import JSON
import Testing

@Suite struct SceneNavigationTests {
  static let width = 320.0

  static func tree(_ id: String) -> JSON {
    ["id": JSON(id), "frame": ["x": 0, "y": 0, "width": JSON(width), "height": 480]]
  }

  static func sample(_ scene: String, _ state: String, x: Double, moved: Double) -> JSON {
    [
      "scene": JSON(scene), "state": JSON(state), "location": ["x": JSON(x + moved), "y": 240],
      "translation": ["x": JSON(moved), "y": 0], "velocity": ["x": 0, "y": 0],
    ]
  }

  /// The notes written since the last call.
  final class Notes {
    let client: TransitionClient
    var seen = 0
    init(_ client: TransitionClient) { self.client = client }
    func new() -> [String] {
      let all = SceneTests.logs(client).notes
      defer { seen = all.count }
      return Array(all.dropFirst(seen))
    }
  }

  /// A pan from `x` moved to `moved` (the transition it starts, if any), then let go there; the transition run out.
  static func drag(
    _ client: TransitionClient, _ scene: String, from x: Double, to moved: Double, expectX: (String, Double)? = nil
  ) throws -> (id: String?, completed: Bool?) {
    let began = client.result("scene/gesture", sample(scene, "began", x: x, moved: moved > 0 ? 4 : -4))
    #expect(began["recognizers"] == 1)
    client.result("scene/gesture", sample(scene, "changed", x: x, moved: moved))
    let id = began["transition"]?.stringValue
    if let id, let (view, expected) = expectX {
      _ = client.takeNotifications()
      let held = try #require(TransitionClient.frames(client.received, of: id).last)
      #expect(abs((held.view(view)?["frame"]?["x"]?.doubleValue ?? .nan) - expected) <= 1e-6, "\(view)")
    }
    client.result("scene/gesture", sample(scene, "ended", x: x, moved: moved))
    guard let id else { return (nil, nil) }
    client.result("transition/tick", ["transition": JSON(id), "dt": 2])
    return (id, client.waitForDidEnd(id)?["completed"]?.boolValue)
  }

  @Test(arguments: ["process", "none"])
  func pushAndPopThroughTheNavigationDelegateKeepTheStackAndTheLifeCycle(_ isolation: String) throws {
    let client = try TransitionClient(["--isolation", isolation, "--log-level", "info"])
    client.request("plugins/load", ["path": "libTestPluginGestures.so"])
    let scene = try #require(
      client.result(
        "scene/open",
        [
          "animator": "com.example.test.gestures/stack", "clock": "manual",
          "container": ["width": JSON(Self.width), "height": 480], "root": Self.tree("root"),
          "storyboard": ["Detail": Self.tree("detail")],
        ])["scene"]?.stringValue)
    let notes = Notes(client)
    #expect(
      notes.new() == [
        "root viewDidLoad navigationController true [root] top root", "root viewWillAppear false",
        "root viewDidAppear false [root] top root",
      ])

    // An identifier the storyboard lacks: reported as UIKit's NSInvalidArgumentException, nothing runs.
    #expect(try Self.drag(client, scene, from: 50, to: -60).id == nil)
    #expect(SceneTests.logs(client).others.contains { $0.contains("has no segue with identifier 'noSuchSegue'") })

    // begin/endAppearanceTransition on an app's controller call its viewWill… / viewDid…, as UIKit's do; an end
    // without a begin is UIKit's "Unbalanced calls" warning.
    #expect(try Self.drag(client, scene, from: 150, to: -60).id == nil)
    #expect(
      notes.new() == [
        "root viewWillDisappear true", "root viewDidDisappear true [root] top root", "root viewWillAppear false",
        "root viewDidAppear false [root] top root",
      ])
    #expect(SceneTests.logs(client).others.contains { $0.contains("Unbalanced calls to begin/end appearance") })

    // The show segue pushes: prepare(for:sender:) first, then the push, held at 30 % and cancelled.
    let cancelledPush = try Self.drag(client, scene, from: 300, to: -96, expectX: ("detail", 320 * (1 - 0.3)))
    #expect(cancelledPush.completed == false)
    let push = notes.new()
    #expect(
      push.filter { !$0.hasPrefix("animationControllerFor") } == [
        "prepare showDetail to detail sender true", "detail viewDidLoad navigationController true",
        "root viewWillDisappear true", "detail viewWillAppear true",
        // The cancel: UIKit's reversal, and the stack as it was (the detail is in none now).
        "detail viewWillDisappear true", "root viewWillAppear true", "detail viewDidDisappear true [] top nil",
        "root viewDidAppear true [root] top root",
      ])
    #expect(push.contains("animationControllerFor push"))
    // At 70 % it completes: the pushed controller is on top.
    let pushed = try Self.drag(client, scene, from: 300, to: -224, expectX: ("detail", 320 * (1 - 0.7)))
    #expect(pushed.completed == true)
    #expect(
      notes.new().filter { !$0.hasPrefix("animationControllerFor") } == [
        "prepare showDetail to detail sender true", "detail viewDidLoad navigationController true",
        "root viewWillDisappear true", "detail viewWillAppear true",
        "root viewDidDisappear true [root, detail] top detail", "detail viewDidAppear true [root, detail] top detail",
      ])
    let onTop = try #require(SceneTests.lastFrame(client, pushed.id ?? ""))
    #expect(onTop.view("root") == nil && onTop.view("detail")?["frame"]?["x"]?.doubleValue == 0)

    // The detail's left-edge pan pops: the stack loses the top at once; cancelled at 20 %, it has it back.
    let cancelledPop = try Self.drag(client, scene, from: 4, to: 64, expectX: ("detail", 320 * 0.2))
    #expect(cancelledPop.completed == false)
    #expect(
      notes.new().filter { !$0.hasPrefix("animationControllerFor") } == [
        "detail viewWillDisappear true", "root viewWillAppear true", "popped detail [root] top root",
        "root viewWillDisappear true", "detail viewWillAppear true",
        "root viewDidDisappear true [root, detail] top detail",
        "detail viewDidAppear true [root, detail] top detail",
      ])
    let stillPushed = try #require(SceneTests.lastFrame(client, cancelledPop.id ?? ""))
    #expect(stillPushed.view("root") == nil && stillPushed.view("detail")?["frame"]?["x"]?.doubleValue == 0)
    // At 80 % the pop completes: back to the root alone.
    let popped = try Self.drag(client, scene, from: 4, to: 256, expectX: ("detail", 320 * 0.8))
    #expect(popped.completed == true)
    #expect(
      notes.new().filter { !$0.hasPrefix("animationControllerFor") } == [
        "detail viewWillDisappear true", "root viewWillAppear true", "popped detail [root] top root",
        "detail viewDidDisappear true [root] top root", "root viewDidAppear true [root] top root",
      ])
    let back = try #require(SceneTests.lastFrame(client, popped.id ?? ""))
    #expect(back.view("detail") == nil && back.view("root")?["frame"]?["x"]?.doubleValue == 0)
    let (_, status) = client.finish()
    #expect(status == .exited(0))
  }
}
