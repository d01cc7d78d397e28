import PluginHost
import TestSupport
import Testing
import TransitionEngine

#if canImport(Glibc)
  import Glibc
#endif

private typealias S = CAnimatorSupport

/// The parts of the TransitionKit SDK that the built-in Swift animators do not use, driven through the
/// TestPluginSwiftSDK fixture (Tests/Fixtures/SwiftSDK/SwiftSDK.swift, one animator per feature), loaded with dlopen
/// from the built .so as a real plugin is. Every expected value is worked out here from hand formulas — Bézier by
/// bisection, springs and splines in closed form, matrices multiplied out — never with the engine's own curve,
/// spring, keyframe or matrix code.
extension LogCapture {
  /// What animator `id` of the SwiftSDK fixture logged at info level (TransitionLog.info), in order.
  func notes(_ id: String) -> [String] {
    records.filter { $0.source == "\(SDKSurfaceTests.pluginID)/\(id)" && $0.level == .info }.map(\.message)
  }
}

@Suite struct SDKSurfaceTests {
  static let pluginID = "com.example.test.swiftsdk"

  /// A registry with the fixture loaded from the build folder.
  static func registry(_ log: LogCapture = LogCapture()) throws -> PluginRegistry {
    try TestSupport.registry(loadingFixtures: ["SwiftSDK"], log: log)
  }

  /// One presentation by a fixture animator in a 400 × 800 container: "from" (0, 0, 400, 800) on screen, "to"
  /// (0, 0, 400, 800) off it; `build` may add views to the from root. Started on creation.
  final class Run {
    let log = LogCapture()
    let base: PluginTransitionRun

    init(
      _ animatorID: String, params: [String: ParameterValue] = [:], interactive: Bool = false,
      build: (Scene, View) throws -> Void = { _, _ in }
    ) throws {
      let scene = Scene(containerSize: Size(width: 400, height: 800))
      let from = try makeView(scene, "from", Rect(x: 0, y: 0, width: 400, height: 800))
      let to = try makeView(scene, "to", Rect(x: 0, y: 0, width: 400, height: 800))
      try build(scene, from)
      scene.container.addSubview(from)
      base = try PluginTransitionRun(
        try SDKSurfaceTests.registry(log), animatorID, scene: scene, from: from, to: to, operation: .present,
        params: params, options: TransitionOptions(isInteractive: interactive))
      try base.start()
    }

    var scene: Scene { base.scene }
    var from: View { base.from }
    var to: View { base.to }
    var transition: Transition { base.transition }
    var outcome: TransitionOutcome? { base.outcome }
    var misbehaviors: [Misbehavior] { base.misbehaviors }

    /// The presented state of view `id` at timeline time `t`.
    func state(_ id: String, at t: Double) throws -> ViewState {
      try #require(try base.state(id, at: t), "no view \(id) at \(t)")
    }

    /// Advances in frames of 1/60 s until the transition ends (at most 5 s).
    @discardableResult
    func run() throws -> TransitionOutcome? {
      try base.run(step: 1.0 / 60, limit: 5)
    }

    /// Misbehaviour reports and SDK warnings (the SDK logs every refused host call at warning level): both stay
    /// empty when the SDK and the animator are right.
    var problems: [String] { misbehaviors.map(\.description) + log.warnings }
  }

  // MARK: - Keyframes

  /// The fixture's keyframe track: centre and alpha at key times 0, ¼, ½, ¾, 1.
  static let keyPoints = [(100.0, 400.0), (400, 400), (400, 500), (200, 500), (200, 600)]
  static let keyAlphas = [0.2, 0.4, 0.6, 0.8, 1.0]
  /// Sample times (of 1.2 s) that avoid the key times, so that discrete steps are unambiguous.
  static let keyframeTimes = [0.1, 0.25, 0.4, 0.55, 0.7, 0.85, 1.0, 1.15]

  /// Linear interpolation through `values` at `keyTimes`.
  static func piecewiseLinear(_ values: [Double], _ keyTimes: [Double], at f: Double) -> Double {
    for i in 0..<(values.count - 1) where f <= keyTimes[i + 1] {
      let s = (f - keyTimes[i]) / (keyTimes[i + 1] - keyTimes[i])
      return values[i] + (values[i + 1] - values[i]) * s
    }
    return values[values.count - 1]
  }

  /// The uniform Catmull–Rom spline through `values` (evenly spaced key times), each end's missing neighbour being
  /// the end value itself, in its matrix form ½·[2p₁ + (p₂ − p₀)s + (2p₀ − 5p₁ + 4p₂ − p₃)s² + (3p₁ − p₀ − 3p₂ + p₃)s³].
  static func catmullRom(_ values: [Double], at f: Double) -> Double {
    let segments = values.count - 1
    let i = min(Int(f * Double(segments)), segments - 1)
    let s = f * Double(segments) - Double(i)
    let p0 = values[max(i - 1, 0)]
    let p1 = values[i]
    let p2 = values[i + 1]
    let p3 = values[min(i + 2, segments)]
    let a = 2 * p1
    let b = p2 - p0
    let c = 2 * p0 - 5 * p1 + 4 * p2 - p3
    let d = 3 * p1 - p0 - 3 * p2 + p3
    return 0.5 * (a + b * s + c * s * s + d * s * s * s)
  }

