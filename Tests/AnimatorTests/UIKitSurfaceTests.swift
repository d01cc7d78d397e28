// The UIKit face of the SDK, driven through the TestPluginUIKitSurface fixture (Tests/Fixtures/UIKitSurface), loaded
// with dlopen as a real plugin is: plugin declarations (a bare animator, transitioning and navigation delegates,
// the native style beside them) and UIKit's names with their behaviour. Expected geometry is worked out here by hand
// (linear blocks, so each value is a straight line in time).

import PluginHost
import TestSupport
import Testing
import TransitionEngine

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct UIKitSurfaceTests {
  static let pluginID = "com.example.test.uikitsurface"

  /// One transition of fixture animator `id` in a 400 × 800 container, with `from` on screen (and `below` under it:
  /// a presenter's view a presentation kept) and `to` off screen; started on creation.
  final class Run {
    let log = LogCapture()
    let base: PluginTransitionRun

    init(
      _ id: String, _ operation: TransitionOperation,
      from: (String, Rect) = ("from", Rect(x: 0, y: 0, width: 400, height: 800)),
      to: (String, Rect) = ("to", Rect(x: 0, y: 0, width: 400, height: 800)), below: Bool = false
    ) throws {
      let scene = Scene(containerSize: Size(width: 400, height: 800))
      let fromView = try makeView(scene, from.0, from.1)
      let toView = try makeView(scene, to.0, to.1)
      if below { scene.container.addSubview(toView) }
      scene.container.addSubview(fromView)
      let registry = try TestSupport.registry(loadingFixtures: ["UIKitSurface"], log: log)
      base = try PluginTransitionRun(registry, id, scene: scene, from: fromView, to: toView, operation: operation)
      try base.start()
    }

    var scene: Scene { base.scene }
    var transition: Transition { base.transition }
    var misbehaviors: [Misbehavior] { base.misbehaviors }

    /// What the animator wrote with `note(…)`, in order (before the transition exists, the SDK logs with the
    /// plugin's own context, so the source is the plugin alone).
    func notes(_ id: String) -> [String] {
      let sources = [UIKitSurfaceTests.pluginID, "\(UIKitSurfaceTests.pluginID)/\(id)"]
      return log.records.filter { sources.contains($0.source) && $0.message.hasPrefix("note: ") }
        .map { String($0.message.dropFirst(6)) }
    }

    func state(_ id: String, at t: Double) throws -> ViewState {
      try #require(try base.state(id, at: t), "no view \(id) at \(t)")
    }
  }

  @Test func declarationsBecomeAnimatorsWithTheirOperations() throws {
    let registry = try TestSupport.registry(loadingFixtures: ["UIKitSurface"])
    let animators = try #require(registry.plugins.first).info.animators
    #expect(
      animators.map(\.id) == ["bare", "delegate", "silent-delegate", "navigation", "handler-segue", "native"])
    // A segue export without an unwind serves segues alone.
    #expect(
      animators.map(\.operations) == [
        ["present"], ["present", "dismiss"], ["present", "dismiss"], ["push", "pop"], ["segue"], nil,
      ])
    #expect(animators[1].name == "Transitioning delegate")
    // The host refuses what the declaration does not allow (a transitioning delegate serves no push).
    let scene = Scene(containerSize: Size(width: 400, height: 800))
    let from = try makeView(scene, "from", Rect(x: 0, y: 0, width: 400, height: 800))
    let to = try makeView(scene, "to", Rect(x: 0, y: 0, width: 400, height: 800))
    scene.container.addSubview(from)
    #expect(throws: (any Error).self) {
      try PluginTransitionRun(registry, "delegate", scene: scene, from: from, to: to, operation: .push)
    }
  }

  /// A bare NSObject animator: NSObject's equality, hashing and descriptions; UIScreen and UIApplication measure
  /// the container; sqrt/fmax/asin; UIView() and UIView(frame:); isUserInteractionEnabled; tags; UIEdgeInsets;
  /// appearance calls; present and dismiss outside a segue.
  @Test func bareAnimatorSeesUIKitsNames() throws {
    let run = try Run("bare", .present)
    #expect(
      run.notes("bare") == [
        "NSObject a == a true, a == b false, a.isEqual(nil) false, hashes true true",
        "Token(1) == Token(1) true, set 2",
        "descriptions true true Token(3)",
        "screen (0.0, 0.0, 400.0, 800.0), window (0.0, 0.0, 400.0, 800.0), windows 1",
        "window is the container true but its own object true",
        "UIView() frame (0.0, 0.0, 0.0, 0.0) alpha 1.0 hidden false",
        "interaction true",
        "interaction after false true",
        "tags 0 true true",
        "viewWithTag true true",
        "inset (20.0, 10.0, 340.0, 760.0) {10.0, 20.0, 30.0, 40.0} true",
        "navigationController true targetTransform true",
      ])
    // The to view fills the screen inset by sqrt(16) and fmax(2, 3); UIView() went into the key window (the
    // container) at x = 2·asin(1) = π; UIView(frame:) into the to view.
    let to = try run.state("to", at: 0)
    #expect(to.frame == Rect(x: 4, y: 3, width: 392, height: 794))
    let container = run.scene.container.subviews.map(\.id)
    #expect(container.count == 3 && Array(container.prefix(2)) == ["from", "to"])
    let plain = try run.state(container[2], at: 0.25)
    #expect(abs(plain.frame.x - Double.pi) < 1e-12 && plain.frame.size == Size(width: 10, height: 10))
    #expect(abs(plain.alpha - 0.5) < 1e-9)  // linear 1 → 0 over 0.5 s
    let framed = try #require(run.scene.view(withID: "to")?.subviews.first)
    #expect(framed.frame == Rect(x: 1, y: 2, width: 3, height: 4))
    // Appearance calls are recorded at debug level; the second end is unbalanced, and logged as UIKit logs it.
    let source = "\(Self.pluginID)/bare"
    let debug = run.log.records.filter { $0.source == source && $0.level == .debug }.map(\.message)
    #expect(
      debug == [
        "TransitionKit: beginAppearanceTransition(true, animated: true) on <UIViewController: presented (to), view to>",
        "TransitionKit: endAppearanceTransition() on <UIViewController: presented (to), view to> (did appear)",
      ])
    #expect(
      run.log.warnings == [
        "\(source): TransitionKit: Unbalanced calls to begin/end appearance transitions for "
          + "<UIViewController: presented (to), view to>",
        "\(source): TransitionKit: present(_:animated:completion:) on <UIViewController: presenting (from), view "
          + "from> outside a segue's perform(): plugin code cannot start transitions; ignored",
        "\(source): TransitionKit: dismiss(animated:completion:) on <UIViewController: presented (to), view to> "
          + "outside a segue's perform(): plugin code cannot start transitions; ignored",
      ])
    #expect(try run.base.run() == .completed)
    #expect(run.misbehaviors.isEmpty)
  }

  /// A transitioning delegate: asked for its presentation controller before the transition (the view controllers
  /// exist, their views not yet), then for the presentation animator; the controller made with UIKit's initializer
  /// has the same view controllers, non-optional; the container's layout pass follows will-begin.
  @Test func transitioningDelegateVendsThePresentation() throws {
    let run = try Run("delegate", .present)
    #expect(
      run.notes("delegate") == [
        "presentationController(forPresented:) view before the transition true",
        "animationController(forPresented:) same presented true, source is presenting true",
        "presentationTransitionWillBegin fullscreen true presented to presenting from",
        "containerViewWillLayoutSubviews",
        "containerViewDidLayoutSubviews",
        "animateTransition",
      ])
    // The final frame is the controller's frameOfPresentedViewInContainerView (0, 100, 400, 700); the view slides
    // up to it from y = 800, linearly over 0.4 s.
    for t in [0, 0.1, 0.2, 0.3, 0.4] {
      expectClose(try run.state("to", at: t).frame, Rect(x: 0, y: 800 - 700 * t / 0.4, width: 400, height: 700), 1e-9)
    }
    #expect(try run.base.run() == .completed)
    #expect(run.scene.container.subviews.map(\.id) == ["from", "to"])
    #expect(run.misbehaviors.isEmpty && run.log.warnings.isEmpty)
  }

  @Test func transitioningDelegateVendsTheDismissal() throws {
    let run = try Run(
      "delegate", .dismiss, from: ("sheet", Rect(x: 0, y: 100, width: 400, height: 700)),
      to: ("base", Rect(x: 0, y: 0, width: 400, height: 800)), below: true)
    #expect(
      run.notes("delegate") == [
        "presentationController(forPresented:) view before the transition true",
        "animationController(forDismissed:) same true",
        "dismissalTransitionWillBegin presented sheet presenting base",
        "containerViewWillLayoutSubviews",
        "containerViewDidLayoutSubviews",
        "animateTransition",
      ])
    for t in [0, 0.1, 0.2, 0.3, 0.4] {
      expectClose(
        try run.state("sheet", at: t).frame, Rect(x: 0, y: 100 + 700 * t / 0.4, width: 400, height: 700), 1e-9)
    }
    #expect(try run.base.run() == .completed)
    #expect(run.scene.container.subviews.map(\.id) == ["base"])
    #expect(run.misbehaviors.isEmpty && run.log.warnings.isEmpty)
  }

  /// A delegate that vends no animator: the transition completes at once, the to view at its final frame, and the
  /// host's log says why.
  @Test func delegateWithoutAnimatorCompletesAtOnce() throws {
    let run = try Run("silent-delegate", .present)
    #expect(try run.base.run() == .completed)
    #expect(run.transition.duration == 0)
    #expect(run.scene.container.subviews.map(\.id) == ["from", "to"])
    #expect(run.scene.view(withID: "to")?.frame == Rect(x: 0, y: 0, width: 400, height: 800))
    let info = run.log.records.filter { $0.level == .info }.map(\.message)
    #expect(
      info == [
        "TransitionKit: the delegate's animationController(forPresented:presenting:source:) returned nil; the "
          + "transition runs without animation"
      ])
    #expect(run.misbehaviors.isEmpty && run.log.warnings.isEmpty)
  }

  /// A navigation-controller delegate: asked with the operation, from and to (the context's own objects) and the
  /// navigation controller whose delegate it is, whose stack and top follow UIKit's during the transition.
  @Test(arguments: [TransitionOperation.push, .pop])
  func navigationDelegateVendsPushAndPop(_ operation: TransitionOperation) throws {
    let run = try Run("navigation", operation)
    let isPush = operation == .push
    #expect(
      run.notes("navigation") == [
        "operation \(isPush ? 1 : 2) delegate true",
        "sides true true stack \(isPush ? ["from", "to"] : ["to"]) top true visible true view true",
      ])
    for t in [0, 0.075, 0.15, 0.225, 0.3] {
      let moving = try run.state(isPush ? "to" : "from", at: t)
      let x = isPush ? 400 - 400 * t / 0.3 : 400 * t / 0.3
      #expect(abs(moving.frame.x - x) < 1e-9 && moving.frame.y == 0, "t = \(t)")
      #expect(try run.state(isPush ? "from" : "to", at: t).frame.x == 0)
    }
    #expect(try run.base.run() == .completed)
    #expect(run.scene.container.subviews.map(\.id) == ["to"])
    #expect(run.misbehaviors.isEmpty && run.log.warnings.isEmpty)
  }

  @Test func nativeAnimatorsKeepWorkingBesideDeclarations() throws {
    let run = try Run("native", .present)
    #expect(try run.base.run() == .completed)
    #expect(run.notes("native") == ["native present"])
  }

  /// A segue made with UIKit's `init(identifier:source:destination:performHandler:)`: its `perform()` runs the
  /// handler with the export's id as identifier, and `present` from it ends the transition, then runs its
  /// completion.
  @Test func segueWithAPerformHandlerPresents() throws {
    let run = try Run("handler-segue", .segue)
    #expect(try run.base.run() == .completed)
    #expect(run.notes("handler-segue") == ["perform handler-segue from → to", "presented"])
    // A segue replaces the source scene.
    #expect(run.scene.container.subviews.map(\.id) == ["to"])
    #expect(run.misbehaviors.isEmpty && run.log.warnings.isEmpty)
  }
}
