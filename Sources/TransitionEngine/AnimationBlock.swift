// Animation blocks (UIView.animate, animateKeyframes), custom drivers, and the timeline's completions:
// when they fire, in which order, with which `finished`.

/// The bookkeeping of one animation block.
struct BlockState {
  /// Creation order (ties between completions at the same time fire in this order).
  let seq: Int
  /// The scene time at which the block ran.
  let createdAt: Double
  /// Keyframe blocks: their calculation mode.
  var mode: KeyframeCalculationMode = .linear
  /// Per animation of the block: when it stops (its end in its layer's local time, or the timeline time at which
  /// another animation replaced it).
  var slots: [BlockSlot] = []
  /// Keyframe blocks: the property of each slot (to build the keyframe tracks when the block closes).
  var slotProperties: [(view: View, key: PropertyKey)] = []
  var isKeyframes = false
  /// Whether the animations closure is still running.
  var isOpen = true
  /// False once any of its animations was replaced before its end.
  var finished = true
  var fired = false
  /// Bumped whenever the completion time changes (older queue entries are then stale).
  var version = 0
  var completion: ((Bool) -> Void)?

  /// Whether its completion waits, unscheduled, for a layer whose time stands still (or runs backwards).
  var isParked = false

  /// When the completion fires on the timeline: when the last animation stops, each end mapped through its layer's
  /// timing as it is now (an end already passed in local time is due `now`); at creation when it has none (UIKit
  /// calls the completion of a block that animated nothing at once). nil while a layer's time does not move
  /// forward to an end.
  func completionTime(now: Double) -> Double? {
    guard !slots.isEmpty else { return createdAt }
    var latest = -Double.infinity
    for slot in slots {
      guard let t = slot.stopTime(now: now) else { return nil }
      latest = max(latest, t)
    }
    return latest
  }
}

/// One animation of a block.
struct BlockSlot {
  /// Its end, in `layer`'s local time; once replaced, the timeline time of the replacement.
  var stop: Double
  /// The layer it animates (its time space), nil for a property animator's (timeline time).
  var layer: View?
  var isReplaced = false

  /// The timeline time at which it stops: now when its layer's local time is already past its end (also on a
  /// paused layer whose timeOffset was moved there); nil while its layer's time does not move forward to it.
  func stopTime(now: Double) -> Double? {
    guard !isReplaced, let layer else { return stop }
    let map = layer.timeMap()
    if map.scale == 1 && map.offset == 0 { return stop }
    if let t = map.time(reaching: stop) { return max(t, now) }
    return map(now) >= stop ? now : nil
  }

  /// Its end in its own time (the layer's local time) has passed at timeline time t.
  func isOver(at t: Double) -> Bool {
    guard !isReplaced, let layer else { return t >= stop }
    return layer.localTime(at: t) >= stop
  }
}

/// The bookkeeping of one custom driver.
struct DriverState {
  let seq: Int
  let start: Double
  let duration: Double
  let update: (DriverFrame) -> Void
  var completion: ((Bool) -> Void)?
  /// Whether its final frame was written into the model.
  var committed = false
  var fired = false
  /// Whether a non-finite value it wrote was reported already.
  var reportedInvalid = false
  /// Stopped by `discardPendingWork`: it never applies again.
  var discarded = false

  var end: Double { start + duration }

  /// Whether it overrides presentation values at t: from its start to its end, and after the end until its
  /// final frame is committed to the model (after which the model holds it; see `DriverSink.pastEnd`).
  func applies(at t: Double) -> Bool {
    !discarded && t >= start && (t <= end || !committed)
  }
}

