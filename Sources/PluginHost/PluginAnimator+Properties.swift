import CTransitionABI
import TransitionEngine

// The property getters and setters of the host API.

/// The value kind of a property: which getter/setter pair accepts it.
enum PropertyKind: String {
  case number, bool, point, rect, transform, color, gradient
}

/// A `th_property` the host models.
enum HostProperty {
  case bounds, position, anchorPoint, frame, center, transform, sublayerTransform, alpha, hidden, zPosition
  case cornerRadius, backgroundColor, clipsToBounds, gradient, userInteractionEnabled

  init?(_ raw: th_property) {
    switch raw {
    case TH_PROP_BOUNDS: self = .bounds
    case TH_PROP_POSITION: self = .position
    case TH_PROP_ANCHOR_POINT: self = .anchorPoint
    case TH_PROP_FRAME: self = .frame
    case TH_PROP_CENTER: self = .center
    case TH_PROP_TRANSFORM: self = .transform
    case TH_PROP_SUBLAYER_TRANSFORM: self = .sublayerTransform
    case TH_PROP_ALPHA: self = .alpha
    case TH_PROP_HIDDEN: self = .hidden
    case TH_PROP_Z_POSITION: self = .zPosition
    case TH_PROP_CORNER_RADIUS: self = .cornerRadius
    case TH_PROP_BACKGROUND_COLOR: self = .backgroundColor
    case TH_PROP_CLIPS_TO_BOUNDS: self = .clipsToBounds
    case TH_PROP_GRADIENT: self = .gradient
    case TH_PROP_USER_INTERACTION_ENABLED: self = .userInteractionEnabled
    default: return nil
    }
  }

  var kind: PropertyKind {
    switch self {
    case .bounds, .frame: .rect
    case .position, .anchorPoint, .center: .point
    case .transform, .sublayerTransform: .transform
    case .alpha, .zPosition, .cornerRadius: .number
    case .hidden, .clipsToBounds, .userInteractionEnabled: .bool
    case .backgroundColor: .color
    case .gradient: .gradient
    }
  }

  /// UIKit's name, for reports.
  var name: String {
    switch self {
    case .bounds: "bounds"
    case .position: "position"
    case .anchorPoint: "anchorPoint"
    case .frame: "frame"
    case .center: "center"
    case .transform: "transform"
    case .sublayerTransform: "sublayerTransform"
    case .alpha: "alpha"
    case .hidden: "isHidden"
    case .zPosition: "zPosition"
    case .cornerRadius: "cornerRadius"
    case .backgroundColor: "backgroundColor"
    case .clipsToBounds: "clipsToBounds"
    case .gradient: "gradient"
    case .userInteractionEnabled: "isUserInteractionEnabled"
    }
  }
}

extension PluginAnimator {
  /// The most colours a gradient may have.
  static let maximumGradientColors = 1024

  /// The property, checked to be of `kind`.
  func property(_ raw: th_property, _ kind: PropertyKind) throws(HostFailure) -> HostProperty {
    guard let property = HostProperty(raw) else {
      if let layer = LayerProperty(raw) { throw layer.mismatch(kind.rawValue) }
      throw .unsupported("property", "unknown th_property \(raw.rawValue)")
    }
    guard property.kind == kind else {
      throw .typeMismatch(
        "property", "\(property.name) is a \(property.kind.rawValue) property, not a \(kind.rawValue) one")
    }
    return property
  }

  /// The view and property of a getter, checked.
  private func getter(_ view: th_view, _ raw: th_property, _ kind: PropertyKind) throws(HostFailure) -> (
    View, HostProperty
  ) {
    try require(.read)
    let view = try self.view(view, "view")
    return (view, try property(raw, kind))
  }

  /// The view and property of a setter, checked.
  private func setter(_ view: th_view, _ raw: th_property, _ kind: PropertyKind) throws(HostFailure) -> (
    View, HostProperty
  ) {
    try require(.write)
    let view = try self.view(view, "view")
    return (view, try property(raw, kind))
  }

  /// Writes an animatable property: a presentation value inside a driver, the model (animated inside a block)
  /// anywhere else.
  func write<Value: TrackValue>(_ property: AnimatableProperty<Value>, _ view: View, _ value: Value) {
    if let driverFrame {
      driverFrame.set(property, of: view, to: value)
    } else {
      view.write(property, value)
    }
  }

  // MARK: number

  func getNumber(_ view: th_view, _ raw: th_property, _ out: UnsafeMutablePointer<Double>?) throws(HostFailure)
    -> th_status
  {
    if let layer = LayerProperty(raw) { return try getLayerNumber(view, layer, out) }
    let (view, property) = try getter(view, raw, .number)
    let out = try required(out, "out_value")
    switch property {
    case .alpha: out.pointee = view.alpha
    case .zPosition: out.pointee = view.zPosition
    default: out.pointee = view.cornerRadius
    }
    return TH_OK
  }

