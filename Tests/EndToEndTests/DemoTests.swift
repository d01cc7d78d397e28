import Foundation
import TestSupport
import Testing

/// `python3` on PATH, if any.
private let python3: String? = {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
  return path.split(separator: ":").map { "\($0)/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}()

/// The repository's root (this file is Tests/EndToEndTests/DemoTests.swift).
private let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

/// One transition's table as Examples/demo.py prints it.
struct DemoTable {
  /// "t4  magic-move · push · 0.5 s · on its own".
  var title: String
  /// The moving views, one column each.
  var columns: [String] = []
  /// Frames: time, percent, phase, and per column x, y, width, height, opacity (nil: not in the container).
  var rows: [(time: Double, percent: Int, phase: String, cells: [[Double]?])] = []
  /// The `↳` lines (release decisions).
  var events: [String] = []
  /// The `→` line: how it ended.
  var ending = ""

  /// The cells of the column named `view`, in row order.
  func column(_ view: String) -> [[Double]?] {
    guard let index = columns.firstIndex(of: view) else { return [] }
    return rows.map { $0.cells[index] }
  }
}

/// `make demo`'s driver, Examples/demo.py, against the built host: it must play Examples/demo.jsonrpc to the end, exit
/// 0, and print tables whose numbers agree with geometry worked out by hand from the conversation's view trees.
@Suite(.enabled(if: python3 != nil, "python3 is not installed: the demo driver (Examples/demo.py) needs it"))
struct DemoTests {
  static let driver = repositoryRoot.appendingPathComponent("Examples/demo.py").path

  /// Runs the driver with `arguments` after the host's path; returns its exit status, stdout and stderr.
  static func runDriver(_ arguments: [String] = []) throws -> (status: ExitStatus?, output: String, errors: String) {
    let run = try HostProcess([driver, BuildProducts.hostBinary] + arguments, executable: python3!)
    run.closeStdin()
    let status = run.waitForExit(timeout: 120)
    return (
      status, String(decoding: run.stdout.all(), as: UTF8.self), String(decoding: run.stderr.all(), as: UTF8.self)
    )
  }

  /// The tables in the driver's output, in order.
  static func tables(_ output: String) -> [DemoTable] {
    var tables: [DemoTable] = []
    for line in output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      if line.first == "t", line.contains(" · ") {
        tables.append(DemoTable(title: line))
        continue
      }
      guard !tables.isEmpty else { continue }
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if line.contains("──") {
        tables[tables.count - 1].columns = trimmed.split(separator: " ").filter { !$0.hasPrefix("─") }.map(
          String.init)
      } else if trimmed.hasPrefix("↳") {
        tables[tables.count - 1].events.append(trimmed)
      } else if trimmed.hasPrefix("→") || trimmed.hasPrefix("✗") {
        tables[tables.count - 1].ending = trimmed
      } else if let row = row(trimmed) {
        tables[tables.count - 1].rows.append(row)
      }
    }
    return tables
  }

  static func row(_ line: String) -> (time: Double, percent: Int, phase: String, cells: [[Double]?])? {
    var tokens = line.replacingOccurrences(of: "(not in the container)", with: "absent").split(separator: " ")
      .map(String.init)
    guard tokens.count >= 3, let time = Double(tokens[0]), let percent = Int(tokens[1]) else { return nil }
    let phase = tokens[2]
    tokens.removeFirst(3)
    var cells: [[Double]?] = []
    while !tokens.isEmpty {
      if tokens[0] == "absent" {
        cells.append(nil)
        tokens.removeFirst()
      } else {
        let numbers = tokens.prefix(5).compactMap(Double.init)
        guard numbers.count == 5 else { return nil }
        cells.append(numbers)
        tokens.removeFirst(5)
      }
    }
    return (time, percent, phase, cells)
  }

  /// Printed with one decimal (two for opacity): equal within half a unit of the last digit.
  static func expectCell(
    _ cell: [Double]?, _ expected: [Double], _ comment: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard let cell else {
      Issue.record("\(comment): the view is not in the container", sourceLocation: sourceLocation)
      return
    }
    for (value, wanted) in zip(cell, expected) {
      #expect(abs(value - wanted) <= 0.051, "\(comment): \(cell) vs \(expected)", sourceLocation: sourceLocation)
    }
  }

  @Test func playsEveryBuiltInAnimatorAndEveryOperationThenExitsZero() throws {
    let (status, output, errors) = try Self.runDriver()
    #expect(status == .exited(0), "demo.py: \(errors)")
    let tables = Self.tables(output)
    // The conversation's transitions, in order: every built-in animator, every operation, two interactive.
    let expected = [
      ("t1", "pull-down · present · 0.5 s · on its own", "completed"),
      ("t2", "pull-down · dismiss · 0.5 s · on its own", "completed"),
      ("t3", "pull-down · present · 0.5 s · interactive", "completed"),
      ("t4", "magic-move · push · 0.5 s · on its own", "completed"),
      ("t5", "magic-move · pop · 0.5 s · on its own", "completed"),
      ("t6", "magic-move · pop · 0.5 s · interactive", "cancelled"),
      ("t7", "flip · present · 0.8 s · on its own", "completed"),
      ("t8", "flip · dismiss · 0.8 s · on its own", "completed"),
      ("t9", "segue-slide · segue · 0.5 s · on its own", "completed"),
      ("t10", "segue-slide · unwind · 0.5 s · on its own", "completed"),
      ("t11", "sheet · present · 1 s · on its own", "completed"),
      ("t12", "sheet · dismiss · 1 s · on its own", "completed"),
    ]
    #expect(tables.count == expected.count)
    for (table, (id, title, ending)) in zip(tables, expected) {
      #expect(table.title.hasPrefix("\(id)  \(title)"), "\(table.title)")
      #expect(table.ending.hasPrefix("→ \(ending)"), "\(table.title): \(table.ending)")
      #expect(table.rows.last?.phase == "ended", "\(table.title)")
      #expect(!table.columns.isEmpty, "\(table.title): no moving view")
    }
    #expect(output.contains("12 transitions: 11 completed, 1 cancelled."))

    // The README's quick start shows the first table: it must be what the demo prints.
    let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let quickStart = try #require(readme.range(of: "## Quick start"))
    let opening = try #require(readme.range(of: "```text\n", range: quickStart.upperBound..<readme.endIndex))
    let closing = try #require(readme.range(of: "```", range: opening.upperBound..<readme.endIndex))
    let excerpt = String(readme[opening.upperBound..<closing.lowerBound])
    #expect(excerpt.hasPrefix("t1  pull-down"))
    #expect(output.contains(excerpt), "README.md's excerpt is not in the demo's output")
  }

  @Test func tablesAgreeWithGeometryWorkedOutByHand() throws {
    let (status, output, errors) = try Self.runDriver()
    #expect(status == .exited(0), "demo.py: \(errors)")
    let tables = Self.tables(output)
    try #require(tables.count == 12)
    let screen: [Double] = [0, 0, 375, 667]

    // pull-down: the presented screen starts one height above the container and ends on it. Present moves it by
    // −667·(1 − p(t)) and dismiss by −667·p(t) with the same curve and times, so the two y's add up to −667.
    let present = tables[0].column("search")
    let dismiss = tables[1].column("search")
    Self.expectCell(present.first!, [0, -667, 375, 667, 1], "pull-down present starts above the container")
    Self.expectCell(present.last!, screen + [1], "pull-down present ends on the container")
    for (up, down) in zip(present.dropLast(), dismiss.dropLast()) {
      #expect(abs(up![1] + down![1] + 667) <= 0.11, "present y \(up![1]) + dismiss y \(down![1]) = −667")
    }
    #expect(dismiss.last! == nil, "the dismissed screen leaves the container")
    #expect(tables[1].ending.hasSuffix("holds home"))

    // The interactive pull-down: held at 30 % and 60 %, released forwards at 0.5/s.
    #expect(tables[2].rows.filter { $0.phase == "paused" }.map(\.percent) == [0, 30, 60])
    #expect(tables[2].events == ["↳ release at 60 % with velocity 0.5/s → finish: finishing"])

    // magic-move push: the snapshot of the second cell's photo starts on it, at cell (189, 72) + image (8, 8),
    // 166 × 166 (the storyboard's), and stays square on its way to the 280 × 280 avatar; the detail fades in.
    let snapshot = tables[3].column("cell2Image-snapshot")
    Self.expectCell(snapshot.first!, [197, 80, 166, 166, 1], "the snapshot starts on the tapped photo")
    for cell in snapshot.compactMap({ $0 }) { #expect(abs(cell[2] - cell[3]) <= 0.11, "square: \(cell)") }
    #expect(snapshot.last! == nil, "the snapshot is removed at the end")
    let detail = tables[3].column("photo").map { $0![4] }
    #expect(detail.first == 0 && detail.last == 1 && detail == detail.sorted(), "the detail fades in: \(detail)")
    // pop: the avatar's snapshot starts on the avatar (48, 72, 280 × 280).
    Self.expectCell(tables[4].column("avatar-snapshot").first!, [48, 72, 280, 280, 1], "the pop starts on the avatar")

    // The interactive pop flicked back past halfway: the velocity decides, and everything is put back.
    #expect(tables[5].events == ["↳ release at 60 % with velocity -1/s → cancel: cancelling"])
    Self.expectCell(tables[5].column("photo").last!, screen + [1], "the detail is back, opaque")

    // flip dismiss starts with the page edge-on at −90° about its left edge: its free edge stands 375 points in
    // front of the hinge, toward an eye 500 points away (m34 = −1/500), so it is magnified 1 / (1 − 375/500) = 4
    // about the container's centre (187.5, 333.5): x from 187.5 − 4 · 187.5 = −562.5 to the hinge at 0, y from
    // 333.5 − 4 · 333.5 = −1000.5 to 333.5 + 4 · 333.5 = 1667.5.
    Self.expectCell(tables[7].column("home").first!, [-562.5, -1000.5, 562.5, 2668, 1], "the page edge-on")
    Self.expectCell(tables[7].column("home").last!, screen + [1], "the page lies flat again")
    Self.expectCell(tables[6].column("home").first!, screen + [1], "flip present starts flat")
    #expect(tables[6].column("flip-shadow").first!![4] == 0, "the shadow starts transparent")

    // segue-slide: from one height below to the container, overshooting on the way (damping ratio 0.5 < 1).
    let segue = tables[8].column("compose")
    Self.expectCell(segue.first!, [0, 667, 375, 667, 1], "the destination starts below the container")
    Self.expectCell(segue.last!, screen + [1], "and lands on it")
    #expect(segue.contains { $0![1] < -1 }, "an underdamped spring overshoots its target")

    // sheet: from the container's bottom (y 667) to the presented frame (y 367) over a dimming view fading to 0.4;
    // dismissal removes the dimming view.
    Self.expectCell(tables[10].column("share").first!, [0, 667, 375, 300, 1], "the sheet starts below")
    Self.expectCell(tables[10].column("share").last!, [0, 367, 375, 300, 1], "the sheet ends on its frame")
    Self.expectCell(tables[10].column("dimming").last!, screen + [0.4], "backgroundAlpha 0.4")
    #expect(tables[11].column("dimming").last! == nil, "the dimming view is gone after the dismissal")
    #expect(tables[11].ending.hasSuffix("holds home"))
  }

  /// A conversation whose expectation is wrong, or that gets an error reply, fails the demo.
  @Test func aWrongExpectationOrAnErrorReplyFailsTheDemo() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("demo-tests-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let start = #"""
      {"jsonrpc": "2.0", "id": 1, "method": "transition/start", "params": {
        "animator": "pull-down", "operation": "present", "clock": "manual", "frames": "full",
        "container": {"width": 375, "height": 667},
        "from": {"id": "a", "frame": {"x": 0, "y": 0, "width": 375, "height": 667}},
        "to": {"id": "b", "frame": {"x": 0, "y": 0, "width": 375, "height": 667}}}}
      {"jsonrpc": "2.0", "id": 2, "method": "transition/tick", "params": {"dt": 0.5}}

      """#
    let wrong = folder.appendingPathComponent("wrong.jsonrpc")
    try (start + #"// expect: {"transition": "t1", "completed": false, "cancelled": true}"#)
      .write(to: wrong, atomically: true, encoding: .utf8)
    let failed = try Self.runDriver(["--script", wrong.path])
    #expect(failed.status == .exited(1))
    #expect(failed.errors.contains("expected {\"transition\":\"t1\",\"completed\":false,\"cancelled\":true}"))

    let unexpected = folder.appendingPathComponent("unexpected.jsonrpc")
    try start.write(to: unexpected, atomically: true, encoding: .utf8)
    let unchecked = try Self.runDriver(["--script", unexpected.path])
    #expect(unchecked.status == .exited(1), "a transition without an expectation")

    let error = folder.appendingPathComponent("error.jsonrpc")
    try start.replacingOccurrences(of: "pull-down", with: "no-such-animator")
      .write(to: error, atomically: true, encoding: .utf8)
    let refused = try Self.runDriver(["--script", error.path])
    #expect(refused.status == .exited(1))
    #expect(refused.errors.contains("transition/start failed: 2001"))
  }
}
