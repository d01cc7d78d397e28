internal import CTransitionABI

// UIImageView and UIVisualEffectView: views the host cannot draw (no pixels), so what they show goes into frames as
// their `content` (ABI 1.2, set_image_content and set_visual_effect; Protocol.md, "View content"), for a client to
// draw: `{"image": "avatar", "contentMode": "scaleAspectFill"}`, `{"effect": {"blur": "dark"}}`.

extension UIView {
  /// How a view's content is laid out in its bounds, UIKit's UIView.ContentMode (same raw values).
  public enum ContentMode: Int, Sendable {
    case scaleToFill = 0
    case scaleAspectFit, scaleAspectFill, redraw, center, top, bottom, left, right, topLeft, topRight, bottomLeft
    case bottomRight
  }
}

/// An image, known by name: `UIImage(named:)`. The host has no pixels or asset catalog, so the name is what a
/// frame carries, and a client draws the image it stands for.
public final class UIImage: NSObject {
  let name: String

  /// The image named `name` (nil for an empty name). Any other name is accepted: the client resolves it.
  public init?(named name: String) {
    guard !name.isEmpty else { return nil }
    self.name = name
    super.init()
  }

  /// `.zero`: the host does not know the image's pixels.
  public var size: CGSize { .zero }

  public override func isEqual(_ object: Any?) -> Bool { (object as? UIImage)?.name == name }
  public override var hash: Int { name.hashValue }
  public override var description: String { "UIImage(named: \"\(name)\")" }
}

/// UIImageView: a view that shows an image. Frames carry `{"image": <name or null>, "contentMode": "<mode>"}` as its
/// `content`; its snapshots carry the same content.
public final class UIImageView: UIView {
  /// The image shown (nil: none). Not animatable: changes at once, also inside animations blocks.
  public var image: UIImage? {
    didSet { sendContent() }
  }

  /// An image view showing `image`. UIKit sizes it to the image; here images have no size, so the frame is `.zero`:
  /// set one.
  public convenience init(image: UIImage?) {
    self.init(frame: .zero, id: nil)
    self.image = image
  }

  public convenience init(frame: CGRect) {
    self.init(frame: frame, id: nil)
  }

  public convenience init() {
    self.init(frame: .zero, id: nil)
  }

  /// An image view with the id `id` when that is free (see `UIView(frame:id:)`).
  public override init(frame: CGRect, id: String?) {
    super.init(frame: frame, id: id)
    sendContent()
  }

  override func contentModeDidChange() { sendContent() }

  private func sendContent() {
    guard let session = live("UIImageView.image") else { return }
    let mode = th_content_mode(rawValue: UInt32(contentMode.rawValue))
    session.call(\.set_image_content, "\(self).image = \(image.map { "\($0)" } ?? "nil")") { fn, ctx in
      if let name = image?.name { name.withCString { fn(ctx, th, $0, mode) } } else { fn(ctx, th, nil, mode) }
    }
  }
}

/// A visual effect (UIVisualEffect); UIBlurEffect is the one the host passes on.
public class UIVisualEffect: NSObject {}

/// A blur, UIBlurEffect: frames carry its style's name (`{"effect": {"blur": "dark"}}`), so that a renderer can
/// blur what is behind the view (the HTML preview uses `backdrop-filter`).
public final class UIBlurEffect: UIVisualEffect {
  /// UIBlurEffect.Style, with UIKit's raw values.
  public enum Style: Int, Sendable {
    case extraLight = 0
    case light, dark, extraDark, regular, prominent
    case systemUltraThinMaterial, systemThinMaterial, systemMaterial, systemThickMaterial, systemChromeMaterial
    case systemUltraThinMaterialLight, systemThinMaterialLight, systemMaterialLight, systemThickMaterialLight
    case systemChromeMaterialLight
    case systemUltraThinMaterialDark, systemThinMaterialDark, systemMaterialDark, systemThickMaterialDark
    case systemChromeMaterialDark
  }

  let style: Style

  public init(style: Style) {
    self.style = style
    super.init()
  }

  public override func isEqual(_ object: Any?) -> Bool { (object as? UIBlurEffect)?.style == style }
  public override var hash: Int { style.hashValue }
}

/// UIVisualEffectView: a view that applies an effect to what is behind it. Frames carry `{"effect": {"blur":
/// "<style>"}}` as its `content` (`{"effect": null}` without an effect).
public final class UIVisualEffectView: UIView {
  /// The effect (nil: none). Not animatable here: changes at once (UIKit can animate it; the host draws nothing).
  public var effect: UIVisualEffect? {
    didSet { sendEffect() }
  }

  /// A visual-effect view with `effect` and a zero frame, as UIKit's.
  public init(effect: UIVisualEffect?) {
    self.effect = effect
    super.init(frame: .zero, id: nil)
    sendEffect()
  }

  /// The view to add subviews to, as in UIKit (made on first use, with the effect view's bounds then, and added to
  /// it; the host does no layout, so size it yourself when the effect view's size changes later).
  public private(set) lazy var contentView: UIView = {
    let content = UIView(frame: bounds)
    addSubview(content)
    return content
  }()

  private func sendEffect() {
    guard let session = live("UIVisualEffectView.effect") else { return }
    let blur = (effect as? UIBlurEffect).map { "\($0.style)" }
    session.call(\.set_visual_effect, "\(self).effect = \(blur ?? "nil")") { fn, ctx in
      if let blur { blur.withCString { fn(ctx, th, $0) } } else { fn(ctx, th, nil) }
    }
  }
}
