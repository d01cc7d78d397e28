// A UIView together with its CALayer: the model values an animator reads and writes.

/// A view and its layer, as an animator sees them in UIKit.
///
/// Views belong to the `Scene` that made them (`Scene.makeView(id:)`, `Scene.makeView(hint:)`); property writes
/// go through the scene so that, inside an animation block, they become animations (UIKit's action mechanism).
/// Reading a property returns the **model** value (what was last written), as in UIKit; what is on screen at a
/// time comes from `Scene.presentation(at:)`.
///
/// Values that are not finite (NaN, ±infinity) are never stored: the write is ignored and reported through
/// `Scene.onMisuse`.
package final class View {
  /// The id, unique within its scene.
  package let id: String
  /// The scene that made the view; nil once the scene is gone (writes then only change the model).
  package internal(set) weak var scene: Scene?
  /// The scene time at which the view was made: writes at or before it are initial values, not history.
  let createdAt: Double

  /// The model values of every animatable property.
  // Read for every node of every sample (and written by one thread, never re-entrantly): unchecked.
  @exclusivity(unchecked) package internal(set) var model = AnimatableValues() {
    // A scene snapshot keeps a view's model values only once they are about to change (`SnapshotJournal`).
    willSet { if journaledEpoch < (scene?.captureEpoch ?? 0) { scene?.journalModel(of: self) } }
  }
  /// The newest scene snapshot (`Scene.captureEpoch`) that has this view's model values as captured: one taken before
  /// the view existed, or one that saved them before a write.
  var journaledEpoch = 0
  /// The recorded history of animatable properties (see `Track`).
  // Read for every node of every sample, never changed during one: unchecked, as the presentation slot below.
  @exclusivity(unchecked) var tracks = PropertyTracks()
  /// Whether any property has a track (a view without one presents its model values at every time).
  @exclusivity(unchecked) var hasTracks = false
  /// Where this view's presented values are in the scene's scratch, valid during the sample numbered
  /// `presentationPass` (see `Scene.presentation(at:)`).
  @exclusivity(unchecked) var presentationSlot = 0
  @exclusivity(unchecked) var presentationPass = -1

  /// The superview, nil for a root (the container, or a view not added anywhere).
  package internal(set) weak var superview: View? {
    didSet { if oldValue !== superview { timeParentChanged() } }
  }
  /// The subviews, back to front in the order they were added (drawing order before zPosition sorting).
  // These three are read for every node of every sample and never changed during one: unchecked (no dynamic
  // exclusivity check per read), as the presentation slot.
  @exclusivity(unchecked) package internal(set) var subviews: [View] = []

  /// Whether the view is hidden. Not animatable: applied at once, also inside animation blocks.
  @exclusivity(unchecked) package var isHidden = false
  /// Whether sublayers are clipped to the bounds (masksToBounds). Not animatable.
  @exclusivity(unchecked) package var clipsToBounds = false
  /// UIView.isUserInteractionEnabled: false keeps touches from the view and its subtree (`Scene.hitTest`). Not
  /// animatable, not in frames.
  package var isUserInteractionEnabled = true
  /// For a snapshot view, the id of the view it shows (a client draws that view's content); nil otherwise.
  package var snapshotOf: String? {
    get { rare?.snapshotOf }
    set { if newValue != nil || rare != nil { rareValues.snapshotOf = newValue } }
  }
  /// What the view shows when it is an image or visual-effect view the animator made (frames' `content`); nil for
  /// a plain view. Not animatable. Snapshots copy it, as UIKit's snapshot of an image view shows the image.
  package var content: ViewContent? {
    get { rare?.content }
    set {
      let old = rare?.content
      if newValue != nil || rare != nil { rareValues.content = newValue }
      if newValue != old { scene?.contentRevision &+= 1 }
    }
  }
  /// The shared-element key the client gave this view (`match`, as Hero's heroID): how a shared-element animator
  /// pairs a view of the from tree with one of the to tree. Not animatable, not copied into snapshots.
  package var matchKey: String? {
    get { rare?.matchKey }
    set { if newValue != nil || rare != nil { rareValues.matchKey = newValue } }
  }
  /// Whether this node is a view's backing layer (false: a layer that is not a view, `Scene.makeLayer`). A view
  /// and its layer are one node: the layer's properties are the view's (see docs/ARCHITECTURE.md, "Layers").
  @exclusivity(unchecked) package internal(set) var isView = true
  /// What the layer draws (CALayer, CAGradientLayer, CAShapeLayer). Not animatable.
  @exclusivity(unchecked) package var layerKind: LayerKind = .layer
  /// The sublayers in drawing order when they are not just the subviews' layers (once a layer that is not a view
  /// was added here); nil = exactly `subviews` (the common case keeps one array). See `sublayers`.
  @exclusivity(unchecked) var layerOrder: [View]?
  /// The mask (CALayer.mask, UIView.mask): its alpha masks this node. Not part of the sublayer tree.
  @exclusivity(unchecked) package internal(set) var mask: View?
  // The four above are read for every node of every sample: unchecked, as the presentation slot, so a sample pays no
  // dynamic exclusivity check for them (they are only changed by the hierarchy calls, never during a sample).
  /// The node whose mask this one is.
  package internal(set) var maskOwner: View? {
    get { rare?.maskOwner }
    set {
      let old = rare?.maskOwner
      if newValue != nil || rare != nil { rareValues.maskOwner = newValue }
      if old !== newValue { timeParentChanged() }
    }
  }
  /// CALayer's CAMediaTiming (beginTime, speed, timeOffset) when not the identity (Layer+Animations.swift).
  var layerTimingStorage: LayerTiming? {
    get { rare?.layerTiming }
    set { if newValue != nil || rare != nil { rareValues.layerTiming = newValue } }
  }
  /// The explicit animations on the layer, in add order (Layer+Animations.swift).
  var attachedAnimations: [AttachedAnimation] {
    get { rare?.attachedAnimations ?? [] }
    set { if !newValue.isEmpty || rare != nil { rareValues.attachedAnimations = newValue } }
    _modify { yield &rareValues.attachedAnimations }
  }

  /// The properties most views leave at their defaults, nil until one is set: with 10,000 live transitions of ten
  /// views each, every byte a view keeps inline counts.
  @exclusivity(unchecked) private var rare: RareValues?
  private var rareValues: RareValues {
    if let rare { return rare }
    let made = RareValues()
    rare = made
    return made
  }

  private final class RareValues {
    @exclusivity(unchecked) var snapshotOf: String?
    var content: ViewContent?
    var matchKey: String?
    weak var maskOwner: View?
    @exclusivity(unchecked) var layerTiming: LayerTiming?
    @exclusivity(unchecked) var attachedAnimations: [AttachedAnimation] = []
  }

  init(id: String, scene: Scene?, createdAt: Double) {
    self.id = id
    self.scene = scene
    self.createdAt = createdAt
    self.journaledEpoch = scene?.captureEpoch ?? 0
  }

  // MARK: Animatable properties

  /// The bounds: origin = the coordinates of the top-left corner for the subviews (a scroll offset), size = the
  /// view's size.
  package var bounds: Rect {
    get { model.bounds }
    set { write(.bounds, newValue) }
  }

  /// Where the anchor point sits, in the superview's bounds coordinates (the layer's position).
  package var position: Point {
    get { model.position }
    set { write(.position, newValue) }
  }

  /// The anchor point in unit coordinates of the bounds; default (0.5, 0.5). Animatable as CALayer's is.
  /// Changing it without changing `position` moves the frame.
  package var anchorPoint: Point {
    get { model.anchorPoint }
    set { write(.anchorPoint, newValue) }
  }

  /// The 3-D transform, applied about the anchor point.
  package var transform: Transform3D {
    get { model.transform }
    set { write(.transform, newValue) }
  }

  /// The transform applied to the subviews about this view's anchor point (a container's perspective m34).
  package var sublayerTransform: Transform3D {
    get { model.sublayerTransform }
    set { write(.sublayerTransform, newValue) }
  }

  /// The alpha (stored as written; the composited opacity of a frame is clamped to [0, 1]).
  package var alpha: Double {
    get { model.alpha }
    set { write(.alpha, newValue) }
  }

  /// Core Animation's zPosition: siblings draw in increasing zPosition (ties keep the subview order).
  package var zPosition: Double {
    get { model.zPosition }
    set { write(.zPosition, newValue) }
  }

  /// The corner radius.
  package var cornerRadius: Double {
    get { model.cornerRadius }
    set { write(.cornerRadius, newValue) }
  }

  /// The background colour; nil = none.
  package var backgroundColor: Color? {
    get { model.backgroundColor }
    set { write(.backgroundColor, newValue) }
  }

  /// The gradient when the view is a gradient layer; nil otherwise.
  package var gradient: Gradient? {
    get { model.gradient }
    set { write(.gradient, newValue) }
  }

  /// The single write path of every animatable property: validates, updates the model and lets the scene
  /// record the change (an animation inside a block, history otherwise).
  package func write<Value: TrackValue>(_ property: AnimatableProperty<Value>, _ newValue: Value) {
    guard newValue.isFiniteValue else {
      scene?.report(.invalidValue(viewID: id, property: property.key))
      return
    }
    let old = model[keyPath: property.value]
    model[keyPath: property.value] = newValue
    scene?.recordWrite(view: self, property: property, old: old, new: newValue)
  }

  /// The value of a property (the model value).
  package func value<Value: TrackValue>(of property: AnimatableProperty<Value>) -> Value {
    model[keyPath: property.value]
  }
}
