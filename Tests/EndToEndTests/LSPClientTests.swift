import Foundation
import JSON
import TestSupport
import Testing

/// `python3` on PATH, if any.
private let python3: String? = {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
  return path.split(separator: ":").map { "\($0)/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}()

/// A real LSP client library (python-lsp-jsonrpc, as pylsp uses it) drives the host over Content-Length framing:
/// its stream writer adds a `Content-Type` header too, and its endpoint matches replies to requests by id.
@Suite struct LSPClientTests {
  private static let client = #"""
    import json, subprocess, sys, threading
    from pylsp_jsonrpc.endpoint import Endpoint
    from pylsp_jsonrpc.streams import JsonRpcStreamReader, JsonRpcStreamWriter

    host = subprocess.Popen([sys.argv[1], "--stdio", "--framing", "content-length"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    writer = JsonRpcStreamWriter(host.stdin)
    reader = JsonRpcStreamReader(host.stdout)
    endpoint = Endpoint({}, writer.write)
    threading.Thread(target=reader.listen, args=(endpoint.consume,), daemon=True).start()

    initialize = endpoint.request("initialize", {"processId": None, "rootUri": None, "capabilities": {},
                                                 "clientInfo": {"name": "pylsp-jsonrpc"}}).result(timeout=20)
    endpoint.notify("initialized", {})
    try:
        endpoint.request("no/such", {}).result(timeout=20)
        missing = None
    except Exception as error:  # pylsp_jsonrpc raises JsonRpcException with the error's code
        missing = getattr(error, "code", repr(error))
    shutdown = endpoint.request("shutdown").result(timeout=20)
    endpoint.notify("exit")
    status = host.wait(timeout=20)
    print(json.dumps({"initialize": initialize, "missing": missing, "shutdown": shutdown, "status": status}))
    """#

  @Test(.enabled(if: python3 != nil, "python3 is not installed: the LSP-framed client test needs it"))
  func initializeShutdownAndExitFromAnLSPClientLibrary() throws {
    let run = try HostProcess(["-c", Self.client, BuildProducts.hostBinary], executable: python3!)
    run.closeStdin()
    let status = run.waitForExit(timeout: 60)
    let errors = String(decoding: run.stderr.all(), as: UTF8.self)
    #expect(status == .exited(0), "python: \(errors)")
    #expect(!errors.contains("No module named"), "run `make test` (it installs python-lsp-jsonrpc): \(errors)")
    let output = String(decoding: run.stdout.all(), as: UTF8.self)
    let report = try #require(try? JSON.parse(output.trimmingCharacters(in: .whitespacesAndNewlines)))
    let result = report["initialize"]
    #expect(result?["serverInfo"]?["name"]?.stringValue == "transition-host")
    #expect(result?["protocolVersion"]?.stringValue == "1.0")
    #expect(result?["capabilities"]?["framing"] == JSON.array([JSON("newline"), JSON("content-length")]))
    #expect(report["missing"]?.intValue == -32601)
    #expect(report["shutdown"]?.isNull == true)
    #expect(report["status"]?.intValue == 0)
  }
}
