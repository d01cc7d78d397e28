// Per-property animation history and how a write becomes an animation (UIKit's action mechanism, Core
// Animation's non-additive replace semantics).
//
// Each animatable property of a view keeps, once it is animated or changed after the view's creation, a `Track`:
// the value before any record (`base`) and the records in (time, creation) order. A record is either a `set`
// (an immediate write) or an animation (basic or keyframes) from the presentation value at its creation time
// to the model value. At time t the presented value is:
//   - the latest animation record created at or before t, if t is before its end (its from value during its
//     delay: UIKit's delayed animations fill backwards) — a later animation of the same property replaces an
//     earlier one from its creation on (CA `addAnimation:forKey:` with the property as key);
//   - otherwise the model value as of t (the latest record's `to`, or `base`).
// An immediate write does not remove a running animation (setting a layer's model value does not), so the
// animation keeps presenting until its end and then the new model value shows.
//
// Layer timing (CAMediaTiming of the layers: speed, timeOffset, beginTime) composes into block animations as into
// explicit ones: UIKit adds a block's animations to the layers as CAAnimations, so an animation's begin and end are
// in its layer's local time (the layer's local time when the block ran, plus the delay), `time` (creation) stays on
// the timeline, and a sample at timeline time t reads each animation at its layer's local time then
// (`View.timeMap`, the one map explicit animations use). With every layer at the default timing the local time is
// the timeline time. A property animator's records begin and end on the timeline (the animator adds and removes
// them), and their progress comes from the animator, which reads each record's layer time (`animatorLane`).

/// A value an animatable property holds: how two values blend and how they enter a keyframe track.
package protocol TrackValue: Equatable {
  /// Precomputed data for blending two values (e.g. decomposed matrices).
  associatedtype Segment
  /// The form the value takes in a keyframe track.
  associatedtype KeyValue: Interpolatable
  /// Whether every number in the value is finite (non-finite values are never stored).
  var isFiniteValue: Bool { get }
  /// Prepares the blend from `from` to `to`.
  static func segment(from: Self, to: Self) -> Segment
  /// The blend at `fraction` (0 = from, 1 = to; springs may go outside [0, 1]).
  static func value(of segment: Segment, at fraction: Double) -> Self
  /// The keyframe form of a value.
  static func keyValue(_ value: Self) -> KeyValue
  /// A value from its keyframe form.
  static func fromKeyValue(_ key: KeyValue) -> Self
}

extension TrackValue where Self: Interpolatable, Segment == (Self, Self), KeyValue == Self {
  package static func segment(from: Self, to: Self) -> (Self, Self) { (from, to) }
  package static func value(of segment: (Self, Self), at fraction: Double) -> Self {
    interpolate(from: segment.0, to: segment.1, fraction: fraction)
  }
  package static func keyValue(_ value: Self) -> Self { value }
  package static func fromKeyValue(_ key: Self) -> Self { key }
}

extension Double: TrackValue {
  package typealias Segment = (Double, Double)
  package var isFiniteValue: Bool { isFinite }
}

extension Point: TrackValue {
  package typealias Segment = (Point, Point)
  package var isFiniteValue: Bool { x.isFinite && y.isFinite }
}

extension Rect: TrackValue {
  package typealias Segment = (Rect, Rect)
  package var isFiniteValue: Bool {
    origin.x.isFinite && origin.y.isFinite && size.width.isFinite && size.height.isFinite
  }
}

extension Transform3D: TrackValue {
  package var isFiniteValue: Bool { isFinite }
  /// Decomposes both ends once per animation, not per sample.
  package static func segment(from: Transform3D, to: Transform3D) -> Transform3DInterpolation {
    Transform3DInterpolation(from: from, to: to)
  }
  package static func value(of segment: Transform3DInterpolation, at fraction: Double) -> Transform3D {
    segment.value(at: fraction)
  }
  package static func keyValue(_ value: Transform3D) -> Transform3D { value }
  package static func fromKeyValue(_ key: Transform3D) -> Transform3D { key }
}

