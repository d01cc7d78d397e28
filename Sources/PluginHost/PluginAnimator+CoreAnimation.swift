import CTransitionABI
import TransitionEngine

// ABI 1.3 — Core Animation animations: the host extension "th.core-animation/1" bound to the engine's explicit
// animations (ExplicitAnimation, Layer+Animations.swift), CATransaction and layer timing.

extension PluginAnimator {
  /// Animation objects one transition may create (TH_ERR_LIMIT beyond).
  static let maximumCoreAnimationObjects = 100_000
  /// Set in an animation handle's low word (views and property animators use other bits).
  static let coreAnimationTag: UInt64 = 1 << 30

  func coreAnimationHandle(_ index: Int) -> th_ca_animation {
    th_ca_animation(id: handle.id << 32 | Self.coreAnimationTag | UInt64(index))
  }

  /// The index of the animation object behind a handle.
  func coreAnimationIndex(_ animation: th_ca_animation, _ field: String) throws(HostFailure) -> Int {
    let owner = animation.id >> 32
    let low = animation.id & 0xFFFF_FFFF
    if owner == handle.id, low & Self.coreAnimationTag != 0, low & Self.propertyAnimatorTag == 0 {
      let index = Int(low & ~Self.coreAnimationTag)
      if index < coreAnimationObjects.count { return index }
    }
    if owner != handle.id, owner != 0, case .stale = ContextDirectory.shared.lookup(th_context(id: owner)) {
      throw HostFailure(
        status: TH_ERR_STALE_HANDLE, kind: .invalidValue(field: field),
        detail: "\(field) \(animation.id) is an animation of a transition that has ended")
    }
    throw HostFailure(
      status: TH_ERR_INVALID_HANDLE, kind: .invalidValue(field: field),
      detail: "\(field) \(animation.id) is not an animation object of this transition")
  }

  /// Changes an animation object in place.
  func withCoreAnimation(
    _ animation: th_ca_animation, _ body: (inout ExplicitAnimation) throws(HostFailure) -> Void
  ) throws(HostFailure) -> th_status {
    try require(.animate)
    let i = try coreAnimationIndex(animation, "animation")
    try body(&coreAnimationObjects[i])
    return TH_OK
  }

  // MARK: Values

  static func animationValue(_ pointer: UnsafePointer<th_ca_value>, _ field: String) throws(HostFailure)
    -> AnimationValue
  {
    let v = pointer.pointee
    let n = withUnsafeBytes(of: v.numbers) { Array($0.bindMemory(to: Double.self)) }
    func finite(_ count: Int) throws(HostFailure) -> [Double] {
      let slice = Array(n.prefix(count))
      guard slice.allSatisfy(\.isFinite) else { throw .invalidValue(field, "\(field) has a non-finite number") }
      return slice
    }
    switch v.kind {
    case TH_CA_VALUE_NUMBER: return .number(try finite(1)[0])
    case TH_CA_VALUE_POINT:
      let p = try finite(2)
      return .point(Point(x: p[0], y: p[1]))
    case TH_CA_VALUE_SIZE:
      let p = try finite(2)
      return .size(Size(width: p[0], height: p[1]))
    case TH_CA_VALUE_RECT:
      let p = try finite(4)
      return .rect(Rect(x: p[0], y: p[1], width: p[2], height: p[3]))
    case TH_CA_VALUE_TRANSFORM:
      let m = try finite(16)
      return .transform(
        Transform3D(
          m11: m[0], m12: m[1], m13: m[2], m14: m[3], m21: m[4], m22: m[5], m23: m[6], m24: m[7], m31: m[8], m32: m[9],
          m33: m[10], m34: m[11], m41: m[12], m42: m[13], m43: m[14], m44: m[15]))
    case TH_CA_VALUE_COLOR:
      let c = try finite(4)
      return .color(Color(r: c[0], g: c[1], b: c[2], a: c[3]))
    case TH_CA_VALUE_NO_COLOR: return .color(nil)
    case TH_CA_VALUE_PATH: return .path(try path(v.path, v.path_count, "\(field).path"))
    case TH_CA_VALUE_NO_PATH: return .path(nil)
    default: throw .unsupported("\(field).kind", "unknown th_ca_value_kind \(v.kind.rawValue)")
    }
  }

