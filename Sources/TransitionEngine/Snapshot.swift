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
///
/// Kept small, since every live transition holds one: a view's model values are saved only when they are about to
/// change after the capture (`SnapshotJournal`; the others are still the view's own), and what most views leave at
/// its default (content, the layer tree's own order and mask, explicit animations) takes no room.
package struct SceneSnapshot {
  struct Entry {
    let view: View
    let isHidden: Bool
    let clipsToBounds: Bool
    let layerKind: LayerKind
    let subviews: [View]
    /// The rest, nil while all of it is at its default.
    let rare: RareValues?
  }

  /// What an entry keeps of a view that has any of it.
  final class RareValues {
    let snapshotOf: String?
    let content: ViewContent?
    /// The layer tree: the separate sublayer order (nil = the subviews) and the mask.
    let layerOrder: [View]?
    let mask: View?
    /// The layer's explicit animations and timing.
    let animations: [AttachedAnimation]
    let layerTiming: LayerTiming?

    /// The rare values of `view`, nil when each is at its default.
    static func of(_ view: View) -> RareValues? {
      guard
        view.snapshotOf != nil || view.content != nil || view.layerOrder != nil || view.mask != nil
          || !view.attachedAnimations.isEmpty || view.layerTimingStorage != nil
      else { return nil }
      return RareValues(view)
    }

    private init(_ view: View) {
      snapshotOf = view.snapshotOf
      content = view.content
      layerOrder = view.layerOrder
      mask = view.mask
      animations = view.attachedAnimations
      layerTiming = view.layerTimingStorage
    }
  }

  let entries: [Entry]
  /// The model values of the captured views that were written since.
  let journal: SnapshotJournal
  /// The scene time of the capture.
  package let time: Double

  /// The captured values of a view, nil when it did not exist at capture time.
  package func values(of view: View) -> AnimatableValues? {
    guard entries.contains(where: { $0.view === view }) else { return nil }
    return journal.model(of: view) ?? view.model
  }
}

/// The model values a snapshot captured of the views written since, each saved just before its first write after the
/// capture (`View.model`'s observer): a view never written since still has them itself. Snapshots are numbered by the
/// scene (`Scene.captureEpoch`); a view remembers the newest one that has its values (`View.journaledEpoch`), so its
/// later writes cost one comparison.
final class SnapshotJournal {
  let epoch: Int
  private(set) var saved: [(view: View, model: AnimatableValues)] = []

  init(epoch: Int) { self.epoch = epoch }

  func save(_ view: View) { saved.append((view, view.model)) }

  func model(of view: View) -> AnimatableValues? {
    saved.first { $0.view === view }?.model
  }
}

/// A scene's reference to a snapshot's journal: it lives as long as the snapshot does.
struct WeakSnapshotJournal {
  weak var journal: SnapshotJournal?
}

extension Scene {
  /// Captures every view made so far: model values, hidden, clipsToBounds, snapshotOf, content and subviews.
  package func snapshot() -> SceneSnapshot {
    captureEpoch += 1
    let journal = SnapshotJournal(epoch: captureEpoch)
    journals.removeAll { $0.journal == nil }
    journals.append(WeakSnapshotJournal(journal: journal))
    let views = registry.values.sorted { $0.id < $1.id }
    return SceneSnapshot(
      entries: views.map {
        SceneSnapshot.Entry(
          view: $0, isHidden: $0.isHidden, clipsToBounds: $0.clipsToBounds, layerKind: $0.layerKind,
          subviews: $0.subviews, rare: SceneSnapshot.RareValues.of($0))
      },
      journal: journal, time: currentTime)
  }

  /// Saves `view`'s model values, about to change, in every live snapshot taken since the newest one that has them.
  func journalModel(of view: View) {
    for entry in journals {
      if let journal = entry.journal, journal.epoch > view.journaledEpoch { journal.save(view) }
    }
    view.journaledEpoch = captureEpoch
  }

  /// Puts every captured view back as captured: model values exactly, non-animatable properties, and (with
  /// `hierarchy`) its subviews and superview — views made after the capture end up detached from captured
  /// views. The animation history of the captured views is cleared and every driver stops (it no longer writes
  /// presentation values and will commit nothing), so the presentation equals the restored model at every time.
  /// Pending completions stay pending (call `fireAllPending(finished:)` first when they must run, or
  /// `discardPendingWork()` to drop them).
  package func restore(_ snapshot: SceneSnapshot, hierarchy: Bool = true) {
    for i in drivers.indices { drivers[i].discarded = true }
    for (view, model) in snapshot.journal.saved { view.model = model }
    for e in snapshot.entries {
      let rare = e.rare
      e.view.isHidden = e.isHidden
      e.view.clipsToBounds = e.clipsToBounds
      e.view.snapshotOf = rare?.snapshotOf
      e.view.content = rare?.content
      e.view.layerKind = e.layerKind
      e.view.tracks = PropertyTracks()
      e.view.hasTracks = false
      e.view.attachedAnimations = rare?.animations ?? []
      e.view.layerTimingStorage = rare?.layerTiming
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
      e.view.layerOrder = e.rare?.layerOrder
      for s in e.view.sublayers { s.superview = e.view }
      if let m = e.rare?.mask {
        e.view.mask = m
        m.maskOwner = e.view
      }
    }
  }
}
