// Frames: what a transition looks like at one moment, as `transition/frame` notifications and `transition/sample`
// results (CONVENTIONS, "View trees and frames"). The hot path: each frame is written as JSON text straight into the
// buffer it is sent from (the output channel's, in the host), with no json-c tree and no String per number. The
// text is the one the json-c reference encoder (JSONCFrameEncoder.swift) serializes for the same states, which the
// tests prove (FrameEncoderEquivalenceTests).

import JSON
import TransitionEngine

/// Which frames a transition streams (`transition/start`'s `frames`).
package enum FrameMode: String, CaseIterable, Sendable {
  /// Every view with every field, and `content`.
  case full
  /// The first frame full; then only the views and fields that changed since the previous frame, plus `removed`.
  case delta
  /// No frames (didEnd is still sent).
  case none
}

/// Storage the presentation is sampled into, shared by every driver of a factory: frames are encoded one at a time on
/// the host thread, so one buffer serves them all and a transition keeps no copy of its views between frames unless
/// it streams deltas.
package final class FrameScratch {
  /// The states of the frame being encoded.
  package var states: [ViewState] = []
  /// Where the scenes of those drivers compute their presentation.
  package let presentation = PresentationScratch()
  /// Where a driver writes a frame its call's completion borrows (`borrowText`), kept between frames.
  private var text: [UInt8] = []

  /// Calls `body` with an empty buffer to write a frame into and hand on, then keeps the buffer for the next frame. A
  /// nested call (a completion that makes another frame) gets a buffer of its own.
  package func borrowText<R>(_ body: (inout [UInt8]) -> R) -> R {
    var buffer = text
    text = []
    defer {
      buffer.removeAll(keepingCapacity: true)
      if text.isEmpty { text = buffer }
    }
    return body(&buffer)
  }

  package init() {}
}

