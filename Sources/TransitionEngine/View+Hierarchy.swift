// The view hierarchy: ordered subviews, UIKit's insertion and reordering calls, lookup by id.
//
// Hierarchy changes are never animated (also inside animation blocks) and are not part of the animation
// history: `Scene.presentation(at:)` always draws the current tree. Misuse that UIKit would trap on (a view
// added to itself or to its own descendant, a view of another scene) is reported and ignored.

extension View {
  /// Adds `view` on top of the subviews (UIView.addSubview): removed from its old superview first; when it is
  /// already a subview, it moves to the front.
  package func addSubview(_ view: View) {
    guard canAdopt(view) else { return }
    view.detach()
    subviews.append(view)
    layerOrder?.append(view)
    view.superview = self
  }

  /// Inserts `view` at `index` of the subviews (UIView.insertSubview(_:at:)); the index is clamped to
  /// 0…count after `view` has left its old place.
  package func insertSubview(_ view: View, at index: Int) {
    guard canAdopt(view) else { return }
    view.detach()
    let i = min(max(index, 0), subviews.count)
    subviews.insert(view, at: i)
    placeLayer(of: view, nextTo: i + 1 < subviews.count ? subviews[i + 1] : nil, above: false)
    view.superview = self
  }

  /// Inserts `view` just below `sibling` (UIView.insertSubview(_:belowSubview:)). When `sibling` is not a
  /// subview of this view, the misuse is reported and `view` is added on top, as `addSubview` would.
  package func insertSubview(_ view: View, belowSubview sibling: View) {
    insert(view, nextTo: sibling, offset: 0)
  }

  /// Inserts `view` just above `sibling` (UIView.insertSubview(_:aboveSubview:)). When `sibling` is not a
  /// subview of this view, the misuse is reported and `view` is added on top.
  package func insertSubview(_ view: View, aboveSubview sibling: View) {
    insert(view, nextTo: sibling, offset: 1)
  }

  /// Moves a subview to the front (UIView.bringSubviewToFront); no-op when it is not a subview, as in UIKit.
  package func bringSubviewToFront(_ view: View) {
    guard view.superview === self, let i = subviews.firstIndex(where: { $0 === view }) else { return }
    subviews.remove(at: i)
    subviews.append(view)
    moveLayer(of: view, toFront: true)
  }

  /// Moves a subview to the back (UIView.sendSubviewToBack); no-op when it is not a subview, as in UIKit.
  package func sendSubviewToBack(_ view: View) {
    guard view.superview === self, let i = subviews.firstIndex(where: { $0 === view }) else { return }
    subviews.remove(at: i)
    subviews.insert(view, at: 0)
    moveLayer(of: view, toFront: false)
  }

  /// Removes the view from its superview (UIView.removeFromSuperview). Its animations keep running.
  package func removeFromSuperview() {
    detach()
  }

  /// The view with this id in this view's subtree (this view included), depth first, back to front.
  package func view(withID id: String) -> View? {
    if self.id == id { return self }
    for s in subviews {
      if let found = s.view(withID: id) { return found }
    }
    return nil
  }

  /// Leaves the superview without any check.
  func detach() {
    guard let parent = superview else { return }
    if let i = parent.subviews.firstIndex(where: { $0 === self }) {
      parent.subviews.remove(at: i)
    }
    parent.removeFromLayerOrder(self)
    superview = nil
  }

  private func insert(_ view: View, nextTo sibling: View, offset: Int) {
    guard canAdopt(view) else { return }
    if view === sibling { return }
    guard sibling.superview === self else {
      scene?.report(.notASubview(viewID: sibling.id, superviewID: id))
      addSubview(view)
      return
    }
    view.detach()
    let i = subviews.firstIndex(where: { $0 === sibling }) ?? subviews.count
    subviews.insert(view, at: i + offset)
    placeLayer(of: view, nextTo: sibling, above: offset == 1)
    view.superview = self
  }

  /// Whether `view` may become a subview of this view; reports why not.
  private func canAdopt(_ view: View) -> Bool {
    if view.scene !== scene {
      scene?.report(.foreignView(viewID: view.id))
      return false
    }
    if isDescendant(of: view) {
      scene?.report(.hierarchyCycle(viewID: view.id, superviewID: id))
      return false
    }
    return true
  }
}
