// Just enough of Swift's lexical structure to find the tokens the bridge rewrites and to leave everything else alone:
// comments (nested block comments too), string literals of every kind (single-line, multi-line, raw with any number
// of `#`, with interpolations whose code is lexed as code), extended regex literals (`#/…/#`), identifiers (with
// backticks, `$0`), attributes (`@objc`), pound keywords (`#selector`), numbers, operators and punctuation. Comments
// and whitespace produce no tokens; string text is a token of its own, so nothing inside a string is ever rewritten.
// A bare regex literal (`/…/` without `#`) is lexed as operators, as Swift itself reads `/` in most transition code.

/// One token: what kind it is and where its bytes are in the source (UTF-8 offsets).
package struct SwiftToken: Equatable, Sendable {
  package enum Kind: Equatable, Sendable {
    /// A name or keyword: `class`, `handlePan`, `` `default` ``, `$0`, `_`.
    case identifier
    /// `@` and a name: `@objc`, `@IBAction`.
    case attribute
    /// `#` and a name: `#selector`, `#keyPath`, `#if`.
    case poundKeyword
    /// One of `( ) [ ] { } . , : ;` — or a lone `?`, `!` or `&` that is not part of a longer operator.
    case punctuation
    /// A run of operator characters: `==`, `->`, `...`, `?.` is `?` then `.`.
    case `operator`
    case number
    /// The text of a string literal up to its end or to an interpolation's `\(`; the interpolation's code follows
    /// as ordinary tokens, then the rest of the string as another string token.
    case string
    case regex
  }

  package var kind: Kind
  package var range: Range<Int>
}

/// Where the lexer found something it could not finish (an unterminated string or comment), as a byte offset.
package struct SwiftLexProblem: Equatable, Sendable {
  package var offset: Int
  package var message: String
}

