// Shared libraries built with the system C compiler while a test runs: plugins written the way
// docs/writing-plugins.md tells authors outside this repository to build them (`cc -shared -fPIC` against the header
// alone), and small helper or hostile libraries beside them.

#if canImport(Glibc)
  import Glibc
#endif

/// `cc`, and the repository's paths a C build needs.
package enum CCompiler {
  /// The compiler the tests use.
  package static let path = "/usr/bin/cc"
  /// Whether it is there (tests that need it are skipped otherwise).
  package static var isAvailable: Bool { access(path, X_OK) == 0 }

  /// The repository root, from this file's path (Tests/TestSupport/CLibraries.swift).
  package static let repositoryRoot = "/" + #filePath.split(separator: "/").dropLast(3).joined(separator: "/")
  /// The folder holding th_plugin.h.
  package static var headerFolder: String { repositoryRoot + "/Sources/CTransitionABI/include" }

  /// Compiles C `source` (text) into the shared library `output`; `flags` go after the source (libraries, -Wl,…).
  /// Returns whether cc succeeded.
  @discardableResult
  package static func sharedLibrary(source: String, output: String, flags: [String] = []) -> Bool {
    let file = output + ".c"
    writeFile(file, Array(source.utf8))
    return run([path, "-shared", "-fPIC", "-O1", "-I", headerFolder, file, "-o", output] + flags) == 0
  }

  /// Compiles C source files into the shared library `output` (as `sharedLibrary(source:…)`).
  @discardableResult
  package static func sharedLibrary(files: [String], output: String, flags: [String] = []) -> Bool {
    run([path, "-shared", "-fPIC", "-O1", "-I", headerFolder] + files + ["-o", output] + flags) == 0
  }

  /// Runs a program and returns its exit status (-1 when it could not be started or did not exit).
  package static func run(_ arguments: [String]) -> Int32 {
    var pid: pid_t = 0
    let argv = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    guard posix_spawn(&pid, arguments[0], nil, nil, argv, environ) == 0 else { return -1 }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
  }
}
