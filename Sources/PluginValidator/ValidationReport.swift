import JSON

/// Every result of one validation, with the renderings `validate` prints.
package struct ValidationReport: Sendable, Equatable {
  /// The plugin file (absolute).
  package var plugin: String
  /// In report order: library checks, then each animator's.
  package var results: [CheckResult]

  package init(plugin: String, results: [CheckResult]) {
    self.plugin = plugin
    self.results = results
  }

  /// How many results have `status`.
  package func count(_ status: CheckStatus) -> Int {
    results.reduce(0) { $0 + ($1.status == status ? 1 : 0) }
  }

  /// Whether nothing failed or crashed (warnings and skips do not count).
  package var succeeded: Bool { !results.contains { $0.status.isFailure } }

  /// `validate`'s exit status: 0 when nothing failed or crashed, 1 otherwise.
  package var exitStatus: Int32 { succeeded ? 0 : 1 }

  /// The result of `check` on `target`, if it ran.
  package func result(_ check: CheckKind, _ target: CheckTarget = .library) -> CheckResult? {
    results.first { $0.check == check.rawValue && $0.target == target }
  }

  /// `12 passed, 1 failed, 0 crashed, 2 warnings, 3 skipped`.
  package var summaryLine: String {
    let warnings = count(.warn)
    return "\(count(.pass)) passed, \(count(.fail)) failed, \(count(.crashed)) crashed, "
      + "\(warnings) warning\(warnings == 1 ? "" : "s"), \(count(.skip)) skipped"
  }

  private func shown(onlyFailed: Bool) -> [CheckResult] {
    onlyFailed ? results.filter(\.status.isFailure) : results
  }

  /// The table (check, animator/operation, status, explanation), then a blank line and the summary line.
  package func table(onlyFailed: Bool = false) -> String {
    let rows = shown(onlyFailed: onlyFailed).map { [$0.check, $0.target.label, $0.status.label, $0.explanation] }
    let header = ["CHECK", "ANIMATOR OPERATION", "STATUS", "EXPLANATION"]
    var widths = header.map(\.count)
    for row in rows {
      for column in 0..<3 { widths[column] = max(widths[column], row[column].count) }
    }
    func line(_ cells: [String]) -> String {
      var text = ""
      for column in 0..<3 {
        text += cells[column] + String(repeating: " ", count: widths[column] - cells[column].count + 2)
      }
      return text + cells[3] + "\n"
    }
    var text = "Validating \(plugin)\n\n" + line(header)
    for row in rows { text += line(row) }
    if rows.isEmpty { text += "(no \(onlyFailed ? "failed " : "")results)\n" }
    return text + "\n" + summaryLine + "\n"
  }

  /// The report as one JSON object (see docs/validate.md for the schema).
  package func json(onlyFailed: Bool = false) -> String {
    var entries: [JSON] = []
    for result in shown(onlyFailed: onlyFailed) {
      let animator: JSON = result.target.animator.map { JSON($0) } ?? .null
      let operation: JSON = result.target.operation.map { JSON($0) } ?? .null
      entries.append(
        .object([
          ("check", JSON(result.check)),
          ("animator", animator),
          ("operation", operation),
          ("status", JSON(result.status.rawValue)),
          ("explanation", JSON(result.explanation)),
          ("seconds", JSON((result.seconds * 1000).rounded() / 1000)),
        ]))
    }
    let summary = JSON.object(CheckStatus.allCases.map { status in (status.rawValue, JSON(count(status))) })
    return JSON.object([
      ("plugin", JSON(plugin)),
      ("ok", JSON(succeeded)),
      ("summary", summary),
      ("results", .array(entries)),
    ]).serialized()
  }
}