/// One frame of a custom driver: the time and a way to write presentation values.
package struct DriverFrame {
  /// Seconds since the driver started, within [0, duration].
  package let elapsed: Double
  /// The driver's duration.
  package let duration: Double
  let sink: DriverSink
  let driver: Int

  /// elapsed / duration in [0, 1] (1 for a zero duration).
  package var fraction: Double { duration > 0 ? min(max(elapsed / duration, 0), 1) : 1 }

  /// Sets the presented value of a property of a view for this frame. Non-finite values are ignored (and
  /// reported once per driver).
  package func set<Value: TrackValue>(_ property: AnimatableProperty<Value>, of view: View, to value: Value) {
    sink.write(property, of: view, value, driver: driver)
  }
}

/// Where driver writes go: the presentation scratch, the model (commit), or a probe for one property.
final class DriverSink {
  enum Mode {
    case present
    case commit
    case probe(View, PropertyKey)
  }

  unowned let scene: Scene
  var mode: Mode = .present
  var probed: Any?
  /// The sampled time, and whether the driver being run is past its end (not yet committed): its final frame
  /// then shows only where no animation is running, exactly what the model will show once it is committed.
  var time: Double = 0
  var pastEnd = false

  init(scene: Scene) {
    self.scene = scene
  }

  func write<Value: TrackValue>(_ property: AnimatableProperty<Value>, of view: View, _ value: Value, driver: Int) {
    guard value.isFiniteValue else {
      if !scene.drivers[driver].reportedInvalid {
        scene.drivers[driver].reportedInvalid = true
        scene.report(.invalidDriverValue(viewID: view.id, property: property.key))
      }
      return
    }
    if pastEnd, view.tracks[keyPath: property.track]?.activeAnimation(at: time, local: view.localTime(at: time)) != nil
    {
      return
    }
    switch mode {
    case .present:
      scene.setPresented(property, of: view, value)
    case .commit:
      view.write(property, value)
    case .probe(let target, let key):
      if target === view && key == property.key { probed = value }
    }
  }
}

/// A pending completion in the queue.
struct PendingEvent {
  enum Kind {
    case block
    case driver
    /// A property animator reaching the end of its run (`Scene.propertyAnimators[index]`).
    case animator
    /// An explicit animation's start or end (`CoreAnimationState.attached[index]`).
    case explicitAnimation
    /// A CATransaction's completion block (`CoreAnimationState.transactions[index]`).
    case transaction
  }

  var time: Double
  var seq: Int
  var kind: Kind
  var index: Int
  var version: Int

  func precedes(_ other: PendingEvent) -> Bool {
    time != other.time ? time < other.time : seq < other.seq
  }
}

/// A binary min-heap of pending events by (time, seq).
struct EventQueue {
  private(set) var items: [PendingEvent] = []

  var first: PendingEvent? { items.first }

  mutating func push(_ e: PendingEvent) {
    items.append(e)
    var i = items.count - 1
    while i > 0 {
      let p = (i - 1) / 2
      guard items[i].precedes(items[p]) else { break }
      items.swapAt(i, p)
      i = p
    }
  }

  @discardableResult
  mutating func popFirst() -> PendingEvent? {
    guard !items.isEmpty else { return nil }
    let top = items[0]
    let last = items.removeLast()
    if !items.isEmpty {
      items[0] = last
      var i = 0
      while true {
        let l = 2 * i + 1
        let r = l + 1
        var m = i
        if l < items.count && items[l].precedes(items[m]) { m = l }
        if r < items.count && items[r].precedes(items[m]) { m = r }
        if m == i { break }
        items.swapAt(i, m)
        i = m
      }
    }
    return top
  }

  mutating func removeAll() { items.removeAll() }
}

extension Scene {
  /// More completions than this in one `advance`/`fireAllPending` call is taken as a runaway chain.
  static var completionLimit: Int { 100_000 }

  // MARK: Blocks

