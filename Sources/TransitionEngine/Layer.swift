// Layers that are not views, and the layer-only properties every node has: CALayer's borders, shadows and
// 3-D anchor, CAShapeLayer's shape, CAGradientLayer's type. See docs/ARCHITECTURE.md, "Layers".

/// What a layer draws: a plain CALayer, a CAGradientLayer (its `gradient`) or a CAShapeLayer (its `path`).
package enum LayerKind: String, Hashable, Sendable {
  /// CALayer: background colour, border, shadow, contents.
  case layer
  /// CAGradientLayer: the node's `gradient` fills the bounds.
  case gradient
  /// CAShapeLayer: `path` filled with `fillColor` and stroked with `strokeColor`.
  case shape
}

/// CALayer.maskedCorners: which corners `cornerRadius` rounds (names of a y-down plane: min x min y = top left).
package struct MaskedCorners: OptionSet, Hashable, Sendable {
  package let rawValue: Int
  package init(rawValue: Int) { self.rawValue = rawValue }
  /// kCALayerMinXMinYCorner: the top-left corner.
  package static let minXMinY = MaskedCorners(rawValue: 1)
  /// kCALayerMaxXMinYCorner: the top-right corner.
  package static let maxXMinY = MaskedCorners(rawValue: 2)
  /// kCALayerMinXMaxYCorner: the bottom-left corner.
  package static let minXMaxY = MaskedCorners(rawValue: 4)
  /// kCALayerMaxXMaxYCorner: the bottom-right corner.
  package static let maxXMaxY = MaskedCorners(rawValue: 8)
  /// Every corner (the default).
  package static let all: MaskedCorners = [.minXMinY, .maxXMinY, .minXMaxY, .maxXMaxY]
}

/// CAShapeLayerFillRule.
package enum FillRule: String, Hashable, Sendable {
  case nonZero
  case evenOdd
}

/// CAGradientLayerType.
package enum GradientType: String, Hashable, Sendable {
  /// Along the line from startPoint to endPoint.
  case axial
  /// Circles centred on startPoint, reaching endPoint at the last stop.
  case radial
  /// Round startPoint, angle 0 toward endPoint.
  case conic
}

/// The layer-only properties of a node with CALayer's, CAShapeLayer's and CAGradientLayer's defaults. Together
/// with the properties views already had (`AnimatableValues`: bounds, position, anchorPoint, transform,
/// sublayerTransform, alpha = opacity, zPosition, cornerRadius, backgroundColor, gradient) they are the layer's
/// whole model. Not animatable here: `maskedCorners`, `lineDashPattern`, `fillRule`, `gradientType`. A layer's contents (an
/// image) is the node's `content` (`ViewContent.image`), shared with image views.
package struct LayerAppearance: Hashable, Sendable {
  /// The anchor point's z coordinate: the layer's transform applies about (anchorPoint, anchorPointZ).
  package var anchorPointZ: Double = 0
  /// The border's width, drawn inside the bounds (inset from the edge), above the sublayers.
  package var borderWidth: Double = 0
  /// The border's colour (CALayer's default: opaque black).
  package var borderColor: Color? = .black
  /// The shadow's colour (default opaque black).
  package var shadowColor: Color? = .black
  /// The shadow's opacity in [0, 1] (default 0: no shadow).
  package var shadowOpacity: Double = 0
  /// The shadow's blur radius in points (default 3).
  package var shadowRadius: Double = 3
  /// The shadow's offset (default (0, −3), CALayer's).
  package var shadowOffset: Size = Size(width: 0, height: -3)
  /// The shadow's shape in the layer's bounds coordinates; nil = the shape of the layer's content.
  package var shadowPath: Path? = nil
  /// A shape layer's path, in its bounds coordinates.
  package var path: Path? = nil
  /// A shape layer's fill colour (default opaque black; nil = no fill).
  package var fillColor: Color? = .black
  /// A shape layer's stroke colour (default nil: no stroke).
  package var strokeColor: Color? = nil
  /// A shape layer's stroke width (default 1).
  package var lineWidth: Double = 1
  /// Where the stroke starts along the path, as a fraction of its length (default 0).
  package var strokeStart: Double = 0
  /// Where the stroke ends along the path, as a fraction of its length (default 1).
  package var strokeEnd: Double = 1
  /// The offset into the dash pattern where the stroke starts (default 0).
  package var lineDashPhase: Double = 0
  /// Which corners `cornerRadius` rounds.
  package var maskedCorners: MaskedCorners = .all
  /// A shape layer's dash pattern (lengths of painted and unpainted segments, alternating); nil = solid.
  package var lineDashPattern: [Double]? = nil
  /// A shape layer's fill rule.
  package var fillRule: FillRule = .nonZero
  /// A gradient layer's type.
  package var gradientType: GradientType = .axial

  /// CALayer's defaults.
  package init() {}

  /// The defaults, shared.
  static let defaults = LayerAppearance()
}

