// Helpers for the protocol tests: a catalog of small Swift animators written against the engine's public API (as an
// animator author would), and a harness that drives a TransitionSession through a LocalConnection and TestSupport's
// manual scheduler (standing in for the event loop's timers), so tests see exactly the messages a client would.

import JSON
import JSONRPC
import TestSupport
import TransitionEngine

@testable import PluginHost
@testable import TransitionService

// MARK: Animators

/// Slides the moving root linearly over `duration` (param, default 1 s): a presentation brings the to root up
/// from below the container to its final frame; a dismissal moves the from root down out of the container. The
/// to root's alpha goes from 0 to 1 on presentation. Completes with `!transitionWasCancelled`.
final class LinearSlideAnimator: TransitionAnimator {
  let animatorID: String
  init(id: String) { animatorID = id }

  func transitionDuration(_ context: TransitionContext?) -> Double {
    context?.params["duration"]?.numberValue ?? 1
  }

  func animateTransition(_ context: TransitionContext) {
    let container = context.containerView
    let height = container.bounds.size.height
    let duration = transitionDuration(context)
    let dismissing = context.operation.kind == .dismissal
    let moving = context.viewController(forKey: dismissing ? .from : .to)
    if !dismissing {
      var start = context.finalFrame(forKey: .to)
      start.origin.y = height
      moving.frame = start
      moving.alpha = 0
      container.addSubview(moving)
    }
    context.scene.animate(
      duration: duration, timing: .curve(.linear),
      animations: {
        if dismissing {
          var frame = moving.frame
          frame.origin.y = height
          moving.frame = frame
        } else {
          moving.frame = context.finalFrame(forKey: .to)
          moving.alpha = 1
        }
      },
      completion: { _ in context.completeTransition(!context.transitionWasCancelled) })
  }
}

/// Animates for `duration` but never calls completeTransition (the engine fails it: "neverCompleted").
final class NeverCompletingAnimator: TransitionAnimator {
  let animatorID = "com.test/never"
  func transitionDuration(_ context: TransitionContext?) -> Double { 0.5 }
  func animateTransition(_ context: TransitionContext) {
    let to = context.viewController(forKey: .to)
    context.containerView.addSubview(to)
    to.alpha = 0
    context.scene.animate(duration: 0.5, timing: .curve(.linear), animations: { to.alpha = 1 })
  }
}

/// Completes at once, inside animateTransition, and calls completeTransition a second time (reported).
final class InstantAnimator: TransitionAnimator {
  let animatorID = "com.test/instant"
  func transitionDuration(_ context: TransitionContext?) -> Double { 0 }
  func animateTransition(_ context: TransitionContext) {
    context.containerView.addSubview(context.viewController(forKey: .to))
    context.completeTransition(true)
    context.completeTransition(true)
  }
}

// MARK: Catalog

/// A fixed set of Swift animators under two made-up plugin ids ("slide" exists in both: the short id is
/// ambiguous).
final class TestCatalog: AnimatorCatalog {
  private(set) var instantiated = 0
  /// Animator ids whose instantiation fails as a plugin's NULL `create` would.
  var refusing: Set<String> = []

  static let slideParams = [
    PluginParameter(
      name: "duration", kind: .number, doc: "Length in seconds.", defaultValue: .number(1), minimum: 0, maximum: 10,
      options: []),
    PluginParameter(
      name: "edge", kind: .enum, doc: nil, defaultValue: .string("bottom"), minimum: nil, maximum: nil,
      options: ["bottom", "top"]),
    PluginParameter(
      name: "tint", kind: .color, doc: nil, defaultValue: .color(r: 0, g: 0, b: 0, a: 0.5), minimum: nil,
      maximum: nil, options: []),
  ]

  let entries: [AnimatorEntry] = [
    AnimatorEntry(
      qualifiedID: "com.test/slide", pluginID: "com.test",
      info: AnimatorInfo(
        id: "slide", name: "Slide", description: "Slides linearly.", operations: ["present", "dismiss"],
        params: slideParams)),
    AnimatorEntry(
      qualifiedID: "com.test/never", pluginID: "com.test",
      info: AnimatorInfo(id: "never", name: "Never", description: nil, operations: nil, params: [])),
    AnimatorEntry(
      qualifiedID: "com.test/instant", pluginID: "com.test",
      info: AnimatorInfo(id: "instant", name: "Instant", description: nil, operations: nil, params: [])),
    AnimatorEntry(
      qualifiedID: "com.other/slide", pluginID: "com.other",
      info: AnimatorInfo(id: "slide", name: "Other slide", description: nil, operations: nil, params: [])),
  ]

  func entry(for id: String) throws(AnimatorLookupError) -> AnimatorEntry {
    if let exact = entries.first(where: { $0.qualifiedID == id }) { return exact }
    let short = entries.filter { $0.info.id == id }
    if short.count > 1 { throw .ambiguous(id: id, candidates: short.map(\.qualifiedID)) }
    guard let entry = short.first else { throw .unknown(id: id) }
    return entry
  }

