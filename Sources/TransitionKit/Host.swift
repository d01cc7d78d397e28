internal import CTransitionABI

#if canImport(Glibc)
  import Glibc
#endif

/// The host API table as the SDK calls it: every function is looked up with the header's TH_HOST_API_HAS rule
/// (present within the table's `struct_size` and not NULL), and every status other than TH_OK is logged, so that a
/// host that lacks a function, or refuses a call, shows up in the host's log as misbehaviour, never as a crash.
struct Host: @unchecked Sendable {
  // @unchecked: a pointer to the host's immutable table, valid from th_plugin_entry until deinit.
  let api: UnsafePointer<th_host_api>

  /// The function at `member` when the table has it (TH_HOST_API_HAS), else nil.
  func function<F>(_ member: KeyPath<th_host_api, F?>) -> F? {
    guard let offset = MemoryLayout<th_host_api>.offset(of: member) else { return nil }
    guard Int(api.pointee.struct_size) >= offset + MemoryLayout<F?>.size else { return nil }
    return api.pointee[keyPath: member]
  }

  /// Writes a message to the host's log (never fails visibly).
  func log(_ ctx: th_context, _ level: th_log_level, _ message: String) {
    guard let log = function(\.log) else { return }
    message.withCString { log(ctx, level, $0) }
  }

  /// Calls the host function at `member` with `body`, logging a missing function or an error status.
  ///
  /// - Parameters:
  ///   - what: the UIKit-level name of the call, for the log ("view.frame = …").
  ///   - quiet: statuses that are answers rather than misuse (TH_ERR_NOT_FOUND for a lookup) and are not logged.
  /// - Returns: whether the call returned TH_OK.
  ///   - logContext: the context to log with when the host refused `ctx` itself (a stale or unknown handle): the
  ///     plugin's own, so that the message is still attributed to the plugin.
  ///   - context: appended to the message: where the call was written (`Session.blockContext`).
  @discardableResult
  func call<F>(
    _ ctx: th_context, _ member: KeyPath<th_host_api, F?>, _ what: @autoclosure () -> String,
    quiet: [th_status] = [], logContext: th_context? = nil, context: @autoclosure () -> String = "",
    _ body: (F) -> th_status
  ) -> Bool {
    guard let fn = function(member) else {
      log(ctx, TH_LOG_WARNING, "TransitionKit: \(what()): this host does not offer the function\(context())")
      return false
    }
    let status = body(fn)
    if status == TH_OK { return true }
    if !quiet.contains(status) {
      let badHandle = status == TH_ERR_INVALID_HANDLE || status == TH_ERR_STALE_HANDLE
      log(
        badHandle ? (logContext ?? ctx) : ctx, TH_LOG_WARNING,
        "TransitionKit: \(what()) failed: \(String(cString: th_status_name(status)))\(context())")
    }
    return false
  }
}

// MARK: - Conversions between the SDK's value types and the ABI's

extension CGRect {
  init(_ r: th_rect) { self.init(x: r.x, y: r.y, width: r.width, height: r.height) }
  var th: th_rect { th_rect(x: origin.x, y: origin.y, width: size.width, height: size.height) }
}

extension CGPoint {
  init(_ p: th_point) { self.init(x: p.x, y: p.y) }
  var th: th_point { th_point(x: x, y: y) }
}

extension UIColor {
  init(_ c: th_color) { self.init(red: c.r, green: c.g, blue: c.b, alpha: c.a) }
  var th: th_color { th_color(r: red, g: green, b: blue, a: alpha) }
}

extension CATransform3D {
  init(_ t: th_transform3d) {
    let m = t.m
    self.init(
      m11: m.0, m12: m.1, m13: m.2, m14: m.3, m21: m.4, m22: m.5, m23: m.6, m24: m.7,
      m31: m.8, m32: m.9, m33: m.10, m34: m.11, m41: m.12, m42: m.13, m43: m.14, m44: m.15)
  }
  var th: th_transform3d {
    th_transform3d(m: (m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44))
  }
}
