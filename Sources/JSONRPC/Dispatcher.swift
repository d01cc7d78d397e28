import Glibc
import JSON

/// The JSON-RPC 2.0 engine of a connection: it takes one message body at a time, runs the registered
/// handlers and writes every reply (serialized, unframed) through `output`.
///
/// What it guarantees, per the specification:
/// - Text that is not JSON gets one −32700 with `"id": null`; an invalid request object gets −32600,
///   echoing its id when the id itself is valid (`{"id":1}` → −32600 with `"id": 1`, as geth does) and
///   `null` otherwise.
/// - Notifications (no `id` member) are never answered, not even with an error; unknown notifications
///   are ignored.
/// - Methods starting with `rpc.` are reserved: −32601.
/// - Batches: `[]` gets a single −32600; each invalid element its own −32600; a batch of notifications
///   gets no output at all; otherwise one array holding every reply, written when the last one is ready.
/// - `$/cancelRequest {"id"}` answers a pending request with −32800 and drops its later reply;
///   cancelling an unknown or finished request does nothing.
/// - Exactly one reply per request (see `Responder`).
///
/// - Important: Not thread-safe: feed it, and use its responders, from one thread.
package final class Dispatcher {
  /// A handler: reply through the responder now or later.
  package typealias Handler = (Request, Responder) -> Void
  /// A handler that replies before it returns (or defers: `ImmediateReply.deferred()`), with no responder object.
  package typealias ImmediateHandler = (Request, inout ImmediateReply) -> Void

  /// A registered handler of either kind.
  private enum RegisteredHandler {
    case responder(Handler)
    case immediate(ImmediateHandler)
  }

  /// Receives each outgoing message (a reply, a batch reply or a notification) as compact JSON without
  /// framing or newline; the bytes are valid only during the call.
  package var output: (UnsafeRawBufferPointer) -> Void
  /// Where messages are written in place instead (the server's output buffer), so a reply or a frame is written
  /// once, where it is sent from; nil: each message is built in a reused buffer and handed to `output`.
  package var sink: (any MessageSink)?
  /// Receives diagnostics about misuse (a second reply, a dropped responder); nil discards them.
  package var log: ((String) -> Void)?

  private var handlers: [String: RegisteredHandler] = [:]
  /// The last method looked up and its handler (`hasLastLookup` false: none): a stream repeats a few methods, and
  /// comparing a name costs less than hashing it. Kept as separate properties, compared in place (a tuple would be
  /// copied out, name and handler retained, to compare its name).
  private var lastLookupMethod = ""
  private var lastLookupHandler: RegisteredHandler?
  private var hasLastLookup = false
  private let parser: JSONParser
  /// Pending requests by id; weak, so a responder its handler lets go answers −32603 by itself.
  private var pending: [RequestKey: [WeakResponder]] = [:]
  /// Shared by every outgoing notification (a json-c object can have many parents).
  private let versionString = JSON("2.0")
  /// Reused for each reply's bytes (the output callback only borrows them).
  private var scratch: [UInt8] = []
  /// Escapes the strings of error replies (json-c's escaping on one reused object).
  let strings = JSONStringEncoder()

  /// A dispatcher writing to `output`; message bodies may nest `maxDepth` containers.
  package init(maxDepth: Int = 512, output: @escaping (UnsafeRawBufferPointer) -> Void = { _ in }) {
    self.parser = JSONParser(maxDepth: maxDepth)
    self.output = output
  }

  // MARK: Handlers

  /// Registers (or replaces) the handler of `method`.
  package func register(_ method: String, _ handler: @escaping Handler) {
    handlers[method] = .responder(handler)
    hasLastLookup = false
  }

  /// Registers (or replaces) the handler of `method` that replies through an `ImmediateReply` before it returns, or
  /// defers to a responder: the path for requests answered at once (no responder object, no closure per request).
  package func registerImmediate(_ method: String, _ handler: @escaping ImmediateHandler) {
    handlers[method] = .immediate(handler)
    hasLastLookup = false
  }

  /// Registers a handler that answers before it returns: its result is the reply; a thrown
  /// `ResponseError` is the error reply; any other error becomes −32603 with a short `data.detail`.
  package func register(_ method: String, returning handler: @escaping (Request) throws -> JSON) {
    registerImmediate(method) { request, reply in
      do {
        reply.reply(try handler(request))
      } catch let error as ResponseError {
        reply.fail(error)
      } catch {
        reply.fail(.internalError(String(describing: error)))
      }
    }
  }

  // MARK: Input

  /// Decodes and dispatches one message body.
  package func handle(_ body: UnsafeRawBufferPointer) {
    dispatch(decode(body))
  }

  /// Decodes and dispatches one message body given as text.
  package func handle(_ body: String) {
    var body = body
    body.withUTF8 { handle(UnsafeRawBufferPointer($0)) }
  }

  /// Parses and validates one message body without running anything.
  package func decode(_ body: UnsafeRawBufferPointer) -> DecodedMessage {
    let message: JSON
    do {
      message = try parser.parse(body)
    } catch {
      return .failure(.parseError(error))
    }
    guard message.kind == .array else { return .single(decodeEntry(message)) }
    let count = message.count
    guard count > 0 else { return .failure(.invalidRequest("empty batch")) }
    var entries: [DecodedEntry] = []
    entries.reserveCapacity(count)
    for index in 0..<count { entries.append(decodeEntry(message[index]!)) }
    return .batch(entries)
  }

  /// Validates one request object.
  func decodeEntry(_ value: JSON) -> DecodedEntry {
    guard value.kind == .object else {
      return .invalid(.invalidRequest("a request must be an object"), id: .null)
    }
    // The four members are read in one pass over the object (json-c would hash each name to look it up), and looked at
    // in place: only the id and the params are kept (a retain of the tree each), `jsonrpc` and `method` only read.
    return value.withMembers("id", "jsonrpc", "method", "params") { members -> DecodedEntry in
      var id: JSON?
      if let kind = members.kind(0) {
        switch kind {
        case .string, .int, .double, .null: id = members.value(0)
        default: return .invalid(.invalidRequest("id must be a string, a number or null"), id: .null)
        }
      }
      guard members.isString(1, "2.0") else {
        return .invalid(.invalidRequest("jsonrpc must be \"2.0\""), id: id ?? .null)
      }
      guard let method = members.withUTF8(2, methodName) else {
        return .invalid(.invalidRequest("method must be a string"), id: id ?? .null)
      }
      var params: JSON?
      if let kind = members.kind(3) {
        switch kind {
        case .object, .array: params = members.value(3)
        case .null: params = nil
        default: return .invalid(.invalidRequest("params must be an object or an array"), id: id ?? .null)
        }
      }
      return .request(Request(method: method, params: params, id: id))
    }
  }

  /// Runs a decoded message: answers invalid parts, calls handlers, writes (or arranges) the replies.
  package func dispatch(_ message: DecodedMessage) {
    switch message {
    case .failure(let error):
      writeReply(id: .null, result: nil, error: error)
    case .single(.invalid(let error, let id)):
      writeReply(id: id, result: nil, error: error)
    case .single(.request(let request)):
      run(request, batch: nil, slot: 0)
    case .batch(let entries):
      let expected = entries.count { entry in
        if case .request(let request) = entry { return !request.isNotification }
        return true
      }
      let batch = expected > 0 ? BatchReply(expectedReplies: expected, dispatcher: self) : nil
      var slot = 0
      for entry in entries {
        switch entry {
        case .invalid(let error, let id):
          batch?.fill(slot, id: id, result: nil, error: error)
          slot += 1
        case .request(let request):
          run(request, batch: batch, slot: slot)
          if !request.isNotification { slot += 1 }
        }
      }
    }
  }

  private func run(_ request: Request, batch: BatchReply?, slot: Int) {
    let handler = handler(for: request.method)
    if handler == nil && request.method != "$/cancelRequest" {
      // Unknown (or reserved): answered here, with no responder (the error replies' hot path).
      // The id is read in place, not bound (a binding would be a copy: a retain of the request's tree).
      guard !request.isNotification else { return }
      if let batch {
        batch.fill(slot, id: request.id!, result: nil, error: .methodNotFound(request.method))
      } else {
        writeReply(id: request.id!) { appendMethodNotFound(request.method, to: &$0) }
      }
      return
    }
    let waiting: Responder?
    switch handler {
    case .immediate(let handler):
      var reply = ImmediateReply(id: request.id, method: request.method, dispatcher: self, batch: batch, slot: slot)
      handler(request, &reply)
      waiting = reply.finish()
    case .responder(let handler):
      let responder = Responder(id: request.id, method: request.method, dispatcher: self, batch: batch, slot: slot)
      handler(request, responder)
      waiting = responder.hasReplied ? nil : responder
    case nil:
      var reply = ImmediateReply(id: request.id, method: request.method, dispatcher: self, batch: batch, slot: slot)
      cancelRequest(request, &reply)
      waiting = reply.finish()
    }
    if let waiting, let id = request.id {
      waiting.isRegisteredAsPending = true
      pending[RequestKey(id), default: []].append(WeakResponder(waiting))
    }
  }

  /// The text of a `method` string's bytes: the last name read when the bytes are the same. A stream repeats a few
  /// methods, so most messages then make no String (a name longer than 15 bytes is a heap allocation and a UTF-8
  /// check), and the handler and −32601 lookups compare a name with itself, which String does without reading its bytes.
  private func methodName(_ bytes: UnsafeRawBufferPointer) -> String {
    let isLast = lastMethodName.utf8.withContiguousStorageIfAvailable { last in
      last.count == bytes.count && (bytes.isEmpty || memcmp(last.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
    }
    if isLast == true { return lastMethodName }
    lastMethodName = String(decoding: bytes, as: UTF8.self)
    return lastMethodName
  }

  /// The method name `methodName` read last.
  private var lastMethodName = ""

  /// The handler of `method`; nil for one not registered and for every reserved `rpc.` name.
  private func handler(for method: String) -> RegisteredHandler? {
    if hasLastLookup && lastLookupMethod == method { return lastLookupHandler }
    let handler = method.hasPrefix("rpc.") ? nil : handlers[method]
    lastLookupMethod = method
    lastLookupHandler = handler
    hasLastLookup = true
    return handler
  }

  // MARK: Cancellation and pending requests

  private func cancelRequest(_ request: Request, _ responder: inout ImmediateReply) {
    let target: JSON
    do {
      target = try request.requiredParam("id")
    } catch {
      responder.fail(error)
      log?("$/cancelRequest without a valid id ignored")
      return
    }
    switch target.kind {
    case .string, .int, .double:
      // Cancelling an unknown or finished request does nothing (it was answered, or never pending).
      for entry in pending[RequestKey(target)] ?? [] { entry.responder?.cancel() }
      responder.reply(.null)
    default:
      responder.fail(.invalidParams(field: "params.id", "must be a string or a number"))
    }
  }

  /// The number of requests whose handlers have not replied yet.
  package var pendingRequestCount: Int {
    pending.values.reduce(0) { $0 + $1.count { $0.responder.map { !$0.hasReplied } ?? false } }
  }

  /// Answers every pending request with `error` (for example at shutdown) and forgets them.
  package func failAllPending(with error: ResponseError) {
    let responders = pending.values.flatMap { $0.compactMap(\.responder) }
    for responder in responders { responder.fail(error) }
    pending = [:]
  }

  func removePending(_ responder: Responder) {
    guard let id = responder.id else { return }
    let key = RequestKey(id)
    guard var entries = pending[key] else { return }
    entries.removeAll { $0.responder == nil || $0.responder === responder }
    pending[key] = entries.isEmpty ? nil : entries
  }

  func removePendingDeadEntries() {
    for (key, entries) in pending {
      let live = entries.filter { $0.responder != nil }
      pending[key] = live.isEmpty ? nil : live
    }
  }

  // MARK: Output

  /// Writes a notification `{"jsonrpc": "2.0", "method", "params"?}` from the host.
  package func sendNotification(_ method: String, _ params: JSON? = nil) {
    var message = JSONObjectBuilder()
    message.setNew("jsonrpc", versionString)
    message.setNew("method", JSON(method))
    if let params { message.setNew("params", params) }
    write(message.build())
  }

  /// Writes an error reply that belongs to no dispatched request, e.g. for a message the framing layer
  /// rejected (`ResponseError.messageTooLarge`); `id` defaults to `null`.
  package func sendError(_ error: ResponseError, id: JSON = .null) {
    writeReply(id: id, result: nil, error: error)
  }

  /// Appends the reply `{"jsonrpc":"2.0","id":…,` + what `body` appends (`"result":…` or `"error":…`) + `}` to
  /// `buffer`.
  ///
  /// The envelope is written as bytes around the serialized id and result or error (no json-c object is
  /// built for it): the hot path's cheapest way to a reply.
  func appendReply(id: JSON, to buffer: inout [UInt8], _ body: (inout [UInt8]) -> Void) {
    buffer.append(literal: #"{"jsonrpc":"2.0","id":"#)
    id.appendSerialized(to: &buffer)
    buffer.append(UInt8(ascii: ","))
    body(&buffer)
    buffer.append(UInt8(ascii: "}"))
  }

  /// Appends `"result":…` or `"error":…`.
  func appendOutcome(result: JSON?, error: ResponseError?, to buffer: inout [UInt8]) {
    if let error {
      buffer.append(literal: #""error":"#)
      error.appendSerialized(to: &buffer, strings: strings)
    } else {
      buffer.append(literal: #""result":"#)
      (result ?? .null).appendSerialized(to: &buffer)
    }
  }

  /// Appends `"error":` and `ResponseError.methodNotFound(method)`'s object. The objects of the last few unknown
  /// methods are kept: a client that keeps calling a method the host lacks gets each reply for the cost of comparing
  /// a few names (a linear search: a dictionary's string hashing costs more than the few comparisons).
  func appendMethodNotFound(_ method: String, to buffer: inout [UInt8]) {
    buffer.append(literal: #""error":"#)
    if let cached = methodNotFoundObjects.first(where: { $0.method == method }) {
      buffer.append(contentsOf: cached.object)
      return
    }
    var object: [UInt8] = []
    ResponseError.methodNotFound(method).appendSerialized(to: &object, strings: strings)
    if methodNotFoundObjects.count >= 8 { methodNotFoundObjects.removeFirst() }
    methodNotFoundObjects.append((method, object))
    buffer.append(contentsOf: object)
  }

  /// The −32601 error objects of the last unknown methods.
  private var methodNotFoundObjects: [(method: String, object: [UInt8])] = []

  /// Writes the reply whose `"result":…` or `"error":…` `body` appends: into its batch's `slot`, or as a message.
  func writeReply(id: JSON, batch: BatchReply?, slot: Int, _ body: (inout [UInt8]) -> Void) {
    if let batch {
      batch.fill(slot, id: id, body)
    } else {
      writeReply(id: id, body)
    }
  }

  /// Answers −32603 for a request its handler let go without a reply (a released responder, an immediate handler that
  /// returned without replying), and logs it.
  func answerDropped(id: JSON, method: String, batch: BatchReply?, slot: Int) {
    log?("request \(id.serialized()) (\(method)) was dropped without a reply; answering -32603")
    let error = ResponseError.internalError("the request was dropped without a reply")
    writeReply(id: id, batch: batch, slot: slot) { appendOutcome(result: nil, error: error, to: &$0) }
  }

  /// Writes a reply that is not part of a batch.
  func writeReply(id: JSON, result: JSON?, error: ResponseError?) {
    writeReply(id: id) { appendOutcome(result: result, error: error, to: &$0) }
  }

  /// Writes a reply that is not part of a batch; `body` appends `"result":…` or `"error":…`.
  func writeReply(id: JSON, _ body: (inout [UInt8]) -> Void) {
    writeMessage { appendReply(id: id, to: &$0, body) }
  }

  /// Writes one whole message that `write` appends (compact JSON, no newline): straight into `sink` when there is
  /// one, otherwise into a reused buffer handed to `output`.
  package func writeMessage(_ write: (inout [UInt8]) -> Void) {
    if let sink {
      sink.appendMessage(writing: write)
      return
    }
    // Taken out while in use, so an output callback that writes again (reentrantly) gets its own buffer.
    var buffer = scratch
    scratch = []
    buffer.removeAll(keepingCapacity: true)
    write(&buffer)
    buffer.withUnsafeBytes { output($0) }
    scratch = buffer
  }

  /// Writes one whole message already written (compact JSON, no framing; borrowed during the call), in order with
  /// replies: to the sink, which may write it from where it is, or to the output as it is.
  package func writeSerializedMessage(_ body: UnsafeRawBufferPointer) {
    if let sink { return sink.appendMessage(body) }
    output(body)
  }

  /// Writes a whole message given as bytes.
  func write(_ message: [UInt8]) {
    writeMessage { $0.append(contentsOf: message) }
  }

  func write(_ message: JSON) {
    writeMessage { message.appendSerialized(to: &$0) }
  }
}

/// Where whole messages are appended in place: an output buffer that frames each message and writes it later.
package protocol MessageSink: AnyObject {
  /// Appends one message that `write` appends to the buffer (compact JSON, no framing) and frames it.
  func appendMessage(writing write: (inout [UInt8]) -> Void)
  /// Appends one whole message already written (compact JSON, no framing; borrowed during the call) and frames it: a
  /// sink may write a large one from where it is instead of copying it.
  func appendMessage(_ body: UnsafeRawBufferPointer)
}

extension MessageSink {
  package func appendMessage(_ body: UnsafeRawBufferPointer) {
    appendMessage { $0.append(contentsOf: body) }
  }
}

/// Identifies a request id for cancellation: strings by text (by their source text when they have a lone
/// surrogate escape, which their decoded text cannot hold), integers by value, other numbers by their JSON
/// text (exact for integers beyond `Int64`).
struct RequestKey: Hashable {
  private enum Storage: Hashable {
    case null
    case string(String)
    case sourceText(String)
    case integer(Int64)
    case number(String)
  }

  private let storage: Storage

  init(_ id: JSON) {
    switch id.kind {
    case .string: storage = id.sourceText.map { .sourceText($0) } ?? .string(id.stringValue ?? "")
    case .int: storage = .integer(id.intValue ?? 0)
    case .double: storage = .number(id.serialized())
    default: storage = .null
    }
  }
}

struct WeakResponder {
  weak var responder: Responder?

  init(_ responder: Responder) {
    self.responder = responder
  }
}
