// UIScreen and UIApplication as a headless host has them: one screen and one window, both the transition's
// container, so that animators that size views from the screen or add them to the key window work unchanged.

internal import CTransitionABI

/// UIScreen: the screen the transition runs on, whose bounds are the container's.
public final class UIScreen: NSObject {
  /// The screen.
  public nonisolated(unsafe) static let main = UIScreen()

  /// The container's bounds during a transition call; `.zero` (and a warning) outside one, where there is no
  /// container to measure.
  public var bounds: CGRect {
    guard let session = Session.current, session.hasContext else {
      PluginRuntime.log(TH_LOG_WARNING, "TransitionKit: UIScreen.main.bounds outside a transition call is .zero")
      return .zero
    }
    return session.context.containerView.bounds
  }
}

/// UIWindow: the key window, a view over the transition's container (the same host view, its own proxy object).
public final class UIWindow: UIView {}

/// UIApplication: the app, whose only window is the transition's container.
public final class UIApplication: NSObject {
  /// The app.
  public nonisolated(unsafe) static let shared = UIApplication()

  /// The window over the container, with its bounds; nil outside a transition call.
  public var keyWindow: UIWindow? { Session.current?.window }

  /// The key window alone, when there is one.
  public var windows: [UIWindow] { keyWindow.map { [$0] } ?? [] }
}
