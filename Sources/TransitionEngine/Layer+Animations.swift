// Explicit animations on layers (CALayer.add(_:forKey:) and friends), their delegate callbacks and removal as time
// advances, CATransaction (nesting, completion blocks, duration, timing, disabled actions) and the implicit actions
// of layers that are not views.
//
// Core Animation's rules kept here:
// - `add(_:forKey:)` copies the animation; the same key replaces (the old one stops, finished false); a nil key
//   adds an animation no key reaches. A beginTime of 0 becomes the layer's current local time.
// - Animations present in add order over the model and the block animations: a block animation added later (a
//   UIView.animate write, which Core Animation adds as an animation keyed by the property) covers the explicit
//   animations of that property added before it, while it runs.
// - Removal on completion: at the end of its active duration an animation with `isRemovedOnCompletion` leaves the
//   layer and the presentation is the model value again (the snap-back when the model was never set); with
//   false it stays, and fillMode forwards holds its last value.
// - Callbacks (animationDidStart, animationDidStop(finished:), transaction completions) run only when time really
//   advances (`Scene.advance(to:)`, `fireAllPending`), never while sampling.
// - Implicit actions: a model write of an animatable property on a layer that is not a view, in a tree, outside
//   any UIView animation context, animates from its presented value over the transaction's duration (0.25 s by
//   default) with the transaction's timing function (default: kCAMediaTimingFunctionDefault) unless the
//   transaction disables actions. A view's own layer never animates implicitly: UIView returns NSNull from
//   action(for:forKey:) outside an animation block ("Core Animation Programming Guide", Changing a Layer's Default
//   Behavior: https://developer.apple.com/library/archive/documentation/Cocoa/Conceptual/CoreAnimation_guide/
//   ReactingtoLayerChanges/ReactingtoLayerChanges.html; the layer of a UIView: "the view disables layer actions by
//   default", https://developer.apple.com/documentation/uikit/uiview — actionForLayer:forKey:).

/// An animation attached to a layer.
final class AttachedAnimation {
  let resolved: ResolvedAnimation
  /// The animation as added (what `animation(forKey:)` returns).
  let original: ExplicitAnimation
  let key: String?
  let seq: Int
  let index: Int
  weak var layer: View?
  /// Whether it still presents on its layer (false once removed).
  var isOnLayer = true
  var started = false
  /// Its stop has been handled (callbacks run, or discarded).
  var stopped = false
  /// Removed before its end: its stop reports finished false.
  var removedEarly = false
  /// Bumped whenever its pending event is superseded.
  var version = 0
  /// Whether its next event is its end (else its start).
  var nextIsEnd = false
  /// Whether its next event waits, unscheduled, for its layer's time to move forward.
  var isParked = false
  /// The transactions whose completion waits for it.
  var transactions: [TransactionState] = []
  /// The layer-only members it animates (none for most: position, opacity, …).
  let layerMembers: LayerMemberSet
  /// The boxes the layer's sampled layer-only values are written into, when it is the first animation of its layer to
  /// write one (`Scene.applyExplicitAnimations`); made on first use.
  @exclusivity(unchecked) var boxSpares: LayerBoxSpares?

  init(resolved: ResolvedAnimation, original: ExplicitAnimation, key: String?, seq: Int, index: Int, layer: View) {
    self.resolved = resolved
    self.original = original
    self.key = key
    self.seq = seq
    self.index = index
    self.layer = layer
    layerMembers = LayerMemberSet(resolved.propertyKeys)
  }
}

/// A CATransaction (explicit, or the implicit one of the current turn).
final class TransactionState {
  var duration: Double?
  var timingFunction: TimingCurve?
  var disablesActions = false
  var completion: (() -> Void)?
  /// Animations added while the completion block was set that have not stopped.
  var members = 0
  var committed = false
  var completionScheduled = false
  let index: Int

  init(index: Int) { self.index = index }
}

/// The scene's Core Animation state: every animation ever attached (events name them by index), the open
/// transactions and how many layers have a non-identity timing.
package final class CoreAnimationState {
  var attached: [AttachedAnimation] = []
  var transactions: [TransactionState] = []
  var open: [TransactionState] = []
  var implicit: TransactionState?
  /// Layers whose timing is not the identity (0: every layer's local time is the timeline time). Read for every
  /// node of every sample, changed only outside one: unchecked.
  @exclusivity(unchecked) var layerTimingCount = 0
  var snapBacks: [SnapBack] = []

  init() {}
}

