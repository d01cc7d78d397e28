import JSON
import JSONRPC
import PluginHost
import Testing
import TransitionEngine

@testable import TransitionService

/// The one path that makes a transition, and the driver seam it hands back: what every client (the session, the
/// validator, the tests, the benchmarks) relies on, checked with the protocol tests' Swift animators.
@Suite struct TransitionFactoryTests {
  /// A 400 × 800 container with the from root "home" shown and the to root "detail" beside it.
  private func trees() throws -> ViewTrees {
    let scene = Scene(containerSize: Size(width: 400, height: 800))
    let home = try scene.makeView(id: "home")
    home.frame = Rect(x: 0, y: 0, width: 400, height: 800)
    scene.container.addSubview(home)
    let detail = try scene.makeView(id: "detail")
    detail.frame = Rect(x: 0, y: 0, width: 400, height: 800)
    return ViewTrees(scene: scene, fromRoot: home, toRoot: detail, contents: ["home": ["text": "Home"]])
  }

  private func request(
    _ animator: String, _ operation: TransitionOperation = .present, params: [String: ParameterValue] = [:]
  ) throws -> TransitionRequest {
    TransitionRequest(animator: animator, operation: operation, trees: try trees(), params: params)
  }

  @Test func eachRefusalIsItsOwnError() throws {
    let catalog = TestCatalog()
    catalog.refusing = ["com.test/never"]
    let factory = TransitionFactory(catalog: catalog)
    #expect(throws: TransitionStartError.lookup(.unknown(id: "nope"))) { try factory.make(request("nope")) }
    #expect(
      throws: TransitionStartError.lookup(.ambiguous(id: "slide", candidates: ["com.test/slide", "com.other/slide"]))
    ) { try factory.make(request("slide")) }
    #expect(
      throws: TransitionStartError.operationNotSupported(
        animator: "com.test/slide", operation: "push", supported: ["present", "dismiss"])
    ) { try factory.make(request("com.test/slide", .push)) }
    #expect(throws: TransitionStartError.invalidParameter(FieldError("params.duration", "must be in [0, 10]"))) {
      try factory.make(request("com.test/slide", params: ["duration": .number(11)]))
    }
    #expect(throws: TransitionStartError.animatorRefused(animator: "com.test/never", reason: "create returned NULL")) {
      try factory.make(request("com.test/never"))
    }
    // None of the refused requests left an animator behind.
    #expect(catalog.instantiated == 0)
  }

  @Test func theMadeTransitionHasCompleteParamsAndIsNotStarted() throws {
    let driver = try TransitionFactory(catalog: TestCatalog()).make(
      request("com.test/slide", params: ["edge": .string("top")]))
    #expect(driver.animator.qualifiedID == "com.test/slide")
    #expect(driver.operation == "present")
    #expect(driver.status.state == .idle)
    // The declared defaults complete the params; an enum given as a string is an enum case.
    #expect(
      driver.transition.params == [
        "duration": .number(1), "edge": .enumCase("top"), "tint": .color(Color(r: 0, g: 0, b: 0, a: 0.5)),
      ])
  }

  @Test func theDriverReportsDuringTheCallAndItsStatusFollows() throws {
    let driver = try TransitionFactory(catalog: TestCatalog()).make(request("com.test/slide"))
    var events: [String] = []
    driver.onEvent = { event in
      switch event {
      case .ended(let outcome): events.append("ended \(outcome)")
      case .misbehaved(let report): events.append("misbehaved \(report.kindName)")
      case .misusedViewModel(let text): events.append("misused \(text)")
      case .timelineChanged: events.append("timelineChanged")
      case .lost(let fault, _): events.append("lost \(fault.reason)")
      case .abandoned(let reason, _): events.append("abandoned \(reason)")
      }
    }
    try driver.start()
    // The next thing due is the end of the 1 s duration (its animation's completion): 1 s of clock away.
    #expect(
      driver.status
        == TransitionStatus(
          state: .running, time: 0, percent: 0, duration: 1, isInteractive: false, nextEventIn: 1))
    #expect(try driver.perform(.advance(seconds: 0.25)) == .done)
    #expect(driver.status.time == 0.25)
    #expect(driver.status.percent == 0.25)
    #expect(driver.status.nextEventIn == 0.75)
    #expect(events.isEmpty)
    _ = try driver.perform(.advance(seconds: 1))
    #expect(events == ["ended completed"])
    #expect(driver.status.state == .ended(.completed))
    #expect(driver.status.nextEventIn == nil)
    #expect(throws: TransitionError.ended) { try driver.perform(.pause) }
  }

  /// A worker's parent may send the frame built ahead before the advance it shows has run (`takeFrameAhead`). The
  /// driver, told so, moves its stream past that frame whatever the call is: when the call is the advance the frame was
  /// built for, it completes with that frame (the worker's answer then leaves it out); when it is another one, it
  /// completes with the next frame, a delta against the frame the client has. Both as a driver that sent the frames
  /// the usual way: the slide's detail at y = 800 · (1 − t) on the way.
  @Test func aFrameAheadAlreadySentMovesTheStreamPastIt() throws {
    func frame(_ body: (@escaping DriverCompletion) -> Void) -> [UInt8]? {
      var bytes: [UInt8]?
      body { _, frame in bytes = frame.map { Array($0) } }
      return bytes
    }
    let usual = try TransitionFactory(catalog: TestCatalog()).make(request("com.test/slide"), frames: .delta)
    let early = try TransitionFactory(catalog: TestCatalog()).make(request("com.test/slide"), frames: .delta)
    let usualFrames = [
      frame { usual.start(as: "t1", completion: $0) },
      frame { usual.perform(.advance(seconds: 0.25), stream: true, completion: $0) },
      frame { usual.perform(.advance(seconds: 0.25), stream: true, completion: $0) },
      frame { usual.perform(.advance(seconds: 0.25), stream: true, completion: $0) },
    ]
    #expect(frame { early.start(as: "t1", completion: $0) } == usualFrames[0])
    // Frame 1, built ahead for 0.25 s and sent; the call is an advance by 0.5 s: frame 2 shows t = 0.5.
    early.prepareFrame(advancingBy: 0.25)
    var ahead: [UInt8]?
    early.withFrameAhead { ahead = Array($0) }
    #expect(ahead == usualFrames[1])
    let next = frame { early.perform(.advance(seconds: 0.5), stream: true, aheadAlreadySent: true, completion: $0) }
    #expect(next == usualFrames[2])
    let shown = try #require(next).withUnsafeBytes { try JSON.parse($0) }["params"]
    #expect(shown?["seq"] == 2)
    #expect(shown?["time"] == 0.5)
    #expect(shown?.view("detail")?["frame"]?.rect?.1 == 800 * (1 - 0.5))
    // Frame 3, built ahead for 0.25 s and sent; the call is that advance: it completes with the same frame.
    early.prepareFrame(advancingBy: 0.25)
    early.withFrameAhead { ahead = Array($0) }
    #expect(ahead == usualFrames[3])
    let same = frame { early.perform(.advance(seconds: 0.25), stream: true, aheadAlreadySent: true, completion: $0) }
    #expect(same == usualFrames[3])
    #expect(early.framesSentAhead == 1)
    #expect(early.status.time == 0.75)
  }

  @Test func aReleaseAnswersItsDecisionAndFramesCarryTheContent() throws {
    var interactive = try request("com.test/slide")
    interactive.options.isInteractive = true
    let driver = try TransitionFactory(catalog: TestCatalog()).make(interactive)
    try driver.start()
    _ = try driver.perform(.update(percent: 0.7))
    // Below the velocity threshold the release rule looks at the percent: 0.7 ≥ 0.5 finishes.
    #expect(try driver.perform(.release(velocity: 0)) == .released(.finish))
    // Each call appends one whole message (or frame object) to the buffer it is given, after what is there.
    var message = Array("prefix".utf8)
    driver.streamFrame(
      FrameStamp(transition: "t1", seq: 0, time: 0, percent: 0.7, phase: "finishing"), mode: .full, precision: nil,
      into: &message)
    #expect(message.starts(with: "prefix".utf8))
    let sent = try message.dropFirst(6).withUnsafeBytes { try JSON.parse($0) }
    #expect(sent["params"]?.view("home")?["content"] == ["text": "Home"])
    var text: [UInt8] = []
    driver.sampleFrame(
      FrameStamp(transition: "t1", seq: nil, time: 0, percent: 0, phase: "x"), at: 0, precision: nil, into: &text)
    let sample = try text.withUnsafeBytes { try JSON.parse($0) }
    // At time 0 the to root starts below the container (the slide animator's start frame).
    #expect(sample.view("detail")?["frame"]?.rect?.1 == 800)
    #expect(sample["seq"] == nil)
  }
}
