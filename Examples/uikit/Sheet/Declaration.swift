import UIKit

@_cdecl("th_plugin_entry") public func entry(_ h: UnsafeRawPointer?) -> UnsafeRawPointer? { SheetPlugin.entry(h) }

enum SheetPlugin: TransitionPlugin {
  static let id: StaticString = "com.example.uikit.sheet"
  static let name: StaticString = "Sheet (UIKit sources)"
  static let version: StaticString = "1.0.0"
  static let exports = [
    TransitionPluginExport.transitioningDelegate(id: "sheet", name: "Sheet") { SheetTransitioningDelegate() }
  ]
}
