// UIViewPropertyAnimator: animations whose progress an object owns, so they can be paused, scrubbed, reversed and
// continued with other timing — UIKit's interruptible animation, on the scene's timeline.

/// The timing of a property animator (UIKit's `UITimingCurveProvider`): a cubic curve, or a spring in one of its
/// three forms. Unlike `AnimationTiming` it keeps the form, because a damping-ratio spring is rebuilt for every
/// length it runs over (UIKit makes it last the animator's duration, and a continuation's remaining time).
package enum PropertyAnimatorTiming: Hashable, Sendable {
  /// `UICubicTimingParameters`: a timing curve over the run's length.
  case curve(TimingCurve)
  /// `UISpringTimingParameters(dampingRatio:initialVelocity:)`: a UIKit spring lasting exactly the run's length.
  case dampingRatio(Double, initialVelocity: Double)
  /// `UISpringTimingParameters(mass:stiffness:damping:initialVelocity:)`: lasts its settling duration, whatever the
  /// animator's duration ("the duration is computed assuming a small settling oscillation").
  case physical(mass: Double, stiffness: Double, damping: Double, initialVelocity: Double)
  /// `UISpringTimingParameters(duration:bounce:initialVelocity:)`: `duration` is perceptual; lasts its settling
  /// duration.
  case bounce(duration: Double, bounce: Double, initialVelocity: Double)

  /// The engine timing and the length of a run of `length` seconds with this timing: a curve and a damping-ratio
  /// spring take `length`; the physical and bounce springs their own settling duration.
  package func resolved(length: Double) -> (timing: AnimationTiming, length: Double) {
    switch self {
    case .curve(let curve):
      return (.curve(curve), length)
    case .dampingRatio(let ratio, let velocity):
      guard length > 0 else { return (.curve(.linear), 0) }
      return (.spring(Spring(dampingRatio: ratio, initialVelocity: velocity, duration: length)), length)
    case .physical(let m, let k, let c, let v):
      let spring = Spring(mass: m, stiffness: k, damping: c, initialVelocity: v)
      return (.spring(spring), spring.duration)
    case .bounce(let d, let b, let v):
      let spring = Spring(duration: d, bounce: b, initialVelocity: v)
      return (.spring(spring), spring.duration)
    }
  }

  /// Whether the form decides its own length (the animator's duration is ignored).
  package var hasOwnLength: Bool {
    switch self {
    case .curve, .dampingRatio: false
    case .physical, .bounce: true
    }
  }
}

/// UIViewAnimatingState.
package enum PropertyAnimatorState: Int, Hashable, Sendable {
  /// Not started, or finished: its animations are not (or no longer) applied.
  case inactive = 0
  /// Started or paused: its animations present its progress.
  case active = 1
  /// Stopped with `stopAnimation(false)`: values held where they were; `finishAnimation(at:)` ends it.
  case stopped = 2
}

/// UIViewAnimatingPosition: where an animator ended.
package enum AnimatingPosition: Int, Hashable, Sendable {
  case end = 0
  case start = 1
  case current = 2
}

/// Why a property animator refused a call (UIKit raises an exception; the engine changes nothing and says why).
package enum PropertyAnimatorError: Error, Hashable, Sendable {
  /// The call is not allowed in the animator's state (`finishAnimation` unless stopped, `startAnimation` when
  /// stopped, `isInterruptible` set while active, …); `reason` says which rule.
  case wrongState(String)
  /// A number that is not finite or out of its range; `field` names it.
  case invalidValue(field: String, reason: String)
}

