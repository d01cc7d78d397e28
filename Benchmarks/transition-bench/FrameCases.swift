// Frame encoding through the protocol layer: a TransitionSession on a dispatcher, a manual-clock transition of ten
// views, and `transition/tick` / `transition/sample` requests as a client sends them. Only package API of the
// protocol (service, dispatcher, output) is used, so the figures survive changes inside the frame encoder.

import JSON
import JSONRPC
import PluginHost
import TransitionEngine
import TransitionService

/// Moves every view of both trees for `duration` seconds (long, so that a benchmark never reaches the end): the
/// to root slides up and fades in, each child of either root drifts and fades. Every view changes every tick, so a
/// delta frame carries all ten views (only their changed members). With `animatedChildren`, only that many children
/// of each root move.
final class DriftAnimator: TransitionAnimator {
  let animatorID = "bench/drift"
  let duration = 100_000.0
  let animatedChildren: Int?

  init(animatedChildren: Int? = nil) { self.animatedChildren = animatedChildren }

  func transitionDuration(_ context: TransitionContext?) -> Double { duration }

  func animateTransition(_ context: TransitionContext) {
    let from = context.viewController(forKey: .from)
    let to = context.viewController(forKey: .to)
    var start = context.finalFrame(forKey: .to)
    start.origin.y = context.containerView.bounds.size.height
    to.frame = start
    to.alpha = 0
    context.containerView.addSubview(to)
    context.scene.animate(
      duration: duration, timing: .curve(.linear),
      animations: {
        to.frame = context.finalFrame(forKey: .to)
        to.alpha = 1
        let count = self.animatedChildren ?? Int.max
        for child in from.subviews.prefix(count) + to.subviews.prefix(count) {
          child.alpha = 0.5
          child.position = Point(x: child.position.x + 100, y: child.position.y + 50)
        }
      },
      completion: { _ in context.completeTransition(!context.transitionWasCancelled) })
  }
}

/// A catalog with the one drift animator.
final class BenchCatalog: AnimatorCatalog {
  let entries = [
    AnimatorEntry(
      qualifiedID: "bench/drift", pluginID: "bench",
      info: AnimatorInfo(id: "drift", name: "Drift", description: nil, operations: nil, params: []))
  ]

  func entry(for id: String) throws(AnimatorLookupError) -> AnimatorEntry {
    guard let entry = entries.first(where: { $0.qualifiedID == id || $0.info.id == id }) else {
      throw .unknown(id: id)
    }
    return entry
  }

  func instantiate(_ id: String) throws(AnimatorInstantiationError) -> AnimatorBinding {
    do {
      return AnimatorBinding(entry: try entry(for: id), animator: DriftAnimator())
    } catch {
      throw .lookup(error)
    }
  }
}

/// The service's output: notifications go on to the dispatcher; whole serialized messages (the frames) are counted.
final class CountingOutput: ProtocolOutput {
  let dispatcher: Dispatcher
  var frames = 0
  var frameBytes = 0

  init(dispatcher: Dispatcher) { self.dispatcher = dispatcher }

  func notify(_ method: String, _ params: JSON) { dispatcher.notify(method, params) }

  private var buffer: [UInt8] = []

  func sendMessage(_ write: (inout [UInt8]) -> Void) {
    buffer.removeAll(keepingCapacity: true)
    write(&buffer)
    frames += 1
    frameBytes += buffer.count
  }
}

/// A service with one live manual-clock transition of ten views streaming `frames` ("full" or "delta").
final class FrameBench {
  let dispatcher: Dispatcher
  let output: CountingOutput
  let service: TransitionSession
  var replyBytes = 0
  var lastReply: [UInt8] = []

