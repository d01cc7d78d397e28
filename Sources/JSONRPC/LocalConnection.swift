import JSON

/// An in-process client connected to a `Dispatcher` through real framing: for tests, and for a program that is a
/// client of its own server (`transition-host render`).
///
/// What the client sends goes through a framer and the dispatcher; what the dispatcher writes is framed,
/// split again by a client-side framer and queued as parsed messages (with their exact bytes), so a client sees
/// exactly what a peer on a pipe would see.
///
/// ```swift
/// let connection = LocalConnection()
/// connection.dispatcher.register("sum", returning: { ... })
/// connection.send(#"{"jsonrpc":"2.0","method":"sum","params":[1,2],"id":1}"#)
/// let reply = connection.takeMessages()
/// ```
package final class LocalConnection {
  /// The server side.
  package let dispatcher: Dispatcher
  /// The framing used in both directions.
  package let framing: Framing
  private var serverFramer: AnyMessageFramer
  private var clientFramer: AnyMessageFramer
  /// A message the dispatcher wrote: its bytes (unframed) and their parsed value.
  package struct Received {
    package var bytes: [UInt8]
    package var json: JSON
  }

  private var inbox: [Received] = []
  /// Every byte the dispatcher wrote, framed, in order (when the connection records them).
  package private(set) var outputBytes: [UInt8] = []
  private let recordsOutputBytes: Bool
  private var nextID: Int64 = 1

  /// A connection to a new dispatcher using `framing`, with the given limit per message.
  ///
  /// - Parameter recordsOutputBytes: keep everything the dispatcher wrote in `outputBytes` (tests); a long-lived
  ///   client turns it off so its memory stays bounded.
  package init(
    framing: Framing = .newline, maxMessageBytes: Int = Framing.defaultMaxMessageBytes, recordsOutputBytes: Bool = true
  ) {
    self.framing = framing
    self.recordsOutputBytes = recordsOutputBytes
    self.dispatcher = Dispatcher()
    self.serverFramer = framing.makeFramer(maxMessageBytes: maxMessageBytes)
    // The client side accepts anything the server writes.
    self.clientFramer = framing.makeFramer(maxMessageBytes: Int(Int32.max))
    dispatcher.output = { [unowned self] body in self.receive(body) }
  }

  /// Sends raw bytes to the server side exactly as given (no framing added).
  package func sendRaw(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { chunk in
      serverFramer.feed(chunk) { serve($0) }
    }
  }

  /// Sends one message `text` framed (`text + "\n"`, or with a `Content-Length` header).
  package func send(_ text: String) {
    sendRaw(framing.encode(Array(text.utf8)))
  }

  /// Sends one message framed.
  package func send(_ message: JSON) {
    send(message.serialized())
  }

  /// Signals the end of input to the server-side framer.
  package func closeInput() {
    serverFramer.finish { serve($0) }
  }

  /// Sends a request with a fresh integer id and returns the reply to it (nil if it did not come at
  /// once, e.g. for a pending request). Other messages stay queued.
  package func request(_ method: String, _ params: JSON? = nil) -> JSON? {
    let id = nextID
    nextID += 1
    var message = JSONObjectBuilder()
    message.set("jsonrpc", "2.0")
    message.set("id", JSON(id))
    message.set("method", JSON(method))
    if let params { message.set("params", params) }
    send(message.build())
    guard let index = inbox.firstIndex(where: { $0.json["id"]?.intValue == id }) else { return nil }
    return inbox.remove(at: index).json
  }

  /// Sends a notification.
  package func notify(_ method: String, _ params: JSON? = nil) {
    var message = JSONObjectBuilder()
    message.set("jsonrpc", "2.0")
    message.set("method", JSON(method))
    if let params { message.set("params", params) }
    send(message.build())
  }

  /// Returns and forgets every message received so far, in order.
  package func takeMessages() -> [JSON] {
    takeReceived().map(\.json)
  }

  /// Returns and forgets every message received so far, in order, with its bytes.
  package func takeReceived() -> [Received] {
    defer { inbox = [] }
    return inbox
  }

  private func serve(_ event: FramingEvent) {
    switch event {
    case .message(let body): dispatcher.handle(body)
    case .oversized(let limit): dispatcher.sendError(.messageTooLarge(limit: limit))
    case .framingError(let reason): dispatcher.log?("framing error: \(reason)")
    }
  }

  private func receive(_ body: UnsafeRawBufferPointer) {
    var framed: [UInt8] = []
    framing.encode(body, into: &framed)
    if recordsOutputBytes { outputBytes.append(contentsOf: framed) }
    framed.withUnsafeBytes { chunk in
      clientFramer.feed(chunk) { event in
        guard case .message(let bytes) = event else { preconditionFailure("the dispatcher wrote bad framing") }
        // The dispatcher's output must always be valid JSON.
        inbox.append(Received(bytes: Array(bytes), json: try! JSON.parse(bytes)))
      }
    }
  }
}
