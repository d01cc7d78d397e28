// Core Animation's explicit animations as values: CABasicAnimation, CAKeyframeAnimation, CASpringAnimation and
// CAAnimationGroup with their CAMediaTiming, before they are added to a layer (Layer+Animations.swift adds them,
// ExplicitAnimation+Presentation.swift applies them to a sample).

/// A value of an explicit animation (`fromValue`, `toValue`, `byValue`, a keyframe's value): one of the kinds of
/// value the engine's layer properties take. A value of the wrong kind for the key path is reported when the
/// animation is added (`SceneMisuse.animationValueMismatch`).
package enum AnimationValue: Hashable, Sendable {
  case number(Double)
  case point(Point)
  case size(Size)
  case rect(Rect)
  case transform(Transform3D)
  /// A colour; nil = none (CGColor nil).
  case color(Color?)
  /// A path; nil = none (CGPath nil).
  case path(Path?)
}

/// What an animation's `keyPath` names: a property of the layer (`opacity`, `position`, `path`, …), a transform
/// component (`transform.rotation.z`, `sublayerTransform.scale`, …) or a member of a geometric property
/// (`position.x`, `bounds.size`, `bounds.size.width`, `bounds.origin`, `shadowOffset.height`, …).
package enum AnimationKeyPath: Hashable, Sendable {
  case property(PropertyKey)
  /// A component of `transform` (`sublayer` false) or of `sublayerTransform`.
  case transformComponent(TransformKeyPath, sublayer: Bool)
  /// A member of a point, size or rect property.
  case member(PropertyKey, GeometryMember)

  /// The members of a geometric value a key path can name.
  package enum GeometryMember: String, Hashable, Sendable {
    case x, y, width, height
    /// `bounds.size`, `frame.size`: a size.
    case size
    /// `bounds.origin`: a point.
    case origin
  }

  /// Parses Core Animation's key path; nil for one the engine does not animate. `opacity` is the view's `alpha`.
  package init?(_ string: String) {
    if let t = TransformKeyPath(rawValue: string) {
      self = .transformComponent(t, sublayer: false)
      return
    }
    if string.hasPrefix("sublayerTransform.") {
      guard let t = TransformKeyPath(rawValue: "transform." + string.dropFirst("sublayerTransform.".count)) else {
        return nil
      }
      self = .transformComponent(t, sublayer: true)
      return
    }
    switch string {
    case "position.x": self = .member(.position, .x)
    case "position.y": self = .member(.position, .y)
    case "anchorPoint.x": self = .member(.anchorPoint, .x)
    case "anchorPoint.y": self = .member(.anchorPoint, .y)
    case "bounds.size": self = .member(.bounds, .size)
    case "bounds.size.width": self = .member(.bounds, .width)
    case "bounds.size.height": self = .member(.bounds, .height)
    case "bounds.origin": self = .member(.bounds, .origin)
    case "bounds.origin.x": self = .member(.bounds, .x)
    case "bounds.origin.y": self = .member(.bounds, .y)
    case "shadowOffset.width": self = .member(.shadowOffset, .width)
    case "shadowOffset.height": self = .member(.shadowOffset, .height)
    case "opacity": self = .property(.alpha)
    default:
      guard let key = PropertyKey.allCases.first(where: { $0 != .alpha && $0 != .gradient && $0.name == string })
      else { return nil }
      self = .property(key)
    }
  }

  /// The layer property whose presentation the key path changes (what `add(_:forKey:)` orders against blocks).
  package var propertyKey: PropertyKey {
    switch self {
    case .property(let key), .member(let key, _): key
    case .transformComponent(_, let sublayer): sublayer ? .sublayerTransform : .transform
    }
  }

  /// Core Animation's spelling.
  package var name: String {
    switch self {
    case .property(let key): key == .alpha ? "opacity" : key.name
    case .transformComponent(let t, let sublayer): sublayer ? "sublayerTransform." + t.componentName : t.rawValue
    case .member(let key, let member):
      switch (key, member) {
      case (.bounds, .width), (.bounds, .height): "bounds.size.\(member.rawValue)"
      case (.bounds, .x), (.bounds, .y): "bounds.origin.\(member.rawValue)"
      default: "\(key.name).\(member.rawValue)"
      }
    }
  }
}

/// CAMediaTimingFillMode: what an animation shows outside its active duration.
package enum AnimationFillMode: String, Hashable, Sendable, CaseIterable {
  /// Nothing outside the active duration (the default).
  case removed
  /// The start value before the animation begins.
  case backwards
  /// The end value after it ends (while the animation stays on the layer: `isRemovedOnCompletion` false).
  case forwards
  /// Both.
  case both

  var fillsBackwards: Bool { self == .backwards || self == .both }
  var fillsForwards: Bool { self == .forwards || self == .both }
}

