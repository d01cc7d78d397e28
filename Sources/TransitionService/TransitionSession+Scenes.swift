// The scene/… methods (Protocol.md, "Scenes"): gestures that arrive before any transition exists. A scene is the
// app's view controllers over the client's trees; a handler that presents, dismisses, pushes or pops starts that
// transition through `start` (the one transition path), announced by `scene/transitionStarted`, and then streamed and
// driven exactly as one from `transition/start`.

import JSON
import JSONRPC
import TransitionEngine

/// One open scene: its driver, the trees it was opened with (each transition it starts gets two of them) and the
/// stream options of those transitions.
final class SceneRecord {
  let number: Int
  /// Set right after the record is made (the hosting makes it).
  var driver: (any SceneDriver)!
  let request: SceneOpenRequest
  let stream: StreamOptions
  /// The transition the scene started last, while it is live.
  weak var transition: TransitionRecord?
  /// A gesture is on its way (with the start of the transition it asks for): later ones wait, so that each finds
  /// what the one before it started.
  var isBusy = false
  var waiting: [() -> Void] = []

  init(number: Int, request: SceneOpenRequest, stream: StreamOptions) {
    self.number = number
    self.request = request
    self.stream = stream
  }

  var id: String { "s\(number)" }
}

extension ResponseError {
  /// 2013 naming the scene (`data.scene`, and `data.field` "scene").
  static func unknownScene(_ id: String, _ why: String) -> ResponseError {
    ResponseError(
      code: .unknownScene, message: "Unknown scene \(id) (\(why)).", data: ["scene": JSON(id), "field": "scene"])
  }
}

extension TransitionSession {
  func registerSceneMethods(on dispatcher: Dispatcher) {
    handle(dispatcher, "scene/open") { [unowned self] params, reply throws(ResponseError) in
      openScene(try Self.sceneOpenRequest(params), stream: try Self.streamOptions(params), reply: reply)
    }
    handle(dispatcher, "scene/gesture") { [unowned self] params, reply throws(ResponseError) in
      let scene = try sceneRecord(try params.required("scene", ValueDecoding.string))
      sceneGesture(try Self.gestureSample(params), on: scene, reply: reply)
    }
    handle(dispatcher, "scene/close") { [unowned self] params, reply throws(ResponseError) in
      let scene = try sceneRecord(try params.required("scene", ValueDecoding.string))
      // After the gestures before it (and the transitions they start); a running transition runs on.
      scenes[scene.number] = nil
      let close = { [weak self] in
        scene.driver.close()
        reply(.success(.json(JSONObjectBuilder().build())))
        self?.reportEnds()
      }
      if scene.isBusy { scene.waiting.append(close) } else { close() }
    }
  }

  /// `scene/open`'s params: `animator`, `container`, `root` (the root controller's tree) and `storyboard` (trees by
  /// storyboard identifier).
  private static func sceneOpenRequest(_ params: ParamsReader) throws(ResponseError) -> SceneOpenRequest {
    let animator = try params.required("animator", ValueDecoding.string)
    for name in ["container", "root"] where !params.has(name) {
      throw .invalidParams(field: "params." + name, "is required")
    }
    var trees = [SceneTree(identifier: "", json: params.member("root")!)]
    if let storyboard = params.member("storyboard") {
      guard storyboard.kind == .object else {
        throw .invalidParams(field: "params.storyboard", "must be an object of trees by storyboard identifier")
      }
      for (identifier, tree) in storyboard.members {
        guard !identifier.isEmpty else {
          throw .invalidParams(field: "params.storyboard", "has an empty storyboard identifier")
        }
        trees.append(SceneTree(identifier: identifier, json: tree))
      }
    }
    return SceneOpenRequest(animator: animator, container: params.member("container")!, trees: trees)
  }

  /// The open scene `id` names; 2013 otherwise.
  func sceneRecord(_ id: String) throws(ResponseError) -> SceneRecord {
    if id.hasPrefix("s"), let number = Int(id.dropFirst()), id == "s\(number)", let scene = scenes[number] {
      return scene
    }
    throw .unknownScene(id, "never opened, or closed")
  }

  /// Opens a scene where the animator's plugin runs; replies `{"scene", "animator"}` once it opened. Its id is
  /// taken at once, so gestures sent meanwhile reach it after its open.
  func openScene(_ request: SceneOpenRequest, stream: StreamOptions, reply: @escaping Reply) {
    let record = SceneRecord(number: sceneCounter + 1, request: request, stream: stream)
    // The answer may come before `openScene` returns (in this process): it is handled once the record is kept.
    var early: Result<Void, ResponseError>?
    var kept = false
    do throws(ResponseError) {
      record.driver = try hosting.openScene(request) { [weak self] result in
        if kept { self?.sceneOpened(record, result, reply: reply) } else { early = result }
      }
    } catch {
      flushPluginLogs()
      reply(.failure(error))
      return reportEnds()
    }
    sceneCounter += 1
    scenes[record.number] = record
    kept = true
    record.driver.onLost = { [weak self, weak record] fault in
      guard let self, let record, scenes[record.number] === record else { return }
      scenes[record.number] = nil
      var params = JSONObjectBuilder()
      params.setNew("scene", JSON(record.id))
      params.setNew("reason", JSON(fault.reason))
      params.setNew("error", fault.responseError.json)
      output.notify("scene/didClose", params.build())
    }
    if let early { sceneOpened(record, early, reply: reply) }
  }

