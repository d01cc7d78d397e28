internal import CTransitionABI
import Synchronization

/// Where a block's closures were written: the call that made it and, for the UIView.animate family and keyframes,
/// the file and line of that call (their `#fileID`/`#line` default arguments). Reports of calls the host refuses
/// while the closures run name it ("in the animations of UIView.animate at Fade/Fade.swift:42").
struct BlockOrigin: CustomStringConvertible {
  let call: String
  let file: StaticString?
  let line: UInt

  init(_ call: String, file: StaticString? = nil, line: UInt = 0) {
    self.call = call
    self.file = file
    self.line = line
  }

  /// "Fade/Fade.swift:42", or "" when the call has no source location.
  var place: String { file.map { "\($0):\(line)" } ?? "" }

  var description: String { file == nil ? call : "\(call) at \(place)" }
}

/// The Swift closures of one animation block (or alongside animation, keyframe, driver), registered under a key
/// that the host gets as `user_data`.
///
/// The key is a number, never an object's address, and the thunks look it up instead of dereferencing it: a host
/// that calls back with a key it should not (a completion for a block it refused, a second completion) finds
/// nothing, or a refused block, and nothing runs, instead of a use-after-free.
class AnimationBlock {
  /// The instance; weak, so that registered blocks never keep a destroyed instance alive.
  weak var session: Session?
  let sessionID: ObjectIdentifier
  private(set) var animations: (() -> Void)?
  let completion: ((Bool) -> Void)?
  /// Where the block was written.
  let origin: BlockOrigin
  /// The host refused the call that would have scheduled the completion.
  private(set) var isRefused = false
  /// The `user_data` the host gets.
  private(set) var key: UnsafeMutableRawPointer?

  init(_ session: Session, _ origin: BlockOrigin, _ animations: @escaping () -> Void, _ completion: ((Bool) -> Void)?) {
    self.session = session
    self.sessionID = ObjectIdentifier(session)
    self.origin = origin
    self.animations = animations
    self.completion = completion
    self.key = BlockRegistry.register(self)
  }

  /// The host refused the block: keep the key registered (so a late completion is recognised and ignored) until
  /// the instance goes.
  func refuse() { isRefused = true }

  /// The block is no longer needed (a keyframe, after `add_keyframe` returned).
  func forget() { _ = BlockRegistry.remove(key) }

  /// Lets go of the animations closure once the host has run it (it may be a non-escaping closure made escapable
  /// for the duration of one call).
  func dropAnimations() { animations = nil }
}

/// A custom driver's closures.
final class DriverBlock: AnimationBlock {
  let update: (TimeInterval, CGFloat) -> Void

  init(_ session: Session, _ update: @escaping (TimeInterval, CGFloat) -> Void, _ completion: ((Bool) -> Void)?) {
    self.update = update
    super.init(session, BlockOrigin("transitionContext.addDriver"), {}, completion)
  }
}

/// The blocks the host may still call back, by key.
enum BlockRegistry {
  private struct State: @unchecked Sendable {
    // @unchecked: the blocks are used on the host's thread only; the mutex guards the table itself.
    var next: UInt = 1
    var blocks: [UInt: AnimationBlock] = [:]
  }
  private static let state = Mutex(State())

  static func register(_ block: AnimationBlock) -> UnsafeMutableRawPointer? {
    state.withLock { state in
      let key = state.next
      state.next += 1
      state.blocks[key] = block
      return UnsafeMutableRawPointer(bitPattern: key)
    }
  }

  static func lookup(_ key: UnsafeMutableRawPointer?) -> AnimationBlock? {
    guard let key else { return nil }
    return state.withLock { Unchecked($0.blocks[UInt(bitPattern: key)]) }.value
  }

  static func remove(_ key: UnsafeMutableRawPointer?) -> AnimationBlock? {
    guard let key else { return nil }
    return state.withLock { Unchecked($0.blocks.removeValue(forKey: UInt(bitPattern: key))) }.value
  }

  /// Drops every block of a session that is going away.
  static func purge(_ session: Session) {
    let id = ObjectIdentifier(session)
    let dropped = state.withLock { state in
      let keys = state.blocks.filter { $0.value.sessionID == id }.map(\.key)
      return Unchecked(keys.compactMap { state.blocks.removeValue(forKey: $0) })
    }
    _ = dropped  // released here, outside the lock (their closures may own views)
  }
}

/// The animations function of every block: runs the closure as a host → plugin call.
let animationsThunk: @convention(c) (th_context, UnsafeMutableRawPointer?) -> Void = { ctx, key in
  guard let block = BlockRegistry.lookup(key), !block.isRefused, let session = block.session else { return }
  session.enter(ctx) {
    session.animationDepth += 1
    session.running(block, "animations") { block.animations?() }
    session.animationDepth -= 1
  }
}

/// The completion function of every block: runs the closure once and unregisters the block.
let completionThunk: @convention(c) (th_context, Bool, UnsafeMutableRawPointer?) -> Void = { ctx, finished, key in
  guard let block = BlockRegistry.remove(key), !block.isRefused, let session = block.session else { return }
  session.enter(ctx) { session.running(block, "completion") { block.completion?(finished) } }
}

/// A custom driver's update: a pure function of time.
let driverThunk: @convention(c) (th_context, Double, Double, UnsafeMutableRawPointer?) -> Void = {
  ctx, time, fraction, key in
  guard let block = BlockRegistry.lookup(key) as? DriverBlock, let session = block.session else { return }
  session.enter(ctx) { session.running(block, "update") { block.update(time, fraction) } }
}
