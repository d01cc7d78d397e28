// The one way a transition is made: resolve the animator, check the operation, validate the params, make an animator
// instance, build the engine transition on the decoded trees and bind the two. `transition/start`, render (through
// the protocol), the validator's checks, the tests and the benchmarks all come through here.

import JSON
import JSONRPC
import PluginHost
import TransitionEngine

/// A transition to make, in typed form: what `transition/start` says once its JSON is decoded.
package struct TransitionRequest {
  /// `pluginId/animatorId`, or a short `animatorId` that only one plugin has.
  package var animator: String
  package var operation: TransitionOperation
  /// The scene with the from tree shown and the to tree ready.
  package var trees: ViewTrees
  /// Values for the animator's parameters; ParameterValidator checks and completes them.
  package var params: [String: ParameterValue]
  /// Interactive or not, and the completion tail's speed and curve.
  package var options: TransitionOptions
  /// `{"container", "from", "to"}` as the client sent them, when the request came as JSON: what a plugin's worker
  /// process decodes into trees of its own (`ViewTrees.decode`).
  package var treesJSON: JSON?
  /// The scene whose handler asked for this transition (`scene/gesture`): its animator instance runs it.
  package var scene: (any SceneDriver)?

  package init(
    animator: String, operation: TransitionOperation, trees: ViewTrees, params: [String: ParameterValue] = [:],
    options: TransitionOptions = TransitionOptions(), treesJSON: JSON? = nil
  ) {
    self.animator = animator
    self.operation = operation
    self.trees = trees
    self.params = params
    self.options = options
    self.treesJSON = treesJSON
  }
}

/// Why a transition could not be made. Field paths are relative to the request (`params.duration`).
package enum TransitionStartError: Error, Equatable {
  /// 2001 / 2002: the animator id did not resolve.
  case lookup(AnimatorLookupError)
  /// 2003: the animator does not declare the operation.
  case operationNotSupported(animator: String, operation: String, supported: [String])
  /// -32602: a parameter value does not fit the animator's metadata.
  case invalidParameter(FieldError)
  /// 2008: the animator could not make an instance (a plugin's `create` returned NULL).
  case animatorRefused(animator: String, reason: String)
  /// The engine refused the transition: -32602 for an unusable value, 2006 for the rest.
  case engine(TransitionError)

  /// The error reply: `params.` goes before field paths, as the request is the message's `params`.
  package var responseError: ResponseError {
    switch self {
    case .lookup(let error):
      return .animator(error)
    case .operationNotSupported(let animator, let operation, let supported):
      return ResponseError(
        code: .operationNotSupported,
        message:
          "Animator \(animator) does not support the operation \(operation) (it supports "
          + supported.joined(separator: ", ") + ").",
        data: [
          "animator": JSON(animator), "operation": JSON(operation), "supported": .array(supported.map { JSON($0) }),
        ])
    case .invalidParameter(let error):
      return .invalidParams(field: "params." + error.field, error.problem)
    case .animatorRefused(let animator, let reason):
      return ResponseError(
        code: .animatorMisbehaved, message: "Animator \(animator) could not be created: \(reason).",
        data: ["animator": JSON(animator)])
    case .engine(let error):
      return .engine(error, transition: "(new)", phase: "idle")
    }
  }

  /// The sentence of the error reply.
  package var message: String { responseError.message }
}

/// A request whose animator resolved and whose params passed: all that is left is to make it.
package struct PreparedTransition {
  package var entry: AnimatorEntry
  /// The request, its params complete and checked.
  package var request: TransitionRequest
}

/// Makes transitions run by the animators of `catalog`, in this process.
package struct TransitionFactory {
  package let catalog: any AnimatorCatalog
  /// Where the drivers it makes sample their frames (one buffer for all: frames are encoded one at a time).
  let frameScratch = FrameScratch()

  package init(catalog: any AnimatorCatalog) {
    self.catalog = catalog
  }

  /// Resolves the animator, checks the operation and validates the params (everything that needs only metadata).
  package func prepare(_ request: TransitionRequest) throws(TransitionStartError) -> PreparedTransition {
    let entry: AnimatorEntry
    do { entry = try catalog.entry(for: request.animator) } catch { throw .lookup(error) }
    guard entry.info.supports(operation: request.operation.name) else {
      throw .operationNotSupported(
        animator: entry.qualifiedID, operation: request.operation.name, supported: entry.info.operations ?? [])
    }
    var checked = request
    do { checked.params = try ParameterValidator.validate(request.params, for: entry) } catch {
      throw .invalidParameter(error)
    }
    return PreparedTransition(entry: entry, request: checked)
  }

  /// Makes an animator instance and the engine transition of a prepared request; not started. Its stream (when the
  /// session starts it) has `frames`, its lengths on `precision`'s grid when one is given.
  package func make(
    _ prepared: PreparedTransition, frames: FrameMode = .full, precision: FramePrecision? = nil,
    adopting adopted: AnimatorBinding? = nil
  ) throws(TransitionStartError) -> LocalTransitionDriver {
    let binding: AnimatorBinding
    do throws(AnimatorInstantiationError) {
      if let adopted { binding = adopted } else { binding = try catalog.instantiate(prepared.entry.qualifiedID) }
    } catch {
      switch error {
      case .lookup(let lookup): throw .lookup(lookup)
      case .refused(let refused, let reason): throw .animatorRefused(animator: refused.qualifiedID, reason: reason)
      }
    }
    let request = prepared.request
    let transition: Transition
    do {
      transition = try Transition(
        scene: request.trees.scene, from: request.trees.fromRoot, to: request.trees.toRoot,
        operation: request.operation, animator: binding.animator, params: request.params, options: request.options)
    } catch {
      binding.discard()
      throw .engine(error)
    }
    binding.attach(transition)
    return LocalTransitionDriver(
      transition: transition, binding: binding, contents: request.trees.contents, scratch: frameScratch,
      frames: frames, precision: precision)
  }

  /// `prepare` then `make`.
  package func make(
    _ request: TransitionRequest, frames: FrameMode = .full, precision: FramePrecision? = nil
  ) throws(TransitionStartError) -> LocalTransitionDriver {
    try make(prepare(request), frames: frames, precision: precision)
  }
}
