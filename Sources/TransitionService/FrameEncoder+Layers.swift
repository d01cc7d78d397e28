// The layer members of frame entries as the dedicated encoder writes them (FrameLayerMembers.swift lists them). Only
// entries with layer members reach this code: plain views cost one `hasLayerMembers` test per entry.

import JSON
import TransitionEngine

/// The layer members of one entry of a delta baseline, all of them (defaults included), shared and immutable.
final class LayerBaseline {
  let members: [LayerMember]
  init(_ members: [LayerMember]) { self.members = members }

  /// The members of an entry whose layer members are all at their defaults.
  static let defaults = ViewState(
    id: "", parentID: nil, frame: .zero, bounds: .zero, position: .zero, anchorPoint: .zero, transform: .identity,
    sublayerTransform: .identity, worldTransform: .identity, boundingBox: nil, alpha: 1, opacity: 1, isHidden: false,
    zPosition: 0, zIndex: 0, backgroundColor: nil, cornerRadius: 0, clipsToBounds: false, gradient: nil,
    snapshotOf: nil
  ).layerMembers(includingDefaults: true)
}

extension FrameEncoder {
  /// The most bytes the layer members of `s` take (keys under 20 bytes each, the values' own bounds).
  static func maxLayerBytes(_ s: ViewState) -> Int {
    let number = JSONTextCursor.maxNumberBytes + 1
    var bytes = 22 * 24 + 16 * number + 64
    let l = s.layer
    bytes += ((l.path?.elements.count ?? 0) + (l.shadowPath?.elements.count ?? 0)) * (6 * number + 10)
    bytes += (l.lineDashPattern?.count ?? 0) * number
    if let mask = s.maskID { bytes += JSONTextCursor.maxStringBytes(mask.utf8.count) }
    if let owner = s.maskOwnerID { bytes += JSONTextCursor.maxStringBytes(owner.utf8.count) }
    return bytes
  }

  func writeLayerMembers(_ members: [LayerMember], _ out: inout JSONTextCursor) {
    for member in members { writeLayerMember(member, &out) }
  }

  /// The members that differ from the baseline's (all defaults when it kept none).
  func writeLayerChanges(_ s: ViewState, since old: LayerBaseline?, _ out: inout JSONTextCursor) {
    let now = s.hasLayerMembers ? s.layerMembers(includingDefaults: true) : LayerBaseline.defaults
    let before = old?.members ?? LayerBaseline.defaults
    for (member, previous) in zip(now, before) where member.value != previous.value {
      writeLayerMember(member, &out)
    }
  }

  private func writeLayerMember(_ member: LayerMember, _ out: inout JSONTextCursor) {
    out.raw(#",""#)
    out.raw(member.key)
    out.raw(#"":"#)
    switch member.value {
    case .string(let s): writeOptionalString(s, &out)
    case .number(let v): out.number(v)
    case .color(let c): writeOptionalColor(c, &out)
    case .size(let size):
      out.raw(#"{"width":"#)
      out.number(size.width)
      out.raw(#","height":"#)
      out.number(size.height)
      out.byte(UInt8(ascii: "}"))
    case .path(let path):
      guard let path else { return out.null() }
      out.byte(UInt8(ascii: "["))
      for (index, element) in path.elements.enumerated() {
        if index > 0 { out.byte(UInt8(ascii: ",")) }
        let (letter, points) = element.frameForm
        out.raw(letter)
        for p in points {
          out.byte(UInt8(ascii: ","))
          out.number(p.x)
          out.byte(UInt8(ascii: ","))
          out.number(p.y)
        }
        out.byte(UInt8(ascii: "]"))
      }
      out.byte(UInt8(ascii: "]"))
    case .lengths(let lengths):
      guard let lengths else { return out.null() }
      out.byte(UInt8(ascii: "["))
      for (index, v) in lengths.enumerated() {
        if index > 0 { out.byte(UInt8(ascii: ",")) }
        out.number(v)
      }
      out.byte(UInt8(ascii: "]"))
    case .corners(let corners):
      out.byte(UInt8(ascii: "["))
      var first = true
      for (corner, name) in MaskedCorners.frameNames where corners.contains(corner) {
        if !first { out.byte(UInt8(ascii: ",")) }
        out.string(name)
        first = false
      }
      out.byte(UInt8(ascii: "]"))
    }
  }
}

extension PathElement {
  /// The element as a frame writes it: `["M"` (the opening bracket and the SVG command letter, as text) and the
  /// points in SVG's order (controls, then the end point).
  var frameForm: (StaticString, [Point]) {
    switch self {
    case .move(let p): (#"["M""#, [p])
    case .line(let p): (#"["L""#, [p])
    case .quadCurve(let p, let c): (#"["Q""#, [c, p])
    case .curve(let p, let c1, let c2): (#"["C""#, [c1, c2, p])
    case .closeSubpath: (#"["Z""#, [])
    }
  }

  /// The SVG command letter.
  package var svgCommand: String {
    switch self {
    case .move: "M"
    case .line: "L"
    case .quadCurve: "Q"
    case .curve: "C"
    case .closeSubpath: "Z"
    }
  }
}