/// A property animator (UIKit's `UIViewPropertyAnimator`) living in a scene.
///
/// **Progress.** Each group of animations (`addAnimations(_:delayFactor:)`) animates the properties written in it
/// from their on-screen values to the written ones; its progress p ∈ [0, 1] (springs may overshoot) blends them. A
/// group has a window [a, 1] of the animator's fraction: a = delayFactor for groups added before the start, and
/// a = F + delayFactor·(1 − F) for a group added at fraction F of a started animator (UIKit: the delay is
/// delayFactor × the remaining duration, and the group lasts the rest).
///
/// **Runs.** A run moves every group from its progress at the run's start toward 1 (forward) or 0 (reversed) along
/// the animator's timing over the run's length. `startAnimation` from inactive runs over `duration` (groups start
/// after their delay); `continueAnimation(timing:durationFactor:)` runs from where the groups are, over
/// durationFactor × the remaining duration ((1 − F)·duration forward, F·duration reversed), with the new timing
/// (nil keeps the current one), as if the animation had started at its current position; a physical or bounce
/// spring lasts its own settling duration. `fractionComplete` F moves linearly in time during a run.
///
/// **Pausing and scrubbing.** A paused animator holds its groups where they are. Setting `fractionComplete` then
/// maps F to each group's progress linearly over its window when `scrubsLinearly` (the default), else through the
/// timing curve. Pausing a run sets F to the progress of a group starting at 0 when scrubbing linearly (the value
/// on screen, so the first scrub does not jump), else to the time fraction. (UIKit documents neither mapping at the
/// pause; these are the engine's choices, docs/writing-plugins.md.)
///
/// **Ending.** At the end of a run the completions run with `.end` (or `.start` when reversed) and the animator
/// becomes inactive, leaving the model at the end (or start) values — unless `pausesOnCompletion`, where it stays
/// active and paused. `stopAnimation(true)` leaves every property at its on-screen value and goes inactive without
/// completions; `stopAnimation(false)` does the same but goes to stopped, and `finishAnimation(at:)` then sets the
/// values of that position and runs the completions with it.
///
/// Runs are scheduled on the scene's timeline, so a transition's clock (manual, virtual or real) moves them and
/// their completions fire in `Scene.advance(to:)` in time order with blocks and drivers.
///
/// **Layer timing.** As on iOS, where a property animator's animations are CAAnimations on the views' layers, each
/// animation sees its layer's local time (`View.timeMap`, composed down the tree): a run's animations are added to
/// their layers when the run begins (a group added to a running animator, when it is added), so on a layer whose
/// time runs at speed s they advance s times as fast, on a paused one they stand still, and a layer's timeOffset
/// moved on carries them. `fractionComplete` stays the animator's own clock. A paused animator holds its animations
/// in their own time (a CAAnimation at speed 0 with a timeOffset), so what it shows, scrubbed or held, does not
/// depend on its layers' timing. A run ends, and its completions run, when the last of its animations ends in its
/// layer's time (iOS ends the animator from its animations' `animationDidStop`): later than its own clock on a slow
/// layer, never while a layer holds one (until it resumes or the transition ends), earlier on fast layers. Each
/// (group, layer) pair is a lane; at default timing every lane's clock is the timeline's and nothing here applies. Sampling an earlier time
/// shows the animator's latest run extended backward (its state before a pause or continuation is not kept).
package final class PropertyAnimator {
  /// One `addAnimations` group.
  package final class Group {
    unowned let animator: PropertyAnimator
    /// The group's block in `Scene.blocks` (its records' owner), −1 until its animations ran.
    var block = -1
    /// Where its window starts, in fractions of the animator (see the type's "Progress").
    var windowStart: Double
    /// The closure, until the animator becomes active and runs it.
    var animations: (() -> Void)?
    /// The properties its animations wrote.
    var touched: [(view: View, key: PropertyKey)] = []
    /// The layers its animations run on (indices in the animator's `lanes`), each once.
    var lanes: [Int] = []

    init(animator: PropertyAnimator, windowStart: Double, animations: @escaping () -> Void) {
      self.animator = animator
      self.windowStart = windowStart
      self.animations = animations
    }

    /// The group's progress at scene time t as its animations on the layer of `lane` show it.
    func progress(at t: Double, lane: Int) -> Double { animator.progress(of: self, lane: lane, at: t) }
  }

  /// How a group moves during a run: from `from` toward the run's target, starting at `begin` for `length`.
  struct GroupRun {
    var from: Double
    var begin: Double
    var length: Double
    /// When the run's animations of the group were added to their layers (the run's creation, or the group's when
    /// added to a running animator): the instant the lanes' clocks are anchored at.
    var anchor: Double = 0
    /// The lanes whose start differs from the group's (a layer whose local time at `anchor` is not the timeline's,
    /// or whose progress then was not `from`); empty at default timing.
    var lanes: [Int: LaneStart] = [:]
  }

  /// Where one lane (the group's animations on one layer) starts a run: its progress, and its layer's local time at
  /// the group run's `anchor`.
  struct LaneStart {
    var from: Double
    var local: Double
  }

  /// A group's animations on one layer.
  struct LaneKey: Hashable {
    var group: ObjectIdentifier
    var lane: Int
  }

  /// What the animator's progress does.
  enum Motion {
    /// Not moving: each group's progress is fixed (`held`, by group; `onLanes` where a layer's timing had taken it
    /// elsewhere) until `fractionComplete` is set, and then follows the scrub mapping.
    case paused(held: [ObjectIdentifier: Double]?, onLanes: [LaneKey: Double] = [:])
    /// A run toward `target` (1 forward, 0 reversed).
    case running(Run)
  }

  struct Run {
    var start: Double
    var end: Double
    var startFraction: Double
    var target: Double
    var timing: AnimationTiming
    var groups: [ObjectIdentifier: GroupRun]
  }

  package let scene: Scene
  /// The index in `Scene.propertyAnimators`.
  let index: Int
  /// The duration given at creation (the settling duration for physical and bounce springs).
  package private(set) var duration: Double
  /// The timing of the next run (continuations may replace it).
  package private(set) var timing: PropertyAnimatorTiming
  package private(set) var state: PropertyAnimatorState = .inactive
  /// Whether it runs (or will run) toward the start.
  package private(set) var isReversed = false
  /// UIKit's `scrubsLinearly` (default true).
  package var scrubsLinearly = true
  /// UIKit's `pausesOnCompletion` (default false).
  package var pausesOnCompletion = false
  /// UIKit's `isInterruptible` (default true; settable only while inactive).
  package private(set) var isInterruptible = true

  private(set) var groups: [Group] = []
  private var completions: [(AnimatingPosition) -> Void] = []
  private var motion: Motion = .paused(held: nil)
  /// The creation number of the latest run's end (ties in time; kept when a layer's timing moves the end).
  private var endSequence = 0
  /// The fraction while paused (and at rest).
  private var pausedFraction = 0.0
  /// Bumped whenever the scheduled end changes (older queue entries are stale).
  private var version = 0
  /// Whether a run's end is in the scene's queue (and counted as pending work).
  private var scheduled = false
  /// Whether the scheduled end waits, out of the queue, for a layer whose time does not move forward to it.
  private var isParked = false
  /// The layers the animations run on (their time spaces), each once; a record names its lane by index.
  private(set) var lanes: [View] = []
  /// Dropped with the scene's pending work (a cancelled transition): it does nothing any more.
  private(set) var isDiscarded = false
  /// The latest run, and whether a completion was ever added (for the timeline, Timeline.swift).
  private(set) var timelineCurrentRun: Run?
  private(set) var timelineHasCompletions = false

  /// A property animator in `scene`, inactive, with `duration` seconds (ignored by physical and bounce springs,
  /// which last their settling duration) and `timing`.
  /// - Throws: `invalidValue` for a duration that is not finite and ≥ 0.
  package init(scene: Scene, duration: Double, timing: PropertyAnimatorTiming) throws(PropertyAnimatorError) {
    guard duration.isFinite, duration >= 0 else {
      throw .invalidValue(field: "duration", reason: "must be a finite number ≥ 0")
    }
    self.scene = scene
    self.timing = timing
    self.duration = timing.hasOwnLength ? timing.resolved(length: duration).length : duration
    self.index = scene.propertyAnimators.count
    scene.propertyAnimators.append(self)
  }

  // MARK: Reading

  /// UIKit's `isRunning`: active and moving (forward or reversed).
  package var isRunning: Bool {
    guard state == .active, case .running = motion else { return false }
    return true
  }

  /// UIKit's `fractionComplete` at the scene's current time.
  package var fractionComplete: Double { fraction(at: scene.currentTime) }

  /// The fraction at scene time t: linear in time during a run, fixed while paused.
  func fraction(at t: Double) -> Double {
    guard case .running(let run) = motion, state == .active else { return pausedFraction }
    let span = run.end - run.start
    let u = span > 0 ? min(max((t - run.start) / span, 0), 1) : (t >= run.start ? 1 : 0)
    return run.startFraction + (run.target - run.startFraction) * u
  }

  /// The progress of `group` at scene time t: on the animator's own clock, or (`lane`) as its animations on that
  /// layer show it, in the layer's time.
  func progress(of group: Group, lane: Int? = nil, at t: Double) -> Double {
    switch motion {
    case .paused(let held, let onLanes):
      if let lane, let value = onLanes[LaneKey(group: ObjectIdentifier(group), lane: lane)] { return value }
      if let value = held?[ObjectIdentifier(group)] { return value }
      return scrubbedProgress(of: group, fraction: pausedFraction)
    case .running(let run):
      guard let g = run.groups[ObjectIdentifier(group)] else { return scrubbedProgress(of: group, fraction: 0) }
      let (from, clock) = lane.map { laneClock(g, lane: $0, at: t) } ?? (g.from, t)
      let p = run.timing.progress(elapsed: clock - g.begin, duration: g.length)
      return from + (run.target - from) * p
    }
  }

  /// A lane's start and its clock at t: its layer's local time since the group run's anchor, counted from the
  /// anchor on the timeline (so the run's begin, length and end read in it unchanged). t itself at default timing.
  private func laneClock(_ g: GroupRun, lane: Int, at t: Double) -> (from: Double, clock: Double) {
    guard scene.layerTimingCount > 0 || !g.lanes.isEmpty else { return (g.from, t) }
    let local = lanes[lane].localTime(at: t)
    guard let start = g.lanes[lane] else { return (g.from, local) }
    return (start.from, start.local == g.anchor ? local : g.anchor + (local - start.local))
  }

  /// The lane of `view` for `group`'s animations (a record's `animatorLane`).
  func lane(of view: View, for group: Group) -> Int {
    let lane: Int
    if let i = lanes.firstIndex(where: { $0 === view }) {
      lane = i
    } else {
      lane = lanes.count
      lanes.append(view)
    }
    if !group.lanes.contains(lane) { group.lanes.append(lane) }
    return lane
  }

  /// Anchors the lanes of `group`'s run at now: each layer's local time now and the lane's progress (`from`, by
  /// lane), recorded only where they differ from the timeline's and the group's.
  private func anchorLanes(of group: Group, in g: inout GroupRun, from: (Int) -> Double) {
    let now = scene.currentTime
    g.anchor = now
    g.lanes = [:]
    guard scene.layerTimingCount > 0 || group.lanes.contains(where: { from($0) != g.from }) else { return }
    for lane in group.lanes {
      let start = LaneStart(from: from(lane), local: lanes[lane].localTime(at: now))
      if start.local != now || start.from != g.from { g.lanes[lane] = start }
    }
  }

  /// A group's progress when the animator is scrubbed to `fraction` (see the type's "Pausing and scrubbing").
  private func scrubbedProgress(of group: Group, fraction: Double) -> Double {
    let a = group.windowStart
    let width = 1 - a
    if scrubsLinearly {
      guard width > 0 else { return fraction >= 1 ? 1 : 0 }
      return min(max((fraction - a) / width, 0), 1)
    }
    let (curve, length) = timing.resolved(length: duration)
    return curve.progress(elapsed: (fraction - a) * length, duration: width * length)
  }

  // MARK: Building

  /// UIKit's `addAnimations(_:delayFactor:)`. On an inactive animator the closure runs when it becomes active;
  /// on an active one it runs now, its group starting after delayFactor × the remaining duration.
  /// - Throws: `invalidValue` for a delay factor outside [0, 1]; `wrongState` when stopped.
  package func addAnimations(delayFactor: Double = 0, _ animations: @escaping () -> Void) throws(PropertyAnimatorError)
  {
    guard delayFactor.isFinite, delayFactor >= 0, delayFactor <= 1 else {
      throw .invalidValue(field: "delayFactor", reason: "must be a number in [0, 1]")
    }
    guard state != .stopped else { throw .wrongState("addAnimations on a stopped animator") }
    guard !isDiscarded else { return }
    let now = scene.currentTime
    let f = fraction(at: now)
    let group = Group(animator: self, windowStart: 0, animations: animations)
    groups.append(group)
    guard state == .active else {
      group.windowStart = delayFactor
      return
    }
    // Started: the window starts delayFactor of the way through the rest.
    let remaining = isReversed ? f : 1 - f
    group.windowStart = isReversed ? f : f + delayFactor * remaining
    if case .running(var run) = motion {
      let left = max(run.end - now, 0)
      run.groups[ObjectIdentifier(group)] = GroupRun(
        from: isReversed ? 1 : 0, begin: now + delayFactor * left, length: (1 - delayFactor) * left, anchor: now)
      motion = .running(run)
    } else if case .paused(var held?, let onLanes) = motion {
      held[ObjectIdentifier(group)] = isReversed ? 1 : 0
      motion = .paused(held: held, onLanes: onLanes)
    }
    runAnimations(of: group)
    // Its animations were added to their layers now: their lanes start in the layers' local time now, and the run
    // ends when they do too.
    if case .running(var run) = motion, var g = run.groups[ObjectIdentifier(group)] {
      let from = g.from
      anchorLanes(of: group, in: &g) { _ in from }
      run.groups[ObjectIdentifier(group)] = g
      motion = .running(run)
      if !g.lanes.isEmpty || scene.layerTimingCount > 0 { scheduleEnd() }
    }
  }

  /// UIKit's `addCompletion`: runs once, with the position, when the animator ends (never after
  /// `stopAnimation(true)`).
  package func addCompletion(_ completion: @escaping (AnimatingPosition) -> Void) {
    guard !isDiscarded else { return }
    completions.append(completion)
    timelineHasCompletions = true
  }

  /// UIKit's `isInterruptible`.
  /// - Throws: `wrongState` while active or stopped (UIKit raises).
  package func setInterruptible(_ value: Bool) throws(PropertyAnimatorError) {
    guard state == .inactive else { throw .wrongState("isInterruptible set on an active animator") }
    isInterruptible = value
  }

  // MARK: Driving

  /// UIKit's `startAnimation(afterDelay:)`: an inactive animator becomes active and runs over its duration after
  /// `delay` (toward the start when reversed); a paused one continues with its timing over the remaining duration.
  /// Starting a running animator does nothing.
  /// - Throws: `wrongState` when stopped, `invalidValue` for a delay that is not finite and ≥ 0.
  package func startAnimation(afterDelay delay: Double = 0) throws(PropertyAnimatorError) {
    guard delay.isFinite, delay >= 0 else { throw .invalidValue(field: "delay", reason: "must be a finite number ≥ 0") }
    guard !isDiscarded else { return }
    switch state {
    case .stopped:
      throw .wrongState("startAnimation on a stopped animator (call finishAnimation(at:))")
    case .inactive:
      activate()
      let start = scene.currentTime + delay
      let (curve, length) = timing.resolved(length: duration)
      var runs: [ObjectIdentifier: GroupRun] = [:]
      for group in groups {
        let a = group.windowStart
        runs[ObjectIdentifier(group)] =
          isReversed
          ? GroupRun(from: 1, begin: start, length: (1 - a) * length)
          : GroupRun(from: 0, begin: start + a * length, length: (1 - a) * length)
      }
      for group in groups {
        guard var g = runs[ObjectIdentifier(group)] else { continue }
        let from = g.from
        anchorLanes(of: group, in: &g) { _ in from }
        runs[ObjectIdentifier(group)] = g
      }
      pausedFraction = isReversed ? 1 : 0
      beginRun(
        Run(
          start: start, end: start + length, startFraction: pausedFraction, target: isReversed ? 0 : 1,
          timing: curve, groups: runs))
    case .active:
      if isRunning { return }
      try continueAnimation(timing: nil, durationFactor: 1, afterDelay: delay)
    }
  }

  /// UIKit's `pauseAnimation()`: an inactive animator becomes active, paused at its start; a running one stops
  /// moving where it is.
  /// - Throws: `wrongState` when stopped.
  package func pauseAnimation() throws(PropertyAnimatorError) {
    guard !isDiscarded else { return }
    switch state {
    case .stopped: throw .wrongState("pauseAnimation on a stopped animator")
    case .inactive:
      activate()
      pausedFraction = isReversed ? 1 : 0
      motion = .paused(held: nil)
    case .active:
      holdWhereItIs()
    }
  }

  /// Sets `fractionComplete` (UIKit: while paused; an inactive animator becomes active and paused first). A running
  /// animator ignores it, as UIKit's does. Values are clamped to [0, 1].
  /// - Throws: `invalidValue` for a non-finite value, `wrongState` when stopped.
  package func setFractionComplete(_ value: Double) throws(PropertyAnimatorError) {
    guard value.isFinite else { throw .invalidValue(field: "fractionComplete", reason: "must be a finite number") }
    guard !isDiscarded else { return }
    switch state {
    case .stopped: throw .wrongState("fractionComplete set on a stopped animator")
    case .inactive: try pauseAnimation()
    case .active: if isRunning { return }
    }
    pausedFraction = min(max(value, 0), 1)
    motion = .paused(held: nil)
  }

  /// Sets `isReversed`. On a running animator the run turns around at once (a continuation with the current timing
  /// over the time it took to get here); otherwise it applies to the next run.
  /// - Throws: `wrongState` when stopped.
  package func setReversed(_ value: Bool) throws(PropertyAnimatorError) {
    guard state != .stopped else { throw .wrongState("isReversed set on a stopped animator") }
    guard value != isReversed else { return }
    isReversed = value
    if isRunning, !isDiscarded {
      try continueAnimation(timing: nil, durationFactor: 1)
    }
  }

  /// UIKit's `continueAnimation(withTimingParameters:durationFactor:)`: from every group's current progress toward
  /// the end (the start when reversed) with `timing` (nil keeps the current one) over durationFactor × the remaining
  /// duration (a physical or bounce spring over its own settling duration), as if started there. An inactive
  /// animator is started.
  /// - Throws: `invalidValue` for a duration factor that is not finite and ≥ 0, `wrongState` when stopped.
  package func continueAnimation(
    timing newTiming: PropertyAnimatorTiming?, durationFactor: Double, afterDelay delay: Double = 0
  ) throws(PropertyAnimatorError) {
    guard durationFactor.isFinite, durationFactor >= 0 else {
      throw .invalidValue(field: "durationFactor", reason: "must be a finite number ≥ 0")
    }
    guard !isDiscarded else { return }
    switch state {
    case .stopped: throw .wrongState("continueAnimation on a stopped animator")
    case .inactive:
      if let newTiming { timing = newTiming }
      try startAnimation(afterDelay: delay)
      return
    case .active: break
    }
    let now = scene.currentTime
    let f = fraction(at: now)
    let progresses = groups.map { progress(of: $0, at: now) }
    // Each layer's animations continue from what they show (a layer's timing may have taken them elsewhere).
    var laneProgresses: [LaneKey: Double] = [:]
    if scene.layerTimingCount > 0 || isHeldOnLanes || runHasLanes {
      for group in groups {
        for lane in group.lanes {
          laneProgresses[LaneKey(group: ObjectIdentifier(group), lane: lane)] = progress(
            of: group, lane: lane, at: now)
        }
      }
    }
    if let newTiming { timing = newTiming }
    let target = isReversed ? 0.0 : 1.0
    let remaining = (isReversed ? f : 1 - f) * duration * durationFactor
    let (curve, length) = timing.resolved(length: remaining)
    let start = now + delay
    var runs: [ObjectIdentifier: GroupRun] = [:]
    for (group, p) in zip(groups, progresses) {
      // A group whose window has not begun keeps its share of the delay going forward.
      var begin = start
      var groupLength = length
      if !isReversed, p == 0, group.windowStart > f, f < 1 {
        let share = (group.windowStart - f) / (1 - f)
        begin = start + share * length
        groupLength = (1 - share) * length
      }
      var g = GroupRun(from: p, begin: begin, length: groupLength)
      anchorLanes(of: group, in: &g) { laneProgresses[LaneKey(group: ObjectIdentifier(group), lane: $0)] ?? p }
      runs[ObjectIdentifier(group)] = g
    }
    beginRun(
      Run(start: start, end: start + length, startFraction: f, target: target, timing: curve, groups: runs))
  }

  /// UIKit's `stopAnimation(_:)`: every property keeps the value on screen now and the animations are removed.
  /// `withoutFinishing` true: inactive at once, no completion runs; false: stopped, waiting for
  /// `finishAnimation(at:)`.
  /// - Throws: `wrongState` unless active.
  package func stopAnimation(withoutFinishing: Bool) throws(PropertyAnimatorError) {
    guard state == .active else { throw .wrongState("stopAnimation on an animator that is not active") }
    guard !isDiscarded else { return }
    pausedFraction = fractionComplete
    release(at: .current)
    if withoutFinishing {
      completions = []
      becomeInactive()
    } else {
      state = .stopped
    }
  }

  /// UIKit's `finishAnimation(at:)`: only on a stopped animator; sets the values of `position` (`.current` keeps
  /// them) and runs the completions with it.
  /// - Throws: `wrongState` unless stopped.
  package func finishAnimation(at position: AnimatingPosition) throws(PropertyAnimatorError) {
    guard state == .stopped else { throw .wrongState("finishAnimation(at:) needs a stopped animator") }
    guard !isDiscarded else { return }
    setModel(at: position)
    pausedFraction = position == .end ? 1 : position == .start ? 0 : pausedFraction
    finish(at: position)
  }

  // MARK: Scene callbacks

  /// Whether the queue entry of this version is the run's live end.
  func isScheduled(version: Int) -> Bool { scheduled && version == self.version && !isDiscarded }

  /// The run reached its end (the scene fires this at the end time).
  func reachEnd() {
    guard case .running(let run) = motion, state == .active else { return }
    unschedule()
    pausedFraction = run.target
    if pausesOnCompletion {
      motion = .paused(held: nil)
      for group in groups { heldValue(group, run.target) }
      return
    }
    let position: AnimatingPosition = run.target == 0 ? .start : .end
    release(at: position)
    finish(at: position)
  }

  /// The scene fires everything pending at once (a cancelled or terminated transition): the run ends at `position`.
  func endEarly(at position: AnimatingPosition) {
    guard state == .active else { return }
    unschedule()
    release(at: position)
    finish(at: position)
  }

  /// The scene dropped its pending work (a cancelled transition is restored): nothing of the animator remains and
  /// no completion runs.
  func discard() {
    unschedule()
    isDiscarded = true
    completions = []
    groups = []
    state = .inactive
    motion = .paused(held: nil)
  }

  // MARK: Support

  private func heldValue(_ group: Group, _ value: Double) {
    guard case .paused(var held, let onLanes) = motion else { return }
    if held == nil { held = [:] }
    held![ObjectIdentifier(group)] = value
    motion = .paused(held: held, onLanes: onLanes)
  }

  /// Runs every group's animations that has not run yet (inactive → active).
  private func activate() {
    state = .active
    for group in groups where group.animations != nil { runAnimations(of: group) }
  }

  /// Runs a group's animations in an animation context whose records follow this animator.
  private func runAnimations(of group: Group) {
    guard let animations = group.animations else { return }
    group.animations = nil
    scene.sequence += 1
    var block = BlockState(seq: scene.sequence, createdAt: scene.currentTime)
    // The animator owns the group's completion: the scene never schedules the block.
    block.fired = true
    group.block = scene.blocks.count
    scene.blocks.append(block)
    scene.logBlockOpened(group.block, delay: 0)
    var context = AnimationContext(
      kind: .basic, block: group.block, begin: scene.currentTime, duration: .infinity,
      timing: timing.resolved(length: duration).timing)
    context.animatorGroup = group
    scene.contexts.append(context)
    animations()
    scene.contexts.removeLast()
    scene.blocks[group.block].isOpen = false
    scene.logBlockClosed(group.block, group: group)
  }

  private func beginRun(_ run: Run) {
    motion = .running(run)
    timelineCurrentRun = run
    unschedule()
    scheduled = true
    scene.pendingCount += 1
    endSequence = scene.nextSequence()
    scheduleEnd()
  }

  /// Queues the running run's end at `endTime`, or parks it while a layer's time does not reach it.
  private func scheduleEnd() {
    guard scheduled, case .running(let run) = motion else { return }
    version += 1
    guard let time = endTime(of: run) else {
      isParked = true
      return
    }
    isParked = false
    scene.events.push(PendingEvent(time: time, seq: endSequence, kind: .animator, index: index, version: version))
  }

  /// When the run ends on the timeline: when the last of its animations ends in its layer's time (each lane's end
  /// is the run's end in its clock, mapped through its layer's timing as it is now, `BlockSlot.stopTime`); the run's
  /// own end when no layer has a timing or it animated nothing. nil while a layer's time does not move forward to
  /// its end.
  private func endTime(of run: Run) -> Double? {
    guard scene.layerTimingCount > 0 || run.groups.values.contains(where: { !$0.lanes.isEmpty }) else {
      return run.end
    }
    var latest: Double?
    for group in groups {
      guard let g = run.groups[ObjectIdentifier(group)] else { continue }
      for lane in group.lanes {
        let localEnd = g.lanes[lane].map { $0.local + (run.end - g.anchor) } ?? run.end
        guard let t = BlockSlot(stop: localEnd, layer: lanes[lane]).stopTime(now: scene.currentTime) else {
          return nil
        }
        latest = max(latest ?? t, t)
      }
    }
    return latest ?? run.end
  }

  /// A layer's timing or time parent changed: the run's end moves with its layers' time.
  func rescheduleEnd() {
    guard !isDiscarded else { return }
    scheduleEnd()
  }

  /// Queues a parked end now (`Scene.unparkAll`: ending everything includes what a paused layer holds); returns
  /// whether there was one.
  func unparkEnd() -> Bool {
    guard scheduled, isParked, !isDiscarded else { return false }
    isParked = false
    version += 1
    scene.events.push(
      PendingEvent(time: scene.currentTime, seq: endSequence, kind: .animator, index: index, version: version))
    return true
  }

  private func unschedule() {
    guard scheduled else { return }
    scheduled = false
    isParked = false
    version += 1
    scene.pendingCount -= 1
  }

  /// Whether a pause left some lane elsewhere than its group.
  private var isHeldOnLanes: Bool {
    guard case .paused(_, let onLanes) = motion else { return false }
    return !onLanes.isEmpty
  }

  /// Whether the current run has a lane of its own.
  private var runHasLanes: Bool {
    guard case .running(let run) = motion else { return false }
    return run.groups.values.contains { !$0.lanes.isEmpty }
  }

  /// Pauses a run where it is (see the type's "Pausing and scrubbing").
  private func holdWhereItIs() {
    guard case .running(let run) = motion else { return }
    let now = scene.currentTime
    var held: [ObjectIdentifier: Double] = [:]
    var onLanes: [LaneKey: Double] = [:]
    for group in groups {
      let p = progress(of: group, at: now)
      held[ObjectIdentifier(group)] = p
      // Each layer's animations stop where their layer's time had taken them (a CAAnimation paused in its own time).
      guard scene.layerTimingCount > 0 || runHasLanes else { continue }
      for lane in group.lanes {
        let q = progress(of: group, lane: lane, at: now)
        if q != p { onLanes[LaneKey(group: ObjectIdentifier(group), lane: lane)] = q }
      }
    }
    let timeFraction = fraction(at: now)
    unschedule()
    if scrubsLinearly, let reference = groups.first(where: { $0.windowStart == 0 }),
      let p = held[ObjectIdentifier(reference)], run.timing != .curve(.linear)
    {
      pausedFraction = min(max(p, 0), 1)
    } else {
      pausedFraction = timeFraction
    }
    motion = .paused(held: held, onLanes: onLanes)
  }

  /// Ends every record of the animator at now, leaving the model at `position`'s values.
  private func release(at position: AnimatingPosition) {
    setModel(at: position)
    unschedule()
  }

  /// Ends the animator's records now and writes the model values of `position`: the on-screen ones for `.current`,
  /// the start values for `.start`; `.end` leaves the written ones.
  private func setModel(at position: AnimatingPosition) {
    let now = scene.currentTime
    for group in groups where group.block >= 0 {
      for (view, key) in group.touched {
        scene.releaseAnimatorRecord(view: view, key: key, block: group.block, at: now, position: position)
      }
    }
  }

  private func finish(at position: AnimatingPosition) {
    let pending = completions
    completions = []
    becomeInactive()
    for completion in pending { completion(position) }
  }

  private func becomeInactive() {
    state = .inactive
    motion = .paused(held: nil)
    groups = []
    isReversed = false
  }
}

