import POSIX

/// Identifies a scheduled timer so it can be cancelled.
package struct TimerID: Hashable, Sendable {
  package let rawValue: UInt64
}

/// Timers ordered by deadline: a binary min-heap with lazy cancellation.
///
/// Timers with equal deadlines fire in the order they were scheduled. Pure data: it never reads a clock, so
/// it is tested with made-up instants; `EventLoop` feeds it `CLOCK_MONOTONIC`.
package struct TimerQueue<Action> {
  private struct Entry {
    var deadline: MonotonicInstant
    var id: UInt64

    /// Heap order: earlier deadline first; ids (allocated increasingly) break ties in scheduling order.
    func precedes(_ other: Entry) -> Bool {
      deadline != other.deadline ? deadline < other.deadline : id < other.id
    }
  }

  private var heap: [Entry] = []
  private var actions: [UInt64: Action] = [:]
  private var nextID: UInt64 = 1

  package init() {}

  /// The number of timers still scheduled (cancelled and fired ones excluded).
  package var count: Int { actions.count }

  /// Whether no timer is scheduled.
  package var isEmpty: Bool { actions.isEmpty }

  /// Schedules `action` at `deadline` and returns its id.
  @discardableResult
  package mutating func schedule(at deadline: MonotonicInstant, _ action: Action) -> TimerID {
    let id = nextID
    nextID += 1
    actions[id] = action
    heap.append(Entry(deadline: deadline, id: id))
    siftUp(heap.count - 1)
    return TimerID(rawValue: id)
  }

  /// Cancels a timer; returns false when it already fired or was cancelled (then nothing happens).
  @discardableResult
  package mutating func cancel(_ id: TimerID) -> Bool {
    guard actions.removeValue(forKey: id.rawValue) != nil else { return false }
    // The heap entry stays until it reaches the top; drop it early when the heap is mostly garbage.
    if heap.count > 64 && heap.count > 4 * actions.count { compact() }
    return true
  }

  /// Whether `id` is still scheduled.
  package func contains(_ id: TimerID) -> Bool { actions[id.rawValue] != nil }

  /// The earliest deadline among scheduled timers.
  package mutating func nextDeadline() -> MonotonicInstant? {
    dropCancelledTop()
    return heap.first?.deadline
  }

  /// A mark that separates timers scheduled so far from those scheduled later (see `popDue`).
  package var watermark: TimerID { TimerID(rawValue: nextID) }

  /// Removes and returns the earliest timer whose deadline is at or before `now`, if it was scheduled before
  /// `watermark`.
  ///
  /// Fire timers one at a time (so an action can still cancel a later one) with the watermark taken before the
  /// first: an action that reschedules itself "now" then runs on the loop's next turn instead of spinning.
  package mutating func popDue(now: MonotonicInstant, before watermark: TimerID? = nil) -> (
    id: TimerID, action: Action
  )? {
    dropCancelledTop()
    guard let top = heap.first, top.deadline <= now else { return nil }
    if let watermark, top.id >= watermark.rawValue { return nil }
    removeTop()
    guard let action = actions.removeValue(forKey: top.id) else { return nil }
    return (TimerID(rawValue: top.id), action)
  }

  private mutating func dropCancelledTop() {
    while let top = heap.first, actions[top.id] == nil { removeTop() }
  }

  private mutating func compact() {
    heap.removeAll { actions[$0.id] == nil }
    // Floyd's heap construction.
    var index = heap.count / 2 - 1
    while index >= 0 {
      siftDown(index)
      index -= 1
    }
  }

  private mutating func removeTop() {
    let last = heap.removeLast()
    guard !heap.isEmpty else { return }
    heap[0] = last
    siftDown(0)
  }

  private mutating func siftUp(_ start: Int) {
    var child = start
    while child > 0 {
      let parent = (child - 1) / 2
      guard heap[child].precedes(heap[parent]) else { return }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  private mutating func siftDown(_ start: Int) {
    var parent = start
    while true {
      let left = 2 * parent + 1
      guard left < heap.count else { return }
      var best = left
      if left + 1 < heap.count && heap[left + 1].precedes(heap[left]) { best = left + 1 }
      guard heap[best].precedes(heap[parent]) else { return }
      heap.swapAt(parent, best)
      parent = best
    }
  }
}
