import TransitionEngine

extension PluginRegistry {
  /// Makes an engine animator backed by a new instance of the animator `id` (`pluginId/animatorId`, or the
  /// short id when unique). It holds a lease on the plugin's current generation until its transition ends.
  ///
  /// Transitions are made by the transition service (its `TransitionFactory`), which checks the operation and the
  /// params against the metadata first and binds the animator to its transition.
  ///
  /// - Throws: `.unknown` / `.ambiguous` for the id, `.creationFailed` when the plugin's `create` returns NULL.
  package func makeAnimator(id: String, forScene: Bool = false) throws(AnimatorLookupError) -> PluginAnimator {
    let lease = try lease(animatorID: id)
    guard let instance = lease.makeInstance() else {
      lease.end()
      throw .creationFailed(id: lease.qualifiedID)
    }
    return PluginAnimator(resolved: lease, instance: instance, logger: logger, forScene: forScene)
  }
}
