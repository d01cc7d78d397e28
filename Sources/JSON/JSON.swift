internal import CJSONC
import Glibc

/// An immutable JSON value backed by a json-c object.
///
/// A `JSON` is a reference into a json-c tree plus the owner that keeps that tree alive. Reading a
/// member or an element (`json["params"]`, `json[0]`) borrows the child in place: no Swift copy of the
/// tree is made, which keeps the per-message cost of the JSON-RPC path low.
///
/// Numbers: an integer literal that fits `Int64` is `.int`; every other number (a fraction, an exponent,
/// or an integer beyond the `Int64` range) is `.double`. Doubles parsed from text keep their source text,
/// so serializing them echoes exactly what was read (`1.0`, `1e5`, `18446744073709551616`); integers are
/// printed from their value, which is the same text except for `-0`, read as the integer `0` (json-c's
/// integer parser has no negative zero).
///
/// - Important: Not `Sendable`. json-c's reference counts are not atomic and serializing a value caches
///   its text inside the json-c object, so a value (and any value sharing its tree) must stay on one
///   thread at a time. Hand a value to another thread only by giving it away (`sending`).
package struct JSON {
  /// The kind of a JSON value.
  package enum Kind: Sendable, Hashable, CustomStringConvertible {
    case null, bool, int, double, string, array, object

    package var description: String {
      switch self {
      case .null: "null"
      case .bool: "bool"
      case .int: "int"
      case .double: "double"
      case .string: "string"
      case .array: "array"
      case .object: "object"
      }
    }
  }

  /// Keeps the json-c tree that `node` belongs to alive; nil only for values that need no owner (null).
  let owner: JSONOwner?
  /// The json-c object; nil is JSON null, as in json-c itself.
  let node: OpaquePointer?

  init(owner: JSONOwner?, node: OpaquePointer?) {
    self.owner = owner
    self.node = node
  }

  /// Takes over one reference to `object` (a new json-c object, or one retained with `json_object_get`).
  init(adopting object: OpaquePointer?) {
    if let object {
      self.init(owner: JSONOwner(adopting: object), node: object)
    } else {
      self.init(owner: nil, node: nil)
    }
  }

  /// The JSON `null` value.
  package static var null: JSON { JSON(owner: nil, node: nil) }

  /// The kind of this value.
  package var kind: Kind {
    switch json_object_get_type(node) {
    case json_type_boolean: .bool
    case json_type_int: .int
    case json_type_double: .double
    case json_type_string: .string
    case json_type_array: .array
    case json_type_object: .object
    default: .null
    }
  }

  /// True for JSON `null`.
  package var isNull: Bool { node == nil }

  /// The value of a `true`/`false`, nil for every other kind (no coercion).
  package var boolValue: Bool? {
    guard json_object_get_type(node) == json_type_boolean else { return nil }
    return json_object_get_boolean(node) != 0
  }

  /// The value of an integer that fits `Int64`, nil for every other value (including `1.0`).
  package var intValue: Int64? {
    guard json_object_get_type(node) == json_type_int else { return nil }
    return json_object_get_int64(node)
  }

  /// The value of any number as a `Double` (nearest value for integers beyond 2^53); nil for non-numbers.
  package var doubleValue: Double? {
    switch json_object_get_type(node) {
    case json_type_double: json_object_get_double(node)
    case json_type_int: Double(json_object_get_int64(node))
    default: nil
    }
  }

  /// The text of a string value, nil for every other kind. Embedded NULs are kept.
  package var stringValue: String? {
    guard json_object_get_type(node) == json_type_string, let chars = json_object_get_string(node) else {
      return nil
    }
    let length = Int(json_object_get_string_len(node))
    return chars.withMemoryRebound(to: UInt8.self, capacity: length) {
      String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
    }
  }

  /// The exact JSON text a string value was parsed from, quotes and escapes included, when its decoded text
  /// cannot stand for it: a string with a lone surrogate escape (`"\udc00x"`), which `stringValue` reads as
  /// U+FFFD. Such a string serializes as this text. Nil for every other value.
  package var sourceText: String? {
    guard json_object_get_type(node) == json_type_string, let text = json_object_get_userdata(node) else {
      return nil
    }
    return String(cString: text.assumingMemoryBound(to: CChar.self))
  }

  /// Calls `body` with the UTF-8 bytes of a string value (borrowed, valid only during the call), or
  /// returns nil without calling it when this is not a string.
  package func withUTF8<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R? {
    guard json_object_get_type(node) == json_type_string, let chars = json_object_get_string(node) else {
      return nil
    }
    return try body(UnsafeRawBufferPointer(start: chars, count: Int(json_object_get_string_len(node))))
  }

  /// Whether this is a string whose text is exactly `text` (compares bytes in place, no copy).
  package func isString(_ text: StaticString) -> Bool {
    withUTF8 { bytes in
      bytes.count == text.utf8CodeUnitCount
        && (bytes.isEmpty || memcmp(bytes.baseAddress!, text.utf8Start, bytes.count) == 0)
    } ?? false
  }

  /// The member named `key` of an object: nil when absent or when this is not an object, `JSON.null`
  /// when present with the value `null`.
  package subscript(key: String) -> JSON? {
    guard json_object_get_type(node) == json_type_object else { return nil }
    var child: OpaquePointer?
    // withCString, not the implicit String-to-pointer conversion: that one copies a small string (a key like "id")
    // into a new array on the heap, on every lookup of every message.
    guard key.withCString({ json_object_object_get_ex(node, $0, &child) }) != 0 else { return nil }
    return JSON(owner: owner, node: child)
  }

  /// The member named by the literal `key` (as `self[key]`, looked up without bridging a String: for the few keys
  /// every message is read for, such as "jsonrpc", "id", "method", "params").
  package func member(_ key: StaticString) -> JSON? {
    guard json_object_get_type(node) == json_type_object else { return nil }
    var child: OpaquePointer?
    let found = key.utf8Start.withMemoryRebound(to: CChar.self, capacity: key.utf8CodeUnitCount + 1) {
      json_object_object_get_ex(node, $0, &child)
    }
    guard found != 0 else { return nil }
    return JSON(owner: owner, node: child)
  }

  /// The element at `index` of an array; nil when out of range or when this is not an array.
  package subscript(index: Int) -> JSON? {
    guard json_object_get_type(node) == json_type_array, index >= 0,
      index < json_object_array_length(node)
    else { return nil }
    return JSON(owner: owner, node: json_object_array_get_idx(node, index))
  }

  /// The number of elements of an array or members of an object; 0 for every other kind.
  package var count: Int {
    switch json_object_get_type(node) {
    case json_type_array: Int(json_object_array_length(node))
    case json_type_object: Int(json_object_object_length(node))
    default: 0
    }
  }

  /// The elements of an array in order (empty for every other kind).
  package var elements: [JSON] {
    guard json_object_get_type(node) == json_type_array else { return [] }
    let length = json_object_array_length(node)
    var result: [JSON] = []
    result.reserveCapacity(length)
    for index in 0..<length {
      result.append(JSON(owner: owner, node: json_object_array_get_idx(node, index)))
    }
    return result
  }

  /// The member names of an object in document order (empty for every other kind).
  ///
  /// json-c stores keys as C strings: a key is cut at its first NUL (`"a\u0000b"` reads as `"a"`), and
  /// of duplicate keys the last value wins at the first key's position.
  package var keys: [String] {
    var result: [String] = []
    forEachMember { key, _ in result.append(key) }
    return result
  }

  /// The members of an object in document order (empty for every other kind).
  package var members: [(key: String, value: JSON)] {
    var result: [(key: String, value: JSON)] = []
    forEachMember { result.append(($0, $1)) }
    return result
  }

  /// Calls `body` with the members named `first`, `second`, `third` and `fourth` of an object, read in one pass over
  /// it (each absent when the object lacks it, all absent when this is not an object; a later duplicate name wins, as
  /// json-c keeps the last). For a few known members of every message: no key is hashed, no closure is called per
  /// member, and looking at a member costs no reference count; `Members.value(_:)` makes a `JSON` (one retain of the
  /// tree's owner) only of a member that is kept.
  package func withMembers<R>(
    _ first: StaticString, _ second: StaticString, _ third: StaticString, _ fourth: StaticString,
    _ body: (borrowing Members) throws -> R
  ) rethrows -> R {
    var found = Members(owner: owner)
    if json_object_get_type(node) == json_type_object, let table = json_object_get_object(node) {
      var entry = lh_table_head(table)
      while let current = entry {
        let key = lh_entry_k(current)!.assumingMemoryBound(to: CChar.self)
        let value = Optional(OpaquePointer(lh_entry_v(current)))
        if Self.startsAndIs(key, first) {
          found.nodes.0 = value
        } else if Self.startsAndIs(key, second) {
          found.nodes.1 = value
        } else if Self.startsAndIs(key, third) {
          found.nodes.2 = value
        } else if Self.startsAndIs(key, fourth) {
          found.nodes.3 = value
        }
        entry = lh_entry_next(current)
      }
    }
    return try withExtendedLifetime(self) { try body(found) }
  }

  /// The members `withMembers` found (by position: 0 for its `first` name … 3 for its `fourth`), in place in their
  /// object: valid only during `body`'s call, which is all a non-copyable value lent to it can be used for.
  package struct Members: ~Copyable {
    /// The tree's owner, not retained: the object `withMembers` was called on keeps it alive during `body`.
    fileprivate unowned(unsafe) let owner: JSONOwner?
    /// Each member's json-c object: nil when absent, `.some(nil)` for a member whose value is `null`.
    fileprivate var nodes: (OpaquePointer??, OpaquePointer??, OpaquePointer??, OpaquePointer??) = (nil, nil, nil, nil)

    fileprivate init(owner: JSONOwner?) {
      self.owner = owner
    }

    private func node(_ position: Int) -> OpaquePointer?? {
      switch position {
      case 0: nodes.0
      case 1: nodes.1
      case 2: nodes.2
      default: nodes.3
      }
    }

    /// The member at `position` looked at in place (no owner: never let it out of the call that reads it).
    private func peek(_ position: Int) -> JSON? { node(position).map { JSON(owner: nil, node: $0) } }

    /// Whether the member at `position` is present (with any value, `null` too).
    package func has(_ position: Int) -> Bool { node(position) != nil }

    /// The kind of the member at `position`; nil when it is absent.
    package func kind(_ position: Int) -> JSON.Kind? { peek(position)?.kind }

    /// Whether the member at `position` is a string whose text is exactly `text`.
    package func isString(_ position: Int, _ text: StaticString) -> Bool { peek(position)?.isString(text) ?? false }

    /// Calls `body` with the UTF-8 bytes of the member at `position` when it is a string (borrowed, valid only during
    /// the call); nil without calling it otherwise.
    package func withUTF8<R>(_ position: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R? {
      try peek(position)?.withUTF8(body)
    }

    /// The member at `position` as a value to keep (it keeps the tree alive); nil when it is absent.
    package func value(_ position: Int) -> JSON? { node(position).map { JSON(owner: owner, node: $0) } }
  }

  /// Calls `body` with each member's key, borrowed from json-c as a C string (valid only during the call), and its
  /// value, in document order; does nothing for other kinds. For reading a few known members in one pass: no String is
  /// made per key and no key is hashed (what a `member(_:)` lookup per name costs).
  package func forEachMemberKey(_ body: (UnsafePointer<CChar>, JSON) throws -> Void) rethrows {
    guard json_object_get_type(node) == json_type_object, let table = json_object_get_object(node) else { return }
    // The object's hash table walked in insertion order with linkhash.h's inline accessors (json_object_iter_* costs
    // a library call per step).
    var entry = lh_table_head(table)
    while let current = entry {
      let key = lh_entry_k(current)!.assumingMemoryBound(to: CChar.self)
      try body(key, JSON(owner: owner, node: OpaquePointer(lh_entry_v(current))))
      entry = lh_entry_next(current)
    }
  }

  /// Calls `body` for every member of an object in document order; does nothing for other kinds.
  package func forEachMember(_ body: (String, JSON) throws -> Void) rethrows {
    try forEachMemberKey { key, value in try body(String(cString: key), value) }
  }

  /// `isKey`, with the first bytes compared before the call (most keys differ there).
  @inline(__always)
  private static func startsAndIs(_ key: UnsafePointer<CChar>, _ name: StaticString) -> Bool {
    UInt8(bitPattern: key[0]) == name.utf8Start[0] && isKey(key, name)
  }

  /// Whether the C string `key` (from `forEachMemberKey`) is exactly `name`.
  package static func isKey(_ key: UnsafePointer<CChar>, _ name: StaticString) -> Bool {
    name.utf8Start.withMemoryRebound(to: CChar.self, capacity: name.utf8CodeUnitCount + 1) { strcmp(key, $0) == 0 }
  }
}

/// Owns one reference to a json-c object and releases it when the last `JSON` using it goes away.
final class JSONOwner {
  let object: OpaquePointer

  init(adopting object: OpaquePointer) {
    self.object = object
  }

  deinit {
    json_object_put(object)
  }
}