  /// Animates the property changes made in `animations` (UIView.animate(withDuration:delay:options:animations:
  /// completion:)).
  ///
  /// - Each animatable property written becomes an animation from its presentation value now to the new model
  ///   value, starting after `delay`, lasting `duration` (a spring lasts its own `duration`: UIKit ignores the
  ///   animator's duration for mass/stiffness springs and builds damping-ratio springs with it), along `timing`.
  /// - `timing` nil inherits the enclosing block's timing (nested blocks), else `easeInOut`, UIView's default.
  /// - `duration` ≤ 0: the changes are applied at once (delay ignored) and the completion is called with
  ///   `true` at the next `advance` (UIKit calls it asynchronously).
  /// - `completion(finished)` fires when every animation of the block has stopped: at once (next advance) when
  ///   the block animated nothing, `false` when another animation of the same property replaced one of them.
  /// - Non-finite or negative durations and delays are reported and taken as 0.
  package func animate(
    duration: Double,
    delay: Double = 0,
    timing: AnimationTiming? = nil,
    animations: () -> Void,
    completion: ((Bool) -> Void)? = nil
  ) {
    runBlock(
      keyframes: false, duration: duration, delay: delay, timing: timing, mode: .linear, animations: animations,
      completion: completion)
  }

  /// Animates with keyframes (UIView.animateKeyframes(withDuration:delay:options:animations:completion:)):
  /// inside `animations`, `addKeyframe(relativeStart:relativeDuration:animations:)` sets when each change
  /// happens; a change made outside any `addKeyframe` spans the whole duration.
  ///
  /// Each property gets one keyframe track: it starts at the presentation value, holds until a keyframe's
  /// start, reaches the keyframe's value at its end and holds it (UIKit's CAKeyframeAnimation). `timing` warps
  /// the whole timeline (nil: the enclosing block's, else `easeInOut`, as UIKit applies easeInEaseOut unless
  /// asked for linear); `paced` and `cubicPaced` ignore it and move at constant speed. Duration, delay and
  /// completion behave as in `animate`.
  package func animateKeyframes(
    duration: Double,
    delay: Double = 0,
    timing: AnimationTiming? = nil,
    mode: KeyframeCalculationMode = .linear,
    animations: () -> Void,
    completion: ((Bool) -> Void)? = nil
  ) {
    runBlock(
      keyframes: true, duration: duration, delay: delay, timing: timing, mode: mode, animations: animations,
      completion: completion)
  }

  /// Inside `animateKeyframes`' animations: the changes in `animations` happen from `relativeStart` for
  /// `relativeDuration`, both fractions of the whole duration (clamped to [0, 1]; 0 duration = a step).
  /// Called anywhere else, the misuse is reported and `animations` runs in the current context.
  package func addKeyframe(relativeStart: Double, relativeDuration: Double, animations: () -> Void) {
    guard var ctx = contexts.last, ctx.kind == .keyframes || ctx.allowsKeyframes else {
      report(.keyframeOutsideKeyframeBlock)
      animations()
      return
    }
    if ctx.kind != .keyframes {
      // A zero-duration keyframe block: its keyframes apply at once.
      animations()
      return
    }
    var start = relativeStart
    var length = relativeDuration
    if !start.isFinite {
      report(.invalidTime(what: "keyframe relativeStart"))
      start = 0
    }
    if !length.isFinite {
      report(.invalidTime(what: "keyframe relativeDuration"))
      length = 1
    }
    start = min(max(start, 0), 1)
    length = min(max(length, 0), 1 - start)
    ctx.keyframeStart = start
    ctx.keyframeDuration = length
    contexts.append(ctx)
    animations()
    contexts.removeLast()
  }

