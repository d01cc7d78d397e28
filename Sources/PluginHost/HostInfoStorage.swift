import CTransitionABI

#if canImport(Glibc)
  import Glibc
#endif

/// One generation's `th_host_info` and the strings it points to, alive until the generation's `deinit`
/// has run.
final class HostInfoStorage {
  let pointer: UnsafeMutablePointer<th_host_info>
  private let strings: [UnsafeMutablePointer<CChar>]
  /// The table `pointer.pointee.api` points to.
  private let api: HostAPITable

  init(pluginPath: String, api: HostAPITable, context: th_context) {
    self.api = api
    let name = strdup(HostIdentity.name)!
    let version = strdup(HostIdentity.version)!
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
