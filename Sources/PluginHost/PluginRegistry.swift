import CTransitionABI
import POSIX

/// The loaded plugins: load, unload, hot reload, list, and animator lookup.
///
/// Each load of a plugin file makes a *generation*: a private copy of the file, opened with dlopen, its
/// descriptor validated and copied, its `init` called. Reloading makes a new generation from the same path
/// and serves every later lookup from it; the old generation stays alive until the last transition that
/// holds a lease on it ends, then its `deinit` runs and the library goes. Unloading a plugin whose current
/// generation has transitions running is refused (1008).
///
/// Loading a file that is already loaded (the same real path) changes nothing and answers the loaded plugin
/// (`alreadyLoaded`). A file version the registry refused once (not loadable, no entry, another ABI, an invalid
/// descriptor, a failed init, or a plugin id that is still loaded from another file) is refused again from memory
/// until the file changes, without copying or mapping it again: a library linked with the Swift runtime can never be
/// unmapped, so each retry would otherwise keep one more copy of it.
///
/// Not thread-safe: create and use it on the host thread.
package final class PluginRegistry {
  /// Where plugins may come from.
  package let searchPath: PluginSearchPath
  /// `--allow-any-plugin-path`.
  package let allowAnyPath: Bool
  let logger: PluginLogger
  private let api = HostAPITable()
  /// Current generations by plugin id, in load order.
  private var current: [PluginGeneration] = []
  /// What became of file versions that were refused, by real path.
  private var refusals: [String: Refusal] = [:]
  /// The start-up load failures (`loadAutomatically`), by file or folder.
  package private(set) var automaticLoadFailures: [(path: String, error: PluginLoadError)] = []
  /// The next generation number of each plugin id (numbers are never reused within a registry).
  private var generationCounter: [String: Int] = [:]

  package init(searchPath: PluginSearchPath, allowAnyPath: Bool = false, logger: PluginLogger = .standardError()) {
    self.searchPath = searchPath
    self.allowAnyPath = allowAnyPath
    self.logger = logger
  }

  deinit {
    // Shut down what is idle; generations still leased shut down when their last lease ends.
    for generation in current { generation.retire() }
  }

  /// A loaded plugin as `plugins/list` shows it.
  package struct LoadedPlugin: Sendable, Equatable {
    package var info: PluginInfo
    /// The path the plugin was loaded from (absolute; the original, not the private copy).
    package var path: String
    /// 1 for the first load of this plugin id, then one more per reload.
    package var generation: Int
    /// Transitions of the current generation still running.
    package var runningTransitions: Int
    /// True when `load` found the file already loaded and changed nothing.
    package var alreadyLoaded = false
  }

  /// Every loaded plugin, in load order.
  package var plugins: [LoadedPlugin] {
    current.map { LoadedPlugin(info: $0.info, path: $0.path, generation: $0.number, runningTransitions: $0.leaseCount) }
  }

  /// Loads the plugin file at `path` (see `PluginSearchPath.resolve` for which paths are accepted). A file that is
  /// already loaded (the same real path, whichever path names it) is not loaded again: the answer is the loaded
  /// plugin with `alreadyLoaded` (`reload` picks up a rebuilt file).
  ///
  /// - Returns: the loaded plugin.
  /// - Throws: one of 1001…1007; a plugin id that is already loaded from another file is 1005 (use `reload`).
  @discardableResult
  package func load(path: String) throws(PluginLoadError) -> LoadedPlugin {
    let file = try searchPath.resolve(path, allowAnyPath: allowAnyPath)
    if let loaded = current.first(where: { $0.realPath == file.realPath }) {
      var result = summary(loaded)
      result.alreadyLoaded = true
      return result
    }
    let generation = try makeGeneration(file: file) { id throws(PluginLoadError) in
      if let existing = current.first(where: { $0.info.id == id }) {
        throw .invalidDescriptor(
          path: file.path, reason: "plugin id \(id) is already loaded from \(existing.path) (reload it instead)")
      }
    }
    current.append(generation)
    return summary(generation)
  }

  /// The bytes of the plugin file `path` would load (the same checks as `load`), as a sealed in-memory copy: what a
  /// worker process loads with `load(image:file:)`, however the file changes later.
  ///
  /// - Returns: the resolved file and the copy.
  package static func snapshot(
    path: String, searchPath: PluginSearchPath, allowAnyPath: Bool
  ) throws(PluginLoadError) -> (file: PluginFile, image: FileDescriptor) {
    let file = try searchPath.resolve(path, allowAnyPath: allowAnyPath)
    return (file, try PrivateCopy.snapshot(file))
  }

  /// Loads the plugin whose bytes `image` holds (from `snapshot`) as if from `file` (which it reports, and which need
  /// not exist any more; its private copy is laid out at `file.realPath`): a worker process's load.
  @discardableResult
  package func load(image: FileDescriptor, file: PluginFile) throws(PluginLoadError) -> LoadedPlugin {
    let generation = try openGeneration(file: file, contents: image) { id throws(PluginLoadError) in
      if let existing = current.first(where: { $0.info.id == id }) {
        throw .invalidDescriptor(
          path: file.path, reason: "plugin id \(id) is already loaded from \(existing.path) (reload it instead)")
      }
    }
    current.append(generation)
    return summary(generation)
  }

  /// Loads every start-up candidate (`PluginSearchPath.autoLoadFolders`), continuing past failures. Unless any path
  /// is allowed, a folder that is not safe (`PluginSearchPath.checkFolder`) is refused as a whole, as one failure.
  ///
  /// - Returns: the failures, by file or folder (also kept in `automaticLoadFailures`).
  @discardableResult
  package func loadAutomatically() -> [(path: String, error: PluginLoadError)] {
    var failures: [(path: String, error: PluginLoadError)] = []
    for (folder, files) in searchPath.autoLoadFolders() where !files.isEmpty {
      if !allowAnyPath {
        do throws(PluginLoadError) { try searchPath.checkFolder(folder) } catch {
          failures.append((folder, error))
          continue
        }
      }
      for file in files {
        do { try load(path: file) } catch { failures.append((file, error)) }
      }
    }
    automaticLoadFailures += failures
    return failures
  }

  /// Makes a new generation of a loaded plugin from its path (a rebuilt file at the same path is picked
  /// up). The new generation serves every later lookup; transitions running on the old one finish on it.
  /// On failure the old generation stays in place.
  ///
  /// - Throws: 1001…1006 for the new file (1005 also when it declares another plugin id), or
  ///   `.unknownPlugin`.
  @discardableResult
  package func reload(pluginID: String) throws(PluginLoadError) -> LoadedPlugin {
    guard let index = current.firstIndex(where: { $0.info.id == pluginID }) else {
      throw .unknownPlugin(pluginID: pluginID)
    }
    let old = current[index]
    // The path is judged again: what it names now may be a link out of the folders, or writable by others.
    let file = try searchPath.resolve(old.path, allowAnyPath: allowAnyPath)
    let generation = try makeGeneration(file: file) { id throws(PluginLoadError) in
      if id != pluginID {
        throw .invalidDescriptor(
          path: old.path, reason: "the rebuilt file declares plugin id \(id), not \(pluginID)")
      }
    }
    current[index] = generation
    old.retire()
    return summary(generation)
  }

  /// Unloads a plugin: runs its `deinit` and releases the library.
  ///
  /// - Throws: `.busy` (1008) while transitions of its current generation run; `.unknownPlugin`.
  package func unload(pluginID: String) throws(PluginLoadError) {
    guard let index = current.firstIndex(where: { $0.info.id == pluginID }) else {
      throw .unknownPlugin(pluginID: pluginID)
    }
    let generation = current[index]
    guard generation.leaseCount == 0 else {
      throw .busy(pluginID: pluginID, runningTransitions: generation.leaseCount)
    }
    current.remove(at: index)
    generation.retire()
  }

  /// Finds an animator by `pluginId/animatorId`, or by its short `animatorId` when exactly one loaded
  /// plugin has it.
  package func resolve(animatorID: String) throws(AnimatorLookupError) -> ResolvedAnimator {
    let (plugin, animator) = try Self.resolve(animatorID: animatorID, among: current.map(\.info))
    return ResolvedAnimator(generation: current[plugin], index: animator)
  }

  /// Finds an animator among `plugins` (in load order) by `pluginId/animatorId`, or by its short `animatorId` when
  /// exactly one of them has it: the indices of the plugin and of the animator in it.
  package static func resolve(
    animatorID: String, among plugins: [PluginInfo]
  ) throws(AnimatorLookupError) -> (plugin: Int, animator: Int) {
    if let slash = animatorID.lastIndex(of: "/") {
      let pluginID = String(animatorID[..<slash])
      let shortID = String(animatorID[animatorID.index(after: slash)...])
      guard let plugin = plugins.firstIndex(where: { $0.id == pluginID }),
        let animator = plugins[plugin].animators.firstIndex(where: { $0.id == shortID })
      else { throw .unknown(id: animatorID) }
      return (plugin, animator)
    }
    var matches: [(plugin: Int, animator: Int)] = []
    for (plugin, info) in plugins.enumerated() {
      if let animator = info.animators.firstIndex(where: { $0.id == animatorID }) { matches.append((plugin, animator)) }
    }
    guard let match = matches.first else { throw .unknown(id: animatorID) }
    guard matches.count == 1 else {
      throw .ambiguous(
        id: animatorID,
        candidates: matches.map { plugins[$0.plugin].id + "/" + plugins[$0.plugin].animators[$0.animator].id })
    }
    return match
  }

  /// Every animator of every loaded plugin, as `animators/list` shows them.
  package var animators: [ResolvedAnimator] {
    current.flatMap { generation in
      generation.info.animators.indices.map { ResolvedAnimator(generation: generation, index: $0) }
    }
  }

  /// Resolves `animatorID` and takes a lease on its generation for one transition.
  package func lease(animatorID: String) throws(AnimatorLookupError) -> AnimatorLease {
    // The registry only serves generations that are not shut down, so the lease always succeeds here.
    guard let lease = try resolve(animatorID: animatorID).lease() else { throw .unknown(id: animatorID) }
    return lease
  }

  // MARK: - Loading one generation

  /// A refused file version: the error to give again, or the plugin id that clashed (refused again only while a
  /// plugin with that id is loaded).
  private struct Refusal {
    var version: FileVersion
    var error: PluginLoadError?
    var clashingID: String?
  }

  /// Makes a generation of `file`, unless this version of it was refused before (then the refusal comes again
  /// without the file being copied or mapped). Records a new refusal.
  private func makeGeneration(
    file: PluginFile, checkID: (String) throws(PluginLoadError) -> Void
  ) throws(PluginLoadError) -> PluginGeneration {
    let version = FileVersion(path: file.realPath)
    if let version, let refusal = refusals[file.realPath], refusal.version == version {
      if let error = refusal.error { throw error }
      if let id = refusal.clashingID { try checkID(id) }
    }
    var clashingID: String?
    do throws(PluginLoadError) {
      return try openGeneration(file: file) { id throws(PluginLoadError) in
        do throws(PluginLoadError) { try checkID(id) } catch {
          clashingID = id
          throw error
        }
      }
    } catch {
      guard let version else { throw error }
      if refusals.count >= Self.refusalMemory { refusals.removeAll() }
      if let clashingID {
        refusals[file.realPath] = Refusal(version: version, clashingID: clashingID)
      } else if error.isIntrinsic {
        refusals[file.realPath] = Refusal(version: version, error: error)
      }
      throw error
    }
  }

  /// How many refused file versions are remembered.
  private static let refusalMemory = 1024

  /// Copies, opens and checks one generation of `file`; everything is undone when it fails.
  private func openGeneration(
    file: PluginFile, contents: FileDescriptor? = nil, checkID: (String) throws(PluginLoadError) -> Void
  ) throws(PluginLoadError) -> PluginGeneration {
    let copy: PrivateCopy
    if let contents {
      copy = try PrivateCopy.open(file, contents: contents)
    } else {
      copy = try PrivateCopy.open(file)
    }
    let library = copy.library
    var keepLibrary = false
    defer {
      if !keepLibrary {
        dispose(library)
        copy.remove()
      }
    }

    let entryAddress: UnsafeMutableRawPointer
    switch library.symbol(named: TH_PLUGIN_ENTRY_SYMBOL) {
    case .success(let address): entryAddress = address
    case .failure(let error):
      throw .entrySymbolMissing(path: file.path, reason: error.message.replacingAll(copy.folder, with: ""))
    }
    let entry = unsafeBitCast(entryAddress, to: th_plugin_entry_fn.self)

    // One context and one th_host_info per generation, from the entry call until deinit (plugins may keep
    // the pointer they got in th_plugin_entry). The context is named after the file until the id is known.
    let context = ContextDirectory.shared.register(.init(source: file.path, logger: logger))
    var keepContext = false
    defer { if !keepContext { ContextDirectory.shared.unregister(context) } }
    let hostInfo = HostInfoStorage(pluginPath: file.path, api: api, context: context)

    guard let descriptor = PluginCallMonitor.around(.entry, { entry(hostInfo.pointer) }) else {
      throw .abiIncompatible(path: file.path, pluginABI: nil, hostABI: .host)
    }
    let info = try DescriptorReader.read(descriptor, path: file.path)
    try checkID(info.id)
    ContextDirectory.shared.rename(context, source: info.id)

    if let initialize = descriptor.pointee.`init` {
      guard PluginCallMonitor.around(.initialize, { initialize(hostInfo.pointer) }) else {
        throw .initFailed(path: file.path, pluginID: info.id)
      }
    }
    keepLibrary = true
    keepContext = true
    let number = (generationCounter[info.id] ?? 0) + 1
    generationCounter[info.id] = number
    return PluginGeneration(
      number: number, file: file, info: info, copy: copy, descriptor: descriptor, hostInfo: hostInfo,
      context: context)
  }

  private func summary(_ generation: PluginGeneration) -> LoadedPlugin {
    LoadedPlugin(
      info: generation.info, path: generation.path, generation: generation.number,
      runningTransitions: generation.leaseCount)
  }
}

