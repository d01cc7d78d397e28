import CTransitionABI
import TransitionEngine

// The context queries, parameters and the view tree of the host API.

extension PluginAnimator {
  /// A `th_view_key` as the engine's key.
  func key(_ key: th_view_key) throws(HostFailure) -> TransitionContext.Key {
    switch key {
    case TH_KEY_FROM: return .from
    case TH_KEY_TO: return .to
    default: throw .unsupported("key", "unknown th_view_key \(key.rawValue)")
    }
  }

  // MARK: Context queries

  func containerView(_ out: UnsafeMutablePointer<th_view>?) throws(HostFailure) -> th_status {
    try require(.read)
    let out = try required(out, "out_view")
    out.pointee = viewHandle(try engineContext().containerView)
    return TH_OK
  }

  func viewForKey(_ key: th_view_key, _ out: UnsafeMutablePointer<th_view>?) throws(HostFailure) -> th_status {
    try require(.read)
    let key = try self.key(key)
    let out = try required(out, "out_view")
    out.pointee = try engineContext().view(forKey: key).map(viewHandle) ?? th_view(id: 0)
    return TH_OK
  }

  func viewControllerForKey(_ key: th_view_key, _ out: UnsafeMutablePointer<th_view>?) throws(HostFailure)
    -> th_status
  {
    try require(.read)
    let key = try self.key(key)
    let out = try required(out, "out_view")
    out.pointee = viewHandle(try engineContext().viewController(forKey: key))
    return TH_OK
  }

  func frame(initial: Bool, _ key: th_view_key, _ out: UnsafeMutablePointer<th_rect>?) throws(HostFailure)
    -> th_status
  {
    try require(.read)
    let key = try self.key(key)
    let out = try required(out, "out_frame")
    let context = try engineContext()
    out.pointee = (initial ? context.initialFrame(forKey: key) : context.finalFrame(forKey: key)).abi
    return TH_OK
  }

  func operation(_ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) throws(HostFailure) -> th_status {
    try require(.read)
    let out = try required(out, "out_operation")
    out.pointee = cString(try engineContext().operation.name)
    return TH_OK
  }

  func flag(_ out: UnsafeMutablePointer<Bool>?, _ read: (TransitionContext) -> Bool) throws(HostFailure) -> th_status {
    try require(.read)
    let out = try required(out, "out_value")
    out.pointee = read(try engineContext())
    return TH_OK
  }

  func completeTransition(_ didComplete: Bool) throws(HostFailure) -> th_status {
    try require(.complete)
    let context = try engineContext()
    markCompleted()
    context.completeTransition(didComplete)
    return TH_OK
  }

  // MARK: Parameters

  /// The value of a declared parameter.
  func param(_ name: UnsafePointer<CChar>?, _ type: ParameterType) throws(HostFailure) -> ParameterValue {
    try require(.read)
    let name = try decodeString(name, "name")
    _ = try engineContext()
    guard let declared = info.params.first(where: { $0.name == name }) else {
      throw .notFound("no parameter named \(name) is declared")
    }
    let declaredType = declared.kind.engineType
    let compatible = declaredType == type || (type == .string && declaredType == .enum)
    guard compatible else {
      throw .typeMismatch(
        "name", "parameter \(name) is declared as \(declared.kind.rawValue), read as \(type.rawValue)")
    }
    guard let value = parameterValues[name] else { throw .notFound("parameter \(name) has no value") }
    return value
  }

  func paramNumber(_ name: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<Double>?) throws(HostFailure)
    -> th_status
  {
    let value = try param(name, .number)
    try required(out, "out_value").pointee = value.numberValue ?? 0
    return TH_OK
  }

  func paramBool(_ name: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<Bool>?) throws(HostFailure) -> th_status {
    let value = try param(name, .bool)
    try required(out, "out_value").pointee = value.boolValue ?? false
    return TH_OK
  }

  func paramString(_ name: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?)
    throws(HostFailure) -> th_status
  {
    let value = try param(name, .string)
    let out = try required(out, "out_value")
    out.pointee = cString(value.stringValue ?? "")
    return TH_OK
  }

  func paramColor(_ name: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<th_color>?) throws(HostFailure)
    -> th_status
  {
    let value = try param(name, .color)
    try required(out, "out_value").pointee = (value.colorValue ?? .clear).abi
    return TH_OK
  }

