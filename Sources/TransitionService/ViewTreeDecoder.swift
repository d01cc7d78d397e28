// The `from` and `to` view trees of `transition/start`, decoded into engine views (CONVENTIONS, "View trees and
// frames"). Everything is checked before a transition exists; a bad tree is error 2004 naming the node and the field.

import JSON
import JSONRPC
import TransitionEngine

/// Why a view tree was refused: the node (its id, when it has a usable one) and the field's path.
struct ViewTreeError: Error {
  /// The id of the node at fault; nil when the node has no usable id (or the fault is the container's).
  var node: String?
  /// The path of the field, e.g. `to.children[1].frame.width`.
  var field: String
  /// The rest of the sentence, e.g. "must be a finite number ≥ 0".
  var problem: String

  /// Error 2004 with `data: {"node", "field"}`.
  var responseError: ResponseError {
    let where_ = node.map { " (node \"\($0)\")" } ?? ""
    return ResponseError(
      code: .invalidViewTree, message: "Invalid view tree: \(field) \(problem)\(where_).",
      data: ["node": node.map { JSON($0) } ?? .null, "field": JSON(field)])
  }
}

/// The two view trees of a transition in their scene, with the `content` the protocol keeps per view: what
/// `ViewTreeDecoder` makes of `transition/start`'s JSON, or what an in-process caller builds with the engine's API.
package struct ViewTrees {
  /// The scene holding both trees (its container sized as asked), the from root shown in the container.
  package var scene: Scene
  package var fromRoot: View
  package var toRoot: View
  /// Each view's `content` (opaque JSON passed through into full frames), by view id.
  package var contents: [String: JSON]

  package init(scene: Scene, fromRoot: View, toRoot: View, contents: [String: JSON] = [:]) {
    self.scene = scene
    self.fromRoot = fromRoot
    self.toRoot = toRoot
    self.contents = contents
  }
}

/// Builds the scene of a transition from `container`, `from` and `to`.
///
/// A node: `id` (non-empty, unique across both trees, not the container's id `"container"`), then either `frame`
/// (`{x, y, width, height}` in the parent's coordinates, as UIKit's `view.frame`) or `bounds` + `position`, either
/// with an optional `anchorPoint` (default (0.5, 0.5)); optionally `alpha` ([0, 1]), `hidden`, `transform` and
/// `sublayerTransform` (16 numbers each), `zPosition`, `cornerRadius` (≥ 0), `backgroundColor` ([r, g, b, a]),
/// `clipsToBounds`, `gradient`, `match` (a string), `content` (any JSON) and `children` (nodes); the layer members
/// (`kind`, `mask`, borders, shadows, shapes: ViewTreeDecoder+Layers.swift). Members the protocol does not know are
/// ignored, so newer clients keep working.
struct ViewTreeDecoder {
  private var scene: Scene
  private var contents: [String: JSON] = [:]

  /// The id of the container view in every frame.
  static let containerID = "container"

  /// Decodes `container` (`{width, height}`) and both trees.
  static func decode(container: JSON, from: JSON, to: JSON) throws(ViewTreeError) -> ViewTrees {
    let size = try containerSize(container)
    var decoder = ViewTreeDecoder(scene: Scene(containerSize: size, containerID: containerID))
    let fromRoot = try decoder.node(from, path: "from")
    try checkRoot(fromRoot, path: "from")
    let toRoot = try decoder.node(to, path: "to")
    try checkRoot(toRoot, path: "to")
    return ViewTrees(scene: decoder.scene, fromRoot: fromRoot, toRoot: toRoot, contents: decoder.contents)
  }

  /// Decodes a scene's `container` and its trees (`paths` name them in errors): the first tree shown in the
  /// container, the others outside it; ids unique across all of them.
  static func decodeScene(
    container: JSON, trees: [(path: String, json: JSON)]
  ) throws(ViewTreeError) -> (scene: Scene, roots: [View], contents: [String: JSON]) {
    let size = try containerSize(container)
    var decoder = ViewTreeDecoder(scene: Scene(containerSize: size, containerID: containerID))
    var roots: [View] = []
    for tree in trees {
      roots.append(try decoder.node(tree.json, path: tree.path))
      try checkRoot(roots[roots.count - 1], path: tree.path)
    }
    if let first = roots.first { decoder.scene.container.addSubview(first) }
    return (decoder.scene, roots, decoder.contents)
  }

  private init(scene: Scene) {
    self.scene = scene
  }

  /// A root must be a view (a view controller's view).
  private static func checkRoot(_ root: View, path: String) throws(ViewTreeError) {
    guard root.isView else {
      throw ViewTreeError(node: root.id, field: path + ".kind", problem: "must be \"view\": a tree's root is a view")
    }
  }

  private static func containerSize(_ container: JSON) throws(ViewTreeError) -> Size {
    do {
      let object = try ValueDecoding.object(container, "container")
      let width = try ValueDecoding.nonNegative(ValueDecoding.required(object, "width", "container"), "container.width")
      let height = try ValueDecoding.nonNegative(
        ValueDecoding.required(object, "height", "container"), "container.height")
      return Size(width: width, height: height)
    } catch {
      throw ViewTreeError(node: nil, field: error.field, problem: error.problem)
    }
  }