/// Non-default layer-only values, immutable and shared (most views never set one, so `AnimatableValues` holds nil).
///
/// A box is changed in place only while one value holds it (`AnimatableValues.modifyLayer`): a sample's copy of
/// the model writes its first animated layer member into a new box and every further one into that box, rather
/// than a new box per member (which 1,000 animated layers paid several times a frame). Hence `@unchecked`: the
/// mutation is copy-on-write, never shared.
final class LayerAppearanceBox: Hashable, @unchecked Sendable {
  fileprivate(set) var value: LayerAppearance

  fileprivate init(_ value: LayerAppearance) { self.value = value }

  /// nil for the defaults, else a box.
  static func holding(_ value: LayerAppearance) -> LayerAppearanceBox? {
    value == LayerAppearance.defaults ? nil : LayerAppearanceBox(value)
  }

  static func == (lhs: LayerAppearanceBox, rhs: LayerAppearanceBox) -> Bool { lhs === rhs || lhs.value == rhs.value }

  func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

/// The two boxes a layer's sampled layer-only values are written into in turn (`Scene.applyExplicitAnimations`): a
/// layer whose explicit animations change a layer member (a shadow, a shape's path) would otherwise copy its model's
/// box into a new one on every sample, 1,000 allocations and 1,000 copies of every member a frame for 1,000 animated
/// layers. The box of the previous sample may still be held (a delta frame's baseline compares against it); the one
/// before is free again by then, so in a steady stream it is taken back and only the members animated into it are set
/// to the model's again. A box anyone else still holds is never written: a new one is made instead.
final class LayerBoxSpares {
  private struct Spare {
    var box: LayerAppearanceBox
    /// The box `box` was copied from: while it is the box under the animations again (the model's, unchanged since:
    /// a box is never changed while two values hold it), `box` differs from it only in `written`.
    let source: LayerAppearanceBox
    /// The layer members the animations could have changed in `box`.
    let written: LayerMemberSet
  }
  @exclusivity(unchecked) private var even: Spare?
  @exclusivity(unchecked) private var odd: Spare?
  @exclusivity(unchecked) private var turn = false

  /// A box holding `under`'s value for the animations of this sample to write, held by no one else: this turn's spare
  /// when only this object held it, else a new one.
  func take(copying under: LayerAppearanceBox) -> LayerAppearanceBox {
    // Moved out of its slot first, so the slot does not count as a second holder.
    if var spare = turn ? odd.take() : even.take(), isKnownUniquelyReferenced(&spare.box) {
      if spare.source === under {
        spare.box.reset(spare.written, to: under)
      } else {
        spare.box.value = under.value
      }
      return spare.box
    }
    return LayerAppearanceBox(under.value)
  }

  /// Keeps this sample's box (`box`, copied from `source` by `take`; `written`: the members the animations may have
  /// changed in it) as this turn's spare (nil: none), and turns to the other.
  func keep(_ box: LayerAppearanceBox?, copiedFrom source: LayerAppearanceBox, written: LayerMemberSet) {
    let spare = box.map { Spare(box: $0, source: source, written: written) }
    if turn { odd = spare } else { even = spare }
    turn.toggle()
  }
}

/// A set of layer-only members (`PropertyKey`s from `anchorPointZ` on), one bit each.
struct LayerMemberSet: OptionSet {
  let rawValue: UInt32

