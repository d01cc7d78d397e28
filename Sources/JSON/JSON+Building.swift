internal import CJSONC

#if canImport(Glibc)
  import Glibc
#endif

extension JSON {
  /// A boolean.
  package init(_ value: Bool) {
    self.init(adopting: json_object_new_boolean(value ? 1 : 0))
  }

  /// An integer.
  package init(_ value: Int) {
    self.init(adopting: json_object_new_int64(Int64(value)))
  }

  /// An integer.
  package init(_ value: Int64) {
    self.init(adopting: json_object_new_int64(value))
  }

  /// A double, printed with the shortest digits that read back as the same value (Swift's
  /// `description`: `0.1`, `1e+300`, `-0.0`). Whole values keep their `.0` (`1.0`), so a double stays a
  /// double when the text is parsed again.
  ///
  /// - Precondition: `value` is finite (JSON has no NaN or infinity); check outside input with
  ///   `init?(finite:)`.
  package init(_ value: Double) {
    precondition(value.isFinite, "JSON cannot represent a non-finite number")
    self.init(adopting: value.description.withCString { json_object_new_double_s(value, $0) })
  }

  /// A double, or nil when `value` is NaN or infinite.
  package init?(finite value: Double) {
    guard value.isFinite else { return nil }
    self.init(value)
  }

  /// A string; embedded NULs are kept.
  package init(_ value: String) {
    var value = value
    self.init(adopting: value.withUTF8 { JSON.newString($0) })
  }

  /// An array of `elements`, in order.
  package static func array(_ elements: [JSON]) -> JSON {
    var builder = JSONArrayBuilder(capacity: elements.count)
    for element in elements { builder.append(element) }
    return builder.build()
  }

  /// An object with `members` in the order given; of duplicate keys the last value wins.
  package static func object(_ members: [(String, JSON)]) -> JSON {
    var builder = JSONObjectBuilder()
    for (key, value) in members { builder.set(key, value) }
    return builder.build()
  }

  /// A new json-c string holding `bytes` (NUL-safe).
  static func newString(_ bytes: UnsafeBufferPointer<UInt8>) -> OpaquePointer? {
    precondition(bytes.count < Int(Int32.max), "string too long for json-c")
    if bytes.isEmpty { return json_object_new_string_len("", 0) }
    return bytes.withMemoryRebound(to: CChar.self) { json_object_new_string_len($0.baseAddress, Int32($0.count)) }
  }

  /// Makes the json-c string `object` serialize as `text`, the exact JSON text it was read from (quotes and
  /// escapes included), through json-c's own custom-serializer hook (as `json_object_new_double_s` does for
  /// numbers); json-c frees the copy with the object.
  static func keepSourceText(_ text: UnsafeRawBufferPointer, of object: OpaquePointer?) {
    let copy = text.withMemoryRebound(to: CChar.self) { strndup($0.baseAddress!, $0.count) }
    json_object_set_serializer(object, json_object_userdata_to_json_string, copy, json_object_free_userdata)
  }

  /// One more reference to this value's json-c object, for a container that steals it (nil for null).
  func retainedNode() -> OpaquePointer? {
    json_object_get(node)
  }
}

