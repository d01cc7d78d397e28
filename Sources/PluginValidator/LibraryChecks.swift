import CTransitionABI
import POSIX
import PluginHost
import TransitionEngine
import TransitionService

#if canImport(Glibc)
  import Glibc
#endif

/// The checks on the library as a whole. Each runs in its own check process, so each loads the plugin itself.
enum LibraryChecks {
  /// `scan-rtld-now`: dlopen of the file itself with every symbol bound now.
  static func scanRTLDNow(_ plugin: String) -> CheckOutcome {
    let status: FileStatus
    do { status = try FileStatus(path: plugin) } catch { return .fail("cannot open \(plugin): \(error)") }
    guard status.kind == .regular else { return .fail("\(plugin) is not a regular file") }
    do {
      let library = try DynamicLibrary(path: plugin)
      library.leak()  // the process ends with the check; unmapping a Swift-linked image is never safe
      return .pass("loaded with dlopen(RTLD_NOW | RTLD_LOCAL)")
    } catch {
      return .fail("dlopen(RTLD_NOW | RTLD_LOCAL) failed: \(error.message)")
    }
  }

  /// `runpath`: where the dynamic loader will look for the plugin's own dependencies. A relative entry is resolved
  /// against the working directory of whatever process loads the plugin (an editor's, anywhere); a folder that
  /// other users can write to (or create, when it does not exist) lets them plant a library the loader runs. Both
  /// warn: the host cannot fix them, the author can.
  static func runpath(_ plugin: String) -> CheckOutcome {
    let info: ELFDynamicInfo
    do { info = try ELFDynamicInfo.read(path: plugin) } catch {
      return .skip("cannot read the dynamic section: \(error) (see scan-rtld-now)")
    }
    let kind = info.runpath.isEmpty ? "RPATH" : "RUNPATH"
    let entries = info.searchEntries
    guard !entries.isEmpty else { return .pass("no RUNPATH or RPATH: dependencies come from the system's folders") }
    let origin = ((try? FileSystem.realPath(plugin)) ?? plugin).split(separator: "/").dropLast()
      .joined(separator: "/")
    var problems: [String] = []
    for entry in entries {
      if entry.isEmpty {
        problems.append("an empty \(kind) entry means the working directory of the process that loads the plugin")
        continue
      }
      guard ELFDynamicInfo.usesOrigin(entry) || entry.hasPrefix("/") else {
        problems.append(
          "\(entry) is relative: it is resolved against the working directory of the process that loads the plugin "
            + "(use $ORIGIN/\(entry))")
        continue
      }
      guard let folder = ELFDynamicInfo.expand(entry, origin: "/" + origin) else { continue }  // $LIB, $PLATFORM
      if let problem = writableFolderProblem(folder) {
        problems.append("\(entry) (\(folder)): \(problem)")
      }
    }
    guard problems.isEmpty else {
      return .warn("a dependency could be planted: " + problems.joined(separator: "; "))
    }
    return .pass(
      "\(kind) \(entries.joined(separator: ":")): absolute or $ORIGIN-relative, writable only by root or you")
  }

  /// Why other users could put a library into `folder` (or make it, when it does not exist yet), or nil.
  static func writableFolderProblem(_ folder: String) -> String? {
    var existing = folder
    while (try? FileStatus(path: existing))?.kind != .directory {
      guard existing != "/", let slash = existing.lastIndex(of: "/") else { return nil }
      existing = slash == existing.startIndex ? "/" : String(existing[..<slash])
    }
    let real = (try? FileSystem.realPath(existing)) ?? existing
    guard let problem = PluginPathSafety.problem(folder: real) else { return nil }
    let what = problem.path == real && real != folder ? "its nearest existing folder \(real)" : problem.path
    return "\(what) \(problem.reason)"
  }

  /// `entry-point`: the library exports `th_plugin_entry`.
  static func entryPoint(_ plugin: String) -> CheckOutcome {
    let library: DynamicLibrary
    do { library = try DynamicLibrary(path: plugin) } catch {
      return .skip("the file does not load with dlopen (see scan-rtld-now)")
    }
    defer { library.leak() }
    switch library.symbol(named: TH_PLUGIN_ENTRY_SYMBOL) {
    case .success: return .pass("exports \(TH_PLUGIN_ENTRY_SYMBOL)")
    case .failure(let error): return .fail("does not export \(TH_PLUGIN_ENTRY_SYMBOL): \(error.message)")
    }
  }