  private func sceneOpened(_ record: SceneRecord, _ result: Result<Void, ResponseError>, reply: @escaping Reply) {
    flushPluginLogs()
    switch result {
    case .failure(let error):
      if scenes[record.number] === record { scenes[record.number] = nil }
      reply(.failure(error))
    case .success:
      var result = JSONObjectBuilder()
      result.setNew("scene", JSON(record.id))
      result.setNew("animator", JSON(record.driver.animatorID))
      reply(.success(.json(result.build())))
    }
    reportEnds()
  }

  /// Hands a sample to the scene's recognizers. A transition the scene started that still runs shows what the
  /// handlers did in a frame; one a handler asked for starts (`scene/transitionStarted`, then its frames). Replies
  /// `{"recognizers"}` (and `"transition"` when one started); 2011 when no recognizer received the sample.
  func sceneGesture(_ sample: GestureSample, on scene: SceneRecord, reply: @escaping Reply) {
    guard !scene.isBusy else {
      scene.waiting.append { [weak self] in self?.sceneGesture(sample, on: scene, reply: reply) }
      return
    }
    scene.isBusy = true
    outstandingCalls += 1
    deliverSceneGesture(sample, on: scene) { [weak self] result in
      reply(result)
      self?.outstandingCalls -= 1
      scene.isBusy = false
      if !scene.waiting.isEmpty { scene.waiting.removeFirst()() }
    }
  }

  private func deliverSceneGesture(_ sample: GestureSample, on scene: SceneRecord, reply: @escaping Reply) {
    let running = scene.transition.flatMap { $0.outcome == nil ? $0 : nil }
    if let running { catchUp(running) }
    func answer(_ outcome: SceneGestureOutcome) {
      guard let ask = outcome.ask else {
        guard let count = outcome.delivery.recognizers else {
          reply(.failure(.gestureNotReceived(scene.id, outcome.delivery, state: sample.state, scene: true)))
          return reportEnds()
        }
        var result = JSONObjectBuilder()
        result.setNew("recognizers", JSON(count))
        reply(.success(.json(result.build())))
        return reportEnds()
      }
      startSceneTransition(ask, of: scene, recognizers: outcome.delivery.recognizers ?? 1, reply: reply)
    }
    outstandingCalls += 1
    scene.driver.gesture(sample) { [self] result in
      outstandingCalls -= 1
      flushPluginLogs()
      let outcome: SceneGestureOutcome
      switch result {
      case .failure(.engine(.ended)):
        // Its open failed: that error was the open's reply.
        reply(.failure(.unknownScene(scene.id, "it did not open")))
        return reportEnds()
      case .failure(let error):
        reply(.failure(error.responseError(transition: scene.id, phase: "scene")))
        return reportEnds()
      case .success(let value): outcome = value
      }
      // What the handlers did to the running transition shows in a frame before the reply, as after
      // transition/gesture.
      guard let running, outcome.delivery.recognizers != nil else { return answer(outcome) }
      showHandlersWork(running) { answer(outcome) }
    }
  }

  /// A frame of `record` after a scene's handlers moved it (update, finish, cancel).
  private func showHandlersWork(_ record: TransitionRecord, then: @escaping () -> Void) {
    call(record) { done in
      record.driver.perform(.advance(seconds: 0), stream: true) { [self] _, frame in
        defer { then() }
        done()
        updateTimer(record)
        if record.outcome == nil {
          if let frame { output.sendSerializedMessage(frame) }
        } else {
          keepLastFrame(record, frame)
        }
      }
    }
  }

  /// Starts the transition a handler asked for: the scene's animator, the two trees, the scene's stream options,
  /// interactive as the interaction controller says (UIKit's wantsInteractiveStart).
  private func startSceneTransition(
    _ ask: SceneTransitionAsk, of scene: SceneRecord, recognizers: Int, reply: @escaping Reply
  ) {
    let container = scene.request.container
    guard let from = scene.request.tree(ask.from), let to = scene.request.tree(ask.to) else {
      reply(.failure(.internalError("the scene asked for trees it does not have")))
      return reportEnds()
    }
    let trees: ViewTrees
    do throws(ResponseError) {
      trees = try ViewTrees.decode(container: container, from: from, to: to)
    } catch {
      reply(.failure(error))
      return reportEnds()
    }
    var options = TransitionOptions(isInteractive: false)
    options.interactivityFromController = true
    var request = TransitionRequest(
      animator: scene.driver.animatorID, operation: TransitionOperation(name: ask.operation), trees: trees,
      options: options, treesJSON: ["container": container, "from": from, "to": to])
    request.scene = scene.driver
    start(request, stream: scene.stream) { [self] result in
      switch result {
      case .failure(let error):
        reply(.failure(error))
      case .success(.json(let started)):
        let id = started["transition"]?.stringValue ?? ""
        if let number = Self.number(of: id) { scene.transition = live[number] }
        var result = JSONObjectBuilder()
        result.setNew("recognizers", JSON(recognizers))
        result.setNew("transition", JSON(id))
        reply(.success(.json(result.build())))
        var params = JSONObjectBuilder()
        params.setNew("scene", JSON(scene.id))
        params.setNew("transition", JSON(id))
        params.setNew("animator", JSON(scene.driver.animatorID))
        params.setNew("operation", JSON(ask.operation))
        // The trees by their roots' ids, as frames name them.
        params.setNew("from", from["id"] ?? .null)
        params.setNew("to", to["id"] ?? .null)
        params.setNew("duration", started["duration"] ?? .number(0))
        output.notify("scene/transitionStarted", params.build())
      case .success(.text):
        reply(.failure(.internalError("start replied text")))
      }
    }
  }
}