/// Splits Swift source into tokens. Never fails: malformed input ends the current token at the end of the source and
/// is reported in `problems`.
package struct SwiftLexer {
  package let bytes: [UInt8]
  package private(set) var tokens: [SwiftToken] = []
  package private(set) var problems: [SwiftLexProblem] = []
  private var index = 0

  package init(_ source: String) {
    bytes = Array(source.utf8)
    lexCode(untilUnbalancedParenthesis: false)
  }

  /// The source text of a token.
  package func text(_ token: SwiftToken) -> String { text(token.range) }

  package func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

  // MARK: - Code

  /// Lexes code until the end of the source or, inside an interpolation, until the `)` that closes it (consumed).
  private mutating func lexCode(untilUnbalancedParenthesis: Bool) {
    var depth = 0
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case ASCII.space, ASCII.tab, ASCII.newline, ASCII.carriageReturn, 0x0B, 0x0C, 0:
        index += 1
      case ASCII.slash where peek(1) == ASCII.slash:
        skipLineComment()
      case ASCII.slash where peek(1) == ASCII.star:
        skipBlockComment()
      case ASCII.quote:
        lexString(start: index, hashes: 0)
      case ASCII.hash:
        lexPound()
      case ASCII.at:
        let start = index
        index += 1
        if index < bytes.count, isIdentifierStart(bytes[index]) {
          scanIdentifierBody()
          append(.attribute, start)
        } else {
          append(.punctuation, start)
        }
      case ASCII.backtick:
        let start = index
        index += 1
        while index < bytes.count, bytes[index] != ASCII.backtick, bytes[index] != ASCII.newline { index += 1 }
        if index < bytes.count, bytes[index] == ASCII.backtick { index += 1 }
        append(.identifier, start)
      case ASCII.dollar:
        let start = index
        index += 1
        scanIdentifierBody()
        append(.identifier, start)
      case ASCII.openParenthesis:
        depth += 1
        single(.punctuation)
      case ASCII.closeParenthesis:
        if untilUnbalancedParenthesis, depth == 0 {
          index += 1
          return
        }
        depth -= 1
        single(.punctuation)
      case ASCII.dot where peek(1) != ASCII.dot:
        single(.punctuation)
      case ASCII.openBracket, ASCII.closeBracket, ASCII.openBrace, ASCII.closeBrace, ASCII.comma, ASCII.colon,
        ASCII.semicolon:
        single(.punctuation)
      case _ where isDigit(byte):
        lexNumber()
      case _ where isIdentifierStart(byte):
        let start = index
        scanIdentifierBody()
        append(.identifier, start)
      case _ where isOperatorCharacter(byte) || byte == ASCII.dot:
        lexOperator()
      default:
        // Anything else (a stray backslash, a control character) is its own punctuation token.
        single(.punctuation)
      }
    }
  }

  private mutating func single(_ kind: SwiftToken.Kind) {
    tokens.append(SwiftToken(kind: kind, range: index..<index + 1))
    index += 1
  }

  private mutating func append(_ kind: SwiftToken.Kind, _ start: Int) {
    tokens.append(SwiftToken(kind: kind, range: start..<index))
  }

  private func peek(_ offset: Int) -> UInt8? {
    index + offset < bytes.count ? bytes[index + offset] : nil
  }

  private mutating func scanIdentifierBody() {
    while index < bytes.count, isIdentifierStart(bytes[index]) || isDigit(bytes[index]) { index += 1 }
  }

  private mutating func lexNumber() {
    let start = index
    while index < bytes.count {
      let byte = bytes[index]
      if isDigit(byte) || isIdentifierStart(byte) {
        index += 1
      } else if byte == ASCII.dot, let next = peek(1), isDigit(next) {
        index += 1
      } else if byte == ASCII.plus || byte == ASCII.minus, let previous = index > start ? bytes[index - 1] : nil,
        previous == 0x65 || previous == 0x45 || previous == 0x70 || previous == 0x50
      {
        index += 1  // an exponent's sign: 1e-3, 0x1p+4
      } else {
        break
      }
    }
    append(.number, start)
  }

  private mutating func lexOperator() {
    let start = index
    let dotted = bytes[index] == ASCII.dot  // `...`, `..<`: operators that start with a dot may contain dots
    while index < bytes.count {
      let byte = bytes[index]
      if byte == ASCII.slash, peek(1) == ASCII.slash || peek(1) == ASCII.star { break }
      guard isOperatorCharacter(byte) || (dotted && byte == ASCII.dot) else { break }
      index += 1
    }
    let lone = index - start == 1 && [ASCII.question, ASCII.exclamation, ASCII.ampersand].contains(bytes[start])
    append(lone ? .punctuation : .operator, start)
  }

  // MARK: - Comments

  private mutating func skipLineComment() {
    while index < bytes.count, bytes[index] != ASCII.newline { index += 1 }
  }

  private mutating func skipBlockComment() {
    let start = index
    index += 2
    var depth = 1
    while index < bytes.count {
      if bytes[index] == ASCII.slash, peek(1) == ASCII.star {
        depth += 1
        index += 2
      } else if bytes[index] == ASCII.star, peek(1) == ASCII.slash {
        depth -= 1
        index += 2
        if depth == 0 { return }
      } else {
        index += 1
      }
    }
    problems.append(SwiftLexProblem(offset: start, message: "unterminated block comment"))
  }

  // MARK: - `#`: raw strings, extended regex literals, pound keywords

  private mutating func lexPound() {
    let start = index
    var hashes = 0
    while index + hashes < bytes.count, bytes[index + hashes] == ASCII.hash { hashes += 1 }
    let after = peek(hashes)
    if after == ASCII.quote {
      index += hashes
      lexString(start: start, hashes: hashes)
    } else if after == ASCII.slash {
      index += hashes + 1
      lexExtendedRegex(start: start, hashes: hashes)
    } else if hashes == 1, let after, isIdentifierStart(after) {
      index += 1
      scanIdentifierBody()
      append(.poundKeyword, start)
    } else {
      single(.punctuation)
    }
  }

  private mutating func lexExtendedRegex(start: Int, hashes: Int) {
    while index < bytes.count {
      if bytes[index] == ASCII.backslash {
        index += 2
      } else if bytes[index] == ASCII.slash, hashesFollow(at: index + 1, count: hashes) {
        index += 1 + hashes
        append(.regex, start)
        return
      } else {
        index += 1
      }
    }
    index = bytes.count
    append(.regex, start)
    problems.append(SwiftLexProblem(offset: start, message: "unterminated regex literal"))
  }

  private func hashesFollow(at position: Int, count: Int) -> Bool {
    guard position + count <= bytes.count else { return false }
    return bytes[position..<position + count].allSatisfy { $0 == ASCII.hash }
  }

  // MARK: - Strings

  /// Lexes a string literal whose opening quote is at `index`; `start` is where its `#`s began.
  private mutating func lexString(start: Int, hashes: Int) {
    let multiline = peek(1) == ASCII.quote && peek(2) == ASCII.quote
    index += multiline ? 3 : 1
    var segmentStart = start
    while index < bytes.count {
      let byte = bytes[index]
      if byte == ASCII.backslash, hashesFollow(at: index + 1, count: hashes) {
        let escaped = index + 1 + hashes
        if escaped < bytes.count, bytes[escaped] == ASCII.openParenthesis {
          tokens.append(SwiftToken(kind: .string, range: segmentStart..<escaped + 1))
          index = escaped + 1
          lexCode(untilUnbalancedParenthesis: true)
          segmentStart = index - 1  // the interpolation's `)` belongs to the string's next segment
          continue
        }
        index = min(escaped + 1, bytes.count)
      } else if byte == ASCII.quote, !multiline || (peek(1) == ASCII.quote && peek(2) == ASCII.quote) {
        let close = index + (multiline ? 3 : 1)
        if hashesFollow(at: close, count: hashes) {
          index = close + hashes
          tokens.append(SwiftToken(kind: .string, range: segmentStart..<index))
          return
        }
        index += 1
      } else if byte == ASCII.newline, !multiline {
        break
      } else {
        index += 1
      }
    }
    tokens.append(SwiftToken(kind: .string, range: segmentStart..<index))
    problems.append(SwiftLexProblem(offset: start, message: "unterminated string literal"))
  }
}

