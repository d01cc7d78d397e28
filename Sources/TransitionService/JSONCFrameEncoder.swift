// The reference frame encoder: every frame built as a json-c tree through the JSON module's builders and serialized
// by json-c, as the host wrote frames before the dedicated encoder (FrameEncoder.swift). It is what the dedicated
// encoder is proven against (CONVENTIONS: "Frames may be written by a dedicated encoder proven equal to json-c's
// output"): the equivalence tests parse the dedicated encoder's text with json-c and compare it with this tree, and
// `make bench` measures both. The host itself never calls it.

import JSON
import TransitionEngine

/// Builds one transition's frames as json-c trees, keeping what delta frames compare against.
///
/// The format is `FrameEncoder`'s. A frame object: `{"transition", "seq"?, "time", "percent", "phase", "views": [...],
/// "delta"?: true, "removed"?: [ids]}`. Each full entry: `id`, `parent` (null for the container), `frame`, `bounds`, `position`,
/// `anchorPoint`, `transform`, `worldTransform`, `boundingBox` (null when a corner is behind the eye), `alpha`,
/// `opacity`, `hidden`, `zIndex`, `backgroundColor` (null when none), `cornerRadius`, `clipsToBounds`, then
/// `gradient` and `snapshotOf` when the view has them, then `content` when the client gave one.
package struct JSONCFrameEncoder {
  /// The states of the previous streamed frame, and where each id is in it (delta mode).
  private var previous: [ViewState] = []
  private var previousIndex: [String: Int] = [:]
  /// Whether a streamed frame was encoded already (the first delta frame is full).
  private(set) var hasStreamed = false
  /// Each view's `content`, by id.
  private var contents: [String: JSON]
  private let clientContents: [String: JSON]

  package init(contents: [String: JSON] = [:]) {
    self.contents = contents
    self.clientContents = contents
  }

  /// As `FrameEncoder.setContent(_:for:)`.
  package mutating func setContent(_ content: JSON?, for id: String) {
    contents[id] = content ?? clientContents[id]
  }

  /// `states` as a whole `transition/frame` notification message (`{"jsonrpc":"2.0","method":…, "params":…}`) for
  /// the stream: full, or delta against the previous streamed frame.
  package mutating func notification(_ stamp: FrameStamp, mode: FrameMode, states: [ViewState]) -> JSON {
    var message = JSONObjectBuilder()
    message.setNew("jsonrpc", string: "2.0")
    message.setNew("method", string: "transition/frame")
    message.setNew("params", frameObject(stamp, delta: mode == .delta && hasStreamed, states: states))
    hasStreamed = true
    if mode == .delta {
      previous = states
      previousIndex.removeAll(keepingCapacity: true)
      for (index, state) in previous.enumerated() { previousIndex[state.id] = index }
    }
    return message.build()
  }

  /// `states` as a full frame object (a `transition/sample` result); the stream's delta baseline is left alone.
  package func object(_ stamp: FrameStamp, states: [ViewState]) -> JSON {
    frameObject(stamp, delta: false, states: states).build()
  }

  private func frameObject(_ stamp: FrameStamp, delta: Bool, states: [ViewState]) -> JSONObjectBuilder {
    var frame = JSONObjectBuilder()
    frame.setNew("transition", string: stamp.transition)
    if let seq = stamp.seq { frame.setNew("seq", integer: seq) }
    frame.setNew("time", number: stamp.time)
    frame.setNew("percent", number: stamp.percent)
    frame.setNew("phase", string: stamp.phase)
    var views = JSONArrayBuilder(capacity: states.count)
    var currentIDs = Set<String>()
    if delta {
      for state in states {
        currentIDs.insert(state.id)
        if let index = previousIndex[state.id] {
          let entry = changes(state, since: previous[index])
          if entry.count > 1 { views.append(entry) }
        } else {
          views.append(full(state, content: contents[state.id]))
        }
      }
    } else {
      for state in states { views.append(full(state, content: contents[state.id])) }
    }
    frame.setNew("views", views)
    if delta {
      frame.setNew("delta", bool: true)
      var removed = JSONArrayBuilder()
      for old in previous where !currentIDs.contains(old.id) { removed.append(string: old.id) }
      if removed.count > 0 { frame.setNew("removed", removed) }
    }
    return frame
  }

  // MARK: Entries

  private func full(_ s: ViewState, content: JSON?) -> JSONObjectBuilder {
    var entry = JSONObjectBuilder()
    entry.setNew("id", string: s.id)
    if let parent = s.parentID { entry.setNew("parent", string: parent) } else { entry.setNewNull("parent") }
    entry.setNew("frame", rect(s.frame))
    entry.setNew("bounds", rect(s.bounds))
    entry.setNew("position", point(s.position))
    entry.setNew("anchorPoint", point(s.anchorPoint))
    entry.setNew("transform", matrix(s.transform))
    entry.setNew("worldTransform", matrix(s.worldTransform))
    if let box = s.boundingBox { entry.setNew("boundingBox", rect(box)) } else { entry.setNewNull("boundingBox") }
    entry.setNew("alpha", number: s.alpha)
    entry.setNew("opacity", number: s.opacity)
    entry.setNew("hidden", bool: s.isHidden)
    entry.setNew("zIndex", integer: s.zIndex)
    if let color = s.backgroundColor {
      entry.setNew("backgroundColor", self.color(color))
    } else {
      entry.setNewNull("backgroundColor")
    }
    entry.setNew("cornerRadius", number: s.cornerRadius)
    entry.setNew("clipsToBounds", bool: s.clipsToBounds)
    if let gradient = s.gradient { entry.setNew("gradient", self.gradient(gradient)) }
    if let snapshotOf = s.snapshotOf { entry.setNew("snapshotOf", string: snapshotOf) }
    if s.hasLayerMembers {
      for member in s.layerMembers(includingDefaults: false) { add(member, to: &entry) }
    }
    // By reference: the client's value is shared, not copied.
    if let content { entry.setNew("content", content) }
    return entry
  }

  /// `{"id", changed fields…}`; only the id when nothing changed.
  private func changes(_ s: ViewState, since o: ViewState) -> JSONObjectBuilder {
    var entry = JSONObjectBuilder()
    entry.setNew("id", string: s.id)
    if s.parentID != o.parentID {
      if let parent = s.parentID { entry.setNew("parent", string: parent) } else { entry.setNewNull("parent") }
    }
    if s.frame != o.frame { entry.setNew("frame", rect(s.frame)) }
    if s.bounds != o.bounds { entry.setNew("bounds", rect(s.bounds)) }
    if s.position != o.position { entry.setNew("position", point(s.position)) }
    if s.anchorPoint != o.anchorPoint { entry.setNew("anchorPoint", point(s.anchorPoint)) }
    if s.transform != o.transform { entry.setNew("transform", matrix(s.transform)) }
    if s.worldTransform != o.worldTransform { entry.setNew("worldTransform", matrix(s.worldTransform)) }
    if s.boundingBox != o.boundingBox {
      if let box = s.boundingBox { entry.setNew("boundingBox", rect(box)) } else { entry.setNewNull("boundingBox") }
    }
    if s.alpha != o.alpha { entry.setNew("alpha", number: s.alpha) }
    if s.opacity != o.opacity { entry.setNew("opacity", number: s.opacity) }
    if s.isHidden != o.isHidden { entry.setNew("hidden", bool: s.isHidden) }
    if s.zIndex != o.zIndex { entry.setNew("zIndex", integer: s.zIndex) }
    if s.backgroundColor != o.backgroundColor {
      if let color = s.backgroundColor {
        entry.setNew("backgroundColor", self.color(color))
      } else {
        entry.setNewNull("backgroundColor")
      }
    }
    if s.cornerRadius != o.cornerRadius { entry.setNew("cornerRadius", number: s.cornerRadius) }
    if s.clipsToBounds != o.clipsToBounds { entry.setNew("clipsToBounds", bool: s.clipsToBounds) }
    if s.gradient != o.gradient {
      if let gradient = s.gradient {
        entry.setNew("gradient", self.gradient(gradient))
      } else {
        entry.setNewNull("gradient")
      }
    }
    if s.snapshotOf != o.snapshotOf {
      if let snapshotOf = s.snapshotOf {
        entry.setNew("snapshotOf", string: snapshotOf)
      } else {
        entry.setNewNull("snapshotOf")
      }
    }
    if s.hasLayerMembers || o.hasLayerMembers {
      for (member, old) in zip(s.layerMembers(includingDefaults: true), o.layerMembers(includingDefaults: true))
      where member.value != old.value {
        add(member, to: &entry)
      }
    }
    return entry
  }

  // MARK: Values

  private func rect(_ r: Rect) -> JSONObjectBuilder {
    var object = JSONObjectBuilder()
    object.setNew("x", number: r.origin.x)
    object.setNew("y", number: r.origin.y)
    object.setNew("width", number: r.size.width)
    object.setNew("height", number: r.size.height)
    return object
  }

  private func point(_ p: Point) -> JSONObjectBuilder {
    var object = JSONObjectBuilder()
    object.setNew("x", number: p.x)
    object.setNew("y", number: p.y)
    return object
  }

  private func matrix(_ m: Transform3D) -> JSONArrayBuilder {
    // Sixteen explicit appends: `m.values` would allocate an array on every view of every frame.
    var array = JSONArrayBuilder(capacity: 16)
    array.append(number: m.m11)
    array.append(number: m.m12)
    array.append(number: m.m13)
    array.append(number: m.m14)
    array.append(number: m.m21)
    array.append(number: m.m22)
    array.append(number: m.m23)
    array.append(number: m.m24)
    array.append(number: m.m31)
    array.append(number: m.m32)
    array.append(number: m.m33)
    array.append(number: m.m34)
    array.append(number: m.m41)
    array.append(number: m.m42)
    array.append(number: m.m43)
    array.append(number: m.m44)
    return array
  }

  private func color(_ c: Color) -> JSONArrayBuilder {
    var array = JSONArrayBuilder(capacity: 4)
    array.append(number: c.r)
    array.append(number: c.g)
    array.append(number: c.b)
    array.append(number: c.a)
    return array
  }

  private func add(_ member: LayerMember, to entry: inout JSONObjectBuilder) {
    let key = member.key
    switch member.value {
    case .string(let s):
      if let s { entry.setNew(key, string: s) } else { entry.setNewNull(key) }
    case .number(let v): entry.setNew(key, number: v)
    case .color(let c):
      if let c { entry.setNew(key, color(c)) } else { entry.setNewNull(key) }
    case .size(let size):
      var object = JSONObjectBuilder()
      object.setNew("width", number: size.width)
      object.setNew("height", number: size.height)
      entry.setNew(key, object)
    case .path(let path):
      guard let path else { return entry.setNewNull(key) }
      var elements = JSONArrayBuilder(capacity: path.elements.count)
      for element in path.elements {
        var array = JSONArrayBuilder()
        array.append(string: element.svgCommand)
        for p in element.frameForm.1 {
          array.append(number: p.x)
          array.append(number: p.y)
        }
        elements.append(array)
      }
      entry.setNew(key, elements)
    case .lengths(let lengths):
      guard let lengths else { return entry.setNewNull(key) }
      var array = JSONArrayBuilder(capacity: lengths.count)
      for v in lengths { array.append(number: v) }
      entry.setNew(key, array)
    case .corners(let corners):
      var array = JSONArrayBuilder()
      for (corner, name) in MaskedCorners.frameNames where corners.contains(corner) { array.append(string: name) }
      entry.setNew(key, array)
    }
  }

  private func gradient(_ g: Gradient) -> JSONObjectBuilder {
    var object = JSONObjectBuilder()
    var colors = JSONArrayBuilder(capacity: g.colors.count)
    for c in g.colors { colors.append(color(c)) }
    object.setNew("colors", colors)
    if let locations = g.locations {
      var array = JSONArrayBuilder(capacity: locations.count)
      for location in locations { array.append(number: location) }
      object.setNew("locations", array)
    } else {
      object.setNewNull("locations")
    }
    object.setNew("startPoint", point(g.startPoint))
    object.setNew("endPoint", point(g.endPoint))
    return object
  }
}
