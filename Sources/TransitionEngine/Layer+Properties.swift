// The layer properties of a node as an animator writes them (CALayer's names): animatable ones go through the
// single write path (inside an animation block they become animations, as UIView.animate animates a layer
// property UIKit knows), the others apply at once and are restored by a cancel with the rest of the model.

extension View {
  /// CALayer.opacity: the same value as the view's `alpha` (one storage).
  package var opacity: Double {
    get { alpha }
    set { alpha = newValue }
  }

  /// CALayer.masksToBounds: the same value as the view's `clipsToBounds`.
  package var masksToBounds: Bool {
    get { clipsToBounds }
    set { clipsToBounds = newValue }
  }

  /// CALayer/CAShapeLayer.anchorPointZ (animatable; see `LayerAppearance.anchorPointZ`).
  package var anchorPointZ: Double {
    get { model.anchorPointZ }
    set { write(.anchorPointZ, newValue) }
  }

  /// CALayer/CAShapeLayer.borderWidth (animatable; see `LayerAppearance.borderWidth`).
  package var borderWidth: Double {
    get { model.borderWidth }
    set { write(.borderWidth, newValue) }
  }

  /// CALayer/CAShapeLayer.borderColor (animatable; see `LayerAppearance.borderColor`).
  package var borderColor: Color? {
    get { model.borderColor }
    set { write(.borderColor, newValue) }
  }

  /// CALayer/CAShapeLayer.shadowColor (animatable; see `LayerAppearance.shadowColor`).
  package var shadowColor: Color? {
    get { model.shadowColor }
    set { write(.shadowColor, newValue) }
  }

  /// CALayer/CAShapeLayer.shadowOpacity (animatable; see `LayerAppearance.shadowOpacity`).
  package var shadowOpacity: Double {
    get { model.shadowOpacity }
    set { write(.shadowOpacity, newValue) }
  }

  /// CALayer/CAShapeLayer.shadowRadius (animatable; see `LayerAppearance.shadowRadius`).
  package var shadowRadius: Double {
    get { model.shadowRadius }
    set { write(.shadowRadius, newValue) }
  }

  /// CALayer/CAShapeLayer.shadowOffset (animatable; see `LayerAppearance.shadowOffset`).
  package var shadowOffset: Size {
    get { model.shadowOffset }
    set { write(.shadowOffset, newValue) }
  }

  /// CALayer/CAShapeLayer.shadowPath (animatable; see `LayerAppearance.shadowPath`).
  package var shadowPath: Path? {
    get { model.shadowPath }
    set { write(.shadowPath, newValue) }
  }

  /// CALayer/CAShapeLayer.path (animatable; see `LayerAppearance.path`).
  package var path: Path? {
    get { model.path }
    set { write(.path, newValue) }
  }

  /// CALayer/CAShapeLayer.fillColor (animatable; see `LayerAppearance.fillColor`).
  package var fillColor: Color? {
    get { model.fillColor }
    set { write(.fillColor, newValue) }
  }

  /// CALayer/CAShapeLayer.strokeColor (animatable; see `LayerAppearance.strokeColor`).
  package var strokeColor: Color? {
    get { model.strokeColor }
    set { write(.strokeColor, newValue) }
  }

  /// CALayer/CAShapeLayer.lineWidth (animatable; see `LayerAppearance.lineWidth`).
  package var lineWidth: Double {
    get { model.lineWidth }
    set { write(.lineWidth, newValue) }
  }

  /// CALayer/CAShapeLayer.strokeStart (animatable; see `LayerAppearance.strokeStart`).
  package var strokeStart: Double {
    get { model.strokeStart }
    set { write(.strokeStart, newValue) }
  }

  /// CALayer/CAShapeLayer.strokeEnd (animatable; see `LayerAppearance.strokeEnd`).
  package var strokeEnd: Double {
    get { model.strokeEnd }
    set { write(.strokeEnd, newValue) }
  }

  /// CALayer/CAShapeLayer.lineDashPhase (animatable; see `LayerAppearance.lineDashPhase`).
  package var lineDashPhase: Double {
    get { model.lineDashPhase }
    set { write(.lineDashPhase, newValue) }
  }

  /// CALayer.maskedCorners. Not animatable: applied at once, also inside animation blocks.
  package var maskedCorners: MaskedCorners {
    get { model.layer.maskedCorners }
    set { model.layer.maskedCorners = newValue }
  }

  /// CAShapeLayer.fillRule. Not animatable: applied at once, also inside animation blocks.
  package var fillRule: FillRule {
    get { model.layer.fillRule }
    set { model.layer.fillRule = newValue }
  }

  /// CAGradientLayer.type. Not animatable: applied at once, also inside animation blocks.
  package var gradientType: GradientType {
    get { model.layer.gradientType }
    set { model.layer.gradientType = newValue }
  }

  /// CAShapeLayer.lineDashPattern. Not animatable: applied at once. A pattern with a non-finite length is ignored
  /// and reported (as `lineDashPhase`, the dash's animatable key).
  package var lineDashPattern: [Double]? {
    get { model.layer.lineDashPattern }
    set {
      guard newValue?.allSatisfy(\.isFinite) ?? true else {
        scene?.report(.invalidValue(viewID: id, property: .lineDashPhase))
        return
      }
      model.layer.lineDashPattern = newValue
    }
  }
}
