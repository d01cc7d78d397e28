internal import CTransitionABI
import Synchronization

// Core Animation's explicit animations with UIKit's names (CABasicAnimation, CAKeyframeAnimation,
// CASpringAnimation, CAAnimationGroup, CAMediaTimingFunction, CAAnimationDelegate, CATransaction,
// CACurrentMediaTime, CALayer's add(_:forKey:) and CAMediaTiming), over the host extension "th.core-animation/1".
// An animation is configured on the Swift object and copied into the host when it is added, as Core Animation
// copies it.

/// CAMediaTimingFillMode.
public struct CAMediaTimingFillMode: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let removed = CAMediaTimingFillMode(rawValue: "removed")
  public static let forwards = CAMediaTimingFillMode(rawValue: "forwards")
  public static let backwards = CAMediaTimingFillMode(rawValue: "backwards")
  public static let both = CAMediaTimingFillMode(rawValue: "both")

  var abi: th_ca_fill_mode {
    switch self {
    case .forwards: TH_CA_FILL_FORWARDS
    case .backwards: TH_CA_FILL_BACKWARDS
    case .both: TH_CA_FILL_BOTH
    default: TH_CA_FILL_REMOVED
    }
  }
}

/// CAMediaTimingFunctionName.
public struct CAMediaTimingFunctionName: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let linear = CAMediaTimingFunctionName(rawValue: "linear")
  public static let easeIn = CAMediaTimingFunctionName(rawValue: "easeIn")
  public static let easeOut = CAMediaTimingFunctionName(rawValue: "easeOut")
  public static let easeInEaseOut = CAMediaTimingFunctionName(rawValue: "easeInEaseOut")
  public static let `default` = CAMediaTimingFunctionName(rawValue: "default")
}

/// CAMediaTimingFunction: a named curve or a cubic Bézier through (0, 0) and (1, 1).
open class CAMediaTimingFunction: NSObject {
  let timing: th_timing

  /// One of Core Animation's named curves.
  public init(name: CAMediaTimingFunctionName) {
    let curve: th_curve =
      switch name {
      case .linear: TH_CURVE_LINEAR
      case .easeIn: TH_CURVE_EASE_IN
      case .easeOut: TH_CURVE_EASE_OUT
      case .easeInEaseOut: TH_CURVE_EASE_IN_OUT
      default: TH_CURVE_DEFAULT
      }
    timing = th_timing_curve(curve)
    super.init()
  }

  /// cubic-bezier(c1x, c1y, c2x, c2y).
  public init(controlPoints c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float) {
    timing = th_timing_bezier(Double(c1x), Double(c1y), Double(c2x), Double(c2y))
    super.init()
  }
}

/// CAMediaTiming: how an object's local time maps from its parent's.
public protocol CAMediaTiming: AnyObject {
  var beginTime: CFTimeInterval { get set }
  var duration: CFTimeInterval { get set }
  var speed: Float { get set }
  var timeOffset: CFTimeInterval { get set }
  var repeatCount: Float { get set }
  var repeatDuration: CFTimeInterval { get set }
  var autoreverses: Bool { get set }
  var fillMode: CAMediaTimingFillMode { get set }
}

/// CAAnimationDelegate (both methods optional, as in Core Animation). Called when time really advances.
public protocol CAAnimationDelegate: AnyObject {
  func animationDidStart(_ anim: CAAnimation)
  func animationDidStop(_ anim: CAAnimation, finished flag: Bool)
}

extension CAAnimationDelegate {
  public func animationDidStart(_ anim: CAAnimation) {}
  public func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {}
}

/// CAAnimation: timing, timing function, delegate (retained, as Core Animation retains it) and removal.
open class CAAnimation: NSObject, CAMediaTiming {
  open var beginTime: CFTimeInterval = 0
  open var duration: CFTimeInterval = 0
  open var speed: Float = 1
  open var timeOffset: CFTimeInterval = 0
  open var repeatCount: Float = 0
  open var repeatDuration: CFTimeInterval = 0
  open var autoreverses = false
  open var fillMode: CAMediaTimingFillMode = .removed
  open var timingFunction: CAMediaTimingFunction?
  open var delegate: CAAnimationDelegate?
  open var isRemovedOnCompletion = true

  public override init() { super.init() }

  var kind: th_ca_animation_kind { TH_CA_BASIC }
  var keyPathForHost: String? { nil }
  var isAdditiveForHost: Bool { false }