/// CAMediaTiming on an animation: how the layer's local time maps to the animation's basic local time.
///
/// Core Animation's model (the CAMediaTiming protocol reference, https://developer.apple.com/reference/quartzcore/
/// camediatiming): parent time → *active local time* t = (t_parent − beginTime) × speed + timeOffset → *basic local
/// time* (repeats of `duration`, each played backwards too when `autoreverses`).
package struct MediaTiming: Hashable, Sendable {
  /// In the layer's local time; 0 when added = "now" (Core Animation sets it to the layer's current time).
  package var beginTime: Double = 0
  /// The basic duration; 0 = the transaction's animation duration (0.25 s by default) when added, for a spring its
  /// settling duration, for a group's child the group's duration.
  package var duration: Double = 0
  package var speed: Double = 1
  /// Added to the active local time (a 5 s animation with timeOffset 2 shows 2 → 5, then 0 → 2).
  package var timeOffset: Double = 0
  /// How many times the basic duration (× 2 when autoreversing) plays; fractional counts end part-way; 0 = once.
  package var repeatCount: Double = 0
  /// How long the repeats last in total (wins over `repeatCount` when > 0).
  package var repeatDuration: Double = 0
  package var autoreverses = false
  package var fillMode: AnimationFillMode = .removed

  package init() {}
}

/// CAAnimationRotationMode: how a path keyframe animation turns the layer along its path.
package enum AnimationRotationMode: String, Hashable, Sendable {
  /// Along the path's tangent (kCAAnimationRotateAuto).
  case auto
  /// Along the tangent plus π (kCAAnimationRotateAutoReverse).
  case autoReverse
}

/// Receives an animation's delegate callbacks (CAAnimationDelegate). Called only when time really advances.
package protocol ExplicitAnimationDelegate: AnyObject {
  /// animationDidStart(_:).
  func animationDidStart()
  /// animationDidStop(_:finished:): finished false when the animation was removed before its end.
  func animationDidStop(finished: Bool)
}

/// One explicit animation, as configured before `add(_:forKey:)` (which copies it, as Core Animation does).
package struct ExplicitAnimation {
  /// What the animation does.
  package enum Kind {
    /// CABasicAnimation: the absent-value rules decide the ends (see `ExplicitAnimation+Presentation.swift`).
    case basic(from: AnimationValue?, to: AnimationValue?, by: AnimationValue?)
    /// CAKeyframeAnimation: `values` (or `path`, which wins, for a point key path) at `keyTimes`.
    case keyframes(KeyframeSpec)
    /// CASpringAnimation: a basic animation whose progress is the spring's closed form in seconds.
    case spring(from: AnimationValue?, to: AnimationValue?, by: AnimationValue?, spring: SpringSpec)
    /// CAAnimationGroup: children timed in the group's basic local time, clipped to its duration.
    case group([ExplicitAnimation])
  }

  /// CAKeyframeAnimation's own members.
  package struct KeyframeSpec {
    package var values: [AnimationValue]?
    package var path: Path?
    package var keyTimes: [Double]?
    package var timingFunctions: [TimingCurve]?
    package var calculationMode: KeyframeCalculationMode = .linear
    package var rotationMode: AnimationRotationMode?
    package init() {}
  }

  /// CASpringAnimation's own members (Core Animation's defaults).
  package struct SpringSpec: Hashable, Sendable {
    package var mass = 1.0
    package var stiffness = 100.0
    package var damping = 10.0
    package var initialVelocity = 0.0
    package var allowsOverdamping = false
    package init() {}

    /// The spring of these parameters lasting `duration` (nil: its settling duration).
    func spring(duration: Double?) -> Spring {
      Spring(
        mass: mass, stiffness: stiffness, damping: damping, initialVelocity: initialVelocity, duration: duration,
        allowsOverdamping: allowsOverdamping)
    }

    /// CASpringAnimation.settlingDuration.
    package var settlingDuration: Double { spring(duration: nil).duration }
  }

  package var kind: Kind
  /// CAPropertyAnimation.keyPath as written (nil for a group, or not set).
  package var keyPath: String?
  package var timing = MediaTiming()
  /// CAAnimation.timingFunction; nil = linear.
  package var timingFunction: TimingCurve?
  package var isRemovedOnCompletion = true
  /// CAPropertyAnimation.isAdditive: the animated value is added to the underlying one.
  package var isAdditive = false
  /// CAAnimation.delegate (retained, as Core Animation retains it).
  package var delegate: (any ExplicitAnimationDelegate)?

  package init(kind: Kind, keyPath: String? = nil) {
    self.kind = kind
    self.keyPath = keyPath
  }

  /// A CABasicAnimation of `keyPath`.
  package static func basic(
    _ keyPath: String, from: AnimationValue? = nil, to: AnimationValue? = nil, by: AnimationValue? = nil
  ) -> ExplicitAnimation {
    ExplicitAnimation(kind: .basic(from: from, to: to, by: by), keyPath: keyPath)
  }
}