  func paramPoint(_ name: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<th_point>?) throws(HostFailure)
    -> th_status
  {
    let value = try param(name, .point)
    try required(out, "out_value").pointee = (value.pointValue ?? .zero).abi
    return TH_OK
  }

  func paramRect(_ name: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<th_rect>?) throws(HostFailure)
    -> th_status
  {
    let value = try param(name, .rect)
    try required(out, "out_value").pointee = (value.rectValue ?? .zero).abi
    return TH_OK
  }

  // MARK: The view tree: queries

  func findView(_ id: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<th_view>?) throws(HostFailure) -> th_status {
    try require(.read)
    let id = try decodeString(id, "id")
    let out = try required(out, "out_view")
    guard let view = try engineContext().scene.view(withID: id) else { throw .notFound("no view with id \(id)") }
    out.pointee = viewHandle(view)
    return TH_OK
  }

  func viewID(_ view: th_view, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) throws(HostFailure) -> th_status {
    try require(.read)
    let view = try self.view(view, "view")
    let out = try required(out, "out_id")
    out.pointee = cString(view.id)
    return TH_OK
  }

  func viewMatchKey(_ view: th_view, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) throws(HostFailure)
    -> th_status
  {
    try require(.read)
    let view = try self.view(view, "view")
    let out = try required(out, "out_key")
    guard let key = view.matchKey else { throw .notFound("view \(view.id) has no match key") }
    out.pointee = cString(key)
    return TH_OK
  }

  func findViewByMatch(_ root: th_view, _ key: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<th_view>?)
    throws(HostFailure) -> th_status
  {
    try require(.read)
    let root = try self.view(root, "root")
    let key = try decodeString(key, "key")
    let out = try required(out, "out_view")
    guard let found = Self.firstView(in: root, matching: key) else {
      throw .notFound("no view with match key \(key) under \(root.id)")
    }
    out.pointee = viewHandle(found)
    return TH_OK
  }

  /// Depth first, back to front, the root first: the same order as drawing, so the result is stable.
  private static func firstView(in root: View, matching key: String) -> View? {
    if root.matchKey == key { return root }
    for child in root.subviews {
      if let found = firstView(in: child, matching: key) { return found }
    }
    return nil
  }

  func superview(_ view: th_view, _ out: UnsafeMutablePointer<th_view>?) throws(HostFailure) -> th_status {
    try require(.read)
    let view = try self.view(view, "view")
    let out = try required(out, "out_superview")
    out.pointee = view.superview.map(viewHandle) ?? th_view(id: 0)
    return TH_OK
  }

  func subviewCount(_ view: th_view, _ out: UnsafeMutablePointer<UInt32>?) throws(HostFailure) -> th_status {
    try require(.read)
    let view = try self.view(view, "view")
    let out = try required(out, "out_count")
    out.pointee = UInt32(clamping: view.subviews.count)
    return TH_OK
  }

  func subview(_ view: th_view, at index: UInt32, _ out: UnsafeMutablePointer<th_view>?) throws(HostFailure)
    -> th_status
  {
    try require(.read)
    let view = try self.view(view, "view")
    let out = try required(out, "out_subview")
    guard Int(index) < view.subviews.count else {
      throw .invalidValue("index", "index \(index) is past the last of \(view.subviews.count) subviews")
    }
    out.pointee = viewHandle(view.subviews[Int(index)])
    return TH_OK
  }

  // MARK: The view tree: new views

  func makeView(_ hint: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<th_view>?) throws(HostFailure) -> th_status {
    try require(.tree)
    let text = hint == nil ? "" : try decodeString(hint, "id_hint")
    let out = try required(out, "out_view")
    let scene = try engineContext().scene
    try countMadeView("make_view")
    out.pointee = viewHandle(scene.makeView(hint: text))
    return TH_OK
  }

  func snapshotView(_ view: th_view, _ out: UnsafeMutablePointer<th_view>?) throws(HostFailure) -> th_status {
    try require(.tree)
    let view = try self.view(view, "view")
    let out = try required(out, "out_snapshot")
    try countMadeView("snapshot_view")
    out.pointee = viewHandle(view.snapshotView(afterScreenUpdates: true))
    return TH_OK
  }

  /// Counts one more view made in this transition (TH_ERR_LIMIT past the limit; a refused call is not counted).
  func countMadeView(_ function: String) throws(HostFailure) {
    guard madeViews < Self.maximumMadeViews else {
      throw .limit(function, "more than \(Self.maximumMadeViews) views made in one transition")
    }
    madeViews += 1
  }

