internal import CTransitionABI

// Core Animation's layers (ABI 1.3, "th.layers/1"): layers that are not views (CALayer(), CAShapeLayer(),
// CAGradientLayer()), the sublayer tree, masks, borders, shadows, shapes and gradients, with Core Animation's names
// and types. A view's layer and its view are one host node; a layer that is not a view is a node of its own that
// frames report with its `kind`.

/// The host's "th.layers/1" table (nil for a host older than ABI 1.3).
enum LayerExtension {
  static var table: UnsafePointer<th_host_layers>? {
    let host = PluginRuntime.state.withLock { Unchecked($0.host) }.value
    guard let getExtension = host?.function(\.get_extension), let raw = getExtension(TH_EXT_LAYERS) else { return nil }
    let table = raw.assumingMemoryBound(to: th_host_layers.self)
    guard Int(table.pointee.struct_size) >= MemoryLayout<th_host_layers>.size else { return nil }
    return UnsafePointer(table)
  }
}

extension Session {
  /// Calls a function of "th.layers/1" with the session's context, logging a missing table or a refusal.
  @discardableResult
  func callLayers<F>(
    _ member: KeyPath<th_host_layers, F?>, _ what: @autoclosure () -> String, _ body: (F, th_context) -> th_status
  ) -> Bool {
    guard let table = LayerExtension.table, let fn = table.pointee[keyPath: member] else {
      log(TH_LOG_WARNING, "TransitionKit: \(what()): this host has no layers (ABI 1.3)\(blockContext)")
      return false
    }
    let status = body(fn, hasContext ? ctx : pluginContext)
    if status == TH_OK { return true }
    log(TH_LOG_WARNING, "TransitionKit: \(what()) failed: \(String(cString: th_status_name(status)))\(blockContext)")
    return false
  }

  /// The CALayer of a host node: the view's layer for a view, else the object of the layer that is not a view (made
  /// anew, of its kind's class, when the plugin let go of it); nil for {0}.
  func layer(_ handle: th_view) -> CALayer? {
    guard let node = view(handle) else { return nil }
    if let standalone = node.standaloneLayer { return standalone }
    var kind = TH_LAYER_PLAIN
    var isView = true
    callLayers(\.get_layer_kind, "layer kind") { $0($1, handle, &kind, &isView) }
    guard !isView else { return node.layer }
    return CALayer.classForKind(kind).init(owning: node)
  }
}

/// CACornerMask: which corners `cornerRadius` rounds.
public struct CACornerMask: OptionSet, Hashable, Sendable {
  public let rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }
  public static let layerMinXMinYCorner = CACornerMask(rawValue: UInt(TH_CORNER_MIN_X_MIN_Y))
  public static let layerMaxXMinYCorner = CACornerMask(rawValue: UInt(TH_CORNER_MAX_X_MIN_Y))
  public static let layerMinXMaxYCorner = CACornerMask(rawValue: UInt(TH_CORNER_MIN_X_MAX_Y))
  public static let layerMaxXMaxYCorner = CACornerMask(rawValue: UInt(TH_CORNER_MAX_X_MAX_Y))
}

/// CAShapeLayerFillRule.
public struct CAShapeLayerFillRule: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let nonZero = CAShapeLayerFillRule(rawValue: "non-zero")
  public static let evenOdd = CAShapeLayerFillRule(rawValue: "even-odd")
}

/// CAGradientLayerType.
public struct CAGradientLayerType: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let axial = CAGradientLayerType(rawValue: "axial")
  public static let radial = CAGradientLayerType(rawValue: "radial")
  public static let conic = CAGradientLayerType(rawValue: "conic")
}

extension CALayer {
  /// The CALayer class of a host kind.
  static func classForKind(_ kind: th_layer_kind) -> CALayer.Type {
    switch kind {
    case TH_LAYER_GRADIENT: CAGradientLayer.self
    case TH_LAYER_SHAPE: CAShapeLayer.self
    default: CALayer.self
    }
  }

  /// The class of `view`'s layer: its `layerClass`, or, for a plain UIView proxy of a node the client or a host call
  /// made, the class of the kind the host reports.
  static func layerType(forView view: UIView) -> CALayer.Type {
    if let declared = Swift.type(of: view).layerClass as? CALayer.Type, declared != CALayer.self { return declared }
    guard let session = view.session, view.handle != 0, LayerExtension.table != nil else { return CALayer.self }
    var kind = TH_LAYER_PLAIN
    var isView = true
    session.callLayers(\.get_layer_kind, "\(view).layer") { $0($1, view.th, &kind, &isView) }
    return classForKind(kind)
  }