/// Core Animation's default animation duration (CATransaction.animationDuration's default).
let defaultTransactionDuration = 0.25

extension Scene {
  var layerTimingCount: Int {
    get { coreAnimation.layerTimingCount }
    set { coreAnimation.layerTimingCount = newValue }
  }

  /// CACurrentMediaTime(): the transition clock's media time, which is the timeline time (the container's parent
  /// time space).
  package var currentMediaTime: Double { currentTime }

  // MARK: Transactions

  /// The transaction settings apply to: the innermost open one, else the current turn's implicit one.
  private var currentTransaction: TransactionState {
    if let t = coreAnimation.open.last { return t }
    if let t = coreAnimation.implicit { return t }
    let t = makeTransaction()
    coreAnimation.implicit = t
    return t
  }

  private func makeTransaction() -> TransactionState {
    let t = TransactionState(index: coreAnimation.transactions.count)
    coreAnimation.transactions.append(t)
    return t
  }

  /// CATransaction.begin(): opens a nested transaction.
  package func beginTransaction() {
    coreAnimation.open.append(makeTransaction())
  }

  /// CATransaction.commit(): closes the innermost transaction. Its completion block runs once every animation added
  /// while it was set has finished or been removed (at the next advance when there is none). A commit without a
  /// begin is reported and ignored.
  package func commitTransaction() {
    guard let t = coreAnimation.open.popLast() else {
      report(.unbalancedTransactionCommit)
      return
    }
    commit(t)
  }

  private func commit(_ t: TransactionState) {
    t.committed = true
    guard t.completion != nil else { return }
    pendingCount += 1
    if t.members == 0 { scheduleCompletion(of: t) }
  }

  /// The turn's implicit transaction commits when time moves on (the end of the run-loop turn).
  func commitImplicitTransaction() {
    guard let t = coreAnimation.implicit else { return }
    coreAnimation.implicit = nil
    commit(t)
  }

  private func scheduleCompletion(of t: TransactionState) {
    guard !t.completionScheduled else { return }
    t.completionScheduled = true
    sequence += 1
    events.push(PendingEvent(time: currentTime, seq: sequence, kind: .transaction, index: t.index, version: 0))
  }

  /// CATransaction.setCompletionBlock(_:).
  package func setTransactionCompletion(_ completion: (() -> Void)?) {
    currentTransaction.completion = completion
  }

  /// CATransaction.animationDuration() / setAnimationDuration(_:) (non-finite or negative values are reported and
  /// ignored).
  package var transactionAnimationDuration: Double {
    get { (coreAnimation.open.last ?? coreAnimation.implicit)?.duration ?? defaultTransactionDuration }
    set {
      guard newValue.isFinite, newValue >= 0 else {
        report(.invalidTime(what: "transaction animation duration"))
        return
      }
      currentTransaction.duration = newValue
    }
  }

  /// CATransaction.animationTimingFunction() / setAnimationTimingFunction(_:) (nil: the default).
  package var transactionTimingFunction: TimingCurve? {
    get { (coreAnimation.open.last ?? coreAnimation.implicit)?.timingFunction }
    set { currentTransaction.timingFunction = newValue }
  }

  /// CATransaction.disableActions() / setDisableActions(_:).
  package var transactionDisablesActions: Bool {
    get { (coreAnimation.open.last ?? coreAnimation.implicit)?.disablesActions ?? false }
    set { currentTransaction.disablesActions = newValue }
  }

  // MARK: Adding and removing

  /// CALayer.add(_:forKey:). Returns false (and reports) when the key path is unknown or a value has the wrong type.
  @discardableResult
  func addAnimation(_ animation: ExplicitAnimation, forKey key: String?, to layer: View) -> Bool {
    guard validate(animation, layer: layer) else { return false }
    let keyPath = animation.keyPath.flatMap(AnimationKeyPath.init)
    let duration = transactionAnimationDuration > 0 ? transactionAnimationDuration : defaultTransactionDuration
    let resolved = ResolvedAnimation(animation, keyPath: keyPath, defaultDuration: duration)
    if animation.timing.beginTime == 0 {
      resolved.timing.beginTime = layer.localTime(at: currentTime)
    }
    if let keyPath { resolved.previous = previousValue(of: keyPath, layer: layer) }
    if let key, let old = layer.attachedAnimations.first(where: { $0.key == key }) {
      remove(old)
    }
    sequence += 1
    let a = AttachedAnimation(
      resolved: resolved, original: animation, key: key, seq: sequence, index: coreAnimation.attached.count,
      layer: layer)
    coreAnimation.attached.append(a)
    layer.attachedAnimations.append(a)
    for t in coreAnimation.open + [coreAnimation.implicit].compactMap({ $0 }) where t.completion != nil {
      t.members += 1
      a.transactions.append(t)
    }
    pendingCount += 1
    schedule(a)
    logExplicit(a)
    return true
  }

