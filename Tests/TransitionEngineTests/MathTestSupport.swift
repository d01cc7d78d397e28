// Independent references for the math tests: nothing here calls the engine's solvers.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// |a − b| ≤ tolerance.
func mathClose(_ a: Double, _ b: Double, _ tolerance: Double) -> Bool { abs(a - b) <= tolerance }

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
