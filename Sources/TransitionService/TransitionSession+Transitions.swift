// The session's typed operations on transitions (Protocol.md, "Transitions"): what each transition/… method does once
// its JSON is decoded (TransitionSession+Methods.swift). Each one hands its outcome to `reply` from the completion of
// its call into the transition (at once in this process, when the worker answers otherwise), then reports the
// transitions that ended meanwhile (last frame, didEnd, waiters).

import JSON
import JSONRPC
import TransitionEngine

/// How a transition's frames are produced and streamed: the protocol's side of `transition/start`.
package struct StreamOptions: Sendable {
  /// What moves its time.
  package var clock: ClockKind
  /// Frames per second of a real-time clock.
  package var fps: Double
  /// Full frames, deltas, or none.
  package var frames: FrameMode
  /// The grid frame lengths are rounded to (`precision`); nil: exact shortest digits.
  package var precision: FramePrecision?
  /// `transition/start`'s `timeline`: none, in the result, or in the result and `transition/timelineChanged`.
  package var timeline: TimelineMode = .off

  package init(
    clock: ClockKind = .realtime, fps: Double = 60, frames: FrameMode = .full, precision: FramePrecision? = nil,
    timeline: TimelineMode = .off
  ) {
    self.clock = clock
    self.fps = fps
    self.frames = frames
    self.precision = precision
    self.timeline = timeline
  }
}

/// What `transition/start`'s `timeline` asked for.
package enum TimelineMode: Sendable, Equatable {
  /// Nothing (absent or false).
  case off
  /// `true`: the start's result carries the timeline.
  case result
  /// `"notify"`: that, and `transition/timelineChanged` whenever an animation is added or removed.
  case notify
}

/// What a call answers with.
package enum ReplyValue {
  /// A JSON value (json-c serializes it into the reply).
  case json(JSON)
  /// One JSON value's compact text, which `write` appends straight into the reply: a sample's frame, from the frame
  /// encoder, with no tree in between.
  case text((inout [UInt8]) -> Void)
}

/// The answer to one call: a result or an error reply.
package typealias Reply = (Result<ReplyValue, ResponseError>) -> Void

extension TransitionSession {
  // MARK: start

  /// 2007 while `--max-transitions` transitions are live.
  func checkCapacity() throws(ResponseError) {
    guard live.count < configuration.maxTransitions else {
      throw ResponseError(
        code: .tooManyTransitions,
        message: "Too many transitions: \(live.count) are running, the limit is \(configuration.maxTransitions).",
        data: ["limit": JSON(configuration.maxTransitions)])
    }
  }

  /// Makes the transition (TransitionFactory's checks, then the hosting's driver), starts it and replies
  /// `{"transition", "duration"}`; then its first frame, and a frame timer on the real-time clock. When `isCancelled`
  /// says the request was cancelled meanwhile, a transition
  /// that did start is ended at once, unseen (no frame, no didEnd: the client never learnt its id).
  package func start(
    _ request: TransitionRequest, stream: StreamOptions, isCancelled: @escaping () -> Bool = { false },
    reply: @escaping Reply
  ) {
    do {
      guard !isCancelled() else { return }
      let record: TransitionRecord
      do throws(ResponseError) {
        try checkCapacity()
        let prepared: PreparedTransition
        do throws(TransitionStartError) { prepared = try factory.prepare(request) } catch { throw error.responseError }
        let driver = try hosting.makeDriver(prepared, frames: stream.frames, precision: stream.precision)
        driver.notifiesTimeline = stream.timeline == .notify
        counter += 1
        record = TransitionRecord(
          number: counter, driver: driver, clock: stream.clock, fps: stream.fps, frames: stream.frames,
          precision: stream.precision)
        record.timeline = stream.timeline
      } catch {
        flushPluginLogs()
        reply(.failure(error))
        reportEnds()
        return
      }
      live[record.number] = record
      observe(record)
      // With `timeline`, the start is answered once the timeline call queued right behind it has come back (before any
      // call the client makes after the start), its result carrying that timeline.
      var answerWithTimeline: ((JSON?) -> Void)?
      call(record) { done in
        record.driver.start(as: record.id) { [self] result, frame in
          done()
          switch result {
          case .failure(let error):
            // A transition that never started is forgotten: its start's error reply is all the client sees. Its
            // number is free again unless a later start took the next one meanwhile (ids are never reused).
            live[record.number] = nil
            pendingEnds.removeAll { $0 === record }
            if counter == record.number { counter -= 1 }
            flushPluginLogs()
            let replyError: ResponseError =
              switch error {
              case .engine(let engineError): .internalError("start: \(engineError)")
              default: error.responseError(transition: record.id, phase: "idle")
              }
            reply(.failure(replyError))
          case .success:
            flushPluginLogs()
            if isCancelled() {
              live[record.number] = nil
              pendingEnds.removeAll { $0 === record }
              if record.outcome == nil { record.driver.terminate(reason: "requestCancelled") { _ in } }
              return
            }
            record.started = true
            guard record.timeline != .off else { return answerStart(record, timeline: nil, frame: frame, reply: reply) }
            // The frame is the driver's to lend only during this completion: kept until the reply has gone.
            let kept = frame.map { [UInt8]($0) }
            answerWithTimeline = { [self] timeline in
              guard let kept else { return answerStart(record, timeline: timeline, frame: nil, reply: reply) }
              kept.withUnsafeBytes { answerStart(record, timeline: timeline, frame: $0, reply: reply) }
            }
            return
          }
          reportEnds()
        }
      }
      guard record.timeline != .off else { return }
      call(record) { done in
        record.driver.timeline { result in
          done()
          // Nothing to answer when the start failed or was cancelled (its completion has run: calls complete in order).
          let answer = answerWithTimeline
          answerWithTimeline = nil
          answer?(try? result.get())
        }
      }
    }
  }

