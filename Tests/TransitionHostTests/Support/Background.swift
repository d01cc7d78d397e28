import Dispatch
import Foundation
import Glibc
import POSIX

/// Runs `body` on its own thread (not a shared pool: it may block on a pipe) and hands back its result.
final class Background<Value>: @unchecked Sendable {
  // `value` is written once by the thread before `done` is signalled and read only after waiting on it.
  private var value: Value?
  private let done = DispatchSemaphore(value: 0)

  init(_ body: @escaping @Sendable () -> Value) {
    let thread = Thread { [self] in
      value = body()
      done.signal()
    }
    thread.start()
  }

  /// Waits for the thread and returns what it produced.
  func wait() -> Value {
    done.wait()
    done.signal()
    return value!
  }
}

/// A pipe whose ends close themselves; `closeRead`/`closeWrite` close one end early.
final class TestPipe {
  let read: Int32
  let write: Int32
  private var readOpen = true
  private var writeOpen = true

  init() {
    var fds: [Int32] = [-1, -1]
    precondition(pipe(&fds) == 0)
    read = fds[0]
    write = fds[1]
  }

  /// The ends as the host's own API takes them.
  var readEnd: FileDescriptor { FileDescriptor(rawValue: read) }
  var writeEnd: FileDescriptor { FileDescriptor(rawValue: write) }

  func closeRead() {
    if readOpen { close(read) }
    readOpen = false
  }

  func closeWrite() {
    if writeOpen { close(write) }
    writeOpen = false
  }

  /// Writes all of `text` to the write end.
  func send(_ text: String) {
    var bytes = Array(text.utf8)
    precondition(FileDescriptorIOForTests.writeAll(write, &bytes))
  }

  /// Starts draining the read end on its own thread until end of file.
  func drainInBackground() -> Background<[UInt8]> {
    let fd = read
    return Background { FileDescriptorIOForTests.readToEnd(fd) }
  }

  /// Fills the pipe until a write would block, so the next blocking write would wait for a reader.
  func fill() {
    let flags = fcntl(write, F_GETFL)
    _ = fcntl(write, F_SETFL, flags | O_NONBLOCK)
    let chunk = [UInt8](repeating: 0x78, count: 4096)
    while chunk.withUnsafeBytes({ Glibc.write(write, $0.baseAddress, $0.count) }) > 0 {}
    _ = fcntl(write, F_SETFL, flags)
  }

  deinit {
    closeRead()
    closeWrite()
  }
}

/// Independent helpers, so tests of the host's own I/O code do not rely on that code to check it.
enum FileDescriptorIOForTests {
  static func writeAll(_ fd: Int32, _ bytes: inout [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { return false }
      offset += n
    }
    return true
  }

  static func readToEnd(_ fd: Int32) -> [UInt8] {
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { return result }
      result += chunk[0..<n]
    }
  }
}
