import Testing
import TransitionEngine

@Suite("Math: geometry")
struct MathGeometryTests {
  @Test func edgesOfPositiveAndNegativeRects() {
    let r = Rect(x: 10, y: 20, width: 30, height: 40)
    #expect(r.minX == 10 && r.midX == 25 && r.maxX == 40)
    #expect(r.minY == 20 && r.midY == 40 && r.maxY == 60)
    // A negative size extends left/up from the origin; width/height are reported positive, like CGRect.
    let n = Rect(x: 10, y: 20, width: -4, height: -6)
    #expect(n.minX == 6 && n.maxX == 10 && n.midX == 8)
    #expect(n.minY == 14 && n.maxY == 20 && n.midY == 17)
    #expect(n.width == 4 && n.height == 6)
    #expect(n.size == Size(width: -4, height: -6))
    #expect(n.standardized == Rect(x: 6, y: 14, width: 4, height: 6))
  }

  @Test func insetOffsetAndNull() {
    let r = Rect(x: 0, y: 0, width: 10, height: 10)
    #expect(r.insetBy(dx: 2, dy: 3) == Rect(x: 2, y: 3, width: 6, height: 4))
    #expect(r.insetBy(dx: -1, dy: -2) == Rect(x: -1, y: -2, width: 12, height: 14))
    #expect(r.insetBy(dx: 6, dy: 0).isNull)
    // Inset standardizes first.
    #expect(Rect(x: 10, y: 10, width: -10, height: -10).insetBy(dx: 1, dy: 1) == Rect(x: 1, y: 1, width: 8, height: 8))
    #expect(r.offsetBy(dx: 5, dy: -5) == Rect(x: 5, y: -5, width: 10, height: 10))
    #expect(Rect.null.offsetBy(dx: 1, dy: 1).isNull)
    #expect(Rect.null.isEmpty && Rect.zero.isEmpty && !r.isEmpty)
  }

  @Test func unionAndIntersection() {
    let a = Rect(x: 0, y: 0, width: 1, height: 1)
    let b = Rect(x: 2, y: 3, width: 1, height: 1)
    #expect(a.union(b) == Rect(x: 0, y: 0, width: 3, height: 4))
    #expect(a.union(.null) == a)
    #expect(Rect.null.union(Rect(x: 5, y: 5, width: -1, height: -1)) == Rect(x: 4, y: 4, width: 1, height: 1))
    #expect(a.intersection(b).isNull)
    let c = Rect(x: 0.5, y: 0.25, width: 2, height: 2)
    #expect(a.intersection(c) == Rect(x: 0.5, y: 0.25, width: 0.5, height: 0.75))
    // Touching along an edge: an empty, non-null rectangle.
    let touching = a.intersection(Rect(x: 1, y: 0, width: 1, height: 1))
    #expect(!touching.isNull && touching.width == 0 && touching.height == 1)
  }

  @Test func containsUsesHalfOpenEdges() {
    let r = Rect(x: 0, y: 0, width: 10, height: 10)
    #expect(r.contains(Point(x: 0, y: 0)))
    #expect(!r.contains(Point(x: 10, y: 5)))
    #expect(r.contains(Point(x: 9.999, y: 9.999)))
    #expect(!Rect.null.contains(.zero))
  }

  @Test func equalityAndZero() {
    #expect(Point.zero == Point(x: 0, y: 0))
    #expect(Size.zero == Size(width: 0, height: 0))
    #expect(Rect.zero == Rect(origin: .zero, size: .zero))
    #expect(Rect(x: 1, y: 2, width: 3, height: 4) != Rect(x: 1, y: 2, width: 3, height: 5))
  }
}
