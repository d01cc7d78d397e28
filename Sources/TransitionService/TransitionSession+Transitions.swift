// The session's typed operations on transitions (Protocol.md, "Transitions"): what each transition/… method does once
// its JSON is decoded (TransitionSession+Methods.swift). Each one hands its outcome to `reply` once the calls into the
// transition have returned, then reports the transitions that ended meanwhile (last frame, didEnd, waiters): with a
// driver whose calls answer later, the reply moves into the call's completion and nothing else changes.

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

  package init(
    clock: ClockKind = .realtime, fps: Double = 60, frames: FrameMode = .full, precision: FramePrecision? = nil
  ) {
    self.clock = clock
    self.fps = fps
    self.frames = frames
    self.precision = precision
  }
}

/// Which moment `transition/sample` shows.
package enum SampleMoment: Sendable {
  /// Timeline seconds (negative ones are 0).
  case time(Double)
  /// A completion fraction, clamped to [0, 1].
  case percent(Double)
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

  /// Makes the transition (TransitionFactory), starts it and replies `{"transition", "duration"}`; then its first
  /// frame, and a frame timer on the real-time clock.
  package func start(_ request: TransitionRequest, stream: StreamOptions, reply: Reply) {
    var started: TransitionRecord?
    answer(
      reply,
      { () throws(ResponseError) -> JSON in
        try checkCapacity()
        let driver: LocalTransitionDriver
        do throws(TransitionStartError) { driver = try factory.make(request) } catch { throw error.responseError }
        counter += 1
        let record = TransitionRecord(
          number: counter, driver: driver, clock: stream.clock, fps: stream.fps, frames: stream.frames,
          precision: stream.precision)
        live[record.number] = record
        observe(record)
        do throws(TransitionError) {
          try driver.start()
        } catch {
          // A new transition always starts; keep the invariant that every live record has begun.
          live[record.number] = nil
          throw .internalError("start: \(error)")
        }
        started = record
        flushPluginLogs()
        var result = JSONObjectBuilder()
        result.setNew("transition", JSON(record.id))
        result.setNew("duration", JSON.number(driver.status.duration))
        return result.build()
      },
      then: {
        guard let record = started, record.outcome == nil else { return }
        emitFrame(record)
        updateTimer(record)
      })
  }

  // MARK: update, pause, finish, cancel, release, reverse

  /// Runs `command` on transition `id` and replies its status (with `decision` for a release). The frame timer
  /// follows the new state; an update shows its new percent in a frame at once (a transition the call ended gets
  /// its last frame from `reportEnds` instead, as after start and tick).
  package func perform(_ command: TransitionCommand, on id: String, reply: Reply) {
    answer(reply) { () throws(ResponseError) -> JSON in
      var record = try record(id)
      catchUp(record)
      record = try self.record(id)  // the time that passed may have ended it
      let result: TransitionCommandResult
      do throws(TransitionError) {
        result = try record.driver.perform(command)
      } catch {
        throw .engine(error, transition: record.id, phase: record.phase)
      }
      updateTimer(record)
      if case .update = command, record.outcome == nil { emitFrame(record) }
      var status = record.status
      if case .released(let decision) = result { status.setNew("decision", JSON(decision.rawValue)) }
      return status.build()
    }
  }

  /// Brings a moving real-time transition's timeline up to the clock before a command acts on it, so that the
  /// command happens at the moment it arrives, not at the last frame (at a low `fps` that can be seconds earlier).
  func catchUp(_ record: TransitionRecord) {
    guard record.clock == .realtime, record.isClockRunning, record.isMoving else { return }
    let now = scheduler.now
    let dt = max(0, now - record.lastReading)
    record.lastReading = now
    advance(record, by: dt)
    if record.outcome != nil { reportEnds() }  // its last frame and didEnd come before the reply (2006)
  }

  // MARK: sample, tick

  /// Replies a full frame of transition `id` at `moment`; no time passes. The frame's text is written straight into
  /// the reply.
  package func sample(_ id: String, at moment: SampleMoment, reply: Reply) {
    answer(reply) { () throws(ResponseError) -> ReplyValue in
      let record = try record(id)
      let duration = record.driver.status.duration
      let time: Double
      let percent: Double
      switch moment {
      case .time(let requested):
        time = max(requested, 0)
        percent = duration > 0 ? min(time / duration, 1) : (time > 0 ? 1 : 0)
      case .percent(let requested):
        percent = min(max(requested, 0), 1)
        time = percent * duration
      }
      let stamp = FrameStamp(transition: record.id, seq: nil, time: time, percent: percent, phase: record.phase)
      let driver = record.driver
      let precision = record.precision
      return .text { driver.sampleFrame(stamp, at: time, precision: precision, into: &$0) }
    }
  }

  /// Advances transition `id` (or every manual-clock transition) by `dt` seconds, each with its frame or its end;
  /// replies `{"transitions": [status…]}`.
  package func tick(_ id: String?, by dt: Double, reply: Reply) {
    answer(reply) { () throws(ResponseError) -> JSON in
      let records: [TransitionRecord]
      if let id {
        let record = try record(id)
        guard record.clock == .manual else {
          throw .wrongState(record.id, phase: record.phase, "it runs on the realtime clock; tick drives manual clocks")
        }
        records = [record]
      } else {
        records = liveRecords.filter { $0.clock == .manual }
      }
      var ticked = JSONArrayBuilder(capacity: records.count)
      for record in records {
        advance(record, by: dt)
        if record.outcome == nil { emitFrame(record) }
        reportEnds()
        ticked.append(record.status.build())
      }
      return Self.transitions(ticked)
    }
  }

  // MARK: list, wait

  /// Replies `{"transitions": [...]}`: every live transition with its animator, operation, clock and stream.
  package func list(reply: Reply) {
    answer(reply) { () throws(ResponseError) -> JSON in
      var array = JSONArrayBuilder()
      for record in liveRecords {
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
        array.append(item.build())
      }
      return Self.transitions(array)
    }
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

  /// `{"transitions": [...]}` (a constant key: no dictionary literal, no key copied).
  private static func transitions(_ array: consuming JSONArrayBuilder) -> JSON {
    var result = JSONObjectBuilder()
    result.setNew("transitions", array)
    return result.build()
  }

  // MARK: Answering

  /// Runs `body` and hands its outcome to `reply` (plugin log lines are flushed before an error reply), runs `then`
  /// after a successful reply, then reports the transitions that ended meanwhile.
  func answer(_ reply: Reply, _ body: () throws(ResponseError) -> JSON, then: () -> Void = {}) {
    answer(reply, { () throws(ResponseError) -> ReplyValue in .json(try body()) }, then: then)
  }

  /// `answer(_:_:then:)` for a body that answers with text as well as with a value.
  func answer(_ reply: Reply, _ body: () throws(ResponseError) -> ReplyValue, then: () -> Void = {}) {
    do throws(ResponseError) {
      let result = try body()
      reply(.success(result))
      then()
    } catch {
      flushPluginLogs()
      reply(.failure(error))
    }
    reportEnds()
  }
}
