// Shared helpers for the transition tests: scenes with two view trees, test animators written against the Scene API
// (as an animator author would), an exact (bit-level) dump of a scene, and an independent cubic-Bézier solver.

@testable import TransitionEngine

// MARK: Scenes

/// A 400 × 800 container with a from tree and a to tree, each a root with one child.
struct TestTrees {
  let scene: Scene
  let from: View
  let fromChild: View
  let to: View
  let toChild: View

  static let containerSize = Size(width: 400, height: 800)

  init() {
    let scene = Scene(containerSize: Self.containerSize)
    self.scene = scene
    from = try! scene.makeView(id: "from")
    fromChild = try! scene.makeView(id: "fromChild")
    to = try! scene.makeView(id: "to")
    toChild = try! scene.makeView(id: "toChild")
    from.frame = Rect(x: 0, y: 0, width: 400, height: 800)
    from.backgroundColor = Color(r: 1, g: 0, b: 0)
    fromChild.frame = Rect(x: 20, y: 40, width: 100, height: 50)
    from.addSubview(fromChild)
    to.frame = Rect(x: 0, y: 0, width: 400, height: 800)
    to.backgroundColor = Color(r: 0, g: 0, b: 1)
    toChild.frame = Rect(x: 10, y: 10, width: 60, height: 60)
    to.addSubview(toChild)
  }

  /// Puts the roots where a transition of `kind` wants them at its start (so that `start()` changes nothing and a
  /// dump taken now is the start state).
  func placeForStart(_ kind: TransitionOperation.Kind, removesPresentersView: Bool) {
    if kind == .dismissal && !removesPresentersView { scene.container.addSubview(to) }
    scene.container.addSubview(from)
  }

  func transition(
    _ operation: TransitionOperation, animator: any TransitionAnimator, interactive: Bool = false,
    completionSpeed: Double = 1, completionCurve: TimingCurve = .easeInOut
  ) -> Transition {
    try! Transition(
      scene: scene, from: from, to: to, operation: operation, animator: animator,
      options: TransitionOptions(
        isInteractive: interactive, completionSpeed: completionSpeed, completionCurve: completionCurve))
  }
}

/// Ordered record of callbacks, shared by an animator, its presentation controller and the test.
final class EventLog {
  var entries: [String] = []
  func add(_ entry: String) { entries.append(entry) }
}

// MARK: Presentation controllers

final class TestPresentationController: PresentationControllerBehavior {
  let shouldRemovePresentersView: Bool
  let presentedFrame: Rect?
  let log: EventLog
  let addsDimming: Bool
  /// A dimming view added in the will-begin calls and faded alongside (to `dimmingAlpha`, or back to 0).
  var dimming: View?
  var dimmingAlpha = 0.4

  init(
    removesPresentersView: Bool, presentedFrame: Rect? = nil, addsDimming: Bool = true, log: EventLog = EventLog()
  ) {
    self.shouldRemovePresentersView = removesPresentersView
    self.presentedFrame = presentedFrame
    self.addsDimming = addsDimming
    self.log = log
  }

  func frameOfPresentedView(containerBounds: Rect) -> Rect? { presentedFrame }

  func presentationTransitionWillBegin(_ context: TransitionContext) {
    log.add("presentationWillBegin")
    guard addsDimming else { return }
    let view = context.scene.makeView(hint: "dimming")
    view.frame = context.containerView.bounds
    view.backgroundColor = .black
    view.alpha = 0
    context.containerView.addSubview(view)
    dimming = view
    let target = dimmingAlpha
    context.animateAlongside({ view.alpha = target }, completion: { [log] in log.add("alongsideCompletion(\($0))") })
  }

  func presentationTransitionDidEnd(_ completed: Bool) { log.add("presentationDidEnd(\(completed))") }
  func dismissalTransitionWillBegin(_ context: TransitionContext) { log.add("dismissalWillBegin") }
  func dismissalTransitionDidEnd(_ completed: Bool) { log.add("dismissalDidEnd(\(completed))") }
}

// MARK: Animators

/// How a test animator ends its transition.
enum CompletionStyle: CaseIterable {
  /// `completeTransition(!transitionWasCancelled)` from its last animation's completion (the usual animator).
  case normal
  /// Calls `completeTransition` twice from that completion.
  case twice
  /// Animates but never calls `completeTransition`.
  case never
  /// Does nothing at all in `animateTransition`.
  case nothing
  /// Calls `completeTransition(true)` inside `animateTransition` (a non-animated transition).
  case synchronousTrue
  /// Calls `completeTransition(false)` inside `animateTransition` (gives up at once).
  case synchronousFalse
  /// Always `completeTransition(true)`, ignoring cancellation (MagicMove's push does this).
  case ignoresCancel
}

