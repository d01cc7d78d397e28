// The preview's timeline lanes: the service's timeline (Protocol.md, `transition/timeline`) turned into what the page
// draws. One row per animated target and property, a bar per animation on it, the bar's progress curve as a polyline
// computed here with the engine's own TimingCurve, Spring and Keyframes (so the picture is the motion the frames show,
// not a second implementation in JavaScript), keyframe ticks, the tails, and for the property plot the row's member
// read from every frame.

import Glibc
import JSON
import TransitionEngine

/// The page data of `PreviewDocument.timeline` (see `PreviewHTML`, "The timeline").
struct PreviewTimeline {
  /// `transition/timeline`'s result (or a `transition/timelineChanged` notification's params).
  let timeline: JSON
  /// The page's frames, for the property plot.
  let frames: [PreviewFrame]

  /// Samples of a curve over one iteration (more at breakpoints: steps, discrete keyframes).
  static let samplesPerIteration = 96
  /// Rows whose member is plotted from the frames (a plot holds one value per frame and component: past this many
  /// rows a page of thousands of animations would grow by megabytes; the lanes still show every row).
  static let plottedRowLimit = 400

  /// `{span, duration, rows: [{target, kind, property, bars: [...], series}], tails: [...], parents}`: every number
  /// the page needs to lay the lanes out (`span` is the axis length in seconds of the transition's timeline).
  func pageData() -> JSON {
    let animations = timeline["animations"]?.elements ?? []
    let tails = timeline["tails"]?.elements ?? []
    let duration = timeline["duration"]?.doubleValue ?? 0
    var span = max(duration, 0)
    var rows: [(target: String, kind: String, property: String, bars: [JSON])] = []
    var rowIndex: [String: Int] = [:]
    for (position, animation) in animations.enumerated() {
      let target = animation["target"]?.stringValue ?? "?"
      let property = animation["property"]?.stringValue ?? "?"
      let lane = LaneAnimation(animation)
      if let end = lane.end, end.isFinite { span = max(span, end) }
      span = max(span, lane.begin)
      let key = target + "\u{0}" + property
      let bar = lane.barJSON(position: animation["index"]?.intValue.map(Int.init) ?? position, raw: animation)
      if let row = rowIndex[key] {
        rows[row].bars.append(bar)
      } else {
        rowIndex[key] = rows.count
        rows.append((target, animation["kind"]?.stringValue ?? "view", property, [bar]))
      }
    }
    for tail in tails {
      for key in ["from", "to"] { if let t = tail[key]?.doubleValue, t.isFinite { span = max(span, t) } }
    }
    for frame in frames { if let t = frame.frame["time"]?.doubleValue, t.isFinite { span = max(span, t) } }
    var parents: [(String, JSON)] = []
    var seen = Set<String>()
    for frame in frames {
      for entry in frame.frame["views"]?.elements ?? [] {
        guard let id = entry["id"]?.stringValue, seen.insert(id).inserted else { continue }
        parents.append((id, entry["parent"]?.stringValue.map { JSON($0) } ?? .null))
      }
    }
    // A target's rows together, in the order the targets were first animated (creation order within a target).
    var targetOrder: [String: Int] = [:]
    for row in rows where targetOrder[row.target] == nil { targetOrder[row.target] = targetOrder.count }
    rows = rows.enumerated().sorted { a, b in
      let (ta, tb) = (targetOrder[a.element.target]!, targetOrder[b.element.target]!)
      return ta != tb ? ta < tb : a.offset < b.offset
    }.map(\.element)
    let rowList = rows.enumerated().map { index, row -> JSON in
      var members: [(String, JSON)] = [
        ("target", JSON(row.target)), ("kind", JSON(row.kind)), ("property", JSON(row.property)),
        ("bars", .array(row.bars)),
      ]
      if index < Self.plottedRowLimit, let series = PlotSeries(target: row.target, property: row.property, frames) {
        members.append(("series", series.json))
      }
      return .object(members)
    }
    return [
      "span": PreviewDocument.number(span > 0 ? span : 1),
      "duration": PreviewDocument.number(duration),
      "rows": .array(rowList),
      "tails": .array(tails.map(Self.tailJSON)),
      "parents": .object(parents),
    ]
  }

