// plugins/… and animators/list (Protocol.md, "Plugins and animators"). Loading, reloading and unloading change the
// catalog: the requests after one wait until it is done (`inOrder`), so a script's start right after its load sees
// the loaded plugin, even when loading takes a worker process's start-up.

import JSON
import JSONRPC
import PluginHost

extension TransitionSession {
  func registerPluginMethods(on dispatcher: Dispatcher) {
    handleRequest(dispatcher, "animators/list") { [unowned self] r, s throws(ResponseError) in try listAnimators(r, s) }
    guard hosting.managesPlugins else { return }
    handleRequest(dispatcher, "plugins/list") { [unowned self] r, s throws(ResponseError) in try listPlugins(r, s) }
    handleRequest(dispatcher, "plugins/load") { [unowned self] r, s throws(ResponseError) in try load(r, s) }
    handleRequest(dispatcher, "plugins/unload") { [unowned self] r, s throws(ResponseError) in try unload(r, s) }
    handleRequest(dispatcher, "plugins/reload") { [unowned self] r, s throws(ResponseError) in try reload(r, s) }
  }

  private func listAnimators(_ request: Request, _ responder: Responder) throws(ResponseError) {
    let plugin = try request.param("plugin").map { value throws(ResponseError) in
      try value.string(at: "params.plugin")
    }
    var array = JSONArrayBuilder()
    for entry in catalog.entries where plugin == nil || entry.pluginID == plugin {
      array.append(AnimatorJSON.json(entry))
    }
    responder.reply(["animators": array.build()])
  }

  /// `{"plugins": [plugin objects], "failed": [{"path", "error"}]}`: the loaded plugins, and the files the start-up
  /// auto-load could not load or whose later load crashed (`PluginHosting.loadFailures`).
  private func listPlugins(_ request: Request, _ responder: Responder) throws(ResponseError) {
    var array = JSONArrayBuilder()
    for plugin in hosting.plugins { array.append(json(plugin)) }
    var failed = JSONArrayBuilder()
    for failure in hosting.loadFailures {
      failed.append(["path": JSON(failure.path), "error": failure.error.json])
    }
    responder.reply(["plugins": array.build(), "failed": failed.build()])
  }

  private func load(_ request: Request, _ responder: Responder) throws(ResponseError) {
    let path = try request.requiredParam("path").string(at: "params.path")
    changingCatalog { [self] done in
      hosting.load(path: path) { [self] result in
        flushPluginLogs()
        answer(responder, "plugins/load", result.map { json($0, alreadyLoaded: $0.alreadyLoaded) })
        done()
      }
    }
  }

  private func reload(_ request: Request, _ responder: Responder) throws(ResponseError) {
    let pluginID = try request.requiredParam("plugin").string(at: "params.plugin")
    changingCatalog { [self] done in
      hosting.reload(pluginID: pluginID) { [self] result in
        flushPluginLogs()
        answer(responder, "plugins/reload", result.map { json($0) })
        done()
      }
    }
  }

  /// Unloads a plugin. While transitions of it run the answer is 1008, unless `force` is true: they then end
  /// cancelled with reason "pluginUnloaded" (each with its didEnd) before the plugin goes.
  private func unload(_ request: Request, _ responder: Responder) throws(ResponseError) {
    let pluginID = try request.requiredParam("plugin").string(at: "params.plugin")
    let force = try request.param("force").map { value throws(ResponseError) in try value.bool(at: "params.force") }
    changingCatalog { [self] done in
      let unloadNow = { [self] in
        hosting.unload(pluginID: pluginID) { [self] result in
          flushPluginLogs()
          answer(responder, "plugins/unload", result.map { .null })
          done()
        }
      }
      let doomed = liveRecords.filter { $0.driver.animator.pluginID == pluginID }
      guard force == true, hosting.plugins.contains(where: { $0.info.id == pluginID }), !doomed.isEmpty else {
        return unloadNow()
      }
      // Each ended transition is forgotten as its end is reported, which releases its animator and so the plugin's
      // code; the plugin goes once the last of them has.
      var remaining = doomed.count
      for record in doomed {
        call(record) { callDone in
          record.driver.terminate(reason: "pluginUnloaded") { [self] frame in
            callDone()
            keepLastFrame(record, frame)
            reportEnds()
            remaining -= 1
            if remaining == 0 { unloadNow() }
          }
        }
      }
    }
  }

  /// Replies `result` (an error after the plugin log lines that led to it).
  private func answer(_ responder: Responder, _ method: String, _ result: Result<JSON, ResponseError>) {
    replying(responder, method)(result.map { .json($0) })
  }

  /// `{"id", "name", "version", "vendor", "description", "abi", "path", "builtin", "generation", "animators",
  /// "state", "crashCount", "lastCrash"}`, and `"alreadyLoaded"` when given (`plugins/load`'s answer).
  private func json(_ plugin: PluginStatus, alreadyLoaded: Bool? = nil) -> JSON {
    let info = plugin.info
    var object = JSONObjectBuilder()
    object.setNew("id", JSON(info.id))
    object.setNew("name", JSON(info.name))
    object.setNew("version", JSON(info.version))
    object.setNew("vendor", info.vendor.map { JSON($0) } ?? .null)
    object.setNew("description", info.description.map { JSON($0) } ?? .null)
    object.setNew("abi", JSON(info.abi.description))
    object.setNew("path", JSON(plugin.path))
    object.setNew("builtin", JSON(plugin.builtin))
    object.setNew("generation", JSON(plugin.generation))
    object.setNew("animators", .array(info.animators.map { JSON(info.id + "/" + $0.id) }))
    object.setNew("state", JSON(plugin.state.rawValue))
    object.setNew("crashCount", JSON(plugin.crashCount))
    if let crash = plugin.lastCrash {
      object.setNew(
        "lastCrash",
        [
          "reason": JSON(crash.reason), "code": JSON(crash.code.rawValue), "message": JSON(crash.message),
          "data": crash.data,
        ])
    } else {
      object.setNew("lastCrash", .null)
    }
    if let alreadyLoaded { object.setNew("alreadyLoaded", JSON(alreadyLoaded)) }
    return object.build()
  }
}
