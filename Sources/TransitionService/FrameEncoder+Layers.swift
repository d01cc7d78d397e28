// The layer members of frame entries as the dedicated encoder writes them (FrameLayerMembers.swift lists them). Only
// entries with layer members reach this code: plain views cost one `hasLayerMembers` test per entry.

import JSON
import TransitionEngine

/// The layer members of one entry of a delta baseline: the presented values' own storage (kept, not copied: it does
/// not change while held) and the members that are not in it, so that a delta entry compares them member by member
/// without building the member list or copying the values.
struct LayerBaseline {
  var storage: LayerStorage
  var kind: String
  var maskID: String?
  var maskOwnerID: String?

  init(_ s: borrowing ViewState) {
    storage = s.layerStorage
    kind = s.kindName
    maskID = s.maskID
    maskOwnerID = s.maskOwnerID
  }

  /// The members of an entry whose layer members are all at their defaults.
  private init() {
    storage = .defaults
    kind = "view"
    maskID = nil
    maskOwnerID = nil
  }

  /// Every member at its default (`kind` `view`, no mask): what a full entry is written against.
  static let defaults = LayerBaseline()
}

extension FrameEncoder {
  /// The most bytes the layer members of `s` take (keys under 20 bytes each, the values' own bounds).
  static func maxLayerBytes(_ s: borrowing ViewState) -> Int {
    var bytes = maxLayerValueBytes(s.layerInPlace)
    if let mask = s.maskID { bytes += JSONTextCursor.maxStringBytes(mask.utf8.count) }
    if let owner = s.maskOwnerID { bytes += JSONTextCursor.maxStringBytes(owner.utf8.count) }
    return bytes
  }

  private static func maxLayerValueBytes(_ l: borrowing LayerAppearance) -> Int {
    let number = JSONTextCursor.maxNumberBytes + 1
    var bytes = 22 * 24 + 16 * number + 64
    bytes += ((l.path?.elements.count ?? 0) + (l.shadowPath?.elements.count ?? 0)) * (6 * number + 10)
    bytes += (l.lineDashPattern?.count ?? 0) * number
    return bytes
  }

  /// The members that differ from the baseline's (`LayerBaseline.defaults` for a full entry, or a delta entry whose
  /// baseline kept none), compared value by value in frame order (`ViewState.layerMembers`' order and equality: the
  /// json-c encoder's reference), each written as it is found. A full entry so writes exactly the members off their
  /// defaults, as `layerMembers(includingDefaults: false)` lists them.
  func writeLayerChanges(_ s: borrowing ViewState, since old: borrowing LayerBaseline, _ out: inout JSONTextCursor) {
    let kind = s.kindName
    if kind != old.kind {
      out.raw(#","kind":"#)
      out.string(kind)
    }
    if s.maskID != old.maskID {
      out.raw(#","mask":"#)
      writeOptionalString(s.maskID, &out)
    }
    if s.maskOwnerID != old.maskOwnerID {
      out.raw(#","maskOf":"#)
      writeOptionalString(s.maskOwnerID, &out)
    }
    // Both read in place: an entry without layer members has them all at their defaults.
    writeLayerValueChanges(s.layerInPlace, since: old.storage.appearance, &out)
  }

  private func writeLayerValueChanges(
    _ l: borrowing LayerAppearance, since b: borrowing LayerAppearance, _ out: inout JSONTextCursor
  ) {
    if l.anchorPointZ != b.anchorPointZ { number(#","anchorPointZ":"#, l.anchorPointZ, &out) }
    if l.borderWidth != b.borderWidth { number(#","borderWidth":"#, l.borderWidth, &out) }
    if l.borderColor != b.borderColor { color(#","borderColor":"#, l.borderColor, &out) }
    if l.shadowColor != b.shadowColor { color(#","shadowColor":"#, l.shadowColor, &out) }
    if l.shadowOpacity != b.shadowOpacity { number(#","shadowOpacity":"#, l.shadowOpacity, &out) }
    if l.shadowRadius != b.shadowRadius { number(#","shadowRadius":"#, l.shadowRadius, &out) }
    if l.shadowOffset != b.shadowOffset {
      out.raw(#","shadowOffset":{"width":"#)
      out.number(l.shadowOffset.width)
      out.raw(#","height":"#)
      out.number(l.shadowOffset.height)
      out.byte(UInt8(ascii: "}"))
    }
    if l.shadowPath != b.shadowPath {
      out.raw(#","shadowPath":"#)
      writePath(l.shadowPath, &out)
    }
    if l.maskedCorners != b.maskedCorners {
      out.raw(#","maskedCorners":"#)
      writeCorners(l.maskedCorners, &out)
    }
    if l.path != b.path {
      out.raw(#","path":"#)
      writePath(l.path, &out)
    }
    if l.fillColor != b.fillColor { color(#","fillColor":"#, l.fillColor, &out) }
    if l.strokeColor != b.strokeColor { color(#","strokeColor":"#, l.strokeColor, &out) }
    if l.lineWidth != b.lineWidth { number(#","lineWidth":"#, l.lineWidth, &out) }
    if l.strokeStart != b.strokeStart { number(#","strokeStart":"#, l.strokeStart, &out) }
    if l.strokeEnd != b.strokeEnd { number(#","strokeEnd":"#, l.strokeEnd, &out) }
    if l.lineDashPhase != b.lineDashPhase { number(#","lineDashPhase":"#, l.lineDashPhase, &out) }
    if l.lineDashPattern != b.lineDashPattern {
      out.raw(#","lineDashPattern":"#)
      if let lengths = l.lineDashPattern {
        out.byte(UInt8(ascii: "["))
        for index in lengths.indices {
          if index > 0 { out.byte(UInt8(ascii: ",")) }
          out.number(lengths[index])
        }
        out.byte(UInt8(ascii: "]"))
      } else {
        out.null()
      }
    }
    if l.fillRule != b.fillRule {
      out.raw(#","fillRule":"#)
      out.string(l.fillRule.rawValue)
    }
    if l.gradientType != b.gradientType {
      out.raw(#","gradientType":"#)
      out.string(l.gradientType.rawValue)
    }
  }

  private func number(_ key: StaticString, _ value: Double, _ out: inout JSONTextCursor) {
    out.raw(key)
    out.number(value)
  }

  private func color(_ key: StaticString, _ value: Color?, _ out: inout JSONTextCursor) {
    out.raw(key)
    writeOptionalColor(value, &out)
  }

  /// `[["M", x, y], ["C", c1x, c1y, c2x, c2y, x, y], ["Z"], …]` or null: the points in SVG's order (controls, then
  /// the end point), written as they come, no array per element.
  private func writePath(_ path: borrowing Path?, _ out: inout JSONTextCursor) {
    guard let path = copy path else { return out.null() }
    out.byte(UInt8(ascii: "["))
    func point(_ p: Point) {
      out.byte(UInt8(ascii: ","))
      out.number(p.x)
      out.byte(UInt8(ascii: ","))
      out.number(p.y)
    }
    path.elements.withUnsafeBufferPointer { elements in
      for index in elements.indices {
        if index > 0 { out.byte(UInt8(ascii: ",")) }
        switch elements[index] {
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
    }
    out.byte(UInt8(ascii: "]"))
  }

  private func writeCorners(_ corners: MaskedCorners, _ out: inout JSONTextCursor) {
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