  static func keyframes(_ mode: String, linearTimeline: Bool = true) throws -> Run {
    try Run("keyframes", params: ["mode": .enumCase(mode), "linearTimeline": .bool(linearTimeline)])
  }

  @Test func keyframesInLinearModeMeetEachValueAtItsKeyTime() throws {
    let run = try Self.keyframes("linear")
    #expect(run.transition.duration == 1.2)
    let even = [0, 0.25, 0.5, 0.75, 1]
    for t in Self.keyframeTimes + [0.3, 0.6, 0.9, 1.2] {
      let f = t / 1.2
      let dot = try run.state("dot", at: t)
      expectClose(dot.position.x, Self.piecewiseLinear(Self.keyPoints.map(\.0), even, at: f), 1e-9, "x at \(t)")
      expectClose(dot.position.y, Self.piecewiseLinear(Self.keyPoints.map(\.1), even, at: f), 1e-9, "y at \(t)")
      expectClose(dot.alpha, Self.piecewiseLinear(Self.keyAlphas, even, at: f), 1e-9, "alpha at \(t)")
    }
    #expect(try run.run() == .completed)
    #expect(run.scene.view(withID: "dot")?.center == Point(x: 200, y: 600))
    #expect(run.problems.isEmpty)
  }

  /// Without `.curveLinear` UIKit's default curve, easeInOut, shapes the whole keyframe timeline.
  @Test func keyframesFollowEaseInOutOverTheWholeTimelineByDefault() throws {
    let run = try Self.keyframes("linear", linearTimeline: false)
    let even = [0, 0.25, 0.5, 0.75, 1]
    for t in Self.keyframeTimes {
      let f = Reference.easeInOut(t / 1.2)
      let dot = try run.state("dot", at: t)
      expectClose(dot.position.x, Self.piecewiseLinear(Self.keyPoints.map(\.0), even, at: f), 1e-6, "x at \(t)")
      expectClose(dot.alpha, Self.piecewiseLinear(Self.keyAlphas, even, at: f), 1e-6, "alpha at \(t)")
    }
    #expect(try run.run() == .completed && run.problems.isEmpty)
  }

  /// Discrete: each keyframe's value shows from the keyframe's end (its key time) on, without interpolation.
  @Test func keyframesInDiscreteModeJumpAtTheKeyTimes() throws {
    let run = try Self.keyframes("discrete")
    for t in Self.keyframeTimes {
      let index = Int(t / 1.2 * 4)
      let dot = try run.state("dot", at: t)
      #expect(dot.position == Point(x: Self.keyPoints[index].0, y: Self.keyPoints[index].1), "t = \(t)")
      #expect(dot.alpha == Self.keyAlphas[index], "t = \(t)")
    }
    #expect(try run.run() == .completed && run.problems.isEmpty)
  }

  @Test func keyframesInCubicModeFollowACatmullRomSpline() throws {
    let run = try Self.keyframes("cubic")
    for t in Self.keyframeTimes {
      let f = t / 1.2
      let dot = try run.state("dot", at: t)
      expectClose(dot.position.x, Self.catmullRom(Self.keyPoints.map(\.0), at: f), 1e-9, "x at \(t)")
      expectClose(dot.position.y, Self.catmullRom(Self.keyPoints.map(\.1), at: f), 1e-9, "y at \(t)")
      expectClose(dot.alpha, Self.catmullRom(Self.keyAlphas, at: f), 1e-9, "alpha at \(t)")
    }
    // Through the key values at the key times.
    expectClose(try run.state("dot", at: 0.6).position.x, 400, 1e-9)
    #expect(try run.run() == .completed && run.problems.isEmpty)
  }

  /// Paced: the key times are replaced by the cumulative distance — legs of 300, 100, 200, 100 points give key times
  /// 0, 3/7, 4/7, 6/7, 1 for the centre; the alpha steps are equal, so its key times stay even.
  @Test func keyframesInPacedModeMoveAtConstantSpeed() throws {
    let run = try Self.keyframes("paced")
    let paced = [0, 3.0 / 7, 4.0 / 7, 6.0 / 7, 1]
    for t in Self.keyframeTimes {
      let f = t / 1.2
      let dot = try run.state("dot", at: t)
      expectClose(dot.position.x, Self.piecewiseLinear(Self.keyPoints.map(\.0), paced, at: f), 1e-9, "x at \(t)")
      expectClose(dot.position.y, Self.piecewiseLinear(Self.keyPoints.map(\.1), paced, at: f), 1e-9, "y at \(t)")
      expectClose(dot.alpha, Self.piecewiseLinear(Self.keyAlphas, [0, 0.25, 0.5, 0.75, 1], at: f), 1e-9)
    }
    #expect(try run.run() == .completed && run.problems.isEmpty)
  }

