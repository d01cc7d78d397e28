// Independent references for the math tests: nothing here calls the engine's solvers.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// |a − b| ≤ tolerance.
func mathClose(_ a: Double, _ b: Double, _ tolerance: Double) -> Bool { abs(a - b) <= tolerance }

/// Cubic Bézier through (0, 0), (x1, y1), (x2, y2), (1, 1) in Bernstein form, solved for x by plain bisection
/// on s to 1e-15 (no Newton), then y(s).
func mathReferenceBezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, at x: Double) -> Double {
  func bernstein(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
    let u = 1 - s
    return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
  }
  // The curve passes through (0, 0) and (1, 1); bisection could not resolve the ends where x′ = 0 in floating point.
  if x <= 0 { return 0 }
  if x >= 1 { return 1 }
  var lo = 0.0
  var hi = 1.0
  while hi - lo > 1e-15 {
    let mid = (lo + hi) / 2
    if bernstein(x1, x2, mid) < x { lo = mid } else { hi = mid }
  }
  return bernstein(y1, y2, (lo + hi) / 2)
}

/// Integrates m·x″ + c·x′ + k·x = 0, x(0) = 1, x′(0) = −v0 with classical RK4 and step `dt`, returning x at each
/// requested time (times must be ascending).
func mathRK4Spring(
  mass m: Double, stiffness k: Double, damping c: Double, v0: Double, times: [Double], dt: Double = 1e-4
) -> [Double] {
  var x = 1.0
  var v = -v0
  var t = 0.0
  var results: [Double] = []
  func acceleration(_ x: Double, _ v: Double) -> Double { (-c * v - k * x) / m }
  for target in times {
    while t < target - 1e-12 {
      let h = min(dt, target - t)
      let k1x = v
      let k1v = acceleration(x, v)
      let k2x = v + h / 2 * k1v
      let k2v = acceleration(x + h / 2 * k1x, v + h / 2 * k1v)
      let k3x = v + h / 2 * k2v
      let k3v = acceleration(x + h / 2 * k2x, v + h / 2 * k2v)
      let k4x = v + h * k3v
      let k4v = acceleration(x + h * k3x, v + h * k3v)
      x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
      v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
      t += h
    }
    results.append(x)
  }
  return results
}

/// sin / cos / exp / log for expectations.
func mathSin(_ x: Double) -> Double { sin(x) }
func mathCos(_ x: Double) -> Double { cos(x) }
func mathExp(_ x: Double) -> Double { exp(x) }
func mathLog(_ x: Double) -> Double { log(x) }
