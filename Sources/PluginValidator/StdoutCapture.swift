import POSIX

#if canImport(Glibc)
  import Glibc
#endif

/// Points fd 1 at an unlinked temporary file for the rest of a check process, so that anything a plugin writes
/// to stdout (printf, puts, write(1, …)) is kept and can be counted, and never reaches the result channel.
///
/// A file, not a pipe: a plugin that prints a lot can never block on a full pipe.
final class StdoutCapture {
  private let file: FileDescriptor

  /// Starts capturing; nil (with errno's text in `failure`) when no temporary file can be made.
  init?(failure: inout String) {
    let file: FileDescriptor
    do {
      let made = try FileDescriptor.temporaryFile(prefix: "transition-host-validate-stdout-")
      unlink(made.path)
      file = made.descriptor
    } catch {
      failure = error.description
      return nil
    }
    // C stdio may hold earlier output in its buffer: flush it to where it was going before switching.
    fflush(nil)
    do {
      try file.duplicate(as: .standardOutput)
    } catch {
      failure = error.description
      try? file.close()
      return nil
    }
    self.file = file
  }

  /// Everything written to fd 1 so far (C stdio buffers flushed first), at most `limit` bytes of it, and the
  /// total count.
  func written(limit: Int = 200) -> (count: Int, prefix: [UInt8]) {
    fflush(nil)
    guard let count = try? file.status().size else { return (0, []) }
    var prefix = [UInt8](repeating: 0, count: min(count, limit))
    let read = (try? file.read(fromAbsoluteOffset: 0, into: &prefix)) ?? 0
    return (count, Array(prefix.prefix(read)))
  }
}
