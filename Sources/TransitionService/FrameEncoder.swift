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
  /// The text of full entries' seldom-changing members, kept between those drivers' frames.
  package let constantText = ConstantMemberText()
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
  private var previous = DeltaBaseline()
  /// Where each id is in `previous`, built only when a frame's views are not in the previous frame's order.
  private var previousIndex: [String: Int] = [:]
  private var previousIndexIsCurrent = false
  /// The views of the last delta frame that changed, by index (scratch of `appendDeltaViews`).
  private var changedIndices: [Int] = []
  /// Whether a streamed frame was written already (the first delta frame is full).
  private(set) var hasStreamed = false
  /// Where full entries' seldom-changing members are copied from when their values are those the text was written for.
  private let constantText: ConstantMemberText

  /// An encoder for the views whose `content` is given (by id), keeping full entries' seldom-changing members in
  /// `constantText` (a factory's drivers share their `FrameScratch`'s; by default one of its own).
  package init(contents: [String: JSON] = [:], constantText: ConstantMemberText = ConstantMemberText()) {
    self.constantText = constantText
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
  /// In delta mode the views of `states` become the new baseline, kept compact (`DeltaBaseline`).
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
      if !changedIndices.isEmpty {
        states.withUnsafeBufferPointer { previous.replace(changedIndices, from: $0) }
      }
    } else if mode == .delta {
      states.withUnsafeBufferPointer { previous.replaceAll(with: $0) }
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
        buffer.appendJSONText(maxBytes: Self.maxEntryBytes(views.baseAddress! + index, content: content)) { out in
          if index > 0 { out.byte(UInt8(ascii: ",")) }
          writeFull(views.baseAddress! + index, at: index, content: content, &out)
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
      previous.heads.withUnsafeBufferPointer { olds in
        for index in views.indices {
          var oldIndex: Int? = index
          if index >= olds.count || olds[index].id != views[index].id {
            sameOrder = false
            oldIndex = previousIndex(of: views[index].id)
          }
          // A view its baseline holds unchanged costs this comparison alone.
          if let oldIndex, previous.isUnchanged(views.baseAddress! + index, at: oldIndex) { continue }
          // Only a view new to the stream gets a full entry, with its content: the others need no lookup.
          let content = contents.isEmpty || oldIndex != nil ? nil : contents[views[index].id]
          buffer.appendJSONText(maxBytes: Self.maxEntryBytes(views.baseAddress! + index, content: content)) { out in
            let entryStart = out.count
            if wrote { out.byte(UInt8(ascii: ",")) }
            if let oldIndex {
              if writeChanges(views.baseAddress! + index, since: previous.view(at: oldIndex), &out) {
                wrote = true
                changed.append(index)
              } else {
                out.rewind(to: entryStart)
              }
            } else {
              writeFull(views.baseAddress! + index, at: index, content: content, &out)
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
    for index in previous.heads.indices where !current.contains(previous.heads[index].id) {
      let id = previous.heads[index].id
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
      for index in previous.heads.indices { previousIndex[previous.heads[index].id] = index }
      previousIndexIsCurrent = true
    }
    return previousIndex[id]
  }

  // MARK: Entries

  /// The most bytes an entry of `s` takes, full or delta: the members' keys and punctuation (under 520 bytes, 6
  /// more per gradient colour and 1 per location), at most 24 bytes per number, the strings escaped at worst, and the
  /// content.
  private static func maxEntryBytes(_ v: UnsafePointer<ViewState>, content: [UInt8]?) -> Int {
    var numbers = 56
    var bytes = 520
    bytes += JSONTextCursor.maxStringBytes(v.pointee.id.utf8.count)
    if let parent = v.pointee.parentID { bytes += JSONTextCursor.maxStringBytes(parent.utf8.count) }
    if let snapshotOf = v.pointee.snapshotOf { bytes += JSONTextCursor.maxStringBytes(snapshotOf.utf8.count) }
    if let gradient = ViewState.gradient(at: v) {
      let locations = gradient.locations?.count ?? 0
      numbers += 4 * gradient.colors.count + locations + 4
      bytes += 100 + 6 * gradient.colors.count + locations
    }
    if let content { bytes += content.count }
    if ViewState.hasLayerMembers(at: v) { bytes += maxLayerBytes(v.pointee) }
    return bytes + numbers * (JSONTextCursor.maxNumberBytes + 1)
  }

  /// The full entry of the view at `v`, the frame's entry `index`.
  private func writeFull(
    _ v: UnsafePointer<ViewState>, at index: Int, content: [UInt8]?, _ out: inout JSONTextCursor
  ) {
    out.raw(#"{"id":"#)
    out.string(v.pointee.id)
    out.raw(#","parent":"#)
    writeOptionalString(v.pointee.parentID, &out)
    out.raw(#","frame":"#)
    writeRect(v.pointee.frame, &out)
    // The members that seldom change are copied when their values are those the kept text was written for.
    constantText.write(\.bounds, at: index, for: RectBits(v.pointee.bounds), &out) { out in
      out.raw(#","bounds":"#)
      writeRect(v.pointee.bounds, &out)
    }
    out.raw(#","position":"#)
    writePoint(v.pointee.position, &out)
    if v.pointee.anchorPoint.x == 0.5 && v.pointee.anchorPoint.y == 0.5 {
      // The default anchor point, as constant text.
      out.raw(#","anchorPoint":{"x":0.5,"y":0.5}"#)
    } else {
      out.raw(#","anchorPoint":"#)
      writePoint(v.pointee.anchorPoint, &out)
    }
    out.raw(#","transform":"#)
    writeMatrix(v.pointee.transform, &out)
    out.raw(#","worldTransform":"#)
    writeMatrix(v.pointee.worldTransform, &out)
    out.raw(#","boundingBox":"#)
    writeOptionalRect(v.pointee.boundingBox, &out)
    out.raw(#","alpha":"#)
    out.number(v.pointee.alpha)
    out.raw(#","opacity":"#)
    out.number(v.pointee.opacity)
    constantText.write(\.tail, at: index, for: TailBits(v), &out) { out in
      out.raw(#","hidden":"#)
      out.bool(v.pointee.isHidden)
      out.raw(#","zIndex":"#)
      out.integer(v.pointee.zIndex)
      out.raw(#","backgroundColor":"#)
      writeOptionalColor(v.pointee.backgroundColor, &out)
      out.raw(#","cornerRadius":"#)
      out.number(v.pointee.cornerRadius)
      out.raw(#","clipsToBounds":"#)
      out.bool(v.pointee.clipsToBounds)
    }
    if let gradient = ViewState.gradient(at: v) {
      out.raw(#","gradient":"#)
      writeGradient(gradient, &out)
    }
    if let snapshotOf = v.pointee.snapshotOf {
      out.raw(#","snapshotOf":"#)
      out.string(snapshotOf)
    }
    // The members off their defaults (`layerMembers(includingDefaults: false)`), written without the list.
    if ViewState.hasLayerMembers(at: v) { writeLayerChanges(v.pointee, since: LayerBaseline.defaults, &out) }
    if let content {
      out.raw(#","content":"#)
      content.withUnsafeBytes { out.raw($0) }
    }
    out.byte(UInt8(ascii: "}"))
  }

  /// `{"id", changed members…}`; returns false (having written only the id) when nothing changed.
  private func writeChanges(
    _ v: UnsafePointer<ViewState>, since o: BaselineView, _ out: inout JSONTextCursor
  ) -> Bool {
    out.raw(#"{"id":"#)
    out.string(v.pointee.id)
    let idEnd = out.count
    if v.pointee.parentID != o.parentID {
      out.raw(#","parent":"#)
      writeOptionalString(v.pointee.parentID, &out)
    }
    if v.pointee.frame != o.frame {
      out.raw(#","frame":"#)
      writeRect(v.pointee.frame, &out)
    }
    if v.pointee.bounds != o.bounds {
      out.raw(#","bounds":"#)
      writeRect(v.pointee.bounds, &out)
    }
    if v.pointee.position != o.position {
      out.raw(#","position":"#)
      writePoint(v.pointee.position, &out)
    }
    if v.pointee.anchorPoint != o.anchorPoint {
      out.raw(#","anchorPoint":"#)
      writePoint(v.pointee.anchorPoint, &out)
    }
    if differ(o.transform, v.pointee.transform) {
      out.raw(#","transform":"#)
      writeMatrix(v.pointee.transform, &out)
    }
    if differ(o.worldTransform, v.pointee.worldTransform) {
      out.raw(#","worldTransform":"#)
      writeMatrix(v.pointee.worldTransform, &out)
    }
    if v.pointee.boundingBox != o.boundingBox {
      out.raw(#","boundingBox":"#)
      writeOptionalRect(v.pointee.boundingBox, &out)
    }
    if v.pointee.alpha != o.alpha {
      out.raw(#","alpha":"#)
      out.number(v.pointee.alpha)
    }
    if v.pointee.opacity != o.opacity {
      out.raw(#","opacity":"#)
      out.number(v.pointee.opacity)
    }
    if v.pointee.isHidden != o.isHidden {
      out.raw(#","hidden":"#)
      out.bool(v.pointee.isHidden)
    }
    if v.pointee.zIndex != o.zIndex {
      out.raw(#","zIndex":"#)
      out.integer(v.pointee.zIndex)
    }
    if v.pointee.backgroundColor != o.backgroundColor {
      out.raw(#","backgroundColor":"#)
      writeOptionalColor(v.pointee.backgroundColor, &out)
    }
    if v.pointee.cornerRadius != o.cornerRadius {
      out.raw(#","cornerRadius":"#)
      out.number(v.pointee.cornerRadius)
    }
    if v.pointee.clipsToBounds != o.clipsToBounds {
      out.raw(#","clipsToBounds":"#)
      out.bool(v.pointee.clipsToBounds)
    }
    if ViewState.gradient(at: v) != o.gradient {
      out.raw(#","gradient":"#)
      if let gradient = ViewState.gradient(at: v) { writeGradient(gradient, &out) } else { out.null() }
    }
    if v.pointee.snapshotOf != o.snapshotOf {
      out.raw(#","snapshotOf":"#)
      writeOptionalString(v.pointee.snapshotOf, &out)
    }
    if let layer = o.rare?.layer {
      writeLayerChanges(v.pointee, since: layer, &out)
    } else if ViewState.hasLayerMembers(at: v) {
      writeLayerChanges(v.pointee, since: LayerBaseline.defaults, &out)
    }
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
    // Most views' transform is the identity and their world transform a 2-D translation: the rows that are the
    // identity's are constant text. `==` holds only for values that print as these digits (−0 prints `0` as well).
    if m.m11 == 1 && m.m12 == 0 && m.m13 == 0 && m.m14 == 0 && m.m21 == 0 && m.m22 == 1 && m.m23 == 0 && m.m24 == 0
      && m.m31 == 0 && m.m32 == 0 && m.m33 == 1 && m.m34 == 0
    {
      if m.m41 == 0 && m.m42 == 0 && m.m43 == 0 && m.m44 == 1 {
        out.raw("[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]")
        return
      }
      out.raw("[1,0,0,0,0,1,0,0,0,0,1,0,")
      out.number(m.m41)
      out.byte(UInt8(ascii: ","))
      out.number(m.m42)
      out.byte(UInt8(ascii: ","))
      if m.m43 == 0 && m.m44 == 1 {
        out.raw("0,1]")
        return
      }
      out.number(m.m43)
      out.byte(UInt8(ascii: ","))
      out.number(m.m44)
      out.byte(UInt8(ascii: "]"))
      return
    }
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

/// One view of the previous frame as a delta frame compares it, expanded from the compact `DeltaBaseline` for the
/// comparison: the members frames carry (not `sublayerTransform` and `zPosition`).
private struct BaselineView {
  var id: String
  var parentID: String?
  var frame: Rect
  var bounds: Rect
  var position: Point
  var anchorPoint: Point
  var transform: Transform3D
  var worldTransform: Transform3D
  var boundingBox: Rect?
  var alpha: Double
  var opacity: Double
  var zIndex: Int
  var backgroundColor: Color?
  var cornerRadius: Double
  var isHidden: Bool
  var clipsToBounds: Bool
  /// The gradient, snapshot and layer members (nil for the plain views of most frames).
  var rare: DeltaBaseline.Rare?

  var gradient: Gradient? { rare?.gradient }
  var snapshotOf: String? { rare?.snapshotOf }
}

/// The text of full entries' members that seldom change from frame to frame, by the entry's place in the frame, with
/// the values each part was written for: `,"bounds":…`, and the run from `,"hidden":` to `clipsToBounds` (zIndex,
/// background colour, corner radius). A full entry copies a part whose values are bit for bit those it was written
/// for, instead of formatting them anew; any other value writes the part and keeps the new text. Keyed by the values
/// themselves, a part serves whichever transition's frame has that entry next, so one per `FrameScratch` (shared by a
/// factory's drivers, frames being encoded one at a time on one thread) is enough, and it holds no more entries than
/// the largest frame. The ids are written each time: comparing a string byte for byte (as the key must: `==` takes
/// canonically equivalent strings for equal, whose text differs) cost more than escaping it again (callgrind: about
/// 525 instructions a view against 190).
package final class ConstantMemberText {
  fileprivate struct Entry {
    var bounds = Kept<RectBits>()
    var tail = Kept<TailBits>()
  }

  /// One part's text and the values it was written for.
  fileprivate struct Kept<Key: Equatable> {
    var key: Key?
    var text: [UInt8] = []

    /// Copies the text when it was written for `key`; false otherwise.
    func copy(for key: Key, _ out: inout JSONTextCursor) -> Bool {
      guard self.key == key else { return false }
      text.withUnsafeBytes { out.raw($0) }
      return true
    }

    mutating func keep(_ text: UnsafeRawBufferPointer, for key: Key) {
      self.key = key
      self.text.removeAll(keepingCapacity: true)
      self.text.append(contentsOf: text)
    }
  }

  // Read and written by one thread, never re-entrantly (see above): no dynamic exclusivity checks per entry.
  @exclusivity(unchecked) private var entries: [Entry] = []

  package init() {}

  /// Copies entry `index`'s `part` when it was written for `key`; otherwise writes it with `write` and keeps the text.
  fileprivate func write<Key: Equatable>(
    _ part: WritableKeyPath<Entry, Kept<Key>>, at index: Int, for key: Key, _ out: inout JSONTextCursor,
    _ write: (inout JSONTextCursor) -> Void
  ) {
    if index < entries.count, entries.withUnsafeBufferPointer({ $0[index][keyPath: part].copy(for: key, &out) }) {
      return
    }
    let start = out.count
    write(&out)
    reach(index)
    entries[index][keyPath: part].keep(out.written(from: start), for: key)
  }

  private func reach(_ index: Int) {
    if index >= entries.count { entries.append(contentsOf: repeatElement(Entry(), count: index + 1 - entries.count)) }
  }
}

/// A rect's four numbers as their bits: the key of text written for them (−0 and 0 print differently; a NaN equals
/// itself here, and prints the same).
private struct RectBits: Equatable {
  var x, y, width, height: UInt64

  init(_ r: Rect) {
    (x, y) = (r.origin.x.bitPattern, r.origin.y.bitPattern)
    (width, height) = (r.size.width.bitPattern, r.size.height.bitPattern)
  }
}

/// The values of the run from `hidden` to `clipsToBounds`, numbers as bits.
private struct TailBits: Equatable {
  var isHidden: Bool
  var zIndex: Int
  var background: (r: UInt64, g: UInt64, b: UInt64, a: UInt64)?
  var cornerRadius: UInt64
  var clipsToBounds: Bool

  init(_ v: UnsafePointer<ViewState>) {
    isHidden = v.pointee.isHidden
    zIndex = v.pointee.zIndex
    background = v.pointee.backgroundColor.map { ($0.r.bitPattern, $0.g.bitPattern, $0.b.bitPattern, $0.a.bitPattern) }
    cornerRadius = v.pointee.cornerRadius.bitPattern
    clipsToBounds = v.pointee.clipsToBounds
  }

  static func == (a: TailBits, b: TailBits) -> Bool {
    guard a.isHidden == b.isHidden, a.zIndex == b.zIndex, a.cornerRadius == b.cornerRadius,
      a.clipsToBounds == b.clipsToBounds
    else { return false }
    switch (a.background, b.background) {
    case (nil, nil): return true
    case (let x?, let y?): return x.r == y.r && x.g == y.g && x.b == y.b && x.a == y.a
    default: return false
    }
  }
}

/// Whether `a` and `b` differ as `!=` says (member by member: −0 equals 0, a NaN equals nothing), inlined: the engine's
/// synthesized `==` is a call into another module, twice per view of a delta frame.
@inline(__always) private func differ(_ a: Transform3D, _ b: Transform3D) -> Bool {
  a.m11 != b.m11 || a.m12 != b.m12 || a.m13 != b.m13 || a.m14 != b.m14 || a.m21 != b.m21 || a.m22 != b.m22
    || a.m23 != b.m23 || a.m24 != b.m24 || a.m31 != b.m31 || a.m32 != b.m32 || a.m33 != b.m33 || a.m34 != b.m34
    || a.m41 != b.m41 || a.m42 != b.m42 || a.m43 != b.m43 || a.m44 != b.m44
}

/// What delta frames compare with: the previous streamed frame's views, kept small, since with 10,000 transitions
/// streaming deltas the baselines are the largest thing the host keeps. Each view is a header (ids, `zIndex`, which
/// members it stores, the rare members in a box) and its numbers in one flat array shared by the transition's views:
/// a member at its usual value (bounds at the origin, the anchor point at the centre, alpha and opacity 1, corner
/// radius 0, an identity matrix, no colour or box) is not stored, and a matrix keeps only what is not constant (a
/// translation 2 numbers, a 2-D affine matrix 6, any other 16). About 210 bytes for a plain view against a
/// `ViewState`'s 712.
///
/// A member left out compares exactly as the value it stood for: it was `==` the usual value, and `==` treats
/// values alike that it equates (only −0 and +0: a NaN is never equal, so it is always stored).
private struct DeltaBaseline {
  private(set) var heads: [Head] = []
  private var numbers: [Double] = []

  struct Head {
    var id: String
    var parentID: String?
    var zIndex: Int
    /// Where the view's numbers start in `numbers`.
    var start: Int32
    var shape: Shape
    var rare: Rare?
  }

  /// Which members a view stores (bits) and how its two matrices are held.
  struct Shape {
    var bits: UInt16

    static let boundsOrigin: UInt16 = 1 << 0
    static let anchorPoint: UInt16 = 1 << 1
    static let boundingBox: UInt16 = 1 << 2
    static let alpha: UInt16 = 1 << 3
    static let opacity: UInt16 = 1 << 4
    static let backgroundColor: UInt16 = 1 << 5
    static let cornerRadius: UInt16 = 1 << 6
    static let hidden: UInt16 = 1 << 7
    static let clipsToBounds: UInt16 = 1 << 8
    /// The transform's kind (`MatrixKind`) at bits 9–10, the world transform's at 11–12.
    static let transformShift: UInt16 = 9
    static let worldShift: UInt16 = 11

    /// The shape of the entry at `v` (read in place: see `ViewState.gradient(at:)`).
    init(_ v: UnsafePointer<ViewState>) {
      var bits: UInt16 = 0
      func add(_ bit: UInt16, if condition: Bool) { if condition { bits |= bit } }
      add(Self.boundsOrigin, if: v.pointee.bounds.origin.x != 0 || v.pointee.bounds.origin.y != 0)
      add(Self.anchorPoint, if: v.pointee.anchorPoint.x != 0.5 || v.pointee.anchorPoint.y != 0.5)
      add(Self.boundingBox, if: v.pointee.boundingBox != nil)
      add(Self.alpha, if: v.pointee.alpha != 1)
      add(Self.opacity, if: v.pointee.opacity != 1)
      add(Self.backgroundColor, if: v.pointee.backgroundColor != nil)
      add(Self.cornerRadius, if: v.pointee.cornerRadius != 0)
      add(Self.hidden, if: v.pointee.isHidden)
      add(Self.clipsToBounds, if: v.pointee.clipsToBounds)
      bits |= UInt16(MatrixKind(v.pointee.transform).rawValue) << Self.transformShift
      bits |= UInt16(MatrixKind(v.pointee.worldTransform).rawValue) << Self.worldShift
      self.bits = bits
    }

    /// How many numbers a view of this shape stores: frame, bounds size and position always, the rest as stored.
    var count: Int {
      var count = 8 + transform.numberCount + worldTransform.numberCount
      if has(Self.boundsOrigin) { count += 2 }
      if has(Self.anchorPoint) { count += 2 }
      if has(Self.boundingBox) { count += 4 }
      if has(Self.alpha) { count += 1 }
      if has(Self.opacity) { count += 1 }
      if has(Self.backgroundColor) { count += 4 }
      if has(Self.cornerRadius) { count += 1 }
      return count
    }

    func has(_ bit: UInt16) -> Bool { bits & bit != 0 }
    var transform: MatrixKind { MatrixKind(rawValue: UInt8(truncatingIfNeeded: bits >> Self.transformShift & 3))! }
    var worldTransform: MatrixKind { MatrixKind(rawValue: UInt8(truncatingIfNeeded: bits >> Self.worldShift & 3))! }
  }

  /// How a matrix is held: by the members that are not the identity's.
  enum MatrixKind: UInt8 {
    /// The identity: nothing stored.
    case identity
    /// A 2-D translation: m41, m42.
    case translation
    /// A 2-D affine matrix: m11, m12, m21, m22, m41, m42.
    case affine
    /// Any other: all 16.
    case general

    init(_ m: Transform3D) {
      if m.m13 == 0 && m.m14 == 0 && m.m23 == 0 && m.m24 == 0 && m.m31 == 0 && m.m32 == 0 && m.m33 == 1
        && m.m34 == 0 && m.m43 == 0 && m.m44 == 1
      {
        if m.m11 == 1 && m.m12 == 0 && m.m21 == 0 && m.m22 == 1 {
          self = m.m41 == 0 && m.m42 == 0 ? .identity : .translation
        } else {
          self = .affine
        }
      } else {
        self = .general
      }
    }

    var numberCount: Int {
      switch self {
      case .identity: return 0
      case .translation: return 2
      case .affine: return 6
      case .general: return 16
      }
    }
  }

  /// The members few views have.
  final class Rare {
    private(set) var gradient: Gradient?
    private(set) var snapshotOf: String?
    private(set) var layer: LayerBaseline?

    /// Makes `rare` hold those of `s` (nil when it has none): in place when this baseline alone holds it, which a
    /// stream of animated layers, every entry changed every frame, otherwise paid with a new box per entry a frame.
    static func update(_ rare: inout Rare?, from v: UnsafePointer<ViewState>) {
      let gradient = ViewState.gradient(at: v)
      let hasLayerMembers = ViewState.hasLayerMembers(at: v)
      guard gradient != nil || v.pointee.snapshotOf != nil || hasLayerMembers else {
        rare = nil
        return
      }
      if rare == nil || !isKnownUniquelyReferenced(&rare) { rare = Rare() }
      let box = rare.unsafelyUnwrapped
      box.gradient = gradient
      box.snapshotOf = v.pointee.snapshotOf
      box.layer = hasLayerMembers ? LayerBaseline(v.pointee) : nil
    }

    private init() {}
  }

  var count: Int { heads.count }
  var isEmpty: Bool { heads.isEmpty }

  /// The numbers view `index` has room for.
  private func slotCount(_ index: Int) -> Int {
    let end = index + 1 < heads.count ? Int(heads[index + 1].start) : numbers.count
    return end - Int(heads[index].start)
  }

  /// Makes `states` the baseline.
  mutating func replaceAll(with states: UnsafeBufferPointer<ViewState>) {
    // Exactly the room this transition's views need: 10,000 transitions each keep one.
    if heads.capacity < states.count || heads.capacity > states.count + states.count / 8 + 1 {
      heads = []
      heads.reserveCapacity(states.count)
    } else {
      heads.removeAll(keepingCapacity: true)
    }
    var total = 0
    for index in states.indices {
      let shape = Shape(states.baseAddress! + index)
      heads.append(
        Head(
          id: states[index].id, parentID: states[index].parentID, zIndex: states[index].zIndex, start: Int32(total),
          shape: shape, rare: nil))
      Rare.update(&heads[index].rare, from: states.baseAddress! + index)
      total += shape.count
    }
    if numbers.count != total { numbers = Array(repeating: 0, count: total) }
    numbers.withUnsafeMutableBufferPointer { storage in
      for index in states.indices {
        Self.write(states.baseAddress! + index, heads[index].shape, at: Int(heads[index].start), storage)
      }
    }
  }

  /// Makes each view at `indices` of the baseline `states[index]` (the others stay); the ids of `states` are the
  /// baseline's, in its order.
  mutating func replace(_ indices: [Int], from states: UnsafeBufferPointer<ViewState>) {
    for index in indices where Shape(states.baseAddress! + index).count != slotCount(index) {
      // A view now stores more or fewer numbers: lay them all out again.
      replaceAll(with: states)
      return
    }
    numbers.withUnsafeMutableBufferPointer { storage in
      for index in indices {
        let shape = Shape(states.baseAddress! + index)
        heads[index].parentID = states[index].parentID
        heads[index].zIndex = states[index].zIndex
        heads[index].shape = shape
        Rare.update(&heads[index].rare, from: states.baseAddress! + index)
        Self.write(states.baseAddress! + index, shape, at: Int(heads[index].start), storage)
      }
    }
  }

  private static func write(
    _ v: UnsafePointer<ViewState>, _ shape: Shape, at start: Int, _ storage: UnsafeMutableBufferPointer<Double>
  ) {
    var k = start
    _ = forEachNumber(v, shape) { value in
      storage[k] = value
      k += 1
      return true
    }
  }

  /// Whether the entry at `v` shows what view `index` holds, found without expanding it: the same parent, `zIndex`,
  /// shape and numbers (compared as `!=` compares them: −0 equals 0, a NaN nothing), and no gradient, snapshot or
  /// layer member on either side. A delta frame then skips it; false sends it to the member-by-member comparison.
  func isUnchanged(_ v: UnsafePointer<ViewState>, at index: Int) -> Bool {
    let head = heads[index]
    guard head.rare == nil, v.pointee.zIndex == head.zIndex, v.pointee.snapshotOf == nil,
      !ViewState.hasLayerMembers(at: v), v.pointee.parentID == head.parentID
    else { return false }
    let shape = Shape(v)
    guard shape.bits == head.shape.bits else { return false }
    return numbers.withUnsafeBufferPointer { storage in
      var k = Int(head.start)
      return Self.forEachNumber(v, shape) { value in
        defer { k += 1 }
        return storage[k] == value
      }
    }
  }

  /// Calls `body` with each number the entry at `v` stores under `shape`, in the order they are stored, while it
  /// returns true; returns false when it stopped.
  @inline(__always)
  private static func forEachNumber(
    _ v: UnsafePointer<ViewState>, _ shape: Shape, _ body: (Double) -> Bool
  ) -> Bool {
    func matrix(_ m: Transform3D, _ kind: MatrixKind) -> Bool {
      switch kind {
      case .identity: return true
      case .translation: return body(m.m41) && body(m.m42)
      case .affine:
        return body(m.m11) && body(m.m12) && body(m.m21) && body(m.m22) && body(m.m41) && body(m.m42)
      case .general:
        return body(m.m11) && body(m.m12) && body(m.m13) && body(m.m14) && body(m.m21) && body(m.m22)
          && body(m.m23) && body(m.m24) && body(m.m31) && body(m.m32) && body(m.m33) && body(m.m34)
          && body(m.m41) && body(m.m42) && body(m.m43) && body(m.m44)
      }
    }
    let frame = v.pointee.frame
    guard body(frame.origin.x), body(frame.origin.y), body(frame.size.width), body(frame.size.height) else {
      return false
    }
    let bounds = v.pointee.bounds
    if shape.has(Shape.boundsOrigin) {
      guard body(bounds.origin.x), body(bounds.origin.y) else { return false }
    }
    let position = v.pointee.position
    guard body(bounds.size.width), body(bounds.size.height), body(position.x), body(position.y) else { return false }
    if shape.has(Shape.anchorPoint) {
      guard body(v.pointee.anchorPoint.x), body(v.pointee.anchorPoint.y) else { return false }
    }
    guard matrix(v.pointee.transform, shape.transform), matrix(v.pointee.worldTransform, shape.worldTransform) else {
      return false
    }
    if let box = v.pointee.boundingBox {
      guard body(box.origin.x), body(box.origin.y), body(box.size.width), body(box.size.height) else { return false }
    }
    if shape.has(Shape.alpha) { guard body(v.pointee.alpha) else { return false } }
    if shape.has(Shape.opacity) { guard body(v.pointee.opacity) else { return false } }
    if let c = v.pointee.backgroundColor {
      guard body(c.r), body(c.g), body(c.b), body(c.a) else { return false }
    }
    if shape.has(Shape.cornerRadius) { guard body(v.pointee.cornerRadius) else { return false } }
    return true
  }

  /// View `index` as it was stored, expanded.
  func view(at index: Int) -> BaselineView {
    let head = heads[index]
    let shape = head.shape
    return numbers.withUnsafeBufferPointer { storage in
      var k = Int(head.start)
      func next() -> Double {
        k += 1
        return storage[k - 1]
      }
      func rect() -> Rect { Rect(x: next(), y: next(), width: next(), height: next()) }
      func point() -> Point { Point(x: next(), y: next()) }
      func matrix(_ kind: MatrixKind) -> Transform3D {
        var m = Transform3D.identity
        switch kind {
        case .identity: break
        case .translation:
          m.m41 = next()
          m.m42 = next()
        case .affine:
          m.m11 = next()
          m.m12 = next()
          m.m21 = next()
          m.m22 = next()
          m.m41 = next()
          m.m42 = next()
        case .general:
          m = Transform3D(
            m11: next(), m12: next(), m13: next(), m14: next(), m21: next(), m22: next(), m23: next(), m24: next(),
            m31: next(), m32: next(), m33: next(), m34: next(), m41: next(), m42: next(), m43: next(), m44: next())
        }
        return m
      }
      let frame = rect()
      let boundsOrigin = shape.has(Shape.boundsOrigin) ? point() : .zero
      let bounds = Rect(origin: boundsOrigin, size: Size(width: next(), height: next()))
      let position = point()
      let anchorPoint = shape.has(Shape.anchorPoint) ? point() : Point(x: 0.5, y: 0.5)
      let transform = matrix(shape.transform)
      let worldTransform = matrix(shape.worldTransform)
      let boundingBox = shape.has(Shape.boundingBox) ? rect() : nil
      let alpha = shape.has(Shape.alpha) ? next() : 1
      let opacity = shape.has(Shape.opacity) ? next() : 1
      let backgroundColor = shape.has(Shape.backgroundColor) ? Color(r: next(), g: next(), b: next(), a: next()) : nil
      let cornerRadius = shape.has(Shape.cornerRadius) ? next() : 0
      return BaselineView(
        id: head.id, parentID: head.parentID, frame: frame, bounds: bounds, position: position,
        anchorPoint: anchorPoint, transform: transform, worldTransform: worldTransform, boundingBox: boundingBox,
        alpha: alpha, opacity: opacity, zIndex: head.zIndex, backgroundColor: backgroundColor,
        cornerRadius: cornerRadius, isHidden: shape.has(Shape.hidden), clipsToBounds: shape.has(Shape.clipsToBounds),
        rare: head.rare)
    }
  }
}