  init(rawValue: UInt32) { self.rawValue = rawValue }

  /// The layer members among `keys`.
  init(_ keys: [PropertyKey]) {
    var bits: UInt32 = 0
    for key in keys where key.rawValue >= PropertyKey.anchorPointZ.rawValue { bits |= 1 << UInt32(key.rawValue) }
    rawValue = bits
  }

  func contains(_ key: PropertyKey) -> Bool { rawValue & (1 << UInt32(key.rawValue)) != 0 }
}

extension LayerAppearanceBox {
  /// Sets the animatable members in `members` to `model`'s (the others are left as they are). Member by member from
  /// the box, so the model's values are not copied whole. Only for a box no one else holds (`LayerBoxSpares`).
  fileprivate func reset(_ members: LayerMemberSet, to model: LayerAppearanceBox) {
    if members.contains(.anchorPointZ) { value.anchorPointZ = model.value.anchorPointZ }
    if members.contains(.borderWidth) { value.borderWidth = model.value.borderWidth }
    if members.contains(.borderColor) { value.borderColor = model.value.borderColor }
    if members.contains(.shadowColor) { value.shadowColor = model.value.shadowColor }
    if members.contains(.shadowOpacity) { value.shadowOpacity = model.value.shadowOpacity }
    if members.contains(.shadowRadius) { value.shadowRadius = model.value.shadowRadius }
    if members.contains(.shadowOffset) { value.shadowOffset = model.value.shadowOffset }
    if members.contains(.shadowPath) { value.shadowPath = model.value.shadowPath }
    if members.contains(.path) { value.path = model.value.path }
    if members.contains(.fillColor) { value.fillColor = model.value.fillColor }
    if members.contains(.strokeColor) { value.strokeColor = model.value.strokeColor }
    if members.contains(.lineWidth) { value.lineWidth = model.value.lineWidth }
    if members.contains(.strokeStart) { value.strokeStart = model.value.strokeStart }
    if members.contains(.strokeEnd) { value.strokeEnd = model.value.strokeEnd }
    if members.contains(.lineDashPhase) { value.lineDashPhase = model.value.lineDashPhase }
  }
}

// The getters read the box without building the defaults (a nil box is every default); `map` keeps a nil
// written to an optional member apart from the member's default.
extension AnimatableValues {
  /// The layer-only properties (defaults when never set).
  package var layer: LayerAppearance {
    get { layerBox?.value ?? LayerAppearance.defaults }
    set { layerBox = LayerAppearanceBox.holding(newValue) }
  }

  /// Changes one layer member: in the box itself when this value alone holds it, else in a new box (nil again when
  /// the change leaves every default, which only a member set `toDefault` can do).
  @inline(__always)
  mutating func modifyLayer(toDefault: Bool, _ change: (inout LayerAppearance) -> Void) {
    if layerBox != nil, isKnownUniquelyReferenced(&layerBox) {
      change(&layerBox!.value)
      if toDefault, layerBox!.value == LayerAppearance.defaults { layerBox = nil }
    } else {
      var value = layer
      change(&value)
      layerBox = LayerAppearanceBox.holding(value)
    }
  }

