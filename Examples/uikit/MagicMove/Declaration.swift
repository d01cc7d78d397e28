import UIKit

@_cdecl("th_plugin_entry") public func entry(_ h: UnsafeRawPointer?) -> UnsafeRawPointer? { MagicMovePlugin.entry(h) }

enum MagicMovePlugin: TransitionPlugin {
  static let id: StaticString = "com.example.uikit.magicmove"
  static let name: StaticString = "Magic move (UIKit sources)"
  static let version: StaticString = "1.0.0"
  static let exports = [
    TransitionPluginExport.navigationControllerDelegate(id: "magic-move", name: "Magic move") { NavigationDelegate() }
  ]
}
