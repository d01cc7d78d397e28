import UIKit

@_cdecl("th_plugin_entry") public func entry(_ h: UnsafeRawPointer?) -> UnsafeRawPointer? { FlipPlugin.entry(h) }

enum FlipPlugin: TransitionPlugin {
  static let id: StaticString = "com.example.uikit.flip"
  static let name: StaticString = "Flip (UIKit sources)"
  static let exports = [
    TransitionPluginExport.transitioningDelegate(id: "flip", name: "Flip") { FlipDelegate() }
      .viewControllers(FirstViewController.self, segues: ["present": .show("SecondViewController")])
  ]
}
