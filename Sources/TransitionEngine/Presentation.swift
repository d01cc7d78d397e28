// Sampling the presentation tree: every view's presented values at a time, world matrices, composited
// opacity and drawing order. Pure: no model value, history or completion changes (only scratch storage).

extension View {
  /// The presented values at timeline time t, which is `local` in this layer's time: the model, overridden by each
  /// property's history.
  @inline(__always)
  func evaluated(at t: Double, local: Double, memo: ProgressMemo) -> AnimatableValues {
    guard hasTracks else { return model }
    var p = model
    if let v = tracks.bounds?.value(at: t, local: local, memo: memo) { p.bounds = v }
    if let v = tracks.position?.value(at: t, local: local, memo: memo) { p.position = v }
    if let v = tracks.anchorPoint?.value(at: t, local: local, memo: memo) { p.anchorPoint = v }
    if let v = tracks.transform?.value(at: t, local: local, memo: memo) { p.transform = v }
    if let v = tracks.sublayerTransform?.value(at: t, local: local, memo: memo) { p.sublayerTransform = v }
    if let v = tracks.alpha?.value(at: t, local: local, memo: memo) { p.alpha = v }
    if let v = tracks.zPosition?.value(at: t, local: local, memo: memo) { p.zPosition = v }
    if let v = tracks.cornerRadius?.value(at: t, local: local, memo: memo) { p.cornerRadius = v }
    // Optional-valued: optional chaining would flatten a presented nil into "no track".
    if tracks.backgroundColor != nil {
      p.backgroundColor = tracks.backgroundColor!.value(at: t, local: local, memo: memo)
    }
    if tracks.gradient != nil { p.gradient = tracks.gradient!.value(at: t, local: local, memo: memo) }
    let layerTracks = tracks.layer
    if !layerTracks.isEmpty { p.layer = layerTracks.evaluated(p.layer, at: t, local: local, memo: memo) }
    return p
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
    beginPresentation()
    scratchViews.append(container)
    var i = 0
    while i < scratchViews.count {
      let v = scratchViews[i]
      present(v, at: time)
      scratchViews.append(contentsOf: v.sublayers)
      if let m = v.mask { scratchViews.append(m) }
      i += 1
    }
    if !drivers.isEmpty {
      runDrivers(at: time, sink: DriverSink(scene: self))
    }
    scratchValues.withUnsafeBufferPointer { values in
      emit(
        container, parentID: nil, parentBasis: nil, parentWorld: .identity, parentOpacity: 1, parentHidden: false,
        values: values, into: &out)
    }
    endPresentation()
  }

  /// The presented values of one view at t (animations and drivers; no world matrix). Pure, like
  /// `presentation(at:)`.
  package func presentedValues(of view: View, at t: Double) -> AnimatableValues {
    let time = t.isFinite ? t : currentTime
    beginPresentation()
    present(view, at: time)
    if !drivers.isEmpty {
      runDrivers(at: time, sink: DriverSink(scene: self))
    }
    let values = scratchValues[0]
    endPresentation()
    return values
  }

  // The presented values of a sample live in the scratch's `values`, one slot per view in traversal order, rather
  // than in each view: a view needs them only while a sample is computed, and 1,000 views would otherwise carry
  // 1,000 copies between samples (and copy them in and out on every one). Scenes sampled on one thread may share one
  // scratch (`presentationScratch`), so 10,000 scenes do not each keep one.

  /// Starts a sample: every slot handed out before becomes stale.
  private func beginPresentation() {
    progressMemo.beginSample()
    presentationScratch.pass &+= 1
    scratchViews.removeAll(keepingCapacity: true)
    scratchValues.removeAll(keepingCapacity: true)
  }

  /// Ends a sample: the scratch lets go of this scene's views (a shared scratch must not keep them alive).
  private func endPresentation() {
    scratchViews.removeAll(keepingCapacity: true)
    scratchValues.removeAll(keepingCapacity: true)
  }

