// Applying explicit animations to a presented layer: Core Animation's order (a layer's presentation is its model
// value with its animations applied in the order they were added, each non-additive one replacing what is under
// it, each additive one adding to it), CABasicAnimation's absent-value rules, keyframes and paths.

/// A property value an explicit animation can carry (its `AnimationValue` form) and add (byValue, isAdditive).
protocol ExplicitValue: TrackValue {
  init?(animationValue: AnimationValue)
  var animationValue: AnimationValue { get }
  /// a + b (Core Animation's addition of the type); nil when the type does not add (paths).
  static func sum(_ a: Self, _ b: Self) -> Self?
  /// The x with sum(x, b) = a; nil when the type does not add.
  static func difference(_ a: Self, _ b: Self) -> Self?
  /// `value(of:at:)` of an animation's prepared segment, which may blend into storage the animation keeps from one
  /// sample to the next (`spare`, nil at first): paths do, so a sample of 1,000 animated paths allocates none.
  static func value(of segment: Segment, at fraction: Double, spare: inout AnyObject?) -> Self
}

extension ExplicitValue {
  static func value(of segment: Segment, at fraction: Double, spare: inout AnyObject?) -> Self {
    value(of: segment, at: fraction)
  }
}

extension Double: ExplicitValue {
  init?(animationValue: AnimationValue) {
    guard case .number(let v) = animationValue else { return nil }
    self = v
  }
  var animationValue: AnimationValue { .number(self) }
  static func sum(_ a: Double, _ b: Double) -> Double? { a + b }
  static func difference(_ a: Double, _ b: Double) -> Double? { a - b }
}

extension Point: ExplicitValue {
  init?(animationValue: AnimationValue) {
    guard case .point(let v) = animationValue else { return nil }
    self = v
  }
  var animationValue: AnimationValue { .point(self) }
  static func sum(_ a: Point, _ b: Point) -> Point? { Point(x: a.x + b.x, y: a.y + b.y) }
  static func difference(_ a: Point, _ b: Point) -> Point? { Point(x: a.x - b.x, y: a.y - b.y) }
}

extension Size: ExplicitValue {
  init?(animationValue: AnimationValue) {
    guard case .size(let v) = animationValue else { return nil }
    self = v
  }
  var animationValue: AnimationValue { .size(self) }
  static func sum(_ a: Size, _ b: Size) -> Size? { Size(width: a.width + b.width, height: a.height + b.height) }
  static func difference(_ a: Size, _ b: Size) -> Size? { Size(width: a.width - b.width, height: a.height - b.height) }
}

extension Rect: ExplicitValue {
  init?(animationValue: AnimationValue) {
    guard case .rect(let v) = animationValue else { return nil }
    self = v
  }
  var animationValue: AnimationValue { .rect(self) }
  static func sum(_ a: Rect, _ b: Rect) -> Rect? {
    Rect(
      x: a.origin.x + b.origin.x, y: a.origin.y + b.origin.y, width: a.size.width + b.size.width,
      height: a.size.height + b.size.height)
  }
  static func difference(_ a: Rect, _ b: Rect) -> Rect? {
    Rect(
      x: a.origin.x - b.origin.x, y: a.origin.y - b.origin.y, width: a.size.width - b.size.width,
      height: a.size.height - b.size.height)
  }
}

/// Transforms add by concatenation: a + b applies b first, then a (b, the animated delta, acts in the layer's own
/// frame under the underlying transform).
extension Transform3D: ExplicitValue {
  init?(animationValue: AnimationValue) {
    guard case .transform(let v) = animationValue else { return nil }
    self = v
  }
  var animationValue: AnimationValue { .transform(self) }
  static func sum(_ a: Transform3D, _ b: Transform3D) -> Transform3D? { b.concatenating(a) }
  static func difference(_ a: Transform3D, _ b: Transform3D) -> Transform3D? {
    b.inverted().map { $0.concatenating(a) }
  }
}

/// The wrapped type of an optional explicit value (`Color?`, `Path?`).
protocol ExplicitOptionalWrapped: OptionalTrackWrapped {
  static func fromAnimationValue(_ v: AnimationValue) -> Self??
  static func toAnimationValue(_ v: Self?) -> AnimationValue
  static func sumOptional(_ a: Self?, _ b: Self?) -> Self??
  static func differenceOptional(_ a: Self?, _ b: Self?) -> Self??
  /// `blendOptional`, into storage kept between samples where the type has any (see `ExplicitValue`).
  static func blendOptional(_ a: Self?, _ b: Self?, _ fraction: Double, spare: inout AnyObject?) -> Self?
}

