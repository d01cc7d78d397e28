import Foundation
import JSON

/// One executable example of Protocol.md: a fenced block whose info string starts with `jsonrpc`.
///
/// Format (documented in Protocol.md, "Reading the examples"):
/// - the info string may add command-line flags for the host: ```` ```jsonrpc --max-line-bytes 64 ````;
/// - `--> …` is a message the client sends, `<-- …` one the host sends; lines that follow without an arrow
///   continue the message above (pretty-printed JSON), and `// …` lines are comments;
/// - `-->` alone sends an empty line;
/// - a fresh host runs each block; stdin is closed after the last `-->`, and the host must then exit 0 having
///   sent exactly the `<--` messages, in order.
struct ProtocolExample: Sendable, CustomStringConvertible {
  enum Step: Sendable {
    case send(String)
    case receive(String)
  }

  /// The line of the opening fence, for messages.
  var line: Int
  /// Flags from the info string.
  var arguments: [String]
  var steps: [Step]

  var description: String { "Protocol.md:\(line)" + (arguments.isEmpty ? "" : " " + arguments.joined(separator: " ")) }

  /// Where Protocol.md is: two folders above this file's folder.
  static var documentPath: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Protocol.md").path
  }

  /// Every example in the document (empty when it cannot be read; a separate test checks that it can).
  static func load(from path: String = documentPath) -> [ProtocolExample] {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
    return parse(text)
  }

  static func parse(_ text: String) -> [ProtocolExample] {
    var examples: [ProtocolExample] = []
    var current: ProtocolExample?
    var inOtherBlock = false
    for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = String(rawLine)
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix("```") {
        if let example = current {
          examples.append(example)
          current = nil
        } else if inOtherBlock {
          inOtherBlock = false
        } else {
          let info = trimmed.dropFirst(3).split(separator: " ").map(String.init)
          if info.first == "jsonrpc" {
            current = ProtocolExample(line: offset + 1, arguments: Array(info.dropFirst()), steps: [])
          } else {
            inOtherBlock = true
          }
        }
        continue
      }
      guard current != nil else { continue }
      if trimmed.hasPrefix("-->") {
        current!.steps.append(.send(String(trimmed.dropFirst(3)).trimmingCharacters(in: .whitespaces)))
      } else if trimmed.hasPrefix("<--") {
        current!.steps.append(.receive(String(trimmed.dropFirst(3)).trimmingCharacters(in: .whitespaces)))
      } else if trimmed.isEmpty || trimmed.hasPrefix("//") {
        continue
      } else if let last = current!.steps.popLast() {
        switch last {
        case .send(let text): current!.steps.append(.send(text + " " + trimmed))
        case .receive(let text): current!.steps.append(.receive(text + " " + trimmed))
        }
      }
    }
    return examples
  }

  var usesContentLength: Bool {
    zip(arguments, arguments.dropFirst()).contains { $0 == "--framing" && $1 == "content-length" }
      || arguments.contains("--framing=content-length")
  }
}

/// Compares a message the host sent with the one the document expects.
///
/// Values are compared as JSON (key order and spacing do not matter; numbers by kind and value). A string
/// written in angle brackets in the expectation stands for a value that varies: `"<string>"` any string,
/// `"<number>"` any number, `"<any>"` any value.
enum ExampleMatcher {
  /// nil when `actual` matches `expected`, else where and how it differs.
  static func mismatch(expected: JSON, actual: JSON, path: String = "$") -> String? {
    if let marker = expected.stringValue, marker.hasPrefix("<"), marker.hasSuffix(">") {
      switch marker {
      case "<any>": return nil
      case "<string>": return actual.kind == .string ? nil : "\(path): expected a string, got \(actual)"
      case "<number>":
        return actual.kind == .int || actual.kind == .double ? nil : "\(path): expected a number, got \(actual)"
      default: break
      }
    }
    switch expected.kind {
    case .object:
      guard actual.kind == .object else { return "\(path): expected an object, got \(actual)" }
      let expectedKeys = Set(expected.keys)
      let actualKeys = Set(actual.keys)
      if expectedKeys != actualKeys {
        let missing = expectedKeys.subtracting(actualKeys).sorted()
        let extra = actualKeys.subtracting(expectedKeys).sorted()
        return "\(path): members differ (missing \(missing), unexpected \(extra))"
      }
      for key in expected.keys {
        if let problem = mismatch(expected: expected[key]!, actual: actual[key]!, path: "\(path).\(key)") {
          return problem
        }
      }
      return nil
    case .array:
      guard actual.kind == .array else { return "\(path): expected an array, got \(actual)" }
      guard expected.count == actual.count else {
        return "\(path): expected \(expected.count) elements, got \(actual.count): \(actual)"
      }
      for index in 0..<expected.count {
        if let problem = mismatch(expected: expected[index]!, actual: actual[index]!, path: "\(path)[\(index)]") {
          return problem
        }
      }
      return nil
    default:
      return expected == actual ? nil : "\(path): expected \(expected), got \(actual)"
    }
  }
}

/// Splits Content-Length framed output into bodies (the test's own reader, independent of the host's framer).
func contentLengthBodies(_ bytes: [UInt8]) -> [String]? {
  var bodies: [String] = []
  var index = 0
  let separator: [UInt8] = [13, 10, 13, 10]
  while index < bytes.count {
    guard let end = (index...(bytes.count - 4)).first(where: { Array(bytes[$0..<($0 + 4)]) == separator })
    else { return nil }
    let header = String(decoding: bytes[index..<end], as: UTF8.self)
    guard header.hasPrefix("Content-Length: "), let length = Int(header.dropFirst(16)),
      end + 4 + length <= bytes.count
    else { return nil }
    bodies.append(String(decoding: bytes[(end + 4)..<(end + 4 + length)], as: UTF8.self))
    index = end + 4 + length
  }
  return bodies
}
