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
  /// A presented entry: the view members as given, the node's layer members from `values`.
  @inline(__always)
  func presentedState(
    id: String, parentID: String?, frame: Rect, bounds: Rect, position: Point, anchorPoint: Point,
    transform: Transform3D, sublayerTransform: Transform3D, worldTransform: Transform3D, boundingBox: Rect?,
    alpha: Double, opacity: Double, isHidden: Bool, zPosition: Double, zIndex: Int, backgroundColor: Color?,
    cornerRadius: Double, clipsToBounds: Bool, gradient: Gradient?, snapshotOf: String?, node: View,
    values: UnsafePointer<AnimatableValues>
  ) -> ViewState {
    var state = ViewState(
      id: id, parentID: parentID, frame: frame, bounds: bounds, position: position, anchorPoint: anchorPoint,
      transform: transform, sublayerTransform: sublayerTransform, worldTransform: worldTransform,
      boundingBox: boundingBox, alpha: alpha, opacity: opacity, isHidden: isHidden, zPosition: zPosition,
      zIndex: zIndex, backgroundColor: backgroundColor, cornerRadius: cornerRadius, clipsToBounds: clipsToBounds,
      gradient: gradient, snapshotOf: snapshotOf)
    state.isView = node.isView
    state.layerKind = node.layerKind
    state.layerBox = values.pointee.layerBox
    state.maskID = node.mask?.id
    if let owner = node.maskOwner { state.maskOwnerID = owner.id }
    return state
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
    emit(
      mask, parentID: owner.id, parentBasis: Transform3D(translationX: -origin.x, y: -origin.y),
      parentWorld: ownerWorld, parentOpacity: 1, parentHidden: false, values: values, into: &out)
  }
}