  init(frames: String) {
    var replies: (UnsafeRawBufferPointer) -> Void = { _ in }
    dispatcher = Dispatcher { replies($0) }
    output = CountingOutput(dispatcher: dispatcher)
    service = TransitionSession(
      catalog: BenchCatalog(), registry: nil, output: output, scheduler: StoppedClock())
    service.register(on: dispatcher)
    replies = { [unowned self] in
      replyBytes += $0.count
      lastReply = Array($0)
    }
    func node(_ id: String, _ y: Double, children: String = "") -> String {
      #"{"id":"\#(id)","frame":{"x":0,"y":\#(y),"width":390,"height":844},"# + #""backgroundColor":[1,1,1,1]"#
        + (children.isEmpty ? "" : #","children":[\#(children)]"#) + "}"
    }
    func child(_ id: String, _ index: Int) -> String {
      #"{"id":"\#(id)","frame":{"x":16,"y":\#(60 + index * 90),"width":358,"height":80},"cornerRadius":12,"#
        + #""backgroundColor":[0.2,0.4,0.8,1],"content":{"text":"Row \#(index)"}}"#
    }
    let fromChildren = (0..<4).map { child("from\($0)", $0) }.joined(separator: ",")
    let toChildren = (0..<4).map { child("to\($0)", $0) }.joined(separator: ",")
    let start =
      #"{"jsonrpc":"2.0","id":1,"method":"transition/start","params":{"animator":"bench/drift","#
      + #""operation":"present","clock":"manual","frames":"\#(frames)","#
      + #""container":{"width":390,"height":844},"#
      + #""from":\#(node("list", 0, children: fromChildren)),"to":\#(node("detail", 0, children: toChildren))}}"#
    dispatcher.handle(start)
    let reply = String(decoding: lastReply, as: UTF8.self)
    precondition(reply.contains(#""transition":"t1""#), "transition/start failed: \(reply)")
  }
}

func frameCases(_ effort: Effort) -> [Figure] {
  var figures: [Figure] = []
  let tick = Array(#"{"jsonrpc":"2.0","id":2,"method":"transition/tick","params":{"dt":0.0001}}"#.utf8)
  for mode in ["full", "delta"] {
    let bench = FrameBench(frames: mode)
    // Bytes per frame from a first tick, for the MB/s column.
    let before = bench.output.frameBytes
    tick.withUnsafeBytes { bench.dispatcher.handle($0) }
    precondition(bench.output.frames >= 2, "a tick must send a frame")
    let frameSize = Double(bench.output.frameBytes - before)
    var figure = measure(
      "frames: 10-view \(mode) frame per transition/tick", iterations: effort.count(20_000), effort: effort,
      bytesPerOp: frameSize
    ) { n in
      tick.withUnsafeBytes { request in for _ in 0..<n { bench.dispatcher.handle(request) } }
    }
    let perSecond = Double(figure.iterations) / figure.seconds
    figure.note = "\(significant(perSecond / 1e3))k frames/s, \(Int(frameSize)) B/frame (tick + engine + encoding)"
    figures.append(figure)
  }

  // The streamed frame alone, as the host's driver makes it (advance 0.1 ms, sample the presentation, encode into a
  // reused buffer), at 10 and 1,000 views.
  for (children, iterations) in [(4, 20_000), (499, 500)] {
    let frames: FullFrameStream
    do { frames = FullFrameStream(try driftDriver(children: children).driver) } catch {
      fatalError("drift transition: \(error)")
    }
    var figure = measure(
      "frames: \(2 * children + 3)-view full frame, driver alone", iterations: effort.count(iterations), effort: effort
    ) { n in frames.stream(n) }
    figure.bytesPerOp = Double(frames.buffer.count)
    figure.note = "advance + presentation + dedicated encoder, \(frames.buffer.count) B/frame"
    figures.append(figure)
  }

  // transition/sample answers with a full frame in its reply: the same encoding without a stream.
  let bench = FrameBench(frames: "none")
  let samples = (0..<64).map {
    Array(
      #"{"jsonrpc":"2.0","id":3,"method":"transition/sample","params":{"transition":"t1","percent":\#(Double($0) / 64)}}"#
        .utf8)
  }
  samples[1].withUnsafeBytes { bench.dispatcher.handle($0) }
  let sampleSize = Double(bench.lastReply.count)
  precondition(String(decoding: bench.lastReply, as: UTF8.self).contains(#""result""#), "sample failed")
  var figure = measure(
    "frames: 10-view transition/sample reply", iterations: effort.count(5_000), effort: effort,
    bytesPerOp: sampleSize
  ) { n in
    for i in 0..<n { samples[i & 63].withUnsafeBytes { bench.dispatcher.handle($0) } }
  }
  figure.note = "\(significant(Double(figure.iterations) / figure.seconds / 1e3))k frames/s, \(Int(sampleSize)) B/reply"
  figures.append(figure)
  return figures
}