/// Background colours: nil (no colour) is transparent. A blend between nil and a colour fades that colour's
/// alpha (what a premultiplied blend from clear shows); in keyframe tracks nil counts as `Color.clear`.
extension Optional: TrackValue where Wrapped: OptionalTrackWrapped {
  package typealias Segment = (Wrapped?, Wrapped?)
  package typealias KeyValue = Wrapped.OptionalKey
  package var isFiniteValue: Bool { self?.isFiniteValue ?? true }
  package static func segment(from: Wrapped?, to: Wrapped?) -> (Wrapped?, Wrapped?) { (from, to) }
  package static func value(of segment: (Wrapped?, Wrapped?), at fraction: Double) -> Wrapped? {
    if fraction == 0 { return segment.0 }
    if fraction == 1 { return segment.1 }
    return Wrapped.blendOptional(segment.0, segment.1, fraction)
  }
  package static func keyValue(_ value: Wrapped?) -> Wrapped.OptionalKey { Wrapped.optionalKey(value) }
  package static func fromKeyValue(_ key: Wrapped.OptionalKey) -> Wrapped? { Wrapped.fromOptionalKey(key) }
}

/// A type whose optional is an animatable property value (`Color?`, `Gradient?`).
package protocol OptionalTrackWrapped: Equatable {
  /// The keyframe form of an optional value.
  associatedtype OptionalKey: Interpolatable
  /// Whether every number is finite.
  var isFiniteValue: Bool { get }
  /// The blend between two optional values at a fraction strictly between 0 and 1.
  static func blendOptional(_ a: Self?, _ b: Self?, _ fraction: Double) -> Self?
  /// The keyframe form.
  static func optionalKey(_ value: Self?) -> OptionalKey
  /// Back from the keyframe form.
  static func fromOptionalKey(_ key: OptionalKey) -> Self?
}

extension Color: OptionalTrackWrapped {
  package var isFiniteValue: Bool { r.isFinite && g.isFinite && b.isFinite && a.isFinite }
  package static func blendOptional(_ a: Color?, _ b: Color?, _ fraction: Double) -> Color? {
    switch (a, b) {
    case (let x?, let y?): return .interpolate(from: x, to: y, fraction: fraction)
    case (nil, let y?): return .interpolate(from: Color(r: y.r, g: y.g, b: y.b, a: 0), to: y, fraction: fraction)
    case (let x?, nil): return .interpolate(from: x, to: Color(r: x.r, g: x.g, b: x.b, a: 0), fraction: fraction)
    case (nil, nil): return nil
    }
  }
  package static func optionalKey(_ value: Color?) -> Color { value ?? .clear }
  package static func fromOptionalKey(_ key: Color) -> Color? { key }
}

extension Gradient: OptionalTrackWrapped {
  package var isFiniteValue: Bool {
    colors.allSatisfy(\.isFiniteValue) && (locations?.allSatisfy(\.isFinite) ?? true) && startPoint.isFiniteValue
      && endPoint.isFiniteValue
  }
  /// Between a gradient and none there is nothing to blend: the value changes at 0.5 (CSS's discrete rule).
  package static func blendOptional(_ a: Gradient?, _ b: Gradient?, _ fraction: Double) -> Gradient? {
    if let a, let b { return .interpolate(from: a, to: b, fraction: fraction) }
    return fraction < 0.5 ? a : b
  }
  package static func optionalKey(_ value: Gradient?) -> OptionalGradient { OptionalGradient(value: value) }
  package static func fromOptionalKey(_ key: OptionalGradient) -> Gradient? { key.value }
}

/// A gradient or none, as a keyframe value: blends as gradients when both are present, else discretely at 0.5.
package typealias OptionalGradient = OptionalKeyValue<Gradient>