/// Builds a JSON object member by member without copying (each `set` adds to the json-c object).
///
/// ```swift
/// var builder = JSONObjectBuilder()
/// builder.set("x", JSON(1.5))
/// let point = builder.build()
/// ```
package struct JSONObjectBuilder: ~Copyable {
  private var object: OpaquePointer?

  /// An empty object.
  package init() {
    object = json_object_new_object()
  }

  /// Adds `value` under `key`, replacing an earlier member with that key (which keeps its position).
  /// A key is cut at its first NUL: json-c stores keys as C strings.
  package mutating func set(_ key: String, _ value: JSON) {
    // withCString: the implicit conversion would copy a small key onto the heap.
    _ = key.withCString { json_object_object_add(object, $0, value.retainedNode()) }
  }

  /// Adds `value` under a key known not to be present yet (skips the lookup; the literal is not copied).
  ///
  /// - Precondition: no member named `key` was added before.
  package mutating func setNew(_ key: StaticString, _ value: JSON) {
    addNew(key, value.retainedNode())
  }

  /// Adds `number` under a new key as `JSON.number(_:)` prints it (whole values within ±2^53 as integers, others
  /// with their shortest round-trip digits, NaN and infinity as `null`), formatted without a String.
  ///
  /// - Precondition: no member named `key` was added before.
  package mutating func setNew(_ key: StaticString, number: Double) {
    addNew(key, NumberText.newObject(number))
  }

  /// Adds an integer under a new key.
  ///
  /// - Precondition: no member named `key` was added before.
  package mutating func setNew(_ key: StaticString, integer: Int) {
    addNew(key, json_object_new_int64(Int64(integer)))
  }

  /// Adds a string under a new key; embedded NULs are kept.
  ///
  /// - Precondition: no member named `key` was added before.
  package mutating func setNew(_ key: StaticString, string: String) {
    var string = string
    addNew(key, string.withUTF8 { JSON.newString($0) })
  }

  /// Adds a boolean under a new key.
  ///
  /// - Precondition: no member named `key` was added before.
  package mutating func setNew(_ key: StaticString, bool: Bool) {
    addNew(key, json_object_new_boolean(bool ? 1 : 0))
  }

  /// Adds `null` under a new key.
  ///
  /// - Precondition: no member named `key` was added before.
  package mutating func setNewNull(_ key: StaticString) {
    addNew(key, nil)
  }

  /// Adds the object `member` is building under a new key (moved in, not copied).
  ///
  /// - Precondition: no member named `key` was added before.
  package mutating func setNew(_ key: StaticString, _ member: consuming JSONObjectBuilder) {
    addNew(key, member.take())
  }

  /// Adds the array `member` is building under a new key (moved in, not copied).
  ///
  /// - Precondition: no member named `key` was added before.
  package mutating func setNew(_ key: StaticString, _ member: consuming JSONArrayBuilder) {
    addNew(key, member.take())
  }

  /// Adds `value` (one reference, which the object takes) under the new `key`.
  private mutating func addNew(_ key: StaticString, _ value: OpaquePointer?) {
    // A duplicate would be written twice: json-c skips its own lookup for a key said to be new.
    assert(!hasMember(key), "\(key) was added before")
    // A literal's text is immortal and NUL-terminated, so json-c may keep the pointer instead of a copy.
    guard key.hasPointerRepresentation else {
      json_object_object_add_ex(object, key.description, value, UInt32(JSON_C_OBJECT_ADD_KEY_IS_NEW))
      return
    }
    let flags = UInt32(JSON_C_OBJECT_ADD_KEY_IS_NEW | JSON_C_OBJECT_ADD_CONSTANT_KEY)
    key.utf8Start.withMemoryRebound(to: CChar.self, capacity: key.utf8CodeUnitCount + 1) {
      _ = json_object_object_add_ex(object, $0, value, flags)
    }
  }

  private func hasMember(_ key: StaticString) -> Bool {
    json_object_object_get_ex(object, key.description, nil) != 0
  }

  /// The number of members so far.
  package var count: Int { Int(json_object_object_length(object)) }

  /// The finished object.
  package consuming func build() -> JSON {
    JSON(adopting: take())
  }

  /// The object's reference, handed over (the builder is left empty).
  consuming func take() -> OpaquePointer? {
    let built = object
    object = nil
    return built
  }

  deinit {
    if let object { json_object_put(object) }
  }
}

/// Builds a JSON array element by element without copying.
package struct JSONArrayBuilder: ~Copyable {
  private var array: OpaquePointer?

  /// An empty array with room for `capacity` elements.
  package init(capacity: Int = 0) {
    array = json_object_new_array_ext(Int32(clamping: max(capacity, 1)))
  }

  /// Appends `element`.
  package mutating func append(_ element: JSON) {
    json_object_array_add(array, element.retainedNode())
  }

  /// Appends `number` as `JSON.number(_:)` prints it (whole values within ±2^53 as integers, others with their
  /// shortest round-trip digits, NaN and infinity as `null`), formatted without a String.
  package mutating func append(number: Double) {
    json_object_array_add(array, NumberText.newObject(number))
  }

  /// Appends a string; embedded NULs are kept.
  package mutating func append(string: String) {
    var string = string
    json_object_array_add(array, string.withUTF8 { JSON.newString($0) })
  }

  /// Appends the object `element` is building (moved in, not copied).
  package mutating func append(_ element: consuming JSONObjectBuilder) {
    json_object_array_add(array, element.take())
  }

  /// Appends the array `element` is building (moved in, not copied).
  package mutating func append(_ element: consuming JSONArrayBuilder) {
    json_object_array_add(array, element.take())
  }

  /// The number of elements so far.
  package var count: Int { Int(json_object_array_length(array)) }

  /// The finished array.
  package consuming func build() -> JSON {
    JSON(adopting: take())
  }

  /// The array's reference, handed over (the builder is left empty).
  consuming func take() -> OpaquePointer? {
    let built = array
    array = nil
    return built
  }

  deinit {
    if let array { json_object_put(array) }
  }
}

extension JSON: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
  ExpressibleByDictionaryLiteral
{
  package init(nilLiteral: ()) { self = .null }
  package init(booleanLiteral value: Bool) { self.init(value) }
  package init(integerLiteral value: Int64) { self.init(value) }
  package init(floatLiteral value: Double) { self.init(value) }
  package init(stringLiteral value: String) { self.init(value) }
  package init(arrayLiteral elements: JSON...) { self = .array(elements) }
  /// Members in the order written.
  package init(dictionaryLiteral elements: (String, JSON)...) { self = .object(elements) }
}
