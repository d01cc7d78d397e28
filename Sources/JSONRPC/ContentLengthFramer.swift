/// Splits a byte stream framed as LSP's base protocol: a header block, `\r\n\r\n`, then the body.
///
/// - Header names are case-insensitive; `Content-Length` (decimal bytes) is required, `Content-Type`
///   and unknown headers are accepted and ignored. Bare `\n` line ends are tolerated.
/// - A body longer than `maxBodyBytes` is reported once as `.oversized` and skipped as it streams in
///   (its length is known, so the stream stays in sync).
/// - A header block without a valid `Content-Length`, a malformed header line or a header block over
///   8 KiB is reported as `.framingError`; the framer then skips bytes up to the next `Content-Length:`
///   (matched case-insensitively) and goes on from there.
package struct ContentLengthFramer: MessageFramer {
  /// The largest body accepted, in bytes.
  package let maxBodyBytes: Int
  /// The largest header block accepted, in bytes.
  package static let maxHeaderBytes = 8192

  private enum State {
    /// Reading header lines.
    case headers
    /// Reading a body of the given length.
    case body(Int)
    /// Skipping the given number of bytes of an oversized body.
    case skipping(Int)
    /// Looking for the next `Content-Length:` after a framing error; the count is how much of it matched.
    case resynchronizing(Int)
  }

  private var state = State.headers
  /// The header line being read.
  private var line: [UInt8] = []
  /// Bytes of header block read so far.
  private var headerBytes = 0
  /// Whether the block had any header line (blank lines between messages are tolerated).
  private var sawHeader = false
  private var contentLength: Int?
  /// A body that continues in a later chunk.
  private var body: [UInt8] = []

  private static let resyncPattern = Array("content-length:".utf8)

  /// How many bytes of an unfinished header line or body are held (bounded by the limits).
  package var bufferedByteCount: Int { line.count + body.count }

  /// A framer accepting bodies of up to `maxBodyBytes` bytes (default 8 MiB).
  package init(maxBodyBytes: Int = Framing.defaultMaxMessageBytes) {
    precondition(maxBodyBytes > 0, "maxBodyBytes must be positive")
    self.maxBodyBytes = maxBodyBytes
  }

  package mutating func feed(_ chunk: UnsafeRawBufferPointer, _ handle: (FramingEvent) -> Void) {
    var index = 0
    while index < chunk.count {
      switch state {
      case .headers:
        let byte = chunk[index]
        index += 1
        headerBytes += 1
        if byte == 0x0A {
          endHeaderLine(handle)
        } else if headerBytes > ContentLengthFramer.maxHeaderBytes {
          fail("header block longer than \(ContentLengthFramer.maxHeaderBytes) bytes", handle)
        } else {
          line.append(byte)
        }
      case .body(let length):
        let available = chunk.count - index
        if body.isEmpty && available >= length {
          // The whole body is in this chunk: report it from there.
          state = .headers
          handle(.message(UnsafeRawBufferPointer(rebasing: chunk[index..<(index + length)])))
          index += length
        } else {
          let take = min(length - body.count, available)
          body.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[index..<(index + take)]))
          index += take
          if body.count == length {
            state = .headers
            body.withUnsafeBytes { handle(.message($0)) }
            body.removeAll(keepingCapacity: true)
          }
        }
      case .skipping(let remaining):
        let take = min(remaining, chunk.count - index)
        index += take
        state = remaining == take ? .headers : .skipping(remaining - take)
      case .resynchronizing(var matched):
        let pattern = ContentLengthFramer.resyncPattern
        let byte = chunk[index]
        index += 1
        // ASCII lower-casing; the pattern has no proper prefix that recurs, so a mismatch restarts it.
        let lower = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
        if lower == pattern[matched] {
          matched += 1
        } else {
          matched = lower == pattern[0] ? 1 : 0
        }
        if matched == pattern.count {
          state = .headers
          line = Array("Content-Length:".utf8)
          headerBytes = line.count
        } else {
          state = .resynchronizing(matched)
        }
      }
    }
  }

  package mutating func finish(_ handle: (FramingEvent) -> Void) {
    switch state {
    case .headers where line.isEmpty && !sawHeader, .resynchronizing, .skipping:
      // Nothing started, or the message was reported already.
      break
    default:
      handle(.framingError("end of input inside a message"))
    }
    self = ContentLengthFramer(maxBodyBytes: maxBodyBytes)
  }

  private mutating func endHeaderLine(_ handle: (FramingEvent) -> Void) {
    if line.last == 0x0D { line.removeLast() }
    defer { line.removeAll(keepingCapacity: true) }
    guard !line.isEmpty else {
      guard sawHeader else {
        // A blank line between messages.
        headerBytes = 0
        return
      }
      endHeaderBlock(handle)
      return
    }
    sawHeader = true
    guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
      fail("malformed header line", handle)
      return
    }
    let name = trimmed(line[..<colon])
    guard name.count == 14, name.elementsEqual("content-length".utf8, by: { asciiLower($0) == $1 }) else { return }
    let value = trimmed(line[(colon + 1)...])
    var length = 0
    for digit in value {
      guard digit >= 0x30 && digit <= 0x39, length <= (Int.max - 9) / 10 else {
        fail("invalid Content-Length", handle)
        return
      }
      length = length * 10 + Int(digit - 0x30)
    }
    guard !value.isEmpty else {
      fail("invalid Content-Length", handle)
      return
    }
    contentLength = length
  }

  private mutating func endHeaderBlock(_ handle: (FramingEvent) -> Void) {
    let length = contentLength
    contentLength = nil
    sawHeader = false
    headerBytes = 0
    guard let length else {
      fail("missing Content-Length header", handle)
      return
    }
    if length > maxBodyBytes {
      handle(.oversized(limit: maxBodyBytes))
      state = length == 0 ? .headers : .skipping(length)
    } else if length == 0 {
      state = .headers
      handle(.message(UnsafeRawBufferPointer(start: nil, count: 0)))
    } else {
      state = .body(length)
    }
  }

  private mutating func fail(_ reason: String, _ handle: (FramingEvent) -> Void) {
    line.removeAll(keepingCapacity: true)
    contentLength = nil
    sawHeader = false
    headerBytes = 0
    state = .resynchronizing(0)
    handle(.framingError(reason))
  }

  private func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    var slice = bytes
    while let first = slice.first, first == 0x20 || first == 0x09 { slice.removeFirst() }
    while let last = slice.last, last == 0x20 || last == 0x09 { slice.removeLast() }
    return slice
  }

  private func asciiLower(_ byte: UInt8) -> UInt8 {
    byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
  }
}
