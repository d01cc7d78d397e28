// The transition/… methods (Protocol.md, "Transitions").

import JSON
import JSONRPC
import PluginHost
import TransitionEngine

extension TransitionSession {
  func registerTransitionMethods(on dispatcher: Dispatcher) {
    handle(dispatcher, "transition/start") { [unowned self] r, s throws(ResponseError) in try start(r, s) }
    handle(dispatcher, "transition/update") { [unowned self] r, s throws(ResponseError) in try update(r, s) }
    handle(dispatcher, "transition/pause") { [unowned self] r, s throws(ResponseError) in try pause(r, s) }
    handle(dispatcher, "transition/finish") { [unowned self] r, s throws(ResponseError) in
      try complete(r, s, finishing: true)
    }
    handle(dispatcher, "transition/cancel") { [unowned self] r, s throws(ResponseError) in
      try complete(r, s, finishing: false)
    }
    handle(dispatcher, "transition/release") { [unowned self] r, s throws(ResponseError) in try release(r, s) }
    handle(dispatcher, "transition/reverse") { [unowned self] r, s throws(ResponseError) in try reverse(r, s) }
    handle(dispatcher, "transition/sample") { [unowned self] r, s throws(ResponseError) in try sample(r, s) }
    handle(dispatcher, "transition/tick") { [unowned self] r, s throws(ResponseError) in try tick(r, s) }
    handle(dispatcher, "transition/list") { [unowned self] r, s throws(ResponseError) in try list(r, s) }
    handle(dispatcher, "transition/wait") { [unowned self] r, s throws(ResponseError) in try wait(r, s) }
  }

  /// Registers `body`; a thrown error is the reply (or, for a notification, a line on stderr). Plugin log lines
  /// and ends that happened meanwhile are reported afterwards.
  func handle(
    _ dispatcher: Dispatcher, _ method: String,
    _ body: @escaping (Request, Responder) throws(ResponseError) -> Void
  ) {
    dispatcher.register(method) { [unowned self] request, responder in
      do throws(ResponseError) {
        try body(request, responder)
      } catch {
        flushPluginLogs()
        if responder.isNotification {
          diagnostic("\(method) notification refused: \(error.message)")
        }
        responder.fail(error)
      }
      reportEnds()
    }
  }

  // MARK: start

  private func start(_ request: Request, _ responder: Responder) throws(ResponseError) {
    let params = try Self.object(request)
    let animatorID = try params.string(at: "params.animator", in: params["animator"])
    let operationName = try params.string(at: "params.operation", in: params["operation"])
    guard !operationName.isEmpty else { throw .invalidParams(field: "params.operation", "must not be empty") }
    let interactive = try Self.optional(params, "interactive") { v, f throws(ResponseError) in try v.bool(at: f) }
    let clock = try Self.choice(params, "clock", ClockKind.self) ?? .realtime
    let frames = try Self.choice(params, "frames", FrameMode.self) ?? .full
    let fps = try Self.optional(params, "fps") { v, f throws(ResponseError) in try Self.fps(v, f) } ?? 60
    let speed = try Self.optional(params, "completionSpeed") { v, f throws(ResponseError) in try Self.speed(v, f) }
    let curve = try Self.optional(params, "completionCurve") { v, f throws(ResponseError) in try Self.curve(v, f) }
    for name in ["container", "from", "to"] where ValueDecoding.member(params, name) == nil {
      throw .invalidParams(field: "params." + name, "is required")
    }
    guard live.count < configuration.maxTransitions else {
      throw ResponseError(
        code: .tooManyTransitions,
        message: "Too many transitions: \(live.count) are running, the limit is \(configuration.maxTransitions).",
        data: ["limit": JSON(configuration.maxTransitions)])
    }

    let entry: AnimatorEntry
    do {
      entry = try catalog.entry(for: animatorID)
    } catch {
      throw .animator(error)
    }
    guard entry.info.supports(operation: operationName) else {
      let supported = entry.info.operations ?? []
      throw ResponseError(
        code: .operationNotSupported,
        message:
          "Animator \(entry.qualifiedID) does not support the operation \(operationName) (it supports "
          + supported.joined(separator: ", ") + ").",
        data: [
          "animator": JSON(entry.qualifiedID), "operation": JSON(operationName),
          "supported": .array(supported.map { JSON($0) }),
        ])
    }
    let values = try AnimatorParameters.values(params["params"], for: entry)
    let trees: DecodedTrees
    do {
      trees = try ViewTreeDecoder.decode(container: params["container"]!, from: params["from"]!, to: params["to"]!)
    } catch {
      throw error.responseError
    }

    let binding: AnimatorBinding
    do {
      binding = try catalog.instantiate(entry.qualifiedID)
    } catch {
      switch error {
      case .lookup(let lookup): throw .animator(lookup)
      case .refused(let refused, let reason):
        throw ResponseError(
          code: .animatorMisbehaved, message: "Animator \(refused.qualifiedID) could not be created: \(reason).",
          data: ["animator": JSON(refused.qualifiedID)])
      }
    }
    var options = TransitionOptions(isInteractive: interactive ?? false)
    if let speed { options.completionSpeed = speed }
    if let curve { options.completionCurve = curve }
    let transition: Transition
    do {
      transition = try Transition(
        scene: trees.scene, from: trees.fromRoot, to: trees.toRoot, operation: TransitionOperation(name: operationName),
        animator: binding.animator, params: values, options: options)
    } catch {
      binding.discard()
      throw .engine(error, transition: "(new)", phase: "idle")
    }
    binding.attach(transition)
    counter += 1
    let record = TransitionRecord(
      number: counter, transition: transition, binding: binding, clock: clock, fps: fps, frames: frames,
      contents: trees.contents)
    live[record.number] = record
    observe(record)
    do {
      try transition.start()
    } catch {
      // A new transition always starts; keep the invariant that every live record has begun.
      live[record.number] = nil
      throw .internalError("start: \(error)")
    }
    flushPluginLogs()
    var result = JSONObjectBuilder()
    result.setNew("transition", JSON(record.id))
    result.setNew("duration", JSON.number(transition.duration))
    responder.reply(result.build())
    if record.outcome == nil {
      emitFrame(record)
      updateTimer(record)
    }
  }

