import CTransitionABI
import TransitionEngine

#if canImport(Glibc)
  import Glibc
#endif

/// The host API table handed to plugins (`th_host_api`), every function (ABI 1.0 to 1.2) bound to the engine through
/// `PluginAnimator`.
///
/// It lives in manually allocated memory because plugins keep its address from `th_plugin_entry` until
/// `deinit`; one table serves every plugin of a registry. The functions find their transition from the
/// context id (`hostCall`), since C function pointers cannot capture anything.
final class HostAPITable {
  let pointer: UnsafeMutablePointer<th_host_api>

  init() {
    pointer = .allocate(capacity: 1)
    UnsafeMutableRawPointer(pointer).initializeMemory(
      as: UInt8.self, repeating: 0, count: MemoryLayout<th_host_api>.size)
    pointer.pointee = Self.table
  }

  deinit {
    pointer.deallocate()
  }

  /// The filled table.
  private static var table: th_host_api {
    var t = th_host_api()
    t.struct_size = UInt32(MemoryLayout<th_host_api>.size)
    t.log = hostLog
    t.get_extension = hostGetExtension

    // Context queries.
    t.container_view = { ctx, out in
      hostCall(ctx, "container_view") { (a) throws(HostFailure) in try a.containerView(out) }
    }
    t.view_for_key = { ctx, key, out in
      hostCall(ctx, "view_for_key") { (a) throws(HostFailure) in try a.viewForKey(key, out) }
    }
    t.view_controller_for_key = { ctx, key, out in
      hostCall(ctx, "view_controller_for_key") { (a) throws(HostFailure) in try a.viewControllerForKey(key, out) }
    }
    t.initial_frame = { ctx, key, out in
      hostCall(ctx, "initial_frame") { (a) throws(HostFailure) in try a.frame(initial: true, key, out) }
    }
    t.final_frame = { ctx, key, out in
      hostCall(ctx, "final_frame") { (a) throws(HostFailure) in try a.frame(initial: false, key, out) }
    }
    t.operation = { ctx, out in hostCall(ctx, "operation") { (a) throws(HostFailure) in try a.operation(out) } }
    t.is_animated = { ctx, out in
      hostCall(ctx, "is_animated") { (a) throws(HostFailure) in try a.flag(out) { $0.isAnimated } }
    }
    t.is_interactive = { ctx, out in
      hostCall(ctx, "is_interactive") { (a) throws(HostFailure) in try a.flag(out) { $0.isInteractive } }
    }
    t.transition_was_cancelled = { ctx, out in
      hostCall(ctx, "transition_was_cancelled") { (a) throws(HostFailure) in
        try a.flag(out) { $0.transitionWasCancelled }
      }
    }
    t.complete_transition = { ctx, did in
      hostCall(ctx, "complete_transition") { (a) throws(HostFailure) in try a.completeTransition(did) }
    }

    // Parameters.
    t.param_number = { ctx, name, out in
      hostCall(ctx, "param_number") { (a) throws(HostFailure) in try a.paramNumber(name, out) }
    }
    t.param_bool = { ctx, name, out in
      hostCall(ctx, "param_bool") { (a) throws(HostFailure) in try a.paramBool(name, out) }
    }
    t.param_string = { ctx, name, out in
      hostCall(ctx, "param_string") { (a) throws(HostFailure) in try a.paramString(name, out) }
    }
    t.param_color = { ctx, name, out in
      hostCall(ctx, "param_color") { (a) throws(HostFailure) in try a.paramColor(name, out) }
    }
    t.param_point = { ctx, name, out in
      hostCall(ctx, "param_point") { (a) throws(HostFailure) in try a.paramPoint(name, out) }
    }
    t.param_rect = { ctx, name, out in
      hostCall(ctx, "param_rect") { (a) throws(HostFailure) in try a.paramRect(name, out) }
    }

    // The view tree.
    t.find_view = { ctx, id, out in hostCall(ctx, "find_view") { (a) throws(HostFailure) in try a.findView(id, out) } }
    t.view_id = { ctx, view, out in hostCall(ctx, "view_id") { (a) throws(HostFailure) in try a.viewID(view, out) } }
    t.view_match_key = { ctx, view, out in
      hostCall(ctx, "view_match_key") { (a) throws(HostFailure) in try a.viewMatchKey(view, out) }
    }
    t.find_view_by_match = { ctx, root, key, out in
      hostCall(ctx, "find_view_by_match") { (a) throws(HostFailure) in try a.findViewByMatch(root, key, out) }
    }
    t.superview = { ctx, view, out in
      hostCall(ctx, "superview") { (a) throws(HostFailure) in try a.superview(view, out) }
    }
    t.subview_count = { ctx, view, out in
      hostCall(ctx, "subview_count") { (a) throws(HostFailure) in try a.subviewCount(view, out) }
    }
    t.subview_at = { ctx, view, index, out in
      hostCall(ctx, "subview_at") { (a) throws(HostFailure) in try a.subview(view, at: index, out) }
    }
    t.make_view = { ctx, hint, out in
      hostCall(ctx, "make_view") { (a) throws(HostFailure) in try a.makeView(hint, out) }
    }
    t.snapshot_view = { ctx, view, out in
      hostCall(ctx, "snapshot_view") { (a) throws(HostFailure) in try a.snapshotView(view, out) }
    }
    t.add_subview = { ctx, parent, child in
      hostCall(ctx, "add_subview") { (a) throws(HostFailure) in try a.change(.add, parent: parent, child: child) }
    }
    t.insert_subview_below = { ctx, parent, child, sibling in
      hostCall(ctx, "insert_subview_below") { (a) throws(HostFailure) in
        try a.change(.below(sibling), parent: parent, child: child)
      }
    }
    t.insert_subview_above = { ctx, parent, child, sibling in
      hostCall(ctx, "insert_subview_above") { (a) throws(HostFailure) in
        try a.change(.above(sibling), parent: parent, child: child)
      }
    }
    t.insert_subview_at = { ctx, parent, child, index in
      hostCall(ctx, "insert_subview_at") { (a) throws(HostFailure) in
        try a.change(.at(index), parent: parent, child: child)
      }
    }
    t.remove_from_superview = { ctx, view in
      hostCall(ctx, "remove_from_superview") { (a) throws(HostFailure) in try a.removeFromSuperview(view) }
    }
    t.bring_subview_to_front = { ctx, parent, child in
      hostCall(ctx, "bring_subview_to_front") { (a) throws(HostFailure) in
        try a.change(.toFront, parent: parent, child: child)
      }
    }
    t.send_subview_to_back = { ctx, parent, child in
      hostCall(ctx, "send_subview_to_back") { (a) throws(HostFailure) in
        try a.change(.toBack, parent: parent, child: child)
      }
    }
    t.convert_rect = { ctx, rect, from, to, out in
      hostCall(ctx, "convert_rect") { (a) throws(HostFailure) in try a.convert(rect, from: from, to: to, out) }
    }
    t.convert_point = { ctx, point, from, to, out in
      hostCall(ctx, "convert_point") { (a) throws(HostFailure) in try a.convert(point, from: from, to: to, out) }
    }

    // Properties.
    t.get_number = { ctx, view, property, out in
      hostCall(ctx, "get_number") { (a) throws(HostFailure) in try a.getNumber(view, property, out) }
    }
    t.set_number = { ctx, view, property, value in
      hostCall(ctx, "set_number") { (a) throws(HostFailure) in try a.setNumber(view, property, value) }
    }
    t.get_bool = { ctx, view, property, out in
      hostCall(ctx, "get_bool") { (a) throws(HostFailure) in try a.getBool(view, property, out) }
    }
    t.set_bool = { ctx, view, property, value in
      hostCall(ctx, "set_bool") { (a) throws(HostFailure) in try a.setBool(view, property, value) }
    }
    t.get_point = { ctx, view, property, out in
      hostCall(ctx, "get_point") { (a) throws(HostFailure) in try a.getPoint(view, property, out) }
    }
    t.set_point = { ctx, view, property, value in
      hostCall(ctx, "set_point") { (a) throws(HostFailure) in try a.setPoint(view, property, value) }
    }
    t.get_rect = { ctx, view, property, out in
      hostCall(ctx, "get_rect") { (a) throws(HostFailure) in try a.getRect(view, property, out) }
    }
    t.set_rect = { ctx, view, property, value in
      hostCall(ctx, "set_rect") { (a) throws(HostFailure) in try a.setRect(view, property, value) }
    }
    t.get_transform = { ctx, view, property, out in
      hostCall(ctx, "get_transform") { (a) throws(HostFailure) in try a.getTransform(view, property, out) }
    }
    t.set_transform = { ctx, view, property, value in
      hostCall(ctx, "set_transform") { (a) throws(HostFailure) in try a.setTransform(view, property, value) }
    }
    t.get_color = { ctx, view, property, out, isSet in
      hostCall(ctx, "get_color") { (a) throws(HostFailure) in try a.getColor(view, property, out, isSet) }
    }
    t.set_color = { ctx, view, property, value in
      hostCall(ctx, "set_color") { (a) throws(HostFailure) in try a.setColor(view, property, value) }
    }
    t.get_gradient = { ctx, view, property, out, isSet in
      hostCall(ctx, "get_gradient") { (a) throws(HostFailure) in try a.getGradient(view, property, out, isSet) }
    }
    t.set_gradient = { ctx, view, property, value in
      hostCall(ctx, "set_gradient") { (a) throws(HostFailure) in try a.setGradient(view, property, value) }
    }

    // Animation blocks.
    t.animate = { ctx, options, animations, completion, userData in
      hostCall(ctx, "animate") { (a) throws(HostFailure) in try a.animate(options, animations, completion, userData) }
    }
    t.animate_keyframes = { ctx, options, animations, completion, userData in
      hostCall(ctx, "animate_keyframes") { (a) throws(HostFailure) in
        try a.animateKeyframes(options, animations, completion, userData)
      }
    }
    t.add_keyframe = { ctx, start, length, animations, userData in
      hostCall(ctx, "add_keyframe") { (a) throws(HostFailure) in try a.addKeyframe(start, length, animations, userData)
      }
    }
    t.animate_alongside = { ctx, animations, completion, userData in
      hostCall(ctx, "animate_alongside") { (a) throws(HostFailure) in
        try a.animateAlongside(animations, completion, userData)
      }
    }

    // ABI 1.2 — presentation and view content.
    t.get_presentation = { ctx, view, out in
      hostCall(ctx, "get_presentation") { (a) throws(HostFailure) in try a.getPresentation(view, out) }
    }
    t.set_image_content = { ctx, view, name, mode in
      hostCall(ctx, "set_image_content") { (a) throws(HostFailure) in try a.setImageContent(view, name, mode) }
    }
    t.set_visual_effect = { ctx, view, style in
      hostCall(ctx, "set_visual_effect") { (a) throws(HostFailure) in try a.setVisualEffect(view, style) }
    }
    return t
  }
}