  /// A tail: the raw entry and its timing's progress against its own clock time (x in [0, 1] of `length`).
  static func tailJSON(_ tail: JSON) -> JSON {
    let timing = LaneTiming(tail["timing"], duration: tail["length"]?.doubleValue ?? 0)
    let curve = timing.map { timing in
      LaneCurve.sampled(iterations: [(0, 1, false)], breakpoints: timing.breakpoints) { timing.progress(at: $0) }
    }
    var members: [(String, JSON)] = [("d", tail)]
    if let curve { curve.append(to: &members) }
    return .object(members)
  }
}

/// One animation as the lanes read it: its interval, iterations and timing.
struct LaneAnimation {
  var begin: Double
  var duration: Double
  /// begin + the whole active duration; nil when the timeline gives none (it repeats forever).
  var end: Double?
  var timing: LaneTiming?
  var speed: Double
  var timeOffset: Double
  var autoreverses: Bool

  init(_ animation: JSON) {
    begin = animation["begin"]?.doubleValue ?? 0
    duration = max(animation["duration"]?.doubleValue ?? 0, 0)
    end = animation["end"]?.doubleValue
    speed = animation["speed"]?.doubleValue ?? 1
    if !(speed.isFinite && speed != 0) { speed = 1 }
    timeOffset = animation["timeOffset"]?.doubleValue ?? 0
    autoreverses = animation["autoreverses"]?.boolValue ?? false
    timing = LaneTiming(animation["timing"], duration: duration)
  }

  /// The iterations inside the bar as fractions of its width: (start, end, reversed), in order. Without an end (it
  /// repeats forever) the bar is one iteration long.
  var iterations: [(Double, Double, Bool)] {
    let active = (end ?? (begin + duration)) - begin
    guard duration > 0, active > 0, active.isFinite else { return [(0, 1, false)] }
    // Active time a ↦ the animation's own time a·|speed| + timeOffset; an iteration lasts `duration` of it (two
    // with autoreverses: forward then back).
    let rate = abs(speed)
    let local = { (a: Double) in a * rate + timeOffset }
    var result: [(Double, Double, Bool)] = []
    var k = (local(0) / duration).rounded(.down)
    while result.count < 1000 {
      let start = max(0, (k * duration - timeOffset) / rate)
      let stop = min(active, ((k + 1) * duration - timeOffset) / rate)
      if start >= active { break }
      if stop > start {
        let reversed = autoreverses && Int(k).isMultiple(of: 2) == false
        result.append((start / active, stop / active, speed < 0 ? !reversed : reversed))
      }
      k += 1
    }
    return result.isEmpty ? [(0, 1, false)] : result
  }

  /// A bar: `i` the animation's index, `d` its timeline entry, `c`/`lo`/`hi` the curve, `k` keyframe ticks (fractions
  /// of the bar), `o` true when it has no end (open to the right).
  func barJSON(position: Int, raw: JSON) -> JSON {
    var members: [(String, JSON)] = [("i", JSON(position)), ("d", raw)]
    let iterations = self.iterations
    if let timing {
      let curve = LaneCurve.sampled(iterations: iterations, breakpoints: timing.breakpoints) {
        timing.progress(at: $0)
      }
      curve.append(to: &members)
      var ticks: [Double] = []
      for (start, stop, reversed) in iterations.prefix(50) {
        for t in timing.keyTimes ?? [] { ticks.append(start + (reversed ? 1 - t : t) * (stop - start)) }
      }
      if !ticks.isEmpty { members.append(("k", .array(ticks.map { PreviewDocument.number(LaneCurve.rounded($0)) }))) }
    }
    if end == nil || end?.isFinite == false { members.append(("o", JSON(true))) }
    return .object(members)
  }
}

/// A timeline entry's `timing` (Protocol.md): a curve, a spring, or keyframes, evaluated by the engine.
enum LaneTiming {
  case timing(AnimationTiming, duration: Double)
  /// Keyframes: the progress through the key values (the values themselves when they are numbers, normalised to
  /// their range; otherwise through the list, value i at i / (n − 1)), after the animation's own curve, if any.
  case keyframes(Keyframes<Double>, curve: TimingCurve?, keyTimes: [Double], low: Double, high: Double)

