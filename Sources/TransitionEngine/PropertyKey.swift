// The animatable properties of a view, as names (for reports) and as typed handles (for drivers and the
// generic write path).

/// An animatable property of a view (a CALayer key path UIKit animates).
package enum PropertyKey: Int, CaseIterable, Hashable, Sendable {
  case bounds
  case position
  case anchorPoint
  case transform
  case sublayerTransform
  case alpha
  case zPosition
  case cornerRadius
  case backgroundColor
  case gradient
  // Layer properties (LayerAppearance; Layer.swift).
  case anchorPointZ
  case borderWidth
  case borderColor
  case shadowColor
  case shadowOpacity
  case shadowRadius
  case shadowOffset
  case shadowPath
  case path
  case fillColor
  case strokeColor
  case lineWidth
  case strokeStart
  case strokeEnd
  case lineDashPhase

  /// Whether a write of this property inside a UIView animation block (or keyframe block, or property animator)
  /// becomes an animation of the block. For a view's own layer: UIKit's animatable view properties (frame, bounds,
  /// center, transform, alpha, backgroundColor: "View Programming Guide for iOS", Animations, "Animatable
  /// properties", https://developer.apple.com/library/archive/documentation/WindowsViews/Conceptual/ViewPG_iPhoneOS/AnimatingViews/AnimatingViews.html)
  /// with the layer keys that are the same geometry (anchorPoint, anchorPointZ, zPosition, sublayerTransform), and
  /// `layer.cornerRadius`, which UIView animates since iOS 11 (WWDC 2017 session 230, "Advanced Animations with
  /// UIKit"). Every other layer property (borders, shadows, a shape's path and stroke) changes at once inside a
  /// block: UIView's `action(for:forKey:)` returns no action for a key it does not animate (views that animate more
  /// opt in per key with the private `_shouldAnimatePropertyWithKey:`), so iOS code animates those with a
  /// CABasicAnimation. A layer that is not a view does not follow the block at all (its implicit action runs, as
  /// outside one). The one exception is `gradient`: a gradient's colours, locations and points are one engine value
  /// with no Core Animation key path (CAGradientLayer's `colors`, `locations`, … animate separately there), so a
  /// block is how it animates, on a view or a layer.
  package func animatesInBlocks(ofView isView: Bool) -> Bool {
    switch self {
    case .gradient: true
    case .bounds, .position, .anchorPoint, .transform, .sublayerTransform, .alpha, .zPosition, .cornerRadius,
      .backgroundColor, .anchorPointZ:
      isView
    default: false
    }
  }

  /// The name used in reports (UIKit's property name; `alpha` is the layer's `opacity`).
  package var name: String {
    switch self {
    case .bounds: "bounds"
    case .position: "position"
    case .anchorPoint: "anchorPoint"
    case .transform: "transform"
    case .sublayerTransform: "sublayerTransform"
    case .alpha: "alpha"
    case .zPosition: "zPosition"
    case .cornerRadius: "cornerRadius"
    case .backgroundColor: "backgroundColor"
    case .gradient: "gradient"
    default: layerPropertyName
    }
  }
}

/// The values of every animatable property of one view: the model (what was last written), a presentation
/// sample, or a snapshot. Defaults are CALayer's.
package struct AnimatableValues: Hashable, Sendable {
  /// The layer's bounds (origin = the scroll offset of its sublayers).
  package var bounds: Rect = .zero
  /// Where the anchor point sits in the superlayer's bounds coordinates (UIView.center).
  package var position: Point = .zero
  /// The point of the bounds, in unit coordinates, that sits at `position` and that `transform` is about.
  package var anchorPoint = Point(x: 0.5, y: 0.5)
  /// The layer's transform, applied about the anchor point.
  package var transform: Transform3D {
    get { transformBox?.value ?? .identity }
    set { transformBox = TransformBox.holding(newValue) }
  }
  /// Applied to the sublayers, about this layer's anchor point (typically a perspective m34).
  package var sublayerTransform: Transform3D {
    get { sublayerTransformBox?.value ?? .identity }
    set { sublayerTransformBox = TransformBox.holding(newValue) }
  }
  /// Whether `transform` is the identity (without building a matrix to compare).
  var hasIdentityTransform: Bool { transformBox == nil }
  /// Whether `sublayerTransform` is the identity.
  var hasIdentitySublayerTransform: Bool { sublayerTransformBox == nil }
  /// The view's own alpha (the layer's opacity); not clamped here, see `ViewState.opacity`.
  package var alpha: Double = 1
  /// Core Animation's zPosition: siblings draw in increasing zPosition (stable).
  package var zPosition: Double = 0
  /// The corner radius of the layer.
  package var cornerRadius: Double = 0
  /// The background colour; nil = none (transparent).
  package var backgroundColor: Color? = nil
  /// The gradient when the view is a gradient layer; nil otherwise.
  package var gradient: Gradient? {
    get { gradientBox?.value }
    set { gradientBox = newValue.map(GradientBox.init) }
  }

  // The two matrices are 256 of the 432 bytes these values would take inline, and almost every view's are the
  // identity; every view keeps its model values, a transition's snapshot keeps another copy, and samples copy them
  // around. So each is held as nil (the identity) or a shared immutable box.
  // Read (not written) by the presentation, which hands the boxes on to `ViewState` as they are.
  private(set) var transformBox: TransformBox?
  private(set) var sublayerTransformBox: TransformBox?
  /// Few views are gradients: the gradient (48 bytes inline) is boxed as well.
  private(set) var gradientBox: GradientBox?
  /// The layer-only properties (borders, shadows, shape, …; `layer`), nil while all are at CALayer's defaults.
  var layerBox: LayerAppearanceBox?

  /// Creates the default values (CALayer's defaults).
  package init() {}
}

