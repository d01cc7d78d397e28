internal import CTransitionABI

/// A view of the transition's scene, as UIKit's UIView: a proxy of a host view.
///
/// Reading a property returns the model value (what was last set), as UIKit does; writing one inside an animations
/// block (`UIView.animate`) animates it from what is on screen, and outside one changes it at once. Each host view
/// has one proxy per transition, so `===` compares views as in UIKit.
///
/// Calls the host refuses (a view of a transition that has ended, a tree change that would make a cycle, a value
/// that is not finite) change nothing, return neutral values (`.zero`, nil, false) and are logged as misbehaviour;
/// they never trap.
public class UIView: NSObject {
  /// The host's handle ({0} never: a proxy always names a view).
  let handle: UInt64
  /// The transition the view belongs to; nil once the animator instance is gone.
  weak var session: Session?
  /// The plugin made the view without an id, so its id is one the host chose ("view", "view-2"): reports say so.
  let isMadeWithoutID: Bool

  init(handle: UInt64, session: Session?) {
    self.handle = handle
    self.session = session
    self.isMadeWithoutID = false
    super.init()
  }

  /// A new plain view with a zero frame: `UIView(frame: .zero)`, as in UIKit.
  public convenience override init() {
    self.init(frame: .zero)
  }

  /// A new plain view (transparent, visible, no superview) with `frame`, for chrome such as a dimming view: UIKit's
  /// `UIView(frame:)`. The host gives it a free id; use `init(frame:id:)` to choose one.
  ///
  /// Make views inside `animateTransition` or a callback of the transition (a completion, a presentation
  /// controller's will-begin). Made elsewhere, the view is inert: every call on it is logged and ignored.
  public convenience init(frame: CGRect) {
    self.init(frame: frame, id: nil)
  }

  /// A new plain view whose id is `id` when that is free in the scene (else `id` with a numeric suffix, as
  /// "dimming-2"). Give chrome a stable id so that a later transition finds it with `view(withID:)`.
  public init(frame: CGRect, id: String?) {
    var made = th_view(id: 0)
    let session = Session.current
    if let session {
      let ok = session.call(\.make_view, "UIView(frame:)") { fn, ctx in
        if let id { id.withCString { fn(ctx, $0, &made) } } else { fn(ctx, nil, &made) }
      }
      if !ok { made = th_view(id: 0) }
    } else {
      PluginRuntime.log(TH_LOG_WARNING, "TransitionKit: UIView(frame:) outside a transition call; the view is inert")
    }
    self.handle = made.id
    self.session = made.id == 0 ? nil : session
    self.isMadeWithoutID = id?.isEmpty ?? true
    super.init()
    if made.id != 0 {
      session?.register(self)
      applyLayerClass()
      self.frame = frame
    }
  }

