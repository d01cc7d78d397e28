/// What a framer found in the byte stream.
package enum FramingEvent {
  /// One message body, without its framing (no newline, no headers). The bytes are borrowed: valid only
  /// during the callback.
  case message(UnsafeRawBufferPointer)
  /// A message longer than the limit; it is skipped without ever being held in memory whole. Reported
  /// once per message.
  case oversized(limit: Int)
  /// Bytes that do not follow the framing (content-length framing only); the framer resynchronizes at
  /// the next `Content-Length` header.
  case framingError(String)
}

/// A byte-level framing state machine: fed arbitrary chunks, it reports whole messages.
///
/// Feeding the same bytes in any chunking (even byte by byte) reports the same events.
package protocol MessageFramer {
  /// Consumes `chunk` and reports every event it completes.
  mutating func feed(_ chunk: UnsafeRawBufferPointer, _ handle: (FramingEvent) -> Void)
  /// Reports what the end of input completes (a last line without a newline) and resets the framer.
  mutating func finish(_ handle: (FramingEvent) -> Void)
}

/// How messages are delimited on a byte stream.
package enum Framing: String, Sendable, CaseIterable {
  /// One JSON text per line, `\n`-terminated (the default).
  case newline
  /// LSP's base protocol: `Content-Length: N\r\n\r\n` then N bytes.
  case contentLength = "content-length"

  /// The default limit for one message: 8 MiB, as CONVENTIONS.md fixes it (`--max-line-bytes`).
  package static let defaultMaxMessageBytes = 8 << 20

  /// Appends `body` with this framing to `buffer`: `body + "\n"`, or
  /// `"Content-Length: N\r\n\r\n" + body`.
  package func encode(_ body: UnsafeRawBufferPointer, into buffer: inout [UInt8]) {
    switch self {
    case .newline:
      buffer.append(contentsOf: body)
      buffer.append(0x0A)
    case .contentLength:
      buffer.append(contentsOf: "Content-Length: \(body.count)\r\n\r\n".utf8)
      buffer.append(contentsOf: body)
    }
  }

  /// Frames the message body that was appended to `buffer` from `start` on, in place: a newline after it, or the
  /// `Content-Length` header moved in before it. For a body written straight into an output buffer.
  package func frameBody(startingAt start: Int, in buffer: inout [UInt8]) {
    switch self {
    case .newline:
      buffer.append(0x0A)
    case .contentLength:
      buffer.insert(contentsOf: "Content-Length: \(buffer.count - start)\r\n\r\n".utf8, at: start)
    }
  }

  /// `body` with this framing.
  package func encode(_ body: [UInt8]) -> [UInt8] {
    var buffer: [UInt8] = []
    buffer.reserveCapacity(body.count + 32)
    body.withUnsafeBytes { encode($0, into: &buffer) }
    return buffer
  }

  /// A framer for this framing.
  package func makeFramer(maxMessageBytes: Int = Framing.defaultMaxMessageBytes) -> AnyMessageFramer {
    AnyMessageFramer(framing: self, maxMessageBytes: maxMessageBytes)
  }
}

/// Whichever framer `--framing` chose, behind one type (the framing is known only at run time).
package struct AnyMessageFramer: MessageFramer {
  private var line: LineFramer?
  private var contentLength: ContentLengthFramer?

  /// A framer for `framing` with the given limit per message.
  package init(framing: Framing, maxMessageBytes: Int = Framing.defaultMaxMessageBytes) {
    switch framing {
    case .newline: line = LineFramer(maxLineBytes: maxMessageBytes)
    case .contentLength: contentLength = ContentLengthFramer(maxBodyBytes: maxMessageBytes)
    }
  }

  package mutating func feed(_ chunk: UnsafeRawBufferPointer, _ handle: (FramingEvent) -> Void) {
    // Optional chaining mutates in place (no copy of the framer's buffer).
    line?.feed(chunk, handle)
    contentLength?.feed(chunk, handle)
  }

  package mutating func finish(_ handle: (FramingEvent) -> Void) {
    line?.finish(handle)
    contentLength?.finish(handle)
  }
}
