import POSIX
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// One generation of a plugin, copied into the process's private folder and opened from there.
///
/// Why copy: `dlopen` of a path that is already loaded returns the handle it already has, so a rebuilt plugin at the
/// same path would never be seen; and a build tool that rewrites the file in place (`cp` truncates and writes into
/// the same inode) would change the pages of a running library under it. A private copy per generation has its own
/// inode, so each generation is a new library and no later write to the original can touch it.
///
/// Where: `<private folder>/<n>/<the plugin's real path>`, for example
/// `/tmp/transition-host-plugins-4242-Qx81Za/3/home/me/fade/.build/debug/libFade.so`. The private folder is the
/// process's own (0700, `PrivateFolder`), so nobody else can put a file anywhere in it; mirroring the real path in it
/// means that the loader's `$ORIGIN` (the copy's folder) and every path relative to it (`$ORIGIN/../lib`) stay inside
/// that private tree, never in a folder others can write to. The plugin's folder-local dependencies, the libraries
/// its `$ORIGIN` search folders hold (and theirs, recursively), get a link at the same mirrored place pointing to the
/// real file, so they load exactly as they would beside the original. The copy stays on disk while the generation is
/// loaded, so a crash backtrace names it (its path ends with the plugin's real path) and reads its symbols; it goes
/// when the generation is shut down, and the private folder when the process exits. A crash inside `dlopen` (a
/// plugin's constructor) removes the generation's files before the process dies (`FatalSignalCleanup`).
package final class PrivateCopy {
  /// The opened copy.
  let library: DynamicLibrary
  /// `<private folder>/<n>`: everything of this generation.
  let folder: String
  /// What the original file was when it was copied.
  package let sourceVersion: FileVersion

  private init(library: DynamicLibrary, folder: String, sourceVersion: FileVersion) {
    self.library = library
    self.folder = folder
    self.sourceVersion = sourceVersion
  }

  /// Copies `file` (its real path) into a new generation folder, links its folder-local dependencies, and opens
  /// the copy.
  ///
  /// - Throws: `.fileNotFound` when the file is gone, `.notLoadable` for read errors, a file that is not regular,
  ///   and dlopen's refusal (dlerror's text, with private paths turned back into the real ones).
  static func open(_ file: PluginFile) throws(PluginLoadError) -> PrivateCopy {
    let input = try openSource(file)
    defer { try? input.close() }
    return try open(file, contents: input)
  }

  /// Like `open(_:)`, but the bytes come from `contents` (a `snapshot` of `file`, read from offset 0 on) instead of
  /// the file: a worker process's load, which runs exactly what was snapshotted whatever became of the file. The
  /// copy is still laid out at `file`'s real path, with links to its `$ORIGIN` dependencies.
  static func open(_ file: PluginFile, contents input: FileDescriptor) throws(PluginLoadError) -> PrivateCopy {
    let status: FileStatus
    do { status = try input.status() } catch { throw .notLoadable(path: file.path, reason: error.description) }
    guard status.kind == .regular else { throw .notLoadable(path: file.path, reason: "not a regular file") }

    let folder: String
    do { folder = try PrivateFolder.shared().makeGenerationFolder() } catch {
      throw .notLoadable(path: file.path, reason: "cannot make a private folder for the copy: \(error)")
    }
    var layout = Layout(root: folder)
    var opened: DynamicLibrary?
    defer { if opened == nil { FileSystem.removeTree(folder) } }
    let copyPath: String
    do {
      copyPath = try layout.copy(input, as: file.realPath)
      layout.linkDependencies(of: file.realPath)
    } catch {
      throw .notLoadable(path: file.path, reason: "cannot write the private copy: \(error)")
    }
    do {
      opened = try PrivateCopy.dlopenGuarded(copyPath, folder: folder)
    } catch {
      throw .notLoadable(path: file.path, reason: error.message.replacingAll(folder, with: ""))
    }
    return PrivateCopy(library: opened!, folder: folder, sourceVersion: FileVersion(status))
  }

  /// A sealed in-memory copy of `file` (its real path): one plugin generation's bytes, which no later write to the
  /// file can change. Each worker process of the generation makes its private copy from it
  /// (`open(_:contents:)`), so a worker started again after a crash runs the very code its predecessor ran.
  static func snapshot(_ file: PluginFile) throws(PluginLoadError) -> FileDescriptor {
    let input = try openSource(file)
    defer { try? input.close() }
    let image: FileDescriptor
    do {
      image = try FileDescriptor.memoryFile(name: "transition-host-plugin", sealable: true)
    } catch {
      throw .notLoadable(path: file.path, reason: "cannot make a copy in memory: \(error)")
    }
    do throws(Errno) {
      try Self.transfer(from: input, to: image)
      try image.sealContents()
    } catch {
      try? image.close()
      throw .notLoadable(path: file.path, reason: "cannot make a sealed copy in memory: \(error)")
    }
    return image
  }

  /// Opens `file`'s real path for reading: a regular file.
  private static func openSource(_ file: PluginFile) throws(PluginLoadError) -> FileDescriptor {
    let input: FileDescriptor
    do {
      input = try FileDescriptor.open(file.realPath, .readOnly, options: .closeOnExec)
    } catch .noSuchFileOrDirectory, .notDirectory {
      throw .fileNotFound(path: file.path)
    } catch {
      throw .notLoadable(path: file.path, reason: error.description)
    }
    let kind: FileStatus.Kind
    do { kind = try input.status().kind } catch {
      try? input.close()
      throw .notLoadable(path: file.path, reason: error.description)
    }
    guard kind == .regular else {
      try? input.close()
      throw .notLoadable(path: file.path, reason: "not a regular file")
    }
    return input
  }

  /// Copies every byte of `input`, read from offset 0 on (pread: a snapshot shared by several processes has one file
  /// position, which none of them moves), to `output`.
  fileprivate static func transfer(from input: FileDescriptor, to output: FileDescriptor) throws(Errno) {
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var offset = 0
    while true {
      let count = try input.read(fromAbsoluteOffset: offset, into: &buffer)
      if count == 0 { break }
      try output.writeAll(buffer[..<count])
      offset += count
    }
  }

  /// Removes the generation's files (the library may stay mapped: a mapping outlives its file).
  func remove() {
    FileSystem.removeTree(folder)
  }

  /// One dlopen at a time in this process: the fatal-signal guard is process-wide.
  private static let loading = Mutex(())

  /// dlopen of the copy at `path` (in generation folder `folder`) with the fatal-signal cleanup armed while the
  /// plugin's constructors run: a crash there removes the whole private folder (no plugin code of another generation
  /// is on the stack inside dlopen, so a backtrace loses nothing the copies could tell).
  private static func dlopenGuarded(_ path: String, folder: String) throws(DynamicLibraryError) -> DynamicLibrary {
    let result: Result<DynamicLibrary, DynamicLibraryError> = loading.withLock { _ in
      let paths = FileSystem.treeInRemovalOrder(parentFolder(of: folder))
      let guardian = try? FatalSignalCleanup(removing: paths)
      defer { guardian?.disarm() }
      return Result { () throws(DynamicLibraryError) in
        try PluginCallMonitor.around(.load) { () throws(DynamicLibraryError) in try DynamicLibrary(path: path) }
      }
    }
    return try result.get()
  }

  /// Builds one generation folder.
  private struct Layout {
    let root: String

    init(root: String) {
      self.root = root
    }

    /// Makes `root + folder` and the folders on its way (0700).
    mutating func makeFolders(_ folder: String) throws(Errno) {
      var path = root
      for part in folder.split(separator: "/") {
        path += "/" + part
        do {
          try FileSystem.makeDirectory(path, permissions: 0o700)
        } catch .fileExists {
          continue
        }
      }
    }

    /// Copies `input` to `root + realPath`; returns the copy's path.
    mutating func copy(_ input: FileDescriptor, as realPath: String) throws(Errno) -> String {
      try makeFolders(parentFolder(of: realPath))
      let path = root + realPath
      let output = try FileDescriptor.open(
        path, .writeOnly, options: [.create, .exclusive, .closeOnExec], permissions: 0o700)
      defer { try? output.close() }
      try PrivateCopy.transfer(from: input, to: output)
      return path
    }

    /// Links, at their mirrored places, the libraries the loader would find through `$ORIGIN` for `plugin` and,
    /// recursively, for them. Best effort: a library that cannot be read or linked is simply not there (dlopen then
    /// names what it misses).
    mutating func linkDependencies(of plugin: String) {
      // (the object's real file, the folder the loader takes as its $ORIGIN, RPATH folders inherited from the
      // objects that load it)
      var pending: [(file: String, origin: String, inherited: [String])] = [(plugin, parentFolder(of: plugin), [])]
      var visited: Set<String> = [plugin]
      while !pending.isEmpty && visited.count <= Self.maximumDependencies {
        let (file, origin, inherited) = pending.removeFirst()
        guard let info = try? ELFDynamicInfo.read(path: file) else { continue }
        let originEntries: ([String]) -> [String] = { entries in
          entries.filter(ELFDynamicInfo.usesOrigin).compactMap { ELFDynamicInfo.expand($0, origin: origin) }
            .map(absolutePath)
        }
        let ownRPath = info.runpath.isEmpty ? originEntries(info.rpath) : []
        let folders = info.runpath.isEmpty ? ownRPath + inherited : originEntries(info.runpath)
        for name in info.needed where !name.contains("/") {
          for folder in folders {
            guard let real = resolvedPath(folder + "/" + name), fileExists(real) else { continue }
            let link = root + folder + "/" + name
            if (try? FileStatus(path: link, followLinks: false)) == nil {
              do {
                try makeFolders(folder)
                try FileSystem.makeSymbolicLink(at: link, pointingTo: real)
              } catch {
                break
              }
            }
            if visited.insert(real).inserted { pending.append((real, folder, ownRPath + inherited)) }
            break
          }
        }
      }
    }

    /// A bound on the libraries followed from one plugin.
    static let maximumDependencies = 256
  }
}

