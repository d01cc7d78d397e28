// Scenes in a plugin's worker (Protocol.md, "Scenes"): the parent's `WorkerSceneDriver` sends a scene's open, its
// gesture samples and its close; the worker keeps a `SceneRunner` per scene. A transition a scene's handler asks for
// is started by the parent like any other, its start message naming the scene whose pending instance runs it.

import JSON
import JSONRPC
import PluginHost
import TransitionEngine
import TransitionService

/// A scene whose plugin runs in a worker process, as the parent sees it.
final class WorkerSceneDriver: SceneDriver {
  let number: Int
  let animatorID: String
  private let worker: WorkerProcess
  var onLost: ((PluginFault) -> Void)?
  private var isLost = false

  init(number: Int, animatorID: String, worker: WorkerProcess) {
    self.number = number
    self.animatorID = animatorID
    self.worker = worker
  }

  /// Sends the open: the animator, the container and each tree (identifier, JSON text).
  func open(_ request: SceneOpenRequest, completion: @escaping (Result<Void, ResponseError>) -> Void) {
    var message = MessageWriter(.sceneOpen, capacity: 4096)
    message.int(number)
    message.string(animatorID)
    var text: [UInt8] = []
    request.container.appendSerialized(to: &text)
    message.bytes(text)
    message.u32(UInt32(request.trees.count))
    for tree in request.trees {
      message.string(tree.identifier)
      text = []
      tree.json.appendSerialized(to: &text)
      message.bytes(text)
    }
    worker.scenes[number] = self
    worker.call(
      message.finish(),
      as: .sceneOpen(self) { [self] result in
        if case .failure = result, worker.scenes[number] === self { worker.scenes[number] = nil }
        completion(result)
      })
  }

  func gesture(_ sample: GestureSample, completion: @escaping (Result<SceneGestureOutcome, DriverError>) -> Void) {
    var message = MessageWriter(.sceneGesture)
    message.int(number)
    message.command(.gesture(sample))
    worker.call(message.finish(), as: .sceneGesture(self, completion))
  }

  func close() {
    guard worker.scenes[number] === self else { return }
    worker.scenes[number] = nil
    var message = MessageWriter(.sceneClose)
    message.int(number)
    worker.post(message.finish())
  }

  /// Its worker died or exited: the scene is gone (once).
  func lose(_ fault: PluginFault) {
    guard !isLost else { return }
    isLost = true
    onLost?(fault)
  }
}

extension Worker {
  /// Opens scene `number`; answers 0, or 1 and the error `scene/open` replies.
  func openScene(_ reader: inout MessageReader) throws(ChannelError) {
    let number = try reader.int()
    let animator = try reader.string()
    let container = try reader.bytes()
    let containerText = Array(container)
    var texts: [(String, [UInt8])] = []
    for _ in 0..<(try reader.count()) { texts.append((try reader.string(), Array(try reader.bytes()))) }
    try reader.expectEnd()
    var reply = MessageWriter(.reply)
    do throws(ResponseError) {
      guard let containerJSON = containerText.withUnsafeBytes({ try? JSON.parse($0) }) else {
        throw .internalError("the container the parent forwarded is not JSON")
      }
      var trees: [SceneTree] = []
      for (identifier, text) in texts {
        guard let json = text.withUnsafeBytes({ try? JSON.parse($0) }) else {
          throw .internalError("a tree the parent forwarded is not JSON")
        }
        trees.append(SceneTree(identifier: identifier, json: json))
      }
      scenes[number] = try SceneRunner(
        registry: registry, request: SceneOpenRequest(animator: animator, container: containerJSON, trees: trees))
      reply.u8(0)
    } catch {
      reply.u8(1)
      reply.responseError(error)
    }
    channel.send(reply.finish())
  }

  /// Hands a sample to scene `number`; answers what became of it.
  func sceneGesture(_ reader: inout MessageReader) throws(ChannelError) {
    let number = try reader.int()
    guard case .gesture(let sample) = try reader.command() else { throw ChannelError("a scene command not a gesture") }
    try reader.expectEnd()
    var reply = MessageWriter(.reply)
    if let runner = scenes[number] {
      recorder.transition = 0
      reply.sceneGestureOutcome(.success(runner.gesture(sample)))
    } else {
      // Its open failed (the client has that error already).
      reply.sceneGestureOutcome(.failure(.engine(.ended)))
    }
    channel.send(reply.finish())
  }
}

extension MessageWriter {
  mutating func sceneGestureOutcome(_ result: Result<SceneGestureOutcome, DriverError>) {
    switch result {
    case .success(let outcome):
      commandResult(.success(.gesture(outcome.delivery)))
      optional(outcome.ask) { writer, ask in
        writer.string(ask.operation)
        writer.string(ask.from)
        writer.string(ask.to)
      }
    case .failure(let error):
      commandResult(.failure(error))
    }
  }
}

extension MessageReader {
  mutating func sceneGestureOutcome() throws(ChannelError) -> Result<SceneGestureOutcome, DriverError> {
    switch try commandResult() {
    case .success(.gesture(let delivery)):
      let ask = try optional { (r: inout MessageReader) throws(ChannelError) in
        SceneTransitionAsk(operation: try r.string(), from: try r.string(), to: try r.string())
      }
      return .success(SceneGestureOutcome(delivery: delivery, ask: ask))
    case .success: throw ChannelError("a scene gesture answered with another result")
    case .failure(let error): return .failure(error)
    }
  }
}
