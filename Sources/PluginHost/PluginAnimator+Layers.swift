import CTransitionABI
import TransitionEngine

// ABI 1.3 — Core Animation layers: the layer-only th_property values (through the property functions of
// th_host_api) and the host extension "th.layers/1" (layers that are not views, the sublayer tree, masks, paths),
// bound to the engine's layer model (TransitionEngine/Layer*.swift).

/// A layer-only `th_property` (ABI 1.3).
enum LayerProperty: UInt32 {
  case anchorPointZ = 32, borderWidth, borderColor, shadowColor, shadowOpacity, shadowRadius, shadowOffset
  case shadowPath, maskedCorners, path, fillColor, strokeColor, lineWidth, strokeStart, strokeEnd, lineDashPhase
  case fillRule, gradientType

  init?(_ raw: th_property) { self.init(rawValue: raw.rawValue) }

  /// The value kind: which getter/setter pair accepts it.
  var kind: String {
    switch self {
    case .borderColor, .shadowColor, .fillColor, .strokeColor: "color"
    case .shadowOffset: "point"
    case .shadowPath, .path: "path"
    default: "number"
    }
  }

  /// Core Animation's name, for reports.
  var name: String {
    switch self {
    case .anchorPointZ: "anchorPointZ"
    case .borderWidth: "borderWidth"
    case .borderColor: "borderColor"
    case .shadowColor: "shadowColor"
    case .shadowOpacity: "shadowOpacity"
    case .shadowRadius: "shadowRadius"
    case .shadowOffset: "shadowOffset"
    case .shadowPath: "shadowPath"
    case .maskedCorners: "maskedCorners"
    case .path: "path"
    case .fillColor: "fillColor"
    case .strokeColor: "strokeColor"
    case .lineWidth: "lineWidth"
    case .strokeStart: "strokeStart"
    case .strokeEnd: "strokeEnd"
    case .lineDashPhase: "lineDashPhase"
    case .fillRule: "fillRule"
    case .gradientType: "type"
    }
  }

  /// The refusal of a getter or setter of another kind.
  func mismatch(_ kind: some CustomStringConvertible) -> HostFailure {
    .typeMismatch("property", "\(name) is a \(self.kind) property, not a \(kind) one")
  }

  /// The color property's engine handle.
  var colorProperty: AnimatableProperty<Color?>? {
    switch self {
    case .borderColor: .borderColor
    case .shadowColor: .shadowColor
    case .fillColor: .fillColor
    case .strokeColor: .strokeColor
    default: nil
    }
  }

  /// The animatable number property's engine handle and the lowest value it accepts (nil: any finite value) and
  /// the highest.
  var numberProperty: (AnimatableProperty<Double>, Double?, Double?)? {
    switch self {
    case .anchorPointZ: (.anchorPointZ, nil, nil)
    case .borderWidth: (.borderWidth, 0, nil)
    case .shadowOpacity: (.shadowOpacity, 0, 1)
    case .shadowRadius: (.shadowRadius, 0, nil)
    case .lineWidth: (.lineWidth, 0, nil)
    case .strokeStart: (.strokeStart, nil, nil)
    case .strokeEnd: (.strokeEnd, nil, nil)
    case .lineDashPhase: (.lineDashPhase, nil, nil)
    default: nil
    }
  }

  /// The path property's engine handle.
  var pathProperty: AnimatableProperty<Path?>? {
    switch self {
    case .path: .path
    case .shadowPath: .shadowPath
    default: nil
    }
  }
}

extension LayerKind {
  init?(_ raw: th_layer_kind) {
    switch raw {
    case TH_LAYER_PLAIN: self = .layer
    case TH_LAYER_GRADIENT: self = .gradient
    case TH_LAYER_SHAPE: self = .shape
    default: return nil
    }
  }

  var abi: th_layer_kind {
    switch self {
    case .layer: TH_LAYER_PLAIN
    case .gradient: TH_LAYER_GRADIENT
    case .shape: TH_LAYER_SHAPE
    }
  }
}