  // MARK: The view tree: changes

  /// The checks every insertion shares: not the container, no cycle.
  func checkAdoption(_ parent: View, _ child: View) throws(HostFailure) {
    let container = try engineContext().containerView
    guard child !== container else { throw .invalidTree("child", "the container cannot be moved") }
    guard !parent.isDescendant(of: child) else {
      throw .invalidTree("child", "adding \(child.id) to \(parent.id) would make a cycle")
    }
    var levelsToParent = 1
    var ancestor = parent.superview
    while let next = ancestor {
      levelsToParent += 1
      ancestor = next.superview
    }
    let levels = levelsToParent + Self.levels(in: child)
    guard levels <= Self.maximumTreeLevels else {
      throw .limit("child", "the tree would have \(levels) levels; at most \(Self.maximumTreeLevels)")
    }
  }

  /// The levels of `view`'s subtree (1 for a view without sublayers; layers that are not views count as views do).
  /// Bounded: every tree change keeps every tree within `maximumTreeLevels`.
  private static func levels(in view: View) -> Int {
    var deepest = 0
    for sublayer in view.sublayers { deepest = max(deepest, levels(in: sublayer)) }
    return deepest + 1
  }

  /// The view tree changes, one entry point per UIView call.
  enum TreeChange {
    case add
    case below(th_view)
    case above(th_view)
    case at(UInt32)
    case toFront
    case toBack
  }

  func change(_ change: TreeChange, parent: th_view, child: th_view) throws(HostFailure) -> th_status {
    try require(.tree)
    let parent = try view(parent, "parent")
    let child = try view(child, "child")
    switch change {
    case .add:
      try checkAdoption(parent, child)
      parent.addSubview(child)
    case .below(let sibling), .above(let sibling):
      let sibling = try view(sibling, "sibling")
      try checkAdoption(parent, child)
      guard sibling.superview === parent else {
        throw .invalidTree("sibling", "\(sibling.id) is not a subview of \(parent.id)")
      }
      if case .below = change {
        parent.insertSubview(child, belowSubview: sibling)
      } else {
        parent.insertSubview(child, aboveSubview: sibling)
      }
    case .at(let index):
      try checkAdoption(parent, child)
      parent.insertSubview(child, at: Int(index))
    case .toFront, .toBack:
      guard child.superview === parent else {
        throw .invalidTree("child", "\(child.id) is not a subview of \(parent.id)")
      }
      if case .toFront = change { parent.bringSubviewToFront(child) } else { parent.sendSubviewToBack(child) }
    }
    return TH_OK
  }

  func removeFromSuperview(_ view: th_view) throws(HostFailure) -> th_status {
    try require(.tree)
    let view = try self.view(view, "view")
    guard view !== (try engineContext().containerView) else {
      throw .invalidTree("view", "the container cannot be removed")
    }
    view.removeFromSuperview()
    return TH_OK
  }

  // MARK: Conversion

  func convert(_ rect: th_rect, from: th_view, to: th_view, _ out: UnsafeMutablePointer<th_rect>?) throws(HostFailure)
    -> th_status
  {
    try require(.read)
    let source = try viewOrContainer(from, "from")
    let target = try viewOrContainer(to, "to")
    let out = try required(out, "out_rect")
    let value = Rect(rect)
    guard value.isFinite else { throw .invalidValue("rect", "rect \(rect) is not finite") }
    guard let converted = source.convert(value, to: target) else {
      throw .notFound("no answer: unconnected trees, or a corner behind the eye")
    }
    out.pointee = converted.abi
    return TH_OK
  }

  func convert(_ point: th_point, from: th_view, to: th_view, _ out: UnsafeMutablePointer<th_point>?)
    throws(HostFailure) -> th_status
  {
    try require(.read)
    let source = try viewOrContainer(from, "from")
    let target = try viewOrContainer(to, "to")
    let out = try required(out, "out_point")
    let value = Point(point)
    guard value.isFinite else { throw .invalidValue("point", "point \(point) is not finite") }
    guard let converted = source.convert(value, to: target) else {
      throw .notFound("no answer: unconnected trees, or the point is behind the eye")
    }
    out.pointee = converted.abi
    return TH_OK
  }
}
