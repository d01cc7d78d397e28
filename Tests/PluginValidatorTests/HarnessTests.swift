import CTransitionABI
import Testing
import TransitionEngine

@testable import PluginValidator

#if canImport(Glibc)
  import Glibc
#endif

/// The pieces the transition checks judge with: the scene-state comparison behind "cancel restores the initial
/// state exactly", the non-finite scan of frames, and the parameter audit.
@Suite struct HarnessTests {
  @Test func sceneStateNamesTheFirstDifference() throws {
    let (scene, from, to, views) = SampleScene.make()
    let start = SceneState.capture(scene: scene, views: views)
    #expect(SceneState.capture(scene: scene, views: views).difference(from: start) == nil)

    to.alpha = 0.25
    #expect(
      SceneState.capture(scene: scene, views: views).difference(from: start)
        == "view to: model.alpha is 0.25 instead of 1.0")
    to.alpha = 1
    #expect(SceneState.capture(scene: scene, views: views).difference(from: start) == nil)

    // A view added to the container (chrome left behind) shows in the drawing order first.
    let dimming = scene.makeView(hint: "dimming")
    scene.container.addSubview(dimming)
    let shown = SceneState.capture(scene: scene, views: views).difference(from: start) ?? ""
    #expect(shown.hasPrefix("the container shows [container, from, from.header, from.card, from.card.title, dimming]"))
    dimming.removeFromSuperview()

    // Hierarchy: the to root moved into the container.
    scene.container.insertSubview(to, belowSubview: from)
    let moved = SceneState.capture(scene: scene, views: views).difference(from: start) ?? ""
    #expect(moved.hasPrefix("the container shows [container, to,"))
    to.removeFromSuperview()
    from.frame = Rect(x: 0, y: 10, width: 390, height: 844)
    #expect(
      SceneState.capture(scene: scene, views: views).difference(from: start)
        == "view from: model.position.y is 432.0 instead of 422.0")
  }

  @Test func sampleSceneIsTheDocumentedOne() {
    let (scene, from, to, views) = SampleScene.make()
    #expect(scene.container.bounds == Rect(x: 0, y: 0, width: 390, height: 844))
    #expect(scene.container.subviews.map(\.id) == ["from"])
    #expect(to.superview == nil)
    #expect(from.subviews.map(\.id) == ["from.header", "from.card"])
    #expect(to.subviews.map(\.id) == ["to.header", "to.image", "to.card"])
    #expect(views.count == 9)
    #expect(views.filter { $0.matchKey == "card" }.map(\.id) == ["from.card", "to.card"])
  }

  @Test func nonFiniteFieldsAreNamed() throws {
    let (scene, _, _, _) = SampleScene.make()
    let state = try #require(scene.presentation(at: 0).first { $0.id == "from.card" })
    #expect(OperationChecks.nonFiniteField(state) == nil)
    var bad = state
    bad.alpha = .nan
    #expect(OperationChecks.nonFiniteField(bad) == "alpha")
    bad = state
    bad.worldTransform.m41 = .infinity
    #expect(OperationChecks.nonFiniteField(bad) == "worldTransform")
    bad = state
    bad.boundingBox = nil  // a corner behind the eye: legal
    #expect(OperationChecks.nonFiniteField(bad) == nil)
    bad.backgroundColor = Color(r: 0, g: -.infinity, b: 0, a: 1)
    #expect(OperationChecks.nonFiniteField(bad) == "backgroundColor")
  }

  @Test func durationProblems() {
    #expect(OperationChecks.durationProblem(0.5) == nil)
    #expect(OperationChecks.durationProblem(0) == nil)  // legal; `duration` warns about it
    #expect(OperationChecks.durationProblem(-0.25) == "transition_duration returned -0.25 (negative)")
    #expect(OperationChecks.durationProblem(.nan) == "transition_duration returned NaN")
    #expect(OperationChecks.durationProblem(.infinity) == "transition_duration returned inf")
  }

  /// Parameter descriptors made here, each breaking rules the header states for its type.
  @Test func parameterAuditListsEveryBrokenRule() {
    func param(_ type: UInt32, _ name: String?, _ fill: (inout th_param_descriptor) -> Void = { _ in })
      -> th_param_descriptor
    {
      var param = th_param_descriptor()
      param.struct_size = UInt32(MemoryLayout<th_param_descriptor>.size)
      param.type = th_param_type(rawValue: type)
      param.name = name.map { UnsafePointer(strdup($0)!) }  // leaked: a few bytes for the test's life
      fill(&param)
      return param
    }
    let options: UnsafeMutablePointer<UnsafePointer<CChar>?> = .allocate(capacity: 3)
    options[0] = UnsafePointer(strdup("up")!)
    options[1] = UnsafePointer(strdup("down")!)
    options[2] = nil
    let cases: [(th_param_descriptor, [String])] = [
      (
        param(1, "speed") {
          $0.min = 0; $0.max = 1; $0.default_number = 0.5
        }, []
      ),
      (
        param(1, "speed") {
          $0.min = 0; $0.max = 1; $0.default_number = 2
        }, ["p (speed): default 2.0 is outside [0.0, 1.0]"]
      ),
      (
        param(1, "speed") {
          $0.min = 1; $0.max = 0; $0.default_number = 0.5
        }, ["p (speed): min 1.0 and max 0.0 do not form a range"]
      ),
      (
        param(1, "speed") {
          $0.min = -.infinity; $0.max = .infinity; $0.default_number = .nan
        }, ["p (speed): default nan is not finite"]
      ),
      (
        param(3, "side") {
          $0.enum_options = UnsafePointer(options); $0.default_string = UnsafePointer(strdup("down")!)
        }, []
      ),
      (
        param(3, "side") {
          $0.enum_options = UnsafePointer(options); $0.default_string = UnsafePointer(strdup("left")!)
        },
        ["p (side): default \"left\" is not one of its options (up, down)"]
      ),
      (param(3, "side") { $0.default_string = UnsafePointer(strdup("up")!) }, ["p (side): enum without options"]),
      (
        param(4, "tint") { $0.default_color = th_color(r: 0, g: 1.5, b: 0, a: 1) },
        ["p (tint): default colour (0.0, 1.5, 0.0, 1.0) has a component outside [0, 1]"]
      ),
      (param(5, "label"), ["p (label): default_string is NULL (use \"\")"]),
      (
        param(7, "hole") { $0.default_rect = th_rect(x: 0, y: 0, width: -1, height: 1) },
        ["p (hole): default rect must be finite with width and height >= 0"]
      ),
      (param(42, "mystery"), ["p (mystery): unknown type 42"]),
      (param(2, "2fast"), ["p (2fast): name must match [A-Za-z_][A-Za-z0-9_]*"]),
      (param(2, nil), ["p: name is missing"]),
      (param(2, "flag") { $0.struct_size = 16 }, ["p: struct_size 16 is smaller than ABI 1.0's (152)"]),
    ]
    for (descriptor, expected) in cases {
      var seen: Set<String> = []
      let problems = withUnsafePointer(to: descriptor) { ParameterAudit.problems(of: $0, field: "p", seen: &seen) }
      #expect(problems == expected)
    }
    // The same name twice within an animator.
    var seen: Set<String> = []
    let first = param(2, "flag")
    _ = withUnsafePointer(to: first) { ParameterAudit.problems(of: $0, field: "p", seen: &seen) }
    let again = withUnsafePointer(to: first) { ParameterAudit.problems(of: $0, field: "p", seen: &seen) }
    #expect(again == ["p (flag): name is used twice"])
  }
}