// MARK: - Character classes

enum ASCII {
  static let tab: UInt8 = 0x09
  static let newline: UInt8 = 0x0A
  static let carriageReturn: UInt8 = 0x0D
  static let space: UInt8 = 0x20
  static let exclamation: UInt8 = 0x21
  static let quote: UInt8 = 0x22
  static let hash: UInt8 = 0x23
  static let dollar: UInt8 = 0x24
  static let ampersand: UInt8 = 0x26
  static let openParenthesis: UInt8 = 0x28
  static let closeParenthesis: UInt8 = 0x29
  static let star: UInt8 = 0x2A
  static let plus: UInt8 = 0x2B
  static let comma: UInt8 = 0x2C
  static let minus: UInt8 = 0x2D
  static let dot: UInt8 = 0x2E
  static let slash: UInt8 = 0x2F
  static let colon: UInt8 = 0x3A
  static let semicolon: UInt8 = 0x3B
  static let question: UInt8 = 0x3F
  static let at: UInt8 = 0x40
  static let openBracket: UInt8 = 0x5B
  static let backslash: UInt8 = 0x5C
  static let closeBracket: UInt8 = 0x5D
  static let underscore: UInt8 = 0x5F
  static let backtick: UInt8 = 0x60
  static let openBrace: UInt8 = 0x7B
  static let closeBrace: UInt8 = 0x7D
}

private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

/// Letters, `_`, and every byte of a multi-byte UTF-8 sequence (Swift allows most non-ASCII characters in names).
private func isIdentifierStart(_ byte: UInt8) -> Bool {
  (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == ASCII.underscore || byte >= 0x80
}

private func isOperatorCharacter(_ byte: UInt8) -> Bool {
  switch byte {
  case 0x2F, 0x3D, 0x2D, 0x2B, 0x21, 0x2A, 0x25, 0x3C, 0x3E, 0x26, 0x7C, 0x5E, 0x7E, 0x3F: return true
  default: return false
  }
}
