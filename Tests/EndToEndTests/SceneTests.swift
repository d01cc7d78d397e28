// Scenes through the real binary (Protocol.md, "Scenes"): the PullDown example's own view controllers (its
// ViewController and SecondViewController, plain UIKit) receive the client's pan samples before any transition
// exists; their handlers present and dismiss with the transitioning delegate's animator and interaction controller,
// and their own rule (percent = translation.y / height, the velocity test) decides finish or cancel. Expected geometry
// comes from the seed's formulas (0.5 s, easeInOut, the presented view from y = −height to 0; the dismissal the
// reverse) with TestSupport's independent Bézier, in both isolation modes.

import Foundation
import Glibc
import JSON
import TestSupport
import Testing

@Suite struct SceneTests {
  static let height = 480.0
  static let animator = "com.example.uikit.pulldown/pull"

  static func tree(_ id: String) -> JSON {
    ["id": JSON(id), "frame": ["x": 0, "y": 0, "width": 320, "height": JSON(height)]]
  }

  /// A host with the PullDown example loaded and a scene open on its view controllers (manual clock, full frames).
  static func openScene(_ isolation: String) throws -> (TransitionClient, String) {
    let client = try TransitionClient(["--isolation", isolation])
    let loaded = client.request("plugins/load", ["path": "libUIKitExamplePullDown.so"])
    #expect(loaded["error"] == nil, "\(loaded)")
    let opened = client.result(
      "scene/open",
      [
        "animator": JSON(animator), "clock": "manual", "container": ["width": 320, "height": JSON(height)],
        "root": tree("first"), "storyboard": ["SecondViewController": tree("second")],
      ])
    #expect(opened["animator"]?.stringValue == animator, "\(opened)")
    return (client, opened["scene"]?.stringValue ?? "")
  }

  static func sample(_ scene: String, _ state: String, y: Double, moved: Double, velocity: Double = 0) -> JSON {
    [
      "scene": JSON(scene), "state": JSON(state), "location": ["x": 160, "y": JSON(y)],
      "translation": ["x": 0, "y": JSON(moved)], "velocity": ["x": 0, "y": JSON(velocity)],
    ]
  }

  /// The presented view's y while presenting at timeline time τ: −h · (1 − easeInOut(τ / 0.5)).
  static func presentedY(time: Double) -> Double {
    -height * (1 - Reference.easeInOut(min(max(time / 0.5, 0), 1)))
  }

  /// The presented view's y while dismissing at timeline time τ: −h · easeInOut(τ / 0.5).
  static func dismissedY(time: Double) -> Double { -height * Reference.easeInOut(min(max(time / 0.5, 0), 1)) }

  /// The last frame of `transition` received so far.
  static func lastFrame(_ client: TransitionClient, _ transition: String) -> JSON? {
    _ = client.takeNotifications()
    return TransitionClient.frames(client.received, of: transition).last
  }

  @Test(arguments: ["process", "none"])
  func aSlowDragPastHalfPresentsAndAnUpwardPanOnThePresentedScreenDismisses(_ isolation: String) throws {
    let (client, scene) = try Self.openScene(isolation)
    // The first screen's pan begins downward: its handler instantiates SecondViewController and shows it.
    let began = client.result("scene/gesture", Self.sample(scene, "began", y: 40, moved: 8))
    #expect(began["recognizers"]?.intValue == 1)
    let t1 = try #require(began["transition"]?.stringValue)
    let started = try #require(
      client.waitFor { $0["method"]?.stringValue == "scene/transitionStarted" }?["params"])
    #expect(started["scene"]?.stringValue == scene)
    #expect(started["transition"]?.stringValue == t1)
    #expect(started["operation"]?.stringValue == "present")
    #expect(started["animator"]?.stringValue == Self.animator)
    #expect(started["from"]?.stringValue == "first" && started["to"]?.stringValue == "second")
    #expect(started["duration"]?.doubleValue == 0.5)
    // Its interaction controller wants an interactive start: held at 0, the presented view above the screen.
    let first = try #require(client.waitFor { $0["method"]?.stringValue == "transition/frame" }?["params"])
    #expect(first["phase"]?.stringValue == "paused")
    #expect(abs((first.y("second") ?? .nan) - -Self.height) <= 1e-6)

