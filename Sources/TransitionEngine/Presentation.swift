// Sampling the presentation tree: every view's presented values at a time, world matrices, composited
// opacity and drawing order. Pure: no model value, history or completion changes (only scratch storage).

extension View {
  /// The presented values at timeline time t, which is `local` in this layer's time: the model, overridden by each
  /// property's history.
  @inline(__always)
  func evaluated(at t: Double, local: Double, memo: ProgressMemo) -> AnimatableValues {
    var p = model
    if hasTracks { tracks.apply(to: &p, at: t, local: local, memo: memo) }
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
    // One entry per node visited above (the tree's nodes: the container, sublayers, masks), each written in place
    // over the previous sample's entry: building an entry and appending it copied some 550 bytes per node, and
    // retained and released its strings, which are mostly the same ones again.
    let count = scratchViews.count
    if out.count > count {
      out.removeLast(out.count - count)
    } else if out.count < count {
      out.append(contentsOf: repeatElement(ViewState.blank, count: count - out.count))
    }
    scratchValues.withUnsafeBufferPointer { values in
      out.withUnsafeMutableBufferPointer { entries in
        var output = PresentationOutput(entries: entries.baseAddress!, capacity: entries.count)
        emit(
          container, parentID: nil, parentBasis: nil, parentWorld: .identity, parentOpacity: 1, parentHidden: false,
          values: values, into: &output)
        precondition(output.count == count, "the presentation scratch was reused during a sample")
      }
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
    // Evaluated in its slot: `evaluated(at:…)` built the values and the append copied them.
    scratchValues.append(v.model)
    if v.hasTracks {
      v.tracks.apply(to: &scratchValues[scratchValues.count - 1], at: time, local: local, memo: progressMemo)
    }
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

  /// Writes the entries of `v` and its subtree. `parentBasis`/`parentWorld` nil: `v` is the root (world = identity).
  func emit(
    _ v: View, parentID: String?, parentBasis: Transform3D?, parentWorld: Transform3D, parentOpacity: Double,
    parentHidden: Bool, values: UnsafeBufferPointer<AnimatableValues>, into out: inout PresentationOutput
  ) {
    // Read in place: a copy of the values per view per sample showed in profiles. The slot must be this sample's (a
    // driver that sampled the scene again from inside its update would have reset the scratch): trap rather than read
    // what is not there.
    precondition(
      v.presentationPass == presentationScratch.pass && v.presentationSlot < values.count
        && out.count < out.capacity,
      "the presentation scratch was reused during a sample")
    let p = values.baseAddress! + v.presentationSlot
    let world = parentBasis.map { p.pointee.world(parentBasis: $0, parentWorld: parentWorld) } ?? .identity
    let hidden = parentHidden || v.isHidden
    let opacity = hidden ? 0 : parentOpacity * clamp01(p.pointee.alpha)
    let d = out.entries + out.count
    d.pointee.zIndex = out.count
    out.count += 1
    // References are compared before they are stored: the same strings and boxes as last sample's are the rule.
    if d.pointee.id != v.id { d.pointee.id = v.id }
    if d.pointee.parentID != parentID { d.pointee.parentID = parentID }
    d.pointee.frame = p.pointee.frame
    d.pointee.bounds = p.pointee.bounds
    d.pointee.position = p.pointee.position
    d.pointee.anchorPoint = p.pointee.anchorPoint
    d.pointee.transform = p.pointee.transform
    if d.pointee.sublayerTransformBox !== p.pointee.sublayerTransformBox {
      d.pointee.sublayerTransformBox = p.pointee.sublayerTransformBox
    }
    d.pointee.worldTransform = world
    d.pointee.boundingBox = world.projectedBoundingBox(of: Rect(origin: .zero, size: p.pointee.bounds.size))
    d.pointee.alpha = p.pointee.alpha
    d.pointee.opacity = opacity
    d.pointee.isHidden = v.isHidden
    d.pointee.zPosition = p.pointee.zPosition
    d.pointee.backgroundColor = p.pointee.backgroundColor
    d.pointee.cornerRadius = p.pointee.cornerRadius
    d.pointee.clipsToBounds = v.clipsToBounds
    if d.pointee.gradientBox !== p.pointee.gradientBox { d.pointee.gradientBox = p.pointee.gradientBox }
    let snapshotOf = v.snapshotOf
    if d.pointee.snapshotOf != snapshotOf { d.pointee.snapshotOf = snapshotOf }
    setLayerMembers(of: d, node: v, values: p)
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

/// Where `Scene.emit` writes a sample: the entries of the caller's states, sized to the sample's nodes beforehand and
/// overwritten in drawing order.
struct PresentationOutput {
  let entries: UnsafeMutablePointer<ViewState>
  let capacity: Int
  /// The entries written so far (the next one's zIndex).
  var count = 0
}

extension ViewState {
  /// A placeholder entry that a sample overwrites (where the states grow to more nodes than the previous sample's).
  static let blank = ViewState(
    id: "", parentID: nil, frame: .zero, bounds: .zero, position: .zero, anchorPoint: .zero, transform: .identity,
    sublayerTransform: .identity, worldTransform: .identity, boundingBox: nil, alpha: 0, opacity: 0, isHidden: false,
    zPosition: 0, zIndex: 0, backgroundColor: nil, cornerRadius: 0, clipsToBounds: false, gradient: nil,
    snapshotOf: nil)
}
