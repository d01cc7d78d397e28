// What the host reports when a plugin's worker process dies or hangs (CONVENTIONS, "Errors": 1009, 2009, 2010): which
// plugin and animator, what the plugin was doing, how the process ended, and its last stderr lines. One value serves
// the error reply of every call in flight, the `error` of each lost transition's `transition/didEnd`, the
// `window/logMessage` and the stderr line.

import JSON
import JSONRPC
import POSIX

/// A plugin's worker process died (a signal, `exit`, a protocol violation) or was killed by the watchdog.
package struct PluginFault: Error, Sendable, Equatable {
  /// Died on its own (or broke the channel's rules), or hung past `--plugin-timeout`.
  package enum Kind: Sendable, Equatable {
    case crashed
    case hung(timeout: Double)
  }

  package var kind: Kind
  /// The plugin's id (nil while loading, before its descriptor was read).
  package var plugin: String?
  /// The plugin file.
  package var path: String
  /// `pluginId/animatorId` of the animator whose call was running, when one was.
  package var animator: String?
  /// The transition whose call was running ("t3"), when one was.
  package var transition: String?
  /// What the plugin was doing (`PluginCall.name`: "animateTransition", "completion", …); nil outside plugin code.
  package var phase: String?
  /// How the process ended: a signal, or an exit status (nil when it was not reaped in time).
  package var termination: TerminationStatus?
  /// Why the host ended it, when the host did: a protocol violation on the channel ("sent a frame for t9, which it
  /// does not run"), the channel closed while the process lived on.
  package var detail: String?
  /// The worker's last stderr lines (its plugin's prints, the runtime's crash message), oldest first.
  package var stderrTail: [String]

  package init(
    kind: Kind, plugin: String?, path: String, animator: String? = nil, transition: String? = nil,
    phase: String? = nil, termination: TerminationStatus? = nil, detail: String? = nil, stderrTail: [String] = []
  ) {
    self.kind = kind
    self.plugin = plugin
    self.path = path
    self.animator = animator
    self.transition = transition
    self.phase = phase
    self.termination = termination
    self.detail = detail
    self.stderrTail = stderrTail
  }

  /// `transition/didEnd`'s reason for the transitions it ended: "pluginCrashed" or "pluginHung".
  package var reason: String {
    if case .hung = kind { return "pluginHung" }
    return "pluginCrashed"
  }

  /// 2010 for a hang, 2009 for a crash.
  package var code: ErrorCode {
    if case .hung = kind { return .pluginHung }
    return .pluginCrashed
  }

  /// How it ended, in words: "SIGSEGV (Segmentation fault)", "exit status 3", "no answer within 2 s; its worker was
  /// killed" (the sentence around it names the phase).
  package var ending: String {
    if case .hung(let timeout) = kind { return "no answer within \(formatSeconds(timeout)) s; its worker was killed" }
    switch (termination, detail) {
    case (.signaled(let signal)?, let detail): return signalDescription(signal) + (detail.map { " (\($0))" } ?? "")
    case (.exited(let status)?, let detail): return "exit status \(status)" + (detail.map { " (\($0))" } ?? "")
    case (nil, let detail?): return detail + "; its worker was killed"
    case (nil, nil): return "its worker ended"
    }
  }

  /// One sentence: who, doing what, and how it ended.
  package var message: String { sentence(loading: false) }

  private func sentence(loading: Bool) -> String {
    let who = plugin.map { "Plugin \($0)" } ?? "The plugin at \(path)"
    let verb = if case .hung = kind { "hung" } else { "crashed" }
    let what =
      switch (phase, animator) {
      case (let phase?, let animator?): " in \(phase) of \(animator)"
      case (let phase?, nil): " in \(phase)"
      case (nil, let animator?): " while running \(animator)"
      case (nil, nil): loading ? " while loading" : ""
      }
    return "\(who) \(verb)\(what): \(ending)."
  }

  /// `{"plugin", "path", "animator", "transition", "phase", "signal", "exitStatus", "timeout"?, "detail"?,
  /// "stderr"}` (unknown members are null).
  package var data: JSON {
    var data = JSONObjectBuilder()
    data.setNew("plugin", plugin.map { JSON($0) } ?? .null)
    data.setNew("path", JSON(path))
    data.setNew("animator", animator.map { JSON($0) } ?? .null)
    data.setNew("transition", transition.map { JSON($0) } ?? .null)
    data.setNew("phase", phase.map { JSON($0) } ?? .null)
    if case .signaled(let signal)? = termination {
      data.setNew("signal", JSON(signalName(signal) ?? "signal \(signal)"))
    } else {
      data.setNew("signal", .null)
    }
    if case .exited(let status)? = termination {
      data.setNew("exitStatus", JSON(Int(status)))
    } else {
      data.setNew("exitStatus", .null)
    }
    if case .hung(let timeout) = kind { data.setNew("timeout", JSON.number(timeout)) }
    if let detail { data.setNew("detail", JSON(detail)) }
    data.setNew("stderr", .array(stderrTail.map { JSON($0) }))
    return data.build()
  }

  /// The reply of a call it interrupted: 2009 or 2010.
  package var responseError: ResponseError {
    ResponseError(code: code, message: message, data: data)
  }

  /// The reply of a `plugins/load` or `plugins/reload` it interrupted: 1009.
  package var loadError: ResponseError {
    ResponseError(code: .pluginCrashedWhileLoading, message: sentence(loading: true), data: data)
  }
}

/// `2`, `0.5`, `1.25`: a number of seconds as people write it.
package func formatSeconds(_ value: Double) -> String {
  if value == value.rounded() && abs(value) < 1e15 { return String(Int(value)) }
  return String(value)
}
