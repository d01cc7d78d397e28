// Elementary functions from the C library, without Foundation. Internal to the engine's math.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

@inline(__always) func sine(_ x: Double) -> Double { sin(x) }
@inline(__always) func cosine(_ x: Double) -> Double { cos(x) }
@inline(__always) func arcCosine(_ x: Double) -> Double { acos(x) }
@inline(__always) func exponential(_ x: Double) -> Double { exp(x) }
@inline(__always) func naturalLog(_ x: Double) -> Double { log(x) }
@inline(__always) func arcTangent2(_ y: Double, _ x: Double) -> Double { atan2(y, x) }
@inline(__always) func tangent(_ x: Double) -> Double { tan(x) }
@inline(__always) func arcSine(_ x: Double) -> Double { asin(x) }
