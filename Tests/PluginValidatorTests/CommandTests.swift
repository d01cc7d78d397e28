import JSON
import PluginValidator
import TestSupport
import Testing

/// `transition-host validate` itself: the real binary, whose hidden `validate --run-check` mode is every check
/// process here (behind the host's stdout protection, which points fd 1 at stderr).
@Suite struct CommandTests {
  static var host: String { BuildProducts.executable("transition-host") }

  @Test func jsonReportOfASoundPluginExitsZero() throws {
    let run = runProgram([
      Self.host, "validate", "--json", "--include", "^(load|run-completes)$", Build.fixture("Minimal"),
    ])
    #expect(run.status == 0, "\(run.errors)")
    let json = try JSON.parse(run.output)
    #expect(json["ok"]?.boolValue == true)
    #expect(json["plugin"]?.stringValue == Build.fixture("Minimal"))
    let results = json["results"]?.elements ?? []
    #expect(results.count == 1 + 8)  // load, then run-completes for fade × 6 operations and slide × 2
    #expect(results.first?["check"]?.stringValue == "load")
    #expect(json["summary"]?["pass"]?.intValue == 8)
    #expect(json["summary"]?["warn"]?.intValue == 1)  // fade dismiss (see BatteryTests)
  }

  @Test func animatorAndOperationFiltersNarrowTheRun() throws {
    let run = runProgram([
      Self.host, "validate", "--json", "--animator", "slide", "--operation", "dismiss", "--operation", "push",
      "--include", "^(load|cancel)$", Build.fixture("Minimal"),
    ])
    #expect(run.status == 0)
    let results = try JSON.parse(run.output)["results"]?.elements ?? []
    // slide declares present and dismiss: push is not one of its operations, so only dismiss runs.
    #expect(
      results.map { [$0["check"]?.stringValue, $0["animator"]?.stringValue, $0["operation"]?.stringValue] }
        == [["load", nil, nil], ["cancel", "slide", "dismiss"]])
  }

  @Test func tableOfFailuresExitsOne() {
    let run = runProgram([
      Self.host, "validate", "--only-failed", "--include", "^(cancel|stdout-silent)$", Build.fixture("ValidateFaulty"),
    ])
    #expect(run.status == 1)
    let lines = run.output.split(separator: "\n").map(String.init)
    #expect(lines.first == "Validating \(Build.fixture("ValidateFaulty"))")
    let failed = lines.filter { $0.contains(" FAIL ") }.map {
      $0.split(separator: " ").prefix(2).joined(separator: " ")
    }
    // never-completes and completes-twice fail run-completes (not selected): cancel skips them.
    #expect(failed == ["cancel ignores-cancel", "stdout-silent prints"])
    // Two checks on (sound × 2 operations + 8 animators × 1) = 20 results.
    #expect(lines.last == "16 passed, 2 failed, 0 crashed, 0 warnings, 2 skipped")
  }

  @Test func crashAndTimeoutDoNotStopTheCommand() {
    let crash = runProgram([Self.host, "validate", "--include", "^run-completes$", Build.fixture("ValidateCrash")])
    #expect(crash.status == 1)
    #expect(crash.output.contains("CRASHED  the check process died from SIGSEGV"))
    let hang = runProgram([
      Self.host, "validate", "--timeout", "0.5", "--include", "^duration$", Build.fixture("ValidateHang"),
    ])
    #expect(hang.status == 1)
    #expect(hang.output.contains("FAIL    timed out after 0.5 s (the check process was killed)"))
  }

  @Test(arguments: [
    (["validate"], "'validate' needs <plugin.so>"),
    (["validate", "a.so", "b.so"], "'validate' takes one <plugin.so>"),
    (["validate", "--timeout", "0", "a.so"], "invalid value '0' for '--timeout'"),
    (["validate", "--timeout", "nan", "a.so"], "invalid value 'nan' for '--timeout'"),
    (["validate", "--jobs", "0", "a.so"], "invalid value '0' for '--jobs'"),
    (["validate", "--include", "(", "a.so"], "invalid regular expression for '--include': ("),
  ])
  func badCommandLinesExitTwo(arguments: [String], message: String) {
    let run = runProgram([Self.host] + arguments)
    #expect(run.status == 2)
    #expect(run.errors.contains(message), "\(run.errors)")
    #expect(run.output.isEmpty)
  }

  @Test func listNamesEveryCheck() {
    let run = runProgram([Self.host, "validate", "--list"])
    #expect(run.status == 0)
    let ids = run.output.split(separator: "\n").map { String($0.prefix { $0 != " " }) }
    #expect(ids == CheckKind.allCases.map(\.rawValue))
  }
}

/// Every built-in animator (Plugins/<Name>) passes the battery: no check fails or crashes. 8 library checks,
/// unknown-extension, and 8 operation checks for each of the two operations each declares.
@Suite struct BuiltInTests {
  @Test(arguments: ["PullDown", "Sheet", "MagicMove", "Flip", "SegueSlide"])
  func builtInAnimatorPassesTheBattery(name: String) {
    let report = Validator(command: Build.checkProcess).validate(
      plugin: BuildProducts.builtInPlugin(name))
    #expect(report.results.filter(\.status.isFailure).map { "\($0.check) \($0.target.label): \($0.explanation)" } == [])
    #expect(report.result(.load)?.status == .pass)
    // SwiftPM links them with RUNPATH $ORIGIN: their own build folder, which only its owner can write.
    #expect(report.result(.runpath)?.status == .pass, "\(report.result(.runpath)?.explanation ?? "")")
    #expect(report.results.count == 8 + 1 + 2 * 8)
    #expect(report.succeeded)
  }
}
