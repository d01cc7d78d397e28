#if canImport(Glibc)
  import Glibc
#endif

/// How a validation runs.
package struct ValidatorSettings: Sendable, Equatable {
  /// Seconds each check may take before its process is killed and the check fails (`--timeout S`).
  package var timeout: Double = ValidatorSettings.defaultTimeout
  /// Check processes at a time.
  package var jobs: Int = 2
  /// Only checks whose id matches this regular expression (`--include REGEX`); nil for all.
  package var include: String?
  /// No check whose id matches this regular expression (`--exclude REGEX`).
  package var exclude: String?
  /// Only these animators (short ids, `--animator ID`); empty for all.
  package var animators: [String] = []
  /// Only these operations (`--operation NAME`); empty for all an animator declares. An operation an animator
  /// does not declare is not run for it.
  package var operations: [String] = []

  /// 20 s: a check runs a few transitions on a virtual clock, well under a second for a sound plugin.
  package static let defaultTimeout = 20.0

  package init(
    timeout: Double = ValidatorSettings.defaultTimeout, jobs: Int = 2, include: String? = nil, exclude: String? = nil,
    animators: [String] = [], operations: [String] = []
  ) {
    self.timeout = timeout
    self.jobs = jobs
    self.include = include
    self.exclude = exclude
    self.animators = animators
    self.operations = operations
  }

  /// Why a pattern is not a valid regular expression, or nil when both are. `Validator` runs no check for an
  /// invalid pattern; check this first to tell the user.
  package func patternError() -> String? {
    for (option, pattern) in [("--include", include), ("--exclude", exclude)] {
      guard let pattern else { continue }
      do { _ = try Regex(pattern) } catch { return "invalid regular expression for '\(option)': \(pattern)" }
    }
    return nil
  }
}

/// Runs the battery on one plugin file, every check in its own process (see `CheckCommand`).
///
/// Two phases: the library checks first (`load` among them, which reports the animators and their
/// operations), then the animator and operation checks, one process per check, animator and operation. When
/// `load` does not pass, the second phase is reported as skipped.
package struct Validator {
  package var command: CheckCommand
  package var settings: ValidatorSettings

  package init(command: CheckCommand, settings: ValidatorSettings = ValidatorSettings()) {
    self.command = command
    self.settings = settings
  }

  /// Validates the plugin at `path` (relative paths are taken from the current directory).
  package func validate(plugin path: String) -> ValidationReport {
    let plugin = absolutePath(path)
    // An invalid pattern (see `patternError`) selects nothing rather than everything.
    let include = settings.include.map { try? Regex($0) }
    let exclude = settings.exclude.map { try? Regex($0) }
    func selected(_ kind: CheckKind) -> Bool {
      if let include {
        guard let include, kind.rawValue.firstMatch(of: include) != nil else { return false }
      }
      if let exclude {
        guard let exclude, kind.rawValue.firstMatch(of: exclude) == nil else { return false }
      }
      return true
    }
    let runner = CheckProcessRunner(command: command, timeout: settings.timeout, jobs: settings.jobs)

    // Phase 1: the library. `load` always runs: the animators come from it.
    let libraryKinds = CheckKind.allCases.filter { $0.scope == .library && (selected($0) || $0 == .load) }
    let libraryJobs = libraryKinds.map { CheckJob(kind: $0, target: .library, plugin: plugin) }
    let libraryOutcomes = runner.run(libraryJobs)
    var results: [CheckResult] = []
    var discovered: [DiscoveredAnimator]?
    var loadStatus = CheckStatus.skip
    for (job, outcome) in zip(libraryJobs, libraryOutcomes) {
      if job.kind == .load {
        loadStatus = outcome.outcome.status
        discovered = outcome.outcome.status == .pass ? outcome.outcome.animators : nil
      }
      if selected(job.kind) { results.append(result(job, outcome)) }
    }

    // Phase 2: every animator, and every operation it declares.
    let animatorKinds = CheckKind.allCases.filter { $0.scope == .animator && selected($0) }
    let operationKinds = CheckKind.allCases.filter { $0.scope == .operation && selected($0) }
    guard let animators = discovered else {
      for kind in animatorKinds + operationKinds {
        results.append(
          CheckResult(
            check: kind.rawValue, target: .library, status: .skip,
            explanation: "the host cannot load the plugin (load: \(loadStatus.rawValue)), so no animator can be run"))
      }
      return ValidationReport(plugin: plugin, results: results)
    }
    var jobs: [CheckJob] = []
    for animator in animators where settings.animators.isEmpty || settings.animators.contains(animator.id) {
      for kind in animatorKinds {
        jobs.append(CheckJob(kind: kind, target: CheckTarget(animator: animator.id), plugin: plugin))
      }
      for operation in animator.operationsToCheck
      where settings.operations.isEmpty || settings.operations.contains(operation) {
        for kind in operationKinds {
          jobs.append(
            CheckJob(kind: kind, target: CheckTarget(animator: animator.id, operation: operation), plugin: plugin))
        }
      }
    }
    for (job, outcome) in zip(jobs, runner.run(jobs)) { results.append(result(job, outcome)) }
    return ValidationReport(plugin: plugin, results: results)
  }

  private func result(_ job: CheckJob, _ outcome: CheckProcessOutcome) -> CheckResult {
    CheckResult(
      check: job.kind.rawValue, target: job.target, status: outcome.outcome.status,
      explanation: outcome.outcome.explanation, seconds: outcome.seconds)
  }
}

/// `path` made absolute against the current directory (not resolved: the user's spelling is kept).
func absolutePath(_ path: String) -> String {
  if path.hasPrefix("/") { return path }
  guard let cwd = getcwd(nil, 0) else { return path }
  defer { free(cwd) }
  let folder = String(cString: cwd)
  let relative = path.hasPrefix("./") ? String(path.dropFirst(2)) : path
  return folder == "/" ? "/" + relative : folder + "/" + relative
}

extension Validator {
  /// One golden trace to check (docs/golden-traces.md): the child process that compares it writes one result line
  /// (`CheckResultCoding`), as a battery check does.
  package struct GoldenCheck: Sendable {
    /// The trace file, for the result's explanation when its process fails.
    package var trace: String
    /// The animator (short id) and operation the trace runs, when it could be read (else nil: a library-level row).
    package var target: CheckTarget
    /// The child's command line after the executable (`validate --run-golden … TRACE`).
    package var arguments: [String]

    package init(trace: String, target: CheckTarget, arguments: [String]) {
      self.trace = trace
      self.target = target
      self.arguments = arguments
    }
  }

  /// Runs each golden trace's compare in its own process, with the battery's timeout and job limit; the results
  /// are `golden` rows, in the traces' order.
  package func validate(golden checks: [GoldenCheck]) -> [CheckResult] {
    let runner = CheckProcessRunner(command: command, timeout: settings.timeout, jobs: settings.jobs)
    let jobs = checks.map { CheckJob(kind: .load, target: $0.target, plugin: $0.trace, arguments: $0.arguments) }
    return zip(checks, runner.run(jobs)).map { check, outcome in
      CheckResult(
        check: "golden", target: check.target, status: outcome.outcome.status,
        explanation: outcome.outcome.explanation, seconds: outcome.seconds)
    }
  }
}
