import JSONRPC
import PluginHost
import TestSupport
import Testing
import TransitionEngine
import TransitionService

/// `ParameterValidator`: the one gate for `params` (-32602 naming the member) and the defaults that complete them
/// (Minimal's "fade" declares one parameter of each type; values from minimal.c), for typed callers and, through
/// `TransitionFactory`, for `transition/start`.
@Suite struct ParameterValidatorTests {
  func fade() throws -> AnimatorEntry {
    try PluginAnimatorCatalog(registry: registry(loadingFixtures: ["Minimal"])).entry(for: "fade")
  }

  func failure(_ params: [String: ParameterValue]) throws -> FieldError? {
    let entry = try fade()
    do {
      _ = try ParameterValidator.validate(params, for: entry)
      return nil
    } catch {
      return error
    }
  }

  @Test func missingParametersGetTheirDeclaredDefaults() throws {
    let values = try ParameterValidator.validate([:], for: try fade())
    #expect(
      values == [
        "duration": .number(0.4), "dims": .bool(true), "direction": .enumCase("down"),
        "tint": .color(Color(r: 0, g: 0, b: 0, a: 0.4)), "label": .string(""),
        "origin": .point(Point(x: 10, y: -20)), "hole": .rect(Rect(x: 1, y: 2, width: 30, height: 40)),
        "overshoot": .number(-3),
      ])
  }

  @Test func givenValuesAreKeptAndEnumStringsBecomeEnumCases() throws {
    let values = try ParameterValidator.validate(
      ["duration": .number(10), "direction": .string("up"), "overshoot": .number(-1e300)], for: try fade())
    #expect(values["duration"] == .number(10))
    #expect(values["direction"] == .enumCase("up"))
    #expect(values["overshoot"] == .number(-1e300))
  }

  @Test func eachBrokenRuleNamesTheMember() throws {
    #expect(
      try failure(["speed": .number(1)])
        == FieldError(
          "params.speed",
          "is not a parameter of com.example.test.minimal/fade (it has duration, dims, direction, tint, label, origin, "
            + "hole, overshoot)"))
    #expect(
      try failure(["duration": .string("fast")]) == FieldError("params.duration", "must be a number, not a string"))
    #expect(try failure(["duration": .number(10.5)]) == FieldError("params.duration", "must be in [0, 10]"))
    #expect(try failure(["duration": .number(.nan)]) == FieldError("params.duration", "must be a finite number"))
    #expect(
      try failure(["overshoot": .number(-.infinity)]) == FieldError("params.overshoot", "must be a finite number"))
    #expect(try failure(["overshoot": .number(0.5)]) == FieldError("params.overshoot", "must be in [-inf, 0]"))
    #expect(
      try failure(["direction": .string("sideways")])
        == FieldError("params.direction", #"must be one of "up", "down", "left", "right""#))
    #expect(try failure(["dims": .number(1)]) == FieldError("params.dims", "must be a bool, not a number"))
    #expect(
      try failure(["tint": .color(Color(r: 0, g: 1.5, b: 0, a: 1))])
        == FieldError("params.tint[1]", "must be a number in [0, 1]"))
    #expect(
      try failure(["origin": .point(Point(x: .infinity, y: 0))])
        == FieldError("params.origin.x", "must be a finite number"))
    #expect(
      try failure(["hole": .rect(Rect(x: 0, y: 0, width: -1, height: 1))])
        == FieldError("params.hole.width", "must be a finite number ≥ 0"))
    #expect(try failure(["label": .enumCase("x")])?.problem == "must be a string, not an enum")
  }

  @Test func theFactoryReportsBadParamsAsInvalidParams() throws {
    let registry = try registry(loadingFixtures: ["Minimal"])
    let scene = Scene(containerSize: Size(width: 10, height: 10))
    let trees = ViewTrees(scene: scene, fromRoot: try scene.makeView(id: "from"), toRoot: try scene.makeView(id: "to"))
    let factory = TransitionFactory(catalog: PluginAnimatorCatalog(registry: registry))
    #expect(throws: TransitionStartError.invalidParameter(FieldError("params.duration", "must be in [0, 10]"))) {
      try factory.make(
        TransitionRequest(animator: "fade", operation: .present, trees: trees, params: ["duration": .number(-1)]))
    }
    // On the wire the request is the message's params: the field is named from there.
    let reply = TransitionStartError.invalidParameter(FieldError("params.duration", "must be in [0, 10]")).responseError
    #expect(reply.code == .invalidParams)
    #expect(reply.message == "Invalid params: params.params.duration must be in [0, 10].")
    // Nothing was leased for the refused transition.
    #expect(registry.plugins.first?.runningTransitions == 0)
  }
}
