import CTransitionABI
import PluginHost
import TransitionEngine
import TransitionService

/// The checks that create animator instances and run transitions of one animator (and operation).
enum OperationChecks {
  /// The percents at which `cancel` and `finish` take over an interactive transition.
  static let percents = [0.1, 0.5, 0.9]

  /// The plugin loaded by the host's loader and the harness for the target, or the outcome that ends the check.
  private static func prepare(_ plugin: String, _ target: CheckTarget) -> Result<TransitionHarness, CheckOutcomeError> {
    let host = ValidationHost()
    let loaded: PluginRegistry.LoadedPlugin
    switch host.load(plugin) {
    case .success(let value): loaded = value
    case .failure(let error): return .failure(CheckOutcomeError(.skip("the plugin does not load: \(error.message)")))
    }
    guard let animator = target.animator, loaded.info.animators.contains(where: { $0.id == animator }) else {
      return .failure(CheckOutcomeError(.fail("the plugin has no animator \(target.animator ?? "(none)")")))
    }
    return .success(
      TransitionHarness(
        host: host, animatorID: "\(loaded.info.id)/\(animator)", operation: target.operation ?? "present"))
  }

  private static func with(
    _ plugin: String, _ target: CheckTarget, _ body: (TransitionHarness) -> CheckOutcome
  ) -> CheckOutcome {
    switch prepare(plugin, target) {
    case .failure(let error): return error.outcome
    case .success(let harness): return body(harness)
    }
  }

  // MARK: - unknown-extension

  /// Ids no animator may answer: unknown, and known ones with something added or missing (CLAP's
  /// `create-id-with-trailing-garbage`).
  static let unknownExtensionIDs = [
    "th.validator.no-such-extension/1", "", "th.presentation-controller/1x", "th.presentation-controller/1 ",
    "th.presentation-controller", "th.presentation-controller/", "TH.PRESENTATION-CONTROLLER/1",
    "th.custom-driver/1",
  ]

  static func unknownExtension(_ plugin: String, _ target: CheckTarget) -> CheckOutcome {
    with(plugin, target) { harness in
      let lease: AnimatorLease
      do throws(AnimatorLookupError) { lease = try harness.host.registry.lease(animatorID: harness.animatorID) } catch {
        return .fail("the animator cannot be found: \(error.message)")
      }
      defer { lease.end() }
      guard let getExtension = lease.descriptor.pointee.get_extension else {
        return .pass("no get_extension: no extensions")
      }
      guard let instance = lease.makeInstance() else {
        return normalRunFault(harness) ?? .fail("create returned NULL")
      }
      for id in unknownExtensionIDs {
        if id.withCString({ getExtension(instance.state, $0) }) != nil {
          return .fail("get_extension(\"\(id)\") returned a table; ids it does not implement must give NULL")
        }
      }
      return .pass("NULL for all \(unknownExtensionIDs.count) ids it does not implement")
    }
  }

  // MARK: - duration

  static func duration(_ plugin: String, _ target: CheckTarget) -> CheckOutcome {
    with(plugin, target) { harness in
      // Without a context (UIKit's nil context: asked before any transition exists).
      let bare: Double
      do throws(AnimatorLookupError) {
        let animator = try harness.host.registry.makeAnimator(id: harness.animatorID)
        bare = animator.transitionDuration(nil)
        animator.close()
      } catch {
        return normalRunFault(harness) ?? .fail("the host cannot make an instance: \(error.message)")
      }
      if let problem = durationProblem(bare) { return .fail("without a context: \(problem)") }
      // Inside a transition: the value the engine captured at the start, and what it reported.
      let run: HarnessRun
      switch harness.makeRun(interactive: true) {
      case .failure(let failure): return normalRunFault(harness) ?? .fail(failure.reason)
      case .success(let value): run = value
      }
      defer { run.terminate() }
      guard run.start(), let transition = run.transition else {
        return normalRunFault(harness) ?? .fail(run.describeOutcome)
      }
      if let report = run.misbehaviors.first(where: { $0.kind == .invalidValue(field: "transitionDuration") }) {
        return .fail("inside a transition: \(report.message)")
      }
      let inside = transition.duration
      if let problem = durationProblem(inside) { return .fail("inside a transition: \(problem)") }
      if bare == 0 || inside == 0 {
        return .warn(
          "the duration is 0 (\(bare == 0 ? "without a context" : "inside a transition")): legal, but the "
            + "transition is not animated at all")
      }
      if bare != inside {
        return .warn(
          "\(format(bare)) s without a context but \(format(inside)) s inside a transition with default "
            + "parameters (UIKit asks both; they should agree)")
      }
      return .pass("\(format(inside)) s")
    }
  }

