internal import CTransitionABI
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// UIViewControllerAnimatedTransitioning: an animator of custom view-controller transitions.
public protocol UIViewControllerAnimatedTransitioning: AnyObject {
  /// The length of the transition in seconds. The context is nil when the host asks before a transition exists
  /// (as UIKit may); answer with the same value `animateTransition` uses.
  func transitionDuration(using transitionContext: (any UIViewControllerContextTransitioning)?) -> TimeInterval
  /// Sets up the views and starts the animations; must eventually lead to one `completeTransition` call.
  func animateTransition(using transitionContext: any UIViewControllerContextTransitioning)
  /// Called after `completeTransition`, once the hierarchy has settled. Optional.
  func animationEnded(_ transitionCompleted: Bool)
  /// The interruptible animator that performs the transition: a `UIViewPropertyAnimator`, the same object every
  /// time it is asked. Optional (the default has none). The host asks for it at the start of an interactive
  /// transition *instead of* calling `animateTransition` (then pauses it and scrubs, continues or reverses it as
  /// the interaction goes), and right after `animateTransition` otherwise.
  func interruptibleAnimator(using transitionContext: any UIViewControllerContextTransitioning)
    -> any UIViewImplicitlyAnimating
}

extension UIViewControllerAnimatedTransitioning {
  public func animationEnded(_ transitionCompleted: Bool) {}
  public func interruptibleAnimator(using transitionContext: any UIViewControllerContextTransitioning)
    -> any UIViewImplicitlyAnimating
  {
    NoInterruptibleAnimator.shared
  }
}

/// An animator a plugin offers: a `UIViewControllerAnimatedTransitioning` plus what the host lists about it.
///
/// The host makes one instance (`init()`) per transition and lets it go when the transition is over.
public protocol TransitionAnimator: UIViewControllerAnimatedTransitioning {
  /// A new instance for one transition.
  init()
  /// Unique within the plugin: letters, digits, `.`, `_`, `-` (at most 64 bytes, no `/`), e.g. "pull-down".
  static var id: StaticString { get }
  /// Human name ("Pull down").
  static var name: StaticString { get }
  /// One or two sentences. Default nil.
  static var summary: StaticString? { get }
  /// The operations it supports; nil (the default) means every operation. The host refuses others.
  static var operations: [TransitionOperation]? { get }
  /// Its parameters, with metadata for an editor's settings panel. Default none.
  static var parameters: [AnyTransitionParameter] { get }
  /// The presentation controller of this instance's transition (UIKit's
  /// `presentationController(forPresented:presenting:source:)`), or nil (the default: UIKit's defaults apply).
  /// Called once, when the instance is made, before any transition call.
  func makePresentationController() -> UIPresentationController?
}

extension TransitionAnimator {
  public static var summary: StaticString? { nil }
  public static var operations: [TransitionOperation]? { nil }
  public static var parameters: [AnyTransitionParameter] { [] }
  public func makePresentationController() -> UIPresentationController? { nil }
}

/// A plugin: its identity and its animators. Export it with one line (the host looks up this exact symbol):
///
/// ```swift
/// @_cdecl("th_plugin_entry") public func entry(_ host: UnsafeRawPointer?) -> UnsafeRawPointer? { MyPlugin.entry(host) }
/// ```
public protocol TransitionPlugin {
  /// Reverse-DNS id: two or more dot-separated labels of letters, digits, `_` and `-` ("com.example.fade").
  static var id: StaticString { get }
  /// Human name.
  static var name: StaticString { get }
  /// The plugin's own version. Default "1.0.0".
  static var version: StaticString { get }
  /// Default nil.
  static var vendor: StaticString? { get }
  /// Default nil.
  static var summary: StaticString? { get }
  /// The TransitionKit-native animators. Default none (list `exports` instead).
  static var animators: [any TransitionAnimator.Type] { get }
  /// Every animator the plugin offers, at least one, ids unique: native ones (`.native(A.self)`) and UIKit code
  /// declared as it is (`.animator`, `.transitioningDelegate`, `.navigationControllerDelegate`). Default: the
  /// `animators`, as native exports.
  static var exports: [TransitionPluginExport] { get }
  /// One-time set-up when the first load of the library is accepted; return false to refuse loading. The SDK
  /// counts the host's init/deinit pairs, so this runs once however often the host calls init. Default: true.
  static func initialize() -> Bool
  /// The matching tear-down, after the last transition of the library. Default: nothing.
  static func deinitialize()
}

extension TransitionPlugin {
  public static var animators: [any TransitionAnimator.Type] { [] }
  public static var exports: [TransitionPluginExport] { animators.map(TransitionPluginExport.native) }
  public static var version: StaticString { "1.0.0" }
  public static var vendor: StaticString? { nil }
  public static var summary: StaticString? { nil }
  public static func initialize() -> Bool { true }
  public static func deinitialize() {}