/// The host extensions: immutable tables allocated once for the process (plugins keep their addresses).
///
/// `@unchecked Sendable`: the tables are written once, in `init`, and only read afterwards.
final class HostExtensions: @unchecked Sendable {
  static let shared = HostExtensions()

  /// "th.custom-driver/1".
  let customDriver: UnsafeMutablePointer<th_host_custom_driver>
  /// "th.display-link/1" (ABI 1.2).
  let displayLink: UnsafeMutablePointer<th_host_display_link>

  /// "th.percent-driven/1" (ABI 1.2).
  let percentDriven: UnsafeMutablePointer<th_host_percent_driven>

  /// "th.scenes/1" (ABI 1.2, scenes).
  let scenes: UnsafeMutablePointer<th_host_scenes>
  /// "th.property-animators/1" (ABI 1.2).
  let propertyAnimators: UnsafeMutablePointer<th_host_property_animators>
  /// "th.layers/1" (ABI 1.3).
  let layers: UnsafeMutablePointer<th_host_layers>

  private init() {
    scenes = .allocate(capacity: 1)
    scenes.initialize(
      to: th_host_scenes(
        struct_size: UInt32(MemoryLayout<th_host_scenes>.size), reserved: 0,
        tree: { ctx, identifier, out in
          hostCall(ctx, "scenes.tree") { (a) throws(HostFailure) in try a.sceneOfContext().tree(identifier, out) }
        },
        start_transition: { ctx, request in
          hostCall(ctx, "scenes.start_transition") { (a) throws(HostFailure) in
            try a.sceneOfContext().startTransition(request)
          }
        }))
    percentDriven = .allocate(capacity: 1)
    percentDriven.initialize(
      to: th_host_percent_driven(
        struct_size: UInt32(MemoryLayout<th_host_percent_driven>.size), reserved: 0,
        update: { ctx, percent in
          hostCall(ctx, "percent_driven.update") { (a) throws(HostFailure) in try a.interactionUpdate(percent) }
        },
        pause: { ctx in
          hostCall(ctx, "percent_driven.pause") { (a) throws(HostFailure) in try a.interactionPause() }
        },
        finish: { ctx, options in
          hostCall(ctx, "percent_driven.finish") { (a) throws(HostFailure) in try a.interactionFinish(options) }
        },
        cancel: { ctx, options in
          hostCall(ctx, "percent_driven.cancel") { (a) throws(HostFailure) in try a.interactionCancel(options) }
        },
        status: { ctx, out in
          hostCall(ctx, "percent_driven.status") { (a) throws(HostFailure) in try a.interactionStatus(out) }
        }))
    propertyAnimators = .allocate(capacity: 1)
    propertyAnimators.initialize(to: Self.propertyAnimatorTable)
    layers = .allocate(capacity: 1)
    layers.initialize(to: Self.layerTable)
    customDriver = .allocate(capacity: 1)
    customDriver.initialize(
      to: th_host_custom_driver(
        struct_size: UInt32(MemoryLayout<th_host_custom_driver>.size), reserved: 0,
        add_driver: { ctx, options, update, completion, userData in
          hostCall(ctx, "add_driver") { (a) throws(HostFailure) in
            try a.addDriver(options, update, completion, userData)
          }
        }))
    displayLink = .allocate(capacity: 1)
    displayLink.initialize(
      to: th_host_display_link(
        struct_size: UInt32(MemoryLayout<th_host_display_link>.size), reserved: 0,
        add_display_link: { ctx, rate, callback, userData, out in
          hostCall(ctx, "add_display_link") { (a) throws(HostFailure) in
            try a.addDisplayLink(rate, callback, userData, out)
          }
        },
        set_display_link_paused: { ctx, link, paused in
          hostCall(ctx, "set_display_link_paused") { (a) throws(HostFailure) in
            try a.displayLink(link) { $0.isPaused = paused }
          }
        },
        set_display_link_rate: { ctx, link, rate in
          hostCall(ctx, "set_display_link_rate") { (a) throws(HostFailure) in
            let rate = try PluginAnimator.frameRate(rate)
            return try a.displayLink(link) { $0.preferredFramesPerSecond = rate }
          }
        },
        invalidate_display_link: { ctx, link in
          hostCall(ctx, "invalidate_display_link") { (a) throws(HostFailure) in
            try a.displayLink(link, allowsInvalidated: true) { $0.invalidate() }
          }
        }))
  }

