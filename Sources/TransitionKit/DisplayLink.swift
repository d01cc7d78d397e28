internal import CTransitionABI

// CADisplayLink on the host's "th.display-link/1" extension (ABI 1.2): the target's action is sent once per frame of
// the transition, through the selector (`#selector` in UIKit source, by the UIKit source bridge). RunLoop stands in
// for Foundation's: the host has one loop, the transition's clock, so every run loop and mode is that one.

/// Seconds, as Core Foundation's CFTimeInterval.
public typealias CFTimeInterval = Double

/// A frame-rate range (CAFrameRateRange): the link runs at `preferred` frames per second, or at `maximum` when
/// `preferred` is nil or 0 (0 for both: every frame).
public struct CAFrameRateRange: Hashable, Sendable {
  public var minimum: Float
  public var maximum: Float
  public var preferred: Float?

  public init(minimum: Float, maximum: Float, preferred: Float? = nil) {
    self.minimum = minimum
    self.maximum = maximum
    self.preferred = preferred
  }

  /// Every frame.
  public static let `default` = CAFrameRateRange(minimum: 0, maximum: 0, preferred: 0)

  /// The rate the host is asked for.
  var rate: Double {
    if let preferred, preferred > 0 { return Double(preferred) }
    return Double(max(maximum, 0))
  }
}

/// Foundation's RunLoop, as far as display links need it: the host has one loop (the transition's clock).
public final class RunLoop: Sendable {
  /// The main run loop.
  public static let main = RunLoop()
  /// The current run loop: the main one (plugin code runs on the host's thread).
  public static var current: RunLoop { main }

  private init() {}

  /// A run loop mode; every mode is the same here.
  public struct Mode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public static let `default` = Mode("kCFRunLoopDefaultMode")
    public static let common = Mode("kCFRunLoopCommonModes")
    public static let tracking = Mode("UITrackingRunLoopMode")
  }
}

/// CADisplayLink: sends `selector` to `target` once per frame of the transition, once added to a run loop.
///
/// Frames are the transition's: each tick or real-time frame (also while an interactive transition is paused),
/// never a sample or a scrub. `timestamp` is the clock time of the frame on screen, `targetTimestamp` that of the
/// frame being prepared, both in seconds since the transition started; what the action changes is in the frame at
/// `targetTimestamp`. The link keeps its target (as UIKit's does) until it is invalidated or the transition ends.
public final class CADisplayLink: NSObject {
  private var target: AnyObject?
  private let selector: Selector
  private weak var session: Session?
  private var block: DisplayLinkBlock?
  private var linkID: UInt64 = 0
  private var table: UnsafePointer<th_host_display_link>?
  private var isInvalidated = false

  /// The clock time of the frame on screen when the action was last sent (0 before the first).
  public private(set) var timestamp: CFTimeInterval = 0
  /// The clock time of the frame the action prepares (0 before the first).
  public private(set) var targetTimestamp: CFTimeInterval = 0
  /// The time between the link's last two frames: `targetTimestamp − timestamp` (0 before the first).
  public private(set) var duration: CFTimeInterval = 0

  /// A link that sends `sel` to `target`; add it to a run loop to start it.
  public init(target: Any, selector sel: Selector) {
    self.target = target as AnyObject
    self.selector = sel
    super.init()
  }

  /// Starts the link (every run loop and mode is the transition's clock; adding twice changes nothing). Call it
  /// during a transition call (`animateTransition`, a completion, another link's action).
  public func add(to runloop: RunLoop, forMode mode: RunLoop.Mode) {
    guard block == nil, !isInvalidated else { return }
    guard let session = Session.current, session.hasContext else {
      TransitionLog.warning("TransitionKit: CADisplayLink.add(to:forMode:) outside a transition; the link never runs")
      return
    }
    guard let getExtension = session.host.function(\.get_extension), let raw = getExtension(TH_EXT_DISPLAY_LINK)
    else {
      session.log(TH_LOG_WARNING, "TransitionKit: the host has no display links (ABI 1.2); the link never runs")
      return
    }
    let table = raw.assumingMemoryBound(to: th_host_display_link.self)
    let end =
      MemoryLayout<th_host_display_link>.offset(of: \.invalidate_display_link)! + MemoryLayout<UnsafeRawPointer?>.size
    guard Int(table.pointee.struct_size) >= end, let add = table.pointee.add_display_link else { return }
    let block = DisplayLinkBlock(session, self)
    var id: UInt64 = 0
    let status = add(session.ctx, rate, displayLinkThunk, block.key, &id)
    guard status == TH_OK else {
      block.refuse()
      session.log(TH_LOG_WARNING, "TransitionKit: CADisplayLink.add failed: \(String(cString: th_status_name(status)))")
      return
    }
    self.session = session
    self.block = block
    self.table = UnsafePointer(table)
    self.linkID = id
    if isPaused { setPaused(true) }
  }

