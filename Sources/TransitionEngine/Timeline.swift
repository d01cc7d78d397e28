// The animation timeline as data (Protocol.md, `transition/timeline`): every animation a transition has created —
// view block animations (basic, spring, keyframes), property animator groups, explicit Core Animation animations and
// implicit layer actions — with its target, property, ends, place on the timeline, timing, the call that created it
// and its state at a time; and the finish/cancel continuations (tails) the transition ran.
//
// The scene logs each animation once, when it is complete: a block's animations when the block's closure returns
// (their ends and keyframes are final then), an explicit animation when it is added. The log outlives the animation
// history (a cancel's restore clears the tracks, not the log), so indexes are stable and never reused. What changes
// with time (state, a property animator's runs, a replacement) is read from the live bookkeeping at query time.

/// A value on the timeline, in the form of the property it belongs to. The large cases are boxed (`indirect`): every
/// transition keeps its log, so an entry's two values stay the size of a rect rather than of a 128-byte matrix.
package enum TimelineValue: Hashable, Sendable {
  case number(Double)
  case point(Point)
  case size(Size)
  case rect(Rect)
  indirect case transform(Transform3D)
  /// A colour; nil = none.
  case color(Color?)
  /// A path; nil = none.
  case path(Path?)
  /// A gradient; nil = none.
  indirect case gradient(Gradient?)

  /// The timeline form of a property value.
  static func of<Value: TrackValue>(_ value: Value) -> TimelineValue {
    switch value {
    case let v as Double: return .number(v)
    case let v as Point: return .point(v)
    case let v as Size: return .size(v)
    case let v as Rect: return .rect(v)
    case let v as Transform3D: return .transform(v)
    default: break
    }
    // Optionals by their static type: a nil of one optional type casts to every other.
    if Value.self == Color?.self { return .color(value as! Color?) }
    if Value.self == Path?.self { return .path(value as! Path?) }
    if Value.self == Gradient?.self { return .gradient(value as! Gradient?) }
    preconditionFailure("no timeline form for \(Value.self)")
  }

  /// The timeline form of an explicit animation's value.
  init(_ value: AnimationValue) {
    switch value {
    case .number(let v): self = .number(v)
    case .point(let v): self = .point(v)
    case .size(let v): self = .size(v)
    case .rect(let v): self = .rect(v)
    case .transform(let v): self = .transform(v)
    case .color(let v): self = .color(v)
    case .path(let v): self = .path(v)
    }
  }
}

/// Keyframes as the timeline lists them.
package struct TimelineKeyframes: Hashable, Sendable {
  /// The key times in effect, fractions of the duration (computed for paced modes and the default spacing).
  package var keyTimes: [Double]
  /// The values at the key times.
  package var values: [TimelineValue]
  package var calculationMode: KeyframeCalculationMode
  /// The per-segment timing functions (CAKeyframeAnimation.timingFunctions), when given.
  package var timingFunctions: [TimingCurve]?
  /// The curve over the whole duration: a UIKit keyframe block's (easeInOut unless the options said otherwise; paced
  /// modes ignore it), a CAKeyframeAnimation's `timingFunction`; nil = linear.
  package var curve: TimingCurve?
  /// CAKeyframeAnimation.path, which then gives the values.
  package var path: Path?
  /// CAKeyframeAnimation.rotationMode.
  package var rotationMode: AnimationRotationMode?
}

/// An animation's timing (springs and keyframes boxed, as TimelineValue's large cases are).
package enum TimelineTiming: Hashable, Sendable {
  /// A curve stretched over the duration.
  case curve(TimingCurve)
  /// A spring (every parameter, its settling duration and the duration it runs for).
  indirect case spring(Spring)
  /// Keyframes.
  indirect case keyframes(TimelineKeyframes)

  init(_ timing: AnimationTiming) {
    switch timing {
    case .curve(let curve): self = .curve(curve)
    case .spring(let spring): self = .spring(spring)
    }
  }
}

/// What an animation is at a time.
package enum TimelineState: String, Hashable, Sendable {
  /// Created, not begun (its delay, or an animator not started).
  case pending
  /// Inside its active duration (a paused property animator's animations too).
  case running
  /// Ran to its end.
  case finished
  /// Taken off before its end: `removeAnimation(forKey:)`, or replaced by a later animation of the same property.
  case removed
}

