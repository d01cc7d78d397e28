// Where transitions get their animators: the loaded plugins in the host (their animators bound to the engine
// through the host API), Swift animators in tests. The protocol layer only sees metadata and engine animators.

import PluginHost
import TransitionEngine

/// One animator as `animators/list` shows it and `transition/start` checks against.
package struct AnimatorEntry {
  /// `pluginId/animatorId`.
  package var qualifiedID: String
  /// The id of the plugin that provides it.
  package var pluginID: String
  /// Its metadata: name, description, operations, parameters.
  package var info: AnimatorInfo

  package init(qualifiedID: String, pluginID: String, info: AnimatorInfo) {
    self.qualifiedID = qualifiedID
    self.pluginID = pluginID
    self.info = info
  }
}

/// An animator instance for one transition.
///
/// The engine animator holds whatever keeps its code loaded (a plugin generation's lease): dropping the last
/// reference to it, after the transition ended, is what lets a reloaded or unloaded plugin go.
package struct AnimatorBinding {
  package var entry: AnimatorEntry
  package var animator: any TransitionAnimator
  /// Called with the transition once it exists and before it starts (a plugin animator binds its context).
  package var attach: (Transition) -> Void
  /// Called when the transition could not be made after all: the animator will never run.
  package var discard: () -> Void

  package init(
    entry: AnimatorEntry, animator: any TransitionAnimator, attach: @escaping (Transition) -> Void = { _ in },
    discard: @escaping () -> Void = {}
  ) {
    self.entry = entry
    self.animator = animator
    self.attach = attach
    self.discard = discard
  }
}

/// Why an animator could not be made for a transition.
package enum AnimatorInstantiationError: Error {
  /// The id named no animator, or several (2001, 2002).
  case lookup(AnimatorLookupError)
  /// The plugin could not make an instance (its `create` returned NULL): 2008.
  case refused(entry: AnimatorEntry, reason: String)
}

/// The animators transitions can use.
///
/// - Important: Used on the host thread only.
package protocol AnimatorCatalog: AnyObject {
  /// Every available animator, in a stable order (plugins in load order, then declaration order).
  var entries: [AnimatorEntry] { get }

  /// The animator `id` names: `pluginId/animatorId`, or a short `animatorId` that only one plugin has.
  func entry(for id: String) throws(AnimatorLookupError) -> AnimatorEntry

  /// A new instance of the animator `id` names, for one transition.
  func instantiate(_ id: String) throws(AnimatorInstantiationError) -> AnimatorBinding
}

/// The loaded plugins' animators, run through the plugin host's engine binding (`PluginAnimator`).
package final class PluginAnimatorCatalog: AnimatorCatalog {
  package let registry: PluginRegistry

  package init(registry: PluginRegistry) {
    self.registry = registry
  }

  package var entries: [AnimatorEntry] {
    registry.animators.map {
      AnimatorEntry(qualifiedID: $0.qualifiedID, pluginID: $0.generation.info.id, info: $0.info)
    }
  }

  package func entry(for id: String) throws(AnimatorLookupError) -> AnimatorEntry {
    let resolved = try registry.resolve(animatorID: id)
    return AnimatorEntry(qualifiedID: resolved.qualifiedID, pluginID: resolved.generation.info.id, info: resolved.info)
  }

  package func instantiate(_ id: String) throws(AnimatorInstantiationError) -> AnimatorBinding {
    let animator: PluginAnimator
    do {
      animator = try registry.makeAnimator(id: id)
    } catch {
      if case .creationFailed(let qualifiedID) = error, let entry = try? entry(for: qualifiedID) {
        throw .refused(entry: entry, reason: "its create returned NULL")
      }
      throw .lookup(error)
    }
    let entry = AnimatorEntry(
      qualifiedID: animator.animatorID, pluginID: animator.generation.info.id, info: animator.info)
    return AnimatorBinding(
      entry: entry, animator: animator, attach: { [unowned animator] in animator.attach(to: $0) },
      discard: { [unowned animator] in animator.close() })
  }
}
