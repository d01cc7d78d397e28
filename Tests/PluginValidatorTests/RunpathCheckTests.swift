import PluginValidator
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `runpath`: the folders a plugin's RUNPATH sends the dynamic loader to, judged on plugins built here with `cc`.
@Suite struct RunpathCheckTests {
  func plugin(runpath: String?, in folder: String) -> String {
    let output = folder + "/libRunpath.so"
    let built = CCompiler.sharedLibrary(
      files: [CCompiler.repositoryRoot + "/Tests/Fixtures/Minimal/minimal.c"], output: output,
      flags: ["-fvisibility=hidden", "-lm"] + (runpath.map { ["-Wl,-rpath,\($0)"] } ?? []))
    precondition(built, "cc failed")
    return output
  }

  func runpathResult(_ path: String) -> CheckResult? {
    Validator(command: Build.checkProcess, settings: ValidatorSettings(include: "^runpath$")).validate(plugin: path)
      .results.first
  }

  @Test(.enabled(if: CCompiler.isAvailable, "needs a C compiler"))
  func originAndPrivateFoldersPass() throws {
    // A private (0700) folder holding plugin/ and lib/ beside it, as a plugin ships with its helper libraries.
    let folder = TemporaryFolder()
    mkdir(folder.path + "/plugin", 0o755)
    mkdir(folder.path + "/lib", 0o755)
    #expect(runpathResult(plugin(runpath: nil, in: folder.path + "/plugin"))?.status == .pass)
    let result = try #require(
      runpathResult(plugin(runpath: "$ORIGIN:$ORIGIN/../lib:/usr/lib", in: folder.path + "/plugin")))
    #expect(result.status == .pass, "\(result.explanation)")
    #expect(result.explanation.contains("RUNPATH $ORIGIN:$ORIGIN/../lib:/usr/lib"))
  }

  /// `$ORIGIN/../lib` of a plugin directly in a private folder under /tmp is /tmp/lib: it does not exist, and any
  /// user can make it (the sticky bit protects only what exists).
  @Test(.enabled(if: CCompiler.isAvailable, "needs a C compiler"))
  func anOriginFolderThatOthersCouldCreateWarns() throws {
    let folder = TemporaryFolder()
    let result = try #require(runpathResult(plugin(runpath: "$ORIGIN/../lib", in: folder.path)))
    #expect(result.status == .warn)
    #expect(result.explanation.contains("its nearest existing folder /tmp is writable by every user (mode 1777)"))
  }

  @Test(.enabled(if: CCompiler.isAvailable, "needs a C compiler"))
  func relativeAndWorldWritableEntriesWarn() throws {
    let folder = TemporaryFolder()
    let open = folder.path + "/open"
    mkdir(open, 0o755)
    chmod(open, 0o777)
    let result = try #require(
      runpathResult(plugin(runpath: "lib:$ORIGIN/open:/tmp:/tmp/th-no-such-folder/lib", in: folder.path)))
    #expect(result.status == .warn)
    #expect(result.explanation.contains("lib is relative: it is resolved against the working directory"))
    #expect(result.explanation.contains("$ORIGIN/open (\(open)): \(open) is writable by every user (mode 0777)"))
    #expect(result.explanation.contains("/tmp (/tmp): /tmp is writable by every user (mode 1777)"))
    #expect(
      result.explanation.contains(
        "/tmp/th-no-such-folder/lib (/tmp/th-no-such-folder/lib): its nearest existing folder /tmp is writable"))
  }
}