extension Scene {
  /// The next creation number (ties in time fire in creation order).
  func nextSequence() -> Int {
    sequence += 1
    return sequence
  }

  /// Ends the animation record of `block` on `key` of `view` at t (if it is still the one presenting) and leaves
  /// the model at the value of `position`.
  func releaseAnimatorRecord(view: View, key: PropertyKey, block: Int, at t: Double, position: AnimatingPosition) {
    key.accept(ReleaseAnimatorRecord(scene: self, view: view, block: block, time: t, position: position))
  }

  private struct ReleaseAnimatorRecord: PropertyVisitor {
    let scene: Scene
    let view: View
    let block: Int
    let time: Double
    let position: AnimatingPosition

    func visit<Value: TrackValue>(_ property: AnimatableProperty<Value>) {
      scene.releaseAnimatorRecord(view: view, property: property, block: block, at: time, position: position)
    }
  }

  private func releaseAnimatorRecord<Value: TrackValue>(
    view: View, property: AnimatableProperty<Value>, block: Int, at t: Double, position: AnimatingPosition
  ) {
    // The group's record, unless a later animation of the property replaced it (that one owns the model now).
    guard let track = view.tracks[keyPath: property.track],
      let i = track.records.lastIndex(where: { $0.block == block && $0.kind != .set }),
      track.records[(i + 1)...].allSatisfy({ $0.kind == .set })
    else { return }
    let record = track.records[i]
    let isPresenting = t < record.end
    if isPresenting {
      view.tracks[keyPath: property.track]!.records[i].duration = max(t - record.begin, 0)
    }
    let value: Value
    switch position {
    case .end: value = record.to
    case .start: value = record.from
    case .current:
      // A stopped animator's model already holds what was on screen.
      guard isPresenting else { return }
      value = record.animatedValue(at: t, memo: nil)
    }
    contexts.append(.immediate)
    // A write at the record's own creation time would fold into it; the record ends now, so the set comes after.
    view.write(property, value)
    contexts.removeLast()
  }
}

