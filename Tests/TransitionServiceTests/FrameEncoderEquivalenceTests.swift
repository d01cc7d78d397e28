// The dedicated frame encoder against the json-c reference encoder (CONVENTIONS: "Frames may be written by a dedicated
// encoder proven equal to json-c's output"). For every frame: json-c parses the dedicated encoder's text into a tree
// equal to the one the reference builds for the same states, and the text is byte for byte the reference's
// serialization. Checked on every built-in animator's frames at 50 times, on 10,000 seeded fuzzed scenes (hostile
// strings, extreme numbers, every member and every null), streamed full and as deltas and sampled, with `precision`
// off and on.

import JSON
import PluginHost
import TestSupport
import Testing
import TransitionEngine

@testable import TransitionService

/// Both encoders of one stream, fed the same states.
private struct EncoderPair {
  var dedicated: FrameEncoder
  var reference: JSONCFrameEncoder
  /// Member names seen in the dedicated encoder's entries, and members seen as null (coverage of the format).
  var members: Set<String> = []
  var nullMembers: Set<String> = []
  var frames = 0

  /// `constantText`: the dedicated encoder's kept text of seldom-changing members; the tests share one across the
  /// streams of many scenes, so entries at the same place alternate between values kept and values new.
  init(contents: [String: JSON], constantText: ConstantMemberText = ConstantMemberText()) {
    dedicated = FrameEncoder(contents: contents, constantText: constantText)
    reference = JSONCFrameEncoder(contents: contents)
  }

  /// One streamed frame of `states` through both; records a mismatch as an issue.
  mutating func stream(_ stamp: FrameStamp, mode: FrameMode, states: [ViewState], _ note: @autoclosure () -> String) {
    let expected = reference.notification(stamp, mode: mode, states: states)
    var message: [UInt8] = []
    dedicated.appendNotification(stamp, mode: mode, states: states, to: &message)
    compare(message, expected, note())
  }

  /// The content of view `id` from now on, in both (an animator's image or visual-effect view; nil: the client's).
  mutating func setContent(_ content: JSON?, for id: String) {
    dedicated.setContent(content, for: id)
    reference.setContent(content, for: id)
  }

  /// One sample object of `states` through both.
  mutating func sample(_ stamp: FrameStamp, states: [ViewState], _ note: @autoclosure () -> String) {
    var text: [UInt8] = []
    dedicated.appendObject(stamp, states: states, to: &text)
    compare(text, reference.object(stamp, states: states), note())
  }

  private mutating func compare(_ text: [UInt8], _ expected: JSON, _ note: String) {
    frames += 1
    let parsed: JSON
    do {
      parsed = try text.withUnsafeBytes { try JSON.parse($0) }
    } catch {
      Issue.record(
        "\(note): json-c cannot parse the dedicated encoder's text (\(error)): \(String(decoding: text, as: UTF8.self))"
      )
      return
    }
    #expect(parsed == expected, "\(note): trees differ")
    let expectedText = expected.serialized()
    #expect(String(decoding: text, as: UTF8.self) == expectedText, "\(note): texts differ")
    let frame = parsed["params"] ?? parsed
    for entry in frame["views"]?.elements ?? [] {
      entry.forEachMember { key, value in
        members.insert(key)
        if value.isNull { nullMembers.insert(key) }
      }
    }
    frame.forEachMember { key, _ in members.insert("frame." + key) }
  }
}

@Suite struct FrameEncoderEquivalenceTests {
  /// The grids the tests round with: off, a decimal grid (1e-3 points) and one that is not (a quarter point).
  private static let precisions: [FramePrecision?] = [nil, FramePrecision(grid: 1e-3)!, FramePrecision(grid: 0.25)!]

  private static func rounded(_ states: [ViewState], _ precision: FramePrecision?) -> [ViewState] {
    var states = states
    precision?.apply(to: &states)
    return states
  }

  // MARK: Built-in animators

