#if canImport(Glibc)
  import Glibc
#endif

/// Points fd 1 at an unlinked temporary file for the rest of a check process, so that anything a plugin writes
/// to stdout (printf, puts, write(1, …)) is kept and can be counted, and never reaches the result channel.
///
/// A file, not a pipe: a plugin that prints a lot can never block on a full pipe.
final class StdoutCapture {
  private let fd: Int32

  /// Starts capturing; nil (with errno's text in `failure`) when no temporary file can be made.
  init?(failure: inout String) {
    let folder = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    var template = Array("\(folder)/transition-host-validate-stdout-XXXXXX".utf8CString)
    let file = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard file >= 0 else {
      failure = systemError(errno)
      return nil
    }
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    // C stdio may hold earlier output in its buffer: flush it to where it was going before switching.
    fflush(nil)
    guard dup2(file, 1) >= 0 else {
      failure = systemError(errno)
      close(file)
      return nil
    }
    fd = file
  }

  /// Everything written to fd 1 so far (C stdio buffers flushed first), at most `limit` bytes of it, and the
  /// total count.
  func written(limit: Int = 200) -> (count: Int, prefix: [UInt8]) {
    fflush(nil)
    var status = stat()
    guard fstat(fd, &status) == 0 else { return (0, []) }
    let count = Int(status.st_size)
    var prefix = [UInt8](repeating: 0, count: min(count, limit))
    let read = prefix.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
    return (count, Array(prefix.prefix(max(read, 0))))
  }
}
