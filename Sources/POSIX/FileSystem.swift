import CPOSIX
import Glibc

/// Paths and folders: thin wrappers over realpath(3), mkdir(2), mkdtemp(3), symlink(2), unlink(2), rmdir(2) and
/// readdir(3), in the style of the rest of the module (failures throw `Errno`).
package enum FileSystem {
  /// realpath(3): `path` absolute, with every symbolic link, "." and ".." resolved by the kernel.
  package static func realPath(_ path: String) throws(Errno) -> String {
    guard let resolved = realpath(path, nil) else { throw Errno.current }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// getcwd(3).
  package static func currentDirectory() throws(Errno) -> String {
    guard let cwd = getcwd(nil, 0) else { throw Errno.current }
    defer { free(cwd) }
    return String(cString: cwd)
  }

  /// mkdir(2) with `permissions` (the umask may take bits away, never add them).
  package static func makeDirectory(_ path: String, permissions: mode_t = 0o755) throws(Errno) {
    _ = try Errno.check { mkdir(path, permissions) }
  }

  /// mkdtemp(3): a new folder `<parent>/<prefix>XXXXXX`, mode 0700, with its path.
  package static func makeTemporaryDirectory(in parent: String, prefix: String) throws(Errno) -> String {
    var template = Array("\(parent)/\(prefix)XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) != nil }
    guard made else { throw Errno.current }
    return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
  }

  /// symlink(2): a link at `path` whose target is `target`.
  package static func makeSymbolicLink(at path: String, pointingTo target: String) throws(Errno) {
    _ = try Errno.check { symlink(target, path) }
  }

  /// rename(2).
  package static func rename(_ path: String, to newPath: String) throws(Errno) {
    _ = try Errno.check { Glibc.rename(path, newPath) }
  }

  /// unlink(2) of a file or a link (never what a link points to).
  package static func removeFile(_ path: String) throws(Errno) {
    _ = try Errno.check { unlink(path) }
  }

  /// rmdir(2) of an empty folder.
  package static func removeDirectory(_ path: String) throws(Errno) {
    _ = try Errno.check { rmdir(path) }
  }

  /// Removes `path` and, when it is a folder, everything below it; links are removed, never followed. Best effort:
  /// what cannot be removed stays.
  package static func removeTree(_ path: String) {
    guard let status = try? FileStatus(path: path, followLinks: false) else { return }
    if status.kind == .directory {
      for name in (try? entries(in: path)) ?? [] { removeTree(path + "/" + name) }
      try? removeDirectory(path)
    } else {
      try? removeFile(path)
    }
  }

  /// `path` and everything below it, each entry before the folder that holds it (the order in which they can be
  /// removed one by one); links are listed, never followed. Empty when `path` does not exist.
  package static func treeInRemovalOrder(_ path: String) -> [String] {
    guard let status = try? FileStatus(path: path, followLinks: false) else { return [] }
    guard status.kind == .directory else { return [path] }
    let children = (try? entries(in: path)) ?? []
    return children.flatMap { treeInRemovalOrder(path + "/" + $0) } + [path]
  }

  /// The names in folder `path` (without "." and ".."), in directory order.
  package static func entries(in path: String) throws(Errno) -> [String] {
    guard let directory = opendir(path) else { throw Errno.current }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { buffer in
        String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }
}

/// Who this process runs as.
package enum ProcessIdentity {
  /// geteuid(2).
  package static var effectiveUserID: uid_t { geteuid() }
  /// getegid(2).
  package static var effectiveGroupID: gid_t { getegid() }
  /// getpid(2).
  package static var processID: pid_t { getpid() }

  /// The login name of user `uid` (getpwuid_r), or nil when the user database has none.
  package static func userName(_ uid: uid_t) -> String? {
    var entry = passwd()
    var result: UnsafeMutablePointer<passwd>?
    var buffer = [CChar](repeating: 0, count: 4096)
    guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
    return String(cString: entry.pw_name)
  }

  /// The name of group `gid` (getgrgid_r), or nil when the group database has none.
  package static func groupName(_ gid: gid_t) -> String? {
    var entry = group()
    var result: UnsafeMutablePointer<group>?
    var buffer = [CChar](repeating: 0, count: 16384)
    guard getgrgid_r(gid, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
    return String(cString: entry.gr_name)
  }
}

/// Removes a list of paths if the process dies of a fatal signal (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP,
/// SIGSYS) while it is armed: for temporary files that must not outlive a crash in code the host does not control
/// (a plugin's constructors inside `dlopen`). The previous handlers (the Swift runtime's backtracer) then run as they
/// would have. One guard at a time, process-wide; `disarm` (or deinit) ends it.
package final class FatalSignalCleanup {
  private let paths: [UnsafeMutablePointer<CChar>]
  private let table: UnsafeMutablePointer<UnsafePointer<CChar>?>
  private var armed = false

  /// Arms the cleanup of `paths`, in order (list a folder after what it holds).
  package init(removing paths: [String]) throws(Errno) {
    self.paths = paths.map { strdup($0)! }
    table = .allocate(capacity: max(paths.count, 1))
    for (index, path) in self.paths.enumerated() { table[index] = UnsafePointer(path) }
    guard CPOSIX_fatal_signal_cleanup(table, Int32(paths.count)) == 0 else {
      let error = Errno.current
      release()
      throw error
    }
    armed = true
  }

  /// Ends the guard: nothing is removed, the previous handlers are back.
  package func disarm() {
    guard armed else { return }
    armed = false
    CPOSIX_fatal_signal_cleanup_cancel()
    release()
  }

  private func release() {
    for path in paths { free(path) }
    table.deallocate()
  }

  deinit { disarm() }
}

extension FileDescriptor {
  /// `O_DIRECTORY | O_CLOEXEC` open of folder `path` (to lock it, or to hold it).
  package static func openDirectory(_ path: String) throws(Errno) -> FileDescriptor {
    FileDescriptor(rawValue: try Errno.check { Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) })
  }

  /// flock(2) `LOCK_EX | LOCK_NB`: true when this descriptor now holds the exclusive lock, false when another open
  /// file description holds a lock on the file. The kernel drops the lock when the last descriptor of this open file
  /// description closes, also when the process dies.
  package func tryLockExclusively() throws(Errno) -> Bool {
    do {
      _ = try Errno.check { flock(rawValue, LOCK_EX | LOCK_NB) }
      return true
    } catch .wouldBlock {
      return false
    }
  }

  /// The capacity of the pipe this descriptor is an end of (`F_GETPIPE_SZ`).
  package func pipeCapacity() throws(Errno) -> Int {
    Int(try Errno.check { CPOSIX_pipe_capacity(rawValue) })
  }

  /// Bytes in the pipe or socket not read yet (`FIONREAD`; for either end of a pipe).
  package func unreadByteCount() throws(Errno) -> Int {
    var count: Int32 = 0
    _ = try Errno.check { CPOSIX_unread_bytes(rawValue, &count) }
    return Int(count)
  }

  /// What a socket holds for its peer (`SIOCOUTQ`), and the most it may hold (`SO_SNDBUF`), in the kernel's unit.
  package func socketSendQueue() throws(Errno) -> (queued: Int, limit: Int) {
    var queued: Int32 = 0
    _ = try Errno.check { CPOSIX_unsent_bytes(rawValue, &queued) }
    var limit: Int32 = 0
    var size = socklen_t(MemoryLayout<Int32>.size)
    _ = try Errno.check { getsockopt(rawValue, SOL_SOCKET, SO_SNDBUF, &limit, &size) }
    return (Int(queued), Int(limit))
  }
}