  /// `abi-version`: judged by the host's own loader (error 1004), which calls the entry with the real host info.
  static func abiVersion(_ plugin: String) -> CheckOutcome {
    let host = ValidationHost()
    switch host.load(plugin) {
    case .success(let loaded):
      let abi = loaded.info.abi
      if abi.minor > ABIVersion.host.minor {
        return .warn(
          "built against ABI \(abi), newer than this host's \(ABIVersion.host): it must check host->abi_minor "
            + "or TH_HOST_API_HAS before using anything added after \(ABIVersion.host)")
      }
      return .pass("built against ABI \(abi); this host speaks \(ABIVersion.host)")
    case .failure(.abiIncompatible(_, let pluginABI?, let hostABI)):
      return .fail("built for plugin ABI \(pluginABI); this host speaks \(hostABI) (the major versions must match)")
    case .failure(.abiIncompatible(_, nil, let hostABI)):
      return .fail("th_plugin_entry returned NULL: the plugin declines host ABI \(hostABI)")
    case .failure(.invalidDescriptor), .failure(.initFailed):
      return .pass("the descriptor's ABI major version is \(ABIVersion.host.major), as this host's")
    case .failure(let error):
      return .skip("the loader stops earlier: \(error.message)")
    }
  }

  /// `descriptor`: the loader's rules (error 1005), a second entry call returning the same descriptor, and
  /// operation names a host knows.
  static func descriptor(_ plugin: String) -> CheckOutcome {
    let host = ValidationHost()
    let loaded: PluginRegistry.LoadedPlugin
    switch host.load(plugin) {
    case .success(let value): loaded = value
    case .failure(.invalidDescriptor(_, let reason)): return .fail(reason)
    case .failure(.initFailed):
      return .pass("the loader accepted the descriptor (init then refused to load: see init-twice)")
    case .failure(let error): return .skip("the loader stops before the descriptor: \(error.message)")
    }
    let info = loaded.info
    // The header: the descriptor must stay valid and unchanged until deinit. Ask again through the same
    // loaded library and compare everything the host read.
    switch host.callEntryAgain(pluginID: info.id) {
    case .failure(let failure): return .fail(failure.reason)
    case .success(let again):
      guard let again else {
        return .fail("a second call of th_plugin_entry returned NULL (the descriptor must stay valid until deinit)")
      }
      let reread: PluginInfo
      do { reread = try DescriptorReader.read(again, path: plugin) } catch {
        return .fail("a second call of th_plugin_entry returned an invalid descriptor: \(error.message)")
      }
      if reread != info {
        return .fail("a second call of th_plugin_entry returned a different descriptor (it must not change)")
      }
    }
    var unknown: [String] = []
    for animator in info.animators {
      for operation in animator.operations ?? [] where !StandardOperation.names.contains(operation) {
        unknown.append("\(animator.id): \"\(operation)\"")
      }
    }
    let summary =
      "plugin \(info.id) \(info.version): \(info.animators.count) animator\(info.animators.count == 1 ? "" : "s") "
      + "(\(info.animators.map(\.id).joined(separator: ", ")))"
    if !unknown.isEmpty {
      return .warn(
        "\(summary); custom operation names (hosts only pass them through; a typo of a standard one?): "
          + unknown.joined(separator: ", "))
    }
    return .pass(summary)
  }

  /// `param-defaults`: every parameter of every animator, read straight from the descriptor (so that every
  /// problem is listed, not only the first one the loader meets).
  static func paramDefaults(_ plugin: String) -> CheckOutcome {
    let library: DynamicLibrary
    do { library = try DynamicLibrary(path: plugin) } catch {
      return .skip("the file does not load with dlopen (see scan-rtld-now)")
    }
    defer { library.leak() }
    guard case .success(let address) = library.symbol(named: TH_PLUGIN_ENTRY_SYMBOL) else {
      return .skip("no \(TH_PLUGIN_ENTRY_SYMBOL) (see entry-point)")
    }
    let entry = unsafeBitCast(address, to: th_plugin_entry_fn.self)
    let host = EntryHostInfo(pluginPath: plugin)
    guard let descriptor = entry(host.pointer) else { return .skip("th_plugin_entry returned NULL (see abi-version)") }
    return ParameterAudit.audit(descriptor)
  }

