import JSON
import JSONRPC
import Testing
import TransitionEngine

@testable import TransitionService

/// Layers in `transition/start`'s view trees: children with a `kind` become layers that are not views, in the
/// order given among the subviews; `mask` is a node; every layer member reads the form frames write; a bad value is
/// 2004 naming the node and the field.
@Suite struct LayerViewTreeTests {
  private let container: JSON = ["width": 400, "height": 800]
  private let plainTo: JSON = ["id": "to", "frame": ["x": 0, "y": 0, "width": 400, "height": 800]]

  private func decode(_ from: JSON) throws(ViewTreeError) -> ViewTrees {
    try ViewTreeDecoder.decode(container: container, from: from, to: plainTo)
  }

  private func refusal(_ from: JSON) -> ViewTreeError? {
    do {
      _ = try decode(from)
      return nil
    } catch {
      return error
    }
  }

  private static var frame: JSON { ["x": 0, "y": 0, "width": 100, "height": 50] }

  @Test func layerChildrenMasksAndMembersArriveAsWritten() throws {
    let trees = try decode([
      "id": "card", "frame": Self.frame, "borderWidth": 2, "borderColor": [1, 0, 0, 1], "shadowOpacity": 0.5,
      "shadowRadius": 8, "shadowOffset": ["width": 0, "height": 4], "shadowColor": nil,
      "shadowPath": [["M", 0, 0], ["L", 100, 0], ["L", 100, 50], ["Z"]], "maskedCorners": ["minXMinY", "maxXMaxY"],
      "anchorPointZ": 10,
      "mask": [
        "id": "hole", "kind": "shape", "frame": Self.frame, "fillRule": "evenOdd",
        "path": [["M", 50, 0], ["Q", 100, 0, 100, 25], ["C", 100, 50, 0, 50, 0, 25], ["Z"]],
      ],
      "children": [
        [
          "id": "shade", "kind": "gradient", "frame": Self.frame, "gradientType": "conic",
          "gradient": ["colors": [[0, 0, 0, 1], [0, 0, 0, 0]]],
        ],
        ["id": "label", "frame": Self.frame],
        [
          "id": "ring", "kind": "shape", "frame": Self.frame, "fillColor": nil, "strokeColor": [1, 1, 1, 1],
          "lineWidth": 3, "strokeStart": 0.25, "strokeEnd": 0.75, "lineDashPhase": 1, "lineDashPattern": [4, 2],
        ],
      ],
    ])
    let card = trees.fromRoot
    #expect(card.isView)
    #expect(card.sublayers.map(\.id) == ["shade", "label", "ring"])
    #expect(card.subviews.map(\.id) == ["label"])
    #expect(card.borderWidth == 2)
    #expect(card.borderColor == Color(r: 1, g: 0, b: 0, a: 1))
    #expect(card.shadowOpacity == 0.5)
    #expect(card.shadowRadius == 8)
    #expect(card.shadowOffset == Size(width: 0, height: 4))
    #expect(card.shadowColor == nil)
    #expect(card.anchorPointZ == 10)
    #expect(card.maskedCorners == [.minXMinY, .maxXMaxY])
    #expect(
      card.shadowPath?.elements == [
        .move(to: Point(x: 0, y: 0)), .line(to: Point(x: 100, y: 0)), .line(to: Point(x: 100, y: 50)), .closeSubpath,
      ])
    let hole = try #require(card.mask)
    #expect(hole.id == "hole")
    #expect(!hole.isView)
    #expect(hole.layerKind == .shape)
    #expect(hole.fillRule == .evenOdd)
    #expect(
      hole.path?.elements == [
        .move(to: Point(x: 50, y: 0)), .quadCurve(to: Point(x: 100, y: 25), control: Point(x: 100, y: 0)),
        .curve(to: Point(x: 0, y: 25), control1: Point(x: 100, y: 50), control2: Point(x: 0, y: 50)), .closeSubpath,
      ])
    let shade = card.sublayers[0]
    #expect(shade.layerKind == .gradient)
    #expect(shade.gradientType == .conic)
    let ring = card.sublayers[2]
    #expect(ring.fillColor == nil)
    #expect(ring.strokeColor == Color(r: 1, g: 1, b: 1, a: 1))
    #expect(ring.lineWidth == 3)
    #expect(ring.strokeStart == 0.25)
    #expect(ring.strokeEnd == 0.75)
    #expect(ring.lineDashPhase == 1)
    #expect(ring.lineDashPattern == [4, 2])
  }

  @Test(arguments: [
    (
      "kind", "\"sprite\"",
      "from.kind", "must be \"view\", \"layer\", \"gradient\" or \"shape\""
    ),
    (
      "kind", "\"layer\"",
      "from.kind", "must be \"view\": a tree's root is a view"
    ),
    (
      "borderWidth", "-1",
      "from.borderWidth", "must be a finite number ≥ 0"
    ),
    (
      "shadowOpacity", "2",
      "from.shadowOpacity", "must be a number in [0, 1]"
    ),
    (
      "shadowOffset", #"{"width": 1}"#,
      "from.shadowOffset.height", "is required"
    ),
    (
      "fillColor", "[2, 0, 0, 1]",
      "from.fillColor[0]", "must be a number in [0, 1]"
    ),
    (
      "path", #"[["M", 1]]"#,
      "from.path[0]", "\"M\" takes 2 numbers"
    ),
    (
      "path", #"[["X", 1, 2]]"#,
      "from.path[0][0]", "must be \"M\", \"L\", \"Q\", \"C\" or \"Z\""
    ),
    (
      "shadowPath", #"[["L", 1, "2"]]"#,
      "from.shadowPath[0][2]", "must be a finite number"
    ),
    (
      "maskedCorners", #"["topLeft"]"#,
      "from.maskedCorners[0]", "must be \"minXMinY\", \"maxXMinY\", \"minXMaxY\" or \"maxXMaxY\""
    ),
    (
      "lineDashPattern", "[1, -2]",
      "from.lineDashPattern[1]", "must be a finite number ≥ 0"
    ),
    (
      "fillRule", "\"winding\"",
      "from.fillRule", "must be \"nonZero\" or \"evenOdd\""
    ),
    (
      "gradientType", "\"linear\"",
      "from.gradientType", "must be \"axial\", \"radial\" or \"conic\""
    ),
  ])
  func aBadLayerMemberNamesItsField(key: String, valueText: String, field: String, problem: String) throws {
    let value = try JSON.parse(valueText)
    let error = refusal(JSON.object([("id", "root"), ("frame", Self.frame), (key, value)]))
    #expect(error?.field == field)
    #expect(error?.problem == problem)
    #expect(error?.node == "root")
    #expect(error?.responseError.data?["field"]?.stringValue == field)
  }

  @Test func aLayerCannotHoldAView() {
    let error = refusal([
      "id": "root", "frame": Self.frame,
      "children": [
        ["id": "spot", "kind": "layer", "frame": Self.frame, "children": [["id": "v", "frame": Self.frame]]]
      ],
    ])
    #expect(error?.field == "from.children[0].children[0].kind")
    #expect(error?.node == "v")
  }
}