  /// Reads `{"curve": …}`, `{"spring": {…}}` or `{"keyframes": {…}}`; nil for anything else.
  init?(_ json: JSON?, duration: Double) {
    guard let json else { return nil }
    if let curve = json["curve"] {
      guard let parsed = Self.curve(curve) else { return nil }
      self = .timing(.curve(parsed), duration: duration)
    } else if let spring = json["spring"] {
      let value = { (key: String) in spring[key]?.doubleValue }
      let length = duration > 0 ? duration : (value("duration") ?? value("settlingDuration"))
      let parsed = Spring(
        mass: value("mass") ?? 1, stiffness: value("stiffness") ?? 100, damping: value("damping") ?? 10,
        initialVelocity: value("initialVelocity") ?? 0, duration: length,
        allowsOverdamping: spring["allowsOverdamping"]?.boolValue ?? false)
      self = .timing(.spring(parsed), duration: length ?? parsed.duration)
    } else if let keyframes = json["keyframes"] {
      let values = keyframes["values"]?.elements ?? []
      let overall = keyframes["curve"].flatMap(Self.curve)
      guard !values.isEmpty else {
        // A CAKeyframeAnimation along a `path` alone: its progress along the path is the animation's curve.
        guard keyframes["path"] != nil else { return nil }
        self = .timing(.curve(overall ?? .linear), duration: duration)
        return
      }
      let mode = keyframes["calculationMode"]?.stringValue.flatMap(KeyframeCalculationMode.init(rawValue:)) ?? .linear
      let keyTimes = keyframes["keyTimes"]?.elements.compactMap(\.doubleValue)
      let functions = keyframes["timingFunctions"]?.elements.compactMap(Self.curve)
      let numbers = values.compactMap(\.doubleValue)
      let track: Keyframes<Double>?
      if numbers.count == values.count {
        track = Keyframes(values: numbers, keyTimes: keyTimes, timingFunctions: functions, mode: mode)
      } else {
        // Values that are not numbers (points, colours, transforms, paths): progress through the list. Pacing needs
        // their distances, which the timeline's key times already reflect, so paced modes use those.
        let indices = values.indices.map { values.count > 1 ? Double($0) / Double(values.count - 1) : 1 }
        let unpaced: KeyframeCalculationMode =
          switch mode {
          case .paced: .linear
          case .cubicPaced: .cubic
          default: mode
          }
        track = Keyframes(values: indices, keyTimes: keyTimes, timingFunctions: functions, mode: unpaced)
      }
      guard let track else { return nil }
      let low = track.values.min() ?? 0
      let high = track.values.max() ?? 1
      self = .keyframes(track, curve: overall, keyTimes: track.keyTimes, low: low, high: high)
    } else {
      return nil
    }
  }

  /// A curve as the protocol writes it: a name, `{"bezier": [x1, y1, x2, y2]}` or `{"steps": n, "position"}`.
  static func curve(_ json: JSON) -> TimingCurve? {
    if let name = json.stringValue { return TimingCurve(name: name) }
    if let points = json["bezier"]?.elements.compactMap(\.doubleValue), points.count == 4 {
      return .bezier(points[0], points[1], points[2], points[3])
    }
    if let steps = json["steps"]?.intValue, steps >= 1 {
      let position = json["position"]?.stringValue.flatMap(StepPosition.init(rawValue:)) ?? .end
      return .steps(Int(min(steps, 1_000_000)), position)
    }
    return nil
  }

  /// Progress at fraction `f` ∈ [0, 1] of one iteration.
  func progress(at f: Double) -> Double {
    switch self {
    case .timing(let timing, let duration):
      return duration > 0 ? timing.progress(elapsed: f * duration, duration: duration) : (f > 0 ? 1 : 0)
    case .keyframes(let track, let curve, _, let low, let high):
      let fraction = curve?.progress(at: f) ?? f
      return high > low ? (track.value(at: fraction) - low) / (high - low) : 1
    }
  }