  /// Sets this object's members on a host animation object (subclasses add theirs).
  func configure(_ table: CoreAnimationTable, _ handle: th_ca_animation) -> Bool {
    var t = th_ca_media_timing_default()
    t.begin_time = beginTime
    t.duration = duration
    t.speed = Double(speed)
    t.time_offset = timeOffset
    t.repeat_count = Double(repeatCount)
    t.repeat_duration = repeatDuration
    t.autoreverses = autoreverses
    t.fill_mode = fillMode.abi
    t.removed_on_completion = isRemovedOnCompletion
    t.additive = isAdditiveForHost
    var ok = table.call("CAAnimation timing") { $0.set_timing?($1, handle, &t) }
    if var curve = timingFunction?.timing {
      ok = table.call("CAAnimation.timingFunction") { $0.set_timing_function?($1, handle, &curve) } && ok
    }
    return ok
  }

  /// A host animation object made from this one (nil when the host refused it; the refusal is logged).
  func makeHostAnimation(_ table: CoreAnimationTable) -> th_ca_animation? {
    var handle = th_ca_animation(id: 0)
    let made = withOptionalCString(keyPathForHost) { path in
      table.call("\(type(of: self))(keyPath: \(keyPathForHost ?? "nil"))") { $0.create?($1, kind, path, &handle) }
    }
    guard made, configure(table, handle) else { return nil }
    return handle
  }
}

/// CAPropertyAnimation: an animation of one key path.
open class CAPropertyAnimation: CAAnimation {
  open var keyPath: String?
  open var isAdditive = false

  public convenience init(keyPath path: String?) {
    self.init()
    keyPath = path
  }

  override var keyPathForHost: String? { keyPath }
  override var isAdditiveForHost: Bool { isAdditive }
}

/// CABasicAnimation: from, to and by values with Core Animation's absent-value rules.
open class CABasicAnimation: CAPropertyAnimation {
  open var fromValue: Any?
  open var toValue: Any?
  open var byValue: Any?

  override func configure(_ table: CoreAnimationTable, _ handle: th_ca_animation) -> Bool {
    var ok = super.configure(table, handle)
    for (slot, value, name) in [
      (TH_CA_FROM_VALUE, fromValue, "fromValue"), (TH_CA_TO_VALUE, toValue, "toValue"),
      (TH_CA_BY_VALUE, byValue, "byValue"),
    ] {
      guard let value else { continue }
      guard let v = CoreAnimationTable.value(value) else {
        table.session.log(TH_LOG_WARNING, "TransitionKit: \(name) \(value) is not a value Core Animation animates")
        ok = false
        continue
      }
      ok =
        withExtendedLifetime(v) {
          var abi = v.abi
          return table.call("CABasicAnimation.\(name)") { $0.set_value?($1, handle, slot, &abi) }
        } && ok
    }
    return ok
  }
}

/// CASpringAnimation: a basic animation whose progress is a damped spring's.
open class CASpringAnimation: CABasicAnimation {
  open var mass: CGFloat = 1
  open var stiffness: CGFloat = 100
  open var damping: CGFloat = 10
  open var initialVelocity: CGFloat = 0
  open var allowsOverdamping = false

  override var kind: th_ca_animation_kind { TH_CA_SPRING }

  override func configure(_ table: CoreAnimationTable, _ handle: th_ca_animation) -> Bool {
    let ok = super.configure(table, handle)
    return table.call("CASpringAnimation") {
      $0.set_spring?($1, handle, mass, stiffness, damping, initialVelocity, allowsOverdamping)
    } && ok
  }

  /// The time the spring takes to come to rest (Core Animation's estimate, ε = 0.001), as the host computes it.
  open var settlingDuration: CFTimeInterval {
    guard let session = Session.current, let table = CoreAnimationTable(session), let handle = makeHostAnimation(table)
    else { return 0 }
    var seconds = 0.0
    _ = table.call("CASpringAnimation.settlingDuration") { $0.get_settling_duration?($1, handle, &seconds) }
    return seconds
  }
}

