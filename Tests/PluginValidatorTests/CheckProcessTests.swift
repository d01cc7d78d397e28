import Testing

@testable import PluginValidator

/// The process side, with /bin/sh standing in for the check process: results, crashes, exits without a result,
/// timeouts, processes that cannot start, and output larger than a pipe's buffer.
@Suite struct CheckProcessTests {
  /// A runner whose "check process" is `sh -c script sh <check> <plugin> <json>` ($1, $2, $3 in the script).
  func runner(_ script: String, timeout: Double = 20, jobs: Int = 2) -> CheckProcessRunner {
    CheckProcessRunner(
      command: CheckCommand(executable: "/bin/sh", leadingArguments: ["-c", script, "sh"]), timeout: timeout,
      jobs: jobs)
  }

  func job(_ kind: CheckKind = .load, animator: String? = nil) -> CheckJob {
    CheckJob(kind: kind, target: CheckTarget(animator: animator), plugin: "/plugins/libExample.so")
  }

  @Test func resultIsReadFromStdoutWithTheArgumentsPassedThrough() {
    let outcomes = runner(#"printf '{"status":"warn","explanation":"%s %s %s"}' "$1" "$2" "$3""#).run([job()])
    #expect(outcomes.map(\.outcome) == [CheckOutcome(.warn, "load /plugins/libExample.so {}")])
  }

  @Test func animatorArgumentsAreJSON() {
    let outcomes = runner(#"printf '{"status":"pass","explanation":"args"}'; printf '%s' "$3" >&2; exit 9"#)
      .run([job(.unknownExtension, animator: "a \"quoted\" id")])
    // The result wins over the exit status; the arguments themselves are checked through a crash report below.
    #expect(outcomes[0].outcome == .pass("args"))
    let echoed = runner(#"printf '%s\n' "$3" >&2; exit 4"#).run([job(.unknownExtension, animator: "a \"quoted\" id")])
    #expect(
      echoed[0].outcome
        == CheckOutcome(
          .crashed,
          #"the check process exited with status 4 without reporting a result; last stderr line: {"animator":"a \"quoted\" id"}"#
        ))
  }

  @Test func signalIsACrash() {
    let outcomes = runner("kill -SEGV $$").run([job()])
    #expect(outcomes[0].outcome == CheckOutcome(.crashed, "the check process died from SIGSEGV (Segmentation fault)"))
  }

  @Test func crashExplanationEndsWithTheLastStderrLine() {
    let outcomes = runner("echo 'first line' >&2; echo 'boom: the last words' >&2; echo >&2; kill -ABRT $$").run([job()]
    )
    #expect(
      outcomes[0].outcome
        == CheckOutcome(
          .crashed, "the check process died from SIGABRT (Aborted); last stderr line: boom: the last words"))
  }

  @Test func exitWithoutAResultIsACrash() {
    #expect(
      runner("exit 3").run([job()])[0].outcome
        == CheckOutcome(.crashed, "the check process exited with status 3 without reporting a result"))
    #expect(
      runner("echo 'not json'").run([job()])[0].outcome
        == CheckOutcome(.crashed, "the check process exited with status 0 without reporting a result"))
    #expect(
      runner(#"printf '{"status":"maybe","explanation":"x"}'"#).run([job()])[0].outcome.status == .crashed)
  }

  @Test func hangIsKilledAtTheTimeout() {
    let outcomes = runner("sleep 30", timeout: 0.2).run([job()])
    #expect(outcomes[0].outcome == .fail("timed out after 0.2 s (the check process was killed)"))
  }

  @Test func executableThatCannotStartFailsEveryCheck() {
    let runner = CheckProcessRunner(
      command: CheckCommand(executable: "/nonexistent/transition-host"), timeout: 5, jobs: 2)
    let outcomes = runner.run([job(), job(.descriptor)])
    #expect(outcomes.count == 2)
    for outcome in outcomes {
      #expect(outcome.outcome.status == .fail)
      #expect(outcome.outcome.explanation.hasPrefix("cannot start the check process: /nonexistent/transition-host"))
    }
  }

  /// 300 kB on stderr and 100 kB on stdout, more than a pipe holds: the runner must keep reading while the
  /// child writes, or both would wait forever.
  @Test func largeOutputDoesNotBlock() {
    let script =
      #"head -c 300000 /dev/zero | tr '\0' x >&2; printf '{"status":"pass","explanation":"'; "#
      + #"head -c 100000 /dev/zero | tr '\0' y; printf '"}'"#
    let outcomes = runner(script, timeout: 10).run([job()])
    #expect(outcomes[0].outcome.status == .pass)
    #expect(outcomes[0].outcome.explanation == String(repeating: "y", count: 100_000))
  }

  /// Outcomes come back in the jobs' order whatever the order the processes end in (1 to 4 jobs at a time).
  @Test(arguments: [1, 2, 4])
  func outcomesKeepTheJobOrder(jobs: Int) {
    // Later jobs end first: job i sleeps (5 - i) / 20 s.
    let kinds: [CheckKind] = [.scanRTLDNow, .entryPoint, .abiVersion, .descriptor, .load]
    let script =
      #"case "$1" in scan-rtld-now) s=0.2;; entry-point) s=0.15;; abi-version) s=0.1;; "#
      + #"descriptor) s=0.05;; *) s=0;; esac; sleep $s; printf '{"status":"pass","explanation":"%s"}' "$1""#
    let outcomes = runner(script, jobs: jobs).run(kinds.map { job($0) })
    #expect(outcomes.map(\.outcome.explanation) == kinds.map(\.rawValue))
  }

  /// The real check process refuses malformed arguments with status 2 and a usage line, and never reports.
  @Test func checkProcessRefusesMalformedArguments() {
    let runner = CheckProcessRunner(command: Build.checkProcess, timeout: 10, jobs: 1)
    let wrongCount = CheckProcessRunner(
      command: CheckCommand(executable: Build.checkProcess.executable, leadingArguments: ["load"]), timeout: 10,
      jobs: 1
    ).run([job()])
    #expect(wrongCount[0].outcome.status == .crashed)
    #expect(wrongCount[0].outcome.explanation.contains("exited with status 2"))
    #expect(wrongCount[0].outcome.explanation.contains("usage: --run-check <check> <plugin> <json-args>"))
    // An operation check without an operation is the check's own failure, reported normally.
    let missing = runner.run([CheckJob(kind: .duration, target: CheckTarget(animator: "fade"), plugin: "/x.so")])
    #expect(missing[0].outcome == .fail("the check duration needs an operation"))
  }
}
