import CPOSIX
import Glibc

extension FileDescriptor {
  /// A connected pair of Unix stream sockets (socketpair(2)), both close-on-exec from birth: a two-way channel to a
  /// child that gets one end as an inherited descriptor.
  package static func socketPair() throws(Errno) -> (FileDescriptor, FileDescriptor) {
    var fds: [Int32] = [-1, -1]
    _ = try Errno.check { socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) }
    return (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
  }

  /// An anonymous file in memory (memfd_create(2)), close-on-exec; `sealable` lets `sealContents` freeze it later.
  package static func memoryFile(name: String, sealable: Bool = false) throws(Errno) -> FileDescriptor {
    FileDescriptor(rawValue: try Errno.check { CPOSIX_memfd_create(name, sealable ? 1 : 0) })
  }

  /// Freezes a sealable memory file: neither its size nor its bytes can change any more, through any descriptor.
  package func sealContents() throws(Errno) {
    _ = try Errno.check { CPOSIX_seal_contents(rawValue) }
  }

  /// ftruncate(2).
  package func truncate(to size: Int) throws(Errno) {
    _ = try Errno.check { ftruncate(rawValue, off_t(size)) }
  }
}

/// Memory shared with another process: a `MAP_SHARED` mapping of a file, read and written as 64-bit words with
/// atomic operations (each word is seen whole by the other side, in the order it was written).
///
/// The other side may be hostile (a plugin's process can scribble over its mapping): treat what you read as data
/// to check, never as a pointer or an index.
package final class SharedMemory: @unchecked Sendable {
  private let base: UnsafeMutableRawPointer
  /// Bytes mapped.
  package let size: Int

  /// Maps the first `size` bytes of `file` read-write (the descriptor can be closed afterwards).
  package init(mapping file: FileDescriptor, size: Int) throws(Errno) {
    let address = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, file.rawValue, 0)
    guard let address, address != MAP_FAILED else { throw Errno.current }
    base = address
    self.size = size
  }

  /// How many 64-bit words fit.
  package var wordCount: Int { size / 8 }

  private func word(_ index: Int) -> UnsafeMutablePointer<UInt64> {
    precondition(index >= 0 && index < wordCount, "word \(index) is outside the mapping")
    return (base + index * 8).assumingMemoryBound(to: UInt64.self)
  }

  /// Word `index`, read atomically.
  package func load(_ index: Int) -> UInt64 { CPOSIX_atomic_load_u64(word(index)) }

  /// Writes word `index` atomically.
  package func store(_ index: Int, _ value: UInt64) { CPOSIX_atomic_store_u64(word(index), value) }

  /// Adds `delta` to word `index` atomically; returns the new value.
  @discardableResult
  package func add(_ index: Int, _ delta: UInt64) -> UInt64 { CPOSIX_atomic_add_u64(word(index), delta) }

  deinit {
    munmap(base, size)
  }
}