extension ExplicitOptionalWrapped {
  static func blendOptional(_ a: Self?, _ b: Self?, _ fraction: Double, spare: inout AnyObject?) -> Self? {
    blendOptional(a, b, fraction)
  }
}

extension Optional: ExplicitValue where Wrapped: ExplicitOptionalWrapped {
  static func value(of segment: (Wrapped?, Wrapped?), at fraction: Double, spare: inout AnyObject?) -> Wrapped? {
    if fraction == 0 { return segment.0 }
    if fraction == 1 { return segment.1 }
    return Wrapped.blendOptional(segment.0, segment.1, fraction, spare: &spare)
  }

  init?(animationValue: AnimationValue) {
    guard let v = Wrapped.fromAnimationValue(animationValue) else { return nil }
    self = v
  }
  var animationValue: AnimationValue { Wrapped.toAnimationValue(self) }
  static func sum(_ a: Wrapped?, _ b: Wrapped?) -> Wrapped?? { Wrapped.sumOptional(a, b) }
  static func difference(_ a: Wrapped?, _ b: Wrapped?) -> Wrapped?? { Wrapped.differenceOptional(a, b) }
}

/// Colours add componentwise (none counts as transparent black).
extension Color: ExplicitOptionalWrapped {
  static func fromAnimationValue(_ v: AnimationValue) -> Color?? {
    guard case .color(let c) = v else { return nil }
    return .some(c)
  }
  static func toAnimationValue(_ v: Color?) -> AnimationValue { .color(v) }
  static func sumOptional(_ a: Color?, _ b: Color?) -> Color?? {
    let x = a ?? Color(r: 0, g: 0, b: 0, a: 0)
    let y = b ?? Color(r: 0, g: 0, b: 0, a: 0)
    return .some(Color(r: x.r + y.r, g: x.g + y.g, b: x.b + y.b, a: x.a + y.a))
  }
  static func differenceOptional(_ a: Color?, _ b: Color?) -> Color?? {
    let x = a ?? Color(r: 0, g: 0, b: 0, a: 0)
    let y = b ?? Color(r: 0, g: 0, b: 0, a: 0)
    return .some(Color(r: x.r - y.r, g: x.g - y.g, b: x.b - y.b, a: x.a - y.a))
  }
}

/// Paths do not add: a byValue or an additive path animation has no effect.
extension Path: ExplicitOptionalWrapped {
  static func fromAnimationValue(_ v: AnimationValue) -> Path?? {
    guard case .path(let p) = v else { return nil }
    return .some(p)
  }
  static func toAnimationValue(_ v: Path?) -> AnimationValue { .path(v) }
  static func sumOptional(_ a: Path?, _ b: Path?) -> Path?? { nil }
  static func differenceOptional(_ a: Path?, _ b: Path?) -> Path?? { nil }

  /// Blends into the storage of the result two samples back (`PathSpares`): the previous sample's result may still be
  /// held (a delta frame's baseline compares against it), the one before is free again by then, so in a steady stream
  /// neither sample allocates. Storage someone still holds is never written: `Path.interpolate(from:to:fraction:into:)`
  /// changes it through Array's copy-on-write, which copies it first.
  static func blendOptional(_ a: Path?, _ b: Path?, _ fraction: Double, spare: inout AnyObject?) -> Path? {
    guard let a, let b else { return a }
    let spares: PathSpares
    if let kept = spare {
      spares = unsafeDowncast(kept, to: PathSpares.self)
    } else {
      spares = PathSpares()
      spare = spares
    }
    return spares.blend(from: a, to: b, fraction: fraction)
  }
}

/// The two results an animated path blends into in turn (see `Path.blendOptional(_:_:_:spare:)`).
final class PathSpares {
  private var even: Path?
  private var odd: Path?
  private var turn = false

  func blend(from a: Path, to b: Path, fraction: Double) -> Path {
    defer { turn.toggle() }
    // Moved out of its slot first, so this object does not count as a second holder of the storage.
    var path = (turn ? odd.take() : even.take()) ?? Path()
    Path.interpolate(from: a, to: b, fraction: fraction, into: &path)
    if turn { odd = path } else { even = path }
    return path
  }
}

// MARK: - Channels: what a key path reads and writes in a presented value

/// How a key path reads and writes its value in a layer's values (direct accessors rather than Swift key paths, whose
/// runtime application costs more on every sample of every animation).
/// `get` reads through the pointer in place: taking the values as an argument copied all of them (and retained their
/// references) for every animation of every sample.
struct Channel<V: ExplicitValue> {
  let get: (UnsafeMutablePointer<AnimatableValues>) -> V
  let set: (inout AnimatableValues, V) -> Void

