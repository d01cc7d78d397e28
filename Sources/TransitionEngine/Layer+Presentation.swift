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
    if layerKind == .gradient || gradient != nil { return "gradient" }
    return isView ? "view" : "layer"
  }
}

extension Scene {
  /// Sets the layer members of a presented entry (only called for a node with any of them: a view that is a plain
  /// layer with no layer-only value and no mask keeps the defaults without paying for them).
  func setLayerMembers(of state: inout ViewState, node: View, values: UnsafePointer<AnimatableValues>) {
    state.isView = node.isView
    state.layerKind = node.layerKind
    state.layerBox = values.pointee.layerBox
    if let mask = node.mask { state.maskID = mask.id }
  }

  /// Appends a mask and its sublayers right after the node it masks. A mask's geometry is in its owner's bounds
  /// coordinates, as a sublayer's, but the owner's sublayerTransform does not apply to it (it is not a sublayer);
  /// its opacity is its own (composited down its own sublayers), not multiplied by the owner's, since it says how
  /// much of the owner shows.
  func emitMask(
    _ mask: View, owner: View, ownerValues: UnsafePointer<AnimatableValues>, ownerWorld: Transform3D,
    values: UnsafeBufferPointer<AnimatableValues>, into out: inout [ViewState]
  ) {
    let origin = ownerValues.pointee.bounds.origin
    let index = out.count
    emit(
      mask, parentID: owner.id, parentBasis: Transform3D(translationX: -origin.x, y: -origin.y),
      parentWorld: ownerWorld, parentOpacity: 1, parentHidden: false, values: values, into: &out)
    out[index].maskOwnerID = owner.id
  }
}

extension ViewState {
  /// Whether the entry has any layer member a frame writes beyond the view members: a layer-only value off its
  /// default, a mask, being a mask, being a layer that is not a view, or drawing a gradient or shape. False for the
  /// plain views of most frames, which then cost the layer members one test.
  package var hasLayerMembers: Bool {
    layerBox != nil || maskID != nil || maskOwnerID != nil || !isView || layerKind != .layer || gradient != nil
  }
}
