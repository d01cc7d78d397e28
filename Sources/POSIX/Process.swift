import CPOSIX
import Glibc

/// A child process, by its pid.
package struct ProcessID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  package var rawValue: pid_t

  package init(rawValue: pid_t) {
    self.rawValue = rawValue
  }

  package var description: String { "pid \(rawValue)" }

  /// waitpid(2), retrying `EINTR`: how the child ended, or nil when `blocking` is false and it still runs.
  package func wait(blocking: Bool = true) throws(Errno) -> TerminationStatus? {
    var status: Int32 = 0
    let reaped = try Errno.check { waitpid(rawValue, &status, blocking ? 0 : WNOHANG) }
    return reaped == 0 ? nil : TerminationStatus(waitStatus: status)
  }

  /// kill(2): sends `signal` (SIGTERM, SIGKILL …).
  package func send(_ signal: Int32) throws(Errno) {
    _ = try Errno.check { kill(rawValue, signal) }
  }

  /// pidfd_open(2): a close-on-exec descriptor that polls readable once the process has exited (a child that ends
  /// is then reaped with `wait`). Lets an event loop watch a child without SIGCHLD.
  package func openDescriptor() throws(Errno) -> FileDescriptor {
    FileDescriptor(rawValue: try Errno.check { CPOSIX_pidfd_open(rawValue) })
  }

  /// This process.
  package static var current: ProcessID { ProcessID(rawValue: getpid()) }

  /// This process's parent (1, or a subreaper, once the parent has ended).
  package static var parent: ProcessID { ProcessID(rawValue: getppid()) }

  /// prctl(PR_SET_PDEATHSIG): this process gets `signal` when the thread that spawned it ends, so a helper process
  /// never outlives its parent. Call it first thing in the child, then compare `parent` with the pid the parent
  /// passed down: a parent that ended before the call is not noticed by it.
  package static func setParentDeathSignal(_ signal: Int32) throws(Errno) {
    _ = try Errno.check { CPOSIX_set_parent_death_signal(signal) }
  }
}

/// How a process ended.
package enum TerminationStatus: Hashable, Sendable, CustomStringConvertible {
  /// It called exit (or returned from main) with this status.
  case exited(Int32)
  /// A signal ended it.
  case signaled(Int32)

  /// Decodes a waitpid(2) status with <sys/wait.h>'s own macros.
  package init(waitStatus status: Int32) {
    if CPOSIX_WIFSIGNALED(status) != 0 {
      self = .signaled(CPOSIX_WTERMSIG(status))
    } else {
      self = .exited(CPOSIX_WEXITSTATUS(status))
    }
  }

  /// "exit 3", "killed by signal 9".
  package var description: String {
    switch self {
    case .exited(let code): "exit \(code)"
    case .signaled(let signal): "killed by signal \(signal)"
    }
  }
}

/// A signal's conventional name ("SIGSEGV"), or nil for one without a well-known name.
package func signalName(_ signal: Int32) -> String? {
  let names: [Int32: String] = [
    SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGILL: "SIGILL", SIGFPE: "SIGFPE",
    SIGTRAP: "SIGTRAP", SIGKILL: "SIGKILL", SIGTERM: "SIGTERM", SIGINT: "SIGINT", SIGPIPE: "SIGPIPE",
    SIGXCPU: "SIGXCPU", SIGSYS: "SIGSYS", SIGHUP: "SIGHUP", SIGQUIT: "SIGQUIT", SIGUSR1: "SIGUSR1", SIGUSR2: "SIGUSR2",
  ]
  return names[signal]
}

/// A signal's name and the C library's description of it: "SIGSEGV (Segmentation fault)"; a signal without a
/// well-known name gives the description alone.
package func signalDescription(_ signal: Int32) -> String {
  let description = strsignal(signal).map { String(cString: $0) } ?? "signal \(signal)"
  guard let name = signalName(signal) else { return description }
  return "\(name) (\(description))"
}