/// A value or none, as a keyframe value (`Gradient?`, `Path?`): blends as `Wrapped.blendOptional` says; distance
/// 1 between a value and none; a cubic segment blends only when all four are present, else takes the value with the
/// largest weight.
package struct OptionalKeyValue<Wrapped: Interpolatable & OptionalTrackWrapped>: Interpolatable, Equatable {
  /// The value, or nil for none.
  package var value: Wrapped?

  /// Wraps a value or none.
  package init(value: Wrapped?) {
    self.value = value
  }

  package static func interpolate(from a: Self, to b: Self, fraction: Double) -> Self {
    if fraction == 0 { return a }
    if fraction == 1 { return b }
    return Self(value: Wrapped.blendOptional(a.value, b.value, fraction))
  }

  package static func distance(from a: Self, to b: Self) -> Double {
    switch (a.value, b.value) {
    case (let x?, let y?): return Wrapped.distance(from: x, to: y)
    case (nil, nil): return 0
    default: return 1
    }
  }

  package static func combine(
    _ a: Self, _ wa: Double, _ b: Self, _ wb: Double, _ c: Self, _ wc: Double, _ d: Self, _ wd: Double
  ) -> Self {
    if let x = a.value, let y = b.value, let z = c.value, let u = d.value {
      return Self(value: .combine(x, wa, y, wb, z, wc, u, wd))
    }
    var best = (a, wa)
    for (value, weight) in [(b, wb), (c, wc), (d, wd)] where weight > best.1 { best = (value, weight) }
    return best.0
  }
}

// MARK: - Records and tracks

/// One entry of a property's history.
struct TrackRecord<Value: TrackValue> {
  enum Kind {
    /// An immediate write.
    case set
    /// A basic animation from `from` to `to`.
    case basic
    /// A keyframe animation (UIKit's animateKeyframes).
    case keyframes
  }

  var kind: Kind
  /// The scene time of the write (creation time of the animation).
  var time: Double
  /// Creation order (shared counter of the scene).
  var seq: Int
  /// The model value after this record.
  var to: Value
  /// The presentation value when the animation was created.
  var from: Value
  /// When the animation starts: the layer's local time at `time` plus the delay (timeline time for a property
  /// animator's record).
  var begin: Double = 0
  /// How long it lasts.
  var duration: Double = 0
  var timing: AnimationTiming = .curve(.linear)
  var segment: Value.Segment?
  /// Keyframes being collected while the keyframe block runs.
  var pendingKeyframes: [UIKitKeyframes.Keyframe<Value.KeyValue>] = []
  /// The built keyframe track (after the keyframe block's animations returned).
  var keyframes: Keyframes<Value.KeyValue>?
  /// The owning block (index in `Scene.blocks`) and the animation's slot in it; −1 for `set`.
  var block: Int = -1
  var slot: Int = -1
  /// A property animator's group when the animation belongs to one: its progress then comes from the animator
  /// (which pauses, scrubs, reverses and continues it), and it presents until the animator lets it go.
  var animatorGroup: PropertyAnimator.Group?
  /// The lane of a property animator's record: its layer in the animator's `lanes` (whose time it runs in).
  var animatorLane = 0

  var end: Double { begin + duration }

  /// The animation's value at t (t at or after `time`, before `end`); `memo` shares the block's curve progress
  /// between the properties it animates.
  func animatedValue(at t: Double, memo: ProgressMemo?) -> Value {
    withUnsafePointer(to: self) { Self.animatedValue(of: $0, at: t, memo: memo) }
  }

  /// `animatedValue(at:memo:)` of the record at `r`, read member by member where it is: a call on a record of a
  /// track's storage copied the whole record (its arrays, segment and group retained, then released) for every
  /// animated property of every sample.
  @inline(__always)
  static func animatedValue(of r: UnsafePointer<Self>, at t: Double, memo: ProgressMemo?) -> Value {
    let kind = r.pointee.kind
    if kind == .basic, let animatorGroup = r.pointee.animatorGroup, let segment = r.pointee.segment {
      return Value.value(of: segment, at: animatorGroup.progress(at: t, lane: r.pointee.animatorLane))
    }
    let elapsed = t - r.pointee.begin
    if elapsed <= 0 { return r.pointee.from }
    switch kind {
    case .set:
      return r.pointee.to
    case .basic:
      guard let segment = r.pointee.segment else { return r.pointee.to }
      return Value.value(of: segment, at: progress(of: r, elapsed: elapsed, memo: memo))
    case .keyframes:
      guard let keyframes = r.pointee.keyframes else { return r.pointee.from }
      // The whole-timeline curve warps the key times (UIKit); paced modes move at constant speed instead.
      let fraction =
        keyframes.mode == .paced || keyframes.mode == .cubicPaced
        ? elapsed / r.pointee.duration : progress(of: r, elapsed: elapsed, memo: memo)
      return Value.fromKeyValue(keyframes.value(at: fraction))
    }
  }

