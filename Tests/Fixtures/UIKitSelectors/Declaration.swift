// TestPluginUIKitSelectors: UIKit target–action code compiled through the UIKit source bridge. The target compiles
// this declaration; the bridge compiles the other files, which use `@objc` and `#selector` as an iOS app does
// (Tests/AnimatorTests/UIKitSelectorTests.swift).

import UIKit

@_cdecl("th_plugin_entry") public func entry(_ h: UnsafeRawPointer?) -> UnsafeRawPointer? {
  SelectorsPlugin.entry(h)
}

enum SelectorsPlugin: TransitionPlugin {
  static let id: StaticString = "com.example.test.uikitselectors"
  static let name: StaticString = "UIKit selectors"
  static let version: StaticString = "1.0.0"
  static let exports: [TransitionPluginExport] = [
    .animator(id: "actions", name: "Target–action", operations: [.present]) { ActionAnimator() }
  ]
}
