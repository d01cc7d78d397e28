// The UIKit source bridge: rewrites a Swift file written for iOS so that it compiles on Linux, where Swift has no
// Objective-C interoperability. What the Objective-C runtime would do at run time is made explicit in the source:
//
// - `@objc`, `@objc(name)`, `@objcMembers`, `@nonobjc` and Interface Builder's `@IBAction`, `@IBOutlet`,
//   `@IBInspectable`, `@IBDesignable`, `@IBSegueAction` are dropped (replaced by spaces, so columns stay), and
//   `dynamic` with them on the same declaration (it asks for Objective-C message dispatch, for key-value observing).
// - An `@objc protocol` becomes class-bound (`: AnyObject`), as Objective-C protocols are.
// - `#selector(expr)` becomes a TransitionKit `Selector` that carries the call:
//   `Selector("handle(_:)", action: { target, sender in <target as the type>.handle(_:) applied to sender })`.
// - `#keyPath(Type.a.b)` becomes the string `"a.b"`, which is all it is.
//
// Lines never move (a rewrite that spans lines keeps its line breaks), so the compiler's diagnostics, pointed back at
// the original file with `#sourceLocation`, name the right lines. Forms the runtime alone could serve (an `optional`
// protocol requirement, a `#selector` of an arbitrary expression) are reported as errors at their place in the file.

/// A problem the bridge found, with its place in the original file (1-based line and column).
package struct SourceBridgeDiagnostic: Equatable, Sendable, CustomStringConvertible {
  package var line: Int
  package var column: Int
  package var message: String

  /// `line:column: error: message`, the compiler's format without the path.
  package var description: String { "\(line):\(column): error: \(message)" }
}

/// What bridging one file gave: the rewritten text and its errors (when there are errors the text must not be
/// compiled).
package struct BridgedSource: Sendable {
  package var text: String
  package var diagnostics: [SourceBridgeDiagnostic]
}

package enum SourceBridge {
  /// The rewritten `source`, and what could not be rewritten. `path`, when given, is the original file's path: the
  /// text then starts with `#sourceLocation(file: path, line: 1)` so that the compiler reports on that file.
  package static func bridge(_ source: String, path: String? = nil) -> BridgedSource {
    var rewriter = Rewriter(source)
    rewriter.run()
    var text = rewriter.output()
    if let path {
      text = "#sourceLocation(file: \(stringLiteral(path)), line: 1)\n" + text + "\n#sourceLocation()\n"
    }
    return BridgedSource(text: text, diagnostics: rewriter.diagnostics)
  }

  /// `value` as a Swift string literal.
  static func stringLiteral(_ value: String) -> String {
    var literal = "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\\": literal += "\\\\"
      case "\"": literal += "\\\""
      case "\n": literal += "\\n"
      case "\t": literal += "\\t"
      case "\r": literal += "\\r"
      default: literal.unicodeScalars.append(scalar)
      }
    }
    return literal + "\""
  }
}

/// The names of TransitionKit's helpers the rewritten code calls (Sources/TransitionKit/Selector.swift).
enum BridgeRuntime {
  static let helper = "_UIKitSourceBridge"
}

// MARK: - The rewriter

private struct Edit {
  var range: Range<Int>
  var replacement: String
}

/// A brace scope while walking the file: a type's body (with the name to cast a selector's target to), or any other
/// braces.
private struct Scope {
  enum Kind {
    case type(String)
    /// An extension's or protocol's body: a selector's target is `Self` there.
    case selfType
    case other
  }
  var kind: Kind
}

private struct Rewriter {
  let lexer: SwiftLexer
  var tokens: [SwiftToken] { lexer.tokens }
  var edits: [Edit] = []
  var diagnostics: [SourceBridgeDiagnostic] = []
  private var scopes: [Scope] = []
  private var pendingScope: Scope?
  /// Tokens already consumed by an edit (a `#selector(…)`'s argument), not to be looked at again.
  private var skipUntil = 0

  init(_ source: String) {
    lexer = SwiftLexer(source)
  }

