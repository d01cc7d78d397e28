internal import CTransitionABI

// UIViewPropertyAnimator and its protocols, with UIKit's names and signatures, over the host's
// "th.property-animators/1" extension (ABI 1.2): the animator lives in the host's engine, which runs, pauses,
// scrubs, reverses and continues it on the transition's timeline.

/// UIViewAnimatingState.
public enum UIViewAnimatingState: Int, Sendable {
  case inactive = 0
  case active = 1
  case stopped = 2
}

/// UIViewAnimatingPosition.
public enum UIViewAnimatingPosition: Int, Sendable {
  case end = 0
  case start = 1
  case current = 2
}

/// UITimingCurveType.
public enum UITimingCurveType: Int, Sendable {
  case builtin = 0
  case cubic = 1
  case spring = 2
  case composed = 3
}

/// UIViewAnimating: an animation whose progress can be driven.
public protocol UIViewAnimating: AnyObject {
  var state: UIViewAnimatingState { get }
  var isRunning: Bool { get }
  var isReversed: Bool { get set }
  var fractionComplete: CGFloat { get set }
  func startAnimation()
  func startAnimation(afterDelay delay: TimeInterval)
  func pauseAnimation()
  func stopAnimation(_ withoutFinishing: Bool)
  func finishAnimation(at finalPosition: UIViewAnimatingPosition)
}

/// UIViewImplicitlyAnimating: a `UIViewAnimating` that takes animation blocks (UIKit's optional members have
/// defaults that do nothing).
public protocol UIViewImplicitlyAnimating: UIViewAnimating {
  func addAnimations(_ animation: @escaping () -> Void)
  func addAnimations(_ animation: @escaping () -> Void, delayFactor: CGFloat)
  func addCompletion(_ completion: @escaping (UIViewAnimatingPosition) -> Void)
  func continueAnimation(withTimingParameters parameters: (any UITimingCurveProvider)?, durationFactor: CGFloat)
}

extension UIViewImplicitlyAnimating {
  public func addAnimations(_ animation: @escaping () -> Void) {}
  public func addAnimations(_ animation: @escaping () -> Void, delayFactor: CGFloat) {}
  public func addCompletion(_ completion: @escaping (UIViewAnimatingPosition) -> Void) {}
  public func continueAnimation(withTimingParameters parameters: (any UITimingCurveProvider)?, durationFactor: CGFloat)
  {}
}

/// UITimingCurveProvider: cubic or spring timing parameters.
public protocol UITimingCurveProvider: AnyObject {
  var timingCurveType: UITimingCurveType { get }
  var cubicTimingParameters: UICubicTimingParameters? { get }
  var springTimingParameters: UISpringTimingParameters? { get }
}

/// UICubicTimingParameters: a cubic Bézier timing curve.
public final class UICubicTimingParameters: NSObject, UITimingCurveProvider, @unchecked Sendable {
  /// The named curve it was made with; `.easeInOut` for Bézier and default-curve parameters (as UIKit reports).
  public let animationCurve: UIView.AnimationCurve
  public let controlPoint1: CGPoint
  public let controlPoint2: CGPoint
  /// Core Animation's default curve: made by `init()`.
  private let isDefaultCurve: Bool

  /// Set by `init(animationCurve:)`: the ABI names the curve instead of spelling its points.
  private let namedCurve: UIView.AnimationCurve?

  private init(
    curve: UIView.AnimationCurve, _ p1: CGPoint, _ p2: CGPoint, isDefault: Bool, named: UIView.AnimationCurve? = nil
  ) {
    animationCurve = curve
    controlPoint1 = p1
    controlPoint2 = p2
    isDefaultCurve = isDefault
    namedCurve = named
    super.init()
  }

  /// "The default CA timing curve": (0.25, 0.1, 0.25, 1).
  public convenience override init() {
    self.init(curve: .easeInOut, CGPoint(x: 0.25, y: 0.1), CGPoint(x: 0.25, y: 1), isDefault: true)
  }