  /// The same host view of the same transition (a view and its window proxy, say).
  public override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? UIView else { return false }
    return other === self || (other.handle == handle && other.session === session)
  }

  public override var hash: Int { handle.hashValue }

  var th: th_view { th_view(id: handle) }

  /// The session, or nil after logging that the view is unusable.
  func live(_ what: @autoclosure () -> String) -> Session? {
    if let session, handle != 0 { return session }
    PluginRuntime.log(TH_LOG_WARNING, "TransitionKit: \(what()) on a view whose transition is gone")
    return nil
  }

  // MARK: Identity

  /// The view's id in the scene (the `id` of its node in the client's view tree, or the id the host gave a view
  /// the plugin made). UIKit has tags; here views are found by id (`view(withID:)`).
  public var identifier: String {
    guard let session = live("view.identifier") else { return "" }
    var out: UnsafePointer<CChar>?
    let ok = session.call(\.view_id, "view.identifier") { $0($1, th, &out) }
    guard ok, let out else { return "" }
    return String(cString: out)
  }

  /// `UIView(id)`: the view's id in the scene (its node's id in the client's tree, or the id the plugin gave it);
  /// for a view the plugin made without an id, `UIView(view-2, made without an id)`, since the host chose that one.
  public override var description: String {
    guard session != nil else { return "UIView(#\(handle))" }
    return "UIView(\(identifier)\(isMadeWithoutID ? ", made without an id" : ""))"
  }

  // MARK: Geometry and appearance

  /// The frame in the superview's coordinates (undefined with a non-identity transform, as in UIKit).
  public var frame: CGRect {
    get { getRect(TH_PROP_FRAME, "frame") }
    set { setRect(TH_PROP_FRAME, "frame", newValue) }
  }

  /// The bounds: the view's own coordinates.
  public var bounds: CGRect {
    get { getRect(TH_PROP_BOUNDS, "bounds") }
    set { setRect(TH_PROP_BOUNDS, "bounds", newValue) }
  }

  /// The centre of the frame, in the superview's coordinates (the layer's position when the anchor point is the
  /// default (0.5, 0.5)).
  public var center: CGPoint {
    get { getPoint(TH_PROP_CENTER, "center") }
    set { setPoint(TH_PROP_CENTER, "center", newValue) }
  }

  /// The opacity, 0…1.
  public var alpha: CGFloat {
    get { getNumber(TH_PROP_ALPHA, "alpha") }
    set { setNumber(TH_PROP_ALPHA, "alpha", newValue) }
  }

  /// How the view's content fills its bounds (UIKit's default, `.scaleToFill`). Kept by the proxy; an image view's
  /// content mode appears in frames with its image (UIImageView).
  public var contentMode: ContentMode = .scaleToFill {
    didSet { contentModeDidChange() }
  }

  /// Called when `contentMode` changes (an image view tells the host).
  func contentModeDidChange() {}

  /// Whether touches reach the view and its subviews (UIKit's default, true): the host's hit-testing of the
  /// client's gestures skips a view with it false, and its subtree. Not in frames. A host older than ABI 1.2
  /// keeps it in the proxy only.
  public var isUserInteractionEnabled: Bool {
    get {
      guard let session, handle != 0 else { return localUserInteraction }
      var out = localUserInteraction
      let ok = session.call(\.get_bool, "\(self).isUserInteractionEnabled", quiet: [TH_ERR_UNSUPPORTED]) {
        $0($1, th, TH_PROP_USER_INTERACTION_ENABLED, &out)
      }
      return ok ? out : localUserInteraction
    }
    set {
      localUserInteraction = newValue
      guard let session, handle != 0 else { return }
      session.call(\.set_bool, "\(self).isUserInteractionEnabled = \(newValue)", quiet: [TH_ERR_UNSUPPORTED]) {
        $0($1, th, TH_PROP_USER_INTERACTION_ENABLED, newValue)
      }
    }
  }
  private var localUserInteraction = true

  /// UIKit's accessibility identifier: the view's id in the scene (its node's `id` in the client's view tree, or
  /// the id the host gave a view the plugin made) unless the plugin set another one, which is kept by the proxy for
  /// the transition. Find a view of the client's tree by its id with it, as UI tests find views on iOS.
  public var accessibilityIdentifier: String? {
    get { accessibilityOverride ?? (session == nil ? nil : identifier) }
    set { accessibilityOverride = newValue }
  }
  private var accessibilityOverride: String?

  /// The gesture recognizers attached with `addGestureRecognizer(_:)`, in the order they were added (Gestures.swift).
  var attachedRecognizers: [UIGestureRecognizer] = []

  /// An integer the app uses to find the view again (`viewWithTag(_:)`); 0 by default. Kept by the view's proxy for
  /// the transition: the client's view tree has no tags, so a later transition (a dismissal) does not see them;
  /// find views across transitions by id (`viewWithID`).
  public var tag = 0

  /// Whether the view is hidden (not animatable: changes at once, also inside animations blocks).
  public var isHidden: Bool {
    get { getBool(TH_PROP_HIDDEN, "isHidden") }
    set { setBool(TH_PROP_HIDDEN, "isHidden", newValue) }
  }

  /// Whether subviews are clipped to the bounds (not animatable).
  public var clipsToBounds: Bool {
    get { getBool(TH_PROP_CLIPS_TO_BOUNDS, "clipsToBounds") }
    set { setBool(TH_PROP_CLIPS_TO_BOUNDS, "clipsToBounds", newValue) }
  }

  /// The background colour; nil = none.
  public var backgroundColor: UIColor? {
    get { getColor(TH_PROP_BACKGROUND_COLOR, "backgroundColor") }
    set { setColor(TH_PROP_BACKGROUND_COLOR, "backgroundColor", newValue) }
  }

  /// The view's affine transform, about its centre (its layer's anchor point): the 2-D part of `layer.transform`.
  /// Setting it replaces the layer's transform with the affine one.
  public var transform: CGAffineTransform {
    get { CATransform3DGetAffineTransform(layer.transform) }
    set { layer.transform = CATransform3DMakeAffineTransform(newValue) }
  }

  /// The view's layer (the same host node as the view): geometry, 3-D transforms, borders, shadows, masks and
  /// sublayers. Its class is `layerClass` (for a view the client described, the kind the host reports).
  public var layer: CALayer {
    if let ownLayer { return ownLayer }
    if let standaloneLayer { return standaloneLayer }
    let made = CALayer.layerType(forView: self).init(view: self)
    ownLayer = made
    return made
  }
  /// The view's layer, made on first use.
  private var ownLayer: CALayer?
  /// For the proxy of a layer that is not a view (Layers.swift), the CALayer object that owns it.
  weak var standaloneLayer: CALayer?
  /// What `layer.contents` was set to (the host keeps it as the node's image content).
  var layerContents: UIImage?

  /// The class of the view's layer (UIKit's `layerClass`): `CALayer` unless a view class of the SDK overrides it
  /// (`GradientView`'s is `CAGradientLayer`). The host makes the view's layer of that kind when the view is made.
  public class var layerClass: AnyClass { CALayer.self }

  // MARK: Hierarchy

  /// The superview; nil for the container and for a view not in the tree.
  public var superview: UIView? {
    guard let session = live("view.superview") else { return nil }
    var out = th_view(id: 0)
    guard session.call(\.superview, "view.superview", { $0($1, th, &out) }) else { return nil }
    return session.view(out)
  }

  /// The subviews, back to front.
  public var subviews: [UIView] {
    guard let session = live("view.subviews") else { return [] }
    var count: UInt32 = 0
    guard session.call(\.subview_count, "view.subviews", { $0($1, th, &count) }) else { return [] }
    var result: [UIView] = []
    for index in 0..<count {
      var out = th_view(id: 0)
      if session.call(\.subview_at, "view.subviews[\(index)]", { $0($1, th, index, &out) }),
        let view = session.view(out)
      {
        result.append(view)
      }
    }
    return result
  }

  /// Adds `view` on top of the subviews (moving it from its current superview).
  public func addSubview(_ view: UIView) {
    tree("addSubview", \.add_subview, [view]) { $0($1, th, view.th) }
  }

  /// Inserts `view` just below `siblingSubview`.
  public func insertSubview(_ view: UIView, belowSubview siblingSubview: UIView) {
    tree("insertSubview(_:belowSubview:)", \.insert_subview_below, [view, siblingSubview]) {
      $0($1, th, view.th, siblingSubview.th)
    }
  }

  /// Inserts `view` just above `siblingSubview`.
  public func insertSubview(_ view: UIView, aboveSubview siblingSubview: UIView) {
    tree("insertSubview(_:aboveSubview:)", \.insert_subview_above, [view, siblingSubview]) {
      $0($1, th, view.th, siblingSubview.th)
    }
  }

  /// Inserts `view` at `index` in the subviews (past the end appends).
  public func insertSubview(_ view: UIView, at index: Int) {
    let clamped = UInt32(clamping: max(index, 0))
    tree("insertSubview(_:at:)", \.insert_subview_at, [view]) { $0($1, th, view.th, clamped) }
  }

  /// Moves `view`, a subview, to the front.
  public func bringSubviewToFront(_ view: UIView) {
    tree("bringSubviewToFront", \.bring_subview_to_front, [view]) { $0($1, th, view.th) }
  }

  /// Moves `view`, a subview, to the back.
  public func sendSubviewToBack(_ view: UIView) {
    tree("sendSubviewToBack", \.send_subview_to_back, [view]) { $0($1, th, view.th) }
  }

  /// Takes the view out of the tree.
  public func removeFromSuperview() {
    tree("removeFromSuperview", \.remove_from_superview) { $0($1, th) }
  }

  /// Whether the view is `view` or inside it.
  public func isDescendant(of view: UIView) -> Bool {
    var current: UIView? = self
    while let candidate = current {
      if candidate == view { return true }
      current = candidate.superview
    }
    return false
  }

  /// The view whose `tag` is `tag` in this view's subtree, itself first, then depth first, back to front; nil when
  /// there is none.
  public func viewWithTag(_ tag: Int) -> UIView? {
    if self.tag == tag { return self }
    for subview in subviews {
      if let found = subview.viewWithTag(tag) { return found }
    }
    return nil
  }

  /// The view with id `id` in this view's subtree (itself included), or nil: the counterpart of UIKit's
  /// `viewWithTag(_:)`.
  public func viewWithID(_ id: String) -> UIView? {
    guard let session = live("viewWithID"), let found = session.find(id) else { return nil }
    return found.isDescendant(of: self) ? found : nil
  }

  /// The shared-element key the client gave the view (its node's `match`, as Hero's heroID), or nil (views the
  /// animator made, snapshots).
  public var matchKey: String? {
    guard let session = live("view.matchKey") else { return nil }
    var out: UnsafePointer<CChar>?
    let ok = session.call(\.view_match_key, "\(self).matchKey", quiet: [TH_ERR_NOT_FOUND]) { $0($1, th, &out) }
    guard ok, let out else { return nil }
    return String(cString: out)
  }

  /// The view in this view's subtree (itself included, depth first, back to front) whose `matchKey` is `key`, or
  /// nil: how a shared-element animator finds a view's counterpart in the other screen.
  public func viewWithMatchKey(_ key: String) -> UIView? {
    guard let session = live("viewWithMatchKey") else { return nil }
    var out = th_view(id: 0)
    let ok = session.call(\.find_view_by_match, "\(self).viewWithMatchKey(\(key))", quiet: [TH_ERR_NOT_FOUND]) {
      fn, ctx in key.withCString { fn(ctx, th, $0, &out) }
    }
    return ok ? session.view(out) : nil
  }

  /// A new view that shows what this one shows now (`snapshotView(afterScreenUpdates:)`); not in the tree yet.
  /// Frames report it with `snapshotOf`. The flag is accepted for source compatibility: the host has no pending
  /// screen updates.
  public func snapshotView(afterScreenUpdates afterUpdates: Bool) -> UIView? {
    guard let session = live("snapshotView") else { return nil }
    var out = th_view(id: 0)
    guard session.call(\.snapshot_view, "\(self).snapshotView", { $0($1, th, &out) }) else { return nil }
    return session.view(out)
  }

  /// Layout is the client's business; kept so that ported code (`layoutIfNeeded()` before reading a frame) compiles.
  public func layoutIfNeeded() {}
  /// See `layoutIfNeeded()`.
  public func setNeedsLayout() {}

  // MARK: Coordinate conversion

  /// `rect`, in this view's bounds coordinates, expressed in `view`'s (nil = the container, UIKit's window).
  /// Through 3-D transforms the result is the bounding box of the projected corners; `.zero` when there is no
  /// answer (views in unconnected trees).
  public func convert(_ rect: CGRect, to view: UIView?) -> CGRect {
    convertRect(rect, from: th, to: view?.th ?? th_view(id: 0))
  }

  /// `rect`, in `view`'s bounds coordinates (nil = the container), expressed in this view's.
  public func convert(_ rect: CGRect, from view: UIView?) -> CGRect {
    convertRect(rect, from: view?.th ?? th_view(id: 0), to: th)
  }

  /// `point`, in this view's bounds coordinates, expressed in `view`'s (nil = the container).
  public func convert(_ point: CGPoint, to view: UIView?) -> CGPoint {
    convertPoint(point, from: th, to: view?.th ?? th_view(id: 0))
  }

  /// `point`, in `view`'s bounds coordinates (nil = the container), expressed in this view's.
  public func convert(_ point: CGPoint, from view: UIView?) -> CGPoint {
    convertPoint(point, from: view?.th ?? th_view(id: 0), to: th)
  }

  private func convertRect(_ rect: CGRect, from: th_view, to: th_view) -> CGRect {
    guard let session = live("convert") else { return .zero }
    var out = th_rect()
    let ok = session.call(\.convert_rect, "\(self).convert(\(rect))", quiet: [TH_ERR_NOT_FOUND]) {
      $0($1, rect.th, from, to, &out)
    }
    return ok ? CGRect(out) : .zero
  }

  private func convertPoint(_ point: CGPoint, from: th_view, to: th_view) -> CGPoint {
    guard let session = live("convert") else { return .zero }
    var out = th_point()
    let ok = session.call(\.convert_point, "\(self).convert(\(point))", quiet: [TH_ERR_NOT_FOUND]) {
      $0($1, point.th, from, to, &out)
    }
    return ok ? CGPoint(out) : .zero
  }

  // MARK: Property access through the host

  private func tree<F>(
    _ name: String, _ member: KeyPath<th_host_api, F?>, _ others: [UIView] = [], _ body: (F, th_context) -> th_status
  ) {
    guard let session = live(name) else { return }
    for other in others where other.session !== session || other.handle == 0 {
      session.log(TH_LOG_WARNING, "TransitionKit: \(name): \(other) belongs to another transition")
      return
    }
    session.call(member, "\(self).\(name)", body)
  }

  func getNumber(_ property: th_property, _ name: String) -> CGFloat {
    guard let session = live(name) else { return 0 }
    var out = 0.0
    return session.call(\.get_number, "\(self).\(name)", { $0($1, th, property, &out) }) ? out : 0
  }

  func setNumber(_ property: th_property, _ name: String, _ value: CGFloat) {
    guard let session = live(name) else { return }
    session.call(\.set_number, "\(self).\(name) = \(value)") { $0($1, th, property, value) }
  }

  func getBool(_ property: th_property, _ name: String) -> Bool {
    guard let session = live(name) else { return false }
    var out = false
    return session.call(\.get_bool, "\(self).\(name)", { $0($1, th, property, &out) }) ? out : false
  }

  func setBool(_ property: th_property, _ name: String, _ value: Bool) {
    guard let session = live(name) else { return }
    session.call(\.set_bool, "\(self).\(name) = \(value)") { $0($1, th, property, value) }
  }

  func getPoint(_ property: th_property, _ name: String) -> CGPoint {
    guard let session = live(name) else { return .zero }
    var out = th_point()
    return session.call(\.get_point, "\(self).\(name)", { $0($1, th, property, &out) }) ? CGPoint(out) : .zero
  }

  func setPoint(_ property: th_property, _ name: String, _ value: CGPoint) {
    guard let session = live(name) else { return }
    session.call(\.set_point, "\(self).\(name) = \(value)") { $0($1, th, property, value.th) }
  }

  func getRect(_ property: th_property, _ name: String) -> CGRect {
    guard let session = live(name) else { return .zero }
    var out = th_rect()
    return session.call(\.get_rect, "\(self).\(name)", { $0($1, th, property, &out) }) ? CGRect(out) : .zero
  }

  func setRect(_ property: th_property, _ name: String, _ value: CGRect) {
    guard let session = live(name) else { return }
    session.call(\.set_rect, "\(self).\(name) = \(value)") { $0($1, th, property, value.th) }
  }

  func getTransform(_ property: th_property, _ name: String) -> CATransform3D {
    guard let session = live(name) else { return CATransform3DIdentity }
    var out = th_transform3d()
    let ok = session.call(\.get_transform, "\(self).\(name)") { $0($1, th, property, &out) }
    return ok ? CATransform3D(out) : CATransform3DIdentity
  }

  func setTransform(_ property: th_property, _ name: String, _ value: CATransform3D) {
    guard let session = live(name) else { return }
    var t = value.th
    session.call(\.set_transform, "\(self).\(name)") { $0($1, th, property, &t) }
  }

  func getColor(_ property: th_property, _ name: String) -> UIColor? {
    guard let session = live(name) else { return nil }
    var out = th_color()
    var isSet = false
    let ok = session.call(\.get_color, "\(self).\(name)") { $0($1, th, property, &out, &isSet) }
    return ok && isSet ? UIColor(out) : nil
  }

  func setColor(_ property: th_property, _ name: String, _ value: UIColor?) {
    guard let session = live(name) else { return }
    if var color = value?.th {
      session.call(\.set_color, "\(self).\(name) = \(value!)") { $0($1, th, property, &color) }
    } else {
      session.call(\.set_color, "\(self).\(name) = nil") { $0($1, th, property, nil) }
    }
  }
}