/// The call that created an animation.
package struct TimelineSource: Hashable, Sendable {
  package enum Kind: String, Hashable, Sendable {
    /// UIView.animate with a curve.
    case block
    /// UIView.animate with a spring.
    case springBlock
    /// UIView.animateKeyframes.
    case keyframeBlock
    /// A UIViewPropertyAnimator's addAnimations group.
    case propertyAnimator
    /// CALayer.add(_:forKey:).
    case explicit
    /// A layer's implicit action (a model write outside any block).
    case implicit
  }

  package var kind: Kind
  /// The creating block's index in creation order (every block counts, also those that animated nothing, and each
  /// property animator group); nil for explicit and implicit animations.
  package var block: Int?
  /// The block whose completion ran the call (or, for a block nested in another's animations closure, the
  /// enclosing block); nil for calls the animator made itself.
  package var parent: Int?
  /// 0 for calls the animator made itself, the parent's depth + 1 otherwise.
  package var depth: Int
  /// The block's delay (s); for an explicit animation the time from its add to its begin.
  package var delay: Double
  /// Whether a completion is attached (a block's completion, a property animator's completions, an explicit
  /// animation's delegate or a transaction's completion block).
  package var completion: Bool
  /// The add(_:forKey:) key of an explicit animation (nil for none and for every other kind).
  package var key: String?
}

/// CAMediaTiming of an explicit animation, where it differs from the defaults (nil members are at their default).
package struct TimelineMediaTiming: Hashable, Sendable {
  package var repeatCount: Double?
  package var repeatDuration: Double?
  package var autoreverses: Bool?
  package var speed: Double?
  package var timeOffset: Double?
  package var fillMode: AnimationFillMode?
  package var removedOnCompletion: Bool?
  package var additive: Bool?

  var isEmpty: Bool { self == TimelineMediaTiming() }
}

/// One animation on the timeline.
package struct TimelineAnimation: Hashable, Sendable {
  /// Creation order, 0-based, stable.
  package var index: Int
  /// The view's or layer's id.
  package var target: String
  /// The target's frame kind: view, layer, gradient or shape.
  package var targetKind: String
  /// UIKit's name for view animations (center, bounds, transform, alpha, …), Core Animation's key path for layer
  /// and explicit ones.
  package var property: String
  package var from: TimelineValue
  package var to: TimelineValue
  /// Timeline time (s) where the active interval starts, delay included.
  package var begin: Double
  /// One iteration (s).
  package var duration: Double
  /// begin + the whole active duration (s); infinite for endless repeats.
  package var end: Double
  package var timing: TimelineTiming
  package var source: TimelineSource
  package var state: TimelineState
  /// An explicit animation's media timing off its defaults; nil for every other kind.
  package var media: TimelineMediaTiming?
}

/// A finish or cancel continuation the transition ran.
package struct TimelineTail: Hashable, Sendable {
  package enum Cause: String, Hashable, Sendable {
    case finish, cancel, release, gesture, reverse
  }

  /// finish or cancel (what a release or reverse became).
  package var isFinish: Bool
  package var cause: Cause
  /// d(percent)/dt as given (1/s).
  package var velocity: Double
  /// Timeline time τ where it starts and ends.
  package var from: Double
  package var to: Double
  /// Clock seconds since the transition started.
  package var startedAt: Double
  /// Clock seconds it takes.
  package var length: Double
  /// Its curve, or the velocity-seeded spring.
  package var timing: TimelineTiming
}

/// The whole timeline of a transition at its current time.
package struct TransitionTimeline: Hashable, Sendable {
  /// The transition's time τ (s; percent × duration while paused).
  package var time: Double
  /// transitionDuration (s).
  package var duration: Double
  package var animations: [TimelineAnimation]
  package var tails: [TimelineTail]
}

// MARK: - The scene's log

