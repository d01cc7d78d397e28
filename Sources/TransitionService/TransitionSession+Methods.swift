// The transition/… methods on a JSON-RPC dispatcher (Protocol.md, "Transitions"): each decodes its params into the
// typed inputs of TransitionSession+Transitions.swift and sends what that replies. This is the one place where
// transition requests are read from JSON; every refusal names its field (-32602).

import JSON
import JSONRPC
import TransitionEngine

extension TransitionSession {
  func registerTransitionMethods(on dispatcher: Dispatcher) {
    handleRequest(dispatcher, "transition/start") { [unowned self] request, responder throws(ResponseError) in
      let (typed, stream) = try startRequest(try ParamsReader(request))
      start(
        typed, stream: stream, isCancelled: { [weak responder] in responder?.isCancelled ?? true },
        reply: replying(responder, "transition/start"))
    }
    handle(dispatcher, "transition/update") { [unowned self] params, reply throws(ResponseError) in
      let id = try params.id()
      perform(.update(percent: try params.required("percent", ValueDecoding.number)), on: id, reply: reply)
    }
    handle(dispatcher, "transition/pause") { [unowned self] params, reply throws(ResponseError) in
      perform(.pause, on: try params.id(), reply: reply)
    }
    handle(dispatcher, "transition/finish") { [unowned self] params, reply throws(ResponseError) in
      let id = try params.id()
      let velocity = try params.optional("velocity", ValueDecoding.number) ?? 0
      let (speed, curve) = try Self.completionTail(params)
      perform(.finish(velocity: velocity, speed: speed, curve: curve), on: id, reply: reply)
    }
    handle(dispatcher, "transition/cancel") { [unowned self] params, reply throws(ResponseError) in
      let id = try params.id()
      let velocity = try params.optional("velocity", ValueDecoding.number) ?? 0
      let (speed, curve) = try Self.completionTail(params)
      perform(.cancel(velocity: velocity, speed: speed, curve: curve), on: id, reply: reply)
    }
    handle(dispatcher, "transition/release") { [unowned self] params, reply throws(ResponseError) in
      let id = try params.id()
      perform(.release(velocity: try params.optional("velocity", ValueDecoding.number) ?? 0), on: id, reply: reply)
    }
    handle(dispatcher, "transition/gesture") { [unowned self] params, reply throws(ResponseError) in
      let id = try params.id()
      perform(.gesture(try Self.gestureSample(params)), on: id, reply: reply)
    }
    handle(dispatcher, "transition/reverse") { [unowned self] params, reply throws(ResponseError) in
      perform(.reverse, on: try params.id(), reply: reply)
    }
    handle(dispatcher, "transition/sample") { [unowned self] params, reply throws(ResponseError) in
      let id = try params.id()
      let moment: SampleMoment
      switch (params.has("time"), params.has("percent")) {
      case (true, false): moment = .time(try params.required("time", ValueDecoding.number))
      case (false, true): moment = .percent(try params.required("percent", ValueDecoding.number))
      case (false, false): throw .invalidParams(field: "params.time", "or params.percent is required")
      case (true, true): throw .invalidParams(field: "params.percent", "cannot be given with params.time")
      }
      sample(id, at: moment, reply: reply)
    }
    handle(dispatcher, "transition/timeline") { [unowned self] params, reply throws(ResponseError) in
      timeline(try params.id(), reply: reply)
    }
    handle(dispatcher, "transition/tick") { [unowned self] params, reply throws(ResponseError) in
      let dt = try params.required("dt") { v, f throws(FieldError) in
        try ValueDecoding.number(v, f, in: 0...Double.greatestFiniteMagnitude, "must be ≥ 0")
      }
      tick(try params.optional("transition", ValueDecoding.string), by: dt, reply: reply)
    }
    dispatcher.registerImmediate("transition/list") { [unowned self] request, reply in list(request, &reply) }
    handleRequest(dispatcher, "transition/wait") { [unowned self] request, responder throws(ResponseError) in
      try wait(try ParamsReader(request).id(), responder)
    }
  }

  /// `transition/list`: an idle host's list (an editor's poll) is answered here and now, with no responder or closure.
  /// With transitions it waits for the calls made before it into them, so it takes a responder.
  private func list(_ request: Request, _ reply: inout ImmediateReply) {
    guard live.isEmpty, !mustWaitForCatalog else {
      return handle(request, reply.deferred(), "transition/list", false) {
        [unowned self] _, reply throws(ResponseError) in
        list(reply: reply)
      }
    }
    do throws(ResponseError) {
      if request.params != nil { _ = try ParamsReader(request, required: false) }
      reply.reply(writingResult: { Self.appendTransitions([], to: &$0) })
    } catch {
      refuse(error, "transition/list", &reply)
    }
    reportEnds()
  }

