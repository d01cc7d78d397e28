import PluginValidator
import TestSupport
import Testing

/// The whole battery on fixture plugins: a sound plugin passes everything; each broken one fails exactly the
/// checks its fault breaks; crashes and hangs become results, never the validator's own crash or hang.
@Suite struct BatteryTests {
  static let libraryChecks = CheckKind.allCases.filter { $0.scope == .library }.map(\.rawValue)
  static let operationChecks = CheckKind.allCases.filter { $0.scope == .operation }.map(\.rawValue)

  /// TestPluginMinimal: "fade" takes every operation (the six standard ones are run), "slide" present and
  /// dismiss. 8 library checks + 2 unknown-extension + (6 + 2) operations × 8 checks = 74, all passing but one
  /// warning: "fade" animates only the to view, and a dismissal that keeps the presenter's view hands out no to
  /// view, so its block records nothing and completes at the first step, long before the 0.4 s it declares.
  @Test func minimalPassesEveryCheck() {
    let report = validate("Minimal")
    #expect(report.results.count == 8 + 2 + 8 * 8)
    #expect(report.names(.warn) == ["run-completes@fade/dismiss"])
    #expect(report.names(.pass).count == report.results.count - 1)
    #expect(
      report.explanation(.runCompletes, CheckTarget(animator: "fade", operation: "dismiss")).hasPrefix(
        "completed once, but after 0.0167 s, under half its duration of 0.4 s"))
    #expect(report.succeeded)
    #expect(report.exitStatus == 0)
    #expect(report.summaryLine == "73 passed, 0 failed, 0 crashed, 1 warning, 0 skipped")
    // Every operation of "fade" was run, and only the declared ones of "slide".
    let fadeOperations = Set(report.results.filter { $0.target.animator == "fade" }.compactMap(\.target.operation))
    #expect(fadeOperations == ["present", "dismiss", "push", "pop", "segue", "unwind"])
    let slideOperations = Set(report.results.filter { $0.target.animator == "slide" }.compactMap(\.target.operation))
    #expect(slideOperations == ["present", "dismiss"])
    #expect(report.explanation(.duration, CheckTarget(animator: "fade", operation: "present")) == "0.4 s")
  }

  /// The loader fixtures of the ABI work: each fails the check named after its broken rule; nothing of the
  /// animators can run, so those checks are skipped (once each, for the library).
  @Test(arguments: [
    ("NoEntry", ["entry-point", "load"], "does not export th_plugin_entry"),
    ("ABI99", ["abi-version", "load"], "built for plugin ABI 99."),
    ("Declines", ["abi-version", "load"], "th_plugin_entry returned NULL"),
    ("InitFails", ["init-twice", "load"], "init returned false"),
    ("InvalidDuplicateAnimator", ["descriptor", "load"], "\"probe\" is used twice"),
    ("InvalidPluginID", ["descriptor", "load"], "is not a reverse-DNS id"),
    ("InvalidParamDefault", ["descriptor", "param-defaults", "load"], "default 1.5 is outside [0.0, 1.0]"),
    ("InvalidStructSize", ["descriptor", "load"], "struct_size 40 is smaller"),
    ("InvalidMissingFunction", ["descriptor", "load"], "animate_transition is NULL"),
  ])
  func loaderFixtureFailsTheExpectedCheck(fixture: String, failing: [String], phrase: String) throws {
    let report = validate(fixture)
    #expect(report.names(.fail) == failing)
    #expect(report.names(.crashed).isEmpty)
    let first = try #require(report.results.first { $0.check == failing[0] })
    #expect(first.explanation.contains(phrase), "\(first.explanation)")
    #expect(report.exitStatus == 1)
    // The animator checks, once each, skipped for the library as a whole.
    let skippedAnimatorChecks = report.results.filter { $0.target == .library && $0.status == .skip }
      .map(\.check).filter { !Self.libraryChecks.contains($0) }
    #expect(skippedAnimatorChecks == ["unknown-extension"] + Self.operationChecks)
  }

  /// One animator per fault: each fault fails the one check it breaks, and the checks that cannot be judged
  /// because of it skip and name that check.
  @Test func eachFaultFailsItsOwnChecks() {
    let report = validate("ValidateFaulty")
    #expect(report.names(.fail).filter { !$0.contains("@") }.isEmpty, "library checks must pass")
    let expected: [String: [String]] = [
      "sound": [],
      "never-completes": ["run-completes"],
      "completes-twice": ["run-completes"],
      "ignores-cancel": ["cancel"],
      "nan-alpha": ["finite-values"],
      "nondeterministic": ["deterministic"],
      "prints": ["stdout-silent"],
      "negative-duration": ["duration"],
      "any-extension": ["unknown-extension"],
    ]
    for (animator, checks) in expected {
      #expect(report.failedChecks(of: animator) == checks, "\(animator)")
    }
    #expect(report.names(.crashed).isEmpty)
    // "sound" runs present and dismiss; the others present only: 8 + 9 + (2 + 8) × 8 results.
    #expect(report.results.count == 8 + 9 + 10 * 8)

    let present = { (animator: String) in CheckTarget(animator: animator, operation: "present") }
    #expect(report.explanation(.runCompletes, present("never-completes")).contains("without completeTransition"))
    #expect(report.explanation(.runCompletes, present("completes-twice")).contains("more than once"))
    #expect(report.explanation(.cancel, present("ignores-cancel")).hasPrefix("cancelled at 10 %: ended completed"))
    #expect(report.explanation(.finiteValues, present("nan-alpha")).contains("alpha nan is not finite"))
    #expect(report.explanation(.deterministic, present("nondeterministic")).contains("differs between two runs"))
    #expect(report.explanation(.stdoutSilent, present("prints")).contains("fade: animating"))
    #expect(report.explanation(.duration, present("negative-duration")).contains("returned -1 (negative)"))
    #expect(report.explanation(.unknownExtension, CheckTarget(animator: "any-extension")).contains("returned a table"))
    // A zero duration (what the host makes of -1) leaves nothing to reverse: skipped, not failed.
    #expect(report.status(.reverse, present("negative-duration")) == .skip)
    // Completing twice is run-completes' finding: the interaction checks skip, naming it.
    for check in [CheckKind.cancel, .finish, .reverse] {
      #expect(report.status(check, present("completes-twice")) == .skip, "\(check)")
      #expect(
        report.explanation(check, present("completes-twice")).hasPrefix(
          "a normal run already fails (see run-completes): completeTransition was called more than once"))
    }
    // Ignoring the cancel is cancel's finding: reverse judges only its other half and says why.
    #expect(report.status(.reverse, present("ignores-cancel")) == .pass)
    #expect(
      report.explanation(.reverse, present("ignores-cancel")).contains(
        "not run: running → cancelling: not judged, a plain cancel from 50 % already fails (see cancel)"))
  }

  /// The ABI work's misuse fixture (one animator per kind of host-API misuse, each otherwise finishing like a
  /// good fade), presenting only: host-API misuse fails finite-values, completing wrong fails the completion
  /// checks, bad durations fail duration, printing fails stdout-silent, a NULL create fails all that needs an
  /// instance.
  @Test func misuseFixtureFailsTheExpectedChecks() {
    let report = Validator(
      command: Build.checkProcess,
      settings: ValidatorSettings(exclude: "^(\(Self.libraryChecks.joined(separator: "|")))$", operations: ["present"])
    ).validate(plugin: Build.fixture("Misuse"))
    let expected: [String: [String]] = [
      "good": [],
      "bogus-handle": ["finite-values"], "stale-handle": ["finite-values"], "nan-setter": ["finite-values"],
      "bad-timing": ["finite-values"], "animate-after-complete": ["finite-values"],
      "setter-in-duration": ["finite-values"], "tree-in-driver": ["finite-values"],
      "keyframe-outside": ["finite-values"], "other-thread": ["finite-values"], "null-pointers": ["finite-values"],
      "bad-tree": ["finite-values"], "wrong-kind": ["finite-values"], "presentation-misuse": ["finite-values"],
      "complete-twice": ["run-completes"], "never-completes": ["run-completes"], "does-nothing": ["run-completes"],
      "negative-duration": ["duration"], "nan-duration": ["duration"],
      "writes-stdout": ["stdout-silent"],
      "create-fails": ["run-completes"],
    ]
    #expect(Set(report.results.compactMap(\.target.animator)) == Set(expected.keys))
    for (animator, checks) in expected {
      #expect(report.failedChecks(of: animator) == checks, "\(animator)")
    }
    #expect(report.names(.crashed).isEmpty)
    let present = { (animator: String) in CheckTarget(animator: animator, operation: "present") }
    #expect(report.explanation(.finiteValues, present("stale-handle")).contains("TH_ERR_STALE_HANDLE"))
    #expect(report.explanation(.finiteValues, present("other-thread")).contains("from another thread"))
    #expect(
      report.explanation(.duration, present("nan-duration")) == "without a context: transition_duration returned NaN")
    // Completing inside animate_transition leaves nothing to cancel: a warning, not a failure.
    #expect(report.status(.cancel, present("animate-after-complete")) == .warn)
    // An instance that cannot be made is run-completes' finding; what needs an instance skips.
    #expect(report.explanation(.runCompletes, present("create-fails")).contains("create returned NULL"))
    for check in [CheckKind.duration, .cancel, .finish, .reverse, .finiteValues, .deterministic] {
      #expect(report.status(check, present("create-fails")) == .skip, "\(check)")
    }
  }

  /// animate_transition writes through NULL: every check that starts a transition crashes (init-twice, which
  /// would run one too, does not apply: the plugin has no init); the checks before it pass; the validator
  /// finishes and says so.
  @Test func crashingPluginIsReportedAsCrashed() {
    let report = validate("ValidateCrash")
    #expect(report.names(.crashed) == Self.operationChecks.map { "\($0)@crash/present" })
    #expect(report.names(.skip) == ["init-twice"])
    #expect(report.names(.pass) == Self.libraryChecks.filter { $0 != "init-twice" } + ["unknown-extension@crash"])
    let crash = report.explanation(.runCompletes, CheckTarget(animator: "crash", operation: "present"))
    #expect(crash.hasPrefix("the check process died from SIGSEGV"))
    #expect(report.exitStatus == 1)
  }

  /// transition_duration spins forever: the check is killed at its timeout and fails; the validator returns.
  @Test func hangingPluginTimesOut() {
    let report = validate("ValidateHang", include: "^(load|duration)$", timeout: 1)
    #expect(report.names(.pass) == ["load"])
    #expect(report.names(.fail) == ["duration@hang/present"])
    #expect(
      report.explanation(.duration, CheckTarget(animator: "hang", operation: "present"))
        == "timed out after 1 s (the check process was killed)")
  }

  /// init and deinit without a counter: the host's own load works, but after init, init, deinit the plugin
  /// is torn down.
  @Test func uncountedInitFailsInitTwice() {
    let report = validate("ValidateInitUncounted", include: "^(init-twice|load|run-completes)$")
    #expect(report.names(.fail) == ["init-twice"])
    #expect(report.explanation(.initTwice).contains("no longer works"))
    #expect(report.names(.pass) == ["load", "run-completes@fade/present"])
  }

  /// A missing completeTransition is the finding of run-completes alone: the checks that need a normal run to
  /// complete (cancel, finish, reverse) skip and name it, and init-twice runs its transition with the animator
  /// that does complete.
  @Test func missingCompletionIsReportedByRunCompletesAlone() throws {
    let report = validate("ValidateIncomplete")
    #expect(report.names(.fail) == ["run-completes@never-completes/present"])
    #expect(report.names(.crashed).isEmpty)
    let broken = CheckTarget(animator: "never-completes", operation: "present")
    #expect(report.explanation(.runCompletes, broken).contains("without completeTransition"))
    for check in [CheckKind.cancel, .finish, .reverse] {
      #expect(report.status(check, broken) == .skip, "\(check)")
      #expect(report.explanation(check, broken).contains("see run-completes"), "\(check)")
    }
    #expect(report.status(.initTwice) == .pass)
    #expect(report.explanation(.initTwice).contains("sound present"), "\(report.explanation(.initTwice))")
    #expect(report.failedChecks(of: "sound").isEmpty)
  }

  /// With init but no animator that completes a normal run, init-twice has nothing to compare and skips.
  @Test func initTwiceSkipsWhenNoTransitionCompletes() {
    let report = validate("ValidateNeverCompletes", include: "^(init-twice|run-completes)$")
    #expect(report.names(.fail) == ["run-completes@never-completes/present"])
    #expect(report.status(.initTwice) == .skip)
    #expect(report.explanation(.initTwice).contains("see run-completes"), "\(report.explanation(.initTwice))")
  }

  /// A plugin without init has nothing to count: init-twice does not apply (before, it ran a transition and
  /// failed when that transition failed for reasons of its own).
  @Test(arguments: ["ValidateFaulty", "Misuse"])
  func initTwiceSkipsAPluginWithoutInit(fixture: String) {
    let report = validate(fixture, include: "^init-twice$")
    #expect(report.status(.initTwice) == .skip)
    #expect(report.explanation(.initTwice).hasPrefix("no init function"), "\(report.explanation(.initTwice))")
  }

  /// A library that needs a symbol nobody defines: refused by dlopen with RTLD_NOW, and so by the host.
  @Test func unresolvedSymbolFailsTheRTLDNowScan() {
    let report = validate("ValidateUnresolved", include: "^(scan-rtld-now|load)$")
    #expect(report.names(.fail) == ["scan-rtld-now", "load"])
    #expect(report.explanation(.scanRTLDNow).contains("undefined symbol: th_validator_fixture_function_nobody_defines"))
  }

  @Test func fileThatIsNotALibraryFailsToLoad() {
    let folder = TemporaryFolder()
    let path = folder.file("libNotAPlugin.so", "this is text, not an ELF shared object\n")
    let report = Validator(command: Build.checkProcess).validate(plugin: path)
    #expect(report.status(.scanRTLDNow) == .fail)
    #expect(report.explanation(.load).hasPrefix("error 1002:"))
    #expect(report.names(.pass).isEmpty)
    #expect(report.names(.crashed).isEmpty)
  }

  /// `--include` and `--exclude` pick checks by id; `load` runs regardless (it lists the animators) but is only
  /// reported when selected.
  @Test func includeAndExcludeSelectChecks() {
    #expect(validate("Minimal", include: "^load$").results.map(\.name) == ["load"])
    let deterministic = validate("Minimal", include: "^deterministic$")
    #expect(deterministic.results.count == 8)  // fade × 6 operations, slide × 2
    #expect(deterministic.results.allSatisfy { $0.check == "deterministic" && $0.status == .pass })
    #expect(validate("Minimal", include: "(").results.isEmpty)  // an invalid pattern selects nothing
    let library = validate("Minimal", exclude: "^(unknown-extension|\(Self.operationChecks.joined(separator: "|")))$")
    #expect(library.results.map(\.check) == Self.libraryChecks)
  }

  @Test func missingFileFails() {
    let report = Validator(command: Build.checkProcess).validate(plugin: "/nonexistent/libNothing.so")
    #expect(report.explanation(.scanRTLDNow) == "cannot open /nonexistent/libNothing.so: No such file or directory")
    #expect(report.explanation(.load).hasPrefix("error 1001:"))
    #expect(report.exitStatus == 1)
  }
}

/// The snap-back trap of explicit Core Animation animations is a finding of `run-completes`: it names the layer,
/// the key path and both values.
@Suite struct SnapBackFindingTests {
  @Test func aRemovedOnCompletionAnimationThatSnapsBackIsAWarning() {
    let report = validate("CoreAnimationC", include: "run-completes")
    let target = CheckTarget(animator: "snapback", operation: "present")
    #expect(report.names(.warn).contains("run-completes@snapback/present"))
    #expect(
      report.explanation(.runCompletes, target).hasPrefix(
        "completed, but layer to's position.x animation \"away\" snaps back at 1 s: it ends at 1000 and is removed on "
          + "completion, so the layer jumps to its model value 195"))
    // "slide" ends its position.y animation at 400, made for an 800-point container; the validator's is 844 high,
    // so the model centre is 422 and that layer jumps too.
    #expect(
      report.explanation(.runCompletes, CheckTarget(animator: "slide", operation: "present")).contains(
        "layer to's position.y animation \"slide\" snaps back at 1 s: it ends at 400"))
  }
}
