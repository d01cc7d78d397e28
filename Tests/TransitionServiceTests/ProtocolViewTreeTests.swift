import JSON
import JSONRPC
import Testing
import TransitionEngine

@testable import TransitionService

@Suite struct ProtocolViewTreeTests {
  private let container: JSON = ["width": 400, "height": 800]
  private let plainTo: JSON = ["id": "to", "frame": ["x": 0, "y": 0, "width": 400, "height": 800]]

  private func decode(from: JSON, to: JSON? = nil, container: JSON? = nil) throws(ViewTreeError) -> ViewTrees {
    try ViewTreeDecoder.decode(container: container ?? self.container, from: from, to: to ?? plainTo)
  }

  /// The 2004 error for a tree, or nil if it decoded.
  private func refusal(from: JSON, to: JSON? = nil, container: JSON? = nil) -> ViewTreeError? {
    do {
      _ = try decode(from: from, to: to, container: container)
      return nil
    } catch {
      return error
    }
  }

  @Test func frameNodesBecomeViewsWithUIKitGeometry() throws {
    let trees = try decode(from: [
      "id": "root", "frame": ["x": 10, "y": 20, "width": 100, "height": 50], "alpha": 0.5, "hidden": true,
      "zPosition": 3, "cornerRadius": 8, "backgroundColor": [1, 0.5, 0, 1], "clipsToBounds": true, "match": "hero",
      "content": ["text": "Hi", "size": 17],
      "children": [
        ["id": "a", "frame": ["x": 1, "y": 2, "width": 3, "height": 4]],
        ["id": "b", "frame": ["x": 5, "y": 6, "width": 7, "height": 8]],
      ],
    ])
    let root = trees.fromRoot
    #expect(root.id == "root")
    #expect(root.frame == Rect(x: 10, y: 20, width: 100, height: 50))
    // UIKit: bounds = (0, 0, size), position = frame's centre for the default anchor point.
    #expect(root.bounds == Rect(x: 0, y: 0, width: 100, height: 50))
    #expect(root.position == Point(x: 60, y: 45))
    #expect(root.alpha == 0.5)
    #expect(root.isHidden)
    #expect(root.zPosition == 3)
    #expect(root.cornerRadius == 8)
    #expect(root.backgroundColor == Color(r: 1, g: 0.5, b: 0, a: 1))
    #expect(root.clipsToBounds)
    #expect(root.subviews.map(\.id) == ["a", "b"])
    #expect(root.matchKey == "hero")
    #expect(root.subviews.map(\.matchKey) == [nil, nil])
    #expect(trees.contents["root"]?.serialized() == #"{"text":"Hi","size":17}"#)
    #expect(trees.contents["a"] == nil)
    #expect(trees.scene.container.bounds == Rect(x: 0, y: 0, width: 400, height: 800))
  }

  @Test func boundsPositionAndAnchorPointGiveTheFrameUIKitWould() throws {
    let trees = try decode(from: [
      "id": "root", "bounds": ["x": 0, "y": 0, "width": 100, "height": 40], "position": ["x": 50, "y": 60],
      "anchorPoint": ["x": 0, "y": 0],
    ])
    // With anchor (0, 0) the position is the top-left corner.
    #expect(trees.fromRoot.frame == Rect(x: 50, y: 60, width: 100, height: 40))
    #expect(trees.fromRoot.anchorPoint == Point(x: 0, y: 0))
  }

  @Test func aFrameWithAnAnchorPointLandsWhereItIsAsked() throws {
    let trees = try decode(from: [
      "id": "root", "frame": ["x": 10, "y": 20, "width": 100, "height": 40], "anchorPoint": ["x": 0, "y": 1],
      "content": nil,
    ])
    // Anchor at the bottom-left corner: the position is that corner, (10, 60).
    #expect(trees.fromRoot.frame == Rect(x: 10, y: 20, width: 100, height: 40))
    #expect(trees.fromRoot.position == Point(x: 10, y: 60))
    // A null content is no content.
    #expect(trees.contents.isEmpty)
  }