/// CAAnimationCalculationMode.
public struct CAAnimationCalculationMode: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let linear = CAAnimationCalculationMode(rawValue: "linear")
  public static let discrete = CAAnimationCalculationMode(rawValue: "discrete")
  public static let paced = CAAnimationCalculationMode(rawValue: "paced")
  public static let cubic = CAAnimationCalculationMode(rawValue: "cubic")
  public static let cubicPaced = CAAnimationCalculationMode(rawValue: "cubicPaced")

  var abi: th_calculation_mode {
    switch self {
    case .discrete: TH_CALCULATION_DISCRETE
    case .paced: TH_CALCULATION_PACED
    case .cubic: TH_CALCULATION_CUBIC
    case .cubicPaced: TH_CALCULATION_CUBIC_PACED
    default: TH_CALCULATION_LINEAR
    }
  }
}

/// CAAnimationRotationMode.
public struct CAAnimationRotationMode: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let rotateAuto = CAAnimationRotationMode(rawValue: "auto")
  public static let rotateAutoReverse = CAAnimationRotationMode(rawValue: "autoReverse")
}

extension CAAnimationRotationMode? {
  var abi: th_ca_rotation_mode {
    switch self {
    case .rotateAuto?: TH_CA_ROTATE_AUTO
    case .rotateAutoReverse?: TH_CA_ROTATE_AUTO_REVERSE
    default: TH_CA_ROTATE_NONE
    }
  }
}

/// CAKeyframeAnimation: values at key times, with per-segment timing functions and a calculation mode.
open class CAKeyframeAnimation: CAPropertyAnimation {
  open var values: [Any]?
  open var keyTimes: [Double]?
  open var timingFunctions: [CAMediaTimingFunction]?
  open var calculationMode: CAAnimationCalculationMode = .linear
  open var rotationMode: CAAnimationRotationMode?
  /// A path the (point-valued) property follows; it wins over `values`. Its vertices are the keyframes: reached at
  /// `keyTimes` (one per vertex) or evenly spaced, by arc length in the paced modes, each segment shaped by
  /// `timingFunctions`.
  open var path: CGPath?

  override var kind: th_ca_animation_kind { TH_CA_KEYFRAME }

  override func configure(_ table: CoreAnimationTable, _ handle: th_ca_animation) -> Bool {
    var ok = super.configure(table, handle)
    if let path {
      let elements = path.elements.map(CAValue.element)
      ok =
        table.call("CAKeyframeAnimation.path") { t, ctx in
          elements.withUnsafeBufferPointer {
            t.set_keyframe_path?(ctx, handle, $0.baseAddress, $0.count, rotationMode.abi)
          }
        } && ok
    }
    guard let values, !values.isEmpty else {
      // A path with no values still has its keyTimes, timingFunctions and calculationMode (the path's vertices are
      // the keyframes).
      guard path != nil, keyTimes != nil || timingFunctions != nil || calculationMode != .linear else { return ok }
      return setKeyframes(table, handle, []) && ok
    }
    let boxed = values.compactMap(CoreAnimationTable.value)
    let converted = boxed.map(\.abi)
    guard converted.count == values.count else {
      table.session.log(
        TH_LOG_WARNING, "TransitionKit: CAKeyframeAnimation.values holds a value Core Animation does not animate")
      return false
    }
    ok = setKeyframes(table, handle, converted) && ok
    withExtendedLifetime(boxed) {}
    return ok
  }

  /// set_keyframes with these values (none: a path's timing) and the keyTimes, timingFunctions and calculationMode.
  private func setKeyframes(_ table: CoreAnimationTable, _ handle: th_ca_animation, _ values: [th_ca_value]) -> Bool {
    let times = keyTimes ?? []
    let functions = (timingFunctions ?? []).map(\.timing)
    return table.call("CAKeyframeAnimation.values") { t, ctx in
      values.withUnsafeBufferPointer { v in
        times.withUnsafeBufferPointer { k in
          functions.withUnsafeBufferPointer { f in
            t.set_keyframes?(
              ctx, handle, v.isEmpty ? nil : v.baseAddress, v.count, k.baseAddress, k.count, f.baseAddress, f.count,
              calculationMode.abi)
          }
        }
      }
    }
  }
}

/// CAAnimationGroup: its animations run in the group's time, clipped to its duration.
open class CAAnimationGroup: CAAnimation {
  open var animations: [CAAnimation]?

  override var kind: th_ca_animation_kind { TH_CA_GROUP }

  override func configure(_ table: CoreAnimationTable, _ handle: th_ca_animation) -> Bool {
    var ok = super.configure(table, handle)
    for child in animations ?? [] {
      guard let made = child.makeHostAnimation(table) else {
        ok = false
        continue
      }
      ok = table.call("CAAnimationGroup.animations") { $0.add_child?($1, handle, made) } && ok
    }
    return ok
  }
}