/// What became of a generation's library.
package enum LibraryDisposition: Sendable, Equatable {
  /// Loaded and in use.
  case open
  /// `dlclose`d.
  case closed
  /// Left mapped for the rest of the process, because it is registered with the Swift runtime.
  case keptMapped
}

/// Closes a library unless it is registered with the Swift runtime (see `DynamicLibrary.usesSwiftRuntime`),
/// in which case it stays mapped: closing it would leave the runtime with dangling pointers.
@discardableResult
func dispose(_ library: DynamicLibrary) -> LibraryDisposition {
  if library.usesSwiftRuntime {
    library.leak()
    return .keptMapped
  }
  try? library.close()
  return .closed
}

/// One loaded copy of a plugin file: the library, its validated descriptor, and its `th_host_info`.
///
/// Alive while the registry serves it or a lease holds it; `retire` shuts it down as soon as no lease
/// does (its `deinit` runs, then the library is disposed of).
package final class PluginGeneration {
  /// 1, 2, … per plugin id.
  package let number: Int
  /// The original file as named (not the private copy).
  package let path: String
  /// The original file's real path: what was copied.
  package let realPath: String
  package let info: PluginInfo
  private let copy: PrivateCopy
  private var library: DynamicLibrary { copy.library }
  /// Valid until `shutDown`.
  let descriptor: UnsafePointer<th_plugin_descriptor>
  let hostInfo: HostInfoStorage
  private let context: th_context
  /// Transitions running on this generation.
  package private(set) var leaseCount = 0
  /// The registry no longer serves it.
  package private(set) var isRetired = false
  /// `deinit` ran and the library is gone (or leaked).
  package private(set) var isShutDown = false
  /// What became of the library.
  package private(set) var libraryDisposition = LibraryDisposition.open
  /// The private copy the library was loaded from (on disk while the generation is loaded, so backtraces can read
  /// it; it shows in /proc/self/maps).
  package var loadedCopyPath: String { library.path }
  /// What the original file was when it was copied.
  package var sourceVersion: FileVersion { copy.sourceVersion }

  init(
    number: Int, file: PluginFile, info: PluginInfo, copy: PrivateCopy,
    descriptor: UnsafePointer<th_plugin_descriptor>, hostInfo: HostInfoStorage, context: th_context
  ) {
    self.number = number
    self.path = file.path
    self.realPath = file.realPath
    self.info = info
    self.copy = copy
    self.descriptor = descriptor
    self.hostInfo = hostInfo
    self.context = context
  }

  /// Counts one more transition; false when the generation is already shut down.
  func acquire() -> Bool {
    guard !isShutDown else { return false }
    leaseCount += 1
    return true
  }

  func release() {
    precondition(leaseCount > 0, "lease released twice")
    leaseCount -= 1
    if isRetired && leaseCount == 0 { shutDown() }
  }

  /// Stops serving; shuts down now when idle, else when the last lease ends.
  func retire() {
    isRetired = true
    if leaseCount == 0 { shutDown() }
  }

  private func shutDown() {
    guard !isShutDown else { return }
    isShutDown = true
    if let deinitialize = descriptor.pointee.deinit { PluginCallMonitor.around(.deinitialize) { deinitialize() } }
    ContextDirectory.shared.unregister(context)
    libraryDisposition = dispose(library)
    copy.remove()
  }

  /// The C descriptor of animator `index` (validated at load).
  func animatorDescriptor(at index: Int) -> UnsafePointer<th_animator_descriptor> {
    descriptor.pointee.animators![index]!
  }
}

