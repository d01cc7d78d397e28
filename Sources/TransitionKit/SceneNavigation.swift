// Navigation stacks and storyboard segues in a scene (Protocol.md, "Scenes"): `pushViewController` and
// `popViewController` of a scene's navigation controller start the push or pop with the navigation controller's
// delegate, and `performSegue(withIdentifier:sender:)` runs the declaration's segue — `prepare(for:sender:)` on the
// source, then the segue's `perform()` (operation `segue`), its unwind (operation `unwind`) or a show — each through
// the one start path the scene's present and dismiss use (`Session.startSceneTransition`).

internal import CTransitionABI

extension UINavigationController {
  /// Pushes `viewController`: in a scene, the push runs with the delegate's animator and interaction controller
  /// (`navigationController(_:animationControllerFor:from:to:)`); the stack has it on top at once, and loses it
  /// again if the push is cancelled. Elsewhere (a transition's navigation controller) it is logged and ignored.
  public func pushViewController(_ viewController: UIViewController, animated: Bool) {
    let call = "pushViewController(_:animated:)"
    guard role == .app, let session, session.sceneState != nil else {
      return refuseInScene(call, "not a navigation controller of a scene")
    }
    guard let top = sceneStack.last else { return refuseInScene(call, "its stack is empty") }
    guard viewController.role == .app, viewController.session === session,
      !sceneStack.contains(where: { $0 === viewController }), viewController.scene.presenting == nil
    else {
      return refuseInScene(call, "\(viewController) is not a controller of this scene to push")
    }
    guard let source = navigationSource(call) else { return }
    // UIKit sets the pushed controller's navigationController before its view loads (viewDidLoad may use it).
    let previous = viewController.scene.navigation
    viewController.scene.navigation = self
    guard let from = top.view, let to = viewController.view else {
      viewController.scene.navigation = previous
      return refuseInScene(call, "a view is missing")
    }
    sceneStack.append(viewController)
    let change = SceneTransition(
      operation: .push, animated: animated, disappearing: top, appearing: viewController
    ) { [weak self] completed in
      guard !completed, let self else { return }
      sceneStack.removeAll { $0 === viewController }
      viewController.scene.navigation = previous
    }
    session.startSceneTransition(
      from: from, to: to, source: source, asksPresentationController: false, running: change)
    if session.sceneState?.running == nil {
      // The host refused it: the stack stays as it was.
      sceneStack.removeLast()
      viewController.scene.navigation = previous
    }
  }

  /// Pops the top controller and returns it: in a scene, the pop runs with the delegate's animator and
  /// interaction controller; the stack loses the top at once and gets it back if the pop is cancelled. Nil (nothing
  /// popped) with only the root on the stack, as in UIKit, or outside a scene.
  @discardableResult
  public func popViewController(animated: Bool) -> UIViewController? {
    let call = "popViewController(animated:)"
    guard role == .app, let session, session.sceneState != nil else {
      refuseInScene(call, "not a navigation controller of a scene")
      return nil
    }
    guard sceneStack.count >= 2 else { return nil }
    guard let source = navigationSource(call) else { return nil }
    let top = sceneStack[sceneStack.count - 1]
    let below = sceneStack[sceneStack.count - 2]
    guard let from = top.view, let to = below.view else {
      refuseInScene(call, "a view is missing")
      return nil
    }
    sceneStack.removeLast()
    let change = SceneTransition(operation: .pop, animated: animated, disappearing: top, appearing: below) {
      [weak self] completed in
      guard !completed, let self else { return }
      sceneStack.append(top)
    }
    session.startSceneTransition(
      from: from, to: to, source: source, asksPresentationController: false, running: change)
    guard session.sceneState?.running != nil else {
      sceneStack.append(top)
      return nil
    }
    return top
  }

