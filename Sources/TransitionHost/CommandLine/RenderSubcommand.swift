// The options of `transition-host render`; the render itself is TransitionRender's.

import JSON
import TransitionRender

extension HostCommandLine {
  /// `transition-host render [OPTION…]`: one transition on the virtual clock, as JSON Lines or an HTML preview
  /// (TransitionRender does the work).
  package static var render: Subcommand {
    Subcommand(
      name: "render",
      summary: "run one transition on the virtual clock; write its frames (JSON Lines) or an HTML preview",
      options: renderOptions, details: renderDetails
    ) { options, context in
      RenderCommand.run(
        options.render, plugins: options.pluginSetup, maxTransitions: options.maxTransitions, output: context.output,
        logger: context.logger)
    }
  }

  /// The exit statuses, the sample scene's views and the preview's URL parameters (docs/render.md says the same).
  private static var renderDetails: [String] {
    var lines = [
      "Exit status:",
      "  0  the transition ended as asked: completed, or cancelled where the script cancels it",
      "  1  it did not: it failed (e.g. the animator never completed it), was cancelled unasked, completed although",
      "     the script cancelled it, the animator misbehaved (a NaN, say), it ran past --max-time or could not start",
      "     (its plugin failed to load); the reason is the last line on stderr, and an HTML preview shows it too",
      "  2  bad options",
      "",
      "The sample scene (--scene sample): a \(Int(SampleScene.containerWidth)) x "
        + "\(Int(SampleScene.containerHeight)) container; present, push, segue and other",
      "operations go from the list (home) to the detail, dismiss, pop and unwind back. Its views, by id:",
    ]
    lines += SampleScene.outline(SampleScene.home).map { "  " + $0 }
    lines += SampleScene.outline(SampleScene.detail).map { "  " + $0 }
    lines += [
      "",
      "The HTML preview reads parameters from its URL, after # (or ?), joined with &: flip.html#p=0.5&bare=1",
    ]
    for (name, meaning) in PreviewHTML.urlParameters {
      lines.append("  " + name + String(repeating: " ", count: max(2, 14 - name.count)) + meaning)
    }
    lines.append("Keys: space plays or pauses, the left and right arrows step one frame. See docs/render.md.")
    return lines
  }

  /// `--fps` and `--times` both given (in either order).
  private static var fpsAndTimes: CommandLineError {
    CommandLineError(
      "'--fps' and '--times' cannot be used together: --fps N samples every 1/N s, --times at the moments it lists")
  }

