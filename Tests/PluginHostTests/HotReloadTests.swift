import PluginHost
import TestSupport
import Testing
import TransitionEngine

/// Hot reload at the same path: the edit-compile-preview loop. Two prebuilt generations of one plugin
/// (ReloadA: duration 0.25 s, ReloadB: 0.75 s, per their sources) are swapped at one path P, in place,
/// as `cp` or a build tool would.
@Suite struct HotReloadTests {
  @Test func reloadAtTheSamePathServesTheNewCodeWhileTheOldFinishes() throws {
    let folder = TemporaryFolder()
    let path = folder.path + "/libProbe.so"
    copyFile(BuildProducts.fixturePlugin("ReloadA"), to: path)
    let log = LogCapture()
    let registry = makeRegistry(folder: folder.path, log: log)

    let first = try registry.load(path: path)
    #expect(first.generation == 1 && first.info.version == "1.0.0-A")
    let leaseA = try registry.lease(animatorID: "probe")
    var instanceA = leaseA.makeInstance()
    #expect(instanceA?.transitionDuration() == 0.25)

    // Overwrite P in place with generation B and reload.
    copyFile(BuildProducts.fixturePlugin("ReloadB"), to: path)
    let second = try registry.reload(pluginID: "com.example.test.reload")
    #expect(second.generation == 2 && second.info.version == "1.0.0-B")
    #expect(second.path == path)
    #expect(registry.plugins.map(\.generation) == [2])

    // New transitions get B; the running one still calls A's code, which is still loaded.
    let leaseB = try registry.lease(animatorID: "com.example.test.reload/probe")
    let instanceB = leaseB.makeInstance()
    #expect(instanceB?.transitionDuration() == 0.75)
    #expect(instanceA?.transitionDuration() == 0.25)
    #expect(leaseA.generation.isRetired && !leaseA.generation.isShutDown)
    #expect(log.lines == ["com.example.test.reload: init A", "com.example.test.reload: init B"])

    // The old generation shuts down when its last transition ends (its instance, then its lease).
    instanceA = nil
    #expect(!leaseA.generation.isShutDown)
    leaseA.end()
    #expect(leaseA.generation.isShutDown)
    #expect(!leaseB.generation.isShutDown)
    #expect(log.lines.last == "com.example.test.reload: deinit A")

    // And the current generation still counts its own transition.
    #expect(registry.plugins.first?.runningTransitions == 1)
  }

