import Glibc
import POSIX

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
    /// What it failed with.
    package var errno: Errno
  }

  /// Moves protocol output off `stdout` and points `stdout` at `stderr`.
  ///
  /// - Parameters:
  ///   - stdout: the descriptor stray output is written to (1 in the host; a pipe in tests).
  ///   - stderr: where that stray output should go instead (2 in the host).
  /// - Returns: a private duplicate of the original `stdout` (≥ 3, close-on-exec) for protocol messages.
  ///
  /// Corresponds to C `fcntl(F_DUPFD_CLOEXEC)` followed by `dup2(stderr, stdout)`.
  package static func takeOver(
    stdout: FileDescriptor = .standardOutput, stderr: FileDescriptor = .standardError
  ) throws(Failure) -> FileDescriptor {
    let protocolOutput: FileDescriptor
    do {
      protocolOutput = try stdout.duplicate(minimum: 3)
    } catch {
      throw Failure(call: "fcntl(F_DUPFD_CLOEXEC)", errno: error)
    }
    do {
      try stderr.duplicate(as: stdout)
    } catch {
      try? protocolOutput.close()
      throw Failure(call: "dup2", errno: error)
    }
    return protocolOutput
  }

  /// Opens `/dev/null` on each of `descriptors` that is closed.
  ///
  /// A parent may start the host with stdin or stderr closed (`transition-host <&-`). Left closed, the next
  /// `pipe(2)` or `open(2)` would take that number, and the host would read its own signal pipe as stdin or
  /// log into it. Call it first, before anything creates a descriptor.
  package static func reopenClosed(_ descriptors: [FileDescriptor] = [.standardInput, .standardError]) {
    for descriptor in descriptors where !descriptor.isOpen {
      // Not close-on-exec: it becomes the host's own stdin or stderr, which children may inherit.
      guard let null = try? FileDescriptor.open("/dev/null", .readWrite) else { continue }
      if null != descriptor {
        _ = try? null.duplicate(as: descriptor)
        try? null.close()
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