  init(
    get: @escaping (UnsafeMutablePointer<AnimatableValues>) -> V,
    set: @escaping (inout AnimatableValues, V) -> Void
  ) {
    self.get = get
    self.set = set
  }

}

/// Something done with a key path's channel, with its value type known.
protocol ChannelVisitor {
  associatedtype Result
  func visit<V: ExplicitValue>(_ channel: Channel<V>) -> Result
}

extension AnimationKeyPath {
  /// Calls the visitor with the typed channel of this key path.
  func accept<Visitor: ChannelVisitor>(_ visitor: Visitor) -> Visitor.Result {
    switch self {
    case .transformComponent(let component, let sublayer):
      let path: WritableKeyPath<AnimatableValues, Transform3D> = sublayer ? \.sublayerTransform : \.transform
      return visitor.visit(
        Channel<Double>(
          get: { $0.pointee[keyPath: path][component] },
          set: { $0[keyPath: path] = $0[keyPath: path].setting(component, to: $1) }))
    case .member(let key, let member):
      return Self.member(key, member, visitor)
    case .property(let key):
      return Self.property(key, visitor)
    }
  }

  private static func property<Visitor: ChannelVisitor>(_ key: PropertyKey, _ v: Visitor) -> Visitor.Result {
    switch key {
    case .bounds: v.visit(Channel<Rect>(get: { $0.pointee.bounds }, set: { $0.bounds = $1 }))
    case .position: v.visit(Channel<Point>(get: { $0.pointee.position }, set: { $0.position = $1 }))
    case .anchorPoint: v.visit(Channel<Point>(get: { $0.pointee.anchorPoint }, set: { $0.anchorPoint = $1 }))
    case .transform: v.visit(Channel<Transform3D>(get: { $0.pointee.transform }, set: { $0.transform = $1 }))
    case .sublayerTransform:
      v.visit(Channel<Transform3D>(get: { $0.pointee.sublayerTransform }, set: { $0.sublayerTransform = $1 }))
    case .alpha: v.visit(Channel<Double>(get: { $0.pointee.alpha }, set: { $0.alpha = $1 }))
    case .zPosition: v.visit(Channel<Double>(get: { $0.pointee.zPosition }, set: { $0.zPosition = $1 }))
    case .cornerRadius: v.visit(Channel<Double>(get: { $0.pointee.cornerRadius }, set: { $0.cornerRadius = $1 }))
    case .backgroundColor:
      v.visit(Channel<Color?>(get: { $0.pointee.backgroundColor }, set: { $0.backgroundColor = $1 }))
    // The gradient is one engine value, not a Core Animation key path (AnimationKeyPath never names it).
    case .gradient: v.visit(Channel<Double>(get: { $0.pointee.alpha }, set: { $0.alpha = $1 }))
    case .anchorPointZ: v.visit(Channel<Double>(get: { $0.pointee.anchorPointZ }, set: { $0.anchorPointZ = $1 }))
    case .borderWidth: v.visit(Channel<Double>(get: { $0.pointee.borderWidth }, set: { $0.borderWidth = $1 }))
    case .borderColor: v.visit(Channel<Color?>(get: { $0.pointee.borderColor }, set: { $0.borderColor = $1 }))
    case .shadowColor: v.visit(Channel<Color?>(get: { $0.pointee.shadowColor }, set: { $0.shadowColor = $1 }))
    case .shadowOpacity: v.visit(Channel<Double>(get: { $0.pointee.shadowOpacity }, set: { $0.shadowOpacity = $1 }))
    case .shadowRadius: v.visit(Channel<Double>(get: { $0.pointee.shadowRadius }, set: { $0.shadowRadius = $1 }))
    case .shadowOffset: v.visit(Channel<Size>(get: { $0.pointee.shadowOffset }, set: { $0.shadowOffset = $1 }))
    case .shadowPath: v.visit(Channel<Path?>(get: { $0.pointee.shadowPath }, set: { $0.shadowPath = $1 }))
    case .path: v.visit(Channel<Path?>(get: { $0.pointee.path }, set: { $0.path = $1 }))
    case .fillColor: v.visit(Channel<Color?>(get: { $0.pointee.fillColor }, set: { $0.fillColor = $1 }))
    case .strokeColor: v.visit(Channel<Color?>(get: { $0.pointee.strokeColor }, set: { $0.strokeColor = $1 }))
    case .lineWidth: v.visit(Channel<Double>(get: { $0.pointee.lineWidth }, set: { $0.lineWidth = $1 }))
    case .strokeStart: v.visit(Channel<Double>(get: { $0.pointee.strokeStart }, set: { $0.strokeStart = $1 }))
    case .strokeEnd: v.visit(Channel<Double>(get: { $0.pointee.strokeEnd }, set: { $0.strokeEnd = $1 }))
    case .lineDashPhase: v.visit(Channel<Double>(get: { $0.pointee.lineDashPhase }, set: { $0.lineDashPhase = $1 }))
    }
  }

