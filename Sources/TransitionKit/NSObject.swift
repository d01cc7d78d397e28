// NSObject without the Objective-C runtime: what UIKit transition code asks of it (subclassing, `super.init()`,
// `isEqual`, `hash`, `description`), so that animators and delegates written as `class X: NSObject, …` compile
// unchanged. There are no selectors, key-value coding or `perform`.

/// The part of NSObject's protocol that Swift code calls: equality, hashing and a description.
public protocol NSObjectProtocol: AnyObject {
  /// Whether `object` is equal to the receiver. NSObject's default is identity.
  func isEqual(_ object: Any?) -> Bool
  /// A hash consistent with `isEqual`. NSObject's default is derived from the object's address.
  var hash: Int { get }
  /// A textual description. NSObject's default is `<Module.Class: 0x…>`.
  var description: String { get }
}

/// The root class of UIKit's objects. Subclass it as on iOS; `==` and `Hashable` go through `isEqual` and `hash`,
/// as for Foundation's NSObject in Swift, so override those two (not `==`) to change equality.
open class NSObject: NSObjectProtocol, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
  public init() {}

  open func isEqual(_ object: Any?) -> Bool {
    guard let other = object.map({ $0 as AnyObject }) else { return false }
    return other === self
  }

  open var hash: Int { ObjectIdentifier(self).hashValue }

  open var description: String {
    // UIKit's own classes print unqualified (<UIView: 0x…>), an app's with their module.
    var name = String(reflecting: type(of: self))
    if name.hasPrefix("TransitionKit.") { name.removeFirst("TransitionKit.".count) }
    return "<\(name): \(Unmanaged.passUnretained(self).toOpaque())>"
  }

  open var debugDescription: String { description }

  public static func == (lhs: NSObject, rhs: NSObject) -> Bool { lhs.isEqual(rhs) }

  public func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}