/// A gradient, immutable and shared by the values that hold it (`AnimatableValues`).
final class GradientBox: Hashable, Sendable {
  let value: Gradient

  init(_ value: Gradient) { self.value = value }

  static func == (lhs: GradientBox, rhs: GradientBox) -> Bool { lhs === rhs || lhs.value == rhs.value }

  func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

/// A non-identity transform, immutable and shared by the values that hold it (`AnimatableValues`).
final class TransformBox: Hashable, Sendable {
  let value: Transform3D

  private init(_ value: Transform3D) {
    self.value = value
  }

  /// nil for the identity (so equal matrices are held alike and the values' equality is the matrices'), else a box.
  static func holding(_ value: Transform3D) -> TransformBox? {
    value == .identity ? nil : TransformBox(value)
  }

  static func == (lhs: TransformBox, rhs: TransformBox) -> Bool { lhs === rhs || lhs.value == rhs.value }

  func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

/// A typed handle on one animatable property, used by drivers (`DriverFrame.set(_:of:to:)`) and by the
/// model's single write path.
package struct AnimatableProperty<Value: TrackValue> {
  /// The property's name.
  package let key: PropertyKey
  let value: WritableKeyPath<AnimatableValues, Value>
  let track: WritableKeyPath<PropertyTracks, Track<Value>?>
}

extension AnimatableProperty where Value == Rect {
  /// The bounds.
  package static var bounds: Self { Self(key: .bounds, value: \.bounds, track: \.bounds) }
}

extension AnimatableProperty where Value == Point {
  /// The position (UIView.center).
  package static var position: Self { Self(key: .position, value: \.position, track: \.position) }
  /// The anchor point (animatable, as CALayer's is).
  package static var anchorPoint: Self { Self(key: .anchorPoint, value: \.anchorPoint, track: \.anchorPoint) }
}

extension AnimatableProperty where Value == Transform3D {
  /// The transform.
  package static var transform: Self { Self(key: .transform, value: \.transform, track: \.transform) }
  /// The sublayer transform.
  package static var sublayerTransform: Self {
    Self(key: .sublayerTransform, value: \.sublayerTransform, track: \.sublayerTransform)
  }
}

extension AnimatableProperty where Value == Double {
  /// The alpha (opacity).
  package static var alpha: Self { Self(key: .alpha, value: \.alpha, track: \.alpha) }
  /// The zPosition.
  package static var zPosition: Self { Self(key: .zPosition, value: \.zPosition, track: \.zPosition) }
  /// The corner radius.
  package static var cornerRadius: Self { Self(key: .cornerRadius, value: \.cornerRadius, track: \.cornerRadius) }
}

extension AnimatableProperty where Value == Color? {
  /// The background colour.
  package static var backgroundColor: Self {
    Self(key: .backgroundColor, value: \.backgroundColor, track: \.backgroundColor)
  }
}

extension AnimatableProperty where Value == Gradient? {
  /// The gradient.
  package static var gradient: Self { Self(key: .gradient, value: \.gradient, track: \.gradient) }
}

/// The animation history of each animatable property of one view; nil = never animated nor changed after the
/// view's creation time (the model value is then the value at every time).
///
/// The tracks live in one storage object made on the first track (and copied on write, so the type keeps value
/// semantics): most views of a scene are never animated, and ten optional tracks inline took some 540 bytes in each
/// of them.
struct PropertyTracks {
  private final class Storage {
    @exclusivity(unchecked) var bounds: Track<Rect>?
    @exclusivity(unchecked) var position: Track<Point>?
    @exclusivity(unchecked) var anchorPoint: Track<Point>?
    @exclusivity(unchecked) var transform: Track<Transform3D>?
    @exclusivity(unchecked) var sublayerTransform: Track<Transform3D>?
    @exclusivity(unchecked) var alpha: Track<Double>?
    @exclusivity(unchecked) var zPosition: Track<Double>?
    @exclusivity(unchecked) var cornerRadius: Track<Double>?
    @exclusivity(unchecked) var backgroundColor: Track<Color?>?
    @exclusivity(unchecked) var gradient: Track<Gradient?>?
    @exclusivity(unchecked) var layer = LayerPropertyTracks()