  static func path(_ elements: UnsafePointer<th_ca_path_element>?, _ count: Int, _ field: String)
    throws(HostFailure) -> Path
  {
    guard count == 0 || elements != nil else { throw .null(field) }
    var path = Path()
    for i in 0..<count {
      let e = elements![i]
      let p = [e.points.0, e.points.1, e.points.2].map { Point(x: $0.x, y: $0.y) }
      guard p.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else {
        throw .invalidValue("\(field)[\(i)]", "\(field)[\(i)] has a non-finite point")
      }
      switch e.kind {
      case TH_CA_PATH_MOVE: path.move(to: p[0])
      case TH_CA_PATH_LINE: path.addLine(to: p[0])
      case TH_CA_PATH_QUAD: path.addQuadCurve(to: p[1], control: p[0])
      case TH_CA_PATH_CUBIC: path.addCurve(to: p[2], control1: p[0], control2: p[1])
      case TH_CA_PATH_CLOSE: path.closeSubpath()
      default: throw .unsupported("\(field)[\(i)].kind", "unknown th_ca_path_element_kind \(e.kind.rawValue)")
      }
    }
    return path
  }

  static func timingCurve(_ pointer: UnsafePointer<th_timing>?, _ field: String) throws(HostFailure) -> TimingCurve? {
    guard let pointer else { return nil }
    guard pointer.pointee.kind == TH_TIMING_CURVE else {
      throw .unsupported("\(field).kind", "a CAMediaTimingFunction is a curve (TH_TIMING_CURVE), not a spring")
    }
    return try curve(pointer.pointee)
  }

  // MARK: The extension's functions

  func createCoreAnimation(
    _ kind: th_ca_animation_kind, _ keyPath: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<th_ca_animation>?
  ) throws(HostFailure) -> th_status {
    try require(.animate)
    guard let out else { throw .null("out") }
    guard coreAnimationObjects.count < Self.maximumCoreAnimationObjects else {
      throw .limit("create", "more than \(Self.maximumCoreAnimationObjects) animation objects in one transition")
    }
    let path = keyPath.map { String(cString: $0) }
    let made: ExplicitAnimation
    switch kind {
    case TH_CA_BASIC: made = ExplicitAnimation(kind: .basic(from: nil, to: nil, by: nil), keyPath: path)
    case TH_CA_KEYFRAME: made = ExplicitAnimation(kind: .keyframes(.init()), keyPath: path)
    case TH_CA_SPRING:
      made = ExplicitAnimation(kind: .spring(from: nil, to: nil, by: nil, spring: .init()), keyPath: path)
    case TH_CA_GROUP: made = ExplicitAnimation(kind: .group([]))
    default: throw .unsupported("kind", "unknown th_ca_animation_kind \(kind.rawValue)")
    }
    coreAnimationObjects.append(made)
    out.pointee = coreAnimationHandle(coreAnimationObjects.count - 1)
    return TH_OK
  }

  func setCoreAnimationValue(
    _ animation: th_ca_animation, _ slot: th_ca_value_slot, _ value: UnsafePointer<th_ca_value>?
  ) throws(HostFailure) -> th_status {
    let v = try value.map { (p) throws(HostFailure) in try Self.animationValue(p, "value") }
    guard slot == TH_CA_FROM_VALUE || slot == TH_CA_TO_VALUE || slot == TH_CA_BY_VALUE else {
      throw .unsupported("slot", "unknown th_ca_value_slot \(slot.rawValue)")
    }
    return try withCoreAnimation(animation) { (a) throws(HostFailure) in
      func set(_ f: inout AnimationValue?, _ t: inout AnimationValue?, _ b: inout AnimationValue?) {
        switch slot {
        case TH_CA_FROM_VALUE: f = v
        case TH_CA_TO_VALUE: t = v
        default: b = v
        }
      }
      switch a.kind {
      case .basic(var f, var t, var b):
        set(&f, &t, &b)
        a.kind = .basic(from: f, to: t, by: b)
      case .spring(var f, var t, var b, let spring):
        set(&f, &t, &b)
        a.kind = .spring(from: f, to: t, by: b, spring: spring)
      default:
        throw .wrongPhase("set_value is for basic and spring animations")
      }
    }
  }