  /// Cubic paced: equal times cover equal lengths of the spline. The alpha values lie on a line with equal steps, so
  /// the spline is that line and alpha moves linearly in time; the centre's steps between equally spaced samples all
  /// have (nearly) the same length, unlike the cubic mode's.
  @Test func keyframesInCubicPacedModeMoveAtConstantSpeedAlongTheSpline() throws {
    let run = try Self.keyframes("cubicPaced")
    for t in Self.keyframeTimes {
      expectClose(try run.state("dot", at: t).alpha, 0.2 + 0.8 * t / 1.2, 1e-3, "alpha at \(t)")
    }
    // The path length covered in each 1/40 of the duration, summed over 10 short chords (so that chords cutting the
    // spline's bends do not count as slower motion).
    func steps(_ run: Run) throws -> [Double] {
      let points = try (0...400).map { try run.state("dot", at: 1.2 * Double($0) / 400).position }
      let chords = zip(points, points.dropFirst()).map { a, b in
        ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
      }
      return (0..<40).map { chords[($0 * 10)..<($0 * 10 + 10)].reduce(0, +) }
    }
    let paced = try steps(run)
    #expect(paced.max()! / paced.min()! < 1.005, "\(paced)")
    let cubic = try steps(try Self.keyframes("cubic"))
    #expect(cubic.max()! / cubic.min()! > 2, "\(cubic)")
    #expect(try run.run() == .completed)
    #expect(run.scene.view(withID: "dot")?.center == Point(x: 200, y: 600))
    #expect(run.problems.isEmpty)
  }

  // MARK: - Custom drivers

  @Test func driversWritePureFunctionsOfTimeAfterTheirDelay() throws {
    let run = try Run("driver")
    #expect(run.transition.duration == 1)
    #expect(run.log.notes("driver") == ["drivers added true true"])
    // During the delay the model shows: the dot where it was made, alpha 1, square corners.
    for t in [0.0, 0.1, 0.19] {
      let dot = try run.state("dot", at: t)
      #expect(dot.position == Point(x: 100, y: 400) && dot.alpha == 1 && dot.cornerRadius == 0, "t = \(t)")
    }
    // Sampled out of order, and twice: a pure function of time.
    for t in [0.9, 0.3, 0.6, 0.3, 1.0, 0.2] {
      let f = (t - 0.2) / 0.8
      let dot = try run.state("dot", at: t)
      expectClose(dot.position.x, 100 + 200 * f, 1e-9, "x at \(t)")
      expectClose(dot.position.y, 400 + 100 * f * f, 1e-9, "y at \(t)")
      expectClose(dot.alpha, 1 - f / 2, 1e-9, "alpha at \(t)")
      expectClose(dot.cornerRadius, 10 * (t - 0.2), 1e-9, "cornerRadius at \(t)")
    }
    // The convenience form: no delay, 0.5 s, the to view's alpha = fraction.
    for t in [0.1, 0.25, 0.4] {
      expectClose(try run.state("to", at: t).alpha, t / 0.5, 1e-9, "to.alpha at \(t)")
    }
    #expect(try run.run() == .completed)
    #expect(run.log.notes("driver") == ["drivers added true true", "driver finished true"])
    // The last frames stay in the model.
    let dot = try #require(run.scene.view(withID: "dot"))
    #expect(dot.center == Point(x: 300, y: 500) && dot.alpha == 0.5)
    expectClose(dot.cornerRadius, 8, 1e-9)
    #expect(run.to.alpha == 1)
    #expect(run.problems.isEmpty)
  }

  // MARK: - Gradients