  /// A new layer that is not a view (`CALayer()`, `CAShapeLayer()`, `CAGradientLayer()`), of this class's kind,
  /// with CALayer's defaults; it shows once it is a sublayer of a layer on screen, or a mask. Make layers inside
  /// `animateTransition` or a callback of the transition; made elsewhere the layer is inert (calls are logged and
  /// ignored).
  public convenience init() {
    self.init(layerID: nil)
  }

  /// A new layer whose id in frames is `layerID` when that is free (else with a numeric suffix).
  public convenience init(layerID: String?) {
    var made = th_view(id: 0)
    let session = Session.current
    let kind = Self.hostKind
    let name = "\(Self.self)()"
    if let session {
      let ok = session.callLayers(\.make_layer, name) { fn, ctx in
        if let layerID { layerID.withCString { fn(ctx, kind, $0, &made) } } else { fn(ctx, kind, nil, &made) }
      }
      if !ok { made = th_view(id: 0) }
    } else {
      PluginRuntime.log(TH_LOG_WARNING, "TransitionKit: \(name) outside a transition call; it is inert")
    }
    let node = UIView(handle: made.id, session: made.id == 0 ? nil : session)
    if made.id != 0 { session?.register(node) }
    self.init(owning: node)
  }

  // MARK: The tree

  /// CALayer.superlayer (a view's layer: its superview's layer).
  public var superlayer: CALayer? {
    guard let session = view.live("layer.superlayer") else { return nil }
    var out = th_view(id: 0)
    guard session.callLayers(\.superlayer, "\(view).layer.superlayer", { $0($1, nodeHandle, &out) }) else { return nil }
    return session.layer(out)
  }

  /// CALayer.sublayers, back to front (the subviews' layers among them); nil when there are none, as Core Animation's.
  public var sublayers: [CALayer]? {
    guard let session = view.live("layer.sublayers") else { return nil }
    var count: UInt32 = 0
    guard session.callLayers(\.sublayer_count, "\(view).layer.sublayers", { $0($1, nodeHandle, &count) }), count > 0
    else { return nil }
    var result: [CALayer] = []
    for index in 0..<count {
      var out = th_view(id: 0)
      if session.callLayers(\.sublayer_at, "\(view).layer.sublayers[\(index)]", { $0($1, nodeHandle, index, &out) }),
        let layer = session.layer(out)
      {
        result.append(layer)
      }
    }
    return result
  }

  private func treeCall<F>(
    _ name: String, _ member: KeyPath<th_host_layers, F?>, _ others: [CALayer], _ body: (F, th_context) -> th_status
  ) {
    guard let session = view.live(name) else { return }
    for other in others where other.view.session !== session || other.view.handle == 0 {
      session.log(TH_LOG_WARNING, "TransitionKit: \(name): a layer of another transition (or an inert one)")
      return
    }
    session.callLayers(member, "\(view).layer.\(name)", body)
  }

  /// CALayer.addSublayer: on top of the sublayers. A view's layer joins a tree with `addSubview` (refused here).
  public func addSublayer(_ layer: CALayer) {
    treeCall("addSublayer", \.add_sublayer, [layer]) { $0($1, nodeHandle, layer.nodeHandle) }
  }

  /// CALayer.insertSublayer(_:at:) (past the end appends).
  public func insertSublayer(_ layer: CALayer, at index: UInt32) {
    treeCall("insertSublayer(_:at:)", \.insert_sublayer_at, [layer]) { $0($1, nodeHandle, layer.nodeHandle, index) }
  }

  /// CALayer.insertSublayer(_:below:).
  public func insertSublayer(_ layer: CALayer, below sibling: CALayer?) {
    guard let sibling else { return insertSublayer(layer, at: 0) }
    treeCall("insertSublayer(_:below:)", \.insert_sublayer_below, [layer, sibling]) {
      $0($1, nodeHandle, layer.nodeHandle, sibling.nodeHandle)
    }
  }

  /// CALayer.insertSublayer(_:above:).
  public func insertSublayer(_ layer: CALayer, above sibling: CALayer?) {
    guard let sibling else { return addSublayer(layer) }
    treeCall("insertSublayer(_:above:)", \.insert_sublayer_above, [layer, sibling]) {
      $0($1, nodeHandle, layer.nodeHandle, sibling.nodeHandle)
    }
  }

