// Support for the tests of the built-in animators written in C (flip, segue-slide): the seeds' two-screen scene and
// reference matrices written here from the references' own numbers (never the engine's matrix code). The plugin
// folder, registry, curves and springs are TestSupport's.

import CTransitionABI
import PluginHost
import TestSupport
import TransitionEngine

#if canImport(Glibc)
  import Glibc
#endif

/// Namespace for the C-animator test support (one name, so nothing clashes with other test files of the target).
enum CAnimatorSupport {
  // MARK: - Running a transition

  /// The seeds' screen: an iPhone of 375 × 667 points (MagicMove's storyboard; FlipTransion and SegueTransion use
  /// the full screen the same way).
  static let screen = Size(width: 375, height: 667)

  /// The scene state of one view, to compare before and after a transition.
  struct ViewRecord: Equatable {
    var superview: String?
    var subviews: [String]
    var model: AnimatableValues
    var isHidden: Bool
  }

  /// One transition of a built-in animator on a fresh scene: a `screen`-sized container and the seeds' two
  /// screens, "first" (the presenter / segue source) and "second", each filling the container and holding one
  /// label view ("first-label", "second-label"). The from root is in the container, the to root detached
  /// (as it is before UIKit starts such a transition).
  final class Run {
    let first: View
    let second: View
    let base: PluginTransitionRun
    /// Every view's record and the presentation at time 0, taken before the transition started.
    let recordsBefore: [String: ViewRecord]
    let presentationBefore: [ViewState]

    /// - Parameters:
    ///   - fromFirst: whether "first" is the from root (present, segue) or "second" is (dismiss, unwind).
    ///   - fromFrame: the from root's frame when it does not fill the container.
    init(
      _ registry: PluginRegistry, _ animatorID: String, _ operation: TransitionOperation, fromFirst: Bool,
      fromFrame: Rect? = nil, params: [String: ParameterValue] = [:], options: TransitionOptions = TransitionOptions()
    ) throws {
      let scene = Scene(containerSize: CAnimatorSupport.screen)
      first = try scene.makeView(id: "first")
      second = try scene.makeView(id: "second")
      let bounds = Rect(origin: .zero, size: CAnimatorSupport.screen)
      for (root, label) in [(first, "first-label"), (second, "second-label")] {
        root.frame = bounds
        root.backgroundColor = Color(r: 1, g: 1, b: 1)
        let text = try scene.makeView(id: label)
        text.frame = Rect(x: 20, y: 100, width: 335, height: 44)
        root.addSubview(text)
      }
      if let fromFrame { (fromFirst ? first : second).frame = fromFrame }
      scene.container.addSubview(fromFirst ? first : second)
      recordsBefore = Run.records(of: scene)
      presentationBefore = scene.presentation(at: 0)
      base = try PluginTransitionRun(
        registry, animatorID, scene: scene, from: fromFirst ? first : second, to: fromFirst ? second : first,
        operation: operation, params: params, options: options)
    }

    var scene: Scene { base.scene }
    var transition: Transition { base.transition }
    var outcome: TransitionOutcome? { base.outcome }
    var misbehaviors: [Misbehavior] { base.misbehaviors }

    /// The records of the container, both roots and their labels.
    static func records(of scene: Scene) -> [String: ViewRecord] {
      var result: [String: ViewRecord] = [:]
      for id in [scene.container.id, "first", "second", "first-label", "second-label"] {
        guard let view = scene.view(withID: id) else { continue }
        result[id] = ViewRecord(
          superview: view.superview?.id, subviews: view.subviews.map(\.id), model: view.model, isHidden: view.isHidden)
      }
      return result
    }

    /// Advances the manual clock in frames of `step` seconds until the transition ends (at most `limit` seconds).
    @discardableResult
    func runToEnd(step: Double = 1.0 / 60, limit: Double = 10) throws -> TransitionOutcome? {
      try base.run(step: step, limit: limit)
    }

    /// The presented state of view `id` at timeline time `t` (nil when it is not in the container's tree).
    func state(_ id: String, at t: Double) throws -> ViewState? {
      try base.state(id, at: t)
    }

    /// The ids of the container's subviews, back to front.
    var containerSubviews: [String] { base.containerSubviews }
  }

  // MARK: - Matrices (row vectors, m11…m44 row-major, as CATransform3D)