  mutating func run() {
    for problem in lexer.problems { report(at: problem.offset, problem.message) }
    var position = 0
    while position < tokens.count {
      if position >= skipUntil { visit(position) }
      position += 1
    }
  }

  func output() -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(lexer.bytes.count + edits.count * 96)
    var cursor = 0
    for edit in edits.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
      guard edit.range.lowerBound >= cursor else { continue }  // overlapping edits cannot happen; keep the first
      bytes += lexer.bytes[cursor..<edit.range.lowerBound]
      bytes += Array(edit.replacement.utf8)
      cursor = edit.range.upperBound
    }
    bytes += lexer.bytes[cursor...]
    return String(decoding: bytes, as: UTF8.self)
  }

  // MARK: Walking

  private mutating func visit(_ position: Int) {
    let token = tokens[position]
    let text = lexer.text(token)
    switch token.kind {
    case .punctuation where text == "{":
      scopes.append(pendingScope ?? Scope(kind: .other))
      pendingScope = nil
    case .punctuation where text == "}":
      if !scopes.isEmpty { scopes.removeLast() }
    case .identifier:
      noteDeclaration(at: position, keyword: text)
      if text == "optional", isModifierContext(after: position) {
        report(
          at: token.range.lowerBound,
          "an optional protocol requirement needs the Objective-C runtime: make it a plain requirement with a "
            + "default implementation in a protocol extension")
      }
    case .attribute where Self.droppedAttributes.contains(text):
      dropAttribute(at: position, objc: text == "@objc" || text == "@objcMembers")
    case .poundKeyword where text == "#selector":
      rewriteSelector(at: position)
    case .poundKeyword where text == "#keyPath":
      rewriteKeyPath(at: position)
    default:
      break
    }
  }

  static let droppedAttributes: Set<String> = [
    "@objc", "@objcMembers", "@nonobjc", "@IBAction", "@IBOutlet", "@IBInspectable", "@IBDesignable",
    "@IBSegueAction",
  ]

  static let typeKeywords: Set<String> = ["class", "struct", "enum", "actor", "protocol", "extension"]

  /// Keywords that may follow `class` when it is a modifier (`class func`), and that precede a declaration.
  static let modifiers: Set<String> = [
    "public", "private", "fileprivate", "internal", "open", "package", "final", "override", "required",
    "convenience", "static", "class", "dynamic", "lazy", "weak", "unowned", "mutating", "nonmutating", "optional",
    "nonisolated", "indirect", "prefix", "postfix", "infix", "distributed",
  ]
  static let declarationKeywords: Set<String> = [
    "func", "var", "let", "init", "deinit", "subscript", "typealias", "associatedtype", "case", "class", "struct",
    "enum", "actor", "protocol", "extension", "macro", "operator", "precedencegroup",
  ]

  /// Remembers a type declaration (`class Name`, `extension Name`) so that the next `{` opens its body.
  private mutating func noteDeclaration(at position: Int, keyword: String) {
    guard Self.typeKeywords.contains(keyword), position + 1 < tokens.count else { return }
    let next = tokens[position + 1]
    let name = lexer.text(next)
    guard next.kind == .identifier, !Self.modifiers.contains(name), !Self.declarationKeywords.contains(name) else {
      return
    }
    if position > 0, lexer.text(tokens[position - 1]) == "." { return }  // `.class`, a member named like a keyword
    switch keyword {
    case "extension", "protocol": pendingScope = Scope(kind: .selfType)
    case "actor":
      // `actor` is contextual: a declaration only when a body, inheritance or generics follow its name.
      guard position + 2 < tokens.count, ["{", ":", "<", "where"].contains(lexer.text(tokens[position + 2])) else {
        return
      }
      pendingScope = Scope(kind: .type(name))
    default: pendingScope = Scope(kind: .type(name))
    }
  }

  /// Whether the token after `position` continues a declaration's modifiers (`optional func`, `optional var`).
  private func isModifierContext(after position: Int) -> Bool {
    guard position + 1 < tokens.count else { return false }
    let next = tokens[position + 1]
    let text = lexer.text(next)
    return next.kind == .attribute || Self.modifiers.contains(text) || Self.declarationKeywords.contains(text)
  }

  // MARK: Attributes

  /// Blanks an attribute (and its parenthesized argument, `@objc(name)`). For `@objc`, also blanks `dynamic` among
  /// the same declaration's modifiers and makes an `@objc protocol` class-bound.
  private mutating func dropAttribute(at position: Int, objc: Bool) {
    var end = position + 1
    if end < tokens.count, lexer.text(tokens[end]) == "(",
      tokens[end].range.lowerBound == tokens[position].range.upperBound
    {
      end = matchingClose(from: end) + 1
    }
    blank(tokens[position].range.lowerBound..<tokens[min(end, tokens.count) - 1].range.upperBound)
    skipUntil = max(skipUntil, end)
    guard objc else { return }

    // The declaration's other attributes and modifiers, then its keyword.
    var cursor = end
    while cursor < tokens.count {
      let token = tokens[cursor]
      let text = lexer.text(token)
      if token.kind == .attribute {
        cursor += 1
        if cursor < tokens.count, lexer.text(tokens[cursor]) == "(" { cursor = matchingClose(from: cursor) + 1 }
      } else if token.kind == .identifier, Self.modifiers.contains(text),
        !(text == "class" && isTypeDeclarationName(at: cursor + 1))
      {
        if text == "dynamic" { blank(token.range) }
        cursor += 1
        if cursor < tokens.count, lexer.text(tokens[cursor]) == "(" { cursor = matchingClose(from: cursor) + 1 }
      } else {
        break
      }
    }
    if cursor + 1 < tokens.count, lexer.text(tokens[cursor]) == "protocol", tokens[cursor + 1].kind == .identifier {
      makeClassBound(protocolNameAt: cursor + 1)
    }
  }

  private func isTypeDeclarationName(at position: Int) -> Bool {
    guard position < tokens.count, tokens[position].kind == .identifier else { return false }
    let text = lexer.text(tokens[position])
    return !Self.modifiers.contains(text) && !Self.declarationKeywords.contains(text)
  }

  /// `@objc protocol P {` → `protocol P: AnyObject {`; `@objc protocol P: Q {` → `protocol P: AnyObject, Q {`
  /// unless the protocol already says `AnyObject` or `class`.
  private mutating func makeClassBound(protocolNameAt position: Int) {
    let nameEnd = tokens[position].range.upperBound
    guard position + 1 < tokens.count else { return }
    let next = tokens[position + 1]
    guard lexer.text(next) == ":" else {
      edits.append(Edit(range: nameEnd..<nameEnd, replacement: ": AnyObject"))
      return
    }
    var cursor = position + 2
    while cursor < tokens.count, !["{", "where"].contains(lexer.text(tokens[cursor])) {
      if ["AnyObject", "class", "NSObjectProtocol"].contains(lexer.text(tokens[cursor])) { return }
      cursor += 1
    }
    edits.append(Edit(range: next.range.upperBound..<next.range.upperBound, replacement: " AnyObject,"))
  }

  /// Replaces a range by spaces, keeping its line breaks.
  private mutating func blank(_ range: Range<Int>) {
    let replacement = lexer.bytes[range].map { $0 == ASCII.newline ? "\n" : " " }.joined()
    edits.append(Edit(range: range, replacement: replacement))
  }

  /// The index of the token that closes the bracket at `open` (the last token when it is never closed).
  private func matchingClose(from open: Int) -> Int {
    var depth = 0
    var cursor = open
    while cursor < tokens.count {
      let token = tokens[cursor]
      if token.kind == .punctuation {
        switch lexer.text(token) {
        case "(", "[", "{": depth += 1
        case ")", "]", "}":
          depth -= 1
          if depth == 0 { return cursor }
        default: break
        }
      }
      cursor += 1
    }
    return tokens.count - 1
  }

  private mutating func report(at offset: Int, _ message: String) {
    var line = 1
    var lineStart = 0
    for index in 0..<min(offset, lexer.bytes.count) where lexer.bytes[index] == ASCII.newline {
      line += 1
      lineStart = index + 1
    }
    let column = String(decoding: lexer.bytes[lineStart..<min(offset, lexer.bytes.count)], as: UTF8.self).count + 1
    diagnostics.append(SourceBridgeDiagnostic(line: line, column: column, message: message))
  }

  // MARK: #selector and #keyPath

  /// The tokens between `#selector(` and its `)`, or nil (reported) when the parentheses are missing.
  private mutating func argument(ofPoundAt position: Int) -> Range<Int>? {
    let name = lexer.text(tokens[position])
    guard position + 1 < tokens.count, lexer.text(tokens[position + 1]) == "(" else {
      report(at: tokens[position].range.lowerBound, "\(name) needs a parenthesized argument")
      return nil
    }
    let close = matchingClose(from: position + 1)
    guard lexer.text(tokens[close]) == ")" else {
      report(at: tokens[position].range.lowerBound, "\(name)( is never closed")
      return nil
    }
    return position + 2..<close
  }

  private mutating func rewriteSelector(at position: Int) {
    guard let argument = argument(ofPoundAt: position) else { return }
    let whole = tokens[position].range.lowerBound..<tokens[argument.upperBound].range.upperBound
    skipUntil = max(skipUntil, argument.upperBound + 1)
    switch SelectorReference.parse(argument.map { tokens[$0] }, lexer) {
    case .failure(let problem):
      report(at: tokens[position].range.lowerBound, problem.message)
    case .success(let reference):
      let target = targetExpression(for: reference)
      let helper = BridgeRuntime.helper
      let name = SourceBridge.stringLiteral(reference.selectorName)
      let call: String
      switch reference.accessor {
      case nil:
        call = "\(helper).send(\(target).\(reference.memberReference), sender, \(name))"
      case .getter:
        call = "_ = \(target).\(reference.member); _ = sender"
      case .setter:
        call = "\(target).\(reference.member) = \(helper).argument(sender, \(name))"
      }
      let lineBreaks = String(repeating: "\n", count: lexer.bytes[whole].filter { $0 == ASCII.newline }.count)
      let replacement: String
      if case .instance(let instance) = reference.receiver {
        // The instance is named outside the action (where the code's own scope resolves it), never evaluated.
        replacement =
          "\(helper).selector(\(name), like: \(instance), action: { target, sender in \(call)\(lineBreaks) })"
      } else {
        replacement = "Selector(\(name), action: { target, sender in \(call)\(lineBreaks) })"
      }
      edits.append(Edit(range: whole, replacement: replacement))
    }
  }

  /// The expression that gives the selector's target as the type that declares the method: the type named in the
  /// selector, else the type whose body the selector is written in (`Self` in an extension or protocol).
  private func targetExpression(for reference: SelectorReference) -> String {
    let helper = BridgeRuntime.helper
    let name = SourceBridge.stringLiteral(reference.selectorName)
    switch reference.receiver {
    case .type(let type):
      return "\(helper).target(target, \(type).self, \(name))"
    case .instance:
      return "target"
    case .enclosing:
      var type = "Self"
      for scope in scopes.reversed() {
        if case .type(let name) = scope.kind {
          type = name
          break
        }
        if case .selfType = scope.kind { break }
      }
      return "\(helper).target(target, \(type).self, \(name))"
    }
  }

  /// `#keyPath(Type.a.b)` → `"a.b"`: the path without the leading type names (and `self`).
  private mutating func rewriteKeyPath(at position: Int) {
    guard let argument = argument(ofPoundAt: position) else { return }
    let whole = tokens[position].range.lowerBound..<tokens[argument.upperBound].range.upperBound
    skipUntil = max(skipUntil, argument.upperBound + 1)
    var components: [String] = []
    for (offset, index) in argument.enumerated() {
      let text = lexer.text(tokens[index])
      let isName = offset % 2 == 0
      guard isName ? tokens[index].kind == .identifier : text == "." else {
        report(
          at: tokens[position].range.lowerBound,
          "#keyPath takes a dotted path of properties, e.g. #keyPath(CALayer.opacity)")
        return
      }
      if isName { components.append(text) }
    }
    while components.count > 1, let first = components.first, first == "self" || first.first?.isUppercase == true {
      components.removeFirst()
    }
    guard !components.isEmpty else {
      report(at: tokens[position].range.lowerBound, "#keyPath needs a property")
      return
    }
    edits.append(Edit(range: whole, replacement: SourceBridge.stringLiteral(components.joined(separator: "."))))
  }
}

