// Interaction controllers: the animator's UIViewControllerInteractiveTransitioning, which receives a pan gesture's
// samples and decides, through the percent-driven interaction (Transition+Interaction.swift), how the transition
// moves. The engine only carries the samples: recognizers, hit-testing and target–action belong to the animator's
// side (the SDK), as touches belong to the app in UIKit.

/// One sample of a one-finger pan, as a client measured it: `location` and `translation` (the movement since the
/// gesture began) in container points, `velocity` in container points per second.
package struct GestureSample: Equatable, Sendable {
  /// UIGestureRecognizer.State's began, changed, ended and cancelled, by their protocol names.
  package enum State: String, CaseIterable, Sendable {
    case began
    case changed
    case ended
    case cancelled
  }

  package var state: State
  package var location: Point
  package var translation: Point
  package var velocity: Point

  package init(state: State, location: Point, translation: Point = .zero, velocity: Point = .zero) {
    self.state = state
    self.location = location
    self.translation = translation
    self.velocity = velocity
  }
}

/// What became of a gesture sample.
package enum GestureDelivery: Equatable, Sendable {
  /// `recognizers` gesture recognizers (at least one) received it.
  case received(recognizers: Int)
  /// The interaction controller has no gesture recognizer on any view of the transition.
  case noRecognizers
  /// A began sample that no enabled recognizer on the hit view or its superviews took.
  case notHit
  /// A changed, ended or cancelled sample while no gesture is in progress.
  case notInProgress

  /// How many recognizers received the sample; nil when none did.
  package var recognizers: Int? {
    if case .received(let count) = self { count } else { nil }
  }
}

/// The interaction controller of one transition (UIKit's `UIViewControllerInteractiveTransitioning`, as the
/// transitioning or navigation delegate vends it).
package protocol InteractionControllerBehavior: AnyObject {
  /// Whether the transition should start held at 0 (`wantsInteractiveStart`, UIKit's default true). Followed only
  /// when the client left the choice to the controller (`TransitionOptions.interactivityFromController`).
  var wantsInteractiveStart: Bool { get }

  /// Hands one sample to the controller's gesture recognizers: a began sample to one on `hitView` (the view the
  /// location hits on screen, `Scene.hitTest`; nil outside every view) or its superviews, later samples to the one
  /// that took the gesture (`hitView` nil). Called inside a transition call, so the recognizers' actions may
  /// update, finish, cancel or pause the transition, and animate.
  func deliverGesture(_ sample: GestureSample, hitView: View?, context: TransitionContext) -> GestureDelivery
}

extension Transition {
  /// Delivers a gesture sample to the transition's interaction controller.
  /// - Throws: `notStarted`, `ended`; `noInteractionController` when the animator vended none for this transition;
  ///   `invalidValue` naming the field for a non-finite number.
  package func deliverGesture(_ sample: GestureSample) throws(TransitionError) -> GestureDelivery {
    try requireActive()
    for (field, point) in [("location", sample.location), ("translation", sample.translation)]
    where !(point.x.isFinite && point.y.isFinite) {
      throw .invalidValue(field: field, reason: "must have finite x and y")
    }
    guard sample.velocity.x.isFinite, sample.velocity.y.isFinite else {
      throw .invalidValue(field: "velocity", reason: "must have finite x and y")
    }
    guard let controller = interactionController else { throw .noInteractionController }
    let hitView = sample.state == .began ? scene.hitTest(sample.location, at: time) : nil
    var delivery = GestureDelivery.notHit
    isDeliveringGesture = true
    callout { delivery = controller.deliverGesture(sample, hitView: hitView, context: context) }
    isDeliveringGesture = false
    processRequestedEnd()
    checkNeverCompleted()
    return delivery
  }
}

extension Scene {
  /// UIKit's hit-testing (`hitTest(_:with:)`) of a point in container coordinates against what is on screen at
  /// `time` (the presented values, which are what a client draws and touches): from the container down, front to
  /// back among subviews, the deepest view whose bounds contain the point. A hidden view, one with alpha < 0.01 and
  /// one with user interaction disabled take no touches, and neither does their subtree; a subview outside its
  /// superview's bounds is never found (UIKit tests the superview first). nil when no view contains the point.
  package func hitTest(_ point: Point, at time: Double) -> View? {
    var states: [ObjectIdentifier: ViewState] = [:]
    var views: [String: View] = [:]
    for view in allViewsInContainer() { views[view.id] = view }
    for state in presentation(at: time) {
      if let view = views[state.id] { states[ObjectIdentifier(view)] = state }
    }
    func visit(_ view: View) -> View? {
      guard view.isUserInteractionEnabled, let state = states[ObjectIdentifier(view)], !state.isHidden,
        state.alpha >= 0.01,
        let local = state.worldTransform.planeHomography.inverted()?.map(point),
        local.x >= 0, local.y >= 0, local.x < state.bounds.size.width, local.y < state.bounds.size.height
      else { return nil }
      for subview in view.subviews.reversed() {
        if let hit = visit(subview) { return hit }
      }
      return view
    }
    return visit(container)
  }

  /// The container and every view under it.
  private func allViewsInContainer() -> [View] {
    var out: [View] = [container]
    var index = 0
    while index < out.count {
      out.append(contentsOf: out[index].subviews)
      index += 1
    }
    return out
  }
}