/// Writes one transition's frames, keeping what delta frames compare against.
///
/// A frame object: `{"transition", "seq"?, "time", "percent", "phase", "views": [...], "delta"?: true,
/// "removed"?: [ids]}`. Each full entry: `id`, `parent` (null for the container), `frame`, `bounds`, `position`,
/// `anchorPoint`, `transform`, `worldTransform`, `boundingBox` (null when a corner is behind the eye), `alpha`,
/// `opacity`, `hidden`, `zIndex`, `backgroundColor` (null when none), `cornerRadius`, `clipsToBounds`, then
/// `gradient` and `snapshotOf` when the view has them, then `content` when the client gave one. A delta entry is `id`
/// and the members whose values differ from the previous frame's (`null` for a gradient or snapshot that went away);
/// a view new to the stream gets a full entry.
///
/// What never changes is prepared once: each view's `content` is serialized (by json-c) when the encoder is made and
/// copied into full frames as bytes; keys and the message envelope are constant text.
package struct FrameEncoder {
  /// The serialized `content` of each view that has one, by id: the client's, or what the animator made the view
  /// show (`setContent`).
  private var contents: [String: [UInt8]]
  /// The client's, kept for a view whose content the animator takes back.
  private let clientContents: [String: [UInt8]]
  /// What delta frames compare with: the previous streamed frame's views (delta mode only; empty otherwise).
  private var previous: [BaselineView] = []
  /// Where each id is in `previous`, built only when a frame's views are not in the previous frame's order.
  private var previousIndex: [String: Int] = [:]
  private var previousIndexIsCurrent = false
  /// The views of the last delta frame that changed, by index (scratch of `appendDeltaViews`).
  private var changedIndices: [Int] = []
  /// Whether a streamed frame was written already (the first delta frame is full).
  private(set) var hasStreamed = false

  /// An encoder for the views whose `content` is given (by id).
  package init(contents: [String: JSON] = [:]) {
    var serialized: [String: [UInt8]] = [:]
    for (id, content) in contents {
      var bytes: [UInt8] = []
      content.appendSerialized(to: &bytes)
      serialized[id] = bytes
    }
    self.contents = serialized
    self.clientContents = serialized
  }

  /// Makes the `content` of view `id` in later full entries `content` (an image or visual-effect view the animator
  /// made, `ViewContent.json`), or, for nil, the client's again (none for a view the client did not give).
  package mutating func setContent(_ content: JSON?, for id: String) {
    if let content {
      var bytes: [UInt8] = []
      content.appendSerialized(to: &bytes)
      contents[id] = bytes
    } else {
      contents[id] = clientContents[id]
    }
  }

  // MARK: Frames

  /// Appends `states` as a whole `transition/frame` notification message (`{"jsonrpc":"2.0","method":…,"params":…}`,
  /// compact, no newline) to `message`: full, or delta against the previous streamed frame.
  ///
  /// In delta mode the views of `states` become the new baseline, kept compact (`BaselineView`).
  package mutating func appendNotification(
    _ stamp: FrameStamp, mode: FrameMode, states: [ViewState], to message: inout [UInt8]
  ) {
    message.appendJSONText(maxBytes: Self.maxHeaderBytes(stamp)) { out in
      out.raw(#"{"jsonrpc":"2.0","method":"transition/frame","params":"#)
      writeHeader(stamp, &out)
    }
    var inPlace = false
    if mode == .delta && hasStreamed {
      inPlace = appendDeltaViews(states, to: &message)
    } else {
      appendFullViews(states, to: &message)
      message.append(UInt8(ascii: "]"))
    }
    message.append(UInt8(ascii: "}"))
    message.append(UInt8(ascii: "}"))
    hasStreamed = true
    if inPlace {
      // Same views in the same order: only the entries that changed are new.
      states.withUnsafeBufferPointer { views in
        for index in changedIndices { previous[index] = BaselineView(views[index]) }
      }
    } else if mode == .delta {
      // Exactly the room this transition's views need: 10,000 transitions each keep one.
      if previous.capacity < states.count || previous.capacity > states.count + states.count / 8 + 1 {
        previous = []
        previous.reserveCapacity(states.count)
      } else {
        previous.removeAll(keepingCapacity: true)
      }
      states.withUnsafeBufferPointer { views in
        for index in views.indices { previous.append(BaselineView(views[index])) }
      }
      previousIndexIsCurrent = false
    }
  }

  /// Appends `states` as a full frame object (a `transition/sample` result) to `text`; the stream's delta baseline is
  /// left alone.
  package func appendObject(_ stamp: FrameStamp, states: [ViewState], to text: inout [UInt8]) {
    text.appendJSONText(maxBytes: Self.maxHeaderBytes(stamp)) { out in writeHeader(stamp, &out) }
    appendFullViews(states, to: &text)
    text.append(UInt8(ascii: "]"))
    text.append(UInt8(ascii: "}"))
  }

  /// Appends `states` as the `views` of a full frame, a JSON array, to `text` (what a worker sends of a transition's
  /// start state, for the frame that shows it restored); the stream's delta baseline is left alone.
  package func appendViews(_ states: [ViewState], to text: inout [UInt8]) {
    text.append(UInt8(ascii: "["))
    appendFullViews(states, to: &text)
    text.append(UInt8(ascii: "]"))
  }

  /// `{"transition":…,"seq":…,"time":…,"percent":…,"phase":…,"views":[`
  private func writeHeader(_ stamp: FrameStamp, _ out: inout JSONTextCursor) {
    out.raw(#"{"transition":"#)
    out.string(stamp.transition)
    if let seq = stamp.seq {
      out.raw(#","seq":"#)
      out.integer(seq)
    }
    out.raw(#","time":"#)
    out.number(stamp.time)
    out.raw(#","percent":"#)
    out.number(stamp.percent)
    out.raw(#","phase":"#)
    out.string(stamp.phase)
    out.raw(#","views":["#)
  }

  private static func maxHeaderBytes(_ stamp: FrameStamp) -> Int {
    256 + JSONTextCursor.maxStringBytes(stamp.transition.utf8.count)
      + JSONTextCursor.maxStringBytes(stamp.phase.utf8.count)
  }

  // The loops read views in place through buffer pointers: a `ViewState` is some 700 bytes, and `for state in states`
  // would copy each one (and retain its strings) before writing it.

  private func appendFullViews(_ states: [ViewState], to buffer: inout [UInt8]) {
    states.withUnsafeBufferPointer { views in
      for index in views.indices {
        let content = contents.isEmpty ? nil : contents[views[index].id]
        buffer.appendJSONText(maxBytes: Self.maxEntryBytes(views[index], content: content)) { out in
          if index > 0 { out.byte(UInt8(ascii: ",")) }
          writeFull(views[index], content: content, &out)
        }
      }
    }
  }

  /// The delta views, then `],"delta":true` and `"removed"` when views left. Returns true when the views are the
  /// previous frame's in the same order; `changedIndices` then lists those that changed (the others' baseline entries
  /// still hold: equal values compare alike, since a NaN, the one value `==` does not equal to itself, always changes).
  private mutating func appendDeltaViews(_ states: [ViewState], to buffer: inout [UInt8]) -> Bool {
    // Views usually keep their places from one frame to the next: compare by position, and look ids up only for
    // views that moved.
    var sameOrder = states.count == previous.count
    var wrote = false
    var changed: [Int] = []
    swap(&changed, &changedIndices)  // keeps its capacity without a second reference to it
    changed.removeAll(keepingCapacity: true)
    let previous = self.previous
    defer { changedIndices = changed }
    states.withUnsafeBufferPointer { views in
      previous.withUnsafeBufferPointer { olds in
        for index in views.indices {
          var oldIndex: Int? = index
          if index >= olds.count || olds[index].id != views[index].id {
            sameOrder = false
            oldIndex = previousIndex(of: views[index].id)
          }
          let content = contents.isEmpty ? nil : contents[views[index].id]
          buffer.appendJSONText(maxBytes: Self.maxEntryBytes(views[index], content: content)) { out in
            let entryStart = out.count
            if wrote { out.byte(UInt8(ascii: ",")) }
            if let oldIndex {
              if writeChanges(views[index], since: olds[oldIndex], &out) {
                wrote = true
                changed.append(index)
              } else {
                out.rewind(to: entryStart)
              }
            } else {
              writeFull(views[index], content: content, &out)
              wrote = true
            }
          }
        }
      }
    }
    buffer.append(contentsOf: #"],"delta":true"#.utf8)
    guard !sameOrder else { return true }
    // Views of the previous frame that are not in this one.
    var current = Set<String>(minimumCapacity: states.count)
    for index in states.indices { current.insert(states[index].id) }
    var first = true
    for index in previous.indices where !current.contains(previous[index].id) {
      let id = previous[index].id
      buffer.appendJSONText(maxBytes: 16 + JSONTextCursor.maxStringBytes(id.utf8.count)) { out in
        out.raw(first ? #","removed":["# : ",")
        out.string(id)
      }
      first = false
    }
    if !first { buffer.append(UInt8(ascii: "]")) }
    return false
  }

  /// Where `id` is in the previous frame.
  private mutating func previousIndex(of id: String) -> Int? {
    if !previousIndexIsCurrent {
      previousIndex.removeAll(keepingCapacity: true)
      for index in previous.indices { previousIndex[previous[index].id] = index }
      previousIndexIsCurrent = true
    }
    return previousIndex[id]
  }

  // MARK: Entries

  /// The most bytes an entry of `s` takes, full or delta: the members' keys and punctuation (under 520 bytes, 6
  /// more per gradient colour and 1 per location), at most 24 bytes per number, the strings escaped at worst, and the
  /// content.
  private static func maxEntryBytes(_ s: ViewState, content: [UInt8]?) -> Int {
    var numbers = 56
    var bytes = 520
    bytes += JSONTextCursor.maxStringBytes(s.id.utf8.count)
    if let parent = s.parentID { bytes += JSONTextCursor.maxStringBytes(parent.utf8.count) }
    if let snapshotOf = s.snapshotOf { bytes += JSONTextCursor.maxStringBytes(snapshotOf.utf8.count) }
    if let gradient = s.gradient {
      let locations = gradient.locations?.count ?? 0
      numbers += 4 * gradient.colors.count + locations + 4
      bytes += 100 + 6 * gradient.colors.count + locations
    }
    if let content { bytes += content.count }
    if s.hasLayerMembers { bytes += maxLayerBytes(s) }
    return bytes + numbers * (JSONTextCursor.maxNumberBytes + 1)
  }

  private func writeFull(_ s: ViewState, content: [UInt8]?, _ out: inout JSONTextCursor) {
    out.raw(#"{"id":"#)
    out.string(s.id)
    out.raw(#","parent":"#)
    writeOptionalString(s.parentID, &out)
    out.raw(#","frame":"#)
    writeRect(s.frame, &out)
    out.raw(#","bounds":"#)
    writeRect(s.bounds, &out)
    out.raw(#","position":"#)
    writePoint(s.position, &out)
    out.raw(#","anchorPoint":"#)
    writePoint(s.anchorPoint, &out)
    out.raw(#","transform":"#)
    writeMatrix(s.transform, &out)
    out.raw(#","worldTransform":"#)
    writeMatrix(s.worldTransform, &out)
    out.raw(#","boundingBox":"#)
    writeOptionalRect(s.boundingBox, &out)
    out.raw(#","alpha":"#)
    out.number(s.alpha)
    out.raw(#","opacity":"#)
    out.number(s.opacity)
    out.raw(#","hidden":"#)
    out.bool(s.isHidden)
    out.raw(#","zIndex":"#)
    out.integer(s.zIndex)
    out.raw(#","backgroundColor":"#)
    writeOptionalColor(s.backgroundColor, &out)
    out.raw(#","cornerRadius":"#)
    out.number(s.cornerRadius)
    out.raw(#","clipsToBounds":"#)
    out.bool(s.clipsToBounds)
    if let gradient = s.gradient {
      out.raw(#","gradient":"#)
      writeGradient(gradient, &out)
    }
    if let snapshotOf = s.snapshotOf {
      out.raw(#","snapshotOf":"#)
      out.string(snapshotOf)
    }
    if s.hasLayerMembers { writeLayerMembers(s.layerMembers(includingDefaults: false), &out) }
    if let content {
      out.raw(#","content":"#)
      content.withUnsafeBytes { out.raw($0) }
    }
    out.byte(UInt8(ascii: "}"))
  }

  /// `{"id", changed members…}`; returns false (having written only the id) when nothing changed.
  private func writeChanges(_ s: ViewState, since o: BaselineView, _ out: inout JSONTextCursor) -> Bool {
    out.raw(#"{"id":"#)
    out.string(s.id)
    let idEnd = out.count
    if s.parentID != o.parentID {
      out.raw(#","parent":"#)
      writeOptionalString(s.parentID, &out)
    }
    if s.frame != o.frame {
      out.raw(#","frame":"#)
      writeRect(s.frame, &out)
    }
    if s.bounds != o.bounds {
      out.raw(#","bounds":"#)
      writeRect(s.bounds, &out)
    }
    if s.position != o.position {
      out.raw(#","position":"#)
      writePoint(s.position, &out)
    }
    if s.anchorPoint != o.anchorPoint {
      out.raw(#","anchorPoint":"#)
      writePoint(s.anchorPoint, &out)
    }
    if !o.transform.equals(s.transform) {
      out.raw(#","transform":"#)
      writeMatrix(s.transform, &out)
    }
    if !o.worldTransform.equals(s.worldTransform) {
      out.raw(#","worldTransform":"#)
      writeMatrix(s.worldTransform, &out)
    }
    if s.boundingBox != o.boundingBox {
      out.raw(#","boundingBox":"#)
      writeOptionalRect(s.boundingBox, &out)
    }
    if s.alpha != o.alpha {
      out.raw(#","alpha":"#)
      out.number(s.alpha)
    }
    if s.opacity != o.opacity {
      out.raw(#","opacity":"#)
      out.number(s.opacity)
    }
    if s.isHidden != o.isHidden {
      out.raw(#","hidden":"#)
      out.bool(s.isHidden)
    }
    if s.zIndex != o.zIndex {
      out.raw(#","zIndex":"#)
      out.integer(s.zIndex)
    }
    if s.backgroundColor != o.backgroundColor {
      out.raw(#","backgroundColor":"#)
      writeOptionalColor(s.backgroundColor, &out)
    }
    if s.cornerRadius != o.cornerRadius {
      out.raw(#","cornerRadius":"#)
      out.number(s.cornerRadius)
    }
    if s.clipsToBounds != o.clipsToBounds {
      out.raw(#","clipsToBounds":"#)
      out.bool(s.clipsToBounds)
    }
    if s.gradient != o.gradient {
      out.raw(#","gradient":"#)
      if let gradient = s.gradient { writeGradient(gradient, &out) } else { out.null() }
    }
    if s.snapshotOf != o.snapshotOf {
      out.raw(#","snapshotOf":"#)
      writeOptionalString(s.snapshotOf, &out)
    }
    if s.hasLayerMembers || o.layer != nil { writeLayerChanges(s, since: o.layer, &out) }
    guard out.count > idEnd else { return false }
    out.byte(UInt8(ascii: "}"))
    return true
  }

  // MARK: Values

  func writeOptionalString(_ value: String?, _ out: inout JSONTextCursor) {
    if let value { out.string(value) } else { out.null() }
  }

  private func writeRect(_ r: Rect, _ out: inout JSONTextCursor) {
    out.raw(#"{"x":"#)
    out.number(r.origin.x)
    out.raw(#","y":"#)
    out.number(r.origin.y)
    out.raw(#","width":"#)
    out.number(r.size.width)
    out.raw(#","height":"#)
    out.number(r.size.height)
    out.byte(UInt8(ascii: "}"))
  }

  private func writeOptionalRect(_ r: Rect?, _ out: inout JSONTextCursor) {
    if let r { writeRect(r, &out) } else { out.null() }
  }

  private func writePoint(_ p: Point, _ out: inout JSONTextCursor) {
    out.raw(#"{"x":"#)
    out.number(p.x)
    out.raw(#","y":"#)
    out.number(p.y)
    out.byte(UInt8(ascii: "}"))
  }

  private func writeMatrix(_ m: Transform3D, _ out: inout JSONTextCursor) {
    out.byte(UInt8(ascii: "["))
    out.number(m.m11)
    out.byte(UInt8(ascii: ","))
    out.number(m.m12)
    out.byte(UInt8(ascii: ","))
    out.number(m.m13)
    out.byte(UInt8(ascii: ","))
    out.number(m.m14)
    out.byte(UInt8(ascii: ","))
    out.number(m.m21)
    out.byte(UInt8(ascii: ","))
    out.number(m.m22)
    out.byte(UInt8(ascii: ","))
    out.number(m.m23)
    out.byte(UInt8(ascii: ","))
    out.number(m.m24)
    out.byte(UInt8(ascii: ","))
    out.number(m.m31)
    out.byte(UInt8(ascii: ","))
    out.number(m.m32)
    out.byte(UInt8(ascii: ","))
    out.number(m.m33)
    out.byte(UInt8(ascii: ","))
    out.number(m.m34)
    out.byte(UInt8(ascii: ","))
    out.number(m.m41)
    out.byte(UInt8(ascii: ","))
    out.number(m.m42)
    out.byte(UInt8(ascii: ","))
    out.number(m.m43)
    out.byte(UInt8(ascii: ","))
    out.number(m.m44)
    out.byte(UInt8(ascii: "]"))
  }

  private func writeColor(_ c: Color, _ out: inout JSONTextCursor) {
    out.byte(UInt8(ascii: "["))
    out.number(c.r)
    out.byte(UInt8(ascii: ","))
    out.number(c.g)
    out.byte(UInt8(ascii: ","))
    out.number(c.b)
    out.byte(UInt8(ascii: ","))
    out.number(c.a)
    out.byte(UInt8(ascii: "]"))
  }

  func writeOptionalColor(_ c: Color?, _ out: inout JSONTextCursor) {
    if let c { writeColor(c, &out) } else { out.null() }
  }

  private func writeGradient(_ g: Gradient, _ out: inout JSONTextCursor) {
    out.raw(#"{"colors":["#)
    for (index, color) in g.colors.enumerated() {
      if index > 0 { out.byte(UInt8(ascii: ",")) }
      writeColor(color, &out)
    }
    out.raw(#"],"locations":"#)
    if let locations = g.locations {
      out.byte(UInt8(ascii: "["))
      for (index, location) in locations.enumerated() {
        if index > 0 { out.byte(UInt8(ascii: ",")) }
        out.number(location)
      }
      out.byte(UInt8(ascii: "]"))
    } else {
      out.null()
    }
    out.raw(#","startPoint":"#)
    writePoint(g.startPoint, &out)
    out.raw(#","endPoint":"#)
    writePoint(g.endPoint, &out)
    out.byte(UInt8(ascii: "}"))
  }
}

/// One view of the previous frame as a delta frame compares it: the members frames carry (not `sublayerTransform` and
/// `zPosition`), the two matrices held small. About 420 bytes instead of a `ViewState`'s 712: with 10,000 transitions
/// streaming deltas, the baselines are the largest thing the host keeps.
private struct BaselineView {
  var id: String
  var parentID: String?
  var frame: Rect
  var bounds: Rect
  var position: Point
  var anchorPoint: Point
  var transform: BaselineMatrix
  var worldTransform: BaselineMatrix
  var boundingBox: Rect?
  var alpha: Double
  var opacity: Double
  var zIndex: Int
  var backgroundColor: Color?
  var cornerRadius: Double
  var gradient: Gradient?
  var snapshotOf: String?
  var isHidden: Bool
  var clipsToBounds: Bool
  /// The layer members (nil for the plain views of most frames, whose members are all at their defaults).
  var layer: LayerBaseline?

  init(_ s: ViewState) {
    id = s.id
    parentID = s.parentID
    frame = s.frame
    bounds = s.bounds
    position = s.position
    anchorPoint = s.anchorPoint
    transform = BaselineMatrix(s.transform)
    worldTransform = BaselineMatrix(s.worldTransform)
    boundingBox = s.boundingBox
    alpha = s.alpha
    opacity = s.opacity
    zIndex = s.zIndex
    backgroundColor = s.backgroundColor
    cornerRadius = s.cornerRadius
    gradient = s.gradient
    snapshotOf = s.snapshotOf
    isHidden = s.isHidden
    clipsToBounds = s.clipsToBounds
    layer = s.hasLayerMembers ? LayerBaseline(s.layerMembers(includingDefaults: true)) : nil
  }
}

/// A matrix of a delta baseline: the identity, a 2-D affine matrix by its six free members (the other ten are 0 or 1),
/// or any other in a box. `equals` is `Transform3D`'s `==` exactly (member by member, so −0 equals 0 and NaN nothing).
private enum BaselineMatrix {
  case identity
  case affine(m11: Double, m12: Double, m21: Double, m22: Double, m41: Double, m42: Double)
  case general(Box)

  final class Box {
    let matrix: Transform3D
    init(_ matrix: Transform3D) { self.matrix = matrix }
  }

  init(_ m: Transform3D) {
    if m == .identity {
      self = .identity
    } else if m.m13 == 0 && m.m14 == 0 && m.m23 == 0 && m.m24 == 0 && m.m31 == 0 && m.m32 == 0 && m.m33 == 1
      && m.m34 == 0 && m.m43 == 0 && m.m44 == 1
    {
      self = .affine(m11: m.m11, m12: m.m12, m21: m.m21, m22: m.m22, m41: m.m41, m42: m.m42)
    } else {
      self = .general(Box(m))
    }
  }

  /// The matrix this stands for (the constant members as +0 and 1, which `==` cannot tell from the −0 they may have
  /// been).
  var matrix: Transform3D {
    switch self {
    case .identity: return .identity
    case .affine(let m11, let m12, let m21, let m22, let m41, let m42):
      var m = Transform3D.identity
      m.m11 = m11
      m.m12 = m12
      m.m21 = m21
      m.m22 = m22
      m.m41 = m41
      m.m42 = m42
      return m
    case .general(let box): return box.matrix
    }
  }

  func equals(_ other: Transform3D) -> Bool { matrix == other }
}
