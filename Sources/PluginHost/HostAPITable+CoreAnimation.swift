import CTransitionABI
import TransitionEngine

// ABI 1.3 — "th.core-animation/1", each function bound to PluginAnimator+CoreAnimation.

extension HostExtensions {
  /// The extension's table (made once, never freed, as the other extensions' tables).
  nonisolated(unsafe) static let coreAnimation: UnsafeMutablePointer<th_host_core_animation> = {
    let table = UnsafeMutablePointer<th_host_core_animation>.allocate(capacity: 1)
    table.initialize(to: coreAnimationTable)
    return table
  }()

  private static var coreAnimationTable: th_host_core_animation {
    var t = th_host_core_animation()
    t.struct_size = UInt32(MemoryLayout<th_host_core_animation>.size)
    t.create = { ctx, kind, keyPath, out in
      hostCall(ctx, "core_animation.create") { (a) throws(HostFailure) in try a.createCoreAnimation(kind, keyPath, out)
      }
    }
    t.set_value = { ctx, animation, slot, value in
      hostCall(ctx, "core_animation.set_value") { (a) throws(HostFailure) in
        try a.setCoreAnimationValue(animation, slot, value)
      }
    }
    t.set_timing = { ctx, animation, timing in
      hostCall(ctx, "core_animation.set_timing") { (a) throws(HostFailure) in
        try a.setCoreAnimationTiming(animation, timing)
      }
    }
    t.set_timing_function = { ctx, animation, curve in
      hostCall(ctx, "core_animation.set_timing_function") { (a) throws(HostFailure) in
        try a.setCoreAnimationTimingFunction(animation, curve)
      }
    }
    t.set_keyframes = { ctx, animation, values, count, keyTimes, keyTimeCount, functions, functionCount, mode in
      hostCall(ctx, "core_animation.set_keyframes") { (a) throws(HostFailure) in
        try a.setCoreAnimationKeyframes(
          animation, values, count, keyTimes, keyTimeCount, functions, functionCount, mode)
      }
    }
    t.set_keyframe_path = { ctx, animation, elements, count, rotation in
      hostCall(ctx, "core_animation.set_keyframe_path") { (a) throws(HostFailure) in
        try a.setCoreAnimationPath(animation, elements, count, rotation)
      }
    }
    t.set_spring = { ctx, animation, mass, stiffness, damping, velocity, overdamping in
      hostCall(ctx, "core_animation.set_spring") { (a) throws(HostFailure) in
        try a.setCoreAnimationSpring(animation, mass, stiffness, damping, velocity, overdamping)
      }
    }
    t.get_settling_duration = { ctx, animation, out in
      hostCall(ctx, "core_animation.get_settling_duration") { (a) throws(HostFailure) in
        try a.coreAnimationSettlingDuration(animation, out)
      }
    }
    t.add_child = { ctx, group, child in
      hostCall(ctx, "core_animation.add_child") { (a) throws(HostFailure) in try a.addCoreAnimationChild(group, child) }
    }
    t.set_delegate = { ctx, animation, delegate in
      hostCall(ctx, "core_animation.set_delegate") { (a) throws(HostFailure) in
        try a.setCoreAnimationDelegate(animation, delegate)
      }
    }
    t.add = { ctx, layer, animation, key in
      hostCall(ctx, "core_animation.add") { (a) throws(HostFailure) in try a.addCoreAnimation(layer, animation, key) }
    }
    t.copy_animation = { ctx, layer, key, out in
      hostCall(ctx, "core_animation.copy_animation") { (a) throws(HostFailure) in
        try a.copyCoreAnimation(layer, key, out)
      }
    }
    t.get_animation_key_count = { ctx, layer, out in
      hostCall(ctx, "core_animation.get_animation_key_count") { (a) throws(HostFailure) in
        try a.require(.read)
        guard let out else { throw .null("out_count") }
        out.pointee = try a.viewOrContainer(layer, "layer").animationKeys()?.count ?? 0
        return TH_OK
      }
    }
    t.get_animation_key = { ctx, layer, index, buffer, capacity, length in
      hostCall(ctx, "core_animation.get_animation_key") { (a) throws(HostFailure) in
        try a.coreAnimationKey(layer, index, buffer, capacity, length)
      }
    }
    t.remove = { ctx, layer, key in
      hostCall(ctx, "core_animation.remove") { (a) throws(HostFailure) in
        try a.require(.animate)
        guard let key else { throw .null("key") }
        try a.viewOrContainer(layer, "layer").removeAnimation(forKey: String(cString: key))
        return TH_OK
      }
    }
    t.remove_all = { ctx, layer in
      hostCall(ctx, "core_animation.remove_all") { (a) throws(HostFailure) in
        try a.require(.animate)
        try a.viewOrContainer(layer, "layer").removeAllAnimations()
        return TH_OK
      }
    }
    t.transaction_begin = { ctx in
      hostCall(ctx, "core_animation.transaction_begin") { (a) throws(HostFailure) in
        try a.transaction { $0.beginTransaction() }
      }
    }
    t.transaction_commit = { ctx in
      hostCall(ctx, "core_animation.transaction_commit") { (a) throws(HostFailure) in
        try a.transaction { (scene) throws(HostFailure) in
          guard scene.hasOpenTransaction else { throw .wrongPhase("transaction_commit without transaction_begin") }
          scene.commitTransaction()
        }
      }
    }
    t.transaction_set_completion = { ctx, completion, userData in
      hostCall(ctx, "core_animation.transaction_set_completion") { (a) throws(HostFailure) in
        let handle = a.handle
        return try a.transaction { [weak a] scene in
          scene.setTransactionCompletion(
            completion.map { fn in
              { [weak a] in
                guard let a, !a.isClosed else { return }
                a.callout(.animate, .completion) { fn(handle, userData) }
              }
            })
        }
      }
    }
    t.transaction_set_animation_duration = { ctx, seconds in
      hostCall(ctx, "core_animation.transaction_set_animation_duration") { (a) throws(HostFailure) in
        guard seconds.isFinite, seconds >= 0 else {
          throw .invalidValue("seconds", "an animation duration must be finite and ≥ 0 (\(seconds))")
        }
        return try a.transaction { $0.transactionAnimationDuration = seconds }
      }
    }
    t.transaction_set_timing_function = { ctx, curve in
      hostCall(ctx, "core_animation.transaction_set_timing_function") { (a) throws(HostFailure) in
        let checked = try PluginAnimator.timingCurve(curve, "curve")
        return try a.transaction { $0.transactionTimingFunction = checked }
      }
    }
    t.transaction_set_disable_actions = { ctx, disabled in
      hostCall(ctx, "core_animation.transaction_set_disable_actions") { (a) throws(HostFailure) in
        try a.transaction { $0.transactionDisablesActions = disabled }
      }
    }
    t.set_layer_timing = { ctx, layer, timing in
      hostCall(ctx, "core_animation.set_layer_timing") { (a) throws(HostFailure) in try a.setLayerTiming(layer, timing)
      }
    }
    t.get_layer_timing = { ctx, layer, out in
      hostCall(ctx, "core_animation.get_layer_timing") { (a) throws(HostFailure) in
        try a.require(.read)
        guard let out else { throw .null("out_timing") }
        let t = try a.viewOrContainer(layer, "layer").layerTiming
        out.pointee = th_ca_layer_timing(begin_time: t.beginTime, speed: t.speed, time_offset: t.timeOffset)
        return TH_OK
      }
    }
    t.current_media_time = { ctx, out in
      hostCall(ctx, "core_animation.current_media_time") { (a) throws(HostFailure) in
        try a.require(.read)
        guard let out else { throw .null("out_seconds") }
        out.pointee = try a.engineContext().scene.currentMediaTime
        return TH_OK
      }
    }
    return t
  }
}
