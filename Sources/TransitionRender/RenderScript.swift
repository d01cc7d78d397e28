// The interactive script of `transition-host render --script`: what a finger does, one step after another.

/// One step of an interactive script.
package enum RenderStep: Equatable, Sendable {
  /// `update P` (or a bare number after another update): move to percent P. `update P over S` moves there in
  /// even steps, one per frame, across S seconds.
  case update(percent: Double, over: Double)
  /// `pause`.
  case pause
  /// `wait S`: let S seconds pass (frames keep coming while the transition moves).
  case wait(seconds: Double)
  /// `release V` or `release velocity V`: the release rule decides (V in percent per second).
  case release(velocity: Double)
  /// `finish [V]`.
  case finish(velocity: Double)
  /// `cancel [V]`.
  case cancel(velocity: Double)
  /// `reverse`.
  case reverse
}

/// A script that does not parse: the message names the offending step.
package struct RenderScriptError: Error, Equatable, Sendable {
  package var message: String
  package init(_ message: String) { self.message = message }
}

/// Parses scripts such as `"update 0.3, 0.6, release 1.2"` or `"update 0.8 over 0.4; wait 0.1; release velocity -1"`.
///
/// Grammar: steps separated by commas, semicolons or newlines; words are case-insensitive; numbers are decimal.
/// A step that is only a number continues the previous `update`.
package enum RenderScript {
  /// The steps, or an error naming the offending step.
  package static func parse(_ text: String) throws(RenderScriptError) -> [RenderStep] {
    var steps: [RenderStep] = []
    var previousWasUpdate = false
    let pieces = text.split(whereSeparator: { $0 == "," || $0 == ";" || $0 == "\n" })
    for piece in pieces {
      let words = piece.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map { $0.lowercased() }
      guard let first = words.first else { continue }
      let step: RenderStep
      if Double(first) != nil, previousWasUpdate {
        step = try update(words, from: 0, piece: piece)
      } else {
        switch first {
        case "update", "drag", "move":
          step = try update(words, from: 1, piece: piece)
        case "pause":
          try expect(words.count == 1, piece)
          step = .pause
        case "reverse":
          try expect(words.count == 1, piece)
          step = .reverse
        case "wait", "hold":
          try expect(words.count == 2, piece)
          let seconds = try number(words[1], piece)
          try expect(seconds >= 0 && seconds <= 3600, piece, "a wait lasts from 0 to 3600 seconds")
          step = .wait(seconds: seconds)
        case "release", "finish", "cancel":
          var rest = Array(words.dropFirst())
          if rest.first == "velocity" { rest.removeFirst() }
          try expect(rest.count <= 1, piece)
          try expect(first != "release" || rest.count == 1, piece, "release needs a velocity")
          let velocity = try rest.first.map { word throws(RenderScriptError) in try number(word, piece) } ?? 0
          step =
            first == "release"
            ? .release(velocity: velocity)
            : first == "finish" ? .finish(velocity: velocity) : .cancel(velocity: velocity)
        default:
          throw RenderScriptError(
            "invalid --script step '\(trimmed(piece))': expected update P [over S], pause, wait S, release V, "
              + "finish [V], cancel [V] or reverse")
        }
      }
      if case .update = step { previousWasUpdate = true } else { previousWasUpdate = false }
      steps.append(step)
    }
    guard !steps.isEmpty else { throw RenderScriptError("--script has no steps") }
    return steps
  }

  private static func update(_ words: [String], from index: Int, piece: Substring) throws(RenderScriptError)
    -> RenderStep
  {
    try expect(words.count == index + 1 || (words.count == index + 3 && words[index + 1] == "over"), piece)
    let percent = try number(words[index], piece)
    var over = 0.0
    if words.count == index + 3 {
      over = try number(words[index + 2], piece)
      try expect(over >= 0 && over <= 3600, piece, "'over' lasts from 0 to 3600 seconds")
    }
    return .update(percent: percent, over: over)
  }

  private static func number(_ word: String, _ piece: Substring) throws(RenderScriptError) -> Double {
    guard let value = Double(word), value.isFinite else {
      throw RenderScriptError("invalid --script step '\(trimmed(piece))': '\(word)' is not a number")
    }
    return value
  }

  private static func expect(_ condition: Bool, _ piece: Substring, _ why: String = "") throws(RenderScriptError) {
    guard condition else {
      throw RenderScriptError("invalid --script step '\(trimmed(piece))'" + (why.isEmpty ? "" : ": \(why)"))
    }
  }

  private static func trimmed(_ piece: Substring) -> String {
    String(piece.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
  }
}

extension RenderStep {
  /// The step as `--script` spells it (what a golden trace keeps): `RenderScript.parse` reads it back to this step.
  package var scriptText: String {
    switch self {
    case .update(let percent, let over): over > 0 ? "update \(percent) over \(over)" : "update \(percent)"
    case .pause: "pause"
    case .wait(let seconds): "wait \(seconds)"
    case .release(let velocity): "release \(velocity)"
    case .finish(let velocity): "finish \(velocity)"
    case .cancel(let velocity): "cancel \(velocity)"
    case .reverse: "reverse"
    }
  }
}
