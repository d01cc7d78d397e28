import JSON

/// A JSON-RPC request or notification, as received.
///
/// The values point into the parsed message (no copies); `id` is the original JSON so a reply echoes it
/// exactly (`1`, `"1"`, `1.0` and `9007199254740993` each come back as sent).
package struct Request {
  /// The method name.
  package var method: String
  /// The parameters: an object or an array; nil when absent or `null` (treated alike, as geth does).
  package var params: JSON?
  /// The id: a string, a number or `null`; nil exactly when this is a notification (no `id` member).
  package var id: JSON?

  package init(method: String, params: JSON? = nil, id: JSON?) {
    self.method = method
    self.params = params
    self.id = id
  }

  /// True for a notification (no `id`): it is never answered, not even with an error.
  package var isNotification: Bool {
    // A pattern, not `id == nil`: that goes through JSON's Equatable conformance with an Optional copy per message.
    if case .none = id { return true }
    return false
  }
}

/// One message body as the dispatcher understood it, before anything ran.
///
/// `Dispatcher.decode(_:)` produces it and `Dispatcher.dispatch(_:)` runs it, so a server can look at
/// queued messages first (for example to collapse superseded notifications) and dispatch later.
package enum DecodedMessage {
  /// A single request object, or a single invalid one.
  case single(DecodedEntry)
  /// A non-empty batch, in order.
  case batch([DecodedEntry])
  /// A body that gets one error reply with id `null`: text that is not JSON (−32700) or an empty batch
  /// (−32600).
  case failure(ResponseError)

  /// The valid requests and notifications in the message, in order.
  package var requests: [Request] {
    switch self {
    case .single(.request(let request)): [request]
    case .batch(let entries):
      entries.compactMap {
        if case .request(let request) = $0 { return request }
        return nil
      }
    default: []
    }
  }

  /// The notification when the message is exactly one valid notification (what coalescing looks at).
  package var singleNotification: Request? {
    guard isSingleNotification, case .single(.request(let request)) = self else { return nil }
    return request
  }

  /// Whether the message is exactly one valid notification, read without copying the request out (most messages
  /// are requests, and coalescing asks about each one).
  package var isSingleNotification: Bool {
    switch self {
    case .single(.request(let request)): request.isNotification
    default: false
    }
  }
}

/// One element of a message: a valid request, or an invalid one and the id its error reply carries.
package enum DecodedEntry {
  /// A valid request or notification.
  case request(Request)
  /// Not a valid request: answered with `error`, echoing `id` when one could be read (else `null`).
  case invalid(ResponseError, id: JSON)
}
