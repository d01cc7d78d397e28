// Compile-time checks of the ABI's layouts. FROZEN structs must never change size or field offsets; the
// growable ones are pinned too, so that an accidental edit shows up here rather than in a plugin built
// against an older header. Offsets are counted by hand from the field lists (LP64: 8-byte pointers).
// This file also gives the header-only target a source file, as every SwiftPM build system needs.
#include "th_plugin.h"

#define TH_ASSERT_SIZE(type, size) _Static_assert(sizeof(type) == (size), #type " size changed")
#define TH_ASSERT_OFFSET(type, field, offset) \
  _Static_assert(offsetof(type, field) == (offset), #type "." #field " moved")

// FROZEN value types (pointer-free, identical on every platform).
TH_ASSERT_SIZE(th_point, 16);
TH_ASSERT_SIZE(th_rect, 32);
TH_ASSERT_OFFSET(th_rect, width, 16);
TH_ASSERT_SIZE(th_color, 32);
TH_ASSERT_OFFSET(th_color, a, 24);
TH_ASSERT_SIZE(th_transform3d, 128);
TH_ASSERT_SIZE(th_view, 8);
TH_ASSERT_SIZE(th_context, 8);
TH_ASSERT_SIZE(th_timing, 128);
TH_ASSERT_OFFSET(th_timing, curve, 4);
TH_ASSERT_OFFSET(th_timing, control_points, 8);
TH_ASSERT_OFFSET(th_timing, steps, 40);
TH_ASSERT_OFFSET(th_timing, step_position, 44);
TH_ASSERT_OFFSET(th_timing, damping_ratio, 48);
TH_ASSERT_OFFSET(th_timing, initial_velocity, 56);
TH_ASSERT_OFFSET(th_timing, mass, 64);
TH_ASSERT_OFFSET(th_timing, bounce, 88);
// ABI 1.1 took the first 8 bytes of 1.0's reserved[4] (offset 96) for flags and reserved_flags.
TH_ASSERT_OFFSET(th_timing, flags, 96);
TH_ASSERT_OFFSET(th_timing, reserved_flags, 100);
TH_ASSERT_OFFSET(th_timing, reserved, 104);

// The three fields every host reads first, in every ABI version.
TH_ASSERT_OFFSET(th_plugin_descriptor, struct_size, 0);
TH_ASSERT_OFFSET(th_plugin_descriptor, abi_major, 4);
TH_ASSERT_OFFSET(th_plugin_descriptor, abi_minor, 8);

#if UINTPTR_MAX == UINT64_MAX
// ABI 1.0 sizes of the growable structs (the minimum struct_size a host accepts).
TH_ASSERT_SIZE(th_plugin_descriptor, 88);
TH_ASSERT_OFFSET(th_plugin_descriptor, id, 16);
TH_ASSERT_OFFSET(th_plugin_descriptor, init, 56);
TH_ASSERT_OFFSET(th_plugin_descriptor, animator_count, 72);
TH_ASSERT_OFFSET(th_plugin_descriptor, animators, 80);
// 1.0's th_animator_descriptor was 104 bytes (get_extension last); ABI 1.2 appended interruptible_animator.
TH_ASSERT_OFFSET(th_animator_descriptor, params, 48);
TH_ASSERT_OFFSET(th_animator_descriptor, create, 56);
TH_ASSERT_OFFSET(th_animator_descriptor, get_extension, 96);
TH_ASSERT_OFFSET(th_animator_descriptor, interruptible_animator, 104);
TH_ASSERT_SIZE(th_animator_descriptor, 112);
// ABI 1.2 — property animators.
TH_ASSERT_SIZE(th_property_animator, 8);
TH_ASSERT_SIZE(th_property_animator_timing, 8 + 128 + 8);
TH_ASSERT_SIZE(th_host_property_animators, 8 + 14 * 8);
TH_ASSERT_SIZE(th_param_descriptor, 152);
TH_ASSERT_OFFSET(th_param_descriptor, default_bool, 48);
TH_ASSERT_OFFSET(th_param_descriptor, default_string, 56);
TH_ASSERT_OFFSET(th_param_descriptor, default_color, 72);
TH_ASSERT_OFFSET(th_param_descriptor, default_rect, 120);
TH_ASSERT_SIZE(th_host_info, 56);
TH_ASSERT_OFFSET(th_host_info, api, 40);
TH_ASSERT_OFFSET(th_host_info, plugin_context, 48);
TH_ASSERT_SIZE(th_gradient, 56);
TH_ASSERT_SIZE(th_animation_options, 152);
TH_ASSERT_OFFSET(th_animation_options, timing, 24);
TH_ASSERT_SIZE(th_keyframe_options, 152);
TH_ASSERT_SIZE(th_driver_options, 24);
TH_ASSERT_SIZE(th_presentation_controller, 56);
TH_ASSERT_SIZE(th_host_custom_driver, 16);
// Two 32-bit header words, then 54 function pointers (1.0), then the 1.2 blocks (each pinned below by itself, so
// that blocks added side by side stack).
TH_ASSERT_OFFSET(th_host_api, log, 8);
TH_ASSERT_OFFSET(th_host_api, find_view_by_match, 8 + 53 * 8);
// ABI 1.2 — presentation and view content: three functions in a row, and the presentation's layout.
_Static_assert(offsetof(th_host_api, set_image_content) == offsetof(th_host_api, get_presentation) + 8,
               "th_host_api 1.2 presentation block moved");
_Static_assert(offsetof(th_host_api, set_visual_effect) == offsetof(th_host_api, get_presentation) + 16,
               "th_host_api 1.2 presentation block moved");
TH_ASSERT_OFFSET(th_presentation, frame, 8);
TH_ASSERT_OFFSET(th_presentation, anchor_point, 88);
TH_ASSERT_OFFSET(th_presentation, transform, 104);
TH_ASSERT_OFFSET(th_presentation, sublayer_transform, 232);
TH_ASSERT_OFFSET(th_presentation, opacity, 360);
TH_ASSERT_OFFSET(th_presentation, background_color, 384);
TH_ASSERT_OFFSET(th_presentation, has_background_color, 416);
TH_ASSERT_SIZE(th_presentation, 424);
// ABI 1.2 — display links.
TH_ASSERT_SIZE(th_host_display_link, 8 + 4 * 8);
#endif