  private func validate(_ animation: ExplicitAnimation, layer: View) -> Bool {
    if case .group(let children) = animation.kind {
      return children.allSatisfy { validate($0, layer: layer) }
    }
    guard let name = animation.keyPath, let keyPath = AnimationKeyPath(name) else {
      report(.unknownAnimationKeyPath(layerID: layer.id, keyPath: animation.keyPath ?? ""))
      return false
    }
    var values: [AnimationValue] = []
    switch animation.kind {
    case .basic(let f, let t, let b), .spring(let f, let t, let b, _): values = [f, t, b].compactMap { $0 }
    case .keyframes(let spec): values = spec.values ?? []
    case .group: break
    }
    guard keyPath.accept(ValueTypeCheck(values: values)) else {
      report(.animationValueMismatch(layerID: layer.id, keyPath: name))
      return false
    }
    return true
  }

  /// The key path's value before this turn's model writes (the render tree's previous value).
  private func previousValue(of keyPath: AnimationKeyPath, layer: View) -> AnimationValue {
    var values = layer.model
    withUnsafeMutablePointer(to: &values) { p in
      keyPath.propertyKey.accept(PreviousTrackValue(layer: layer, time: currentTime, values: p))
    }
    return keyPath.accept(ReadChannel(values: values))
  }

  /// Takes an animation off its layer; its stop (finished false) is reported at the next advance.
  func remove(_ a: AttachedAnimation) {
    guard a.isOnLayer else { return }
    a.isOnLayer = false
    a.layer?.attachedAnimations.removeAll { $0 === a }
    guard !a.stopped else { return }
    a.removedEarly = true
    logRemoval()
    a.version += 1
    events.push(
      PendingEvent(time: currentTime, seq: a.seq, kind: .explicitAnimation, index: a.index, version: a.version))
  }

  /// Schedules an animation's next start or end on the timeline (none while its layer's time stands still).
  private func schedule(_ a: AttachedAnimation) {
    guard !a.stopped, let layer = a.layer else { return }
    a.version += 1
    a.isParked = true
    let timing = a.resolved.timing
    let map = layer.timeMap()
    let local: Double?
    if !a.started {
      a.nextIsEnd = false
      // Speed 0 stands at its timeOffset from the start: it starts as soon as it is added.
      local = timing.speed == 0 ? map(currentTime) : timing.beginTime
    } else {
      a.nextIsEnd = true
      local = timing.endTime(duration: timing.duration)
    }
    guard let local else { return }
    let time: Double
    if map.scale == 0 {
      // The layer's time stands still: only what is already due can happen, its start, or its end when the
      // timeOffset was moved past it (Core Animation then ends it; Hero clamps its scrub to duration − 0.001 for
      // that reason).
      guard local <= map(currentTime) else { return }
      time = currentTime
    } else {
      guard let t = map.time(reaching: local) else { return }
      time = max(t, currentTime)
    }
    a.isParked = false
    events.push(PendingEvent(time: time, seq: a.seq, kind: .explicitAnimation, index: a.index, version: a.version))
  }

  /// Every live animation's events again, after a layer's timing changed.
  func rescheduleExplicitAnimations() {
    for a in coreAnimation.attached where !a.stopped && !a.removedEarly { schedule(a) }
  }

  /// Everything scheduled in layer time (explicit animations' starts and ends, block completions, property
  /// animators' ends) again, after a
  /// layer's timing or time parent changed.
  func layerTimeChanged() {
    rescheduleExplicitAnimations()
    rescheduleBlocks()
    for animator in propertyAnimators { animator.rescheduleEnd() }
  }

  /// Queues every parked animation's event now (`unparkAll`); returns whether there was any.
  func unparkExplicitAnimations() -> Bool {
    var any = false
    for a in coreAnimation.attached where a.isParked && !a.stopped {
      a.isParked = false
      a.version += 1
      events.push(
        PendingEvent(time: currentTime, seq: a.seq, kind: .explicitAnimation, index: a.index, version: a.version))
      any = true
    }
    return any
  }