  /// Evaluates `v` at `time` into the next slot.
  private func present(_ v: View, at time: Double) {
    v.presentationSlot = scratchValues.count
    v.presentationPass = presentationScratch.pass
    // Block animations run in the layer's local time (the timeline time unless some layer has a timing).
    let local = layerTimingCount == 0 ? time : v.localTime(at: time)
    scratchValues.append(v.evaluated(at: time, local: local, memo: progressMemo))
    if !v.attachedAnimations.isEmpty {
      applyExplicitAnimations(of: v, at: time, to: &scratchValues[scratchValues.count - 1], reusingBoxes: true)
    }
  }

  /// Overrides one presented value of the current sample (a driver's update); a view that is not part of the
  /// sample is left alone.
  func setPresented<Value: TrackValue>(_ property: AnimatableProperty<Value>, of view: View, _ value: Value) {
    guard view.presentationPass == presentationScratch.pass, view.presentationSlot < scratchValues.count else { return }
    scratchValues[view.presentationSlot][keyPath: property.value] = value
  }

  /// Appends `v` and its subtree. `parentBasis`/`parentWorld` nil: `v` is the root (world = identity).
  func emit(
    _ v: View, parentID: String?, parentBasis: Transform3D?, parentWorld: Transform3D, parentOpacity: Double,
    parentHidden: Bool, values: UnsafeBufferPointer<AnimatableValues>, into out: inout [ViewState]
  ) {
    // Read in place: a copy of the values per view per sample showed in profiles. The slot must be this sample's (a
    // driver that sampled the scene again from inside its update would have reset the scratch): trap rather than read
    // what is not there.
    precondition(
      v.presentationPass == presentationScratch.pass && v.presentationSlot < values.count,
      "the presentation scratch was reused during a sample")
    let p = values.baseAddress! + v.presentationSlot
    let world = parentBasis.map { p.pointee.world(parentBasis: $0, parentWorld: parentWorld) } ?? .identity
    let hidden = parentHidden || v.isHidden
    let opacity = hidden ? 0 : parentOpacity * clamp01(p.pointee.alpha)
    out.append(
      ViewState(
        id: v.id, parentID: parentID, frame: p.pointee.frame, bounds: p.pointee.bounds, position: p.pointee.position,
        anchorPoint: p.pointee.anchorPoint, transform: p.pointee.transform,
        sublayerTransform: p.pointee.sublayerTransform, worldTransform: world,
        boundingBox: world.projectedBoundingBox(of: Rect(origin: .zero, size: p.pointee.bounds.size)),
        alpha: p.pointee.alpha, opacity: opacity, isHidden: v.isHidden, zPosition: p.pointee.zPosition,
        zIndex: out.count, backgroundColor: p.pointee.backgroundColor, cornerRadius: p.pointee.cornerRadius,
        clipsToBounds: v.clipsToBounds, gradient: p.pointee.gradient, snapshotOf: v.snapshotOf))
    if !v.isView || v.layerKind != .layer || p.pointee.layerBox != nil || v.mask != nil {
      setLayerMembers(of: &out[out.count - 1], node: v, values: p)
    }
    if let m = v.mask {
      emitMask(m, owner: v, ownerValues: p, ownerWorld: world, values: values, into: &out)
    }
    let subs = v.sublayers
    if subs.isEmpty { return }
    let basis = p.pointee.childBasis
    var ordered = true
    for k in subs.indices.dropFirst()
    where values[subs[k].presentationSlot].zPosition < values[subs[k - 1].presentationSlot].zPosition {
      ordered = false
      break
    }
    if ordered {
      for c in subs {
        emit(
          c, parentID: v.id, parentBasis: basis, parentWorld: world, parentOpacity: opacity, parentHidden: hidden,
          values: values, into: &out)
      }
    } else {
      let sorted = subs.indices.sorted {
        let a = values[subs[$0].presentationSlot].zPosition
        let b = values[subs[$1].presentationSlot].zPosition
        return a != b ? a < b : $0 < $1
      }
      for k in sorted {
        let c = subs[k]
        emit(
          c, parentID: v.id, parentBasis: basis, parentWorld: world, parentOpacity: opacity, parentHidden: hidden,
          values: values, into: &out)
      }
    }
  }
}