extension Session {
  /// The view with id `id` anywhere in the scene, or nil.
  func find(_ id: String) -> UIView? {
    var out = th_view(id: 0)
    let ok = call(\.find_view, "view(withID: \(id))", quiet: [TH_ERR_NOT_FOUND]) { fn, ctx in
      id.withCString { fn(ctx, $0, &out) }
    }
    return ok ? view(out) : nil
  }
}

/// A layer, as CALayer: a view's layer (the same host node as the view) or a layer that is not a view (`CALayer()`,
/// `CAShapeLayer()`, `CAGradientLayer()`: Layers.swift), with Core Animation's properties. `presentation()` gives
/// what it shows on screen now (Presentation.swift).
public class CALayer {
  /// The proxy of the layer's host node: the view itself for a view's layer, a proxy of its own for a layer that is
  /// not a view (kept alive by `ownedNode`).
  unowned let view: UIView
  /// The node proxy of a layer that is not a view (nil for a view's layer, which its view owns).
  let ownedNode: UIView?

  /// The layer of `view` (a view's layer, or the proxy of a layer that is not a view when `owning`).
  required init(view: UIView) {
    self.view = view
    self.ownedNode = nil
  }

  /// The kind of host layer this class makes (CAShapeLayer and CAGradientLayer override it).
  class var hostKind: th_layer_kind { TH_LAYER_PLAIN }

