import Foundation
import JSON
import Testing

/// Every example in Protocol.md, run against the real binary.
@Suite struct ProtocolDocumentTests {
  @Test func theDocumentHasExamples() throws {
    let text = try String(contentsOfFile: ProtocolExample.documentPath, encoding: .utf8)
    let examples = ProtocolExample.parse(text)
    #expect(examples.count >= 10, "Protocol.md at \(ProtocolExample.documentPath) has \(examples.count) examples")
    #expect(examples.allSatisfy { !$0.steps.isEmpty })
  }

  @Test func everyErrorCodeIsInTheTables() throws {
    let text = try String(contentsOfFile: ProtocolExample.documentPath, encoding: .utf8)
    let codes = [-32700, -32600, -32601, -32602, -32603, -32800] + Array(1001...1010) + Array(2001...2013)
    for code in codes {
      #expect(text.contains("| \(code) |"), "Protocol.md has no table row for \(code)")
    }
  }

  @Test(arguments: ProtocolExample.load())
  func example(_ example: ProtocolExample) throws {
    let host = try HostProcess(example.arguments)
    var expected: [String] = []
    for step in example.steps {
      switch step {
      case .receive(let text):
        expected.append(text)
      case .send(let text):
        // Wait for what the earlier messages must have produced, so each chunk the host reads is one message.
        _ = received(host, example, count: expected.count)
        if example.usesContentLength {
          host.write("Content-Length: \(text.utf8.count)\r\n\r\n\(text)")
        } else {
          host.write(text + "\n")
        }
      }
    }
    host.closeStdin()
    let status = host.waitForExit()
    let log = String(decoding: host.stderr.all(), as: UTF8.self)
    #expect(
      status == .exited(0),
      "\(example): the host ended with \(status.map(String.init(describing:)) ?? "no exit"); stderr: \(log)")
    let actual = received(host, example, count: nil)
    #expect(actual.count == expected.count, "\(example): expected \(expected.count) messages, got \(actual)")
    for (index, (want, got)) in zip(expected, actual).enumerated() {
      guard let wanted = try? JSON.parse(want) else {
        Issue.record("\(example): expectation \(index + 1) is not JSON: \(want)")
        continue
      }
      guard let gotten = try? JSON.parse(got) else {
        Issue.record("\(example): message \(index + 1) from the host is not JSON: \(got)")
        continue
      }
      if let problem = ExampleMatcher.mismatch(expected: wanted, actual: gotten) {
        Issue.record("\(example): message \(index + 1): \(problem)")
      }
    }
  }

  /// The host's messages so far; with a count, waits (a while) until there are that many.
  private func received(_ host: HostProcess, _ example: ProtocolExample, count: Int?) -> [String] {
    let decode: ([UInt8]) -> [String] = { bytes in
      example.usesContentLength ? (contentLengthBodies(bytes) ?? []) : HostProcess.split(bytes)
    }
    guard let count else { return decode(host.stdout.all()) }
    return decode(host.stdout.wait(timeout: 10) { decode($0).count >= count })
  }
}

@Suite struct ExampleMatcherTests {
  private func mismatch(_ expected: String, _ actual: String) -> String? {
    ExampleMatcher.mismatch(expected: try! JSON.parse(expected), actual: try! JSON.parse(actual))
  }

  @Test func keyOrderAndSpacingDoNotMatter() {
    #expect(mismatch(#"{"a": 1, "b": [true, null]}"#, #"{"b":[true,null],"a":1}"#) == nil)
  }

  @Test func markersAcceptVaryingValuesOfTheirKind() {
    #expect(mismatch(#"{"v":"<string>"}"#, #"{"v":"0.1.0"}"#) == nil)
    #expect(mismatch(#"{"v":"<string>"}"#, #"{"v":1}"#) == "$.v: expected a string, got 1")
    #expect(mismatch(#"{"v":"<number>"}"#, #"{"v":1.5}"#) == nil)
    #expect(mismatch(#"{"v":"<any>"}"#, #"{"v":{"x":[]}}"#) == nil)
    #expect(mismatch(#"{"v":"<name>"}"#, #"{"v":"other"}"#) == #"$.v: expected "<name>", got "other""#)
  }

  @Test func differencesAreLocated() {
    #expect(mismatch(#"{"a":{"b":[1,2]}}"#, #"{"a":{"b":[1,3]}}"#) == "$.a.b[1]: expected 2, got 3")
    #expect(mismatch(#"{"a":1}"#, #"{"a":1,"z":2}"#) == #"$: members differ (missing [], unexpected ["z"])"#)
    #expect(mismatch(#"[1]"#, #"[1,1]"#) == "$: expected 1 elements, got 2: [1,1]")
    #expect(mismatch(#"1"#, #"1.0"#) != nil, "an integer and a double are different kinds")
  }

  @Test func blocksParseIntoStepsWithContinuationsAndComments() {
    let document = """
      text
      ```jsonrpc --max-line-bytes 64
      // a comment
      --> {"a":
          1}
      <-- {"b": 2}
      -->
      ```
      ```json
      --> not an example
      ```
      """
    let examples = ProtocolExample.parse(document)
    #expect(examples.count == 1)
    #expect(examples.first?.line == 2)
    #expect(examples.first?.arguments == ["--max-line-bytes", "64"])
    let steps = examples.first?.steps.map { step -> String in
      switch step {
      case .send(let text): "send \(text)"
      case .receive(let text): "receive \(text)"
      }
    }
    #expect(steps == [#"send {"a": 1}"#, #"receive {"b": 2}"#, "send "])
  }
}
