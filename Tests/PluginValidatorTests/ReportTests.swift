import JSON
import Testing

@testable import PluginValidator

/// The table, the summary line, `--only-failed`, the JSON and the exit status, on a report made by hand.
@Suite struct ReportTests {
  static let report = ValidationReport(
    plugin: "/plugins/libExample.so",
    results: [
      CheckResult(check: "load", target: .library, status: .pass, explanation: "loaded", seconds: 0.01),
      CheckResult(
        check: "cancel", target: CheckTarget(animator: "fade", operation: "present"), status: .fail,
        explanation: "cancelled at 10 %:\nended completed", seconds: 0.0123456),
      CheckResult(
        check: "duration", target: CheckTarget(animator: "fade", operation: "dismiss"), status: .warn,
        explanation: "the duration is 0"),
      CheckResult(
        check: "reverse", target: CheckTarget(animator: "fade", operation: "pop"), status: .skip,
        explanation: "nothing to reverse"),
      CheckResult(
        check: "unknown-extension", target: CheckTarget(animator: "fade"), status: .crashed,
        explanation: "the check process died from SIGSEGV (Segmentation fault)"),
    ])

  @Test func summaryCountsEveryStatus() {
    #expect(Self.report.summaryLine == "1 passed, 1 failed, 1 crashed, 1 warning, 1 skipped")
    #expect(Self.report.count(.warn) == 1)
  }

  @Test func exitStatusIsOneOnlyForFailuresAndCrashes() {
    #expect(Self.report.exitStatus == 1)
    let benign = ValidationReport(plugin: "p", results: Self.report.results.filter { !$0.status.isFailure })
    #expect(benign.exitStatus == 0)
    #expect(benign.succeeded)
    let crashOnly = ValidationReport(plugin: "p", results: Self.report.results.filter { $0.status == .crashed })
    #expect(crashOnly.exitStatus == 1)
  }

  @Test func explanationsAreOneLine() {
    #expect(Self.report.results[1].explanation == "cancelled at 10 %: ended completed")
  }

  @Test func tableHasAlignedColumnsAndTheSummary() {
    let lines = Self.report.table().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines[0] == "Validating /plugins/libExample.so")
    #expect(lines[1] == "")
    // The widest entries: "unknown-extension" (17), "ANIMATOR OPERATION" (18), "CRASHED" (7); two spaces between.
    #expect(lines[2] == "CHECK              ANIMATOR OPERATION  STATUS   EXPLANATION")
    #expect(lines[3] == "load               -                   PASS     loaded")
    #expect(lines[4] == "cancel             fade present        FAIL     cancelled at 10 %: ended completed")
    #expect(
      lines[7]
        == "unknown-extension  fade                CRASHED  the check process died from SIGSEGV (Segmentation fault)")
    #expect(lines[8] == "")
    #expect(lines[9] == "1 passed, 1 failed, 1 crashed, 1 warning, 1 skipped")
  }

  @Test func onlyFailedKeepsFailuresAndCrashesButTheFullSummary() {
    let table = Self.report.table(onlyFailed: true)
    let rows = table.split(separator: "\n").map(String.init)
    #expect(rows.contains { $0.hasPrefix("cancel ") })
    #expect(rows.contains { $0.hasPrefix("unknown-extension ") })
    #expect(!rows.contains { $0.hasPrefix("load ") || $0.hasPrefix("duration ") || $0.hasPrefix("reverse ") })
    #expect(rows.last == "1 passed, 1 failed, 1 crashed, 1 warning, 1 skipped")
    let clean = ValidationReport(plugin: "p", results: [Self.report.results[0]]).table(onlyFailed: true)
    #expect(clean.contains("(no failed results)"))
  }

  @Test func jsonFollowsTheDocumentedSchema() throws {
    let json = try JSON.parse(Self.report.json())
    #expect(json["plugin"]?.stringValue == "/plugins/libExample.so")
    #expect(json["ok"]?.boolValue == false)
    let summary = try #require(json["summary"])
    #expect(summary.keys == ["pass", "fail", "warn", "skip", "crashed"])
    for key in summary.keys { #expect(summary[key]?.intValue == 1) }
    let results = try #require(json["results"])
    #expect(results.count == 5)
    let first = try #require(results[0])
    #expect(first.keys == ["check", "animator", "operation", "status", "explanation", "seconds"])
    #expect(first["animator"]?.isNull == true)
    #expect(first["operation"]?.isNull == true)
    let cancel = try #require(results[1])
    #expect(cancel["animator"]?.stringValue == "fade")
    #expect(cancel["operation"]?.stringValue == "present")
    #expect(cancel["status"]?.stringValue == "fail")
    #expect(cancel["seconds"]?.doubleValue == 0.012)  // milliseconds
    #expect(try #require(results[2])["operation"]?.stringValue == "dismiss")
    #expect(try #require(results[4])["status"]?.stringValue == "crashed")

    let failedOnly = try JSON.parse(Self.report.json(onlyFailed: true))
    #expect(failedOnly["results"]?.elements.compactMap { $0["check"]?.stringValue } == ["cancel", "unknown-extension"])
    #expect(failedOnly["summary"]?["pass"]?.intValue == 1)  // the summary still counts everything
  }

  @Test func resultCodingRoundTrips() {
    let outcome = CheckOutcome(
      .pass, "loaded \"x\"",
      animators: [
        DiscoveredAnimator(id: "fade", operations: nil),
        DiscoveredAnimator(id: "slide", operations: ["present", "dismiss"]),
      ])
    #expect(CheckResultCoding.decode(Array(CheckResultCoding.encode(outcome).utf8)) == outcome)
    #expect(CheckResultCoding.decode(Array(#"{"status":"pass"}"#.utf8)) == nil)
    #expect(CheckResultCoding.decode([]) == nil)
  }

  @Test func patternsAreCheckedAndSelectChecks() {
    #expect(ValidatorSettings(include: "^(load").patternError() == "invalid regular expression for '--include': ^(load")
    #expect(
      ValidatorSettings(include: "load", exclude: "[").patternError()?.hasPrefix(
        "invalid regular expression for '--exclude'") == true)
    #expect(ValidatorSettings(include: "cancel|finish").patternError() == nil)
  }

  @Test func relativePathsBecomeAbsolute() {
    #expect(absolutePath("/a/b.so") == "/a/b.so")
    let relative = absolutePath("./lib.so")
    #expect(relative.hasPrefix("/") && relative.hasSuffix("/lib.so") && !relative.contains("/./"))
  }
}
