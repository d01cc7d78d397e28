import CPOSIX
import Glibc

/// An open file descriptor: a thin value over the `Int32` the kernel hands out, in the style of swift-system's
/// `FileDescriptor`. It owns nothing: copies name the same descriptor, and `close()` is explicit.
///
/// Every call works on the raw descriptor, never on Glibc's `FILE *` globals: stdio buffering would delay replies
/// (a client blocked on `readline()` must get its answer at once) and the globals are not concurrency-safe.
/// Failures throw `Errno`; calls that may block retry `EINTR` unless asked not to (`retryOnInterrupt: false`, for
/// loops that must notice a signal).
package struct FileDescriptor: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  package var rawValue: Int32

  package init(rawValue: Int32) {
    self.rawValue = rawValue
  }

  package static let standardInput = FileDescriptor(rawValue: STDIN_FILENO)
  package static let standardOutput = FileDescriptor(rawValue: STDOUT_FILENO)
  package static let standardError = FileDescriptor(rawValue: STDERR_FILENO)

  package var description: String { "fd \(rawValue)" }

  // MARK: Reading and writing

  /// read(2) into `buffer`: the number of bytes read, 0 at end of file.
  package func read(into buffer: UnsafeMutableRawBufferPointer, retryOnInterrupt: Bool = true) throws(Errno) -> Int {
    try Errno.check(retryOnInterrupt: retryOnInterrupt) { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
  }

  /// read(2) into the start of `buffer` (at most `buffer.count` bytes): the number of bytes read, 0 at end of file.
  package func read(into buffer: inout [UInt8], retryOnInterrupt: Bool = true) throws(Errno) -> Int {
    try buffer.withUnsafeMutableBytes { bytes in
      Result { () throws(Errno) in try read(into: bytes, retryOnInterrupt: retryOnInterrupt) }
    }.get()
  }

  /// pread(2) into the start of `buffer`: reads at `offset` without moving the file position.
  package func read(fromAbsoluteOffset offset: Int, into buffer: inout [UInt8]) throws(Errno) -> Int {
    try buffer.withUnsafeMutableBytes { bytes in
      Result { () throws(Errno) in try Errno.check { pread(rawValue, bytes.baseAddress, bytes.count, off_t(offset)) } }
    }.get()
  }

  /// write(2) of `buffer`: the number of bytes written, which may be fewer than asked (a pipe, a signal).
  package func write(_ buffer: UnsafeRawBufferPointer, retryOnInterrupt: Bool = true) throws(Errno) -> Int {
    try Errno.check(retryOnInterrupt: retryOnInterrupt) { Glibc.write(rawValue, buffer.baseAddress, buffer.count) }
  }

  /// write(2) of `bytes[range]`: the number of bytes written, which may be fewer than asked.
  package func write(_ bytes: [UInt8], _ range: Range<Int>, retryOnInterrupt: Bool = true) throws(Errno) -> Int {
    try bytes.withUnsafeBytes { buffer in
      Result { () throws(Errno) in
        try write(UnsafeRawBufferPointer(rebasing: buffer[range]), retryOnInterrupt: retryOnInterrupt)
      }
    }.get()
  }

  /// Writes every byte of `buffer`, looping on short writes and retrying `EINTR`.
  ///
  /// Blocks while a pipe is full. Needs SIGPIPE ignored to turn a closed reader into `.brokenPipe` instead of killing
  /// the process. A write that writes nothing throws `.ioError`.
  package func writeAll(_ buffer: UnsafeRawBufferPointer) throws(Errno) {
    guard var pointer = buffer.baseAddress else { return }
    var remaining = buffer.count
    while remaining > 0 {
      let written = try write(UnsafeRawBufferPointer(start: pointer, count: remaining))
      guard written > 0 else { throw .ioError }
      pointer += written
      remaining -= written
    }
  }

  /// Writes every byte of `bytes`; see `writeAll(_:)`.
  package func writeAll(_ bytes: some Collection<UInt8>) throws(Errno) {
    let written = bytes.withContiguousStorageIfAvailable { buffer in
      Result { () throws(Errno) in try writeAll(UnsafeRawBufferPointer(buffer)) }
    }
    if let written { return try written.get() }
    try writeAll(Array(bytes))
  }

  /// Writes the UTF-8 of `text`; see `writeAll(_:)`.
  package func writeAll(_ text: String) throws(Errno) {
    var text = text
    try text.withUTF8 { buffer in Result { () throws(Errno) in try writeAll(UnsafeRawBufferPointer(buffer)) } }.get()
  }

  /// Reads until end of file (retrying `EINTR`): for small files such as `/proc/<pid>/status`, a recording, a pipe
  /// whose writer will close it.
  package func readToEnd(chunkSize: Int = 1 << 16) throws(Errno) -> [UInt8] {
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: chunkSize)
    while true {
      let count = try read(into: &chunk)
      if count == 0 { return result }
      result += chunk[0..<count]
    }
  }

  // MARK: Lifetime and flags

  /// close(2). The descriptor is gone even when this throws (Linux never leaves it open after `EINTR`).
  package func close() throws(Errno) {
    _ = try Errno.check(retryOnInterrupt: false) { Glibc.close(rawValue) }
  }

  /// Whether this number names an open descriptor (F_GETFD does not fail with `EBADF`).
  package var isOpen: Bool {
    fcntl(rawValue, F_GETFD) >= 0 || errno != EBADF
  }

  /// A duplicate with the lowest free number ≥ `minimum`, close-on-exec set so children never inherit it
  /// (`fcntl(F_DUPFD_CLOEXEC)`).
  package func duplicate(minimum: Int32 = 0) throws(Errno) -> FileDescriptor {
    FileDescriptor(rawValue: try Errno.check { fcntl(rawValue, F_DUPFD_CLOEXEC, minimum) })
  }

  /// dup2(2): makes `target` a copy of this descriptor (closing what `target` was), without close-on-exec.
  @discardableResult
  package func duplicate(as target: FileDescriptor) throws(Errno) -> FileDescriptor {
    FileDescriptor(rawValue: try Errno.check { dup2(rawValue, target.rawValue) })
  }

  /// Sets close-on-exec (`FD_CLOEXEC`), so a spawned child does not inherit the descriptor.
  package func setCloseOnExec() throws(Errno) {
    _ = try Errno.check { fcntl(rawValue, F_SETFD, FD_CLOEXEC) }
  }

  /// The file status flags (`F_GETFL`: `O_NONBLOCK`, `O_APPEND`, the access mode …).
  package func statusFlags() throws(Errno) -> Int32 {
    try Errno.check { fcntl(rawValue, F_GETFL) }
  }

  /// Replaces the file status flags (`F_SETFL`). They belong to the open file description, which a parent or a
  /// terminal may share: put back what you change.
  package func setStatusFlags(_ flags: Int32) throws(Errno) {
    _ = try Errno.check { fcntl(rawValue, F_SETFL, flags) }
  }

  /// Turns `O_NONBLOCK` on or off.
  package func setNonBlocking(_ nonBlocking: Bool) throws(Errno) {
    let flags = try statusFlags()
    try setStatusFlags(nonBlocking ? flags | O_NONBLOCK : flags & ~O_NONBLOCK)
  }

  // MARK: Files

  /// How a file is opened for reading or writing.
  package enum AccessMode: Sendable {
    case readOnly
    case writeOnly
    case readWrite

    var flags: Int32 {
      switch self {
      case .readOnly: O_RDONLY
      case .writeOnly: O_WRONLY
      case .readWrite: O_RDWR
      }
    }
  }

  /// Flags of `open`.
  package struct OpenOptions: OptionSet, Sendable {
    package var rawValue: Int32
    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// `O_CREAT` (with the permissions given to `open`).
    package static let create = OpenOptions(rawValue: O_CREAT)
    /// `O_TRUNC`.
    package static let truncate = OpenOptions(rawValue: O_TRUNC)
    /// `O_CLOEXEC`: not inherited by spawned children (what every descriptor but 0, 1 and 2 wants).
    package static let closeOnExec = OpenOptions(rawValue: O_CLOEXEC)
    /// `O_EXCL` (with `.create`): fail with `.fileExists` rather than open a file that is already there.
    package static let exclusive = OpenOptions(rawValue: O_EXCL)
  }

  /// open(2) of `path`; `permissions` apply to a file that `.create` makes.
  package static func open(
    _ path: String, _ mode: AccessMode, options: OpenOptions = [], permissions: mode_t = 0o644
  ) throws(Errno) -> FileDescriptor {
    FileDescriptor(rawValue: try Errno.check { Glibc.open(path, mode.flags | options.rawValue, permissions) })
  }

  /// A new, empty file `<TMPDIR or /tmp>/<prefix>XXXXXX` (mkstemp), close-on-exec, with its path; the caller
  /// unlinks it.
  package static func temporaryFile(prefix: String) throws(Errno) -> (descriptor: FileDescriptor, path: String) {
    var template = Array("\(temporaryFolder)/\(prefix)XXXXXX".utf8CString)
    let fd = try Errno.check { template.withUnsafeMutableBufferPointer { CPOSIX_mkostemp($0.baseAddress!, O_CLOEXEC) } }
    return (FileDescriptor(rawValue: fd), template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
  }

  /// `$TMPDIR`, or `/tmp` when it is unset or empty.
  package static var temporaryFolder: String {
    if let value = getenv("TMPDIR"), value.pointee != 0 { return String(cString: value) }
    return "/tmp"
  }

  /// What fstat(2) says about the open file.
  package func status() throws(Errno) -> FileStatus {
    var info = stat()
    _ = try Errno.check { fstat(rawValue, &info) }
    return FileStatus(info)
  }

  // MARK: Pipes

  /// A pipe, both ends close-on-exec from birth (pipe2 with `O_CLOEXEC`: no child spawned meanwhile by another
  /// thread can inherit an end and hold it open); `nonBlocking` adds `O_NONBLOCK` to both.
  package static func pipe(nonBlocking: Bool = false) throws(Errno) -> (
    readEnd: FileDescriptor, writeEnd: FileDescriptor
  ) {
    var fds: [Int32] = [-1, -1]
    let flags = O_CLOEXEC | (nonBlocking ? O_NONBLOCK : 0)
    _ = try Errno.check { CPOSIX_pipe2(&fds, flags) }
    return (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
  }
}

/// What stat(2) reports that the host uses.
package struct FileStatus: Sendable, Equatable {
  /// What kind of file.
  package enum Kind: Sendable, Equatable {
    case regular
    case directory
    case pipe
    case socket
    case symbolicLink
    case other
  }

  package var kind: Kind
  /// Bytes.
  package var size: Int
  /// The device and inode numbers (a pipe's inode shows in /proc as `pipe:[inode]`).
  package var device: UInt64
  package var inode: UInt64
  /// The permission bits with set-user-id, set-group-id and sticky (`st_mode & 07777`).
  package var permissions: mode_t
  /// The owner and the group.
  package var owner: uid_t
  package var group: gid_t
  /// Last modification and last status change, in nanoseconds since the epoch.
  package var modificationTime: Int64
  package var changeTime: Int64

  init(_ info: stat) {
    switch info.st_mode & S_IFMT {
    case S_IFREG: kind = .regular
    case S_IFDIR: kind = .directory
    case S_IFIFO: kind = .pipe
    case S_IFSOCK: kind = .socket
    case S_IFLNK: kind = .symbolicLink
    default: kind = .other
    }
    size = Int(info.st_size)
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
    permissions = info.st_mode & 0o7777
    owner = info.st_uid
    group = info.st_gid
    modificationTime = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    changeTime = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
  }

  /// stat(2) of `path` (links followed), or lstat(2) of the link itself when `followLinks` is false.
  package init(path: String, followLinks: Bool = true) throws(Errno) {
    var info = stat()
    _ = try Errno.check { followLinks ? stat(path, &info) : lstat(path, &info) }
    self.init(info)
  }

  /// Whether users other than the owner may write it: world-writable, or group-writable.
  package var isWritableByOthers: Bool { permissions & 0o002 != 0 }
  package var isWritableByGroup: Bool { permissions & 0o020 != 0 }
  /// The sticky bit: in a folder, only an entry's owner may rename or remove it (as in /tmp).
  package var isSticky: Bool { permissions & 0o1000 != 0 }
}