/// What the seed animators do: slide the to root in (present, push, segue, custom: added on top; pop: inserted below
/// the from root) or the from root out (dismiss, unwind: the to root inserted below it when it is not shown).
final class SlideAnimator: TransitionAnimator {
  let animatorID = "test/slide"
  let duration: Double
  let timing: AnimationTiming
  let style: CompletionStyle
  let controller: TestPresentationController?
  let log: EventLog
  var ended: [Bool] = []
  /// `finished` of each completion the animation received.
  var finishedFlags: [Bool] = []

  init(
    duration: Double = 0.5, timing: AnimationTiming = .curve(.easeInOut), style: CompletionStyle = .normal,
    controller: TestPresentationController? = nil, log: EventLog = EventLog()
  ) {
    self.duration = duration
    self.timing = timing
    self.style = style
    self.controller = controller
    self.log = log
  }

  var presentationController: (any PresentationControllerBehavior)? { controller }

  func transitionDuration(_ context: TransitionContext?) -> Double { duration }

  func animateTransition(_ context: TransitionContext) {
    log.add("animateTransition")
    let scene = context.scene
    let container = context.containerView
    switch style {
    case .nothing: return
    case .synchronousTrue:
      if let to = context.view(forKey: .to), to.superview == nil { container.addSubview(to) }
      context.completeTransition(true)
      return
    case .synchronousFalse:
      context.completeTransition(false)
      return
    default: break
    }
    let from = context.viewController(forKey: .from)
    let height = container.bounds.size.height
    var changes: () -> Void = {}
    switch context.operation.kind {
    case .presentation, .navigation:
      if let to = context.view(forKey: .to) {
        let final = context.finalFrame(forKey: .to)
        to.frame = final.offsetBy(dx: 0, dy: height)
        if context.operation == .pop {
          container.insertSubview(to, belowSubview: from)
        } else {
          container.addSubview(to)
        }
        changes = { to.frame = final }
      }
    case .dismissal:
      if let to = context.view(forKey: .to) {
        to.frame = context.finalFrame(forKey: .to)
        container.insertSubview(to, belowSubview: from)
      }
      let start = from.frame
      changes = { from.frame = start.offsetBy(dx: 0, dy: height) }
    }
    scene.animate(duration: duration, delay: 0, timing: timing, animations: changes) { [self] finished in
      finishedFlags.append(finished)
      log.add("completion(\(finished))")
      switch style {
      case .normal: context.completeTransition(!context.transitionWasCancelled)
      case .twice:
        context.completeTransition(!context.transitionWasCancelled)
        context.completeTransition(!context.transitionWasCancelled)
      case .ignoresCancel: context.completeTransition(true)
      case .never, .nothing, .synchronousTrue, .synchronousFalse: break
      }
    }
  }

  func animationEnded(_ completed: Bool) {
    ended.append(completed)
    log.add("animationEnded(\(completed))")
  }
}

/// Animates every animatable property of several views with blocks, keyframes, a spring, a driver and a chained
/// block, then completes from the keyframes' completion. Used to check that a cancel restores everything.
final class ManyPropertiesAnimator: TransitionAnimator {
  let animatorID = "test/many"
  let duration: Double
  var ended: [Bool] = []
  init(duration: Double = 0.6) { self.duration = duration }

  func transitionDuration(_ context: TransitionContext?) -> Double { duration }

