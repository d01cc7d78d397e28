internal import CTransitionABI

// CGPath, CGMutablePath and UIBezierPath: paths as data (th_path_element, ABI 1.3), built as Core Graphics stores
// them. Rectangles, ellipses, rounded rectangles and arcs come from the host's `path_shape` (the engine's own
// builders, so that a path the SDK builds and one the host builds agree element for element and animate together).

/// CGPath: an immutable path.
public class CGPath: Equatable, CustomStringConvertible {
  /// The elements, as the ABI stores them.
  var elements: [th_path_element]

  init(elements: [th_path_element]) {
    self.elements = elements
  }

  /// CGPath(rect:transform:).
  public convenience init(rect: CGRect, transform: UnsafePointer<CGAffineTransform>? = nil) {
    self.init(elements: CGPath.shape(.rect(rect), transform: transform?.pointee))
  }

  /// CGPath(ellipseIn:transform:): a move, four cubic quarter curves, a close.
  public convenience init(ellipseIn rect: CGRect, transform: UnsafePointer<CGAffineTransform>? = nil) {
    self.init(elements: CGPath.shape(.ellipse(rect), transform: transform?.pointee))
  }

  /// CGPath(roundedRect:cornerWidth:cornerHeight:transform:). Corners are circular here: the radius is the smaller of
  /// the two.
  public convenience init(
    roundedRect rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
    transform: UnsafePointer<CGAffineTransform>? = nil
  ) {
    let r = min(cornerWidth, cornerHeight)
    self.init(elements: CGPath.shape(.roundedRect(rect, r, r, r, r), transform: transform?.pointee))
  }

  /// Whether the path has no elements.
  public var isEmpty: Bool { elements.isEmpty }

  /// The end point of the last element (the subpath's start after a close); `.zero` for an empty path.
  public var currentPoint: CGPoint {
    var start = CGPoint.zero
    var current = CGPoint.zero
    for e in elements {
      switch e.kind {
      case TH_PATH_MOVE:
        start = CGPoint(e.points.0)
        current = start
      case TH_PATH_LINE: current = CGPoint(e.points.0)
      case TH_PATH_QUAD_CURVE: current = CGPoint(e.points.1)
      case TH_PATH_CURVE: current = CGPoint(e.points.2)
      default: current = start
      }
    }
    return current
  }

  /// A mutable copy.
  public func mutableCopy() -> CGMutablePath? { CGMutablePath(elements: elements) }

  /// A copy (paths are values here).
  public func copy() -> CGPath? { CGPath(elements: elements) }

  public static func == (a: CGPath, b: CGPath) -> Bool {
    func same(_ p: th_point, _ q: th_point) -> Bool { p.x == q.x && p.y == q.y }
    func same(_ x: th_path_element, _ y: th_path_element) -> Bool {
      x.kind == y.kind && same(x.points.0, y.points.0) && same(x.points.1, y.points.1) && same(x.points.2, y.points.2)
    }
    return a.elements.count == b.elements.count && zip(a.elements, b.elements).allSatisfy(same)
  }

  public var description: String {
    "CGPath("
      + elements.map { e in
        let letter =
          switch e.kind {
          case TH_PATH_MOVE: "M"
          case TH_PATH_LINE: "L"
          case TH_PATH_QUAD_CURVE: "Q"
          case TH_PATH_CURVE: "C"
          default: "Z"
          }
        let count = [TH_PATH_MOVE: 1, TH_PATH_LINE: 1, TH_PATH_QUAD_CURVE: 2, TH_PATH_CURVE: 3][e.kind] ?? 0
        let points = [e.points.0, e.points.1, e.points.2].prefix(count).map { "\($0.x) \($0.y)" }
        return ([letter] + points).joined(separator: " ")
      }.joined(separator: " ") + ")"
  }

  // MARK: Building

  /// A shape `path_shape` builds.
  enum Shape {
    case rect(CGRect)
    case ellipse(CGRect)
    /// top-left, top-right, bottom-right, bottom-left radii.
    case roundedRect(CGRect, CGFloat, CGFloat, CGFloat, CGFloat)
    /// centre, radius, start, end, UIKit's clockwise (increasing angle on screen), whether the path continues.
    case arc(CGPoint, CGFloat, CGFloat, CGFloat, Bool, Bool)
  }