/// What the scene logs for the timeline (`Scene.timelineLog`).
final class TimelineLog {
  /// Where a logged animation lives.
  enum Origin {
    /// A block's (or property animator group's) animation: its block and slot.
    case record(block: Int, slot: Int, group: PropertyAnimator.Group?, view: View? = nil)
    /// An explicit or implicit animation, or a child of a group (`child`).
    case explicit(AttachedAnimation, child: Int?)
  }

  struct Entry {
    var seq: Int
    var origin: Origin
    /// The parts that do not change once logged (state and dynamic timing filled in at query time).
    var animation: TimelineAnimation
  }

  /// Per block: who created it.
  struct BlockInfo {
    var parent: Int?
    var depth: Int
    var delay: Double
  }

  var entries: [Entry] = []
  /// Bumped when an animation is added or removed (`Transition.timelineRevision`).
  var revision = 0
  var blocks: [Int: BlockInfo] = [:]
  /// The properties each open block animated, in order (read when it closes).
  var openSlots: [Int: [(view: View, key: PropertyKey)]] = [:]
  /// The blocks whose completions are running, innermost last.
  var firing: [Int] = []
  /// Set while a layer's implicit action adds its animation.
  var addingImplicit = false

  /// Inserts keeping creation order (a nested block closes before the block around it).
  func insert(_ entry: Entry) {
    var i = entries.count
    while i > 0 && entries[i - 1].seq > entry.seq { i -= 1 }
    entries.insert(entry, at: i)
    revision += 1
  }
}

extension Scene {
  /// The block whose code is running now (a completion, or an animations closure): a new block's parent.
  private var creatingBlock: Int? {
    if let open = contexts.last(where: { $0.kind != .immediate && $0.block >= 0 }) { return open.block }
    return timelineLog.firing.last
  }

  /// Notes who created block `block`, before its animations run.
  func logBlockOpened(_ block: Int, delay: Double) {
    let parent = creatingBlock
    let depth = parent.map { (timelineLog.blocks[$0]?.depth ?? 0) + 1 } ?? 0
    timelineLog.blocks[block] = TimelineLog.BlockInfo(parent: parent, depth: depth, delay: delay)
  }

  /// Notes an animation of an open block (`addSlot`).
  func logSlot(block: Int, view: View, key: PropertyKey) {
    timelineLog.openSlots[block, default: []].append((view, key))
  }

  /// Logs the animations of a block whose closure returned (`group`: a property animator's).
  func logBlockClosed(_ block: Int, group: PropertyAnimator.Group? = nil) {
    if timelineLog.blocks[block] == nil { logBlockOpened(block, delay: 0) }
    guard let slots = timelineLog.openSlots.removeValue(forKey: block) else { return }
    let info = timelineLog.blocks[block]!
    for (view, key) in slots {
      guard let described = key.accept(DescribeRecord(view: view, block: block)) else { continue }
      var animation = described.animation
      if group == nil {
        // A block's animation runs in its layer's local time: placed on the timeline through the layer's timing.
        (animation.begin, animation.end, animation.duration) = timelineInterval(
          localBegin: animation.begin, localEnd: animation.end, duration: animation.duration, map: view.timeMap())
      }
      let kind: TimelineSource.Kind =
        group != nil
        ? .propertyAnimator
        : blocks[block].isKeyframes ? .keyframeBlock : (described.isSpring ? .springBlock : .block)
      // A property animator's completions may come later: read when the timeline is (`describeRun`).
      animation.source = TimelineSource(
        kind: kind, block: block, parent: info.parent, depth: info.depth, delay: info.delay,
        completion: blocks[block].completion != nil, key: nil)
      timelineLog.insert(
        TimelineLog.Entry(
          seq: described.seq, origin: .record(block: block, slot: described.slot, group: group, view: view),
          animation: animation))
    }
  }