/// CATransaction: nested transactions, completion blocks, duration, timing function and disabled actions.
public enum CATransaction {
  private static func call(
    _ what: String, _ body: (th_host_core_animation, th_context) -> th_status?
  ) {
    guard let session = Session.current, let table = CoreAnimationTable(session) else { return }
    _ = table.call("CATransaction.\(what)", body)
  }

  public static func begin() { call("begin()") { $0.transaction_begin?($1) } }
  public static func commit() { call("commit()") { $0.transaction_commit?($1) } }

  /// Runs once every animation added after it in this transaction has finished or been removed.
  public static func setCompletionBlock(_ block: (() -> Void)?) {
    guard let session = Session.current else { return }
    guard let block else {
      call("setCompletionBlock(nil)") { $0.transaction_set_completion?($1, nil, nil) }
      return
    }
    let holder = AnimationBlock(session, BlockOrigin("CATransaction.setCompletionBlock"), {}, { _ in block() })
    call("setCompletionBlock") { $0.transaction_set_completion?($1, transactionCompletionThunk, holder.key) }
  }

  public static func setAnimationDuration(_ duration: CFTimeInterval) {
    call("setAnimationDuration") { $0.transaction_set_animation_duration?($1, duration) }
  }

  public static func setAnimationTimingFunction(_ function: CAMediaTimingFunction?) {
    guard var timing = function?.timing else {
      call("setAnimationTimingFunction(nil)") { $0.transaction_set_timing_function?($1, nil) }
      return
    }
    call("setAnimationTimingFunction") { $0.transaction_set_timing_function?($1, &timing) }
  }

  public static func setDisableActions(_ flag: Bool) {
    call("setDisableActions") { $0.transaction_set_disable_actions?($1, flag) }
  }
}

/// CACurrentMediaTime(): the transition's timeline time now (the container's parent time space), so
/// `beginTime = CACurrentMediaTime() + delay` delays an animation as on iOS.
public func CACurrentMediaTime() -> CFTimeInterval {
  guard let session = Session.current, let table = CoreAnimationTable(session) else { return 0 }
  var seconds = 0.0
  _ = table.call("CACurrentMediaTime()") { $0.current_media_time?($1, &seconds) }
  return seconds
}

extension CALayer {
  private var coreAnimation: CoreAnimationTable? { view.session.flatMap(CoreAnimationTable.init) }

  /// add(_:forKey:): a copy of the animation runs on this layer; the same key replaces.
  public func add(_ anim: CAAnimation, forKey key: String?) {
    guard let table = coreAnimation, let handle = anim.makeHostAnimation(table) else { return }
    if anim.delegate != nil {
      let holder = DelegateHolder(table.session, anim)
      var delegate = th_ca_delegate(
        struct_size: UInt32(MemoryLayout<th_ca_delegate>.size), reserved: 0, did_start: delegateStartThunk,
        did_stop: delegateStopThunk, user_data: holder.key)
      _ = table.call("CAAnimation.delegate") { $0.set_delegate?($1, handle, &delegate) }
    }
    let added = withOptionalCString(key) { k in
      table.call("CALayer.add(_:forKey:)") { $0.add?($1, nodeHandle, handle, k) }
    }
    if added, let key { AddedAnimations.set(anim, layer: view.handle, key: key) }
  }

  /// animation(forKey:): the animation added under `key` while it is on the layer.
  public func animation(forKey key: String) -> CAAnimation? {
    guard animationKeys()?.contains(key) == true else { return nil }
    return AddedAnimations.get(layer: view.handle, key: key)
  }

  /// animationKeys(): the keys of the animations on the layer, in add order; nil when there is none.
  public func animationKeys() -> [String]? {
    guard let table = coreAnimation else { return nil }
    var count = 0
    guard table.call("CALayer.animationKeys()", { $0.get_animation_key_count?($1, nodeHandle, &count) }), count > 0
    else { return nil }
    var keys: [String] = []
    for i in 0..<count {
      var length = 0
      var buffer = [CChar](repeating: 0, count: 256)
      var status = table.table.pointee.get_animation_key?(table.ctx, nodeHandle, i, &buffer, buffer.count, &length)
      if status == TH_ERR_LIMIT {
        buffer = [CChar](repeating: 0, count: length + 1)
        status = table.table.pointee.get_animation_key?(table.ctx, nodeHandle, i, &buffer, buffer.count, &length)
      }
      if status == TH_OK { keys.append(String(cString: buffer)) }
    }
    return keys
  }

