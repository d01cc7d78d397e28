import POSIX

/// What a shared object's dynamic section says about its dependencies: the libraries it needs (`DT_NEEDED`) and
/// where the dynamic loader looks for them (`DT_RUNPATH`, or the older `DT_RPATH`), read from the file without
/// mapping it (ELF 32 and 64 bit, either byte order; the System V gABI's layouts).
///
/// The private copy uses it to give a plugin's `$ORIGIN` dependencies a home in its private folder, and `validate`
/// to warn about search folders that anyone could write to.
package struct ELFDynamicInfo: Sendable, Equatable {
  /// `DT_NEEDED`, in order.
  package var needed: [String] = []
  /// `DT_RUNPATH` entries (colon-separated in the file), in order.
  package var runpath: [String] = []
  /// `DT_RPATH` entries; the loader ignores them when there is a `DT_RUNPATH`.
  package var rpath: [String] = []
  /// `DT_SONAME`.
  package var soname: String?

  package init(needed: [String] = [], runpath: [String] = [], rpath: [String] = [], soname: String? = nil) {
    self.needed = needed
    self.runpath = runpath
    self.rpath = rpath
    self.soname = soname
  }

  /// The search folders the loader uses for this object's own dependencies: its RUNPATH, or its RPATH when it has
  /// no RUNPATH.
  package var searchEntries: [String] { runpath.isEmpty ? rpath : runpath }

  /// Why a file's dynamic section could not be read.
  package struct ReadError: Error, Sendable, Equatable, CustomStringConvertible {
    package var description: String
  }

  /// Reads the dynamic section of the ELF file at `path`. A file without one (a static object) has no needs.
  package static func read(path: String) throws(ReadError) -> ELFDynamicInfo {
    let file: FileDescriptor
    do { file = try FileDescriptor.open(path, .readOnly, options: .closeOnExec) } catch {
      throw ReadError(description: "cannot open \(path): \(error)")
    }
    defer { try? file.close() }
    return try read(file)
  }

  /// Reads the dynamic section of the open ELF file `file` (with pread; the file position does not move).
  package static func read(_ file: FileDescriptor) throws(ReadError) -> ELFDynamicInfo {
    var reader = Reader(file: file)
    let identity = try reader.bytes(at: 0, count: 16)
    guard identity[0..<4] == [0x7F, 0x45, 0x4C, 0x46] else { throw ReadError(description: "not an ELF file") }
    guard identity[4] == 1 || identity[4] == 2 else { throw ReadError(description: "unknown ELF class") }
    guard identity[5] == 1 || identity[5] == 2 else { throw ReadError(description: "unknown ELF byte order") }
    reader.is64 = identity[4] == 2
    reader.isLittleEndian = identity[5] == 1

    // The program headers: PT_LOAD segments map addresses to file offsets, PT_DYNAMIC holds the dynamic entries.
    let is64 = reader.is64
    let headerOffset = try reader.word(at: is64 ? 0x20 : 0x1C)
    let headerSize = try reader.half(at: is64 ? 0x36 : 0x2A)
    let headerCount = try reader.half(at: is64 ? 0x38 : 0x2C)
    var loads: [(address: UInt64, offset: UInt64, size: UInt64)] = []
    var dynamic: (offset: UInt64, size: UInt64)?
    for index in 0..<headerCount {
      let at = headerOffset + UInt64(index) * UInt64(headerSize)
      let type = try reader.u32(at: at)
      let offset = try reader.word(at: at + (is64 ? 8 : 4))
      let address = try reader.word(at: at + (is64 ? 16 : 8))
      let fileSize = try reader.word(at: at + (is64 ? 32 : 16))
      if type == 1 { loads.append((address, offset, fileSize)) }  // PT_LOAD
      if type == 2 { dynamic = (offset, fileSize) }  // PT_DYNAMIC
    }
    guard let dynamic else { return ELFDynamicInfo() }

    var stringTableAddress: UInt64?
    var neededOffsets: [UInt64] = []
    var runpathOffset: UInt64?
    var rpathOffset: UInt64?
    var sonameOffset: UInt64?
    let entrySize: UInt64 = is64 ? 16 : 8
    var at = dynamic.offset
    entries: while at + entrySize <= dynamic.offset + dynamic.size {
      let tag = try reader.word(at: at)
      let value = try reader.word(at: at + entrySize / 2)
      at += entrySize
      switch tag {
      case 0: break entries  // DT_NULL ends the table
      case 1: neededOffsets.append(value)  // DT_NEEDED
      case 5: stringTableAddress = value  // DT_STRTAB
      case 14: sonameOffset = value  // DT_SONAME
      case 15: rpathOffset = value  // DT_RPATH
      case 29: runpathOffset = value  // DT_RUNPATH
      default: break
      }
    }
    guard let stringTableAddress else {
      if neededOffsets.isEmpty && runpathOffset == nil && rpathOffset == nil { return ELFDynamicInfo() }
      throw ReadError(description: "the dynamic section has no string table")
    }
    guard
      let segment = loads.first(where: { $0.address <= stringTableAddress && stringTableAddress < $0.address + $0.size }
      )
    else { throw ReadError(description: "the string table lies outside every loaded segment") }
    let tableOffset = stringTableAddress - segment.address + segment.offset

    func string(_ offset: UInt64) throws(ReadError) -> String { try reader.cString(at: tableOffset + offset) }
    var info = ELFDynamicInfo()
    for offset in neededOffsets { info.needed.append(try string(offset)) }
    if let runpathOffset { info.runpath = try string(runpathOffset).split(separator: ":").map(String.init) }
    if let rpathOffset { info.rpath = try string(rpathOffset).split(separator: ":").map(String.init) }
    if let sonameOffset { info.soname = try string(sonameOffset) }
    return info
  }

  /// `entry` with `$ORIGIN` and `${ORIGIN}` replaced by `origin`; nil when it holds another dynamic string token
  /// (`$LIB`, `$PLATFORM`), which this host does not expand.
  package static func expand(_ entry: String, origin: String) -> String? {
    let expanded = entry.replacingAll("${ORIGIN}", with: origin).replacingAll("$ORIGIN", with: origin)
    return expanded.contains("$") ? nil : expanded
  }

  /// Whether `entry` is relative to `$ORIGIN`.
  package static func usesOrigin(_ entry: String) -> Bool {
    entry.contains("$ORIGIN") || entry.contains("${ORIGIN}")
  }

  /// Reads fixed-size fields at file offsets.
  private struct Reader {
    let file: FileDescriptor
    var is64 = true
    var isLittleEndian = true

    func bytes(at offset: UInt64, count: Int) throws(ReadError) -> [UInt8] {
      var buffer = [UInt8](repeating: 0, count: count)
      guard offset < UInt64(Int.max) else { throw ReadError(description: "offset \(offset) is out of range") }
      let read: Int
      do { read = try file.read(fromAbsoluteOffset: Int(offset), into: &buffer) } catch {
        throw ReadError(description: "cannot read: \(error)")
      }
      guard read == count else { throw ReadError(description: "the file ends inside its ELF headers") }
      return buffer
    }

    func unsigned(at offset: UInt64, size: Int) throws(ReadError) -> UInt64 {
      let raw = try bytes(at: offset, count: size)
      let ordered = isLittleEndian ? raw.reversed() : raw
      return ordered.reduce(0) { $0 << 8 | UInt64($1) }
    }

    func half(at offset: UInt64) throws(ReadError) -> UInt64 { try unsigned(at: offset, size: 2) }
    func u32(at offset: UInt64) throws(ReadError) -> UInt64 { try unsigned(at: offset, size: 4) }
    /// An address, offset or size: 8 bytes in ELF64, 4 in ELF32.
    func word(at offset: UInt64) throws(ReadError) -> UInt64 { try unsigned(at: offset, size: is64 ? 8 : 4) }

    /// The NUL-terminated string at `offset` (at most 64 KiB).
    func cString(at offset: UInt64) throws(ReadError) -> String {
      var result: [UInt8] = []
      var at = offset
      while result.count < 65536 {
        var chunk = [UInt8](repeating: 0, count: 256)
        let read: Int
        do { read = try file.read(fromAbsoluteOffset: Int(at), into: &chunk) } catch {
          throw ReadError(description: "cannot read: \(error)")
        }
        guard read > 0 else { throw ReadError(description: "a string runs past the end of the file") }
        if let end = chunk[..<read].firstIndex(of: 0) {
          result += chunk[..<end]
          return String(decoding: result, as: UTF8.self)
        }
        result += chunk[..<read]
        at += UInt64(read)
      }
      throw ReadError(description: "a string is longer than 64 KiB")
    }
  }
}
