import TransitionEngine

/// Why `PluginRegistry.makeTransition` could not set up a transition.
package enum TransitionSetupError: Error, Equatable, Sendable {
  /// 2001 / 2002: the animator id did not resolve.
  case lookup(AnimatorLookupError)
  /// 2003: the animator does not declare this operation.
  case operationNotSupported(animatorID: String, operation: String, supported: [String])
  /// -32602: a parameter does not fit the metadata.
  case invalidParams(ParameterValidationError)
  /// 2008: the plugin's `create` returned NULL.
  case creationFailed(animatorID: String)
  /// The engine refused the transition (its `TransitionError`; -32602 for `invalidValue`).
  case transition(TransitionError)

  /// The JSON-RPC error code (CONVENTIONS.md).
  package var code: Int {
    switch self {
    case .lookup(let error): error.code
    case .operationNotSupported: 2003
    case .invalidParams: -32602
    case .creationFailed: 2008
    case .transition(.invalidValue): -32602
    case .transition: 2006
    }
  }

  /// One sentence for people.
  package var message: String {
    switch self {
    case .lookup(let error): error.message
    case .operationNotSupported(let id, let operation, let supported):
      "animator \(id) does not support the operation \(operation) (it supports \(supported.joined(separator: ", ")))"
    case .invalidParams(let error): error.description
    case .creationFailed(let id): "animator \(id) misbehaved: its create returned NULL"
    case .transition(let error): error.description
    }
  }
}

extension PluginRegistry {
  /// Makes an engine animator backed by a new instance of the animator `id` (`pluginId/animatorId`, or the
  /// short id when unique). It holds a lease on the plugin's current generation until its transition ends.
  ///
  /// - Throws: `.unknown` / `.ambiguous` for the id, `.creationFailed` when the plugin's `create` returns NULL.
  package func makeAnimator(id: String) throws(AnimatorLookupError) -> PluginAnimator {
    let lease = try lease(animatorID: id)
    guard let instance = lease.makeInstance() else {
      lease.end()
      throw .creationFailed(id: lease.qualifiedID)
    }
    return PluginAnimator(resolved: lease, instance: instance, logger: logger)
  }

  /// Sets up a transition run by animator `animatorID`: checks the operation and the params against the
  /// metadata (completing them with defaults), makes the animator and the `Transition`, and attaches them.
  /// Set `onEnd` and `onMisbehavior` on the result, then `start()` it.
  package func makeTransition(
    animatorID: String, scene: Scene, from: View, to: View, operation: TransitionOperation,
    params: [String: ParameterValue] = [:], options: TransitionOptions = TransitionOptions()
  ) throws(TransitionSetupError) -> (transition: Transition, animator: PluginAnimator) {
    let resolved: ResolvedAnimator
    do { resolved = try resolve(animatorID: animatorID) } catch { throw .lookup(error) }
    let info = resolved.info
    guard info.supports(operation: operation.name) else {
      throw .operationNotSupported(
        animatorID: resolved.qualifiedID, operation: operation.name, supported: info.operations ?? [])
    }
    let checked: [String: ParameterValue]
    do { checked = try validateParams(params, against: info) } catch { throw .invalidParams(error) }
    let animator: PluginAnimator
    do { animator = try makeAnimator(id: resolved.qualifiedID) } catch {
      if case .creationFailed(let id) = error { throw .creationFailed(animatorID: id) }
      throw .lookup(error)
    }
    let transition: Transition
    do {
      transition = try Transition(
        scene: scene, from: from, to: to, operation: operation, animator: animator, params: checked,
        options: options)
    } catch {
      animator.close()
      throw .transition(error)
    }
    animator.attach(to: transition)
    return (transition, animator)
  }
}