  func instantiate(_ id: String) throws(AnimatorInstantiationError) -> AnimatorBinding {
    let entry: AnimatorEntry
    do {
      entry = try self.entry(for: id)
    } catch {
      throw .lookup(error)
    }
    if refusing.contains(entry.qualifiedID) { throw .refused(entry: entry, reason: "create returned NULL") }
    instantiated += 1
    let animator: any TransitionAnimator =
      switch entry.info.id {
      case "never": NeverCompletingAnimator()
      case "instant": InstantAnimator()
      default: LinearSlideAnimator(id: entry.qualifiedID)
      }
    return AnimatorBinding(entry: entry, animator: animator)
  }
}

// MARK: Harness

/// A service on a LocalConnection with a manual scheduler.
final class ProtocolHarness {
  let connection = LocalConnection()
  let scheduler = ManualScheduler()
  let catalog = TestCatalog()
  let service: TransitionSession
  private var nextID: Int64 = 1000
  var diagnostics: [String] = []

  init(maxTransitions: Int = 1024, rememberedOutcomes: Int = 10_000, registry: PluginRegistry? = nil) {
    var configuration = TransitionSession.Configuration(maxTransitions: maxTransitions)
    configuration.rememberedOutcomes = rememberedOutcomes
    service = TransitionSession(
      configuration: configuration, catalog: catalog, registry: registry, output: connection.dispatcher,
      scheduler: scheduler)
    service.register(on: connection.dispatcher)
    service.diagnostic = { [unowned self] in diagnostics.append($0) }
  }

  /// Sends a request and returns every message written in response, in order (notifications and the reply).
  func send(_ method: String, _ params: JSON) -> [JSON] {
    let id = nextID
    nextID += 1
    connection.send(["jsonrpc": "2.0", "id": JSON(id), "method": JSON(method), "params": params])
    return connection.takeMessages()
  }

  /// Sends a request and returns its reply's `result`, recording the other messages in `notifications`.
  @discardableResult
  func call(_ method: String, _ params: JSON) -> JSON {
    let messages = send(method, params)
    notifications += messages.filter { $0["id"] == nil }
    return messages.first { $0["id"] != nil }?["result"] ?? .null
  }

  /// Sends a request that must fail and returns its `error`.
  func failure(_ method: String, _ params: JSON) -> JSON {
    let messages = send(method, params)
    notifications += messages.filter { $0["id"] == nil }
    return messages.first { $0["id"] != nil }?["error"] ?? .null
  }

  /// Notifications received by `call` and `failure` (and `takeNotifications`), in order.
  var notifications: [JSON] = []

  /// Everything written since the last call, plus what `call` kept.
  func takeNotifications() -> [JSON] {
    let all = notifications + connection.takeMessages()
    notifications = []
    return all
  }

  /// The frames among `messages`, as their params.
  static func frames(_ messages: [JSON]) -> [JSON] {
    messages.filter { $0["method"]?.stringValue == "transition/frame" }.compactMap { $0["params"] }
  }

  static func didEnds(_ messages: [JSON]) -> [JSON] {
    messages.filter { $0["method"]?.stringValue == "transition/didEnd" }.compactMap { $0["params"] }
  }
}

// MARK: Requests

enum Trees {
  /// A 400 × 800 container.
  static var container: JSON { ["width": 400, "height": 800] }

  /// A from root filling the container with one child, and a to root of the same size with one child.
  static var from: JSON {
    [
      "id": "home", "frame": ["x": 0, "y": 0, "width": 400, "height": 800], "backgroundColor": [1, 1, 1, 1],
      "content": ["text": "Home"],
      "children": [["id": "title", "frame": ["x": 20, "y": 40, "width": 200, "height": 30], "content": "Hello"]],
    ]
  }
  static var to: JSON {
    [
      "id": "detail", "frame": ["x": 0, "y": 0, "width": 400, "height": 800], "backgroundColor": [0, 0, 1, 1],
      "children": [["id": "photo", "frame": ["x": 50, "y": 100, "width": 300, "height": 200], "cornerRadius": 12]],
    ]
  }

  static func start(
    animator: String = "com.test/slide", operation: String = "present", clock: String = "manual",
    interactive: Bool = false, frames: String = "full", extra: [(String, JSON)] = []
  ) -> JSON {
    .object(
      [
        ("animator", JSON(animator)), ("operation", JSON(operation)), ("container", container), ("from", from),
        ("to", to), ("clock", JSON(clock)), ("interactive", JSON(interactive)), ("frames", JSON(frames)),
      ] + extra)
  }
}

extension JSON {
  /// The entry of view `id` in a frame's `views`.
  func view(_ id: String) -> JSON? {
    self["views"]?.elements.first { $0["id"]?.stringValue == id }
  }

  /// A rect member as (x, y, width, height).
  var rect: (Double, Double, Double, Double)? {
    guard let x = self["x"]?.doubleValue, let y = self["y"]?.doubleValue, let w = self["width"]?.doubleValue,
      let h = self["height"]?.doubleValue
    else { return nil }
    return (x, y, w, h)
  }

  var numbers: [Double] { elements.compactMap(\.doubleValue) }
}