  // MARK: update, pause, finish, cancel, release, reverse

  private func update(_ request: Request, _ responder: Responder) throws(ResponseError) {
    let params = try Self.object(request)
    let record = try record(params)
    let percent = try params.number(at: "params.percent", in: params["percent"])
    do {
      try record.transition.update(percent: percent)
    } catch {
      throw .engine(error, transition: record.id, phase: record.phase)
    }
    updateTimer(record)
    // As after start and tick: a transition the call ended gets its last frame from reportEnds, not a second one.
    if record.outcome == nil { emitFrame(record) }
    responder.reply(record.status.build())
  }

  private func pause(_ request: Request, _ responder: Responder) throws(ResponseError) {
    let record = try record(Self.object(request))
    do {
      try record.transition.pause()
    } catch {
      throw .engine(error, transition: record.id, phase: record.phase)
    }
    updateTimer(record)
    responder.reply(record.status.build())
  }

  private func complete(_ request: Request, _ responder: Responder, finishing: Bool) throws(ResponseError) {
    let params = try Self.object(request)
    let record = try record(params)
    let velocity = try Self.optional(params, "velocity") { v, f throws(ResponseError) in try Self.finite(v, f) } ?? 0
    let speed = try Self.optional(params, "completionSpeed") { v, f throws(ResponseError) in try Self.speed(v, f) }
    let curve = try Self.optional(params, "completionCurve") { v, f throws(ResponseError) in try Self.curve(v, f) }
    do {
      if finishing {
        try record.transition.finish(velocity: velocity, speed: speed, curve: curve)
      } else {
        try record.transition.cancel(velocity: velocity, speed: speed, curve: curve)
      }
    } catch {
      throw .engine(error, transition: record.id, phase: record.phase)
    }
    updateTimer(record)
    responder.reply(record.status.build())
  }

  private func release(_ request: Request, _ responder: Responder) throws(ResponseError) {
    let params = try Self.object(request)
    let record = try record(params)
    let velocity = try Self.optional(params, "velocity") { v, f throws(ResponseError) in try Self.finite(v, f) } ?? 0
    let decision: ReleaseDecision
    do {
      decision = try record.transition.release(velocity: velocity)
    } catch {
      throw .engine(error, transition: record.id, phase: record.phase)
    }
    updateTimer(record)
    var result = record.status
    result.setNew("decision", JSON(decision == .finish ? "finish" : "cancel"))
    responder.reply(result.build())
  }

  private func reverse(_ request: Request, _ responder: Responder) throws(ResponseError) {
    let record = try record(Self.object(request))
    do {
      try record.transition.reverse()
    } catch {
      throw .engine(error, transition: record.id, phase: record.phase)
    }
    updateTimer(record)
    responder.reply(record.status.build())
  }

  // MARK: sample, tick

  private func sample(_ request: Request, _ responder: Responder) throws(ResponseError) {
    let params = try Self.object(request)
    let record = try record(params)
    let time = ValueDecoding.member(params, "time")
    let percent = ValueDecoding.member(params, "percent")
    let transition = record.transition
    let sampledTime: Double
    let sampledPercent: Double
    switch (time, percent) {
    case (let time?, nil):
      sampledTime = max(try Self.finite(time, "params.time"), 0)
      sampledPercent =
        transition.duration > 0 ? min(sampledTime / transition.duration, 1) : (sampledTime > 0 ? 1 : 0)
    case (nil, let percent?):
      sampledPercent = min(max(try Self.finite(percent, "params.percent"), 0), 1)
      sampledTime = sampledPercent * transition.duration
    case (nil, nil):
      throw .invalidParams(field: "params.time", "or params.percent is required")
    case (.some, .some):
      throw .invalidParams(field: "params.percent", "cannot be given with params.time")
    }
    transition.scene.presentation(at: sampledTime, into: &record.encoder.states)
    let frame = record.encoder.encodeObject(
      FrameHeader(transition: record.id, seq: nil, time: sampledTime, percent: sampledPercent, phase: record.phase),
      contents: record.contents)
    responder.reply(frame)
  }

