// Interaction controllers, with UIKit's names: the delegates vend a `UIViewControllerInteractiveTransitioning`
// (usually a `UIPercentDrivenInteractiveTransition` subclass that owns a pan recognizer), the host asks for it once
// per transition ("th.interaction-controller/1"), hands it the client's gesture samples, and its update / finish /
// cancel / pause drive the transition through the host's "th.percent-driven/1" (ABI 1.2).

internal import CTransitionABI

/// UIViewControllerInteractiveTransitioning: what drives an interactive transition.
public protocol UIViewControllerInteractiveTransitioning: AnyObject {
  /// Starts the transition interactively; `UIPercentDrivenInteractiveTransition`'s runs the animator's
  /// `animateTransition(using:)`, which the host then holds at the start until it is updated.
  func startInteractiveTransition(_ transitionContext: any UIViewControllerContextTransitioning)
  /// The speed of the finish or cancel that follows the interaction (default 1).
  var completionSpeed: CGFloat { get }
  /// The curve of the finish or cancel that follows the interaction (default easeInOut).
  var completionCurve: UIView.AnimationCurve { get }
  /// Whether the transition starts held at 0 (default true); false starts it running (a gesture may pause it).
  var wantsInteractiveStart: Bool { get }
}

extension UIViewControllerInteractiveTransitioning {
  public var completionSpeed: CGFloat { 1 }
  public var completionCurve: UIView.AnimationCurve { .easeInOut }
  public var wantsInteractiveStart: Bool { true }
}

/// UIPercentDrivenInteractiveTransition: drives the transition by percent (`update`), then completes it (`finish`)
/// or returns it to its start (`cancel`), with `completionSpeed` and `completionCurve`. Subclass it (overrides call
/// super first, as in UIKit) and give it the gesture recognizers its handlers come from.
///
/// The calls act on the transition the host started it for (`startInteractiveTransition(_:)`); made before that or
/// after the transition ended they change nothing and are logged. `timingCurve` is the curve an interruptible
/// animator continues on (UIKit: "ignored if the animator does not vend an interruptible animator").
open class UIPercentDrivenInteractiveTransition: NSObject, UIViewControllerInteractiveTransitioning {
  /// The transition it drives, from `startInteractiveTransition(_:)` on (or from the moment the host took the
  /// animator's interruptible animator, which starts an interactive transition instead).
  weak var session: Session?

  /// The speed of the finish or cancel: its length is (1 − percentComplete) × duration / completionSpeed (finish) or
  /// percentComplete × duration / completionSpeed (cancel). Must be > 0.
  open var completionSpeed: CGFloat = 1
  /// The curve of the finish or cancel (during the interaction itself, time follows the percent linearly).
  open var completionCurve: UIView.AnimationCurve = .easeInOut
  /// The timing an interruptible animator continues with on finish and cancel, instead of `completionCurve`; nil
  /// (the default) keeps `completionCurve`. Cubic or spring parameters: finish and cancel continue the animator
  /// with them (`continueAnimation(withTimingParameters:durationFactor: 1 / completionSpeed)`, as UIKit does), so
  /// a damping-ratio spring lasts the remaining (1 − p)·duration / completionSpeed (p·duration cancelling) and a
  /// mass/stiffness or duration/bounce spring its settling duration. Ignored, as in UIKit, when the animator vends
  /// no interruptible animator.
  open var timingCurve: (any UITimingCurveProvider)?
  open var wantsInteractiveStart = true

  public override init() {
    super.init()
  }

  /// The animator's `transitionDuration` captured when the transition started (0 before).
  open var duration: CGFloat { status()?.duration ?? 0 }

  /// The last percent given to `update` (where the transition is), in [0, 1].
  open var percentComplete: CGFloat { status()?.percent ?? 0 }

  open func startInteractiveTransition(_ transitionContext: any UIViewControllerContextTransitioning) {
    guard let context = transitionContext as? TransitionContext, let session = context.session else {
      PluginRuntime.log(
        TH_LOG_WARNING, "TransitionKit: startInteractiveTransition with a context the host did not give")
      return
    }
    self.session = session
    if let animator = session.resolveAnimator() {
      animator.animateTransition(using: transitionContext)
    } else {
      session.completeWithoutAnimation()
    }
  }

  /// Holds the transition at `percentComplete` (clamped to [0, 1]).
  open func update(_ percentComplete: CGFloat) {
    call("update(\(percentComplete))", \.update) { $0($1, percentComplete) }
  }