extension PluginAnimator {
  /// The most elements a path may have, and the most lengths of a dash pattern.
  static let maximumPathElements = 100_000
  static let maximumDashLengths = 1024

  private func layerProperty(_ raw: th_property, _ kind: String) throws(HostFailure) -> LayerProperty {
    guard let property = LayerProperty(raw) else {
      if HostProperty(raw) != nil {
        throw .typeMismatch("property", "th_property \(raw.rawValue) is not a \(kind) one")
      }
      throw .unsupported("property", "unknown th_property \(raw.rawValue)")
    }
    guard property.kind == kind else { throw property.mismatch(kind) }
    return property
  }

  // MARK: numbers

  func getLayerNumber(_ view: th_view, _ property: LayerProperty, _ out: UnsafeMutablePointer<Double>?)
    throws(HostFailure) -> th_status
  {
    try require(.read)
    let view = try self.view(view, "view")
    guard property.kind == "number" else { throw property.mismatch("number") }
    let out = try required(out, "out_value")
    switch property {
    case .maskedCorners: out.pointee = Double(view.maskedCorners.rawValue)
    case .fillRule: out.pointee = view.fillRule == .evenOdd ? 1 : 0
    case .gradientType:
      out.pointee =
        switch view.gradientType {
        case .axial: 0
        case .radial: 1
        case .conic: 2
        }
    default: out.pointee = view.value(of: property.numberProperty!.0)
    }
    return TH_OK
  }

  func setLayerNumber(_ view: th_view, _ property: LayerProperty, _ value: Double) throws(HostFailure) -> th_status {
    try require(.write)
    let view = try self.view(view, "view")
    guard property.kind == "number" else { throw property.mismatch("number") }
    let name = property.name
    guard value.isFinite else { throw .invalidValue(name, "\(name) \(value) is not finite") }
    if let (handle, low, high) = property.numberProperty {
      if let low, value < low { throw .invalidValue(name, "\(name) \(value) is below \(low)") }
      if let high, value > high { throw .invalidValue(name, "\(name) \(value) is above \(high)") }
      write(handle, view, value)
      return TH_OK
    }
    guard driverFrame == nil else {
      throw .wrongPhase("\(name) is not animatable; a driver can only write presentation values")
    }
    guard value.rounded() == value else { throw .invalidValue(name, "\(name) \(value) is not an integer") }
    switch property {
    case .maskedCorners:
      guard value >= 0, value <= 15 else { throw .invalidValue(name, "maskedCorners \(value) has bits beyond 15") }
      view.maskedCorners = MaskedCorners(rawValue: Int(value))
    case .fillRule:
      guard value == 0 || value == 1 else { throw .invalidValue(name, "fillRule \(value) is not a th_fill_rule") }
      view.fillRule = value == 1 ? .evenOdd : .nonZero
    default:
      guard value >= 0, value <= 2 else { throw .invalidValue(name, "type \(value) is not a th_gradient_type") }
      view.gradientType = [GradientType.axial, .radial, .conic][Int(value)]
    }
    return TH_OK
  }

  // MARK: points (shadowOffset, a size)

  func getLayerPoint(_ view: th_view, _ property: LayerProperty, _ out: UnsafeMutablePointer<th_point>?)
    throws(HostFailure) -> th_status
  {
    try require(.read)
    let view = try self.view(view, "view")
    guard property == .shadowOffset else { throw property.mismatch("point") }
    let out = try required(out, "out_value")
    let offset = view.shadowOffset
    out.pointee = th_point(x: offset.width, y: offset.height)
    return TH_OK
  }

