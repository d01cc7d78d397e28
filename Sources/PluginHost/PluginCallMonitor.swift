/// A call from the host into plugin code: what a watchdog records while the plugin runs, and what a crash report
/// says the plugin was doing.
package enum PluginCall: UInt8, Sendable, CaseIterable {
  /// `dlopen` of the library: its constructors run.
  case load = 1
  /// `th_plugin_entry`.
  case entry
  /// The descriptor's `init`.
  case initialize
  /// The descriptor's `deinit`.
  case deinitialize
  /// An animator's `create`.
  case create
  /// An animator's `destroy`.
  case destroy
  /// An animator's `get_extension`.
  case getExtension
  /// `transition_duration`.
  case transitionDuration
  /// `animate_transition`.
  case animateTransition
  /// An animations function of `animate` (or of an alongside block).
  case animations
  /// An animations function of `animate_keyframes`.
  case keyframes
  /// A completion of an animation block, a keyframe block or a driver.
  case completion
  /// A custom driver's update function.
  case driver
  /// `animation_ended`.
  case animationEnded
  /// A presentation controller's frame, `should_remove_presenters_view`, will-begin or did-end function.
  case presentationController
  /// An interaction controller's `interaction_controller` or `handle_gesture` (ABI 1.2).
  case interactionController
  /// A scene controller's `open_scene`, `handle_gesture` or `transition_ended` (ABI 1.2, scenes).
  case sceneController
  /// `interruptible_animator` (ABI 1.2).
  case interruptibleAnimator
  /// A display link's callback (ABI 1.2, "th.display-link/1").
  case displayLink

  /// The name reports use: the ABI function's name, or what kind of function it is.
  package var name: String {
    switch self {
    case .load: "a library constructor"
    case .entry: "th_plugin_entry"
    case .initialize: "init"
    case .deinitialize: "deinit"
    case .create: "create"
    case .destroy: "destroy"
    case .getExtension: "get_extension"
    case .transitionDuration: "transitionDuration"
    case .animateTransition: "animateTransition"
    case .animations: "animations"
    case .keyframes: "keyframes"
    case .completion: "completion"
    case .driver: "driver"
    case .animationEnded: "animationEnded"
    case .presentationController: "presentationController"
    case .interactionController: "interactionController"
    case .sceneController: "sceneController"
    case .interruptibleAnimator: "interruptibleAnimator"
    case .displayLink: "displayLink"
    }
  }
}

/// Told about every call from the host into plugin code, before it and after it returns (innermost last when calls
/// nest: an animations function runs inside `animate_transition`).
///
/// - Important: Called on the host thread, the only one that calls plugin code.
package protocol PluginCallObserver: AnyObject {
  func willCall(_ call: PluginCall)
  func didReturn(from call: PluginCall)
}

/// Where PluginHost reports its calls into plugin code. Nobody observes them in the host's own process (the cost is
/// one load and a branch per call); a worker process installs its watchdog page here.
package enum PluginCallMonitor {
  /// The observer; set once, before any plugin is loaded, on the host thread.
  nonisolated(unsafe) package static var observer: (any PluginCallObserver)?

  /// Runs `body`, a call into plugin code, between `willCall` and `didReturn`.
  @inline(__always)
  package static func around<T, E: Error>(_ call: PluginCall, _ body: () throws(E) -> T) throws(E) -> T {
    guard let observer else { return try body() }
    observer.willCall(call)
    defer { observer.didReturn(from: call) }
    return try body()
  }
}
