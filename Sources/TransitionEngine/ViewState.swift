// One view as presented at a time: what a frame entry carries (CONVENTIONS, "View trees and frames").

/// The presented state of one view at a sampled time, in the form a client draws from.
package struct ViewState: Equatable, Sendable {
  /// The view's id.
  package var id: String
  /// The superview's id; nil for the container.
  package var parentID: String?
  /// UIKit's frame from the presented values, in the superview's bounds coordinates.
  package var frame: Rect
  /// The presented bounds.
  package var bounds: Rect
  /// The presented position.
  package var position: Point
  /// The presented anchor point.
  package var anchorPoint: Point
  /// The presented transform.
  package var transform: Transform3D
  /// The presented sublayer transform (not in frames).
  package var sublayerTransform: Transform3D {
    get { sublayerTransformBox?.value ?? .identity }
    set { sublayerTransformBox = TransformBox.holding(newValue) }
  }
  /// Maps (u, v) from the view's top-left corner (0 ≤ u ≤ width, 0 ≤ v ≤ height) into container coordinates:
  /// row vector (u, v, 0, 1) times the matrix, then divide by w (CSS matrix3d, transform-origin 0 0).
  package var worldTransform: Transform3D
  /// The axis-aligned box of the four projected corners in container coordinates; nil when a corner has
  /// w ≤ 0 (behind the eye).
  package var boundingBox: Rect?
  /// The view's own presented alpha (as animated; may leave [0, 1] under a spring).
  package var alpha: Double
  /// The composited opacity: the product of the alphas (each clamped to [0, 1]) of the view and its ancestors,
  /// 0 when the view or an ancestor is hidden.
  package var opacity: Double
  /// Whether the view itself is hidden.
  package var isHidden: Bool
  /// The presented zPosition.
  package var zPosition: Double
  /// The drawing order across the whole tree (0 = the container, drawn first).
  package var zIndex: Int
  /// The presented background colour.
  package var backgroundColor: Color?
  /// The presented corner radius.
  package var cornerRadius: Double
  /// Whether the view clips its subviews.
  package var clipsToBounds: Bool
  /// The presented gradient, when the view is one.
  package var gradient: Gradient? {
    get { gradientBox?.value }
    set { gradientBox = newValue.map(GradientBox.init) }
  }
  /// For a snapshot view, the id of the view whose content it shows.
  package var snapshotOf: String?
  /// Whether the node is a view's layer (false: a layer that is not a view). Layer members: Layer+Presentation.swift.
  package var isView = true
  /// What the layer draws.
  package var layerKind: LayerKind = .layer
  /// The id of the node's mask, if it has one (its entries follow this one's, before the sublayers).
  package var maskID: String?
  /// For a mask, the id of the node it masks (its `parentID` too); nil otherwise.
  package var maskOwnerID: String?
  /// The presented layer-only values, nil while all are at their defaults (see `layer`).
  var layerBox: LayerAppearanceBox?
  // The sublayer transform and the gradient are held as the presented values hold them (nil or a shared immutable
  // box): a sample then writes a reference instead of 128 and 48 bytes, and an entry is 160 bytes smaller for the
  // frame encoder to walk. The view's own `transform` stays inline: frames carry it, and `precision` rounds it in
  // place.
  var sublayerTransformBox: TransformBox?
  var gradientBox: GradientBox?

  /// A state with every field given (the engine makes them in `Scene.presentation(at:)`; tests and encoders' checks
  /// make them directly).
  package init(
    id: String, parentID: String?, frame: Rect, bounds: Rect, position: Point, anchorPoint: Point,
    transform: Transform3D, sublayerTransform: Transform3D, worldTransform: Transform3D, boundingBox: Rect?,
    alpha: Double, opacity: Double, isHidden: Bool, zPosition: Double, zIndex: Int, backgroundColor: Color?,
    cornerRadius: Double, clipsToBounds: Bool, gradient: Gradient?, snapshotOf: String?
  ) {
    self.id = id
    self.parentID = parentID
    self.frame = frame
    self.bounds = bounds
    self.position = position
    self.anchorPoint = anchorPoint
    self.transform = transform
    self.sublayerTransformBox = TransformBox.holding(sublayerTransform)
    self.worldTransform = worldTransform
    self.boundingBox = boundingBox
    self.alpha = alpha
    self.opacity = opacity
    self.isHidden = isHidden
    self.zPosition = zPosition
    self.zIndex = zIndex
    self.backgroundColor = backgroundColor
    self.cornerRadius = cornerRadius
    self.clipsToBounds = clipsToBounds
    self.gradientBox = gradient.map(GradientBox.init)
    self.snapshotOf = snapshotOf
  }
}