  /// The `Reply` that answers `responder` (an error after the plugin log lines that led to it).
  func replying(_ responder: Responder, _ method: String) -> Reply {
    { [unowned self] result in
      switch result {
      case .success(.json(let value)): responder.reply(value)
      case .success(.text(let write)): responder.reply(writingResult: write)
      case .failure(let error): refuse(error, method, responder)
      }
    }
  }

  /// Registers `body` for `method`, with the request's params (an object) to read; what `body` replies (or throws)
  /// is the reply. The typed operation `body` calls reports the ends its calls caused; a request refused before it
  /// ran reports them here. Runs in the session's order (`inOrder`).
  func handle(
    _ dispatcher: Dispatcher, _ method: String, paramsRequired: Bool = true,
    _ body: @escaping (ParamsReader, @escaping Reply) throws(ResponseError) -> Void
  ) {
    dispatcher.register(method) { [unowned self] request, responder in
      handle(request, responder, method, paramsRequired, body)
    }
  }

  /// Runs `body` for `request` in the session's order: at once when nothing waits (the closure `inOrder` keeps is
  /// made only for a request that must queue).
  private func handle(
    _ request: Request, _ responder: Responder, _ method: String, _ paramsRequired: Bool,
    _ body: @escaping (ParamsReader, @escaping Reply) throws(ResponseError) -> Void
  ) {
    guard mustWaitForCatalog else { return run(request, responder, method, paramsRequired, body) }
    inOrder(responder) { [self] in run(request, responder, method, paramsRequired, body) }
  }

  private func run(
    _ request: Request, _ responder: Responder, _ method: String, _ paramsRequired: Bool,
    _ body: (ParamsReader, @escaping Reply) throws(ResponseError) -> Void
  ) {
    do throws(ResponseError) {
      try body(try ParamsReader(request, required: paramsRequired), replying(responder, method))
    } catch {
      refuse(error, method, responder)
      reportEnds()
    }
  }

  /// Registers `body` for `method`; a thrown error is the reply. Plugin log lines and ends that happened meanwhile
  /// are reported afterwards. Runs in the session's order (`inOrder`).
  func handleRequest(
    _ dispatcher: Dispatcher, _ method: String, _ body: @escaping (Request, Responder) throws(ResponseError) -> Void
  ) {
    dispatcher.register(method) { [unowned self] request, responder in
      inOrder(responder) { [self] in
        do throws(ResponseError) {
          try body(request, responder)
        } catch {
          refuse(error, method, responder)
        }
        reportEnds()
      }
    }
  }

  /// The error reply (after the plugin log lines that led to it); a refused notification is a line on stderr.
  private func refuse(_ error: ResponseError, _ method: String, _ responder: Responder) {
    refused(error, method, isNotification: responder.isNotification)
    responder.fail(error)
  }

  /// `refuse` for a request answered through an `ImmediateReply`.
  private func refuse(_ error: ResponseError, _ method: String, _ reply: inout ImmediateReply) {
    refused(error, method, isNotification: reply.isNotification)
    reply.fail(error)
  }

  /// What precedes an error reply: the plugin log lines that led to it, or for a notification a line on stderr.
  private func refused(_ error: ResponseError, _ method: String, isNotification: Bool) {
    flushPluginLogs()
    if isNotification { diagnostic("\(method) notification refused: \(error.message)") }
  }

  // MARK: Decoding

  /// `transition/start`'s params as a typed request and its stream. The animator is resolved before its `params`
  /// are read: its declarations say how to read each value.
  private func startRequest(_ params: ParamsReader) throws(ResponseError) -> (TransitionRequest, StreamOptions) {
    let animator = try params.required("animator", ValueDecoding.string)
    let operation = try params.required("operation", ValueDecoding.string)
    guard !operation.isEmpty else { throw .invalidParams(field: "params.operation", "must not be empty") }
    let interactive = try params.optional("interactive", ValueDecoding.bool)
    var options = TransitionOptions(isInteractive: interactive ?? false)
    // Left open, an interaction controller the animator vends decides (UIKit's wantsInteractiveStart).
    options.interactivityFromController = interactive == nil
    var stream = try Self.streamOptions(params)
    stream.timeline =
      try params.optional("timeline") { value, field throws(FieldError) in
        if let asked = value.boolValue { return asked ? TimelineMode.result : .off }
        guard value.stringValue == "notify" else { throw FieldError(field, "must be true, false or \"notify\"") }
        return .notify
      } ?? .off
    let (speed, curve) = try Self.completionTail(params)
    if let speed { options.completionSpeed = speed }
    if let curve { options.completionCurve = curve }
    for name in ["container", "from", "to"] where !params.has(name) {
      throw .invalidParams(field: "params." + name, "is required")
    }
    // Refused before anything is decoded further: a host at its limit does no work for the request.
    try checkCapacity()
    var values: [String: ParameterValue] = [:]
    if params.has("params") {
      let entry: AnimatorEntry
      do { entry = try catalog.entry(for: animator) } catch { throw .animator(error) }
      values = try AnimatorJSON.parameterValues(params.member("params"), for: entry)
    }
    let trees: ViewTrees
    do {
      trees = try ViewTreeDecoder.decode(
        container: params.member("container")!, from: params.member("from")!, to: params.member("to")!)
    } catch {
      throw error.responseError
    }
    let request = TransitionRequest(
      animator: animator, operation: TransitionOperation(name: operation), trees: trees, params: values,
      options: options,
      treesJSON: [
        "container": params.member("container")!, "from": params.member("from")!, "to": params.member("to")!,
      ])
    return (request, stream)
  }

