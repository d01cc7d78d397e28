import CTransitionABI
import Synchronization
import TransitionEngine

#if canImport(Glibc)
  import Glibc
#endif

/// The link from a transition context id to its `PluginAnimator`, reachable from C callbacks through
/// `ContextDirectory`.
///
/// `@unchecked Sendable` because the directory (shared by every thread) holds it: `animator` is read and
/// used only on `thread`, which `hostCall` checks with `pthread_equal` before touching it; the inbox is a
/// mutex. That check is the guard the ABI promises ("a call from another thread returns
/// TH_ERR_WRONG_THREAD").
final class TransitionSlot: @unchecked Sendable {
  /// The host thread: the one that created the animator and makes every host -> plugin call.
  let thread: pthread_t
  /// Only dereferenced on `thread`.
  private weak var animator: PluginAnimator?
  /// Misuse seen on other threads, delivered on the host thread when its current call returns.
  private let inbox = Mutex<[String]>([])

  init(animator: PluginAnimator) {
    self.thread = pthread_self()
    self.animator = animator
  }

  /// Whether the caller runs on the host thread.
  var isCurrentThread: Bool { pthread_equal(thread, pthread_self()) != 0 }

  /// The animator; only on the host thread.
  var onHostThread: PluginAnimator? {
    guard isCurrentThread else { return nil }
    return animator
  }

  /// Queues a report from another thread.
  func post(_ message: String) {
    inbox.withLock { $0.append(message) }
  }

  /// Takes the queued reports.
  func takePosted() -> [String] {
    inbox.withLock { queue in
      defer { queue = [] }
      return queue
    }
  }
}

/// Why a host call failed: the status it returns, and whether (and how) it is misbehaviour.
struct HostFailure: Error {
  var status: th_status
  /// The misbehaviour kind reported for it; nil for an answer that is not misuse (TH_ERR_NOT_FOUND from a
  /// lookup).
  var kind: Misbehavior.Kind?
  var detail: String

  static func invalidArgument(_ field: String, _ detail: String) -> HostFailure {
    HostFailure(status: TH_ERR_INVALID_ARGUMENT, kind: .invalidValue(field: field), detail: detail)
  }

  static func null(_ field: String) -> HostFailure {
    invalidArgument(field, "\(field) is NULL")
  }

  static func invalidValue(_ field: String, _ detail: String) -> HostFailure {
    HostFailure(status: TH_ERR_INVALID_VALUE, kind: .invalidValue(field: field), detail: detail)
  }

  static func unsupported(_ field: String, _ detail: String) -> HostFailure {
    HostFailure(status: TH_ERR_UNSUPPORTED, kind: .invalidValue(field: field), detail: detail)
  }

  static func typeMismatch(_ field: String, _ detail: String) -> HostFailure {
    HostFailure(status: TH_ERR_TYPE_MISMATCH, kind: .invalidValue(field: field), detail: detail)
  }

  static func invalidTree(_ field: String, _ detail: String) -> HostFailure {
    HostFailure(status: TH_ERR_INVALID_TREE, kind: .invalidValue(field: field), detail: detail)
  }

  static func wrongPhase(_ detail: String, kind: Misbehavior.Kind = .wrongPhase) -> HostFailure {
    HostFailure(status: TH_ERR_WRONG_PHASE, kind: kind, detail: detail)
  }

  static func limit(_ field: String, _ detail: String) -> HostFailure {
    HostFailure(status: TH_ERR_LIMIT, kind: .invalidValue(field: field), detail: detail)
  }

  /// A lookup that found nothing: returned, not reported.
  static func notFound(_ detail: String) -> HostFailure {
    HostFailure(status: TH_ERR_NOT_FOUND, kind: nil, detail: detail)
  }
}