  /// The anchor point's z coordinate: the layer's transform applies about (anchorPoint, anchorPointZ).
  package var anchorPointZ: Double {
    get { layerBox.map { $0.value.anchorPointZ } ?? 0 }
    set { modifyLayer(toDefault: newValue == LayerAppearance.defaults.anchorPointZ) { $0.anchorPointZ = newValue } }
  }
  /// The border's width, drawn inside the bounds (inset from the edge), above the sublayers.
  package var borderWidth: Double {
    get { layerBox.map { $0.value.borderWidth } ?? 0 }
    set { modifyLayer(toDefault: newValue == LayerAppearance.defaults.borderWidth) { $0.borderWidth = newValue } }
  }
  /// The border's colour (CALayer's default: opaque black).
  package var borderColor: Color? {
    get { layerBox.map { $0.value.borderColor } ?? .black }
    set { modifyLayer(toDefault: newValue == LayerAppearance.defaults.borderColor) { $0.borderColor = newValue } }
  }
  /// The shadow's colour (default opaque black).
  package var shadowColor: Color? {
    get { layerBox.map { $0.value.shadowColor } ?? .black }
    set { modifyLayer(toDefault: newValue == LayerAppearance.defaults.shadowColor) { $0.shadowColor = newValue } }
  }
  /// The shadow's opacity in [0, 1] (default 0: no shadow).
  package var shadowOpacity: Double {
    get { layerBox.map { $0.value.shadowOpacity } ?? 0 }
    set { modifyLayer(toDefault: newValue == LayerAppearance.defaults.shadowOpacity) { $0.shadowOpacity = newValue } }
  }
  /// The shadow's blur radius in points (default 3).
  package var shadowRadius: Double {
    get { layerBox.map { $0.value.shadowRadius } ?? 3 }
    set { modifyLayer(toDefault: newValue == LayerAppearance.defaults.shadowRadius) { $0.shadowRadius = newValue } }
  }
  /// The shadow's offset (default (0, −3), CALayer's).
  package var shadowOffset: Size {
    get { layerBox.map { $0.value.shadowOffset } ?? Size(width: 0, height: -3) }
    set { modifyLayer(toDefault: newValue == LayerAppearance.defaults.shadowOffset) { $0.shadowOffset = newValue } }
  }
  /// The shadow's shape in the layer's bounds coordinates; nil = the shape of the layer's content.
  package var shadowPath: Path? {
    get { layerBox.map { $0.value.shadowPath } ?? nil }
    set { modifyLayer(toDefault: newValue == LayerAppearance.defaults.shadowPath) { $0.shadowPath = newValue } }
  }
  /// A shape layer's path, in its bounds coordinates.
  package var path: Path? {
    get { layerBox.map { $0.value.path } ?? nil }
    set { modifyLayer(toDefault: newValue == LayerAppearance.defaults.path) { $0.path = newValue } }
  }
  /// A shape layer's fill colour (default opaque black; nil = no fill).
  package var fillColor: Color? {
    get { layerBox.map { $0.value.fillColor } ?? .black }
    set { modifyLayer(toDefault: newValue == LayerAppearance.defaults.fillColor) { $0.fillColor = newValue } }
  }
  /// A shape layer's stroke colour (default nil: no stroke).
  package var strokeColor: Color? {
    get { layerBox.map { $0.value.strokeColor } ?? nil }
    set { modifyLayer(toDefault: newValue == LayerAppearance.defaults.strokeColor) { $0.strokeColor = newValue } }
  }
  /// A shape layer's stroke width (default 1).
  package var lineWidth: Double {
    get { layerBox.map { $0.value.lineWidth } ?? 1 }
    set { modifyLayer(toDefault: newValue == LayerAppearance.defaults.lineWidth) { $0.lineWidth = newValue } }
  }
  /// Where the stroke starts along the path, as a fraction of its length (default 0).
  package var strokeStart: Double {
    get { layerBox.map { $0.value.strokeStart } ?? 0 }
    set { modifyLayer(toDefault: newValue == LayerAppearance.defaults.strokeStart) { $0.strokeStart = newValue } }
  }
  /// Where the stroke ends along the path, as a fraction of its length (default 1).
  package var strokeEnd: Double {
    get { layerBox.map { $0.value.strokeEnd } ?? 1 }
    set { modifyLayer(toDefault: newValue == LayerAppearance.defaults.strokeEnd) { $0.strokeEnd = newValue } }
  }
  /// The offset into the dash pattern where the stroke starts (default 0).
  package var lineDashPhase: Double {
    get { layerBox.map { $0.value.lineDashPhase } ?? 0 }
    set { modifyLayer(toDefault: newValue == LayerAppearance.defaults.lineDashPhase) { $0.lineDashPhase = newValue } }
  }
}

extension Size: TrackValue {
  package typealias Segment = (Size, Size)
  package var isFiniteValue: Bool { width.isFinite && height.isFinite }
}

extension AnimatableProperty where Value == Double {
  /// CALayer.anchorPointZ.
  package static var anchorPointZ: Self { Self(key: .anchorPointZ, value: \.anchorPointZ, track: \.layer.anchorPointZ) }
  /// CALayer.borderWidth.
  package static var borderWidth: Self { Self(key: .borderWidth, value: \.borderWidth, track: \.layer.borderWidth) }
  /// CALayer.shadowOpacity.
  package static var shadowOpacity: Self {
    Self(key: .shadowOpacity, value: \.shadowOpacity, track: \.layer.shadowOpacity)
  }
  /// CALayer.shadowRadius.
  package static var shadowRadius: Self { Self(key: .shadowRadius, value: \.shadowRadius, track: \.layer.shadowRadius) }
  /// CAShapeLayer.lineWidth.
  package static var lineWidth: Self { Self(key: .lineWidth, value: \.lineWidth, track: \.layer.lineWidth) }
  /// CAShapeLayer.strokeStart.
  package static var strokeStart: Self { Self(key: .strokeStart, value: \.strokeStart, track: \.layer.strokeStart) }
  /// CAShapeLayer.strokeEnd.
  package static var strokeEnd: Self { Self(key: .strokeEnd, value: \.strokeEnd, track: \.layer.strokeEnd) }
  /// CAShapeLayer.lineDashPhase.
  package static var lineDashPhase: Self {
    Self(key: .lineDashPhase, value: \.lineDashPhase, track: \.layer.lineDashPhase)
  }
}

extension AnimatableProperty where Value == Color? {
  /// CALayer.borderColor.
  package static var borderColor: Self { Self(key: .borderColor, value: \.borderColor, track: \.layer.borderColor) }
  /// CALayer.shadowColor.
  package static var shadowColor: Self { Self(key: .shadowColor, value: \.shadowColor, track: \.layer.shadowColor) }
  /// CAShapeLayer.fillColor.
  package static var fillColor: Self { Self(key: .fillColor, value: \.fillColor, track: \.layer.fillColor) }
  /// CAShapeLayer.strokeColor.
  package static var strokeColor: Self { Self(key: .strokeColor, value: \.strokeColor, track: \.layer.strokeColor) }
}

extension AnimatableProperty where Value == Size {
  /// CALayer.shadowOffset.
  package static var shadowOffset: Self { Self(key: .shadowOffset, value: \.shadowOffset, track: \.layer.shadowOffset) }
}

extension AnimatableProperty where Value == Path? {
  /// CALayer.shadowPath.
  package static var shadowPath: Self { Self(key: .shadowPath, value: \.shadowPath, track: \.layer.shadowPath) }
  /// CAShapeLayer.path.
  package static var path: Self { Self(key: .path, value: \.path, track: \.layer.path) }
}

extension PropertyKey {
  /// The name of a layer-only property in reports (Core Animation's key path).
  var layerPropertyName: String {
    switch self {
    case .anchorPointZ: "anchorPointZ"
    case .borderWidth: "borderWidth"
    case .borderColor: "borderColor"
    case .shadowColor: "shadowColor"
    case .shadowOpacity: "shadowOpacity"
    case .shadowRadius: "shadowRadius"
    case .shadowOffset: "shadowOffset"
    case .shadowPath: "shadowPath"
    case .path: "path"
    case .fillColor: "fillColor"
    case .strokeColor: "strokeColor"
    case .lineWidth: "lineWidth"
    case .strokeStart: "strokeStart"
    case .strokeEnd: "strokeEnd"
    case .lineDashPhase: "lineDashPhase"
    default: "\(rawValue)"
    }
  }