extension PrivateCopy {
  /// Removes the private folders of processes that have ended without removing their own (a plugin's worker process
  /// killed by a signal, or one that called `_exit`): the parent calls it when it has reaped such a worker, so that
  /// crashing plugins leave nothing behind in `$TMPDIR` while the host runs.
  package static func removeAbandonedFolders() {
    guard let parent = try? FileSystem.realPath(FileDescriptor.temporaryFolder) else { return }
    PrivateFolder.sweep(parent)
  }

  /// Removes this process's private folder now, for a process about to end with `_exit` (a worker process, which
  /// must not run its plugin's atexit handlers, and so not the one that would remove it).
  package static func removeProcessFolder() {
    PrivateFolder.removeAtExit()
  }
}

/// What a file was at one moment: the same device, inode, size, modification and change times mean the same
/// contents (a rebuild, a `cp` over it or a `touch` changes at least one).
package struct FileVersion: Sendable, Hashable {
  package var device: UInt64
  package var inode: UInt64
  package var size: Int
  package var modificationTime: Int64
  package var changeTime: Int64

  package init(_ status: FileStatus) {
    device = status.device
    inode = status.inode
    size = status.size
    modificationTime = status.modificationTime
    changeTime = status.changeTime
  }

  /// The version of the file at `path` now (links followed), nil when there is none.
  package init?(path: String) {
    guard let status = try? FileStatus(path: path) else { return nil }
    self.init(status)
  }
}

