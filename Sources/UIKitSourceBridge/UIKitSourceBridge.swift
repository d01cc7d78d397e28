// The UIKit source bridge as a SwiftPM build-tool plugin: for every Swift file of a target that the target does not
// compile itself (its `sources:` leave it out), one build command runs `uikit-source-bridge` and the target compiles
// the rewritten copy instead. So an iOS app's files stay as they are on disk, `@objc` and `#selector` included:
//
//   .target(name: "MyTransitions", dependencies: […], sources: ["Declaration.swift"],
//           plugins: [.plugin(name: "UIKitSourceBridge", package: "transition-host")])
//
// Files the target excludes (`exclude:`) are left out altogether. Each rewritten file starts with `#sourceLocation`
// naming the original, so the compiler's messages point at the file you wrote; the copies live in the plugin's work
// folder under `.build/plugins/outputs`, named `<Name>.bridged.swift` (a copy's own name must differ from the
// original's, or `#fileID` strings would clash).

import Foundation
import PackagePlugin

@main
struct UIKitSourceBridge: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    guard let target = target as? SourceModuleTarget else { return [] }
    let bridged = target.sourceFiles.filter { $0.type == .unknown && $0.url.pathExtension == "swift" }
    guard !bridged.isEmpty else { return [] }
    let tool = try context.tool(named: "uikit-source-bridge").url
    let root = target.sourceFiles.map(\.url).commonFolder
    return bridged.map { file in
      let relative = file.url.deletingPathExtension().standardizedFileURL.pathComponents.dropFirst(root.count)
      let output = context.pluginWorkDirectoryURL.appendingPathComponent(
        relative.joined(separator: "/") + ".bridged.swift")
      return .buildCommand(
        displayName: "Bridging \(file.url.lastPathComponent) for \(target.name) (UIKit source bridge)",
        executable: tool,
        arguments: [file.url.path, output.path],
        inputFiles: [file.url],
        outputFiles: [output]
      )
    }
  }
}

extension [URL] {
  /// The path components of the deepest folder that holds every file.
  fileprivate var commonFolder: [String] {
    let folders = map { $0.deletingLastPathComponent().standardizedFileURL.pathComponents }
    guard var common = folders.first else { return [] }
    for folder in folders.dropFirst() {
      common = zip(common, folder).prefix { $0 == $1 }.map(\.0)
    }
    return common
  }
}