  /// Replies to a start that succeeded (`{"transition", "duration", "timeline"?}`), then sends its first frame and
  /// sets its timer.
  private func answerStart(_ record: TransitionRecord, timeline: JSON?, frame: FrameBytes?, reply: @escaping Reply) {
    // End of input came while it was starting: it ends now as it would have then.
    let endsNow = isInputClosed && record.needsInput
    var result = JSONObjectBuilder()
    result.setNew("transition", JSON(record.id))
    result.setNew("duration", JSON.number(record.driver.status.duration))
    if let timeline { result.setNew("timeline", timeline) }
    reply(.success(.json(result.build())))
    if record.outcome == nil {
      if let frame { output.sendSerializedMessage(frame) }
      updateTimer(record)
      if endsNow { terminate(record, reason: "inputClosed") }
    } else {
      keepLastFrame(record, frame)
    }
    reportEnds()
  }

  // MARK: timeline

  /// Replies transition `id`'s timeline (`TimelineJSON`) at its current time; no time passes.
  package func timeline(_ id: String, reply: @escaping Reply) {
    query(id, reply: reply, { $0.timeline(completion: $1) }) { .json($0) }
  }

  /// Runs a query on transition `id`'s driver that lets no time pass (`timeline`, `sample`) and replies its result
  /// (`answer`), or the error named for the transition; an unknown `id` is answered at once.
  private func query<Value>(
    _ id: String, reply: @escaping Reply,
    _ ask: (any TransitionDriver, @escaping (Result<Value, DriverError>) -> Void) -> Void,
    answer: @escaping (Value) -> ReplyValue
  ) {
    let record: TransitionRecord
    do throws(ResponseError) { record = try self.record(id) } catch {
      reply(.failure(error))
      reportEnds()
      return
    }
    call(record) { done in
      ask(record.driver) { [self] result in
        done()
        switch result {
        case .success(let value): reply(.success(answer(value)))
        case .failure(let error): reply(.failure(error.responseError(transition: record.id, phase: record.phase)))
        }
        reportEnds()
      }
    }
  }

  // MARK: update, pause, finish, cancel, release, reverse

  /// Runs `command` on transition `id` and replies its status (with `decision` for a release). The frame timer
  /// follows the new state; an update shows its new percent in a frame at once (a transition the call ended gets
  /// its last frame from `reportEnds` instead, as after start and tick).
  package func perform(_ command: TransitionCommand, on id: String, reply: @escaping Reply) {
    let record: TransitionRecord
    do throws(ResponseError) { record = try self.record(id) } catch {
      flushPluginLogs()
      reply(.failure(error))
      reportEnds()
      return
    }
    // The time that passed may end it: then the command finds it ended (2006), after its last frame and didEnd.
    catchUp(record)
    let streams =
      switch command {
      case .update, .gesture: true
      default: false
      }
    call(record) { done in
      record.driver.perform(command, stream: streams) { [self] result, frame in
        done()
        switch result {
        case .failure(let error):
          flushPluginLogs()
          reply(.failure(error.responseError(transition: record.id, phase: record.phase)))
        case .success(.gesture(let delivery)) where delivery.recognizers == nil:
          // Nothing received it; what the call changed (nothing, as a rule) still shows in its frame.
          updateTimer(record)
          if record.outcome == nil {
            if let frame { output.sendSerializedMessage(frame) }
          } else {
            keepLastFrame(record, frame)
          }
          flushPluginLogs()
          let state = if case .gesture(let sample) = command { sample.state } else { GestureSample.State.began }
          reply(.failure(.gestureNotReceived(record.id, delivery, state: state)))
        case .success(let outcome):
          updateTimer(record)
          if record.outcome == nil {
            if let frame { output.sendSerializedMessage(frame) }
          } else {
            keepLastFrame(record, frame)
          }
          var status = record.status
          if case .released(let decision) = outcome { status.setNew("decision", JSON(decision.rawValue)) }
          if case .gesture(let delivery) = outcome, let count = delivery.recognizers {
            status.setNew("recognizers", JSON(count))
          }
          reply(.success(.json(status.build())))
        }
        reportEnds()
      }
    }
  }

