import PluginHost
import TestSupport
import Testing
import TransitionEngine

/// `validateParams(_:against:)`: the protocol layer's gate for `params` (-32602 naming the member), and the
/// defaults that complete them (Minimal's "fade" declares one parameter of each type; values from minimal.c).
@Suite struct ParameterValidationTests {
  func fade() throws -> AnimatorInfo {
    try registry(loadingFixtures: ["Minimal"]).resolve(animatorID: "fade").info
  }

  func failure(_ params: [String: ParameterValue]) throws -> ParameterValidationError? {
    let info = try fade()
    do {
      _ = try validateParams(params, against: info)
      return nil
    } catch {
      return error
    }
  }

  @Test func missingParametersGetTheirDeclaredDefaults() throws {
    let values = try validateParams([:], against: try fade())
    #expect(
      values == [
        "duration": .number(0.4), "dims": .bool(true), "direction": .enumCase("down"),
        "tint": .color(Color(r: 0, g: 0, b: 0, a: 0.4)), "label": .string(""),
        "origin": .point(Point(x: 10, y: -20)), "hole": .rect(Rect(x: 1, y: 2, width: 30, height: 40)),
        "overshoot": .number(-3),
      ])
  }

  @Test func givenValuesAreKeptAndEnumStringsBecomeEnumCases() throws {
    let values = try validateParams(
      ["duration": .number(10), "direction": .string("up"), "overshoot": .number(-1e300)], against: try fade())
    #expect(values["duration"] == .number(10))
    #expect(values["direction"] == .enumCase("up"))
    #expect(values["overshoot"] == .number(-1e300))
  }

  @Test func eachBrokenRuleNamesTheMember() throws {
    #expect(
      try failure(["speed": .number(1)])
        == ParameterValidationError(
          field: "params.speed",
          reason: "is not a parameter of fade (it has duration, dims, direction, tint, label, origin, hole, overshoot)")
    )
    #expect(
      try failure(["duration": .string("fast")])
        == ParameterValidationError(field: "params.duration", reason: "must be a number, not a string"))
    #expect(
      try failure(["duration": .number(10.5)])
        == ParameterValidationError(field: "params.duration", reason: "must be a finite number in [0.0, 10.0]"))
    #expect(try failure(["duration": .number(.nan)])?.field == "params.duration")
    #expect(
      try failure(["overshoot": .number(-.infinity)])
        == ParameterValidationError(field: "params.overshoot", reason: "must be a finite number in [-inf, 0.0]"))
    #expect(
      try failure(["direction": .string("sideways")])
        == ParameterValidationError(
          field: "params.direction", reason: #"must be one of "up", "down", "left", "right""#))
    #expect(
      try failure(["dims": .number(1)])
        == ParameterValidationError(field: "params.dims", reason: "must be a bool, not a number"))
    #expect(try failure(["tint": .color(Color(r: 1.5, g: 0, b: 0, a: 1))])?.field == "params.tint")
    #expect(try failure(["origin": .point(Point(x: .infinity, y: 0))])?.field == "params.origin")
    #expect(try failure(["hole": .rect(Rect(x: 0, y: 0, width: -1, height: 1))])?.field == "params.hole")
    #expect(try failure(["label": .enumCase("x")])?.reason == "must be a string, not an enum")
  }

  @Test func makeTransitionReportsBadParamsAsInvalidParams() throws {
    let registry = try registry(loadingFixtures: ["Minimal"])
    let scene = Scene(containerSize: Size(width: 10, height: 10))
    let from = try scene.makeView(id: "from")
    let to = try scene.makeView(id: "to")
    do {
      _ = try registry.makeTransition(
        animatorID: "fade", scene: scene, from: from, to: to, operation: .present, params: ["duration": .number(-1)])
      Issue.record("accepted a negative duration")
    } catch {
      #expect(error.code == -32602)
      #expect(error.message == "params.duration must be a finite number in [0.0, 10.0]")
    }
    // Nothing was leased for the refused transition.
    #expect(registry.plugins.first?.runningTransitions == 0)
  }
}
