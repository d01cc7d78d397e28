import PluginHost
import TransitionEngine
import TransitionService

/// The scene every transition check runs on: an iPhone-sized container (390 × 844) with the from tree shown and
/// the to tree beside it, each a full-screen root with a header and a card (the two cards share the match key
/// "card"), so that animators that look for subviews, snapshot them or pair them by match key find something.
enum SampleScene {
  static let containerSize = Size(width: 390, height: 844)

  /// A fresh scene: the from root in the container, the to root detached; every view made, in tree order.
  static func make() -> (scene: Scene, from: View, to: View, views: [View]) {
    let scene = Scene(containerSize: containerSize)
    var views: [View] = [scene.container]
    func view(_ id: String, _ frame: Rect, _ color: Color?, radius: Double = 0, in parent: View? = nil) -> View {
      let made = scene.makeView(hint: id)
      made.frame = frame
      made.backgroundColor = color
      made.cornerRadius = radius
      parent?.addSubview(made)
      views.append(made)
      return made
    }
    let full = Rect(x: 0, y: 0, width: containerSize.width, height: containerSize.height)
    let from = view("from", full, Color(r: 1, g: 1, b: 1))
    _ = view("from.header", Rect(x: 0, y: 0, width: 390, height: 96), Color(r: 0.95, g: 0.95, b: 0.97), in: from)
    let card = view(
      "from.card", Rect(x: 16, y: 120, width: 358, height: 220), Color(r: 0.2, g: 0.4, b: 0.9), radius: 16, in: from)
    _ = view("from.card.title", Rect(x: 16, y: 16, width: 200, height: 24), Color(r: 1, g: 1, b: 1, a: 0.8), in: card)
    card.matchKey = "card"  // the shared element animators such as magic-move pair by match key
    let to = view("to", full, Color(r: 0.98, g: 0.96, b: 0.9))
    _ = view("to.header", Rect(x: 0, y: 0, width: 390, height: 96), Color(r: 0.9, g: 0.9, b: 0.85), in: to)
    _ = view("to.image", Rect(x: 0, y: 96, width: 390, height: 300), Color(r: 0.9, g: 0.5, b: 0.2), in: to)
    let toCard = view(
      "to.card", Rect(x: 16, y: 420, width: 358, height: 160), Color(r: 0.3, g: 0.7, b: 0.4), radius: 12, in: to)
    toCard.matchKey = "card"
    scene.container.addSubview(from)
    return (scene, from, to, views)
  }
}

/// Sets up and drives transitions of one animator and operation for the checks.
struct TransitionHarness {
  let host: ValidationHost
  /// `pluginId/animatorId`.
  let animatorID: String
  let operation: String

  /// A transition on a fresh sample scene, ready to start, made as the host makes every transition (the transition
  /// service's `TransitionFactory`): the roots placed as the engine places them, and the scene's state captured
  /// before anything of the animator ran.
  func makeRun(interactive: Bool) -> Result<HarnessRun, CheckFailure> {
    let (scene, from, to, views) = SampleScene.make()
    let driver: LocalTransitionDriver
    do throws(TransitionStartError) {
      driver = try TransitionFactory(catalog: PluginAnimatorCatalog(registry: host.registry)).make(
        TransitionRequest(
          animator: animatorID, operation: TransitionOperation(name: operation),
          trees: ViewTrees(scene: scene, fromRoot: from, toRoot: to),
          options: TransitionOptions(isInteractive: interactive)))
    } catch {
      return .failure(CheckFailure("the host cannot set up the transition: \(error.message)"))
    }
    return .success(HarnessRun(scene: scene, to: to, views: views, driver: driver, log: host.log))
  }

  /// A normal (non-interactive) run from start to end; a run whose set-up failed reports it as its problem.
  func runToEnd(recordingFrames: Bool = false) -> HarnessRun {
    switch makeRun(interactive: false) {
    case .failure(let failure):
      return HarnessRun(failedSetUp: failure.reason)
    case .success(let run):
      run.recordsFrames = recordingFrames
      if run.start() { run.advanceUntilEnded() }
      return run
    }
  }
}

/// One transition in a check: the engine's `Transition` with everything it reported.
final class HarnessRun {
  /// Clock time per step (60 frames a second).
  static let step = 1.0 / 60