  /// Logs an explicit (or implicit) animation just attached.
  func logExplicit(_ a: AttachedAnimation) {
    guard let layer = a.layer else { return }
    let parent = timelineLog.firing.last
    let depth = parent.map { (timelineLog.blocks[$0]?.depth ?? 0) + 1 } ?? 0
    let implicit = timelineLog.addingImplicit
    func entry(_ r: ResolvedAnimation, child: Int?, groupBegin: Double?) -> TimelineLog.Entry? {
      guard let keyPath = r.keyPath else { return nil }
      let ends = keyPath.accept(ExplicitEnds(animation: r, model: layer.model))
      let map = layer.timeMap()
      let timing = r.timing
      var begin: Double
      var end: Double
      var duration = timing.duration
      if let groupBegin {
        // A group's child runs in the group's basic time, clipped to the group's duration.
        let parentTiming = a.resolved.timing
        let scale = parentTiming.speed > 0 ? parentTiming.speed : 1
        begin = groupBegin + timing.beginTime / scale
        let active = timing.activeDuration(duration: duration) / (timing.speed > 0 ? timing.speed : 1)
        end = min(begin + active / scale, groupBegin + parentTiming.duration / scale)
        duration /= scale
      } else {
        (begin, end, duration) = timelineInterval(
          localBegin: timing.beginTime, localEnd: timing.endTime(duration: duration), duration: duration, map: map)
      }
      var media = TimelineMediaTiming()
      if timing.repeatCount != 0 { media.repeatCount = timing.repeatCount }
      if timing.repeatDuration != 0 { media.repeatDuration = timing.repeatDuration }
      if timing.autoreverses { media.autoreverses = true }
      if timing.speed != 1 { media.speed = timing.speed }
      if timing.timeOffset != 0 { media.timeOffset = timing.timeOffset }
      if timing.fillMode != .removed { media.fillMode = timing.fillMode }
      if !a.original.isRemovedOnCompletion && child == nil { media.removedOnCompletion = false }
      if r.isAdditive { media.additive = true }
      var transactionCompletion = false
      for t in a.transactions where t.completion != nil { transactionCompletion = true }
      let animation = TimelineAnimation(
        index: 0, target: layer.id, targetKind: layer.timelineKindName, property: keyPath.name,
        from: ends.from, to: ends.to, begin: begin, duration: duration, end: end,
        timing: timelineTiming(of: r, keyPath: keyPath),
        source: TimelineSource(
          kind: implicit ? .implicit : .explicit, block: nil, parent: parent, depth: depth,
          delay: max(0, begin - currentTime), completion: a.original.delegate != nil || transactionCompletion,
          key: a.key),
        state: .pending, media: media.isEmpty ? nil : media)
      return TimelineLog.Entry(seq: a.seq, origin: .explicit(a, child: child), animation: animation)
    }
    if case .group = a.resolved.kind {
      let map = layer.timeMap()
      let groupBegin = map.time(reaching: a.resolved.timing.beginTime) ?? currentTime
      for (i, child) in a.resolved.children.enumerated() {
        if let e = entry(child, child: i, groupBegin: groupBegin) { timelineLog.insert(e) }
      }
    } else if let e = entry(a.resolved, child: nil, groupBegin: nil) {
      timelineLog.insert(e)
    }
  }

  /// Where an interval of a layer's local time lies on the timeline, through the layer's timing as it is now (the
  /// identity at default timing): begin and end are the timeline times at which the local time reaches them, the
  /// duration is scaled by the composed speed. Where the layer's time stands still or runs backwards, begin is now
  /// and end infinite (null on the wire).
  func timelineInterval(localBegin: Double, localEnd: Double?, duration: Double, map: TimeMap) -> (
    begin: Double, end: Double, duration: Double
  ) {
    let begin = map.time(reaching: localBegin) ?? currentTime
    let end = localEnd.flatMap { map.time(reaching: $0) } ?? .infinity
    return (begin, end, map.scale > 0 ? duration / map.scale : duration)
  }

  private func timelineTiming(of r: ResolvedAnimation, keyPath: AnimationKeyPath) -> TimelineTiming {
    if let spring = r.spring { return .spring(spring) }
    if case .keyframes(let spec) = r.kind {
      let keyframes = keyPath.accept(DescribeKeyframes(spec: spec))
      return .keyframes(
        TimelineKeyframes(
          keyTimes: keyframes?.keyTimes ?? spec.keyTimes ?? [], values: keyframes?.values ?? [],
          calculationMode: spec.calculationMode, timingFunctions: spec.timingFunctions, curve: r.timingFunction,
          path: spec.path, rotationMode: spec.rotationMode))
    }
    return .curve(r.timingFunction ?? .linear)
  }