    // update(translation.y / height): 120 / 480 = 25 %, then 300 / 480 = 62.5 %.
    for moved in [120.0, 300.0] {
      #expect(
        client.result("scene/gesture", Self.sample(scene, "changed", y: 40 + moved, moved: moved))["recognizers"] == 1)
      let frame = try #require(Self.lastFrame(client, t1))
      let percent = moved / Self.height
      #expect(abs((frame["percent"]?.doubleValue ?? .nan) - percent) <= 1e-12)
      #expect(abs((frame.y("second") ?? .nan) - Self.presentedY(time: percent * 0.5)) <= 1e-6)
    }
    // Let go at rest past half: finishes with completionSpeed 0.999 and the easeInOut completion curve.
    client.result("scene/gesture", Self.sample(scene, "ended", y: 340, moved: 300))
    let from = 0.625 * 0.5
    let length = (0.5 - from) / 0.999
    let ticked = client.result("transition/tick", ["transition": JSON(t1), "dt": 0.1])
    #expect(ticked["transitions"]?[0]?["phase"]?.stringValue == "finishing")
    let tail = from + (0.5 - from) * Reference.easeInOut(0.1 / length)
    let finishing = try #require(Self.lastFrame(client, t1))
    #expect(abs((finishing["time"]?.doubleValue ?? .nan) - tail) <= 1e-9)
    #expect(abs((finishing.y("second") ?? .nan) - Self.presentedY(time: tail)) <= 1e-6)
    client.result("transition/tick", ["transition": JSON(t1), "dt": 1])
    let ended = try #require(client.waitForDidEnd(t1))
    #expect(ended["completed"]?.boolValue == true)
    let last = try #require(Self.lastFrame(client, t1))
    #expect(last.y("second") == 0)
    // The presentation controller removes the presenter's view.
    #expect(last.view("first") == nil)

    // Now the presented screen is on screen: its own pan (upward) dismisses it.
    let dismissal = client.result("scene/gesture", Self.sample(scene, "began", y: 400, moved: -8))
    let t2 = try #require(dismissal["transition"]?.stringValue)
    let announced = try #require(
      client.waitFor {
        $0["method"]?.stringValue == "scene/transitionStarted" && $0["params"]?["transition"]?.stringValue == t2
      }?["params"])
    #expect(announced["operation"]?.stringValue == "dismiss")
    #expect(announced["from"]?.stringValue == "second" && announced["to"]?.stringValue == "first")
    // percent = −translation.y / height: 288 / 480 = 60 %.
    client.result("scene/gesture", Self.sample(scene, "changed", y: 112, moved: -288))
    let held = try #require(Self.lastFrame(client, t2))
    #expect(abs((held["percent"]?.doubleValue ?? .nan) - 0.6) <= 1e-12)
    #expect(abs((held.y("second") ?? .nan) - Self.dismissedY(time: 0.3)) <= 1e-6)
    #expect(held.y("first") == 0)
    client.result("scene/gesture", Self.sample(scene, "ended", y: 112, moved: -288))
    client.result("transition/tick", ["transition": JSON(t2), "dt": 1])
    #expect(client.waitForDidEnd(t2)?["completed"]?.boolValue == true)
    let back = try #require(Self.lastFrame(client, t2))
    #expect(back.view("second") == nil)
    #expect(back.y("first") == 0)
    #expect(client.result("scene/close", ["scene": JSON(scene)]) == [:])
    let (_, status) = client.finish()
    #expect(status == .exited(0))
  }

  @Test(arguments: ["process", "none"])
  func aFastUpwardFlickCancelsThePresentationAndTheFirstScreenPansAgain(_ isolation: String) throws {
    let (client, scene) = try Self.openScene(isolation)
    let t1 = try #require(client.result("scene/gesture", Self.sample(scene, "began", y: 40, moved: 8))["transition"])
    client.result("scene/gesture", Self.sample(scene, "changed", y: 400, moved: 360))
    // 75 % down, but the finger flicks up: the seed's rule cancels (the velocity's sign wins).
    client.result("scene/gesture", Self.sample(scene, "ended", y: 400, moved: 360, velocity: -2000))
    let id = t1.stringValue ?? ""
    let ticked = client.result("transition/tick", ["transition": t1, "dt": 0.05])
    #expect(ticked["transitions"]?[0]?["phase"]?.stringValue == "cancelling")
    client.result("transition/tick", ["transition": t1, "dt": 1])
    let ended = try #require(client.waitForDidEnd(id))
    #expect(ended["completed"]?.boolValue == false && ended["cancelled"]?.boolValue == true)
    let last = try #require(Self.lastFrame(client, id))
    #expect(last.view("second") == nil)
    #expect(last.y("first") == 0)
    // Nothing was presented: the first screen's pan presents again, a transition of its own.
    let again = client.result("scene/gesture", Self.sample(scene, "began", y: 40, moved: 8))
    #expect(again["transition"]?.stringValue == "t2")
    #expect(
      client.waitFor { $0["params"]?["transition"]?.stringValue == "t2" && $0["method"] == "scene/transitionStarted" }
        != nil)
    let (_, status) = client.finish()
    #expect(status == .exited(0))
  }

  @Test(arguments: ["process", "none"])
  func refusalsNameTheirField(_ isolation: String) throws {
    let (client, scene) = try Self.openScene(isolation)
    // A sideways pan reaches the recognizer, whose handler declines to present: no transition.
    let sideways = client.request(
      "scene/gesture",
      [
        "scene": JSON(scene), "state": "began", "location": ["x": 160, "y": 40], "translation": ["x": 10, "y": 0],
      ])
    #expect(sideways["result"] == ["recognizers": 1])
    client.result("scene/gesture", Self.sample(scene, "ended", y: 40, moved: 0))
    // A sample with no gesture in progress: 2011, naming the scene.
    let stray = client.error("scene/gesture", Self.sample(scene, "changed", y: 60, moved: 20))
    #expect(stray["code"]?.intValue == 2011)
    #expect(stray["data"]?["scene"]?.stringValue == scene)
    #expect(stray["data"]?["reason"]?.stringValue == "notInProgress")
    let unknown = client.error("scene/gesture", Self.sample("s99", "began", y: 40, moved: 8))
    #expect(unknown["code"]?.intValue == 2013)
    #expect(unknown["data"]?["field"]?.stringValue == "scene")
    let missing = client.error("scene/gesture", ["scene": JSON(scene), "state": "began"])
    #expect(missing["code"]?.intValue == -32602)
    #expect(missing["data"]?["field"]?.stringValue == "params.location")
    let badTree = client.error(
      "scene/open",
      [
        "animator": JSON(Self.animator), "container": ["width": 320, "height": 480], "root": Self.tree("a"),
        "storyboard": ["SecondViewController": ["id": "b", "frame": ["x": 0, "y": 0, "width": -1, "height": 4]]],
      ])
    #expect(badTree["code"]?.intValue == 2004)
    #expect(badTree["data"]?["field"]?.stringValue == "storyboard.SecondViewController.frame.width")
    let noAnimator = client.error(
      "scene/open", ["animator": "nope", "container": ["width": 1, "height": 1], "root": Self.tree("a")])
    #expect(noAnimator["code"]?.intValue == 2001)
    client.request("plugins/load", ["path": "libUIKitExampleSheet.so"])
    let noScene = client.error(
      "scene/open",
      ["animator": "com.example.uikit.sheet/sheet", "container": ["width": 1, "height": 1], "root": Self.tree("a")])
    #expect(noScene["code"]?.intValue == 2012)
    #expect(noScene["data"]?["field"]?.stringValue == "animator")
    let (_, status) = client.finish()
    #expect(status == .exited(0))
  }

  /// The fixture's notes ("note: …" log lines) and the host's other plugin log lines received so far.
  static func logs(_ client: TransitionClient) -> (notes: [String], others: [String]) {
    _ = client.takeNotifications()
    let messages = client.received.filter { $0["method"]?.stringValue == "window/logMessage" }.compactMap {
      $0["params"]?["message"]?.stringValue
    }
    let notes = messages.compactMap { message in message.range(of: "note: ").map { String(message[$0.upperBound...]) } }
    return (notes, messages.filter { !$0.contains("note: ") })
  }

  static func openFixtureScene(_ client: TransitionClient) -> String {
    client.result(
      "scene/open",
      [
        "animator": "com.example.test.gestures/scene", "clock": "manual", "container": ["width": 400, "height": 100],
        "root": ["id": "root", "frame": ["x": 0, "y": 0, "width": 400, "height": 100]],
        "storyboard": ["Modal": ["id": "modal", "frame": ["x": 0, "y": 0, "width": 400, "height": 100]]],
      ])["scene"]?.stringValue ?? ""
  }

  static func pan(_ client: TransitionClient, _ scene: String, x: Double) -> JSON {
    let began = client.result(
      "scene/gesture", ["scene": JSON(scene), "state": "began", "location": ["x": JSON(x), "y": 50]])
    client.result("scene/gesture", ["scene": JSON(scene), "state": "ended", "location": ["x": JSON(x), "y": 50]])
    return began
  }

  @Test(arguments: ["process", "none"])
  func theControllersPresentAsUIKitDoes(_ isolation: String) throws {
    let client = try TransitionClient(["--isolation", isolation, "--log-level", "info"])
    client.request("plugins/load", ["path": "libTestPluginGestures.so"])
    let scene = Self.openFixtureScene(client)
    #expect(Self.logs(client).notes == ["viewDidLoad root root loaded true"])
    // An unknown storyboard identifier: logged at error level as UIKit raises; a controller without a view.
    #expect(Self.pan(client, scene, x: 50) == ["recognizers": 1])
    #expect(Self.logs(client).notes.last == "unknown identifier gives UIViewController view nil")
    #expect(Self.logs(client).others.contains { $0.contains("identifier 'Nope'") })
    // No transitioning delegate: nothing starts (UIKit would animate on its own).
    #expect(Self.pan(client, scene, x: 150) == ["recognizers": 1])
    #expect(Self.logs(client).notes.last == "no delegate presented false")
    #expect(Self.logs(client).others.contains { $0.contains("has no transitioningDelegate") })
    // Full screen: the delegate's animator runs without a presentation controller (so the presenter's view stays),
    // not interactively (no interaction controller); the completion runs once it completed.
    let began = Self.pan(client, scene, x: 250)
    let t1 = try #require(began["transition"]?.stringValue)
    #expect(client.waitFor { $0["method"]?.stringValue == "scene/transitionStarted" } != nil)
    client.result("transition/tick", ["transition": JSON(t1), "dt": 1])
    #expect(client.waitForDidEnd(t1)?["completed"]?.boolValue == true)
    let last = try #require(Self.lastFrame(client, t1))
    #expect(last.y("modal") == 0 && last.y("root") == 0)
    var notes = Self.logs(client).notes
    #expect(!notes.contains("presentationController asked"))
    #expect(notes.last == "completion presented true")
    // The presented screen covers the first one now: a touch hits it, and it has no recognizer.
    let covered = client.error(
      "scene/gesture", ["scene": JSON(scene), "state": "began", "location": ["x": 350, "y": 50]])
    #expect(covered["code"]?.intValue == 2011 && covered["data"]?["reason"]?.stringValue == "notHit")

    // `.custom` in a scene of its own: the presentation controller takes part and removes the presenter's view.
    let other = Self.openFixtureScene(client)
    let t2 = try #require(Self.pan(client, other, x: 350)["transition"]?.stringValue)
    client.result("transition/tick", ["transition": JSON(t2), "dt": 1])
    #expect(client.waitForDidEnd(t2)?["completed"]?.boolValue == true)
    notes = Self.logs(client).notes
    #expect(notes.contains("presentationController asked"))
    #expect(try #require(Self.lastFrame(client, t2)).view("root") == nil)
    let (_, status) = client.finish()
    #expect(status == .exited(0))
  }

  @Test func aSceneWhoseWorkerDiesEndsCleanly() throws {
    let (client, scene) = try Self.openScene("process")
    let t1 = try #require(client.result("scene/gesture", Self.sample(scene, "began", y: 40, moved: 8))["transition"])
    // Its worker: the one serving the example (the built-in plugins have workers of their own).
    let workers = WorkerProcesses.of(client.host.pid).filter {
      WorkerProcesses.commandLine($0).contains { $0.hasSuffix("libUIKitExamplePullDown.so") }
    }
    try #require(workers.count == 1)
    kill(workers[0], SIGKILL)
    let closed = try #require(client.waitFor { $0["method"]?.stringValue == "scene/didClose" }?["params"])
    #expect(closed["scene"]?.stringValue == scene)
    #expect(closed["reason"]?.stringValue == "pluginCrashed")
    #expect(closed["error"]?["code"]?.intValue == 2009)
    #expect(client.waitForDidEnd(t1.stringValue ?? "")?["reason"]?.stringValue == "pluginCrashed")
    #expect(client.error("scene/gesture", Self.sample(scene, "changed", y: 60, moved: 20))["code"]?.intValue == 2013)
    let (_, status) = client.finish()
    #expect(status == .exited(0))
  }
}
