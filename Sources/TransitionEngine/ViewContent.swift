// What a view the animator made shows, when UIKit would draw it itself: an image view's image (by name) and content
// mode, a visual-effect view's blur. Frames carry it as the view's `content` (Protocol.md, "View content"), so a
// renderer can draw it; the client's own `content` for its views is the service's and passes through untouched.

/// An image view's or visual-effect view's content.
package enum ViewContent: Hashable, Sendable {
  /// UIImageView: the image's name (`UIImage(named:)`; nil for no image) and the content mode.
  case image(name: String?, contentMode: ContentMode)
  /// UIVisualEffectView with a UIBlurEffect of `blurStyle` (nil: no effect).
  case visualEffect(blurStyle: BlurStyle?)
}

/// UIView.ContentMode, with UIKit's raw values and case names.
package enum ContentMode: Int, CaseIterable, Sendable {
  case scaleToFill = 0
  case scaleAspectFit, scaleAspectFill, redraw, center, top, bottom, left, right, topLeft, topRight, bottomLeft
  case bottomRight

  /// UIKit's case name ("scaleAspectFill").
  package var name: String { "\(self)" }
}

/// UIBlurEffect.Style, with UIKit's raw values and case names.
package enum BlurStyle: Int, CaseIterable, Sendable {
  case extraLight = 0
  case light, dark, extraDark, regular, prominent
  case systemUltraThinMaterial, systemThinMaterial, systemMaterial, systemThickMaterial, systemChromeMaterial
  case systemUltraThinMaterialLight, systemThinMaterialLight, systemMaterialLight, systemThickMaterialLight
  case systemChromeMaterialLight
  case systemUltraThinMaterialDark, systemThinMaterialDark, systemMaterialDark, systemThickMaterialDark
  case systemChromeMaterialDark

  /// UIKit's case name ("dark").
  package var name: String { "\(self)" }

  /// The style whose case name is `name`.
  package init?(name: String) {
    guard let style = Self.allCases.first(where: { $0.name == name }) else { return nil }
    self = style
  }
}

extension Scene {
  /// The views that have content of their own (image and visual-effect views), attached or not.
  package var viewsWithContent: [View] { registry.values.filter { $0.content != nil } }
}