  /// One of UIKit's four curves.
  public convenience init(animationCurve curve: UIView.AnimationCurve) {
    let points: (CGPoint, CGPoint) =
      switch curve {
      case .easeInOut: (CGPoint(x: 0.42, y: 0), CGPoint(x: 0.58, y: 1))
      case .easeIn: (CGPoint(x: 0.42, y: 0), CGPoint(x: 1, y: 1))
      case .easeOut: (CGPoint(x: 0, y: 0), CGPoint(x: 0.58, y: 1))
      case .linear: (CGPoint(x: 0, y: 0), CGPoint(x: 1, y: 1))
      }
    self.init(curve: curve, points.0, points.1, isDefault: false, named: curve)
  }

  /// cubic-bezier(p1, p2) from (0, 0) to (1, 1); x of both points in [0, 1].
  public convenience init(controlPoint1 point1: CGPoint, controlPoint2 point2: CGPoint) {
    self.init(curve: .easeInOut, point1, point2, isDefault: false)
  }

  public var timingCurveType: UITimingCurveType { .cubic }
  public var cubicTimingParameters: UICubicTimingParameters? { self }
  public var springTimingParameters: UISpringTimingParameters? { nil }

  var th: th_timing {
    var t = th_timing()
    t.kind = TH_TIMING_CURVE
    if let namedCurve {
      t.curve = th_curve(rawValue: UInt32(namedCurve.rawValue))
    } else if isDefaultCurve {
      t.curve = TH_CURVE_DEFAULT
    } else {
      t.curve = TH_CURVE_BEZIER
      t.control_points = (controlPoint1.x, controlPoint1.y, controlPoint2.x, controlPoint2.y)
    }
    return t
  }
}

extension UISpringTimingParameters: UITimingCurveProvider {
  public var timingCurveType: UITimingCurveType { .spring }
  public var cubicTimingParameters: UICubicTimingParameters? { nil }
  public var springTimingParameters: UISpringTimingParameters? { self }

  /// The ABI timing and, for the duration/bounce form, its perceptual duration.
  var th: (th_timing, Double) {
    var t = th_timing()
    t.initial_velocity = initialVelocity.dx
    switch form {
    case .dampingRatio(let ratio):
      t.kind = TH_TIMING_SPRING
      t.damping_ratio = ratio
      return (t, 0)
    case .physical(let m, let k, let c):
      t.kind = TH_TIMING_SPRING_PHYSICAL
      (t.mass, t.stiffness, t.damping) = (m, k, c)
      return (t, 0)
    case .durationBounce(let d, let b):
      t.kind = TH_TIMING_SPRING_BOUNCE
      t.bounce = b
      return (t, d)
    }
  }
}

/// The ABI form of any timing curve provider (a custom provider that is neither cubic nor spring: UIKit's default
/// curve, with a log line).
func propertyAnimatorTiming(_ provider: any UITimingCurveProvider) -> th_property_animator_timing {
  var timing = th_property_animator_timing()
  timing.struct_size = UInt32(MemoryLayout<th_property_animator_timing>.size)
  if let spring = provider.springTimingParameters, provider.timingCurveType == .spring {
    (timing.timing, timing.perceptual_duration) = spring.th
  } else if let cubic = provider.cubicTimingParameters {
    timing.timing = cubic.th
  } else {
    PluginRuntime.log(
      TH_LOG_WARNING, "TransitionKit: a timing curve provider that is neither cubic nor spring; easeInOut")
    timing.timing = th_timing()
  }
  return timing
}

/// UIViewPropertyAnimator: animations whose progress you can start, pause, scrub, reverse and continue with new
/// timing. The host runs it (the engine's property animator, on the transition's timeline), so an interactive
/// transition can drive the one `interruptibleAnimator(using:)` returns.
///
/// Make it during a transition call (in `animateTransition`, `interruptibleAnimator(using:)`, a completion or a
/// gesture handler): outside one there is no host to run it, and it logs and does nothing. Calls UIKit would raise
/// on (finishing an animator that is not stopped, starting a stopped one) are refused by the host and logged.
open class UIViewPropertyAnimator: NSObject, UIViewImplicitlyAnimating {
  /// The timing given at creation.
  public let timingParameters: (any UITimingCurveProvider)?
  /// The delay of the last `startAnimation(afterDelay:)`.
  public private(set) var delay: TimeInterval = 0
  /// Accepted for source compatibility: the headless host has no touches to let through or hit-test.
  public var isUserInteractionEnabled = true
  public var isManualHitTestingEnabled = false

