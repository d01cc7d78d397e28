// Core Animation's transform key paths (`transform.rotation.z`, `transform.scale`, `transform.translation.x`, …):
// reading and setting one component of a transform, and animating it — the component is interpolated, not the
// matrix, so a rotation from 0 to 3π/2 turns three quarters of the way round where the matrices' interpolation
// would turn a quarter back.

/// A transform key path of CATransform3D's key-value extensions (scalar ones).
package enum TransformKeyPath: String, CaseIterable, Hashable, Sendable {
  case rotationX = "transform.rotation.x"
  case rotationY = "transform.rotation.y"
  case rotationZ = "transform.rotation.z"
  /// The same as `transform.rotation.z`.
  case rotation = "transform.rotation"
  case scaleX = "transform.scale.x"
  case scaleY = "transform.scale.y"
  case scaleZ = "transform.scale.z"
  /// Reads the average of the three scale factors; sets all three.
  case scale = "transform.scale"
  case translationX = "transform.translation.x"
  case translationY = "transform.translation.y"
  case translationZ = "transform.translation.z"

  /// The key path of a sublayer transform (`sublayerTransform.rotation.z`, …) has the same components; this is
  /// the part after `transform.`.
  package var componentName: String { String(rawValue.dropFirst("transform.".count)) }
}

/// A transform split into the components the key paths name: translation, scale and Euler rotation (about x,
/// then y, then z), plus the skew and perspective that no key path names (kept as they are).
///
/// The transform is taken as the CSS/WebKit 3-D decomposition (`DecomposedTransform3D`) the matrix animations use;
/// its rotation quaternion is expressed as Euler angles with R = Rx(a)·Ry(b)·Rz(c) for row vectors (a point turns
/// about x first). Angles read back lie in (−π, π] (b in [−π/2, π/2]), as the matrix keeps no turn count; a matrix
/// that cannot be decomposed (a zero scale, m44 = 0) reads as its translation with unit scale and no rotation.
package struct TransformComponents: Sendable {
  package var translation: (x: Double, y: Double, z: Double)
  package var scale: (x: Double, y: Double, z: Double)
  package var rotation: (x: Double, y: Double, z: Double)
  var skew: (xy: Double, xz: Double, yz: Double)
  var perspective: (x: Double, y: Double, z: Double, w: Double)

  /// The components of `m`.
  package init(_ m: Transform3D) {
    guard let d = DecomposedTransform3D(m) else {
      translation = (m.m41, m.m42, m.m43)
      scale = (1, 1, 1)
      rotation = (0, 0, 0)
      skew = (0, 0, 0)
      perspective = (0, 0, 0, 1)
      return
    }
    translation = d.translation
    scale = d.scale
    skew = d.skew
    perspective = d.perspective
    let q = d.quaternion
    let (x, y, z, w) = (q.x, q.y, q.z, q.w)
    // The row-vector rotation matrix N of q (as DecomposedTransform3D.recomposed builds it).
    let n11 = 1 - 2 * (y * y + z * z)
    let n12 = 2 * (x * y + z * w)
    let n13 = 2 * (x * z - y * w)
    let n22 = 1 - 2 * (x * x + z * z)
    let n23 = 2 * (y * z + x * w)
    let n32 = 2 * (y * z - x * w)
    let n33 = 1 - 2 * (x * x + y * y)
    // N = Rx(a)·Ry(b)·Rz(c): N13 = −sin b, N12/N11 = tan c, N23/N33 = tan a.
    let b = arcSine(min(max(-n13, -1), 1))
    if abs(n13) < 1 - 1e-12 {
      rotation = (arcTangent2(n23, n33), b, arcTangent2(n12, n11))
    } else {
      // Gimbal lock (b = ±π/2): only a ∓ c is defined; c = 0.
      rotation = (arcTangent2(-n32, n22), b, 0)
    }
  }

  /// The transform these components make: DecomposedTransform3D's recomposition with the Euler rotation.
  package var transform: Transform3D {
    func axis(_ angle: Double, _ ax: Double, _ ay: Double, _ az: Double) -> Quaternion {
      let s = sine(angle / 2)
      return Quaternion(x: ax * s, y: ay * s, z: az * s, w: cosine(angle / 2))
    }
    // Row vectors apply Rx first, so the quaternion is qz·qy·qx (Hamilton product, the right factor acts first).
    let q = axis(rotation.z, 0, 0, 1).multiplied(by: axis(rotation.y, 0, 1, 0)).multiplied(
      by: axis(rotation.x, 1, 0, 0))
    return DecomposedTransform3D(
      translation: translation, scale: scale, skew: skew, perspective: perspective, quaternion: q
    ).recomposed
  }

  /// The value a key path reads.
  package subscript(keyPath: TransformKeyPath) -> Double {
    get {
      switch keyPath {
      case .rotationX: rotation.x
      case .rotationY: rotation.y
      case .rotationZ, .rotation: rotation.z
      case .scaleX: scale.x
      case .scaleY: scale.y
      case .scaleZ: scale.z
      case .scale: (scale.x + scale.y + scale.z) / 3
      case .translationX: translation.x
      case .translationY: translation.y
      case .translationZ: translation.z
      }
    }
    set {
      switch keyPath {
      case .rotationX: rotation.x = newValue
      case .rotationY: rotation.y = newValue
      case .rotationZ, .rotation: rotation.z = newValue
      case .scaleX: scale.x = newValue
      case .scaleY: scale.y = newValue
      case .scaleZ: scale.z = newValue
      case .scale: scale = (newValue, newValue, newValue)
      case .translationX: translation.x = newValue
      case .translationY: translation.y = newValue
      case .translationZ: translation.z = newValue
      }
    }
  }
}