  @Test func transformsAndGradientsAreRead() throws {
    let scale: JSON = [2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 1, 0, 5, 6, 0, 1]
    let perspective: JSON = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -0.002, 0, 0, 0, 1]
    let trees = try decode(from: [
      "id": "root", "frame": ["x": 0, "y": 0, "width": 10, "height": 10], "transform": scale,
      "sublayerTransform": perspective,
      "gradient": ["colors": [[1, 0, 0, 1], [0, 0, 1, 1]], "locations": [0, 1], "endPoint": ["x": 1, "y": 1]],
    ])
    let root = trees.fromRoot
    #expect(root.transform.values == [2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 1, 0, 5, 6, 0, 1])
    #expect(root.sublayerTransform.m34 == -0.002)
    #expect(
      root.gradient
        == Gradient(
          colors: [Color(r: 1, g: 0, b: 0, a: 1), Color(r: 0, g: 0, b: 1, a: 1)], locations: [0, 1],
          startPoint: Point(x: 0.5, y: 0), endPoint: Point(x: 1, y: 1)))
  }

  @Test func errorsNameTheNodeAndTheFieldPath() throws {
    let bad = refusal(
      from: ["id": "root", "frame": ["x": 0, "y": 0, "width": 10, "height": 10]],
      to: [
        "id": "to", "frame": ["x": 0, "y": 0, "width": 10, "height": 10],
        "children": [
          ["id": "ok", "frame": ["x": 0, "y": 0, "width": 1, "height": 1]],
          ["id": "card", "frame": ["x": 0, "y": 0, "width": -5, "height": 1]],
        ],
      ])
    let error = try #require(bad)
    #expect(error.node == "card")
    #expect(error.field == "to.children[1].frame.width")
    let response = error.responseError
    #expect(response.code == .invalidViewTree)
    #expect(response.message.contains("to.children[1].frame.width"))
    #expect(response.data?["node"]?.stringValue == "card")
    #expect(response.data?["field"]?.stringValue == "to.children[1].frame.width")
  }

  @Test(
    arguments: [
      // (node JSON as text, node, field)
      (#"{"frame":{"x":0,"y":0,"width":1,"height":1}}"#, nil, "from.id"),
      (#"{"id":"","frame":{"x":0,"y":0,"width":1,"height":1}}"#, nil, "from.id"),
      (#"{"id":7,"frame":{"x":0,"y":0,"width":1,"height":1}}"#, nil, "from.id"),
      (#"{"id":"container","frame":{"x":0,"y":0,"width":1,"height":1}}"#, "container", "from.id"),
      (#"{"id":"to","frame":{"x":0,"y":0,"width":1,"height":1}}"#, "to", "to.id"),
      (#"{"id":"v"}"#, "v", "from.frame"),
      (#"{"id":"v","frame":{"x":0,"y":0,"width":1}}"#, "v", "from.frame.height"),
      (#"{"id":"v","frame":{"x":"0","y":0,"width":1,"height":1}}"#, "v", "from.frame.x"),
      (#"{"id":"v","bounds":{"x":0,"y":0,"width":1,"height":1}}"#, "v", "from.position"),
      (#"{"id":"v","position":{"x":0,"y":0}}"#, "v", "from.bounds"),
      (#"{"id":"v","frame":{"x":0,"y":0,"width":1,"height":1},"position":{"x":0,"y":0}}"#, "v", "from.frame"),
      (#"{"id":"v","frame":{"x":0,"y":0,"width":1,"height":1},"anchorPoint":{"x":0}}"#, "v", "from.anchorPoint.y"),
      (#"{"id":"v","frame":{"x":0,"y":0,"width":1,"height":1},"alpha":1.5}"#, "v", "from.alpha"),
      (#"{"id":"v","frame":{"x":0,"y":0,"width":1,"height":1},"hidden":1}"#, "v", "from.hidden"),
      (#"{"id":"v","frame":{"x":0,"y":0,"width":1,"height":1},"transform":[1,0,0]}"#, "v", "from.transform"),
      (
        #"{"id":"v","frame":{"x":0,"y":0,"width":1,"height":1},"transform":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,"x",1]}"#, "v",
        "from.transform[14]"
      ),
      (#"{"id":"v","frame":{"x":0,"y":0,"width":1,"height":1},"cornerRadius":-1}"#, "v", "from.cornerRadius"),
      (
        #"{"id":"v","frame":{"x":0,"y":0,"width":1,"height":1},"backgroundColor":[1,0,0]}"#, "v", "from.backgroundColor"
      ),
      (
        #"{"id":"v","frame":{"x":0,"y":0,"width":1,"height":1},"backgroundColor":[1,0,2,1]}"#, "v",
        "from.backgroundColor[2]"
      ),
      (#"{"id":"v","frame":{"x":0,"y":0,"width":1,"height":1},"gradient":{"colors":[]}}"#, "v", "from.gradient.colors"),
      (
        #"{"id":"v","frame":{"x":0,"y":0,"width":1,"height":1},"gradient":{"colors":[[0,0,0,1]],"locations":[0,1]}}"#,
        "v", "from.gradient.locations"
      ),
      (#"{"id":"v","frame":{"x":0,"y":0,"width":1,"height":1},"match":3}"#, "v", "from.match"),
      (#"{"id":"v","frame":{"x":0,"y":0,"width":1,"height":1},"children":{}}"#, "v", "from.children"),
      (#"{"id":"v","frame":{"x":0,"y":0,"width":1,"height":1},"children":[5]}"#, nil, "from.children[0]"),
      (#"[1]"#, nil, "from"),
    ] as [(String, String?, String)])
  func eachInvalidNodeIsRefused(node: String, expectedNode: String?, field: String) throws {
    let error = try #require(refusal(from: try JSON.parse(node)))
    #expect(error.node == expectedNode)
    #expect(error.field == field)
  }

  @Test func idsMustBeUniqueAcrossBothTrees() throws {
    let error = try #require(
      refusal(
        from: ["id": "shared", "frame": ["x": 0, "y": 0, "width": 1, "height": 1]],
        to: [
          "id": "to", "frame": ["x": 0, "y": 0, "width": 1, "height": 1],
          "children": [["id": "shared", "frame": ["x": 0, "y": 0, "width": 1, "height": 1]]],
        ]))
    #expect(error.node == "shared")
    #expect(error.field == "to.children[0].id")
  }

  @Test func theContainerNeedsASize() throws {
    let node: JSON = ["id": "v", "frame": ["x": 0, "y": 0, "width": 1, "height": 1]]
    let error = try #require(refusal(from: node, container: ["width": 400]))
    #expect(error.node == nil)
    #expect(error.field == "container.height")
    let negative = try #require(refusal(from: node, container: ["width": -1, "height": 1]))
    #expect(negative.field == "container.width")
  }

  @Test func deepTreesDecode() throws {
    // 200 levels: each level costs two JSON nesting levels (object, children array), within json-c's 512 here.
    var node: JSON = ["id": "leaf", "frame": ["x": 1, "y": 1, "width": 1, "height": 1]]
    for level in 0..<200 {
      node = ["id": JSON("n\(level)"), "frame": ["x": 1, "y": 1, "width": 1, "height": 1], "children": [node]]
    }
    let trees = try decode(from: node)
    var depth = 0
    var view: View? = trees.fromRoot
    while let current = view, let child = current.subviews.first {
      depth += 1
      view = child
    }
    #expect(depth == 200)
    #expect(view?.id == "leaf")
  }
}