  /// The elements of `shape` as the host builds them, each point mapped by `transform`; none (logged) when the host
  /// has no ABI 1.3 layers or refuses the numbers.
  static func shape(_ shape: Shape, transform: CGAffineTransform? = nil) -> [th_path_element] {
    var input = th_path_shape()
    input.struct_size = UInt32(MemoryLayout<th_path_shape>.size)
    switch shape {
    case .rect(let r):
      input.kind = TH_SHAPE_RECT
      input.rect = r.th
    case .ellipse(let r):
      input.kind = TH_SHAPE_ELLIPSE
      input.rect = r.th
    case .roundedRect(let r, let tl, let tr, let br, let bl):
      input.kind = TH_SHAPE_ROUNDED_RECT
      input.rect = r.th
      input.top_left_radius = tl
      input.top_right_radius = tr
      input.bottom_right_radius = br
      input.bottom_left_radius = bl
    case .arc(let c, let radius, let start, let end, let clockwise, let continues):
      input.kind = TH_SHAPE_ARC
      input.center = c.th
      input.radius = radius
      input.start_angle = start
      input.end_angle = end
      input.clockwise = clockwise
      input.continues = continues
    }
    guard let table = LayerExtension.table, let build = table.pointee.path_shape else {
      TransitionLog.warning("TransitionKit: this host has no paths (ABI 1.3 layers); the shape is empty")
      return []
    }
    var out = [th_path_element](repeating: th_path_element(), count: Int(TH_PATH_SHAPE_MAX_ELEMENTS))
    var count: UInt32 = 0
    let status = out.withUnsafeMutableBufferPointer {
      build(&input, $0.baseAddress, TH_PATH_SHAPE_MAX_ELEMENTS, &count)
    }
    guard status == TH_OK else {
      TransitionLog.warning("TransitionKit: a path shape was refused: \(String(cString: th_status_name(status)))")
      return []
    }
    let elements = Array(out.prefix(Int(count)))
    guard let transform else { return elements }
    return elements.map { $0.applying(transform) }
  }
}

extension th_path_element {
  init(kind: th_path_element_kind, _ points: [CGPoint]) {
    let p = points.map(\.th) + Array(repeating: th_point(x: 0, y: 0), count: 3 - points.count)
    self.init(kind: kind, reserved: 0, points: (p[0], p[1], p[2]))
  }

  func applying(_ t: CGAffineTransform) -> th_path_element {
    func map(_ p: th_point) -> th_point { CGPoint(p).applying(t).th }
    return th_path_element(kind: kind, reserved: 0, points: (map(points.0), map(points.1), map(points.2)))
  }
}

/// CGMutablePath: a path built with CGPath's calls. Angles in radians; `clockwise` is Core Graphics' (on a y-down
/// screen it turns with decreasing angle: the opposite of UIBezierPath's).
public final class CGMutablePath: CGPath {
  public init() { super.init(elements: []) }

  override init(elements: [th_path_element]) { super.init(elements: elements) }

  private var hasCurrentPoint: Bool { !elements.isEmpty }

  /// Starts a subpath at `point`.
  public func move(to point: CGPoint, transform: CGAffineTransform = .identity) {
    elements.append(th_path_element(kind: TH_PATH_MOVE, [point.applying(transform)]))
  }

  /// A line from the current point (from (0, 0) on an empty path).
  public func addLine(to point: CGPoint, transform: CGAffineTransform = .identity) {
    if !hasCurrentPoint { move(to: .zero) }
    elements.append(th_path_element(kind: TH_PATH_LINE, [point.applying(transform)]))
  }

  /// A sequence of lines: a move to the first point and a line to each next one.
  public func addLines(between points: [CGPoint], transform: CGAffineTransform = .identity) {
    guard let first = points.first else { return }
    move(to: first, transform: transform)
    for p in points.dropFirst() { addLine(to: p, transform: transform) }
  }

  /// A quadratic Bézier curve.
  public func addQuadCurve(to end: CGPoint, control: CGPoint, transform: CGAffineTransform = .identity) {
    if !hasCurrentPoint { move(to: .zero) }
    elements.append(th_path_element(kind: TH_PATH_QUAD_CURVE, [control.applying(transform), end.applying(transform)]))
  }

  /// A cubic Bézier curve.
  public func addCurve(
    to end: CGPoint, control1: CGPoint, control2: CGPoint, transform: CGAffineTransform = .identity
  ) {
    if !hasCurrentPoint { move(to: .zero) }
    elements.append(
      th_path_element(
        kind: TH_PATH_CURVE, [control1.applying(transform), control2.applying(transform), end.applying(transform)]))
  }

  /// Closes the current subpath (nothing on an empty path).
  public func closeSubpath() {
    guard hasCurrentPoint else { return }
    elements.append(th_path_element(kind: TH_PATH_CLOSE, []))
  }

  /// A rectangle (a closed subpath).
  public func addRect(_ rect: CGRect, transform: CGAffineTransform = .identity) {
    elements += CGPath.shape(.rect(rect), transform: transform)
  }