  /// `clock`, `fps`, `frames` and `precision` of `transition/start` (and `scene/open`, for the transitions a scene
  /// starts).
  static func streamOptions(_ params: ParamsReader) throws(ResponseError) -> StreamOptions {
    let clock: ClockKind = try params.choice("clock") ?? .realtime
    let frames: FrameMode = try params.choice("frames") ?? .full
    let fps = try params.optional("fps") { v, f throws(FieldError) in
      let fps = try ValueDecoding.number(v, f)
      guard fps > 0, fps <= 1000 else { throw FieldError(f, "must be in (0, 1000]") }
      return fps
    }
    let precision = try params.optional("precision") { v, f throws(FieldError) in
      let grid = try ValueDecoding.number(v, f)
      guard let precision = FramePrecision(grid: grid) else { throw FieldError(f, "must be a number > 0") }
      return precision
    }
    return StreamOptions(clock: clock, fps: fps ?? 60, frames: frames, precision: precision)
  }

  /// `transition/gesture`'s sample: `state` and `location` required, `translation` and `velocity` {0, 0} when
  /// absent.
  static func gestureSample(_ params: ParamsReader) throws(ResponseError) -> GestureSample {
    guard let state: GestureSample.State = try params.choice("state") else {
      throw .invalidParams(field: "params.state", "is required")
    }
    return GestureSample(
      state: state, location: try params.required("location", ValueDecoding.point),
      translation: try params.optional("translation", ValueDecoding.point) ?? .zero,
      velocity: try params.optional("velocity", ValueDecoding.point) ?? .zero)
  }

  /// The optional `completionSpeed` and `completionCurve` of start, finish and cancel.
  private static func completionTail(_ params: ParamsReader) throws(ResponseError) -> (
    speed: Double?, curve: TimingCurve?
  ) {
    let speed = try params.optional("completionSpeed") { v, f throws(FieldError) in
      let speed = try ValueDecoding.number(v, f)
      guard speed > 0 else { throw FieldError(f, "must be > 0") }
      return speed
    }
    return (speed, try params.optional("completionCurve", ValueDecoding.curve))
  }
}

/// The params object of one request, read member by member with `ValueDecoding`; a value that cannot be read is the
/// -32602 naming it (`params.<name>…`). An absent member and a null one are the same.
struct ParamsReader {
  /// The params object; nil when the request had none and none was required.
  private let object: JSON?

  /// - Throws: -32602 when the params are not an object, or are missing and `required`.
  init(_ request: Request, required: Bool = true) throws(ResponseError) {
    guard let params = request.params else {
      guard !required else { throw .invalidParams(field: "params", "is required") }
      object = nil
      return
    }
    guard params.kind == .object else { throw .invalidParams(field: "params", "must be an object") }
    object = params
  }

  /// Member `name` (nil when absent or null).
  func member(_ name: String) -> JSON? { object.flatMap { ValueDecoding.member($0, name) } }

  /// Whether member `name` is there (and not null).
  func has(_ name: String) -> Bool { member(name) != nil }

  func optional<T>(_ name: String, _ read: (JSON, String) throws(FieldError) -> T) throws(ResponseError) -> T? {
    guard let value = member(name) else { return nil }
    do { return try read(value, "params." + name) } catch { throw .invalidParams(field: error.field, error.problem) }
  }

  func required<T>(_ name: String, _ read: (JSON, String) throws(FieldError) -> T) throws(ResponseError) -> T {
    guard let value = try optional(name, read) else { throw .invalidParams(field: "params." + name, "is required") }
    return value
  }

  /// One of the raw values of `T` (`clock`, `frames`).
  func choice<T: RawRepresentable & CaseIterable>(_ name: String) throws(ResponseError) -> T?
  where T.RawValue == String {
    try optional(name) { value, field throws(FieldError) in
      guard let text = value.stringValue, let choice = T(rawValue: text) else {
        throw FieldError(field, "must be one of " + T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))
      }
      return choice
    }
  }

  /// The transition id in `transition`.
  func id() throws(ResponseError) -> String { try required("transition", ValueDecoding.string) }
}
