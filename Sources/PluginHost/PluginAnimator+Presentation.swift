import CTransitionABI
import TransitionEngine

#if canImport(Glibc)
  import Glibc
#endif

// ABI 1.2 — presentation and view content: `get_presentation` (layer.presentation()), `set_image_content`
// (UIImageView) and `set_visual_effect` (UIVisualEffectView).

extension PluginAnimator {
  /// The longest image name `set_image_content` accepts, in bytes.
  static let maximumImageNameBytes = 4096

  func getPresentation(_ view: th_view, _ out: UnsafeMutablePointer<th_presentation>?) throws(HostFailure)
    -> th_status
  {
    switch currentPhase {
    case .driver?:
      throw .wrongPhase(
        "get_presentation inside a driver update: a driver is sampled at a time of its own (compute from its time)")
    case .duration?:
      throw .wrongPhase("get_presentation in transition_duration: there is no presentation yet")
    default:
      try require(.read)
    }
    let view = try self.view(view, "view")
    let out = try required(out, "out_value")
    let size = Int(out.pointee.struct_size)
    let frameEnd = MemoryLayout<th_presentation>.offset(of: \th_presentation.frame)! + MemoryLayout<th_rect>.size
    guard size >= frameEnd else {
      throw .invalidArgument("out_value", "out_value.struct_size \(size) is smaller than \(frameEnd)")
    }
    let scene = try engineContext().scene
    let values = scene.presentedValues(of: view, at: scene.currentTime)
    var presentation = th_presentation()
    presentation.struct_size = UInt32(min(size, MemoryLayout<th_presentation>.size))
    presentation.frame = values.frame.abi
    presentation.bounds = values.bounds.abi
    presentation.position = values.position.abi
    presentation.anchor_point = values.anchorPoint.abi
    presentation.transform = values.transform.abi
    presentation.sublayer_transform = values.sublayerTransform.abi
    presentation.opacity = values.alpha
    presentation.z_position = values.zPosition
    presentation.corner_radius = values.cornerRadius
    if let color = values.backgroundColor {
      presentation.background_color = color.abi
      presentation.has_background_color = true
    }
    presentation.hidden = view.isHidden
    presentation.masks_to_bounds = view.clipsToBounds
    // Only the bytes the plugin's struct has (an older, shorter th_presentation stays within its size).
    let byteCount = Int(presentation.struct_size)
    withUnsafeBytes(of: presentation) { bytes in
      UnsafeMutableRawPointer(out).copyMemory(from: bytes.baseAddress!, byteCount: byteCount)
    }
    return TH_OK
  }

  func setImageContent(_ view: th_view, _ name: UnsafePointer<CChar>?, _ mode: th_content_mode) throws(HostFailure)
    -> th_status
  {
    try require(.tree)
    let view = try self.view(view, "view")
    guard let contentMode = ContentMode(rawValue: Int(mode.rawValue)) else {
      throw .unsupported("content_mode", "unknown th_content_mode \(mode.rawValue)")
    }
    var imageName: String?
    if let name {
      guard strnlen(name, Self.maximumImageNameBytes + 1) <= Self.maximumImageNameBytes else {
        throw .limit("image_name", "image_name is longer than \(Self.maximumImageNameBytes) bytes")
      }
      imageName = try decodeString(name, "image_name")
    }
    view.content = .image(name: imageName, contentMode: contentMode)
    return TH_OK
  }

  func setVisualEffect(_ view: th_view, _ style: UnsafePointer<CChar>?) throws(HostFailure) -> th_status {
    try require(.tree)
    let view = try self.view(view, "view")
    var blurStyle: BlurStyle?
    if let style {
      guard strnlen(style, 64) < 64, let name = String(validatingCString: style), let known = BlurStyle(name: name)
      else {
        throw .invalidValue(
          "blur_style", "blur_style is not one of UIBlurEffect.Style's names (\"dark\", \"light\", \"regular\", …)")
      }
      blurStyle = known
    }
    view.content = .visualEffect(blurStyle: blurStyle)
    return TH_OK
  }
}