  /// A layer that owns the proxy of its node (a layer that is not a view).
  required init(owning node: UIView) {
    self.view = node
    self.ownedNode = node
    node.standaloneLayer = self
  }

  /// The host handle of the layer's node: a view's layer and its view share it. The one way SDK code outside this
  /// file reaches the node (explicit animations, layer timing).
  var nodeHandle: th_view { view.th }

  /// The anchor point in unit coordinates of the bounds; (0.5, 0.5) by default. Transforms apply about it, and
  /// changing it without changing `position` moves the frame.
  public var anchorPoint: CGPoint {
    get { view.getPoint(TH_PROP_ANCHOR_POINT, "layer.anchorPoint") }
    set { view.setPoint(TH_PROP_ANCHOR_POINT, "layer.anchorPoint", newValue) }
  }

  /// Where the anchor point sits, in the superlayer's coordinates.
  public var position: CGPoint {
    get { view.getPoint(TH_PROP_POSITION, "layer.position") }
    set { view.setPoint(TH_PROP_POSITION, "layer.position", newValue) }
  }

  /// The layer's 3-D transform, about the anchor point.
  public var transform: CATransform3D {
    get { view.getTransform(TH_PROP_TRANSFORM, "layer.transform") }
    set { view.setTransform(TH_PROP_TRANSFORM, "layer.transform", newValue) }
  }

