// Expected frames against actual ones: the divergences `compare` reports (docs/golden-traces.md).

import JSON

/// One place where the current run differs from the trace.
package struct TraceDivergence: Equatable, Sendable {
  /// The frame's index in the trace (nil: the transition's end).
  package var frame: Int?
  /// The frame's `at`: seconds on the render clock (the trace's value; the run's when the trace has no such frame).
  package var time: Double?
  /// The view's id (nil: the frame's own members, or the end).
  package var view: String?
  /// The member's path inside the view or frame, e.g. `frame.y`, `transform[12]`, `(view)`, `(frame)`.
  package var member: String
  /// The expected and actual values as JSON text (`missing` when absent).
  package var expected: String
  package var got: String

  /// One line: `t 0.016667 s  view detail  frame.y  expected -823.2  got -829.1`.
  package var line: String {
    var parts: [String] = []
    if let time { parts.append("t \(time) s") } else { parts.append("end") }
    if let frame { parts.append("frame \(frame)") }
    if let view { parts.append("view \(view)") }
    parts.append(member)
    parts.append("expected \(expected)")
    parts.append("got \(got)")
    return parts.joined(separator: "  ")
  }

  /// As data (compare --json, validate --golden).
  package var json: JSON {
    [
      "frame": frame.map { JSON($0) } ?? .null, "time": time.map { JSON($0) } ?? .null,
      "view": view.map { JSON($0) } ?? .null, "member": JSON(member), "expected": JSON(expected), "got": JSON(got),
    ]
  }
}

/// Compares frames; numbers within an absolute tolerance, everything else exactly.
package struct TraceComparison {
  package var tolerance: Double
  /// How many divergences to keep (the count goes on).
  package var limit: Int
  package private(set) var divergences: [TraceDivergence] = []
  package private(set) var count = 0

  package init(tolerance: Double, limit: Int) {
    self.tolerance = tolerance
    self.limit = limit
  }

  private mutating func add(_ divergence: TraceDivergence) {
    count += 1
    if divergences.count < limit { divergences.append(divergence) }
  }

  /// Frame by frame, in order; within a frame the views in the expected drawing order (each member in order, then
  /// views the run has and the trace has not), then the frame's own members.
  package mutating func compare(expected: [JSON], got: [JSON]) {
    for index in 0..<max(expected.count, got.count) {
      guard index < expected.count else {
        let time = got[index]["at"]?.doubleValue
        add(.init(frame: index, time: time, view: nil, member: "(frame)", expected: "missing", got: "a frame"))
        continue
      }
      let want = expected[index]
      let time = want["at"]?.doubleValue
      guard index < got.count else {
        add(.init(frame: index, time: time, view: nil, member: "(frame)", expected: "a frame", got: "missing"))
        continue
      }
      let have = got[index]
      let wantViews = want["views"]?.elements ?? []
      let haveViews = have["views"]?.elements ?? []
      var haveByID: [String: JSON] = [:]
      for view in haveViews { if let id = view["id"]?.stringValue { haveByID[id] = view } }
      var seen: Set<String> = []
      for view in wantViews {
        guard let id = view["id"]?.stringValue else { continue }
        seen.insert(id)
        guard let actual = haveByID[id] else {
          add(.init(frame: index, time: time, view: id, member: "(view)", expected: "present", got: "missing"))
          continue
        }
        compareValue(view, actual, path: "", frame: index, time: time, view: id)
      }
      for view in haveViews {
        guard let id = view["id"]?.stringValue, !seen.contains(id) else { continue }
        add(.init(frame: index, time: time, view: id, member: "(view)", expected: "missing", got: "present"))
      }
      compareMembers(
        want, have, path: "", frame: index, time: time, view: nil, skipping: ["views"])
    }
  }

  /// The end: `completed`, `cancelled`, `reason`.
  package mutating func compare(expectedEnd: JSON, gotEnd: JSON) {
    compareValue(expectedEnd, gotEnd, path: "end", frame: nil, time: nil, view: nil)
  }

  private mutating func compareValue(
    _ want: JSON, _ have: JSON, path: String, frame: Int?, time: Double?, view: String?
  ) {
    let isNumber: (JSON) -> Bool = { $0.kind == .int || $0.kind == .double }
    if isNumber(want) && isNumber(have) {
      let a = want.doubleValue ?? .nan
      let b = have.doubleValue ?? .nan
      if !(abs(a - b) <= tolerance) && a != b {
        add(.init(frame: frame, time: time, view: view, member: path, expected: "\(want)", got: "\(have)"))
      }
      return
    }
    guard want.kind == have.kind else {
      add(.init(frame: frame, time: time, view: view, member: path, expected: "\(want)", got: "\(have)"))
      return
    }
    switch want.kind {
    case .object:
      compareMembers(want, have, path: path, frame: frame, time: time, view: view, skipping: [])
    case .array:
      if want.count != have.count {
        add(
          .init(
            frame: frame, time: time, view: view, member: path, expected: "\(want.count) elements",
            got: "\(have.count) elements"))
        return
      }
      for (offset, (a, b)) in zip(want.elements, have.elements).enumerated() {
        compareValue(a, b, path: "\(path)[\(offset)]", frame: frame, time: time, view: view)
      }
    default:
      if want != have {
        add(.init(frame: frame, time: time, view: view, member: path, expected: "\(want)", got: "\(have)"))
      }
    }
  }

  private mutating func compareMembers(
    _ want: JSON, _ have: JSON, path: String, frame: Int?, time: Double?, view: String?, skipping: Set<String>
  ) {
    func child(_ key: String) -> String { path.isEmpty ? key : path + "." + key }
    for (key, value) in want.members where !skipping.contains(key) {
      guard let actual = have[key] else {
        add(.init(frame: frame, time: time, view: view, member: child(key), expected: "\(value)", got: "missing"))
        continue
      }
      compareValue(value, actual, path: child(key), frame: frame, time: time, view: view)
    }
    for (key, value) in have.members where !skipping.contains(key) && want[key] == nil {
      add(.init(frame: frame, time: time, view: view, member: child(key), expected: "missing", got: "\(value)"))
    }
  }
}