  /// A 4×4 matrix in m11…m44 order.
  typealias Matrix = [Double]

  static let identity: Matrix = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]

  /// a·b (apply a, then b, to a row vector).
  static func multiply(_ a: Matrix, _ b: Matrix) -> Matrix {
    var r = Matrix(repeating: 0, count: 16)
    for i in 0..<4 {
      for j in 0..<4 {
        var sum = 0.0
        for k in 0..<4 { sum += a[i * 4 + k] * b[k * 4 + j] }
        r[i * 4 + j] = sum
      }
    }
    return r
  }

  /// A chain of matrices applied left to right.
  static func chain(_ matrices: Matrix...) -> Matrix {
    matrices.reduce(identity, multiply)
  }

  /// CATransform3DMakeTranslation(x, y, 0).
  static func translation(_ x: Double, _ y: Double) -> Matrix {
    [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, 0, 1]
  }

  /// CATransform3DMakeRotation(θ, 0, 1, 0): (x, y, z) ↦ (x cos θ + z sin θ, y, −x sin θ + z cos θ).
  static func rotationY(_ theta: Double) -> Matrix {
    [cos(theta), 0, -sin(theta), 0, 0, 1, 0, 0, sin(theta), 0, cos(theta), 0, 0, 0, 0, 1]
  }

  /// The identity with m34 = −1/d.
  static func perspective(_ d: Double) -> Matrix {
    var m = identity
    m[11] = -1 / d
    return m
  }

  /// A layer renders its sublayers flattened into its own plane (only CATransformLayer keeps 3-D): the z a
  /// subview gets there is dropped (third column → (0, 0, 1, 0)).
  static func flattened(_ m: Matrix) -> Matrix {
    var r = m
    r[2] = 0
    r[6] = 0
    r[10] = 1
    r[14] = 0
    return r
  }

  /// The world matrix of a view whose superview is the container (bounds origin 0, anchor at its centre c) with
  /// sublayer transform `sublayer`: flatten(T(−anchor·size)·transform·T(position)·T(−c)·sublayer·T(c))
  /// (reference §11's composition; CONVENTIONS' worldTransform).
  static func worldInContainer(
    size: Size, anchor: Point, transform: Matrix, position: Point, container: Size, sublayer: Matrix
  ) -> Matrix {
    let cx = container.width / 2
    let cy = container.height / 2
    return flattened(
      chain(
        translation(-anchor.x * size.width, -anchor.y * size.height), transform, translation(position.x, position.y),
        translation(-cx, -cy), sublayer, translation(cx, cy)))
  }

  /// Where the corners of a view of `frame` turned by θ about its left edge land on screen, worked out without
  /// matrices: the corner (u, v) moves to X = x₀ + u·cos θ, Y = y₀ + v, Z = −u·sin θ (a turn about the y axis
  /// through the left edge), and the container's perspective m34 = −1/d about its centre c projects it to
  /// c + ((X − cₓ), (Y − c_y)) / w with w = 1 − Z/d.
  static func turnedCorners(frame: Rect, theta: Double, container: Size, perspective d: Double) -> [(Double, Double)] {
    let cx = container.width / 2
    let cy = container.height / 2
    return [(0.0, 0.0), (frame.width, 0), (0, frame.height), (frame.width, frame.height)].map { u, v in
      let x = frame.x + u * cos(theta)
      let y = frame.y + v
      let z = -u * sin(theta)
      let w = 1 - z / d
      return (cx + (x - cx) / w, cy + (y - cy) / w)
    }
  }

  /// The engine's matrix as an array.
  static func matrix(_ t: Transform3D) -> Matrix { t.values }

  /// The largest entry-wise difference.
  static func maxDifference(_ a: Matrix, _ b: Matrix) -> Double {
    zip(a, b).map { abs($0 - $1) }.max() ?? 0
  }

  /// The largest difference of two rects' origin and size components.
  static func maxDifference(_ a: Rect, _ b: Rect) -> Double {
    [a.x - b.x, a.y - b.y, a.width - b.width, a.height - b.height].map(abs).max()!
  }

  /// The axis-aligned box of points.
  static func box(_ points: [(Double, Double)]) -> Rect {
    let xs = points.map(\.0)
    let ys = points.map(\.1)
    return Rect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
  }
}
