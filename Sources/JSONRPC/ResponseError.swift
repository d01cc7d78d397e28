import JSON

/// A JSON-RPC error object: what a failed request gets back.
///
/// `message` is one short sentence; structure goes into `data`. The value is `Sendable` (errors cross
/// `throw`s), so `data` is kept as its JSON text; a reply splices that text in as it is
/// (`appendSerialized(to:)`), and only `data` and `json` parse it again.
package struct ResponseError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The error code.
  package var code: ErrorCode
  /// A short, single-sentence description.
  package var message: String
  /// The compact JSON text of `data`, if any.
  package private(set) var dataText: String?

  /// An error with `code`, `message` and optional structured `data`.
  package init(code: ErrorCode, message: String, data: JSON? = nil) {
    self.code = code
    self.message = message
    self.dataText = data?.serialized()
  }

  /// Additional structured information, as given to `init`.
  package var data: JSON? {
    get {
      guard let dataText else { return nil }
      return try? JSON.parse(dataText)
    }
    set { dataText = newValue?.serialized() }
  }

  package var description: String { "\(code.rawValue): \(message)" }

  /// The error object `{"code", "message", "data"?}`.
  package var json: JSON {
    var builder = JSONObjectBuilder()
    builder.setNew("code", JSON(code.rawValue))
    builder.setNew("message", JSON(message))
    if let data { builder.setNew("data", data) }
    return builder.build()
  }

  /// Appends the error object as compact JSON: the same bytes as `json.appendSerialized(to:)`, but `dataText`
  /// goes in as it is instead of being parsed into a value and serialized again (the error replies' hot path).
  package func appendSerialized(to buffer: inout [UInt8]) {
    buffer.append(contentsOf: #"{"code":"#.utf8)
    buffer.append(contentsOf: String(code.rawValue).utf8)
    buffer.append(contentsOf: #","message":"#.utf8)
    // json-c's escaping, so the text is what the object form would give.
    JSON(message).appendSerialized(to: &buffer)
    if let dataText {
      buffer.append(contentsOf: #","data":"#.utf8)
      buffer.append(contentsOf: dataText.utf8)
    }
    buffer.append(UInt8(ascii: "}"))
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
    ResponseError(code: .methodNotFound, message: "Method not found: \(method).", data: ["method": JSON(method)])
  }

  /// −32602 naming the offending field: `invalidParams(field: "params.transition", "must be a string")`
  /// gives "Invalid params: params.transition must be a string." with `data: {"field": "params.transition"}`.
  package static func invalidParams(field: String, _ problem: String) -> ResponseError {
    ResponseError(
      code: .invalidParams,
      message: "Invalid params: \(field) \(problem).",
      data: ["field": JSON(field)]
    )
  }

  /// −32602 without a single field to blame.
  package static func invalidParams(_ problem: String) -> ResponseError {
    ResponseError(code: .invalidParams, message: "Invalid params: \(problem).")
  }

  /// −32603 for a host bug. `detail` is a short description, never a stack trace; it goes into
  /// `data.detail`, cut to 200 characters.
  package static func internalError(_ detail: String? = nil) -> ResponseError {
    let data: JSON? = detail.map { ["detail": JSON(String($0.prefix(200)))] }
    return ResponseError(code: .internalError, message: "Internal error.", data: data)
  }

  /// −32800 for a request cancelled by `$/cancelRequest`.
  package static var requestCancelled: ResponseError {
    ResponseError(code: .requestCancelled, message: "Request cancelled.")
  }
}