  /// Brings a moving real-time transition's timeline up to the clock before a command acts on it, so that the
  /// command happens at the moment it arrives, not at the last frame (at a low `fps` that can be seconds earlier).
  func catchUp(_ record: TransitionRecord) {
    guard record.clock == .realtime, record.isClockRunning, record.isMoving else { return }
    let now = scheduler.now
    let dt = max(0, now - record.lastReading)
    record.lastReading = now
    // Its completion reports an end the time brought, before the command's reply (calls complete in order).
    advance(record, by: dt, frame: false)
  }

  // MARK: sample, tick

  /// Replies a full frame of transition `id` at `moment`; no time passes. The frame's text goes into the reply as the
  /// driver wrote it (its lengths on the transition's `precision` grid).
  package func sample(_ id: String, at moment: SampleMoment, reply: @escaping Reply) {
    query(id, reply: reply, { $0.sample(at: moment, completion: $1) }) { frame in
      .text { $0.append(contentsOf: frame) }
    }
  }

  /// Advances transition `id` (or every manual-clock transition) by `dt` seconds, each with its frame or its end;
  /// replies `{"transitions": [status…]}`. A transition whose plugin crashed meanwhile is listed as ended (its
  /// didEnd says why); a tick of that one transition alone gets the crash's error.
  package func tick(_ id: String?, by dt: Double, reply: @escaping Reply) {
    let records: [TransitionRecord]
    if let id {
      do throws(ResponseError) {
        let record = try self.record(id)
        guard record.clock == .manual else {
          throw .wrongState(record.id, phase: record.phase, "it runs on the realtime clock; tick drives manual clocks")
        }
        records = [record]
      } catch {
        flushPluginLogs()
        reply(.failure(error))
        reportEnds()
        return
      }
    } else {
      // Those whose start is on its way too: their plugin gets the tick after the start.
      records = liveRecords.filter { $0.clock == .manual }
    }
    // Each status as json-c's text at once: with 10,000 transitions, their json-c objects held until the reply were
    // the largest thing a tick allocated.
    var statuses = [[UInt8]?](repeating: nil, count: records.count)
    var failure: ResponseError?
    outstandingCalls += 1
    hosting.advance(
      records.map(\.driver), by: dt,
      each: { [self] index, result, frame in
        let record = records[index]
        if case .failure(let error) = result, id != nil {
          failure = error.responseError(transition: record.id, phase: record.phase)
        }
        if record.outcome == nil {
          if let frame { output.sendSerializedMessage(frame) }
        } else {
          keepLastFrame(record, frame)
        }
        reportEnds()
        statuses[index] = Self.text(of: record.status.build())
      },
      completion: { [self] in
        outstandingCalls -= 1
        if let failure {
          flushPluginLogs()
          reply(.failure(failure))
        } else {
          var ticked: [[UInt8]] = []
          ticked.reserveCapacity(records.count)
          for (index, record) in records.enumerated() where record.started {
            ticked.append(statuses[index] ?? Self.text(of: record.status.build()))
          }
          reply(.success(.text { Self.appendTransitions(serialized: ticked, to: &$0) }))
        }
        reportEnds()
      })
  }

  /// `{"transitions": [...]}`, written as json-c writes that object: the literal key and brackets around each item's
  /// json-c text, so no object or array is built (and freed) per reply only to hold the items.
  private static func transitions(_ items: [JSON]) -> ReplyValue {
    .text { appendTransitions(items, to: &$0) }
  }

