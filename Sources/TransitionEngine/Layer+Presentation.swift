// Layers in the presentation: the layer members of a presented entry, and masks, which are sampled with the node
// they mask but are not part of its sublayer tree.

extension ViewState {
  /// The presented layer-only values (borders, shadows, shape, gradient type, …; defaults when none is set).
  package var layer: LayerAppearance {
    get { layerBox?.value ?? LayerAppearance.defaults }
    set { layerBox = LayerAppearanceBox.holding(newValue) }
  }

  /// What the entry draws as a frame will name it: `view` (a view's plain layer), `layer`, `gradient` (a gradient
  /// layer, or a view with a gradient) or `shape`.
  package var kindName: String {
    if layerKind == .shape { return "shape" }
    if layerKind == .gradient || gradientBox != nil { return "gradient" }
    return isView ? "view" : "layer"
  }
}

extension Scene {
  /// Sets the layer members of a presented entry in place (over the previous sample's: each is set, the references
  /// only when they differ). `maskOwnerID` is cleared here and set by `emitMask`.
  @inline(__always)
  func setLayerMembers(of state: UnsafeMutablePointer<ViewState>, node: View, values: UnsafePointer<AnimatableValues>) {
    state.pointee.isView = node.isView
    state.pointee.layerKind = node.layerKind
    if state.pointee.layerBox !== values.pointee.layerBox { state.pointee.layerBox = values.pointee.layerBox }
    if let mask = node.mask {
      if state.pointee.maskID != mask.id { state.pointee.maskID = mask.id }
    } else if state.pointee.maskID != nil {
      state.pointee.maskID = nil
    }
    if state.pointee.maskOwnerID != nil { state.pointee.maskOwnerID = nil }
  }

  /// Appends a mask and its sublayers right after the node it masks. A mask's geometry is in its owner's bounds
  /// coordinates, as a sublayer's, but the owner's sublayerTransform does not apply to it (it is not a sublayer);
  /// its opacity is its own (composited down its own sublayers), not multiplied by the owner's, since it says how
  /// much of the owner shows.
  func emitMask(
    _ mask: View, owner: View, ownerValues: UnsafePointer<AnimatableValues>, ownerWorld: Transform3D,
    values: UnsafeBufferPointer<AnimatableValues>, into out: inout PresentationOutput
  ) {
    let origin = ownerValues.pointee.bounds.origin
    let index = out.count
    emit(
      mask, parentID: owner.id, parentBasis: Transform3D(translationX: -origin.x, y: -origin.y),
      parentWorld: ownerWorld, parentOpacity: 1, parentHidden: false, values: values, into: &out)
    (out.entries + index).pointee.maskOwnerID = owner.id
  }
}

extension ViewState {
  /// Whether the entry has any layer member a frame writes beyond the view members: a layer-only value off its
  /// default, a mask, being a mask, being a layer that is not a view, or drawing a gradient or shape. False for the
  /// plain views of most frames, which then cost the layer members one test.
  package var hasLayerMembers: Bool {
    layerBox != nil || maskID != nil || maskOwnerID != nil || !isView || layerKind != .layer || gradientBox != nil
  }

  /// `hasLayerMembers` of the entry at `entry`, read in place: a computed property read through `pointee` from another
  /// module copies the whole entry (552 bytes, its strings and boxes retained) for the call, once per view and frame
  /// in the frame encoder, which reads its entries where the sample wrote them.
  package static func hasLayerMembers(at entry: UnsafePointer<ViewState>) -> Bool {
    entry.pointee.layerBox != nil || entry.pointee.maskID != nil || entry.pointee.maskOwnerID != nil
      || !entry.pointee.isView || entry.pointee.layerKind != .layer || entry.pointee.gradientBox != nil
  }

  /// `gradient` of the entry at `entry`, read in place (see `hasLayerMembers(at:)`).
  package static func gradient(at entry: UnsafePointer<ViewState>) -> Gradient? {
    entry.pointee.gradientBox?.value
  }
}