// MARK: - What a #selector names

/// The argument of `#selector(…)`, parsed: `getter:`/`setter:`, a receiver (nothing, `self`, a type or an instance
/// expression) and the member with its argument labels as written.
struct SelectorReference: Equatable {
  enum Accessor: Equatable {
    case getter
    case setter
  }
  enum Receiver: Equatable {
    /// `#selector(f)`, `#selector(self.f)`: the type the selector is written in.
    case enclosing
    /// `#selector(Type.f)`, `#selector(Module.Type.f)`.
    case type(String)
    /// `#selector(view.f)`: the static type of that expression (which is never evaluated).
    case instance(String)
  }
  struct Problem: Error, Equatable {
    var message: String
  }

  var accessor: Accessor?
  var receiver: Receiver
  var member: String
  /// `(_:)`, `(with:)`, or nil when the selector names the member alone.
  var labels: String?

  /// The selector's name, as Swift spells the method: `handle(_:)`, `close`; a property's getter is its name, its
  /// setter `setName(_:)`.
  var selectorName: String {
    let bare = member.trimmingBackticks
    switch accessor {
    case .getter: return bare
    case .setter: return "set" + bare.prefix(1).uppercased() + bare.dropFirst() + "(_:)"
    case nil: return bare + (labels ?? "")
    }
  }

