/// Where a transition is in its life. The names are the protocol's phases.
package enum TransitionState: Equatable, Sendable {
  /// Created, not started.
  case idle
  /// Running forward on its own (a non-interactive transition).
  case running
  /// Held by the user: an interactive transition before its release, or one grabbed by `update` or `pause`.
  case paused
  /// Running toward completion after `finish` (or `release` deciding so, or `reverse` of a cancel).
  case finishing
  /// Running back toward the start after `cancel` (or `release` deciding so, or `reverse`).
  case cancelling
  /// Over; `onEnd` has been called with this outcome.
  case ended(TransitionOutcome)

  /// The protocol's name of the phase: "idle", "running", "paused", "finishing", "cancelling" or "ended".
  package var name: String {
    switch self {
    case .idle: "idle"
    case .running: "running"
    case .paused: "paused"
    case .finishing: "finishing"
    case .cancelling: "cancelling"
    case .ended: "ended"
    }
  }

  /// Whether the transition is over.
  package var isEnded: Bool {
    if case .ended = self { return true }
    return false
  }
}

/// How a transition ended.
package enum TransitionOutcome: Equatable, Sendable {
  /// The animator called `completeTransition(true)`; the hierarchy settled as the operation says.
  case completed
  /// The animator called `completeTransition(false)` (reason nil), or the host ended the transition
  /// (`terminate(reason:)`, e.g. "terminated" or "inputClosed"); everything is back at its start.
  case cancelled(reason: String?)
  /// The transition could not end normally (reason "neverCompleted", or the host's reason for `fail(reason:)`);
  /// everything is back at its start.
  case failed(reason: String)

  /// Whether the transition completed.
  package var didComplete: Bool { self == .completed }

  /// The reason of a cancellation by the host or of a failure; nil otherwise.
  package var reason: String? {
    switch self {
    case .completed: nil
    case .cancelled(let reason): reason
    case .failed(let reason): reason
    }
  }
}

/// How a transition is driven.
package struct TransitionOptions: Sendable {
  /// Start paused at time 0 and wait for the user (`update`, `finish`, `cancel`, `release`); otherwise run forward.
  package var isInteractive: Bool
  /// Passed to the animator as `TransitionContext.isAnimated`.
  package var isAnimated: Bool
  /// The default speed of finish and cancel tails (UIKit's `completionSpeed`): the finishing tail from percent p
  /// takes (1 − p)·duration / speed. Must be finite and > 0.
  package var completionSpeed: Double
  /// The default curve of finish and cancel tails (UIKit's `completionCurve`, default easeInOut).
  package var completionCurve: TimingCurve
  /// The client left open whether the transition is interactive: an interaction controller the animator vends
  /// decides with its `wantsInteractiveStart`, as UIKit does (without one, `isInteractive` holds).
  package var interactivityFromController = false

  package init(
    isInteractive: Bool = false, isAnimated: Bool = true, completionSpeed: Double = 1,
    completionCurve: TimingCurve = .easeInOut
  ) {
    self.isInteractive = isInteractive
    self.isAnimated = isAnimated
    self.completionSpeed = completionSpeed
    self.completionCurve = completionCurve
  }
}

