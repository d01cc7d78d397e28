// The scene: the container view, id allocation, the animation timeline and misuse reporting.

/// What went wrong when an animator misused the model. Reported through `Scene.onMisuse`; the offending call is
/// ignored (or, where stated, corrected) and nothing traps.
package enum SceneMisuse: Equatable, Sendable, CustomStringConvertible {
  /// A NaN or infinite value was written to a property; the value was not stored.
  case invalidValue(viewID: String, property: PropertyKey)
  /// A duration, delay, relative keyframe time or advance time that is not a finite number in range; `what`
  /// names it. The value was replaced as documented on the call (usually by 0).
  case invalidTime(what: String)
  /// A view was to become a subview of itself or of one of its descendants.
  case hierarchyCycle(viewID: String, superviewID: String)
  /// A view of another scene was to be added to this scene's tree.
  case foreignView(viewID: String)
  /// `insertSubview(_:below/aboveSubview:)` named a sibling that is not a subview.
  case notASubview(viewID: String, superviewID: String)
  /// `addKeyframe` called outside `animateKeyframes`' animations; its changes ran in the current context.
  case keyframeOutsideKeyframeBlock
  /// A driver's update wrote a NaN or infinite value (reported once per driver; the value was ignored).
  case invalidDriverValue(viewID: String, property: PropertyKey)
  /// Completions kept starting blocks that complete at once; firing stopped after `count` completions (the
  /// rest stay pending).
  case runawayCompletions(count: Int)
  /// `advance` or `fireAllPending` was called from inside a completion or an update being run by them.
  case reentrantAdvance
  /// A view's layer was passed to `addSublayer` or `insertSublayer`: a view joins a tree
  /// with `addSubview` (UIKit keeps the two in step). Ignored.
  case viewLayerAsSublayer(viewID: String)
  /// `insertSublayer(_:below/above:)` named a sibling that is not a sublayer; the layer was added on top.
  case notASublayer(layerID: String, superlayerID: String)
  /// An explicit animation named a key path the engine does not animate; it was not added.
  case unknownAnimationKeyPath(layerID: String, keyPath: String)
  /// An explicit animation's value does not have its key path's type; it was not added.
  case animationValueMismatch(layerID: String, keyPath: String)
  /// CATransaction.commit() without a matching begin(); ignored.
  case unbalancedTransactionCommit

  /// A one-line description for logs and misbehaviour reports.
  package var description: String {
    switch self {
    case .invalidValue(let id, let p): "non-finite value written to \(p.name) of view \(id)"
    case .invalidTime(let what): "invalid \(what)"
    case .hierarchyCycle(let id, let s): "adding view \(id) to \(s) would make a cycle"
    case .foreignView(let id): "view \(id) belongs to another scene"
    case .notASubview(let id, let s): "view \(id) is not a subview of \(s)"
    case .keyframeOutsideKeyframeBlock: "addKeyframe called outside animateKeyframes"
    case .invalidDriverValue(let id, let p): "driver wrote a non-finite \(p.name) to view \(id)"
    case .runawayCompletions(let n): "completions kept starting immediate blocks; stopped after \(n)"
    case .reentrantAdvance: "advance called while completions were running"
    case .viewLayerAsSublayer(let id): "view \(id)'s layer cannot be added as a sublayer; use addSubview"
    case .notASublayer(let id, let s): "layer \(id) is not a sublayer of \(s)"
    case .unknownAnimationKeyPath(let id, let k): "animation added to layer \(id) has an unknown key path \"\(k)\""
    case .animationValueMismatch(let id, let k): "animation of \(k) on layer \(id) has a value of another type"
    case .unbalancedTransactionCommit: "CATransaction.commit without begin"
    }
  }
}

/// The working storage of `Scene.presentation(at:)`: the views of the tree in traversal order and their presented
/// values. Empty between samples (its capacity stays); scenes sampled one at a time on one thread can share one.
///
/// - Important: Used by one thread at a time.
package final class PresentationScratch {
  @exclusivity(unchecked) var views: [View] = []
  @exclusivity(unchecked) var values: [AnimatableValues] = []
  /// Numbers the samples, so a view's `presentationSlot` is known to belong to the current one.
  @exclusivity(unchecked) var pass = 0

  package init() {}
}

/// Errors of `Scene.makeView(id:)`.
package enum SceneError: Error, Equatable, Sendable {
  /// The id is already used by a view of this scene (or reserved by `makeUniqueID`).
  case duplicateID(String)
  /// The id is empty.
  case invalidID(String)
}