  func isValidExplicitEvent(_ e: PendingEvent) -> Bool {
    switch e.kind {
    case .explicitAnimation:
      let a = coreAnimation.attached[e.index]
      return !a.stopped && a.version == e.version
    case .transaction:
      return coreAnimation.transactions[e.index].completion != nil
    default:
      return false
    }
  }

  /// Fires an animation's or a transaction's event (`finished` non-nil: fireAllPending's, which ends it now).
  func fireExplicitEvent(_ e: PendingEvent, finished override: Bool?) {
    if e.kind == .transaction {
      let t = coreAnimation.transactions[e.index]
      let completion = t.completion
      t.completion = nil
      pendingCount -= 1
      completion?()
      return
    }
    let a = coreAnimation.attached[e.index]
    if a.removedEarly {
      stop(a, finished: false)
    } else if let override {
      stop(a, finished: override)
    } else if !a.nextIsEnd {
      a.started = true
      a.original.delegate?.animationDidStart()
      schedule(a)
    } else {
      stop(a, finished: true)
    }
  }

  private func stop(_ a: AttachedAnimation, finished: Bool) {
    guard !a.stopped else { return }
    a.stopped = true
    pendingCount -= 1
    if a.original.isRemovedOnCompletion, a.isOnLayer {
      if finished { noteSnapBack(a) }
      a.isOnLayer = false
      a.layer?.attachedAnimations.removeAll { $0 === a }
    }
    a.original.delegate?.animationDidStop(finished: finished)
    // Innermost first: the inner transaction committed first.
    for t in a.transactions.reversed() {
      t.members -= 1
      if t.members == 0 && t.committed && t.completion != nil { scheduleCompletion(of: t) }
    }
  }

  /// Drops every pending animation event and transaction completion (discardPendingWork).
  func discardExplicitAnimations() {
    for a in coreAnimation.attached where !a.stopped {
      a.stopped = true
    }
    for t in coreAnimation.transactions {
      t.completion = nil
    }
    coreAnimation.open = []
    coreAnimation.implicit = nil
  }

  // MARK: Implicit actions

  /// After a model write outside any animation context: a layer that is not a view animates it implicitly.
  func runImplicitAction<Value: TrackValue>(
    view: View, property: AnimatableProperty<Value>, presentedBefore: AnimationValue?
  ) {
    guard let from = presentedBefore, !view.isView, !transactionDisablesActions, currentTime > view.createdAt,
      view.superview != nil || view.maskOwner != nil, property.key != .gradient
    else { return }
    let keyPath = AnimationKeyPath.property(property.key)
    var animation = ExplicitAnimation.basic(keyPath.name, from: from)
    animation.timing.duration = transactionAnimationDuration
    animation.timingFunction = transactionTimingFunction ?? .default
    guard animation.timing.duration > 0 else { return }
    timelineLog.addingImplicit = true
    addAnimation(animation, forKey: keyPath.name, to: view)
    timelineLog.addingImplicit = false
  }

  /// Whether a write of `view` should be looked at for an implicit action (cheap test before any work).
  func mayRunImplicitAction(_ view: View) -> Bool {
    !view.isView && (contexts.last.map { $0.kind != .immediate } ?? true) && currentTime > view.createdAt
      && (view.superview != nil || view.maskOwner != nil)
  }

  /// The presented value of a property just before a write (the model's old value under its animations).
  func presentedValue<Value: TrackValue>(of view: View, property: AnimatableProperty<Value>, old: Value)
    -> AnimationValue
  {
    var values = view.evaluated(at: currentTime, local: view.localTime(at: currentTime), memo: ProgressMemo())
    values[keyPath: property.value] =
      view.tracks[keyPath: property.track]?.value(at: currentTime, local: view.localTime(at: currentTime)) ?? old
    applyExplicitAnimations(of: view, at: currentTime, to: &values)
    return AnimationKeyPath.property(property.key).accept(ReadChannel(values: values))
  }

  // MARK: Presentation