  /// The table of extension `id`, or nil.
  func table(_ id: UnsafePointer<CChar>) -> UnsafeRawPointer? {
    if strcmp(id, TH_EXT_CUSTOM_DRIVER) == 0 { return UnsafeRawPointer(customDriver) }
    if strcmp(id, TH_EXT_DISPLAY_LINK) == 0 { return UnsafeRawPointer(displayLink) }
    if strcmp(id, TH_EXT_PERCENT_DRIVEN) == 0 { return UnsafeRawPointer(percentDriven) }
    if strcmp(id, TH_EXT_HOST_SCENES) == 0 { return UnsafeRawPointer(scenes) }
    if strcmp(id, TH_EXT_PROPERTY_ANIMATORS) == 0 { return UnsafeRawPointer(propertyAnimators) }
    if strcmp(id, TH_EXT_CORE_ANIMATION) == 0 { return UnsafeRawPointer(Self.coreAnimation) }
    if strcmp(id, TH_EXT_LAYERS) == 0 { return UnsafeRawPointer(layers) }
    return nil
  }

  /// ABI 1.2 — property animators, each function bound to `PluginAnimator+PropertyAnimators`.
  private static var propertyAnimatorTable: th_host_property_animators {
    var t = th_host_property_animators()
    t.struct_size = UInt32(MemoryLayout<th_host_property_animators>.size)
    t.create = { ctx, duration, timing, out in
      hostCall(ctx, "property_animators.create") { (a) throws(HostFailure) in
        try a.createPropertyAnimator(duration, timing, out)
      }
    }
    t.add_animations = { ctx, animator, delayFactor, animations, userData in
      hostCall(ctx, "property_animators.add_animations") { (a) throws(HostFailure) in
        try a.addPropertyAnimations(animator, delayFactor, animations, userData)
      }
    }
    t.add_completion = { ctx, animator, completion, userData in
      hostCall(ctx, "property_animators.add_completion") { (a) throws(HostFailure) in
        try a.addPropertyCompletion(animator, completion, userData)
      }
    }
    t.start = { ctx, animator, delay in
      hostCall(ctx, "property_animators.start") { (a) throws(HostFailure) in
        try a.drivePropertyAnimator(animator) { (p) throws(PropertyAnimatorError) in
          try p.startAnimation(afterDelay: delay)
        }
      }
    }
    t.pause = { ctx, animator in
      hostCall(ctx, "property_animators.pause") { (a) throws(HostFailure) in
        try a.drivePropertyAnimator(animator) { (p) throws(PropertyAnimatorError) in try p.pauseAnimation() }
      }
    }
    t.stop = { ctx, animator, withoutFinishing in
      hostCall(ctx, "property_animators.stop") { (a) throws(HostFailure) in
        try a.stopPropertyAnimator(animator, withoutFinishing)
      }
    }
    t.finish = { ctx, animator, position in
      hostCall(ctx, "property_animators.finish") { (a) throws(HostFailure) in
        guard let at = AnimatingPosition(rawValue: Int(position.rawValue)) else {
          throw .unsupported("position", "unknown th_animating_position \(position.rawValue)")
        }
        return try a.drivePropertyAnimator(animator) { (p) throws(PropertyAnimatorError) in
          try p.finishAnimation(at: at)
        }
      }
    }
    t.continue_animation = { ctx, animator, timing, factor in
      hostCall(ctx, "property_animators.continue_animation") { (a) throws(HostFailure) in
        try a.continuePropertyAnimator(animator, timing, factor)
      }
    }
    t.get_state = { ctx, animator, out in
      hostCall(ctx, "property_animators.get_state") { (a) throws(HostFailure) in
        try a.readPropertyAnimator(animator, out, "out_state") {
          th_animating_state(rawValue: UInt32($0.state.rawValue))
        }
      }
    }
    t.get_fraction_complete = { ctx, animator, out in
      hostCall(ctx, "property_animators.get_fraction_complete") { (a) throws(HostFailure) in
        try a.readPropertyAnimator(animator, out, "out_fraction") { $0.fractionComplete }
      }
    }
    t.set_fraction_complete = { ctx, animator, value in
      hostCall(ctx, "property_animators.set_fraction_complete") { (a) throws(HostFailure) in
        try a.drivePropertyAnimator(animator) { (p) throws(PropertyAnimatorError) in try p.setFractionComplete(value) }
      }
    }
    t.get_flag = { ctx, animator, flag, out in
      hostCall(ctx, "property_animators.get_flag") { (a) throws(HostFailure) in
        try a.readPropertyAnimator(animator, out, "out_value") { (p) throws(HostFailure) in
          try a.propertyAnimatorFlag(p, flag)
        }
      }
    }
    t.set_flag = { ctx, animator, flag, value in
      hostCall(ctx, "property_animators.set_flag") { (a) throws(HostFailure) in
        try a.setPropertyAnimatorFlag(animator, flag, value)
      }
    }
    t.get_duration = { ctx, animator, out in
      hostCall(ctx, "property_animators.get_duration") { (a) throws(HostFailure) in
        try a.readPropertyAnimator(animator, out, "out_duration") { $0.duration }
      }
    }
    return t
  }
}

/// The ABI's host `get_extension`: "th.custom-driver/1", "th.percent-driven/1", "th.property-animators/1",
/// "th.display-link/1", "th.scenes/1", "th.layers/1", or NULL (not supported) for any other id.
let hostGetExtension: @convention(c) (UnsafePointer<CChar>?) -> UnsafeRawPointer? = { id in
  guard let id else { return nil }
  return HostExtensions.shared.table(id)
}