  @inline(__always)
  private static func progress(of r: UnsafePointer<Self>, elapsed: Double, memo: ProgressMemo?) -> Double {
    let duration = r.pointee.duration
    guard let memo else { return r.pointee.timing.progress(elapsed: elapsed, duration: duration) }
    return memo.progress(block: r.pointee.block, timing: r.pointee.timing, elapsed: elapsed, duration: duration)
  }
}

/// A per-sample memo of each block's curve progress: all animations of a block share its begin, duration and
/// timing, so the curve (a Bézier solve or a spring) is evaluated once per block and sample, not per property.
final class ProgressMemo {
  // Read for every animated property of every sample, by one thread, never re-entrantly: unchecked (the dynamic
  // exclusivity checks of these four cost some 500 instructions per animated view of a sample).
  @exclusivity(unchecked) private var stamps: [UInt32] = []
  @exclusivity(unchecked) private var values: [Double] = []
  /// The elapsed time each value was computed for: a block's animations on layers of different timing are at
  /// different elapsed times in one sample.
  @exclusivity(unchecked) private var elapsedTimes: [Double] = []
  @exclusivity(unchecked) private var current: UInt32 = 0

  /// Starts a new sample (a new time): every memoized value is forgotten.
  func beginSample() {
    current &+= 1
    if current == 0 {
      for i in stamps.indices { stamps[i] = 0 }
      current = 1
    }
  }

  func progress(block: Int, timing: AnimationTiming, elapsed: Double, duration: Double) -> Double {
    guard block >= 0 else { return timing.progress(elapsed: elapsed, duration: duration) }
    if block >= stamps.count {
      let n = max(block + 1, stamps.count * 2)
      stamps.append(contentsOf: repeatElement(0, count: n - stamps.count))
      values.append(contentsOf: repeatElement(0, count: n - values.count))
      elapsedTimes.append(contentsOf: repeatElement(0, count: n - elapsedTimes.count))
    }
    if stamps[block] == current && elapsedTimes[block] == elapsed { return values[block] }
    let p = timing.progress(elapsed: elapsed, duration: duration)
    stamps[block] = current
    values[block] = p
    elapsedTimes[block] = elapsed
    return p
  }
}

/// The history of one property of one view.
struct Track<Value: TrackValue> {
  /// The value before the first record.
  var base: Value
  /// Records in (time, seq) order.
  var records: [TrackRecord<Value>] = []

  /// The presented value at timeline time t, whose local time in the view's layer is `local` (see the file's
  /// comment; `local` is t when every layer has the default timing).
  func value(at t: Double, local: Double, memo: ProgressMemo? = nil) -> Value {
    records.withUnsafeBufferPointer { buffer in
      // Through the pointer: `buffer[j].animatedValue(…)` copied the record for the call.
      guard let r = buffer.baseAddress else { return base }
      var i = buffer.count - 1
      while i >= 0 && r[i].time > t { i -= 1 }
      if i < 0 { return base }
      var j = i
      while j >= 0 && r[j].kind == .set { j -= 1 }
      if j >= 0 {
        let record = r + j
        let clock = record.pointee.animatorGroup == nil ? local : t
        if clock < record.pointee.end { return TrackRecord.animatedValue(of: record, at: clock, memo: memo) }
      }
      return r[i].to
    }
  }

  /// The index of the animation record running (or waiting for its delay) at timeline time t (local time `local`),
  /// if any.
  func activeAnimation(at t: Double, local: Double) -> Int? {
    var j = records.count - 1
    while j >= 0 && (records[j].time > t || records[j].kind == .set) { j -= 1 }
    guard j >= 0 else { return nil }
    return (records[j].animatorGroup == nil ? local : t) < records[j].end ? j : nil
  }