  func setLayerPoint(_ view: th_view, _ property: LayerProperty, _ value: th_point) throws(HostFailure) -> th_status {
    try require(.write)
    let view = try self.view(view, "view")
    guard property == .shadowOffset else { throw property.mismatch("point") }
    guard value.x.isFinite, value.y.isFinite else {
      throw .invalidValue("shadowOffset", "shadowOffset (\(value.x), \(value.y)) is not finite")
    }
    write(.shadowOffset, view, Size(width: value.x, height: value.y))
    return TH_OK
  }

  // MARK: colours

  func getLayerColor(
    _ view: th_view, _ property: LayerProperty, _ out: UnsafeMutablePointer<th_color>?,
    _ isSet: UnsafeMutablePointer<Bool>?
  ) throws(HostFailure) -> th_status {
    try require(.read)
    let view = try self.view(view, "view")
    guard let handle = property.colorProperty else { throw property.mismatch("color") }
    let out = try required(out, "out_value")
    let isSet = try required(isSet, "out_is_set")
    if let color = view.value(of: handle) {
      out.pointee = color.abi
      isSet.pointee = true
    } else {
      isSet.pointee = false
    }
    return TH_OK
  }

  func setLayerColor(_ view: th_view, _ property: LayerProperty, _ value: UnsafePointer<th_color>?)
    throws(HostFailure) -> th_status
  {
    try require(.write)
    let view = try self.view(view, "view")
    guard let handle = property.colorProperty else { throw property.mismatch("color") }
    var color: Color?
    if let value {
      let c = Color(value.pointee)
      guard c.isValidComponents else {
        throw .invalidValue(property.name, "\(property.name) components must be in [0, 1]: \(c)")
      }
      color = c
    }
    write(handle, view, color)
    return TH_OK
  }

  // MARK: paths and dash patterns

  func setPath(_ view: th_view, _ raw: th_property, _ value: UnsafePointer<th_path>?) throws(HostFailure)
    -> th_status
  {
    try require(.write)
    let view = try self.view(view, "layer")
    let property = try layerProperty(raw, "path")
    guard let value else {
      write(property.pathProperty!, view, nil)
      return TH_OK
    }
    let path = try Self.path(value.pointee, property.name)
    write(property.pathProperty!, view, path)
    return TH_OK
  }

  /// A path from its ABI form, checked.
  static func path(_ value: th_path, _ name: String) throws(HostFailure) -> Path {
    let count = Int(value.count)
    guard count <= maximumPathElements else {
      throw .limit(name, "\(count) path elements; at most \(maximumPathElements)")
    }
    guard count == 0 || value.elements != nil else { throw .null("value->elements") }
    var elements: [PathElement] = []
    elements.reserveCapacity(count)
    for i in 0..<count {
      let e = value.elements![i]
      let p = [Point(e.points.0), Point(e.points.1), Point(e.points.2)]
      let used: Int
      let element: PathElement
      switch e.kind {
      case TH_PATH_MOVE: (used, element) = (1, .move(to: p[0]))
      case TH_PATH_LINE: (used, element) = (1, .line(to: p[0]))
      case TH_PATH_QUAD_CURVE: (used, element) = (2, .quadCurve(to: p[1], control: p[0]))
      case TH_PATH_CURVE: (used, element) = (3, .curve(to: p[2], control1: p[0], control2: p[1]))
      case TH_PATH_CLOSE: (used, element) = (0, .closeSubpath)
      default: throw .invalidValue(name, "\(name) element \(i) has an unknown kind \(e.kind.rawValue)")
      }
      guard p.prefix(used).allSatisfy(\.isFinite) else {
        throw .invalidValue(name, "\(name) element \(i) has a point that is not finite")
      }
      elements.append(element)
    }
    return Path(elements: elements)
  }

  func getPath(
    _ view: th_view, _ raw: th_property, _ out: UnsafeMutablePointer<th_path>?, _ isSet: UnsafeMutablePointer<Bool>?
  ) throws(HostFailure) -> th_status {
    try require(.read)
    let view = try self.view(view, "layer")
    let property = try layerProperty(raw, "path")
    let out = try required(out, "out_value")
    let isSet = try required(isSet, "out_is_set")
    guard let path = view.value(of: property.pathProperty!) else {
      isSet.pointee = false
      return TH_OK
    }
    out.pointee = th_path(elements: lend(path.elements), count: UInt32(path.elements.count), reserved: 0)
    isSet.pointee = true
    return TH_OK
  }

