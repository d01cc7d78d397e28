import CTransitionABI

#if canImport(Glibc)
  import Glibc
#endif

/// The host API table handed to plugins (`th_host_api`).
///
/// It lives in manually allocated memory because plugins keep its address from `th_plugin_entry` until
/// `deinit`; one table serves every plugin of a registry.
///
/// In this phase the table offers the functions that need no engine, `log` and `get_extension`, and its
/// `struct_size` says exactly that (plugins test `TH_HOST_API_HAS`). The functions bound to the
/// transition engine are appended when the engine lands; until then no plugin code that needs them runs.
final class HostAPITable {
  let pointer: UnsafeMutablePointer<th_host_api>

  init() {
    pointer = .allocate(capacity: 1)
    // Zero everything, then fill what is offered.
    UnsafeMutableRawPointer(pointer).initializeMemory(
      as: UInt8.self, repeating: 0, count: MemoryLayout<th_host_api>.size)
    pointer.pointee.log = hostLog
    pointer.pointee.get_extension = hostGetExtension
    pointer.pointee.struct_size =
      UInt32(MemoryLayout<th_host_api>.offset(of: \th_host_api.get_extension)!)
      + UInt32(MemoryLayout<UnsafeRawPointer?>.size)
  }

  deinit {
    pointer.deallocate()
  }
}

/// The ABI's host `get_extension`: no host extension is offered yet (`th.custom-driver/1` comes with the
/// engine binding), so every id answers NULL, which the header defines as "not supported".
let hostGetExtension: @convention(c) (UnsafePointer<CChar>?) -> UnsafeRawPointer? = { _ in nil }

/// One generation's `th_host_info` and the strings it points to, alive until the generation's `deinit`
/// has run.
final class HostInfoStorage {
  let pointer: UnsafeMutablePointer<th_host_info>
  private let strings: [UnsafeMutablePointer<CChar>]
  /// The table `pointer.pointee.api` points to.
  private let api: HostAPITable

  init(pluginPath: String, api: HostAPITable, context: th_context) {
    self.api = api
    let name = strdup("transition-host")!
    let version = strdup(hostVersion)!
    let path = strdup(pluginPath)!
    strings = [name, version, path]
    pointer = .allocate(capacity: 1)
    pointer.initialize(
      to: th_host_info(
        struct_size: UInt32(MemoryLayout<th_host_info>.size),
        abi_major: ABIVersion.host.major,
        abi_minor: ABIVersion.host.minor,
        reserved: 0,
        host_name: UnsafePointer(name),
        host_version: UnsafePointer(version),
        plugin_path: UnsafePointer(path),
        api: UnsafePointer(api.pointer),
        plugin_context: context
      ))
  }

  deinit {
    pointer.deinitialize(count: 1)
    pointer.deallocate()
    for string in strings { free(string) }
  }
}

/// The version the host reports to plugins in `th_host_info.host_version`.
package let hostVersion = "0.1.0"
