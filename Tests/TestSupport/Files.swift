// Temporary folders and whole-file reads and writes for the tests that copy plugins around or capture a program's
// output in files.

#if canImport(Glibc)
  import Glibc
#endif

/// A fresh temporary folder under /tmp, removed with everything in it when the value goes away.
package final class TemporaryFolder {
  package let path: String

  /// Makes `/tmp/transition-host-tests-XXXXXX`.
  package init() {
    var template = Array("/tmp/transition-host-tests-XXXXXX".utf8CString)
    path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
  }

  deinit {
    Self.removeTree(path)
  }

  private static func removeTree(_ folder: String) {
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
  package func folder(_ name: String) -> String {
    let child = path + "/" + name
    mkdir(child, 0o755)
    return child
  }

  /// Writes `text` to an executable file (mode 755, so scripts can run) in the folder and returns its path.
  package func file(_ name: String, _ text: String) -> String {
    let file = path + "/" + name
    let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o755)
    precondition(fd >= 0)
    defer { close(fd) }
    var bytes = Array(text.utf8)
    precondition(write(fd, &bytes, bytes.count) == bytes.count)
    return file
  }
}

/// Writes `bytes` to `path`, truncating an existing file in place (same inode), as `cp` does.
package func writeFile(_ path: String, _ bytes: [UInt8]) {
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

/// The whole contents of file `path`.
package func readFile(_ path: String) -> [UInt8] {
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
package func copyFile(_ source: String, to destination: String) {
  writeFile(destination, readFile(source))
}