  func setNumber(_ view: th_view, _ raw: th_property, _ value: Double) throws(HostFailure) -> th_status {
    if let layer = LayerProperty(raw) { return try setLayerNumber(view, layer, value) }
    let (view, property) = try setter(view, raw, .number)
    guard value.isFinite else { throw .invalidValue(property.name, "\(property.name) \(value) is not finite") }
    switch property {
    case .alpha:
      guard value >= 0, value <= 1 else { throw .invalidValue("alpha", "alpha \(value) is outside [0, 1]") }
      write(.alpha, view, value)
    case .zPosition:
      write(.zPosition, view, value)
    default:
      guard value >= 0 else { throw .invalidValue("cornerRadius", "cornerRadius \(value) is negative") }
      write(.cornerRadius, view, value)
    }
    return TH_OK
  }

  // MARK: bool

  func getBool(_ view: th_view, _ raw: th_property, _ out: UnsafeMutablePointer<Bool>?) throws(HostFailure)
    -> th_status
  {
    let (view, property) = try getter(view, raw, .bool)
    let out = try required(out, "out_value")
    switch property {
    case .hidden: out.pointee = view.isHidden
    case .userInteractionEnabled: out.pointee = view.isUserInteractionEnabled
    default: out.pointee = view.clipsToBounds
    }
    return TH_OK
  }

  func setBool(_ view: th_view, _ raw: th_property, _ value: Bool) throws(HostFailure) -> th_status {
    let (view, property) = try setter(view, raw, .bool)
    // Not animatable: a driver (which writes presentation values only) cannot set them.
    guard driverFrame == nil else {
      throw .wrongPhase("\(property.name) is not animatable; a driver can only write presentation values")
    }
    switch property {
    case .hidden: view.isHidden = value
    case .userInteractionEnabled: view.isUserInteractionEnabled = value
    default: view.clipsToBounds = value
    }
    return TH_OK
  }

  // MARK: point

  func getPoint(_ view: th_view, _ raw: th_property, _ out: UnsafeMutablePointer<th_point>?) throws(HostFailure)
    -> th_status
  {
    if let layer = LayerProperty(raw) { return try getLayerPoint(view, layer, out) }
    let (view, property) = try getter(view, raw, .point)
    let out = try required(out, "out_value")
    switch property {
    case .anchorPoint: out.pointee = view.anchorPoint.abi
    case .center: out.pointee = view.center.abi
    default: out.pointee = view.position.abi
    }
    return TH_OK
  }

  func setPoint(_ view: th_view, _ raw: th_property, _ value: th_point) throws(HostFailure) -> th_status {
    if let layer = LayerProperty(raw) { return try setLayerPoint(view, layer, value) }
    let (view, property) = try setter(view, raw, .point)
    let point = Point(value)
    guard point.isFinite else { throw .invalidValue(property.name, "\(property.name) \(point) is not finite") }
    write(property == .anchorPoint ? .anchorPoint : .position, view, point)
    return TH_OK
  }

  // MARK: rect

  func getRect(_ view: th_view, _ raw: th_property, _ out: UnsafeMutablePointer<th_rect>?) throws(HostFailure)
    -> th_status
  {
    let (view, property) = try getter(view, raw, .rect)
    let out = try required(out, "out_value")
    out.pointee = (property == .frame ? view.frame : view.bounds).abi
    return TH_OK
  }

  func setRect(_ view: th_view, _ raw: th_property, _ value: th_rect) throws(HostFailure) -> th_status {
    let (view, property) = try setter(view, raw, .rect)
    let rect = Rect(value)
    guard rect.isFinite else { throw .invalidValue(property.name, "\(property.name) \(rect) is not finite") }
    guard rect.size.width >= 0, rect.size.height >= 0 else {
      throw .invalidValue(property.name, "\(property.name) \(rect) has a negative size")
    }
    if property == .bounds {
      write(.bounds, view, rect)
    } else if let driverFrame {
      // UIKit's frame setter, on presentation values: bounds keeps its origin, position follows the anchor.
      var bounds = view.bounds
      bounds.size = rect.size
      let anchor = view.anchorPoint
      driverFrame.set(.bounds, of: view, to: bounds)
      driverFrame.set(
        .position, of: view,
        to: Point(x: rect.origin.x + anchor.x * rect.size.width, y: rect.origin.y + anchor.y * rect.size.height))
    } else {
      view.frame = rect
    }
    return TH_OK
  }

  // MARK: transform

  func getTransform(_ view: th_view, _ raw: th_property, _ out: UnsafeMutablePointer<th_transform3d>?)
    throws(HostFailure) -> th_status
  {
    let (view, property) = try getter(view, raw, .transform)
    let out = try required(out, "out_value")
    out.pointee = (property == .transform ? view.transform : view.sublayerTransform).abi
    return TH_OK
  }

