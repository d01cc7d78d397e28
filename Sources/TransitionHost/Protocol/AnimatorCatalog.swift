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

  package init(entry: AnimatorEntry, animator: any TransitionAnimator) {
    self.entry = entry
    self.animator = animator
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
