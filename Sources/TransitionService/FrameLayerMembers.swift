// The layer members of a frame entry (Protocol.md, "Layers in frames"): one list, in the order frames write them,
// that both encoders serialize (FrameEncoder as text, JSONCFrameEncoder as a json-c tree), so that the members and
// their defaults are written down once.

import TransitionEngine

/// One layer member's value as a frame writes it.
package enum LayerMemberValue: Equatable {
  /// A string (`kind`, `fillRule`, `gradientType`) or an id (`mask`, `maskOf`); nil is JSON null.
  case string(String?)
  case number(Double)
  /// `[r, g, b, a]`, or null.
  case color(Color?)
  /// `{"width", "height"}`.
  case size(Size)
  /// `[["M", x, y], ["L", x, y], ["Q", cx, cy, x, y], ["C", c1x, c1y, c2x, c2y, x, y], ["Z"]]`, or null.
  case path(Path?)
  /// `[lengths…]`, or null.
  case lengths([Double]?)
  /// The names of the corners `cornerRadius` rounds.
  case corners(MaskedCorners)
}

/// A member's key (a constant: no escapes) and value.
package struct LayerMember {
  package let key: StaticString
  package let value: LayerMemberValue
}

extension MaskedCorners {
  /// The corner names a frame writes, in bit order.
  package static let frameNames: [(MaskedCorners, String)] = [
    (.minXMinY, "minXMinY"), (.maxXMinY, "maxXMinY"), (.minXMaxY, "minXMaxY"), (.maxXMaxY, "maxXMaxY"),
  ]
}

extension ViewState {
  /// The layer members in frame order: every one (`includingDefaults`, what delta frames compare), or only those off
  /// their defaults (what full entries write). `kind` defaults to `view`, `mask` and `maskOf` to none.
  package func layerMembers(includingDefaults all: Bool) -> [LayerMember] {
    let l = layer
    var members: [LayerMember] = []
    func add(_ key: StaticString, _ value: LayerMemberValue, _ isDefault: Bool) {
      if all || !isDefault { members.append(LayerMember(key: key, value: value)) }
    }
    let kind = kindName
    add("kind", .string(kind), kind == "view")
    add("mask", .string(maskID), maskID == nil)
    add("maskOf", .string(maskOwnerID), maskOwnerID == nil)
    add("anchorPointZ", .number(l.anchorPointZ), l.anchorPointZ == 0)
    add("borderWidth", .number(l.borderWidth), l.borderWidth == 0)
    add("borderColor", .color(l.borderColor), l.borderColor == .black)
    add("shadowColor", .color(l.shadowColor), l.shadowColor == .black)
    add("shadowOpacity", .number(l.shadowOpacity), l.shadowOpacity == 0)
    add("shadowRadius", .number(l.shadowRadius), l.shadowRadius == 3)
    add("shadowOffset", .size(l.shadowOffset), l.shadowOffset == Size(width: 0, height: -3))
    add("shadowPath", .path(l.shadowPath), l.shadowPath == nil)
    add("maskedCorners", .corners(l.maskedCorners), l.maskedCorners == .all)
    add("path", .path(l.path), l.path == nil)
    add("fillColor", .color(l.fillColor), l.fillColor == .black)
    add("strokeColor", .color(l.strokeColor), l.strokeColor == nil)
    add("lineWidth", .number(l.lineWidth), l.lineWidth == 1)
    add("strokeStart", .number(l.strokeStart), l.strokeStart == 0)
    add("strokeEnd", .number(l.strokeEnd), l.strokeEnd == 1)
    add("lineDashPhase", .number(l.lineDashPhase), l.lineDashPhase == 0)
    add("lineDashPattern", .lengths(l.lineDashPattern), l.lineDashPattern == nil)
    add("fillRule", .string(l.fillRule.rawValue), l.fillRule == .nonZero)
    add("gradientType", .string(l.gradientType.rawValue), l.gradientType == .axial)
    return members
  }
}

extension LayerMemberValue {
  /// The most bytes the value takes as text (numbers at `JSONTextCursor.maxNumberBytes` + 1 each).
  func maxBytes(number: Int) -> Int {
    switch self {
    case .string(let s): (s.map { 6 * $0.utf8.count } ?? 0) + 6
    case .number: number
    case .color: 4 * number + 6
    case .size: 2 * number + 24
    case .path(let p): (p?.elements.count ?? 0) * (6 * number + 10) + 6
    case .lengths(let v): (v?.count ?? 0) * number + 6
    case .corners: 48
    }
  }
}
