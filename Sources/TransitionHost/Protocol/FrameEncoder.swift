// Frames: what a transition looks like at one moment, as `transition/frame` notifications and `transition/sample`
// results (CONVENTIONS, "View trees and frames"). The hot path: every entry is written straight into one reused
// buffer, numbers with their shortest digits.

import JSON
import TransitionEngine

/// Which frames a transition streams (`transition/start`'s `frames`).
enum FrameMode: String, CaseIterable {
  /// Every view with every field, and `content`.
  case full
  /// The first frame full; then only the views and fields that changed since the previous frame, plus `removed`.
  case delta
  /// No frames (didEnd is still sent).
  case none
}

/// The header of a frame: which transition, which moment.
struct FrameHeader {
  var transition: String
  /// The position in the transition's stream (0 for the first frame); nil for a sample, which is not part of it.
  var seq: Int?
  var time: Double
  var percent: Double
  var phase: String
}

/// Encodes one transition's frames, keeping what delta frames compare against.
///
/// A frame object: `{"transition", "seq"?, "time", "percent", "phase", "views": [...], "delta"?: true,
/// "removed"?: [ids]}`. Each full entry: `id`, `parent` (null for the container), `frame`, `bounds`, `position`,
/// `anchorPoint`, `transform`, `worldTransform`, `boundingBox` (null when a corner is behind the eye), `alpha`,
/// `opacity`, `hidden`, `zIndex`, `backgroundColor` (null when none), `cornerRadius`, `clipsToBounds`, then
/// `gradient` and `snapshotOf` when the view has them, then `content` when the client gave one.
struct FrameEncoder {
  /// The text of the last message or object encoded (reused between frames).
  private(set) var output = JSONBytes(capacity: 8192)
  /// The states of the frame being encoded (filled by the caller: `Scene.presentation(at:into:)`).
  var states: [ViewState] = []
  /// The states of the previous streamed frame, and where each id is in it (delta mode).
  private var previous: [ViewState] = []
  private var previousIndex: [String: Int] = [:]
  private var currentIDs: Set<String> = []
  /// Whether a streamed frame was encoded already (the first delta frame is full).
  private(set) var hasStreamed = false

  init() {}

