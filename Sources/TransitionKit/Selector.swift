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

// MARK: - NSObject's perform

extension NSObject {
  /// Sends `aSelector` to the receiver: NSObject's `perform(_:)`. The method's result is not returned (nil): the host
  /// has no Objective-C object to wrap it in. A selector made from a bare name calls nothing and is logged as UIKit's
  /// "unrecognized selector".
  @discardableResult
  public func perform(_ aSelector: Selector!) -> Unmanaged<AnyObject>! {
    send(aSelector, with: nil, "perform(_:)")
  }

  /// Sends `aSelector` to the receiver with `object` as the action's argument: NSObject's `perform(_:with:)`.
  @discardableResult
  public func perform(_ aSelector: Selector!, with object: Any!) -> Unmanaged<AnyObject>! {
    send(aSelector, with: object, "perform(_:with:)")
  }

  private func send(_ selector: Selector?, with object: Any?, _ call: String) -> Unmanaged<AnyObject>? {
    guard let selector, selector.send(to: self, from: object) else {
      TransitionLog.error(
        "\(call): unrecognized selector \(selector?.name ?? "nil") sent to \(self) (a selector made from a name alone "
          + "cannot be sent without the Objective-C runtime: use #selector through the UIKit source bridge)")
      return nil
    }
    return nil
  }
}

// MARK: - What the UIKit source bridge's output calls

/// The calls `#selector(…)` becomes in UIKit source compiled through the UIKit source bridge (docs/writing-plugins.md,
/// "Porting from UIKit"): `#selector(handle(_:))` in a class `Controller` is
/// `Selector("handle(_:)", action: { target, sender in _UIKitSourceBridge.send(_UIKitSourceBridge.target(target,
/// Controller.self, "handle(_:)").handle(_:), sender, "handle(_:)") })`. Not meant for hand-written code: write
/// `Selector(name, action:)` there. A target or sender of the wrong type stops the plugin as UIKit's "unrecognized
/// selector" exception does; with process isolation the host reports the crash.
public enum _UIKitSourceBridge {
  /// `target` as the type that declares the selector's method.
  public static func target<Target>(_ target: AnyObject, _ type: Target.Type, _ selector: String) -> Target {
    guard let typed = target as? Target else {
      fatalError("unrecognized selector \(selector) sent to \(target) (it is not a \(Target.self))")
    }
    return typed
  }

  /// The selector of a method of `instance`'s static type (`#selector(view.method)`); `instance` is never evaluated,
  /// and `action` gets the target as that type.
  public static func selector<Target>(
    _ name: String, like instance: @autoclosure () -> Target, action: @escaping (Target, Any?) -> Void
  ) -> Selector {
    Selector(name, action: { target, sender in action(self.target(target, Target.self, name), sender) })
  }

  /// The sender as the action method's parameter type (`Any`, an optional, or the sender's own class).
  public static func argument<Argument>(_ sender: Any?, _ selector: String) -> Argument {
    if let argument = sender as? Argument { return argument }
    if let none = Optional<Any>.none as? Argument, sender == nil { return none }
    fatalError(
      "the action \(selector) takes \(Argument.self), but its sender is \(sender.map { "\(type(of: $0))" } ?? "nil")")
  }

  /// Calls an action method that takes no argument.
  public static func send<Result>(_ method: () -> Result, _ sender: Any?, _ selector: String) {
    _ = method()
  }

  /// Calls an action method that takes the sender.
  public static func send<Sender, Result>(_ method: (Sender) -> Result, _ sender: Any?, _ selector: String) {
    _ = method(argument(sender, selector))
  }

  /// Calls an action method that takes the sender and an event (UIKit's `(_:for:)` form); the host has no events, so
  /// the second parameter must be optional and is nil.
  public static func send<Sender, Event, Result>(
    _ method: (Sender, Event) -> Result, _ sender: Any?, _ selector: String
  ) {
    _ = method(argument(sender, selector), argument(nil, selector))
  }
}
