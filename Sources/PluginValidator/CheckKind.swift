/// Every check the validator runs, in the order of its report.
///
/// Library checks look at the file and its descriptor; animator checks create instances; operation checks run
/// real transitions of one animator with one operation on the engine, through the host's own plugin loader.
package enum CheckKind: String, Sendable, CaseIterable {
  case scanRTLDNow = "scan-rtld-now"
  case runpath = "runpath"
  case entryPoint = "entry-point"
  case abiVersion = "abi-version"
  case descriptor = "descriptor"
  case paramDefaults = "param-defaults"
  case initTwice = "init-twice"
  case load = "load"
  case unknownExtension = "unknown-extension"
  case duration = "duration"
  case runCompletes = "run-completes"
  case cancel = "cancel"
  case finish = "finish"
  case reverse = "reverse"
  case finiteValues = "finite-values"
  case deterministic = "deterministic"
  case stdoutSilent = "stdout-silent"

  /// What a check runs on.
  package enum Scope: Sendable {
    /// The library as a whole: runs once.
    case library
    /// Once per animator.
    case animator
    /// Once per animator and operation it declares (the six standard ones when it declares none).
    case operation
  }

  package var scope: Scope {
    switch self {
    case .scanRTLDNow, .runpath, .entryPoint, .abiVersion, .descriptor, .paramDefaults, .initTwice, .load: .library
    case .unknownExtension: .animator
    case .duration, .runCompletes, .cancel, .finish, .reverse, .finiteValues, .deterministic, .stdoutSilent:
      .operation
    }
  }

  /// One line: what passing proves (the docs and `--list` show it).
  package var summary: String {
    switch self {
    case .scanRTLDNow:
      "dlopen(RTLD_NOW | RTLD_LOCAL) of the file succeeds: every symbol it needs resolves at load time"
    case .runpath:
      "every RUNPATH (or RPATH) folder is absolute or $ORIGIN-relative, and only root or the user can write it"
    case .entryPoint:
      "the library exports the function th_plugin_entry"
    case .abiVersion:
      "th_plugin_entry returns a descriptor built for this host's ABI major version"
    case .descriptor:
      "the descriptor follows every rule of th_plugin.h (ids, names, functions, operations, parameters) "
        + "and th_plugin_entry returns the same one each time"
    case .paramDefaults:
      "every parameter has a known type and a default within its range (enum defaults among the options)"
    case .initTwice:
      "init may run twice on one loaded library (counted): both succeed, and the plugin still works after "
        + "the first deinit"
    case .load:
      "the host's own loader accepts the plugin (private copy, entry, descriptor, init)"
    case .unknownExtension:
      "get_extension returns NULL for ids it does not implement (unknown, or a known id with extra text)"
    case .duration:
      "transition_duration is finite and positive, without a context and inside a transition"
    case .runCompletes:
      "a normal run calls completeTransition(true) exactly once and ends in bounded time"
    case .cancel:
      "cancelled at 10 %, 50 % and 90 %, it calls completeTransition(false) exactly once and the scene is "
        + "restored exactly"
    case .finish:
      "finished from 10 %, 50 % and 90 %, it calls completeTransition(true) exactly once"
    case .reverse:
      "reversed mid-flight (running → cancelling, cancelling → finishing) it ends once, the right way"
    case .finiteValues:
      "no host-API misuse is reported (NaN or infinite values, bad handles, wrong phase) and every sampled "
        + "frame is finite"
    case .deterministic:
      "two runs give identical frames at the same times"
    case .stdoutSilent:
      "nothing is written to stdout (the protocol stream) while loading and running"
    }
  }
}