  /// `init-twice`: a host without private copies loads the same file twice and so calls `init` twice on one
  /// library (the header allows it: count). After the host's own load (init #1), a normal run picks the first
  /// animator (and its first operation) that completes; then the same library is opened again and init #2 and
  /// one deinit run; that run must still complete, and the host's final deinit must work.
  ///
  /// It judges `init` only: a plugin without `init` has nothing to count, and one whose normal runs fail before
  /// the second init fails run-completes, not this check; both are skipped.
  static func initTwice(_ plugin: String) -> CheckOutcome {
    let host = ValidationHost()
    let loaded: PluginRegistry.LoadedPlugin
    switch host.load(plugin) {
    case .success(let value): loaded = value
    case .failure(.initFailed): return .fail("init returned false on the first load")
    case .failure(let error): return .skip("the plugin does not load: \(error.message)")
    }
    switch host.hasInit(pluginID: loaded.info.id) {
    case .failure(let failure): return .fail(failure.reason)
    case .success(false): return .skip("no init function: nothing is counted, so a second init cannot break anything")
    case .success(true): break
    }
    // A run that completes before the second init, to compare with the same run after it.
    var witness: (harness: TransitionHarness, label: String)?
    for animator in loaded.info.animators {
      let operation = animator.operations?.first ?? "present"
      let harness = TransitionHarness(host: host, animatorID: "\(loaded.info.id)/\(animator.id)", operation: operation)
      let run = harness.runToEnd()
      run.terminate()
      if OperationChecks.completionFailure(run, expected: .completed) == nil {
        witness = (harness, "\(animator.id) \(operation)")
        break
      }
    }
    guard let witness else {
      return .skip(
        "no animator completes a normal run even before the second init, so there is nothing to compare "
          + "(see run-completes)")
    }
    let second: ValidationHost.SecondInit
    switch host.initAgain(pluginID: loaded.info.id) {
    case .failure(let failure): return .fail(failure.reason)
    case .success(let value): second = value
    }
    if second == .refused {
      return .fail("the second init on the same library returned false (init may run once per load of a file)")
    }
    let run = witness.harness.runToEnd()
    run.terminate()
    if let failure = OperationChecks.completionFailure(run, expected: .completed) {
      return .fail(
        "after init, init, deinit the plugin no longer works: a normal run of \(witness.label) completed before "
          + "the second init, and after it: \(failure)")
    }
    do { try host.unloadAll() } catch { return .fail("unloading failed: \(error.message)") }
    return .pass(
      "init ran twice on one library and deinit once; a normal run of \(witness.label) still completed; the "
        + "last deinit worked")
  }

  /// `load`: the host's loader accepts the plugin; reports its animators for the per-animator checks.
  static func load(_ plugin: String) -> CheckOutcome {
    let host = ValidationHost()
    switch host.load(plugin) {
    case .success(let loaded):
      let animators = loaded.info.animators.map { DiscoveredAnimator(id: $0.id, operations: $0.operations) }
      return CheckOutcome(
        .pass,
        "loaded \(loaded.info.id) \(loaded.info.version) with \(animators.count) "
          + "animator\(animators.count == 1 ? "" : "s")",
        animators: animators)
    case .failure(let error):
      return .fail("error \(error.errorCode): \(error.message)")
    }
  }
}

/// A `th_host_info` for calling `th_plugin_entry` outside the host's loader (only `param-defaults` does, to
/// read a descriptor the loader would refuse). The entry runs in the describe phase, where only `log` and
/// `get_extension` may be called, so the table offers exactly those two and its struct_size says so.
final class EntryHostInfo {
  let pointer: UnsafeMutablePointer<th_host_info>
  private let api: UnsafeMutablePointer<th_host_api>
  private let strings: [UnsafeMutablePointer<CChar>]

  init(pluginPath: String) {
    api = .allocate(capacity: 1)
    UnsafeMutableRawPointer(api).initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<th_host_api>.size)
    api.pointee.log = { _, _, _ in }
    api.pointee.get_extension = { _ in nil }
    api.pointee.struct_size =
      UInt32(MemoryLayout<th_host_api>.offset(of: \th_host_api.get_extension)! + MemoryLayout<UnsafeRawPointer?>.size)
    strings = [strdup(HostIdentity.name)!, strdup(HostIdentity.version)!, strdup(pluginPath)!]
    pointer = .allocate(capacity: 1)
    pointer.initialize(
      to: th_host_info(
        struct_size: UInt32(MemoryLayout<th_host_info>.size), abi_major: ABIVersion.host.major,
        abi_minor: ABIVersion.host.minor, reserved: 0, host_name: UnsafePointer(strings[0]),
        host_version: UnsafePointer(strings[1]), plugin_path: UnsafePointer(strings[2]), api: UnsafePointer(api),
        plugin_context: th_context(id: 0)))
  }

  // Never freed: the plugin may keep the pointer it got in th_plugin_entry, and the check process ends soon.
}
