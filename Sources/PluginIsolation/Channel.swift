// The parent ↔ worker channel's framing and value encoding: length-prefixed binary messages on a Unix stream socket.
// Binary rather than JSON text because the hot path (a command out, a status and a frame back) should cost a few
// stores and loads, not a json-c parse per frame; frames themselves travel as the message bytes the worker's encoder
// made, checked by the parent before they reach the client (FrameCheck.swift). Every read is bounds-checked: the
// worker runs plugin code, so what it sends is data to check, never trusted.

/// A message's kind: the first byte after its length.
enum MessageKind: UInt8 {
  // Parent → worker.
  case load = 1
  case start
  case perform
  case advance
  case terminate
  case sample
  case exit
  /// A transition's timeline (`TransitionDriver.timeline`), answered as its JSON text.
  case timeline
  /// Build a transition's next frame ahead of its tick (`TransitionDriver.prepareFrame`): no answer, but a
  /// `frameAhead` with the frame when the worker built one.
  case prepare = 16
  /// Scenes (Protocol.md, "Scenes"): open one, hand it a gesture sample, close it (no answer).
  case sceneOpen = 32
  case sceneGesture
  case sceneClose

  // Worker → parent.
  /// The answer to the call at the head of the parent's queue (decoded by what that call was).
  case reply = 64
  /// A transition's event, during the call that caused it (before its reply).
  case event
  /// A plugin's log line (any thread, any time).
  case log
  /// The first items of the answer to the call at the head of the queue, an `advance`, sent while the worker still
  /// works on the rest (which follow in more parts and the `reply`): the parent checks and forwards each part's frames
  /// while the worker encodes the next ones.
  case replyPart
  /// The frame a `prepare` built, sent ahead of its tick (`[int transition][int ticket][bytes frame]`): the parent
  /// checks it now and holds it, and the `perform` at the tick then says so, so its answer carries no frame. The 615 KB
  /// of a 1,000-view frame cross the channel (and are checked) between ticks, not after one.
  case frameAhead
}

/// What the parent did with the frame the last `prepare` sent it, as a `perform` tells the worker.
enum AheadUse: UInt8 {
  /// It holds none: a frame of the call is sent in full.
  case none
  /// It holds it: if the call's frame is that one, the answer says so and leaves it out.
  case held
  /// It sent it to the client before this call (`TransitionDriver.takeFrameAhead`): the stream is past it whatever
  /// the call does, and the answer leaves it out when the call's frame is that one.
  case sent
}

/// A message that breaks the channel's rules.
struct ChannelError: Error, CustomStringConvertible {
  var description: String

  init(_ description: String) {
    self.description = description
  }
}

/// Builds one message: `[UInt32 length, little-endian][kind][payload]`, the length counting kind and payload.
struct MessageWriter {
  private(set) var bytes: [UInt8]

  init(_ kind: MessageKind, capacity: Int = 64) {
    bytes = []
    bytes.reserveCapacity(capacity)
    bytes += [0, 0, 0, 0, kind.rawValue]
  }

  /// The finished message (its length filled in).
  mutating func finish() -> [UInt8] {
    let length = UInt32(bytes.count - 4)
    bytes[0] = UInt8(truncatingIfNeeded: length)
    bytes[1] = UInt8(truncatingIfNeeded: length >> 8)
    bytes[2] = UInt8(truncatingIfNeeded: length >> 16)
    bytes[3] = UInt8(truncatingIfNeeded: length >> 24)
    return bytes
  }

  /// Makes room for `count` more bytes (a frame about to be copied in) plus a little, growing geometrically: a batch
  /// reply reserves once per frame, and an exact reservation each time would copy the whole reply each time.
  mutating func reserve(_ count: Int) {
    let needed = bytes.count + count + 128
    if needed > bytes.capacity { bytes.reserveCapacity(max(needed, 2 * bytes.capacity)) }
  }

  /// The number of bytes written so far (the length prefix and kind included).
  var count: Int { bytes.count }

  /// Makes it a message of `kind` (a part that turned out to be the last one).
  mutating func setKind(_ kind: MessageKind) { bytes[4] = kind.rawValue }

  /// Overwrites the four bytes at `offset` with `value` (a count written before its items were known).
  mutating func setU32(_ value: UInt32, at offset: Int) {
    for shift in 0..<4 { bytes[offset + shift] = UInt8(truncatingIfNeeded: value >> (8 * shift)) }
  }

  mutating func u8(_ value: UInt8) { bytes.append(value) }
  mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }

  mutating func u32(_ value: UInt32) {
    bytes += [
      UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value >> 16),
      UInt8(truncatingIfNeeded: value >> 24),
    ]
  }

  mutating func u64(_ value: UInt64) {
    u32(UInt32(truncatingIfNeeded: value))
    u32(UInt32(truncatingIfNeeded: value >> 32))
  }

  mutating func int(_ value: Int) { u64(UInt64(bitPattern: Int64(value))) }
  mutating func double(_ value: Double) { u64(value.bitPattern) }

  mutating func string(_ value: String) {
    var value = value
    value.withUTF8 { utf8 in
      u32(UInt32(utf8.count))
      bytes.append(contentsOf: utf8)
    }
  }

  mutating func bytes(_ value: UnsafeRawBufferPointer) {
    u32(UInt32(value.count))
    bytes.append(contentsOf: value)
  }

  mutating func bytes(_ value: [UInt8]) {
    value.withUnsafeBytes { bytes($0) }
  }

  mutating func optional<T>(_ value: T?, _ write: (inout MessageWriter, T) -> Void) {
    guard let value else { return bool(false) }
    bool(true)
    write(&self, value)
  }

  mutating func strings(_ values: [String]) {
    u32(UInt32(values.count))
    for value in values { string(value) }
  }
}