  /// The body of the exported `th_plugin_entry`: remembers the host's table (for logging) and returns the plugin
  /// descriptor, built once and kept for the life of the library.
  public static func entry(_ host: UnsafeRawPointer?) -> UnsafeRawPointer? {
    PluginRuntime.entry(host, plugin: self)
  }
}

// MARK: - The runtime behind the descriptor

/// The library-wide state of a Swift plugin: its descriptor and the host table, set up by the first
/// `th_plugin_entry` call. (A hot-reloaded library is a new copy with its own globals.)
enum PluginRuntime {
  struct State: @unchecked Sendable {
    // @unchecked: pointers into immortal memory (the descriptor is never freed; the host table is the host's,
    // valid until deinit), guarded by the mutex below.
    var descriptor: UnsafeMutablePointer<th_plugin_descriptor>?
    var exports: [UnsafeRawPointer: TransitionPluginExport] = [:]
    var plugin: (any TransitionPlugin.Type)?
    var initCount = 0
    var host: Host?
    var pluginContext = th_context(id: 0)
  }

  static let state = Mutex(State())

  static func entry(_ rawHost: UnsafeRawPointer?, plugin: any TransitionPlugin.Type) -> UnsafeRawPointer? {
    let info = rawHost?.assumingMemoryBound(to: th_host_info.self)
    let (host, context) = info.map(hostTable) ?? (nil, th_context(id: 0))
    let descriptor = state.withLock { state -> Unchecked<UnsafeMutablePointer<th_plugin_descriptor>> in
      if let host {
        state.host = host
        state.pluginContext = context
      }
      if let descriptor = state.descriptor { return Unchecked(descriptor) }
      let (descriptor, exports) = DescriptorBuilder.build(plugin)
      state.descriptor = descriptor
      state.exports = exports
      state.plugin = plugin
      return Unchecked(descriptor)
    }
    return UnsafeRawPointer(descriptor.value)
  }

  /// The host table and plugin context in a `th_host_info`, when its `struct_size` covers them.
  static func hostTable(_ info: UnsafePointer<th_host_info>) -> (Host?, th_context) {
    let apiEnd = MemoryLayout<th_host_info>.offset(of: \.api)! + MemoryLayout<UnsafeRawPointer?>.size
    let contextEnd = MemoryLayout<th_host_info>.offset(of: \.plugin_context)! + MemoryLayout<th_context>.size
    let size = Int(info.pointee.struct_size)
    let host = size >= apiEnd ? info.pointee.api.map(Host.init) : nil
    return (host, size >= contextEnd ? info.pointee.plugin_context : th_context(id: 0))
  }

  /// Logs with the plugin's context (outside a transition).
  static func log(_ level: th_log_level, _ message: String) {
    let found = state.withLock { Unchecked(($0.host, $0.pluginContext)) }
    found.value.0?.log(found.value.1, level, message)
  }

  static func export(_ descriptor: UnsafePointer<th_animator_descriptor>?) -> TransitionPluginExport? {
    guard let descriptor else { return nil }
    return state.withLock { Unchecked($0.exports[UnsafeRawPointer(descriptor)]) }.value
  }
}

/// A value handed out of the runtime's mutex: pointers and metatypes used only on the host's thread.
struct Unchecked<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}

extension Session {
  /// The session behind an instance pointer the host passes back.
  static func from(_ instance: UnsafeMutableRawPointer?) -> Session? {
    guard let instance else { return nil }
    return Unmanaged<Session>.fromOpaque(instance).takeUnretainedValue()
  }
}

/// Lays the plugin's description out in C memory that is never freed (the header: valid until deinit; a library
/// that uses the Swift runtime is never unmapped anyway). Strings come from `StaticString` storage in the binary,
/// or are copied once.
enum DescriptorBuilder {
  static func build(
    _ plugin: any TransitionPlugin.Type
  ) -> (UnsafeMutablePointer<th_plugin_descriptor>, [UnsafeRawPointer: TransitionPluginExport]) {
    let descriptor = zeroed(th_plugin_descriptor.self)
    descriptor.pointee.struct_size = UInt32(MemoryLayout<th_plugin_descriptor>.size)
    descriptor.pointee.abi_major = TH_ABI_VERSION_MAJOR
    descriptor.pointee.abi_minor = TH_ABI_VERSION_MINOR
    descriptor.pointee.id = cString(plugin.id)
    descriptor.pointee.name = cString(plugin.name)
    descriptor.pointee.version = cString(plugin.version)
    descriptor.pointee.vendor = plugin.vendor.map(cString)
    descriptor.pointee.description = plugin.summary.map(cString)
    descriptor.pointee.`init` = initThunk
    descriptor.pointee.`deinit` = deinitThunk

    var byDescriptor: [UnsafeRawPointer: TransitionPluginExport] = [:]
    let exports = plugin.exports
    let list = UnsafeMutablePointer<UnsafePointer<th_animator_descriptor>?>.allocate(capacity: max(exports.count, 1))
    for (index, export) in exports.enumerated() {
      let animator = animatorDescriptor(export)
      list[index] = UnsafePointer(animator)
      byDescriptor[UnsafeRawPointer(animator)] = export
    }
    descriptor.pointee.animator_count = UInt32(exports.count)
    descriptor.pointee.animators = UnsafePointer(list)
    return (descriptor, byDescriptor)
  }