  /// The elements in their ABI form, lent to the plugin until the outermost call returns.
  private func lend(_ elements: [PathElement]) -> UnsafePointer<th_path_element> {
    let buffer = borrow(
      bytes: MemoryLayout<th_path_element>.stride * elements.count, alignment: MemoryLayout<th_path_element>.alignment
    ).bindMemory(to: th_path_element.self, capacity: elements.count)
    for (i, e) in elements.enumerated() { buffer[i] = e.abi }
    return UnsafePointer(buffer)
  }

  func setLineDashPattern(_ view: th_view, _ lengths: UnsafePointer<Double>?, _ count: UInt32) throws(HostFailure)
    -> th_status
  {
    try require(.write)
    let view = try self.view(view, "layer")
    guard driverFrame == nil else {
      throw .wrongPhase("lineDashPattern is not animatable; a driver can only write presentation values")
    }
    guard let lengths else {
      view.lineDashPattern = nil
      return TH_OK
    }
    guard Int(count) <= Self.maximumDashLengths else {
      throw .limit("lengths", "\(count) dash lengths; at most \(Self.maximumDashLengths)")
    }
    let values = Array(UnsafeBufferPointer(start: lengths, count: Int(count)))
    guard values.allSatisfy({ $0.isFinite && $0 >= 0 }) else {
      throw .invalidValue("lineDashPattern", "dash lengths must be finite and ≥ 0: \(values)")
    }
    view.lineDashPattern = values
    return TH_OK
  }

  func getLineDashPattern(
    _ view: th_view, _ out: UnsafeMutablePointer<UnsafePointer<Double>?>?, _ count: UnsafeMutablePointer<UInt32>?,
    _ isSet: UnsafeMutablePointer<Bool>?
  ) throws(HostFailure) -> th_status {
    try require(.read)
    let view = try self.view(view, "layer")
    let out = try required(out, "out_lengths")
    let count = try required(count, "out_count")
    let isSet = try required(isSet, "out_is_set")
    guard let pattern = view.lineDashPattern else {
      isSet.pointee = false
      return TH_OK
    }
    let buffer = borrow(bytes: 8 * pattern.count, alignment: 8).bindMemory(to: Double.self, capacity: pattern.count)
    for (i, v) in pattern.enumerated() { buffer[i] = v }
    out.pointee = UnsafePointer(buffer)
    count.pointee = UInt32(pattern.count)
    isSet.pointee = true
    return TH_OK
  }

  // MARK: the layer tree

  func makeLayer(_ kind: th_layer_kind, _ hint: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<th_view>?)
    throws(HostFailure) -> th_status
  {
    try require(.tree)
    guard let kind = LayerKind(kind) else { throw .unsupported("kind", "unknown th_layer_kind \(kind.rawValue)") }
    let text = hint == nil ? "" : try decodeString(hint, "id_hint")
    let out = try required(out, "out_layer")
    let scene = try engineContext().scene
    try countMadeView("make_layer")
    out.pointee = viewHandle(scene.makeLayer(hint: text.isEmpty ? "layer" : text, kind: kind))
    return TH_OK
  }

  func layerKind(_ layer: th_view, _ out: UnsafeMutablePointer<th_layer_kind>?, _ isView: UnsafeMutablePointer<Bool>?)
    throws(HostFailure) -> th_status
  {
    try require(.read)
    let layer = try self.view(layer, "layer")
    let out = try required(out, "out_kind")
    let isView = try required(isView, "out_is_view")
    out.pointee = layer.layerKind.abi
    isView.pointee = layer.isView
    return TH_OK
  }