  private static func member<Visitor: ChannelVisitor>(
    _ key: PropertyKey, _ member: GeometryMember, _ v: Visitor
  ) -> Visitor.Result {
    switch (key, member) {
    case (.bounds, .size):
      return v.visit(Channel<Size>(get: { $0.pointee.bounds.size }, set: { $0.bounds.size = $1 }))
    case (.bounds, .origin):
      return v.visit(Channel<Point>(get: { $0.pointee.bounds.origin }, set: { $0.bounds.origin = $1 }))
    case (.bounds, .width):
      return v.visit(Channel<Double>(get: { $0.pointee.bounds.size.width }, set: { $0.bounds.size.width = $1 }))
    case (.bounds, .height):
      return v.visit(Channel<Double>(get: { $0.pointee.bounds.size.height }, set: { $0.bounds.size.height = $1 }))
    case (.bounds, .x):
      return v.visit(Channel<Double>(get: { $0.pointee.bounds.origin.x }, set: { $0.bounds.origin.x = $1 }))
    case (.bounds, .y):
      return v.visit(Channel<Double>(get: { $0.pointee.bounds.origin.y }, set: { $0.bounds.origin.y = $1 }))
    case (.anchorPoint, .x):
      return v.visit(Channel<Double>(get: { $0.pointee.anchorPoint.x }, set: { $0.anchorPoint.x = $1 }))
    case (.anchorPoint, .y):
      return v.visit(Channel<Double>(get: { $0.pointee.anchorPoint.y }, set: { $0.anchorPoint.y = $1 }))
    case (.shadowOffset, .width):
      return v.visit(Channel<Double>(get: { $0.pointee.shadowOffset.width }, set: { $0.shadowOffset.width = $1 }))
    case (.shadowOffset, .height):
      return v.visit(Channel<Double>(get: { $0.pointee.shadowOffset.height }, set: { $0.shadowOffset.height = $1 }))
    case (_, .x):
      return v.visit(Channel<Double>(get: { $0.pointee.position.x }, set: { $0.position.x = $1 }))
    default:
      return v.visit(Channel<Double>(get: { $0.pointee.position.y }, set: { $0.position.y = $1 }))
    }
  }
}

/// Whether every value of an animation has the key path's type (checked when it is added).
struct ValueTypeCheck: ChannelVisitor {
  let values: [AnimationValue]

  func visit<V: ExplicitValue>(_ channel: Channel<V>) -> Bool {
    values.allSatisfy { V(animationValue: $0) != nil }
  }
}

/// A key path's value in some layer values, as an `AnimationValue`.
struct ReadChannel: ChannelVisitor {
  let values: AnimatableValues

  func visit<V: ExplicitValue>(_ channel: Channel<V>) -> AnimationValue {
    var copy = values
    return withUnsafeMutablePointer(to: &copy) { channel.get($0).animationValue }
  }
}

// MARK: - Resolved animations

/// An animation as it runs on a layer: its key path parsed, its durations and begin time resolved, and the
/// tables it needs built once (keyframes, a path's arc lengths).
final class ResolvedAnimation {
  let kind: ExplicitAnimation.Kind
  let keyPath: AnimationKeyPath?
  // The four `var`s below are read for every animation of every sample and changed only outside one (or, the
  // caches, on its first use): unchecked, so a sample pays no dynamic exclusivity check for them.
  @exclusivity(unchecked) var timing: MediaTiming
  let timingFunction: TimingCurve?
  let isAdditive: Bool
  let children: [ResolvedAnimation]
  /// The spring of a CASpringAnimation, lasting the resolved duration.
  let spring: Spring?
  /// The key path's value before the current turn's model writes (CABasicAnimation's rule with no value set).
  var previous: AnimationValue?
  /// Keyframe or path tables, built on first use (typed by the key path's value).
  @exclusivity(unchecked) var cache: AnyObject?
  /// Whether `cache` is the `FixedEnds` of the key path's value type (a basic or spring animation with two of its
  /// three values set, prepared).
  @exclusivity(unchecked) var hasFixedEnds = false
  /// The key path's typed application, built on first use (so a sample makes no channel).
  @exclusivity(unchecked) var applier: ((UnsafeMutablePointer<AnimatableValues>, Double) -> Void)?

