/// What became of one check (clap-validator's result kinds).
package enum CheckStatus: String, Sendable, Equatable, CaseIterable {
  /// The plugin does what the check asks.
  case pass
  /// The plugin breaks the rule the check tests (also: the check timed out).
  case fail
  /// Legal but suspicious (a zero duration, an operation name no host knows); never changes the exit status.
  case warn
  /// A precondition was not met (the plugin does not load, so its animators cannot be run).
  case skip
  /// The check's process died from a signal (or exited without reporting): the plugin crashed.
  case crashed

  /// Whether this result makes `validate` exit non-zero.
  package var isFailure: Bool { self == .fail || self == .crashed }

  /// The word the table shows.
  package var label: String {
    switch self {
    case .pass: "PASS"
    case .fail: "FAIL"
    case .warn: "WARN"
    case .skip: "SKIP"
    case .crashed: "CRASHED"
    }
  }
}

/// What a check runs on: the whole library, one animator, or one animator with one operation.
package struct CheckTarget: Sendable, Equatable, Hashable {
  /// The animator's short id, or nil for a library check.
  package var animator: String?
  /// The operation, or nil for a library or animator check.
  package var operation: String?

  package init(animator: String? = nil, operation: String? = nil) {
    self.animator = animator
    self.operation = operation
  }

  /// The library itself.
  package static let library = CheckTarget()

  /// `animator` or `animator/operation`; `-` for the library (the table's second column).
  package var label: String {
    guard let animator else { return "-" }
    guard let operation else { return animator }
    return animator + " " + operation
  }
}

/// The outcome of one check on one target, with one line of explanation.
package struct CheckResult: Sendable, Equatable {
  /// The check's id (`CheckKind.rawValue`).
  package var check: String
  package var target: CheckTarget
  package var status: CheckStatus
  /// One line: why it failed, what was skipped, or what was verified.
  package var explanation: String
  /// Wall-clock seconds the check took (its process included); 0 for checks that never ran.
  package var seconds: Double

  package init(check: String, target: CheckTarget, status: CheckStatus, explanation: String, seconds: Double = 0) {
    self.check = check
    self.target = target
    self.status = status
    self.explanation = explanation.oneLine
    self.seconds = seconds
  }
}

/// What a check found, before the parent adds its id, target and time.
package struct CheckOutcome: Sendable, Equatable {
  package var status: CheckStatus
  package var explanation: String
  /// Only from the `load` check: the animators the host found, which the parent then checks one by one.
  package var animators: [DiscoveredAnimator]?

  package init(_ status: CheckStatus, _ explanation: String, animators: [DiscoveredAnimator]? = nil) {
    self.status = status
    self.explanation = explanation.oneLine
    self.animators = animators
  }

  package static func pass(_ explanation: String) -> CheckOutcome { CheckOutcome(.pass, explanation) }
  package static func fail(_ explanation: String) -> CheckOutcome { CheckOutcome(.fail, explanation) }
  package static func warn(_ explanation: String) -> CheckOutcome { CheckOutcome(.warn, explanation) }
  package static func skip(_ explanation: String) -> CheckOutcome { CheckOutcome(.skip, explanation) }
}

/// An animator as the `load` check reports it to the parent.
package struct DiscoveredAnimator: Sendable, Equatable {
  package var id: String
  /// The declared operations; nil means every operation.
  package var operations: [String]?

  package init(id: String, operations: [String]?) {
    self.id = id
    self.operations = operations
  }

  /// The operations the validator runs: the declared ones, or the six standard ones when it takes every operation.
  package var operationsToCheck: [String] {
    operations ?? StandardOperation.names
  }
}

/// The operations UIKit knows (CONVENTIONS, "Protocol values"); others are custom and settle like `present`.
package enum StandardOperation {
  package static let names = ["present", "dismiss", "push", "pop", "segue", "unwind"]
}

extension String {
  /// The text on one line: line breaks and tabs become spaces, runs of spaces collapse, ends trimmed.
  var oneLine: String {
    var result = ""
    var pendingSpace = false
    for character in self {
      if character.isNewline || character == "\t" || character == " " {
        pendingSpace = !result.isEmpty
        continue
      }
      if pendingSpace { result.append(" ") }
      pendingSpace = false
      result.append(character)
    }
    return result
  }
}