  /// Applies a layer's explicit animations, in add order, to its presented values at timeline time t.
  ///
  /// `reusingBoxes` (a sample): the layer-only values the animations write go into a box kept from two samples back
  /// when no one holds it any more (`LayerBoxSpares`), not into a new copy of the model's each time.
  func applyExplicitAnimations(
    of view: View, at t: Double, to values: inout AnimatableValues, reusingBoxes: Bool = false
  ) {
    // `timeMap()` is the identity when no layer has a timing; `+ 0` is what applying the identity does (−0 to 0).
    let local = layerTimingCount == 0 ? t + 0 : view.timeMap()(t)
    withUnsafeMutablePointer(to: &values) { p in
      var spares: LayerBoxSpares?
      var source: LayerAppearanceBox?
      // The box taken, by identity only: a reference held here would make the box shared, and every write copy it.
      var taken: ObjectIdentifier?
      var written = LayerMemberSet()
      for a in view.attachedAnimations {
        if view.hasTracks, isCoveredByBlock(a, view: view, at: t) { continue }
        if !a.layerMembers.isEmpty {
          if reusingBoxes, spares == nil, let under = p.pointee.layerBox {
            let kept = a.boxSpares ?? LayerBoxSpares()
            a.boxSpares = kept
            let box = kept.take(copying: under)
            taken = ObjectIdentifier(box)
            p.pointee.layerBox = box
            spares = kept
            source = under
          }
          written.formUnion(a.layerMembers)
        }
        a.resolved.apply(to: p, parentTime: local, removesAtEnd: a.original.isRemovedOnCompletion)
      }
      if let spares, let source {
        // The box is kept only while it is still the one taken (a write that left every default drops it).
        let box = p.pointee.layerBox.flatMap { ObjectIdentifier($0) == taken ? $0 : nil }
        spares.keep(box, copiedFrom: source, written: written)
      }
    }
  }

  /// Whether a block animation added after `a` runs on a property `a` animates at t (it covers `a` then).
  private func isCoveredByBlock(_ a: AttachedAnimation, view: View, at t: Double) -> Bool {
    for key in a.resolved.propertyKeys {
      if let seq = key.accept(ActiveBlockSequence(view: view, time: t)), seq > a.seq { return true }
    }
    return false
  }
}

/// The creation order of the block animation running on a property at t, if any.
private struct ActiveBlockSequence: PropertyVisitor {
  let view: View
  let time: Double

  func visit<Value: TrackValue>(_ property: AnimatableProperty<Value>) -> Int? {
    guard let track = view.tracks[keyPath: property.track],
      let i = track.activeAnimation(at: time, local: view.localTime(at: time))
    else { return nil }
    return track.records[i].seq
  }
}

/// Sets a property in `values` to its track's value just before `time` (before the writes made at `time`).
private struct PreviousTrackValue: PropertyVisitor {
  let layer: View
  let time: Double
  let values: UnsafeMutablePointer<AnimatableValues>

  init(layer: View, time: Double, values: UnsafeMutablePointer<AnimatableValues>) {
    self.layer = layer
    self.time = time
    self.values = values
  }

  func visit<Value: TrackValue>(_ property: AnimatableProperty<Value>) {
    guard let track = layer.tracks[keyPath: property.track] else { return }
    values.pointee[keyPath: property.value] = track.value(at: time.nextDown, local: layer.localTime(at: time.nextDown))
  }
}

extension View {
  /// CALayer.add(_:forKey:) (see the file's comment). Ignored (and reported) for an unknown key path or a value of
  /// the wrong type.
  package func add(_ animation: ExplicitAnimation, forKey key: String?) {
    guard let scene else { return }
    scene.addAnimation(animation, forKey: key, to: self)
  }

  /// CALayer.animation(forKey:): the animation as added, while it is on the layer.
  package func animation(forKey key: String) -> ExplicitAnimation? {
    attachedAnimations.first { $0.key == key }?.original
  }

  /// CALayer.animationKeys(): the keys of the animations on the layer, in add order (nil when there is none).
  package func animationKeys() -> [String]? {
    let keys = attachedAnimations.compactMap(\.key)
    return keys.isEmpty ? nil : keys
  }

  /// CALayer.removeAnimation(forKey:): it stops presenting now; its delegate hears finished false at the next
  /// advance.
  package func removeAnimation(forKey key: String) {
    guard let scene, let a = attachedAnimations.first(where: { $0.key == key }) else { return }
    scene.remove(a)
  }

  /// CALayer.removeAllAnimations().
  package func removeAllAnimations() {
    guard let scene else { return }
    for a in attachedAnimations { scene.remove(a) }
  }
}