  init(_ a: ExplicitAnimation, keyPath: AnimationKeyPath?, defaultDuration: Double) {
    kind = a.kind
    self.keyPath = keyPath
    timing = a.timing
    timingFunction = a.timingFunction
    isAdditive = a.isAdditive
    var spring: Spring?
    if case .spring(_, _, _, let spec) = a.kind {
      // CONVENTIONS "Spring durations": a mass/stiffness spring lasts its settling duration unless a duration is
      // given; progress is the closed form for the whole duration and exactly 1 from its end.
      let s = spec.spring(duration: a.timing.duration > 0 ? a.timing.duration : nil)
      timing.duration = s.duration
      spring = s
    } else if timing.duration <= 0 || !timing.duration.isFinite {
      timing.duration = defaultDuration
    }
    self.spring = spring
    if case .group(let members) = a.kind {
      let d = timing.duration
      children = members.map {
        ResolvedAnimation($0, keyPath: $0.keyPath.flatMap(AnimationKeyPath.init), defaultDuration: d)
      }
    } else {
      children = []
    }
  }

  /// The progress of a basic or spring animation at basic time b.
  func progress(basic b: Double) -> Double {
    if let spring { return spring.progress(at: b) }
    let d = timing.duration
    let fraction = d > 0 ? min(max(b / d, 0), 1) : 1
    return timingFunction?.progress(at: fraction) ?? fraction
  }
}

/// The prepared blend of a basic or spring animation whose ends are fixed (see `ApplyAnimation.visit`).
final class FixedEnds<V: TrackValue>: @unchecked Sendable {
  let segment: V.Segment
  /// Storage the blend reuses from sample to sample (`ExplicitValue.value(of:at:spare:)`); only changed by it.
  @exclusivity(unchecked) var spare: AnyObject?
  init(_ segment: V.Segment) { self.segment = segment }
}

extension ExplicitAnimation.Kind {
  /// A basic or spring animation's from, to and by values, as a `.basic` (the spring's parameters left out).
  var basicValues: ExplicitAnimation.Kind {
    if case .spring(let from, let to, let by, _) = self { return .basic(from: from, to: to, by: by) }
    return self
  }
}

/// The keyframe track of an animation, typed.
final class KeyframeCache<Key: Interpolatable>: @unchecked Sendable {
  let keyframes: Keyframes<Key>?
  init(_ keyframes: Keyframes<Key>?) { self.keyframes = keyframes }
}

/// The path of a path keyframe animation, prepared.
final class PathCache: @unchecked Sendable {
  let motion: PathMotion
  init(_ motion: PathMotion) { self.motion = motion }
}

// MARK: - Applying

/// Builds an animation's typed application once: the channel of its key path, captured.
struct MakeApplier: ChannelVisitor {
  unowned let animation: ResolvedAnimation

  func visit<V: ExplicitValue>(_ channel: Channel<V>) -> (UnsafeMutablePointer<AnimatableValues>, Double) -> Void {
    { [unowned animation] values, basic in
      ApplyAnimation(animation: animation, basic: basic, values: values).visit(channel)
    }
  }
}

/// Applies one resolved animation (and a group's children) to a layer's values at its layer's local time.
struct ApplyAnimation: ChannelVisitor {
  let animation: ResolvedAnimation
  /// The basic local time of the animation.
  let basic: Double
  let values: UnsafeMutablePointer<AnimatableValues>