  let scene: Scene?
  /// The service's driver of the transition.
  let driver: LocalTransitionDriver?
  /// The engine transition.
  var transition: Transition? { driver?.transition }
  private let log: LogRecorder?
  private let views: [View]
  /// The scene before `start()`.
  let initialState: SceneState?
  /// How it ended (nil while it runs).
  private(set) var outcome: TransitionOutcome?
  private(set) var endCalls = 0
  private(set) var misbehaviors: [Misbehavior] = []
  /// Why a call on the transition was refused, or why it could not be set up: the run is unusable.
  private(set) var problem: String?
  /// Clock seconds advanced so far.
  private(set) var clock = 0.0
  /// Record `presentation()` after every step (and at the start).
  var recordsFrames = false
  private(set) var frames: [(time: Double, states: [ViewState])] = []
  /// Log lines at the misbehaving level that existed before this run (they belong to someone else).
  private let logBaseline: Int

  init(scene: Scene, to: View, views: [View], driver: LocalTransitionDriver, log: LogRecorder) {
    self.scene = scene
    self.driver = driver
    self.log = log
    self.views = views
    logBaseline = log.misbehaviour.count
    // Where the engine puts the roots at the start (CONVENTIONS, "Which views are where"): a dismissal that
    // kept the presenter's view has the to root at the bottom of the container.
    if driver.transition.operation.kind == .dismissal && !driver.transition.removesPresentersView {
      scene.container.insertSubview(to, at: 0)
    }
    initialState = SceneState.capture(scene: scene, views: views)
    driver.onEvent = { [unowned self] event in
      switch event {
      case .ended(let outcome):
        endCalls += 1
        self.outcome = outcome
      case .misbehaved(let report): misbehaviors.append(report)
      case .misusedViewModel, .timelineChanged, .lost, .abandoned: break
      }
    }
  }

  init(failedSetUp reason: String) {
    scene = nil
    driver = nil
    log = nil
    views = []
    initialState = nil
    logBaseline = 0
    problem = reason
  }

  var isEnded: Bool { outcome != nil }

  /// Starts the transition; false (with `problem` set) when the engine refuses.
  @discardableResult
  func start() -> Bool {
    perform("start") { (driver) throws(TransitionError) in try driver.start() }
  }

  /// Runs `command` on the transition; false (with `problem` set) when it is refused.
  @discardableResult
  func perform(_ name: String, _ command: TransitionCommand) -> Bool {
    perform(name) { (driver) throws(TransitionError) in _ = try driver.perform(command) }
  }

  /// Runs a call on the transition; false (with `problem` set) when it throws.
  @discardableResult
  func perform(_ name: String, _ body: (LocalTransitionDriver) throws(TransitionError) -> Void) -> Bool {
    guard problem == nil, let driver else { return false }
    let transition = driver.transition
    do {
      try body(driver)
      if recordsFrames && name == "start" { frames.append((0, transition.presentation())) }
      return true
    } catch {
      problem = "\(name) was refused at \(format(transition.time)) s: \(error.description)"
      return false
    }
  }

  /// Advances `seconds` of clock time in 60 Hz steps (stops early at the end).
  func advance(seconds: Double) {
    guard let transition else { return }
    var left = seconds
    while left > 1e-12, !isEnded, problem == nil {
      let dt = min(Self.step, left)
      guard perform("advance", .advance(seconds: dt)) else { return }
      left -= dt
      clock += dt
      if recordsFrames { frames.append((clock, transition.presentation())) }
    }
  }

  /// The clock time a run may take: ten times the duration, and at least the duration plus 20 s.
  var timeLimit: Double {
    let duration = transition?.duration ?? 0
    return max(10 * duration, duration + 20)
  }

  /// Advances until the transition ends or `timeLimit` passes; whether it ended.
  @discardableResult
  func advanceUntilEnded() -> Bool {
    advance(seconds: max(timeLimit - clock, 0))
    return isEnded
  }

  /// Every misbehaviour the host reported about this run: through the transition, and to the log when the
  /// transition was already gone.
  var reports: [String] {
    misbehaviors.map { "\($0.kindName): \($0.message)" }
      + (log?.misbehaviour.dropFirst(logBaseline).map(\.message) ?? [])
  }

  /// Whether completeTransition was called more than once.
  var completedMoreThanOnce: Bool {
    misbehaviors.contains { $0.kind == .completedTwice }
      || (log?.misbehaviour.dropFirst(logBaseline).contains { $0.message.contains("complete_transition") } ?? false)
  }