/// Starting a program with posix_spawn(3): its descriptors 0, 1 and 2 (and any other numbers it is given), its
/// environment and a clean slate of signals.
///
/// Only the descriptors named in `standardStreams` reach the child (every other one of ours is close-on-exec),
/// so a child never holds another child's pipe open; `closesOtherDescriptors` also closes any that a parent of
/// ours left open without close-on-exec.
package struct ProcessSpawn {
  /// What the child finds on one of its descriptors 0, 1, 2.
  package enum Stream {
    /// A descriptor of ours, duplicated onto it (dup2 clears close-on-exec on the copy).
    case descriptor(FileDescriptor)
    /// A file opened by path for it (`/dev/null`, a capture file).
    case file(String, FileDescriptor.AccessMode, options: FileDescriptor.OpenOptions = [], permissions: mode_t = 0o644)
  }

  /// The program (an absolute path, or one relative to the current folder).
  package var executable: String
  /// argv[1…] (argv[0] is `executable`).
  package var arguments: [String]
  /// `NAME=value` entries; nil: this process's environment.
  package var environment: [String]?
  /// What the child's 0, 1 and 2 are, and any higher numbers it should find open (a channel, a shared page); a
  /// number left out is inherited as it is. The descriptors given must be numbered above every number used here,
  /// or one `dup2` could overwrite another's source.
  package var standardStreams: [Int32: Stream] = [:]
  /// Closes in the child every descriptor above the highest number of `standardStreams` (and above 2): nothing the
  /// spawning process inherited without close-on-exec reaches the child.
  package var closesOtherDescriptors = false
  /// The child's blocked signals (a parent's mask is inherited across exec, and test threads block signals).
  package var blockedSignals: [Int32] = []
  /// Signals reset to their default action in the child (nil: every signal), since ignored ones stay ignored
  /// across exec.
  package var defaultSignals: [Int32]? = nil

  package init(executable: String, arguments: [String] = [], environment: [String]? = nil) {
    self.executable = executable
    self.arguments = arguments
    self.environment = environment
  }

  /// This process's environment as `NAME=value` entries.
  package static var currentEnvironment: [String] {
    var entries: [String] = []
    var entry = environ
    while let variable = entry.pointee {
      entries.append(String(cString: variable))
      entry += 1
    }
    return entries
  }

  /// Starts the program.
  ///
  /// - Throws: what posix_spawn reports (`.noSuchFileOrDirectory` for a missing executable).
  package func spawn() throws(Errno) -> ProcessID {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for (number, stream) in standardStreams.sorted(by: { $0.key < $1.key }) {
      switch stream {
      case .descriptor(let descriptor):
        posix_spawn_file_actions_adddup2(&actions, descriptor.rawValue, number)
      case .file(let path, let mode, let options, let permissions):
        posix_spawn_file_actions_addopen(&actions, number, path, mode.flags | options.rawValue, permissions)
      }
    }
    if closesOtherDescriptors {
      let status = CPOSIX_spawn_addclosefrom(&actions, max(standardStreams.keys.max() ?? 2, 2) + 1)
      guard status == 0 else { throw Errno(rawValue: status) }
    }

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var mask = sigset_t()
    sigemptyset(&mask)
    for signal in blockedSignals { sigaddset(&mask, signal) }
    posix_spawnattr_setsigmask(&attributes, &mask)
    var defaults = sigset_t()
    if let defaultSignals {
      sigemptyset(&defaults)
      for signal in defaultSignals { sigaddset(&defaults, signal) }
    } else {
      sigfillset(&defaults)
    }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    let envp: [UnsafeMutablePointer<CChar>?] = (environment ?? Self.currentEnvironment).map { strdup($0) } + [nil]
    defer { for pointer in envp { free(pointer) } }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    guard status == 0 else { throw Errno(rawValue: status) }
    return ProcessID(rawValue: pid)
  }
}