  func setCoreAnimationTiming(_ animation: th_ca_animation, _ timing: UnsafePointer<th_ca_media_timing>?)
    throws(HostFailure) -> th_status
  {
    guard let timing else { throw .null("timing") }
    try checkStructSize(UnsafeRawPointer(timing), minimum: MemoryLayout<th_ca_media_timing>.size, "timing")
    let t = timing.pointee
    let numbers = [
      ("begin_time", t.begin_time), ("duration", t.duration), ("speed", t.speed), ("time_offset", t.time_offset),
      ("repeat_duration", t.repeat_duration),
    ]
    for (name, value) in numbers where !value.isFinite {
      throw .invalidValue("timing.\(name)", "timing.\(name) \(value) is not finite")
    }
    guard !t.repeat_count.isNaN, t.repeat_count >= 0, t.duration >= 0, t.repeat_duration >= 0 else {
      throw .invalidValue("timing", "repeat_count, duration and repeat_duration must be ≥ 0")
    }
    let fill: AnimationFillMode
    switch t.fill_mode {
    case TH_CA_FILL_REMOVED: fill = .removed
    case TH_CA_FILL_FORWARDS: fill = .forwards
    case TH_CA_FILL_BACKWARDS: fill = .backwards
    case TH_CA_FILL_BOTH: fill = .both
    default: throw .unsupported("timing.fill_mode", "unknown th_ca_fill_mode \(t.fill_mode.rawValue)")
    }
    return try withCoreAnimation(animation) { (a) throws(HostFailure) in
      a.timing.beginTime = t.begin_time
      a.timing.duration = t.duration
      a.timing.speed = t.speed
      a.timing.timeOffset = t.time_offset
      a.timing.repeatCount = t.repeat_count
      a.timing.repeatDuration = t.repeat_duration
      a.timing.autoreverses = t.autoreverses
      a.timing.fillMode = fill
      a.isRemovedOnCompletion = t.removed_on_completion
      a.isAdditive = t.additive
    }
  }

  func setCoreAnimationTimingFunction(_ animation: th_ca_animation, _ curve: UnsafePointer<th_timing>?)
    throws(HostFailure) -> th_status
  {
    let checked = try Self.timingCurve(curve, "curve")
    return try withCoreAnimation(animation) { (a) throws(HostFailure) in a.timingFunction = checked }
  }

  func setCoreAnimationKeyframes(
    _ animation: th_ca_animation, _ values: UnsafePointer<th_ca_value>?, _ count: Int,
    _ keyTimes: UnsafePointer<Double>?, _ keyTimeCount: Int, _ functions: UnsafePointer<th_timing>?,
    _ functionCount: Int, _ mode: th_calculation_mode
  ) throws(HostFailure) -> th_status {
    // No values (count 0): the timing of a path animation (CAKeyframeAnimation.path with keyTimes, timingFunctions
    // or calculationMode and no values), whose keyframes are the path's vertices.
    guard count == 0 || values != nil else { throw .null("values") }
    var list: [AnimationValue] = []
    for i in 0..<count { list.append(try Self.animationValue(values! + i, "values[\(i)]")) }
    var times: [Double]?
    if keyTimeCount > 0 {
      guard let keyTimes else { throw .null("key_times") }
      times = Array(UnsafeBufferPointer(start: keyTimes, count: keyTimeCount))
    }
    var curves: [TimingCurve]?
    if functionCount > 0 {
      guard let functions else { throw .null("timing_functions") }
      var made: [TimingCurve] = []
      for i in 0..<functionCount { made.append(try Self.timingCurve(functions + i, "timing_functions[\(i)]")!) }
      curves = made
    }
    let calculation: KeyframeCalculationMode
    switch mode {
    case TH_CALCULATION_LINEAR: calculation = .linear
    case TH_CALCULATION_DISCRETE: calculation = .discrete
    case TH_CALCULATION_PACED: calculation = .paced
    case TH_CALCULATION_CUBIC: calculation = .cubic
    case TH_CALCULATION_CUBIC_PACED: calculation = .cubicPaced
    default: throw .unsupported("mode", "unknown th_calculation_mode \(mode.rawValue)")
    }
    do {
      // For a path's timing the vertices stand for the values: as many as the key times (or the segments + 1).
      let n = count > 0 ? count : times?.count ?? (curves?.count ?? 0) + 1
      try Keyframes<Double>.validate(
        valueCount: n, keyTimes: times, timingFunctionCount: curves?.count, mode: calculation)
    } catch {
      throw .invalidValue("key_times", "keyframes: \(error)")
    }
    return try withCoreAnimation(animation) { (a) throws(HostFailure) in
      guard case .keyframes(var spec) = a.kind else { throw .wrongPhase("set_keyframes is for keyframe animations") }
      spec.values = count > 0 ? list : nil
      spec.keyTimes = times
      spec.timingFunctions = curves
      spec.calculationMode = calculation
      a.kind = .keyframes(spec)
    }
  }

