// The layer members of frame entries as the dedicated encoder writes them (FrameLayerMembers.swift lists them). Only
// entries with layer members reach this code: plain views cost one `hasLayerMembers` test per entry.

import JSON
import TransitionEngine

/// The layer members of one entry of a delta baseline: the values themselves (defaults included), shared and
/// immutable, so that a delta entry compares them member by member without building the member list.
final class LayerBaseline: Sendable {
  let appearance: LayerAppearance
  let kind: String
  let maskID: String?
  let maskOwnerID: String?

  init(_ s: borrowing ViewState) {
    appearance = s.layer
    kind = s.kindName
    maskID = s.maskID
    maskOwnerID = s.maskOwnerID
  }

  /// The members of an entry whose layer members are all at their defaults.
  static let defaults = LayerBaseline(
    ViewState(
      id: "", parentID: nil, frame: .zero, bounds: .zero, position: .zero, anchorPoint: .zero, transform: .identity,
      sublayerTransform: .identity, worldTransform: .identity, boundingBox: nil, alpha: 1, opacity: 1, isHidden: false,
      zPosition: 0, zIndex: 0, backgroundColor: nil, cornerRadius: 0, clipsToBounds: false, gradient: nil,
      snapshotOf: nil))
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

  /// The members that differ from the baseline's (all defaults when it kept none), compared value by value in
  /// frame order (`ViewState.layerMembers`' order and equality: the json-c encoder's reference), each written only
  /// when it changed.
  func writeLayerChanges(_ s: ViewState, since old: LayerBaseline?, _ out: inout JSONTextCursor) {
    let o = old ?? LayerBaseline.defaults
    let b = o.appearance
    // An entry without layer members has them all at their defaults (its `layer` is the shared defaults).
    let l = s.layer
    func write(_ key: StaticString, _ value: LayerMemberValue) {
      writeLayerMember(LayerMember(key: key, value: value), &out)
    }
    let kind = s.kindName
    if kind != o.kind { write("kind", .string(kind)) }
    if s.maskID != o.maskID { write("mask", .string(s.maskID)) }
    if s.maskOwnerID != o.maskOwnerID { write("maskOf", .string(s.maskOwnerID)) }
    guard l != b else { return }
    if l.anchorPointZ != b.anchorPointZ { write("anchorPointZ", .number(l.anchorPointZ)) }
    if l.borderWidth != b.borderWidth { write("borderWidth", .number(l.borderWidth)) }
    if l.borderColor != b.borderColor { write("borderColor", .color(l.borderColor)) }
    if l.shadowColor != b.shadowColor { write("shadowColor", .color(l.shadowColor)) }
    if l.shadowOpacity != b.shadowOpacity { write("shadowOpacity", .number(l.shadowOpacity)) }
    if l.shadowRadius != b.shadowRadius { write("shadowRadius", .number(l.shadowRadius)) }
    if l.shadowOffset != b.shadowOffset { write("shadowOffset", .size(l.shadowOffset)) }
    if l.shadowPath != b.shadowPath { write("shadowPath", .path(l.shadowPath)) }
    if l.maskedCorners != b.maskedCorners { write("maskedCorners", .corners(l.maskedCorners)) }
    if l.path != b.path { write("path", .path(l.path)) }
    if l.fillColor != b.fillColor { write("fillColor", .color(l.fillColor)) }
    if l.strokeColor != b.strokeColor { write("strokeColor", .color(l.strokeColor)) }
    if l.lineWidth != b.lineWidth { write("lineWidth", .number(l.lineWidth)) }
    if l.strokeStart != b.strokeStart { write("strokeStart", .number(l.strokeStart)) }
    if l.strokeEnd != b.strokeEnd { write("strokeEnd", .number(l.strokeEnd)) }
    if l.lineDashPhase != b.lineDashPhase { write("lineDashPhase", .number(l.lineDashPhase)) }
    if l.lineDashPattern != b.lineDashPattern { write("lineDashPattern", .lengths(l.lineDashPattern)) }
    if l.fillRule != b.fillRule { write("fillRule", .string(l.fillRule.rawValue)) }
    if l.gradientType != b.gradientType { write("gradientType", .string(l.gradientType.rawValue)) }
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
      func point(_ p: Point) {
        out.byte(UInt8(ascii: ","))
        out.number(p.x)
        out.byte(UInt8(ascii: ","))
        out.number(p.y)
      }
      for (index, element) in path.elements.enumerated() {
        if index > 0 { out.byte(UInt8(ascii: ",")) }
        // The points in SVG's order (controls, then the end point), written as they come: no array per element.
        switch element {
        case .move(let p):
          out.raw(#"["M""#)
          point(p)
        case .line(let p):
          out.raw(#"["L""#)
          point(p)
        case .quadCurve(let p, let c):
          out.raw(#"["Q""#)
          point(c)
          point(p)
        case .curve(let p, let c1, let c2):
          out.raw(#"["C""#)
          point(c1)
          point(c2)
          point(p)
        case .closeSubpath: out.raw(#"["Z""#)
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
