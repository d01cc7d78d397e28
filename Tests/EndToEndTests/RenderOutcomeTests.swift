import Foundation
import Glibc
import JSON
import TestSupport
import Testing

/// What `render` says about how the transition ended: exit status 1 with the reason as the last line of stderr (and
/// in the HTML preview) when it did not end as asked; a missing animator's plugin load error as the reason; and what
/// `render --help` and `--scene sample` tell an author about the sample scene and the preview.
@Suite struct RenderOutcomeTests {
  static let faulty = "com.example.test.validate.faulty/"

  /// A private plugin folder holding `fixtures` under names the start-up auto-load takes (not `libTestPlugin*`).
  static func pluginFolder(_ fixtures: [String: String]) -> TemporaryFolder {
    let folder = TemporaryFolder()
    for (fixture, name) in fixtures { copyFile(BuildProducts.fixturePlugin(fixture), to: folder.path + "/" + name) }
    return folder
  }

  static func lastLine(_ text: String) -> String {
    text.split(separator: "\n").last.map(String.init) ?? ""
  }

  @Test(arguments: [
    (
      "never-completes", nil,
      "never-completes (present) failed: The animator let all its animations end without completing the transition. "
        + "(neverCompleted, error 2008)"
    ),
    (
      "nan-alpha", nil,
      "nan-alpha (present) ended completed, but the animator misbehaved: set_number: TH_ERR_INVALID_VALUE: alpha nan "
        + "is not finite"
    ),
    (
      "completes-twice", nil,
      "completes-twice (present) ended completed, but the animator misbehaved: complete_transition: "
        + "TH_ERR_WRONG_PHASE: complete_transition was already called"
    ),
    ("ignores-cancel", "update 0.5, cancel", "ignores-cancel (present) completed although the script cancelled it"),
  ])
  func aTransitionThatDidNotEndAsAskedFailsWithItsReasonLastAndInThePreview(
    animator: String, script: String?, reason: String
  ) throws {
    let plugins = Self.pluginFolder(["ValidateFaulty": "libFaulty.so"])
    let html = plugins.path + "/preview.html"
    let run = try RenderTests.run(
      ["render", "--plugin-dir", plugins.path, "--animator", Self.faulty + animator, "-o", html]
        + (script.map { ["--script", $0] } ?? []))
    #expect(run.status == .exited(1), "before: 0 (\(run.stderr))")
    #expect(Self.lastLine(run.stderr) == "transition-host: error: " + Self.faulty + reason)
    // Each warning once (the session puts it on stderr; render used to print it a second time).
    let warnings = run.stderr.split(separator: "\n").filter { $0.contains(": warn: t1: ") }
    #expect(Set(warnings).count == warnings.count, "\(warnings)")
    // The preview is written all the same (its frames show what happened), with the reason above the stage.
    let page = try String(contentsOfFile: html, encoding: .utf8)
    #expect(page.contains(#"<div id="th-failure" role="alert"><b>Failed:</b> "# + Self.faulty + reason + "</div>"))
    #expect(try RenderPreviewTests.pageData(atPath: html)["failure"]?.stringValue == Self.faulty + reason)
  }

  /// Scripts that cancel (directly, by a release that decides so, or by turning a finish around) end as asked.
  @Test(arguments: [
    nil, "update 0.5, cancel", "update 0.5, release -1", "update 0.5, finish, reverse",
    "update 0.5, release -1, reverse",
  ])
  func aTransitionThatEndsAsAskedSucceeds(script: String?) throws {
    let plugins = Self.pluginFolder(["ValidateFaulty": "libFaulty.so"])
    let html = plugins.path + "/preview.html"
    let run = try RenderTests.run(
      ["render", "--plugin-dir", plugins.path, "--animator", Self.faulty + "sound", "-o", html]
        + (script.map { ["--script", $0] } ?? []))
    #expect(run.status == .exited(0), "\(run.stderr)")
    #expect(!run.stderr.contains("error:"))
    #expect(!(try String(contentsOfFile: html, encoding: .utf8)).contains(#"id="th-failure""#))
    #expect(try RenderPreviewTests.pageData(atPath: html)["failure"] == .null)
  }

  @Test func aTransitionStillRunningAtMaxTimeFailsAndItsPreviewSaysSo() throws {
    let html = NSTemporaryDirectory() + "render-max-time-\(getpid()).html"
    defer { unlink(html) }
    let run = try RenderTests.run(
      ["render", "--animator", "pull-down", "--script", "update 0.2", "--max-time", "1", "-o", html])
    #expect(run.status == .exited(1))
    let reason = "pull-down (present) was still running after 1.0 s of timeline; stopped (--max-time)"
    #expect(Self.lastLine(run.stderr) == "transition-host: error: " + reason)
    #expect(try RenderPreviewTests.pageData(atPath: html)["failure"]?.stringValue == reason)
  }