  func setCoreAnimationPath(
    _ animation: th_ca_animation, _ elements: UnsafePointer<th_ca_path_element>?, _ count: Int,
    _ rotation: th_ca_rotation_mode
  ) throws(HostFailure) -> th_status {
    let path = try Self.path(elements, count, "elements")
    let mode: AnimationRotationMode?
    switch rotation {
    case TH_CA_ROTATE_NONE: mode = nil
    case TH_CA_ROTATE_AUTO: mode = .auto
    case TH_CA_ROTATE_AUTO_REVERSE: mode = .autoReverse
    default: throw .unsupported("rotation", "unknown th_ca_rotation_mode \(rotation.rawValue)")
    }
    return try withCoreAnimation(animation) { (a) throws(HostFailure) in
      guard case .keyframes(var spec) = a.kind else {
        throw .wrongPhase("set_keyframe_path is for keyframe animations")
      }
      spec.path = path
      spec.rotationMode = mode
      a.kind = .keyframes(spec)
    }
  }

  func setCoreAnimationSpring(
    _ animation: th_ca_animation, _ mass: Double, _ stiffness: Double, _ damping: Double, _ velocity: Double,
    _ overdamping: Bool
  ) throws(HostFailure) -> th_status {
    _ = try Self.spring { () throws(SpringError) in
      try Spring.validated(mass: mass, stiffness: stiffness, damping: damping, initialVelocity: velocity)
    }
    return try withCoreAnimation(animation) { (a) throws(HostFailure) in
      guard case .spring(let f, let t, let b, var spec) = a.kind else {
        throw .wrongPhase("set_spring is for spring animations")
      }
      spec.mass = mass
      spec.stiffness = stiffness
      spec.damping = damping
      spec.initialVelocity = velocity
      spec.allowsOverdamping = overdamping
      a.kind = .spring(from: f, to: t, by: b, spring: spec)
    }
  }

  func coreAnimationSettlingDuration(_ animation: th_ca_animation, _ out: UnsafeMutablePointer<Double>?)
    throws(HostFailure) -> th_status
  {
    try require(.read)
    guard let out else { throw .null("out_seconds") }
    let i = try coreAnimationIndex(animation, "animation")
    guard case .spring(_, _, _, let spec) = coreAnimationObjects[i].kind else {
      throw .wrongPhase("get_settling_duration is for spring animations")
    }
    out.pointee = spec.settlingDuration
    return TH_OK
  }

  func addCoreAnimationChild(_ group: th_ca_animation, _ child: th_ca_animation) throws(HostFailure) -> th_status {
    let copy = coreAnimationObjects[try coreAnimationIndex(child, "child")]
    return try withCoreAnimation(group) { (a) throws(HostFailure) in
      guard case .group(var children) = a.kind else { throw .wrongPhase("add_child is for groups") }
      children.append(copy)
      a.kind = .group(children)
    }
  }

  func setCoreAnimationDelegate(_ animation: th_ca_animation, _ delegate: UnsafePointer<th_ca_delegate>?)
    throws(HostFailure) -> th_status
  {
    var bridge: PluginAnimationDelegate?
    if let delegate {
      try checkStructSize(UnsafeRawPointer(delegate), minimum: MemoryLayout<th_ca_delegate>.size, "delegate")
      bridge = PluginAnimationDelegate(animator: self, delegate.pointee)
    }
    return try withCoreAnimation(animation) { (a) throws(HostFailure) in a.delegate = bridge }
  }

