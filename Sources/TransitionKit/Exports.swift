// What a plugin exports, one entry per host animator: a TransitionKit-native animator type, or, for UIKit code
// copied in unchanged, a bare animator, a transitioning delegate or a navigation-controller delegate, named in the
// plugin's declaration file. The host sees ordinary animators either way (ids, operations, a presentation
// controller); the SDK asks the app's objects for what UIKit would ask them.

internal import CTransitionABI

/// One animator a plugin exports: what `TransitionPlugin.exports` lists.
///
/// The name is the SDK's alone (no app calls a type `TransitionPluginExport`), so a declaration file compiles beside
/// app code that has its own `TransitionAnimator` or `TransitionContext`. `@unchecked Sendable`, so that a
/// declaration can be a stored `static let`: the closures run only on the host's thread, inside its calls.
public struct TransitionPluginExport: @unchecked Sendable {
  let id: StaticString
  let name: StaticString
  let summary: StaticString?
  let operations: [TransitionOperation]?
  let parameters: [AnyTransitionParameter]
  /// A new source for one transition (the host makes one instance per transition).
  let makeSource: () -> AnimatorSource
  /// The app's view controllers, for scenes (`viewControllers(_:storyboard:)`).
  var scene: SceneDeclaration?

  init(
    id: StaticString, name: StaticString, summary: StaticString?, operations: [TransitionOperation]?,
    parameters: [AnyTransitionParameter], makeSource: @escaping () -> AnimatorSource
  ) {
    self.id = id
    self.name = name
    self.summary = summary
    self.operations = operations
    self.parameters = parameters
    self.makeSource = makeSource
  }

  /// A TransitionKit-native animator (`TransitionAnimator`), described by its own static members.
  public static func native(_ type: any TransitionAnimator.Type) -> TransitionPluginExport {
    TransitionPluginExport(
      id: type.id, name: type.name, summary: type.summary, operations: type.operations, parameters: type.parameters,
      makeSource: {
        let animator = type.init()
        return .animator(animator, presentationController: { animator.makePresentationController() })
      })
  }

  /// A bare UIKit animator (`class A: NSObject, UIViewControllerAnimatedTransitioning`): `make` returns a new one
  /// for each transition (`{ A() }`). Without a presentation controller, UIKit's defaults apply.
  ///
  /// - Parameter operations: the operations the host allows; nil means every operation.
  public static func animator(
    id: StaticString, name: StaticString, summary: StaticString? = nil, operations: [TransitionOperation]? = nil,
    _ make: @escaping () -> any UIViewControllerAnimatedTransitioning
  ) -> TransitionPluginExport {
    TransitionPluginExport(
      id: id, name: name, summary: summary, operations: operations, parameters: [],
      makeSource: { .animator(make(), presentationController: { nil }) })
  }

  /// A `UIViewControllerTransitioningDelegate`: `make` returns a new one for each transition. The SDK asks it, as
  /// UIKit does, for the presentation controller (`presentationController(forPresented:presenting:source:)`,
  /// before the transition starts) and for the animator: `animationController(forPresented:presenting:source:)`
  /// for present, segue and the client's own operations, `animationController(forDismissed:)` for dismiss and
  /// unwind. A dismissal is a transition of its own, so the delegate is asked for its presentation controller
  /// then too (what the controller says about keeping the presenter's view must hold for both).
  ///
  /// - Parameter operations: the operations the host allows; default present and dismiss.
  public static func transitioningDelegate(
    id: StaticString, name: StaticString, summary: StaticString? = nil,
    operations: [TransitionOperation]? = [.present, .dismiss],
    _ make: @escaping () -> any UIViewControllerTransitioningDelegate
  ) -> TransitionPluginExport {
    TransitionPluginExport(
      id: id, name: name, summary: summary, operations: operations, parameters: [],
      makeSource: { .transitioningDelegate(make()) })
  }

  /// A `UINavigationControllerDelegate`: `make` returns a new one for each transition, and the SDK asks its
  /// `navigationController(_:animationControllerFor:from:to:)` for the animator of a push or pop, with the
  /// transition's `UINavigationController` (whose `delegate` is this object).
  ///
  /// - Parameter operations: the operations the host allows; default push and pop (any other is asked as a push).
  public static func navigationControllerDelegate(
    id: StaticString, name: StaticString, summary: StaticString? = nil,
    operations: [TransitionOperation]? = [.push, .pop],
    _ make: @escaping () -> any UINavigationControllerDelegate
  ) -> TransitionPluginExport {
    TransitionPluginExport(
      id: id, name: name, summary: summary, operations: operations, parameters: [],
      makeSource: { .navigationDelegate(make()) })
  }
}

