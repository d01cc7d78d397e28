/// Ids for handles that cross the C ABI (`th_context`, `th_view`): 64-bit numbers that are never reused,
/// so a handle whose object is gone is told apart from one that never existed.
///
/// Ids start at 1 (0 is the ABI's "none") and grow by one per `insert`; 2^64 of them never run out.
package struct HandleTable<Value> {
  private var values: [UInt64: Value] = [:]
  private var nextID: UInt64 = 1

  package init() {}

  /// What a lookup found.
  package enum Lookup {
    case live(Value)
    /// Issued by this table and removed since.
    case stale
    /// Never issued by this table (including 0).
    case invalid
  }

  /// Stores `value` under a new id.
  package mutating func insert(_ value: Value) -> UInt64 {
    let id = nextID
    nextID += 1
    values[id] = value
    return id
  }

  package func lookup(_ id: UInt64) -> Lookup {
    if let value = values[id] { return .live(value) }
    return id != 0 && id < nextID ? .stale : .invalid
  }

  /// Replaces the value of a live id (no effect on other ids).
  package mutating func replace(_ id: UInt64, with value: Value) {
    if values[id] != nil { values[id] = value }
  }

  /// Removes the value; the id becomes stale forever.
  @discardableResult
  package mutating func remove(_ id: UInt64) -> Value? {
    values.removeValue(forKey: id)
  }

  /// The number of live handles.
  package var count: Int { values.count }
}