  /// Inserts keeping (time, seq) order; returns the index.
  @discardableResult
  mutating func insert(_ record: TrackRecord<Value>) -> Int {
    if let last = records.last, last.time > record.time {
      let i = records.firstIndex { $0.time > record.time } ?? records.count
      records.insert(record, at: i)
      return i
    }
    records.append(record)
    return records.count - 1
  }
}

// MARK: - Animation contexts

/// What writes do at the moment: nothing special (immediate) or join an open block.
struct AnimationContext {
  enum Kind {
    case immediate
    case basic
    case keyframes
  }

  var kind: Kind
  /// The block (index in `Scene.blocks`), −1 when immediate.
  var block: Int = -1
  /// When the block's animations start on the timeline (`delay` after the block ran) and how long they last.
  var begin: Double = 0
  var delay: Double = 0
  var duration: Double = 0
  var timing: AnimationTiming = .curve(.easeInOut)
  var mode: KeyframeCalculationMode = .linear
  /// Inside `addKeyframe`: its relative start and duration.
  var keyframeStart: Double = 0
  var keyframeDuration: Double = 1
  /// An immediate context standing for a zero-duration keyframe block: `addKeyframe` is legitimate there.
  var allowsKeyframes = false
  /// Inside a property animator's animations: the group whose progress the animations follow.
  var animatorGroup: PropertyAnimator.Group?

  static var immediate: AnimationContext { AnimationContext(kind: .immediate) }
}

extension Scene {
  /// Records a write of `property` that changed the model from `old` to `new` (the model is already updated).
  func recordWrite<Value: TrackValue>(
    view: View, property: AnimatableProperty<Value>, old: Value, new: Value
  ) {
    let ctx = contexts.last ?? .immediate
    switch ctx.kind {
    case .immediate:
      // A layer that is not a view animates a write implicitly (Layer+Animations.swift).
      let before = mayRunImplicitAction(view) ? presentedValue(of: view, property: property, old: old) : nil
      recordImmediate(view: view, property: property, old: old, new: new)
      if before != nil { runImplicitAction(view: view, property: property, presentedBefore: before) }
    case .basic, .keyframes:
      if property.key.animatesInBlocks(ofView: view.isView) {
        recordAnimated(view: view, property: property, old: old, new: new, context: ctx)
      } else {
        // UIKit animates only its own keys of a view's layer in a block; any other layer property of it changes at
        // once. A layer that is not a view runs its implicit action, as outside a block (its delegate is not a
        // UIView, so UIKit's block settings do not reach it: the transaction's duration and timing apply).
        let before = mayRunImplicitAction(view) ? presentedValue(of: view, property: property, old: old) : nil
        recordImmediate(view: view, property: property, old: old, new: new)
        if before != nil { runImplicitAction(view: view, property: property, presentedBefore: before) }
      }
    }
  }

  /// An immediate write: history only once the property has history or time has moved past the view's
  /// creation (earlier writes are the view's initial values).
  private func recordImmediate<Value: TrackValue>(
    view: View, property: AnimatableProperty<Value>, old: Value, new: Value
  ) {
    let t = currentTime
    if view.tracks[keyPath: property.track] == nil {
      if t <= view.createdAt { return }
      view.tracks[keyPath: property.track] = Track(base: old)
      view.hasTracks = true
    }
    if let last = view.tracks[keyPath: property.track]!.records.last, last.kind == .set, last.time == t {
      view.tracks[keyPath: property.track]!.records[view.tracks[keyPath: property.track]!.records.count - 1].to = new
      return
    }
    sequence += 1
    view.tracks[keyPath: property.track]!.insert(TrackRecord(kind: .set, time: t, seq: sequence, to: new, from: new))
  }