  private func tick(_ request: Request, _ responder: Responder) throws(ResponseError) {
    let params = try Self.object(request)
    let dt = try Self.finite(try request.requiredParam("dt"), "params.dt")
    guard dt >= 0 else { throw .invalidParams(field: "params.dt", "must be ≥ 0") }
    var records: [TransitionRecord]
    if let idValue = ValueDecoding.member(params, "transition") {
      let record = try record(try idValue.string(at: "params.transition"))
      guard record.clock == .manual else {
        throw .wrongState(record.id, phase: record.phase, "it runs on the realtime clock; tick drives manual clocks")
      }
      records = [record]
    } else {
      records = liveRecords.filter { $0.clock == .manual }
    }
    var ticked = JSONArrayBuilder(capacity: records.count)
    for record in records {
      do {
        try record.transition.advance(by: dt)
      } catch {
        diagnostic("\(record.id): advance failed: \(error)")
      }
      if record.outcome == nil { emitFrame(record) }
      reportEnds()
      ticked.append(record.status.build())
    }
    responder.reply(["transitions": ticked.build()])
  }

  // MARK: list, wait

  private func list(_ request: Request, _ responder: Responder) throws(ResponseError) {
    if let params = request.params, params.kind != .object {
      throw .invalidParams(field: "params", "must be an object")
    }
    var array = JSONArrayBuilder()
    for record in liveRecords {
      var item = record.status
      item.setNew("animator", JSON(record.binding.entry.qualifiedID))
      item.setNew("operation", JSON(record.transition.operation.name))
      item.setNew("duration", JSON.number(record.transition.duration))
      item.setNew("interactive", JSON(record.transition.isInteractive))
      item.setNew("clock", JSON(record.clock.rawValue))
      item.setNew("fps", JSON.number(record.fps))
      item.setNew("frames", JSON(record.frames.rawValue))
      array.append(item.build())
    }
    responder.reply(["transitions": array.build()])
  }

  private func wait(_ request: Request, _ responder: Responder) throws(ResponseError) {
    let params = try Self.object(request)
    let id = try params.string(at: "params.transition", in: params["transition"])
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

  // MARK: Parameters

  private func record(_ params: JSON) throws(ResponseError) -> TransitionRecord {
    try record(params.string(at: "params.transition", in: params["transition"]))
  }

  static func object(_ request: Request) throws(ResponseError) -> JSON {
    guard let params = request.params else { throw .invalidParams(field: "params", "is required") }
    return try params.object(at: "params")
  }

  static func optional<T>(
    _ params: JSON, _ name: String, _ read: (JSON, String) throws(ResponseError) -> T
  ) throws(ResponseError) -> T? {
    guard let value = ValueDecoding.member(params, name) else { return nil }
    return try read(value, "params." + name)
  }

  static func choice<T: RawRepresentable & CaseIterable>(
    _ params: JSON, _ name: String, _ type: T.Type
  ) throws(ResponseError) -> T? where T.RawValue == String {
    guard let value = ValueDecoding.member(params, name) else { return nil }
    guard let text = value.stringValue, let choice = T(rawValue: text) else {
      let names = T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
      throw .invalidParams(field: "params." + name, "must be one of \(names)")
    }
    return choice
  }

  static func finite(_ value: JSON, _ field: String) throws(ResponseError) -> Double {
    guard let number = value.doubleValue, number.isFinite else {
      throw .invalidParams(field: field, "must be a finite number")
    }
    return number
  }

  static func speed(_ value: JSON, _ field: String) throws(ResponseError) -> Double {
    let speed = try finite(value, field)
    guard speed > 0 else { throw .invalidParams(field: field, "must be > 0") }
    return speed
  }

  static func fps(_ value: JSON, _ field: String) throws(ResponseError) -> Double {
    let fps = try finite(value, field)
    guard fps > 0, fps <= 1000 else { throw .invalidParams(field: field, "must be in (0, 1000]") }
    return fps
  }

  static func curve(_ value: JSON, _ field: String) throws(ResponseError) -> TimingCurve {
    do {
      return try ValueDecoding.curve(value, field)
    } catch {
      throw .invalidParams(field: error.field, error.problem)
    }
  }
}

extension JSON {
  /// `value` (a member of this object, possibly absent) as a required string.
  fileprivate func string(at field: String, in value: JSON?) throws(ResponseError) -> String {
    guard let value, !value.isNull else { throw .invalidParams(field: field, "is required") }
    return try value.string(at: field)
  }

  /// `value` (a member of this object, possibly absent) as a required number.
  fileprivate func number(at field: String, in value: JSON?) throws(ResponseError) -> Double {
    guard let value, !value.isNull else { throw .invalidParams(field: field, "is required") }
    return try TransitionSession.finite(value, field)
  }
}
