internal import CTransitionABI

/// UIPresentationController for an animator's presentations and dismissals (and segues and unwinds): subclass it,
/// override what UIKit lets you override, and return an instance from the animator's
/// `makePresentationController()` or from a transitioning delegate's
/// `presentationController(forPresented:presenting:source:)`. The SDK offers it to the host as the
/// "th.presentation-controller/1" extension.
///
/// One controller serves one transition, presentation or dismissal (the host makes an animator instance per
/// transition). Chrome such as a dimming view is an ordinary view: make it in `presentationTransitionWillBegin` with
/// a stable id (`UIView(frame:id:)`) so that the dismissal's controller finds it with `containerView.viewWithID`,
/// and animate it with `transitionCoordinator?.animate(alongsideTransition:)`.
open class UIPresentationController: NSObject {
  /// The session of the transition; set by the SDK when it receives the controller.
  weak var session: Session?
  /// The container bounds the host passed with its frame question.
  var containerBoundsHint = CGRect.zero
  /// The view controllers given to UIKit's initializer (nil: the transition's sides).
  private let givenPresented: UIViewController?
  private let givenPresenting: UIViewController?

  /// A controller for the transition's presented and presenting sides (TransitionKit's native style).
  public override init() {
    givenPresented = nil
    givenPresenting = nil
    super.init()
  }

  /// UIKit's initializer: a controller for `presentedViewController`, presented by `presentingViewController` (nil:
  /// the transition's presenting side), as a transitioning delegate's
  /// `presentationController(forPresented:presenting:source:)` makes it.
  public init(presentedViewController: UIViewController, presenting presentingViewController: UIViewController?) {
    givenPresented = presentedViewController
    givenPresenting = presentingViewController
    super.init()
  }

  /// The session while the controller is being made (its initializer runs inside the SDK's call).
  private var currentSession: Session? { session ?? Session.current }

  var context: TransitionContext? {
    guard let session, session.hasContext else { return nil }
    return session.context
  }

  /// The container view of the transition (nil before the host gave a transition context).
  public var containerView: UIView? { context?.containerView }

  /// The view controller being presented (the to side of a presentation, the from side of a dismissal): never nil,
  /// as in UIKit; its `view` is nil until the host has given the transition's context.
  public var presentedViewController: UIViewController {
    givenPresented ?? currentSession?.presentedViewController ?? UIViewController(role: .presented, session: nil)
  }

  /// The view controller that presents it (the other side): never nil, as in UIKit.
  public var presentingViewController: UIViewController {
    givenPresenting ?? currentSession?.presentingViewController ?? UIViewController(role: .presenting, session: nil)
  }

  /// The presented view: what `view(forKey:)` gives for the presented side.
  public var presentedView: UIView? {
    guard let context else { return nil }
    return context.view(forKey: context.operation.isDismissal ? .from : .to)
  }

  /// The coordinator of the running transition: alongside animations, parameters, views by id.
  public var transitionCoordinator: (any UIViewControllerTransitionCoordinator)? { context }

  /// The presented view's final frame, in container coordinates. Asked possibly several times: return the same
  /// value each time. Default: the container's bounds.
  open var frameOfPresentedViewInContainerView: CGRect { containerBoundsHint }

  /// Whether the presenter's view leaves the screen at the end of the presentation (full-screen covers). Default
  /// false. Asked before the transition starts, possibly without a transition context.
  open var shouldRemovePresentersView: Bool { false }

  /// Whether the presentation covers the whole screen. Default true, as UIKit's; the host has one container, so
  /// the answer changes nothing there.
  open var shouldPresentInFullscreen: Bool { true }

  /// Before the presentation's `animateTransition`: add chrome and start its alongside animations.
  open func presentationTransitionWillBegin() {}
  /// After the presentation ended; `completed` false = cancelled (everything is back at its start then).
  open func presentationTransitionDidEnd(_ completed: Bool) {}
  /// Before the dismissal's `animateTransition`.
  open func dismissalTransitionWillBegin() {}
  /// After the dismissal ended; remove chrome only if `completed`.
  open func dismissalTransitionDidEnd(_ completed: Bool) {}

  /// UIKit lays out the container once the transition is set up; the host's container has a fixed size, so the SDK
  /// calls this pair once per transition, right after `presentationTransitionWillBegin` (or
  /// `dismissalTransitionWillBegin`) and before `animateTransition`: the place to size chrome, as in UIKit.
  open func containerViewWillLayoutSubviews() {}
  /// See `containerViewWillLayoutSubviews()`.
  open func containerViewDidLayoutSubviews() {}

  /// The will-begin call and the container's layout pass after it.
  func transitionWillBegin(dismissal: Bool) {
    if dismissal { dismissalTransitionWillBegin() } else { presentationTransitionWillBegin() }
    containerViewWillLayoutSubviews()
    containerViewDidLayoutSubviews()
  }
}

/// The "th.presentation-controller/1" table every Swift animator with a presentation controller returns: each entry
/// finds the instance's controller and calls it as a host → plugin call.
enum PresentationControllerTable {
  /// Allocated once and never freed (the header: valid until destroy; it serves every instance).
  nonisolated(unsafe) static let pointer: UnsafeMutablePointer<th_presentation_controller> = {
    let table = UnsafeMutablePointer<th_presentation_controller>.allocate(capacity: 1)
    table.initialize(to: th_presentation_controller())
    table.pointee.struct_size = UInt32(MemoryLayout<th_presentation_controller>.size)
    table.pointee.frame_of_presented_view = { instance, ctx, bounds, out in
      guard let session = Session.from(instance), let controller = session.presentationController, let out else {
        return false
      }
      return session.enter(ctx) {
        controller.containerBoundsHint = CGRect(bounds)
        let frame = controller.frameOfPresentedViewInContainerView
        guard [frame.origin.x, frame.origin.y, frame.size.width, frame.size.height].allSatisfy(\.isFinite) else {
          session.log(TH_LOG_WARNING, "TransitionKit: frameOfPresentedViewInContainerView is not finite: \(frame)")
          return false
        }
        out.pointee = frame.th
        return true
      }
    }
    table.pointee.should_remove_presenters_view = { instance, ctx in
      guard let session = Session.from(instance), let controller = session.presentationController else { return false }
      return session.enter(ctx) { controller.shouldRemovePresentersView }
    }
    table.pointee.presentation_transition_will_begin = { instance, ctx in
      guard let session = Session.from(instance), let controller = session.presentationController else { return }
      session.enter(ctx) { controller.transitionWillBegin(dismissal: false) }
    }
    table.pointee.presentation_transition_did_end = { instance, ctx, completed in
      guard let session = Session.from(instance), let controller = session.presentationController else { return }
      session.enter(ctx) { controller.presentationTransitionDidEnd(completed) }
    }
    table.pointee.dismissal_transition_will_begin = { instance, ctx in
      guard let session = Session.from(instance), let controller = session.presentationController else { return }
      session.enter(ctx) { controller.transitionWillBegin(dismissal: true) }
    }
    table.pointee.dismissal_transition_did_end = { instance, ctx, completed in
      guard let session = Session.from(instance), let controller = session.presentationController else { return }
      session.enter(ctx) { controller.dismissalTransitionDidEnd(completed) }
    }
    return table
  }()
}
