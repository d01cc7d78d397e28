import Glibc

/// One of setrlimit(2)'s resources, and setting its limit for this process (and the programs it starts).
package enum ResourceLimit: Sendable {
  /// `RLIMIT_AS`: the whole virtual address space, reservations included.
  case addressSpace
  /// `RLIMIT_DATA`: private writable memory (the heap, anonymous mappings); what `malloc` draws on.
  case data
  /// `RLIMIT_CORE`: the size of a core dump (0: none).
  case coreFile
  /// `RLIMIT_STACK`: the main thread's stack.
  case stack

  private var resource: __rlimit_resource_t {
    switch self {
    case .addressSpace: __rlimit_resource_t(RLIMIT_AS.rawValue)
    case .data: __rlimit_resource_t(RLIMIT_DATA.rawValue)
    case .coreFile: __rlimit_resource_t(RLIMIT_CORE.rawValue)
    case .stack: __rlimit_resource_t(RLIMIT_STACK.rawValue)
    }
  }

  /// The soft and hard limits now (`nil` for unlimited).
  package func current() throws(Errno) -> (soft: UInt64?, hard: UInt64?) {
    var limit = rlimit()
    _ = try Errno.check { getrlimit(resource, &limit) }
    let unlimited = UInt64(bitPattern: Int64(-1))
    return (
      limit.rlim_cur == unlimited ? nil : UInt64(limit.rlim_cur),
      limit.rlim_max == unlimited ? nil : UInt64(limit.rlim_max)
    )
  }

  /// Sets the soft and the hard limit to `bytes` (an unprivileged process can lower a hard limit, never raise it).
  package func set(_ bytes: UInt64) throws(Errno) {
    var limit = rlimit(rlim_cur: rlim_t(bytes), rlim_max: rlim_t(bytes))
    _ = try Errno.check { setrlimit(resource, &limit) }
  }
}