  @Test func gradientViewsAnimateColoursLocationsAndPoints() throws {
    let run = try Run("gradient")
    #expect(run.log.notes("gradient") == ["plain gradient none"])
    for t in [0.0, 0.2, 0.5, 0.8] {
      let shade = try #require(try run.state("shade", at: t).gradient, "t = \(t)")
      // black → red and clear → blue, componentwise on straight RGBA.
      #expect(shade.colors.count == 2)
      expectClose(shade.colors[0].r, t, 1e-9)
      expectClose(shade.colors[0].a, 1, 1e-9)
      expectClose(shade.colors[1].b, t, 1e-9)
      expectClose(shade.colors[1].a, t, 1e-9)
      #expect(shade.colors[0].g == 0 && shade.colors[0].b == 0 && shade.colors[1].r == 0 && shade.colors[1].g == 0)
      let locations = try #require(shade.locations)
      expectClose(locations[0], 0.25 * t, 1e-9)
      expectClose(locations[1], 1 - 0.25 * t, 1e-9)
      expectClose(shade.startPoint.x, 0.5 - 0.5 * t, 1e-9)
      #expect(shade.startPoint.y == 0)
      // Set at once, before the block.
      #expect(shade.endPoint == Point(x: 1, y: 1))
    }
    // Three colours cannot blend with two: the gradient changes at half way.
    let rgb = [Color(r: 1, g: 0, b: 0), Color(r: 0, g: 1, b: 0), Color(r: 0, g: 0, b: 1)]
    let bandsBefore = try #require(try run.state("bands", at: 0.49).gradient)
    #expect(bandsBefore.colors == rgb && bandsBefore.locations == nil)
    #expect(bandsBefore.startPoint == Point(x: 0, y: 0.5) && bandsBefore.endPoint == Point(x: 1, y: 0.5))
    let bandsAfter = try #require(try run.state("bands", at: 0.5).gradient)
    #expect(bandsAfter.colors == [Color(r: 1, g: 1, b: 1), Color(r: 0, g: 0, b: 0)])
    #expect(try run.run() == .completed)
    #expect(
      run.log.notes("gradient") == [
        "plain gradient none",
        "shade colors 1.0 0.0 0.0 1.0, 0.0 0.0 1.0 1.0",
        "shade locations [0.25, 0.75] start (0.0, 0.0) end (1.0, 1.0)",
        "bands colors 2 locations even",
      ])
    #expect(run.scene.view(withID: "plain")?.gradient == nil)
    #expect(run.problems.isEmpty)
  }

  /// Locations must be one per colour: a mismatch is refused by the SDK (the host would read the shorter array
  /// past its end), logged, and changes nothing.
  @Test func gradientLocationsThatDoNotMatchTheColoursAreRefused() throws {
    let run = try Run("gradient-mismatch")
    #expect(try run.run() == .completed)
    let odd = try #require(run.scene.view(withID: "odd")?.gradient)
    #expect(odd.colors == [Color(r: 0, g: 0, b: 0, a: 1), Color(r: 0, g: 0, b: 0, a: 0)])
    #expect(odd.locations == [0, 1])
    let source = "\(Self.pluginID)/gradient-mismatch"
    #expect(
      run.log.warnings == [
        "\(source): TransitionKit: UIView(odd).layer.gradient failed: 2 locations for 3 colours (one per colour, or "
          + "nil); nothing changed",
        "\(source): TransitionKit: UIView(odd).layer.gradient failed: 3 locations for 1 colours (one per colour, or "
          + "nil); nothing changed",
      ])
    #expect(run.misbehaviors.isEmpty)
  }

  // MARK: - 3-D transforms and anchor points

  /// CATransform3DMakeTranslation(x, y, z), row vectors.
  static func translation3(_ x: Double, _ y: Double, _ z: Double) -> [Double] {
    [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1]
  }

  @Test func anchorPointsAndThreeDimensionalTransformsUnderPerspective() throws {
    let run = try Run("transform3d")
    // Moving the anchor point without the position moves the frame: origin = position − anchor·size.
    #expect(run.log.notes("transform3d") == ["card frame after anchor 200.0 200.0 200.0 300.0"])
    let theta = -Double.pi / 3
    #expect(run.scene.container.sublayerTransform.m34 == -1.0 / 500)
    for p in [0.0, 0.25, 0.5, 0.75, 1.0] {
      let card = try run.state("card", at: p)
      #expect(card.anchorPoint == Point(x: 0, y: 0.5) && card.position == Point(x: 100, y: 350))
      // Translate(Rotate(identity, θ), 40, 0, 0) = T(40)·R(θ): rotation R(θ) and translation (40cos θ, 0, −40 sin θ);
      // decomposed interpolation turns by p·θ and moves p of the translation.
      let (tx, tz) = (p * 40 * cos(theta), -p * 40 * sin(theta))
      let transform = S.chain(S.rotationY(p * theta), Self.translation3(tx, 0, tz))
      #expect(S.maxDifference(card.transform.values, transform) < 1e-9, "card.transform at \(p)")
      let world = S.worldInContainer(
        size: Size(width: 200, height: 300), anchor: Point(x: 0, y: 0.5), transform: transform,
        position: Point(x: 100, y: 350), container: Size(width: 400, height: 800), sublayer: S.perspective(500))
      #expect(S.maxDifference(card.worldTransform.values, world) < 1e-9, "card.worldTransform at \(p)")
      // The corners without matrices: (u, v − 150) turned by pθ about y, moved, placed at the position, then seen
      // from 500 points in front of the container's centre.
      let corners = [(0.0, 0.0), (200, 0), (0, 300), (200, 300)].map { u, v in
        let x = 100 + u * cos(p * theta) + tx
        let y = 350 + (v - 150)
        let z = -u * sin(p * theta) + tz
        let w = 1 - z / 500
        return (200 + (x - 200) / w, 400 + (y - 400) / w)
      }
      let box = try #require(card.boundingBox)
      #expect(S.maxDifference(box, S.box(corners)) < 1e-9, "card.boundingBox at \(p): \(box)")

      // The tile: anchor (½, ½) → (1, 1) at a fixed position (50, 50); scale 1 → ½ and translation → (20, 30).
      let tile = try run.state("tile", at: p)
      let a = 0.5 + 0.5 * p
      let s = 1 - 0.5 * p
      expectClose(tile.anchorPoint.x, a, 1e-9)
      expectClose(tile.anchorPoint.y, a, 1e-9)
      #expect(tile.position == Point(x: 50, y: 50))
      let shrink = S.chain([s, 0, 0, 0, 0, s, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], S.translation(20 * p, 30 * p))
      #expect(S.maxDifference(tile.transform.values, shrink) < 1e-9, "tile.transform at \(p)")
      // Its frame: the corners (u − 100a, v − 100a)·s + translation + position.
      expectClose(
        tile.frame, Rect(x: 50 + 20 * p - 100 * a * s, y: 50 + 30 * p - 100 * a * s, width: 100 * s, height: 100 * s),
        1e-9, "tile.frame at \(p)")
    }
    #expect(try run.run() == .completed && run.problems.isEmpty)
  }

  // MARK: - performWithoutAnimation

  /// The regression test of 15b94be: performWithoutAnimation inside animations blocks (basic, keyframes, a keyframe)
  /// used to trap ("closure has escaped") as soon as it returned. Its changes apply at once; the rest animates.
  @Test func performWithoutAnimationInsideBlocksAppliesAtOnce() throws {
    let run = try Run("without-animation")
    for t in [0.0, 0.001, 0.25, 0.5, 0.75, 1.0] {
      let dot = try run.state("dot", at: t)
      #expect(dot.alpha == 0.5 && dot.cornerRadius == 8 && dot.zPosition == 5, "t = \(t)")
      #expect(dot.backgroundColor == Color(r: 1, g: 0, b: 0), "t = \(t)")
      // The centre animates linearly over 1 s; the bounds grow 20 → 40 in the keyframe over the first half.
      let side = 20 + 20 * min(t / 0.5, 1)
      expectClose(dot.frame, Rect(x: 100 + 200 * t - side / 2, y: 400 - side / 2, width: side, height: side), 1e-9)
    }
    #expect(try run.run() == .completed && run.problems.isEmpty)
  }

  // MARK: - The bounce spring

  /// The expected curves are iOS 17's spring(duration:bounce:) in closed form, written out independently of the
  /// engine (TestSupport's `BounceSpring`): the duration is perceptual, each block lasts its spring's settling
  /// duration and is exactly on its target from then on, and the completions run then.
  @Test func bounceSpringsFollowTheirClosedForms() throws {
    let run = try Run("bounce")
    // The animator's own answer, whatever its springs last.
    #expect(run.transition.duration == 0.8)
    let move = BounceSpring(duration: 0.6, bounce: 0.3)
    let corner = BounceSpring(duration: 0.8, bounce: -0.4, initialVelocity: 1)
    let fade = BounceSpring(duration: 0.5, bounce: 0)
    // Each settles after its perceptual duration; the over-damped one (ζ = 1/0.6) much later.
    #expect(move.duration > 1 && fade.duration == 0.8 && corner.duration > 2)
    var overshoot = 0.0
    for step in 0...300 {
      let t = Double(step) / 100
      let dot = try run.state("dot", at: t)
      expectClose(dot.position.x, 100 + 200 * move.progress(t), 1e-9, "x at \(t)")
      expectClose(dot.cornerRadius, 10 * corner.progress(t), 1e-9, "cornerRadius at \(t)")
      expectClose(dot.alpha, 1 - 0.8 * fade.progress(t), 1e-9, "alpha at \(t)")
      overshoot = max(overshoot, dot.position.x - 300)
    }
    // bounce 0.3 overshoots (by about e^(−πζ/√(1 − ζ²)) ≈ 4.6 % of 200 points); each spring is exactly on its
    // target from its settling duration, having come within 0.001 of the distance.
    #expect(overshoot > 5)
    #expect(try run.state("dot", at: move.duration).position.x == 300)
    #expect(abs(try run.state("dot", at: move.duration - 1e-9).position.x - 300) <= 0.2)
    #expect(try run.state("dot", at: fade.duration).alpha == 0.2)
    #expect(try run.state("dot", at: corner.duration).cornerRadius == 10)
    // The last completion (the over-damped spring's, at its settling duration) completes the transition.
    try run.transition.advance(by: corner.duration - 1e-6)
    #expect(run.outcome == nil)
    try run.transition.advance(by: 2e-6)
    #expect(run.outcome == .completed && run.problems.isEmpty)
  }

  // MARK: - CASpringAnimation- and UISpringTimingParameters-style springs

  /// Each of the seven springs against its closed form (TestSupport, written from the published definitions): the
  /// free motion until its duration, exactly the new value from then on; the last completion at the longest one.
  @Test func springParametersRunAsCoreAnimationRunsThem() throws {
    let run = try Run("spring-parameters")
    #expect(run.transition.duration == 0.5)
    // mass 3, stiffness 1000, damping 500 (ζ ≈ 4.56): critical with ω₀ = √(1000/3) unless over-damping is allowed.
    let critical = ClosedFormSpring(omega: (1000.0 / 3).squareRoot(), zeta: 1)
    #expect(critical.settlingDuration == 0.6)
    let over = ClosedFormSpring(mass: 3, stiffness: 1000, damping: 500)
    let thrown = BounceSpring(duration: 0.5, bounce: -0.3, initialVelocity: 1)
    let ratio = UIKitSpring(dampingRatio: 0.6, duration: 0.7, initialVelocity: -1)
    // mass 1, stiffness 200, damping 40: ζ = √2, clamped to the critical spring with ω₀ = √200.
    let clamped = ClosedFormSpring(omega: (200.0).squareRoot(), zeta: 1)
    let bouncy = BounceSpring(duration: 0.4, bounce: 0.2)
    let curves: [(String, KeyPath<ViewState, Double>, Double, Double, (Double) -> Double, Double)] = [
      ("dot", \.position.x, 100, 300, { critical.progress($0, duration: 0.6) }, 0.6),
      ("dot", \.cornerRadius, 0, 10, { over.progress($0, duration: over.settlingDuration) }, over.settlingDuration),
      ("dot", \.alpha, 1, 0.2, thrown.progress, thrown.duration),
      ("dot", \.zPosition, 0, 1, ratio.progress, 0.7),
      (
        "dot2", \.position.x, 100, 300, { clamped.progress($0, duration: clamped.settlingDuration) },
        clamped.settlingDuration
      ),
      ("dot2", \.cornerRadius, 0, 10, bouncy.progress, bouncy.duration),
      ("dot2", \.alpha, 1, 0.5, { critical.progress($0, duration: 0.6) }, 0.6),
    ]
    for (index, (id, key, from, to, progress, duration)) in curves.enumerated() {
      for step in 0..<200 {
        let t = Double(step) / 200 * duration
        expectClose(
          try run.state(id, at: t)[keyPath: key], from + (to - from) * progress(t), 1e-9, "spring \(index) at \(t)")
      }
      // From its end on, the new value (the SDK passes the perceptual form as k = (2π/d)², c = 2ζ√k, whose settling
      // duration may differ from the one written here in the last bit: hence the 1e-12 margin).
      #expect(try run.state(id, at: duration * (1 + 1e-12))[keyPath: key] == to, "spring \(index) at its end")
    }
    // The last completion (the over-damped spring's) completes the transition.
    let last = curves.map(\.5).max()!
    #expect(last == over.settlingDuration && last > 3)
    try run.transition.advance(by: last - 1e-6)
    #expect(run.outcome == nil)
    try run.transition.advance(by: 2e-6)
    #expect(run.outcome == .completed && run.problems.isEmpty)
  }

  // MARK: - Coordinate conversion

  @Test func convertMapsRectsAndPointsThroughTransformsAndBoundsOrigins() throws {
    let run = try Run("convert")
    #expect(try run.run() == .completed)
    func marker(_ id: String) throws -> Rect { try #require(run.scene.view(withID: id)).frame }
    // "chip" (10, 10, 20, 20) in "panel", which is scaled ×2 about its centre (150, 150): its corners sit at
    // (10 − 100)·2 + 150 = −30 … (30 − 100)·2 + 150 = 10 across, (10 − 50)·2 + 150 = 70 … 110 down.
    expectClose(try marker("chip-in-container"), Rect(x: -30, y: 70, width: 40, height: 40), 1e-9)
    // Its 10 × 10 corner, (−30, 70, 20, 20) in the container, in "side"'s bounds (origin (10, 20), frame at
    // (300, 600)): x − 300 + 10, y − 600 + 20.
    expectClose(try marker("chip-corner-in-side"), Rect(x: -320, y: -510, width: 20, height: 20), 1e-9)
    expectClose(try marker("chip-point-in-panel"), Rect(x: 15, y: 15, width: 0, height: 0), 1e-9)
    // The panel's centre in the container is the centre of its bounds.
    expectClose(try marker("container-point-in-panel"), Rect(x: 100, y: 50, width: 0, height: 0), 1e-9)
    // "side"'s bounds origin is its top-left corner.
    expectClose(try marker("side-point-in-container"), Rect(x: 300, y: 600, width: 0, height: 0), 1e-9)
    // "tilt", turned π/3 about y without perspective: its width shrinks to 200·cos(π/3) about its centre (200, 400).
    expectClose(try marker("tilt-in-container"), Rect(x: 150, y: 300, width: 100, height: 200), 1e-9)
    #expect(run.problems.isEmpty)
  }

  // MARK: - Snapshots

  @Test func snapshotsCopyTheAppearanceAndAnimateAsViews() throws {
    let run = try Run("snapshot") { scene, from in
      let card = try makeView(scene, "card", Rect(x: 40, y: 100, width: 200, height: 120), in: from)
      card.backgroundColor = Color(r: 1, g: 0, b: 0)
      card.cornerRadius = 12
      card.alpha = 0.5
      card.clipsToBounds = true
    }
    let red = Color(r: 1, g: 0, b: 0)
    for t in [0.0, 0.3, 0.7, 0.99] {
      let snapshot = try run.state("card-snapshot", at: t)
      #expect(snapshot.snapshotOf == "card" && snapshot.parentID == run.scene.container.id)
      // The appearance is copied; the snapshot's own alpha starts at 1 (the source's alpha is not its content).
      #expect(snapshot.backgroundColor == red && snapshot.cornerRadius == 12 && snapshot.clipsToBounds)
      expectClose(
        snapshot.frame, Rect(x: 40 + 60 * t, y: 100 + 400 * t, width: 200 - 100 * t, height: 120 - 60 * t), 1e-9,
        "snapshot.frame at \(t)")
      expectClose(snapshot.alpha, 1 - t, 1e-9, "snapshot.alpha at \(t)")
      // A snapshot of a snapshot shows the original.
      let copy = try run.state("card-snapshot-snapshot", at: t)
      #expect(copy.snapshotOf == "card" && copy.backgroundColor == red && copy.cornerRadius == 12)
      #expect(copy.frame == Rect(x: 0, y: 0, width: 50, height: 30) && copy.alpha == 1)
      let card = try run.state("card", at: t)
      #expect(card.isHidden && card.opacity == 0)
    }
    #expect(try run.run() == .completed)
    #expect(run.scene.container.subviews.map(\.id) == ["from", "to"])
    #expect(run.scene.view(withID: "card-snapshot")?.superview == nil)
    #expect(run.scene.view(withID: "card")?.isHidden == false)
    #expect(run.problems.isEmpty)
  }

  // MARK: - Parameters

  @Test func parametersOfEveryTypeDescribeThemselves() throws {
    let registry = try Self.registry()
    let animator = try registry.resolve(animatorID: "parameters").info
    #expect(animator.params.map(\.name) == ["amount", "hidden", "size", "tint", "label", "spot", "box"])
    #expect(animator.params.map(\.kind) == [.number, .bool, .enum, .color, .string, .point, .rect])
    #expect(
      animator.params.map(\.defaultValue) == [
        .number(0.5), .bool(false), .string("small"), .color(r: 0.1, g: 0.2, b: 0.3, a: 1), .string("badge"),
        .point(x: 10, y: 20), .rect(x: 5, y: 6, width: 70, height: 80),
      ])
    #expect(animator.params[0].minimum == 0 && animator.params[0].maximum == 1)
    #expect(animator.params[1].minimum == nil)
    #expect(animator.params[2].options == ["small", "large"])
    #expect(animator.params.allSatisfy { $0.doc?.isEmpty == false })
    #expect(animator.params[2].doc == "The badge's corner radius: small 5, large 20.")
    // Every mode of the keyframes animator, in declaration order.
    let keyframes = try registry.resolve(animatorID: "keyframes").info
    #expect(keyframes.params[0].options == ["linear", "discrete", "cubic", "paced", "cubicPaced"])
    // Without a context the duration is the default amount.
    let instance = try registry.makeAnimator(id: "parameters")
    #expect(instance.transitionDuration(nil) == 0.5)
    instance.close()
  }

  @Test func parametersOfEveryTypeReadTheirDefaults() throws {
    let run = try Run("parameters")
    #expect(run.transition.duration == 0.5)
    #expect(run.outcome == .completed)
    let badge = try #require(run.scene.view(withID: "badge"))
    #expect(badge.frame == Rect(x: 5, y: 6, width: 70, height: 80))
    #expect(badge.alpha == 0.5 && !badge.isHidden && badge.cornerRadius == 5)
    #expect(badge.backgroundColor == Color(r: 0.1, g: 0.2, b: 0.3, a: 1))
    #expect(run.scene.view(withID: "pin")?.frame == Rect(x: 10, y: 20, width: 0, height: 0))
    #expect(run.problems.isEmpty)
  }

  @Test func parametersOfEveryTypeReadTheClientsValues() throws {
    let tint = Color(r: 0.9, g: 0.8, b: 0.7, a: 0.6)
    let run = try Run(
      "parameters",
      params: [
        "amount": .number(0.75), "hidden": .bool(true), "size": .enumCase("large"), "tint": .color(tint),
        "label": .string("sticker"), "spot": .point(Point(x: -3, y: 4.5)),
        "box": .rect(Rect(x: 1, y: 2, width: 3, height: 4)),
      ])
    #expect(run.transition.duration == 0.75)
    #expect(run.outcome == .completed)
    #expect(run.scene.view(withID: "badge") == nil)
    let sticker = try #require(run.scene.view(withID: "sticker"))
    #expect(sticker.frame == Rect(x: 1, y: 2, width: 3, height: 4))
    #expect(sticker.alpha == 0.75 && sticker.isHidden && sticker.cornerRadius == 20)
    #expect(sticker.backgroundColor == tint)
    #expect(run.scene.view(withID: "pin")?.frame == Rect(x: -3, y: 4.5, width: 0, height: 0))
    #expect(run.problems.isEmpty)
  }

  // MARK: - Alongside animations

  /// The engine's rule for alongside animations (th_plugin.h, animate_alongside): whatever the animator's own blocks
  /// do (here linear blocks of 0.5 s), an alongside block queued during the start runs from time 0 over the
  /// transition's duration with UIView's default curve, easeInOut; one started later runs over the rest of the
  /// duration; blocks started inside one keep their own timing; each completion runs when its block ends.
  @Test func alongsideAnimationsUseTheTransitionsDurationAndEaseInOut() throws {
    let run = try Run("alongside")
    for t in [0.1, 0.25, 0.4, 0.5, 0.6, 0.8, 1.0] {
      let dimming = try run.state("dimming", at: t)
      expectClose(dimming.alpha, 0.6 * Reference.easeInOut(t), 1e-6, "dimming.alpha at \(t)")
      // The block the alongside animations started themselves: linear over 0.5 s.
      expectClose(dimming.cornerRadius, 10 * min(t / 0.5, 1), 1e-9, "dimming.cornerRadius at \(t)")
      expectClose(try run.state("dot", at: t).position.x, 100 + 200 * min(t / 0.5, 1), 1e-9, "dot.x at \(t)")
    }
    // To the end of the first block: its completion starts the second block and a later alongside block.
    try run.transition.advance(by: 0.5)
    #expect(run.log.notes("alongside") == ["first block done"])
    for t in [0.5, 0.6, 0.75, 0.9, 1.0] {
      // The later alongside block: black → white over the remaining 0.5 s, easeInOut.
      let white = Reference.easeInOut((t - 0.5) / 0.5)
      let colour = try #require(try run.state("dimming", at: t).backgroundColor)
      expectClose(colour.r, white, 1e-6, "dimming colour at \(t)")
      #expect(colour.r == colour.g && colour.g == colour.b && colour.a == 1)
      expectClose(try run.state("dot", at: t).position.y, 400 + 200 * (t - 0.5) / 0.5, 1e-9, "dot.y at \(t)")
    }
    #expect(try run.run() == .completed)
    // Both alongside completions ran when their blocks ended at 1 s, before the animator's last completion called
    // completeTransition; the presentation controller's did-end and animationEnded came after.
    #expect(
      run.log.notes("alongside") == [
        "first block done", "alongside done, cancelled false", "late alongside done", "second block done",
        "presentation did end true", "animationEnded true",
      ])
    #expect(run.scene.view(withID: "dimming")?.alpha == 0.6)
    #expect(run.problems.isEmpty)
  }

  /// An interactive transition scrubs alongside blocks with the rest of its timeline; cancelled, it runs them back,
  /// and their completions run once it is back at its start, before the did-end and animationEnded calls.
  @Test func alongsideAnimationsScrubAndRunBackOnCancel() throws {
    let run = try Run("alongside", interactive: true)
    try run.transition.update(percent: 0.3)
    let dimming = try #require(run.transition.presentation().first { $0.id == "dimming" })
    expectClose(dimming.alpha, 0.6 * Reference.easeInOut(0.3), 1e-6)
    expectClose(dimming.cornerRadius, 6, 1e-9)
    try run.transition.cancel()
    #expect(try run.run() == .cancelled(reason: nil))
    let notes = run.log.notes("alongside")
    #expect(notes.contains("alongside done, cancelled true"))
    #expect(notes.suffix(2) == ["presentation did end false", "animationEnded false"])
    // Everything is as it started: the chrome is gone, the presenter alone on screen.
    #expect(run.scene.container.subviews.map(\.id) == ["from"])
    #expect(run.scene.view(withID: "dimming")?.superview == nil)
    #expect(run.problems.isEmpty)
  }

  // MARK: - Reports of refused calls

  /// The line of `Tests/Fixtures/SwiftSDK/SwiftSDK.swift` marked `// report: <name>`, read from the file itself.
  static func reportLine(_ name: String) throws -> Int {
    // This file is Tests/AnimatorTests/SDKSurfaceTests.swift.
    let tests = String(#filePath.split(separator: "/").dropLast(2).joined(separator: "/"))
    let source = String(decoding: readFile("/\(tests)/Fixtures/SwiftSDK/SwiftSDK.swift"), as: UTF8.self)
    let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
    let index = try #require(lines.firstIndex { $0.hasSuffix("// report: \(name)") })
    return index + 1
  }

  /// Every call the host refuses is logged by the SDK naming the view by its id (and a view the plugin made without
  /// one as such) and saying where the enclosing block, or the refused block itself, was written (#fileID, #line).
  @Test func refusedCallsNameTheViewAndWhereTheBlockWasWritten() throws {
    let run = try Run("misbehaving")
    #expect(try run.run() == .completed)
    let file = "TestPluginSwiftSDK/SwiftSDK.swift"
    let animate = "\(file):\(try Self.reportLine("animate"))"
    let keyframe = "\(file):\(try Self.reportLine("keyframe"))"
    let nanDuration = "\(file):\(try Self.reportLine("nan-duration"))"
    let prefix = "\(Self.pluginID)/misbehaving: TransitionKit: "
    #expect(
      run.log.warnings == [
        prefix + "UIView.animate(withDuration: nan, delay: 0.0) at \(nanDuration) failed: TH_ERR_INVALID_VALUE",
        prefix
          + "UIView(to).alpha = nan failed: TH_ERR_INVALID_VALUE (in the animations of UIView.animate at \(animate))",
        prefix + "UIView(view, made without an id).alpha = nan failed: TH_ERR_INVALID_VALUE (in the animations of "
          + "UIView.animate at \(animate))",
        prefix + "UIView(to).center = (inf, 0.0) failed: TH_ERR_INVALID_VALUE (in the animations of "
          + "UIView.addKeyframe at \(keyframe))",
        prefix + "UIView(view, made without an id).layer.cornerRadius = nan failed: TH_ERR_INVALID_VALUE (in the "
          + "completion of UIView.animate at \(animate))",
      ])
    // The host's own reports, one per refused call, come beside them (window/logMessage in serve).
    #expect(run.misbehaviors.count == 5)
  }
}