  static func animatorDescriptor(_ export: TransitionPluginExport) -> UnsafeMutablePointer<th_animator_descriptor> {
    let animator = zeroed(th_animator_descriptor.self)
    animator.pointee.struct_size = UInt32(MemoryLayout<th_animator_descriptor>.size)
    animator.pointee.id = cString(export.id)
    animator.pointee.name = cString(export.name)
    animator.pointee.description = export.summary.map(cString)
    if let operations = export.operations {
      animator.pointee.operations = UnsafePointer(stringList(operations.map(\.rawValue)))
    }
    let parameters = export.parameters
    if !parameters.isEmpty {
      let list = UnsafeMutablePointer<UnsafePointer<th_param_descriptor>?>.allocate(capacity: parameters.count)
      for (index, parameter) in parameters.enumerated() { list[index] = UnsafePointer(paramDescriptor(parameter)) }
      animator.pointee.param_count = UInt32(parameters.count)
      animator.pointee.params = UnsafePointer(list)
    }
    animator.pointee.create = createThunk
    animator.pointee.destroy = destroyThunk
    animator.pointee.transition_duration = durationThunk
    animator.pointee.animate_transition = animateThunk
    animator.pointee.animation_ended = endedThunk
    animator.pointee.get_extension = extensionThunk
    animator.pointee.interruptible_animator = interruptibleThunk
    return animator
  }

  static func paramDescriptor(_ parameter: AnyTransitionParameter) -> UnsafeMutablePointer<th_param_descriptor> {
    let param = zeroed(th_param_descriptor.self)
    param.pointee.struct_size = UInt32(MemoryLayout<th_param_descriptor>.size)
    param.pointee.name = cString(parameter.nameText)
    param.pointee.doc = parameter.docText.map(cString)
    param.pointee.min = -.infinity
    param.pointee.max = .infinity
    switch parameter.kind {
    case .number(let value, let min, let max):
      param.pointee.type = TH_PARAM_NUMBER
      (param.pointee.default_number, param.pointee.min, param.pointee.max) = (value, min, max)
    case .bool(let value):
      param.pointee.type = TH_PARAM_BOOL
      param.pointee.default_bool = value
    case .enumeration(let value, let options):
      param.pointee.type = TH_PARAM_ENUM
      param.pointee.default_string = UnsafePointer(strdup(value))
      param.pointee.enum_options = UnsafePointer(stringList(options))
    case .color(let value):
      param.pointee.type = TH_PARAM_COLOR
      param.pointee.default_color = value.th
    case .string(let value):
      param.pointee.type = TH_PARAM_STRING
      param.pointee.default_string = UnsafePointer(strdup(value))
    case .point(let value):
      param.pointee.type = TH_PARAM_POINT
      param.pointee.default_point = value.th
    case .rect(let value):
      param.pointee.type = TH_PARAM_RECT
      param.pointee.default_rect = value.th
    }
    return param
  }

  /// A zero-filled allocation of one `T` (C structs: zero is every field's documented default).
  static func zeroed<T>(_ type: T.Type) -> UnsafeMutablePointer<T> {
    let raw = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<T>.size, alignment: MemoryLayout<T>.alignment)
    raw.initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<T>.size)
    return raw.assumingMemoryBound(to: T.self)
  }

  /// An immortal C string: the literal's own storage, or a copy.
  static func cString(_ string: StaticString) -> UnsafePointer<CChar> {
    if string.hasPointerRepresentation {
      return UnsafeRawPointer(string.utf8Start).assumingMemoryBound(to: CChar.self)
    }
    return UnsafePointer(strdup(string.description)!)
  }

  /// An immortal NULL-terminated array of copied strings.
  static func stringList(_ strings: [String]) -> UnsafeMutablePointer<UnsafePointer<CChar>?> {
    let list = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: strings.count + 1)
    for (index, string) in strings.enumerated() { list[index] = UnsafePointer(strdup(string)) }
    list[strings.count] = nil
    return list
  }
}

// MARK: - The descriptor's functions

