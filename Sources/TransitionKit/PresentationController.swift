internal import CTransitionABI

/// UIPresentationController for an animator's presentations and dismissals (and segues and unwinds): subclass it,
/// override what UIKit lets you override, and return an instance from the animator's
/// `makePresentationController()`. The SDK offers it to the host as the "th.presentation-controller/1" extension.
///
/// One controller serves one transition, presentation or dismissal (the host makes an animator instance per
/// transition). Chrome such as a dimming view is an ordinary view: make it in `presentationTransitionWillBegin` with
/// a stable id (`UIView(frame:id:)`) so that the dismissal's controller finds it with `containerView.viewWithID`,
/// and animate it with `transitionCoordinator?.animate(alongsideTransition:)`.
open class UIPresentationController {
  /// The session of the transition; set by the SDK before every call.
  weak var session: Session?
  /// The container bounds the host passed with its frame question.
  var containerBoundsHint = CGRect.zero

  public init() {}

  var context: TransitionContext? {
    guard let session, session.hasContext else { return nil }
    return session.context
  }

  /// The container view of the transition (nil before the host gave a transition context).
  public var containerView: UIView? { context?.containerView }

  /// The view controller being presented (the to side of a presentation, the from side of a dismissal).
  public var presentedViewController: UIViewController? {
    guard let context else { return nil }
    return context.viewController(forKey: context.operation.isDismissal ? .from : .to)
  }

  /// The view controller that presents it (the other side).
  public var presentingViewController: UIViewController? {
    guard let context else { return nil }
    return context.viewController(forKey: context.operation.isDismissal ? .to : .from)
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

  /// Before the presentation's `animateTransition`: add chrome and start its alongside animations.
  open func presentationTransitionWillBegin() {}
  /// After the presentation ended; `completed` false = cancelled (everything is back at its start then).
  open func presentationTransitionDidEnd(_ completed: Bool) {}
  /// Before the dismissal's `animateTransition`.
  open func dismissalTransitionWillBegin() {}
  /// After the dismissal ended; remove chrome only if `completed`.
  open func dismissalTransitionDidEnd(_ completed: Bool) {}
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
      session.enter(ctx) { controller.presentationTransitionWillBegin() }
    }
    table.pointee.presentation_transition_did_end = { instance, ctx, completed in
      guard let session = Session.from(instance), let controller = session.presentationController else { return }
      session.enter(ctx) { controller.presentationTransitionDidEnd(completed) }
    }
    table.pointee.dismissal_transition_will_begin = { instance, ctx in
      guard let session = Session.from(instance), let controller = session.presentationController else { return }
      session.enter(ctx) { controller.dismissalTransitionWillBegin() }
    }
    table.pointee.dismissal_transition_did_end = { instance, ctx, completed in
      guard let session = Session.from(instance), let controller = session.presentationController else { return }
      session.enter(ctx) { controller.dismissalTransitionDidEnd(completed) }
    }
    return table
  }()
}
