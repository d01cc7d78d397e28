// Target–action without the Objective-C runtime. UIKit finds an action method by its selector's name at run time;
// Swift on Linux has no such lookup, so here a selector carries the call itself. `#selector(handlePan(_:))` in
// UIKit source becomes `Selector("handlePan(_:)") { target, sender in … }` through the UIKit source bridge
// (docs/writing-plugins.md, "Porting from UIKit"); gesture recognizers and display links send actions through
// `send(to:from:)`.

/// A reference to an action method, UIKit's `Selector`: a name, and (when made by the source bridge or by SDK
/// code) the call that invokes that method on a target.
public struct Selector: Hashable, CustomStringConvertible, ExpressibleByStringLiteral, @unchecked Sendable {
  /// The method's name as written in the source, e.g. `handlePan(_:)`.
  public let name: String
  private let action: ((AnyObject, Any?) -> Void)?

  /// A selector known by name only (`Selector("close")`). Sending it reports that there is no method to call:
  /// without the Objective-C runtime a name cannot be resolved to a method.
  public init(_ name: String) {
    self.name = name
    self.action = nil
  }

  /// A selector that calls `action(target, sender)` when sent: the form `#selector(…)` becomes.
  public init(_ name: String, action: @escaping (_ target: AnyObject, _ sender: Any?) -> Void) {
    self.name = name
    self.action = action
  }

  public init(stringLiteral name: String) { self.init(name) }

  public var description: String { name }

  /// Selectors are equal when their names are, as in Objective-C.
  public static func == (lhs: Selector, rhs: Selector) -> Bool { lhs.name == rhs.name }

  public func hash(into hasher: inout Hasher) { hasher.combine(name) }

  /// Whether sending this selector calls a method (false for a selector made from a bare name).
  public var canBeSent: Bool { action != nil }

  /// Calls the action method on `target` with `sender` as its argument. Returns false, calling nothing, when the
  /// selector was made from a bare name; the caller reports that (UIKit would raise "unrecognized selector").
  @discardableResult
  public func send(to target: AnyObject, from sender: Any?) -> Bool {
    guard let action else { return false }
    action(target, sender)
    return true
  }
}

/// Foundation's `NSSelectorFromString`: a selector known by name only.
public func NSSelectorFromString(_ name: String) -> Selector { Selector(name) }

/// Foundation's `NSStringFromSelector`: the selector's name.
public func NSStringFromSelector(_ selector: Selector) -> String { selector.name }