  public func removeAnimation(forKey key: String) {
    _ = coreAnimation?.call("CALayer.removeAnimation(forKey:)") { t, ctx in
      key.withCString { t.remove?(ctx, nodeHandle, $0) }
    }
  }

  public func removeAllAnimations() {
    _ = coreAnimation?.call("CALayer.removeAllAnimations()") { $0.remove_all?($1, nodeHandle) }
  }

  private var layerTiming: th_ca_layer_timing {
    get {
      var t = th_ca_layer_timing(begin_time: 0, speed: 1, time_offset: 0)
      _ = coreAnimation?.call("CALayer timing") { $0.get_layer_timing?($1, nodeHandle, &t) }
      return t
    }
    set {
      var t = newValue
      _ = coreAnimation?.call("CALayer timing") { $0.set_layer_timing?($1, nodeHandle, &t) }
    }
  }

  /// CAMediaTiming.speed of the layer (0 freezes its subtree's animations).
  public var speed: Float {
    get { Float(layerTiming.speed) }
    set { layerTiming.speed = Double(newValue) }
  }

  /// CAMediaTiming.timeOffset of the layer (with speed 0, scrubs its subtree).
  public var timeOffset: CFTimeInterval {
    get { layerTiming.time_offset }
    set { layerTiming.time_offset = newValue }
  }

  /// CAMediaTiming.beginTime of the layer, in its superlayer's time.
  public var beginTime: CFTimeInterval {
    get { layerTiming.begin_time }
    set { layerTiming.begin_time = newValue }
  }

  /// convertTime(_:from: nil) for the common case: this layer's local time at media time `t`, composed down from
  /// the container.
  public func convertTime(_ t: CFTimeInterval, from layer: CALayer?) -> CFTimeInterval {
    var chain: [th_ca_layer_timing] = []
    var node: CALayer? = self
    while let n = node, n !== layer {
      chain.append(n.layerTiming)
      node = n.superlayer
    }
    return chain.reversed().reduce(t) { ($0 - $1.begin_time) * $1.speed + $1.time_offset }
  }
}

// MARK: - Plumbing

/// The host's "th.core-animation/1" table, for one session's calls.
struct CoreAnimationTable {
  let session: Session
  let table: UnsafePointer<th_host_core_animation>

  init?(_ session: Session) {
    guard let getExtension = session.host.function(\.get_extension), let raw = getExtension(TH_EXT_CORE_ANIMATION)
    else { return nil }
    let table = raw.assumingMemoryBound(to: th_host_core_animation.self)
    guard Int(table.pointee.struct_size) >= MemoryLayout<th_host_core_animation>.size else { return nil }
    self.session = session
    self.table = UnsafePointer(table)
  }

  var ctx: th_context { session.hasContext ? session.ctx : session.pluginContext }

  /// Calls one function with the session's context, logging a refusal.
  func call(_ what: @autoclosure () -> String, _ body: (th_host_core_animation, th_context) -> th_status?) -> Bool {
    guard let status = body(table.pointee, ctx) else { return false }
    if status == TH_OK { return true }
    session.log(
      TH_LOG_WARNING,
      "TransitionKit: \(what()) failed: \(String(cString: th_status_name(status)))\(session.blockContext)")
    return false
  }

  /// A Swift value as Core Animation's value of its type (numbers, points, sizes, rects, transforms, colours,
  /// CGPaths for `path` and `shadowPath`).
  static func value(_ any: Any) -> CAValue? {
    var v = th_ca_value()
    func set(_ kind: th_ca_value_kind, _ numbers: [Double]) -> CAValue {
      v.kind = kind
      withUnsafeMutableBytes(of: &v.numbers) { raw in
        let d = raw.bindMemory(to: Double.self)
        for (i, n) in numbers.enumerated() { d[i] = n }
      }
      return CAValue(v)
    }
    switch any {
    case let p as CGPath: return CAValue(path: p)
    case let n as Double: return set(TH_CA_VALUE_NUMBER, [n])
    case let n as Float: return set(TH_CA_VALUE_NUMBER, [Double(n)])
    case let n as Int: return set(TH_CA_VALUE_NUMBER, [Double(n)])
    case let p as CGPoint: return set(TH_CA_VALUE_POINT, [p.x, p.y])
    case let s as CGSize: return set(TH_CA_VALUE_SIZE, [s.width, s.height])
    case let r as CGRect: return set(TH_CA_VALUE_RECT, [r.origin.x, r.origin.y, r.size.width, r.size.height])
    case let m as CATransform3D:
      return set(
        TH_CA_VALUE_TRANSFORM,
        [
          m.m11, m.m12, m.m13, m.m14, m.m21, m.m22, m.m23, m.m24, m.m31, m.m32, m.m33, m.m34, m.m41, m.m42, m.m43,
          m.m44,
        ])
    case let c as UIColor: return set(TH_CA_VALUE_COLOR, [c.red, c.green, c.blue, c.alpha])
    case Optional<Any>.none: return set(TH_CA_VALUE_NO_COLOR, [])
    default: return nil
    }
  }
}