    init() {}

    init(copying other: Storage) {
      bounds = other.bounds
      position = other.position
      anchorPoint = other.anchorPoint
      transform = other.transform
      sublayerTransform = other.sublayerTransform
      alpha = other.alpha
      zPosition = other.zPosition
      cornerRadius = other.cornerRadius
      backgroundColor = other.backgroundColor
      gradient = other.gradient
      layer = other.layer
    }
  }

  private var storage: Storage?

  /// The storage, made (or copied from a shared one) so it may be changed.
  private mutating func unique() -> Storage {
    // False for nil as well: the first write makes the storage.
    if !isKnownUniquelyReferenced(&storage) {
      storage = storage.map(Storage.init(copying:)) ?? Storage()
    }
    return storage!
  }

  var bounds: Track<Rect>? {
    get { storage?.bounds }
    _modify { yield &unique().bounds }
  }

  var position: Track<Point>? {
    get { storage?.position }
    _modify { yield &unique().position }
  }

  var anchorPoint: Track<Point>? {
    get { storage?.anchorPoint }
    _modify { yield &unique().anchorPoint }
  }

  var transform: Track<Transform3D>? {
    get { storage?.transform }
    _modify { yield &unique().transform }
  }

  var sublayerTransform: Track<Transform3D>? {
    get { storage?.sublayerTransform }
    _modify { yield &unique().sublayerTransform }
  }

  var alpha: Track<Double>? {
    get { storage?.alpha }
    _modify { yield &unique().alpha }
  }

  var zPosition: Track<Double>? {
    get { storage?.zPosition }
    _modify { yield &unique().zPosition }
  }

  var cornerRadius: Track<Double>? {
    get { storage?.cornerRadius }
    _modify { yield &unique().cornerRadius }
  }

  var backgroundColor: Track<Color?>? {
    get { storage?.backgroundColor }
    _modify { yield &unique().backgroundColor }
  }

  var gradient: Track<Gradient?>? {
    get { storage?.gradient }
    _modify { yield &unique().gradient }
  }

  /// The tracks of the layer-only properties (`LayerPropertyTracks`).
  var layer: LayerPropertyTracks {
    get { storage?.layer ?? LayerPropertyTracks() }
    _modify { yield &unique().layer }
  }

  /// Overrides each value of `p` that has a track with the track's value at timeline time t (`local` in the layer's
  /// time). Reads the tracks where they are stored: each getter above hands out a copy (its records retained).
  @inline(__always)
  func apply(to p: inout AnimatableValues, at t: Double, local: Double, memo: ProgressMemo) {
    guard let s = storage else { return }
    if let v = s.bounds?.value(at: t, local: local, memo: memo) { p.bounds = v }
    if let v = s.position?.value(at: t, local: local, memo: memo) { p.position = v }
    if let v = s.anchorPoint?.value(at: t, local: local, memo: memo) { p.anchorPoint = v }
    if let v = s.transform?.value(at: t, local: local, memo: memo) { p.transform = v }
    if let v = s.sublayerTransform?.value(at: t, local: local, memo: memo) { p.sublayerTransform = v }
    if let v = s.alpha?.value(at: t, local: local, memo: memo) { p.alpha = v }
    if let v = s.zPosition?.value(at: t, local: local, memo: memo) { p.zPosition = v }
    if let v = s.cornerRadius?.value(at: t, local: local, memo: memo) { p.cornerRadius = v }
    // Optional-valued: optional chaining would flatten a presented nil into "no track".
    if s.backgroundColor != nil { p.backgroundColor = s.backgroundColor!.value(at: t, local: local, memo: memo) }
    if s.gradient != nil { p.gradient = s.gradient!.value(at: t, local: local, memo: memo) }
    if !s.layer.isEmpty { p.layer = s.layer.evaluated(p.layer, at: t, local: local, memo: memo) }
  }
}
