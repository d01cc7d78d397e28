import UIKit

@_cdecl("th_plugin_entry") public func entry(_ h: UnsafeRawPointer?) -> UnsafeRawPointer? { FlipPlugin.entry(h) }

enum FlipPlugin: TransitionPlugin {
  static let id: StaticString = "com.example.uikit.flip"
  static let name: StaticString = "Flip (UIKit sources)"
  static let version: StaticString = "1.0.0"
  static let exports = [TransitionPluginExport.transitioningDelegate(id: "flip", name: "Flip") { FlipDelegate() }]
}
