// The options of `transition-host render`.

/// What `render` writes.
package enum RenderFormat: String, CaseIterable, Equatable, Sendable {
  /// JSON Lines: the `transition/frame` and `transition/didEnd` notifications exactly as the protocol sends them.
  case jsonl
  /// One self-contained HTML page that plays the frames.
  case html
}

/// `transition-host render` options (kept in `HostOptions.render`).
package struct RenderOptions: Equatable, Sendable {
  /// `--animator ID` (`pluginId/animatorId` or the short id), or `all` for every available animator.
  package var animator: String?
  /// `--operation OP` (default present).
  package var operation = "present"
  /// `--scene FILE.json|sample`; nil: the sample (given explicitly without `--animator`, `sample` prints it).
  package var scene: String?
  /// `--params JSON`: the animator's parameter values, a JSON object.
  package var params: String?
  /// `--fps N`: frames per second of the virtual clock (default 60). With `--times` the clock still steps at the
  /// default rate between the sample times (`SampleTimes.stepsPerSecond`).
  package var fps = 60.0
  /// Whether `--fps` was given (it and `--times` exclude each other).
  package var fpsIsExplicit = false
  /// `--times T,T,…|@FILE`: sample at exactly these seconds of the render clock instead of every 1/fps (one frame
  /// each; docs/render.md, "Sample times").
  package var times: [Double]?
  /// `--script "update 0.3, 0.6, release 1.2"`: runs the transition interactively.
  package var script: [RenderStep]?
  /// `--format jsonl|html`; nil: html when the output file ends in .html, else jsonl.
  package var format: RenderFormat?
  /// `-o FILE` (a folder with `--animator all`); nil or "-": standard output.
  package var output: String?
  /// `--frames FILE.jsonl`: draw recorded frames instead of running a transition ("-": standard input).
  package var framesInput: String?
  /// `--container WIDTH×HEIGHT` for `--frames` (default: the container view's bounds in the first frame).
  package var container: (width: Double, height: Double)?
  /// `--max-time S`: the longest timeline rendered before giving up on a transition that does not end.
  package var maxTime = 600.0
  /// `--title TEXT` of the page.
  package var title: String?
  /// `--quiet`: no progress line.
  package var quiet = false
  /// `--compare TRACE`: draw that golden trace's frames as outlines over the page's (docs/golden-traces.md); without
  /// `--animator`, the trace's own inputs are run.
  package var compare: String?

  package init() {}

  package static func == (lhs: RenderOptions, rhs: RenderOptions) -> Bool {
    lhs.animator == rhs.animator && lhs.operation == rhs.operation && lhs.scene == rhs.scene
      && lhs.params == rhs.params && lhs.fps == rhs.fps && lhs.fpsIsExplicit == rhs.fpsIsExplicit
      && lhs.times == rhs.times && lhs.script == rhs.script && lhs.format == rhs.format
      && lhs.output == rhs.output && lhs.framesInput == rhs.framesInput
      && lhs.container?.width == rhs.container?.width && lhs.container?.height == rhs.container?.height
      && lhs.maxTime == rhs.maxTime && lhs.title == rhs.title && lhs.quiet == rhs.quiet
      && lhs.compare == rhs.compare
  }
}