  func setLayerClass(_ view: th_view, _ kind: th_layer_kind) throws(HostFailure) -> th_status {
    try require(.tree)
    let view = try self.view(view, "view")
    guard let kind = LayerKind(kind) else { throw .unsupported("kind", "unknown th_layer_kind \(kind.rawValue)") }
    guard view.isView else {
      throw .invalidValue("view", "\(view.id) is a layer that is not a view; its kind is fixed when it is made")
    }
    view.layerKind = kind
    return TH_OK
  }

  /// The sublayer calls, one entry point per CALayer call.
  enum SublayerChange {
    case add
    case at(UInt32)
    case below(th_view)
    case above(th_view)
  }

  func changeSublayers(_ change: SublayerChange, parent: th_view, layer: th_view) throws(HostFailure) -> th_status {
    try require(.tree)
    let parent = try view(parent, "parent")
    let layer = try view(layer, "layer")
    guard !layer.isView else {
      throw .invalidTree("layer", "\(layer.id) is a view's layer; a view joins a tree with add_subview")
    }
    try checkAdoption(parent, layer)
    switch change {
    case .add: parent.addSublayer(layer)
    case .at(let index): parent.insertSublayer(layer, at: Int(index))
    case .below(let sibling), .above(let sibling):
      let sibling = try view(sibling, "sibling")
      guard sibling.superlayer === parent, sibling !== layer else {
        throw .invalidTree("sibling", "\(sibling.id) is not a sublayer of \(parent.id)")
      }
      if case .below = change {
        parent.insertSublayer(layer, below: sibling)
      } else {
        parent.insertSublayer(layer, above: sibling)
      }
    }
    return TH_OK
  }

  func removeFromSuperlayer(_ layer: th_view) throws(HostFailure) -> th_status {
    if try view(layer, "layer").isView { return try removeFromSuperview(layer) }
    try require(.tree)
    try view(layer, "layer").removeFromSuperlayer()
    return TH_OK
  }

  func superlayer(_ layer: th_view, _ out: UnsafeMutablePointer<th_view>?) throws(HostFailure) -> th_status {
    try require(.read)
    let layer = try view(layer, "layer")
    let out = try required(out, "out_superlayer")
    out.pointee = layer.superlayer.map(viewHandle) ?? th_view(id: 0)
    return TH_OK
  }

  func sublayerCount(_ layer: th_view, _ out: UnsafeMutablePointer<UInt32>?) throws(HostFailure) -> th_status {
    try require(.read)
    let layer = try view(layer, "layer")
    let out = try required(out, "out_count")
    out.pointee = UInt32(clamping: layer.sublayers.count)
    return TH_OK
  }

  func sublayer(_ layer: th_view, at index: UInt32, _ out: UnsafeMutablePointer<th_view>?) throws(HostFailure)
    -> th_status
  {
    try require(.read)
    let layer = try view(layer, "layer")
    let out = try required(out, "out_sublayer")
    let sublayers = layer.sublayers
    guard Int(index) < sublayers.count else {
      throw .invalidValue("index", "index \(index) is past the last of \(sublayers.count) sublayers")
    }
    out.pointee = viewHandle(sublayers[Int(index)])
    return TH_OK
  }

  func setMask(_ layer: th_view, _ mask: th_view) throws(HostFailure) -> th_status {
    try require(.tree)
    let layer = try view(layer, "layer")
    guard mask.id != 0 else {
      layer.setMask(nil)
      return TH_OK
    }
    let mask = try view(mask, "mask")
    let container = try engineContext().containerView
    guard mask !== container else { throw .invalidTree("mask", "the container cannot be a mask") }
    guard mask !== layer, !layer.isDescendant(of: mask) else {
      throw .invalidTree("mask", "\(mask.id) is \(layer.id) or one of its superlayers")
    }
    layer.setMask(mask)
    return TH_OK
  }

