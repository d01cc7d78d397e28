import JSON

/// The answer to one request whose handler means to reply before it returns: a value on the dispatcher's stack, so
/// a request answered at once costs no `Responder` object, no pending-table entry and no closure.
///
/// The handler borrows it (`inout`) and cannot keep it: it replies through it (once; a second reply is ignored and
/// logged, as a `Responder`'s is), or calls `deferred()` to get a `Responder` and reply later, in which case the request
/// is pending exactly as if it had been registered with a responder handler. A handler that returns without doing
/// either has dropped the request: the dispatcher answers −32603, as a released `Responder` does. For a notification
/// every reply is a no-op.
///
/// - Important: Use it on the dispatcher's thread only, inside the handler's call.
package struct ImmediateReply: ~Copyable {
  /// The request's id (nil for a notification).
  package let id: JSON?
  /// The request's method.
  package let method: String

  /// Not retained: the reply lives inside the dispatcher's own call (`Dispatcher.run`), which keeps it alive.
  private unowned(unsafe) let dispatcher: Dispatcher
  private let batch: BatchReply?
  private let slot: Int
  /// Whether a reply was written, or the request handed to `responder`.
  private(set) var state = State.open

  enum State {
    case open
    case answered
    case deferred(Responder)
  }

  init(id: JSON?, method: String, dispatcher: Dispatcher, batch: BatchReply?, slot: Int) {
    self.id = id
    self.method = method
    self.dispatcher = dispatcher
    self.batch = batch
    self.slot = slot
  }

  /// True for a notification: replies are discarded.
  package var isNotification: Bool {
    if case .none = id { return true }
    return false
  }

  /// Answers with `result` (use `JSON.null` for "no result", as LSP does).
  package mutating func reply(_ result: JSON) {
    deliver { [dispatcher] in dispatcher.appendOutcome(result: result, error: nil, to: &$0) }
  }

  /// Answers with a result that `write` appends as the compact JSON text of one value, straight into the reply (see
  /// `Responder.reply(writingResult:)`). `write` is not called for a notification or a request answered already.
  package mutating func reply(writingResult write: (inout [UInt8]) -> Void) {
    deliver { buffer in
      buffer.append(literal: #""result":"#)
      write(&buffer)
    }
  }

  /// Answers with `error`.
  package mutating func fail(_ error: ResponseError) {
    deliver { [dispatcher] in dispatcher.appendOutcome(result: nil, error: error, to: &$0) }
  }

  /// Hands the request to a `Responder` for a reply after the handler has returned: the request is then pending
  /// (`$/cancelRequest` can answer it) until the responder replies. Call it at most once, before replying.
  package mutating func deferred() -> Responder {
    if case .deferred(let responder) = state { return responder }
    precondition(!isAnswered, "deferred() after a reply")
    let responder = Responder(id: id, method: method, dispatcher: dispatcher, batch: batch, slot: slot)
    state = .deferred(responder)
    return responder
  }

  /// Whether the reply has been written here (not through a responder).
  var isAnswered: Bool {
    if case .answered = state { return true }
    return false
  }

  /// Writes the reply whose `"result":…` or `"error":…` `body` appends, once.
  private mutating func deliver(_ body: (inout [UInt8]) -> Void) {
    guard case .open = state, !isNotification else {
      if case .deferred = state {
        dispatcher.log?("reply to request \(id?.serialized() ?? "null") (\(method)) after deferred() ignored")
      } else if !isNotification {
        dispatcher.log?("second reply to request \(id?.serialized() ?? "null") (\(method)) ignored")
      }
      return
    }
    state = .answered
    // The id is read in place (a `let` binding of it would be a copy: a retain of the request's tree).
    dispatcher.writeReply(id: id!, batch: batch, slot: slot, body)
  }

  /// After the handler returned: −32603 for a request it neither answered nor deferred; the responder of a deferred
  /// one, to be kept as pending (nil when it has replied already).
  consuming func finish() -> Responder? {
    switch state {
    case .answered: return nil
    case .deferred(let responder): return responder.hasReplied ? nil : responder
    case .open:
      if let id { dispatcher.answerDropped(id: id, method: method, batch: batch, slot: slot) }
      return nil
    }
  }
}
