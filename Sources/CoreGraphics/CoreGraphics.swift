// `import CoreGraphics` for plugin sources copied from an iOS app: `CGFloat`, `CGPoint`, `CGSize`, `CGRect`,
// `CGVector` and `CGAffineTransform` live in TransitionKit, so this is the same face as `import UIKit`.

@_exported import TransitionKit

#if canImport(Glibc)
  @_exported import Glibc
#endif