  private func runBlock(
    keyframes: Bool, duration: Double, delay: Double, timing: AnimationTiming?, mode: KeyframeCalculationMode,
    animations: () -> Void, completion: ((Bool) -> Void)?
  ) {
    let d = sanitized(duration, "animation duration")
    let wait = sanitized(delay, "animation delay")
    let inherited = contexts.last(where: { $0.kind != .immediate })?.timing
    let curve = timing ?? inherited ?? .curve(.easeInOut)
    sequence += 1
    let block = blocks.count
    blocks.append(BlockState(seq: sequence, createdAt: currentTime, mode: mode, isKeyframes: keyframes))
    logBlockOpened(block, delay: d > 0 ? wait : 0)
    if d > 0 {
      let length = curve.naturalDuration.flatMap { $0 > 0 && $0.isFinite ? $0 : nil } ?? d
      contexts.append(
        AnimationContext(
          kind: keyframes ? .keyframes : .basic, block: block, begin: currentTime + wait, delay: wait,
          duration: length, timing: curve, mode: mode))
    } else {
      var ctx = AnimationContext.immediate
      ctx.allowsKeyframes = keyframes
      contexts.append(ctx)
    }
    animations()
    contexts.removeLast()
    if keyframes {
      for (view, key) in blocks[block].slotProperties {
        finalizeKeyframes(view: view, key: key, block: block)
      }
      blocks[block].slotProperties = []
    }
    blocks[block].isOpen = false
    blocks[block].completion = completion
    logBlockClosed(block)
    pendingCount += 1
    schedule(block: block)
  }

  /// A duration or delay: non-finite or negative values are reported and become 0.
  private func sanitized(_ value: Double, _ what: String) -> Double {
    if value.isFinite && value >= 0 { return value }
    report(.invalidTime(what: what))
    return 0
  }

  /// Queues the block's completion at its completion time, or parks it while a layer's time does not reach its end
  /// (`rescheduleBlocks` queues it once the layer's timing lets it).
  private func schedule(block: Int) {
    let b = blocks[block]
    guard let time = b.completionTime(now: currentTime) else {
      blocks[block].isParked = true
      return
    }
    blocks[block].isParked = false
    events.push(PendingEvent(time: time, seq: b.seq, kind: .block, index: block, version: b.version))
  }

  /// Every waiting block completion again, after a layer's timing or time parent changed (its animations' ends are
  /// in their layers' local times, which now map elsewhere on the timeline).
  func rescheduleBlocks() {
    for i in blocks.indices where !blocks[i].fired && !blocks[i].isOpen {
      blocks[i].version += 1
      schedule(block: i)
    }
  }

  /// Queues every parked completion now (`fireAllPending`: ending everything includes what a paused layer holds).
  /// Returns whether there was any.
  func unparkAll() -> Bool {
    var any = false
    for i in blocks.indices where blocks[i].isParked && !blocks[i].fired && !blocks[i].isOpen {
      blocks[i].isParked = false
      blocks[i].version += 1
      events.push(
        PendingEvent(time: currentTime, seq: blocks[i].seq, kind: .block, index: i, version: blocks[i].version))
      any = true
    }
    for animator in propertyAnimators where animator.unparkEnd() { any = true }
    return unparkExplicitAnimations() || any
  }

  /// Registers an animation of `block` on `view` ending at `end` (the view's local time, or the timeline's when not
  /// `inLayerTime`); returns its slot.
  func addSlot(block: Int, end: Double, view: View, inLayerTime: Bool, key: PropertyKey) -> Int {
    blocks[block].slots.append(BlockSlot(stop: end, layer: inLayerTime ? view : nil))
    logSlot(block: block, view: view, key: key)
    if blocks[block].isKeyframes {
      blocks[block].slotProperties.append((view, key))
    }
    return blocks[block].slots.count - 1
  }

  /// An animation of `block` was replaced at t: it stops there, and the block will report finished = false.
  func supersede(block: Int, slot: Int, at t: Double) {
    guard block >= 0, block < blocks.count, slot >= 0, slot < blocks[block].slots.count else { return }
    guard !blocks[block].slots[slot].isOver(at: t) else { return }
    blocks[block].slots[slot] = BlockSlot(stop: t, layer: blocks[block].slots[slot].layer, isReplaced: true)
    blocks[block].finished = false
    logRemoval()
    if !blocks[block].isOpen && !blocks[block].fired {
      blocks[block].version += 1
      schedule(block: block)
    }
  }

  // MARK: Drivers