/// The process's private folder for plugin copies: `$TMPDIR/transition-host-plugins-<pid>-XXXXXX` (or under /tmp),
/// mode 0700, made on the first load.
///
/// It holds a `flock` on itself for the process's life, so the kernel lets it go even when the process dies: the next
/// host that makes its own folder removes the folders whose lock it can take (their process is gone, a crash or a
/// SIGKILL left them), and the process removes its own at exit. Thread-safe.
final class PrivateFolder: Sendable {
  /// The folder names: a finished folder, and one being made (locked, not renamed yet; a sweeper leaves it alone
  /// unless it is older than a minute).
  static let prefix = "transition-host-plugins-"
  static let unfinishedPrefix = "transition-host-plugins.new-"

  let path: String
  private let lock: FileDescriptor
  private let generations = Atomic<Int>(0)

  private init(path: String, lock: FileDescriptor) {
    self.path = path
    self.lock = lock
  }

  /// A new empty folder `<path>/<n>` (0700).
  func makeGenerationFolder() throws(Errno) -> String {
    let number = generations.add(1, ordering: .relaxed).newValue
    let folder = path + "/\(number)"
    try FileSystem.makeDirectory(folder, permissions: 0o700)
    return folder
  }

  private static let instance = Mutex<PrivateFolder?>(nil)

