import JSON

extension Request {
  /// The member `name` of `params` (nil when absent; `JSON.null` when `null`).
  ///
  /// - Throws: −32602 naming `params` when the params are an array (positional) rather than an object.
  package func param(_ name: String) throws(ResponseError) -> JSON? {
    guard let params else { return nil }
    guard params.kind == .object else { throw .invalidParams(field: "params", "must be an object") }
    return params[name]
  }

  /// The member `name` of `params`, which must be present and not `null`.
  ///
  /// - Throws: −32602 naming `params.<name>` when it is missing.
  package func requiredParam(_ name: String) throws(ResponseError) -> JSON {
    guard let value = try param(name), !value.isNull else {
      throw .invalidParams(field: "params.\(name)", "is required")
    }
    return value
  }
}

/// Typed reads of outside input that fail with −32602 naming the field (`path`, e.g. `params.from.frame`).
extension JSON {
  /// The member `key` of this object; nil when absent or `null` and `required` is false.
  ///
  /// - Throws: −32602 naming `path` when this is not an object, or `path.key` when a required member is
  ///   missing.
  package func member(_ key: String, of path: String, required: Bool = true) throws(ResponseError) -> JSON? {
    guard kind == .object else { throw .invalidParams(field: path, "must be an object") }
    guard let value = self[key], !value.isNull else {
      if required { throw .invalidParams(field: "\(path).\(key)", "is required") }
      return nil
    }
    return value
  }

  /// This value as a string, or −32602 "`path` must be a string".
  package func string(at path: String) throws(ResponseError) -> String {
    guard let value = stringValue else { throw .invalidParams(field: path, "must be a string") }
    return value
  }

  /// This value as a number, or −32602 "`path` must be a number".
  package func number(at path: String) throws(ResponseError) -> Double {
    guard let value = doubleValue else { throw .invalidParams(field: path, "must be a number") }
    return value
  }

  /// This value as an integer (`3`, not `3.0`) within `Int`, or −32602 "`path` must be an integer".
  package func integer(at path: String) throws(ResponseError) -> Int {
    guard let value = intValue, let integer = Int(exactly: value) else {
      throw .invalidParams(field: path, "must be an integer")
    }
    return integer
  }

  /// This value as a boolean, or −32602 "`path` must be a boolean".
  package func bool(at path: String) throws(ResponseError) -> Bool {
    guard let value = boolValue else { throw .invalidParams(field: path, "must be a boolean") }
    return value
  }

  /// This value when it is an object, or −32602 "`path` must be an object".
  package func object(at path: String) throws(ResponseError) -> JSON {
    guard kind == .object else { throw .invalidParams(field: path, "must be an object") }
    return self
  }

  /// This value's elements when it is an array, or −32602 "`path` must be an array".
  package func array(at path: String) throws(ResponseError) -> [JSON] {
    guard kind == .array else { throw .invalidParams(field: path, "must be an array") }
    return elements
  }
}