  func setTransform(_ view: th_view, _ raw: th_property, _ value: UnsafePointer<th_transform3d>?) throws(HostFailure)
    -> th_status
  {
    let (view, property) = try setter(view, raw, .transform)
    guard let value else { throw .null("value") }
    let transform = Transform3D(value.pointee)
    guard transform.values.allSatisfy(\.isFinite) else {
      throw .invalidValue(property.name, "\(property.name) has a NaN or infinite element")
    }
    write(property == .transform ? .transform : .sublayerTransform, view, transform)
    return TH_OK
  }

  // MARK: color

  func getColor(
    _ view: th_view, _ raw: th_property, _ out: UnsafeMutablePointer<th_color>?, _ isSet: UnsafeMutablePointer<Bool>?
  ) throws(HostFailure) -> th_status {
    if let layer = LayerProperty(raw) { return try getLayerColor(view, layer, out, isSet) }
    let (view, _) = try getter(view, raw, .color)
    let out = try required(out, "out_value")
    let isSet = try required(isSet, "out_is_set")
    if let color = view.backgroundColor {
      out.pointee = color.abi
      isSet.pointee = true
    } else {
      isSet.pointee = false
    }
    return TH_OK
  }

  func setColor(_ view: th_view, _ raw: th_property, _ value: UnsafePointer<th_color>?) throws(HostFailure)
    -> th_status
  {
    if let layer = LayerProperty(raw) { return try setLayerColor(view, layer, value) }
    let (view, _) = try setter(view, raw, .color)
    var color: Color?
    if let value {
      let c = Color(value.pointee)
      guard c.isValidComponents else {
        throw .invalidValue("backgroundColor", "colour components must be in [0, 1]: \(c)")
      }
      color = c
    }
    write(.backgroundColor, view, color)
    return TH_OK
  }

  // MARK: gradient

  func getGradient(
    _ view: th_view, _ raw: th_property, _ out: UnsafeMutablePointer<th_gradient>?,
    _ isSet: UnsafeMutablePointer<Bool>?
  ) throws(HostFailure) -> th_status {
    let (view, _) = try getter(view, raw, .gradient)
    let out = try required(out, "out_value")
    let isSet = try required(isSet, "out_is_set")
    guard let gradient = view.gradient else {
      isSet.pointee = false
      return TH_OK
    }
    let colors = borrow(
      bytes: MemoryLayout<th_color>.stride * gradient.colors.count, alignment: MemoryLayout<th_color>.alignment
    ).bindMemory(to: th_color.self, capacity: gradient.colors.count)
    for (i, c) in gradient.colors.enumerated() { colors[i] = c.abi }
    var locations: UnsafeMutablePointer<Double>?
    if let values = gradient.locations {
      let pointer = borrow(bytes: 8 * values.count, alignment: 8).bindMemory(to: Double.self, capacity: values.count)
      for (i, v) in values.enumerated() { pointer[i] = v }
      locations = pointer
    }
    out.pointee = th_gradient(
      struct_size: UInt32(MemoryLayout<th_gradient>.size), count: UInt32(gradient.colors.count),
      colors: UnsafePointer(colors), locations: locations.map { UnsafePointer($0) },
      start_point: gradient.startPoint.abi, end_point: gradient.endPoint.abi)
    isSet.pointee = true
    return TH_OK
  }

  func setGradient(_ view: th_view, _ raw: th_property, _ value: UnsafePointer<th_gradient>?) throws(HostFailure)
    -> th_status
  {
    let (view, _) = try setter(view, raw, .gradient)
    guard let value else {
      write(.gradient, view, nil)
      return TH_OK
    }
    try checkStructSize(UnsafeRawPointer(value), minimum: MemoryLayout<th_gradient>.size, "value")
    let g = value.pointee
    let count = Int(g.count)
    guard count >= 1 else { throw .invalidValue("gradient", "a gradient needs at least one colour") }
    guard count <= Self.maximumGradientColors else {
      throw .limit("gradient", "\(count) colours; at most \(Self.maximumGradientColors)")
    }
    guard let colorPointer = g.colors else { throw .null("value->colors") }
    var colors: [Color] = []
    for i in 0..<count {
      let c = Color(colorPointer[i])
      guard c.isValidComponents else {
        throw .invalidValue("gradient", "colour \(i) components must be in [0, 1]: \(c)")
      }
      colors.append(c)
    }
    var locations: [Double]?
    if let pointer = g.locations {
      var values: [Double] = []
      for i in 0..<count {
        let v = pointer[i]
        guard v >= 0, v <= 1 else { throw .invalidValue("gradient", "location \(i) (\(v)) is outside [0, 1]") }
        guard values.last.map({ $0 <= v }) ?? true else {
          throw .invalidValue("gradient", "locations must not decrease (location \(i) is \(v))")
        }
        values.append(v)
      }
      locations = values
    }
    let start = Point(g.start_point)
    let end = Point(g.end_point)
    guard start.isFinite, end.isFinite else {
      throw .invalidValue("gradient", "start and end points must be finite")
    }
    write(.gradient, view, Gradient(colors: colors, locations: locations, startPoint: start, endPoint: end))
    return TH_OK
  }
}
