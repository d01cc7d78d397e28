// Gesture recognizers, with UIKit's names: the host has no touches, so a client sends a pan's samples
// (`transition/gesture`) and the SDK plays UIKit's part — hit-testing a began sample, handing it and every later
// one to the recognizer that took it, and calling that recognizer's target–action pairs through
// `Selector.send(to:from:)`.

internal import CTransitionABI

/// UIEvent: the event a touch belongs to. The host delivers no events of its own; hit-testing passes nil, as UIKit
/// code may.
open class UIEvent: NSObject {}

/// UIRectEdge, with UIKit's raw values.
public struct UIRectEdge: OptionSet, Hashable, Sendable {
  public let rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }

  public static let top = UIRectEdge(rawValue: 1 << 0)
  public static let left = UIRectEdge(rawValue: 1 << 1)
  public static let bottom = UIRectEdge(rawValue: 1 << 2)
  public static let right = UIRectEdge(rawValue: 1 << 3)
  public static let all: UIRectEdge = [.top, .left, .bottom, .right]
}

/// UIGestureRecognizerDelegate (every method optional, as in UIKit).
public protocol UIGestureRecognizerDelegate: AnyObject {
  /// Whether the recognizer may begin with the touch it was given; false lets the next recognizer have it.
  func gestureRecognizerShouldBegin(_ gestureRecognizer: UIGestureRecognizer) -> Bool
}

extension UIGestureRecognizerDelegate {
  public func gestureRecognizerShouldBegin(_ gestureRecognizer: UIGestureRecognizer) -> Bool { true }
}

/// UIGestureRecognizer: a recognizer attached to a view (`addGestureRecognizer(_:)`), with target–action pairs.
///
/// One recognizer receives a touch: of the enabled recognizers on the view a began sample hits and on its
/// superviews, the nearest to the hit view (on one view, the first added) that agrees to begin — UIKit's rule when
/// no delegate allows simultaneous recognition. It keeps every later sample until the gesture ends or is cancelled.
open class UIGestureRecognizer: NSObject {
  /// UIGestureRecognizer.State, with UIKit's raw values.
  public enum State: Int, Sendable {
    case possible = 0
    case began = 1
    case changed = 2
    case ended = 3
    case cancelled = 4
    case failed = 5

    /// A discrete gesture's end: the same value as `ended`.
    public static var recognized: State { .ended }
  }

  /// One target–action pair. UIKit does not retain targets; neither does the SDK.
  private struct Action {
    weak var target: AnyObject?
    let selector: Selector
  }

  private var actions: [Action] = []
  /// The recognizer's state: `began`, `changed`, `ended` or `cancelled` while its actions run, `possible` between
  /// gestures.
  public internal(set) var state: State = .possible
  /// A disabled recognizer receives no touches (a gesture in progress is cancelled when it is disabled).
  public var isEnabled = true {
    didSet {
      if !isEnabled, oldValue, state == .began || state == .changed { deliver(.cancelled) }
    }
  }
  /// The view it is attached to.
  public internal(set) weak var view: UIView?
  public weak var delegate: (any UIGestureRecognizerDelegate)?
  /// Kept for UIKit source (the host has no touches to cancel or delay).
  public var cancelsTouchesInView = true
  public var delaysTouchesBegan = false
  public var delaysTouchesEnded = true
  /// A name for debugging.
  public var name: String?

  /// The latest sample, in container coordinates (nil between gestures).
  var sample: (location: CGPoint, translation: CGPoint, velocity: CGPoint)?

  /// A recognizer that sends `action` to `target` (both may be nil: add pairs later with `addTarget`).
  public init(target: Any?, action: Selector?) {
    super.init()
    if let target, let action { addTarget(target, action: action) }
  }

  public convenience override init() {
    self.init(target: nil, action: nil)
  }

  /// Adds a target–action pair (a pair already there is not added twice).
  public func addTarget(_ target: Any, action: Selector) {
    let object = target as AnyObject
    guard !actions.contains(where: { $0.target === object && $0.selector == action }) else { return }
    actions.append(Action(target: object, selector: action))
  }

  /// Removes the pairs that match (nil matches every target, or every action).
  public func removeTarget(_ target: Any?, action: Selector?) {
    let object = target.map { $0 as AnyObject }
    actions.removeAll { pair in
      (object == nil || pair.target === object) && (action == nil || pair.selector == action)
    }
  }

  /// The number of touches: 1 while a gesture is in progress, 0 otherwise (the host's gestures are one finger).
  public var numberOfTouches: Int { sample == nil ? 0 : 1 }

  /// The touch's location in `view`'s bounds coordinates (nil: the window, which is the container).
  public func location(in view: UIView?) -> CGPoint {
    guard let location = sample?.location else { return .zero }
    return view?.convert(location, from: nil) ?? location
  }

  /// The location of touch `index` (only 0 exists).
  public func location(ofTouch index: Int, in view: UIView?) -> CGPoint {
    location(in: view)
  }

