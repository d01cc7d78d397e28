// The timeline's wire form (Protocol.md, `transition/timeline`): the result of `transition/timeline`, the `timeline`
// member of `transition/start`'s result and the params of `transition/timelineChanged`. Values take the JSON form
// frames use for the same member (points {"x","y"}, rects {"x","y","width","height"}, matrices 16 numbers row by row,
// colours [r, g, b, a], paths the frame's SVG-style elements); curves the form `transition/start` reads.

import JSON
import TransitionEngine

/// Builds the timeline's JSON.
package enum TimelineJSON {
  /// `{"transition", "time", "duration", "animations": […], "tails": […]}`.
  package static func json(_ timeline: TransitionTimeline, transition id: String) -> JSON {
    var object = JSONObjectBuilder()
    object.setNew("transition", JSON(id))
    object.setNew("time", number: timeline.time)
    object.setNew("duration", number: timeline.duration)
    object.setNew("animations", .array(timeline.animations.map(json)))
    object.setNew("tails", .array(timeline.tails.map(json)))
    return object.build()
  }

  static func json(_ a: TimelineAnimation) -> JSON {
    var object = JSONObjectBuilder()
    object.setNew("index", integer: a.index)
    object.setNew("target", string: a.target)
    object.setNew("kind", string: a.targetKind)
    object.setNew("property", string: a.property)
    object.setNew("from", json(a.from))
    object.setNew("to", json(a.to))
    object.setNew("begin", number: a.begin)
    object.setNew("duration", number: a.duration)
    // An endless animation (repeatCount infinity) has no end: null.
    object.setNew("end", number: a.end)
    object.setNew("timing", json(a.timing))
    object.setNew("source", json(a.source))
    object.setNew("state", string: a.state.rawValue)
    if let media = a.media {
      if let v = media.repeatCount { object.setNew("repeatCount", number: v) }
      if let v = media.repeatDuration { object.setNew("repeatDuration", number: v) }
      if let v = media.autoreverses { object.setNew("autoreverses", bool: v) }
      if let v = media.speed { object.setNew("speed", number: v) }
      if let v = media.timeOffset { object.setNew("timeOffset", number: v) }
      if let v = media.fillMode { object.setNew("fillMode", string: v.rawValue) }
      if let v = media.removedOnCompletion { object.setNew("removedOnCompletion", bool: v) }
      if let v = media.additive { object.setNew("additive", bool: v) }
    }
    return object.build()
  }

  static func json(_ source: TimelineSource) -> JSON {
    var object = JSONObjectBuilder()
    object.setNew("kind", string: source.kind.rawValue)
    object.setNew("block", source.block.map { JSON($0) } ?? .null)
    object.setNew("parent", source.parent.map { JSON($0) } ?? .null)
    object.setNew("depth", integer: source.depth)
    object.setNew("delay", number: source.delay)
    object.setNew("completion", bool: source.completion)
    if let key = source.key { object.setNew("key", string: key) }
    return object.build()
  }

  static func json(_ tail: TimelineTail) -> JSON {
    var object = JSONObjectBuilder()
    object.setNew("operation", string: tail.isFinish ? "finish" : "cancel")
    object.setNew("cause", string: tail.cause.rawValue)
    object.setNew("velocity", number: tail.velocity)
    object.setNew("from", number: tail.from)
    object.setNew("to", number: tail.to)
    object.setNew("startedAt", number: tail.startedAt)
    object.setNew("length", number: tail.length)
    object.setNew("timing", json(tail.timing))
    return object.build()
  }

  /// `{"curve": …}`, `{"spring": {…}}` or `{"keyframes": {…}}`.
  static func json(_ timing: TimelineTiming) -> JSON {
    switch timing {
    case .curve(let curve):
      return .object([("curve", json(curve))])
    case .spring(let spring):
      var s = JSONObjectBuilder()
      s.setNew("mass", number: spring.mass)
      s.setNew("stiffness", number: spring.stiffness)
      s.setNew("damping", number: spring.damping)
      s.setNew("initialVelocity", number: spring.initialVelocity)
      s.setNew("dampingRatio", number: spring.dampingRatio)
      s.setNew("settlingDuration", number: spring.settlingDuration)
      s.setNew("duration", number: spring.duration)
      if spring.allowsOverdamping { s.setNew("allowsOverdamping", bool: true) }
      return .object([("spring", s.build())])
    case .keyframes(let k):
      var object = JSONObjectBuilder()
      object.setNew("keyTimes", .array(k.keyTimes.map { JSON.number($0) }))
      object.setNew("values", .array(k.values.map(json)))
      object.setNew("calculationMode", string: k.calculationMode.rawValue)
      if let functions = k.timingFunctions { object.setNew("timingFunctions", .array(functions.map(json))) }
      if let curve = k.curve { object.setNew("curve", json(curve)) }
      if let path = k.path { object.setNew("path", json(.path(path))) }
      if let mode = k.rotationMode { object.setNew("rotationMode", string: mode.rawValue) }
      return .object([("keyframes", object.build())])
    }
  }

  /// A curve as `transition/start` reads it: a name, `{"bezier": [x1, y1, x2, y2]}` or `{"steps", "position"}`.
  static func json(_ curve: TimingCurve) -> JSON {
    if let name = curve.name { return JSON(name) }
    switch curve {
    case .steps(let n, let position):
      return .object([("steps", JSON(n)), ("position", JSON(position.rawValue))])
    default:
      let p = curve.controlPoints!
      return .object([("bezier", .array([p.x1, p.y1, p.x2, p.y2].map { JSON.number($0) }))])
    }
  }

  static func json(_ value: TimelineValue) -> JSON {
    switch value {
    case .number(let v): return .number(v)
    case .point(let p): return point(p)
    case .size(let s): return .object([("width", .number(s.width)), ("height", .number(s.height))])
    case .rect(let r):
      return .object([
        ("x", .number(r.origin.x)), ("y", .number(r.origin.y)), ("width", .number(r.size.width)),
        ("height", .number(r.size.height)),
      ])
    case .transform(let m):
      return .array(
        [
          m.m11, m.m12, m.m13, m.m14, m.m21, m.m22, m.m23, m.m24, m.m31, m.m32, m.m33, m.m34, m.m41, m.m42, m.m43,
          m.m44,
        ].map { JSON.number($0) })
    case .color(let c?): return color(c)
    case .color(nil), .path(nil), .gradient(nil): return .null
    case .path(let path?):
      return .array(
        path.elements.map { element in
          let (_, points) = element.frameForm
          return .array(
            [JSON(element.svgCommand)] + points.flatMap { [JSON.number($0.x), JSON.number($0.y)] })
        })
    case .gradient(let g?):
      return .object([
        ("colors", .array(g.colors.map(color))),
        ("locations", g.locations.map { .array($0.map { JSON.number($0) }) } ?? .null),
        ("startPoint", point(g.startPoint)), ("endPoint", point(g.endPoint)),
      ])
    }
  }

  private static func point(_ p: Point) -> JSON { .object([("x", .number(p.x)), ("y", .number(p.y))]) }

  private static func color(_ c: Color) -> JSON { .array([c.r, c.g, c.b, c.a].map { JSON.number($0) }) }
}