/// A th_ca_value and the path elements it points to, which live as long as this object.
final class CAValue {
  private(set) var abi: th_ca_value
  private let storage: UnsafeMutableBufferPointer<th_ca_path_element>?

  init(_ abi: th_ca_value) {
    self.abi = abi
    storage = nil
  }

  init(path: CGPath) {
    let elements = path.elements.map(Self.element)
    let storage = UnsafeMutableBufferPointer<th_ca_path_element>.allocate(capacity: max(elements.count, 1))
    _ = storage.initialize(from: elements)
    self.storage = storage
    abi = th_ca_value()
    abi.kind = TH_CA_VALUE_PATH
    abi.path = UnsafePointer(storage.baseAddress)
    abi.path_count = elements.count
  }

  deinit { storage?.deallocate() }

  /// A CGPath element (th_path_element) as the extension's th_ca_path_element: same points, its own kind numbers.
  static func element(_ e: th_path_element) -> th_ca_path_element {
    let kind: th_ca_path_element_kind =
      switch e.kind {
      case TH_PATH_MOVE: TH_CA_PATH_MOVE
      case TH_PATH_LINE: TH_CA_PATH_LINE
      case TH_PATH_QUAD_CURVE: TH_CA_PATH_QUAD
      case TH_PATH_CURVE: TH_CA_PATH_CUBIC
      default: TH_CA_PATH_CLOSE
      }
    return th_ca_path_element(kind: kind, reserved: 0, points: e.points)
  }
}

/// Runs `body` with a C string for `text`, or NULL.
func withOptionalCString<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
  guard let text else { return body(nil) }
  return text.withCString { body($0) }
}

/// The animation objects added under keys, so `animation(forKey:)` gives the object back.
enum AddedAnimations {
  private struct State: @unchecked Sendable {
    var byLayer: [UInt64: [String: CAAnimation]] = [:]
  }
  private static let state = Mutex(State())

  static func set(_ animation: CAAnimation, layer: UInt64, key: String) {
    state.withLock { $0.byLayer[layer, default: [:]][key] = animation }
  }

  static func get(layer: UInt64, key: String) -> CAAnimation? {
    state.withLock { Unchecked($0.byLayer[layer]?[key]) }.value
  }
}

/// Keeps an animation and its delegate for the host's callbacks.
final class DelegateHolder: AnimationBlock {
  let animation: CAAnimation

  init(_ session: Session, _ animation: CAAnimation) {
    self.animation = animation
    super.init(session, BlockOrigin("CAAnimation.delegate"), {}, nil)
  }
}

let delegateStartThunk: @convention(c) (th_context, UnsafeMutableRawPointer?) -> Void = { ctx, key in
  guard let holder = BlockRegistry.lookup(key) as? DelegateHolder, let session = holder.session else { return }
  session.enter(ctx) { holder.animation.delegate?.animationDidStart(holder.animation) }
}

let delegateStopThunk: @convention(c) (th_context, Bool, UnsafeMutableRawPointer?) -> Void = { ctx, finished, key in
  guard let holder = BlockRegistry.remove(key) as? DelegateHolder, let session = holder.session else { return }
  session.enter(ctx) { holder.animation.delegate?.animationDidStop(holder.animation, finished: finished) }
}

let transactionCompletionThunk: @convention(c) (th_context, UnsafeMutableRawPointer?) -> Void = { ctx, key in
  guard let block = BlockRegistry.remove(key), let session = block.session else { return }
  session.enter(ctx) { block.completion?(true) }
}
