import JSON
import Testing
import TransitionEngine

@testable import TransitionService

/// `precision` (CONVENTIONS, "frame rounding"): lengths on a grid of points, halves away from zero; everything that is
/// not a length exact. Expected values are written out as decimals by hand.
@Suite struct FramePrecisionTests {
  @Test func onlyPositiveFiniteGridsExist() {
    #expect(FramePrecision(grid: 0) == nil)
    #expect(FramePrecision(grid: -0.001) == nil)
    #expect(FramePrecision(grid: .nan) == nil)
    #expect(FramePrecision(grid: .infinity) == nil)
    #expect(FramePrecision(grid: 1e-3)?.grid == 1e-3)
  }

  @Test func aDecimalGridGivesTheDecimalsDouble() {
    let grid = FramePrecision(grid: 0.001)!
    #expect(grid.round(12.34567) == 12.346)
    #expect(grid.round(-12.34549) == -12.345)
    // 0.1 + 0.2 is 0.30000000000000004; on the grid it is the double nearest 0.3, which prints as "0.3".
    #expect(grid.round(0.1 + 0.2) == 0.3)
    #expect(JSON.number(grid.round(0.1 + 0.2)).serialized() == "0.3")
    #expect(grid.round(1.0 / 3.0) == 0.333)
    #expect(grid.round(2.0 / 3.0) == 0.667)
    #expect(grid.round(0.0004) == 0)
    #expect(FramePrecision(grid: 0.01)!.round(320.3333333) == 320.33)
    #expect(FramePrecision(grid: 1e-15)!.round(0.1234567890123456789) == 0.123456789012346)
  }

  @Test func halvesGoAwayFromZero() {
    // Halves that binary doubles hold exactly.
    let quarter = FramePrecision(grid: 0.25)!
    #expect(quarter.round(0.125) == 0.25)
    #expect(quarter.round(-0.125) == -0.25)
    #expect(quarter.round(0.375) == 0.5)
    #expect(quarter.round(0.124) == 0)
    let one = FramePrecision(grid: 1)!
    #expect(one.round(2.5) == 3)
    #expect(one.round(-2.5) == -3)
    #expect(one.round(3.5) == 4)
    #expect(FramePrecision(grid: 10)!.round(15) == 20)
  }

  @Test func anyGridIsAMultiple() {
    let third = FramePrecision(grid: 1.0 / 3.0)!
    #expect(third.round(1.1) == 1.0 / 3.0 * 3)
    #expect(FramePrecision(grid: 0.3)!.round(1) == 0.3 * 3)
    #expect(FramePrecision(grid: 1e300)!.round(4e299) == 0)
  }

  @Test func valuesBeyondTheGridsReachAndNonFiniteOnesStay() {
    let grid = FramePrecision(grid: 0.001)!
    #expect(grid.round(1e300) == 1e300)
    #expect(grid.round(-.greatestFiniteMagnitude) == -.greatestFiniteMagnitude)
    #expect(grid.round(.infinity) == .infinity)
    #expect(grid.round(.nan).isNaN)
    // 2^53 + 2 is a multiple of every grid step that a double there can express.
    #expect(FramePrecision(grid: 1)!.round(9_007_199_254_740_994) == 9_007_199_254_740_994)
    // The smallest subnormal grid: every value is that many steps beyond 2^52, so nothing moves.
    #expect(FramePrecision(grid: .leastNonzeroMagnitude)!.round(0.1) == 0.1)
  }

