internal import CTransitionABI

extension UIView {
  /// UIView.AnimationOptions, with UIKit's bit layout (reference: `UIView.h`).
  ///
  /// The curve lives in bits 16–17 and `curveEaseInOut` is 0, so `options.contains(.curveEaseInOut)` is always true;
  /// the SDK decodes the curve as `(rawValue >> 16) & 3`. `repeat`, `autoreverse` and the `transition…` bits have no
  /// equivalent in a transition's timeline: they are logged and ignored. The others are accepted and change nothing
  /// (animations always begin from what is on screen, as with `beginFromCurrentState`).
  public struct AnimationOptions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let layoutSubviews = AnimationOptions(rawValue: 1 << 0)
    public static let allowUserInteraction = AnimationOptions(rawValue: 1 << 1)
    public static let beginFromCurrentState = AnimationOptions(rawValue: 1 << 2)
    public static let `repeat` = AnimationOptions(rawValue: 1 << 3)
    public static let autoreverse = AnimationOptions(rawValue: 1 << 4)
    public static let overrideInheritedDuration = AnimationOptions(rawValue: 1 << 5)
    public static let overrideInheritedCurve = AnimationOptions(rawValue: 1 << 6)
    public static let allowAnimatedContent = AnimationOptions(rawValue: 1 << 7)
    public static let showHideTransitionViews = AnimationOptions(rawValue: 1 << 8)
    public static let overrideInheritedOptions = AnimationOptions(rawValue: 1 << 9)

    public static let curveEaseInOut = AnimationOptions(rawValue: 0 << 16)
    public static let curveEaseIn = AnimationOptions(rawValue: 1 << 16)
    public static let curveEaseOut = AnimationOptions(rawValue: 2 << 16)
    public static let curveLinear = AnimationOptions(rawValue: 3 << 16)

    public static let transitionFlipFromLeft = AnimationOptions(rawValue: 1 << 20)
    public static let transitionFlipFromRight = AnimationOptions(rawValue: 2 << 20)
    public static let transitionCurlUp = AnimationOptions(rawValue: 3 << 20)
    public static let transitionCurlDown = AnimationOptions(rawValue: 4 << 20)
    public static let transitionCrossDissolve = AnimationOptions(rawValue: 5 << 20)
    public static let transitionFlipFromTop = AnimationOptions(rawValue: 6 << 20)
    public static let transitionFlipFromBottom = AnimationOptions(rawValue: 7 << 20)

    public static let preferredFramesPerSecondDefault = AnimationOptions(rawValue: 0 << 24)
    public static let preferredFramesPerSecond60 = AnimationOptions(rawValue: 3 << 24)
    public static let preferredFramesPerSecond30 = AnimationOptions(rawValue: 7 << 24)