  /// Calls the visitor with the typed handle of this property (one switch for every place that needs the value
  /// type of a property named by its key).
  func accept<V: PropertyVisitor>(_ visitor: V) -> V.Result {
    switch self {
    case .bounds: visitor.visit(AnimatableProperty.bounds)
    case .position: visitor.visit(AnimatableProperty.position)
    case .anchorPoint: visitor.visit(AnimatableProperty.anchorPoint)
    case .transform: visitor.visit(AnimatableProperty.transform)
    case .sublayerTransform: visitor.visit(AnimatableProperty.sublayerTransform)
    case .alpha: visitor.visit(AnimatableProperty.alpha)
    case .zPosition: visitor.visit(AnimatableProperty.zPosition)
    case .cornerRadius: visitor.visit(AnimatableProperty.cornerRadius)
    case .backgroundColor: visitor.visit(AnimatableProperty.backgroundColor)
    case .gradient: visitor.visit(AnimatableProperty.gradient)
    case .anchorPointZ: visitor.visit(AnimatableProperty<Double>.anchorPointZ)
    case .borderWidth: visitor.visit(AnimatableProperty<Double>.borderWidth)
    case .borderColor: visitor.visit(AnimatableProperty<Color?>.borderColor)
    case .shadowColor: visitor.visit(AnimatableProperty<Color?>.shadowColor)
    case .shadowOpacity: visitor.visit(AnimatableProperty<Double>.shadowOpacity)
    case .shadowRadius: visitor.visit(AnimatableProperty<Double>.shadowRadius)
    case .shadowOffset: visitor.visit(AnimatableProperty<Size>.shadowOffset)
    case .shadowPath: visitor.visit(AnimatableProperty<Path?>.shadowPath)
    case .path: visitor.visit(AnimatableProperty<Path?>.path)
    case .fillColor: visitor.visit(AnimatableProperty<Color?>.fillColor)
    case .strokeColor: visitor.visit(AnimatableProperty<Color?>.strokeColor)
    case .lineWidth: visitor.visit(AnimatableProperty<Double>.lineWidth)
    case .strokeStart: visitor.visit(AnimatableProperty<Double>.strokeStart)
    case .strokeEnd: visitor.visit(AnimatableProperty<Double>.strokeEnd)
    case .lineDashPhase: visitor.visit(AnimatableProperty<Double>.lineDashPhase)
    }
  }
}

/// Something done to a property named by its key, with its value type known (`PropertyKey.accept`).
protocol PropertyVisitor {
  associatedtype Result
  func visit<Value: TrackValue>(_ property: AnimatableProperty<Value>) -> Result
}

/// The animation history of the layer-only properties of one node (see `PropertyTracks`); one storage object,
/// made on the first track and copied on write.
struct LayerPropertyTracks {
  private final class Storage {
    @exclusivity(unchecked) var anchorPointZ: Track<Double>?
    @exclusivity(unchecked) var borderWidth: Track<Double>?
    @exclusivity(unchecked) var borderColor: Track<Color?>?
    @exclusivity(unchecked) var shadowColor: Track<Color?>?
    @exclusivity(unchecked) var shadowOpacity: Track<Double>?
    @exclusivity(unchecked) var shadowRadius: Track<Double>?
    @exclusivity(unchecked) var shadowOffset: Track<Size>?
    @exclusivity(unchecked) var shadowPath: Track<Path?>?
    @exclusivity(unchecked) var path: Track<Path?>?
    @exclusivity(unchecked) var fillColor: Track<Color?>?
    @exclusivity(unchecked) var strokeColor: Track<Color?>?
    @exclusivity(unchecked) var lineWidth: Track<Double>?
    @exclusivity(unchecked) var strokeStart: Track<Double>?
    @exclusivity(unchecked) var strokeEnd: Track<Double>?
    @exclusivity(unchecked) var lineDashPhase: Track<Double>?