  /// An ellipse inside `rect`.
  public func addEllipse(in rect: CGRect, transform: CGAffineTransform = .identity) {
    elements += CGPath.shape(.ellipse(rect), transform: transform)
  }

  /// A rounded rectangle (circular corners of the smaller of the two radii).
  public func addRoundedRect(
    in rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat, transform: CGAffineTransform = .identity
  ) {
    let r = min(cornerWidth, cornerHeight)
    elements += CGPath.shape(.roundedRect(rect, r, r, r, r), transform: transform)
  }

  /// An arc: a line to its start (a move on an empty path), then the arc. `clockwise` is Core Graphics'.
  public func addArc(
    center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool,
    transform: CGAffineTransform = .identity
  ) {
    elements += CGPath.shape(
      .arc(center, radius, startAngle, endAngle, !clockwise, hasCurrentPoint), transform: transform)
  }

  /// The elements of `path` appended.
  public func addPath(_ path: CGPath, transform: CGAffineTransform = .identity) {
    elements += path.elements.map { $0.applying(transform) }
  }
}

/// UIRectCorner: which corners `UIBezierPath(roundedRect:byRoundingCorners:cornerRadii:)` rounds.
public struct UIRectCorner: OptionSet, Hashable, Sendable {
  public let rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }
  public static let topLeft = UIRectCorner(rawValue: 1)
  public static let topRight = UIRectCorner(rawValue: 2)
  public static let bottomLeft = UIRectCorner(rawValue: 4)
  public static let bottomRight = UIRectCorner(rawValue: 8)
  public static let allCorners: UIRectCorner = [.topLeft, .topRight, .bottomLeft, .bottomRight]
}

/// UIBezierPath: a path with UIKit's builders (`clockwise` is UIKit's: increasing angle on a y-down screen).
/// Rounded rectangles have circular corners (one cubic each, as CGPath's), not UIKit's continuous corners.
public final class UIBezierPath: NSObject {
  private let path: CGMutablePath

  public override init() {
    path = CGMutablePath()
    super.init()
  }

  /// A rectangle.
  public convenience init(rect: CGRect) {
    self.init()
    path.addRect(rect)
  }

  /// An ellipse inside `rect`.
  public convenience init(ovalIn rect: CGRect) {
    self.init()
    path.addEllipse(in: rect)
  }

  /// A rounded rectangle with every corner of radius `cornerRadius`.
  public convenience init(roundedRect rect: CGRect, cornerRadius: CGFloat) {
    self.init(roundedRect: rect, byRoundingCorners: .allCorners, cornerRadii: CGSize(width: cornerRadius, height: 0))
  }

  /// A rounded rectangle whose `corners` have radius `cornerRadii.width` (the others are square).
  public convenience init(roundedRect rect: CGRect, byRoundingCorners corners: UIRectCorner, cornerRadii: CGSize) {
    self.init()
    let r = cornerRadii.width
    func radius(_ corner: UIRectCorner) -> CGFloat { corners.contains(corner) ? r : 0 }
    path.elements += CGPath.shape(
      .roundedRect(rect, radius(.topLeft), radius(.topRight), radius(.bottomRight), radius(.bottomLeft)))
  }

  /// An arc (alone in its path: it starts with a move).
  public convenience init(
    arcCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool
  ) {
    self.init()
    addArc(withCenter: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise)
  }

  /// A path with `cgPath`'s elements.
  public convenience init(cgPath: CGPath) {
    self.init()
    path.addPath(cgPath)
  }

  /// The path as a CGPath (a copy).
  public var cgPath: CGPath { CGPath(elements: path.elements) }

  public var isEmpty: Bool { path.isEmpty }
  public var currentPoint: CGPoint { path.currentPoint }

  public func move(to point: CGPoint) { path.move(to: point) }
  public func addLine(to point: CGPoint) { path.addLine(to: point) }
  public func addQuadCurve(to end: CGPoint, controlPoint: CGPoint) { path.addQuadCurve(to: end, control: controlPoint) }
  public func addCurve(to end: CGPoint, controlPoint1: CGPoint, controlPoint2: CGPoint) {
    path.addCurve(to: end, control1: controlPoint1, control2: controlPoint2)
  }
  public func close() { path.closeSubpath() }

  /// An arc: a line to its start (a move on an empty path), then the arc.
  public func addArc(
    withCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool
  ) {
    path.elements += CGPath.shape(.arc(center, radius, startAngle, endAngle, clockwise, !path.isEmpty))
  }

  /// `other`'s elements appended.
  public func append(_ other: UIBezierPath) { path.addPath(other.cgPath) }

  /// Every point mapped by `transform`.
  public func apply(_ transform: CGAffineTransform) {
    path.elements = path.elements.map { $0.applying(transform) }
  }
}
