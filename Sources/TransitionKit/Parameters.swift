internal import CTransitionABI

/// A parameter of an animator, type-erased: what the animator's `parameters` list holds. Declare parameters with
/// the typed factories of `TransitionParameter` (`.number`, `.bool`, `.enumeration`, `.color`, `.string`, `.point`,
/// `.rect`) and read them with `transitionContext[parameter]` or `parameter.value(in:)`.
public class AnyTransitionParameter: @unchecked Sendable {
  // @unchecked: immutable after init; subclasses add only immutable state.
  let nameText: StaticString
  let docText: StaticString?
  let kind: ParameterKind

  init(name: StaticString, doc: StaticString?, kind: ParameterKind) {
    self.nameText = name
    self.docText = doc
    self.kind = kind
  }

  /// The key in the transition's `params`.
  public var name: String { nameText.description }
  /// One line of documentation.
  public var doc: String? { docText?.description }

  /// How a read of the parameter is named in log messages.
  var callName: String { "transitionContext[\(name)]" }
}

/// The metadata of one parameter, as the ABI describes it.
enum ParameterKind: Sendable {
  case number(default: Double, min: Double, max: Double)
  case bool(default: Bool)
  case enumeration(default: String, options: [String])
  case color(default: UIColor)
  case string(default: String)
  case point(default: CGPoint)
  case rect(default: CGRect)
}

/// A typed parameter of an animator: its metadata (for an editor's settings panel) and how to read its value.
///
/// ```swift
/// static let duration = TransitionParameter.number("duration", default: 0.5, min: 0, max: 10, doc: "Seconds.")
/// …
/// let seconds = transitionContext[Self.duration]          // the client's value, or 0.5
/// ```
public final class TransitionParameter<Value: Sendable>: AnyTransitionParameter, @unchecked Sendable {
  /// The default (what an unset parameter reads as, and what is read without a context).
  public let defaultValue: Value
  let reader: @Sendable (Session, TransitionParameter<Value>) -> Value?

  init(
    name: StaticString, doc: StaticString?, kind: ParameterKind, defaultValue: Value,
    reader: @escaping @Sendable (Session, TransitionParameter<Value>) -> Value?
  ) {
    self.defaultValue = defaultValue
    self.reader = reader
    super.init(name: name, doc: doc, kind: kind)
  }

  /// The value in `context`, or the default when the context is nil (UIKit's `transitionDuration(using: nil)`).
  public func value(in context: (any UIViewControllerContextTransitioning)?) -> Value {
    context?[self] ?? defaultValue
  }

  /// The value for the session's transition: the host's answer, or the default (logged) when it has none.
  func read(_ session: Session) -> Value {
    guard session.hasContext else { return defaultValue }
    return reader(session, self) ?? defaultValue
  }
}

extension TransitionParameter where Value == CGFloat {
  /// A number in [min, max] (either side may be infinite).
  public static func number(
    _ name: StaticString, default value: Value, min: Value = -.infinity, max: Value = .infinity,
    doc: StaticString? = nil
  ) -> TransitionParameter<Value> {
    TransitionParameter(name: name, doc: doc, kind: .number(default: value, min: min, max: max), defaultValue: value) {
      session, parameter in
      var out = 0.0
      let ok = session.call(\.param_number, parameter.callName) { fn, ctx in
        withCString(parameter.nameText) { fn(ctx, $0, &out) }
      }
      return ok ? out : nil
    }
  }
}

extension TransitionParameter where Value == Bool {
  /// A switch.
  public static func bool(_ name: StaticString, default value: Value, doc: StaticString? = nil) -> TransitionParameter<
    Value
  > {
    TransitionParameter(name: name, doc: doc, kind: .bool(default: value), defaultValue: value) { session, parameter in
      var out = false
      let ok = session.call(\.param_bool, parameter.callName) { fn, ctx in
        withCString(parameter.nameText) { fn(ctx, $0, &out) }
      }
      return ok ? out : nil
    }
  }
}

extension TransitionParameter where Value == String {
  /// A free string ("" allowed).
  public static func string(_ name: StaticString, default value: Value, doc: StaticString? = nil)
    -> TransitionParameter<Value>
  {
    TransitionParameter(name: name, doc: doc, kind: .string(default: value), defaultValue: value) {
      session, parameter in
      var out = UnsafePointer<CChar>?.none
      let ok = session.call(\.param_string, parameter.callName) { fn, ctx in
        withCString(parameter.nameText) { fn(ctx, $0, &out) }
      }
      return ok ? out.map { String(cString: $0) } : nil
    }
  }
}

extension TransitionParameter where Value == UIColor {
  /// A colour.
  public static func color(_ name: StaticString, default value: Value, doc: StaticString? = nil) -> TransitionParameter<
    Value
  > {
    TransitionParameter(name: name, doc: doc, kind: .color(default: value), defaultValue: value) { session, parameter in
      var out = th_color()
      let ok = session.call(\.param_color, parameter.callName) { fn, ctx in
        withCString(parameter.nameText) { fn(ctx, $0, &out) }
      }
      return ok ? UIColor(out) : nil
    }
  }
}

extension TransitionParameter where Value == CGPoint {
  /// A point.
  public static func point(_ name: StaticString, default value: Value, doc: StaticString? = nil) -> TransitionParameter<
    Value
  > {
    TransitionParameter(name: name, doc: doc, kind: .point(default: value), defaultValue: value) { session, parameter in
      var out = th_point()
      let ok = session.call(\.param_point, parameter.callName) { fn, ctx in
        withCString(parameter.nameText) { fn(ctx, $0, &out) }
      }
      return ok ? CGPoint(out) : nil
    }
  }
}

extension TransitionParameter where Value == CGRect {
  /// A rectangle (width and height >= 0).
  public static func rect(_ name: StaticString, default value: Value, doc: StaticString? = nil) -> TransitionParameter<
    Value
  > {
    TransitionParameter(name: name, doc: doc, kind: .rect(default: value), defaultValue: value) { session, parameter in
      var out = th_rect()
      let ok = session.call(\.param_rect, parameter.callName) { fn, ctx in
        withCString(parameter.nameText) { fn(ctx, $0, &out) }
      }
      return ok ? CGRect(out) : nil
    }
  }
}

extension TransitionParameter where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
  /// One of the cases of a string enum; an editor offers the cases' raw values.
  public static func enumeration(
    _ name: StaticString, default value: Value, doc: StaticString? = nil
  ) -> TransitionParameter<Value> {
    let options = Value.allCases.map(\.rawValue)
    return TransitionParameter(
      name: name, doc: doc, kind: .enumeration(default: value.rawValue, options: options), defaultValue: value
    ) { session, parameter in
      var raw: UnsafePointer<CChar>?
      let ok = session.call(\.param_string, parameter.callName) { fn, ctx in
        withCString(parameter.nameText) { fn(ctx, $0, &raw) }
      }
      guard ok, let raw else { return nil }
      let text = String(cString: raw)
      guard let value = Value(rawValue: text) else {
        session.log(TH_LOG_WARNING, "TransitionKit: \(parameter.name) = \"\(text)\" is not one of \(options)")
        return nil
      }
      return value
    }
  }
}

/// Calls `body` with a NUL-terminated pointer to `string` (copied when the literal has no pointer representation).
func withCString<R>(_ string: StaticString, _ body: (UnsafePointer<CChar>) -> R) -> R {
  if string.hasPointerRepresentation {
    return string.utf8Start.withMemoryRebound(to: CChar.self, capacity: string.utf8CodeUnitCount + 1, body)
  }
  return string.description.withCString(body)
}