  /// Why a duration is unusable, or nil.
  static func durationProblem(_ value: Double) -> String? {
    if value.isNaN { return "transition_duration returned NaN" }
    if value.isInfinite { return "transition_duration returned \(value)" }
    if value < 0 { return "transition_duration returned \(format(value)) (negative)" }
    return nil
  }

  // MARK: - run-completes

  static func runCompletes(_ plugin: String, _ target: CheckTarget) -> CheckOutcome {
    with(plugin, target) { harness in
      let run = harness.runToEnd()
      defer { run.terminate() }
      if let failure = completionFailure(run, expected: .completed) { return .fail(failure) }
      if let warning = endStateWarning(run) { return .warn(warning) }
      let duration = run.transition?.duration ?? 0
      if run.clock < duration / 2 {
        return .warn(
          "completed once, but after \(format(run.clock)) s, under half its duration of \(format(duration)) s "
            + "(does it animate anything? interactive percents follow the duration)")
      }
      return .pass("completed once after \(format(run.clock)) s")
    }
  }

  /// Why a run did not end with exactly one completeTransition of the expected kind, or nil.
  static func completionFailure(_ run: HarnessRun, expected: TransitionOutcome) -> String? {
    if let problem = run.problem { return problem }
    if run.completedMoreThanOnce { return "completeTransition was called more than once" }
    guard run.outcome == expected else {
      if expected == .cancelled(reason: nil), run.outcome == .completed {
        return "ended completed: completeTransition(true) although the transition was cancelled "
          + "(pass !transitionWasCancelled)"
      }
      if expected == .completed, run.outcome == .cancelled(reason: nil) {
        return "ended cancelled: completeTransition(false) although nothing cancelled it"
      }
      return "ended \(run.describeOutcome)"
    }
    if run.endCalls != 1 { return "the transition ended \(run.endCalls) times" }
    return nil
  }

  /// When a check's failure is the failure of a normal run (no completeTransition, a second one, `false`, or a
  /// set-up the host refuses), which `run-completes` reports: that check's skip, naming it. Nil when a normal
  /// run completes properly, so the failure is the calling check's own.
  static func normalRunFault(_ harness: TransitionHarness) -> CheckOutcome? {
    let run = harness.runToEnd()
    defer { run.terminate() }
    guard let failure = completionFailure(run, expected: .completed) else { return nil }
    return .skip("a normal run already fails (see run-completes): \(failure)")
  }

  /// An interactive run scrubbed to `percent`, then cancelled or finished, and run to its end (or its time
  /// limit); `endedAtStart` when it completed inside `animate_transition`, before anything could be scrubbed.
  static func scrubbedRun(
    _ harness: TransitionHarness, to percent: Double, finishing: Bool
  ) -> Result<(run: HarnessRun, endedAtStart: Bool), CheckFailure> {
    harness.makeRun(interactive: true).map { run in
      run.start()
      if run.isEnded { return (run, true) }
      run.perform("update", .update(percent: percent))
      run.perform(finishing ? "finish" : "cancel", finishing ? .finish() : .cancel())
      run.advanceUntilEnded()
      return (run, false)
    }
  }

  /// Why a run did not end cancelled, exactly once, with the scene back in its initial state, or nil.
  static func cancelFailure(_ run: HarnessRun) -> String? {
    if let failure = completionFailure(run, expected: .cancelled(reason: nil)) { return failure }
    if let initial = run.initialState, let now = run.currentState(), let difference = now.difference(from: initial) {
      return "the scene is not restored: \(difference)"
    }
    return nil
  }

  /// A completed transition whose to root is not visible at the end.
  static func endStateWarning(_ run: HarnessRun) -> String? {
    guard let transition = run.transition, let scene = run.scene else { return nil }
    let toID = transition.toRoot.id
    guard let state = scene.presentation(at: scene.currentTime).first(where: { $0.id == toID }) else {
      return "completed, but the to view is not in the container at the end"
    }
    if state.opacity == 0 { return "completed, but the to view is invisible at the end (opacity 0)" }
    if let snap = scene.snapBacks.first { return snapBackWarning(snap, count: scene.snapBacks.count) }
    return nil
  }

