// The timeline as data (Scene.timelineAnimations, Transition.timeline): what each call adds, its place on the
// timeline, the creating block, the state at a time, the revision that tells a client to refresh. Expected values are
// the ones each test writes into its own calls.
import TestSupport
import Testing

@testable import TransitionEngine

@Suite struct TimelineTests {
  @Test func aBlockWithADelayListsEachPropertyItAnimates() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    h.scene.animate(duration: 2, delay: 0.5, timing: .curve(.linear)) {
      v.alpha = 0
      v.position = Point(x: 105, y: 5)
    } completion: { _ in
    }
    let list = h.scene.timelineAnimations(at: 0)
    #expect(list.map(\.property) == ["alpha", "center"])
    #expect(list.map(\.index) == [0, 1])
    #expect(list[0].from == .number(1) && list[0].to == .number(0))
    #expect(list[1].from == .point(Point(x: 5, y: 5)) && list[1].to == .point(Point(x: 105, y: 5)))
    for a in list {
      #expect(a.begin == 0.5 && a.duration == 2 && a.end == 2.5)
      #expect(a.timing == .curve(.linear))
      #expect(a.source == TimelineSource(kind: .block, block: 0, parent: nil, depth: 0, delay: 0.5, completion: true))
      #expect(a.state == .pending)
    }
    #expect(h.scene.timelineAnimations(at: 1).allSatisfy { $0.state == .running })
    #expect(h.scene.timelineAnimations(at: 2.5).allSatisfy { $0.state == .finished })
  }

  @Test func aSecondWriteInTheSameBlockIsOneAnimationToTheLastValue() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    h.scene.animate(duration: 1) {
      v.alpha = 0.5
      v.alpha = 0.25
    }
    let list = h.scene.timelineAnimations(at: 0)
    #expect(list.count == 1)
    #expect(list.first?.to == .number(0.25))
    #expect(list.first?.timing == .curve(.easeInOut))
    #expect(list.first?.source.completion == false)
  }

  @Test func aCompletionsBlockAppearsWhenItRunsWithItsParent() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    h.scene.animate(duration: 0.3, timing: .curve(.linear)) {
      v.alpha = 0.5
    } completion: { _ in
      h.scene.animate(duration: 0.2, delay: 0.1, timing: .curve(.easeIn)) { v.alpha = 0 }
    }
    let revision = h.scene.timelineRevision
    #expect(h.scene.timelineAnimations(at: 0).count == 1)
    h.scene.advance(to: 0.35)
    #expect(h.scene.timelineRevision > revision)
    let list = h.scene.timelineAnimations(at: 0.35)
    #expect(list.count == 2)
    let chained = list[1]
    // Started at the first block's end (0.3), after its own delay of 0.1.
    #expect(chained.begin == 0.3 + 0.1 && abs(chained.end - 0.6) < 1e-12)
    #expect(chained.from == .number(0.5) && chained.to == .number(0))
    #expect(chained.source.parent == 0 && chained.source.depth == 1 && chained.source.block == 1)
    #expect(chained.state == .pending)
    #expect(list[0].state == .finished)
  }

  @Test func aNestedBlockNamesTheEnclosingBlock() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    h.scene.animate(duration: 1) {
      v.alpha = 0
      h.scene.animate(duration: 0.5, timing: .curve(.linear)) { v.cornerRadius = 8 }
    }
    let list = h.scene.timelineAnimations(at: 0)
    // Creation order: the outer block's alpha was written first.
    #expect(list.map(\.property) == ["alpha", "cornerRadius"])
    #expect(list[1].source.parent == 0 && list[1].source.depth == 1)
    #expect(list[1].timing == .curve(.linear) && list[1].duration == 0.5)
  }

  @Test func aReplacedAnimationIsRemovedFromTheReplacementsTimeOn() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    h.scene.animate(duration: 1) { v.alpha = 0 }
    h.scene.advance(to: 0.4)
    let revision = h.scene.timelineRevision
    h.scene.animate(duration: 1) { v.alpha = 1 }
    #expect(h.scene.timelineRevision > revision)
    let list = h.scene.timelineAnimations(at: 0.4)
    #expect(list.map(\.state) == [.removed, .running])
    #expect(list[1].begin == 0.4)
  }

  @Test func springAndKeyframeBlocksListTheirTiming() {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    let spring = Spring(mass: 1, stiffness: 200, damping: 20)
    h.scene.animate(duration: 1, timing: .spring(spring)) { v.position = Point(x: 50, y: 5) }
    h.scene.animateKeyframes(duration: 2, timing: .curve(.linear), mode: .discrete) {
      h.scene.addKeyframe(relativeStart: 0, relativeDuration: 0.5) { v.alpha = 0.5 }
      h.scene.addKeyframe(relativeStart: 0.5, relativeDuration: 0.5) { v.alpha = 0 }
    }
    let list = h.scene.timelineAnimations(at: 0)
    #expect(list.count == 2)
    #expect(list[0].source.kind == .springBlock)
    #expect(list[0].timing == .spring(spring))
    // A mass/stiffness spring lasts its settling duration, not the block's.
    #expect(list[0].duration == spring.settlingDuration)
    #expect(list[1].source.kind == .keyframeBlock)
    guard case .keyframes(let k) = list[1].timing else {
      Issue.record("no keyframes")
      return
    }
    #expect(k.keyTimes == [0, 0.5, 1])
    #expect(k.values == [.number(1), .number(0.5), .number(0)])
    #expect(k.calculationMode == .discrete)
    #expect(k.curve == .linear)
  }

  @Test func explicitAnimationsListTheirKeyMediaTimingAndRemoval() throws {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    var fade = ExplicitAnimation.basic("opacity", from: .number(0), to: .number(1))
    fade.timing.duration = 2
    fade.timing.repeatCount = 2
    fade.timing.autoreverses = true
    fade.timing.beginTime = 0.5
    v.add(fade, forKey: "fade")
    var grow = ExplicitAnimation.basic("bounds.size.width", by: .number(10))
    grow.timing.duration = 1
    grow.timingFunction = .easeOut
    v.add(grow, forKey: "grow")
    var list = h.scene.timelineAnimations(at: 0)
    #expect(list.count == 2)
    // beginTime 0.5, two autoreversing cycles of 2 s: active for 8 s.
    #expect(list[0].property == "opacity" && list[0].begin == 0.5 && list[0].duration == 2 && list[0].end == 8.5)
    #expect(list[0].media == TimelineMediaTiming(repeatCount: 2, autoreverses: true))
    #expect(list[0].source.kind == .explicit && list[0].source.key == "fade" && list[0].source.block == nil)
    #expect(list[0].state == .pending)
    // byValue only: from the current width 10 to 10 + 10.
    #expect(list[1].from == .number(10) && list[1].to == .number(20))
    #expect(list[1].timing == .curve(.easeOut))
    #expect(list[1].state == .running)
    let revision = h.scene.timelineRevision
    v.removeAnimation(forKey: "grow")
    #expect(h.scene.timelineRevision > revision)
    list = h.scene.timelineAnimations(at: 0.2)
    #expect(list.map(\.state) == [.pending, .removed])
  }

  @Test func aLayersImplicitActionIsListedAsImplicit() throws {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 100, height: 100))
    let layer = try h.scene.makeLayer(id: "dot")
    v.addSublayer(layer)
    h.scene.advance(to: 1)
    layer.alpha = 0.5
    let list = h.scene.timelineAnimations(at: 1)
    #expect(list.count == 1)
    // Core Animation's default action: 0.25 s with kCAMediaTimingFunctionDefault, from the presented value.
    #expect(list.first?.source.kind == .implicit && list.first?.source.key == "opacity")
    #expect(list.first?.from == .number(1) && list.first?.to == .number(0.5))
    #expect(list.first?.property == "opacity" && list.first?.targetKind == "layer")
    #expect(list.first?.begin == 1 && list.first?.duration == 0.25)
    #expect(list.first?.timing == .curve(.default))
  }

  @Test func aPropertyAnimatorsGroupFollowsItsRun() throws {
    let h = ModelHarness()
    let v = h.view("v", Rect(x: 0, y: 0, width: 10, height: 10))
    let animator = try PropertyAnimator(scene: h.scene, duration: 2, timing: .curve(.linear))
    try animator.addAnimations { v.alpha = 0 }
    animator.addCompletion { _ in }
    #expect(h.scene.timelineAnimations(at: 0).isEmpty)
    try animator.startAnimation(afterDelay: 0.5)
    var list = h.scene.timelineAnimations(at: 0)
    #expect(list.count == 1)
    #expect(list.first?.source.kind == .propertyAnimator && list.first?.source.completion == true)
    #expect(list.first?.begin == 0.5 && list.first?.duration == 2 && list.first?.state == .pending)
    h.scene.advance(to: 3)
    list = h.scene.timelineAnimations(at: 3)
    #expect(list.first?.state == .finished)
  }
}
