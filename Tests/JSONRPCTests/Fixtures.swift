import JSON
import JSONRPC
import Testing

/// The methods of the JSON-RPC 2.0 specification's examples (section 7); test-only.
final class SpecFixture {
  let connection = LocalConnection()
  /// Notifications received, as (method, params text).
  var notifications: [(String, String)] = []

  init() {
    let dispatcher = connection.dispatcher
    dispatcher.register(
      "subtract",
      returning: { request in
        guard let params = request.params else { throw ResponseError.invalidParams("params are required") }
        if params.kind == .array {
          return JSON(
            try params[0].orMissing("params[0]").integer(at: "params[0]")
              - params[1].orMissing("params[1]").integer(at: "params[1]"))
        }
        let minuend = try request.requiredParam("minuend").integer(at: "params.minuend")
        let subtrahend = try request.requiredParam("subtrahend").integer(at: "params.subtrahend")
        return JSON(minuend - subtrahend)
      })
    dispatcher.register(
      "sum",
      returning: { request in
        let terms = try (request.params ?? .null).array(at: "params")
        var total = 0
        for (index, term) in terms.enumerated() { total += try term.integer(at: "params[\(index)]") }
        return JSON(total)
      })
    dispatcher.register("get_data", returning: { _ in ["hello", 5] })
    for method in ["notify_hello", "notify_sum", "update"] {
      dispatcher.register(method) { [unowned self] request, _ in
        notifications.append((request.method, request.params?.serialized() ?? "-"))
      }
    }
  }
}

extension Optional where Wrapped == JSON {
  func orMissing(_ path: String) throws(ResponseError) -> JSON {
    guard let self else { throw .invalidParams(field: path, "is required") }
    return self
  }
}

/// Whether `actual` is the reply `expected` gives, comparing what the spec fixes: `jsonrpc`, `id` (same
/// kind and value), `result`, or `error.code` (not the wording of `error.message`). Batch replies are
/// compared as multisets.
func replyMatches(_ actual: JSON, _ expected: JSON) -> Bool {
  if expected.kind == .array {
    guard actual.kind == .array, actual.count == expected.count else { return false }
    var unused = actual.elements
    for element in expected.elements {
      guard let index = unused.firstIndex(where: { replyMatches($0, element) }) else { return false }
      unused.remove(at: index)
    }
    return true
  }
  guard actual.kind == .object, actual["jsonrpc"] == "2.0", let id = actual["id"], id == expected["id"] else {
    return false
  }
  if let result = expected["result"] {
    return actual["error"] == nil && actual["result"] == result
  }
  guard let code = expected["error"]?["code"], let error = actual["error"] else { return false }
  return actual["result"] == nil && error["code"] == code && error["message"]?.kind == .string
}