  func getMask(_ layer: th_view, _ out: UnsafeMutablePointer<th_view>?) throws(HostFailure) -> th_status {
    try require(.read)
    let layer = try view(layer, "layer")
    let out = try required(out, "out_mask")
    out.pointee = layer.mask.map(viewHandle) ?? th_view(id: 0)
    return TH_OK
  }
}

extension PathElement {
  /// The element as th_path_element stores it (CGPathElement's order: controls, then the end point).
  var abi: th_path_element {
    let zero = th_point(x: 0, y: 0)
    switch self {
    case .move(let p): return th_path_element(kind: TH_PATH_MOVE, reserved: 0, points: (p.abi, zero, zero))
    case .line(let p): return th_path_element(kind: TH_PATH_LINE, reserved: 0, points: (p.abi, zero, zero))
    case .quadCurve(let p, let c):
      return th_path_element(kind: TH_PATH_QUAD_CURVE, reserved: 0, points: (c.abi, p.abi, zero))
    case .curve(let p, let c1, let c2):
      return th_path_element(kind: TH_PATH_CURVE, reserved: 0, points: (c1.abi, c2.abi, p.abi))
    case .closeSubpath: return th_path_element(kind: TH_PATH_CLOSE, reserved: 0, points: (zero, zero, zero))
    }
  }
}

/// `path_shape`: the elements of a shape as the engine's `Path` builds it (a pure function of its input).
func pathShape(
  _ shape: UnsafePointer<th_path_shape>?, _ out: UnsafeMutablePointer<th_path_element>?, _ capacity: UInt32,
  _ count: UnsafeMutablePointer<UInt32>?
) -> th_status {
  guard let shape, let out, let count else { return TH_ERR_INVALID_ARGUMENT }
  guard Int(shape.pointee.struct_size) >= MemoryLayout<th_path_shape>.size else { return TH_ERR_INVALID_ARGUMENT }
  let s = shape.pointee
  var path = Path()
  let rect = Rect(s.rect)
  switch s.kind {
  case TH_SHAPE_RECT, TH_SHAPE_ELLIPSE, TH_SHAPE_ROUNDED_RECT:
    guard rect.isFinite else { return TH_ERR_INVALID_VALUE }
    if s.kind == TH_SHAPE_RECT {
      path.addRect(rect)
    } else if s.kind == TH_SHAPE_ELLIPSE {
      path.addEllipse(in: rect)
    } else {
      let radii = [s.top_left_radius, s.top_right_radius, s.bottom_right_radius, s.bottom_left_radius]
      guard radii.allSatisfy({ $0.isFinite && $0 >= 0 }) else { return TH_ERR_INVALID_VALUE }
      path.addRoundedRect(
        rect, radii: CornerRadii(topLeft: radii[0], topRight: radii[1], bottomRight: radii[2], bottomLeft: radii[3]))
    }
  case TH_SHAPE_ARC:
    let center = Point(s.center)
    guard center.isFinite, s.radius.isFinite, s.radius >= 0, s.start_angle.isFinite, s.end_angle.isFinite else {
      return TH_ERR_INVALID_VALUE
    }
    // A path with a current point starts the arc with a line: any move gives it one.
    if s.continues { path.move(to: center) }
    path.addArc(
      center: center, radius: s.radius, startAngle: s.start_angle, endAngle: s.end_angle,
      direction: s.clockwise ? .increasingAngle : .decreasingAngle)
  default:
    return TH_ERR_UNSUPPORTED
  }
  let elements = s.kind == TH_SHAPE_ARC && s.continues ? Array(path.elements.dropFirst()) : path.elements
  guard elements.count <= Int(capacity) else { return TH_ERR_LIMIT }
  for (i, e) in elements.enumerated() { out[i] = e.abi }
  count.pointee = UInt32(elements.count)
  return TH_OK
}

