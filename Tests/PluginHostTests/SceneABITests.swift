// The ABI 1.2 scene extensions as a C plugin sees them (Tests/Fixtures/ScenesC): the host opens a scene on one
// instance with "th.scene-controller/1", serves its trees through "th.scenes/1", refuses every transition request it
// cannot honour naming the field (and destroys each refused instance it could read), keeps the one good request for
// the caller to adopt or discard, and tells the plugin when that transition ends.

import PluginHost
import TestSupport
import Testing
import TransitionEngine

@Suite(.serialized) struct SceneABITests {
  final class Probe {
    let log = LogCapture()
    let registry: PluginRegistry
    let scene: PluginScene
    let first: View
    let second: View

    init() throws {
      let engineScene = Scene(containerSize: Size(width: 200, height: 100))
      first = try engineScene.makeView(id: "first")
      first.frame = Rect(x: 0, y: 0, width: 200, height: 100)
      second = try engineScene.makeView(id: "second")
      second.frame = Rect(x: 0, y: 0, width: 200, height: 100)
      engineScene.container.addSubview(first)
      registry = try TestSupport.registry(loadingFixtures: ["ScenesC"], log: log)
      scene = try PluginScene(
        registry: registry, animatorID: "probe", scene: engineScene, trees: ["": first, "second": second])
    }

    /// The probe lines logged since `from`.
    func probes(from: Int = 0) -> [String] {
      let lines = log.records.filter { $0.message.hasPrefix("probe: ") }.map { String($0.message.dropFirst(7)) }
      return Array(lines.dropFirst(from))
    }

    /// Misbehaviour reports (the host's refusals that are misuse), as "field: message".
    var reports: [String] {
      log.records.filter { $0.level == .pluginMisbehaving }.map(\.message)
    }
  }

  @Test func openingServesTheTreesAndRefusesATransition() throws {
    let probe = try Probe()
    #expect(
      probe.probes() == [
        "tree root TH_OK", "first TH_OK", "tree nope TH_ERR_NOT_FOUND", "tree NULL TH_ERR_INVALID_ARGUMENT",
        // The instance made for the early request was destroyed by the host.
        "destroy 2", "start while opening TH_ERR_WRONG_PHASE",
      ])
    #expect(probe.reports.contains { $0.contains("scenes.tree: TH_ERR_INVALID_ARGUMENT") && $0.contains("identifier") })
    #expect(probe.reports.contains { $0.contains("start_transition is called from handle_gesture") })
  }

  @Test func everyBadRequestIsRefusedNamingItsFieldAndTheGoodOneWaits() throws {
    let probe = try Probe()
    let before = probe.probes().count
    let delivery = probe.scene.deliverGesture(
      GestureSample(state: .began, location: Point(x: 20, y: 20)), running: nil)
    #expect(delivery == .received(recognizers: 1))
    #expect(
      probe.probes(from: before) == [
        "first TH_OK",  // the hit view
        "start NULL TH_ERR_INVALID_ARGUMENT", "start small struct TH_ERR_INVALID_ARGUMENT",
        "start NULL instance TH_ERR_INVALID_ARGUMENT",
        "destroy 5", "start from off screen TH_ERR_INVALID_VALUE",
        "destroy 6", "start to itself TH_ERR_INVALID_VALUE",
        "destroy 7", "start unknown view TH_ERR_INVALID_HANDLE",
        "update on the scene TH_ERR_WRONG_PHASE",
        "start TH_OK",
        "destroy 9", "start again TH_ERR_WRONG_PHASE",
      ])
    for field in [
      "request is NULL", "request.struct_size 8", "request.instance", "request.from is not the root",
      "request.to is not the root", "request.to 12345", "a scene's context has no transition",
      "already asked for in this call",
    ] {
      #expect(probe.reports.contains { $0.contains(field) }, "\(field)")
    }
    // The good request: present from the root tree on screen to the other tree.
    let request = try #require(probe.scene.takeRequest())
    #expect(request.operation == .present)
    #expect(request.from === probe.first && request.to === probe.second)
    #expect(probe.scene.takeRequest() == nil)
    let after = probe.probes().count
    probe.scene.discard(request)
    #expect(probe.probes(from: after) == ["destroy 8"])
  }

  @Test func anAdoptedInstanceIsDestroyedWithItsAnimatorAndTheEndArrangesTheScene() throws {
    let probe = try Probe()
    _ = probe.scene.deliverGesture(GestureSample(state: .began, location: Point(x: 20, y: 20)), running: nil)
    let request = try #require(probe.scene.takeRequest())
    let animator = try #require(probe.scene.adopt(request))
    #expect(animator.animatorID == "com.example.test.scenes-c/probe")
    let before = probe.probes().count
    animator.close()
    #expect(probe.probes(from: before) == ["destroy 8"])
    // Completed: the to tree joins the container; the presenter's view leaves when the presentation says so.
    probe.scene.transitionEnded(from: probe.first, to: probe.second, completed: true, removesFromView: true)
    #expect(probe.first.superview == nil)
    #expect(probe.second.superview != nil)
    #expect(probe.probes().last == "ended completed TH_OK")
    // Now the second tree is on screen: a hit lands on it.
    let hitBefore = probe.probes().count
    _ = probe.scene.deliverGesture(GestureSample(state: .began, location: Point(x: 20, y: 20)), running: nil)
    #expect(probe.probes(from: hitBefore).first == "second TH_OK")
  }
}