  @Test func reloadWithoutRunningTransitionsShutsTheOldGenerationDownAtOnce() throws {
    let folder = TemporaryFolder()
    let path = folder.path + "/libProbe.so"
    copyFile(BuildProducts.fixturePlugin("ReloadA"), to: path)
    let log = LogCapture()
    let registry = makeRegistry(folder: folder.path, log: log)
    try registry.load(path: path)
    copyFile(BuildProducts.fixturePlugin("ReloadB"), to: path)
    try registry.reload(pluginID: "com.example.test.reload")
    #expect(
      log.lines == [
        "com.example.test.reload: init A", "com.example.test.reload: init B", "com.example.test.reload: deinit A",
      ])
    // Reloading the unchanged file makes a third generation with B's code again.
    try registry.reload(pluginID: "com.example.test.reload")
    #expect(registry.plugins.first?.generation == 3)
    #expect(try registry.lease(animatorID: "probe").makeInstance()?.transitionDuration() == 0.75)
  }

  @Test func failedReloadKeepsTheOldGeneration() throws {
    let folder = TemporaryFolder()
    let path = folder.path + "/libProbe.so"
    copyFile(BuildProducts.fixturePlugin("ReloadA"), to: path)
    let registry = makeRegistry(folder: folder.path)
    try registry.load(path: path)

    // Another plugin at that path: refused, A keeps serving.
    copyFile(BuildProducts.fixturePlugin("Minimal"), to: path)
    let wrongID = loadError { () throws(PluginLoadError) in try registry.reload(pluginID: "com.example.test.reload") }
    #expect(
      wrongID
        == .invalidDescriptor(
          path: path,
          reason: "the rebuilt file declares plugin id com.example.test.minimal, not com.example.test.reload"))

    // A broken build (truncated file): refused with 1002, A keeps serving.
    writeFile(path, Array(readFile(BuildProducts.fixturePlugin("ReloadB")).prefix(100)))
    let broken = loadError { () throws(PluginLoadError) in try registry.reload(pluginID: "com.example.test.reload") }
    guard case .notLoadable(path, _)? = broken else {
      Issue.record("expected notLoadable, got \(String(describing: broken))")
      return
    }

    // The file removed: 1001.
    _ = unlinkFile(path)
    let missing = loadError { () throws(PluginLoadError) in try registry.reload(pluginID: "com.example.test.reload") }
    #expect(missing == .fileNotFound(path: path))

    #expect(registry.plugins.map(\.generation) == [1])
    #expect(try registry.lease(animatorID: "probe").makeInstance()?.transitionDuration() == 0.25)
  }

  /// The issue's "done when": a transition running while its plugin is reloaded completes on the old code
  /// (A: 0.25 s, to view moved linearly to x = 100); the next one uses the new code (B: 0.75 s, x = 300).
  @Test func aTransitionRunningDuringReloadCompletesOnTheOldCodeTheNextUsesTheNew() throws {
    let folder = TemporaryFolder()
    let path = folder.path + "/libProbe.so"
    copyFile(BuildProducts.fixturePlugin("ReloadA"), to: path)
    let log = LogCapture()
    let registry = makeRegistry(folder: folder.path, log: log)
    try registry.load(path: path)

    let first = try PluginTransitionRun(registry, "probe")
    let generationA = first.animator.generation
    try first.transition.start()
    try first.transition.advance(by: 0.1)
    #expect(first.transition.duration == 0.25)
    // Linear from x = 0 to 100 over 0.25 s: 40 at 0.1 s.
    #expect(close(try first.state("to", at: 0.1)?.frame.origin.x, 40))

    copyFile(BuildProducts.fixturePlugin("ReloadB"), to: path)
    try registry.reload(pluginID: "com.example.test.reload")
    #expect(generationA.isRetired && !generationA.isShutDown)

    let second = try PluginTransitionRun(registry, "probe")
    try second.transition.start()
    #expect(second.animator.generation.number == 2)
    #expect(second.transition.duration == 0.75)
    #expect(close(try second.state("to", at: 0.375)?.frame.origin.x, 150))
    // The current generation has a transition running: unloading it is refused.
    #expect(throws: PluginLoadError.busy(pluginID: "com.example.test.reload", runningTransitions: 1)) {
      try registry.unload(pluginID: "com.example.test.reload")
    }

    // The first transition goes on with A's code, which stays loaded until it ends.
    #expect(try first.run() == .completed)
    #expect(first.to.frame == Rect(x: 100, y: 0, width: 400, height: 800))
    #expect(generationA.isShutDown)
    #expect(log.lines.last == "com.example.test.reload: deinit A")

    #expect(try second.run() == .completed)
    #expect(second.to.frame == Rect(x: 300, y: 0, width: 400, height: 800))
    #expect(first.misbehaviors.isEmpty && second.misbehaviors.isEmpty)
    try registry.unload(pluginID: "com.example.test.reload")
    #expect(log.lines.last == "com.example.test.reload: deinit B")
  }

  @Test func unloadAfterReloadLetsRunningOldTransitionsFinish() throws {
    let folder = TemporaryFolder()
    let path = folder.path + "/libProbe.so"
    copyFile(BuildProducts.fixturePlugin("ReloadA"), to: path)
    let log = LogCapture()
    let registry = makeRegistry(folder: folder.path, log: log)
    try registry.load(path: path)
    let leaseA = try registry.lease(animatorID: "probe")
    copyFile(BuildProducts.fixturePlugin("ReloadB"), to: path)
    try registry.reload(pluginID: "com.example.test.reload")

    // The current generation (B) is idle, so unloading is allowed; A keeps running its transition.
    try registry.unload(pluginID: "com.example.test.reload")
    #expect(registry.plugins.isEmpty)
    #expect(throws: AnimatorLookupError.unknown(id: "probe")) { try registry.resolve(animatorID: "probe") }
    #expect(leaseA.makeInstance()?.transitionDuration() == 0.25)
    leaseA.end()
    #expect(log.lines.suffix(2) == ["com.example.test.reload: deinit B", "com.example.test.reload: deinit A"])
  }
}

#if canImport(Glibc)
  import Glibc
#endif

private func unlinkFile(_ path: String) -> Int32 { unlink(path) }

@Suite struct LeaseMisuseTests {
  @Test func staleResolutionsAndEndedLeasesFailSoftly() throws {
    let registry = makeRegistry(folder: BuildProducts.folder)
    try registry.load(path: BuildProducts.fixturePlugin("Minimal"))
    let resolved = try registry.resolve(animatorID: "fade")
    let lease = try #require(resolved.lease())
    lease.end()
    lease.end()  // idempotent
    #expect(lease.makeInstance() == nil)
    try registry.unload(pluginID: "com.example.test.minimal")
    #expect(resolved.lease() == nil)
  }
}