  /// A from and a to tree with every kind of node member: content, a gradient with and without locations, transforms, hidden and clipped views, zPositions out of order,
  /// and `match` keys for magic-move.
  private static func trees() throws -> ViewTrees {
    let container = try JSON.parse(#"{"width": 390, "height": 844}"#)
    let from = try JSON.parse(
      #"""
      {"id": "list", "frame": {"x": 0, "y": 0, "width": 390, "height": 844}, "backgroundColor": [1, 1, 1, 1],
       "children": [
         {"id": "row\"1\\/é", "frame": {"x": 16, "y": 100.5, "width": 358, "height": 80}, "cornerRadius": 12.25,
          "match": "hero", "content": {"text": "Row 1", "n": 1.5e300}},
         {"id": "row2", "frame": {"x": 16, "y": 190, "width": 358, "height": 80}, "hidden": true, "zPosition": -1,
          "gradient": {"colors": [[0, 0, 0, 0], [0.1, 0.2, 0.3, 0.4]], "locations": [0, 0.7]}},
         {"id": "row3", "frame": {"x": 16, "y": 280, "width": 358, "height": 80}, "clipsToBounds": true,
          "transform": [0.5, 0.1, 0, 0, -0.1, 0.5, 0, 0, 0, 0, 1, -0.002, 3.3, 4.4, 5.5, 1]}]}
      """#)
    let to = try JSON.parse(
      #"""
      {"id": "detail", "frame": {"x": 0, "y": 0, "width": 390, "height": 844}, "content": [1, "two", null],
       "children": [
         {"id": "hero", "frame": {"x": 0, "y": 0, "width": 390, "height": 300}, "match": "hero",
          "gradient": {"colors": [[1, 0, 0, 1], [0, 0, 1, 1], [0, 1, 0, 0.5]]}},
         {"id": "title", "frame": {"x": 20, "y": 320, "width": 350, "height": 40}, "alpha": 0.3333333333333333,
          "content": "Title\n\t\u0001"}]}
      """#)
    return try ViewTreeDecoder.decode(container: container, from: from, to: to)
  }

  @Test func everyBuiltInAnimatorsFramesAtFiftyTimes() throws {
    let registry = try registry(loadingBuiltIns: ["PullDown", "Sheet", "MagicMove", "Flip", "SegueSlide"])
    let catalog = PluginAnimatorCatalog(registry: registry)
    var checkedAnimators = Set<String>()
    var coverage = Set<String>()
    let constantText = ConstantMemberText()
    for entry in catalog.entries {
      for operation in entry.info.operations ?? ["present"] {
        for (precisionIndex, precision) in Self.precisions.enumerated() {
          let trees = try Self.trees()
          let driver = try TransitionFactory(catalog: catalog).make(
            TransitionRequest(
              animator: entry.qualifiedID, operation: TransitionOperation(name: operation), trees: trees))
          try driver.start()
          let duration = driver.status.duration
          var full = EncoderPair(contents: trees.contents, constantText: constantText)
          var delta = EncoderPair(contents: trees.contents, constantText: constantText)
          for index in 0..<50 {
            // Past the end as well: animations may outlast the duration (springs).
            let time = duration * 1.25 * Double(index) / 49
            let states = Self.rounded(driver.transition.scene.presentation(at: time), precision)
            let note = "\(entry.qualifiedID) \(operation) precision #\(precisionIndex) at \(time)"
            let stamp = FrameStamp(
              transition: "t1", seq: index, time: time, percent: min(time / duration, 1), phase: "running")
            full.stream(stamp, mode: .full, states: states, note)
            delta.stream(stamp, mode: .delta, states: states, note)
            if index % 5 == 0 {
              full.sample(
                FrameStamp(transition: "t1", seq: nil, time: time, percent: 0.5, phase: "paused"), states: states, note)
            }
          }
          #expect(full.frames == 60 && delta.frames == 50)
          coverage.formUnion(full.members)
          coverage.formUnion(delta.members)
          driver.terminate(reason: "terminated")
        }
        checkedAnimators.insert(entry.info.id)
      }
    }
    #expect(checkedAnimators == ["pull-down", "sheet", "magic-move", "flip", "segue-slide"])
    // The trees above make the built-ins' frames carry the optional members too.
    #expect(coverage.isSuperset(of: ["gradient", "content", "snapshotOf", "frame.delta"]))
  }

  // MARK: Fuzzed scenes

  /// 10,000 seeded scenes of random view states (in four batches, which run in parallel), each streamed as three full
  /// frames and three deltas (views change, join, leave and move) and sampled, with and without a grid.
  @Test(arguments: 0..<4)
  func tenThousandFuzzedScenes(batch: Int) {
    var generator = SplitMix64(seed: 2026_12_01 + UInt64(batch))
    var members = Set<String>()
    var nulls = Set<String>()
    let constantText = ConstantMemberText()
    for scene in (batch * 2_500)..<((batch + 1) * 2_500) {
      var fuzz = SceneFuzzer(generator: generator)
      let contents = fuzz.contents()
      var frames = [fuzz.states(count: 1 + fuzz.below(8))]
      frames.append(fuzz.mutated(frames[0]))
      frames.append(fuzz.mutated(frames[1]))
      let precision = scene % 2 == 0 ? nil : Self.precisions[1 + fuzz.below(2)]
      generator = fuzz.generator
      var full = EncoderPair(contents: contents, constantText: constantText)
      var delta = EncoderPair(contents: contents, constantText: constantText)
      for (index, frame) in frames.enumerated() {
        // Now and then the animator gives a view content of its own, or takes it back (the client's again).
        if fuzz.chance(3), !frame.isEmpty {
          let id = frame[fuzz.below(frame.count)].id
          let content = fuzz.chance(3) ? nil : fuzz.animatorContent()
          full.setContent(content, for: id)
          delta.setContent(content, for: id)
        }
        let states = Self.rounded(frame, precision)
        let stamp = fuzz.stamp(seq: index)
        full.stream(stamp, mode: .full, states: states, "scene \(scene) frame \(index)")
        delta.stream(stamp, mode: .delta, states: states, "scene \(scene) delta \(index)")
        if index == frames.count - 1 { full.sample(fuzz.stamp(seq: nil), states: states, "scene \(scene) sample") }
      }
      members.formUnion(full.members.union(delta.members))
      nulls.formUnion(full.nullMembers.union(delta.nullMembers))
    }
    // Every member of the format was written at least once, and every member that can be null was null.
    let entryMembers: Set<String> = [
      "id", "parent", "frame", "bounds", "position", "anchorPoint", "transform", "worldTransform", "boundingBox",
      "alpha", "opacity", "hidden", "zIndex", "backgroundColor", "cornerRadius", "clipsToBounds", "gradient",
      "snapshotOf", "content", "kind", "mask", "maskOf", "anchorPointZ", "borderWidth", "borderColor", "shadowColor",
      "shadowOpacity", "shadowRadius", "shadowOffset", "shadowPath", "maskedCorners", "path", "fillColor",
      "strokeColor",
      "lineWidth", "strokeStart", "strokeEnd", "lineDashPhase", "lineDashPattern", "fillRule", "gradientType",
    ]
    let frameMembers: Set<String> = [
      "frame.transition", "frame.seq", "frame.time", "frame.percent", "frame.phase", "frame.views", "frame.delta",
      "frame.removed",
    ]
    #expect(
      members.isSuperset(of: entryMembers.union(frameMembers)),
      "\(entryMembers.union(frameMembers).subtracting(members))")
    #expect(
      nulls.isSuperset(of: [
        "parent", "boundingBox", "backgroundColor", "gradient", "snapshotOf", "mask", "maskOf", "borderColor",
        "shadowColor", "shadowPath", "path", "fillColor", "strokeColor", "lineDashPattern",
      ]))
  }
}

extension FrameEncoderEquivalenceTests {
  /// Long delta streams of layers whose members change a few at a time, as the dedicated encoder's baseline sees them
  /// when it is updated in place: a path that changes in its last point only, paths and dash patterns whose storage
  /// the previous frame shares (an entry left alone keeps its very values), NaN and −0 members kept from frame to
  /// frame (NaN always differs, −0 equals 0), layer members going back to their defaults and coming back, masks,
  /// gradients and snapshots joining and leaving, full entries for views that join.
  @Test func layerDeltaStreamsChangingAFewMembersAtATime() {
    var fuzz = SceneFuzzer(generator: SplitMix64(seed: 2026_12_02))
    var members = Set<String>()
    for scene in 0..<600 {
      var states = fuzz.states(count: 1 + fuzz.below(6))
      for index in states.indices where fuzz.chance(2) { fuzz.layered(&states[index]) }
      var pair = EncoderPair(contents: [:])
      for frame in 0..<12 {
        pair.stream(fuzz.stamp(seq: frame), mode: .delta, states: states, "layer stream \(scene) frame \(frame)")
        for index in states.indices where fuzz.chance(2) { fuzz.nudge(&states[index]) }
        if fuzz.chance(8) { states.append(fuzz.state(id: "joined\(frame)", parent: nil, zIndex: frame)) }
      }
      members.formUnion(pair.members)
    }
    #expect(members.isSuperset(of: ["path", "shadowPath", "shadowRadius", "gradient", "snapshotOf", "mask", "kind"]))
  }
}

/// Random frames for the fuzz test: hostile strings (quotes, backslashes, every control character, non-ASCII, long
/// ones) and extreme numbers (±0, subnormals, ±1e308, 2^53 ± 1, huge and non-finite values, short decimals).
private struct SceneFuzzer {
  var generator: SplitMix64

  mutating func below(_ n: Int) -> Int { generator.below(n) }

  mutating func chance(_ n: Int) -> Bool { generator.below(n) == 0 }

  mutating func string() -> String {
    let pool: [Unicode.Scalar] = [
      "a", "b", "Z", "0", " ", "\"", "\\", "/", "\u{0}", "\u{1}", "\u{8}", "\u{9}", "\u{a}", "\u{c}", "\u{d}",
      "\u{1f}", "\u{7f}", "é", "日", "😀", "\u{2028}", "\u{fffd}", "\u{10ffff}",
    ]
    var scalars = String.UnicodeScalarView()
    let length = chance(1_000) ? 2_000 + below(2_000) : below(12)
    for _ in 0..<length { scalars.append(pool[below(pool.count)]) }
    return String(scalars)
  }

  mutating func number() -> Double {
    switch below(12) {
    case 0:
      let extremes: [Double] = [
        0, -0.0, 1, -1, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude, 1e308, -1e308,
        .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 9_007_199_254_740_991, 9_007_199_254_740_992,
        9_007_199_254_740_993, 9_007_199_254_740_994, -9_007_199_254_740_994, 1e15 + 0.5, 0x1p52 + 0.5, 1e-7, .nan,
        .infinity, -.infinity, 0.1 + 0.2,
      ]
      return extremes[below(extremes.count)]
    case 1: return Double(bitPattern: generator.next())
    case 2, 3: return Double(below(2001) - 1000)
    case 4, 5: return Double(below(2_000_001) - 1_000_000) / 1000
    case 6: return generator.unit()
    default: return generator.range(-2000, 2000)
    }
  }

  mutating func point() -> Point { Point(x: number(), y: number()) }
  mutating func rect() -> Rect { Rect(x: number(), y: number(), width: number(), height: number()) }
  mutating func color() -> Color { Color(r: number(), g: number(), b: number(), a: number()) }

  mutating func matrix() -> Transform3D {
    if chance(3) { return .identity }
    if chance(2) {
      // 2-D affine (what delta baselines keep small), its constant members sometimes −0 (equal to 0, not the same bits).
      var m = Transform3D.identity
      m.m11 = number()
      m.m12 = number()
      m.m21 = number()
      m.m22 = number()
      m.m41 = number()
      m.m42 = number()
      if chance(2) {
        m.m13 = -0.0
        m.m34 = -0.0
      }
      return m
    }
    return Transform3D(
      m11: number(), m12: number(), m13: number(), m14: number(), m21: number(), m22: number(), m23: number(),
      m24: number(), m31: number(), m32: number(), m33: number(), m34: number(), m41: number(), m42: number(),
      m43: number(), m44: number())
  }

  mutating func gradient() -> Gradient? {
    guard chance(3) else { return nil }
    let colors = (0..<below(5)).map { _ in color() }
    let locations: [Double]? = chance(2) ? nil : colors.map { _ in number() }
    return Gradient(colors: colors, locations: locations, startPoint: point(), endPoint: point())
  }

  mutating func state(id: String, parent: String?, zIndex: Int) -> ViewState {
    var state = ViewState(
      id: id, parentID: parent, frame: rect(), bounds: rect(), position: point(), anchorPoint: point(),
      transform: matrix(), sublayerTransform: .identity, worldTransform: matrix(),
      boundingBox: chance(4) ? nil : rect(), alpha: number(), opacity: number(), isHidden: chance(3),
      zPosition: number(), zIndex: zIndex, backgroundColor: chance(2) ? nil : color(), cornerRadius: number(),
      clipsToBounds: chance(2), gradient: gradient(), snapshotOf: chance(4) ? string() : nil)
    if chance(2) { layered(&state) }
    return state
  }

  mutating func path() -> Path? {
    guard !chance(3) else { return nil }
    var path = Path()
    for _ in 0..<below(6) {
      switch below(5) {
      case 0: path.move(to: point())
      case 1: path.addLine(to: point())
      case 2: path.addQuadCurve(to: point(), control: point())
      case 3: path.addCurve(to: point(), control1: point(), control2: point())
      default: path.closeSubpath()
      }
    }
    return path
  }

  /// Layer members, each at its default or a random value: a layer that is not a view, a kind, a mask or being one,
  /// borders, shadows, shapes, dashes, corners, fill rule and gradient type.
  mutating func layered(_ s: inout ViewState) {
    s.isView = !chance(2)
    s.layerKind = [LayerKind.layer, .gradient, .shape][below(3)]
    if chance(3) { s.maskID = string() }
    if chance(4) { s.maskOwnerID = string() }
    var l = LayerAppearance()
    if chance(2) { l.anchorPointZ = number() }
    if chance(2) { l.borderWidth = number() }
    if chance(2) { l.borderColor = chance(3) ? nil : color() }
    if chance(2) { l.shadowColor = chance(3) ? nil : color() }
    if chance(2) { l.shadowOpacity = number() }
    if chance(2) { l.shadowRadius = number() }
    if chance(2) { l.shadowOffset = Size(width: number(), height: number()) }
    if chance(2) { l.shadowPath = path() }
    if chance(2) { l.maskedCorners = MaskedCorners(rawValue: below(16)) }
    if chance(2) { l.path = path() }
    if chance(2) { l.fillColor = chance(3) ? nil : color() }
    if chance(2) { l.strokeColor = chance(3) ? nil : color() }
    if chance(2) { l.lineWidth = number() }
    if chance(2) { l.strokeStart = number() }
    if chance(2) { l.strokeEnd = number() }
    if chance(2) { l.lineDashPhase = number() }
    if chance(2) { l.lineDashPattern = chance(3) ? nil : (0..<below(4)).map { _ in number() } }
    if chance(2) { l.fillRule = chance(2) ? .evenOdd : .nonZero }
    if chance(2) { l.gradientType = [GradientType.axial, .radial, .conic][below(3)] }
    s.layer = l
  }

  /// One small change to a view's layer members (or none to its values: the same storage as before).
  mutating func nudge(_ s: inout ViewState) {
    var l = s.layer
    var changed = true
    switch below(12) {
    case 0:
      // The last point of a path moves; the others stay.
      var elements = l.path?.elements ?? []
      if elements.isEmpty { elements = [.move(to: point())] }
      if case .curve(let p, let c1, let c2) = elements[elements.count - 1] {
        elements[elements.count - 1] = .curve(to: Point(x: p.x + 1, y: p.y), control1: c1, control2: c2)
      } else {
        elements.append(.line(to: point()))
      }
      l.path = Path(elements: elements)
    case 1: l.shadowPath = chance(2) ? nil : path()
    case 2:
      // NaN where it stays for the following frames (in a path as well).
      l.shadowRadius = .nan
      if chance(2) { l.path = Path(elements: [.move(to: Point(x: .nan, y: 1)), .line(to: Point(x: 2, y: -0.0))]) }
    case 3:
      // −0 for members at 0: equal to the baseline's, so not written.
      l.anchorPointZ = l.anchorPointZ == 0 ? -0.0 : 0
      l.lineDashPhase = -0.0
    case 4: l = LayerAppearance()
    case 5: s.gradient = s.gradient == nil ? gradient() : nil
    case 6: s.snapshotOf = s.snapshotOf == nil ? string() : nil
    case 7: s.maskID = s.maskID == nil ? string() : nil
    case 8: l.lineDashPattern = chance(2) ? nil : [number(), number()]
    case 9: s.layerKind = [LayerKind.layer, .gradient, .shape][below(3)]
    case 10: l.shadowOpacity = number()
    default: changed = false
    }
    if changed { s.layer = l }
  }

  /// Views "v0"…, a hostile id or two among them, the first one the container (no parent).
  mutating func states(count: Int) -> [ViewState] {
    var ids = Set<String>()
    var states: [ViewState] = []
    for index in 0..<count {
      var id = chance(3) ? string() : "v\(index)"
      while id.isEmpty || ids.contains(id) { id += "x" }
      ids.insert(id)
      let parent = index == 0 ? nil : states[below(states.count)].id
      states.append(state(id: id, parent: parent, zIndex: chance(10) ? Int.max - below(3) : index))
    }
    return states
  }

  /// The next frame: some views change some members, some leave, new ones join, the order may change.
  mutating func mutated(_ states: [ViewState]) -> [ViewState] {
    var next = states.filter { _ in !chance(5) }
    for index in next.indices {
      guard chance(2) else { continue }
      switch below(9) {
      case 0: next[index].frame = rect()
      case 1: next[index].worldTransform = matrix()
      case 2: next[index].boundingBox = chance(2) ? nil : rect()
      case 3: next[index].gradient = chance(2) ? nil : gradient()
      case 4: next[index].snapshotOf = chance(2) ? nil : string()
      case 5: next[index].alpha = number()
      case 6: next[index].parentID = chance(2) ? nil : string()
      case 7: layered(&next[index])
      default: next[index] = state(id: next[index].id, parent: next[index].parentID, zIndex: below(100))
      }
    }
    for _ in 0..<below(3) { next.append(state(id: "new\(below(1_000_000))" + string(), parent: nil, zIndex: 0)) }
    if chance(4) { next.shuffle(using: &generator) }
    // Ids stay unique.
    var seen = Set<String>()
    return next.filter { seen.insert($0.id).inserted }
  }

  /// Content for some of the ids the states use ("v0"… and the new ones cannot be known, so a few fixed ones), with
  /// values json-c keeps exactly: a lone surrogate's source text, wide integers, nesting.
  mutating func contents() -> [String: JSON] {
    let texts = [
      #"{"text":"Row \udc00 x","n":18446744073709551616}"#, #"[1,2.5,"\ud800",null,true,{"a":[]}]"#,
      #""plain""#, "-0", "1.0e2", #"{"nested":{"deep":[[[["x"]]]]}}"#,
      #""\u0000\n\"\\/""#, "9223372036854775807", "-9223372036854775809",
    ]
    var contents: [String: JSON] = [:]
    for index in 0..<8 where chance(2) {
      contents["v\(index)"] = try! JSON.parse(texts[below(texts.count)])
    }
    return contents
  }

  /// The content of an image or visual-effect view the animator made (`ViewContent.json`), hostile names included.
  mutating func animatorContent() -> JSON {
    switch below(3) {
    case 0:
      let mode = ContentMode.allCases[below(ContentMode.allCases.count)]
      return ViewContent.image(name: chance(4) ? nil : string(), contentMode: mode).json
    case 1:
      let style = BlurStyle.allCases[below(BlurStyle.allCases.count)]
      return ViewContent.visualEffect(blurStyle: chance(4) ? nil : style).json
    default:
      return contents().values.first ?? ViewContent.visualEffect(blurStyle: nil).json
    }
  }

  mutating func stamp(seq: Int?) -> FrameStamp {
    FrameStamp(
      transition: chance(4) ? string() : "t\(below(100))", seq: seq.map { chance(10) ? Int.max - $0 : $0 },
      time: number(), percent: number(), phase: chance(5) ? string() : "running")
  }
}

extension FrameEncoderEquivalenceTests {
  /// Full entries copy their bounds and their run from `hidden` to `clipsToBounds` from text kept for the same values
  /// bit for bit (`ConstantMemberText`), and write them anew for any other: frames whose entries at the same places
  /// go back and forth between values that compare equal but print differently (−0 and 0), NaN, a colour and none,
  /// hidden and shown, a zIndex and a corner radius one ulp apart, as full frames, samples and new views of delta
  /// frames, each against the json-c reference.
  @Test func seldomChangingMembersAreCopiedOnlyForTheirOwnValues() {
    func state(_ id: String, _ variant: Int) -> ViewState {
      let bounds: [Rect] = [
        Rect(x: 0, y: 0, width: 390, height: 844), Rect(x: -0.0, y: 0, width: 390, height: 844),
        Rect(x: 0, y: .nan, width: 390, height: 844), Rect(x: 0, y: 0, width: 390.0.nextUp, height: 844),
      ]
      let colours: [Color?] = [
        Color(r: 0.2, g: 0.4, b: 0.8, a: 1), nil, Color(r: -0.0, g: 0.4, b: 0.8, a: 1),
        Color(r: 0.2, g: .nan, b: 0.8, a: 1),
      ]
      let radii: [Double] = [12, -0.0, 12.0.nextUp, .nan]
      return ViewState(
        id: id, parentID: variant % 2 == 0 ? nil : "root", frame: Rect(x: 1, y: 2, width: 3, height: 4),
        bounds: bounds[variant % 4], position: Point(x: 2.5, y: 4), anchorPoint: Point(x: 0.5, y: 0.5),
        transform: .identity, sublayerTransform: .identity, worldTransform: .identity, boundingBox: nil, alpha: 1,
        opacity: 1, isHidden: variant % 3 == 1, zPosition: 0, zIndex: variant % 5 == 2 ? -1 : variant,
        backgroundColor: colours[(variant / 2) % 4], cornerRadius: radii[(variant / 3) % 4],
        clipsToBounds: variant % 4 == 3, gradient: nil, snapshotOf: nil)
    }
    let constantText = ConstantMemberText()
    var full = EncoderPair(contents: [:], constantText: constantText)
    var delta = EncoderPair(contents: [:], constantText: constantText)
    for frame in 0..<40 {
      // The same variant twice in a row (copied), then another (written anew), at every place; a new id now and then
      // makes a delta frame write a full entry there.
      let states = (0..<6).map { place in state("v\(place)-\(frame / 7)", (frame / 2 + place) % 24) }
      let stamp = FrameStamp(transition: "t1", seq: frame, time: Double(frame), percent: 0.5, phase: "running")
      full.stream(stamp, mode: .full, states: states, "frame \(frame)")
      delta.stream(stamp, mode: .delta, states: states, "delta \(frame)")
      full.sample(FrameStamp(transition: "t1", seq: nil, time: 0, percent: 0, phase: "x"), states: states, "sample")
    }
    #expect(full.frames == 80 && delta.frames == 40)
  }

  /// The matrices and anchor points the dedicated encoder writes as constant text (the identity, a 2-D translation,
  /// the default anchor point) and their near misses: −0 where the identity has 0 (equal, printed `0`), a translation
  /// with m43 or m44 set, a NaN or a 1 one ulp off in a constant place, an anchor point with one coordinate off. Each
  /// as a full frame and sampled, against the json-c reference.
  @Test func constantTextMatricesAndAnchorPoints() {
    func translation(_ x: Double, _ y: Double) -> Transform3D {
      var m = Transform3D.identity
      m.m41 = x
      m.m42 = y
      return m
    }
    var matrices: [Transform3D] = [.identity, translation(12.5, -3), translation(-0.0, 0), translation(1e-7, 2e300)]
    var negativeZeros = Transform3D.identity
    negativeZeros.m12 = -0.0
    negativeZeros.m34 = -0.0
    negativeZeros.m43 = -0.0
    matrices.append(negativeZeros)
    var depth = translation(4, 5)
    depth.m43 = 0.25
    matrices.append(depth)
    var w = translation(4, 5)
    w.m44 = 2
    matrices.append(w)
    var perspective = Transform3D.identity
    perspective.m34 = -0.002
    matrices.append(perspective)
    var notANumber = translation(1, 2)
    notANumber.m23 = .nan
    matrices.append(notANumber)
    var offByAnUlp = Transform3D.identity
    offByAnUlp.m22 = 1.0.nextUp
    matrices.append(offByAnUlp)
    let anchors = [
      Point(x: 0.5, y: 0.5), Point(x: 0.5, y: 0.25), Point(x: -0.5, y: 0.5), Point(x: 0.5, y: .nan),
      Point(x: 0.5.nextDown, y: 0.5),
    ]
    var states: [ViewState] = []
    for (index, matrix) in matrices.enumerated() {
      let world = matrices[(index + 3) % matrices.count]
      states.append(
        ViewState(
          id: "v\(index)", parentID: index == 0 ? nil : "v0", frame: Rect(x: 1, y: 2, width: 3, height: 4),
          bounds: Rect(x: 0, y: 0, width: 3, height: 4), position: Point(x: 2.5, y: 4),
          anchorPoint: anchors[index % anchors.count], transform: matrix, sublayerTransform: .identity,
          worldTransform: world, boundingBox: nil, alpha: 1, opacity: 0.5, isHidden: false, zPosition: 0,
          zIndex: index, backgroundColor: nil, cornerRadius: 0, clipsToBounds: false, gradient: nil, snapshotOf: nil))
    }
    var pair = EncoderPair(contents: [:])
    let stamp = FrameStamp(transition: "t1", seq: 1, time: 0.5, percent: 0.5, phase: "running")
    pair.stream(stamp, mode: .full, states: states, "constant text, full")
    pair.sample(
      FrameStamp(transition: "t1", seq: nil, time: 0.5, percent: 0.5, phase: "running"), states: states,
      "constant text, sampled")
    #expect(pair.frames == 2)
  }
}