  /// Holds the transition where it is (grabbing it while it finishes or cancels).
  open func pause() {
    call("pause()", \.pause) { $0($1) }
  }

  /// Completes the transition from where it is, with `completionSpeed` and `completionCurve`. Nothing when it is
  /// already finishing.
  open func finish() {
    guard status()?.state != TH_INTERACTION_FINISHING else { return }
    var options = completion()
    call("finish()", \.finish) { $0($1, &options) }
    continueOnSpring()
  }

  /// Returns the transition to its start, with `completionSpeed` and `completionCurve`. Nothing when it is already
  /// cancelling.
  open func cancel() {
    guard status()?.state != TH_INTERACTION_CANCELLING else { return }
    var options = completion()
    call("cancel()", \.cancel) { $0($1, &options) }
    continueOnSpring()
  }

  /// A spring `timingCurve`: the host has turned the interruptible animator toward the end (or the start) on
  /// `completionCurve`; it continues from the same point on the spring instead, over the same remaining time.
  private func continueOnSpring() {
    guard let spring = timingCurve?.springTimingParameters, timingCurve?.timingCurveType == .spring,
      let session = session ?? Session.current, session.drivesInterruptibleAnimator,
      let animator = session.drivenAnimator
    else { return }
    animator.continueAnimation(withTimingParameters: spring, durationFactor: 1 / completionSpeed)
  }

  private func completion() -> th_interaction_completion {
    var options = th_interaction_completion()
    options.struct_size = UInt32(MemoryLayout<th_interaction_completion>.size)
    options.flags = TH_COMPLETION_SPEED | TH_COMPLETION_TIMING
    options.completion_speed = completionSpeed
    options.timing.kind = TH_TIMING_CURVE
    options.timing.curve = th_curve(rawValue: UInt32(completionCurve.rawValue))
    if let timingCurve, (session ?? Session.current)?.drivesInterruptibleAnimator == true,
      timingCurve.timingCurveType != .spring, let cubic = timingCurve.cubicTimingParameters
    {
      options.timing = cubic.th
    }
    return options
  }

  private func status() -> th_interaction_status? {
    var out = th_interaction_status()
    out.struct_size = UInt32(MemoryLayout<th_interaction_status>.size)
    var ok = false
    call("percentComplete", \.status, quiet: true) { fn, ctx in
      let status = fn(ctx, &out)
      ok = status == TH_OK
      return status
    }
    return ok ? out : nil
  }

  /// Calls a function of "th.percent-driven/1" with the transition's context, logging a refusal.
  private func call<F>(
    _ what: String, _ member: KeyPath<th_host_percent_driven, F?>, quiet: Bool = false,
    _ body: (F, th_context) -> th_status
  ) {
    guard let session = session ?? Session.current, session.hasContext else {
      if !quiet {
        PluginRuntime.log(
          TH_LOG_WARNING,
          "TransitionKit: UIPercentDrivenInteractiveTransition.\(what) outside its transition; nothing changes")
      }
      return
    }
    guard let table = session.percentDriven, let fn = table.function(member) else {
      if !quiet {
        session.log(TH_LOG_WARNING, "TransitionKit: \(what): this host does not offer th.percent-driven/1")
      }
      return
    }
    let status = body(fn, session.ctx)
    if status != TH_OK, !quiet {
      session.log(TH_LOG_WARNING, "TransitionKit: \(what) failed: \(String(cString: th_status_name(status)))")
    }
  }
}

/// The host's "th.percent-driven/1" table, with TH_HOST_API_HAS's rule for each member.
struct PercentDrivenTable {
  let table: UnsafePointer<th_host_percent_driven>

  func function<F>(_ member: KeyPath<th_host_percent_driven, F?>) -> F? {
    guard let offset = MemoryLayout<th_host_percent_driven>.offset(of: member),
      Int(table.pointee.struct_size) >= offset + MemoryLayout<F?>.size
    else { return nil }
    return table.pointee[keyPath: member]
  }
}

extension Session {
  /// The host's "th.percent-driven/1", or nil when it has none.
  var percentDriven: PercentDrivenTable? {
    guard let getExtension = host.function(\.get_extension), let raw = getExtension(TH_EXT_PERCENT_DRIVEN) else {
      return nil
    }
    return PercentDrivenTable(table: raw.assumingMemoryBound(to: th_host_percent_driven.self))
  }

