// Snapshot views (UIView.snapshotView(afterScreenUpdates:)) and whole-scene state capture for cancelling.

extension View {
  /// A snapshot of this view (UIView.snapshotView(afterScreenUpdates:)): a new, unattached view of the same
  /// scene the size of this view's bounds at origin zero (frame (0, 0, width, height)), showing its content.
  ///
  /// The snapshot copies the appearance at snapshot time — background colour, corner radius, gradient,
  /// clipsToBounds, the content of an image or visual-effect view — and sets `snapshotOf` to this view's id (to the original's when this view is itself a
  /// snapshot), so a client draws that view's content, subviews included; the snapshot itself has no subviews.
  /// Its own alpha, transform and anchor point are the defaults (the source's are not part of its content).
  /// `afterScreenUpdates` true copies the model values (pending changes applied); false copies what is
  /// presented at the scene's current time. Its id is derived from this view's (`<id>-snapshot`, made unique).
  package func snapshotView(afterScreenUpdates: Bool = true) -> View {
    let source: AnimatableValues
    if !afterScreenUpdates, let scene {
      source = scene.presentedValues(of: self, at: scene.currentTime)
    } else {
      source = model
    }
    let snap: View
    if let scene {
      snap = scene.makeView(hint: "\(id)-snapshot")
    } else {
      snap = View(id: "\(id)-snapshot", scene: nil, createdAt: 0)
    }
    let size = source.bounds.size
    snap.model.bounds = Rect(origin: .zero, size: size)
    snap.model.position = Point(x: size.width / 2, y: size.height / 2)
    snap.model.backgroundColor = source.backgroundColor
    snap.model.cornerRadius = source.cornerRadius
    snap.model.gradient = source.gradient
    snap.clipsToBounds = clipsToBounds
    snap.snapshotOf = snapshotOf ?? id
    snap.content = content
    return snap
  }
}

/// Every property of every view of a scene and the hierarchy, captured bit for bit (for cancelling a
/// transition back to its initial state).
package struct SceneSnapshot {
  struct Entry {
    let view: View
    let model: AnimatableValues
    let isHidden: Bool
    let clipsToBounds: Bool
    let snapshotOf: String?
    let content: ViewContent?
    let subviews: [View]
    /// The layer tree: the separate sublayer order (nil = the subviews), the mask and the layer kind.
    let layerOrder: [View]?
    let mask: View?
    let layerKind: LayerKind
    /// The layer's explicit animations and timing.
    var animations: [AttachedAnimation] = []
    var layerTiming: LayerTiming? = nil
  }

  let entries: [Entry]
  /// The scene time of the capture.
  package let time: Double

  /// The captured values of a view, nil when it did not exist at capture time.
  package func values(of view: View) -> AnimatableValues? {
    entries.first { $0.view === view }?.model
  }
}

extension Scene {
  /// Captures every view made so far: model values, hidden, clipsToBounds, snapshotOf, content and subviews.
  package func snapshot() -> SceneSnapshot {
    let views = registry.values.sorted { $0.id < $1.id }
    return SceneSnapshot(
      entries: views.map {
        SceneSnapshot.Entry(
          view: $0, model: $0.model, isHidden: $0.isHidden, clipsToBounds: $0.clipsToBounds,
          snapshotOf: $0.snapshotOf, content: $0.content, subviews: $0.subviews, layerOrder: $0.layerOrder,
          mask: $0.mask, layerKind: $0.layerKind, animations: $0.attachedAnimations,
          layerTiming: $0.layerTimingStorage)
      },
      time: currentTime)
  }

  /// Puts every captured view back as captured: model values exactly, non-animatable properties, and (with
  /// `hierarchy`) its subviews and superview — views made after the capture end up detached from captured
  /// views. The animation history of the captured views is cleared and every driver stops (it no longer writes
  /// presentation values and will commit nothing), so the presentation equals the restored model at every time.
  /// Pending completions stay pending (call `fireAllPending(finished:)` first when they must run, or
  /// `discardPendingWork()` to drop them).
  package func restore(_ snapshot: SceneSnapshot, hierarchy: Bool = true) {
    for i in drivers.indices { drivers[i].discarded = true }
    for e in snapshot.entries {
      e.view.model = e.model
      e.view.isHidden = e.isHidden
      e.view.clipsToBounds = e.clipsToBounds
      e.view.snapshotOf = e.snapshotOf
      e.view.content = e.content
      e.view.layerKind = e.layerKind
      e.view.tracks = PropertyTracks()
      e.view.hasTracks = false
      e.view.attachedAnimations = e.animations
      e.view.layerTimingStorage = e.layerTiming
    }
    // Layers made after the capture keep nothing animating either.
    for view in registry.values where !snapshot.entries.contains(where: { $0.view === view }) {
      view.attachedAnimations = []
    }
    layerTimingCount = registry.values.filter { $0.layerTimingStorage != nil }.count
    guard hierarchy else { return }
    for e in snapshot.entries {
      for s in e.view.sublayers { s.superview = nil }
      e.view.subviews = []
      e.view.layerOrder = nil
      e.view.mask?.maskOwner = nil
      e.view.mask = nil
    }
    // A captured view now under a view made after the capture leaves it.
    for e in snapshot.entries where e.view.superview != nil {
      e.view.detach()
    }
    // A captured node that masks a node made after the capture stops being its mask.
    for e in snapshot.entries {
      if let owner = e.view.maskOwner {
        owner.mask = nil
        e.view.maskOwner = nil
      }
    }
    for e in snapshot.entries {
      e.view.subviews = e.subviews
      e.view.layerOrder = e.layerOrder
      for s in e.view.sublayers { s.superview = e.view }
      if let m = e.mask {
        e.view.mask = m
        m.maskOwner = e.view
      }
    }
  }
}