  /// Something was taken off before its end (a replaced block animation, a removed explicit one).
  func logRemoval() {
    timelineLog.revision += 1
  }

  /// Every logged animation with its state at timeline time t.
  package func timelineAnimations(at t: Double) -> [TimelineAnimation] {
    timelineLog.entries.enumerated().map { i, entry in
      var a = entry.animation
      a.index = i
      switch entry.origin {
      case .record(let block, let slot, let group, let view):
        if let group {
          group.animator.describeRun(of: group, on: view, into: &a, at: t)
        } else {
          let stop = blocks[block].slots[slot]
          if stop.isReplaced && t >= stop.stop {
            a.state = .removed
          } else if a.end == .infinity {
            // Added on a layer whose time stood still: it ends whenever the layer's time gets there, which its
            // block's completion tells.
            a.state = blocks[block].fired ? .finished : (t < a.begin ? .pending : .running)
          } else {
            a.state = t < a.begin ? .pending : (t < a.end ? .running : .finished)
          }
        }
      case .explicit(let attached, _):
        if attached.removedEarly {
          a.state = .removed
        } else if attached.stopped || t >= a.end {
          a.state = .finished
        } else {
          a.state = t < a.begin ? .pending : .running
        }
      }
      return a
    }
  }

  /// Bumped whenever an animation is added or removed.
  package var timelineRevision: Int { timelineLog.revision }
}

extension View {
  /// The frame kind of the node (`ViewState.kindName`'s rule).
  var timelineKindName: String {
    if layerKind == .shape { return "shape" }
    if layerKind == .gradient || model.gradient != nil { return "gradient" }
    return isView ? "view" : "layer"
  }

  /// The timeline's name of a property of this node: UIKit's (`center`) for a view, Core Animation's key path for a
  /// layer.
  func timelinePropertyName(_ key: PropertyKey) -> String {
    if isView {
      switch key {
      case .position: return "center"
      default: return key.name
      }
    }
    return key == .alpha ? "opacity" : key.name
  }
}

/// A block's animation of one property, described from its record.
private struct DescribedRecord {
  var seq: Int
  var slot: Int
  var isSpring: Bool
  var animation: TimelineAnimation
}

private struct DescribeRecord: PropertyVisitor {
  let view: View
  let block: Int

  func visit<Value: TrackValue>(_ property: AnimatableProperty<Value>) -> DescribedRecord? {
    guard let records = view.tracks[keyPath: property.track]?.records,
      let r = records.last(where: { $0.block == block && $0.kind != .set })
    else { return nil }
    var timing = TimelineTiming(r.timing)
    var isSpring = false
    if case .spring = r.timing { isSpring = true }
    if r.kind == .keyframes, let k = r.keyframes {
      var curve: TimingCurve? = nil
      if case .curve(let c) = r.timing { curve = c }
      timing = .keyframes(
        TimelineKeyframes(
          keyTimes: k.keyTimes, values: k.values.map { TimelineValue.of(Value.fromKeyValue($0)) },
          calculationMode: k.mode, timingFunctions: k.timingFunctions, curve: curve, path: nil, rotationMode: nil))
    }
    let animation = TimelineAnimation(
      index: 0, target: view.id, targetKind: view.timelineKindName, property: view.timelinePropertyName(property.key),
      from: .of(r.from), to: .of(r.to), begin: r.begin, duration: r.duration, end: r.begin + r.duration,
      timing: timing,
      source: TimelineSource(kind: .block, block: block, parent: nil, depth: 0, delay: 0, completion: false, key: nil),
      state: .pending, media: nil)
    return DescribedRecord(seq: r.seq, slot: r.slot, isSpring: isSpring, animation: animation)
  }
}

/// An explicit animation's ends by CABasicAnimation's rules, with the layer's model value as the current one.
private struct ExplicitEnds: ChannelVisitor {
  let animation: ResolvedAnimation
  let model: AnimatableValues