    init() {}

    init(copying o: Storage) {
      anchorPointZ = o.anchorPointZ
      borderWidth = o.borderWidth
      borderColor = o.borderColor
      shadowColor = o.shadowColor
      shadowOpacity = o.shadowOpacity
      shadowRadius = o.shadowRadius
      shadowOffset = o.shadowOffset
      shadowPath = o.shadowPath
      path = o.path
      fillColor = o.fillColor
      strokeColor = o.strokeColor
      lineWidth = o.lineWidth
      strokeStart = o.strokeStart
      strokeEnd = o.strokeEnd
      lineDashPhase = o.lineDashPhase
    }
  }

  private var storage: Storage?

  /// Whether any layer-only property has a track.
  var isEmpty: Bool { storage == nil }

  private mutating func unique() -> Storage {
    if !isKnownUniquelyReferenced(&storage) {
      storage = storage.map(Storage.init(copying:)) ?? Storage()
    }
    return storage!
  }

  var anchorPointZ: Track<Double>? {
    get { storage?.anchorPointZ }
    _modify { yield &unique().anchorPointZ }
  }

  var borderWidth: Track<Double>? {
    get { storage?.borderWidth }
    _modify { yield &unique().borderWidth }
  }

  var borderColor: Track<Color?>? {
    get { storage?.borderColor }
    _modify { yield &unique().borderColor }
  }