  /// The transform applied to the sublayers (a container's perspective: `m34 = -1 / distance`).
  public var sublayerTransform: CATransform3D {
    get { view.getTransform(TH_PROP_SUBLAYER_TRANSFORM, "layer.sublayerTransform") }
    set { view.setTransform(TH_PROP_SUBLAYER_TRANSFORM, "layer.sublayerTransform", newValue) }
  }

  /// The stacking order among siblings (higher draws in front).
  public var zPosition: CGFloat {
    get { view.getNumber(TH_PROP_Z_POSITION, "layer.zPosition") }
    set { view.setNumber(TH_PROP_Z_POSITION, "layer.zPosition", newValue) }
  }

  /// The corner radius.
  public var cornerRadius: CGFloat {
    get { view.getNumber(TH_PROP_CORNER_RADIUS, "layer.cornerRadius") }
    set { view.setNumber(TH_PROP_CORNER_RADIUS, "layer.cornerRadius", newValue) }
  }

  /// The view's bounds.
  public var bounds: CGRect {
    get { view.bounds }
    set { view.bounds = newValue }
  }

  /// The view's frame.
  public var frame: CGRect {
    get { view.frame }
    set { view.frame = newValue }
  }

  /// The view's alpha (CALayer's `opacity` is a Float).
  public var opacity: Float {
    get { Float(view.alpha) }
    set { view.alpha = CGFloat(newValue) }
  }

