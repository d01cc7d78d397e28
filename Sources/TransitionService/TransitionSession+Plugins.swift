// plugins/… and animators/list (Protocol.md, "Plugins and animators").

import JSON
import JSONRPC
import PluginHost

extension TransitionSession {
  func registerPluginMethods(on dispatcher: Dispatcher) {
    handleRequest(dispatcher, "animators/list") { [unowned self] r, s throws(ResponseError) in try listAnimators(r, s) }
    guard registry != nil else { return }
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

  private func listPlugins(_ request: Request, _ responder: Responder) throws(ResponseError) {
    let registry = registry!
    var array = JSONArrayBuilder()
    for plugin in registry.plugins { array.append(json(plugin, registry: registry).build()) }
    responder.reply(["plugins": array.build()])
  }

  private func load(_ request: Request, _ responder: Responder) throws(ResponseError) {
    let registry = registry!
    let path = try request.requiredParam("path").string(at: "params.path")
    let loaded: PluginRegistry.LoadedPlugin
    do {
      loaded = try registry.load(path: path)
    } catch {
      throw .plugin(error)
    }
    flushPluginLogs()
    var result = json(loaded, registry: registry)
    result.setNew("alreadyLoaded", JSON(loaded.alreadyLoaded))
    responder.reply(result.build())
  }

  private func reload(_ request: Request, _ responder: Responder) throws(ResponseError) {
    let registry = registry!
    let pluginID = try request.requiredParam("plugin").string(at: "params.plugin")
    let loaded: PluginRegistry.LoadedPlugin
    do {
      loaded = try registry.reload(pluginID: pluginID)
    } catch {
      throw .plugin(error)
    }
    flushPluginLogs()
    responder.reply(json(loaded, registry: registry).build())
  }

  /// Unloads a plugin. While transitions of it run the answer is 1008, unless `force` is true: they then end
  /// cancelled with reason "pluginUnloaded" (each with its didEnd) before the plugin goes.
  private func unload(_ request: Request, _ responder: Responder) throws(ResponseError) {
    let registry = registry!
    let pluginID = try request.requiredParam("plugin").string(at: "params.plugin")
    let force = try request.param("force").map { value throws(ResponseError) in try value.bool(at: "params.force") }
    if force == true, registry.plugins.contains(where: { $0.info.id == pluginID }) {
      for record in liveRecords where record.driver.animator.pluginID == pluginID {
        record.driver.terminate(reason: "pluginUnloaded")
      }
      // The ended transitions are forgotten here, which releases their animators and so the plugin's code.
      reportEnds()
    }
    do {
      try registry.unload(pluginID: pluginID)
    } catch {
      throw .plugin(error)
    }
    flushPluginLogs()
    responder.reply(.null)
  }

  /// `{"id", "name", "version", "vendor", "description", "abi", "path", "builtin", "generation", "animators"}`.
  private func json(_ plugin: PluginRegistry.LoadedPlugin, registry: PluginRegistry) -> JSONObjectBuilder {
    let info = plugin.info
    var object = JSONObjectBuilder()
    object.setNew("id", JSON(info.id))
    object.setNew("name", JSON(info.name))
    object.setNew("version", JSON(info.version))
    object.setNew("vendor", info.vendor.map { JSON($0) } ?? .null)
    object.setNew("description", info.description.map { JSON($0) } ?? .null)
    object.setNew("abi", JSON(info.abi.description))
    object.setNew("path", JSON(plugin.path))
    object.setNew("builtin", JSON(Self.isBuiltIn(plugin.path, searchPath: registry.searchPath)))
    object.setNew("generation", JSON(plugin.generation))
    object.setNew("animators", .array(info.animators.map { JSON(info.id + "/" + $0.id) }))
    return object
  }

  /// Whether `path` is a built-in plugin: a `libTransitionPlugin*.so` in the host binary's folder.
  static func isBuiltIn(_ path: String, searchPath: PluginSearchPath) -> Bool {
    guard let folder = searchPath.builtInFolder, let slash = path.lastIndex(of: "/") else { return false }
    let name = path[path.index(after: slash)...]
    return path[..<slash] == folder && name.hasPrefix(PluginSearchPath.builtInPrefix)
  }
}