  private func recordAnimated<Value: TrackValue>(
    view: View, property: AnimatableProperty<Value>, old: Value, new: Value, context ctx: AnimationContext
  ) {
    let t = currentTime
    // A second write in the same block updates that block's animation (from stays where it was), as long as
    // no other animation replaced it meanwhile (a nested block).
    if let track = view.tracks[keyPath: property.track],
      let i = track.records.lastIndex(where: { $0.kind != .set && $0.time <= t }),
      track.records[i].block == ctx.block
    {
      view.tracks[keyPath: property.track]!.records[i].to = new
      let from = track.records[i].from
      if ctx.kind == .keyframes {
        view.tracks[keyPath: property.track]!.records[i].pendingKeyframes.append(
          .init(relativeStart: ctx.keyframeStart, relativeDuration: ctx.keyframeDuration, value: Value.keyValue(new)))
      } else {
        view.tracks[keyPath: property.track]!.records[i].segment = Value.segment(from: from, to: new)
      }
      return
    }
    let track = view.tracks[keyPath: property.track]
    let local = view.localTime(at: t)
    let active = track?.activeAnimation(at: t, local: local)
    var from = track?.value(at: t, local: local) ?? old
    if let driven = driverValue(of: property, view: view, at: t) { from = driven }
    // UIKit adds no animation when nothing would move (and the block may then complete at once).
    if ctx.kind == .basic && from == new && active == nil && !forcesAnimationRecord {
      recordImmediate(view: view, property: property, old: old, new: new)
      return
    }
    if let active, let record = track?.records[active] {
      supersede(block: record.block, slot: record.slot, at: t)
    }
    if view.tracks[keyPath: property.track] == nil {
      view.tracks[keyPath: property.track] = Track(base: old)
      view.hasTracks = true
    }
    // In the layer's local time (a property animator's on the timeline): identical to ctx.begin at default timing.
    let begin = ctx.animatorGroup == nil ? local + ctx.delay : ctx.begin
    let slot = addSlot(
      block: ctx.block, end: begin + ctx.duration, view: view, inLayerTime: ctx.animatorGroup == nil,
      key: property.key)
    sequence += 1
    var record = TrackRecord<Value>(
      kind: ctx.kind == .keyframes ? .keyframes : .basic, time: t, seq: sequence, to: new, from: from,
      begin: begin, duration: ctx.duration, timing: ctx.timing, block: ctx.block, slot: slot)
    if let group = ctx.animatorGroup {
      record.animatorGroup = group
      record.animatorLane = group.animator.lane(of: view, for: group)
      group.touched.append((view, property.key))
    }
    if ctx.kind == .keyframes {
      record.pendingKeyframes = [
        .init(relativeStart: ctx.keyframeStart, relativeDuration: ctx.keyframeDuration, value: Value.keyValue(new))
      ]
    } else {
      record.segment = Value.segment(from: from, to: new)
    }
    view.tracks[keyPath: property.track]!.insert(record)
  }

  /// Builds the keyframe track of `property` of `view` for `block` from the keyframes collected.
  func finalizeKeyframes<Value: TrackValue>(view: View, property: AnimatableProperty<Value>, block: Int) {
    guard let records = view.tracks[keyPath: property.track]?.records,
      let i = records.lastIndex(where: { $0.block == block && $0.kind == .keyframes })
    else { return }
    let r = records[i]
    let track = UIKitKeyframes.track(initial: Value.keyValue(r.from), keyframes: r.pendingKeyframes)
    view.tracks[keyPath: property.track]!.records[i].keyframes = Keyframes(
      values: track.values, keyTimes: track.keyTimes, mode: blocks[block].mode)
    view.tracks[keyPath: property.track]!.records[i].pendingKeyframes = []
  }

  /// `finalizeKeyframes` for a property named by its key.
  func finalizeKeyframes(view: View, key: PropertyKey, block: Int) {
    key.accept(FinalizeKeyframes(scene: self, view: view, block: block))
  }
}

private struct FinalizeKeyframes: PropertyVisitor {
  let scene: Scene
  let view: View
  let block: Int

  func visit<Value: TrackValue>(_ property: AnimatableProperty<Value>) {
    scene.finalizeKeyframes(view: view, property: property, block: block)
  }
}
