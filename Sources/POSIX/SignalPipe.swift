import Glibc
import Synchronization

/// The write end of the one self-pipe, read by the signal handler. -1 when none is installed.
///
/// A global because a C signal handler cannot capture context; an `Atomic` so reading it in the handler is
/// lock-free (async-signal-safe) and Swift 6 accepts it as shared state. It is initialised (a `swift_once`)
/// by `SignalPipe.init` before the handler is installed, never first touched inside the handler.
private let signalPipeWriteFD = Atomic<Int32>(-1)

/// The descriptor the handler switches to non-blocking (the protocol output), -1 for none; same rules.
private let signalNonBlockingFD = Atomic<Int32>(-1)

/// Turns SIGTERM and SIGINT into bytes on a pipe that the event loop polls (the self-pipe trick).
///
/// The handler only `write(2)`s the signal number (and may switch one descriptor to non-blocking, below);
/// everything else happens on the loop's thread. Only one instance may exist at a time (the handler has one
/// global fd).
///
/// A SIGTERM must end the host even while it is blocked writing to a client that stopped reading. The handler is
/// installed without `SA_RESTART`, so a `write(2)` already blocked returns `EINTR` (or a short count); and it
/// sets `O_NONBLOCK` on `nonBlockingFD`, so a write that starts just after the signal cannot block either (it
/// returns `EAGAIN`). Both `write` and `fcntl` are async-signal-safe.
package final class SignalPipe {
  /// Poll this for readable; then call `drain()`.
  package let readEnd: FileDescriptor
  private let writeEnd: FileDescriptor
  private let signals: [Int32]
  private var previous: [sigaction] = []
  private var previousMask = sigset_t()

  /// Installs handlers for `signals` (SIGTERM and SIGINT by default) and unblocks them in the calling thread.
  ///
  /// - Parameter nonBlocking: a descriptor the handler switches to `O_NONBLOCK` (the protocol output; its owner
  ///   restores the flags before exiting, as the file description may be shared with a terminal).
  /// - Throws: what pipe2 failed with; `.resourceBusy` while another `SignalPipe` exists.
  package init(signals: [Int32] = [SIGTERM, SIGINT], nonBlocking: FileDescriptor? = nil) throws(Errno) {
    let ends = try FileDescriptor.pipe(nonBlocking: true)
    readEnd = ends.readEnd
    writeEnd = ends.writeEnd
    self.signals = signals
    let (exchanged, _) = signalPipeWriteFD.compareExchange(
      expected: -1, desired: ends.writeEnd.rawValue, ordering: .sequentiallyConsistent)
    guard exchanged else {
      // Only one SignalPipe may exist at a time: the handler has one global fd.
      try? ends.readEnd.close()
      try? ends.writeEnd.close()
      throw .resourceBusy
    }
    signalNonBlockingFD.store(nonBlocking?.rawValue ?? -1, ordering: .sequentiallyConsistent)
    for signal in signals {
      var action = sigaction()
      // Only async-signal-safe calls in here: write(2) and fcntl(2) on raw numbers, errno kept.
      action.__sigaction_handler.sa_handler = { number in
        let savedErrno = errno
        let fd = signalPipeWriteFD.load(ordering: .relaxed)
        if fd >= 0 {
          var byte = UInt8(truncatingIfNeeded: number)
          _ = write(fd, &byte, 1)
        }
        let output = signalNonBlockingFD.load(ordering: .relaxed)
        if output >= 0 {
          let flags = fcntl(output, F_GETFL)
          if flags >= 0 { _ = fcntl(output, F_SETFL, flags | O_NONBLOCK) }
        }
        errno = savedErrno
      }
      sigemptyset(&action.sa_mask)
      action.sa_flags = 0  // no SA_RESTART: blocked writes return EINTR
      var old = sigaction()
      sigaction(signal, &action, &old)
      previous.append(old)
    }
    // A parent may have spawned us with these signals blocked (the mask is inherited; thread pools block
    // signals): unblock them in this thread, which runs the loop, or SIGTERM would never arrive.
    var set = sigset_t()
    sigemptyset(&set)
    for signal in signals { sigaddset(&set, signal) }
    pthread_sigmask(SIG_UNBLOCK, &set, &previousMask)
  }

  /// Reads every pending signal number (in arrival order; a full pipe drops repeats, which is harmless).
  package func drain() -> [Int32] {
    var received: [Int32] = []
    var buffer = [UInt8](repeating: 0, count: 64)
    // Non-blocking: `.wouldBlock` (or any error) means the pipe is empty.
    while let count = try? readEnd.read(into: &buffer),
      count > 0
    {
      received += buffer[0..<count].map { Int32($0) }
    }
    return received
  }

  /// Restores the previous signal mask and dispositions and closes the pipe.
  deinit {
    pthread_sigmask(SIG_SETMASK, &previousMask, nil)
    for (signal, old) in zip(signals, previous) {
      var old = old
      sigaction(signal, &old, nil)
    }
    signalPipeWriteFD.store(-1, ordering: .sequentiallyConsistent)
    signalNonBlockingFD.store(-1, ordering: .sequentiallyConsistent)
    try? readEnd.close()
    try? writeEnd.close()
  }
}
