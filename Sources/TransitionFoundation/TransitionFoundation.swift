// What `import Foundation` gives a plugin target built with `-module-alias Foundation=TransitionFoundation`
// (docs/writing-plugins.md, "Porting from UIKit"): the names transition code takes from Foundation — `NSObject`,
// `NSObjectProtocol`, `TimeInterval`, `CGFloat` and the geometry types — as TransitionKit has them, and the C
// library's math. Linux's real Foundation (swift-corelibs-foundation) declares its own `CGFloat`, `CGRect` and
// `NSObject`, which would make those names ambiguous next to `import UIKit`, and would load about 64 MB of
// libraries into the host; the alias keeps the sources unchanged and the plugin Foundation-free.

@_exported import TransitionKit

#if canImport(Glibc)
  @_exported import Glibc
#endif