  /// Where the key times of keyframes fall in the iteration (ticks): the key times themselves, or with the
  /// animation's own curve the fractions it maps onto them (found by bisection: the curve rises monotonically). Nil
  /// for other timings.
  var keyTimes: [Double]? {
    guard case .keyframes(_, let curve, let keyTimes, _, _) = self else { return nil }
    guard let curve, curve != .linear else { return keyTimes }
    return keyTimes.map { keyTime in
      var (low, high) = (0.0, 1.0)
      for _ in 0..<40 {
        let middle = (low + high) / 2
        if curve.progress(at: middle) < keyTime { low = middle } else { high = middle }
      }
      return (low + high) / 2
    }
  }

  /// Fractions where the progress jumps (steps, discrete keyframes): sampled on both sides.
  var breakpoints: [Double] {
    switch self {
    case .timing(.curve(.steps(let n, _)), _) where n <= 256:
      return (0...n).map { Double($0) / Double(n) }
    case .keyframes(let track, nil, let keyTimes, _, _) where track.mode == .discrete:
      return keyTimes
    default:
      return []
    }
  }
}

/// A progress polyline inside a bar: x in [0, 1] of the bar, y the progress (0 at the bar's bottom, 1 at its top;
/// springs and overshooting curves go past), with the y range the bar must show.
struct LaneCurve {
  var points: [Double] = []
  var low = 0.0
  var high = 1.0

  /// Samples `progress` (of a fraction of one iteration) over `iterations` (bar fractions, reversed ones backwards),
  /// evenly and just before and at each breakpoint, so that a jump is vertical.
  static func sampled(
    iterations: [(Double, Double, Bool)], breakpoints: [Double], progress: (Double) -> Double
  ) -> LaneCurve {
    var curve = LaneCurve()
    let count = PreviewTimeline.samplesPerIteration
    let perIteration = max(2, iterations.count > 10 ? count / 4 : count)
    var fractions = (0...perIteration).map { Double($0) / Double(perIteration) }
    for b in breakpoints where b > 0 && b < 1 { fractions += [b.nextDown, b] }
    fractions.sort()
    for (start, stop, reversed) in iterations {
      for f in fractions {
        let x = start + f * (stop - start)
        let local = reversed ? 1 - f : f
        let y = progress(local)
        curve.points += [rounded(x), rounded(y)]
        curve.low = min(curve.low, y)
        curve.high = max(curve.high, y)
      }
    }
    return curve
  }

  func append(to members: inout [(String, JSON)]) {
    members.append(("c", .array(points.map { PreviewDocument.number($0) })))
    if low < 0 { members.append(("lo", PreviewDocument.number(Self.rounded(low)))) }
    if high > 1 { members.append(("hi", PreviewDocument.number(Self.rounded(high)))) }
  }

  /// Four decimals: a ten-thousandth of a bar is far below a pixel.
  static func rounded(_ value: Double) -> Double { value.isFinite ? (value * 1e4).rounded() / 1e4 : 0 }
}

/// The value of a row's property in every frame: the frame member it reads (`center` is `position`, `alpha` and a
/// layer's `opacity` are `alpha`, `transform.scale` is the scale of `transform`, …), one list per frame (null where
/// the target is not in the frame), components that change only (all of them when none does).
struct PlotSeries {
  var member: String
  var labels: [String]
  var values: [[Double]?]

  init?(target: String, property: String, _ frames: [PreviewFrame]) {
    var labels: [String]?
    var member = ""
    var values: [[Double]?] = []
    values.reserveCapacity(frames.count)
    for frame in frames {
      guard let entry = frame.frame["views"]?.elements.first(where: { $0["id"]?.stringValue == target }),
        let read = Self.read(property, entry)
      else {
        values.append(nil)
        continue
      }
      if labels == nil {
        labels = read.labels
        member = read.member
      }
      values.append(read.labels == labels ? read.values : nil)
    }
    guard let labels else { return nil }
    let present = values.compactMap { $0 }
    let changing = labels.indices.filter { c in
      let column = present.map { $0[c] }
      return (column.max() ?? 0) - (column.min() ?? 0) > 1e-9
    }
    let kept = changing.isEmpty ? Array(labels.indices) : changing
    self.member = member
    self.labels = kept.map { labels[$0] }
    self.values = values.map { row in row.map { row in kept.map { row[$0] } } }
  }

  var json: JSON {
    [
      "member": JSON(member), "labels": .array(labels.map { JSON($0) }),
      "values": .array(values.map { $0.map { .array($0.map(PreviewDocument.number)) } ?? .null }),
    ]
  }