/// Runs one host function for the transition context `ctx`: finds its animator, checks the thread, runs
/// `body`, and turns a failure into its status and a misbehaviour report.
///
/// A context the host cannot use (never issued, retired, a plugin context, or {0}) returns
/// TH_ERR_INVALID_HANDLE or TH_ERR_STALE_HANDLE; the report goes to the animator whose plugin code is running
/// on this thread (the caller, in all likelihood), else to the context's plugin's logger.
func hostCall(
  _ ctx: th_context, _ function: StaticString, _ body: (PluginAnimator) throws(HostFailure) -> th_status
) -> th_status {
  let directory = ContextDirectory.shared
  let failure: HostFailure
  var owner: ContextDirectory.Entry?
  switch directory.lookup(ctx) {
  case .live(let entry):
    if let slot = entry.transition {
      guard slot.isCurrentThread else {
        slot.post("\(function) called from another thread (the host calls and is called on one thread only)")
        return TH_ERR_WRONG_THREAD
      }
      guard let animator = slot.onHostThread else { return TH_ERR_STALE_HANDLE }
      do {
        return try body(animator)
      } catch {
        animator.report(function, error)
        return error.status
      }
    }
    owner = entry
    failure = HostFailure(
      status: TH_ERR_INVALID_HANDLE, kind: .invalidValue(field: "ctx"),
      detail: "context \(ctx.id) is the plugin's own context, not a transition's")
  case .stale:
    owner = directory.tombstone(ctx)
    failure = HostFailure(
      status: TH_ERR_STALE_HANDLE, kind: .callAfterCompletion,
      detail: "context \(ctx.id) belongs to a transition that has ended")
  case .invalid:
    failure = HostFailure(
      status: TH_ERR_INVALID_HANDLE, kind: .invalidValue(field: "ctx"),
      detail: ctx.id == 0 ? "context {0} (no transition)" : "context \(ctx.id) was never issued")
  }
  if let slot = directory.activeSlot(), let animator = slot.onHostThread {
    animator.report(function, failure)
  } else {
    let source = owner?.source ?? "unknown plugin"
    let logger = owner?.logger ?? PluginLogger.standardError(minimumLevel: .debug)
    logger.write(
      PluginLogRecord(
        source: source, level: .pluginMisbehaving,
        message: "\(function): \(statusName(failure.status)): \(failure.detail)"))
  }
  return failure.status
}

/// The header's name of a status ("TH_ERR_STALE_HANDLE").
package func statusName(_ status: th_status) -> String {
  String(cString: th_status_name(status))
}

// MARK: - Conversions between ABI values and engine values

extension Rect {
  init(_ r: th_rect) { self.init(x: r.x, y: r.y, width: r.width, height: r.height) }
  var abi: th_rect { th_rect(x: origin.x, y: origin.y, width: size.width, height: size.height) }
  var isFinite: Bool { origin.x.isFinite && origin.y.isFinite && size.width.isFinite && size.height.isFinite }
}

extension Point {
  init(_ p: th_point) { self.init(x: p.x, y: p.y) }
  var abi: th_point { th_point(x: x, y: y) }
  var isFinite: Bool { x.isFinite && y.isFinite }
}

extension Color {
  init(_ c: th_color) { self.init(r: c.r, g: c.g, b: c.b, a: c.a) }
  var abi: th_color { th_color(r: r, g: g, b: b, a: a) }
  /// Every component finite and in [0, 1].
  var isValidComponents: Bool { [r, g, b, a].allSatisfy { $0 >= 0 && $0 <= 1 } }
}

extension Transform3D {
  init(_ t: th_transform3d) {
    let v = withUnsafeBytes(of: t.m) { Array($0.bindMemory(to: Double.self)) }
    self = Transform3D(values: v) ?? .identity
  }

  var abi: th_transform3d {
    var t = th_transform3d()
    let v = values
    withUnsafeMutableBytes(of: &t.m) { raw in
      let d = raw.bindMemory(to: Double.self)
      for i in 0..<16 { d[i] = v[i] }
    }
    return t
  }
}

/// The text of a plugin string, or a failure naming `field` (NULL, or not UTF-8).
func decodeString(_ pointer: UnsafePointer<CChar>?, _ field: String) throws(HostFailure) -> String {
  guard let pointer else { throw .null(field) }
  guard let text = String(validatingCString: pointer) else {
    throw .invalidArgument(field, "\(field) is not valid UTF-8")
  }
  return text
}

/// The out-parameter, or a failure naming it.
func required<T>(_ pointer: UnsafeMutablePointer<T>?, _ field: String) throws(HostFailure) -> UnsafeMutablePointer<T> {
  guard let pointer else { throw .null(field) }
  return pointer
}

/// Reads a growable struct's `struct_size` (its first field) and checks it covers ABI 1.0's layout.
func checkStructSize(_ pointer: UnsafeRawPointer, minimum: Int, _ field: String) throws(HostFailure) {
  let size = Int(pointer.load(as: UInt32.self))
  guard size >= minimum else {
    throw .invalidArgument(field, "\(field)->struct_size \(size) is smaller than ABI 1.0's (\(minimum))")
  }
}
