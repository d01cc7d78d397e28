import POSIX

#if canImport(Glibc)
  import Glibc
#endif

/// Copies a plugin file to a fresh temporary file and opens that copy.
///
/// Why copy: `dlopen` of a path that is already loaded returns the handle it already has, so a rebuilt
/// plugin at the same path would never be seen; and a build tool that rewrites the file in place (`cp`
/// truncates and writes into the same inode) would change the pages of a running library under it. A
/// private copy per generation has its own inode, so each generation is a new library and no later write
/// to the original can touch it. The copy is unlinked as soon as it is open (the mapping stays valid), so
/// nothing is left behind, even after a crash.
///
/// Consequence for authors: `$ORIGIN` in the plugin's RUNPATH names the temporary folder, not the plugin's
/// folder; link dependencies statically or by absolute path (documented in docs/writing-plugins.md).
enum PrivateCopy {
  /// The opened copy of `source`.
  ///
  /// - Throws: `.fileNotFound` when `source` cannot be opened because it does not exist, `.notLoadable`
  ///   for other read errors and for dlopen's refusal (with dlerror's text, in which the temporary path is
  ///   replaced by `source`).
  static func open(_ source: String) throws(PluginLoadError) -> DynamicLibrary {
    let input = try openSource(source)
    defer { try? input.close() }
    return try open(source, contents: input)
  }

  /// Opens a copy of `contents` (a snapshot of `source`: see `snapshot`), which dlerror's text calls `source`.
  static func open(_ source: String, contents: FileDescriptor) throws(PluginLoadError) -> DynamicLibrary {
    let copyPath = try copy(contents, of: source)
    defer { unlink(copyPath) }
    do {
      return try PluginCallMonitor.around(.load) { () throws(DynamicLibraryError) in try DynamicLibrary(path: copyPath)
      }
    } catch {
      throw .notLoadable(path: source, reason: error.message.replacingAll(copyPath, with: source))
    }
  }

  /// A sealed in-memory copy of `source`: one plugin generation's bytes, which no later write to the file can
  /// change. Each worker process of the generation makes its private copy from it (`open(_:contents:)`), so a worker
  /// started again after a crash runs the very code its predecessor ran.
  static func snapshot(_ source: String) throws(PluginLoadError) -> FileDescriptor {
    let input = try openSource(source)
    defer { try? input.close() }
    let image: FileDescriptor
    do {
      image = try FileDescriptor.memoryFile(name: "transition-host-plugin", sealable: true)
    } catch {
      throw .notLoadable(path: source, reason: "cannot make a copy in memory: \(error)")
    }
    do throws(PluginLoadError) {
      try transfer(from: input, to: image, source: source)
    } catch {
      try? image.close()
      throw error
    }
    do throws(Errno) {
      try image.sealContents()
    } catch {
      try? image.close()
      throw .notLoadable(path: source, reason: "cannot seal the copy in memory: \(error)")
    }
    return image
  }

  /// Opens `source` for reading: a regular file.
  private static func openSource(_ source: String) throws(PluginLoadError) -> FileDescriptor {
    let input: FileDescriptor
    do {
      input = try FileDescriptor.open(source, .readOnly, options: .closeOnExec)
    } catch .noSuchFileOrDirectory, .notDirectory {
      throw .fileNotFound(path: source)
    } catch {
      throw .notLoadable(path: source, reason: error.description)
    }
    let kind: FileStatus.Kind
    do {
      kind = try input.status().kind
    } catch {
      try? input.close()
      throw .notLoadable(path: source, reason: error.description)
    }
    guard kind == .regular else {
      try? input.close()
      throw .notLoadable(path: source, reason: "not a regular file")
    }
    return input
  }

  /// A temporary file holding the bytes of `input` (which stands for `source` in errors); the caller unlinks it.
  private static func copy(_ input: FileDescriptor, of source: String) throws(PluginLoadError) -> String {
    let output: FileDescriptor
    let copyPath: String
    do {
      (output, copyPath) = try FileDescriptor.temporaryFile(prefix: "transition-host-plugin-")
    } catch {
      throw .notLoadable(
        path: source, reason: "cannot create a copy in \(FileDescriptor.temporaryFolder): \(error)")
    }
    var ok = false
    defer {
      try? output.close()
      if !ok { unlink(copyPath) }
    }
    try transfer(from: input, to: output, source: source)
    ok = true
    return copyPath
  }

  /// Copies every byte of `input`, read from offset 0 on (pread: a snapshot shared by several processes has one file
  /// position, which none of them moves), to `output`.
  private static func transfer(
    from input: FileDescriptor, to output: FileDescriptor, source: String
  ) throws(PluginLoadError) {
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var offset = 0
    while true {
      let count: Int
      do {
        count = try input.read(fromAbsoluteOffset: offset, into: &buffer)
      } catch {
        throw .notLoadable(path: source, reason: error.description)
      }
      if count == 0 { break }
      offset += count
      do {
        try output.writeAll(buffer[..<count])
      } catch {
        throw .notLoadable(path: source, reason: "cannot write the copy: \(error)")
      }
    }
  }
}

extension String {
  /// `self` with every occurrence of `target` replaced, left to right without overlaps; an empty `target`
  /// changes nothing. (No Foundation here; the HTML preview uses it too.)
  package func replacingAll(_ target: String, with replacement: String) -> String {
    guard !target.isEmpty else { return self }
    var result = ""
    var rest = self[...]
    while let range = rest.firstRange(of: target) {
      result += rest[..<range.lowerBound]
      result += replacement
      rest = rest[range.upperBound...]
    }
    result += rest
    return result
  }
}
