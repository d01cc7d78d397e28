import Glibc

/// Thin, errno-preserving wrappers over the fd system calls the host uses.
///
/// Everything here works on raw fds, never on Glibc's `FILE *` globals: stdio buffering would delay replies
/// (a client blocked on `readline()` must get its answer at once) and the globals are not concurrency-safe.
package enum FileDescriptorIO {
  /// The outcome of writing a whole buffer.
  package enum WriteResult: Equatable, Sendable {
    /// Every byte was written.
    case written
    /// The reader is gone (`EPIPE`) or the fd is unusable; carries `errno`.
    case failed(errno: Int32)
  }

  /// Writes every byte of `bytes`, looping on short writes and retrying on `EINTR`.
  ///
  /// Blocks while a pipe is full. Needs SIGPIPE ignored to turn a closed reader into `.failed(EPIPE)`
  /// instead of killing the process. Corresponds to a loop over C `write`.
  package static func writeAll(_ fd: Int32, _ bytes: inout [UInt8]) -> WriteResult {
    bytes.withUnsafeBytes { writeAll(fd, $0) }
  }

  /// Writes every byte of `buffer`; see `writeAll(_:_:)`.
  package static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> WriteResult {
    guard var pointer = buffer.baseAddress else { return .written }
    var remaining = buffer.count
    while remaining > 0 {
      let n = write(fd, pointer, remaining)
      if n > 0 {
        pointer += n
        remaining -= n
      } else if n < 0 && errno == EINTR {
        continue
      } else {
        return .failed(errno: n < 0 ? errno : EIO)
      }
    }
    return .written
  }

  /// Duplicates `fd` to the lowest free descriptor ≥ 3 with close-on-exec set, so children never inherit it.
  /// Returns nil (errno set) on failure. Corresponds to C `fcntl(fd, F_DUPFD_CLOEXEC, 3)`.
  package static func duplicateCloseOnExec(_ fd: Int32) -> Int32? {
    let copy = fcntl(fd, F_DUPFD_CLOEXEC, Int32(3))
    return copy >= 0 ? copy : nil
  }

  /// Creates a pipe with close-on-exec set on both ends atomically (no child spawned meanwhile by another
  /// thread can inherit it); `nonBlocking` adds `O_NONBLOCK` to both. Corresponds to C `pipe2`.
  package static func makePipe(nonBlocking: Bool = false) -> (read: Int32, write: Int32)? {
    var fds: [Int32] = [-1, -1]
    let flags = O_CLOEXEC | (nonBlocking ? O_NONBLOCK : 0)
    guard pipe2(&fds, flags) == 0 else { return nil }
    return (fds[0], fds[1])
  }

  /// C `pipe2`, looked up at run time: Glibc's Swift module leaves it out (it is declared under _GNU_SOURCE).
  private static let pipe2: @convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32 = {
    guard let symbol = dlsym(nil, "pipe2") else { fatalError("glibc without pipe2") }
    return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32).self)
  }()

  /// Reads until end of file (retrying `EINTR`); for tests and small files such as `/proc/<pid>/status`.
  package static func readToEnd(_ fd: Int32, chunkSize: Int = 65536) -> [UInt8] {
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: chunkSize)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, chunkSize) }
      if n > 0 {
        result.append(contentsOf: chunk[0..<n])
      } else if n < 0 && errno == EINTR {
        continue
      } else {
        return result
      }
    }
  }
}