  /// Whether this recognizer takes a touch that begins at `location` (container coordinates): the delegate's
  /// `gestureRecognizerShouldBegin`; a screen-edge pan also needs the touch at one of its edges.
  func shouldBegin(at location: CGPoint) -> Bool {
    delegate?.gestureRecognizerShouldBegin(self) ?? true
  }

  /// Moves the recognizer to `state` with the current sample and sends its actions; after an end or a cancel it
  /// returns to `possible`.
  func deliver(_ state: State) {
    self.state = state
    sendActions()
    if state == .ended || state == .cancelled || state == .failed {
      self.state = .possible
      sample = nil
    }
  }

  /// Sends every target–action pair with the recognizer as the sender.
  func sendActions() {
    for pair in actions {
      guard let target = pair.target else { continue }
      if !pair.selector.send(to: target, from: self) {
        let message =
          "TransitionKit: \(type(of: self)) could not send \(pair.selector.name) to \(type(of: target)): "
          + "a selector made from a bare name has no method to call (unrecognized selector); write "
          + "#selector(\(pair.selector.name)) or Selector(\"\(pair.selector.name)\") { target, sender in … }"
        (view?.session ?? Session.current).map { $0.log(TH_LOG_ERROR, message) }
          ?? PluginRuntime.log(TH_LOG_ERROR, message)
      }
    }
  }
}

/// UIPanGestureRecognizer: a one-finger drag, with its translation and velocity.
open class UIPanGestureRecognizer: UIGestureRecognizer {
  public var minimumNumberOfTouches = 1
  public var maximumNumberOfTouches = Int.max
  /// What `setTranslation(_:in:)` added to the client's translation, in container coordinates.
  private var translationOffset = CGPoint.zero

  /// The movement since the gesture began (less what `setTranslation` reset), in `view`'s coordinates (nil: the
  /// window, which is the container).
  public func translation(in view: UIView?) -> CGPoint {
    guard let sample else { return .zero }
    let moved = CGPoint(x: sample.translation.x + translationOffset.x, y: sample.translation.y + translationOffset.y)
    return Self.vector(moved, into: view)
  }

  /// Makes the current translation `translation` (in `view`'s coordinates): later movement adds to it.
  public func setTranslation(_ translation: CGPoint, in view: UIView?) {
    guard let sample else { return }
    let wanted = Self.vector(translation, from: view)
    translationOffset = CGPoint(x: wanted.x - sample.translation.x, y: wanted.y - sample.translation.y)
  }

  /// The velocity in points per second, in `view`'s coordinates (nil: the window).
  public func velocity(in view: UIView?) -> CGPoint {
    guard let sample else { return .zero }
    return Self.vector(sample.velocity, into: view)
  }

  override func deliver(_ state: State) {
    if state == .began { translationOffset = .zero }
    super.deliver(state)
  }

  /// A container vector expressed in `view`'s coordinates (the difference of two converted points, so a view's
  /// rotation or scale applies and its position does not).
  static func vector(_ vector: CGPoint, into view: UIView?) -> CGPoint {
    guard let view else { return vector }
    let origin = view.convert(CGPoint.zero, from: nil)
    let end = view.convert(vector, from: nil)
    return CGPoint(x: end.x - origin.x, y: end.y - origin.y)
  }

  /// A vector in `view`'s coordinates expressed in the container's.
  static func vector(_ vector: CGPoint, from view: UIView?) -> CGPoint {
    guard let view else { return vector }
    let origin = view.convert(CGPoint.zero, to: nil)
    let end = view.convert(vector, to: nil)
    return CGPoint(x: end.x - origin.x, y: end.y - origin.y)
  }
}

/// UIScreenEdgePanGestureRecognizer: a pan that begins only at one of `edges` of the screen (the container).
open class UIScreenEdgePanGestureRecognizer: UIPanGestureRecognizer {
  /// The edges a gesture may begin at (none by default, as in UIKit: set it).
  public var edges: UIRectEdge = []

  /// How far from an edge of the screen a touch may begin, in points. UIKit does not document its margin; 20 points
  /// is the host's choice (about a fingertip).
  public static let edgeMargin: CGFloat = 20

  override func shouldBegin(at location: CGPoint) -> Bool {
    let screen = UIScreen.main.bounds
    let margin = Self.edgeMargin
    let atEdge =
      (edges.contains(.left) && location.x - screen.minX <= margin)
      || (edges.contains(.right) && screen.maxX - location.x <= margin)
      || (edges.contains(.top) && location.y - screen.minY <= margin)
      || (edges.contains(.bottom) && screen.maxY - location.y <= margin)
    return atEdge && super.shouldBegin(at: location)
  }
}