/// One custom view-controller transition: its animator, its two view trees in a scene, its timeline and its
/// interaction — `UIPercentDrivenInteractiveTransition` and the transition context's bookkeeping, headless.
///
/// **Time.** The transition's timeline time τ (`time`) is the scene's time: the animator's animations begin at
/// τ = 0, `duration` D is the animator's `transitionDuration` captured at the start, and `percent` = τ / D clamped to
/// [0, 1]. Only `advance(by:)` moves time on its own (driven by a clock); `update(percent:)` scrubs (τ = p·D, nothing
/// fires); `finish` and `cancel` start tails that `advance(by:)` then plays. Completions, chained blocks and
/// `completeTransition` happen only when time really advances.
///
/// **Tails.** `finish` runs from τ to D in (D − τ)/speed along the completion curve, or along a critically damped
/// UIKit spring of that length seeded with velocity v/(1 − p) when the gesture's velocity v is not 0. `cancel` runs
/// back to 0 in τ/speed (spring velocity −v/p); at 0 every pending completion fires (finished = true: the reversed
/// animations ran to their start), the animator is expected to call `completeTransition(false)` from them, and the
/// scene is restored to its state at the start, bit for bit. When animations outlast D, time keeps going at the
/// tail's speed until no work remains.
///
/// **Ending.** Exactly one `onEnd`. `completeTransition(true)` settles the hierarchy (CONVENTIONS, "Which views are
/// where"), then the presentation controller's did-end, then `animationEnded(true)`; `false` restores the start.
/// An animator that lets all its work end without calling `completeTransition` (detected from state, never from a
/// wall clock) fails the transition with reason "neverCompleted", restored like a cancel.
///
/// **Misuse.** Calls that make no sense in the current state throw a `TransitionError` and change nothing;
/// animator misbehaviour is reported through `onMisbehavior` and never traps.
///
/// A transition is single-threaded: call it from one thread (the host's loop), and not from inside its own callbacks
/// (`onMisbehavior`), except `terminate(reason:)` and `fail(reason:)`, which then take effect when the callback returns.
package final class Transition {
  /// The scene that holds both trees and the animation timeline.
  package let scene: Scene
  /// The root of the tree shown at the start.
  package let fromRoot: View
  /// The root of the tree shown at the end of a completed transition.
  package let toRoot: View
  /// What the transition does.
  package let operation: TransitionOperation
  /// The animator.
  package let animator: any TransitionAnimator
  /// The values of the animator's parameters.
  package let params: [String: ParameterValue]
  /// How the transition is driven.
  package let options: TransitionOptions
  /// The presentation controller of a presentation or dismissal (nil for push and pop, or when the animator has none).
  package let presentationController: (any PresentationControllerBehavior)?
  /// Whether the presenter's view leaves the container: a presentation removes the from root on completion, and a
  /// dismissal starts without the to root in the container. Always true for push and pop.
  package let removesPresentersView: Bool

  /// The context handed to the animator.
  package private(set) lazy var context = TransitionContext(
    transition: self, scene: scene, operation: operation, params: params, isAnimated: options.isAnimated)

  /// Called exactly once, when the transition has ended (after the animator's `animationEnded`).
  package var onEnd: ((TransitionOutcome) -> Void)?
  /// Called once in `start()`, when the scene is in the state a cancellation returns it to (the roots placed, before
  /// any animator code runs): where a host records what to show should the transition be lost.
  package var onStartState: (() -> Void)?
  /// Called for every misbehaviour of the animator or its presentation controller.
  package var onMisbehavior: ((Misbehavior) -> Void)?

  /// Where the transition is in its life.
  package internal(set) var state: TransitionState = .idle
  /// The length of the transition in seconds (the animator's `transitionDuration`, captured at the start).
  package internal(set) var duration: Double = 0
  /// The timeline time τ in seconds (the scene's time).
  package internal(set) var time: Double = 0
  /// Whether the user currently drives the transition (see `TransitionContext.isInteractive`).
  package internal(set) var isInteractive: Bool
  /// The interaction controller the animator vended for this transition (asked once, at the start), which receives
  /// the gesture samples (`deliverGesture`).
  package internal(set) var interactionController: (any InteractionControllerBehavior)?
  /// Whether the transition is heading back to its start (see `TransitionContext.transitionWasCancelled`).
  package internal(set) var transitionWasCancelled = false

  /// How time moves when the transition is advanced.
  var motion: Motion = .still
  /// The percent of a transition whose duration is 0 (τ cannot express it).
  var zeroDurationPercent = 0.0
  /// How many times the animator called `completeTransition`.
  var completionCalls = 0
  /// The animator's `completeTransition` argument, until the transition acts on it.
  var requestedCompletion: Bool?
  /// The display links (Transition+DisplayLinks.swift), and the clock they count frames on.
  var displayLinks: [DisplayLink] = []
  package internal(set) var clockTime = 0.0
  /// The finish and cancel tails run so far, for the timeline (Timeline.swift).
  var timelineTails: [TimelineTail] = []
  /// Whether a gesture sample is being delivered (a tail started then is the gesture's).
  var isDeliveringGesture = false
  /// An end the host asked for (`terminate`, `fail`), until the transition acts on it.
  var requestedAbruptEnd: TransitionOutcome?
  /// Nesting depth of calls into animator, presentation-controller, scene-callback or host code; the transition acts
  /// on requested ends only at depth 0, so an end never happens inside another callback.
  var calloutDepth = 0
  /// Whether an end is being acted on (guards re-entrance from the callbacks that ending makes).
  var isEnding = false
  /// True from `start()` until `animateTransition` has returned: alongside animations are queued meanwhile.
  var isStarting = false
  /// Alongside animations queued during the start.
  var queuedAlongside: [(animations: () -> Void, completion: ((Bool) -> Void)?)] = []
  /// The animator's interruptible animator (`TransitionAnimator.interruptibleAnimator`), once asked.
  package internal(set) var interruptibleAnimator: PropertyAnimator?
  /// The scene as it was at the start, restored by cancel and failure.
  var initialSnapshot: SceneSnapshot?
  /// The roots' frames at the start and at the end, per the UIKit rules (see `TransitionContext`).
  var initialFrames: [TransitionContext.Key: Rect] = [:]
  var finalFrames: [TransitionContext.Key: Rect] = [:]

  /// A transition of `operation` from the tree at `from` to the tree at `to`, both views of `scene`.
  ///
  /// The roots may be attached anywhere or detached; `start()` puts them where the operation wants them.
  /// - Throws: `TransitionError.invalidValue` when the completion speed is not finite and > 0, when `from` and `to`
  ///   are the same view, when either is the container, or when they do not belong to `scene`.
  package init(
    scene: Scene, from: View, to: View, operation: TransitionOperation, animator: any TransitionAnimator,
    params: [String: ParameterValue] = [:], options: TransitionOptions = TransitionOptions()
  ) throws(TransitionError) {
    guard options.completionSpeed.isFinite, options.completionSpeed > 0 else {
      throw .invalidValue(field: "completionSpeed", reason: "must be a finite number > 0")
    }
    guard from !== to else { throw .invalidValue(field: "to", reason: "must not be the from root") }
    guard from !== scene.container, to !== scene.container else {
      throw .invalidValue(field: "from", reason: "the roots must not be the container")
    }
    guard scene.view(withID: from.id) === from else {
      throw .invalidValue(field: "from", reason: "must be a view of the scene")
    }
    guard scene.view(withID: to.id) === to else {
      throw .invalidValue(field: "to", reason: "must be a view of the scene")
    }
    self.scene = scene
    self.fromRoot = from
    self.toRoot = to
    self.operation = operation
    self.animator = animator
    self.params = params
    self.options = options
    self.isInteractive = options.isInteractive
    switch operation.kind {
    case .navigation:
      self.presentationController = nil
      self.removesPresentersView = true
    case .presentation, .dismissal:
      let controller = animator.presentationController
      self.presentationController = controller
      self.removesPresentersView = controller?.shouldRemovePresentersView ?? operation.removesPresentersViewByDefault
    }
  }

  /// The progress in [0, 1]: τ / D clamped (for a zero duration: the last scrubbed percent, 1 once finished); while an
  /// interruptible animator drives the transition, its `fractionComplete`.
  package var percent: Double {
    if let driven = drivenAnimator { return min(max(driven.fractionComplete, 0), 1) }
    guard duration > 0 else { return zeroDurationPercent }
    let value = time / duration
    return value.isNaN ? 0 : min(max(value, 0), 1)
  }

  /// The direction time moves in: forward while running or finishing, backward while cancelling; nil when paused,
  /// not started or ended.
  package var direction: Direction? {
    switch state {
    case .running, .finishing: .forward
    case .cancelling: .backward
    default: nil
    }
  }

  /// The direction of a running transition.
  package enum Direction: Hashable, Sendable {
    /// Toward completion.
    case forward
    /// Toward the start.
    case backward
  }

  // MARK: Start

  /// Starts the transition: puts the roots in the container as the operation wants, records the start state,
  /// asks the duration, lets the presentation controller begin, then calls `animateTransition` at time 0 and runs
  /// the alongside animations queued meanwhile. An interactive transition then waits paused at 0; another one runs
  /// as `advance(by:)` is called.
  /// - Throws: `alreadyStarted` (or `ended`) when called twice.
  package func start() throws(TransitionError) {
    guard case .idle = state else { throw state.isEnded ? .ended : .alreadyStarted }
    placeRootsForStart()
    moveTime(to: 0)
    // Before any animator or presentation-controller code runs: whatever they change is undone by a cancel.
    initialSnapshot = scene.snapshot()
    recordFrames()
    onStartState?()

    var requested = 0.0
    callout { requested = animator.transitionDuration(context) }
    if requested.isFinite, requested >= 0 {
      duration = requested
    } else {
      report(.invalidValue(field: "transitionDuration"), "transitionDuration returned \(requested); using 0")
      duration = 0
    }
    callout { interactionController = animator.interactionController(context) }
    if options.interactivityFromController, let interactionController {
      isInteractive = interactionController.wantsInteractiveStart
    }
    state = isInteractive ? .paused : .running
    motion = isInteractive ? .still : .play(speed: 1)
    // An end the host asked for from a report made above (e.g. a bad duration): the animator animates nothing.
    processRequestedEnd()
    if state.isEnded { return }

    isStarting = true
    switch operation.kind {
    case .presentation: callout { presentationController?.presentationTransitionWillBegin(context) }
    case .dismissal: callout { presentationController?.dismissalTransitionWillBegin(context) }
    case .navigation: break
    }
    if !state.isEnded {
      if isInteractive, let driven = askInterruptibleAnimator() {
        // UIKit drives an interactive transition's interruptible animator itself: paused at its start.
        callout { try? driven.pauseAnimation() }
      } else {
        callout { animator.animateTransition(context) }
        if !state.isEnded { _ = askInterruptibleAnimator() }
      }
    }
    isStarting = false
    let queued = queuedAlongside
    queuedAlongside = []
    for block in queued where !state.isEnded {
      runAlongside(block.animations, completion: block.completion, duration: duration)
    }
    processRequestedEnd()
    checkNeverCompleted()
  }

  /// Puts the roots where the table in CONVENTIONS wants them at the start: the from root in the container, on top;
  /// for a dismissal that kept the presenter's view, the to root at the bottom; otherwise the to root outside the
  /// container (the animator adds it).
  private func placeRootsForStart() {
    let container = scene.container
    if operation.kind == .dismissal && !removesPresentersView {
      if toRoot.superview !== container { toRoot.removeFromSuperview() }
      container.insertSubview(toRoot, at: 0)
    } else if toRoot.isDescendant(of: container) {
      toRoot.removeFromSuperview()
    }
    container.addSubview(fromRoot)
  }

  /// The UIKit frame rules (see `TransitionContext.initialFrame(forKey:)` and `finalFrame(forKey:)`).
  private func recordFrames() {
    let container = scene.container
    let toShownAtStart = operation.kind == .dismissal && !removesPresentersView
    initialFrames[.from] = fromRoot.frame
    initialFrames[.to] = toShownAtStart ? toRoot.frame : .zero
    switch operation.kind {
    case .presentation:
      finalFrames[.from] = removesPresentersView ? .zero : fromRoot.frame
      var presented = container.bounds
      var proposed: Rect?
      callout { proposed = presentationController?.frameOfPresentedView(containerBounds: container.bounds) }
      if let proposed {
        if proposed.isFiniteValue {
          presented = proposed
        } else {
          report(.invalidValue(field: "frameOfPresentedView"), "not finite: \(proposed); using the container's bounds")
        }
      }
      finalFrames[.to] = presented
    case .dismissal:
      finalFrames[.from] = .zero
      finalFrames[.to] = toRoot.frame
    case .navigation:
      finalFrames[.from] = .zero
      finalFrames[.to] = container.bounds
    }
  }

  // MARK: Context support

  func root(forKey key: TransitionContext.Key) -> View {
    key == .from ? fromRoot : toRoot
  }

  func key(ofRoot view: View) -> TransitionContext.Key? {
    if view === fromRoot { return .from }
    if view === toRoot { return .to }
    return nil
  }

  func contextView(forKey key: TransitionContext.Key) -> View? {
    switch (operation.kind, key) {
    case (.presentation, .from), (.dismissal, .to): removesPresentersView ? root(forKey: key) : nil
    default: root(forKey: key)
    }
  }

  func initialFrame(forKey key: TransitionContext.Key) -> Rect {
    initialFrames[key] ?? .zero
  }

  func finalFrame(forKey key: TransitionContext.Key) -> Rect {
    finalFrames[key] ?? .zero
  }

  func animateAlongside(_ animations: @escaping () -> Void, completion: ((Bool) -> Void)?) -> Bool {
    if state.isEnded {
      report(.callAfterCompletion, "animateAlongside after the transition ended")
      return false
    }
    if isStarting || state == .idle {
      queuedAlongside.append((animations, completion))
      return true
    }
    runAlongside(animations, completion: completion, duration: max(duration - time, 0))
    return true
  }

  private func runAlongside(_ animations: @escaping () -> Void, completion: ((Bool) -> Void)?, duration: Double) {
    callout {
      scene.animate(
        duration: duration, delay: 0, timing: .curve(.easeInOut), animations: animations, completion: completion)
    }
  }

  /// Asks the animator once for its interruptible animator; one of another scene is reported and not used.
  private func askInterruptibleAnimator() -> PropertyAnimator? {
    var offered: PropertyAnimator?
    callout { offered = animator.interruptibleAnimator(context) }
    guard let offered else { return nil }
    guard offered.scene === scene else {
      report(.invalidValue(field: "interruptibleAnimator"), "the interruptible animator belongs to another transition")
      return nil
    }
    interruptibleAnimator = offered
    return offered
  }

  /// The interruptible animator while it drives the transition (active: not finished, stopped or discarded).
  var drivenAnimator: PropertyAnimator? {
    guard let driven = interruptibleAnimator, driven.state == .active, !driven.isDiscarded else { return nil }
    return driven
  }

  /// Tells the host about misbehaviour.
  func report(_ kind: Misbehavior.Kind, _ message: String) {
    guard let onMisbehavior else { return }
    let report = Misbehavior(kind: kind, animatorID: animator.animatorID, message: message)
    callout { onMisbehavior(report) }
  }

  /// Runs code that is not the transition's own (animator, presentation controller, scene callbacks, host
  /// handlers), then acts on an end requested meanwhile once no such call is in progress.
  func callout(_ body: () -> Void) {
    calloutDepth += 1
    body()
    calloutDepth -= 1
    processRequestedEnd()
  }
}