  func visit<V: ExplicitValue>(_ channel: Channel<V>) {
    let a = animation
    if a.hasFixedEnds {
      // Almost every animation: its prepared blend, with no dynamic cast, no look at its kind and, unless it is
      // additive, no read of the value under it (a path read is a copy and a retain). The same numbers as below.
      let fixed = unsafeDowncast(a.cache.unsafelyUnwrapped, to: FixedEnds<V>.self)
      var value = V.value(of: fixed.segment, at: a.progress(basic: basic), spare: &fixed.spare)
      if a.isAdditive {
        guard let sum = V.sum(channel.get(values), value) else { return }
        value = sum
      }
      channel.set(&values.pointee, value)
      return
    }
    let underlying = channel.get(values)
    let base: V = a.isAdditive ? Self.zero(like: underlying) : underlying
    var result: V?
    switch a.kind {
    case .basic, .spring:
      if let fixed = a.cache as? FixedEnds<V> {
        result = V.value(of: fixed.segment, at: a.progress(basic: basic), spare: &fixed.spare)
        break
      }
      guard case .basic(let from, let to, let by) = a.kind.basicValues,
        let (start, end) = Self.ends(from: from, to: to, by: by, underlying: base, previous: a.previous)
      else { return }
      let segment = V.segment(from: start, to: end)
      // Two of the three values set: the ends do not depend on what is under the animation, so they are typed and
      // prepared once (no enum copy, value conversion or segment per sample).
      if [from, to, by].lazy.filter({ $0 != nil }).count >= 2 {
        a.cache = FixedEnds<V>(segment)
        a.hasFixedEnds = true
      }
      result = V.value(of: segment, at: a.progress(basic: basic))
    case .keyframes(let spec):
      let d = a.timing.duration
      let linear = d > 0 ? min(max(basic / d, 0), 1) : 1
      let fraction = a.timingFunction?.progress(at: linear) ?? linear
      if let path = spec.path, V.self == Point.self {
        let motion = pathMotion(path, spec)
        let (point, angle) = motion.sample(at: fraction)
        result = point as? V
        if let mode = spec.rotationMode {
          let turn = angle + (mode == .autoReverse ? Double.pi : 0)
          values.pointee.transform = Transform3D(rotationAngle: turn, x: 0, y: 0, z: 1).concatenating(
            values.pointee.transform)
        }
      } else {
        guard let track = keyframes(V.self, spec)?.keyframes else { return }
        result = V.fromKeyValue(track.value(at: fraction))
      }
    case .group:
      return
    }
    guard var value = result else { return }
    if a.isAdditive {
      guard let sum = V.sum(underlying, value) else { return }
      value = sum
    }
    channel.set(&values.pointee, value)
  }

  /// CABasicAnimation's interpolation values, https://developer.apple.com/documentation/quartzcore/cabasicanimation
  /// ("Setting Interpolation Values"): "All are optional, and no more than two should be non-nil."
  ///  1. fromValue and toValue: between fromValue and toValue.
  ///  2. fromValue and byValue: between fromValue and fromValue + byValue.
  ///  3. byValue and toValue: between toValue − byValue and toValue.
  ///  4. fromValue only: between fromValue and the current presentation value of the property.
  ///  5. toValue only: between the current value of keyPath in the presentation layer and toValue.
  ///  6. byValue only: between that current value and that value plus byValue.
  ///  7. none: between the previous value of keyPath in the render tree and its current value.
  ///  8. all three (which the rule says not to do): fromValue and toValue, byValue ignored.
  /// "The current value" is the value under this animation at each sample (the model with the blocks and the
  /// animations added before it), so it follows what is under it as Core Animation's render tree does. A type
  /// that does not add (paths) has no ends for rules 2, 3 and 6: the animation shows nothing.
  static func ends<V: ExplicitValue>(
    from: AnimationValue?, to: AnimationValue?, by: AnimationValue?, underlying: V, previous: AnimationValue?
  ) -> (V, V)? {
    let f = from.flatMap(V.init(animationValue:))
    let t = to.flatMap(V.init(animationValue:))
    let b = by.flatMap(V.init(animationValue:))
    switch (f, t, b) {
    case (let f?, let t?, _): return (f, t)
    case (let f?, nil, let b?): return V.sum(f, b).map { (f, $0) }
    case (nil, let t?, let b?): return V.difference(t, b).map { ($0, t) }
    case (let f?, nil, nil): return (f, underlying)
    case (nil, let t?, nil): return (underlying, t)
    case (nil, nil, let b?): return V.sum(underlying, b).map { (underlying, $0) }
    case (nil, nil, nil): return (previous.flatMap(V.init(animationValue:)) ?? underlying, underlying)
    }
  }

  /// The additive identity of a value's type (an additive animation's absent ends start from it).
  static func zero<V: ExplicitValue>(like v: V) -> V {
    V.difference(v, v) ?? v
  }

  private func keyframes<V: ExplicitValue>(_ type: V.Type, _ spec: ExplicitAnimation.KeyframeSpec)
    -> KeyframeCache<V.KeyValue>?
  {
    if let cache = animation.cache as? KeyframeCache<V.KeyValue> { return cache }
    let keys = (spec.values ?? []).compactMap { V(animationValue: $0) }.map(V.keyValue)
    let cache = KeyframeCache(
      Keyframes(
        values: keys, keyTimes: spec.keyTimes, timingFunctions: spec.timingFunctions, mode: spec.calculationMode))
    animation.cache = cache
    return cache
  }

  private func pathMotion(_ path: Path, _ spec: ExplicitAnimation.KeyframeSpec) -> PathMotion {
    if let cache = animation.cache as? PathCache { return cache.motion }
    let motion = PathMotion(
      path: path, keyTimes: spec.keyTimes, timingFunctions: spec.timingFunctions,
      mode: spec.calculationMode)
    animation.cache = PathCache(motion)
    return motion
  }
}