/// An animator found by `PluginRegistry.resolve`: which generation, which animator.
package struct ResolvedAnimator {
  package let generation: PluginGeneration
  let index: Int

  /// Its metadata.
  package var info: AnimatorInfo { generation.info.animators[index] }
  /// `pluginId/animatorId`.
  package var qualifiedID: String { generation.info.id + "/" + info.id }

  /// Keeps the generation alive for one transition; nil when it was shut down since it was resolved.
  package func lease() -> AnimatorLease? {
    AnimatorLease(generation: generation, index: index)
  }
}

/// A transition's hold on the generation of its animator: while it exists, the generation's library stays
/// loaded even if the plugin is reloaded. Call `end()` when the transition ends (deinit does it otherwise).
package final class AnimatorLease {
  package let generation: PluginGeneration
  private let index: Int
  private var ended = false

  init?(generation: PluginGeneration, index: Int) {
    self.generation = generation
    self.index = index
    guard generation.acquire() else {
      ended = true
      return nil
    }
  }

  deinit { end() }

  /// The animator's metadata.
  package var info: AnimatorInfo { generation.info.animators[index] }
  /// `pluginId/animatorId`.
  package var qualifiedID: String { generation.info.id + "/" + info.id }
  /// The C descriptor, valid while the lease is held.
  package var descriptor: UnsafePointer<th_animator_descriptor> { generation.animatorDescriptor(at: index) }
  /// The `th_host_info` of the generation, valid while the lease is held.
  package var hostInfo: UnsafePointer<th_host_info> { UnsafePointer(generation.hostInfo.pointer) }

  /// Lets the generation go (idempotent).
  package func end() {
    guard !ended else { return }
    ended = true
    generation.release()
  }

  /// Creates an animator instance (`create`), or nil when the plugin returns NULL or the lease has ended.
  package func makeInstance() -> AnimatorInstance? {
    guard !ended else { return nil }
    let descriptor = self.descriptor
    let hostInfo = self.hostInfo
    guard let state = PluginCallMonitor.around(.create, { descriptor.pointee.create(descriptor, hostInfo) }) else {
      return nil
    }
    return AnimatorInstance(lease: self, state: state)
  }
}

/// One animator instance (plugin-owned state from `create`), destroyed with `destroy` in deinit. Holds its
/// lease, so the library outlives it.
package final class AnimatorInstance {
  package let lease: AnimatorLease
  /// The plugin's instance pointer.
  package let state: UnsafeMutableRawPointer

  init(lease: AnimatorLease, state: UnsafeMutableRawPointer) {
    self.lease = lease
    self.state = state
  }

  deinit {
    let destroy = lease.descriptor.pointee.destroy!
    let state = self.state
    PluginCallMonitor.around(.destroy) { destroy(state) }
  }

  /// `transition_duration` with a context, or `{0}` (UIKit's nil context) before a transition exists. The
  /// raw value: validating it (finite, >= 0) is the transition's job, which reports misbehaviour.
  package func transitionDuration(context: th_context = th_context(id: 0)) -> Double {
    let function = lease.descriptor.pointee.transition_duration!
    let state = self.state
    return PluginCallMonitor.around(.transitionDuration) { function(state, context) }
  }
}
