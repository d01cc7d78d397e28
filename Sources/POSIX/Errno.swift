import Glibc

/// An error number of a failed system call, as a typed error (swift-system's `Errno`).
///
/// The names say what happened (`.interrupted`, not `EINTR`); `description` is the C library's text for it.
package struct Errno: Error, RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  package var rawValue: Int32

  package init(rawValue: Int32) {
    self.rawValue = rawValue
  }

  /// The calling thread's `errno` now: read it right after the call that failed.
  package static var current: Errno { Errno(rawValue: errno) }

  /// strerror's text, e.g. "No such file or directory".
  package var description: String { String(cString: strerror(rawValue)) }

  /// `EINTR`: a signal arrived during the call.
  package static let interrupted = Errno(rawValue: EINTR)
  /// `EAGAIN` (`EWOULDBLOCK` on Linux): the call would block on a non-blocking descriptor.
  package static let wouldBlock = Errno(rawValue: EAGAIN)
  /// `EPIPE`: writing to a pipe nobody reads any more.
  package static let brokenPipe = Errno(rawValue: EPIPE)
  /// `EBADF`: not an open descriptor.
  package static let badFileDescriptor = Errno(rawValue: EBADF)
  /// `ENOENT`.
  package static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
  /// `ENOTDIR`: a component of the path is not a folder.
  package static let notDirectory = Errno(rawValue: ENOTDIR)
  /// `EEXIST`.
  package static let fileExists = Errno(rawValue: EEXIST)
  /// `EIO`; also what a write that wrote nothing reports.
  package static let ioError = Errno(rawValue: EIO)
  /// `EBUSY`.
  package static let resourceBusy = Errno(rawValue: EBUSY)
  /// `ECHILD`: no such child to wait for.
  package static let noChildProcess = Errno(rawValue: ECHILD)

  /// Runs `body` (a C call returning -1 with `errno` set on failure) and throws what it failed with; with
  /// `retryOnInterrupt`, an `EINTR` runs it again.
  @inline(__always)
  static func check<T: FixedWidthInteger>(retryOnInterrupt: Bool = true, _ body: () -> T) throws(Errno) -> T {
    while true {
      let result = body()
      if result != -1 { return result }
      let error = Errno.current
      if retryOnInterrupt && error == .interrupted { continue }
      throw error
    }
  }
}