  /// The view's `isHidden`.
  public var isHidden: Bool {
    get { view.isHidden }
    set { view.isHidden = newValue }
  }

  /// The view's `clipsToBounds`.
  public var masksToBounds: Bool {
    get { view.clipsToBounds }
    set { view.clipsToBounds = newValue }
  }

  /// The view's background colour.
  public var backgroundColor: CGColor? {
    get { view.backgroundColor }
    set { view.backgroundColor = newValue }
  }

  /// The gradient the layer draws when it is a gradient layer (CAGradientLayer); nil otherwise. Animatable.
  public var gradient: Gradient? {
    get { view.getGradient() }
    set { view.setGradient(newValue) }
  }
}

/// What a CAGradientLayer draws: colours at locations along the line from `startPoint` to `endPoint`, in unit
/// coordinates of the bounds ((0, 0.5) → (1, 0.5) is horizontal).
public struct Gradient: Hashable, Sendable {
  /// At least one colour.
  public var colors: [UIColor]
  /// nil = evenly spaced; else one increasing value in [0, 1] per colour.
  public var locations: [CGFloat]?
  public var startPoint: CGPoint
  public var endPoint: CGPoint

  /// A gradient; by default vertical, top to bottom, as CAGradientLayer's.
  public init(
    colors: [UIColor], locations: [CGFloat]? = nil, startPoint: CGPoint = CGPoint(x: 0.5, y: 0),
    endPoint: CGPoint = CGPoint(x: 0.5, y: 1)
  ) {
    self.colors = colors
    self.locations = locations
    self.startPoint = startPoint
    self.endPoint = endPoint
  }
}