  weak var session: Session?
  /// The host's handle ({0} when made outside a transition call).
  private(set) var handle = th_property_animator(id: 0)
  private let givenDuration: TimeInterval

  /// The designated initialiser: an inactive animator of `duration` seconds (ignored by mass/stiffness and
  /// duration/bounce springs, which last their settling duration).
  public required init(duration: TimeInterval, timingParameters parameters: any UITimingCurveProvider) {
    timingParameters = parameters
    givenDuration = duration
    super.init()
    guard let session = Session.current, let table = PropertyAnimatorTable(session) else {
      PluginRuntime.log(
        TH_LOG_WARNING,
        "TransitionKit: UIViewPropertyAnimator made outside a transition call (or on a host without "
          + "th.property-animators/1) does nothing")
      return
    }
    self.session = session
    var timing = propertyAnimatorTiming(parameters)
    var out = th_property_animator(id: 0)
    if table.call("UIViewPropertyAnimator(duration: \(duration))", { $0.create?($1, duration, &timing, &out) }) {
      handle = out
    }
  }

  /// An inactive animator with one of UIKit's curves.
  public convenience init(duration: TimeInterval, curve: UIView.AnimationCurve, animations: (() -> Void)? = nil) {
    self.init(duration: duration, timingParameters: UICubicTimingParameters(animationCurve: curve))
    if let animations { addAnimations(animations) }
  }

  /// An inactive animator with a cubic Bézier curve.
  public convenience init(
    duration: TimeInterval, controlPoint1 point1: CGPoint, controlPoint2 point2: CGPoint,
    animations: (() -> Void)? = nil
  ) {
    self.init(
      duration: duration, timingParameters: UICubicTimingParameters(controlPoint1: point1, controlPoint2: point2))
    if let animations { addAnimations(animations) }
  }

  /// An inactive animator with a UIKit spring of damping ratio `ratio` lasting `duration`.
  public convenience init(duration: TimeInterval, dampingRatio ratio: CGFloat, animations: (() -> Void)? = nil) {
    self.init(duration: duration, timingParameters: UISpringTimingParameters(dampingRatio: ratio))
    if let animations { addAnimations(animations) }
  }

  /// An animator that runs at once (after `delay`) with the curve of `options`, as UIKit's.
  @discardableResult
  open class func runningPropertyAnimator(
    withDuration duration: TimeInterval, delay: TimeInterval, options: UIView.AnimationOptions = [],
    animations: @escaping () -> Void, completion: ((UIViewAnimatingPosition) -> Void)? = nil
  ) -> Self {
    let animator = Self(duration: duration, timingParameters: UICubicTimingParameters(animationCurve: options.curve))
    animator.addAnimations(animations)
    if let completion { animator.addCompletion(completion) }
    animator.startAnimation(afterDelay: delay)
    return animator
  }

  // MARK: Properties

  /// The duration (a mass/stiffness or duration/bounce spring's settling duration).
  public var duration: TimeInterval {
    var value = givenDuration
    _ = table?.call("UIViewPropertyAnimator.duration", { $0.get_duration?($1, handle, &value) })
    return value
  }

  public var state: UIViewAnimatingState {
    var value = TH_ANIMATING_INACTIVE
    _ = table?.call("UIViewPropertyAnimator.state", { $0.get_state?($1, handle, &value) })
    return UIViewAnimatingState(rawValue: Int(value.rawValue)) ?? .inactive
  }

  public var isRunning: Bool { flag(TH_ANIMATOR_IS_RUNNING, "isRunning") }

  public var isReversed: Bool {
    get { flag(TH_ANIMATOR_IS_REVERSED, "isReversed") }
    set { setFlag(TH_ANIMATOR_IS_REVERSED, newValue, "isReversed") }
  }