extension ResolvedAnimation {
  /// Applies this animation to `values` at parent time `tp` (the layer's local time; a group's basic time for a
  /// child). `removesAtEnd`: the animation leaves the layer at its end (top level, `isRemovedOnCompletion`), so it
  /// shows nothing after it whatever its fill mode.
  func apply(to values: UnsafeMutablePointer<AnimatableValues>, parentTime tp: Double, removesAtEnd: Bool) {
    let basic: Double
    switch timing.hasOnePlainCycle
      ? timing.plainPhase(parentTime: tp) : timing.phase(parentTime: tp, duration: timing.duration)
    {
    case .before:
      guard timing.fillMode.fillsBackwards else { return }
      basic = timing.basicTime(active: timing.timeOffset, duration: timing.duration)
    case .active(let b):
      basic = b
    case .after(let b):
      guard !removesAtEnd, timing.fillMode.fillsForwards else { return }
      basic = b
    }
    if case .group = kind {
      // Children run in the group's basic local time, clipped to the group's duration.
      let t = min(basic, timing.duration)
      for child in children {
        child.apply(to: values, parentTime: t, removesAtEnd: false)
      }
      return
    }
    guard let keyPath else { return }
    if applier == nil { applier = keyPath.accept(MakeApplier(animation: self)) }
    applier?(values, basic)
  }

  /// The property keys this animation (and a group's children) changes.
  var propertyKeys: [PropertyKey] {
    if case .group = kind { return children.flatMap(\.propertyKeys) }
    guard let keyPath else { return [] }
    if case .keyframes(let spec) = kind, spec.path != nil, spec.rotationMode != nil {
      return [keyPath.propertyKey, .transform]
    }
    return [keyPath.propertyKey]
  }
}

extension MediaTiming {
  /// Whether the animation plays its duration once at normal speed (speed 1, no time offset, repeat or autoreverse,
  /// a finite positive duration): the timing of almost every animation, whose phase needs no remainder.
  var hasOnePlainCycle: Bool {
    speed == 1 && timeOffset == 0 && repeatCount == 0 && repeatDuration == 0 && !autoreverses && duration > 0
      && duration < .infinity
  }

  /// `phase(parentTime:duration:)` for a timing with `hasOnePlainCycle`, without its remainders (`fmod`): the elapsed
  /// time itself inside the one cycle, exactly what the general rule gives then (a remainder of a time below the
  /// duration is that time; `+ 0` turns −0 into 0, as adding the zero time offset does there).
  func plainPhase(parentTime tp: Double) -> TimingPhase {
    let elapsed = tp - beginTime
    if elapsed < 0 { return .before }
    if elapsed >= duration { return .after(basic: duration) }
    return .active(basic: elapsed + 0)
  }
}

// MARK: - Paths

/// A point moving along a path (CAKeyframeAnimation.path): each element after the first move is a segment whose
/// end is a keyframe, reached at its key time (evenly spaced unless `keyTimes` has one per vertex); `paced` and
/// `cubicPaced` move at constant speed along the path's length. The tangent gives `rotationMode`'s angle.
struct PathMotion {
  enum Segment {
    case line(Point, Point)
    case quad(Point, Point, Point)
    case cubic(Point, Point, Point, Point)

    func point(_ u: Double) -> Point {
      switch self {
      case .line(let a, let b):
        return Point(x: a.x + (b.x - a.x) * u, y: a.y + (b.y - a.y) * u)
      case .quad(let a, let c, let b):
        let v = 1 - u
        return Point(x: v * v * a.x + 2 * v * u * c.x + u * u * b.x, y: v * v * a.y + 2 * v * u * c.y + u * u * b.y)
      case .cubic(let a, let c1, let c2, let b):
        let v = 1 - u
        let (w0, w1, w2, w3) = (v * v * v, 3 * v * v * u, 3 * v * u * u, u * u * u)
        return Point(
          x: w0 * a.x + w1 * c1.x + w2 * c2.x + w3 * b.x, y: w0 * a.y + w1 * c1.y + w2 * c2.y + w3 * b.y)
      }
    }

    func derivative(_ u: Double) -> Point {
      switch self {
      case .line(let a, let b):
        return Point(x: b.x - a.x, y: b.y - a.y)
      case .quad(let a, let c, let b):
        return Point(
          x: 2 * (1 - u) * (c.x - a.x) + 2 * u * (b.x - c.x), y: 2 * (1 - u) * (c.y - a.y) + 2 * u * (b.y - c.y))
      case .cubic(let a, let c1, let c2, let b):
        let v = 1 - u
        return Point(
          x: 3 * v * v * (c1.x - a.x) + 6 * v * u * (c2.x - c1.x) + 3 * u * u * (b.x - c2.x),
          y: 3 * v * v * (c1.y - a.y) + 6 * v * u * (c2.y - c1.y) + 3 * u * u * (b.y - c2.y))
      }
    }