  /// Adds a custom driver: for `duration` seconds from now, `update` writes presentation values with
  /// `frame.set(_:of:to:)`, overriding animations of the same properties.
  ///
  /// `update` must be a pure function of its frame: `presentation(at:)` calls it for every sample (also for
  /// earlier times). When time passes the end, `advance` writes its final frame into the model (so the values
  /// stay, as a property animator leaves them) and then calls `completion(true)`. A non-positive or invalid
  /// duration gives a driver that ends at once (invalid ones are reported).
  package func addDriver(
    duration: Double, update: @escaping (DriverFrame) -> Void, completion: ((Bool) -> Void)? = nil
  ) {
    let d = sanitized(duration, "driver duration")
    sequence += 1
    drivers.append(DriverState(seq: sequence, start: currentTime, duration: d, update: update, completion: completion))
    pendingCount += 1
    events.push(PendingEvent(time: currentTime + d, seq: sequence, kind: .driver, index: drivers.count - 1, version: 0))
  }

  /// Runs the drivers that apply at t in `mode` (creation order: a later driver wins).
  func runDrivers(at t: Double, sink: DriverSink) {
    sink.time = t
    for i in drivers.indices where drivers[i].applies(at: t) {
      let d = drivers[i]
      sink.pastEnd = t > d.end
      d.update(DriverFrame(elapsed: min(max(t - d.start, 0), d.duration), duration: d.duration, sink: sink, driver: i))
    }
  }

  /// What the drivers present for one property at t, if any driver writes it.
  func driverValue<Value: TrackValue>(of property: AnimatableProperty<Value>, view: View, at t: Double) -> Value? {
    guard drivers.contains(where: { $0.applies(at: t) }) else { return nil }
    let sink = DriverSink(scene: self)
    sink.mode = .probe(view, property.key)
    runDrivers(at: t, sink: sink)
    return sink.probed as? Value
  }

  private func commit(driver i: Int) {
    guard !drivers[i].committed, !drivers[i].discarded else { return }
    drivers[i].committed = true
    let d = drivers[i]
    let sink = DriverSink(scene: self)
    sink.mode = .commit
    contexts.append(.immediate)
    d.update(DriverFrame(elapsed: d.duration, duration: d.duration, sink: sink, driver: i))
    contexts.removeLast()
  }

  // MARK: Time

  /// Moves the timeline to t, firing every pending completion due by t exactly once, in order of completion
  /// time (ties: creation order); while one runs, `currentTime` is its completion time, so a block it starts
  /// begins exactly there (chained sequences are exact and deterministic). Drivers that end commit their final
  /// frame first. Moving backward fires nothing that already fired (normally nothing at all; only completions
  /// passed over by `seek` can still be due). A non-finite t is reported and ignored.
  package func advance(to t: Double) {
    guard t.isFinite else {
      report(.invalidTime(what: "advance time"))
      return
    }
    commitImplicitTransaction()
    let accepted = firePending(while: { $0.time <= t }) { e in
      // Exactly its completion time, even when `seek` already moved past it: what a completion starts does not
      // depend on how the timeline was sampled.
      currentTime = e.time
      fire(e, finished: nil)
    }
    if accepted { currentTime = t }
  }

  /// Sets `currentTime` to t in either direction without firing anything (scrubbing). Completions passed over
  /// stay pending and fire, at their own completion times, at the next `advance`. A non-finite t is reported
  /// and ignored.
  package func seek(to t: Double) {
    guard t.isFinite else {
      report(.invalidTime(what: "seek time"))
      return
    }
    currentTime = t
  }

  /// Fires every pending completion now, in order, with `finished` (drivers commit their final frame first),
  /// including those of blocks the completions start (up to a limit; a runaway chain is reported). For
  /// cancelling: run what is pending, then `restore` the initial state.
  package func fireAllPending(finished: Bool) {
    commitImplicitTransaction()
    firePending(while: { _ in true }, unparking: true) { fire($0, finished: finished) }
  }