  func animateTransition(_ context: TransitionContext) {
    let scene = context.scene
    let container = context.containerView
    guard let from = context.view(forKey: .from), let to = context.view(forKey: .to) else { return }
    let toChild = to.subviews[0]
    let fromChild = from.subviews[0]

    // Immediate set-up writes (outside any block), as animators do before animating.
    container.sublayerTransform = {
      var m = Transform3D.identity; m.m34 = -1 / 500; return m
    }()
    to.frame = context.finalFrame(forKey: .to).offsetBy(dx: 400, dy: 0)
    to.alpha = 0
    container.addSubview(to)
    from.anchorPoint = Point(x: 0, y: 0.5)
    from.position = Point(x: 0, y: 400)
    let shade = scene.makeView(hint: "shade")
    shade.frame = from.bounds
    shade.gradient = Gradient(
      colors: [Color(r: 0, g: 0, b: 0, a: 1), Color(r: 0, g: 0, b: 0, a: 0.5)], locations: [0, 1],
      startPoint: Point(x: 0, y: 0.5), endPoint: Point(x: 1, y: 0.5))
    shade.alpha = 0
    from.addSubview(shade)

    // Half the duration, so that its completion (which chains another block) fires mid-transition.
    scene.animate(duration: duration / 2, delay: 0, timing: .curve(.easeInOut)) {
      to.frame = context.finalFrame(forKey: .to)
      to.alpha = 1
      to.cornerRadius = 12
      to.backgroundColor = Color(r: 0.2, g: 0.8, b: 0.4, a: 1)
      from.transform = Transform3D(rotationAngle: -Double.pi / 2, x: 0, y: 1, z: 0)
      from.zPosition = 10
      shade.alpha = 1
      shade.gradient = Gradient(
        colors: [Color(r: 1, g: 1, b: 1, a: 1), Color(r: 0, g: 0, b: 0, a: 0)], locations: [0.2, 0.9],
        startPoint: Point(x: 0, y: 0), endPoint: Point(x: 1, y: 1))
    } completion: { _ in
      // A chained block, started from a completion.
      scene.animate(duration: 0.2, delay: 0, timing: .curve(.linear)) { toChild.cornerRadius = 30 }
    }
    scene.animate(
      duration: duration, delay: 0.05,
      timing: .spring(Spring(dampingRatio: 0.5, initialVelocity: 0, duration: duration))
    ) {
      fromChild.bounds = Rect(x: 5, y: 5, width: 200, height: 80)
      fromChild.sublayerTransform = Transform3D(scaleX: 0.5, y: 0.5, z: 1)
    }
    scene.animateKeyframes(duration: duration, delay: 0, timing: .curve(.easeInOut), mode: .linear) {
      scene.addKeyframe(relativeStart: 0, relativeDuration: 0.5) {
        toChild.transform = Transform3D(scaleX: 2, y: 2, z: 1)
        toChild.alpha = 0.5
      }
      scene.addKeyframe(relativeStart: 0.5, relativeDuration: 0) { toChild.backgroundColor = Color(r: 1, g: 1, b: 0) }
      scene.addKeyframe(relativeStart: 0.5, relativeDuration: 0.5) {
        toChild.transform = Transform3D(rotationAngle: Double.pi / 3, x: 0, y: 0, z: 1)
        toChild.anchorPoint = Point(x: 0.25, y: 0.75)
      }
    } completion: { _ in
      context.completeTransition(!context.transitionWasCancelled)
    }
    scene.addDriver(duration: duration) { frame in
      frame.set(.cornerRadius, of: fromChild, to: 20 * frame.fraction)
    } completion: { _ in
    }
  }

  func animationEnded(_ completed: Bool) { ended.append(completed) }
}

// MARK: Exact dumps

/// Every model property (as bit patterns) and the place in the hierarchy of each view under `roots`, in tree order:
/// two dumps are equal exactly when the trees are identical bit for bit.
func exactDump(_ roots: [View]) -> [String] {
  var lines: [String] = []
  func bits(_ value: Double) -> String { String(value.bitPattern, radix: 16) }
  func bits(_ rect: Rect) -> String {
    [rect.origin.x, rect.origin.y, rect.size.width, rect.size.height].map(bits).joined(separator: ",")
  }
  func bits(_ point: Point) -> String { bits(point.x) + "," + bits(point.y) }
  func bits(_ color: Color?) -> String {
    guard let color else { return "nil" }
    return [color.r, color.g, color.b, color.a].map(bits).joined(separator: ",")
  }
  func visit(_ view: View) {
    var line = "\(view.id) parent=\(view.superview?.id ?? "-")"
    line += " bounds=\(bits(view.bounds)) position=\(bits(view.position)) anchor=\(bits(view.anchorPoint))"
    line += " transform=\(view.transform.values.map(bits)) sublayer=\(view.sublayerTransform.values.map(bits))"
    line += " alpha=\(bits(view.alpha)) z=\(bits(view.zPosition)) corner=\(bits(view.cornerRadius))"
    line += " background=\(bits(view.backgroundColor)) hidden=\(view.isHidden) clips=\(view.clipsToBounds)"
    line += " snapshotOf=\(view.snapshotOf ?? "-")"
    if let gradient = view.gradient {
      line += " gradient=\(gradient.colors.map(bits)) \(gradient.locations?.map(bits) ?? [])"
      line += " \(bits(gradient.startPoint)) \(bits(gradient.endPoint))"
    }
    line += " subviews=\(view.subviews.map(\.id))"
    lines.append(line)
    for subview in view.subviews { visit(subview) }
  }
  for root in roots { visit(root) }
  return lines
}

/// The dump of a transition's scene: the container's tree and both roots' trees (which may be detached).
func exactDump(_ trees: TestTrees) -> [String] {
  exactDump([trees.scene.container, trees.from, trees.to])
}

/// The presentation at `time` as exact strings (view id, parent, frame, transform, alpha, opacity), so that "the
/// screen shows the start state" can be compared bit for bit.
func presentationDump(_ scene: Scene, at time: Double) -> [String] {
  scene.presentation(at: time).map { state in
    let numbers =
      [state.frame.origin.x, state.frame.origin.y, state.frame.size.width, state.frame.size.height]
      + state.transform.values + state.worldTransform.values + [state.alpha, state.opacity, state.cornerRadius]
    return "\(state.id) \(state.parentID ?? "-") \(numbers.map { String($0.bitPattern, radix: 16) })"
  }
}
