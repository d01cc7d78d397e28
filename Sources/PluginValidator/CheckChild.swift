import JSON
import POSIX

#if canImport(Glibc)
  import Glibc
#endif

/// The check process: runs one check in this process and writes its result, one JSON object and a newline,
/// to `result` (transition-host's hidden `validate --run-check <check> <plugin> <json-args>` mode).
///
/// From the start, fd 1 points at a private temporary file (`StdoutCapture`): whatever the plugin prints there
/// can never reach the result, and `stdout-silent` counts it. A crash or hang of the plugin takes this process
/// down, which the parent reports as `crashed` or a timeout.
package enum CheckChild {
  /// Runs the check named by `arguments` (`<check-id> <plugin> <json-args>`).
  ///
  /// - Returns: 0 when a result was written; 2 for malformed arguments (explained on stderr).
  package static func run(arguments: [String], result: FileDescriptor) -> Int32 {
    guard arguments.count == 3, let kind = CheckKind(rawValue: arguments[0]) else {
      let known = CheckKind.allCases.map(\.rawValue).joined(separator: ", ")
      complain("usage: --run-check <check> <plugin> <json-args>, where <check> is one of \(known)")
      return 2
    }
    // Absolute: dlopen searches the library path for a name without a slash.
    let plugin = absolutePath(arguments[1])
    guard let target = decodeTarget(arguments[2]) else {
      complain("--run-check: <json-args> must be an object such as {\"animator\":\"fade\",\"operation\":\"present\"}")
      return 2
    }
    var failure = ""
    let capture = StdoutCapture(failure: &failure)
    let outcome: CheckOutcome
    if kind.scope != .library && target.animator == nil {
      outcome = .fail("the check \(kind.rawValue) needs an animator")
    } else if kind.scope == .operation && target.operation == nil {
      outcome = .fail("the check \(kind.rawValue) needs an operation")
    } else {
      outcome = perform(kind, plugin: plugin, target: target, capture: capture)
    }
    return (try? result.writeAll(CheckResultCoding.encode(outcome) + "\n")) != nil ? 0 : 1
  }

  /// Runs one check in this process.
  static func perform(_ kind: CheckKind, plugin: String, target: CheckTarget, capture: StdoutCapture?) -> CheckOutcome {
    switch kind {
    case .scanRTLDNow: LibraryChecks.scanRTLDNow(plugin)
    case .runpath: LibraryChecks.runpath(plugin)
    case .entryPoint: LibraryChecks.entryPoint(plugin)
    case .abiVersion: LibraryChecks.abiVersion(plugin)
    case .descriptor: LibraryChecks.descriptor(plugin)
    case .paramDefaults: LibraryChecks.paramDefaults(plugin)
    case .initTwice: LibraryChecks.initTwice(plugin)
    case .load: LibraryChecks.load(plugin)
    case .unknownExtension: OperationChecks.unknownExtension(plugin, target)
    case .duration: OperationChecks.duration(plugin, target)
    case .runCompletes: OperationChecks.runCompletes(plugin, target)
    case .cancel: OperationChecks.cancel(plugin, target)
    case .finish: OperationChecks.finish(plugin, target)
    case .reverse: OperationChecks.reverse(plugin, target)
    case .finiteValues: OperationChecks.finiteValues(plugin, target)
    case .deterministic: OperationChecks.deterministic(plugin, target)
    case .stdoutSilent: OperationChecks.stdoutSilent(plugin, target, capture: capture)
    }
  }

  private static func decodeTarget(_ text: String) -> CheckTarget? {
    guard let json = try? JSON.parse(text), json.kind == .object else { return nil }
    var target = CheckTarget()
    if let animator = json["animator"] {
      guard let value = animator.stringValue else { return nil }
      target.animator = value
    }
    if let operation = json["operation"] {
      guard let value = operation.stringValue else { return nil }
      target.operation = value
    }
    return target
  }

  private static func complain(_ message: String) {
    try? FileDescriptor.standardError.writeAll("transition-host: \(message)\n")
  }
}
