// The plugin path: the built-in PullDown animator (a Swift plugin on TransitionKit, loaded with dlopen) driving
// a transition made and driven as the host does it (the transition service's TransitionFactory and driver), one
// 120 Hz step at a time.

import PluginHost
import TransitionEngine
import TransitionService

#if canImport(Glibc)
  import Glibc
#endif

/// The folder of this executable, where SwiftPM puts the plugins it built in the same configuration.
func executableFolder() -> String {
  guard let resolved = realpath("/proc/self/exe", nil) else { return "." }
  defer { free(resolved) }
  let path = String(cString: resolved)
  return String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
}

/// A PullDown presentation on a fresh scene, started: the presenter with a label, the presented view with content.
func makePullDown(_ factory: TransitionFactory) throws -> LocalTransitionDriver {
  let scene = Scene(containerSize: Size(width: 400, height: 800))
  let presenter = try scene.makeView(id: "presenter")
  presenter.frame = Rect(x: 0, y: 0, width: 400, height: 800)
  let label = try scene.makeView(id: "label")
  label.frame = Rect(x: 20, y: 40, width: 200, height: 30)
  presenter.addSubview(label)
  let presented = try scene.makeView(id: "presented")
  presented.frame = Rect(x: 0, y: 0, width: 400, height: 800)
  let content = try scene.makeView(id: "content")
  content.frame = Rect(x: 10, y: 100, width: 380, height: 600)
  presented.addSubview(content)
  scene.container.addSubview(presenter)
  let driver = try factory.make(
    TransitionRequest(
      animator: "pull-down", operation: .present, trees: ViewTrees(scene: scene, fromRoot: presenter, toRoot: presented)
    ))
  try driver.start()
  return driver
}

/// Nil (with a line on stderr) when the plugin is not built: `make bench` builds it.
func pluginCases(_ effort: Effort) -> [Figure] {
  let path = executableFolder() + "/libTransitionPluginPullDown.so"
  let registry = PluginRegistry(searchPath: PluginSearchPath(builtInFolder: nil, pluginDirs: [executableFolder()]))
  do {
    try registry.load(path: path)
  } catch {
    warn("skipping the plugin cases: cannot load \(path): \(error)")
    return []
  }
  let factory = TransitionFactory(catalog: PluginAnimatorCatalog(registry: registry))
  var figures: [Figure] = []
  let step = 1.0 / 120
  do {
    // One transition per op: made, started and stepped at 120 Hz to its end.
    var steps = 0
    var runs = 0
    var figure = measure(
      "plugin: PullDown transition made + run at 120 Hz", iterations: effort.count(500), effort: effort
    ) { n in
      for _ in 0..<n {
        guard let driver = try? makePullDown(factory) else { fatalError("PullDown transition") }
        runs += 1
        var ended = false
        driver.onEvent = { if case .ended = $0 { ended = true } }
        while !ended {
          do { _ = try driver.perform(.advance(seconds: step)) } catch { fatalError("advance: \(error)") }
          steps += 1
        }
      }
    }
    figure.note = "\(steps / max(runs, 1)) steps per transition"
    figures.append(figure)

    // Sampling one live transition at 120 Hz times: the plugin's animations evaluated, no time passes.
    let driver = try makePullDown(factory)
    let transition = driver.transition
    var t = 0.0
    var sampled = 0
    figures.append(
      measure("plugin: PullDown sample(time:)", iterations: effort.count(20_000), effort: effort) { n in
        for i in 0..<n {
          t = Double(i % 60) * step
          guard let states = try? transition.sample(time: t) else { fatalError("sample") }
          sampled += states.count
        }
      })
    blackHole(sampled)
    // Ended as the host ends a transition it drops, so the plugin is not left calling into a released context.
    driver.terminate(reason: "benchmark done")
  } catch {
    warn("the plugin cases failed: \(error)")
  }
  return figures
}