  /// The firing loop of `advance` and `fireAllPending`: takes the next valid event while `isDue` says so and
  /// hands it to `body`, up to `completionLimit` (a runaway chain is reported and cut off). Completions run
  /// outside any block the caller may have open. A call from inside a completion is reported and does nothing.
  ///
  /// - Returns: false when it refused a reentrant call.
  @discardableResult
  private func firePending(
    while isDue: (PendingEvent) -> Bool, unparking: Bool = false, _ body: (PendingEvent) -> Void
  ) -> Bool {
    guard !isFiring else {
      report(.reentrantAdvance)
      return false
    }
    isFiring = true
    let open = contexts
    contexts = []
    defer {
      contexts = open
      isFiring = false
    }
    var count = 0
    // Parked work (waiting for a paused layer) joins in when everything queued has run.
    while let e = nextValidEvent() ?? (unparking && unparkAll() ? nextValidEvent() : nil), isDue(e) {
      if count == Self.completionLimit {
        report(.runawayCompletions(count: count))
        break
      }
      events.popFirst()
      count += 1
      body(e)
    }
    return true
  }

  /// Drops every pending completion without calling it, and stops every driver (it no longer writes presentation
  /// values and commits nothing), so `hasPendingWork` is false. For ending a transition early: after `restore`,
  /// nothing of it remains. Animation history is kept (`restore` clears it).
  package func discardPendingWork() {
    for i in blocks.indices where !blocks[i].fired && !blocks[i].isOpen {
      blocks[i].fired = true
      blocks[i].completion = nil
    }
    for i in drivers.indices {
      if !drivers[i].fired { drivers[i].completion = nil }
      drivers[i].fired = true
      drivers[i].discarded = true
    }
    for animator in propertyAnimators { animator.discard() }
    discardExplicitAnimations()
    events.removeAll()
    // Blocks still running their animations closure are counted when they close.
    pendingCount = 0
  }

  /// Whether any block or driver has not completed yet (animations running or waiting, completions not fired).
  package var hasPendingWork: Bool { pendingCount > 0 }

  /// When the next completion is due, nil when nothing is pending.
  package var nextEventTime: Double? { nextValidEvent()?.time }

  /// When the last pending completion is due, nil when nothing is pending.
  package var latestEndTime: Double? {
    var latest: Double?
    for e in events.items where isValid(e) {
      latest = max(latest ?? e.time, e.time)
    }
    return latest
  }

  private func isValid(_ e: PendingEvent) -> Bool {
    switch e.kind {
    case .block: return !blocks[e.index].fired && blocks[e.index].version == e.version
    case .driver: return !drivers[e.index].fired
    case .animator: return propertyAnimators[e.index].isScheduled(version: e.version)
    case .explicitAnimation, .transaction: return isValidExplicitEvent(e)
    }
  }

  /// The first valid queue entry (stale ones are dropped).
  private func nextValidEvent() -> PendingEvent? {
    while let e = events.first {
      if isValid(e) { return e }
      events.popFirst()
    }
    return nil
  }

  private func fire(_ e: PendingEvent, finished override: Bool?) {
    switch e.kind {
    case .block:
      blocks[e.index].fired = true
      pendingCount -= 1
      let completion = blocks[e.index].completion
      blocks[e.index].completion = nil
      timelineLog.firing.append(e.index)
      completion?(override ?? blocks[e.index].finished)
      timelineLog.firing.removeLast()
    case .driver:
      commit(driver: e.index)
      drivers[e.index].fired = true
      pendingCount -= 1
      let completion = drivers[e.index].completion
      drivers[e.index].completion = nil
      completion?(override ?? true)
    case .animator:
      let animator = propertyAnimators[e.index]
      switch override {
      case nil: animator.reachEnd()
      // A cancel ran the timeline back to its start; a terminated transition stops where it is.
      case true?: animator.endEarly(at: .start)
      case false?: animator.endEarly(at: .current)
      }
    case .explicitAnimation, .transaction:
      fireExplicitEvent(e, finished: override)
    }
  }
}
