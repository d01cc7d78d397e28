import CTransitionABI
import TransitionEngine

// ABI 1.2 — display links: the host extension "th.display-link/1" (CADisplayLink), on the engine's display links
// (Transition+DisplayLinks.swift).

extension PluginAnimator {
  /// A preferred frame rate, checked (finite, ≥ 0; 0 is every frame).
  static func frameRate(_ rate: Double) throws(HostFailure) -> Double {
    guard rate.isFinite, rate >= 0 else {
      throw .invalidValue(
        "preferred_frames_per_second", "preferred_frames_per_second \(rate) is not a finite number ≥ 0")
    }
    return rate
  }

  func addDisplayLink(
    _ rate: Double, _ callback: th_display_link_fn?, _ userData: UnsafeMutableRawPointer?,
    _ out: UnsafeMutablePointer<UInt64>?
  ) throws(HostFailure) -> th_status {
    try require(.animate)
    let rate = try Self.frameRate(rate)
    guard let callback else { throw .null("callback") }
    let out = try required(out, "out_link")
    guard let transition = try engineContext().transition else {
      throw .wrongPhase("add_display_link: the transition is gone")
    }
    let ctx = handle
    let link = transition.addDisplayLink(preferredFramesPerSecond: rate) { [weak self] timestamp, target in
      guard let self, !self.isClosed else { return }
      self.callout(.animate, .displayLink) { callback(ctx, timestamp, target, userData) }
    }
    let id = nextDisplayLinkID
    nextDisplayLinkID += 1
    displayLinks[id] = link
    out.pointee = id
    return TH_OK
  }

  /// Runs `change` on display link `id`. An invalidated link is refused (TH_ERR_INVALID_VALUE) unless
  /// `allowsInvalidated`; an id never issued is TH_ERR_INVALID_HANDLE.
  func displayLink(_ id: UInt64, allowsInvalidated: Bool = false, _ change: (DisplayLink) -> Void)
    throws(HostFailure) -> th_status
  {
    try require(.read)
    guard let link = displayLinks[id] else {
      throw HostFailure(
        status: TH_ERR_INVALID_HANDLE, kind: .invalidValue(field: "link"),
        detail: "display link \(id) was never issued to this transition")
    }
    guard allowsInvalidated || !link.isInvalidated else {
      throw .invalidValue("link", "display link \(id) was invalidated")
    }
    change(link)
    return TH_OK
  }
}