extension HostExtensions {
  /// ABI 1.3 — "th.layers/1", each function bound to `PluginAnimator+Layers`.
  static var layerTable: th_host_layers {
    var t = th_host_layers()
    t.struct_size = UInt32(MemoryLayout<th_host_layers>.size)
    t.make_layer = { ctx, kind, hint, out in
      hostCall(ctx, "layers.make_layer") { (a) throws(HostFailure) in try a.makeLayer(kind, hint, out) }
    }
    t.get_layer_kind = { ctx, layer, out, isView in
      hostCall(ctx, "layers.get_layer_kind") { (a) throws(HostFailure) in try a.layerKind(layer, out, isView) }
    }
    t.set_layer_class = { ctx, view, kind in
      hostCall(ctx, "layers.set_layer_class") { (a) throws(HostFailure) in try a.setLayerClass(view, kind) }
    }
    t.add_sublayer = { ctx, parent, layer in
      hostCall(ctx, "layers.add_sublayer") { (a) throws(HostFailure) in
        try a.changeSublayers(.add, parent: parent, layer: layer)
      }
    }
    t.insert_sublayer_at = { ctx, parent, layer, index in
      hostCall(ctx, "layers.insert_sublayer_at") { (a) throws(HostFailure) in
        try a.changeSublayers(.at(index), parent: parent, layer: layer)
      }
    }
    t.insert_sublayer_below = { ctx, parent, layer, sibling in
      hostCall(ctx, "layers.insert_sublayer_below") { (a) throws(HostFailure) in
        try a.changeSublayers(.below(sibling), parent: parent, layer: layer)
      }
    }
    t.insert_sublayer_above = { ctx, parent, layer, sibling in
      hostCall(ctx, "layers.insert_sublayer_above") { (a) throws(HostFailure) in
        try a.changeSublayers(.above(sibling), parent: parent, layer: layer)
      }
    }
    t.remove_from_superlayer = { ctx, layer in
      hostCall(ctx, "layers.remove_from_superlayer") { (a) throws(HostFailure) in try a.removeFromSuperlayer(layer) }
    }
    t.superlayer = { ctx, layer, out in
      hostCall(ctx, "layers.superlayer") { (a) throws(HostFailure) in try a.superlayer(layer, out) }
    }
    t.sublayer_count = { ctx, layer, out in
      hostCall(ctx, "layers.sublayer_count") { (a) throws(HostFailure) in try a.sublayerCount(layer, out) }
    }
    t.sublayer_at = { ctx, layer, index, out in
      hostCall(ctx, "layers.sublayer_at") { (a) throws(HostFailure) in try a.sublayer(layer, at: index, out) }
    }
    t.set_mask = { ctx, layer, mask in
      hostCall(ctx, "layers.set_mask") { (a) throws(HostFailure) in try a.setMask(layer, mask) }
    }
    t.get_mask = { ctx, layer, out in
      hostCall(ctx, "layers.get_mask") { (a) throws(HostFailure) in try a.getMask(layer, out) }
    }
    t.set_path = { ctx, layer, property, value in
      hostCall(ctx, "layers.set_path") { (a) throws(HostFailure) in try a.setPath(layer, property, value) }
    }
    t.get_path = { ctx, layer, property, out, isSet in
      hostCall(ctx, "layers.get_path") { (a) throws(HostFailure) in try a.getPath(layer, property, out, isSet) }
    }
    t.set_line_dash_pattern = { ctx, layer, lengths, count in
      hostCall(ctx, "layers.set_line_dash_pattern") { (a) throws(HostFailure) in
        try a.setLineDashPattern(layer, lengths, count)
      }
    }
    t.get_line_dash_pattern = { ctx, layer, out, count, isSet in
      hostCall(ctx, "layers.get_line_dash_pattern") { (a) throws(HostFailure) in
        try a.getLineDashPattern(layer, out, count, isSet)
      }
    }
    t.path_shape = { shape, out, capacity, count in pathShape(shape, out, capacity, count) }
    return t
  }
}