  func addCoreAnimation(_ layer: th_view, _ animation: th_ca_animation, _ key: UnsafePointer<CChar>?)
    throws(HostFailure) -> th_status
  {
    try require(.animate)
    let node = try viewOrContainer(layer, "layer")
    let a = coreAnimationObjects[try coreAnimationIndex(animation, "animation")]
    guard let scene = node.scene else { throw .wrongPhase("the layer's scene is gone") }
    var refused: SceneMisuse?
    let report = scene.onMisuse
    scene.onMisuse = { refused = $0 }
    node.add(a, forKey: key.map { String(cString: $0) })
    scene.onMisuse = report
    if let refused { throw .invalidValue("animation", refused.description) }
    return TH_OK
  }

  func copyCoreAnimation(_ layer: th_view, _ key: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<th_ca_animation>?)
    throws(HostFailure) -> th_status
  {
    try require(.animate)
    guard let key else { throw .null("key") }
    guard let out else { throw .null("out") }
    let node = try viewOrContainer(layer, "layer")
    guard let a = node.animation(forKey: String(cString: key)) else {
      throw .notFound("no animation for key \"\(String(cString: key))\" on layer \(node.id)")
    }
    coreAnimationObjects.append(a)
    out.pointee = coreAnimationHandle(coreAnimationObjects.count - 1)
    return TH_OK
  }

  func coreAnimationKey(
    _ layer: th_view, _ index: Int, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int,
    _ length: UnsafeMutablePointer<Int>?
  ) throws(HostFailure) -> th_status {
    try require(.read)
    guard let length else { throw .null("out_length") }
    let keys = try viewOrContainer(layer, "layer").animationKeys() ?? []
    guard index < keys.count else { throw .notFound("the layer has \(keys.count) keyed animations") }
    let bytes = Array(keys[index].utf8)
    length.pointee = bytes.count
    guard let buffer, capacity > bytes.count else {
      throw .limit("capacity", "the key needs \(bytes.count + 1) bytes, capacity is \(capacity)")
    }
    for (i, b) in bytes.enumerated() { buffer[i] = CChar(bitPattern: b) }
    buffer[bytes.count] = 0
    return TH_OK
  }

  func setLayerTiming(_ layer: th_view, _ timing: UnsafePointer<th_ca_layer_timing>?) throws(HostFailure)
    -> th_status
  {
    try require(.animate)
    guard let timing else { throw .null("timing") }
    let t = timing.pointee
    guard t.begin_time.isFinite, t.speed.isFinite, t.time_offset.isFinite else {
      throw .invalidValue("timing", "a layer's begin_time, speed and time_offset must be finite")
    }
    try viewOrContainer(layer, "layer").layerTiming = LayerTiming(
      beginTime: t.begin_time, speed: t.speed, timeOffset: t.time_offset)
    return TH_OK
  }

  func transaction(_ body: (Scene) throws(HostFailure) -> Void) throws(HostFailure) -> th_status {
    try require(.animate)
    try body(try engineContext().scene)
    return TH_OK
  }
}

/// A plugin's th_ca_delegate as the engine's delegate: the callbacks run as completions (phase animate).
final class PluginAnimationDelegate: ExplicitAnimationDelegate {
  weak var animator: PluginAnimator?
  let delegate: th_ca_delegate

  init(animator: PluginAnimator, _ delegate: th_ca_delegate) {
    self.animator = animator
    self.delegate = delegate
  }

  func animationDidStart() {
    guard let animator, !animator.isClosed, let start = delegate.did_start else { return }
    let ctx = animator.handle
    animator.callout(.animate, .completion) { start(ctx, delegate.user_data) }
  }

  func animationDidStop(finished: Bool) {
    guard let animator, !animator.isClosed, let stop = delegate.did_stop else { return }
    let ctx = animator.handle
    animator.callout(.animate, .completion) { stop(ctx, finished, delegate.user_data) }
  }
}