  /// The process's folder, made (and the stale ones swept) on first use.
  static func shared() throws(Errno) -> PrivateFolder {
    let made: Result<PrivateFolder, Errno> = instance.withLock { instance in
      if let instance { return .success(instance) }
      return Result { () throws(Errno) in
        let folder = try make()
        instance = folder
        atexit { PrivateFolder.removeAtExit() }
        return folder
      }
    }
    return try made.get()
  }

  /// The folder's path for the exit handler (set once the folder exists).
  private static let pathAtExit = Mutex<String?>(nil)

  static func removeAtExit() {
    if let path = pathAtExit.withLock({ $0 }) { FileSystem.removeTree(path) }
  }

  private static func make() throws(Errno) -> PrivateFolder {
    let parent = try FileSystem.realPath(FileDescriptor.temporaryFolder)
    // A parent others may write to without the sticky bit would let them swap our folder for theirs.
    let status = try FileStatus(path: parent)
    if status.isWritableByOthers && !status.isSticky { throw Errno(rawValue: EACCES) }
    sweep(parent)
    let unfinished = try FileSystem.makeTemporaryDirectory(in: parent, prefix: unfinishedPrefix)
    let lock: FileDescriptor
    do {
      lock = try FileDescriptor.openDirectory(unfinished)
      _ = try lock.tryLockExclusively()
    } catch {
      try? FileSystem.removeDirectory(unfinished)
      throw error
    }
    let suffix = unfinished.dropFirst(parent.count + 1 + unfinishedPrefix.count)
    let path = parent + "/" + prefix + "\(ProcessIdentity.processID)-" + suffix
    do { try FileSystem.rename(unfinished, to: path) } catch {
      try? lock.close()
      try? FileSystem.removeDirectory(unfinished)
      throw error
    }
    pathAtExit.withLock { $0 = path }
    return PrivateFolder(path: path, lock: lock)
  }

  /// Removes the private folders in `parent` that belong to this user and whose process is gone (their lock is
  /// free).
  static func sweep(_ parent: String) {
    let now = Int64(time(nil)) * 1_000_000_000
    for name in (try? FileSystem.entries(in: parent)) ?? [] {
      let finished = name.hasPrefix(prefix)
      guard finished || name.hasPrefix(unfinishedPrefix) else { continue }
      let path = parent + "/" + name
      guard let status = try? FileStatus(path: path, followLinks: false), status.kind == .directory,
        status.owner == ProcessIdentity.effectiveUserID
      else { continue }
      if !finished && now - status.changeTime < 60_000_000_000 { continue }
      guard let descriptor = try? FileDescriptor.openDirectory(path) else { continue }
      defer { try? descriptor.close() }
      if (try? descriptor.tryLockExclusively()) == true { FileSystem.removeTree(path) }
    }
  }
}