extension TransitionPluginExport {
  /// `UIStoryboardSegue` subclasses for the `segue` and `unwind` operations: `perform` makes the segue of a
  /// segue, `unwind` the one of an unwind (as a view controller's `segueForUnwinding(to:from:identifier:)` would),
  /// each from the identifier (this export's id), the source (the from side) and the destination (the to side);
  /// `SomeSegue.init` fits. The SDK runs its `perform()`, which ends the transition by calling
  /// `source.present(destination, animated:)` (segue) or `dismiss(animated:)` (unwind).
  ///
  /// - Parameter duration: the transition's length for the host (percent, scrubbing): a segue has no
  ///   `transitionDuration`. Its animations decide when it ends.
  public static func segue(
    id: StaticString, name: StaticString, summary: StaticString? = nil, duration: TimeInterval,
    perform: @escaping (String?, UIViewController, UIViewController) -> UIStoryboardSegue,
    unwind: ((String?, UIViewController, UIViewController) -> UIStoryboardSegue)? = nil
  ) -> TransitionPluginExport {
    let identifier = id.description
    return TransitionPluginExport(
      id: id, name: name, summary: summary, operations: unwind == nil ? [.segue] : [.segue, .unwind], parameters: [],
      makeSource: {
        .animator(
          SegueAnimator(duration: duration, identifier: identifier, perform: perform, unwind: unwind),
          presentationController: { nil })
      })
  }
}

/// Where one transition's animator comes from.
enum AnimatorSource {
  /// The animator itself, and how to make its presentation controller.
  case animator(any UIViewControllerAnimatedTransitioning, presentationController: () -> UIPresentationController?)
  /// A transitioning delegate that vends the animator and the presentation controller.
  case transitioningDelegate(any UIViewControllerTransitioningDelegate)
  /// A navigation-controller delegate that vends the animator of a push or pop.
  case navigationDelegate(any UINavigationControllerDelegate)
}

extension Session {
  /// The presentation controller of this transition, made when the host first asks for it.
  func makePresentationController() -> UIPresentationController? {
    guard asksPresentationController else { return nil }
    switch source {
    case .animator(_, let make):
      return make()
    case .transitioningDelegate(let delegate):
      return delegate.presentationController(
        forPresented: presentedViewController, presenting: presentingViewController, source: presentingViewController)
    case .navigationDelegate:
      return nil
    }
  }

  /// The animator for the transition's operation: the instance itself, or what the delegate vends (asked once per
  /// operation: UIKit asks once per transition; before the host gives a context, the operation is taken as present
  /// or push). Nil when the delegate vends none.
  func resolveAnimator() -> (any UIViewControllerAnimatedTransitioning)? {
    let operation = hasContext ? context.operation : nil
    if let resolved, resolved.operation == operation { return resolved.animator }
    let animator: (any UIViewControllerAnimatedTransitioning)?
    let asked: String
    switch source {
    case .animator(let animator, _):
      return animator
    case .transitioningDelegate(let delegate):
      if operation?.isDismissal == true {
        asked = "animationController(forDismissed:)"
        animator = delegate.animationController(forDismissed: presentedViewController)
      } else {
        asked = "animationController(forPresented:presenting:source:)"
        animator = delegate.animationController(
          forPresented: presentedViewController, presenting: presentingViewController, source: presentingViewController)
      }
    case .navigationDelegate(let delegate):
      let kind: UINavigationController.Operation = operation == .pop ? .pop : .push
      asked = "navigationController(_:animationControllerFor: .\(kind), from:to:)"
      navigationController.delegate = delegate
      animator = delegate.navigationController(
        navigationController, animationControllerFor: kind, from: viewController(forKey: .from),
        to: viewController(forKey: .to))
    }
    resolved = (operation, animator)
    if animator == nil, operation != nil {
      log(TH_LOG_INFO, "TransitionKit: the delegate's \(asked) returned nil; the transition runs without animation")
    }
    return animator
  }

  /// Whether the presented side is the from side: dismiss, unwind and pop (false before the host gave a context).
  var isBackward: Bool {
    guard hasContext else { return false }
    let operation = context.operation
    return operation.isDismissal || operation == .pop
  }

  /// The view controller object of side `key` (before the host gave a context, as for a presentation).
  func viewController(forKey key: UITransitionContextViewControllerKey) -> UIViewController {
    (key == .to) != isBackward ? presentedViewController : presentingViewController
  }

  /// What UIKit does without a custom animator, less its standard animation (the host has none): the views of the
  /// operation where it leaves them, and the transition completed at once.
  func completeWithoutAnimation() {
    let context = self.context
    let operation = context.operation
    let container = context.containerView
    if let appearing = context.view(forKey: .to), let controller = context.viewController(forKey: .to) {
      let frame = context.finalFrame(for: controller)
      if !frame.isEmpty { appearing.frame = frame }
      if let leaving = context.view(forKey: .from), operation.isDismissal || operation == .pop {
        container.insertSubview(appearing, belowSubview: leaving)
      } else {
        container.addSubview(appearing)
      }
    }
    context.completeTransition(true)
  }
}