  /// The frame member behind `property` and its numeric components in `entry`; nil when the frame has none.
  static func read(_ property: String, _ entry: JSON) -> (member: String, labels: [String], values: [Double])? {
    let path = property.split(separator: ".").map(String.init)
    guard let head = path.first else { return nil }
    switch head {
    case "center", "position":
      return numbers(entry["position"], path: Array(path.dropFirst()), member: "position")
    case "alpha", "opacity":
      return entry["alpha"]?.doubleValue.map { ("alpha", ["alpha"], [$0]) }
    case "transform" where path.count > 1:
      guard let matrix = entry["transform"]?.elements.compactMap(\.doubleValue), matrix.count == 16 else { return nil }
      return transformComponent(Array(path.dropFirst()), matrix)
    default:
      return numbers(entry[head], path: Array(path.dropFirst()), member: head)
    }
  }

  /// Numbers at `path` inside `value`: a number, an array of numbers (a colour, a matrix: named by index, m11…m44 for
  /// 16), an object of numbers (a point, a size, a rect; a rect's `size`/`origin` read as its width and height or x
  /// and y).
  static func numbers(_ value: JSON?, path: [String], member: String) -> (String, [String], [Double])? {
    guard var value else { return nil }
    var name = member
    for component in path {
      name += "." + component
      if let inner = value[component] {
        value = inner
      } else if component == "size", value["width"] != nil {
        return pick(value, ["width", "height"], name)
      } else if component == "origin", value["x"] != nil {
        return pick(value, ["x", "y"], name)
      } else {
        return nil
      }
    }
    if let number = value.doubleValue { return (name, [name], [number]) }
    if value.kind == .array {
      let items = value.elements.compactMap(\.doubleValue)
      guard items.count == value.count, !items.isEmpty else { return nil }
      let labels: [String] =
        switch items.count {
        case 16: (1...4).flatMap { r in (1...4).map { c in "m\(r)\(c)" } }
        case 4 where member.hasSuffix("Color"): ["r", "g", "b", "a"]
        default: items.indices.map { "[\($0)]" }
        }
      return (name, labels, items)
    }
    if value.kind == .object {
      let keys = value.members.filter { $0.value.doubleValue != nil }.map(\.key)
      guard !keys.isEmpty else { return nil }
      return pick(value, keys, name)
    }
    return nil
  }

  private static func pick(_ value: JSON, _ keys: [String], _ name: String) -> (String, [String], [Double])? {
    let items = keys.compactMap { value[$0]?.doubleValue }
    return items.count == keys.count ? (name, keys, items) : nil
  }

  /// `transform.scale(.x|.y|.z)`, `transform.translation(.x|.y|.z)`, `transform.rotation(.z)` read from the matrix
  /// (row vectors: row 1 is the image of the x axis, row 4 the translation); other key paths plot the matrix.
  static func transformComponent(_ path: [String], _ m: [Double]) -> (String, [String], [Double]) {
    let scale = [
      (m[0] * m[0] + m[1] * m[1] + m[2] * m[2]).squareRoot(),
      (m[4] * m[4] + m[5] * m[5] + m[6] * m[6]).squareRoot(),
      (m[8] * m[8] + m[9] * m[9] + m[10] * m[10]).squareRoot(),
    ]
    let translation = [m[12], m[13], m[14]]
    let axis = ["x": 0, "y": 1, "z": 2]
    let name = "transform." + path.joined(separator: ".")
    switch path[0] {
    case "scale":
      if path.count > 1, let i = axis[path[1]] { return (name, [path[1]], [scale[i]]) }
      return (name, ["x", "y"], [scale[0], scale[1]])
    case "translation":
      if path.count > 1, let i = axis[path[1]] { return (name, [path[1]], [translation[i]]) }
      return (name, ["x", "y"], [translation[0], translation[1]])
    case "rotation" where path.count == 1 || path[1] == "z":
      return (name, ["radians"], [atan2(m[1], m[0])])
    default:
      let labels = (1...4).flatMap { r in (1...4).map { c in "m\(r)\(c)" } }
      return ("transform", labels, m)
    }
  }
}