  /// While paused, whether scrubbing maps `fractionComplete` linearly (the default) or through the timing curve.
  public var scrubsLinearly: Bool {
    get { flag(TH_ANIMATOR_SCRUBS_LINEARLY, "scrubsLinearly") }
    set { setFlag(TH_ANIMATOR_SCRUBS_LINEARLY, newValue, "scrubsLinearly") }
  }

  /// Whether it stays active and paused at the end of a run instead of completing (default false).
  public var pausesOnCompletion: Bool {
    get { flag(TH_ANIMATOR_PAUSES_ON_COMPLETION, "pausesOnCompletion") }
    set { setFlag(TH_ANIMATOR_PAUSES_ON_COMPLETION, newValue, "pausesOnCompletion") }
  }

  /// Default true; settable only while inactive (the host refuses it otherwise, as UIKit raises).
  public var isInterruptible: Bool {
    get { handle.id == 0 ? true : flag(TH_ANIMATOR_IS_INTERRUPTIBLE, "isInterruptible") }
    set { setFlag(TH_ANIMATOR_IS_INTERRUPTIBLE, newValue, "isInterruptible") }
  }

  /// 0 at the start, 1 at the end; settable while paused (an inactive animator becomes active and paused).
  public var fractionComplete: CGFloat {
    get {
      var value = 0.0
      _ = table?.call("UIViewPropertyAnimator.fractionComplete", { $0.get_fraction_complete?($1, handle, &value) })
      return value
    }
    set {
      _ = table?.call(
        "UIViewPropertyAnimator.fractionComplete = \(newValue)", { $0.set_fraction_complete?($1, handle, newValue) })
    }
  }

  // MARK: Animations and completions

  public func addAnimations(_ animation: @escaping () -> Void) {
    addAnimations(animation, delayFactor: 0)
  }

  /// A group that starts at delayFactor × the duration (on a started animator, of the remaining duration).
  public func addAnimations(_ animation: @escaping () -> Void, delayFactor: CGFloat) {
    guard let session, let table else { return }
    let block = AnimationBlock(session, BlockOrigin("UIViewPropertyAnimator.addAnimations"), animation, nil)
    let ok = table.call("UIViewPropertyAnimator.addAnimations(delayFactor: \(delayFactor))") {
      $0.add_animations?($1, handle, delayFactor, animationsThunk, block.key)
    }
    if !ok { block.refuse() }
  }

  public func addCompletion(_ completion: @escaping (UIViewAnimatingPosition) -> Void) {
    guard let session, let table else { return }
    let block = AnimatorCompletionBlock(session, completion)
    let ok = table.call("UIViewPropertyAnimator.addCompletion") {
      $0.add_completion?($1, handle, animatorCompletionThunk, block.key)
    }
    if !ok { block.refuse() }
  }

  // MARK: Driving

  public func startAnimation() { startAnimation(afterDelay: 0) }

  public func startAnimation(afterDelay delay: TimeInterval) {
    self.delay = delay
    _ = table?.call("UIViewPropertyAnimator.startAnimation(afterDelay: \(delay))", { $0.start?($1, handle, delay) })
  }

  public func pauseAnimation() {
    _ = table?.call("UIViewPropertyAnimator.pauseAnimation()", { $0.pause?($1, handle) })
  }

  public func stopAnimation(_ withoutFinishing: Bool) {
    _ = table?.call(
      "UIViewPropertyAnimator.stopAnimation(\(withoutFinishing))", { $0.stop?($1, handle, withoutFinishing) })
  }

  public func finishAnimation(at finalPosition: UIViewAnimatingPosition) {
    let position = th_animating_position(rawValue: UInt32(finalPosition.rawValue))
    _ = table?.call(
      "UIViewPropertyAnimator.finishAnimation(at: .\(finalPosition))", { $0.finish?($1, handle, position) })
  }