    var start: Point {
      switch self {
      case .line(let a, _), .quad(let a, _, _), .cubic(let a, _, _, _): a
      }
    }

    var end: Point {
      switch self {
      case .line(_, let b), .quad(_, _, let b), .cubic(_, _, _, let b): b
      }
    }
  }

  let segments: [Segment]
  let start: Point
  let keyTimes: [Double]
  let timingFunctions: [TimingCurve]?
  let mode: KeyframeCalculationMode
  /// Per segment, the cumulative length at `chords` uniform parameter steps (paced modes).
  let arcTables: [[Double]]
  let totalLength: Double
  static let chords = 64

  init(path: Path, keyTimes: [Double]?, timingFunctions: [TimingCurve]?, mode: KeyframeCalculationMode) {
    var segments: [Segment] = []
    var current = Point.zero
    var subpathStart = Point.zero
    var first: Point?
    for e in path.elements {
      switch e {
      case .move(let p):
        current = p
        subpathStart = p
        if first == nil { first = p }
      case .line(let p):
        segments.append(.line(current, p))
        current = p
      case .quadCurve(let p, let c):
        segments.append(.quad(current, c, p))
        current = p
      case .curve(let p, let c1, let c2):
        segments.append(.cubic(current, c1, c2, p))
        current = p
      case .closeSubpath:
        if current != subpathStart { segments.append(.line(current, subpathStart)) }
        current = subpathStart
      }
    }
    self.segments = segments
    start = first ?? .zero
    let n = segments.count
    if let keyTimes, keyTimes.count == n + 1, zip(keyTimes, keyTimes.dropFirst()).allSatisfy({ $0 <= $1 }) {
      self.keyTimes = keyTimes
    } else {
      self.keyTimes = (0...max(n, 0)).map { n == 0 ? 0 : Double($0) / Double(n) }
    }
    self.timingFunctions = timingFunctions
    self.mode = mode
    var tables: [[Double]] = []
    var total = 0.0
    for s in segments {
      var table = [0.0]
      var previous = s.point(0)
      var length = 0.0
      for k in 1...Self.chords {
        let p = s.point(Double(k) / Double(Self.chords))
        length += ((p.x - previous.x) * (p.x - previous.x) + (p.y - previous.y) * (p.y - previous.y)).squareRoot()
        table.append(length)
        previous = p
      }
      tables.append(table)
      total += length
    }
    arcTables = tables
    totalLength = total
  }

  /// The point and the tangent's angle (atan2(dy, dx), y down) at `fraction` of the animation.
  func sample(at fraction: Double) -> (Point, Double) {
    guard !segments.isEmpty else { return (start, 0) }
    let f = min(max(fraction, 0), 1)
    let (i, u) = location(at: f)
    let s = segments[i]
    var d = s.derivative(u)
    if d.x == 0 && d.y == 0 { d = Point(x: s.end.x - s.start.x, y: s.end.y - s.start.y) }
    return (s.point(u), arcTangent2(d.y, d.x))
  }

  /// The segment and its parameter at `f`.
  private func location(at f: Double) -> (Int, Double) {
    let n = segments.count
    switch mode {
    case .paced, .cubicPaced:
      var target = f * totalLength
      for i in 0..<n {
        let table = arcTables[i]
        let length = table[table.count - 1]
        if target <= length || i == n - 1 {
          target = min(target, length)
          var k = 1
          while k < table.count - 1 && table[k] < target { k += 1 }
          let span = table[k] - table[k - 1]
          let within = span > 0 ? (target - table[k - 1]) / span : 0
          return (i, (Double(k - 1) + within) / Double(Self.chords))
        }
        target -= length
      }
      return (n - 1, 1)
    case .discrete:
      var i = 0
      while i < n && keyTimes[i + 1] <= f { i += 1 }
      return i >= n ? (n - 1, 1) : (i, 0)
    case .linear, .cubic:
      var i = 0
      while i < n - 1 && keyTimes[i + 1] < f { i += 1 }
      let span = keyTimes[i + 1] - keyTimes[i]
      var u = span > 0 ? (f - keyTimes[i]) / span : 1
      u = min(max(u, 0), 1)
      if let functions = timingFunctions, !functions.isEmpty {
        u = functions[min(i, functions.count - 1)].progress(at: u)
      }
      return (i, u)
    }
  }
}