  /// The source of a push or pop: the delegate; nil (logged) without one, or while a transition of the scene runs.
  private func navigationSource(_ call: String) -> AnimatorSource? {
    guard session?.sceneState?.running == nil else {
      refuseInScene(call, "a transition of this scene is still running")
      return nil
    }
    guard let delegate else {
      refuseInScene(
        call, "it has no delegate (UIKit would run its own slide; this host runs plugins' animators only)")
      return nil
    }
    return .navigationDelegate(delegate)
  }
}

extension UIViewController {
  /// Runs the declaration's segue `identifier` (`viewControllers(_:storyboard:segues:)`): its destination is
  /// instantiated from the storyboard, `prepare(for:sender:)` is called on this controller, then a custom segue runs
  /// its `perform()` (operation `segue`), an unwind its unwind class back to the presenting controller (operation
  /// `unwind`), and a show segue shows the destination (`show(_:sender:)`). UIKit raises NSInvalidArgumentException
  /// for an identifier the storyboard lacks; here it is reported (the host's log, error level) and nothing runs.
  public func performSegue(withIdentifier identifier: String, sender: Any?) {
    let call = "performSegue(withIdentifier: \"\(identifier)\", sender:)"
    guard role == .app, let session, let state = session.sceneState else {
      return refuseInScene(call, "outside its scene")
    }
    guard let kind = state.declaration.segues[identifier] else {
      session.log(
        TH_LOG_ERROR,
        "TransitionKit: NSInvalidArgumentException: Receiver (\(self)) has no segue with identifier '\(identifier)' "
          + "(the declaration's segues: \(state.declaration.segues.keys.sorted()))")
      return
    }
    guard state.running == nil else {
      return refuseInScene(call, "a transition of this scene is still running")
    }
    switch kind {
    case .show(let destinationID):
      let destination = state.storyboard.instantiateViewController(withIdentifier: destinationID)
      prepare(for: UIStoryboardSegue(identifier: identifier, source: self, destination: destination), sender: sender)
      show(destination, sender: sender)
    case .custom(let destinationID):
      guard let segues = session.declaredSegues(call) else { return }
      let destination = state.storyboard.instantiateViewController(withIdentifier: destinationID)
      prepare(for: segues.perform(identifier, self, destination), sender: sender)
      guard destination.scene.presenting == nil, scene.presented == nil, let from = view, let to = destination.view
      else {
        return refuseInScene(call, "\(destination) cannot be presented from here")
      }
      let animator = SegueAnimator(
        duration: segues.duration, identifier: identifier, perform: segues.perform, unwind: nil)
      session.startSceneTransition(
        from: from, to: to, source: .animator(animator, presentationController: { nil }),
        asksPresentationController: false,
        running: presentation(.segue, of: destination, animated: true, completion: nil))
    case .unwind:
      guard let segues = session.declaredSegues(call) else { return }
      guard let unwind = segues.unwind else {
        return refuseInScene(call, "the export declares no unwind segue class")
      }
      guard let presenter = scene.presenting, let from = view, let to = presenter.view else {
        return refuseInScene(call, "no controller presented \(self) (an unwind goes back to its presenter)")
      }
      prepare(for: unwind(identifier, self, presenter), sender: sender)
      let animator = SegueAnimator(duration: segues.duration, identifier: identifier, perform: unwind, unwind: unwind)
      session.startSceneTransition(
        from: from, to: to, source: .animator(animator, presentationController: { nil }),
        asksPresentationController: false,
        running: Self.dismissal(.unwind, of: self, to: presenter, animated: true, completion: nil))
    }
  }
}

extension Session {
  /// The segue classes of the scene's export (a `.segue` export), for a custom segue or an unwind; nil (logged) for
  /// another export.
  fileprivate func declaredSegues(_ call: String) -> SegueAnimator? {
    if case .animator(let animator as SegueAnimator, _) = source { return animator }
    log(
      TH_LOG_ERROR,
      "TransitionKit: \(call): the scene's export is not a segue export (TransitionPluginExport.segue), so it has no "
        + "UIStoryboardSegue class to perform; ignored")
    return nil
  }
}