  /// `render`'s options; `record` takes the ones that say what to run (GoldenSubcommands.swift).
  static var renderOptions: [OptionSpec] {
    [
      OptionSpec(
        ["--animator"], .value(placeholder: "ID") { o, v throws(CommandLineError) in o.render.animator = v },
        help: "the animator (pluginId/animatorId or its short id); 'all': each one, -o names a folder"),
      OptionSpec(
        ["--operation"],
        .value(placeholder: "OP") { o, v throws(CommandLineError) in
          guard !v.isEmpty else { throw CommandLineError("option '--operation' needs a value, not ''") }
          o.render.operation = v
        }, help: "present (default), dismiss, push, pop, segue, unwind, …"),
      OptionSpec(
        ["--scene"], .value(placeholder: "FILE.json|sample") { o, v throws(CommandLineError) in o.render.scene = v },
        help: "view trees {container, from, to} from a file, or the built-in 'sample' (default; without --animator, "
          + "--scene sample prints it for --operation)"),
      OptionSpec(
        ["--params"],
        .value(placeholder: "JSON") { o, v throws(CommandLineError) in
          guard let parsed = try? JSON.parse(v), parsed.kind == .object else {
            throw CommandLineError("invalid value for '--params': expected a JSON object such as '{\"duration\": 1}'")
          }
          o.render.params = v
        }, help: "the animator's parameters, a JSON object"),
      OptionSpec(
        ["--fps"],
        .value(placeholder: "N") { o, v throws(CommandLineError) in
          guard let fps = Double(v), fps.isFinite, fps >= 1, fps <= 1000 else {
            throw CommandLineError("invalid value '\(v)' for '--fps': expected a number from 1 to 1000")
          }
          guard o.render.times == nil else { throw fpsAndTimes }
          o.render.fps = fps
          o.render.fpsIsExplicit = true
        }, help: "frames per second of the virtual clock (default 60)"),
      OptionSpec(
        ["--times"],
        .value(placeholder: "T,T,…|@FILE") { o, v throws(CommandLineError) in
          guard !o.render.fpsIsExplicit else { throw fpsAndTimes }
          do throws(SampleTimes.Problem) { o.render.times = try SampleTimes.read(argument: v) } catch {
            throw CommandLineError("invalid value for '--times': \(error.text)")
          }
        },
        help: "instead of --fps: one frame at each of these seconds, exactly, e.g. 0,0.1,0.25 (increasing; @FILE: "
          + "read them from a file); see docs/render.md"),
      OptionSpec(
        ["--script"],
        .value(placeholder: "STEPS") { o, v throws(CommandLineError) in
          do throws(RenderScriptError) { o.render.script = try RenderScript.parse(v) } catch {
            throw CommandLineError(error.message)
          }
        },
        help: "interactive: e.g. \"update 0.3, 0.6, release 1.2\" (update P [over S], pause, wait S, release V, "
          + "finish [V], cancel [V], reverse)"),
      OptionSpec(
        ["--format"],
        .value(placeholder: "jsonl|html") { o, v throws(CommandLineError) in
          guard let format = RenderFormat(rawValue: v) else {
            throw CommandLineError("invalid value '\(v)' for '--format': expected jsonl or html")
          }
          o.render.format = format
        }, help: "output format (default: html for an -o FILE ending in .html, else jsonl)"),
      OptionSpec(
        ["-o", "--output"], .value(placeholder: "FILE") { o, v throws(CommandLineError) in o.render.output = v },
        help: "write there instead of standard output"),
      OptionSpec(
        ["--frames"],
        .value(placeholder: "FILE.jsonl") { o, v throws(CommandLineError) in o.render.framesInput = v },
        help: "draw recorded frames (JSON Lines of transition/frame) as HTML instead of running a transition"),
      OptionSpec(
        ["--container"],
        .value(placeholder: "WxH") { o, v throws(CommandLineError) in
          let parts = v.split(whereSeparator: { $0 == "x" || $0 == "×" || $0 == "," })
          guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w > 0, h > 0, w.isFinite,
            h.isFinite
          else {
            throw CommandLineError("invalid value '\(v)' for '--container': expected WIDTHxHEIGHT such as 390x844")
          }
          o.render.container = (w, h)
        }, help: "stage size for --frames (default: the container view's bounds)"),
      OptionSpec(
        ["--max-time"],
        .value(placeholder: "S") { o, v throws(CommandLineError) in
          guard let seconds = Double(v), seconds.isFinite, seconds > 0, seconds <= 86_400 else {
            throw CommandLineError("invalid value '\(v)' for '--max-time': expected seconds from 0 to 86400")
          }
          o.render.maxTime = seconds
        }, help: "give up on a transition still running after S seconds of timeline (default 600)"),
      OptionSpec(
        ["--title"], .value(placeholder: "TEXT") { o, v throws(CommandLineError) in o.render.title = v },
        help: "the HTML page's title"),
      OptionSpec(["--quiet", "-q"], .flag { $0.render.quiet = true }, help: "no progress line on stderr"),
      OptionSpec(
        ["--compare"], .value(placeholder: "TRACE") { o, v throws(CommandLineError) in o.render.compare = v },
        help: "HTML: outline a golden trace's expected frames over the actual ones (no --animator: run the trace's "
          + "inputs)"),
    ]
  }
}
