import Testing

@testable import TransitionEngine

/// Clients tick by 1/fps or by 0.1 s: the floating-point sum of their steps misses the end by an ulp or so
/// (8 × 0.1 = 0.7999999999999999). The transition must still end when the client has ticked its whole duration.
@Suite struct TransitionClockToleranceTests {
  /// Animates the to view's alpha over `duration` and completes from the block's completion, as UIKit animators do.
  final class FadeIn: TransitionAnimator {
    let animatorID = "test/fade-in"
    let duration: Double
    init(duration: Double) { self.duration = duration }
    func transitionDuration(_ context: TransitionContext?) -> Double { duration }
    func animateTransition(_ context: TransitionContext) {
      guard let to = context.view(forKey: .to) else { return }
      to.alpha = 0
      context.containerView.addSubview(to)
      context.scene.animate(duration: duration, animations: { to.alpha = 1 }) { _ in
        context.completeTransition(!context.transitionWasCancelled)
      }
    }
    func animationEnded(_ completed: Bool) {}
    var presentationController: (any PresentationControllerBehavior)? { nil }
  }

  @Test(arguments: [(0.8, 0.1, 8), (1.0, 0.1, 10), (0.5, 1.0 / 60, 30), (0.8, 1.0 / 120, 96)])
  func tickingTheWholeDurationEndsTheTransition(duration: Double, step: Double, count: Int) throws {
    var sum = 0.0
    for _ in 0..<count { sum += step }
    #expect(sum < duration, "each case is one where the summed steps fall just short of the duration")
    let scene = Scene(containerSize: Size(width: 100, height: 100))
    let from = try scene.makeView(id: "from")
    let to = try scene.makeView(id: "to")
    from.frame = Rect(x: 0, y: 0, width: 100, height: 100)
    to.frame = Rect(x: 0, y: 0, width: 100, height: 100)
    scene.container.addSubview(from)
    let transition = try Transition(
      scene: scene, from: from, to: to, operation: .present, animator: FadeIn(duration: duration))
    var outcome: TransitionOutcome?
    transition.onEnd = { outcome = $0 }
    try transition.start()
    for _ in 0..<count { try transition.advance(by: step) }
    #expect(outcome == .completed)
    #expect(to.alpha == 1)
  }
}
