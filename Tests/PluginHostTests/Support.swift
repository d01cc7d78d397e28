import CTransitionABI
import PluginHost
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// A fresh temporary folder, removed (with its files) when the value goes away.
final class TemporaryFolder {
  let path: String

  init() {
    var template = Array("/tmp/plugin-host-tests-XXXXXX".utf8CString)
    path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
  }

  deinit {
    removeTree(path)
  }

  private func removeTree(_ folder: String) {
    if let directory = opendir(folder) {
      while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name == "." || name == ".." { continue }
        let child = folder + "/" + name
        var status = stat()
        if lstat(child, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR {
          removeTree(child)
        } else {
          unlink(child)
        }
      }
      closedir(directory)
    }
    rmdir(folder)
  }

  /// Makes a subfolder and returns its path.
  func folder(_ name: String) -> String {
    let child = path + "/" + name
    mkdir(child, 0o755)
    return child
  }
}

/// Writes `bytes` to `path`, truncating an existing file in place (same inode), as `cp` does.
func writeFile(_ path: String, _ bytes: [UInt8]) {
  let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  precondition(fd >= 0, "cannot open \(path)")
  defer { close(fd) }
  var offset = 0
  while offset < bytes.count {
    let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, bytes.count - offset) }
    precondition(n > 0, "cannot write \(path)")
    offset += n
  }
}

func readFile(_ path: String) -> [UInt8] {
  let fd = open(path, O_RDONLY)
  precondition(fd >= 0, "cannot open \(path)")
  defer { close(fd) }
  var result: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    if n <= 0 { break }
    result += buffer[0..<n]
  }
  return result
}

/// Copies a file over `destination` in place (like `cp`).
func copyFile(_ source: String, to destination: String) {
  writeFile(destination, readFile(source))
}

/// A registry whose only folder is `folder` (no built-in folder).
func makeRegistry(folder: String, allowAnyPath: Bool = false, log: LogCapture = LogCapture()) -> PluginRegistry {
  PluginRegistry(
    searchPath: PluginSearchPath(builtInFolder: nil, pluginDirs: [folder]), allowAnyPath: allowAnyPath,
    logger: log.logger)
}

/// The error `body` throws, or nil.
func loadError(_ body: () throws(PluginLoadError) -> Void) -> PluginLoadError? {
  do {
    try body()
    return nil
  } catch {
    return error
  }
}
