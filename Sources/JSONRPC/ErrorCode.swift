/// A JSON-RPC error code: the five the specification reserves and LSP's `RequestCancelled`. An application adds
/// its own codes (outside the range JSON-RPC reserves, −32768…−32000) as static members in its own module: the
/// transition service's are in its ApplicationErrorCodes.swift.
package struct ErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  package var rawValue: Int

  package init(rawValue: Int) {
    self.rawValue = rawValue
  }

  package var description: String { String(rawValue) }

  // MARK: JSON-RPC 2.0

  /// Invalid JSON was received (−32700).
  package static let parseError = ErrorCode(rawValue: -32700)
  /// The JSON sent is not a valid request object (−32600).
  package static let invalidRequest = ErrorCode(rawValue: -32600)
  /// The method does not exist or is not available (−32601).
  package static let methodNotFound = ErrorCode(rawValue: -32601)
  /// Invalid method parameters (−32602).
  package static let invalidParams = ErrorCode(rawValue: -32602)
  /// An internal error of the host (−32603).
  package static let internalError = ErrorCode(rawValue: -32603)

  // MARK: LSP

  /// The request was cancelled with `$/cancelRequest` before it finished (−32800, LSP's RequestCancelled).
  package static let requestCancelled = ErrorCode(rawValue: -32800)
}
