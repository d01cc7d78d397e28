import JSON

/// The JSON a check process writes on its stdout: `{"status", "explanation", "animators"?}`, where
/// `animators` (from the `load` check only) is `[{"id", "operations": [String] | null}]`.
package enum CheckResultCoding {
  package static func encode(_ outcome: CheckOutcome) -> String {
    var members: [(String, JSON)] = [
      ("status", JSON(outcome.status.rawValue)),
      ("explanation", JSON(outcome.explanation)),
    ]
    if let animators = outcome.animators {
      var list: [JSON] = []
      for animator in animators {
        let operations: JSON = animator.operations.map { names in JSON.array(names.map { JSON($0) }) } ?? .null
        list.append(.object([("id", JSON(animator.id)), ("operations", operations)]))
      }
      members.append(("animators", .array(list)))
    }
    return JSON.object(members).serialized()
  }

  /// The outcome, or nil when the bytes are not a well-formed result (a check process that died half-way).
  static func decode(_ bytes: [UInt8]) -> CheckOutcome? {
    let json: JSON
    do {
      json = try JSON.parse(String(decoding: bytes, as: UTF8.self))
    } catch {
      return nil
    }
    guard let statusName = json["status"]?.stringValue, let status = CheckStatus(rawValue: statusName),
      let explanation = json["explanation"]?.stringValue
    else { return nil }
    var animators: [DiscoveredAnimator]?
    if let list = json["animators"], list.kind == .array {
      var decoded: [DiscoveredAnimator] = []
      for entry in list.elements {
        guard let id = entry["id"]?.stringValue else { return nil }
        var operations: [String]?
        if let names = entry["operations"], names.kind == .array {
          operations = names.elements.compactMap(\.stringValue)
        }
        decoded.append(DiscoveredAnimator(id: id, operations: operations))
      }
      animators = decoded
    }
    return CheckOutcome(status, explanation, animators: animators)
  }
}

/// A JSON string literal for `text`.
func jsonQuoted(_ text: String) -> String {
  JSON(text).serialized()
}
