import JSON

/// A JSON-RPC error object: what a failed request gets back.
///
/// `message` is one short sentence; structure goes into `data`. The value is `Sendable` (errors cross
/// `throw`s), so `data` is kept as its JSON text, or — for the common errors that name one thing (a method, a
/// field) — as that one string member, which a reply writes straight into its buffer through json-c's escaping
/// (`appendSerialized(to:strings:)`); only `data` and `dataText` build JSON from it.
package struct ResponseError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The error code.
  package var code: ErrorCode
  /// A short, single-sentence description.
  package var message: String
  private var payload: Payload

  /// What `data` is, kept without a JSON value.
  private enum Payload: Sendable {
    case none
    /// The compact JSON text of `data`.
    case text(String)
    /// `{key: value}`: one member whose value is a string (the key a literal that needs no escaping).
    case member(key: StaticString, value: String)
  }

  /// An error with `code`, `message` and optional structured `data`.
  package init(code: ErrorCode, message: String, data: JSON? = nil) {
    self.code = code
    self.message = message
    self.payload = data.map { .text($0.serialized()) } ?? .none
  }

  /// An error whose `data` is `{key: value}` (the common shape: `{"field": "params.x"}`, `{"method": "x"}`).
  package init(code: ErrorCode, message: String, dataMember key: StaticString, _ value: String) {
    self.code = code
    self.message = message
    self.payload = .member(key: key, value: value)
  }

  /// The compact JSON text of `data`, if any.
  package var dataText: String? {
    switch payload {
    case .none: nil
    case .text(let text): text
    case .member(let key, let value): JSON.object([(key.description, JSON(value))]).serialized()
    }
  }

  /// Additional structured information, as given to `init`.
  package var data: JSON? {
    get {
      guard let dataText else { return nil }
      return try? JSON.parse(dataText)
    }
    set { payload = newValue.map { .text($0.serialized()) } ?? .none }
  }

  package var description: String { "\(code.rawValue): \(message)" }

  package static func == (lhs: ResponseError, rhs: ResponseError) -> Bool {
    lhs.code == rhs.code && lhs.message == rhs.message && lhs.dataText == rhs.dataText
  }

  /// The error object `{"code", "message", "data"?}`.
  package var json: JSON {
    var builder = JSONObjectBuilder()
    builder.setNew("code", JSON(code.rawValue))
    builder.setNew("message", JSON(message))
    if let data { builder.setNew("data", data) }
    return builder.build()
  }

  /// Appends the error object as compact JSON: the same bytes as `json.appendSerialized(to:)`, but nothing is built
  /// for it: the strings go through `strings` (json-c's escaping on one reused object) and a `data` text goes in as
  /// it is (the error replies' hot path).
  package func appendSerialized(to buffer: inout [UInt8], strings: JSONStringEncoder) {
    buffer.append(literal: #"{"code":"#)
    buffer.append(contentsOf: String(code.rawValue).utf8)
    buffer.append(literal: #","message":"#)
    strings.append(message, to: &buffer)
    switch payload {
    case .none: break
    case .text(let text):
      buffer.append(literal: #","data":"#)
      buffer.append(contentsOf: text.utf8)
    case .member(let key, let value):
      buffer.append(literal: #","data":{""#)
      buffer.append(literal: key)
      buffer.append(literal: #"":"#)
      strings.append(value, to: &buffer)
      buffer.append(UInt8(ascii: "}"))
    }
    buffer.append(UInt8(ascii: "}"))
  }

  /// `appendSerialized(to:strings:)` with a string encoder of its own.
  package func appendSerialized(to buffer: inout [UInt8]) {
    appendSerialized(to: &buffer, strings: JSONStringEncoder())
  }

  // MARK: Factories

  /// −32700 for text that is not JSON; `data` carries the byte offset and json-c's reason.
  package static func parseError(_ error: JSONParseError) -> ResponseError {
    ResponseError(
      code: .parseError,
      message: "Parse error: \(error.reason) at byte \(error.offset).",
      data: ["offset": JSON(error.offset), "reason": JSON(error.reason)]
    )
  }

  /// −32600 for JSON that is not a valid request; `reason` says why ("jsonrpc must be \"2.0\"").
  package static func invalidRequest(_ reason: String) -> ResponseError {
    ResponseError(code: .invalidRequest, message: "Invalid Request: \(reason).")
  }

  /// −32600 for a message longer than the framing limit (the host skipped it without reading it whole).
  package static func messageTooLarge(limit: Int) -> ResponseError {
    ResponseError(
      code: .invalidRequest,
      message: "Invalid Request: message longer than the limit of \(limit) bytes.",
      data: ["limit": JSON(limit)]
    )
  }

  /// −32601 for a method the host does not have.
  package static func methodNotFound(_ method: String) -> ResponseError {
    ResponseError(code: .methodNotFound, message: "Method not found: \(method).", dataMember: "method", method)
  }

  /// −32602 naming the offending field: `invalidParams(field: "params.transition", "must be a string")`
  /// gives "Invalid params: params.transition must be a string." with `data: {"field": "params.transition"}`.
  package static func invalidParams(field: String, _ problem: String) -> ResponseError {
    ResponseError(code: .invalidParams, message: "Invalid params: \(field) \(problem).", dataMember: "field", field)
  }

  /// −32602 without a single field to blame.
  package static func invalidParams(_ problem: String) -> ResponseError {
    ResponseError(code: .invalidParams, message: "Invalid params: \(problem).")
  }

  /// −32603 for a host bug. `detail` is a short description, never a stack trace; it goes into
  /// `data.detail`, cut to 200 characters.
  package static func internalError(_ detail: String? = nil) -> ResponseError {
    guard let detail else { return ResponseError(code: .internalError, message: "Internal error.") }
    return ResponseError(
      code: .internalError, message: "Internal error.", dataMember: "detail", String(detail.prefix(200)))
  }

  /// −32800 for a request cancelled by `$/cancelRequest`.
  package static var requestCancelled: ResponseError {
    ResponseError(code: .requestCancelled, message: "Request cancelled.")
  }
}
