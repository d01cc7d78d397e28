internal import CTransitionABI

// layer.presentation(): what a layer shows on screen at the transition's current time (ABI 1.2, get_presentation).

extension CALayer {
  /// The layer as it is on screen now, every running animation applied: Core Animation's presentation layer. Its
  /// values are taken when you call this (inside `animateTransition`, a completion or a display link's action; the
  /// time is the transition's current time). nil when the host cannot answer (a host older than ABI 1.2, a view
  /// whose transition is gone, inside a custom driver). Changing it changes nothing, as in Core Animation.
  public func presentation() -> CALayer? {
    if self is PresentationLayer { return self }
    guard let session = view.live("layer.presentation()") else { return nil }
    var out = th_presentation()
    out.struct_size = UInt32(MemoryLayout<th_presentation>.size)
    let ok = session.call(\.get_presentation, "\(view).layer.presentation()") { $0($1, view.th, &out) }
    return ok ? PresentationLayer(view: view, values: out) : nil
  }

  /// The model layer (the layer itself; for a presentation layer, the layer it was taken from).
  public func model() -> CALayer { view.layer }
}

/// A presentation layer: the values of one moment, read-only.
final class PresentationLayer: CALayer {
  let values: th_presentation

  init(view: UIView, values: th_presentation) {
    self.values = values
    super.init(view: view)
  }

  required init(view: UIView) {
    self.values = th_presentation()
    super.init(view: view)
  }

  required init(owning node: UIView) {
    self.values = th_presentation()
    super.init(owning: node)
  }

  private func ignored(_ name: String) {
    TransitionLog.warning(
      "TransitionKit: \(view).layer.presentation().\(name) was set: a presentation layer is read-only; set the layer")
  }

  override var anchorPoint: CGPoint {
    get { CGPoint(values.anchor_point) }
    set { ignored("anchorPoint") }
  }
  override var position: CGPoint {
    get { CGPoint(values.position) }
    set { ignored("position") }
  }
  override var transform: CATransform3D {
    get { CATransform3D(values.transform) }
    set { ignored("transform") }
  }
  override var sublayerTransform: CATransform3D {
    get { CATransform3D(values.sublayer_transform) }
    set { ignored("sublayerTransform") }
  }
  override var zPosition: CGFloat {
    get { values.z_position }
    set { ignored("zPosition") }
  }
  override var cornerRadius: CGFloat {
    get { values.corner_radius }
    set { ignored("cornerRadius") }
  }
  override var bounds: CGRect {
    get { CGRect(values.bounds) }
    set { ignored("bounds") }
  }
  override var frame: CGRect {
    get { CGRect(values.frame) }
    set { ignored("frame") }
  }
  override var opacity: Float {
    get { Float(values.opacity) }
    set { ignored("opacity") }
  }
  override var isHidden: Bool {
    get { values.hidden }
    set { ignored("isHidden") }
  }
  override var masksToBounds: Bool {
    get { values.masks_to_bounds }
    set { ignored("masksToBounds") }
  }
  override var backgroundColor: CGColor? {
    get { values.has_background_color ? CGColor(values.background_color) : nil }
    set { ignored("backgroundColor") }
  }
}