  /// CALayer.removeFromSuperlayer (also stops being a mask; a view's layer: removeFromSuperview).
  public func removeFromSuperlayer() {
    treeCall("removeFromSuperlayer", \.remove_from_superlayer, []) { $0($1, nodeHandle) }
  }

  /// CALayer.mask: the alpha of `mask` (its opacity, contents and shape: a shape layer's filled path) masks this
  /// layer and its sublayers; its geometry is in this layer's bounds coordinates. Not animatable.
  public var mask: CALayer? {
    get {
      guard let session = view.live("layer.mask") else { return nil }
      var out = th_view(id: 0)
      guard session.callLayers(\.get_mask, "\(view).layer.mask", { $0($1, nodeHandle, &out) }) else { return nil }
      return session.layer(out)
    }
    set {
      let others = newValue.map { [$0] } ?? []
      treeCall("mask", \.set_mask, others) { $0($1, nodeHandle, newValue?.nodeHandle ?? th_view(id: 0)) }
    }
  }

  // MARK: Borders, shadows, corners

  /// CALayer.anchorPointZ (animatable).
  public var anchorPointZ: CGFloat {
    get { view.getNumber(TH_PROP_ANCHOR_POINT_Z, "layer.anchorPointZ") }
    set { view.setNumber(TH_PROP_ANCHOR_POINT_Z, "layer.anchorPointZ", newValue) }
  }

  /// CALayer.borderWidth, drawn inside the bounds (animatable).
  public var borderWidth: CGFloat {
    get { view.getNumber(TH_PROP_BORDER_WIDTH, "layer.borderWidth") }
    set { view.setNumber(TH_PROP_BORDER_WIDTH, "layer.borderWidth", newValue) }
  }

  /// CALayer.borderColor (default opaque black; animatable).
  public var borderColor: CGColor? {
    get { view.getColor(TH_PROP_BORDER_COLOR, "layer.borderColor") }
    set { view.setColor(TH_PROP_BORDER_COLOR, "layer.borderColor", newValue) }
  }

  /// CALayer.shadowColor (default opaque black; animatable).
  public var shadowColor: CGColor? {
    get { view.getColor(TH_PROP_SHADOW_COLOR, "layer.shadowColor") }
    set { view.setColor(TH_PROP_SHADOW_COLOR, "layer.shadowColor", newValue) }
  }

  /// CALayer.shadowOpacity in [0, 1] (default 0; animatable).
  public var shadowOpacity: Float {
    get { Float(view.getNumber(TH_PROP_SHADOW_OPACITY, "layer.shadowOpacity")) }
    set { view.setNumber(TH_PROP_SHADOW_OPACITY, "layer.shadowOpacity", CGFloat(newValue)) }
  }

  /// CALayer.shadowRadius, the blur radius (default 3; animatable).
  public var shadowRadius: CGFloat {
    get { view.getNumber(TH_PROP_SHADOW_RADIUS, "layer.shadowRadius") }
    set { view.setNumber(TH_PROP_SHADOW_RADIUS, "layer.shadowRadius", newValue) }
  }

  /// CALayer.shadowOffset (default (0, −3); animatable).
  public var shadowOffset: CGSize {
    get {
      let p = view.getPoint(TH_PROP_SHADOW_OFFSET, "layer.shadowOffset")
      return CGSize(width: p.x, height: p.y)
    }
    set { view.setPoint(TH_PROP_SHADOW_OFFSET, "layer.shadowOffset", CGPoint(x: newValue.width, y: newValue.height)) }
  }

  /// CALayer.shadowPath, in the layer's bounds coordinates (nil: the shape of the content; animatable).
  public var shadowPath: CGPath? {
    get { getPath(TH_PROP_SHADOW_PATH, "layer.shadowPath") }
    set { setPath(TH_PROP_SHADOW_PATH, "layer.shadowPath", newValue) }
  }

  /// CALayer.maskedCorners: which corners `cornerRadius` rounds (not animatable).
  public var maskedCorners: CACornerMask {
    get { CACornerMask(rawValue: UInt(view.getNumber(TH_PROP_MASKED_CORNERS, "layer.maskedCorners"))) }
    set { view.setNumber(TH_PROP_MASKED_CORNERS, "layer.maskedCorners", CGFloat(newValue.rawValue & 15)) }
  }

