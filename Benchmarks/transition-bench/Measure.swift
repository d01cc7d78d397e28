// The measuring harness: each case runs once to warm up, then `rounds` times; the fastest round counts (the
// least disturbed by the other processes on a shared machine). Time is CLOCK_MONOTONIC.

#if canImport(Glibc)
  import Glibc
#endif

/// Seconds on CLOCK_MONOTONIC (only differences mean anything).
func monotonicSeconds() -> Double {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// Keeps a computed value alive so the optimizer cannot drop the work that produced it.
@inline(never)
func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}

/// One row of the table.
struct Figure {
  var name: String
  /// Operations in the best round.
  var iterations: Int
  /// Seconds the best round took.
  var seconds: Double
  /// Bytes one operation moves, for a MB/s rate instead of ops/s.
  var bytesPerOp: Double?
  /// Extra figure shown after the rate ("12.5% of a core at 120 fps").
  var note: String = ""

  var perOp: Double { seconds / Double(max(iterations, 1)) }
}

/// How hard to measure: rounds per case and a scale on iteration counts (`--quick` shrinks both).
struct Effort {
  var rounds = 5
  var scale = 1.0

  func count(_ n: Int) -> Int { max(1, Int(Double(n) * scale)) }
}

/// Runs `body(iterations)` once to warm up and then `effort.rounds` times; returns the fastest round.
/// `body` does `iterations` operations and is timed as a whole.
func measure(
  _ name: String, iterations: Int, effort: Effort, bytesPerOp: Double? = nil, _ body: (Int) -> Void
) -> Figure {
  body(max(1, iterations / 10))
  var best = Double.infinity
  for _ in 0..<effort.rounds {
    let start = monotonicSeconds()
    body(iterations)
    best = min(best, monotonicSeconds() - start)
  }
  return Figure(name: name, iterations: iterations, seconds: best, bytesPerOp: bytesPerOp)
}

/// "12.3 ms", "450 ns": three significant digits in the largest unit below the value.
func formatDuration(_ seconds: Double) -> String {
  let units: [(Double, String)] = [(1, "s"), (1e-3, "ms"), (1e-6, "µs"), (1e-9, "ns")]
  for (scale, unit) in units where seconds >= scale || unit == "ns" {
    return significant(seconds / scale) + " " + unit
  }
  return "0"
}

/// Three significant digits, no exponent.
func significant(_ value: Double) -> String {
  let digits = value >= 100 ? 0 : value >= 10 ? 1 : 2
  return fixed(value, digits)
}

func fixed(_ value: Double, _ digits: Int) -> String {
  var scale = 1.0
  for _ in 0..<digits { scale *= 10 }
  let rounded = (value * scale).rounded() / scale
  var text = String(Int(rounded))
  if digits > 0 {
    let fraction = Int((abs(rounded) * scale).rounded()) % Int(scale)
    let padded = String(fraction)
    text += "." + String(repeating: "0", count: digits - padded.count) + padded
  }
  return text
}

/// "1.23 M/s", "456 MB/s".
func formatRate(_ figure: Figure) -> String {
  let perSecond = Double(figure.iterations) / figure.seconds
  if let bytes = figure.bytesPerOp { return significant(perSecond * bytes / 1e6) + " MB/s" }
  if perSecond >= 1e6 { return significant(perSecond / 1e6) + " M/s" }
  if perSecond >= 1e3 { return significant(perSecond / 1e3) + " k/s" }
  return significant(perSecond) + " /s"
}

/// The table: name, iterations, total time of the best round, time per operation, rate, note.
func printTable(_ figures: [Figure]) {
  let header = ["case", "iterations", "total", "per op", "rate", ""]
  let rows =
    [header]
    + figures.map {
      [$0.name, String($0.iterations), formatDuration($0.seconds), formatDuration($0.perOp), formatRate($0), $0.note]
    }
  var widths = [Int](repeating: 0, count: header.count)
  for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
  for (index, row) in rows.enumerated() {
    var line = ""
    for (i, cell) in row.enumerated() {
      let pad = String(repeating: " ", count: widths[i] - cell.count)
      // Names and notes left-aligned, numbers right-aligned.
      line += (i == 0 || i == row.count - 1 ? cell + pad : pad + cell) + "  "
    }
    while line.hasSuffix(" ") { line.removeLast() }
    print(line)
    if index == 0 { print(String(repeating: "-", count: line.count)) }
  }
}

/// A line on stderr (the table goes to stdout).
func warn(_ message: String) {
  let line = Array(("transition-bench: " + message + "\n").utf8)
  line.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
}
