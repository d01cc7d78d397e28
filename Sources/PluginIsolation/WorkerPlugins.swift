// `--isolation process` (the default for `serve`): every loaded plugin generation runs in a worker process of its own.
// The parent never opens plugin code: it keeps each generation's metadata (what the worker read from the descriptor),
// its bytes (a sealed in-memory snapshot, so a worker started again after a crash runs the same code), its worker, and
// its crash history. The catalog, `plugins/list` and every check of `transition/start` are served from the metadata.

import Glibc
import JSON
import JSONRPC
import POSIX
import PluginHost
import TransitionEngine
import TransitionService

/// One loaded copy of a plugin file, with the worker that runs it.
final class WorkerGeneration {
  /// 1, 2, … per plugin id.
  let number: Int
  /// The file it was loaded from: the absolute path as named, and the real path that was checked and copied.
  let file: PluginFile
  var path: String { file.path }
  let info: PluginInfo
  /// The file's bytes as they were at load time.
  let image: FileDescriptor
  let builtin: Bool
  /// The worker running it now; nil after a crash until the next transition needs one.
  var worker: WorkerProcess?
  /// Its transitions still running.
  var running = 0
  /// When it crashed, within the crash window (for the crash-loop limit), and in all.
  var recentCrashes: [MonotonicInstant] = []
  var crashCount = 0
  var lastCrash: PluginFault?
  /// It crashed `--plugin-crash-limit` times within the window: no new transitions until a reload.
  var isMarkedCrashed = false
  /// A newer generation replaced it, or it was unloaded: it lives until its last transition ends.
  var isRetired = false

  init(number: Int, file: PluginFile, info: PluginInfo, image: FileDescriptor, builtin: Bool) {
    self.number = number
    self.file = file
    self.info = info
    self.image = image
    self.builtin = builtin
  }
}