    /// The curve in bits 16–17 (never `contains`: `curveEaseInOut` is 0).
    public var curve: AnimationCurve { AnimationCurve(rawValue: Int((rawValue >> 16) & 3))! }
  }

  /// UIView.KeyframeAnimationOptions: the low bits of `AnimationOptions` plus the calculation mode in bits 10–12.
  /// A curve cast in from `AnimationOptions` (bits 16–17) shapes the whole keyframe timeline; the default is
  /// easeInOut, as UIKit's, so pass `.curveLinear` for exact key times.
  public struct KeyframeAnimationOptions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let layoutSubviews = KeyframeAnimationOptions(rawValue: 1 << 0)
    public static let allowUserInteraction = KeyframeAnimationOptions(rawValue: 1 << 1)
    public static let beginFromCurrentState = KeyframeAnimationOptions(rawValue: 1 << 2)
    public static let `repeat` = KeyframeAnimationOptions(rawValue: 1 << 3)
    public static let autoreverse = KeyframeAnimationOptions(rawValue: 1 << 4)
    public static let overrideInheritedDuration = KeyframeAnimationOptions(rawValue: 1 << 5)
    public static let overrideInheritedOptions = KeyframeAnimationOptions(rawValue: 1 << 9)

    public static let calculationModeLinear = KeyframeAnimationOptions(rawValue: 0 << 10)
    public static let calculationModeDiscrete = KeyframeAnimationOptions(rawValue: 1 << 10)
    public static let calculationModePaced = KeyframeAnimationOptions(rawValue: 2 << 10)
    public static let calculationModeCubic = KeyframeAnimationOptions(rawValue: 3 << 10)
    public static let calculationModeCubicPaced = KeyframeAnimationOptions(rawValue: 4 << 10)

    /// The curves of `AnimationOptions`, for the whole keyframe timeline (UIKit code casts them in).
    public static let curveEaseInOut = KeyframeAnimationOptions(rawValue: 0 << 16)
    public static let curveEaseIn = KeyframeAnimationOptions(rawValue: 1 << 16)
    public static let curveEaseOut = KeyframeAnimationOptions(rawValue: 2 << 16)
    public static let curveLinear = KeyframeAnimationOptions(rawValue: 3 << 16)

    /// The calculation mode in bits 10–12 (0…4; other values are unsupported and read as linear).
    var calculationMode: th_calculation_mode {
      let mode = UInt32((rawValue >> 10) & 7)
      return mode <= 4 ? th_calculation_mode(rawValue: mode) : TH_CALCULATION_LINEAR
    }
  }

  /// UIView.AnimationCurve.
  public enum AnimationCurve: Int, Sendable, CaseIterable {
    case easeInOut = 0
    case easeIn = 1
    case easeOut = 2
    case linear = 3
  }

  // MARK: Blocks

  /// Animates the property changes made in `animations` over `duration` seconds after `delay`, with the curve in
  /// `options` (default easeInOut), then calls `completion` with whether the animations ran to their end.
  ///
  /// As in UIKit, `animations` runs at once and `completion` later, when transition time passes the block's end
  /// (when the transition is cancelled, after the animations ran back to their start). Call it from
  /// `animateTransition`, a completion or another animations block.
  ///
  /// `file` and `line` (the caller's by default, as in every call of this family and the keyframe calls) name the
  /// block in the SDK's reports of calls the host refuses while its closures run.
  public class func animate(
    withDuration duration: TimeInterval, delay: TimeInterval, options: AnimationOptions = [],
    animations: @escaping () -> Void, completion: ((Bool) -> Void)? = nil, file: StaticString = #fileID,
    line: UInt = #line
  ) {
    let origin = BlockOrigin("UIView.animate", file: file, line: line)
    warnAboutUnsupported(options.rawValue, origin)
    var timing = th_timing()
    timing.kind = TH_TIMING_CURVE
    timing.curve = th_curve(rawValue: UInt32(options.curve.rawValue))
    run(duration: duration, delay: delay, timing: timing, origin, animations, completion)
  }

  /// `animate(withDuration:delay:options:animations:completion:)` with no delay and the default curve.
  public class func animate(
    withDuration duration: TimeInterval, animations: @escaping () -> Void, completion: ((Bool) -> Void)? = nil,
    file: StaticString = #fileID, line: UInt = #line
  ) {
    animate(
      withDuration: duration, delay: 0, options: [], animations: animations, completion: completion, file: file,
      line: line)
  }

  /// A UIKit spring: `dampingRatio` (1 = no overshoot) and `velocity` in UIKit's unit (1 = the whole distance per
  /// second). It lasts exactly `duration`, and `completion` runs then: the values follow the spring's closed form
  /// until `duration` and are exactly the new ones from it (its envelope is 0.001 of the distance there, so the last
  /// step is at most that much; Framer's reconstruction of UIKit's mapping, docs/writing-plugins.md).
  public class func animate(
    withDuration duration: TimeInterval, delay: TimeInterval, usingSpringWithDamping dampingRatio: CGFloat,
    initialSpringVelocity velocity: CGFloat, options: AnimationOptions = [], animations: @escaping () -> Void,
    completion: ((Bool) -> Void)? = nil, file: StaticString = #fileID, line: UInt = #line
  ) {
    let origin = BlockOrigin("UIView.animate(usingSpringWithDamping:)", file: file, line: line)
    warnAboutUnsupported(options.rawValue, origin)
    run(
      duration: duration, delay: delay, timing: AnimationTiming.spring(dampingRatio: dampingRatio, velocity).th,
      origin, animations, completion)
  }

  /// iOS 17's spring: `bounce` in (-1, 1) (0 = critically damped, negative = over-damped; 1, undamped, would never
  /// settle), with `springDuration` its *perceptual* duration (the stiffness is (2π / springDuration)²). As in
  /// UIKit, the animation lasts the spring's settling duration (until it stays within 0.001 of the distance) and
  /// `completion` runs then, which may be well after `springDuration` (a bounce of −0.5 settles about 4 durations
  /// later). `velocity` is in UIKit's unit (1 = the whole distance per second). The host refuses other bounces.
  public class func animate(
    springDuration duration: TimeInterval = 0.5, bounce: CGFloat = 0, initialSpringVelocity velocity: CGFloat = 0,
    delay: TimeInterval = 0, options: AnimationOptions = [], animations: @escaping () -> Void,
    completion: ((Bool) -> Void)? = nil, file: StaticString = #fileID, line: UInt = #line
  ) {
    let origin = BlockOrigin("UIView.animate(springDuration:)", file: file, line: line)
    warnAboutUnsupported(options.rawValue, origin)
    run(
      duration: duration, delay: delay,
      timing: AnimationTiming.springBounce(bounce: bounce, initialVelocity: velocity).th, origin, animations,
      completion)
  }

  /// Any timing the host offers (named or Bézier curves, steps, springs): TransitionKit's general form of
  /// `animate(withDuration:…)`. How long a spring lasts (its completion runs then):
  /// - `.spring(dampingRatio:_:)`: exactly `duration`;
  /// - `.springPhysical`, `AnimationTiming(mass:stiffness:damping:initialVelocity:allowsOverdamping:)`,
  ///   `AnimationTiming(perceptualDuration:bounce:)` and mass/stiffness or duration/bounce
  ///   `UISpringTimingParameters`: pass `duration` nil for the spring's settling duration (UIKit ignores an
  ///   animator's duration for them); a duration cuts the spring there, as `CASpringAnimation.duration` does;
  /// - `.springBounce`: `duration` is the perceptual duration and the block lasts the settling duration.
  /// Until then the values follow the spring's closed form, and from then on they are exactly the new ones.
  public class func animate(
    withDuration duration: TimeInterval?, delay: TimeInterval = 0, timing: AnimationTiming,
    animations: @escaping () -> Void, completion: ((Bool) -> Void)? = nil, file: StaticString = #fileID,
    line: UInt = #line
  ) {
    run(
      duration: duration ?? TH_DURATION_AUTOMATIC, delay: delay, timing: timing.th,
      BlockOrigin("UIView.animate(timing:)", file: file, line: line), animations, completion)
  }

  /// Applies the changes in `actions` at once, even inside an animations block.
  public class func performWithoutAnimation(_ actions: () -> Void) {
    guard let session = Session.current, session.animationDepth > 0 else {
      actions()
      return
    }
    // Inside an animations block a zero-length block applies its writes at once (the header's rule).
    withoutActuallyEscaping(actions) { escapable in
      let block = run(
        duration: 0, delay: 0, timing: th_timing(), BlockOrigin("UIView.performWithoutAnimation"), escapable, nil)
      // The host ran the actions during the call; the block waits for its completion without them.
      block?.dropAnimations()
    }
  }

  // MARK: Keyframes

  /// Animates the keyframes added in `animations` (with `addKeyframe`) over `duration` seconds after `delay`.
  /// The whole timeline follows the curve cast into `options` (default easeInOut, as UIKit's; use `.curveLinear` for
  /// exact key times) and the calculation mode in them.
  public class func animateKeyframes(
    withDuration duration: TimeInterval, delay: TimeInterval, options: KeyframeAnimationOptions = [],
    animations: @escaping () -> Void, completion: ((Bool) -> Void)? = nil, file: StaticString = #fileID,
    line: UInt = #line
  ) {
    let origin = BlockOrigin("UIView.animateKeyframes", file: file, line: line)
    warnAboutUnsupported(options.rawValue & ~(7 << 10), origin)
    guard let session = current(origin) else { return }
    var keyframeOptions = th_keyframe_options()
    keyframeOptions.struct_size = UInt32(MemoryLayout<th_keyframe_options>.size)
    keyframeOptions.calculation_mode = options.calculationMode
    keyframeOptions.duration = duration
    keyframeOptions.delay = delay
    keyframeOptions.timing.kind = TH_TIMING_CURVE
    keyframeOptions.timing.curve = th_curve(rawValue: UInt32((options.rawValue >> 16) & 3))
    let block = AnimationBlock(session, origin, animations, completion)
    let what = "UIView.animateKeyframes(withDuration: \(duration)) at \(origin.place)"
    let ok = session.call(\.animate_keyframes, what) {
      $0($1, &keyframeOptions, animationsThunk, completionThunk, block.key)
    }
    if !ok { block.refuse() }
  }

  /// A keyframe of the enclosing `animateKeyframes` block: the changes in `animations` are reached between
  /// `frameStartTime` and `frameStartTime + frameDuration` (fractions of the block). Only inside an
  /// `animateKeyframes` animations block.
  public class func addKeyframe(
    withRelativeStartTime frameStartTime: Double, relativeDuration frameDuration: Double,
    animations: @escaping () -> Void, file: StaticString = #fileID, line: UInt = #line
  ) {
    let origin = BlockOrigin("UIView.addKeyframe", file: file, line: line)
    guard let session = current(origin) else { return }
    let block = AnimationBlock(session, origin, animations, nil)
    session.call(\.add_keyframe, "UIView.addKeyframe(\(frameStartTime), \(frameDuration)) at \(origin.place)") {
      $0($1, frameStartTime, frameDuration, animationsThunk, block.key)
    }
    // The host calls a keyframe's animations function only during add_keyframe.
    block.forget()
  }

  // MARK: Support

  @discardableResult
  static func run(
    duration: TimeInterval, delay: TimeInterval, timing: th_timing, _ origin: BlockOrigin,
    _ animations: @escaping () -> Void, _ completion: ((Bool) -> Void)?
  ) -> AnimationBlock? {
    guard let session = current(origin) else { return nil }
    var options = th_animation_options()
    options.struct_size = UInt32(MemoryLayout<th_animation_options>.size)
    options.duration = duration
    options.delay = delay
    options.timing = timing
    let block = AnimationBlock(session, origin, animations, completion)
    let what = "\(origin.call)(withDuration: \(duration), delay: \(delay))"
    let ok = session.call(\.animate, origin.file == nil ? what : "\(what) at \(origin.place)") {
      $0($1, &options, animationsThunk, completionThunk, block.key)
    }
    if !ok { block.refuse() }
    return block
  }

  /// The current session, or nil after logging that `origin`'s call was made outside a transition call.
  static func current(_ origin: BlockOrigin) -> Session? {
    if let session = Session.current { return session }
    PluginRuntime.log(TH_LOG_WARNING, "TransitionKit: \(origin) outside a transition call is ignored")
    return nil
  }

  private static func warnAboutUnsupported(_ raw: UInt, _ origin: BlockOrigin) {
    let unsupported: UInt = (1 << 3) | (1 << 4) | (7 << 20)
    guard raw & unsupported != 0 else { return }
    TransitionLog.warning(
      "TransitionKit: \(origin): repeat, autoreverse and transition options are not supported; ignored")
  }
}