  /// The interaction controller of this transition, asked of the delegate once, as UIKit asks it: the
  /// transitioning delegate's `interactionControllerForPresentation(using:)` / `…ForDismissal(using:)` with the
  /// animator it vended, or the navigation delegate's `navigationController(_:interactionControllerFor:)`. A bare
  /// animator export has none.
  func resolveInteractionController() -> (any UIViewControllerInteractiveTransitioning)? {
    if interaction.asked { return interaction.controller }
    interaction.asked = true
    guard let animator = resolveAnimator() else { return nil }
    let controller: (any UIViewControllerInteractiveTransitioning)?
    switch source {
    case .animator: controller = nil
    case .transitioningDelegate(let delegate):
      controller =
        isBackward
        ? delegate.interactionControllerForDismissal(using: animator)
        : delegate.interactionControllerForPresentation(using: animator)
    case .navigationDelegate(let delegate):
      navigationController.delegate = delegate
      controller = delegate.navigationController(navigationController, interactionControllerFor: animator)
    }
    interaction.controller = controller
    return controller
  }

  /// Hands a gesture sample to the recognizers: a began sample to the one it hits (see `UIGestureRecognizer`), a
  /// later one to the recognizers tracking the gesture.
  func deliverGesture(_ sample: th_gesture_sample, hitView: th_view) -> (th_gesture_delivery, UInt32) {
    let location = CGPoint(sample.location)
    let values = (location, CGPoint(sample.translation), CGPoint(sample.velocity))
    switch sample.state {
    case TH_GESTURE_BEGAN:
      // A began while a gesture is in progress: UIKit would never send it; the old gesture is cancelled first.
      for recognizer in trackingRecognizers { recognizer.deliver(.cancelled) }
      trackingRecognizers = []
      let all = viewProxies.flatMap(\.attachedRecognizers)
      guard !all.isEmpty else { return (TH_GESTURE_NO_RECOGNIZERS, 0) }
      // The host hit-tested what is on screen; the recognizers of the hit view and its superviews compete.
      var candidate = view(hitView)
      while let view = candidate {
        if let recognizer = view.attachedRecognizers.first(where: { $0.isEnabled && $0.shouldBegin(at: location) }) {
          trackingRecognizers = [recognizer]
          recognizer.sample = values
          recognizer.deliver(.began)
          return (TH_GESTURE_RECEIVED, 1)
        }
        candidate = view.superview
      }
      return (TH_GESTURE_NOT_HIT, 0)
    case TH_GESTURE_CHANGED, TH_GESTURE_ENDED, TH_GESTURE_CANCELLED:
      let tracking = trackingRecognizers.filter { $0.sample != nil }
      guard !tracking.isEmpty else { return (TH_GESTURE_NOT_IN_PROGRESS, 0) }
      let state: UIGestureRecognizer.State =
        switch sample.state {
        case TH_GESTURE_CHANGED: .changed
        case TH_GESTURE_ENDED: .ended
        default: .cancelled
        }
      if state != .changed { trackingRecognizers = [] }
      for recognizer in tracking {
        recognizer.sample = values
        recognizer.deliver(state)
      }
      return (TH_GESTURE_RECEIVED, UInt32(tracking.count))
    default:
      log(TH_LOG_WARNING, "TransitionKit: a gesture sample with unknown state \(sample.state.rawValue) was ignored")
      return (TH_GESTURE_NOT_IN_PROGRESS, 0)
    }
  }
}

/// The "th.interaction-controller/1" table the SDK offers for delegate exports.
enum InteractionControllerTable {
  /// Allocated once and never freed (it serves every instance).
  nonisolated(unsafe) static let pointer: UnsafeMutablePointer<th_interaction_controller> = {
    let table = UnsafeMutablePointer<th_interaction_controller>.allocate(capacity: 1)
    table.initialize(to: th_interaction_controller())
    table.pointee.struct_size = UInt32(MemoryLayout<th_interaction_controller>.size)
    table.pointee.interaction_controller = { instance, ctx in
      guard let session = Session.from(instance) else { return 0 }
      return session.enter(ctx) {
        guard let controller = session.resolveInteractionController() else { return 0 }
        return TH_INTERACTION_CONTROLLER
          | (controller.wantsInteractiveStart ? TH_INTERACTION_WANTS_INTERACTIVE_START : 0)
      }
    }
    table.pointee.handle_gesture = { instance, ctx, sample, hitView, outReceived in
      guard let session = Session.from(instance), let sample else { return TH_GESTURE_NOT_IN_PROGRESS }
      let (delivery, received) = session.enter(ctx) { session.deliverGesture(sample.pointee, hitView: hitView) }
      outReceived?.pointee = received
      return delivery
    }
    return table
  }()
}
