// `import UIKit` for plugin sources copied from an iOS app: the TransitionKit SDK (UIKit's transition types, the
// Core Graphics and Core Animation values) and the C library's math, which the real UIKit brings in through
// Foundation and Darwin (`sqrt`, `fmax`, `asin`, `M_PI`, …). Nothing here loads Foundation.

@_exported import TransitionKit

#if canImport(Glibc)
  @_exported import Glibc
#endif