extension Quaternion {
  /// The Hamilton product self·o (the rotation o, then self).
  func multiplied(by o: Quaternion) -> Quaternion {
    Quaternion(
      x: w * o.x + x * o.w + y * o.z - z * o.y,
      y: w * o.y - x * o.z + y * o.w + z * o.x,
      z: w * o.z + x * o.y - y * o.x + z * o.w,
      w: w * o.w - x * o.x - y * o.y - z * o.z)
  }
}

extension Transform3D {
  /// The value of a key path (CALayer's `value(forKeyPath: "transform.rotation.z")`).
  package subscript(keyPath: TransformKeyPath) -> Double {
    TransformComponents(self)[keyPath]
  }

  /// The transform with one component set (`setValue(_:forKeyPath:)`): the components of this transform with the
  /// named one replaced, recomposed.
  package func setting(_ keyPath: TransformKeyPath, to value: Double) -> Transform3D {
    var c = TransformComponents(self)
    c[keyPath] = value
    return c.transform
  }
}

/// An animation of one transform component from `fromValue` to `toValue` over the components of the transform it
/// started from (the other components stay as they were).
package struct TransformComponentAnimation: Sendable {
  /// The transform shown at the start (the components with `fromValue`) and at the end (the model).
  let from: Transform3D
  let to: Transform3D
  let base: TransformComponents
  let keyPath: TransformKeyPath
  let fromValue: Double
  let toValue: Double

  /// The transform at `fraction`: the component at fromValue + (toValue − fromValue)·fraction; exactly `to` at 1.
  func value(at fraction: Double) -> Transform3D {
    if fraction == 1 { return to }
    guard fraction.isFinite else { return to }
    var c = base
    c[keyPath] = lerp(fromValue, toValue, fraction)
    return c.transform
  }
}

extension View {
  /// CALayer's `value(forKeyPath:)` for a transform key path, from the model transform.
  package func transformComponent(_ keyPath: TransformKeyPath) -> Double {
    model.transform[keyPath]
  }

  /// CALayer's `setValue(_:forKeyPath:)` for a transform key path: sets the model transform to its components with
  /// the named one replaced. Inside an animation block this animates `transform` as a matrix, as UIKit does (the
  /// layer's action is keyed by `transform`); `animateTransformComponent` is the component animation.
  package func setTransformComponent(_ keyPath: TransformKeyPath, to value: Double) {
    guard value.isFinite else {
      scene?.report(.invalidValue(viewID: id, property: .transform))
      return
    }
    transform = model.transform.setting(keyPath, to: value)
  }

  /// The animation `CABasicAnimation(keyPath: keyPath)` adds, in the open animation context (its timing, spring or
  /// property animator): the model transform gets the component at `toValue`, and what is presented is the model
  /// transform with the component going from `fromValue` (nil: its value in the presented transform now, Core
  /// Animation's rule for an absent fromValue) to `toValue` along a straight line. Outside an animation context, or inside a keyframe
  /// block (whose keyframes interpolate matrices), it is `setTransformComponent`. A turn whose ends are the same
  /// matrix (0 to 2π) still animates.
  package func animateTransformComponent(_ keyPath: TransformKeyPath, from fromValue: Double? = nil, to toValue: Double)
  {
    guard toValue.isFinite, fromValue?.isFinite ?? true else {
      scene?.report(.invalidValue(viewID: id, property: .transform))
      return
    }
    guard let scene, let ctx = scene.contexts.last, ctx.kind == .basic else {
      setTransformComponent(keyPath, to: toValue)
      return
    }
    let presented = scene.presentedValues(of: self, at: scene.currentTime).transform
    let startValue = fromValue ?? presented[keyPath]
    scene.forcesAnimationRecord = true
    transform = model.transform.setting(keyPath, to: toValue)
    scene.forcesAnimationRecord = false
    guard let i = tracks.transform?.records.lastIndex(where: { $0.block == ctx.block && $0.kind == .basic }) else {
      return
    }
    // The other components are the model's throughout (Core Animation applies the animated component to the
    // model value); only the named one moves.
    let base = TransformComponents(model.transform)
    var start = base
    start[keyPath] = startValue
    let animation = TransformComponentAnimation(
      from: start.transform, to: model.transform, base: base, keyPath: keyPath, fromValue: startValue,
      toValue: toValue)
    tracks.transform!.records[i].from = animation.from
    tracks.transform!.records[i].segment = Transform3DInterpolation(component: animation)
  }
}
