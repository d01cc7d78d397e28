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
  package var transform: Transform3D = .identity
  /// Applied to the sublayers, about this layer's anchor point (typically a perspective m34).
  package var sublayerTransform: Transform3D = .identity
  /// The view's own alpha (the layer's opacity); not clamped here, see `ViewState.opacity`.
  package var alpha: Double = 1
  /// Core Animation's zPosition: siblings draw in increasing zPosition (stable).
  package var zPosition: Double = 0
  /// The corner radius of the layer.
  package var cornerRadius: Double = 0
  /// The background colour; nil = none (transparent).
  package var backgroundColor: Color? = nil
  /// The gradient when the view is a gradient layer; nil otherwise.
  package var gradient: Gradient? = nil

  /// Creates the default values (CALayer's defaults).
  package init() {}
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
struct PropertyTracks {
  var bounds: Track<Rect>?
  var position: Track<Point>?
  var anchorPoint: Track<Point>?
  var transform: Track<Transform3D>?
  var sublayerTransform: Track<Transform3D>?
  var alpha: Track<Double>?
  var zPosition: Track<Double>?
  var cornerRadius: Track<Double>?
  var backgroundColor: Track<Color?>?
  var gradient: Track<Gradient?>?
}
