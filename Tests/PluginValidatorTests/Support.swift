import POSIX
import PluginValidator
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The products the validator's tests use, from the build folder (`BuildProducts.folder`).
enum Build {
  /// Fixture plugin `name` (product `TestPlugin<name>`).
  static func fixture(_ name: String) -> String {
    BuildProducts.fixturePlugin(name)
  }

  /// The check process built for these tests (transition-host's `validate --run-check` mode alone).
  static var checkProcess: CheckCommand {
    CheckCommand(executable: BuildProducts.executable("PluginValidatorCheckProcess"))
  }
}

/// Validates fixture `name` with the test check process.
func validate(
  _ name: String, include: String? = nil, exclude: String? = nil, timeout: Double = 20
) -> ValidationReport {
  Validator(
    command: Build.checkProcess,
    settings: ValidatorSettings(timeout: timeout, include: include, exclude: exclude)
  ).validate(plugin: Build.fixture(name))
}

extension ValidationReport {
  /// `check` or `check@animator` or `check@animator/operation` for every result with `status`, in order.
  func names(_ status: CheckStatus) -> [String] {
    results.filter { $0.status == status }.map(\.name)
  }

  /// The failed checks (failed or crashed) of `animator`, as check ids, without duplicates, in order.
  func failedChecks(of animator: String) -> [String] {
    var seen: [String] = []
    for result in results where result.target.animator == animator && result.status.isFailure {
      if !seen.contains(result.check) { seen.append(result.check) }
    }
    return seen
  }

  /// The explanation of `check` on `target`, or "" when it did not run.
  func explanation(_ check: CheckKind, _ target: CheckTarget = .library) -> String {
    result(check, target)?.explanation ?? ""
  }

  func status(_ check: CheckKind, _ target: CheckTarget = .library) -> CheckStatus? {
    result(check, target)?.status
  }
}

extension CheckResult {
  var name: String {
    guard let animator = target.animator else { return check }
    guard let operation = target.operation else { return "\(check)@\(animator)" }
    return "\(check)@\(animator)/\(operation)"
  }
}

/// What a program run printed and how it ended.
struct ProgramRun {
  var status: Int32
  var output: String
  var errors: String
}

/// Runs `arguments[0]` with the rest as its arguments, stdin empty, stdout and stderr captured in files (no pipe
/// can fill up), and waits for it.
func runProgram(_ arguments: [String]) -> ProgramRun {
  let folder = TemporaryFolder()
  let outputPath = folder.path + "/stdout"
  let errorsPath = folder.path + "/stderr"
  var spawn = ProcessSpawn(executable: arguments[0], arguments: Array(arguments.dropFirst()))
  spawn.standardStreams = [
    0: .file("/dev/null", .readOnly), 1: .file(outputPath, .writeOnly, options: [.create, .truncate]),
    2: .file(errorsPath, .writeOnly, options: [.create, .truncate]),
  ]
  guard let process = try? spawn.spawn(), let ended = try? process.wait() else {
    return ProgramRun(status: -1, output: "", errors: "cannot start \(arguments[0])")
  }
  func contents(_ path: String) -> String { String(decoding: readFile(path), as: UTF8.self) }
  let status: Int32 =
    switch ended {
    case .exited(let code): code
    case .signaled(let signal): -signal
    }
  return ProgramRun(status: status, output: contents(outputPath), errors: contents(errorsPath))
}
