// Display links (CADisplayLink): animator code called once per frame of the transition, as UIKit calls a display
// link's target once per screen refresh. Unlike a custom driver (a pure function of timeline time, sampled and
// scrubbed at will), a display link's callback may do anything a completion may, so it runs only when time really
// passes: each `advance(by:)` with dt > 0 (a `transition/tick`, a real-time frame) is one frame, whatever the
// transition's motion (also while an interactive transition is paused). Sampling never runs one.
//
// Timestamps are on the transition's clock: seconds of `advance` since the start (the timeline's own time when the
// transition plays forward at speed 1). A frame from clock c0 to c1 calls each due link with timestamp c0 (the
// frame on screen) and target timestamp c1 (the frame being prepared), after the timeline has reached c1, so what
// the callback writes is in the frame at c1.

/// One display link of a transition.
package final class DisplayLink {
  /// The most frames per second the link wants (0: every frame). A link fires on the first frame after it was added
  /// or resumed, then on each frame at least 1 / rate after the one it last fired on.
  package var preferredFramesPerSecond: Double
  /// A paused link is not called; resumed, it fires on the next frame.
  package var isPaused = false {
    didSet { if !isPaused { lastFired = nil } }
  }
  package private(set) var isInvalidated = false
  /// The clock time of the frame the link last fired on; nil before the first and after a resume.
  var lastFired: Double?
  let callback: (_ timestamp: Double, _ targetTimestamp: Double) -> Void

  init(preferredFramesPerSecond: Double, callback: @escaping (Double, Double) -> Void) {
    self.preferredFramesPerSecond = preferredFramesPerSecond
    self.callback = callback
  }

  /// Stops the link for good (CADisplayLink.invalidate()).
  package func invalidate() { isInvalidated = true }

  /// Whether a frame ending at clock time `target` is due for the link.
  func isDue(at target: Double) -> Bool {
    guard !isPaused, !isInvalidated else { return false }
    guard let lastFired, preferredFramesPerSecond > 0 else { return true }
    return target - lastFired >= 1 / preferredFramesPerSecond - Transition.timeTolerance
  }
}

extension Transition {
  /// Adds a display link whose `callback(timestamp, targetTimestamp)` runs on each due frame (see `DisplayLink`)
  /// until it is invalidated or the transition ends.
  package func addDisplayLink(
    preferredFramesPerSecond: Double, _ callback: @escaping (_ timestamp: Double, _ targetTimestamp: Double) -> Void
  ) -> DisplayLink {
    let link = DisplayLink(preferredFramesPerSecond: preferredFramesPerSecond, callback: callback)
    displayLinks.append(link)
    return link
  }

  /// Whether a display link may still run animator code (one not invalidated and not paused): pending work, so that
  /// an animator that completes from a display link is not judged to have never completed.
  var hasRunningDisplayLinks: Bool { displayLinks.contains { !$0.isInvalidated && !$0.isPaused } }

  /// The clock moved from `from` to `to`: every due link runs, in the order they were added (links added meanwhile
  /// wait for the next frame), until the transition ends.
  func fireDisplayLinks(from: Double, to: Double) {
    displayLinks.removeAll { $0.isInvalidated }
    for link in displayLinks where !state.isEnded && link.isDue(at: to) {
      link.lastFired = to
      callout { link.callback(from, to) }
    }
    displayLinks.removeAll { $0.isInvalidated }
  }
}
