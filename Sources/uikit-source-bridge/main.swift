// uikit-source-bridge INPUT OUTPUT [INPUT OUTPUT …]: writes each iOS Swift file, rewritten by the UIKit source bridge
// (Sources/SourceBridge), to its output path. The UIKitSourceBridge build-tool plugin runs it for every Swift file a
// target does not compile itself. Problems are printed as the compiler prints them (`path:line:column: error: …`),
// and the exit status is 1 when there was any; an output is written only for a file without problems.

import SourceBridge

#if canImport(Glibc)
  import Glibc
#endif

/// Writes `text` to a file descriptor (stdio's `stderr` is not concurrency-safe to name in Swift 6).
private func write(_ text: String, to descriptor: Int32) {
  var text = text
  text.withUTF8 { bytes in _ = Glibc.write(descriptor, bytes.baseAddress, bytes.count) }
}

private func fail(_ message: String) -> Never {
  write("uikit-source-bridge: \(message)\n", to: 2)
  exit(1)
}

private func readFile(_ path: String) -> String {
  guard let file = fopen(path, "rb") else { fail("cannot read \(path): \(String(cString: strerror(errno)))") }
  defer { fclose(file) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 65536)
  while true {
    let count = fread(&chunk, 1, chunk.count, file)
    bytes += chunk[0..<count]
    if count < chunk.count { break }
  }
  if ferror(file) != 0 { fail("cannot read \(path)") }
  return String(decoding: bytes, as: UTF8.self)
}

/// Creates the folders above `path` (as `mkdir -p` does).
private func makeParentFolders(of path: String) {
  let bytes = Array(path.utf8)
  for index in bytes.indices.dropFirst() where bytes[index] == UInt8(ascii: "/") {
    let folder = String(decoding: bytes[..<index], as: UTF8.self)
    if mkdir(folder, 0o755) != 0, errno != EEXIST {
      fail("cannot create \(folder): \(String(cString: strerror(errno)))")
    }
  }
}

private func writeFile(_ path: String, _ text: String) {
  makeParentFolders(of: path)
  let temporary = path + ".partial"
  guard let file = fopen(temporary, "wb") else { fail("cannot write \(path): \(String(cString: strerror(errno)))") }
  let bytes = Array(text.utf8)
  let written = fwrite(bytes, 1, bytes.count, file)
  if fclose(file) != 0 || written != bytes.count { fail("cannot write \(path)") }
  if rename(temporary, path) != 0 { fail("cannot write \(path): \(String(cString: strerror(errno)))") }
}

let arguments = CommandLine.arguments.dropFirst()
if arguments.isEmpty || arguments.count % 2 != 0 || arguments.first == "--help" {
  write("usage: uikit-source-bridge INPUT OUTPUT [INPUT OUTPUT …]\n", to: arguments.first == "--help" ? 1 : 2)
  exit(arguments.first == "--help" ? 0 : 2)
}
var failed = false
for pair in stride(from: arguments.startIndex, to: arguments.endIndex, by: 2) {
  let input = arguments[pair]
  let output = arguments[pair + 1]
  let bridged = SourceBridge.bridge(readFile(input), path: input)
  for diagnostic in bridged.diagnostics { write("\(input):\(diagnostic)\n", to: 2) }
  if bridged.diagnostics.isEmpty {
    writeFile(output, bridged.text)
  } else {
    failed = true
  }
}
exit(failed ? 1 : 0)