/// Plugins in worker processes.
///
/// - Important: Used on the host thread only.
package final class WorkerPlugins: PluginHosting, WorkerOwner {
  package let settings: IsolationSettings
  private let searchPath: PluginSearchPath
  private let allowAnyPath: Bool
  private let logs: PluginLogQueue
  private let logger: Logger
  /// The host's timers (for the watchdog) and descriptors; nil until the host's loop serves the workers.
  private var scheduler: (any ProtocolScheduler)?
  private var watcher: (any DescriptorWatching)?
  package var onFault: (PluginFault) -> Void = { _ in }
  package private(set) var loadFailures: [LoadFailure] = []
  /// Current generations, in load order.
  private var current: [WorkerGeneration] = []
  /// The last scene number handed out (scenes are numbered across workers).
  private var sceneCounter = 0
  /// Retired generations whose transitions still run.
  private var retired: [WorkerGeneration] = []
  /// The next generation number of each plugin id (never reused).
  private var generationCounter: [String: Int] = [:]
  /// Every worker alive, and the generation it runs (nil while loading a new file).
  private var workers: [ObjectIdentifier: (worker: WorkerProcess, generation: WorkerGeneration?)] = [:]
  private var watchdogTimer: ProtocolTimerID?
  package private(set) lazy var catalog: any AnimatorCatalog = WorkerCatalog(plugins: self)

  package init(
    settings: IsolationSettings, searchPath: PluginSearchPath, allowAnyPath: Bool, logs: PluginLogQueue,
    logger: Logger
  ) {
    self.settings = settings
    self.searchPath = searchPath
    self.allowAnyPath = allowAnyPath
    self.logs = logs
    self.logger = logger
  }

  /// Serves the workers from the host's loop from now on: their descriptors are watched by `watcher`, the watchdog
  /// runs on `scheduler`'s timers.
  package func attach(scheduler: any ProtocolScheduler, watcher: any DescriptorWatching) {
    self.scheduler = scheduler
    self.watcher = watcher
    for (_, entry) in workers { entry.worker.watcher = watcher }
    armWatchdog()
  }

  package var managesPlugins: Bool { true }

  /// The current generations' metadata, in load order.
  var currentInfos: [PluginInfo] { current.map(\.info) }

  package var plugins: [PluginStatus] { current.map(status) }

  private func status(_ generation: WorkerGeneration) -> PluginStatus {
    PluginStatus(
      info: generation.info, path: generation.path, builtin: generation.builtin, generation: generation.number,
      runningTransitions: generation.running, state: generation.isMarkedCrashed ? .crashed : .loaded,
      crashCount: generation.crashCount, lastCrash: generation.lastCrash)
  }

  // MARK: Loading

  /// Loads the start-up candidates (`PluginSearchPath.autoLoadFolders`): all their workers start at once, and
  /// this returns once every one has answered (or died, or hung past the watchdog). Unless any path is allowed, a
  /// folder that is not safe (`PluginSearchPath.checkFolder`) is refused as a whole, as one failure. Failures are
  /// logged and kept for `plugins/list`.
  package func loadStartupPlugins() {
    var candidates: [String] = []
    for (folder, files) in searchPath.autoLoadFolders() where !files.isEmpty {
      if !allowAnyPath {
        do throws(PluginLoadError) { try searchPath.checkFolder(folder) } catch {
          logger.warn("plugin folder \(folder) was not loaded: \(error.message)")
          loadFailures.append(LoadFailure(path: folder, error: .plugin(error)))
          continue
        }
      }
      candidates += files
    }
    var results = [Result<(WorkerProcess, PluginInfo, FileDescriptor, PluginFile), ResponseError>?](
      repeating: nil, count: candidates.count)
    for (index, candidate) in candidates.enumerated() {
      startLoading(candidate) { results[index] = $0 }
    }
    pump(until: { results.allSatisfy { $0 != nil } })
    for (index, candidate) in candidates.enumerated() {
      let result = results[index] ?? .failure(ResponseError(code: .pluginCrashedWhileLoading, message: "no answer"))
      switch adopt(result) {
      case .success: break
      case .failure(let error):
        logger.warn("plugin \(candidate) was not loaded: \(error.message)")
        loadFailures.append(LoadFailure(path: candidate, error: error))
      }
    }
    _ = logs.take()
  }

  /// Loads the plugin file at `path` in a new worker. A file that is already loaded (the same real path, whichever
  /// path names it) is not loaded again: the answer is the loaded plugin with `alreadyLoaded`.
  package func load(path: String, completion: @escaping (Result<PluginStatus, ResponseError>) -> Void) {
    if let file = try? searchPath.resolve(path, allowAnyPath: allowAnyPath),
      let loaded = current.first(where: { $0.file.realPath == file.realPath })
    {
      var answer = status(loaded)
      answer.alreadyLoaded = true
      return completion(.success(answer))
    }
    startLoading(path) { [self] result in
      let adopted = adopt(result)
      switch adopted {
      case .success(let status): loadFailures.removeAll { $0.path == status.path }
      case .failure(let error): noteCrashedLoad(path, error)
      }
      completion(adopted)
    }
  }

  /// Lists a load or reload of `path` that crashed or hung its worker (1009) in `loadFailures` under the path its
  /// report names (the file as resolved, which a later successful load of it is listed under), in place of an
  /// earlier entry of that path.
  private func noteCrashedLoad(_ path: String, _ error: ResponseError) {
    guard error.code == .pluginCrashedWhileLoading else { return }
    let path = error.data?["path"]?.stringValue ?? path
    loadFailures.removeAll { $0.path == path }
    loadFailures.append(LoadFailure(path: path, error: error))
  }

  /// Makes the generation a load produced current, unless its plugin id is loaded already (1005).
  private func adopt(
    _ result: Result<(WorkerProcess, PluginInfo, FileDescriptor, PluginFile), ResponseError>
  ) -> Result<PluginStatus, ResponseError> {
    switch result {
    case .failure(let error): return .failure(error)
    case .success(let (worker, info, image, file)):
      if let existing = current.first(where: { $0.info.id == info.id }) {
        worker.requestExit()
        try? image.close()
        return .failure(
          .plugin(
            .invalidDescriptor(
              path: file.path,
              reason: "plugin id \(info.id) is already loaded from \(existing.path) (reload it instead)")))
      }
      let generation = makeGeneration(info: info, file: file, image: image, worker: worker)
      current.append(generation)
      return .success(status(generation))
    }
  }

  package func reload(pluginID: String, completion: @escaping (Result<PluginStatus, ResponseError>) -> Void) {
    guard let old = current.first(where: { $0.info.id == pluginID }) else {
      return completion(.failure(.plugin(.unknownPlugin(pluginID: pluginID))))
    }
    startLoading(old.path) { [self] result in
      switch result {
      case .failure(let error):
        noteCrashedLoad(old.path, error)
        completion(.failure(error))
      case .success(let (worker, info, image, file)):
        guard info.id == pluginID else {
          worker.requestExit()
          try? image.close()
          return completion(
            .failure(
              .plugin(
                .invalidDescriptor(
                  path: file.path, reason: "the rebuilt file declares plugin id \(info.id), not \(pluginID)"))
            ))
        }
        guard let index = current.firstIndex(where: { $0 === old }) else {
          // Unloaded meanwhile: the new generation has nowhere to go.
          worker.requestExit()
          try? image.close()
          return completion(.failure(.plugin(.unknownPlugin(pluginID: pluginID))))
        }
        let generation = makeGeneration(info: info, file: file, image: image, worker: worker)
        current[index] = generation
        retire(old)
        loadFailures.removeAll { $0.path == old.path }
        completion(.success(status(generation)))
      }
    }
  }

  package func unload(pluginID: String, completion: @escaping (Result<Void, ResponseError>) -> Void) {
    guard let index = current.firstIndex(where: { $0.info.id == pluginID }) else {
      return completion(.failure(.plugin(.unknownPlugin(pluginID: pluginID))))
    }
    let generation = current[index]
    guard generation.running == 0 else {
      return completion(.failure(.plugin(.busy(pluginID: pluginID, runningTransitions: generation.running))))
    }
    current.remove(at: index)
    retire(generation)
    completion(.success(()))
  }

  private func makeGeneration(
    info: PluginInfo, file: PluginFile, image: FileDescriptor, worker: WorkerProcess
  ) -> WorkerGeneration {
    let number = (generationCounter[info.id] ?? 0) + 1
    generationCounter[info.id] = number
    let generation = WorkerGeneration(
      number: number, file: file, info: info, image: image, builtin: searchPath.isBuiltIn(file.path))
    generation.worker = worker
    workers[ObjectIdentifier(worker)] = (worker, generation)
    return generation
  }

  /// Stops serving `generation`: its worker exits once its last transition has ended.
  private func retire(_ generation: WorkerGeneration) {
    generation.isRetired = true
    if generation.running == 0 {
      finishRetired(generation)
    } else {
      retired.append(generation)
    }
  }

  private func finishRetired(_ generation: WorkerGeneration) {
    retired.removeAll { $0 === generation }
    generation.worker?.requestExit()
    generation.worker = nil
    try? generation.image.close()
    armWatchdog()
  }

  /// Snapshots `path`, starts a worker on the snapshot and asks it to load it; `completion` gets the worker, the
  /// plugin's metadata, the snapshot and the resolved path, or the error `plugins/load` answers (1009 when the worker
  /// died or hung while loading).
  private func startLoading(
    _ path: String,
    completion: @escaping (Result<(WorkerProcess, PluginInfo, FileDescriptor, PluginFile), ResponseError>) -> Void
  ) {
    let resolved: (file: PluginFile, image: FileDescriptor)
    do {
      resolved = try PluginRegistry.snapshot(path: path, searchPath: searchPath, allowAnyPath: allowAnyPath)
    } catch {
      return completion(.failure(.plugin(error)))
    }
    let worker: WorkerProcess
    do {
      worker = try spawn(file: resolved.file, pluginID: nil, image: resolved.image, generation: nil)
    } catch {
      try? resolved.image.close()
      return completion(
        .failure(
          .plugin(.notLoadable(path: resolved.file.path, reason: "cannot start its worker process: \(error)"))))
    }
    var message = MessageWriter(.load)
    worker.call(
      message.finish(),
      as: .load { result in
        switch result {
        case .success(let info): completion(.success((worker, info, resolved.image, resolved.file)))
        case .failure(let error):
          worker.requestExit()
          try? resolved.image.close()
          completion(.failure(error))
        }
      })
    armWatchdog()
  }

  private func spawn(
    file: PluginFile, pluginID: String?, image: FileDescriptor, generation: WorkerGeneration?
  ) throws(Errno) -> WorkerProcess {
    let worker = try WorkerProcess.spawn(settings: settings, file: file, pluginID: pluginID, image: image)
    worker.owner = self
    worker.watcher = watcher
    worker.onCall = { [weak self] in self?.armWatchdog() }
    workers[ObjectIdentifier(worker)] = (worker, generation)
    return worker
  }

  // MARK: Transitions

  package func makeDriver(
    _ prepared: PreparedTransition, frames: FrameMode, precision: FramePrecision?
  ) throws(ResponseError) -> any TransitionDriver {
    guard let generation = current.first(where: { $0.info.id == prepared.entry.pluginID }) else {
      throw .animator(.unknown(id: prepared.entry.qualifiedID))
    }
    if generation.isMarkedCrashed { throw Self.markedCrashed(generation) }
    let worker = try worker(for: generation)
    generation.running += 1
    return WorkerTransitionDriver(worker: worker, prepared: prepared, frames: frames, precision: precision) {
      [weak self, generation] in
      generation.running -= 1
      if generation.isRetired && generation.running == 0 { self?.finishRetired(generation) }
    }
  }

  /// Opens a scene in the worker of the animator's plugin (WorkerScene.swift).
  package func openScene(
    _ request: SceneOpenRequest, completion: @escaping (Result<Void, ResponseError>) -> Void
  ) throws(ResponseError) -> any SceneDriver {
    let entry: AnimatorEntry
    do { entry = try catalog.entry(for: request.animator) } catch { throw .animator(error) }
    guard let generation = current.first(where: { $0.info.id == entry.pluginID }) else {
      throw .animator(.unknown(id: entry.qualifiedID))
    }
    if generation.isMarkedCrashed { throw Self.markedCrashed(generation) }
    sceneCounter += 1
    let driver = WorkerSceneDriver(
      number: sceneCounter, animatorID: entry.qualifiedID, worker: try worker(for: generation))
    driver.open(request, completion: completion)
    return driver
  }

  /// 1010: the plugin crashed too often.
  static func markedCrashed(_ generation: WorkerGeneration) -> ResponseError {
    var data = JSONObjectBuilder()
    data.setNew("plugin", JSON(generation.info.id))
    data.setNew("crashCount", JSON(generation.crashCount))
    data.setNew("lastCrash", generation.lastCrash.map { JSON($0.message) } ?? .null)
    return ResponseError(
      code: .pluginMarkedCrashed,
      message:
        "Plugin \(generation.info.id) is marked crashed: it crashed \(generation.recentCrashes.count) times within "
        + "the crash window; plugins/reload loads it again.",
      data: data.build())
  }

  /// The generation's worker, started (and loading the same snapshot) when it has none since a crash.
  private func worker(for generation: WorkerGeneration) throws(ResponseError) -> WorkerProcess {
    if let worker = generation.worker, worker.state == .running { return worker }
    let worker: WorkerProcess
    do {
      worker = try spawn(
        file: generation.file, pluginID: generation.info.id, image: generation.image, generation: generation)
    } catch {
      throw .internalError("cannot start a worker process for \(generation.info.id): \(error)")
    }
    generation.worker = worker
    var message = MessageWriter(.load)
    worker.call(
      message.finish(),
      as: .load { [weak self] result in
        if case .failure(let error) = result {
          self?.logger.error("plugin \(generation.info.id) did not load again in a new worker: \(error.message)")
          worker.requestExit()
        }
      })
    return worker
  }

  package func advance(
    _ drivers: [any TransitionDriver], by dt: Double, each: @escaping BatchCompletion, completion: @escaping () -> Void
  ) {
    guard !drivers.isEmpty else { return completion() }
    // One message per worker, in the order the drivers come; every other driver one call at a time.
    var batches: [ObjectIdentifier: (worker: WorkerProcess, members: [(index: Int, driver: WorkerTransitionDriver)])] =
      [:]
    var order: [ObjectIdentifier] = []
    var others: [(Int, any TransitionDriver)] = []
    for (index, driver) in drivers.enumerated() {
      guard let proxy = driver as? WorkerTransitionDriver, !proxy.isOver else {
        others.append((index, driver))
        continue
      }
      let key = ObjectIdentifier(proxy.worker)
      if batches[key] == nil {
        batches[key] = (proxy.worker, [])
        order.append(key)
      }
      proxy.dropAhead()  // the worker drops its own: the batch's answer carries every frame
      batches[key]!.members.append((index, proxy))
    }
    var remaining = order.count + others.count
    let finishOne = {
      remaining -= 1
      if remaining == 0 { completion() }
    }
    for (index, driver) in others {
      driver.perform(.advance(seconds: dt), stream: true) { result, frame in
        each(index, result, frame)
        finishOne()
      }
    }
    for key in order {
      let (worker, members) = batches[key]!
      var message = MessageWriter(.advance, capacity: 16 + members.count * 8)
      message.double(dt)
      message.u32(UInt32(members.count))
      for member in members { message.int(member.driver.number) }
      worker.call(message.finish(), as: .advance(members, each, finishOne))
    }
  }

  package var hasOutstandingCalls: Bool { workers.values.contains { $0.worker.hasPendingCalls } }

  package var isBackedUp: Bool {
    workers.values.contains { $0.worker.unwrittenByteCount > WorkerPlugins.backlogLimit }
  }

  /// The calls a worker may have waiting to be written before the host stops reading its input (a start is about
  /// 1.5 kB): enough to keep every worker busy, small enough that thousands of pipelined starts wait in the client's
  /// pipe rather than in the host (they measured 3.6 MB unwritten, 10 MB of buffer, at 10,000 starts).
  static let backlogLimit = 256 * 1024

  // MARK: Workers' news

  func workerDied(_ worker: WorkerProcess, _ fault: PluginFault) {
    logger.error(fault.message + (fault.stderrTail.last.map { " Last stderr line: \($0)" } ?? ""))
    if let generation = workers[ObjectIdentifier(worker)]?.generation {
      if generation.worker === worker { generation.worker = nil }
      let now = MonotonicInstant.now()
      generation.crashCount += 1
      generation.lastCrash = fault
      generation.recentCrashes =
        generation.recentCrashes.filter { now.seconds(since: $0) <= settings.crashWindow } + [now]
      if !generation.isMarkedCrashed && generation.recentCrashes.count >= settings.crashLimit {
        generation.isMarkedCrashed = true
        logger.error(
          "plugin \(generation.info.id) is marked crashed (\(generation.recentCrashes.count) crashes within "
            + "\(formatSeconds(settings.crashWindow)) s): new transitions are refused until plugins/reload")
      }
    }
    onFault(fault)
  }

  func workerExited(_ worker: WorkerProcess) {
    workers[ObjectIdentifier(worker)] = nil
  }

  func workerLogged(_ record: PluginLogRecord) {
    logs.append(record)
  }

  // MARK: The watchdog

  /// How often busy workers are checked.
  private var watchdogInterval: Double { min(max(settings.pluginTimeout / 5, 0.01), 0.1) }

  /// Keeps a watchdog timer while any worker owes an answer, hosts a transition or is exiting.
  private func armWatchdog() {
    guard let scheduler, watchdogTimer == nil,
      workers.values.contains(where: { $0.worker.isBusy || $0.worker.state == .exiting })
    else {
      return
    }
    watchdogTimer = scheduler.schedule(at: scheduler.now + watchdogInterval) { [weak self] in
      guard let self else { return }
      watchdogTimer = nil
      checkWorkers()
      armWatchdog()
    }
  }

  private func checkWorkers() {
    let now = MonotonicInstant.now()
    for (_, entry) in workers { entry.worker.checkWatchdog(now: now) }
  }

  // MARK: Waiting without the host's loop

  /// Serves the workers' descriptors (and the watchdog) until `done` says so, or `deadline` (monotonic seconds from
  /// now) passes: for the start-up loads (before the host's loop runs) and for shutdown.
  private func pump(for seconds: Double = .infinity, until done: () -> Bool) {
    let deadline = MonotonicInstant.now().advanced(bySeconds: seconds)
    while !done() {
      let now = MonotonicInstant.now()
      guard now < deadline else { return }
      checkWorkers()
      let sets = workers.values.flatMap { $0.worker.pollSet }
      guard !sets.isEmpty else { return }
      var entries = sets.map(\.entry)
      let wait = min(watchdogInterval, deadline.seconds(since: now))
      guard
        (try? FileDescriptor.poll(&entries, timeoutMilliseconds: pollTimeout(nanoseconds: Int64(wait * 1e9)))) != nil
      else { continue }
      for (index, entry) in entries.enumerated() where !entry.returnedEvents.isEmpty {
        sets[index].handler(entry.returnedEvents)
      }
    }
  }

  /// Serves the workers' descriptors until `done` says so or `seconds` of real time pass (tests: waiting for what no
  /// call waits for, such as a frame a worker sends ahead of its tick).
  package func serve(for seconds: Double, until done: () -> Bool) {
    pump(for: seconds, until: done)
  }

  /// The worker processes running now (tests: stopping one to show what waits for it and what does not).
  package var workerProcessIDs: [ProcessID] { workers.values.map(\.worker.process) }

  /// How many transitions' proxies hold a frame their worker built and sent ahead of its tick (a diagnostic).
  package var framesHeldAhead: Int {
    workers.values.reduce(0) { count, entry in count + entry.worker.hosted.values.filter(\.holdsFrameAhead).count }
  }

  package func settle(until deadline: Double) {
    let seconds = max(0, deadline - (scheduler?.now ?? 0))
    pump(for: seconds) { !hasOutstandingCalls }
    for (_, entry) in workers where entry.worker.hasPendingCalls {
      entry.worker.abandon(reason: "terminated")
    }
  }

  package func close() {
    for (_, entry) in workers { entry.worker.requestExit() }
    pump(for: 0.3) { workers.isEmpty }
    for (_, entry) in workers { entry.worker.abandon(reason: "terminated") }
    // What workers killed on the way out left in $TMPDIR.
    PrivateCopy.removeAbandonedFolders()
    for generation in current + retired { try? generation.image.close() }
    current = []
    retired = []
    if let watchdogTimer, let scheduler { scheduler.cancel(watchdogTimer) }
    watchdogTimer = nil
  }
}

/// The catalog of the current generations' animators (metadata only: the parent never makes an animator).
final class WorkerCatalog: AnimatorCatalog {
  private unowned let plugins: WorkerPlugins

  init(plugins: WorkerPlugins) {
    self.plugins = plugins
  }

  var entries: [AnimatorEntry] {
    plugins.currentInfos.flatMap { info in
      info.animators.map { AnimatorEntry(qualifiedID: info.id + "/" + $0.id, pluginID: info.id, info: $0) }
    }
  }

  func entry(for id: String) throws(AnimatorLookupError) -> AnimatorEntry {
    let infos = plugins.currentInfos
    let (plugin, animator) = try PluginRegistry.resolve(animatorID: id, among: infos)
    let info = infos[plugin]
    return AnimatorEntry(
      qualifiedID: info.id + "/" + info.animators[animator].id, pluginID: info.id, info: info.animators[animator])
  }

  func instantiate(_ id: String) throws(AnimatorInstantiationError) -> AnimatorBinding {
    // Animators are made in their plugin's worker (`WorkerPlugins.makeDriver`), never here.
    throw .lookup(.unknown(id: id))
  }
}