  /// The animator's plugin did not load: the load error is the failure, not "unknown animator" (error 2001).
  @Test func aPluginThatFailedToLoadIsTheReasonItsAnimatorIsMissing() throws {
    let plugins = Self.pluginFolder(["ABI99": "libNewer.so"])
    let run = try RenderTests.run(["render", "--plugin-dir", plugins.path, "--animator", "com.example.test.abi99/x"])
    #expect(run.status == .exited(1))
    let last = Self.lastLine(run.stderr)
    #expect(
      last.hasPrefix(
        "transition-host: error: cannot start com.example.test.abi99/x (present): no loaded plugin has it, and a "
          + "plugin failed to load at start-up: \(plugins.path)/libNewer.so was built for plugin ABI 99."),
      "before: Unknown animator com.example.test.abi99/x. (error 2001); now: \(last)")
    #expect(last.hasSuffix("(the major versions must match) (error 1004)"))

    // A failure that names its plugin id is the reason only for that plugin's animators.
    let initFails = Self.pluginFolder(["InitFails": "libInitFails.so"])
    let named = try RenderTests.run([
      "render", "--plugin-dir", initFails.path, "--animator", "com.example.test.initfails/fade",
    ])
    #expect(named.status == .exited(1))
    #expect(
      Self.lastLine(named.stderr)
        == "transition-host: error: cannot start com.example.test.initfails/fade (present): its plugin failed to "
        + "load: plugin com.example.test.initfails (\(initFails.path)/libInitFails.so) failed to initialise: its init "
        + "returned false (error 1006)")
    let other = try RenderTests.run(["render", "--plugin-dir", initFails.path, "--animator", "com.example.other/x"])
    #expect(Self.lastLine(other.stderr).hasSuffix("Unknown animator com.example.other/x. (error 2001)"))
  }

  /// `--scene sample` alone prints the built-in scene; a file holding it renders exactly as the sample does.
  @Test(arguments: [("push", "home", "detail"), ("pop", "detail", "home")])
  func theSampleSceneIsPrintedAndRendersAsTheSample(operation: String, from: String, to: String) throws {
    let printed = try RenderTests.run(["render", "--scene", "sample", "--operation", operation])
    #expect(printed.status == .exited(0), "\(printed.stderr)")
    let scene = try JSON.parse(printed.lines.joined(separator: "\n"))
    #expect(scene["container"]?.serialized() == #"{"width":390,"height":844}"#)
    #expect(scene["from"]?["id"]?.stringValue == from)
    #expect(scene["to"]?["id"]?.stringValue == to)
    let file = NSTemporaryDirectory() + "render-sample-\(getpid())-\(operation).json"
    try printed.lines.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
    defer { unlink(file) }
    let fromFile = try RenderTests.run([
      "render", "--animator", "magic-move", "--operation", operation, "--scene", file,
    ])
    let sample = try RenderTests.run(["render", "--animator", "magic-move", "--operation", operation])
    #expect(fromFile.status == .exited(0) && sample.status == .exited(0))
    #expect(fromFile.lines.count > 2)
    #expect(fromFile.lines == sample.lines)
  }

  /// `render --help` lists the sample scene's views (ids and match keys) and the preview's URL parameters, and the
  /// page really reads every parameter listed.
  @Test func helpDocumentsTheSampleSceneAndThePreviewParameters() throws {
    let help = try RenderTests.run(["render", "--help"])
    #expect(help.status == .exited(0))
    let text = help.lines.joined(separator: "\n")
    for line in [
      "    home-card (match \"hero\")", "      home-card-label", "    detail-hero (match \"hero\")",
      "      detail-hero-title", "    home-row-3", "    detail-button",
    ] {
      #expect(help.lines.contains(line), "\(line)")
    }
    #expect(text.contains("  1  it did not"))
    let parameters = help.lines.drop { !$0.hasPrefix("The HTML preview reads parameters") }.dropFirst()
      .prefix { $0.hasPrefix("  ") }.map { String($0.dropFirst(2).prefix { $0 != "=" }) }
    #expect(
      parameters == ["t", "p", "frame", "speed", "scale", "play", "loop", "text", "bare", "onion", "select", "row"])
    let html = NSTemporaryDirectory() + "render-help-\(getpid()).html"
    defer { unlink(html) }
    #expect(try RenderTests.run(["render", "--animator", "flip", "-o", html, "--quiet"]).status == .exited(0))
    let page = try String(contentsOfFile: html, encoding: .utf8)
    for name in parameters {
      #expect(page.contains(#"params.get("\#(name)")"#) || page.contains(#"params.has("\#(name)")"#), "\(name)")
    }

    // docs/render.md says the same: each parameter's row, and every view id with its match key.
    let docs = try String(contentsOfFile: CCompiler.repositoryRoot + "/docs/render.md", encoding: .utf8)
    let rows = help.lines.drop { !$0.hasPrefix("The HTML preview reads parameters") }.dropFirst()
      .prefix { $0.hasPrefix("  ") }
    for row in rows {
      let name = String(row.dropFirst(2).prefix { $0 != " " })
      let meaning = row.dropFirst(2 + name.count).drop { $0 == " " }
      #expect(docs.contains("| `\(name)` | \(meaning) |"), "docs/render.md: \(name)")
    }
    let views = help.lines.drop { !$0.hasPrefix("The sample scene") }.dropFirst(2).prefix { $0.hasPrefix("  ") }
    #expect(views.count == 16)
    for view in views {
      let id = view.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: " (match \"hero\")", with: "")
      let documented = view.contains("match") ? "`\(id)` (**match `\"hero\"`**)" : "`\(id)`"
      #expect(docs.contains(documented), "docs/render.md: \(view)")
    }
  }
}