/// `init`: counted, so the plugin's `initialize` runs once per library however often the host calls it.
private let initThunk: @convention(c) (UnsafePointer<th_host_info>?) -> Bool = { info in
  let (first, plugin) = PluginRuntime.state.withLock { state in
    state.initCount += 1
    return Unchecked((state.initCount == 1, state.plugin))
  }.value
  guard first, let plugin else { return true }
  if plugin.initialize() { return true }
  PluginRuntime.state.withLock { $0.initCount -= 1 }
  return false
}

/// `deinit`: the plugin's `deinitialize` runs when the last init is paired.
private let deinitThunk: @convention(c) () -> Void = {
  let (last, plugin) = PluginRuntime.state.withLock { state in
    guard state.initCount > 0 else { return Unchecked((false, (any TransitionPlugin.Type)?.none)) }
    state.initCount -= 1
    return Unchecked((state.initCount == 0, state.plugin))
  }.value
  if last, let plugin { plugin.deinitialize() }
}

private let createThunk:
  @convention(c) (UnsafePointer<th_animator_descriptor>?, UnsafePointer<th_host_info>?) -> UnsafeMutableRawPointer? = {
    descriptor, info in
    guard let export = PluginRuntime.export(descriptor), let info else { return nil }
    let (host, context) = PluginRuntime.hostTable(info)
    guard let host else { return nil }
    let session = Session(host: host, pluginContext: context, export: export)
    return Unmanaged.passRetained(session).toOpaque()
  }

private let destroyThunk: @convention(c) (UnsafeMutableRawPointer?) -> Void = { instance in
  guard let instance else { return }
  Unmanaged<Session>.fromOpaque(instance).release()
}

private let durationThunk: @convention(c) (UnsafeMutableRawPointer?, th_context) -> Double = { instance, ctx in
  guard let session = Session.from(instance) else { return 0 }
  return session.enter(ctx) {
    session.resolveAnimator()?.transitionDuration(using: ctx.id == 0 ? nil : session.context) ?? 0
  }
}

private let animateThunk: @convention(c) (UnsafeMutableRawPointer?, th_context) -> Void = { instance, ctx in
  guard let session = Session.from(instance) else { return }
  session.enter(ctx) {
    if let controller = session.resolveInteractionController() {
      // UIKit starts an interactive transition through its interaction controller (a percent-driven one runs the
      // animator's animateTransition).
      controller.startInteractiveTransition(session.context)
    } else if let animator = session.resolveAnimator() {
      animator.animateTransition(using: session.context)
    } else {
      session.completeWithoutAnimation()
    }
  }
}

private let endedThunk: @convention(c) (UnsafeMutableRawPointer?, th_context, Bool) -> Void = {
  instance, ctx, completed in
  guard let session = Session.from(instance) else { return }
  session.enter(ctx) { session.resolveAnimator()?.animationEnded(completed) }
}

private let interruptibleThunk: @convention(c) (UnsafeMutableRawPointer?, th_context) -> th_property_animator = {
  instance, ctx in
  guard let session = Session.from(instance) else { return th_property_animator(id: 0) }
  return session.enter(ctx) {
    guard let animator = session.resolveAnimator() else { return th_property_animator(id: 0) }
    let vended = animator.interruptibleAnimator(using: session.context)
    if vended is NoInterruptibleAnimator { return th_property_animator(id: 0) }
    guard let propertyAnimator = vended as? UIViewPropertyAnimator, propertyAnimator.handle.id != 0 else {
      session.log(
        TH_LOG_WARNING,
        "TransitionKit: interruptibleAnimator(using:) returned \(type(of: vended)); the host drives only a "
          + "UIViewPropertyAnimator made during the transition, so the transition runs without it")
      return th_property_animator(id: 0)
    }
    // An interactive start takes the interruptible animator instead of starting through the interaction
    // controller: a percent-driven one drives it from here on, as UIKit's does.
    session.drivesInterruptibleAnimator = true
    session.drivenAnimator = propertyAnimator
    if let percentDriven = session.resolveInteractionController() as? UIPercentDrivenInteractiveTransition {
      percentDriven.session = session
    }
    return propertyAnimator.handle
  }
}

private let extensionThunk: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> UnsafeRawPointer? = {
  instance, id in
  guard let session = Session.from(instance), let id else { return nil }
  switch String(cString: id) {
  case TH_EXT_PRESENTATION_CONTROLLER:
    return session.presentationController == nil ? nil : UnsafeRawPointer(PresentationControllerTable.pointer)
  case TH_EXT_INTERACTION_CONTROLLER:
    // Delegates may vend an interaction controller (asked when the transition starts); a bare animator has none.
    if case .animator = session.source { return nil }
    return UnsafeRawPointer(InteractionControllerTable.pointer)
  case TH_EXT_SCENE_CONTROLLER:
    return session.sceneDeclaration == nil ? nil : UnsafeRawPointer(SceneControllerTable.pointer)
  default:
    return nil
  }
}
