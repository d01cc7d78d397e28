import JSON

/// The one way to answer one request.
///
/// A handler either replies before it returns or keeps the responder and replies later; the request is
/// *pending* until then and `$/cancelRequest` can answer it with −32800 (the later reply is then dropped).
/// Exactly one reply is written per request: a second `reply`/`fail` is ignored (and logged), and a
/// responder released without a reply answers −32603 by itself, so no request is ever left hanging.
/// For a notification every call is a no-op.
///
/// - Important: Use it on the dispatcher's thread only.
package final class Responder {
  /// The request's id (nil for a notification).
  package let id: JSON?
  /// The request's method.
  package let method: String
  /// Called once if `$/cancelRequest` cancels this request while it is pending (the −32800 reply has
  /// been written already); lets the handler stop its work.
  package var onCancel: (() -> Void)?

  /// True once a reply (or the cancellation error) was written.
  package private(set) var hasReplied = false
  /// True when `$/cancelRequest` answered this request.
  package private(set) var isCancelled = false

  private let dispatcher: Dispatcher
  private let batch: BatchReply?
  private let slot: Int
  /// True while the request sits in the dispatcher's pending table.
  var isRegisteredAsPending = false

  init(id: JSON?, method: String, dispatcher: Dispatcher, batch: BatchReply?, slot: Int) {
    self.id = id
    self.method = method
    self.dispatcher = dispatcher
    self.batch = batch
    self.slot = slot
    // A notification never gets a reply: treat it as answered from the start.
    self.hasReplied = id == nil
  }

  /// True for a notification: replies are discarded.
  package var isNotification: Bool { id == nil }

  /// Answers with `result` (use `JSON.null` for "no result", as LSP does).
  package func reply(_ result: JSON) {
    deliver(cancelling: false) { dispatcher.appendOutcome(result: result, error: nil, to: &$0) }
  }

  /// Answers with a result that `write` appends as the compact JSON text of one value, straight into the reply (a
  /// frame written by the frame encoder, which must not go through a json-c tree). `write` is not called for a
  /// notification or a request that was answered already.
  package func reply(writingResult write: (inout [UInt8]) -> Void) {
    deliver(cancelling: false) { buffer in
      buffer.append(literal: #""result":"#)
      write(&buffer)
    }
  }

  /// Answers with `error`.
  package func fail(_ error: ResponseError) {
    deliver(cancelling: false) { dispatcher.appendOutcome(result: nil, error: error, to: &$0) }
  }

  /// Answers with −32800 because `$/cancelRequest` named this request.
  func cancel() {
    guard !hasReplied else { return }
    deliver(cancelling: true) { dispatcher.appendOutcome(result: nil, error: .requestCancelled, to: &$0) }
    let onCancel = self.onCancel
    self.onCancel = nil
    onCancel?()
  }

  /// Writes the reply whose `"result":…` or `"error":…` `body` appends, once.
  private func deliver(cancelling: Bool, _ body: (inout [UInt8]) -> Void) {
    guard !hasReplied, let id else {
      if !isNotification && !isCancelled {
        dispatcher.log?("second reply to request \(id?.serialized() ?? "null") (\(method)) ignored")
      }
      return
    }
    hasReplied = true
    isCancelled = cancelling
    dispatcher.writeReply(id: id, batch: batch, slot: slot, body)
    if isRegisteredAsPending { dispatcher.removePending(self) }
  }

  deinit {
    if !hasReplied, let id {
      dispatcher.answerDropped(id: id, method: method, batch: batch, slot: slot)
      if isRegisteredAsPending { dispatcher.removePendingDeadEntries() }
    }
  }
}

/// Collects the replies of one batch and writes them as one array once the last one arrives.
final class BatchReply {
  /// Each member's serialized reply, nil until it arrives.
  private var replies: [[UInt8]?]
  private var missing: Int
  private let dispatcher: Dispatcher

  init(expectedReplies: Int, dispatcher: Dispatcher) {
    replies = Array(repeating: nil, count: expectedReplies)
    missing = expectedReplies
    self.dispatcher = dispatcher
  }

  func fill(_ slot: Int, id: JSON, result: JSON?, error: ResponseError?) {
    fill(slot, id: id) { dispatcher.appendOutcome(result: result, error: error, to: &$0) }
  }

  /// Fills `slot` with the reply whose `"result":…` or `"error":…` `body` appends.
  func fill(_ slot: Int, id: JSON, _ body: (inout [UInt8]) -> Void) {
    guard replies[slot] == nil else { return }
    var reply: [UInt8] = []
    dispatcher.appendReply(id: id, to: &reply, body)
    replies[slot] = reply
    missing -= 1
    guard missing == 0 else { return }
    var array: [UInt8] = [UInt8(ascii: "[")]
    for (index, reply) in replies.enumerated() {
      if index > 0 { array.append(UInt8(ascii: ",")) }
      array.append(contentsOf: reply!)
    }
    array.append(UInt8(ascii: "]"))
    replies = []
    dispatcher.write(array)
  }
}
