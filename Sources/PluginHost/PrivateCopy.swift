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
    let copyPath = try copy(source)
    defer { unlink(copyPath) }
    do {
      return try DynamicLibrary(path: copyPath)
    } catch {
      throw .notLoadable(path: source, reason: error.message.replacingAll(copyPath, with: source))
    }
  }

  private static func copy(_ source: String) throws(PluginLoadError) -> String {
    let input = Glibc.open(source, O_RDONLY | O_CLOEXEC)
    if input < 0 {
      let code = errno
      if code == ENOENT || code == ENOTDIR { throw .fileNotFound(path: source) }
      throw .notLoadable(path: source, reason: systemError(code))
    }
    defer { Glibc.close(input) }
    var status = stat()
    if fstat(input, &status) != 0 { throw .notLoadable(path: source, reason: systemError(errno)) }
    if (status.st_mode & S_IFMT) != S_IFREG { throw .notLoadable(path: source, reason: "not a regular file") }

    let directory = temporaryDirectory()
    var template = Array("\(directory)/transition-host-plugin-XXXXXX".utf8CString)
    let output = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    if output < 0 {
      throw .notLoadable(path: source, reason: "cannot create a copy in \(directory): \(systemError(errno))")
    }
    _ = fcntl(output, F_SETFD, FD_CLOEXEC)
    let copyPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    var ok = false
    defer {
      Glibc.close(output)
      if !ok { unlink(copyPath) }
    }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw .notLoadable(path: source, reason: systemError(errno))
      }
      if count == 0 { break }
      var written = 0
      while written < count {
        let n = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, count - written) }
        if n < 0 {
          if errno == EINTR { continue }
          throw .notLoadable(path: source, reason: "cannot write the copy: \(systemError(errno))")
        }
        written += n
      }
    }
    ok = true
    return copyPath
  }

  private static func temporaryDirectory() -> String {
    if let value = getenv("TMPDIR"), value.pointee != 0 { return String(cString: value) }
    return "/tmp"
  }
}

/// strerror's text for an errno value.
func systemError(_ code: Int32) -> String {
  String(cString: strerror(code))
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
