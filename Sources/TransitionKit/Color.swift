/// A colour in the sRGB space, components in [0, 1], as UIColor's `init(red:green:blue:alpha:)`.
///
/// A value type here (UIKit's is a class); ported code that writes `UIColor.black.withAlphaComponent(0.5)` or
/// `layer.backgroundColor = UIColor.black.cgColor` compiles unchanged.
public struct UIColor: Hashable, Sendable, CustomStringConvertible {
  public var red: CGFloat
  public var green: CGFloat
  public var blue: CGFloat
  public var alpha: CGFloat

  /// The colour with these components (each clamped to [0, 1] by the host when used).
  public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
    (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
  }

  /// A grey: `white` 0 is black, 1 is white.
  public init(white: CGFloat, alpha: CGFloat) {
    self.init(red: white, green: white, blue: white, alpha: alpha)
  }

  /// The same colour with another alpha.
  public func withAlphaComponent(_ alpha: CGFloat) -> UIColor {
    UIColor(red: red, green: green, blue: blue, alpha: alpha)
  }

  /// The colour itself (Core Graphics' colour type is the same type here).
  public var cgColor: CGColor { self }

  public static let black = UIColor(white: 0, alpha: 1)
  public static let white = UIColor(white: 1, alpha: 1)
  public static let clear = UIColor(white: 0, alpha: 0)
  public static let darkGray = UIColor(white: 1.0 / 3.0, alpha: 1)
  public static let lightGray = UIColor(white: 2.0 / 3.0, alpha: 1)
  public static let gray = UIColor(white: 0.5, alpha: 1)
  public static let red = UIColor(red: 1, green: 0, blue: 0, alpha: 1)
  public static let green = UIColor(red: 0, green: 1, blue: 0, alpha: 1)
  public static let blue = UIColor(red: 0, green: 0, blue: 1, alpha: 1)

  public var description: String { "UIColor(\(red), \(green), \(blue), \(alpha))" }
}

/// Core Graphics' colour: the same type as `UIColor` here, so `layer.backgroundColor = color.cgColor` ports as is.
public typealias CGColor = UIColor