extension PropertyAnimator {
  /// Fills in where a group's animation (on `view`'s layer) sits on the timeline and its state at t: its latest run
  /// (each continuation replaces the run), placed through the layer's timing as it is now like a block's, else
  /// (never started) its creation time and the animator's duration.
  func describeRun(of group: Group, on view: View?, into a: inout TimelineAnimation, at t: Double) {
    a.source.completion = timelineHasCompletions
    guard let run = timelineCurrentRun, let g = run.groups[ObjectIdentifier(group)] else {
      let (curve, length) = timing.resolved(length: duration)
      a.begin = scene.blocks[group.block].createdAt
      a.duration = length
      a.end = a.begin + length
      a.timing = TimelineTiming(curve)
      a.state = .pending
      return
    }
    a.begin = g.begin
    a.duration = g.length
    a.end = g.begin + g.length
    if let view, scene.layerTimingCount > 0 || !g.lanes.isEmpty, let lane = lanes.firstIndex(where: { $0 === view }) {
      // The lane's clock is its layer's local time shifted to the anchor: the local times it reaches begin and end at.
      let shift = g.lanes[lane].map { $0.local - g.anchor } ?? 0
      (a.begin, a.end, a.duration) = scene.timelineInterval(
        localBegin: g.begin + shift, localEnd: g.begin + g.length + shift, duration: g.length, map: view.timeMap())
    }
    a.timing = TimelineTiming(run.timing)
    switch state {
    case .active:
      if case .running = motion {
        a.state = t < g.begin ? .pending : (t < a.end ? .running : .finished)
      } else {
        a.state = .running
      }
    case .inactive, .stopped:
      a.state = .finished
    }
  }
}
