import JSON
import JSONRPC

/// What `initialize` announces in `capabilities`. Clients ignore what they do not understand, so new features
/// add members here instead of changing the protocol version.
package struct ServerCapabilities {
  /// Framings the host can speak (chosen at start with `--framing`).
  package var framing: [Framing] = Framing.allCases
  /// The message size limit in force (`--max-line-bytes`).
  package var maxMessageBytes: Int
  /// Frame formats of `transition/start`'s `frames` (filled in by the protocol layer).
  package var frames: [String] = []
  /// Clocks of `transition/start`'s `clock` (filled in by the protocol layer).
  package var clocks: [String] = []

  package init(maxMessageBytes: Int) {
    self.maxMessageBytes = maxMessageBytes
  }

  /// The `capabilities` object.
  package var json: JSON {
    .object([
      ("framing", .array(framing.map { JSON($0.rawValue) })),
      ("maxMessageBytes", JSON(maxMessageBytes)),
      ("batches", JSON(true)),
      ("cancelRequest", JSON(true)),
      ("frames", .array(frames.map { JSON($0) })),
      ("clocks", .array(clocks.map { JSON($0) })),
    ])
  }
}
