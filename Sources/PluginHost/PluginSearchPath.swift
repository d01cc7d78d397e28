#if canImport(Glibc)
  import Glibc
#endif

/// Where plugins come from and which paths may be loaded.
///
/// The folders, in lookup order: the built-in folder beside the host binary, the `--plugin-dir` folders in
/// the order given, then the entries of `TRANSITION_HOST_PLUGIN_PATH` (colon-separated). Duplicates (by
/// resolved path) and empty entries are dropped. A plugin may be loaded from anywhere below one of these
/// folders; other paths need `--allow-any-plugin-path`.
package struct PluginSearchPath: Sendable, Equatable {
  /// The environment variable with extra plugin folders.
  package static let environmentVariable = "TRANSITION_HOST_PLUGIN_PATH"
  /// Built-in plugin files: `libTransitionPlugin<Name>.so`, auto-loaded from the built-in folder.
  package static let builtInPrefix = "libTransitionPlugin"
  /// Test fixtures: `libTestPlugin<Name>.so`, never auto-loaded.
  package static let fixturePrefix = "libTestPlugin"

  /// The folder of the host binary, whose `libTransitionPlugin*.so` files are auto-loaded.
  package var builtInFolder: String?
  /// `--plugin-dir` folders then the environment's, absolute and normalised.
  package var extraFolders: [String]

  /// - Parameters:
  ///   - builtInFolder: the binary's folder (`PluginSearchPath.executableFolder()`), nil for none.
  ///   - pluginDirs: `--plugin-dir` values, relative ones against the current directory.
  ///   - environmentPath: the value of `TRANSITION_HOST_PLUGIN_PATH`, if set.
  package init(builtInFolder: String?, pluginDirs: [String] = [], environmentPath: String? = nil) {
    self.builtInFolder = builtInFolder.map(absolutePath)
    var extra: [String] = []
    let fromEnvironment = environmentPath.map { $0.split(separator: ":").map(String.init) } ?? []
    for folder in (pluginDirs + fromEnvironment).filter({ !$0.isEmpty }).map(absolutePath) {
      let resolved = resolvedPath(folder) ?? folder
      let known = ([self.builtInFolder].compactMap { $0 } + extra).map { resolvedPath($0) ?? $0 }
      if !known.contains(resolved) { extra.append(folder) }
    }
    extraFolders = extra
  }

  /// The standard search path of a host process: its binary's folder, the given `--plugin-dir`s, and the
  /// environment variable.
  package static func standard(pluginDirs: [String]) -> PluginSearchPath {
    PluginSearchPath(
      builtInFolder: executableFolder(), pluginDirs: pluginDirs,
      environmentPath: getenv(environmentVariable).map { String(cString: $0) })
  }

  /// Every folder, in lookup order.
  package var folders: [String] { [builtInFolder].compactMap { $0 } + extraFolders }

  /// The folder of `/proc/self/exe`, the running binary.
  package static func executableFolder() -> String? {
    guard let executable = resolvedPath("/proc/self/exe") else { return nil }
    return parentFolder(of: executable)
  }

  /// The file to load for a `plugins/load` path.
  ///
  /// A bare file name (no '/') is looked up in the folders, first match wins. Any other path is taken
  /// relative to the current directory and must lie inside a folder unless `allowAnyPath`. The folder
  /// check comes first, so that a client cannot probe for files outside the folders.
  ///
  /// - Throws: `.pathNotAllowed` (1007), `.fileNotFound` (1001).
  package func resolve(_ path: String, allowAnyPath: Bool) throws(PluginLoadError) -> String {
    if !path.isEmpty && !path.contains("/") {
      for folder in folders {
        let candidate = folder + "/" + path
        if fileExists(candidate) { return candidate }
      }
      throw .fileNotFound(path: path)
    }
    let absolute = absolutePath(path)
    if !allowAnyPath && !isInsideFolders(absolute) {
      throw .pathNotAllowed(path: absolute, folders: folders)
    }
    guard fileExists(absolute) else { throw .fileNotFound(path: absolute) }
    return absolute
  }

  /// Whether `path` (absolute, normalised) is below one of the folders: either as written, or once
  /// symbolic links are resolved on both sides (a folder may be a link, and a link inside a folder that
  /// the user put there is the user's choice).
  package func isInsideFolders(_ path: String) -> Bool {
    let resolved = resolvedPath(path)
    for folder in folders {
      if isBelow(path, folder) { return true }
      if let resolved, let resolvedFolder = resolvedPath(folder), isBelow(resolved, resolvedFolder) { return true }
    }
    return false
  }

  /// The files to load at start-up: every `libTransitionPlugin*.so` in the built-in folder, and every
  /// `*.so` in the extra folders except test fixtures (`libTestPlugin*`), each folder in name order.
  package func autoLoadCandidates() -> [String] {
    var result: [String] = []
    if let builtInFolder {
      result += soFiles(in: builtInFolder).filter { $0.hasPrefix(Self.builtInPrefix) }.map { builtInFolder + "/" + $0 }
    }
    for folder in extraFolders {
      result += soFiles(in: folder).filter { !$0.hasPrefix(Self.fixturePrefix) }.map { folder + "/" + $0 }
    }
    return result
  }

  private func soFiles(in folder: String) -> [String] {
    guard let directory = opendir(folder) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { buffer in
        String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name.hasSuffix(".so") && fileExists(folder + "/" + name) { names.append(name) }
    }
    return names.sorted()
  }
}

// MARK: - Path helpers (no Foundation)

/// `path` made absolute against the current directory and normalised lexically ("." and ".." removed,
/// repeated slashes collapsed).
func absolutePath(_ path: String) -> String {
  var full = path
  if !path.hasPrefix("/") {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let cwd =
      buffer.withUnsafeMutableBufferPointer { getcwd($0.baseAddress, $0.count).map { String(cString: $0) } } ?? "/"
    full = cwd + "/" + path
  }
  var parts: [Substring] = []
  for part in full.split(separator: "/") {
    if part == "." { continue }
    if part == ".." {
      if !parts.isEmpty { parts.removeLast() }
      continue
    }
    parts.append(part)
  }
  return "/" + parts.joined(separator: "/")
}

/// realpath(3), or nil when the path does not exist.
func resolvedPath(_ path: String) -> String? {
  guard let resolved = realpath(path, nil) else { return nil }
  defer { free(resolved) }
  return String(cString: resolved)
}

/// Whether `path` is strictly below `folder` (both absolute and normalised).
func isBelow(_ path: String, _ folder: String) -> Bool {
  if folder == "/" { return path != "/" }
  return path.hasPrefix(folder + "/")
}

func parentFolder(of path: String) -> String {
  guard let slash = path.lastIndex(of: "/") else { return "." }
  return slash == path.startIndex ? "/" : String(path[..<slash])
}

/// Whether a regular file (after following links) exists at `path`.
func fileExists(_ path: String) -> Bool {
  var status = stat()
  return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
}