/// A timing for `UIView.animate(withDuration:delay:timing:…)`: everything the host's timeline offers.
public enum AnimationTiming: Hashable, Sendable {
  /// One of UIKit's four curves.
  case curve(UIView.AnimationCurve)
  /// Core Animation's default curve (0.25, 0.1, 0.25, 1).
  case coreAnimationDefault
  /// A cubic Bézier from (0, 0) to (1, 1) with these control points (x in [0, 1]).
  case bezier(CGPoint, CGPoint)
  /// `count` equal jumps, at the start or the end of each interval (CSS `steps()`).
  case steps(Int, jumpsAtStart: Bool)
  /// UIKit's spring, damping ratio in (0, 1] and initial velocity: lasts exactly the animation's duration.
  case spring(dampingRatio: CGFloat, CGFloat)
  /// CASpringAnimation's spring; lasts its settling duration when the duration is nil. A damping ratio
  /// c / (2√(km)) above 1 moves as the critically damped spring with the same √(k/m) unless `allowsOverdamping`
  /// (Core Animation's default).
  case springPhysical(
    mass: CGFloat, stiffness: CGFloat, damping: CGFloat, initialVelocity: CGFloat, allowsOverdamping: Bool = false)
  /// iOS 17's spring(duration:bounce:): the animation's duration is the perceptual one; it lasts its settling
  /// duration.
  case springBounce(bounce: CGFloat, initialVelocity: CGFloat)

