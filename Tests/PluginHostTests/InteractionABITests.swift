// The ABI 1.2 interaction extensions as a C plugin sees them (Tests/Fixtures/InteractionC): the host asks
// "th.interaction-controller/1" once per transition, hands it gesture samples with the hit view, and checks every
// call of "th.percent-driven/1" (values, struct sizes, flags, phases) as the header promises; a plugin's bad answers
// are reported, never fatal.

import PluginHost
import TestSupport
import Testing
import TransitionEngine

@Suite struct InteractionABITests {
  final class Probe {
    let log = LogCapture()
    let run: PluginTransitionRun

    init() throws {
      let scene = Scene(containerSize: Size(width: 200, height: 100))
      let from = try scene.makeView(id: "from")
      from.frame = Rect(x: 0, y: 0, width: 200, height: 100)
      let to = try scene.makeView(id: "to")
      to.frame = Rect(x: 0, y: 0, width: 200, height: 100)
      scene.container.addSubview(from)
      var options = TransitionOptions()
      options.interactivityFromController = true
      let registry = try TestSupport.registry(loadingFixtures: ["InteractionC"], log: log)
      run = try PluginTransitionRun(
        registry, "probe", scene: scene, from: from, to: to, operation: .present, options: options)
      try run.start()
    }

    var probes: [String] {
      log.records.filter { $0.message.hasPrefix("probe: ") }.map { String($0.message.dropFirst(7)) }
    }

    func sample(_ state: GestureSample.State, x: Double) throws -> GestureDelivery {
      try run.transition.deliverGesture(
        GestureSample(state: state, location: Point(x: 50 + x, y: 50), translation: Point(x: x, y: 0)))
    }
  }

  @Test func theControllerIsAskedInTheDurationPhaseAndMayNotMoveThere() throws {
    let probe = try Probe()
    #expect(probe.probes == ["update while asked TH_ERR_WRONG_PHASE"])
    // Its answer wanted an interactive start.
    #expect(probe.run.transition.state == .paused)
    #expect(probe.run.reports.contains { $0.hasPrefix("wrongPhase: percent_driven.update: TH_ERR_WRONG_PHASE") })
  }

  @Test func everyMisuseOfThePercentDrivenCallsIsRefusedNamingItsField() throws {
    let probe = try Probe()
    #expect(try probe.sample(.began, x: 0) == .received(recognizers: 1))
    #expect(
      Array(probe.probes.dropFirst()) == [
        "began on from", "update NaN TH_ERR_INVALID_VALUE", "finish small struct TH_ERR_INVALID_ARGUMENT",
        "finish unknown flags TH_ERR_UNSUPPORTED", "finish spring timing TH_ERR_UNSUPPORTED",
        "finish speed 0 TH_ERR_INVALID_VALUE", "status NULL TH_ERR_INVALID_ARGUMENT",
        "status TH_OK state 2 percent 0 duration 1 interactive 1",
      ])
    // Each refusal is reported as misbehaviour naming its field.
    let fields = probe.run.misbehaviors.compactMap { report -> String? in
      if case .invalidValue(let field) = report.kind { field } else { nil }
    }
    #expect(
      fields == [
        "percent", "options.struct_size", "options.flags", "options.timing.kind", "options.completion_speed",
        "out_status",
      ])
    #expect(probe.run.reports.allSatisfy { !$0.contains("percent_driven.finish") || $0.contains("options.") })
    // Nothing moved.
    #expect(probe.run.transition.state == .paused)
    #expect(probe.run.transition.time == 0)
  }

  @Test func updateFinishAndThePluginsBadAnswers() throws {
    let probe = try Probe()
    _ = try probe.sample(.began, x: 0)
    // TH_GESTURE_RECEIVED with 0 recognizers is reported and taken as 1.
    #expect(try probe.sample(.changed, x: 40) == .received(recognizers: 1))
    #expect(abs(probe.run.transition.percent - 0.4) <= 1e-12)
    // An answer that is not a th_gesture_delivery is reported and taken as not hit; the finish it made stands, at
    // speed 2 and linear: the remaining 0.6 s of timeline take 0.3 s.
    #expect(try probe.sample(.ended, x: 40) == .notHit)
    #expect(probe.probes.suffix(3) == ["update TH_OK", "finish TH_OK", "finish again TH_ERR_WRONG_PHASE"])
    #expect(probe.run.transition.state == .finishing)
    _ = try probe.run.driver.perform(.advance(seconds: 0.15))
    #expect(abs(probe.run.transition.time - 0.7) <= 1e-9)
    let reports = probe.run.reports
    #expect(reports.contains { $0.contains("handle_gesture answered TH_GESTURE_RECEIVED with 0 recognizers") })
    #expect(reports.contains { $0.contains("handle_gesture returned 7, not a th_gesture_delivery") })
    #expect(try probe.run.run() == .completed)
    // After complete_transition the transition cannot be moved.
    #expect(probe.probes.last == "update after completion TH_ERR_WRONG_PHASE")
  }
}
