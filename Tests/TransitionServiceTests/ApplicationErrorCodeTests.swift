import JSON
import JSONRPC
import PluginHost
import Testing
import TransitionEngine

@testable import TransitionService

/// The codes failures carry on the wire: CONVENTIONS.md's "Errors" table, case by case, as the replies a client gets.
@Suite struct ApplicationErrorCodeTests {
  @Test func eachPluginFailureRepliesWithItsConventionsCode() {
    let abi = ABIVersion(major: 1, minor: 0)
    let cases: [(PluginLoadError, Int)] = [
      (.fileNotFound(path: "/p.so"), 1001),
      (.notLoadable(path: "/p.so", reason: "invalid ELF header"), 1002),
      (.entrySymbolMissing(path: "/p.so", reason: "undefined symbol"), 1003),
      (.abiIncompatible(path: "/p.so", pluginABI: ABIVersion(major: 9, minor: 0), hostABI: abi), 1004),
      (.invalidDescriptor(path: "/p.so", reason: "animators[0].id is empty"), 1005),
      (.initFailed(path: "/p.so", pluginID: "com.example"), 1006),
      (.pathNotAllowed(path: "/p.so", realPath: nil, folders: ["/plugins"]), 1007),
      (.pathNotAllowed(path: "/plugins/p.so", realPath: "/elsewhere/p.so", folders: ["/plugins"]), 1007),
      (.unsafePermissions(path: "/plugins/p.so", unsafePath: "/plugins", reason: "is writable by every user"), 1007),
      (.busy(pluginID: "com.example", runningTransitions: 2), 1008),
      (.unknownPlugin(pluginID: "com.example"), -32602),
    ]
    for (error, code) in cases {
      #expect(ResponseError.plugin(error).code.rawValue == code, "\(error)")
    }
  }

  @Test func eachAnimatorAndStartFailureRepliesWithItsConventionsCode() {
    #expect(ResponseError.animator(.unknown(id: "x")).code.rawValue == 2001)
    #expect(ResponseError.animator(.ambiguous(id: "x", candidates: ["a/x", "b/x"])).code.rawValue == 2002)
    #expect(ResponseError.animator(.creationFailed(id: "a/x")).code.rawValue == 2008)
    let start: [(TransitionStartError, Int)] = [
      (.lookup(.unknown(id: "x")), 2001),
      (.operationNotSupported(animator: "a/x", operation: "push", supported: ["present"]), 2003),
      (.invalidParameter(FieldError("params.duration", "must be in [0, 10]")), -32602),
      (.animatorRefused(animator: "a/x", reason: "its create returned NULL"), 2008),
      (.engine(.invalidValue(field: "completionSpeed", reason: "must be > 0")), -32602),
      (.engine(.alreadyStarted), 2006),
    ]
    for (error, code) in start {
      #expect(error.responseError.code.rawValue == code, "\(error)")
    }
    #expect(ResponseError.unknownTransition("t9").code.rawValue == 2005)
    #expect(ResponseError.wrongState("t1", phase: "ended", "the transition has ended").code.rawValue == 2006)
    #expect(ResponseError.unknownScene("s9", "never opened, or closed").code.rawValue == 2013)
  }

  @Test func applicationCodesAreDistinctAndOutsideTheRangeJSONRPCReserves() {
    let codes = ErrorCode.applicationCodes.map(\.rawValue)
    #expect(Set(codes).count == codes.count)
    #expect(codes.allSatisfy { !(-32768 ... -32000).contains($0) })
    #expect(Set(codes) == Set(Array(1001...1010) + Array(2001...2013)))
  }
}