  /// CALayer.contents: a `UIImage` the client draws (by name), or nil. Other values are refused (logged).
  public var contents: Any? {
    get { contentsImage }
    set {
      guard newValue == nil || newValue is UIImage else {
        TransitionLog.warning("TransitionKit: layer.contents takes a UIImage (by name) here; \(newValue!) ignored")
        return
      }
      let image = newValue as? UIImage
      guard let session = view.live("layer.contents") else { return }
      session.call(\.set_image_content, "\(view).layer.contents") { fn, ctx in
        if let name = image?.name {
          name.withCString { fn(ctx, nodeHandle, $0, TH_CONTENT_MODE_SCALE_TO_FILL) }
        } else {
          fn(ctx, nodeHandle, nil, TH_CONTENT_MODE_SCALE_TO_FILL)
        }
      }
      view.layerContents = image
    }
  }

  private var contentsImage: UIImage? { view.layerContents }

  // MARK: Paths (shape layers and shadows)

  func getPath(_ property: th_property, _ name: String) -> CGPath? {
    guard let session = view.live(name) else { return nil }
    var out = th_path()
    var isSet = false
    guard session.callLayers(\.get_path, "\(view).\(name)", { $0($1, nodeHandle, property, &out, &isSet) }), isSet
    else { return nil }
    let elements = (0..<Int(out.count)).map { out.elements![$0] }
    return CGPath(elements: elements)
  }

  func setPath(_ property: th_property, _ name: String, _ path: CGPath?) {
    guard let session = view.live(name) else { return }
    guard let path else {
      session.callLayers(\.set_path, "\(view).\(name) = nil") { $0($1, nodeHandle, property, nil) }
      return
    }
    path.elements.withUnsafeBufferPointer { buffer in
      var value = th_path(elements: buffer.baseAddress, count: UInt32(buffer.count), reserved: 0)
      session.callLayers(\.set_path, "\(view).\(name)") { $0($1, nodeHandle, property, &value) }
    }
  }
}

extension UIView {
  /// UIView.mask: `mask`'s alpha masks the view (its layer's `mask` is the mask view's layer).
  public var mask: UIView? {
    get {
      guard let session = live("view.mask"), let layer = layer.mask else { return nil }
      return layer.view.standaloneLayer == nil ? session.view(layer.nodeHandle) : nil
    }
    set { layer.mask = newValue?.layer }
  }

  /// Makes the view's new host layer of `layerClass`'s kind (UIKit's `override class var layerClass`).
  func applyLayerClass() {
    guard let type = Swift.type(of: self).layerClass as? CALayer.Type, type.hostKind != TH_LAYER_PLAIN, let session
    else {
      return
    }
    let kind = type.hostKind
    session.callLayers(\.set_layer_class, "\(self).layerClass") { $0($1, th, kind) }
  }
}

/// CAShapeLayer: draws `path`, filled with `fillColor` and stroked with `strokeColor`.
public class CAShapeLayer: CALayer {
  override class var hostKind: th_layer_kind { TH_LAYER_SHAPE }

  /// The path in the layer's bounds coordinates (animatable: point by point between paths of the same structure).
  public var path: CGPath? {
    get { getPath(TH_PROP_PATH, "layer.path") }
    set { setPath(TH_PROP_PATH, "layer.path", newValue) }
  }

  /// The fill colour (default opaque black; nil: no fill; animatable).
  public var fillColor: CGColor? {
    get { view.getColor(TH_PROP_FILL_COLOR, "layer.fillColor") }
    set { view.setColor(TH_PROP_FILL_COLOR, "layer.fillColor", newValue) }
  }

  /// The stroke colour (default nil: no stroke; animatable).
  public var strokeColor: CGColor? {
    get { view.getColor(TH_PROP_STROKE_COLOR, "layer.strokeColor") }
    set { view.setColor(TH_PROP_STROKE_COLOR, "layer.strokeColor", newValue) }
  }

  /// The stroke width (default 1; animatable).
  public var lineWidth: CGFloat {
    get { view.getNumber(TH_PROP_LINE_WIDTH, "layer.lineWidth") }
    set { view.setNumber(TH_PROP_LINE_WIDTH, "layer.lineWidth", newValue) }
  }

  /// Where the stroke starts, as a fraction of the path's length (default 0; animatable).
  public var strokeStart: CGFloat {
    get { view.getNumber(TH_PROP_STROKE_START, "layer.strokeStart") }
    set { view.setNumber(TH_PROP_STROKE_START, "layer.strokeStart", newValue) }
  }

  /// Where the stroke ends, as a fraction of the path's length (default 1; animatable).
  public var strokeEnd: CGFloat {
    get { view.getNumber(TH_PROP_STROKE_END, "layer.strokeEnd") }
    set { view.setNumber(TH_PROP_STROKE_END, "layer.strokeEnd", newValue) }
  }