extension UIView {
  func getGradient() -> Gradient? {
    guard let session = live("layer.gradient") else { return nil }
    var out = th_gradient()
    out.struct_size = UInt32(MemoryLayout<th_gradient>.size)
    var isSet = false
    let ok = session.call(\.get_gradient, "\(self).layer.gradient") { $0($1, th, TH_PROP_GRADIENT, &out, &isSet) }
    guard ok, isSet, let colors = out.colors else { return nil }
    let count = Int(out.count)
    return Gradient(
      colors: (0..<count).map { UIColor(colors[$0]) },
      locations: out.locations.map { locations in (0..<count).map { locations[$0] } },
      startPoint: CGPoint(out.start_point), endPoint: CGPoint(out.end_point))
  }

  func setGradient(_ gradient: Gradient?) {
    guard let session = live("layer.gradient") else { return }
    guard let gradient else {
      session.call(\.set_gradient, "\(self).layer.gradient = nil") { $0($1, th, TH_PROP_GRADIENT, nil) }
      return
    }
    // The host reads `count` locations, one per colour: a shorter array would be read past its end.
    if let locations = gradient.locations, locations.count != gradient.colors.count {
      session.log(
        TH_LOG_WARNING,
        "TransitionKit: \(self).layer.gradient failed: \(locations.count) locations for \(gradient.colors.count) "
          + "colours (one per colour, or nil); nothing changed")
      return
    }
    let colors = gradient.colors.map(\.th)
    colors.withUnsafeBufferPointer { colorBuffer in
      func send(_ locations: UnsafePointer<Double>?) {
        var value = th_gradient(
          struct_size: UInt32(MemoryLayout<th_gradient>.size), count: UInt32(colors.count),
          colors: colorBuffer.baseAddress, locations: locations, start_point: gradient.startPoint.th,
          end_point: gradient.endPoint.th)
        session.call(\.set_gradient, "\(self).layer.gradient") { $0($1, th, TH_PROP_GRADIENT, &value) }
      }
      if let locations = gradient.locations {
        locations.withUnsafeBufferPointer { send($0.baseAddress) }
      } else {
        send(nil)
      }
    }
  }
}

/// A view whose layer is a gradient (a CAGradientLayer-backed view: its `layerClass` is `CAGradientLayer`), e.g. a
/// shadow over a turning page. `(view.layer as? CAGradientLayer)` gives CAGradientLayer's members.
public final class GradientView: UIView {
  public override class var layerClass: AnyClass { CAGradientLayer.self }

  /// A new gradient view with `frame` (see `UIView(frame:id:)` for `id`).
  public init(frame: CGRect, id: String? = nil, gradient: Gradient) {
    super.init(frame: frame, id: id)
    layer.gradient = gradient
  }

  /// The colours (CAGradientLayer's `colors`). Setting them keeps the other gradient values.
  public var colors: [UIColor] {
    get { layer.gradient?.colors ?? [] }
    set { update { $0.colors = newValue } }
  }

  /// The locations (nil = evenly spaced).
  public var locations: [CGFloat]? {
    get { layer.gradient?.locations }
    set { update { $0.locations = newValue } }
  }

  /// The start point in unit coordinates.
  public var startPoint: CGPoint {
    get { layer.gradient?.startPoint ?? CGPoint(x: 0.5, y: 0) }
    set { update { $0.startPoint = newValue } }
  }

  /// The end point in unit coordinates.
  public var endPoint: CGPoint {
    get { layer.gradient?.endPoint ?? CGPoint(x: 0.5, y: 1) }
    set { update { $0.endPoint = newValue } }
  }

  private func update(_ change: (inout Gradient) -> Void) {
    var gradient = layer.gradient ?? Gradient(colors: [.clear])
    change(&gradient)
    layer.gradient = gradient
  }
}