  /// Appends `{"transitions":[…]}`: the key and brackets around each item's json-c text (the bytes json-c would
  /// write for the whole object, without building it).
  static func appendTransitions(_ items: [JSON], to buffer: inout [UInt8]) {
    buffer.append(literal: #"{"transitions":["#)
    for (index, item) in items.enumerated() {
      if index > 0 { buffer.append(UInt8(ascii: ",")) }
      item.appendSerialized(to: &buffer)
    }
    buffer.append(literal: "]}")
  }

  /// json-c's compact text of `value`, exactly its capacity.
  private static func text(of value: JSON) -> [UInt8] {
    value.withSerializedBytes { Array($0) }
  }

  /// The same around items json-c serialized already.
  private static func appendTransitions(serialized items: [[UInt8]], to buffer: inout [UInt8]) {
    buffer.append(literal: #"{"transitions":["#)
    for (index, item) in items.enumerated() {
      if index > 0 { buffer.append(UInt8(ascii: ",")) }
      buffer.append(contentsOf: item)
    }
    buffer.append(literal: "]}")
  }

  // MARK: list, wait

  /// Replies `{"transitions": [...]}`: every live transition with its animator, operation, clock and stream, once
  /// the calls made before it into those transitions have completed.
  package func list(reply: @escaping Reply) {
    let records = liveRecords
    // No transition, no call to wait for: answered at once (an idle editor's poll), with no counter or closure kept.
    guard !records.isEmpty else { return answerList(reply) }
    var remaining = records.count + 1
    let finish = { [self] in
      remaining -= 1
      guard remaining == 0 else { return }
      answerList(reply)
    }
    for record in records { record.driver.afterPendingCalls(finish) }
    finish()
  }

  /// `list`'s reply, from the live transitions as they are now.
  private func answerList(_ reply: Reply) {
    var items: [JSON] = []
    for record in liveRecords where record.started {
      let status = record.driver.status
      var item = record.status
      item.setNew("animator", JSON(record.driver.animator.qualifiedID))
      item.setNew("operation", JSON(record.driver.operation))
      item.setNew("duration", JSON.number(status.duration))
      item.setNew("interactive", JSON(status.isInteractive))
      item.setNew("clock", JSON(record.clock.rawValue))
      item.setNew("fps", JSON.number(record.fps))
      item.setNew("frames", JSON(record.frames.rawValue))
      if let precision = record.precision { item.setNew("precision", JSON.number(precision.grid)) }
      items.append(item.build())
    }
    reply(.success(Self.transitions(items)))
    reportEnds()
  }

  /// Answers `responder` with transition `id`'s outcome once it ends (at once when it has ended and its outcome is
  /// still kept); a `$/cancelRequest` takes it off the list.
  func wait(_ id: String, _ responder: Responder) throws(ResponseError) {
    if let number = Self.number(of: id), live[number] == nil, number <= counter {
      guard let summary = endedOutcomes[number] else {
        throw .wrongState(id, phase: "ended", "the transition ended too long ago for its outcome to be kept")
      }
      responder.reply(summary.json(transition: id))
      return
    }
    let record = try record(id)
    record.waiters.append(responder)
    responder.onCancel = { [weak record, unowned responder] in
      record?.waiters.removeAll { $0 === responder }
    }
  }

  // MARK: The session's order

  /// Runs `body`, a request, now; or, while a change of the catalog (`plugins/load`, `reload`, `unload`) is in
  /// progress or requests wait behind one, after them, in the order they came: a script that starts a transition right
  /// after loading its plugin, then ticks it, gets what it would get one request at a time. A request cancelled while
  /// it waits (`$/cancelRequest` answered it with −32800) does not run.
  func inOrder(_ responder: Responder, _ body: @escaping () -> Void) {
    if !mustWaitForCatalog { return body() }
    catalogQueue.append { [weak responder] in
      guard let responder, !responder.isCancelled else { return }
      body()
    }
  }

  /// Whether a request arriving now waits for a change of the catalog (one running, or requests queued behind one).
  var mustWaitForCatalog: Bool { catalogBusy || !catalogQueue.isEmpty }

  /// Runs `body`, a change of the catalog, from a request running in order: later requests wait until it calls its
  /// `done`.
  func changingCatalog(_ body: (_ done: @escaping () -> Void) -> Void) {
    catalogBusy = true
    var finished = false
    body { [weak self] in
      guard let self, !finished else { return }
      finished = true
      catalogBusy = false
      drainCatalogQueue()
    }
  }

  private func drainCatalogQueue() {
    while !catalogBusy, !catalogQueue.isEmpty {
      catalogQueue.removeFirst()()
    }
  }
}
