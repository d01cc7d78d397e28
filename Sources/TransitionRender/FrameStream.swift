// Recorded frames (JSON Lines) back into full frames for the preview: `render --frames FILE.jsonl`.

import JSON

/// Reads a JSON Lines recording of one transition's frames.
///
/// Each line may be a `transition/frame` notification (as the host writes it, or as `render --format jsonl`
/// does), or a bare frame object (a `transition/sample` result); other lines (replies, didEnd, logs, blank lines)
/// are skipped, except the transition's timeline: the last `transition/timelineChanged` notification, `transition/timeline`
/// reply or bare timeline object (`animations` and `tails`) is kept for the lanes. Delta frames (`"delta": true`) are merged into the previous full state: changed fields replace
/// the old ones, views new in the frame are added, `removed` ones dropped, and the drawing order is the frame's.
/// Only the first transition met is kept.
package struct FrameStream {
  /// The full frames, in order.
  package private(set) var frames: [JSON] = []
  /// The transition the frames belong to.
  package private(set) var transition: String?
  /// Lines that were not JSON, with their 1-based numbers.
  package private(set) var invalidLines: [Int] = []
  /// The latest timeline of the transition met in the stream (Protocol.md, `transition/timeline`), or nil.
  package private(set) var timeline: JSON?

  private var state: [String: [(String, JSON)]] = [:]

  package init() {}

  /// Reads every line of `text`.
  package init(text: String) {
    var lineNumber = 0
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      lineNumber += 1
      add(line: String(line), number: lineNumber)
    }
  }

  /// Adds one line.
  package mutating func add(line: String, number: Int) {
    var trimmed = Substring(line)
    while let last = trimmed.last, last == "\r" || last == " " || last == "\t" { trimmed.removeLast() }
    guard !trimmed.isEmpty else { return }
    guard let value = try? JSON.parse(String(trimmed)) else {
      invalidLines.append(number)
      return
    }
    if let candidate = Self.timeline(in: value) {
      let id = candidate["transition"]?.stringValue
      if transition == nil || id == nil || id == transition { timeline = candidate }
      return
    }
    let frame: JSON
    if let method = value["method"]?.stringValue {
      guard method == "transition/frame", let params = value["params"] else { return }
      frame = params
    } else if value["views"] != nil {
      frame = value
    } else {
      return
    }
    guard let views = frame["views"], views.kind == .array else { return }
    let id = frame["transition"]?.stringValue
    if let transition, let id, id != transition { return }
    if transition == nil { transition = id }

    let isDelta = frame["delta"]?.boolValue ?? false
    if !isDelta { state = [:] }
    var order: [String] = []
    for entry in views.elements {
      guard let viewID = entry["id"]?.stringValue else { continue }
      order.append(viewID)
      var members = isDelta ? (state[viewID] ?? []) : []
      for (key, value) in entry.members {
        if let index = members.firstIndex(where: { $0.0 == key }) {
          members[index].1 = value
        } else {
          members.append((key, value))
        }
      }
      state[viewID] = members
    }
    if isDelta, let removed = frame["removed"] {
      for element in removed.elements {
        if let viewID = element.stringValue { state[viewID] = nil }
      }
    }
    // A delta frame lists only the views that changed: the views are the previous ones that were not removed plus
    // the new ones, in the drawing order their zIndex (a changed field, when it changed) gives.
    var fullOrder: [String]
    if isDelta, let previous = frames.last?["views"] {
      fullOrder = previous.elements.compactMap { $0["id"]?.stringValue }.filter { state[$0] != nil }
      for viewID in order where !fullOrder.contains(viewID) { fullOrder.append(viewID) }
      fullOrder.sort { zIndex(of: $0) < zIndex(of: $1) }
    } else {
      fullOrder = order
    }
    var members: [(String, JSON)] = []
    for (key, value) in frame.members where key != "views" && key != "delta" && key != "removed" {
      members.append((key, value))
    }
    members.append(("views", .array(fullOrder.compactMap { state[$0].map { JSON.object($0) } })))
    frames.append(.object(members))
  }

  /// The timeline a line holds: a `transition/timelineChanged` notification's params, a reply's result (or its
  /// `timeline`: transition/start's) or the object itself, when it lists `animations`.
  private static func timeline(in value: JSON) -> JSON? {
    let candidate: JSON?
    if let method = value["method"]?.stringValue {
      candidate = method == "transition/timelineChanged" ? value["params"] : nil
    } else if let result = value["result"] {
      candidate = result["timeline"] ?? result  // transition/start's result carries it as `timeline`
    } else {
      candidate = value
    }
    guard let candidate, candidate.kind == .object, candidate["animations"]?.kind == .array else { return nil }
    return candidate
  }

  private func zIndex(of id: String) -> Int64 {
    state[id]?.first(where: { $0.0 == "zIndex" })?.1.intValue ?? Int64.max
  }

  /// The container's size: the bounds of the view without a parent in the first frame.
  package var containerSize: (width: Double, height: Double)? {
    guard let first = frames.first?["views"] else { return nil }
    for view in first.elements where view["parent"]?.isNull ?? true {
      if let width = view["bounds"]?["width"]?.doubleValue, let height = view["bounds"]?["height"]?.doubleValue,
        width > 0, height > 0
      {
        return (width, height)
      }
    }
    return nil
  }
}
