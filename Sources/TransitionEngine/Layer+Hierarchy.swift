// The layer tree: layers that are not views, CALayer's sublayer calls, masks, and how UIKit's subview calls place a
// view's layer among its superview's sublayers.
//
// A node's `sublayers` are its drawing order (before zPosition sorting): the layers of its subviews and the layers
// that are not views, interleaved. Until a layer that is not a view is added to a node, its sublayers are exactly
// its subviews (`layerOrder` nil, no second array). Hierarchy changes are never animated, as for views.

extension Scene {
  /// Makes a layer that is not a view (CALayer(), CAGradientLayer(), CAShapeLayer()) with this id: not attached
  /// anywhere, CALayer's default values. Ids are shared with views (a frame names both). Throws when the id is
  /// empty or already used.
  package func makeLayer(id: String, kind: LayerKind = .layer) throws(SceneError) -> View {
    let layer = try makeView(id: id)
    layer.isView = false
    layer.layerKind = kind
    return layer
  }

  /// Makes a layer with a fresh id derived from `hint` (see `makeUniqueID(hint:)`).
  package func makeLayer(hint: String, kind: LayerKind = .layer) -> View {
    let layer = makeView(hint: hint)
    layer.isView = false
    layer.layerKind = kind
    return layer
  }
}

extension View {
  /// CALayer.sublayers: back to front, before zPosition sorting (the subviews' layers and the layers that are not
  /// views, interleaved).
  package var sublayers: [View] { layerOrder ?? subviews }

  /// CALayer.superlayer (for a view's layer, its superview's layer — the same node as the superview).
  package var superlayer: View? { superview }

  /// CALayer.addSublayer: `layer` leaves its old superlayer and goes on top of the sublayers (to the top when it is
  /// already one).
  package func addSublayer(_ layer: View) {
    guard canAdoptLayer(layer) else { return }
    layer.detach()
    var order = sublayers
    order.append(layer)
    layerOrder = order
    layer.superview = self
  }

  /// CALayer.insertSublayer(_:at:): the index is clamped to 0…count after `layer` has left its old place.
  package func insertSublayer(_ layer: View, at index: Int) {
    guard canAdoptLayer(layer) else { return }
    layer.detach()
    var order = sublayers
    order.insert(layer, at: min(max(index, 0), order.count))
    layerOrder = order
    layer.superview = self
  }

  /// CALayer.insertSublayer(_:below:). A sibling that is not a sublayer is reported and `layer` goes on top.
  package func insertSublayer(_ layer: View, below sibling: View) {
    insertLayer(layer, nextTo: sibling, above: false)
  }

  /// CALayer.insertSublayer(_:above:). A sibling that is not a sublayer is reported and `layer` goes on top.
  package func insertSublayer(_ layer: View, above sibling: View) {
    insertLayer(layer, nextTo: sibling, above: true)
  }

  /// CALayer.removeFromSuperlayer (a view's layer: as removeFromSuperview). Also ends being a mask.
  package func removeFromSuperlayer() {
    if let owner = maskOwner {
      owner.mask = nil
      maskOwner = nil
    }
    detach()
  }

  /// Sets CALayer.mask (UIView.mask when `mask` is a view): the mask's alpha (its composited opacity, content and
  /// shape) masks this node. The mask leaves its superlayer and any node it masked before (Core Animation requires
  /// a mask without a superlayer); nil removes the mask. Not animatable.
  package func setMask(_ newMask: View?) {
    if let newMask {
      if newMask.scene !== scene {
        scene?.report(.foreignView(viewID: newMask.id))
        return
      }
      if newMask === self || isDescendant(of: newMask) {
        scene?.report(.hierarchyCycle(viewID: newMask.id, superviewID: id))
        return
      }
    }
    if let old = mask { old.maskOwner = nil }
    mask = nil
    guard let newMask else { return }
    newMask.removeFromSuperlayer()
    mask = newMask
    newMask.maskOwner = self
  }

  private func insertLayer(_ layer: View, nextTo sibling: View, above: Bool) {
    guard canAdoptLayer(layer) else { return }
    if layer === sibling { return }
    guard sibling.superview === self else {
      scene?.report(.notASublayer(layerID: sibling.id, superlayerID: id))
      addSublayer(layer)
      return
    }
    layer.detach()
    var order = sublayers
    let i = order.firstIndex { $0 === sibling } ?? order.count
    order.insert(layer, at: above ? i + 1 : i)
    layerOrder = order
    layer.superview = self
  }

  /// Whether `layer` may become a sublayer of this node; reports why not.
  private func canAdoptLayer(_ layer: View) -> Bool {
    if layer.isView {
      scene?.report(.viewLayerAsSublayer(viewID: layer.id))
      return false
    }
    if layer.scene !== scene {
      scene?.report(.foreignView(viewID: layer.id))
      return false
    }
    if isDescendant(of: layer) {
      scene?.report(.hierarchyCycle(viewID: layer.id, superviewID: id))
      return false
    }
    if let owner = layer.maskOwner {
      owner.mask = nil
      layer.maskOwner = nil
    }
    return true
  }

  // MARK: Views' layers among the sublayers (UIKit's rules)

  /// After a subview call placed `view` in `subviews`, places its layer: just below (or above) `neighbour`'s layer,
  /// or on top when there is no neighbour. UIKit's `insertSubview(_:at:)` inserts below the layer of the subview
  /// then at the index after it (on top past the last), `insertSubview(_:below/aboveSubview:)` next to the
  /// sibling's layer. Nothing to do while the sublayers are just the subviews.
  func placeLayer(of view: View, nextTo neighbour: View?, above: Bool) {
    guard var order = layerOrder else { return }
    if let neighbour, let i = order.firstIndex(where: { $0 === neighbour }) {
      order.insert(view, at: above ? i + 1 : i)
    } else {
      order.append(view)
    }
    layerOrder = order
  }

  /// bringSubviewToFront / sendSubviewToBack: the layer goes to the top (or bottom) of all sublayers.
  func moveLayer(of view: View, toFront: Bool) {
    guard var order = layerOrder, let i = order.firstIndex(where: { $0 === view }) else { return }
    order.remove(at: i)
    if toFront { order.append(view) } else { order.insert(view, at: 0) }
    layerOrder = order
  }

  /// Removes `child` from the separate layer order (a child leaving this node).
  func removeFromLayerOrder(_ child: View) {
    guard layerOrder != nil, let i = layerOrder!.firstIndex(where: { $0 === child }) else { return }
    layerOrder!.remove(at: i)
  }
}
