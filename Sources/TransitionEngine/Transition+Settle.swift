// How a transition ends: the animator's completeTransition, the host's terminate/fail, and the detection of an
// animator that never completes; then settling (completed) or restoring the start (anything else).

extension Transition {
  /// Ends the transition at once as cancelled with `reason` (the host's SIGTERM or closed input): time goes back to
  /// 0, pending completions fire (finished = false: they were cut short) so the animator can clean up, then the
  /// start state is restored. Does nothing once ended. Called from inside an animator callback, it takes effect when
  /// that callback returns.
  package func terminate(reason: String) {
    requestAbruptEnd(.cancelled(reason: reason))
  }

  /// Ends the transition at once as failed with `reason` (for example "animatorMisbehaved" or "pluginUnloaded"),
  /// restored like `terminate(reason:)`. Does nothing once ended.
  package func fail(reason: String) {
    requestAbruptEnd(.failed(reason: reason))
  }

  private func requestAbruptEnd(_ outcome: TransitionOutcome) {
    switch state {
    case .ended:
      return
    case .idle where calloutDepth == 0:
      // Nothing ran yet: no animator callback is owed.
      state = .ended(outcome)
      notifyEnd(outcome)
    default:
      // Also while `start()` asks the animator or the presentation controller (state still idle): the end waits
      // until `start()` has left idle, or it would end here and `start()` would then run the transition anyway.
      if requestedAbruptEnd == nil { requestedAbruptEnd = outcome }
      processRequestedEnd()
    }
  }

  /// The context's `completeTransition`.
  func animatorDidComplete(_ didComplete: Bool) {
    if case .idle = state {
      report(.wrongPhase, "completeTransition(\(didComplete)) before the transition started; ignored")
      return
    }
    completionCalls += 1
    if completionCalls > 1 {
      report(.completedTwice, "completeTransition(\(didComplete)) called again (call \(completionCalls)); ignored")
      return
    }
    if state.isEnded {
      report(.callAfterCompletion, "completeTransition(\(didComplete)) after the transition had ended; ignored")
      return
    }
    requestedCompletion = didComplete
    processRequestedEnd()
  }

  /// Acts on a requested end, unless a callback is in progress (then the callout that returns last does it).
  func processRequestedEnd() {
    guard calloutDepth == 0, !isEnding else { return }
    switch state {
    case .idle, .ended: return
    default: break
    }
    if let outcome = requestedAbruptEnd {
      isEnding = true
      motion = .still
      transitionWasCancelled = true
      isInteractive = false
      moveTime(to: 0)
      calloutDepth += 1
      scene.fireAllPending(finished: false)
      calloutDepth -= 1
      end(completed: false, outcome: outcome)
      isEnding = false
    } else if let didComplete = requestedCompletion {
      isEnding = true
      end(completed: didComplete, outcome: didComplete ? .completed : .cancelled(reason: nil))
      isEnding = false
    }
  }

  /// Fails the transition when its animator let all work end without completing it: time is at its end (τ ≥ D
  /// going forward, or back at 0 after a cancel) and the scene has no animation, driver or completion left.
  func checkNeverCompleted() {
    guard calloutDepth == 0, !isEnding, requestedCompletion == nil, requestedAbruptEnd == nil else { return }
    let atEnd: Bool
    switch motion {
    case .play: atEnd = time >= duration
    case .drain: atEnd = true
    case .still, .tail: atEnd = false
    }
    guard atEnd, !state.isEnded, !scene.hasPendingWork, !hasRunningDisplayLinks else { return }
    isEnding = true
    report(.neverCompleted, "all animations and completions ended without a call to completeTransition")
    if !state.isEnded { end(completed: false, outcome: .failed(reason: "neverCompleted")) }
    isEnding = false
  }

  /// Settles (completed) or restores (anything else), tells the presentation controller and the animator, then the
  /// host. The state is `.ended` before any of these callbacks, so calls they make are refused or reported.
  /// Animations of a completed transition that run on past its end are left in the scene as they are.
  private func end(completed: Bool, outcome: TransitionOutcome) {
    state = .ended(outcome)
    for link in displayLinks { link.invalidate() }  // no more frames: the links' callbacks are let go
    displayLinks = []
    motion = .still
    isInteractive = false
    if completed {
      transitionWasCancelled = false
      if duration == 0 || time >= duration { zeroDurationPercent = 1 }
      settleHierarchy()
      calloutDepth += 1
      presentationDidEnd(true)
      animator.animationEnded(true)
      calloutDepth -= 1
    } else {
      transitionWasCancelled = true
      restoreStart()
      calloutDepth += 1
      presentationDidEnd(false)
      animator.animationEnded(false)
      calloutDepth -= 1
      // A cancelled transition leaves everything as it started, whatever the end callbacks did.
      restoreStart()
    }
    notifyEnd(outcome)
  }

  func notifyEnd(_ outcome: TransitionOutcome) {
    guard let onEnd else { return }
    self.onEnd = nil
    calloutDepth += 1
    onEnd(outcome)
    calloutDepth -= 1
  }

  private func presentationDidEnd(_ completed: Bool) {
    switch operation.kind {
    case .presentation: presentationController?.presentationTransitionDidEnd(completed)
    case .dismissal: presentationController?.dismissalTransitionDidEnd(completed)
    case .navigation: break
    }
  }

  /// The hierarchy after completion (CONVENTIONS, "Which views are where"): the to root in the container (added on
  /// top, or at the bottom for a dismissal, when the animator did not add it); the from root removed for dismissals,
  /// navigation, and presentations whose controller removes the presenter's view, otherwise kept (put back at the
  /// bottom if the animator took it out).
  private func settleHierarchy() {
    let container = scene.container
    switch operation.kind {
    case .presentation:
      if !toRoot.isDescendant(of: container) { container.addSubview(toRoot) }
      if removesPresentersView {
        fromRoot.removeFromSuperview()
      } else if !fromRoot.isDescendant(of: container) {
        container.insertSubview(fromRoot, at: 0)
      }
    case .dismissal:
      fromRoot.removeFromSuperview()
      if !toRoot.isDescendant(of: container) { container.insertSubview(toRoot, at: 0) }
    case .navigation:
      fromRoot.removeFromSuperview()
      if !toRoot.isDescendant(of: container) { container.addSubview(toRoot) }
    }
  }

  /// Every view's properties and the hierarchy as they were at the start; no animation left; time 0.
  private func restoreStart() {
    // Whatever is still pending belongs to the abandoned run: it must neither fire later nor keep presenting.
    scene.discardPendingWork()
    if let initialSnapshot { scene.restore(initialSnapshot, hierarchy: true) }
    moveTime(to: 0)
    zeroDurationPercent = 0
  }
}