  private mutating func node(_ json: JSON, path: String) throws(ViewTreeError) -> View {
    guard json.kind == .object else { throw ViewTreeError(node: nil, field: path, problem: "must be an object") }
    guard let idValue = ValueDecoding.member(json, "id") else {
      throw ViewTreeError(node: nil, field: path + ".id", problem: "is required")
    }
    guard let id = idValue.stringValue, !id.isEmpty else {
      throw ViewTreeError(node: nil, field: path + ".id", problem: "must be a non-empty string")
    }
    let kind: LayerKind?
    do {
      kind = try ValueDecoding.layerKind(json, path)
    } catch {
      throw ViewTreeError(node: id, field: error.field, problem: error.problem)
    }
    let view: View
    do {
      view = try kind.map { k throws(SceneError) in try scene.makeLayer(id: id, kind: k) } ?? scene.makeView(id: id)
    } catch {
      let problem =
        id == Self.containerID
        ? "\"\(id)\" is the container's id" : "\"\(id)\" is used by another node (ids are unique across from and to)"
      throw ViewTreeError(node: id, field: path + ".id", problem: problem)
    }
    do {
      try apply(json, to: view, path: path)
    } catch {
      throw ViewTreeError(node: id, field: error.field, problem: error.problem)
    }
    if let content = ValueDecoding.member(json, "content") { contents[id] = content }
    if let childrenValue = ValueDecoding.member(json, "children") {
      guard childrenValue.kind == .array else {
        throw ViewTreeError(node: id, field: path + ".children", problem: "must be an array of nodes")
      }
      for (index, child) in childrenValue.elements.enumerated() {
        let childPath = "\(path).children[\(index)]"
        let childNode = try node(child, path: childPath)
        if !childNode.isView {
          view.addSublayer(childNode)
        } else if view.isView {
          view.addSubview(childNode)
        } else {
          throw ViewTreeError(
            node: childNode.id, field: childPath + ".kind",
            problem: "must be a layer: a layer that is not a view holds no views")
        }
      }
    }
    if let maskValue = ValueDecoding.member(json, "mask") {
      view.setMask(try node(maskValue, path: path + ".mask"))
    }
    return view
  }

  /// Reads the node's properties and writes them to `view` (immediate writes at time 0: initial values).
  private mutating func apply(_ json: JSON, to view: View, path: String) throws(FieldError) {
    typealias V = ValueDecoding
    let frame = V.member(json, "frame")
    let bounds = V.member(json, "bounds")
    let position = V.member(json, "position")
    let anchor = V.member(json, "anchorPoint")
    if let frame {
      if bounds != nil || position != nil {
        throw FieldError(path + ".frame", "cannot be combined with bounds or position")
      }
      // UIKit's frame setter keeps the anchor point: set it first, so the frame lands where it is asked to.
      if let anchor { view.anchorPoint = try V.point(anchor, path + ".anchorPoint") }
      view.frame = try V.rect(frame, path + ".frame", nonNegativeSize: true)
    } else if let bounds, let position {
      if let anchor { view.anchorPoint = try V.point(anchor, path + ".anchorPoint") }
      view.bounds = try V.rect(bounds, path + ".bounds", nonNegativeSize: true)
      view.position = try V.point(position, path + ".position")
    } else if bounds != nil {
      throw FieldError(path + ".position", "is required with bounds")
    } else if position != nil {
      throw FieldError(path + ".bounds", "is required with position")
    } else {
      throw FieldError(path + ".frame", "is required (or bounds and position)")
    }
    // The transform comes after the frame: UIKit's frame is only defined for the untransformed view.
    if let value = V.member(json, "transform") { view.transform = try V.transform(value, path + ".transform") }
    if let value = V.member(json, "sublayerTransform") {
      view.sublayerTransform = try V.transform(value, path + ".sublayerTransform")
    }
    if let value = V.member(json, "alpha") { view.alpha = try V.unit(value, path + ".alpha") }
    if let value = V.member(json, "hidden") { view.isHidden = try V.bool(value, path + ".hidden") }
    if let value = V.member(json, "zPosition") { view.zPosition = try V.number(value, path + ".zPosition") }
    if let value = V.member(json, "cornerRadius") {
      view.cornerRadius = try V.nonNegative(value, path + ".cornerRadius")
    }
    if let value = V.member(json, "backgroundColor") {
      view.backgroundColor = try V.color(value, path + ".backgroundColor")
    }
    if let value = V.member(json, "clipsToBounds") { view.clipsToBounds = try V.bool(value, path + ".clipsToBounds") }
    if let value = V.member(json, "gradient") { view.gradient = try V.gradient(value, path + ".gradient") }
    // The shared-element key lives on the view, where animators find it (`view_match_key`, `find_view_by_match`).
    if let value = V.member(json, "match") { view.matchKey = try V.string(value, path + ".match") }
    try V.applyLayerMembers(json, to: view, path: path)
  }
}

extension ViewTrees {
  /// Decodes `transition/start`'s `container`, `from` and `to` as the session does (a plugin's worker process
  /// decodes the trees its parent forwards the same way).
  ///
  /// - Throws: 2004 naming the node and the field.
  package static func decode(container: JSON, from: JSON, to: JSON) throws(ResponseError) -> ViewTrees {
    do {
      return try ViewTreeDecoder.decode(container: container, from: from, to: to)
    } catch {
      throw error.responseError
    }
  }
}
