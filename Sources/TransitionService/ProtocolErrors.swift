// The error replies of the transition protocol (CONVENTIONS, "Errors"), built from what the plugin host and the
// engine report, with the codes of ApplicationErrorCodes.swift. Messages are one sentence; structure goes into
// `data`.

import JSON
import JSONRPC
import PluginHost
import TransitionEngine

extension ResponseError {
  /// 1001–1008 (or -32602 for an unknown plugin id) with `data` carrying the path and what the loader found.
  package static func plugin(_ error: PluginLoadError) -> ResponseError {
    var data = JSONObjectBuilder()
    switch error {
    case .fileNotFound(let path):
      data.setNew("path", JSON(path))
    case .notLoadable(let path, let reason):
      data.setNew("path", JSON(path))
      data.setNew("dlerror", JSON(reason))
    case .entrySymbolMissing(let path, let reason):
      data.setNew("path", JSON(path))
      data.setNew("dlerror", JSON(reason))
    case .abiIncompatible(let path, let plugin, let host):
      data.setNew("path", JSON(path))
      data.setNew("pluginAbi", plugin.map { JSON($0.description) } ?? .null)
      data.setNew("hostAbi", JSON(host.description))
    case .invalidDescriptor(let path, let reason):
      data.setNew("path", JSON(path))
      data.setNew("reason", JSON(reason))
    case .initFailed(let path, let pluginID):
      data.setNew("path", JSON(path))
      data.setNew("plugin", JSON(pluginID))
    case .pathNotAllowed(let path, let realPath, let folders):
      data.setNew("path", JSON(path))
      if let realPath { data.setNew("realPath", JSON(realPath)) }
      data.setNew("folders", .array(folders.map { JSON($0) }))
    case .unsafePermissions(let path, let unsafePath, let reason):
      data.setNew("path", JSON(path))
      data.setNew("unsafePath", JSON(unsafePath))
      data.setNew("reason", JSON(reason))
    case .busy(let pluginID, let running):
      data.setNew("plugin", JSON(pluginID))
      data.setNew("runningTransitions", JSON(running))
    case .unknownPlugin(let pluginID):
      return .invalidParams(field: "params.plugin", "names no loaded plugin (\(pluginID))")
    }
    return ResponseError(code: error.errorCode, message: sentence(error.message), data: data.build())
  }

  /// 2001 (`data.animator`), 2002 (`data.candidates`) or 2008 (the plugin could not make an instance).
  package static func animator(_ error: AnimatorLookupError) -> ResponseError {
    let data: JSON =
      switch error {
      case .unknown(let id), .creationFailed(let id): ["animator": JSON(id)]
      case .ambiguous(let id, let candidates):
        ["animator": JSON(id), "candidates": .array(candidates.map { JSON($0) })]
      }
    return ResponseError(code: error.errorCode, message: sentence(error.message), data: data)
  }

  /// 2005 for an id that names no transition this host started.
  static func unknownTransition(_ id: String) -> ResponseError {
    ResponseError(
      code: .unknownTransition, message: "Unknown transition \(id).", data: ["transition": JSON(id)])
  }

  /// 2006: the call makes no sense in the transition's state (`data.phase` is that state).
  static func wrongState(_ id: String, phase: String, _ why: String) -> ResponseError {
    ResponseError(
      code: .invalidTransitionState, message: "Transition \(id): \(why).",
      data: ["transition": JSON(id), "phase": JSON(phase)])
  }

  /// 2011: the gesture sample reached no recognizer (`data.reason` says why, `data.state` is the sample's state).
  /// A scene's sample (`scene/gesture`) names the scene (`data.scene`) and its view controllers.
  static func gestureNotReceived(
    _ id: String, _ delivery: GestureDelivery, state: GestureSample.State, scene: Bool = false
  ) -> ResponseError {
    let (reason, why): (String, String)
    switch delivery {
    case .received: (reason, why) = ("received", "the gesture was received")
    case .noRecognizers:
      (reason, why) = (
        "noRecognizers",
        scene
          ? "its view controllers have no gesture recognizer on any of its views"
          : "its interaction controller has no gesture recognizer on any of its views"
      )
    case .notHit:
      (reason, why) = (
        "notHit",
        "no enabled gesture recognizer is on the view at the location or its superviews (hidden views, alpha < 0.01 "
          + "and views with user interaction disabled take no touches), or none agreed to begin"
      )
    case .notInProgress:
      (reason, why) = ("notInProgress", "no gesture is in progress; a gesture starts with a \"began\" sample")
    }
    return ResponseError(
      code: .gestureNotReceived, message: "\(scene ? "Scene" : "Transition") \(id): \(why).",
      data: [scene ? "scene" : "transition": JSON(id), "reason": JSON(reason), "state": JSON(state.rawValue)])
  }

  /// What the engine's refusal means on the wire: -32602 for an unusable argument, 2006 for the rest.
  static func engine(_ error: TransitionError, transition id: String, phase: String) -> ResponseError {
    if case .invalidValue(let field, let reason) = error {
      return .invalidParams(field: "params." + field, reason)
    }
    return .wrongState(id, phase: phase, error.description)
  }

  /// A sentence: capitalised, ending with exactly one full stop.
  private static func sentence(_ text: String) -> String {
    let capitalised = text.prefix(1).uppercased() + text.dropFirst()
    return capitalised.hasSuffix(".") ? capitalised : capitalised + "."
  }
}
