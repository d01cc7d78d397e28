// The lexer the UIKit source bridge rewrites with: which bytes are code (tokens), which are string text (one token per
// segment, never rewritten) and which are comments (no tokens). Expected tokens are written out by hand.

import Testing

@testable import SourceBridge

@Suite struct SwiftLexerTests {
  /// `kind text` for every token of `source`.
  func lex(_ source: String) -> [String] {
    let lexer = SwiftLexer(source)
    #expect(lexer.problems.isEmpty, "\(lexer.problems)")
    return lexer.tokens.map { "\($0.kind) \(lexer.text($0))" }
  }

  @Test func codeTokens() {
    #expect(
      lex("@objc func handle(_ s: Any?) -> Int { return a?.b ?? 1_000.5e-3 }") == [
        "attribute @objc", "identifier func", "identifier handle", "punctuation (", "identifier _",
        "identifier s", "punctuation :", "identifier Any", "punctuation ?", "punctuation )", "operator ->",
        "identifier Int", "punctuation {", "identifier return", "identifier a", "punctuation ?", "punctuation .",
        "identifier b", "operator ??", "number 1_000.5e-3", "punctuation }",
      ])
    #expect(
      lex("#selector(`default`) $0 0..<n x...") == [
        "poundKeyword #selector", "punctuation (", "identifier `default`", "punctuation )", "identifier $0",
        "number 0", "operator ..<", "identifier n", "identifier x", "operator ...",
      ])
  }

  @Test func commentsProduceNoTokens() {
    #expect(lex("a // @objc #selector(f)\nb") == ["identifier a", "identifier b"])
    #expect(lex("a /* outer /* nested @objc */ still comment */ b") == ["identifier a", "identifier b"])
    #expect(lex("a /// doc #selector(x)\n/** @objc */ b") == ["identifier a", "identifier b"])
    // A division is an operator, not a comment.
    #expect(lex("a / b") == ["identifier a", "operator /", "identifier b"])
  }

  @Test func stringsAreOneTokenEach() {
    #expect(
      lex(#"x = "@objc #selector(f) // not a comment""#) == [
        "identifier x", "operator =", #"string "@objc #selector(f) // not a comment""#,
      ])
    #expect(
      lex(#"s = "a \"quoted\" #selector(f)" + b"#) == [
        "identifier s", "operator =", #"string "a \"quoted\" #selector(f)""#, "operator +", "identifier b",
      ])
    // Raw strings end only at the quote followed by as many `#` as they started with.
    #expect(
      lex(##"r = #"a "quote" \(no) #selector(f)"# + c"##) == [
        "identifier r", "operator =", ##"string #"a "quote" \(no) #selector(f)"#"##, "operator +", "identifier c",
      ])
    let multiline = "m = \"\"\"\n  @objc \"one\" \"\" \n  #selector(f)\n  \"\"\"\nnext"
    #expect(
      lex(multiline) == [
        "identifier m", "operator =", "string \"\"\"\n  @objc \"one\" \"\" \n  #selector(f)\n  \"\"\"",
        "identifier next",
      ])
  }

  @Test func interpolationsAreCode() {
    // The interpolation's code is lexed as code, nested strings included; the string's text around it is string.
    #expect(
      lex(#"s = "a \(b ? "x)" : #selector(f)) c""#) == [
        "identifier s", "operator =", #"string "a \("#, "identifier b", "punctuation ?", #"string "x)""#,
        "punctuation :", "poundKeyword #selector", "punctuation (", "identifier f", "punctuation )",
        #"string ) c""#,
      ])
    // In a raw string only `\#(` interpolates.
    #expect(lex(##"#"\(a) \#(b)"#"##) == [##"string #"\(a) \#("##, "identifier b", ##"string )"#"##])
  }

  @Test func extendedRegexLiteral() {
    #expect(
      lex(##"let r = #/@objc "(\d+)"/# ; x"##) == [
        "identifier let", "identifier r", "operator =", ##"regex #/@objc "(\d+)"/#"##, "punctuation ;",
        "identifier x",
      ])
  }

  @Test func unterminatedInputIsReportedNotFatal() {
    let lexer = SwiftLexer("a = \"open\nb /* never closed")
    #expect(lexer.problems.map(\.message) == ["unterminated string literal", "unterminated block comment"])
    #expect(lexer.tokens.map { lexer.text($0) } == ["a", "=", "\"open", "b"])
  }
}
