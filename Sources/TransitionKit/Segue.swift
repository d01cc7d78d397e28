// UIStoryboardSegue as a plugin exports it: the host's `segue` and `unwind` operations run the segue's `perform()`,
// whose animation ends with `present(_:animated:completion:)` (a segue) or `dismiss(animated:completion:)` (an
// unwind), as SegueTransion's segues do. Declared with `TransitionPluginExport.segue`.

internal import CTransitionABI

/// UIStoryboardSegue: a transition from `source` to `destination` that performs itself (override `perform()`), with
/// no transition context.
open class UIStoryboardSegue: NSObject {
  /// The segue's identifier (the declaration's animator id when the SDK makes it).
  public let identifier: String?
  /// The view controller the segue starts from (the transition's from side).
  public let source: UIViewController
  /// The view controller it goes to (the to side).
  public let destination: UIViewController
  private let performHandler: (() -> Void)?

  /// A segue from `source` to `destination`.
  public init(identifier: String?, source: UIViewController, destination: UIViewController) {
    self.identifier = identifier
    self.source = source
    self.destination = destination
    self.performHandler = nil
    super.init()
  }

  /// A segue whose `perform()` runs `performHandler` (unless a subclass overrides it).
  public init(
    identifier: String?, source: UIViewController, destination: UIViewController,
    performHandler: @escaping () -> Void
  ) {
    self.identifier = identifier
    self.source = source
    self.destination = destination
    self.performHandler = performHandler
    super.init()
  }

  /// Runs the transition: move the views, and when they are in place call `source.present(destination,
  /// animated: false)` (a segue) or `source.dismiss(animated: false)` (an unwind), which ends it.
  open func perform() {
    performHandler?()
  }
}

extension UIViewController {
  /// Presents `viewControllerToPresent`. On an app's controller in a scene it starts the presentation with the
  /// presented controller's `transitioningDelegate` (Scenes.swift). Inside a segue's `perform()` it is what ends
  /// the segue: called on the running segue's source with its destination (usually from its animation's
  /// completion), it completes the transition (`completeTransition(!transitionWasCancelled)`), then runs
  /// `completion`. Anywhere else it is logged and does nothing.
  public func present(_ viewControllerToPresent: UIViewController, animated flag: Bool, completion: (() -> Void)? = nil)
  {
    if role == .app { return presentInScene(viewControllerToPresent, animated: flag, completion: completion) }
    guard let session, let segue = session.runningSegue, session.context.operation != .unwind, segue.source === self,
      segue.destination === viewControllerToPresent
    else {
      return refuse("present(_:animated:completion:)")
    }
    session.context.completeTransition(!session.context.transitionWasCancelled)
    completion?()
  }

  /// Dismisses the view controller this one presented, or this one: on an app's controller in a scene it starts
  /// the dismissal with the presented controller's `transitioningDelegate`. The counterpart of `present` for an
  /// unwind: called on the running unwind segue's source or destination (from `perform()`), it completes the
  /// transition and runs `completion`. Anywhere else it is logged and does nothing.
  public func dismiss(animated flag: Bool, completion: (() -> Void)? = nil) {
    if role == .app { return dismissInScene(animated: flag, completion: completion) }
    guard let session, let segue = session.runningSegue, session.context.operation == .unwind,
      segue.source === self || segue.destination === self
    else {
      return refuse("dismiss(animated:completion:)")
    }
    session.context.completeTransition(!session.context.transitionWasCancelled)
    completion?()
  }

  private func refuse(_ call: String) {
    let message =
      "TransitionKit: \(call) on \(self) outside a segue's perform(): plugin code cannot start transitions; ignored"
    if let session { session.log(TH_LOG_WARNING, message) } else { PluginRuntime.log(TH_LOG_WARNING, message) }
  }
}

/// The animator the SDK runs for a segue export: `perform()` of the segue the declaration makes for the operation.
final class SegueAnimator: UIViewControllerAnimatedTransitioning {
  typealias MakeSegue = (String?, UIViewController, UIViewController) -> UIStoryboardSegue

  let duration: TimeInterval
  let identifier: String
  let perform: MakeSegue
  let unwind: MakeSegue?

  init(duration: TimeInterval, identifier: String, perform: @escaping MakeSegue, unwind: MakeSegue?) {
    self.duration = duration
    self.identifier = identifier
    self.perform = perform
    self.unwind = unwind
  }

  func transitionDuration(using transitionContext: (any UIViewControllerContextTransitioning)?) -> TimeInterval {
    duration
  }

  func animateTransition(using transitionContext: any UIViewControllerContextTransitioning) {
    guard let session = Session.current,
      let source = transitionContext.viewController(forKey: .from),
      let destination = transitionContext.viewController(forKey: .to)
    else {
      return transitionContext.completeTransition(false)
    }
    let make = transitionContext.operation == .unwind ? unwind ?? perform : perform
    let segue = make(identifier, source, destination)
    session.runningSegue = segue
    segue.perform()
  }
}
