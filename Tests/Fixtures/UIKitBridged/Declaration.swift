// TestPluginUIKitBridged: UIKit code compiled through the UIKit source bridge. The target compiles this declaration;
// the bridge compiles the other files, written as an iOS app's are: target–action with `@objc` and `#selector`,
// display links, presentation layers, image and visual-effect views (Tests/AnimatorTests/UIKitSelectorTests.swift,
// UIKitContentTests.swift).

import UIKit

@_cdecl("th_plugin_entry") public func entry(_ h: UnsafeRawPointer?) -> UnsafeRawPointer? {
  SelectorsPlugin.entry(h)
}

enum SelectorsPlugin: TransitionPlugin {
  static let id: StaticString = "com.example.test.uikitbridged"
  static let name: StaticString = "UIKit through the source bridge"
  static let version: StaticString = "1.0.0"
  static let exports: [TransitionPluginExport] = [
    .animator(id: "actions", name: "Target–action", operations: [.present]) { ActionAnimator() },
    .animator(id: "presentation", name: "Presentation layers", operations: [.present]) { PresentationAnimator() },
    .animator(id: "images", name: "Image and effect views", operations: [.present]) { ImageAnimator() },
    .animator(id: "display-link", name: "Display link", operations: [.present]) { DisplayLinkAnimator() },
  ]
}