  var th: th_timing {
    var t = th_timing()
    switch self {
    case .curve(let curve):
      t.kind = TH_TIMING_CURVE
      t.curve = th_curve(rawValue: UInt32(curve.rawValue))
    case .coreAnimationDefault:
      t.curve = TH_CURVE_DEFAULT
    case .bezier(let c1, let c2):
      t.curve = TH_CURVE_BEZIER
      t.control_points = (c1.x, c1.y, c2.x, c2.y)
    case .steps(let count, let atStart):
      t.curve = TH_CURVE_STEPS
      t.steps = Int32(clamping: count)
      t.step_position = atStart ? TH_STEP_START : TH_STEP_END
    case .spring(let ratio, let velocity):
      t.kind = TH_TIMING_SPRING
      t.damping_ratio = ratio
      t.initial_velocity = velocity
    case .springPhysical(let mass, let stiffness, let damping, let velocity, let allowsOverdamping):
      t.kind = TH_TIMING_SPRING_PHYSICAL
      (t.mass, t.stiffness, t.damping, t.initial_velocity) = (mass, stiffness, damping, velocity)
      if allowsOverdamping { t.flags = UInt32(TH_TIMING_ALLOWS_OVERDAMPING) }
    case .springBounce(let bounce, let velocity):
      t.kind = TH_TIMING_SPRING_BOUNCE
      t.bounce = bounce
      t.initial_velocity = velocity
    }
    return t
  }
}