  /// Encodes `states` as a whole `transition/frame` notification message (`{"jsonrpc":"2.0","method":…,
  /// "params":…}`) for the stream: full, or delta against the previous streamed frame. The result is in `output`.
  mutating func encodeNotification(_ header: FrameHeader, mode: FrameMode, contents: [String: JSON]) {
    output.reset()
    output.raw(#"{"jsonrpc":"2.0","method":"transition/frame","params":"#)
    let asDelta = mode == .delta && hasStreamed
    writeObject(header, delta: asDelta, contents: contents)
    output.byte(UInt8(ascii: "}"))
    hasStreamed = true
    if mode == .delta {
      swap(&previous, &states)
      previousIndex.removeAll(keepingCapacity: true)
      for (index, state) in previous.enumerated() { previousIndex[state.id] = index }
    }
  }

  /// Encodes `states` as a full frame object (a `transition/sample` result); the stream's delta baseline is left
  /// alone. The result is in `output`.
  mutating func encodeObject(_ header: FrameHeader, contents: [String: JSON]) {
    output.reset()
    writeObject(header, delta: false, contents: contents)
  }

  private mutating func writeObject(_ header: FrameHeader, delta: Bool, contents: [String: JSON]) {
    output.raw(#"{"transition":"#)
    output.string(header.transition)
    if let seq = header.seq {
      output.nextKey("seq")
      output.integer(Int64(seq))
    }
    output.nextKey("time")
    output.number(header.time)
    output.nextKey("percent")
    output.number(header.percent)
    output.nextKey("phase")
    output.string(header.phase)
    output.nextKey("views")
    output.byte(UInt8(ascii: "["))
    var first = true
    if delta {
      currentIDs.removeAll(keepingCapacity: true)
      for state in states {
        currentIDs.insert(state.id)
        if let index = previousIndex[state.id] {
          writeChanges(state, since: previous[index], first: &first)
        } else {
          if !first { output.byte(UInt8(ascii: ",")) }
          first = false
          writeFull(state, content: contents[state.id])
        }
      }
    } else {
      for state in states {
        if !first { output.byte(UInt8(ascii: ",")) }
        first = false
        writeFull(state, content: contents[state.id])
      }
    }
    output.byte(UInt8(ascii: "]"))
    if delta {
      output.nextKey("delta")
      output.bool(true)
      var removedFirst = true
      for old in previous where !currentIDs.contains(old.id) {
        if removedFirst {
          output.nextKey("removed")
          output.byte(UInt8(ascii: "["))
          removedFirst = false
        } else {
          output.byte(UInt8(ascii: ","))
        }
        output.string(old.id)
      }
      if !removedFirst { output.byte(UInt8(ascii: "]")) }
    }
    output.byte(UInt8(ascii: "}"))
  }

  // MARK: Entries

  private mutating func writeFull(_ s: ViewState, content: JSON?) {
    output.raw(#"{"id":"#)
    output.string(s.id)
    output.nextKey("parent")
    if let parent = s.parentID { output.string(parent) } else { output.null() }
    output.nextKey("frame")
    writeRect(s.frame)
    output.nextKey("bounds")
    writeRect(s.bounds)
    output.nextKey("position")
    writePoint(s.position)
    output.nextKey("anchorPoint")
    writePoint(s.anchorPoint)
    output.nextKey("transform")
    writeMatrix(s.transform)
    output.nextKey("worldTransform")
    writeMatrix(s.worldTransform)
    output.nextKey("boundingBox")
    writeOptionalRect(s.boundingBox)
    output.nextKey("alpha")
    output.number(s.alpha)
    output.nextKey("opacity")
    output.number(s.opacity)
    output.nextKey("hidden")
    output.bool(s.isHidden)
    output.nextKey("zIndex")
    output.integer(Int64(s.zIndex))
    output.nextKey("backgroundColor")
    writeOptionalColor(s.backgroundColor)
    output.nextKey("cornerRadius")
    output.number(s.cornerRadius)
    output.nextKey("clipsToBounds")
    output.bool(s.clipsToBounds)
    if let gradient = s.gradient {
      output.nextKey("gradient")
      writeGradient(gradient)
    }
    if let snapshotOf = s.snapshotOf {
      output.nextKey("snapshotOf")
      output.string(snapshotOf)
    }
    if let content {
      output.nextKey("content")
      output.json(content)
    }
    output.byte(UInt8(ascii: "}"))
  }

  /// Writes `{"id", changed fields…}` when anything changed; nothing otherwise.
  private mutating func writeChanges(_ s: ViewState, since o: ViewState, first: inout Bool) {
    let mark = output.bytes.count
    if !first { output.byte(UInt8(ascii: ",")) }
    output.raw(#"{"id":"#)
    output.string(s.id)
    let afterID = output.bytes.count
    if s.parentID != o.parentID {
      output.nextKey("parent")
      if let parent = s.parentID { output.string(parent) } else { output.null() }
    }
    if s.frame != o.frame {
      output.nextKey("frame")
      writeRect(s.frame)
    }
    if s.bounds != o.bounds {
      output.nextKey("bounds")
      writeRect(s.bounds)
    }
    if s.position != o.position {
      output.nextKey("position")
      writePoint(s.position)
    }
    if s.anchorPoint != o.anchorPoint {
      output.nextKey("anchorPoint")
      writePoint(s.anchorPoint)
    }
    if s.transform != o.transform {
      output.nextKey("transform")
      writeMatrix(s.transform)
    }
    if s.worldTransform != o.worldTransform {
      output.nextKey("worldTransform")
      writeMatrix(s.worldTransform)
    }
    if s.boundingBox != o.boundingBox {
      output.nextKey("boundingBox")
      writeOptionalRect(s.boundingBox)
    }
    if s.alpha != o.alpha {
      output.nextKey("alpha")
      output.number(s.alpha)
    }
    if s.opacity != o.opacity {
      output.nextKey("opacity")
      output.number(s.opacity)
    }
    if s.isHidden != o.isHidden {
      output.nextKey("hidden")
      output.bool(s.isHidden)
    }
    if s.zIndex != o.zIndex {
      output.nextKey("zIndex")
      output.integer(Int64(s.zIndex))
    }
    if s.backgroundColor != o.backgroundColor {
      output.nextKey("backgroundColor")
      writeOptionalColor(s.backgroundColor)
    }
    if s.cornerRadius != o.cornerRadius {
      output.nextKey("cornerRadius")
      output.number(s.cornerRadius)
    }
    if s.clipsToBounds != o.clipsToBounds {
      output.nextKey("clipsToBounds")
      output.bool(s.clipsToBounds)
    }
    if s.gradient != o.gradient {
      output.nextKey("gradient")
      if let gradient = s.gradient { writeGradient(gradient) } else { output.null() }
    }
    if s.snapshotOf != o.snapshotOf {
      output.nextKey("snapshotOf")
      if let snapshotOf = s.snapshotOf { output.string(snapshotOf) } else { output.null() }
    }
    guard output.bytes.count > afterID else {
      output.bytes.removeSubrange(mark...)
      return
    }
    output.byte(UInt8(ascii: "}"))
    first = false
  }

  // MARK: Values

  private mutating func writeRect(_ r: Rect) {
    output.raw(#"{"x":"#)
    output.number(r.origin.x)
    output.raw(#","y":"#)
    output.number(r.origin.y)
    output.raw(#","width":"#)
    output.number(r.size.width)
    output.raw(#","height":"#)
    output.number(r.size.height)
    output.byte(UInt8(ascii: "}"))
  }

  private mutating func writeOptionalRect(_ r: Rect?) {
    if let r { writeRect(r) } else { output.null() }
  }

  private mutating func writePoint(_ p: Point) {
    output.raw(#"{"x":"#)
    output.number(p.x)
    output.raw(#","y":"#)
    output.number(p.y)
    output.byte(UInt8(ascii: "}"))
  }

  private mutating func writeMatrix(_ m: Transform3D) {
    // Sixteen explicit writes: an array literal here would allocate on every view of every frame.
    output.byte(UInt8(ascii: "["))
    output.number(m.m11)
    comma(m.m12)
    comma(m.m13)
    comma(m.m14)
    comma(m.m21)
    comma(m.m22)
    comma(m.m23)
    comma(m.m24)
    comma(m.m31)
    comma(m.m32)
    comma(m.m33)
    comma(m.m34)
    comma(m.m41)
    comma(m.m42)
    comma(m.m43)
    comma(m.m44)
    output.byte(UInt8(ascii: "]"))
  }

  @inline(__always)
  private mutating func comma(_ value: Double) {
    output.byte(UInt8(ascii: ","))
    output.number(value)
  }

  private mutating func writeColor(_ c: Color) {
    output.byte(UInt8(ascii: "["))
    output.number(c.r)
    output.byte(UInt8(ascii: ","))
    output.number(c.g)
    output.byte(UInt8(ascii: ","))
    output.number(c.b)
    output.byte(UInt8(ascii: ","))
    output.number(c.a)
    output.byte(UInt8(ascii: "]"))
  }

  private mutating func writeOptionalColor(_ c: Color?) {
    if let c { writeColor(c) } else { output.null() }
  }

  private mutating func writeGradient(_ g: Gradient) {
    output.raw(#"{"colors":["#)
    for (index, color) in g.colors.enumerated() {
      if index > 0 { output.byte(UInt8(ascii: ",")) }
      writeColor(color)
    }
    output.raw(#"],"locations":"#)
    if let locations = g.locations {
      output.byte(UInt8(ascii: "["))
      for (index, location) in locations.enumerated() {
        if index > 0 { output.byte(UInt8(ascii: ",")) }
        output.number(location)
      }
      output.byte(UInt8(ascii: "]"))
    } else {
      output.null()
    }
    output.nextKey("startPoint")
    writePoint(g.startPoint)
    output.nextKey("endPoint")
    writePoint(g.endPoint)
    output.byte(UInt8(ascii: "}"))
  }
}