  /// Host-API misuse: every report except those the completion checks and `duration` judge.
  var misuse: [String] {
    misbehaviors.filter {
      $0.kind != .completedTwice && $0.kind != .neverCompleted && $0.kind != .invalidValue(field: "transitionDuration")
    }
    .map { "\($0.kindName): \($0.message)" }
      + (log?.misbehaviour.dropFirst(logBaseline).filter { !$0.message.contains("complete_transition") }
        .map(\.message) ?? [])
  }

  /// How the run ended, in words (for explanations).
  var describeOutcome: String {
    if let problem { return "abnormally (\(problem))" }
    switch outcome {
    case nil: return "never: still running after \(format(clock)) s (it must end in bounded time)"
    case .completed?: return "completed (completeTransition(true))"
    case .cancelled(nil)?: return "cancelled (completeTransition(false))"
    case .cancelled(let reason?)?: return "cancelled by the host (\(reason))"
    case .failed("neverCompleted")?:
      return "without completeTransition: every animation and completion ended and nothing called it"
    case .failed(let reason)?: return "failed (\(reason))"
    }
  }

  /// The scene now, to compare with `initialState`.
  func currentState() -> SceneState? {
    guard let scene else { return nil }
    return SceneState.capture(scene: scene, views: views)
  }

  /// Records the presentation now (used while scrubbing, when no time passes).
  func recordPresentation() {
    guard recordsFrames, let transition else { return }
    frames.append((transition.time, transition.presentation()))
  }

  /// Ends a run that is still going (its animator is closed by the engine).
  func terminate() {
    guard let driver, !isEnded else { return }
    driver.terminate(reason: "validator")
  }
}

/// Everything observable about the sample scene's own views: hierarchy, model and presented values, flags,
/// and the ids the container shows.
struct SceneState: Equatable {
  struct Entry: Equatable {
    var id: String
    var parent: String?
    var subviews: [String]
    var model: AnimatableValues
    var presented: AnimatableValues
    var isHidden: Bool
    var clipsToBounds: Bool
    var snapshotOf: String?
  }

  var entries: [Entry]
  /// The container's presentation, ids in drawing order (views the animator made and left show up here).
  var shown: [String]

  static func capture(scene: Scene, views: [View]) -> SceneState {
    let time = scene.currentTime
    return SceneState(
      entries: views.map { view in
        Entry(
          id: view.id, parent: view.superview?.id, subviews: view.subviews.map(\.id), model: view.model,
          presented: scene.presentedValues(of: view, at: time), isHidden: view.isHidden,
          clipsToBounds: view.clipsToBounds, snapshotOf: view.snapshotOf)
      },
      shown: scene.presentation(at: time).map(\.id))
  }

  /// The first difference from `other` (the state expected), in words; nil when equal.
  func difference(from expected: SceneState) -> String? {
    if shown != expected.shown {
      return
        "the container shows [\(shown.joined(separator: ", "))] instead of [\(expected.shown.joined(separator: ", "))]"
    }
    for (entry, want) in zip(entries, expected.entries) where entry != want {
      if let field = firstDifferentField(entry, want) {
        return "view \(entry.id): \(field.path) is \(field.value) instead of \(field.expected)"
      }
      return "view \(entry.id) differs"
    }
    return nil
  }
}

/// The first stored property (one level into nested structs) where `value` and `expected` differ: its path and
/// both values as text.
func firstDifferentField<T>(_ value: T, _ expected: T) -> (path: String, value: String, expected: String)? {
  let have = Mirror(reflecting: value).children.map { ($0.label ?? "?", $0.value) }
  let want = Mirror(reflecting: expected).children.map { $0.value }
  for ((label, a), b) in zip(have, want) {
    let (textA, textB) = (String(describing: a), String(describing: b))
    guard textA != textB else { continue }
    if Mirror(reflecting: a).displayStyle == .struct, let nested = firstDifferentField(a, b) {
      return ("\(label).\(nested.path)", nested.value, nested.expected)
    }
    return (label, textA, textB)
  }
  return nil
}

/// A time or value for explanations: at most 4 decimals, no trailing zeros.
func format(_ value: Double) -> String {
  guard value.isFinite else { return String(value) }
  let rounded = (value * 10_000).rounded() / 10_000
  if rounded == rounded.rounded() && abs(rounded) < 1e15 { return String(Int(rounded)) }
  return String(rounded)
}
