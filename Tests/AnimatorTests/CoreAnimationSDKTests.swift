// Core Animation's explicit animations through the SDK and the ABI 1.3 extension: the TestPluginCoreAnimation
// fixture (UIKit code) loaded with dlopen as a real plugin is. Expected values are closed forms written here (the
// Bézier of TestSupport's `Reference`, the critically damped spring's formula).

import PluginHost
import TestSupport
import Testing
import TransitionEngine

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct CoreAnimationSDKTests {
  static let pluginID = "com.example.test.coreanimation"

  final class Run {
    let log = LogCapture()
    let base: PluginTransitionRun

    init(_ id: String, interactive: Bool = false) throws {
      let scene = Scene(containerSize: Size(width: 400, height: 800))
      let from = try makeView(scene, "from", Rect(x: 0, y: 0, width: 400, height: 800))
      let to = try makeView(scene, "to", Rect(x: 0, y: 0, width: 400, height: 800))
      scene.container.addSubview(from)
      let registry = try TestSupport.registry(loadingFixtures: ["CoreAnimation"], log: log)
      base = try PluginTransitionRun(
        registry, "\(CoreAnimationSDKTests.pluginID)/\(id)", scene: scene, from: from, to: to, operation: .present,
        options: TransitionOptions(isInteractive: interactive))
      try base.start()
    }

    func notes() -> [String] {
      log.records.filter { $0.source.hasPrefix(CoreAnimationSDKTests.pluginID) }
        .filter { $0.message.hasPrefix("note: ") }.map { String($0.message.dropFirst(6)) }
    }
  }

  private func near(_ a: Double?, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
    guard let a else { return false }
    return abs(a - b) <= tolerance
  }

  @Test func uikitCodeAnimatesWithCoreAnimation() throws {
    let run = try Run("slide")
    // ω₀ = 10, ζ = 1: the first 0.1 s step where (1 + 10t)e^(−10t) ≤ 0.001 is 1 s.
    #expect(run.notes() == ["settling 1.0", "keys [\"slide\", \"corners\", \"fade\"]", "found true"])
    for t in [0.1, 0.25, 0.6] {
      let to = try run.base.state("to", at: t)
      #expect(near(to?.position.y, 1200 - 800 * Reference.bezier(0.42, 0, 0.58, 1, at: t), 1e-6))
      #expect(near(to?.cornerRadius, t <= 0.25 ? 80 * t : 20 * (1 - (t - 0.25) / 0.75)))
      #expect(near(to?.alpha, 1 - (1 + 10 * t) * exp(-10 * t)))
      #expect(near(try run.base.state("from", at: t)?.transform.m11, t < 0.5 ? 1 - 0.2 * t : 1))
    }
    #expect(try run.base.run() == .completed)
    #expect(run.notes().suffix(3) == ["did start", "did stop true", "transaction done"])
    #expect(run.base.misbehaviors.isEmpty)
  }

  @Test func aFrozenContainerIsScrubbedByItsTimeOffset() throws {
    let run = try Run("frozen")
    #expect(run.notes() == ["speed 0.0 offset 0.3"])
    // The container's local time is its timeOffset whatever the timeline's time: 0.3 s into the slide.
    for t in [0, 0.5, 0.9] {
      #expect(near(try run.base.state("to", at: t)?.position.y, 1200 - 800 * 0.3))
    }
    #expect(try run.base.run() == .completed)
  }

  @Test func aKeyframeAnimationFollowsItsCGPath() throws {
    let run = try Run("follow-path")
    // Calculation mode linear without keyTimes: each of the path's two segments takes half the duration (Core
    // Animation spaces a path's points evenly in time unless the mode is paced).
    for t in [0.2, 0.4, 0.6, 0.9] {
      let expected = t <= 0.5 ? (600 * t, 0.0) : (300.0, 800 * (t - 0.5))
      let to = try run.base.state("to", at: t)
      #expect(near(to?.position.x, expected.0, 1e-6), "t = \(t)")
      #expect(near(to?.position.y, expected.1, 1e-6), "t = \(t)")
    }
    #expect(try run.base.run() == .completed)
    #expect(try run.base.state("to", at: 1.5)?.position == Point(x: 300, y: 400))
    #expect(run.base.misbehaviors.isEmpty)
  }

  /// The same path with keyTimes [0, 0.8, 1] and no values: the first segment (300 long) takes 0.8 s, the second
  /// (400 long) 0.2 s.
  @Test func aPathAnimationTakesItsKeyTimes() throws {
    let run = try Run("follow-path-key-times")
    for t in [0.2, 0.4, 0.7, 0.9] {
      let expected = t <= 0.8 ? (300 * t / 0.8, 0.0) : (300.0, 400 * (t - 0.8) / 0.2)
      let to = try run.base.state("to", at: t)
      #expect(near(to?.position.x, expected.0, 1e-6), "t = \(t)")
      #expect(near(to?.position.y, expected.1, 1e-6), "t = \(t)")
    }
    #expect(try run.base.run() == .completed)
    #expect(run.base.misbehaviors.isEmpty)
  }

  /// Paced: constant speed along the path's 700 points of length, so the corner (300 along) is reached at 3/7 s.
  @Test func aPacedPathAnimationMovesAtConstantSpeed() throws {
    let run = try Run("follow-path-paced")
    for t in [0.2, 0.4, 0.6, 0.9] {
      let along = 700 * t
      let expected = along <= 300 ? (along, 0.0) : (300.0, along - 300)
      let to = try run.base.state("to", at: t)
      // The engine measures length with 64 chords per segment: exact for lines.
      #expect(near(to?.position.x, expected.0, 1e-6), "t = \(t)")
      #expect(near(to?.position.y, expected.1, 1e-6), "t = \(t)")
    }
    #expect(try run.base.run() == .completed)
  }
}