  var shadowColor: Track<Color?>? {
    get { storage?.shadowColor }
    _modify { yield &unique().shadowColor }
  }

  var shadowOpacity: Track<Double>? {
    get { storage?.shadowOpacity }
    _modify { yield &unique().shadowOpacity }
  }

  var shadowRadius: Track<Double>? {
    get { storage?.shadowRadius }
    _modify { yield &unique().shadowRadius }
  }

  var shadowOffset: Track<Size>? {
    get { storage?.shadowOffset }
    _modify { yield &unique().shadowOffset }
  }

  var shadowPath: Track<Path?>? {
    get { storage?.shadowPath }
    _modify { yield &unique().shadowPath }
  }

  var path: Track<Path?>? {
    get { storage?.path }
    _modify { yield &unique().path }
  }

  var fillColor: Track<Color?>? {
    get { storage?.fillColor }
    _modify { yield &unique().fillColor }
  }

  var strokeColor: Track<Color?>? {
    get { storage?.strokeColor }
    _modify { yield &unique().strokeColor }
  }

  var lineWidth: Track<Double>? {
    get { storage?.lineWidth }
    _modify { yield &unique().lineWidth }
  }

  var strokeStart: Track<Double>? {
    get { storage?.strokeStart }
    _modify { yield &unique().strokeStart }
  }

  var strokeEnd: Track<Double>? {
    get { storage?.strokeEnd }
    _modify { yield &unique().strokeEnd }
  }

  var lineDashPhase: Track<Double>? {
    get { storage?.lineDashPhase }
    _modify { yield &unique().lineDashPhase }
  }

  /// `base` overridden by each track's value at t.
  func evaluated(_ base: LayerAppearance, at t: Double, local: Double, memo: ProgressMemo) -> LayerAppearance {
    guard let s = storage else { return base }
    var p = base
    if let v = s.anchorPointZ?.value(at: t, local: local, memo: memo) { p.anchorPointZ = v }
    if let v = s.borderWidth?.value(at: t, local: local, memo: memo) { p.borderWidth = v }
    if s.borderColor != nil { p.borderColor = s.borderColor!.value(at: t, local: local, memo: memo) }
    if s.shadowColor != nil { p.shadowColor = s.shadowColor!.value(at: t, local: local, memo: memo) }
    if let v = s.shadowOpacity?.value(at: t, local: local, memo: memo) { p.shadowOpacity = v }
    if let v = s.shadowRadius?.value(at: t, local: local, memo: memo) { p.shadowRadius = v }
    if let v = s.shadowOffset?.value(at: t, local: local, memo: memo) { p.shadowOffset = v }
    if s.shadowPath != nil { p.shadowPath = s.shadowPath!.value(at: t, local: local, memo: memo) }
    if s.path != nil { p.path = s.path!.value(at: t, local: local, memo: memo) }
    if s.fillColor != nil { p.fillColor = s.fillColor!.value(at: t, local: local, memo: memo) }
    if s.strokeColor != nil { p.strokeColor = s.strokeColor!.value(at: t, local: local, memo: memo) }
    if let v = s.lineWidth?.value(at: t, local: local, memo: memo) { p.lineWidth = v }
    if let v = s.strokeStart?.value(at: t, local: local, memo: memo) { p.strokeStart = v }
    if let v = s.strokeEnd?.value(at: t, local: local, memo: memo) { p.strokeEnd = v }
    if let v = s.lineDashPhase?.value(at: t, local: local, memo: memo) { p.lineDashPhase = v }
    return p
  }
}
