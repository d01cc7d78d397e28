import CTransitionABI
import TransitionEngine

#if canImport(Glibc)
  import Glibc
#endif

/// An engine animator backed by one instance of a plugin animator: the bridge between a `Transition` and the
/// C ABI.
///
/// Made by `PluginRegistry.makeAnimator(id:)` for one transition. It holds a lease on the plugin generation it
/// came from, so a reload while the transition runs leaves it on the old code; the lease ends, and the
/// instance is destroyed, right after `animationEnded` (or when the animator is dropped unused).
///
/// It issues the transition's `th_context` and `th_view` handles and implements every host function against
/// the engine (see `HostAPITable`), with every check the header promises: handles, NULL pointers, NaN and
/// infinite numbers, documented ranges, the phase of the transition, and the thread. A failed check returns
/// its status, changes nothing, and is reported as misbehaviour naming the animator: through the transition
/// (`Transition.onMisbehavior`) when there is one, otherwise to the plugin's logger at the
/// `pluginMisbehaving` level.
///
/// Single-threaded: create and use it on the host thread (the thread that drives the transition).
package final class PluginAnimator: TransitionAnimator {
  /// `pluginId/animatorId`.
  package let animatorID: String
  /// The animator's metadata.
  package let info: AnimatorInfo
  /// The generation the instance belongs to (kept loaded until the animator ends).
  package let generation: PluginGeneration
  private var instance: AnimatorInstance?
  private let descriptor: UnsafePointer<th_animator_descriptor>
  /// The plugin's instance pointer (from `create`).
  let instanceState: UnsafeMutableRawPointer
  private let logger: PluginLogger
  /// The `th_context` this animator's transition is known by.
  package private(set) var handle = th_context(id: 0)
  private var slot: TransitionSlot!
  private var controller: PluginPresentationController?
  /// The functions of the animator's "th.interaction-controller/1" (ABI 1.2), when it offers one.
  private var interactionTable: PluginInteractionController.Table?

  /// The scene this instance serves, when it is a scene's instance rather than a transition's (ABI 1.2, scenes).
  weak var scene: PluginScene?

  /// The engine context, once the transition handed it over (or `attach(to:)` did).
  package private(set) var context: TransitionContext?
  /// Whether `animateTransition` ran.
  private var started = false
  /// Whether the plugin called `complete_transition` (the "ended" phase starts there).
  private(set) var completed = false
  /// Whether the instance has been destroyed and the lease ended.
  package private(set) var isClosed = false

  // Phases and nesting.
  enum Phase {
    case duration
    case animate
    case animations
    case keyframes
    case driver
    case ended
  }
  private(set) var phases: [Phase] = []
  /// The frame of the driver update running now.
  var driverFrame: DriverFrame?

  // Handles.
  private var viewsByIndex: [UInt32: View] = [:]
  private var indexByView: [ObjectIdentifier: UInt32] = [:]
  private var nextViewIndex: UInt32 = 1
  /// Strings handed to the plugin (`view_id`, `operation`, params): allocated once, freed when the animator closes.
  private var cachedStrings: [String: UnsafeMutablePointer<CChar>] = [:]
  /// Memory lent to the plugin for the outermost call running now (gradient arrays).
  private var borrowed: [UnsafeMutableRawPointer] = []

  // Completions owed to the plugin: exactly one call per successful animate/keyframes/alongside/driver.
  private struct PendingCompletion {
    var function: th_completion_fn
    var userData: UnsafeMutableRawPointer?
  }
  private var pending: [Int: PendingCompletion] = [:]
  /// The display links the plugin added (ABI 1.2), by the id it was given.
  var displayLinks: [UInt64: DisplayLink] = [:]
  var nextDisplayLinkID: UInt64 = 1
  private var nextCompletionToken = 0

  // Property animators (ABI 1.2): the transition's, by handle index, and the completions owed to the plugin.
  var propertyAnimators: [PropertyAnimator] = []
  struct PendingAnimatorCompletion {
    var function: th_animator_completion_fn
    var userData: UnsafeMutableRawPointer?
    /// The index in `propertyAnimators` of the animator it belongs to.
    var animator: Int
  }
  var animatorCompletions: [Int: PendingAnimatorCompletion] = [:]
  var nextAnimatorCompletionToken = 0
  /// Core Animation animation objects (ABI 1.3, PluginAnimator+CoreAnimation.swift), by handle index.
  var coreAnimationObjects: [ExplicitAnimation] = []

  /// The parameter values the plugin reads: the descriptor's defaults overlaid with the transition's params.
  private(set) lazy var parameterValues: [String: ParameterValue] = info.parameterValues(context?.params ?? [:])

  // Limits (TH_ERR_LIMIT).
  static let maximumNesting = 64
  static let maximumMadeViews = 100_000
  static let maximumBlocks = 1_000_000
  /// How many levels a view tree may have after a tree change (the container counts as one). The engine walks trees
  /// recursively (frames, lookups, world matrices), so an unbounded chain would exhaust the stack; clients' trees are
  /// already bounded by the JSON nesting limit (about 256 levels).
  static let maximumTreeLevels = 1_000
  /// Misbehaviour reports per animator before the rest are summarised.
  static let maximumReports = 100
  var madeViews = 0
  var startedBlocks = 0
  private var reportCount = 0

  /// `forScene`: the instance serves a scene (PluginScene), not a transition: the transition's extensions (the
  /// presentation and interaction controllers) are not asked of it, so no delegate is asked for them.
  init(resolved lease: AnimatorLease, instance: AnimatorInstance, logger: PluginLogger, forScene: Bool = false) {
    self.animatorID = lease.qualifiedID
    self.info = lease.info
    self.generation = lease.generation
    self.instance = instance
    self.descriptor = lease.descriptor
    self.instanceState = instance.state
    self.logger = logger
    self.slot = TransitionSlot(animator: self)
    self.handle = ContextDirectory.shared.register(
      ContextDirectory.Entry(source: lease.qualifiedID, logger: logger, transition: slot))
    precondition(handle.id < 1 << 32, "context ids exhausted")  // 4 billion transitions in one process
    // Extensions are asked once, right after create (phase: describe).
    if !forScene, let getExtension = descriptor.pointee.get_extension,
      let table = PluginCallMonitor.around(
        .getExtension, { TH_EXT_PRESENTATION_CONTROLLER.withCString({ getExtension(instanceState, $0) }) })
    {
      controller = PluginPresentationController(animator: self, table: table)
    }
    if !forScene, let getExtension = descriptor.pointee.get_extension,
      let table = PluginCallMonitor.around(
        .getExtension, { TH_EXT_INTERACTION_CONTROLLER.withCString({ getExtension(instanceState, $0) }) })
    {
      interactionTable = PluginInteractionController.Table(table)
    }
  }

  deinit {
    close()
  }

  /// The table the animator's `get_extension` answers for `id` (phase: describe), nil when it offers none.
  func extensionTable(_ id: String) -> UnsafeRawPointer? {
    guard let getExtension = descriptor.pointee.get_extension, !isClosed else { return nil }
    return PluginCallMonitor.around(.getExtension, { id.withCString({ getExtension(instanceState, $0) }) })
  }

  // MARK: TransitionAnimator

  package var presentationController: (any PresentationControllerBehavior)? { controller }

  /// The plugin's interaction controller for this transition, when its `interaction_controller` says it has one.
  package func interactionController(_ context: TransitionContext) -> (any InteractionControllerBehavior)? {
    attachContext(context)
    guard let interactionTable, !isClosed else { return nil }
    return PluginInteractionController.ask(interactionTable, animator: self)
  }

  /// The plugin's `transition_duration`. The engine validates the value (finite, ≥ 0) and reports a bad one.
  package func transitionDuration(_ context: TransitionContext?) -> Double {
    if let context { attachContext(context) }
    guard !isClosed else { return 0 }
    var value = 0.0
    let ctx = self.context == nil ? th_context(id: 0) : handle
    callout(.duration, .transitionDuration) { value = descriptor.pointee.transition_duration(instanceState, ctx) }
    return value
  }

  package func animateTransition(_ context: TransitionContext) {
    attachContext(context)
    guard !isClosed, !started else {
      context.reportMisbehavior(.wrongPhase, "this plugin animator instance was already used for a transition")
      context.transition?.fail(reason: "animatorMisbehaved")
      return
    }
    started = true
    callout(.animate, .animateTransition) { descriptor.pointee.animate_transition(instanceState, handle) }
  }

  /// The plugin's `interruptible_animator` (ABI 1.2; nil when the plugin declares an older ABI, its descriptor is too
  /// small to have it, or it is NULL or returns {0}).
  package func interruptibleAnimator(_ context: TransitionContext) -> PropertyAnimator? {
    attachContext(context)
    guard !isClosed, generation.info.abi.minor >= 2,
      let offset = MemoryLayout<th_animator_descriptor>.offset(of: \.interruptible_animator),
      Int(descriptor.pointee.struct_size) >= offset + MemoryLayout<UnsafeRawPointer?>.size,
      let function = descriptor.pointee.interruptible_animator
    else { return nil }
    var answer = th_property_animator(id: 0)
    callout(.animate, .interruptibleAnimator) { answer = function(instanceState, handle) }
    guard answer.id != 0 else { return nil }
    do {
      return try propertyAnimator(answer, "interruptible_animator")
    } catch {
      report("interruptible_animator", error)
      return nil
    }
  }

  package func animationEnded(_ completed: Bool) {
    guard !isClosed else { return }
    if let animationEnded = descriptor.pointee.animation_ended {
      callout(.ended, .animationEnded) { animationEnded(instanceState, handle, completed) }
    }
    close()
  }

  // MARK: Attaching and closing

  /// Binds the animator to its transition before it starts, so that calls the engine makes before handing
  /// over the context (the presentation controller's `frame_of_presented_view`) get a working context.
  /// The transition service's `TransitionFactory` does this; otherwise the first call with a context does.
  package func attach(to transition: Transition) {
    attachContext(transition.context)
  }

  /// Keeps the engine context (the first one wins: an animator serves one transition).
  func attachContext(_ context: TransitionContext) {
    guard self.context == nil else { return }
    self.context = context
  }

  /// Ends the animator's life: owed completions run (finished = false, phase ended), the context becomes
  /// stale, the instance is destroyed and the lease ends. Idempotent; the engine's `animationEnded` calls it.
  package func close() {
    guard !isClosed else { return }
    // Completions still owed run now: the ABI promises one call per block, and they free user data.
    while let token = pending.keys.min() {
      fireCompletion(token, finished: false, phase: .ended)
    }
    while let token = animatorCompletions.keys.min() {
      fireAnimatorCompletion(token, position: .current, finished: false, phase: .ended)
    }
    isClosed = true
    deliverPosted()
    ContextDirectory.shared.unregister(handle)
    releaseBorrowed()
    for pointer in cachedStrings.values { free(pointer) }
    cachedStrings = [:]
    let lease = instance?.lease
    instance = nil  // destroy
    lease?.end()
    viewsByIndex = [:]
    indexByView = [:]
  }

  // MARK: Calling the plugin

  /// Runs plugin code (`call`, for a watchdog) in `phase`. The outermost call marks the animator active on this thread (for reports of
  /// unattributable calls), and when it returns, borrowed memory is released and reports queued by other
  /// threads are delivered.
  func callout(_ phase: Phase, _ call: PluginCall, _ body: () -> Void) {
    let outermost = phases.isEmpty
    if outermost { ContextDirectory.shared.enter(slot) }
    phases.append(phase)
    PluginCallMonitor.around(call, body)
    phases.removeLast()
    if outermost {
      ContextDirectory.shared.leave(slot)
      releaseBorrowed()
      deliverPosted()
    }
  }

  /// The phase rules work with the phase of the innermost call, after `complete_transition` any call that
  /// could animate counts as "ended".
  var currentPhase: Phase? {
    guard let phase = phases.last else { return nil }
    if completed, phase != .driver, phase != .duration { return .ended }
    return phase
  }

  /// What a host function needs to be allowed.
  enum Requirement {
    /// Queries and getters: any phase of a transition.
    case read
    /// Property setters: animate, animations, driver (presentation values), and ended (immediate clean-up).
    case write
    /// Tree changes and new views: animate, animations, ended (clean-up); not in a driver.
    case tree
    /// New animation blocks, drivers and alongside animations: animate and animations.
    case animate
    /// `add_keyframe`: directly inside an `animate_keyframes` animations function.
    case keyframe
    /// `complete_transition`: animate and animations, once.
    case complete
  }

  /// Checks that the current phase allows `requirement`.
  func require(_ requirement: Requirement) throws(HostFailure) {
    guard let phase = currentPhase else {
      throw .wrongPhase("called outside any host -> plugin call (for example from the plugin's own timer)")
    }
    let allowed: Bool
    switch (requirement, phase) {
    case (.read, _): allowed = true
    case (.write, .duration): allowed = false
    case (.write, _): allowed = true
    case (.tree, .animate), (.tree, .animations), (.tree, .keyframes), (.tree, .ended): allowed = true
    case (.tree, _): allowed = false
    case (.animate, .animate), (.animate, .animations), (.animate, .keyframes): allowed = true
    case (.animate, _): allowed = false
    case (.keyframe, .keyframes): allowed = true
    case (.keyframe, _): allowed = false
    case (.complete, .ended):
      throw .wrongPhase("complete_transition was already called", kind: .completedTwice)
    case (.complete, .animate), (.complete, .animations), (.complete, .keyframes): allowed = true
    case (.complete, _): allowed = false
    }
    guard allowed else {
      let kind: Misbehavior.Kind = phase == .ended ? .callAfterCompletion : .wrongPhase
      throw .wrongPhase(
        "not allowed in the \(phase) phase\(phase == .ended ? " (after complete_transition)" : "")", kind: kind)
    }
  }

  /// Enters one more level of plugin calls made by the host inside a host call (animations functions).
  func checkNesting() throws(HostFailure) {
    guard phases.count < Self.maximumNesting else {
      throw .limit("animations", "more than \(Self.maximumNesting) nested calls")
    }
  }

  // MARK: Reporting

  /// Reports a failed host call as misbehaviour (nothing for plain answers such as TH_ERR_NOT_FOUND).
  func report(_ function: StaticString, _ failure: HostFailure) {
    guard let kind = failure.kind else { return }
    report(kind, "\(function): \(statusName(failure.status)): \(failure.detail)")
  }

  /// Reports misbehaviour through the transition, or to the plugin's logger when there is none.
  func report(_ kind: Misbehavior.Kind, _ message: String) {
    reportCount += 1
    guard reportCount <= Self.maximumReports else { return }
    let text =
      reportCount == Self.maximumReports
      ? message + " (further misbehaviour of this animator instance is not reported)" : message
    if let context, context.transition != nil {
      context.reportMisbehavior(kind, text)
    } else {
      logger.write(PluginLogRecord(source: animatorID, level: .pluginMisbehaving, message: text))
    }
  }

  /// Delivers what other threads posted.
  private func deliverPosted() {
    for message in slot.takePosted() {
      report(.wrongPhase, "\(message): TH_ERR_WRONG_THREAD")
    }
  }

  // MARK: Handles

  /// The handle of `view` in this transition (the same view always gets the same handle).
  func viewHandle(_ view: View) -> th_view {
    if let index = indexByView[ObjectIdentifier(view)] {
      return th_view(id: handle.id << 32 | UInt64(index))
    }
    let index = nextViewIndex
    nextViewIndex += 1
    viewsByIndex[index] = view
    indexByView[ObjectIdentifier(view)] = index
    return th_view(id: handle.id << 32 | UInt64(index))
  }

  /// The view behind a handle. The high 32 bits name the transition that issued it: another live
  /// transition's handle is invalid here, an ended one's is stale.
  func view(_ view: th_view, _ field: String) throws(HostFailure) -> View {
    let owner = view.id >> 32
    let index = UInt32(truncatingIfNeeded: view.id)
    if owner == handle.id, let found = viewsByIndex[index] { return found }
    if view.id == 0 {
      throw HostFailure(status: TH_ERR_INVALID_HANDLE, kind: .unknownView, detail: "\(field) is {0} (no view)")
    }
    if owner != handle.id, owner != 0, case .stale = ContextDirectory.shared.lookup(th_context(id: owner)) {
      throw HostFailure(
        status: TH_ERR_STALE_HANDLE, kind: .unknownView,
        detail: "\(field) \(view.id) is a view of a transition that has ended")
    }
    throw HostFailure(
      status: TH_ERR_INVALID_HANDLE, kind: .unknownView,
      detail: "\(field) \(view.id) was never issued to this transition")
  }

  /// Like `view(_:_:)`, with {0} meaning the container.
  func viewOrContainer(_ view: th_view, _ field: String) throws(HostFailure) -> View {
    if view.id == 0 { return try engineContext().containerView }
    return try self.view(view, field)
  }

  /// The engine context; calls made before the transition handed it over fail as an invalid context.
  func engineContext() throws(HostFailure) -> TransitionContext {
    guard let context else {
      throw HostFailure(
        status: TH_ERR_INVALID_HANDLE, kind: .invalidValue(field: "ctx"),
        detail: "the transition has not handed its context over yet")
    }
    return context
  }

  /// A C string the animator keeps until it closes (borrowed by the plugin).
  func cString(_ text: String) -> UnsafePointer<CChar> {
    if let existing = cachedStrings[text] { return UnsafePointer(existing) }
    let copy = strdup(text)!
    cachedStrings[text] = copy
    return UnsafePointer(copy)
  }

  /// Memory lent to the plugin until the outermost call returns.
  func borrow(bytes: Int, alignment: Int) -> UnsafeMutableRawPointer {
    let pointer = UnsafeMutableRawPointer.allocate(byteCount: max(bytes, 1), alignment: alignment)
    borrowed.append(pointer)
    return pointer
  }

  private func releaseBorrowed() {
    for pointer in borrowed { pointer.deallocate() }
    borrowed = []
  }

  // MARK: Completions

  /// Registers a completion owed to the plugin; returns the engine closure that pays it.
  func owe(_ function: th_completion_fn?, _ userData: UnsafeMutableRawPointer?) -> ((Bool) -> Void)? {
    guard let function else { return nil }
    let token = nextCompletionToken
    nextCompletionToken += 1
    pending[token] = PendingCompletion(function: function, userData: userData)
    return { [weak self] finished in self?.fireCompletion(token, finished: finished, phase: .animate) }
  }

  /// Calls an owed completion once (later calls for the same token do nothing).
  private func fireCompletion(_ token: Int, finished: Bool, phase: Phase) {
    guard !isClosed, let owed = pending.removeValue(forKey: token) else { return }
    callout(phase, .completion) { owed.function(handle, finished, owed.userData) }
  }

  /// Withdraws the most recent `owe` (its host call failed after all: the plugin keeps its user data).
  func forgiveLastOwed() {
    pending[nextCompletionToken - 1] = nil
  }

  /// Marks `complete_transition` as called.
  func markCompleted() {
    completed = true
  }
}
