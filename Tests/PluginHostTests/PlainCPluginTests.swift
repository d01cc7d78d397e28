import PluginHost
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The path docs/writing-plugins.md gives authors outside this repository: `cc -shared -fPIC` against the
/// header alone. Such a library does not depend on the Swift runtime, so unloading really unmaps it.
@Suite struct PlainCPluginTests {
  @Test(.enabled(if: CCompiler.isAvailable, "needs a C compiler"))
  func pluginBuiltWithCcLoadsAndIsUnmappedOnUnload() throws {
    let folder = TemporaryFolder()
    let output = folder.path + "/libMinimal.so"
    let built = CCompiler.sharedLibrary(
      files: [CCompiler.repositoryRoot + "/Tests/Fixtures/Minimal/minimal.c"], output: output,
      flags: ["-fvisibility=hidden", "-Wall", "-Werror", "-lm"])
    try #require(built, "cc failed")

    let log = LogCapture()
    let registry = makeRegistry(folder: folder.path, log: log)
    let loaded = try registry.load(path: output)
    #expect(loaded.info.id == "com.example.test.minimal")
    let lease = try registry.lease(animatorID: "fade")
    #expect(lease.makeInstance()?.transitionDuration() == 0.4)
    let generation = lease.generation
    let copy = generation.loadedCopyPath
    #expect(mappedFiles().contains(copy))
    lease.end()
    try registry.unload(pluginID: "com.example.test.minimal")
    #expect(generation.libraryDisposition == .closed)
    #expect(!mappedFiles().contains(copy))
    #expect(log.lines.last == "com.example.test.minimal: minimal deinit")
  }

  @Test func swiftPMBuiltPluginsStayMapped() throws {
    let registry = makeRegistry(folder: BuildProducts.folder)
    try registry.load(path: BuildProducts.fixturePlugin("Minimal"))
    let generation = try registry.resolve(animatorID: "fade").generation
    try registry.unload(pluginID: "com.example.test.minimal")
    #expect(generation.libraryDisposition == .keptMapped)
  }
}

/// The paths of the files mapped into this process (from /proc/self/maps; " (deleted)" stripped).
func mappedFiles() -> Set<String> {
  let text = String(decoding: readFile("/proc/self/maps"), as: UTF8.self)
  var result: Set<String> = []
  for line in text.split(separator: "\n") {
    guard let slash = line.firstIndex(of: "/") else { continue }
    var path = String(line[slash...])
    if path.hasSuffix(" (deleted)") { path.removeLast(" (deleted)".count) }
    result.insert(path)
  }
  return result
}