  /// Stops the link for the run loop and mode (the link has one: the same as `invalidate()` here, but it may be
  /// added again).
  public func remove(from runloop: RunLoop, forMode mode: RunLoop.Mode) {
    stopHostLink()
  }

  /// Stops the link for good and lets go of its target.
  public func invalidate() {
    isInvalidated = true
    stopHostLink()
    target = nil
  }

  /// A paused link sends nothing; resumed, it sends on the next frame.
  public var isPaused = false {
    didSet { if oldValue != isPaused { setPaused(isPaused) } }
  }

  /// The most frames per second the link wants (0: every frame). Setting it sets `preferredFrameRateRange` to
  /// that rate.
  public var preferredFramesPerSecond: Int {
    get { Int(preferredFrameRateRange.rate) }
    set {
      let rate = Float(max(newValue, 0))
      preferredFrameRateRange = CAFrameRateRange(minimum: 0, maximum: rate, preferred: rate)
    }
  }

  /// The frame rate the link wants (CAFrameRateRange): `preferred`, else `maximum`; `.default` is every frame.
  public var preferredFrameRateRange = CAFrameRateRange.default {
    didSet { sendRate() }
  }

  private var rate: Double { preferredFrameRateRange.rate }

  // MARK: The host's link

  /// A frame: the timestamps, then the action.
  fileprivate func fire(_ timestamp: Double, _ target: Double) {
    guard !isInvalidated, let receiver = self.target else { return }
    self.timestamp = timestamp
    self.targetTimestamp = target
    duration = target - timestamp
    if !selector.send(to: receiver, from: self) {
      session?.log(
        TH_LOG_ERROR,
        "TransitionKit: CADisplayLink: unrecognized selector \(selector.name) sent to \(receiver) (a selector made "
          + "from a name alone cannot be sent: use #selector through the UIKit source bridge); link invalidated")
      invalidate()
    }
  }

  private func setPaused(_ paused: Bool) {
    guard let session, let table, let setPaused = table.pointee.set_display_link_paused else { return }
    let status = setPaused(session.ctx, linkID, paused)
    if status != TH_OK {
      session.log(TH_LOG_WARNING, "TransitionKit: CADisplayLink.isPaused: \(String(cString: th_status_name(status)))")
    }
  }

  private func sendRate() {
    guard let session, let table, let setRate = table.pointee.set_display_link_rate else { return }
    let status = setRate(session.ctx, linkID, rate)
    if status != TH_OK {
      session.log(
        TH_LOG_WARNING, "TransitionKit: CADisplayLink frame rate: \(String(cString: th_status_name(status)))")
    }
  }

  private func stopHostLink() {
    if let session, let table, let invalidate = table.pointee.invalidate_display_link {
      _ = invalidate(session.ctx, linkID)
    }
    if let block { _ = BlockRegistry.remove(block.key) }
    block = nil
    table = nil
    session = nil
  }
}

/// A display link's entry in the block registry: the host's `user_data` for the link. It keeps the link (as a run
/// loop keeps its links) until the link stops or the transition's session goes.
final class DisplayLinkBlock: AnimationBlock {
  let link: CADisplayLink

  init(_ session: Session, _ link: CADisplayLink) {
    self.link = link
    super.init(session, BlockOrigin("CADisplayLink"), {}, nil)
  }
}

/// A display link's callback: the link's frame, as a host → plugin call.
let displayLinkThunk: @convention(c) (th_context, Double, Double, UnsafeMutableRawPointer?) -> Void = {
  ctx, timestamp, target, key in
  guard let block = BlockRegistry.lookup(key) as? DisplayLinkBlock, !block.isRefused, let session = block.session
  else { return }
  session.enter(ctx) { session.running(block, "action") { block.link.fire(timestamp, target) } }
}