/// A headless stand-in for a window with a transition's container view: it owns the views, allocates ids and
/// holds the animation timeline that `presentation(at:)` samples and `advance(to:)` moves.
///
/// Time is the scene's local time in seconds (a transition's timeline time), starting at 0. Every write
/// happens "at" `currentTime`. Not thread-safe: one scene is used from one thread at a time.
package final class Scene {
  /// The container view: a root sized to the container (bounds (0, 0, size), position at its centre, so its
  /// frame is (0, 0, width, height)). Container coordinates are its plane, measured from its top-left corner.
  package let container: View
  /// The current time: where writes are recorded, blocks begin and completions fire.
  package internal(set) var currentTime: Double = 0
  /// Called for every misuse (see `SceneMisuse`).
  package var onMisuse: ((SceneMisuse) -> Void)?

  /// Every view made in this scene, by id (attached or not).
  var registry: [String: View] = [:]
  /// Counts the changes of views' `content`, so a frame writer knows when to look at `viewsWithContent` again.
  package internal(set) var contentRevision = 0
  /// Ids handed out by `makeUniqueID` but not yet used by a view.
  var reservedIDs: Set<String> = []
  /// Per id hint, the suffix at which `makeUniqueID` resumes its search (every smaller one is taken).
  private var nextSuffix: [String: Int] = [:]
  /// Creation counter shared by records, blocks and drivers (ties in time are broken by it).
  var sequence = 0
  /// How many snapshots were taken, and the journals of those still alive (Snapshot.swift).
  var captureEpoch = 0
  var journals: [WeakSnapshotJournal] = []

  /// The animation contexts currently open (innermost last).
  var contexts: [AnimationContext] = []
  /// Every block ever started, by index.
  var blocks: [BlockState] = []
  /// Every driver ever added, by index.
  var drivers: [DriverState] = []
  /// Every property animator made in this scene, by index.
  var propertyAnimators: [PropertyAnimator] = []
  /// Pending completions ordered by (time, creation); stale entries are skipped (see `PendingEvent`).
  var events = EventQueue()
  /// Blocks and drivers whose completion has not fired.
  var pendingCount = 0
  /// Whether `advance`/`fireAllPending` is running completions (re-entry is refused).
  var isFiring = false
  /// Where `presentation(at:)` works: the scene's own, or one shared by scenes sampled on the same thread. Read for
  /// every node of every sample and only replaced outside one: unchecked.
  @exclusivity(unchecked) package var presentationScratch = PresentationScratch()
  /// The traversal order and presented values of the sample being computed (in `presentationScratch`).
  var scratchViews: [View] {
    get { presentationScratch.views }
    _modify { yield &presentationScratch.views }
  }
  var scratchValues: [AnimatableValues] {
    get { presentationScratch.values }
    _modify { yield &presentationScratch.values }
  }
  /// Scratch of `presentation(at:)`: each block's curve progress at the sampled time.
  let progressMemo = ProgressMemo()
  /// Set while a write must become an animation even when the matrices at both ends are equal (a transform
  /// component turning by 2π; TransformKeyPath.swift).
  var forcesAnimationRecord = false
  /// Explicit animations, transactions and layer timing (Layer+Animations.swift).
  let coreAnimation = CoreAnimationState()
  /// Every animation created, for the timeline (Timeline.swift).
  let timelineLog = TimelineLog()

  /// Creates a scene whose container has the given size (a non-finite dimension counts as 0) and id (empty:
  /// "container").
  package init(containerSize: Size, containerID: String = "container") {
    let c = View(id: containerID.isEmpty ? "container" : containerID, scene: nil, createdAt: 0)
    let size = Size(
      width: containerSize.width.isFinite ? containerSize.width : 0,
      height: containerSize.height.isFinite ? containerSize.height : 0)
    c.model.bounds = Rect(origin: .zero, size: size)
    c.model.position = Point(x: size.width / 2, y: size.height / 2)
    container = c
    c.scene = self
    registry[c.id] = c
  }

  /// Reports a misuse to `onMisuse`.
  func report(_ misuse: SceneMisuse) {
    onMisuse?(misuse)
  }

  // MARK: Views and ids

  /// An id no view of this scene uses: `hint` itself when free, else `hint-2`, `hint-3`, …; the id is reserved
  /// (a later call or `makeView(id:)` will not hand it out again). An empty hint counts as "view".
  package func makeUniqueID(hint: String) -> String {
    let base = hint.isEmpty ? "view" : hint
    // Ids are never freed (views stay registered, reservations are only used up), so the search for a hint can
    // resume where the previous one stopped: n views made with one hint cost O(n), not O(n²).
    var n = nextSuffix[base] ?? 1
    var candidate = n == 1 ? base : "\(base)-\(n)"
    while registry[candidate] != nil || reservedIDs.contains(candidate) {
      n += 1
      candidate = "\(base)-\(n)"
    }
    nextSuffix[base] = n
    reservedIDs.insert(candidate)
    return candidate
  }

  /// Makes a view with this id (not attached anywhere; CALayer's default values). Throws when the id is empty
  /// or already used. An id reserved by `makeUniqueID` may be used once.
  package func makeView(id: String) throws(SceneError) -> View {
    guard !id.isEmpty else { throw .invalidID(id) }
    guard registry[id] == nil else { throw .duplicateID(id) }
    reservedIDs.remove(id)
    let v = View(id: id, scene: self, createdAt: currentTime)
    registry[id] = v
    return v
  }

  /// Makes a view with a fresh id derived from `hint` (see `makeUniqueID(hint:)`).
  package func makeView(hint: String) -> View {
    let id = makeUniqueID(hint: hint)
    reservedIDs.remove(id)
    let v = View(id: id, scene: self, createdAt: currentTime)
    registry[id] = v
    return v
  }

  /// The view of this scene with this id, attached or not.
  package func view(withID id: String) -> View? {
    registry[id]
  }

  /// Runs `changes` with animations disabled (UIView.performWithoutAnimation): writes are immediate even
  /// inside an animation block.
  package func performWithoutAnimation(_ changes: () -> Void) {
    contexts.append(.immediate)
    changes()
    contexts.removeLast()
  }
}