  func visit<V: ExplicitValue>(_ channel: Channel<V>) -> (from: TimelineValue, to: TimelineValue) {
    var copy = model
    let underlying = withUnsafeMutablePointer(to: &copy) { channel.get($0) }
    let base: V = animation.isAdditive ? ApplyAnimation.zero(like: underlying) : underlying
    switch animation.kind {
    case .basic(let from, let to, let by), .spring(let from, let to, let by, _):
      if let (start, end) = ApplyAnimation.ends(
        from: from, to: to, by: by, underlying: base, previous: animation.previous)
      {
        return (TimelineValue(start.animationValue), TimelineValue(end.animationValue))
      }
    case .keyframes(let spec):
      let values = (spec.values ?? []).compactMap { V(animationValue: $0) }
      if let first = values.first, let last = values.last {
        return (TimelineValue(first.animationValue), TimelineValue(last.animationValue))
      }
      if let path = spec.path, let start = path.elements.first?.timelineEndPoint,
        let end = path.elements.last(where: { $0.timelineEndPoint != nil })?.timelineEndPoint
      {
        return (.point(start), .point(end))
      }
    case .group:
      break
    }
    let value = TimelineValue(underlying.animationValue)
    return (value, value)
  }
}

/// A CAKeyframeAnimation's key times in effect and values, typed by its key path.
private struct DescribeKeyframes: ChannelVisitor {
  let spec: ExplicitAnimation.KeyframeSpec

  func visit<V: ExplicitValue>(_ channel: Channel<V>) -> (keyTimes: [Double], values: [TimelineValue])? {
    let values = (spec.values ?? []).compactMap { V(animationValue: $0) }
    guard
      let track = Keyframes(
        values: values.map(V.keyValue), keyTimes: spec.keyTimes, timingFunctions: spec.timingFunctions,
        mode: spec.calculationMode)
    else { return nil }
    return (track.keyTimes, track.values.map { TimelineValue(V.fromKeyValue($0).animationValue) })
  }
}

// MARK: - Transitions

extension Transition {
  /// The timeline now: every animation created so far with its state at τ, and the tails run so far. Pure.
  package func timeline() -> TransitionTimeline {
    TransitionTimeline(
      time: state == .paused ? percent * duration : time, duration: duration,
      animations: scene.timelineAnimations(at: time), tails: timelineTails)
  }

  /// Bumped whenever an animation is added to or removed from the timeline (a client refreshes then).
  package var timelineRevision: Int { scene.timelineRevision }

  /// Notes a tail that starts now.
  func logTail(_ tail: Tail, cause: TimelineTail.Cause, velocity: Double) {
    timelineTails.append(
      TimelineTail(
        isForward: tail.isForward, cause: tailCause(cause), velocity: velocity, from: tail.from, to: tail.to,
        startedAt: clockTime, length: tail.length, timing: tail.spring.map { .spring($0) } ?? .curve(tail.curve)))
  }

  /// Notes the continuation of a driven property animator (the tail is the animator's own run).
  func logDrivenTail(
    reversed: Bool, cause: TimelineTail.Cause, velocity: Double, length: Double, timing: AnimationTiming
  ) {
    timelineTails.append(
      TimelineTail(
        isForward: !reversed, cause: tailCause(cause), velocity: velocity, from: time, to: time + length,
        startedAt: clockTime, length: length, timing: TimelineTiming(timing)))
  }

  /// A finish or cancel the interaction controller asked for while handling a gesture is the gesture's.
  private func tailCause(_ cause: TimelineTail.Cause) -> TimelineTail.Cause {
    isDeliveringGesture && (cause == .finish || cause == .cancel) ? .gesture : cause
  }
}

extension PathElement {
  /// Where the element ends (nil for a close).
  fileprivate var timelineEndPoint: Point? {
    switch self {
    case .move(let p), .line(let p), .quadCurve(let p, _), .curve(let p, _, _): p
    case .closeSubpath: nil
    }
  }
}

extension TimelineTail {
  init(
    isForward: Bool, cause: Cause, velocity: Double, from: Double, to: Double, startedAt: Double, length: Double,
    timing: TimelineTiming
  ) {
    self.init(
      isFinish: isForward, cause: cause, velocity: velocity, from: from, to: to, startedAt: startedAt,
      length: length, timing: timing)
  }
}
