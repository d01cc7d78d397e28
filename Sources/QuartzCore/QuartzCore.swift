// `import QuartzCore` for plugin sources copied from an iOS app: Core Animation's types (`CATransform3D` and its
// functions, `CALayer`, `CGFloat`) live in TransitionKit, so this is the same face as `import UIKit`.

@_exported import TransitionKit

#if canImport(Glibc)
  @_exported import Glibc
#endif
