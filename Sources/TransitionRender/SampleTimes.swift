// `--times`: the moments a render (and so a golden trace) samples, instead of one frame every 1/fps
// (docs/render.md, "Sample times"; docs/golden-traces.md).

/// Sample times: seconds on the render clock, finite, from 0, strictly increasing, at most `maximumCount`.
package enum SampleTimes {
  /// The most sample times one render takes (a minute at 1,000 fps, and then some).
  package static let maximumCount = 100_000
  /// The latest sample time: the longest `--max-time`.
  package static let latest = 86_400.0
  /// The steps a render's clock still takes between sample times and through a script (its `wait`, `update …
  /// over`), 60 a second as `--fps`'s default: display links and scripts see the refreshes they see at 60 fps.
  package static let stepsPerSecond = 60.0

  /// What is wrong with a list of sample times: which one (0-based), and why.
  package struct Problem: Error, Equatable, Sendable {
    /// The offending time's position (nil: the list as a whole).
    package var index: Int?
    /// Why, naming the value as written: "'-0.1' is negative (sample times are seconds from 0)".
    package var reason: String

    /// "time 3 of 4: '-0.1' is negative …" (1-based, as a person counts).
    package var text: String {
      guard let index else { return reason }
      return "time \(index + 1): \(reason)"
    }
  }

  /// Parses `--times`'s list: numbers in seconds separated by commas, spaces, tabs or newlines; `#` starts a comment
  /// that runs to the end of its line (for a file of times).
  package static func parse(_ text: String) throws(Problem) -> [Double] {
    var words: [Substring] = []
    for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
      let content = line.prefix(while: { $0 != "#" })
      words += content.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" || $0 == "\r" })
    }
    var times: [Double] = []
    times.reserveCapacity(min(words.count, maximumCount + 1))
    for (index, word) in words.enumerated() {
      guard let value = Double(word) else {
        throw Problem(index: index, reason: "'\(word)' is not a number of seconds")
      }
      try check(
        value, written: String(word), at: index, after: times.last, writtenBefore: index > 0 ? words[index - 1] : "")
      times.append(value == 0 ? 0 : value)  // -0 is 0
      if times.count > maximumCount { throw tooMany(words.count) }
    }
    guard !times.isEmpty else { throw Problem(index: nil, reason: "no times given (e.g. 0,0.1,0.25,0.5)") }
    return times
  }

  /// Checks times that are numbers already (a trace's `inputs.times`).
  package static func check(_ times: [Double]) throws(Problem) {
    guard !times.isEmpty else { throw Problem(index: nil, reason: "no times given") }
    guard times.count <= maximumCount else { throw tooMany(times.count) }
    for (index, value) in times.enumerated() {
      let previous = index > 0 ? times[index - 1] : nil
      try check(value, written: "\(value)", at: index, after: previous, writtenBefore: previous.map { "\($0)" } ?? "")
    }
  }

  private static func check(
    _ value: Double, written: String, at index: Int, after previous: Double?, writtenBefore: some StringProtocol
  ) throws(Problem) {
    guard value.isFinite else { throw Problem(index: index, reason: "'\(written)' is not a finite number") }
    guard value >= 0 else {
      throw Problem(index: index, reason: "'\(written)' is negative (sample times are seconds from 0)")
    }
    guard value <= latest else {
      throw Problem(index: index, reason: "'\(written)' is past \(Int(latest)) s (the longest --max-time)")
    }
    if let previous, !(value > previous) {
      throw Problem(
        index: index,
        reason: "'\(written)' is not after the time before it ('\(writtenBefore)'): sample times must increase strictly"
      )
    }
  }

  private static func tooMany(_ count: Int) -> Problem {
    Problem(index: nil, reason: "more than \(maximumCount) times (\(count) given)")
  }

  /// `--times`'s value: the list itself, or `@FILE`, a file holding it (`@-` is not special: a file named `-`).
  package static func read(argument: String) throws(Problem) -> [Double] {
    guard argument.hasPrefix("@") else { return try parse(argument) }
    let path = String(argument.dropFirst())
    switch RenderCommand.readFile(path) {
    case .failure(let error): throw Problem(index: nil, reason: error.text)
    case .success(let bytes):
      do throws(Problem) { return try parse(String(decoding: bytes, as: UTF8.self)) } catch {
        throw Problem(index: nil, reason: "\(path): \(error.text)")
      }
    }
  }

  /// The interval of a tick from `start` toward `end` that lands on `end` exactly when one can: the engine adds each
  /// tick's `dt` to its time, so summing steps drifts (six ticks of 1/60 s end at 0.09999999999999999), while a tick
  /// by the difference from the exact `start` lands on `end`, except at a rounding tie that no single `dt` avoids
  /// (from 2.6020852139652106e-17 no sum is 0.016303162854411416): then the closest below, from which `end` is one
  /// exact difference away (Sterbenz). Never negative; check `start + dt == end`.
  package static func interval(from start: Double, to end: Double) -> Double {
    guard end > start else { return 0 }
    var dt = end - start
    while start + dt < end { dt = dt.nextUp }
    while dt > 0, start + dt > end { dt = dt.nextDown }
    return dt
  }
}
