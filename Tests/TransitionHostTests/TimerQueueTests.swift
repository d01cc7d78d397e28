import POSIX
import Testing

@testable import TransitionHost

@Suite struct TimerQueueTests {
  private func at(_ ms: Int64) -> MonotonicInstant { MonotonicInstant(nanoseconds: ms * 1_000_000) }

  private func drain(_ queue: inout TimerQueue<String>, now: MonotonicInstant) -> [String] {
    var fired: [String] = []
    while let (_, name) = queue.popDue(now: now) { fired.append(name) }
    return fired
  }

  @Test func firesInDeadlineOrderRegardlessOfSchedulingOrder() {
    var queue = TimerQueue<String>()
    for (name, ms) in [("c", 30), ("a", 10), ("e", 50), ("b", 20), ("d", 40)] {
      queue.schedule(at: at(Int64(ms)), name)
    }
    let value1 = queue.nextDeadline()
    #expect(value1 == at(10))
    #expect(drain(&queue, now: at(35)) == ["a", "b", "c"])
    #expect(queue.count == 2)
    let value2 = queue.nextDeadline()
    #expect(value2 == at(40))
    #expect(drain(&queue, now: at(100)) == ["d", "e"])
    #expect(queue.isEmpty)
    let value3 = queue.nextDeadline()
    #expect(value3 == nil)
  }

  @Test func equalDeadlinesFireInSchedulingOrder() {
    var queue = TimerQueue<String>()
    let names = (0..<20).map { "t\($0)" }
    for name in names { queue.schedule(at: at(5), name) }
    #expect(drain(&queue, now: at(5)) == names)
  }

  @Test func aTimerIsDueExactlyAtItsDeadlineNotBefore() {
    var queue = TimerQueue<String>()
    queue.schedule(at: MonotonicInstant(nanoseconds: 1_000), "x")
    let early = queue.popDue(now: MonotonicInstant(nanoseconds: 999))
    #expect(early == nil)
    let onTime = queue.popDue(now: MonotonicInstant(nanoseconds: 1_000))
    #expect(onTime?.action == "x")
  }

  @Test func cancelledTimersNeverFireAndCancelIsIdempotent() {
    var queue = TimerQueue<String>()
    let a = queue.schedule(at: at(1), "a")
    let b = queue.schedule(at: at(2), "b")
    let c = queue.schedule(at: at(3), "c")
    let cancelledA = queue.cancel(a)
    let cancelledAAgain = queue.cancel(a)
    let cancelledC = queue.cancel(c)
    #expect(cancelledA && !cancelledAAgain && cancelledC)
    #expect(queue.count == 1)
    #expect(queue.contains(b) && !queue.contains(a))
    let value6 = queue.nextDeadline()
    #expect(value6 == at(2))
    #expect(drain(&queue, now: at(10)) == ["b"])
    let cancelledB = queue.cancel(b)
    #expect(!cancelledB, "cancelling a fired timer does nothing")
  }

  @Test func manyCancellationsKeepTheRestInOrder() {
    var queue = TimerQueue<Int>()
    var ids: [TimerID] = []
    // Deadlines in a scrambled order: 37·i mod 1000 visits every value once (gcd(37, 1000) = 1).
    for i in 0..<1000 { ids.append(queue.schedule(at: at(Int64(37 * i % 1000)), 37 * i % 1000)) }
    for (i, id) in ids.enumerated() where (37 * i % 1000) % 3 != 0 { queue.cancel(id) }
    var fired: [Int] = []
    while let (_, value) = queue.popDue(now: at(5000)) { fired.append(value) }
    #expect(fired == Array(stride(from: 0, to: 1000, by: 3)))
  }

  @Test func theWatermarkHoldsBackTimersScheduledWhileFiring() {
    var queue = TimerQueue<String>()
    queue.schedule(at: at(1), "old")
    let mark = queue.watermark
    queue.schedule(at: at(0), "new")  // earlier deadline, but scheduled after the mark
    let held = queue.popDue(now: at(10), before: mark)
    #expect(held == nil, "the new timer is at the top and must wait")
    let newer = queue.popDue(now: at(10))
    #expect(newer?.action == "new")
    let older = queue.popDue(now: at(10), before: mark)
    #expect(older?.action == "old")
  }
}
