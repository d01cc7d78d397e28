import UIKit

@_cdecl("th_plugin_entry") public func entry(_ h: UnsafeRawPointer?) -> UnsafeRawPointer? { PullDownPlugin.entry(h) }

enum PullDownPlugin: TransitionPlugin {
  static let id: StaticString = "com.example.uikit.pulldown"
  static let name: StaticString = "Pull down (UIKit sources)"
  static let version: StaticString = "1.0.0"
  static let exports: [TransitionPluginExport] = [
    .transitioningDelegate(id: "pull", name: "Pull") { TransitioningDelegate() }.viewControllers(ViewController.self)
  ]
}