  @Test func lengthsAreRoundedAndEverythingElseIsExact() {
    let third = 1.0 / 3.0
    let matrix = Transform3D(
      m11: third, m12: third, m13: third, m14: third, m21: third, m22: third, m23: third, m24: third, m31: third,
      m32: third, m33: third, m34: -0.0021, m41: 10 + third, m42: -third, m43: 2 * third, m44: third)
    var states = [
      ViewState(
        id: "v", parentID: "container", frame: Rect(x: third, y: 1 + third, width: 2 + third, height: 3 + third),
        bounds: Rect(x: -third, y: 0, width: 100 + third, height: 50.0004), position: Point(x: 5.5555, y: 6.6666),
        anchorPoint: Point(x: third, y: third), transform: matrix, sublayerTransform: matrix, worldTransform: matrix,
        boundingBox: Rect(x: 7.0007, y: 8.0008, width: 9.0009, height: 10.00049), alpha: third, opacity: third,
        isHidden: false, zPosition: third, zIndex: 1, backgroundColor: Color(r: third, g: third, b: third, a: third),
        cornerRadius: 12.3456, clipsToBounds: false,
        gradient: Gradient(
          colors: [Color(r: third, g: 0, b: 0, a: 1)], locations: [third], startPoint: Point(x: third, y: 0),
          endPoint: Point(x: 0, y: third)),
        snapshotOf: nil)
    ]
    FramePrecision(grid: 0.001)!.apply(to: &states)
    let s = states[0]
    #expect(s.frame == Rect(x: 0.333, y: 1.333, width: 2.333, height: 3.333))
    #expect(s.bounds == Rect(x: -0.333, y: 0, width: 100.333, height: 50))
    #expect(s.position == Point(x: 5.556, y: 6.667))
    #expect(s.boundingBox == Rect(x: 7.001, y: 8.001, width: 9.001, height: 10))
    #expect(s.cornerRadius == 12.346)
    for m in [s.transform, s.worldTransform] {
      #expect([m.m41, m.m42, m.m43] == [10.333, -0.333, 0.667])
      #expect(
        [m.m11, m.m12, m.m13, m.m14, m.m21, m.m22, m.m23, m.m24, m.m31, m.m32, m.m33]
          == Array(repeating: third, count: 11))
      #expect(m.m34 == -0.0021)
      #expect(m.m44 == third)
    }
    // Not lengths: exact.
    #expect(s.sublayerTransform == matrix)
    #expect(s.anchorPoint == Point(x: third, y: third))
    #expect(s.alpha == third && s.opacity == third && s.zPosition == third)
    #expect(s.backgroundColor == Color(r: third, g: third, b: third, a: third))
    #expect(s.gradient?.locations == [third])
    #expect(s.gradient?.startPoint == Point(x: third, y: 0))
  }
}

/// `precision` through `transition/start`: validated, listed, and applied to streamed and sampled frames.
@Suite struct ProtocolPrecisionTests {
  @Test func invalidPrecisionIsRefusedNamingTheField() {
    let harness = ProtocolHarness()
    for bad: JSON in [0, -1, "0.001", true, [0.1], ["grid": 1]] {
      let error = harness.failure("transition/start", Trees.start(extra: [("precision", bad)]))
      #expect(error["code"]?.intValue == -32602, "\(bad)")
      #expect(error["data"]?["field"]?.stringValue == "params.precision", "\(bad)")
    }
    #expect(
      harness.failure("transition/start", Trees.start(extra: [("precision", 0)]))["message"]?.stringValue
        == "Invalid params: params.precision must be a number > 0.")
    // null is the same as leaving it out.
    #expect(harness.call("transition/start", Trees.start(extra: [("precision", .null)]))["transition"] != nil)
  }

  @Test func framesAndSamplesAreRoundedAndTheListShowsTheGrid() {
    let harness = ProtocolHarness()
    // The linear slide brings the 400 × 800 to root up from y = 800 over 1 s: at 1/3 s it is at 800 × 2/3.
    let started = harness.call(
      "transition/start", Trees.start(frames: "delta", extra: [("precision", 0.01), ("params", ["duration": 1])]))
    let id = started["transition"]!
    _ = harness.takeNotifications()
    _ = harness.call("transition/tick", ["transition": id, "dt": JSON(1.0 / 3.0)])
    let frame = ProtocolHarness.frames(harness.takeNotifications()).last!
    // 533.333… on the 0.01 grid; the alpha (a fraction, not a length) stays exact.
    #expect(frame.view("detail")?["frame"]?.rect?.1 == 533.33)
    #expect(frame.view("detail")?["position"]?["y"]?.doubleValue == 933.33)
    #expect(frame.view("detail")?["worldTransform"]?[13]?.doubleValue == 533.33)
    #expect(frame.view("detail")?["alpha"]?.doubleValue == 1.0 / 3.0)
    let sample = harness.call("transition/sample", ["transition": id, "time": JSON(2.0 / 3.0)])
    #expect(sample.view("detail")?["frame"]?.rect?.1 == 266.67)
    #expect(sample.view("photo")?["boundingBox"]?.rect?.1 == 366.67)
    let listed = harness.call("transition/list", [:])["transitions"]?[0]
    #expect(listed?["precision"]?.doubleValue == 0.01)
    // Without precision the same sample is exact, and the list has no member.
    let exact = harness.call("transition/start", Trees.start(extra: [("params", ["duration": 1])]))["transition"]!
    let exactSample = harness.call("transition/sample", ["transition": exact, "time": JSON(2.0 / 3.0)])
    let exactY = exactSample.view("detail")?["frame"]?.rect?.1 ?? 0
    #expect(abs(exactY - 800.0 / 3.0) < 1e-9 && exactY != 266.67)
    #expect(harness.call("transition/list", [:])["transitions"]?[1]?["precision"] == nil)
  }
}
