// Timing curves: Core Animation's named cubic Béziers, any cubic-bezier(x1, y1, x2, y2), and CSS steps().

/// Where the jump of a `steps` curve happens within each interval (CSS `jump-start` / `jump-end`).
package enum StepPosition: String, Hashable, Sendable {
  /// The output jumps at the start of each interval: steps(n, start) reaches 1/n immediately after t = 0.
  case start
  /// The output jumps at the end of each interval: steps(n, end) stays at 0 until t = 1/n.
  case end
}

/// Why a timing curve was rejected by `TimingCurve.validatedBezier` or `validatedSteps`.
package enum TimingCurveError: Error, Hashable, Sendable {
  /// A control point's x is outside [0, 1] (the curve would not be a function of time).
  case controlPointXOutOfRange(Double)
  /// A control point coordinate is NaN or infinite.
  case nonFiniteControlPoint
  /// A step count below 1.
  case invalidStepCount(Int)
}

/// A timing function mapping input time t ∈ [0, 1] to progress.
///
/// The named curves use Core Animation's control points (they also equal CSS `ease`, `ease-in`, …):
/// `linear` (0, 0, 1, 1), `easeIn` (0.42, 0, 1, 1), `easeOut` (0, 0, 0.58, 1), `easeInOut` (0.42, 0, 0.58, 1)
/// and `default` (0.25, 0.1, 0.25, 1). Béziers are solved to within 1e-7 of the exact value of y (in
/// practice far tighter): Newton on x(s) with a bisection fallback, in the manner of WebKit's UnitBezier.
package enum TimingCurve: Hashable, Sendable {
  /// Constant speed.
  case linear
  /// CAMediaTimingFunction easeIn (0.42, 0, 1, 1).
  case easeIn
  /// CAMediaTimingFunction easeOut (0, 0, 0.58, 1).
  case easeOut
  /// CAMediaTimingFunction easeInEaseOut (0.42, 0, 0.58, 1); UIView's default curve.
  case easeInOut
  /// CAMediaTimingFunction default (0.25, 0.1, 0.25, 1); CSS `ease`.
  case `default`
  /// cubic-bezier(x1, y1, x2, y2) through (0, 0) and (1, 1). x1 and x2 should lie in [0, 1] (use
  /// `validatedBezier` on outside input); out-of-range x values are clamped at evaluation so bad values never
  /// break the solver. y may overshoot.
  case bezier(Double, Double, Double, Double)
  /// CSS steps(n, position); n < 1 is treated as 1 at evaluation (use `validatedSteps` on outside input).
  case steps(Int, StepPosition)

  /// A Bézier curve after checking that x1, x2 ∈ [0, 1] and that every coordinate is finite.
  package static func validatedBezier(
    _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double
  ) throws(TimingCurveError) -> TimingCurve {
    guard x1.isFinite, y1.isFinite, x2.isFinite, y2.isFinite else { throw .nonFiniteControlPoint }
    guard (0...1).contains(x1) else { throw .controlPointXOutOfRange(x1) }
    guard (0...1).contains(x2) else { throw .controlPointXOutOfRange(x2) }
    return .bezier(x1, y1, x2, y2)
  }

  /// A steps curve after checking n ≥ 1.
  package static func validatedSteps(_ n: Int, _ position: StepPosition) throws(TimingCurveError) -> TimingCurve {
    guard n >= 1 else { throw .invalidStepCount(n) }
    return .steps(n, position)
  }

  /// The named curve with the project's wire name (`"linear"`, `"easeIn"`, `"easeOut"`, `"easeInOut"`,
  /// `"default"`), or nil for any other string.
  package init?(name: String) {
    switch name {
    case "linear": self = .linear
    case "easeIn": self = .easeIn
    case "easeOut": self = .easeOut
    case "easeInOut": self = .easeInOut
    case "default": self = .default
    default: return nil
    }
  }

  /// The wire name of a named curve; nil for `bezier` and `steps`.
  package var name: String? {
    switch self {
    case .linear: return "linear"
    case .easeIn: return "easeIn"
    case .easeOut: return "easeOut"
    case .easeInOut: return "easeInOut"
    case .default: return "default"
    case .bezier, .steps: return nil
    }
  }

  /// The cubic-Bézier control points (x1, y1, x2, y2) of this curve, or nil for `steps`.
  package var controlPoints: (x1: Double, y1: Double, x2: Double, y2: Double)? {
    switch self {
    case .linear: return (0, 0, 1, 1)
    case .easeIn: return (0.42, 0, 1, 1)
    case .easeOut: return (0, 0, 0.58, 1)
    case .easeInOut: return (0.42, 0, 0.58, 1)
    case .default: return (0.25, 0.1, 0.25, 1)
    case .bezier(let x1, let y1, let x2, let y2): return (x1, y1, x2, y2)
    case .steps: return nil
    }
  }

  /// The progress at input time t. t is clamped to [0, 1] (NaN counts as 0), so the result at the ends is
  /// exactly 0 and 1.
  package func progress(at t: Double) -> Double {
    let t = clamp01(t)
    switch self {
    case .linear:
      return t
    case .steps(let n, let position):
      return Self.stepProgress(t, n: n, position: position)
    default:
      if t == 0 { return 0 }
      if t == 1 { return 1 }
      let bezier = UnitBezier(controlPoints!)
      return bezier.sampleY(bezier.solve(x: t))
    }
  }

  /// d(progress)/dt at input time t ∈ [0, 1] (t clamped); 0 on the flat parts of `steps`. At a Bézier end
  /// whose x speed is zero the slope is the limit along the curve (infinite when y still moves).
  package func slope(at t: Double) -> Double {
    let t = clamp01(t)
    switch self {
    case .linear:
      return 1
    case .steps:
      return 0
    default:
      let bezier = UnitBezier(controlPoints!)
      return bezier.slope(atParameter: bezier.solve(x: t))
    }
  }

  /// CSS step semantics (ignoring the "before flag", which only matters with fill modes):
  /// step = ⌊t·n⌋, plus one for jump-start, capped at n; output step / n.
  /// Counted in Double: for n near Int.max, t·n rounds to 2⁶³, which `Int(_:)` (or the + 1) would trap on.
  private static func stepProgress(_ t: Double, n: Int, position: StepPosition) -> Double {
    let count = Double(max(n, 1))
    var step = (t * count).rounded(.down)
    if position == .start { step += 1 }
    return min(max(step, 0), count) / count
  }
}