/// UISwipeGestureRecognizer: a discrete recognizer that fires once, with state `.recognized` (`.ended`), when the
/// touch has moved far enough, fast enough and mostly in one of `direction`'s directions; a touch that lifts before
/// that fails without an action. It takes the touch like any recognizer (a began sample hits its view), sees every
/// later sample until the touch ends, and recognizes on the first sample that passes:
/// movement along the direction ≥ `minimumSwipeDistance` points, speed along it ≥ `minimumSwipeSpeed` points per
/// second, and the movement within `maximumSwipeAngle` of the direction. Apple publishes no thresholds ("a slow
/// swipe requires high directional precision but a small distance; a fast swipe requires low directional precision
/// but a large distance"); these are the host's, documented in Protocol.md.
open class UISwipeGestureRecognizer: UIGestureRecognizer {
  /// UISwipeGestureRecognizer.Direction, with UIKit's raw values.
  public struct Direction: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let right = Direction(rawValue: 1 << 0)
    public static let left = Direction(rawValue: 1 << 1)
    public static let up = Direction(rawValue: 1 << 2)
    public static let down = Direction(rawValue: 1 << 3)
  }

  /// The permitted directions (default `.right`, as in UIKit).
  public var direction: Direction = .right
  /// The touches a swipe needs (default 1; the host's gestures are one finger, so only 1 can recognize).
  public var numberOfTouchesRequired = 1

  /// The host's thresholds: 50 points along the direction, 300 points per second along it (hammer.js's published
  /// swipe velocity, 0.3 px/ms), within 30° of it.
  public static let minimumSwipeDistance: CGFloat = 50
  public static let minimumSwipeSpeed: CGFloat = 300
  public static let maximumSwipeAngle: CGFloat = .pi / 6

  /// Whether this touch already recognized (it fires once per touch).
  private var recognizedThisTouch = false

  /// The direction `translation` and `velocity` (the view's coordinates) recognize, if any.
  static func recognizedDirection(
    _ direction: Direction, translation: CGPoint, velocity: CGPoint
  ) -> Direction? {
    let candidates: [(Direction, CGFloat, CGFloat, CGFloat)] = [
      (.right, translation.x, translation.y, velocity.x), (.left, -translation.x, translation.y, -velocity.x),
      (.down, translation.y, translation.x, velocity.y), (.up, -translation.y, translation.x, -velocity.y),
    ]
    for (candidate, along, across, speed) in candidates where direction.contains(candidate) {
      if along >= minimumSwipeDistance, speed >= minimumSwipeSpeed,
        abs(across) * Math.cos(maximumSwipeAngle) <= along * Math.sin(maximumSwipeAngle)
      {
        return candidate
      }
    }
    return nil
  }

  override func deliver(_ state: State) {
    switch state {
    case .began, .changed, .ended:
      if state == .began { recognizedThisTouch = false }
      if !recognizedThisTouch, numberOfTouchesRequired == 1, let sample {
        let moved = UIPanGestureRecognizer.vector(sample.translation, into: view)
        let speed = UIPanGestureRecognizer.vector(sample.velocity, into: view)
        if Self.recognizedDirection(direction, translation: moved, velocity: speed) != nil {
          recognizedThisTouch = true
          self.state = .recognized
          sendActions()
        }
      }
      // A discrete recognizer is `possible` until it recognizes, and `possible` again after.
      self.state = .possible
      if state == .ended { sample = nil }
    case .cancelled, .failed, .possible:
      self.state = .possible
      sample = nil
    }
  }
}

extension UIView {
  /// The recognizers attached to the view (nil when none, as in UIKit); setting it replaces them.
  public var gestureRecognizers: [UIGestureRecognizer]? {
    get { attachedRecognizers.isEmpty ? nil : attachedRecognizers }
    set {
      for recognizer in attachedRecognizers { recognizer.view = nil }
      attachedRecognizers = []
      for recognizer in newValue ?? [] { addGestureRecognizer(recognizer) }
    }
  }

  /// Attaches `gestureRecognizer` (moving it from the view it was on).
  public func addGestureRecognizer(_ gestureRecognizer: UIGestureRecognizer) {
    if let previous = gestureRecognizer.view { previous.removeGestureRecognizer(gestureRecognizer) }
    attachedRecognizers.append(gestureRecognizer)
    gestureRecognizer.view = self
  }

  /// Detaches `gestureRecognizer` (nothing when it is not on this view).
  public func removeGestureRecognizer(_ gestureRecognizer: UIGestureRecognizer) {
    guard let index = attachedRecognizers.firstIndex(where: { $0 === gestureRecognizer }) else { return }
    attachedRecognizers.remove(at: index)
    gestureRecognizer.view = nil
  }

  /// UIKit's hit-testing: the deepest visible, interactive descendant (this view included) whose bounds contain
  /// `point` (in this view's coordinates), front to back; nil when this view is hidden, has alpha < 0.01, has user
  /// interaction disabled or does not contain the point (a subview outside its superview's bounds is not found).
  public func hitTest(_ point: CGPoint, with event: UIEvent?) -> UIView? {
    guard isUserInteractionEnabled, !isHidden, alpha >= 0.01, self.point(inside: point, with: event) else { return nil }
    for subview in subviews.reversed() {
      if let hit = subview.hitTest(subview.convert(point, from: self), with: event) { return hit }
    }
    return self
  }

  /// Whether `point` (this view's coordinates) is inside the bounds.
  public func point(inside point: CGPoint, with event: UIEvent?) -> Bool {
    bounds.contains(point)
  }
}