  /// The member as a function reference: `handle(_:)`, `close`.
  var memberReference: String { member + (labels ?? "") }

  static func parse(_ tokens: [SwiftToken], _ lexer: SwiftLexer) -> Result<SelectorReference, Problem> {
    let texts = tokens.map { lexer.text($0) }
    var cursor = 0
    var accessor: Accessor?
    if texts.count >= 2, texts[1] == ":", texts[0] == "getter" || texts[0] == "setter" {
      accessor = texts[0] == "getter" ? .getter : .setter
      cursor = 2
    }
    var components: [String] = []
    while cursor < texts.count {
      guard tokens[cursor].kind == .identifier else { break }
      components.append(texts[cursor])
      cursor += 1
      guard cursor < texts.count, texts[cursor] == "." else { break }
      cursor += 1
    }
    var labels: String?
    if cursor < texts.count, texts[cursor] == "(", accessor == nil {
      var spelled = "("
      cursor += 1
      while cursor + 1 < texts.count, tokens[cursor].kind == .identifier, texts[cursor + 1] == ":" {
        spelled += texts[cursor] + ":"
        cursor += 2
      }
      guard cursor < texts.count, texts[cursor] == ")" else { return .failure(unsupported(texts)) }
      labels = spelled + ")"
      cursor += 1
    }
    guard cursor == texts.count, let member = components.last else { return .failure(unsupported(texts)) }
    let path = components.dropLast()
    let receiver: Receiver
    if path.isEmpty || path == ["self"] {
      receiver = .enclosing
    } else if path.first == "super" {
      return .failure(
        Problem(message: "#selector(super.…) is not supported by the UIKit source bridge: name the method on self"))
    } else if path.allSatisfy({ $0.trimmingBackticks.first?.isUppercase == true }) || path.first == "Self" {
      receiver = .type(path.joined(separator: "."))
    } else {
      receiver = .instance(path.joined(separator: "."))
    }
    return .success(SelectorReference(accessor: accessor, receiver: receiver, member: member, labels: labels))
  }

  private static func unsupported(_ texts: [String]) -> Problem {
    Problem(
      message: "#selector(\(texts.joined())) is not a form the UIKit source bridge understands: write "
        + "#selector(method), #selector(method(label:)), #selector(Type.method(_:)) or #selector(getter: property)")
  }
}

extension String {
  fileprivate var trimmingBackticks: String {
    hasPrefix("`") && hasSuffix("`") && count >= 2 ? String(dropFirst().dropLast()) : self
  }
}