  /// The offset into the dash pattern (default 0; animatable).
  public var lineDashPhase: CGFloat {
    get { view.getNumber(TH_PROP_LINE_DASH_PHASE, "layer.lineDashPhase") }
    set { view.setNumber(TH_PROP_LINE_DASH_PHASE, "layer.lineDashPhase", newValue) }
  }

  /// The dash pattern: painted and unpainted lengths, alternating (nil: solid; not animatable).
  public var lineDashPattern: [NSNumber]? {
    get {
      guard let session = view.live("layer.lineDashPattern") else { return nil }
      var lengths: UnsafePointer<Double>?
      var count: UInt32 = 0
      var isSet = false
      guard
        session.callLayers(
          \.get_line_dash_pattern, "\(view).layer.lineDashPattern", { $0($1, nodeHandle, &lengths, &count, &isSet) }),
        isSet
      else { return nil }
      return (0..<Int(count)).map { NSNumber(value: lengths![$0]) }
    }
    set {
      guard let session = view.live("layer.lineDashPattern") else { return }
      guard let values = newValue?.map(\.doubleValue) else {
        session.callLayers(\.set_line_dash_pattern, "\(view).layer.lineDashPattern = nil") {
          $0($1, nodeHandle, nil, 0)
        }
        return
      }
      values.withUnsafeBufferPointer { buffer in
        session.callLayers(\.set_line_dash_pattern, "\(view).layer.lineDashPattern") {
          $0($1, nodeHandle, buffer.baseAddress ?? UnsafePointer(bitPattern: 8), UInt32(buffer.count))
        }
      }
    }
  }

  /// The fill rule (not animatable).
  public var fillRule: CAShapeLayerFillRule {
    get { view.getNumber(TH_PROP_FILL_RULE, "layer.fillRule") == 1 ? .evenOdd : .nonZero }
    set {
      view.setNumber(
        TH_PROP_FILL_RULE, "layer.fillRule", newValue == .evenOdd ? CGFloat(TH_FILL_RULE_EVEN_ODD.rawValue) : 0)
    }
  }
}

/// CAGradientLayer: `colors` at `locations` from `startPoint` to `endPoint` (unit coordinates), of `type`. Its
/// members are the one host gradient (`layer.gradient`): setting one keeps the others.
public class CAGradientLayer: CALayer {
  override class var hostKind: th_layer_kind { TH_LAYER_GRADIENT }

  private func update(_ change: (inout Gradient) -> Void) {
    var gradient = self.gradient ?? Gradient(colors: [])
    change(&gradient)
    self.gradient = gradient.colors.isEmpty ? nil : gradient
  }

  /// The colours, CGColor values (nil: no gradient is drawn). Animatable elementwise.
  public var colors: [Any]? {
    get { gradient?.colors }
    set {
      let colors = (newValue ?? []).compactMap { $0 as? CGColor }
      if let newValue, colors.count != newValue.count {
        TransitionLog.warning("TransitionKit: CAGradientLayer.colors takes CGColor values; the others are ignored")
      }
      update { gradient in
        gradient.colors = colors
        if let locations = gradient.locations, locations.count != colors.count { gradient.locations = nil }
      }
    }
  }

  /// The stops in [0, 1], one per colour (nil: evenly spaced).
  public var locations: [NSNumber]? {
    get { gradient?.locations?.map { NSNumber(value: $0) } }
    set { update { $0.locations = newValue?.map(\.doubleValue) } }
  }

  /// The start point in unit coordinates (default (0.5, 0)).
  public var startPoint: CGPoint {
    get { gradient?.startPoint ?? CGPoint(x: 0.5, y: 0) }
    set { update { $0.startPoint = newValue } }
  }

  /// The end point in unit coordinates (default (0.5, 1)).
  public var endPoint: CGPoint {
    get { gradient?.endPoint ?? CGPoint(x: 0.5, y: 1) }
    set { update { $0.endPoint = newValue } }
  }

  /// The gradient's type (not animatable).
  public var type: CAGradientLayerType {
    get {
      switch view.getNumber(TH_PROP_GRADIENT_TYPE, "layer.type") {
      case 1: .radial
      case 2: .conic
      default: .axial
      }
    }
    set {
      let raw: th_gradient_type =
        newValue == .radial ? TH_GRADIENT_RADIAL : newValue == .conic ? TH_GRADIENT_CONIC : TH_GRADIENT_AXIAL
      view.setNumber(TH_PROP_GRADIENT_TYPE, "layer.type", CGFloat(raw.rawValue))
    }
  }
}