  /// The snap-back trap: an explicit animation removed on completion left a model value that differs from its last
  /// presented value, so the layer jumped back at its end (set the model value, or isRemovedOnCompletion = false
  /// with fillMode forwards).
  static func snapBackWarning(_ snap: SnapBack, count: Int) -> String {
    let more = count > 1 ? " (and \(count - 1) more)" : ""
    return "completed, but layer \(snap.layerID)'s \(snap.keyPath) animation\(snap.key.map { " \"\($0)\"" } ?? "") "
      + "snaps back at \(format(snap.time)) s: it ends at \(snap.endValue) and is removed on completion, so the "
      + "layer jumps to its model value \(snap.modelValue)\(more) (set the model value to the end value, or use "
      + "isRemovedOnCompletion = false with fillMode .forwards)"
  }

  // MARK: - cancel

  static func cancel(_ plugin: String, _ target: CheckTarget) -> CheckOutcome {
    with(plugin, target) { harness in
      for percent in percents {
        let label = "cancelled at \(Int(percent * 100)) %"
        switch scrubbedRun(harness, to: percent, finishing: false) {
        case .failure(let failure): return normalRunFault(harness) ?? .fail(failure.reason)
        case .success(let (run, endedAtStart)):
          defer { run.terminate() }
          if endedAtStart {
            if let failure = completionFailure(run, expected: .completed) {
              return normalRunFault(harness) ?? .fail(failure)
            }
            return .warn(
              "it completes inside animate_transition, so there is nothing to cancel: an interactive "
                + "transition with it cannot be driven")
          }
          // Ending wrongly is this check's finding only when a normal run ends rightly; a scene that is not
          // restored always is.
          if let failure = completionFailure(run, expected: .cancelled(reason: nil)) {
            return normalRunFault(harness) ?? .fail("\(label): \(failure)")
          }
          if let failure = cancelFailure(run) { return .fail("\(label): \(failure)") }
        }
      }
      return .pass("cancelled once and restored exactly at 10 %, 50 % and 90 %")
    }
  }

  // MARK: - finish

  static func finish(_ plugin: String, _ target: CheckTarget) -> CheckOutcome {
    with(plugin, target) { harness in
      var endedAtStart = false
      for percent in percents {
        switch scrubbedRun(harness, to: percent, finishing: true) {
        case .failure(let failure): return normalRunFault(harness) ?? .fail(failure.reason)
        case .success(let (run, ended)):
          defer { run.terminate() }
          endedAtStart = endedAtStart || ended  // completed inside animate_transition: judged as it is
          if let failure = completionFailure(run, expected: .completed) {
            return normalRunFault(harness) ?? .fail("finished from \(Int(percent * 100)) %: \(failure)")
          }
        }
      }
      if endedAtStart { return .pass("completed once, inside animate_transition: nothing was left to finish") }
      return .pass("completed once finishing from 10 %, 50 % and 90 %")
    }
  }

  // MARK: - reverse

  static func reverse(_ plugin: String, _ target: CheckTarget) -> CheckOutcome {
    with(plugin, target) { harness in
      var done: [String] = []
      var notes: [String] = []
      /// Records how a reversal that ended toward `finishing` went: done, or not judged (its plain counterpart
      /// fails too); returns the check's outcome when it ends here (this check's failure, or a normal run's).
      func judge(_ failure: String?, _ part: String, finishing: Bool, failing: String) -> CheckOutcome? {
        guard let failure else {
          done.append("\(part) ended \(finishing ? "completed" : "cancelled and restored")")
          return nil
        }
        if let skip = normalRunFault(harness) { return skip }
        guard let note = plainEndFault(harness, finishing: finishing) else { return .fail("\(failing): \(failure)") }
        notes.append("\(part): \(note)")
        return nil
      }
      // 1. A normal run turned around halfway: cancelling, then cancelled and restored.
      switch harness.makeRun(interactive: false) {
      case .failure(let failure): return normalRunFault(harness) ?? .fail(failure.reason)
      case .success(let run):
        defer { run.terminate() }
        guard run.start(), let transition = run.transition else {
          return normalRunFault(harness) ?? .fail(run.describeOutcome)
        }
        let duration = transition.duration
        run.advance(seconds: duration / 2)
        if duration == 0 || run.isEnded {
          notes.append(
            "a normal run ended at \(format(run.clock)) s, before half its duration of \(format(duration)) s")
        } else {
          run.perform("reverse", .reverse)
          run.advanceUntilEnded()
          let failing = "reversed halfway through a normal run"
          if let outcome = judge(cancelFailure(run), "running → cancelling", finishing: false, failing: failing) {
            return outcome
          }
        }
      }
      // 2. Cancelled from 50 %, turned around a fifth of the way back (the cancel tail lasts half the duration at
      // completion speed 1): finishing, then completed.
      switch harness.makeRun(interactive: true) {
      case .failure(let failure): return normalRunFault(harness) ?? .fail(failure.reason)
      case .success(let run):
        defer { run.terminate() }
        run.start()
        let endedAtStart = run.isEnded
        if !endedAtStart {
          run.perform("update", .update(percent: 0.5))
          run.perform("cancel", .cancel())
        }
        let duration = run.transition?.duration ?? 0
        run.advance(seconds: duration * 0.1)
        if run.problem != nil { return normalRunFault(harness) ?? .fail(run.describeOutcome) }
        if endedAtStart {
          notes.append("an interactive start ended inside animate_transition (\(run.describeOutcome))")
        } else if duration == 0 {
          notes.append("with a zero duration a cancel has no way back to turn around on")
        } else if run.isEnded {
          notes.append("a cancel from 50 % ended \(run.describeOutcome) almost at once")
        } else {
          run.perform("reverse", .reverse)
          run.advanceUntilEnded()
          let failure = completionFailure(run, expected: .completed)
          let failing = "a cancel from 50 % reversed on its way back"
          if let outcome = judge(failure, "cancelling → finishing", finishing: true, failing: failing) {
            return outcome
          }
        }
      }
      if done.isEmpty { return .skip("nothing to reverse mid-flight: " + notes.joined(separator: "; ")) }
      return .pass((done + notes.map { "not run: \($0)" }).joined(separator: "; "))
    }
  }

  /// When a reversal ends wrongly because a plain cancel (or finish) from 50 % already does, which `cancel` (or
  /// `finish`) reports: the note saying so; nil when the plain one ends rightly.
  static func plainEndFault(_ harness: TransitionHarness, finishing: Bool) -> String? {
    guard case .success(let (run, _)) = scrubbedRun(harness, to: 0.5, finishing: finishing) else { return nil }
    defer { run.terminate() }
    let failure = finishing ? completionFailure(run, expected: .completed) : cancelFailure(run)
    guard let failure else { return nil }
    let check = finishing ? "finish" : "cancel"
    return "not judged, a plain \(check) from 50 % already fails (see \(check)): \(failure)"
  }

  // MARK: - finite-values

  static func finiteValues(_ plugin: String, _ target: CheckTarget) -> CheckOutcome {
    with(plugin, target) { harness in
      var runs = 0
      var frames = 0
      func inspect(_ run: HarnessRun, _ label: String) -> String? {
        runs += 1
        if let misuse = run.misuse.first {
          let more = run.misuse.count > 1 ? " (and \(run.misuse.count - 1) more)" : ""
          return "\(label): host-API misuse reported: \(misuse)\(more)"
        }
        for (time, states) in run.frames {
          frames += 1
          for state in states {
            if let field = nonFiniteField(state) {
              return "\(label): at \(format(time)) s view \(state.id) has a non-finite \(field)"
            }
          }
        }
        return nil
      }
      // A normal run, every frame recorded.
      let normal = harness.runToEnd(recordingFrames: true)
      defer { normal.terminate() }
      // Misuse is judged on what ran; a run the host would not even start is run-completes' finding.
      if normal.transition == nil, let skip = normalRunFault(harness) { return skip }
      if let failure = inspect(normal, "normal run") { return .fail(failure) }
      // Interactive: scrubbed through, then cancelled and finished.
      for (label, finishing) in [("scrubbed then cancelled", false), ("scrubbed then finished", true)] {
        switch harness.makeRun(interactive: true) {
        case .failure(let failure): return normalRunFault(harness) ?? .fail(failure.reason)
        case .success(let run):
          defer { run.terminate() }
          run.recordsFrames = true
          run.start()
          for step in 1...10 {
            if run.perform("update", .update(percent: Double(step) / 10)) { run.recordPresentation() }
          }
          run.perform(finishing ? "finish" : "cancel", finishing ? .finish() : .cancel())
          run.advanceUntilEnded()
          if let failure = inspect(run, label) { return .fail(failure) }
        }
      }
      return .pass("no misuse reported in \(runs) runs; \(frames) frames sampled, every value finite")
    }
  }

  /// The name of the first non-finite number of a frame entry, or nil.
  static func nonFiniteField(_ state: ViewState) -> String? {
    func rect(_ r: Rect) -> Bool { [r.x, r.y, r.size.width, r.size.height].allSatisfy(\.isFinite) }
    func point(_ p: Point) -> Bool { p.x.isFinite && p.y.isFinite }
    func color(_ c: Color?) -> Bool { c.map { [$0.r, $0.g, $0.b, $0.a].allSatisfy(\.isFinite) } ?? true }
    if !rect(state.frame) { return "frame" }
    if !rect(state.bounds) { return "bounds" }
    if !point(state.position) { return "position" }
    if !point(state.anchorPoint) { return "anchorPoint" }
    if !state.transform.values.allSatisfy(\.isFinite) { return "transform" }
    if !state.sublayerTransform.values.allSatisfy(\.isFinite) { return "sublayerTransform" }
    if !state.worldTransform.values.allSatisfy(\.isFinite) { return "worldTransform" }
    if let box = state.boundingBox, !rect(box) { return "boundingBox" }
    if !state.alpha.isFinite { return "alpha" }
    if !state.opacity.isFinite { return "opacity" }
    if !state.zPosition.isFinite { return "zPosition" }
    if !state.cornerRadius.isFinite { return "cornerRadius" }
    if !color(state.backgroundColor) { return "backgroundColor" }
    if let gradient = state.gradient {
      if !gradient.colors.allSatisfy({ color($0) }) || !(gradient.locations ?? []).allSatisfy(\.isFinite)
        || !point(gradient.startPoint) || !point(gradient.endPoint)
      {
        return "gradient"
      }
    }
    return nil
  }

  // MARK: - deterministic

  static func deterministic(_ plugin: String, _ target: CheckTarget) -> CheckOutcome {
    with(plugin, target) { harness in
      let first = harness.runToEnd(recordingFrames: true)
      defer { first.terminate() }
      let second = harness.runToEnd(recordingFrames: true)
      defer { second.terminate() }
      for run in [first, second] where run.problem != nil {
        return normalRunFault(harness) ?? .fail(run.describeOutcome)
      }
      if let difference = frameDifference(first.frames, second.frames) { return .fail(difference) }
      if first.outcome != second.outcome {
        return .fail("run 1 ended \(first.describeOutcome), run 2 ended \(second.describeOutcome)")
      }
      return .pass("two runs gave identical frames at all \(first.frames.count) sampled times")
    }
  }

  /// Where two recordings first differ, in words; nil when identical.
  static func frameDifference(
    _ first: [(time: Double, states: [ViewState])], _ second: [(time: Double, states: [ViewState])]
  ) -> String? {
    for (a, b) in zip(first, second) {
      let at = "at \(format(a.time)) s"
      if a.states.map(\.id) != b.states.map(\.id) {
        return "\(at) run 2 shows [\(b.states.map(\.id).joined(separator: ", "))], run 1 "
          + "[\(a.states.map(\.id).joined(separator: ", "))]"
      }
      for (x, y) in zip(a.states, b.states) where x != y {
        guard let field = firstDifferentField(x, y) else { return "\(at) view \(x.id) differs between two runs" }
        return "\(at) view \(x.id) differs between two runs: \(field.path) \(field.value) in run 1, "
          + "\(field.expected) in run 2"
      }
    }
    if first.count != second.count {
      return "run 1 lasted \(first.count) frames, run 2 \(second.count)"
    }
    return nil
  }

  // MARK: - stdout-silent

  static func stdoutSilent(_ plugin: String, _ target: CheckTarget, capture: StdoutCapture?) -> CheckOutcome {
    guard let capture else { return .skip("stdout could not be captured in the check process") }
    let outcome = with(plugin, target) { harness in
      let normal = harness.runToEnd()
      normal.terminate()
      if case .success(let run) = harness.makeRun(interactive: true) {
        run.start()
        run.perform("update", .update(percent: 0.5))
        run.perform("cancel", .cancel())
        run.advanceUntilEnded()
        run.terminate()
      }
      do { try harness.host.unloadAll() } catch {}
      return .pass("")
    }
    if outcome.status == .skip { return outcome }
    let (count, prefix) = capture.written()
    if count > 0 {
      let text = String(decoding: prefix, as: UTF8.self).oneLine
      return .fail(
        "\(count) byte\(count == 1 ? "" : "s") written to stdout (the protocol stream), starting \"\(text)\"")
    }
    return .pass("nothing written to stdout while loading, running a transition, cancelling one, unloading")
  }
}

/// An outcome that ends a check early (carried through a `Result`).
struct CheckOutcomeError: Error {
  var outcome: CheckOutcome
  init(_ outcome: CheckOutcome) { self.outcome = outcome }
}
