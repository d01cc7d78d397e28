import UIKit

@_cdecl("th_plugin_entry") public func entry(_ h: UnsafeRawPointer?) -> UnsafeRawPointer? { SeguePlugin.entry(h) }
enum SeguePlugin: TransitionPlugin {
  static let id: StaticString = "com.example.uikit.segue"
  static let name: StaticString = "Segue (UIKit sources)"
  static let exports: [TransitionPluginExport] = [
    .segue(id: "slide", name: "Slide", duration: 0.5, perform: SlideUpSegue.init, unwind: SlideDownUnwindSegue.init)
      .viewControllers(ViewController.self, segues: ["firstSegue": "SecondViewController", "firstUnwind": .unwind])
  ]
}
