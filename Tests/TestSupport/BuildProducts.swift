// Where the test targets find what SwiftPM built beside them: plugins and executables are loaded or spawned from
// the build folder, never linked (a test target cannot depend on a dynamic-library product,
// swiftlang/swift-package-manager#8245, and plugins all export th_plugin_entry).

#if canImport(Glibc)
  import Glibc
#endif

/// The products of this package's build: SwiftPM builds every product into the folder that holds the test runner
/// (`/proc/self/exe`), so that folder is the default; environment variables point elsewhere for other layouts.
package enum BuildProducts {
  /// The folder of the running test binary.
  package static var runnerFolder: String {
    let resolved = realpath("/proc/self/exe", nil)!
    defer { free(resolved) }
    let executable = String(cString: resolved)
    return String(executable[..<executable.lastIndex(of: "/")!])
  }

  /// The folder of the plugins and of the validator's check process: `TRANSITION_HOST_PLUGIN_DIR` when it is set
  /// and not empty, else `runnerFolder`.
  package static var folder: String {
    if let value = getenv("TRANSITION_HOST_PLUGIN_DIR"), value.pointee != 0 { return String(cString: value) }
    return runnerFolder
  }

  /// Built-in animator `name` (product `TransitionPlugin<name>`).
  package static func builtInPlugin(_ name: String) -> String {
    folder + "/libTransitionPlugin\(name).so"
  }

  /// Test fixture plugin `name` (product `TestPlugin<name>`).
  package static func fixturePlugin(_ name: String) -> String {
    folder + "/libTestPlugin\(name).so"
  }

  /// UIKit example `name` (Examples/uikit/<name>, product `UIKitExample<name>`).
  package static func uikitExample(_ name: String) -> String {
    folder + "/libUIKitExample\(name).so"
  }

  /// Executable product `name` in `folder` (for example the validator's check process).
  package static func executable(_ name: String) -> String {
    folder + "/" + name
  }

  /// The `transition-host` executable under test: `TRANSITION_HOST_BIN` when it is set and not empty, else the
  /// one beside the test runner (the plugin folder override does not move it).
  package static var hostBinary: String {
    if let value = getenv("TRANSITION_HOST_BIN"), value.pointee != 0 { return String(cString: value) }
    return runnerFolder + "/transition-host"
  }
}
