import Glibc

/// Splits a byte stream into lines, one JSON text per line (NDJSON / JSON Lines).
///
/// - A line ends at `\n`; one trailing `\r` is stripped (CRLF clients).
/// - Lines holding only spaces, tabs and `\r` are ignored.
/// - A UTF-8 byte order mark at the very start of the stream is skipped.
/// - A line longer than `maxLineBytes` (not counting its `\n` and a trailing `\r`) is reported once as
///   `.oversized` as soon as it is known to be too long, and its remaining bytes are discarded while they
///   stream in: memory is bounded by the limit, never by the line.
/// - At the end of input, a last line without `\n` is still a message.
///
/// Lines are found with `memchr`; a line that lies entirely in one chunk is reported straight from it.
package struct LineFramer: MessageFramer {
  /// The longest line accepted, in bytes.
  package let maxLineBytes: Int
  /// The start of a line that continues in a later chunk (at most `maxLineBytes + 1` bytes).
  private var buffer: [UInt8] = []
  /// True inside an overlong line, until its `\n`.
  private var discarding = false
  /// How many bytes of a byte order mark were matched at the start of the stream; nil once decided.
  private var byteOrderMarkMatched: Int? = 0

  private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

  /// How many bytes of an unfinished line are held (never more than `maxLineBytes + 1`).
  package var bufferedByteCount: Int { buffer.count }

  /// A framer accepting lines of up to `maxLineBytes` bytes (default 8 MiB).
  package init(maxLineBytes: Int = Framing.defaultMaxMessageBytes) {
    precondition(maxLineBytes > 0, "maxLineBytes must be positive")
    self.maxLineBytes = maxLineBytes
  }

  package mutating func feed(_ chunk: UnsafeRawBufferPointer, _ handle: (FramingEvent) -> Void) {
    guard let base = chunk.baseAddress, !chunk.isEmpty else { return }
    var start = skipByteOrderMark(chunk)
    while start < chunk.count {
      guard let newline = memchr(base + start, 0x0A, chunk.count - start) else {
        append(UnsafeRawBufferPointer(rebasing: chunk[start...]), handle)
        return
      }
      let end = base.distance(to: UnsafeRawPointer(newline))
      let line = UnsafeRawBufferPointer(rebasing: chunk[start..<end])
      if discarding {
        discarding = false
      } else if buffer.isEmpty {
        deliver(line, handle)
      } else {
        append(line, handle)
        if !discarding { buffer.withUnsafeBytes { deliver($0, handle) } }
        discarding = false
        buffer.removeAll(keepingCapacity: true)
      }
      start = end + 1
    }
  }

  package mutating func finish(_ handle: (FramingEvent) -> Void) {
    if let matched = byteOrderMarkMatched, matched > 0 {
      buffer.insert(contentsOf: LineFramer.byteOrderMark[..<matched], at: 0)
    }
    if !discarding && !buffer.isEmpty { buffer.withUnsafeBytes { deliver($0, handle) } }
    buffer = []
    discarding = false
    byteOrderMarkMatched = 0
  }

  /// Skips a byte order mark at the start of the stream, even one split across chunks; returns where
  /// the content of `chunk` starts.
  private mutating func skipByteOrderMark(_ chunk: UnsafeRawBufferPointer) -> Int {
    guard var matched = byteOrderMarkMatched else { return 0 }
    var index = 0
    while index < chunk.count && matched < 3 {
      guard chunk[index] == LineFramer.byteOrderMark[matched] else {
        // Not a byte order mark: the bytes matched so far are content.
        buffer.append(contentsOf: LineFramer.byteOrderMark[..<matched])
        byteOrderMarkMatched = nil
        return index
      }
      matched += 1
      index += 1
    }
    byteOrderMarkMatched = matched == 3 ? nil : matched
    return index
  }

  /// Adds part of an unfinished line to the buffer, or reports the line as oversized.
  private mutating func append(_ part: UnsafeRawBufferPointer, _ handle: (FramingEvent) -> Void) {
    guard !discarding, !part.isEmpty else { return }
    let total = buffer.count + part.count
    // One byte over the limit may still be the `\r` of a CRLF ending.
    if total > maxLineBytes + 1 || (total == maxLineBytes + 1 && part[part.count - 1] != 0x0D) {
      discarding = true
      buffer = []
      handle(.oversized(limit: maxLineBytes))
      return
    }
    buffer.append(contentsOf: part)
  }

  /// Reports a complete line (without its `\n`).
  private func deliver(_ line: UnsafeRawBufferPointer, _ handle: (FramingEvent) -> Void) {
    var length = line.count
    if length > 0 && line[length - 1] == 0x0D { length -= 1 }
    if length > maxLineBytes {
      handle(.oversized(limit: maxLineBytes))
      return
    }
    var index = 0
    while index < length && (line[index] == 0x20 || line[index] == 0x09 || line[index] == 0x0D) { index += 1 }
    if index == length { return }
    handle(.message(UnsafeRawBufferPointer(rebasing: line[..<length])))
  }
}