/// Reads one message's payload, checking every length against what is there.
struct MessageReader {
  private let base: UnsafeRawBufferPointer
  private(set) var offset = 0

  /// Reads `payload` (borrowed: use the reader only while it is valid).
  init(_ payload: UnsafeRawBufferPointer) {
    base = payload
  }

  var isAtEnd: Bool { offset == base.count }

  /// Fails unless every byte was read.
  func expectEnd() throws(ChannelError) {
    guard isAtEnd else { throw ChannelError("\(base.count - offset) unexpected bytes at the end of a message") }
  }

  private mutating func take(_ count: Int) throws(ChannelError) -> UnsafeRawBufferPointer {
    guard count >= 0, base.count - offset >= count else {
      throw ChannelError("a message ended in the middle of a value")
    }
    defer { offset += count }
    return UnsafeRawBufferPointer(rebasing: base[offset..<(offset + count)])
  }

  mutating func u8() throws(ChannelError) -> UInt8 { try take(1)[0] }

  mutating func bool() throws(ChannelError) -> Bool {
    switch try u8() {
    case 0: return false
    case 1: return true
    case let other: throw ChannelError("\(other) is not a boolean")
    }
  }

  mutating func u32() throws(ChannelError) -> UInt32 {
    let b = try take(4)
    return UInt32(b[0]) | UInt32(b[1]) << 8 | UInt32(b[2]) << 16 | UInt32(b[3]) << 24
  }

  mutating func u64() throws(ChannelError) -> UInt64 {
    let low = try u32()
    return UInt64(low) | UInt64(try u32()) << 32
  }

  mutating func int() throws(ChannelError) -> Int { Int(Int64(bitPattern: try u64())) }
  mutating func double() throws(ChannelError) -> Double { Double(bitPattern: try u64()) }

  mutating func string() throws(ChannelError) -> String {
    String(decoding: try take(Int(try u32())), as: UTF8.self)
  }

  /// Bytes borrowed from the message.
  mutating func bytes() throws(ChannelError) -> UnsafeRawBufferPointer { try take(Int(try u32())) }

  mutating func optional<T>(_ read: (inout MessageReader) throws(ChannelError) -> T) throws(ChannelError) -> T? {
    try bool() ? try read(&self) : nil
  }

  /// A count of following values, bounded by what is left (each value takes a byte at least).
  mutating func count() throws(ChannelError) -> Int {
    let count = Int(try u32())
    guard count <= base.count - offset else { throw ChannelError("a count of \(count) is more than the message holds") }
    return count
  }

  mutating func strings() throws(ChannelError) -> [String] {
    var values: [String] = []
    for _ in 0..<(try count()) { values.append(try string()) }
    return values
  }
}

/// Splits what arrives on the channel into messages.
struct MessageDeframer {
  /// The largest message accepted: a frame of many thousand views fits many times over.
  static let maximumLength = 1 << 28

  private var buffer: [UInt8] = []
  private var start = 0

  /// Appends `chunk`, then calls `body` with each complete message's kind and payload (borrowed during the call).
  /// `body` may feed this deframer again (a handler that waits for more of the channel): the messages of this call
  /// are dispatched from a copy-on-write snapshot that the nested call does not disturb.
  mutating func feed(
    _ chunk: UnsafeRawBufferPointer, _ body: (UInt8, UnsafeRawBufferPointer) throws(ChannelError) -> Void
  ) throws(ChannelError) {
    if start == buffer.count {
      buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
      start = 0
    } else if start > 1 << 16 {
      buffer.removeFirst(start)
      start = 0
    }
    buffer.append(contentsOf: chunk)
    var messages: [(kind: UInt8, payload: Range<Int>)] = []
    while buffer.count - start >= 5 {
      let length =
        Int(buffer[start]) | Int(buffer[start + 1]) << 8 | Int(buffer[start + 2]) << 16 | Int(buffer[start + 3]) << 24
      guard length >= 1, length <= Self.maximumLength else { throw ChannelError("a message length of \(length)") }
      guard buffer.count - start - 4 >= length else { break }
      messages.append((buffer[start + 4], (start + 5)..<(start + 4 + length)))
      start += 4 + length
    }
    guard !messages.isEmpty else { return }
    let snapshot = buffer
    let outcome = snapshot.withUnsafeBytes { all -> Result<Void, ChannelError> in
      for message in messages {
        do throws(ChannelError) {
          try body(message.kind, UnsafeRawBufferPointer(rebasing: all[message.payload]))
        } catch {
          return .failure(error)
        }
      }
      return .success(())
    }
    try outcome.get()
  }

  /// Bytes of an incomplete message still waiting.
  var pendingBytes: Int { buffer.count - start }
}
