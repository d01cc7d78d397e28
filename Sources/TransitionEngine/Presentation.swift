// Sampling the presentation tree: every view's presented values at a time, world matrices, composited
// opacity and drawing order. Pure: no model value, history or completion changes (only scratch storage).

extension View {
  /// Fills `presented` with the values at t: the model, overridden by each property's history.
  @inline(__always)
  func evaluate(at t: Double, memo: ProgressMemo) {
    guard hasTracks else {
      presented = model
      return
    }
    var p = model
    if let v = tracks.bounds?.value(at: t, memo: memo) { p.bounds = v }
    if let v = tracks.position?.value(at: t, memo: memo) { p.position = v }
    if let v = tracks.anchorPoint?.value(at: t, memo: memo) { p.anchorPoint = v }
    if let v = tracks.transform?.value(at: t, memo: memo) { p.transform = v }
    if let v = tracks.sublayerTransform?.value(at: t, memo: memo) { p.sublayerTransform = v }
    if let v = tracks.alpha?.value(at: t, memo: memo) { p.alpha = v }
    if let v = tracks.zPosition?.value(at: t, memo: memo) { p.zPosition = v }
    if let v = tracks.cornerRadius?.value(at: t, memo: memo) { p.cornerRadius = v }
    // Optional-valued: optional chaining would flatten a presented nil into "no track".
    if tracks.backgroundColor != nil { p.backgroundColor = tracks.backgroundColor!.value(at: t, memo: memo) }
    if tracks.gradient != nil { p.gradient = tracks.gradient!.value(at: t, memo: memo) }
    presented = p
  }
}

extension Scene {
  /// The presentation tree at local time t, in drawing order: the container first, then depth first, each
  /// view's subviews sorted by presented zPosition (stable: ties keep the subview order).
  ///
  /// Pure and deterministic: it runs no completion and changes no model value; custom drivers' updates are
  /// called and must be pure. The hierarchy and non-animatable properties are the current ones; animatable
  /// values come from their recorded history, so an earlier t shows what was running then (also after later
  /// blocks replaced it). Cost: linear in views plus animated properties. A non-finite t samples
  /// `currentTime`.
  package func presentation(at t: Double) -> [ViewState] {
    var out: [ViewState] = []
    presentation(at: t, into: &out)
    return out
  }

  /// `presentation(at:)` into a reused buffer (its capacity is kept, so steady sampling does not reallocate).
  package func presentation(at t: Double, into out: inout [ViewState]) {
    let time = t.isFinite ? t : currentTime
    out.removeAll(keepingCapacity: true)
    progressMemo.beginSample()
    scratchViews.removeAll(keepingCapacity: true)
    scratchViews.append(container)
    var i = 0
    while i < scratchViews.count {
      let v = scratchViews[i]
      v.evaluate(at: time, memo: progressMemo)
      scratchViews.append(contentsOf: v.subviews)
      i += 1
    }
    if !drivers.isEmpty {
      runDrivers(at: time, sink: DriverSink(scene: self))
    }
    emit(
      container, parentID: nil, parentBasis: nil, parentWorld: .identity, parentOpacity: 1, parentHidden: false,
      into: &out)
  }

  /// The presented values of one view at t (animations and drivers; no world matrix). Pure, like
  /// `presentation(at:)`.
  package func presentedValues(of view: View, at t: Double) -> AnimatableValues {
    let time = t.isFinite ? t : currentTime
    progressMemo.beginSample()
    view.evaluate(at: time, memo: progressMemo)
    if !drivers.isEmpty {
      runDrivers(at: time, sink: DriverSink(scene: self))
    }
    return view.presented
  }

  /// Appends `v` and its subtree. `parentBasis`/`parentWorld` nil: `v` is the root (world = identity).
  private func emit(
    _ v: View, parentID: String?, parentBasis: Transform3D?, parentWorld: Transform3D, parentOpacity: Double,
    parentHidden: Bool, into out: inout [ViewState]
  ) {
    let p = v.presented
    let world = parentBasis.map { p.world(parentBasis: $0, parentWorld: parentWorld) } ?? .identity
    let hidden = parentHidden || v.isHidden
    let opacity = hidden ? 0 : parentOpacity * clamp01(p.alpha)
    out.append(
      ViewState(
        id: v.id, parentID: parentID, frame: p.frame, bounds: p.bounds, position: p.position,
        anchorPoint: p.anchorPoint, transform: p.transform, sublayerTransform: p.sublayerTransform,
        worldTransform: world, boundingBox: world.projectedBoundingBox(of: Rect(origin: .zero, size: p.bounds.size)),
        alpha: p.alpha, opacity: opacity, isHidden: v.isHidden, zPosition: p.zPosition, zIndex: out.count,
        backgroundColor: p.backgroundColor, cornerRadius: p.cornerRadius, clipsToBounds: v.clipsToBounds,
        gradient: p.gradient, snapshotOf: v.snapshotOf))
    let subs = v.subviews
    if subs.isEmpty { return }
    let basis = p.childBasis
    var ordered = true
    for k in subs.indices.dropFirst() where subs[k].presented.zPosition < subs[k - 1].presented.zPosition {
      ordered = false
      break
    }
    if ordered {
      for c in subs {
        emit(
          c, parentID: v.id, parentBasis: basis, parentWorld: world, parentOpacity: opacity, parentHidden: hidden,
          into: &out)
      }
    } else {
      let sorted = subs.indices.sorted {
        let a = subs[$0].presented.zPosition
        let b = subs[$1].presented.zPosition
        return a != b ? a < b : $0 < $1
      }
      for k in sorted {
        let c = subs[k]
        emit(
          c, parentID: v.id, parentBasis: basis, parentWorld: world, parentOpacity: opacity, parentHidden: hidden,
          into: &out)
      }
    }
  }
}
