// A transition whose engine and animator run in this process: the driver `TransitionFactory` makes, the one the
// session uses with `--isolation none` and the one a plugin's worker process runs behind the parent's proxy. Its
// `TransitionDriver` calls complete before they return. In-process clients that need the engine itself (the
// validator's checks, the animator tests, the benchmarks) reach it through `transition` and the direct calls below.

import JSON
import TransitionEngine

/// An engine `Transition` and the animator instance that runs it, in this process.
package final class LocalTransitionDriver: TransitionDriver {
  /// The engine transition (for in-process clients; the session goes through the protocol).
  package let transition: Transition
  /// The animator instance, and what keeps its plugin loaded until the transition is released.
  package let binding: AnimatorBinding
  /// Writes the frames (each view's `content` serialized once, the delta baseline).
  private var encoder: FrameEncoder
  /// Where the presentation is sampled for each frame (shared by the factory's drivers).
  private let scratch: FrameScratch
  package var onEvent: (TransitionEvent) -> Void = { _ in }
  package var notifiesTimeline = false
  /// The timeline revision the last `.timelineChanged` (or the start) showed.
  private var reportedTimelineRevision = 0
  /// The frame stream of `start(as:completion:)`: the id in each frame, the mode, the grid and the next `seq`.
  package let frames: FrameMode
  package let precision: FramePrecision?
  /// When set before `start`, `startViews` records the start state's views (`encodeViews`) as `start` reaches it.
  package var capturesStartViews = false
  /// The `views` of a full frame of the state a cancellation returns to, recorded by `start` (see
  /// `capturesStartViews`): what a worker's parent shows if the worker dies.
  package private(set) var startViews: [UInt8]?
  private var streamID = ""
  private var seq = 0
  /// The scene's `contentRevision` the encoder has seen, and the views it has content of the animator's for.
  private var contentRevision = 0
  private var viewsWithContent: Set<String> = []
  /// The stream's next frame built ahead of its tick (`prepareFrame`), its text in `aheadText`.
  private var ahead: FrameAhead?
  private var aheadText: [UInt8] = []
  /// How many frames were sent as built ahead of their tick (a diagnostic: tests, benchmarks).
  package private(set) var framesSentAhead = 0

  /// Wraps `transition`, made by `binding`'s animator; routes the engine's callbacks to `onEvent`.
  init(
    transition: Transition, binding: AnimatorBinding, contents: [String: JSON], scratch: FrameScratch,
    frames: FrameMode = .full, precision: FramePrecision? = nil
  ) {
    self.transition = transition
    self.binding = binding
    self.encoder = FrameEncoder(contents: contents, constantText: scratch.constantText)
    self.scratch = scratch
    self.frames = frames
    self.precision = precision
    transition.scene.presentationScratch = scratch.presentation
    transition.onEnd = { [unowned self] in onEvent(.ended($0)) }
    transition.onMisbehavior = { [unowned self] in onEvent(.misbehaved($0)) }
    let previous = transition.scene.onMisuse  // a scene the caller built may report to it as well
    transition.scene.onMisuse = { [unowned self] misuse in
      previous?(misuse)
      onEvent(.misusedViewModel("\(misuse)"))
    }
  }

  package var animator: AnimatorEntry { binding.entry }
  package var operation: String { transition.operation.name }

  /// The engine animator (a `PluginAnimator` for a plugin's animator).
  package var engineAnimator: any TransitionAnimator { binding.animator }

  package var status: TransitionStatus {
    TransitionStatus(
      state: transition.state, time: transition.time, percent: transition.percent, duration: transition.duration,
      isInteractive: transition.isInteractive, nextEventIn: transition.clockTimeUntilNextEvent,
      canMoveWithoutInput: transition.canMoveWithoutInput)
  }

  // MARK: Direct calls (in-process clients)

  /// Starts the transition: the animator's `animateTransition` runs.
  package func start() throws(TransitionError) {
    try transition.start()
  }

  /// Moves the transition as `command` says.
  package func perform(_ command: TransitionCommand) throws(TransitionError) -> TransitionCommandResult {
    switch command {
    case .update(let percent): _ = try transition.update(percent: percent)
    case .pause: try transition.pause()
    case .finish(let velocity, let speed, let curve):
      try transition.finish(velocity: velocity, speed: speed, curve: curve)
    case .cancel(let velocity, let speed, let curve):
      try transition.cancel(velocity: velocity, speed: speed, curve: curve)
    case .release(let velocity): return .released(try transition.release(velocity: velocity))
    case .reverse: _ = try transition.reverse()
    case .advance(let seconds): try transition.advance(by: seconds)
    case .gesture(let sample): return .gesture(try transition.deliverGesture(sample))
    }
    return .done
  }

  /// Ends the transition now, cancelled with `reason`.
  package func terminate(reason: String) {
    transition.terminate(reason: reason)
  }

  /// Appends the transition as it is now, as a whole `transition/frame` notification message (full, or delta against
  /// the previous streamed frame), to `message`, its lengths on `precision`'s grid when one is given.
  package func streamFrame(
    _ stamp: FrameStamp, mode: FrameMode, precision: FramePrecision?, into message: inout [UInt8]
  ) {
    syncContents()
    transition.scene.presentation(at: transition.time, into: &scratch.states)
    precision?.apply(to: &scratch.states)
    encoder.appendNotification(stamp, mode: mode, states: scratch.states, to: &message)
  }

  /// Appends the transition as it would look at `time` (timeline seconds), as a full frame object, to `text`.
  package func sampleFrame(_ stamp: FrameStamp, at time: Double, precision: FramePrecision?, into text: inout [UInt8]) {
    syncContents()
    transition.scene.presentation(at: time, into: &scratch.states)
    precision?.apply(to: &scratch.states)
    encoder.appendObject(stamp, states: scratch.states, to: &text)
  }

  /// The `views` of a full frame of the transition as it is now (compact JSON array text).
  package func encodeViews() -> [UInt8] {
    syncContents()
    transition.scene.presentation(at: transition.time, into: &scratch.states)
    precision?.apply(to: &scratch.states)
    var text: [UInt8] = []
    encoder.appendViews(scratch.states, to: &text)
    return text
  }

  /// Gives the encoder the content of the image and visual-effect views the animator made or changed since the last
  /// frame (nothing to do, and no scan, while the scene's `contentRevision` stays).
  private func syncContents() {
    let scene = transition.scene
    guard scene.contentRevision != contentRevision else { return }
    contentRevision = scene.contentRevision
    var current: Set<String> = []
    for view in scene.viewsWithContent {
      guard let content = view.content else { continue }
      current.insert(view.id)
      encoder.setContent(content.json, for: view.id)
    }
    for id in viewsWithContent.subtracting(current) { encoder.setContent(nil, for: id) }
    viewsWithContent = current
  }

  // MARK: TransitionDriver

  package func start(as id: String, completion: DriverCompletion) {
    streamID = id
    ahead = nil
    if capturesStartViews { transition.onStartState = { [unowned self] in startViews = encodeViews() } }
    do throws(TransitionError) {
      try start()
    } catch {
      completion(.failure(.engine(error)), nil)
      return
    }
    // The start's result carries the timeline as it is now (when asked for it).
    reportedTimelineRevision = transition.timelineRevision
    complete(.success(.done), stream: true, completion)
  }

  package func perform(_ command: TransitionCommand, stream: Bool, completion: DriverCompletion) {
    perform(command, stream: stream, aheadAlreadySent: false, completion: completion)
  }

  /// `perform`, when the frame `prepareFrame` kept was already sent to the client before this call (a worker's parent
  /// sent the copy it held, `takeFrameAhead`): the stream moves past that frame whatever the call does, and when the
  /// call is not the quiet advance it was built for, the completion gets the next frame, showing what the call did.
  package func perform(
    _ command: TransitionCommand, stream: Bool, aheadAlreadySent: Bool, completion: DriverCompletion
  ) {
    let kept = ahead
    ahead = nil
    let keptSeq = seq
    if aheadAlreadySent, let kept {
      encoder = kept.encoder
      seq += 1
    }
    let wasEnded = transition.state.isEnded
    let result: TransitionCommandResult
    do throws(TransitionError) {
      result = try perform(command)
    } catch {
      // A refused call changes nothing; one on an ended transition gets no frame.
      if wasEnded {
        completion(.failure(.engine(error)), nil)
      } else {
        complete(.failure(.engine(error)), stream: false, completion)
      }
      return
    }
    // A gesture sample no recognizer received changed nothing: no frame (unless the transition ended meanwhile).
    let streams = if case .gesture(let delivery) = result, delivery.recognizers == nil { false } else { stream }
    if streams, let kept, case .advance(let seconds) = command, sendsAhead(kept, after: seconds, seq: keptSeq) {
      if !aheadAlreadySent {
        encoder = kept.encoder
        seq += 1
      }
      framesSentAhead += 1
      return aheadText.withUnsafeBytes { completion(.success(result), $0) }
    }
    complete(.success(result), stream: streams, completion)
  }

  package func prepareFrame(advancingBy seconds: Double) {
    ahead = nil
    guard frames != .none, !endedFrameSent, !streamID.isEmpty, let next = transition.quietAdvance(by: seconds) else {
      return
    }
    syncContents()
    let stamp = FrameStamp(transition: streamID, seq: seq, time: next.time, percent: next.percent, phase: status.phase)
    // A copy of the encoder takes the frame, so the delta baseline moves only if the frame is sent.
    var encoder = self.encoder
    transition.scene.presentation(at: next.time, into: &scratch.states)
    precision?.apply(to: &scratch.states)
    aheadText.removeAll(keepingCapacity: true)
    encoder.appendNotification(stamp, mode: frames, states: scratch.states, to: &aheadText)
    ahead = FrameAhead(
      seconds: seconds, stamp: stamp, encoder: encoder, contentRevision: transition.scene.contentRevision)
  }

  /// Calls `body` with the text of the frame `prepareFrame` built and keeps (the whole `transition/frame` message), or
  /// does nothing when it kept none: what a worker hands its parent ahead of the tick, so that only a confirmation
  /// crosses the channel at the tick.
  package func withFrameAhead(_ body: (UnsafeRawBufferPointer) -> Void) {
    guard ahead != nil else { return }
    aheadText.withUnsafeBytes(body)
  }

  /// Whether the frame `kept` (built ahead) shows what the advance by `seconds` just did: it advanced by exactly the
  /// time the frame was built for, ended nothing, changed no view's content, and its frame would carry the same header
  /// (time, percent, phase, seq). The advance was quiet when it was built; nothing between could have changed the
  /// scene, since every other call drops the kept frame.
  private func sendsAhead(_ kept: FrameAhead, after seconds: Double, seq: Int) -> Bool {
    seconds == kept.seconds && frames != .none && !transition.state.isEnded && !endedFrameSent
      && transition.scene.contentRevision == kept.contentRevision && status.stamp(streamID, seq: seq) == kept.stamp
  }

  package func terminate(reason: String, completion: (FrameBytes?) -> Void) {
    ahead = nil
    guard !transition.state.isEnded else { return completion(nil) }
    terminate(reason: reason)
    complete(.success(.done), stream: false) { _, frame in completion(frame) }
  }

  package func sample(at moment: SampleMoment, completion: (Result<FrameBytes, DriverError>) -> Void) {
    let stamp = status.sampleStamp(streamID, at: moment)
    scratch.borrowText { text in
      sampleFrame(stamp, at: stamp.time, precision: precision, into: &text)
      text.withUnsafeBytes { completion(.success($0)) }
    }
  }

  package func timeline(completion: (Result<JSON, DriverError>) -> Void) {
    completion(.success(TimelineJSON.json(transition.timeline(), transition: streamID)))
  }

  package func afterPendingCalls(_ body: () -> Void) { body() }

  /// Completes a call: with the stream's next frame when it asked for one or the call ended the transition.
  private func complete(
    _ result: Result<TransitionCommandResult, DriverError>, stream: Bool, _ completion: DriverCompletion
  ) {
    reportTimelineChange()
    let ended = transition.state.isEnded
    guard frames != .none, stream || ended, !endedFrameSent else { return completion(result, nil) }
    if ended { endedFrameSent = true }
    let stamp = status.stamp(streamID, seq: seq)
    seq += 1
    scratch.borrowText { text in
      streamFrame(stamp, mode: frames, precision: precision, into: &text)
      text.withUnsafeBytes { completion(result, $0) }
    }
  }

  /// With `notifiesTimeline`: reports the timeline when the call added or removed an animation (not once it ended: its
  /// didEnd says the rest).
  private func reportTimelineChange() {
    let revision = transition.timelineRevision
    guard notifiesTimeline, revision != reportedTimelineRevision, !transition.state.isEnded else { return }
    reportedTimelineRevision = revision
    var text: [UInt8] = []
    TimelineJSON.json(transition.timeline(), transition: streamID).appendSerialized(to: &text)
    onEvent(.timelineChanged(text))
  }

  /// Whether the last frame (of the ended transition) was streamed already.
  private var endedFrameSent = false
}

/// A frame built ahead of its tick: the advance it is for, its header, and the encoder as it is once the frame is
/// sent (its delta baseline moved on).
private struct FrameAhead {
  var seconds: Double
  var stamp: FrameStamp
  var encoder: FrameEncoder
  var contentRevision: Int
}