  /// Continues from where the values are toward the end (the start when reversed) with `parameters` (nil keeps the
  /// timing) over durationFactor × the remaining duration.
  public func continueAnimation(withTimingParameters parameters: (any UITimingCurveProvider)?, durationFactor: CGFloat)
  {
    guard let table else { return }
    if var timing = parameters.map(propertyAnimatorTiming) {
      _ = table.call("UIViewPropertyAnimator.continueAnimation(durationFactor: \(durationFactor))") {
        $0.continue_animation?($1, handle, &timing, durationFactor)
      }
    } else {
      _ = table.call("UIViewPropertyAnimator.continueAnimation(durationFactor: \(durationFactor))") {
        $0.continue_animation?($1, handle, nil, durationFactor)
      }
    }
  }

  // MARK: Support

  private var table: PropertyAnimatorTable? {
    guard handle.id != 0, let session else { return nil }
    return PropertyAnimatorTable(session)
  }

  private func flag(_ flag: th_animator_flag, _ name: String) -> Bool {
    var value = false
    _ = table?.call("UIViewPropertyAnimator.\(name)", { $0.get_flag?($1, handle, flag, &value) })
    return value
  }

  private func setFlag(_ flag: th_animator_flag, _ value: Bool, _ name: String) {
    _ = table?.call("UIViewPropertyAnimator.\(name) = \(value)", { $0.set_flag?($1, handle, flag, value) })
  }
}

/// The host's "th.property-animators/1" table, for one session's calls.
struct PropertyAnimatorTable {
  let session: Session
  let table: UnsafePointer<th_host_property_animators>

  init?(_ session: Session) {
    guard let getExtension = session.host.function(\.get_extension), let raw = getExtension(TH_EXT_PROPERTY_ANIMATORS)
    else { return nil }
    let table = raw.assumingMemoryBound(to: th_host_property_animators.self)
    guard Int(table.pointee.struct_size) >= MemoryLayout<th_host_property_animators>.size else { return nil }
    self.session = session
    self.table = UnsafePointer(table)
  }

  /// Calls one function of the table with the session's context, logging a refusal (see `Host.call`).
  func call(_ what: @autoclosure () -> String, _ body: (th_host_property_animators, th_context) -> th_status?) -> Bool {
    let ctx = session.hasContext ? session.ctx : session.pluginContext
    guard let status = body(table.pointee, ctx) else { return false }
    if status == TH_OK { return true }
    session.log(
      TH_LOG_WARNING,
      "TransitionKit: \(what()) failed: \(String(cString: th_status_name(status)))\(session.blockContext)")
    return false
  }
}

/// A property animator's completion closure.
final class AnimatorCompletionBlock: AnimationBlock {
  let positionCompletion: (UIViewAnimatingPosition) -> Void

  init(_ session: Session, _ completion: @escaping (UIViewAnimatingPosition) -> Void) {
    positionCompletion = completion
    super.init(session, BlockOrigin("UIViewPropertyAnimator.addCompletion"), {}, nil)
  }
}

/// A property animator's completion: runs the closure once when the animator ended (`finished`), and forgets it.
let animatorCompletionThunk:
  @convention(c) (th_context, th_animating_position, Bool, UnsafeMutableRawPointer?) -> Void = {
    ctx, position, finished, key in
    guard let block = BlockRegistry.remove(key) as? AnimatorCompletionBlock, !block.isRefused, finished,
      let session = block.session
    else { return }
    let at = UIViewAnimatingPosition(rawValue: Int(position.rawValue)) ?? .current
    session.enter(ctx) { session.running(block, "completion") { block.positionCompletion(at) } }
  }

/// What `interruptibleAnimator(using:)` returns when an animator does not implement it (UIKit's optional method):
/// the SDK tells the host there is none.
final class NoInterruptibleAnimator: UIViewImplicitlyAnimating, Sendable {
  static let shared = NoInterruptibleAnimator()
  var state: UIViewAnimatingState { .inactive }
  var isRunning: Bool { false }
  var isReversed: Bool {
    get { false }
    set {}
  }
  var fractionComplete: CGFloat {
    get { 0 }
    set {}
  }
  func startAnimation() {}
  func startAnimation(afterDelay delay: TimeInterval) {}
  func pauseAnimation() {}
  func stopAnimation(_ withoutFinishing: Bool) {}
  func finishAnimation(at finalPosition: UIViewAnimatingPosition) {}
}
