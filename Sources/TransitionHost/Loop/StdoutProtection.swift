import Glibc

/// Keeps the protocol stream clean of anything a plugin or library prints.
///
/// stdout belongs to the protocol. At start-up, before any plugin can be loaded, the host takes a private,
/// close-on-exec duplicate of fd 1 for protocol output and points fd 1 at stderr, so a stray `printf`,
/// `puts` or Swift `print` lands in the log instead of corrupting a JSON-RPC message.
package enum StdoutProtection {
  /// Why the stream could not be protected.
  package struct Failure: Error, Equatable, Sendable {
    /// The C call that failed.
    package var call: String
    /// Its errno.
    package var errno: Int32
  }

  /// Moves protocol output off `stdoutFD` and points `stdoutFD` at `stderrFD`.
  ///
  /// - Parameters:
  ///   - stdoutFD: the descriptor stray output is written to (1 in the host; a pipe in tests).
  ///   - stderrFD: where that stray output should go instead (2 in the host).
  /// - Returns: a private duplicate of the original `stdoutFD` (≥ 3, close-on-exec) for protocol messages.
  ///
  /// Corresponds to C `fcntl(F_DUPFD_CLOEXEC)` followed by `dup2(stderrFD, stdoutFD)`.
  package static func takeOver(stdoutFD: Int32 = STDOUT_FILENO, stderrFD: Int32 = STDERR_FILENO)
    throws(Failure) -> Int32
  {
    guard let protocolFD = FileDescriptorIO.duplicateCloseOnExec(stdoutFD) else {
      throw Failure(call: "fcntl(F_DUPFD_CLOEXEC)", errno: errno)
    }
    while dup2(stderrFD, stdoutFD) < 0 {
      if errno == EINTR { continue }
      let failure = Failure(call: "dup2", errno: errno)
      close(protocolFD)
      throw failure
    }
    return protocolFD
  }

  /// Opens `/dev/null` on each of `fds` that is closed.
  ///
  /// A parent may start the host with stdin or stderr closed (`transition-host <&-`). Left closed, the next
  /// `pipe(2)` or `open(2)` would take that number, and the host would read its own signal pipe as stdin or
  /// log into it. Call it first, before anything creates a descriptor.
  package static func reopenClosed(_ fds: [Int32] = [STDIN_FILENO, STDERR_FILENO]) {
    for fd in fds where fcntl(fd, F_GETFD) < 0 && errno == EBADF {
      let null = open("/dev/null", O_RDWR)
      guard null >= 0 else { continue }
      if null != fd {
        _ = dup2(null, fd)
        close(null)
      }
    }
  }

  /// Ignores SIGPIPE for the whole process, so writing to a closed pipe returns `EPIPE` instead of killing it.
  ///
  /// Linux has no per-descriptor `F_SETNOSIGPIPE`, so the disposition is process-wide (as in sourcekit-lsp).
  package static func ignoreSIGPIPE() {
    signal(SIGPIPE, SIG_IGN)
  }
}