/// A cubic Bézier from (0, 0) to (1, 1) in polynomial form, solved for a given x.
///
/// x(s) = ((ax·s + bx)·s + cx)·s with cx = 3·x1, bx = 3·(x2 − x1) − cx, ax = 1 − cx − bx (likewise y).
/// x1, x2 are clamped to [0, 1], which keeps x(s) monotonic, so the root is unique and bisection always works.
struct UnitBezier {
  let ax: Double, bx: Double, cx: Double
  let ay: Double, by: Double, cy: Double

  init(_ p: (x1: Double, y1: Double, x2: Double, y2: Double)) {
    let x1 = clamp01(p.x1)
    let x2 = clamp01(p.x2)
    // Non-finite y would poison every sample; treat it as 0 (validation rejects it earlier).
    let y1 = p.y1.isFinite ? p.y1 : 0
    let y2 = p.y2.isFinite ? p.y2 : 0
    cx = 3 * x1
    bx = 3 * (x2 - x1) - cx
    ax = 1 - cx - bx
    cy = 3 * y1
    by = 3 * (y2 - y1) - cy
    ay = 1 - cy - by
  }

  @inline(__always) func sampleX(_ s: Double) -> Double { ((ax * s + bx) * s + cx) * s }
  @inline(__always) func sampleY(_ s: Double) -> Double { ((ay * s + by) * s + cy) * s }
  @inline(__always) func derivativeX(_ s: Double) -> Double { (3 * ax * s + 2 * bx) * s + cx }
  @inline(__always) func derivativeY(_ s: Double) -> Double { (3 * ay * s + 2 * by) * s + cy }

  /// dy/dx at parameter s, using the second derivatives' ratio where x′(s) vanishes (the ends of curves
  /// with x1 = 0 or x2 = 1).
  func slope(atParameter s: Double) -> Double {
    let dx = derivativeX(s)
    let dy = derivativeY(s)
    if abs(dx) > 1e-12 { return dy / dx }
    if abs(dy) > 1e-12 { return dy > 0 ? .infinity : -.infinity }
    // Both vanish: L'Hôpital with the second derivatives.
    let ddx = 6 * ax * s + 2 * bx
    let ddy = 6 * ay * s + 2 * by
    return abs(ddx) > 1e-12 ? ddy / ddx : 0
  }

  /// The parameter s ∈ [0, 1] with x(s) = x.
  ///
  /// Newton's method converges quadratically where x′(s) is not small; it is accepted only once its step is
  /// below 1e-12 (a step test, not a residual test, keeps s accurate where x′ is small). Otherwise bisection
  /// narrows [0, 1] to 1e-14, which bounds the error in y by about 3·max|y′|·1e-14.
  func solve(x: Double) -> Double {
    var s = x
    for _ in 0..<8 {
      let dx = derivativeX(s)
      if abs(dx) < 1e-6 { break }
      let step = (sampleX(s) - x) / dx
      s -= step
      if !(s >= 0 && s <= 1) { break }
      if abs(step) < 1e-12 { return s }
    }
    var lo = 0.0
    var hi = 1.0
    s = x
    while hi - lo > 1e-14 {
      let value = sampleX(s)
      if value == x { return s }
      if value < x { lo = s } else { hi = s }
      s = (lo + hi) / 2
    }
    return s
  }
}
