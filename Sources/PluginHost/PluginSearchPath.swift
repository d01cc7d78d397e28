import POSIX

#if canImport(Glibc)
  import Glibc
#endif

/// A plugin file as the search path resolved it.
package struct PluginFile: Sendable, Equatable {
  /// The path as named, made absolute (a link in it is not resolved): what `plugins/list` shows and what the plugin
  /// gets as `th_host_info.plugin_path`.
  package var path: String
  /// `path` with every link resolved (realpath): the file that is checked and loaded.
  package var realPath: String

  package init(path: String, realPath: String) {
    self.path = path
    self.realPath = realPath
  }
}

/// Where plugins come from and which paths may be loaded.
///
/// The folders, in lookup order: the built-in folder beside the host binary, the `--plugin-dir` folders in
/// the order given, then the absolute entries of `TRANSITION_HOST_PLUGIN_PATH` (colon-separated; relative entries
/// are ignored, `ignoredEnvironmentEntries`, so that what loads never depends on the directory the host was started
/// in). Duplicates (by resolved path) and empty entries are dropped.
///
/// Unless `--allow-any-plugin-path`: a plugin file must resolve (realpath, every link followed) to a file below one
/// of the folders (resolved the same way), and that file, the folders from it up to the plugin folder, and the
/// folders above, must be safe from other users (`PluginPathSafety`, in the manner of sshd's StrictModes).
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
  /// The entries of `TRANSITION_HOST_PLUGIN_PATH` that were not absolute, and so were ignored.
  package var ignoredEnvironmentEntries: [String]

  /// - Parameters:
  ///   - builtInFolder: the binary's folder (`PluginSearchPath.executableFolder()`), nil for none.
  ///   - pluginDirs: `--plugin-dir` values, relative ones against the current directory (the user typed them
  ///     where they ran the host).
  ///   - environmentPath: the value of `TRANSITION_HOST_PLUGIN_PATH`, if set; relative entries are ignored.
  package init(builtInFolder: String?, pluginDirs: [String] = [], environmentPath: String? = nil) {
    self.builtInFolder = builtInFolder.map(absolutePath)
    let fromEnvironment = environmentPath.map { $0.split(separator: ":").map(String.init) } ?? []
    ignoredEnvironmentEntries = fromEnvironment.filter { !$0.hasPrefix("/") }
    var extra: [String] = []
    let absoluteEntries = pluginDirs + fromEnvironment.filter { $0.hasPrefix("/") }
    for folder in absoluteEntries.filter({ !$0.isEmpty }).map(absolutePath) {
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
  /// relative to the current directory and must lie inside a folder unless `allowAnyPath`; the folder check
  /// comes first, so that a client cannot probe for files outside the folders. Then, unless `allowAnyPath`, the
  /// file's real path must lie inside a folder's real path (a link, or a folder reached through a link, that leads
  /// out is refused, naming both paths), and the file and its folders must pass `PluginPathSafety`.
  ///
  /// - Throws: `.pathNotAllowed` or `.unsafePermissions` (1007), `.fileNotFound` (1001).
  package func resolve(_ path: String, allowAnyPath: Bool) throws(PluginLoadError) -> PluginFile {
    let file: String
    if !path.isEmpty && !path.contains("/") {
      guard let found = folders.map({ $0 + "/" + path }).first(where: fileExists) else {
        throw .fileNotFound(path: path)
      }
      file = found
    } else {
      file = absolutePath(path)
      if !allowAnyPath && !isInsideFolders(file) {
        throw .pathNotAllowed(path: file, realPath: nil, folders: folders)
      }
      guard fileExists(file) else { throw .fileNotFound(path: file) }
    }
    guard let realPath = resolvedPath(file) else { throw .fileNotFound(path: file) }
    let resolved = PluginFile(path: file, realPath: realPath)
    if !allowAnyPath { try check(resolved) }
    return resolved
  }

  /// Checks a resolved file as `resolve` does without `allowAnyPath` (also what `reload` re-checks: the file at a
  /// loaded path may have been replaced by a link since).
  ///
  /// - Throws: `.pathNotAllowed` (the real path leads out of the folders), `.unsafePermissions`.
  package func check(_ file: PluginFile) throws(PluginLoadError) {
    guard let folder = pluginFolder(containing: file.realPath) else {
      throw .pathNotAllowed(path: file.path, realPath: file.realPath, folders: folders)
    }
    if let problem = PluginPathSafety.problem(file: file.realPath, pluginFolder: folder) {
      throw .unsafePermissions(path: file.path, unsafePath: problem.path, reason: problem.reason)
    }
  }

  /// The real path of the folder whose real path `realPath` lies below, if any.
  func pluginFolder(containing realPath: String) -> String? {
    folders.compactMap(resolvedPath).first { isBelow(realPath, $0) }
  }

  /// Whether `path` (absolute, normalised) is below one of the folders, as written or once symbolic links are
  /// resolved on both sides: the first, lexical test of `resolve` (the real path is judged after it).
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
    autoLoadFolders().flatMap(\.files)
  }

  /// `autoLoadCandidates`, folder by folder (a folder that is not safe is refused as a whole).
  package func autoLoadFolders() -> [(folder: String, files: [String])] {
    var result: [(folder: String, files: [String])] = []
    if let builtInFolder {
      let files = soFiles(in: builtInFolder).filter { $0.hasPrefix(Self.builtInPrefix) }
      result.append((builtInFolder, files.map { builtInFolder + "/" + $0 }))
    }
    for folder in extraFolders {
      result.append(
        (folder, soFiles(in: folder).filter { !$0.hasPrefix(Self.fixturePrefix) }.map { folder + "/" + $0 }))
    }
    return result
  }

  /// Whether a whole plugin folder is safe to load from (its real path and the folders above it).
  ///
  /// - Throws: `.unsafePermissions` naming the folder at fault.
  package func checkFolder(_ folder: String) throws(PluginLoadError) {
    guard let real = resolvedPath(folder) else { return }  // a missing folder holds nothing to load
    if let problem = PluginPathSafety.problem(folder: real) {
      throw .unsafePermissions(path: folder, unsafePath: problem.path, reason: problem.reason)
    }
  }

  private func soFiles(in folder: String) -> [String] {
    let names = (try? FileSystem.entries(in: folder)) ?? []
    return names.filter { $0.hasSuffix(".so") && fileExists(folder + "/" + $0) }.sorted()
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