/// An animation removed on completion whose last presented value differed from the model value: the layer jumped
/// back at its end (the classic trap `validate` warns about).
package struct SnapBack: Equatable, Sendable {
  package let layerID: String
  package let key: String?
  package let keyPath: String
  /// The last value the animation presented.
  package let endValue: AnimationValue
  /// The value shown after it (the model with any block animations).
  package let modelValue: AnimationValue
  /// The timeline time of the jump.
  package let time: Double
}

extension Scene {
  /// Every snap-back seen so far, in time order.
  package var snapBacks: [SnapBack] { coreAnimation.snapBacks }

  /// Records a snap-back when `a`, ending now and removed on completion, leaves a different value behind.
  func noteSnapBack(_ a: AttachedAnimation) {
    guard let layer = a.layer, let keyPath = a.resolved.keyPath else { return }
    let timing = a.resolved.timing
    guard let end = timing.endTime(duration: timing.duration) else { return }
    let under = layer.evaluated(at: currentTime, local: layer.localTime(at: currentTime), memo: ProgressMemo())
    var shown = under
    // Its end value: the value a forwards fill would hold.
    let fill = a.resolved.timing.fillMode
    a.resolved.timing.fillMode = .both
    withUnsafeMutablePointer(to: &shown) { p in
      a.resolved.apply(to: p, parentTime: end, removesAtEnd: false)
    }
    a.resolved.timing.fillMode = fill
    let endValue = keyPath.accept(ReadChannel(values: shown))
    let modelValue = keyPath.accept(ReadChannel(values: under))
    guard !endValue.isClose(to: modelValue) else { return }
    coreAnimation.snapBacks.append(
      SnapBack(
        layerID: layer.id, key: a.key, keyPath: keyPath.name, endValue: endValue, modelValue: modelValue,
        time: currentTime))
  }
}

extension AnimationValue: CustomStringConvertible {
  /// The value as a report shows it.
  package var description: String {
    func n(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : "\(v)" }
    switch self {
    case .number(let v): return n(v)
    case .point(let p): return "(\(n(p.x)), \(n(p.y)))"
    case .size(let s): return "(\(n(s.width)) × \(n(s.height)))"
    case .rect(let r): return "(\(n(r.origin.x)), \(n(r.origin.y)), \(n(r.size.width)) × \(n(r.size.height)))"
    case .transform(let m): return "a transform (m11 \(n(m.m11)), m41 \(n(m.m41)), m42 \(n(m.m42)))"
    case .color(let c?): return "rgba(\(n(c.r)), \(n(c.g)), \(n(c.b)), \(n(c.a)))"
    case .color(nil): return "no colour"
    case .path(let p?): return "a path of \(p.elements.count) elements"
    case .path(nil): return "no path"
    }
  }

  /// Equal up to rounding (1e-9 per number).
  func isClose(to other: AnimationValue) -> Bool {
    func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-9 * max(1, abs(a), abs(b)) }
    switch (self, other) {
    case (.number(let a), .number(let b)): return near(a, b)
    case (.point(let a), .point(let b)): return near(a.x, b.x) && near(a.y, b.y)
    case (.size(let a), .size(let b)): return near(a.width, b.width) && near(a.height, b.height)
    case (.rect(let a), .rect(let b)):
      return near(a.origin.x, b.origin.x) && near(a.origin.y, b.origin.y) && near(a.size.width, b.size.width)
        && near(a.size.height, b.size.height)
    case (.transform(let a), .transform(let b)): return a.isClose(to: b)
    case (.color(let a?), .color(let b?)): return near(a.r, b.r) && near(a.g, b.g) && near(a.b, b.b) && near(a.a, b.a)
    default: return self == other
    }
  }
}

extension Transform3D {
  func isClose(to o: Transform3D) -> Bool {
    let a = [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44]
    let b = [
      o.m11, o.m12, o.m13, o.m14, o.m21, o.m22, o.m23, o.m24, o.m31, o.m32, o.m33, o.m34, o.m41, o.m42, o.m43, o.m44,
    ]
    return zip(a, b).allSatisfy { abs($0 - $1) <= 1e-9 * max(1, abs($0), abs($1)) }
  }
}

extension Scene {
  /// Whether a CATransaction.begin() is waiting for its commit.
  package var hasOpenTransaction: Bool { !coreAnimation.open.isEmpty }
}
