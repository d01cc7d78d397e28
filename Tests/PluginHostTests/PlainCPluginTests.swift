import PluginHost
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The path docs/writing-plugins.md gives authors outside this repository: `cc -shared -fPIC` against the
/// header alone. Such a library does not depend on the Swift runtime, so unloading really unmaps it.
@Suite struct PlainCPluginTests {
  static let compiler = "/usr/bin/cc"
  /// The repository root, from this file's path (Tests/PluginHostTests/PlainCPluginTests.swift).
  static let root = String(#filePath.split(separator: "/").dropLast(3).joined(separator: "/")).prefixedWithSlash

  @Test(.enabled(if: access(compiler, X_OK) == 0, "needs a C compiler"))
  func pluginBuiltWithCcLoadsAndIsUnmappedOnUnload() throws {
    let folder = TemporaryFolder()
    let output = folder.path + "/libMinimal.so"
    let status = run([
      Self.compiler, "-shared", "-fPIC", "-fvisibility=hidden", "-O1", "-Wall", "-Werror",
      "-I", Self.root + "/Sources/CTransitionABI/include", Self.root + "/Tests/Fixtures/Minimal/minimal.c",
      "-o", output, "-lm",
    ])
    try #require(status == 0, "cc failed")

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
private func mappedFiles() -> Set<String> {
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

/// Runs a program and returns its exit status (-1 when it could not be started).
private func run(_ arguments: [String]) -> Int32 {
  var pid: pid_t = 0
  let argv = arguments.map { strdup($0) } + [nil]
  defer { for pointer in argv { free(pointer) } }
  guard posix_spawn(&pid, arguments[0], nil, nil, argv, environ) == 0 else { return -1 }
  var status: Int32 = 0
  while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
  return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
}

extension String {
  fileprivate var prefixedWithSlash: String { hasPrefix("/") ? self : "/" + self }
}
