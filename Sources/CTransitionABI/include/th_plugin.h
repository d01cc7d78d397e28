/*
 * th_plugin.h: the transition-host animator plugin ABI, version 1.3.
 *
 * An animator plugin is a shared library that exports exactly one function, `th_plugin_entry`. The host
 * (transition-host) loads it with dlopen, calls the entry, and reads a plugin descriptor: a list of animators,
 * each of which behaves like UIKit's UIViewControllerAnimatedTransitioning. While a transition runs, the
 * animator drives a UIKit-faithful view tree through the host API table (`th_host_api`): views and frames,
 * properties, UIView.animate-shaped animation blocks, springs, keyframes, completeTransition.
 *
 * This header is the whole contract. It is plain C11, has no dependencies beyond <stdint.h>, <stddef.h> and
 * <stdbool.h>, and is usable from C++, Swift, Rust and Zig. Authors outside the transition-host repository copy
 * this one file (Sources/CTransitionABI/include/th_plugin.h); see docs/writing-plugins.md.
 *
 * ---------------------------------------------------------------------------------------------------------
 * VERSIONING (the promise; modelled on CLAP, with the lesson of its 1.2.0 extension-id break)
 *
 *  - TH_ABI_VERSION_MAJOR changes only for a breaking change. The host refuses (error 1004) a plugin whose
 *    major differs from its own.
 *  - TH_ABI_VERSION_MINOR grows for additive changes only: new functions appended to the end of a growable
 *    struct, new enum values, new extensions. A plugin built against 1.x loads in every 1.y host.
 *  - Every growable struct starts with `uint32_t struct_size`, set by whoever fills the struct to
 *    sizeof(that struct) as that side compiled it. A reader never touches a field that lies beyond
 *    struct_size; for the host table, use TH_HOST_API_HAS(api, member) before calling anything added after
 *    1.0. A reader treats missing trailing fields as zero / NULL (the documented default).
 *  - Structs marked FROZEN never change, in any 1.x version.
 *  - The first three fields of th_plugin_descriptor (struct_size, abi_major, abi_minor) never move, in any
 *    major version, so every host can read which ABI a plugin was built for.
 *  - Extension ids ("th.presentation-controller/1") never change once published. An incompatible change is
 *    a new id with the next revision ("…/2"); hosts and plugins may support both during a transition.
 *  - Enumerations are open: a reader that meets a value it does not know treats it as unsupported
 *    (TH_ERR_UNSUPPORTED), never as an error in the other side.
 *  - A FROZEN struct may give a reserved slot a meaning in a later minor version, keeping every offset and the
 *    size, with zero as the old behaviour. A host reads such a field only from plugins that declare that minor
 *    version or later, so an older plugin gets the default whatever it left there.
 *
 * CHANGES
 *  1.3  (Core Animation animations) the host extension "th.core-animation/1": CABasicAnimation,
 *       CAKeyframeAnimation, CASpringAnimation and CAAnimationGroup objects with their CAMediaTiming, added to
 *       layers by key, CAAnimationDelegate callbacks, CATransaction, CACurrentMediaTime() and layer timing; see
 *       the block "ABI 1.3 — Core Animation animations" near the end. Nothing of 1.0 – 1.2 changes.
 *  1.3  (Core Animation layers) host extension "th.layers/1": layers that are not views (plain, gradient, shape)
 *       as th_view handles, the sublayer tree, masks (CALayer.mask, UIView.mask), a view's layer class, path
 *       and dash-pattern properties and path builders; th_property values 32–49 for borders, shadows,
 *       anchorPointZ, the shape members, maskedCorners, fillRule and the gradient type. See the block "ABI 1.3 —
 *       Core Animation layers" near the end. Nothing of 1.0–1.2 changes.
 *  1.2  (presentation and view content) get_presentation (layer.presentation()), set_image_content
 *       (UIImageView's image name and content mode) and set_visual_effect (UIVisualEffectView's blur) at the
 *       end of th_host_api; th_presentation, th_content_mode.
 *  1.2  (display links) host extension "th.display-link/1" (CADisplayLink): per-frame callbacks that run as
 *       time really passes.
 *  1.2  (interaction controllers and gestures) the animator extension "th.interaction-controller/1" (an
 *       interaction controller that receives pan-gesture samples) and the host extension "th.percent-driven/1"
 *       (UIPercentDrivenInteractiveTransition's update / pause / finish / cancel for the plugin); see the block
 *       "ABI 1.2 — interaction controllers and gestures" near the end. Nothing of 1.0 / 1.1 changes.
 *  1.2  (property animators) The host extension "th.property-animators/1" (UIViewPropertyAnimator: create,
 *       add animations with delay factors and completions, start, pause, scrub, reverse, continue with new
 *       timing, stop, finish at a position) and th_animator_descriptor.interruptible_animator
 *       (interruptibleAnimator(using:)), which interactive transitions then drive. See the block marked
 *       "ABI 1.2 — property animators".
 *  1.2  (scenes) the animator extension "th.scene-controller/1" (the app's view controllers, for gestures that
 *       arrive before any transition exists) and the host extension "th.scenes/1" (a scene's trees, and the
 *       transition a handler starts); see the block "ABI 1.2 — scenes" near the end.
 *  1.1  th_timing.flags (the first 4 bytes of 1.0's reserved[0]) with TH_TIMING_ALLOWS_OVERDAMPING.
 *       Springs run as Core Animation runs them: progress is the spring's closed form for the whole block and
 *       exactly the final value from its end (no landing blend); a TH_TIMING_SPRING_BOUNCE block lasts its
 *       spring's settling duration (its `duration` is the perceptual one) and refuses bounce 1 (it never
 *       settles); a TH_TIMING_SPRING_PHYSICAL spring with damping ratio > 1 moves critically damped (same
 *       natural frequency) unless it allows over-damping. Source note: th_timing's reserved area is now
 *       `uint32_t flags, reserved_flags; double reserved[3]`, so a positional initialiser that spelled out
 *       `{0, 0, 0, 0}` for 1.0's reserved[4] becomes `0, 0, {0, 0, 0}` (zero and designated initialisers,
 *       and the th_timing_* helpers, are unaffected).
 *  1.0  First version.
 *
 * ---------------------------------------------------------------------------------------------------------
 * THREADS, PHASES AND OWNERSHIP (these rules apply to every function below unless it says otherwise)
 *
 *  - Everything happens on one host thread. The host calls the plugin only from that thread, and the plugin
 *    calls the host only from that thread, only while a host -> plugin call (or a callback the host made
 *    from within one) is running. A call from another thread returns TH_ERR_WRONG_THREAD; a call made at
 *    any other time (for example from the plugin's own timer) returns TH_ERR_WRONG_PHASE. Only `log` may be
 *    called from any thread at any time between th_plugin_entry and deinit.
 *  - Handles (th_context, th_view) are 64-bit ids, not pointers. The host detects a handle it never issued
 *    (TH_ERR_INVALID_HANDLE) and one whose object is gone (TH_ERR_STALE_HANDLE); id 0 is never valid.
 *  - Strings are UTF-8 and NUL-terminated. A string the host passes to the plugin, or returns through an
 *    out-parameter, is BORROWED: it stays valid until the outermost host -> plugin call during which the
 *    plugin received it returns. Copy it to keep it. Strings the plugin passes to the host are read during
 *    the call and copied if kept, except the descriptor strings (see th_plugin_descriptor).
 *  - Out-parameters are written only when the function returns TH_OK.
 *  - Every host function checks its arguments. Misuse (unknown or stale handle, NULL where a pointer is
 *    required, NaN or infinite numbers, a call in the wrong phase) returns an error status, changes nothing,
 *    and is reported by the host as plugin misbehaviour naming the animator (error 2008's family: the
 *    transition's misbehaviour reports, or the host's log when there is no transition). The host never
 *    crashes on a mistake it can detect. It cannot survive a crash inside the plugin itself. Answers that
 *    are not mistakes (TH_ERR_NOT_FOUND from find_view, a param that was not declared, convert with no
 *    answer) are not reported. Misuse from another thread is reported when the host's current call returns.
 *  - Phases of a transition, and what the plugin may do in each:
 *      describe            th_plugin_entry, init, deinit, create, destroy: only `log` and `get_extension`.
 *      duration            transition_duration: read-only calls (queries, param and property getters).
 *      animate             animate_transition, completion callbacks, presentation-controller will-begin:
 *                          everything.
 *      animations          inside an animations function: property writes become animations; tree
 *                          changes take effect at once; nested animate calls are allowed (as in UIKit).
 *      driver              inside a custom-driver update: getters, and setters of animatable properties,
 *                          which write presentation values only. Nothing else (TH_ERR_WRONG_PHASE).
 *      ended               after complete_transition (also in the rest of the callback that called it),
 *                          animation_ended and *_did_end: queries, getters, and immediate clean-up (property
 *                          setters, tree changes, make_view, e.g. removing chrome in *_did_end); no new
 *                          animations, keyframes, drivers or alongside blocks, no second complete_transition
 *                          (TH_ERR_WRONG_PHASE).
 *    A host function called while no host -> plugin call runs (from the plugin's own timer, or after the
 *    call that handed out the context returned) returns TH_ERR_WRONG_PHASE; a context whose transition has
 *    ended returns TH_ERR_STALE_HANDLE.
 *
 * ---------------------------------------------------------------------------------------------------------
 * UNITS AND CONVENTIONS (the same as the JSON-RPC protocol's)
 *
 *  Times and durations in seconds of transition time. Geometry in points, y down, UIKit's conventions:
 *  `frame` in the superview's coordinates, `bounds` in the view's own, `position` and `anchorPoint` as
 *  CALayer's. Transforms are CATransform3D: row vectors, m11..m44, p' = p * M. Colours are r, g, b, a in
 *  [0, 1]. Angles in radians.
 */
#ifndef TH_PLUGIN_H
#define TH_PLUGIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------------------ */
/* Version, export, calling convention                                                                      */
/* ------------------------------------------------------------------------------------------------------ */

/** Breaking changes only. A host loads plugins of its own major version. */
#define TH_ABI_VERSION_MAJOR 1u
/** Additive changes only. A plugin built against 1.x loads in every 1.y host (see CHANGES above). */
#define TH_ABI_VERSION_MINOR 3u

/** The name of the one symbol a plugin exports (a function: see th_plugin_entry below). */
#define TH_PLUGIN_ENTRY_SYMBOL "th_plugin_entry"

/** Marks the entry function for export even when the plugin is built with -fvisibility=hidden. */
#if defined(_WIN32)
#define TH_EXPORT __declspec(dllexport)
#elif defined(__GNUC__) || defined(__clang__)
#define TH_EXPORT __attribute__((visibility("default")))
#else
#define TH_EXPORT
#endif

/** The calling convention of every function pointer in this header (empty except on 32-bit Windows). */
#if defined(_WIN32) && !defined(_WIN64)
#define TH_ABI __cdecl
#else
#define TH_ABI
#endif

/* C11 / C++11 compile-time checks that keep a plugin's build honest (e.g. -fshort-enums breaks the ABI). */
#if defined(__cplusplus)
#define TH_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#else
#define TH_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#endif

/* ------------------------------------------------------------------------------------------------------ */
/* Status                                                                                                  */
/* ------------------------------------------------------------------------------------------------------ */

/** The result of every host function that can fail. */
typedef enum th_status {
  /** Success; out-parameters were written. */
  TH_OK = 0,
  /** A required pointer was NULL, a string was not UTF-8, or a struct's struct_size was too small. */
  TH_ERR_INVALID_ARGUMENT = 1,
  /** A handle the host never issued, or one that belongs to another transition. */
  TH_ERR_INVALID_HANDLE = 2,
  /** A handle that was valid but whose object no longer exists (the transition ended, the view is gone). */
  TH_ERR_STALE_HANDLE = 3,
  /** A number that is NaN or infinite, or outside its documented range (e.g. a negative duration). */
  TH_ERR_INVALID_VALUE = 4,
  /** A call not allowed in the current phase (e.g. animating after complete_transition). */
  TH_ERR_WRONG_PHASE = 5,
  /** A call from a thread other than the host's. */
  TH_ERR_WRONG_THREAD = 6,
  /** The host does not support this request (an unknown property, timing kind or extension). */
  TH_ERR_UNSUPPORTED = 7,
  /** No view with that id, no parameter with that name, no view for that key. */
  TH_ERR_NOT_FOUND = 8,
  /** The value has another type (a number getter on a point property, a bool param read as a string). */
  TH_ERR_TYPE_MISMATCH = 9,
  /** The tree change is impossible (a view into its own subtree, a sibling that is not a subview). */
  TH_ERR_INVALID_TREE = 10,
  /** A host limit was reached (too many views, animations or nested calls). */
  TH_ERR_LIMIT = 11
} th_status;

/** A short English name for a status, for log messages ("TH_ERR_STALE_HANDLE"). Never NULL. */
static inline const char *th_status_name(th_status status) {
  switch (status) {
  case TH_OK: return "TH_OK";
  case TH_ERR_INVALID_ARGUMENT: return "TH_ERR_INVALID_ARGUMENT";
  case TH_ERR_INVALID_HANDLE: return "TH_ERR_INVALID_HANDLE";
  case TH_ERR_STALE_HANDLE: return "TH_ERR_STALE_HANDLE";
  case TH_ERR_INVALID_VALUE: return "TH_ERR_INVALID_VALUE";
  case TH_ERR_WRONG_PHASE: return "TH_ERR_WRONG_PHASE";
  case TH_ERR_WRONG_THREAD: return "TH_ERR_WRONG_THREAD";
  case TH_ERR_UNSUPPORTED: return "TH_ERR_UNSUPPORTED";
  case TH_ERR_NOT_FOUND: return "TH_ERR_NOT_FOUND";
  case TH_ERR_TYPE_MISMATCH: return "TH_ERR_TYPE_MISMATCH";
  case TH_ERR_INVALID_TREE: return "TH_ERR_INVALID_TREE";
  case TH_ERR_LIMIT: return "TH_ERR_LIMIT";
  }
  return "TH_ERR_(unknown)";
}

/* ------------------------------------------------------------------------------------------------------ */
/* Values (all FROZEN)                                                                                      */
/* ------------------------------------------------------------------------------------------------------ */

/** FROZEN. A point, or a vector, in points. */
typedef struct th_point {
  double x;
  double y;
} th_point;

/** FROZEN. A rectangle: origin (x, y) and size (width, height), as CGRect. */
typedef struct th_rect {
  double x;
  double y;
  double width;
  double height;
} th_rect;

/** FROZEN. A colour; each component in [0, 1]. */
typedef struct th_color {
  double r;
  double g;
  double b;
  double a;
} th_color;

/**
 * FROZEN. A CATransform3D: m[0..15] = m11, m12, m13, m14, m21, …, m44 (row vectors, translation in
 * m41..m43, perspective in m34 = -1/d).
 */
typedef struct th_transform3d {
  double m[16];
} th_transform3d;

/**
 * FROZEN. A view handle. Handles are scoped to one transition and become stale when it is torn down.
 * `{0}` means "no view" (UIKit's nil).
 */
typedef struct th_view {
  uint64_t id;
} th_view;

/**
 * FROZEN. Who is calling the host. The host passes a transition context to every animator call; it also
 * gives each loaded plugin a plugin context (th_host_info.plugin_context) for `log` outside transitions.
 * `{0}` means "no context".
 */
typedef struct th_context {
  uint64_t id;
} th_context;

/** The identity transform, for convenience. */
static inline th_transform3d th_transform3d_identity(void) {
  th_transform3d t;
  for (int i = 0; i < 16; i++) t.m[i] = (i % 5 == 0) ? 1.0 : 0.0;
  return t;
}

/**
 * A gradient overlay (CAGradientLayer): `count` colours at `locations` (NULL = evenly spaced, else `count`
 * increasing values in [0, 1]) along the line from start_point to end_point, in unit coordinates of the
 * view's bounds ((0, 0.5) → (1, 0.5) is horizontal). Growable: set struct_size = sizeof(th_gradient).
 * When the host returns one, the arrays are borrowed (see ownership rules).
 */
typedef struct th_gradient {
  uint32_t struct_size;
  uint32_t count;
  const th_color *colors;
  const double *locations;
  th_point start_point;
  th_point end_point;
} th_gradient;

/* ------------------------------------------------------------------------------------------------------ */
/* Timing: curves and springs                                                                               */
/* ------------------------------------------------------------------------------------------------------ */

/**
 * How progress follows time. Zero is UIView.animate's default.
 *
 * Springs run as Core Animation runs them. With x = 1 - progress, a spring moves as m x'' + c x' + k x = 0,
 * x(0) = 1, x'(0) = -initial_velocity, natural frequency w0 = sqrt(k / m) and damping ratio z = c / (2 sqrt(k m)).
 * Progress is that closed form (it may overshoot 1) from the block's start until its end, and exactly 1 (the
 * property's new value) from the end on: nothing smooths the last moments, so a spring cut short jumps to the
 * target, and one that settled jumps by at most 0.001 of the distance. The block's completion runs at its end.
 * How long the block lasts depends on the form:
 *
 *   form                        `duration` of the options is            the block lasts (completion then)
 *   TH_TIMING_SPRING            the block's length                      exactly `duration`
 *   TH_TIMING_SPRING_PHYSICAL   TH_DURATION_AUTOMATIC, or a length      its settling duration, or that length
 *   TH_TIMING_SPRING_BOUNCE     the perceptual duration d               its settling duration
 *
 * The settling duration is Core Animation's settlingDuration: the time after which |x| stays within 0.001
 * (z < 1: (ln 1000 + ln(1 + |B|)) / (z w0), B = (z w0 - initial_velocity) / (w0 sqrt(1 - z^2)); z >= 1: the
 * first multiple of 0.1 s from which |x| <= 0.001 for good). A zero duration applies the change at once, as for
 * curves. The animator's transition_duration is its own answer and is never changed by its springs.
 */
typedef enum th_timing_kind {
  /** A timing curve (th_curve). */
  TH_TIMING_CURVE = 0,
  /**
   * UIKit's spring (UIView.animate(withDuration:delay:usingSpringWithDamping:initialSpringVelocity:...)):
   * damping_ratio in (0, 1] (1 = no overshoot) and initial_velocity. Mass 1; the stiffness is chosen so that the
   * motion's envelope is 0.001 of the distance at `duration` (Framer's reconstruction of UIKit's mapping, see
   * docs/writing-plugins.md), and the block lasts exactly `duration`.
   */
  TH_TIMING_SPRING = 1,
  /**
   * CASpringAnimation's spring: mass > 0, stiffness > 0, damping >= 0, initial_velocity. Lasts its settling
   * duration when the animation's duration is TH_DURATION_AUTOMATIC (then damping must be > 0: an undamped
   * spring never settles), else the given duration (cut short there if it has not settled). A damping ratio
   * above 1 moves as the critically damped spring with the same w0 (c = 2 sqrt(k m)), and settles as that one
   * does, unless flags has TH_TIMING_ALLOWS_OVERDAMPING (CASpringAnimation.allowsOverdamping).
   */
  TH_TIMING_SPRING_PHYSICAL = 2,
  /**
   * iOS 17's spring(duration:bounce:) (CASpringAnimation(perceptualDuration:bounce:)): the options' `duration`
   * is the perceptual duration d, bounce in (-1, 1) (0 = critically damped, < 0 over-damped, 1 would never
   * settle). Mass 1, stiffness (2 pi / d)^2, damping ratio 1 - bounce for bounce >= 0 and 1 / (1 + bounce)
   * below (a negative bounce allows over-damping by itself). The block lasts the spring's settling duration.
   */
  TH_TIMING_SPRING_BOUNCE = 3
} th_timing_kind;

/** Timing curves. The values of the first four are UIView.AnimationCurve's. */
typedef enum th_curve {
  /** Cubic Bézier (0.42, 0, 0.58, 1): UIView.animate's default. */
  TH_CURVE_EASE_IN_OUT = 0,
  /** (0.42, 0, 1, 1). */
  TH_CURVE_EASE_IN = 1,
  /** (0, 0, 0.58, 1). */
  TH_CURVE_EASE_OUT = 2,
  /** Progress = time. */
  TH_CURVE_LINEAR = 3,
  /** Core Animation's default curve (0.25, 0.1, 0.25, 1). */
  TH_CURVE_DEFAULT = 4,
  /** A cubic Bézier from control_points = {x1, y1, x2, y2}; x1 and x2 in [0, 1]. */
  TH_CURVE_BEZIER = 5,
  /** `steps` equal jumps (>= 1), CSS steps(n, start|end) by step_position. */
  TH_CURVE_STEPS = 6
} th_curve;

/** Where TH_CURVE_STEPS jumps: at the end of each interval (CSS `end`, the default) or at its start. */
typedef enum th_step_position {
  TH_STEP_END = 0,
  TH_STEP_START = 1
} th_step_position;

/**
 * th_timing.flags bit (ABI 1.1): a TH_TIMING_SPRING_PHYSICAL spring with damping ratio > 1 moves really
 * over-damped instead of critically damped (CASpringAnimation.allowsOverdamping, SwiftUI's allowOverDamping).
 * It changes nothing for the other kinds (a bounce spring sets it by itself when bounce < 0). A 1.0 host ignores
 * it: check host->abi_minor >= 1 if the motion matters.
 */
#define TH_TIMING_ALLOWS_OVERDAMPING (1u << 0)

/**
 * FROZEN. A timing: a curve or a spring. Only the fields of its kind are read; the others, and the reserved
 * fields, must be zero. A zero-initialised th_timing is UIView.animate's default (easeInOut). Every number
 * read must be finite and in its range (TH_ERR_INVALID_VALUE); an unknown kind, curve, step position or flag
 * bit is TH_ERR_UNSUPPORTED.
 *
 * initial_velocity follows UIKit: 1 means the total animation distance per second (a 200 pt move started at
 * 100 pt/s is 0.5).
 */
typedef struct th_timing {
  th_timing_kind kind;
  th_curve curve;
  double control_points[4];
  int32_t steps;
  th_step_position step_position;
  double damping_ratio;
  double initial_velocity;
  double mass;
  double stiffness;
  double damping;
  double bounce;
  /**
   * ABI 1.1 (1.0's reserved[0]): TH_TIMING_* bits for springs; 0 = Core Animation's defaults. Read by the host
   * only from plugins that declare ABI 1.1 or later; a 1.0 plugin gets 0.
   */
  uint32_t flags;
  uint32_t reserved_flags;
  double reserved[3];
} th_timing;

/** A timing curve (linear, ease…, or default). */
static inline th_timing th_timing_curve(th_curve curve) {
  th_timing t = {TH_TIMING_CURVE, curve, {0, 0, 0, 0}, 0, TH_STEP_END, 0, 0, 0, 0, 0, 0, 0, 0, {0, 0, 0}};
  return t;
}

/** A cubic Bézier timing curve. */
static inline th_timing th_timing_bezier(double x1, double y1, double x2, double y2) {
  th_timing t = th_timing_curve(TH_CURVE_BEZIER);
  t.control_points[0] = x1;
  t.control_points[1] = y1;
  t.control_points[2] = x2;
  t.control_points[3] = y2;
  return t;
}

/** UIView.animate(withDuration:delay:usingSpringWithDamping:initialSpringVelocity:…)'s spring; lasts `duration`. */
static inline th_timing th_timing_spring(double damping_ratio, double initial_velocity) {
  th_timing t = th_timing_curve(TH_CURVE_EASE_IN_OUT);
  t.kind = TH_TIMING_SPRING;
  t.damping_ratio = damping_ratio;
  t.initial_velocity = initial_velocity;
  return t;
}

/**
 * CASpringAnimation's spring (ζ > 1 clamped to critical; set TH_TIMING_ALLOWS_OVERDAMPING in flags for real
 * over-damping). With TH_DURATION_AUTOMATIC it lasts its settling duration.
 */
static inline th_timing th_timing_spring_physical(double mass, double stiffness, double damping,
                                                  double initial_velocity) {
  th_timing t = th_timing_curve(TH_CURVE_EASE_IN_OUT);
  t.kind = TH_TIMING_SPRING_PHYSICAL;
  t.mass = mass;
  t.stiffness = stiffness;
  t.damping = damping;
  t.initial_velocity = initial_velocity;
  return t;
}

/** iOS 17's spring(duration:bounce:): the options' duration is the perceptual one; it lasts its settling duration. */
static inline th_timing th_timing_spring_bounce(double bounce, double initial_velocity) {
  th_timing t = th_timing_curve(TH_CURVE_EASE_IN_OUT);
  t.kind = TH_TIMING_SPRING_BOUNCE;
  t.bounce = bounce;
  t.initial_velocity = initial_velocity;
  return t;
}

/** For TH_TIMING_SPRING_PHYSICAL only: the block lasts the spring's settling duration (completion then). */
#define TH_DURATION_AUTOMATIC (-1.0)

/** Keyframe calculation modes; the values are UIView.KeyframeAnimationOptions' calculationMode >> 10. */
typedef enum th_calculation_mode {
  TH_CALCULATION_LINEAR = 0,
  TH_CALCULATION_DISCRETE = 1,
  /** Constant speed by distance; key times and the timing are ignored (as Core Animation does). */
  TH_CALCULATION_PACED = 2,
  TH_CALCULATION_CUBIC = 3,
  TH_CALCULATION_CUBIC_PACED = 4
} th_calculation_mode;

/**
 * Options of an animation block: UIView.animate(withDuration:delay:options:…) and its spring variants.
 * Growable: struct_size = sizeof(th_animation_options). A zeroed struct with struct_size set is a
 * 0-second easeInOut block (changes applied at once, completion called with finished = true).
 */
typedef struct th_animation_options {
  uint32_t struct_size;
  /** Reserved for option bits (none is defined yet); must be 0. */
  uint32_t flags;
  /** Seconds, >= 0; or TH_DURATION_AUTOMATIC with a physical spring. */
  double duration;
  /** Seconds, >= 0, before the block starts. */
  double delay;
  th_timing timing;
} th_animation_options;

/**
 * Options of a keyframe block: UIView.animateKeyframes(withDuration:delay:options:…). `timing` shapes the
 * whole block; pass th_timing_curve(TH_CURVE_LINEAR) for exact key times (UIKit's default warps them with
 * easeInOut, and so does a zeroed timing here). Growable: struct_size = sizeof(th_keyframe_options).
 */
typedef struct th_keyframe_options {
  uint32_t struct_size;
  th_calculation_mode calculation_mode;
  double duration;
  double delay;
  th_timing timing;
} th_keyframe_options;

/* ------------------------------------------------------------------------------------------------------ */
/* Views, properties, parameters, logging                                                                   */
/* ------------------------------------------------------------------------------------------------------ */

/** UITransitionContextViewKey / ViewControllerKey. */
typedef enum th_view_key {
  TH_KEY_FROM = 1,
  TH_KEY_TO = 2
} th_view_key;

/**
 * The view and layer properties the host models. Each has one value kind, named after the getter/setter
 * pair that accepts it; using another pair returns TH_ERR_TYPE_MISMATCH. "Animatable" properties written
 * inside an animations function become animations from their current on-screen value; the others change
 * at once, as in UIKit.
 */
typedef enum th_property {
  /** rect (width, height >= 0), animatable. The view's bounds (origin = the scroll offset of its contents). */
  TH_PROP_BOUNDS = 1,
  /** point, animatable. layer.position, in the superview's coordinates. */
  TH_PROP_POSITION = 2,
  /** point, animatable. layer.anchorPoint, unit coordinates; (0.5, 0.5) by default. Moving it moves the frame. */
  TH_PROP_ANCHOR_POINT = 3,
  /**
   * rect (width, height >= 0), animatable. UIView.frame: derived from bounds, position, anchorPoint
   * (undefined with a transform). Inside a driver it writes the presented bounds and position.
   */
  TH_PROP_FRAME = 4,
  /** point, animatable. UIView.center (= position when anchorPoint is (0.5, 0.5)). */
  TH_PROP_CENTER = 5,
  /** transform, animatable. layer.transform (a UIView affine transform is its 2-D part). */
  TH_PROP_TRANSFORM = 6,
  /** transform, animatable. layer.sublayerTransform: applies to subviews (m34 gives them perspective). */
  TH_PROP_SUBLAYER_TRANSFORM = 7,
  /** number in [0, 1], animatable. UIView.alpha. */
  TH_PROP_ALPHA = 8,
  /** bool, not animatable (TH_ERR_WRONG_PHASE inside a driver). UIView.isHidden. */
  TH_PROP_HIDDEN = 9,
  /** number, animatable. layer.zPosition. */
  TH_PROP_Z_POSITION = 10,
  /** number >= 0, animatable. layer.cornerRadius. */
  TH_PROP_CORNER_RADIUS = 11,
  /** color (optional: may be unset; components in [0, 1]), animatable. backgroundColor. */
  TH_PROP_BACKGROUND_COLOR = 12,
  /** bool, not animatable (TH_ERR_WRONG_PHASE inside a driver). clipsToBounds / masksToBounds. */
  TH_PROP_CLIPS_TO_BOUNDS = 13,
  /** gradient (optional), animatable. Makes the view a CAGradientLayer-backed view. */
  TH_PROP_GRADIENT = 14
} th_property;

/** The type of an animator parameter. */
typedef enum th_param_type {
  TH_PARAM_NUMBER = 1,
  TH_PARAM_BOOL = 2,
  /** One string out of `enum_options`. */
  TH_PARAM_ENUM = 3,
  TH_PARAM_COLOR = 4,
  TH_PARAM_STRING = 5,
  TH_PARAM_POINT = 6,
  TH_PARAM_RECT = 7
} th_param_type;

/** Log severities (CLAP's, including the two misbehaviour levels). */
typedef enum th_log_level {
  TH_LOG_DEBUG = 0,
  TH_LOG_INFO = 1,
  TH_LOG_WARNING = 2,
  TH_LOG_ERROR = 3,
  TH_LOG_FATAL = 4,
  /** The plugin reports that the host broke this contract. */
  TH_LOG_HOST_MISBEHAVING = 5,
  /** Something (e.g. a wrapped sub-plugin) broke this contract. */
  TH_LOG_PLUGIN_MISBEHAVING = 6
} th_log_level;

/* ------------------------------------------------------------------------------------------------------ */
/* Callbacks the plugin hands to the host                                                                   */
/* ------------------------------------------------------------------------------------------------------ */

/**
 * An animations function: called synchronously, once, from within animate / animate_keyframes /
 * add_keyframe / animate_alongside, before that call returns. Property writes made in it are animated.
 * `user_data` is what the plugin passed; the host never reads or frees it.
 */
typedef void(TH_ABI *th_animations_fn)(th_context ctx, void *user_data);

/**
 * A completion function: called exactly once for every animate / animate_keyframes / animate_alongside /
 * add_driver call that returned TH_OK, later, when transition time passes the block's end (never from
 * within the call that scheduled it). `finished` is false when the block was cut short: another animation
 * of the same property replaced one of its animations, or the transition ended first (a completion still
 * owed when the transition ends is called after animation_ended, before destroy, with finished = false).
 * The right place to free `user_data`. Phase: animate (everything is allowed, including new blocks and
 * complete_transition), unless the transition already completed (then: ended).
 */
typedef void(TH_ABI *th_completion_fn)(th_context ctx, bool finished, void *user_data);

/* ------------------------------------------------------------------------------------------------------ */
/* ABI 1.2 — presentation and view content: types                                                          */
/* ------------------------------------------------------------------------------------------------------ */

/**
 * What a view shows on screen at one moment: CALayer.presentation()'s values (get_presentation). Growable:
 * set struct_size = sizeof(th_presentation); the host fills the fields that fit in struct_size.
 */
typedef struct th_presentation {
  uint32_t struct_size;
  uint32_t reserved;
  /** UIKit's frame from the presented bounds, position, anchor point and transform (see TH_PROP_FRAME). */
  th_rect frame;
  th_rect bounds;
  /** In the superview's bounds coordinates. */
  th_point position;
  th_point anchor_point;
  th_transform3d transform;
  th_transform3d sublayer_transform;
  /** The layer's own opacity (UIView.alpha), not composited with its ancestors. */
  double opacity;
  double z_position;
  double corner_radius;
  /** Meaningful only when has_background_color. */
  th_color background_color;
  bool has_background_color;
  /** isHidden and masksToBounds are not animatable: their model values. */
  bool hidden;
  bool masks_to_bounds;
} th_presentation;

/** UIView.ContentMode, with UIKit's raw values (set_image_content). */
typedef enum th_content_mode {
  TH_CONTENT_MODE_SCALE_TO_FILL = 0,
  TH_CONTENT_MODE_SCALE_ASPECT_FIT = 1,
  TH_CONTENT_MODE_SCALE_ASPECT_FILL = 2,
  TH_CONTENT_MODE_REDRAW = 3,
  TH_CONTENT_MODE_CENTER = 4,
  TH_CONTENT_MODE_TOP = 5,
  TH_CONTENT_MODE_BOTTOM = 6,
  TH_CONTENT_MODE_LEFT = 7,
  TH_CONTENT_MODE_RIGHT = 8,
  TH_CONTENT_MODE_TOP_LEFT = 9,
  TH_CONTENT_MODE_TOP_RIGHT = 10,
  TH_CONTENT_MODE_BOTTOM_LEFT = 11,
  TH_CONTENT_MODE_BOTTOM_RIGHT = 12
} th_content_mode;

/* ------------------------------------------------------------------------------------------------------ */
/* The host API                                                                                             */
/* ------------------------------------------------------------------------------------------------------ */

/**
 * The functions the plugin calls. Obtained from th_host_info.api (in th_plugin_entry, init and create);
 * valid from th_plugin_entry until deinit returns. Growable: before calling a function added after 1.0,
 * check TH_HOST_API_HAS(api, member).
 *
 * Unless stated otherwise a function: is callable in every transition phase except describe; takes the
 * transition context the host passed to the current animator call (or to the callback running now); returns
 * TH_ERR_INVALID_HANDLE / TH_ERR_STALE_HANDLE for bad handles, TH_ERR_INVALID_ARGUMENT for NULL out-params,
 * TH_ERR_WRONG_PHASE / TH_ERR_WRONG_THREAD as in the rules at the top.
 */
typedef struct th_host_api {
  uint32_t struct_size;
  uint32_t reserved;

  /* --- general ------------------------------------------------------------------------------------- */

  /**
   * Writes a message to the host's log (stderr), tagged with the plugin and, for a transition context, the
   * animator and transition. Callable from any thread, in every phase, with any context (even {0}).
   * `message` is read during the call. Never fails visibly.
   */
  void(TH_ABI *log)(th_context ctx, th_log_level level, const char *message);

  /**
   * A host extension by id (e.g. TH_EXT_CUSTOM_DRIVER), or NULL when the host does not support it. The
   * returned table is owned by the host and valid until deinit. Callable in every phase, including describe.
   */
  const void *(TH_ABI *get_extension)(const char *id);

  /* --- context queries (UIViewControllerContextTransitioning) ------------------------------------------ */

  /** The container view, where the transition happens. */
  th_status(TH_ABI *container_view)(th_context ctx, th_view *out_view);

  /**
   * view(forKey:): the view to animate for `key`, or {0} when UIKit would return nil (the presenter's view
   * that a presentation keeps: do not touch it). TH_OK in both cases.
   */
  th_status(TH_ABI *view_for_key)(th_context ctx, th_view_key key, th_view *out_view);

  /** viewController(forKey:): the root view of that side's tree (never {0}). */
  th_status(TH_ABI *view_controller_for_key)(th_context ctx, th_view_key key, th_view *out_view);

  /** initialFrame(for:): that side's frame at the start, container coordinates; {0,0,0,0} if unknown. */
  th_status(TH_ABI *initial_frame)(th_context ctx, th_view_key key, th_rect *out_frame);

  /**
   * finalFrame(for:): that side's frame at the end; {0,0,0,0} if unknown or (from side) when its view will
   * be removed. When not zero it must be respected.
   */
  th_status(TH_ABI *final_frame)(th_context ctx, th_view_key key, th_rect *out_frame);

  /**
   * The operation: "present", "dismiss", "push", "pop", "segue", "unwind", or a custom string the client
   * chose (it settles like "present"). Borrowed string.
   */
  th_status(TH_ABI *operation)(th_context ctx, const char **out_operation);

  /** isAnimated (true unless the client asked for an unanimated transition). */
  th_status(TH_ABI *is_animated)(th_context ctx, bool *out_value);

  /** isInteractive: true while a client drives the transition's progress (may change as it runs). */
  th_status(TH_ABI *is_interactive)(th_context ctx, bool *out_value);

  /** transitionWasCancelled: true once the transition has been cancelled. */
  th_status(TH_ABI *transition_was_cancelled)(th_context ctx, bool *out_value);

  /**
   * completeTransition(_:): must be called exactly once per transition, when all its animations are done
   * (usually from a completion), with `!transition_was_cancelled`. The transition ends after the current
   * callback returns (then *_did_end, animation_ended, owed completions, destroy). A second call returns
   * TH_ERR_WRONG_PHASE and is reported (2008, "completedTwice"); a transition whose animations and
   * completions all end without a call fails ("neverCompleted"). Phase: animate, animations.
   */
  th_status(TH_ABI *complete_transition)(th_context ctx, bool did_complete);

  /**
   * The transition's parameter values, by name (as declared in th_param_descriptor.name). Every declared
   * parameter has a value (its default unless the client gave one), so TH_ERR_NOT_FOUND means the name was
   * not declared. TH_ERR_TYPE_MISMATCH when the declared type differs; enum params are read as strings.
   * The string is borrowed.
   */
  th_status(TH_ABI *param_number)(th_context ctx, const char *name, double *out_value);
  th_status(TH_ABI *param_bool)(th_context ctx, const char *name, bool *out_value);
  th_status(TH_ABI *param_string)(th_context ctx, const char *name, const char **out_value);
  th_status(TH_ABI *param_color)(th_context ctx, const char *name, th_color *out_value);
  th_status(TH_ABI *param_point)(th_context ctx, const char *name, th_point *out_value);
  th_status(TH_ABI *param_rect)(th_context ctx, const char *name, th_rect *out_value);

  /* --- the view tree ----------------------------------------------------------------------------------- */

  /** The view whose id is `id` anywhere in this transition's scene; TH_ERR_NOT_FOUND if none. */
  th_status(TH_ABI *find_view)(th_context ctx, const char *id, th_view *out_view);

  /** The view's id string (unique in the scene; borrowed). */
  th_status(TH_ABI *view_id)(th_context ctx, th_view view, const char **out_id);

  /** The superview, or {0} when the view is not in a tree (or is the container). */
  th_status(TH_ABI *superview)(th_context ctx, th_view view, th_view *out_superview);

  /** The number of subviews. */
  th_status(TH_ABI *subview_count)(th_context ctx, th_view view, uint32_t *out_count);

  /**
   * The subview at `index` in subview order (0 = back; siblings with a higher zPosition draw later whatever
   * their index); TH_ERR_INVALID_VALUE when out of range.
   */
  th_status(TH_ABI *subview_at)(th_context ctx, th_view view, uint32_t index, th_view *out_subview);

  /**
   * Makes a plain view (no superview, zero frame, transparent, visible) for chrome such as a dimming or
   * gradient overlay. Its id is `id_hint` when free, else the hint with a numeric suffix ("dimming-2");
   * NULL or "" lets the host choose. It appears in frames once added to the tree. Phase: animate (also
   * inside animations functions) and ended; at most 100000 made views per transition (TH_ERR_LIMIT).
   */
  th_status(TH_ABI *make_view)(th_context ctx, const char *id_hint, th_view *out_view);

  /**
   * snapshotView(afterScreenUpdates:): a new view that looks like `view` now (same size and content, no
   * subviews' later changes), not yet in the tree. Frames report it with `snapshotOf`. Phase: as make_view.
   */
  th_status(TH_ABI *snapshot_view)(th_context ctx, th_view view, th_view *out_snapshot);

  /**
   * Tree changes, as UIView's. A view that already has a superview is moved. TH_ERR_INVALID_TREE when the
   * change would make a cycle, when `sibling` (or, for bring/send, `child`) is not a subview of `parent`,
   * or when the container would be moved or removed. TH_ERR_LIMIT when the tree would have more than 1000
   * levels (the container counts as one). Phase: animate (also inside animations functions; not animated) and
   * ended (clean-up); not in a driver or transition_duration.
   */
  th_status(TH_ABI *add_subview)(th_context ctx, th_view parent, th_view child);
  th_status(TH_ABI *insert_subview_below)(th_context ctx, th_view parent, th_view child, th_view sibling);
  th_status(TH_ABI *insert_subview_above)(th_context ctx, th_view parent, th_view child, th_view sibling);
  /** `index` past the end appends (as UIKit); it is not an error. */
  th_status(TH_ABI *insert_subview_at)(th_context ctx, th_view parent, th_view child, uint32_t index);
  th_status(TH_ABI *remove_from_superview)(th_context ctx, th_view view);
  th_status(TH_ABI *bring_subview_to_front)(th_context ctx, th_view parent, th_view child);
  th_status(TH_ABI *send_subview_to_back)(th_context ctx, th_view parent, th_view child);

  /**
   * convert(_:from:to:): a rect or point in `from`'s bounds coordinates expressed in `to`'s. {0} for either
   * view means the container. With 3-D transforms on the way the rect is the bounding box of the projected
   * corners. Views of different trees convert through their roots' frames (a to view not yet added
   * converts as if it were added to the container at its frame). TH_ERR_NOT_FOUND when there is no answer:
   * a point projects behind the eye (w <= 0), or `to`'s plane is seen edge-on.
   */
  th_status(TH_ABI *convert_rect)(th_context ctx, th_rect rect, th_view from, th_view to, th_rect *out_rect);
  th_status(TH_ABI *convert_point)(th_context ctx, th_point point, th_view from, th_view to,
                                   th_point *out_point);

  /* --- properties (see th_property for each one's kind) ------------------------------------------------ */

  /**
   * Getters return the model value (what was last set), as UIKit's do, also while an animation to it runs.
   * Setters validate (NaN, infinite, alpha outside [0, 1], negative cornerRadius or size, colour components
   * outside [0, 1] -> TH_ERR_INVALID_VALUE; unknown property -> TH_ERR_UNSUPPORTED; wrong kind ->
   * TH_ERR_TYPE_MISMATCH). Phase: setters in animate, animations, driver (they write presentation values
   * there) and ended (immediate); not in transition_duration. Getters in every transition phase.
   */
  th_status(TH_ABI *get_number)(th_context ctx, th_view view, th_property property, double *out_value);
  th_status(TH_ABI *set_number)(th_context ctx, th_view view, th_property property, double value);
  th_status(TH_ABI *get_bool)(th_context ctx, th_view view, th_property property, bool *out_value);
  th_status(TH_ABI *set_bool)(th_context ctx, th_view view, th_property property, bool value);
  th_status(TH_ABI *get_point)(th_context ctx, th_view view, th_property property, th_point *out_value);
  th_status(TH_ABI *set_point)(th_context ctx, th_view view, th_property property, th_point value);
  th_status(TH_ABI *get_rect)(th_context ctx, th_view view, th_property property, th_rect *out_value);
  th_status(TH_ABI *set_rect)(th_context ctx, th_view view, th_property property, th_rect value);
  th_status(TH_ABI *get_transform)(th_context ctx, th_view view, th_property property,
                                   th_transform3d *out_value);
  th_status(TH_ABI *set_transform)(th_context ctx, th_view view, th_property property,
                                   const th_transform3d *value);
  /** `*out_is_set` = false (and `*out_value` untouched) when the colour is unset (nil). */
  th_status(TH_ABI *get_color)(th_context ctx, th_view view, th_property property, th_color *out_value,
                               bool *out_is_set);
  /** `value` NULL unsets the colour. */
  th_status(TH_ABI *set_color)(th_context ctx, th_view view, th_property property, const th_color *value);
  /** `*out_is_set` = false when the view has no gradient. Arrays in `*out_value` are borrowed. */
  th_status(TH_ABI *get_gradient)(th_context ctx, th_view view, th_property property,
                                  th_gradient *out_value, bool *out_is_set);
  /**
   * `value` NULL removes the gradient. count in [1, 1024] (more: TH_ERR_LIMIT); colours in [0, 1];
   * locations NULL or non-decreasing in [0, 1]; points finite.
   */
  th_status(TH_ABI *set_gradient)(th_context ctx, th_view view, th_property property,
                                  const th_gradient *value);

  /* --- animation blocks ------------------------------------------------------------------------------- */

  /**
   * UIView.animate(withDuration:delay:options:animations:completion:) and its spring variants: calls
   * `animations(ctx, user_data)` once, now; every animatable property written in it animates from its
   * current on-screen value to the written value with `options`' duration, delay and timing. Later calls
   * `completion(ctx, finished, user_data)` once (`completion` may be NULL). A duration of 0 applies the
   * writes at once (the completion still runs later, finished = true). TH_ERR_INVALID_VALUE for negative
   * or non-finite durations and delays and bad timing numbers (a Bézier x outside [0, 1], steps < 1, spring
   * numbers out of range); TH_ERR_UNSUPPORTED for unknown timing kinds, curves and non-zero flags;
   * TH_ERR_INVALID_ARGUMENT for NULL `options` or `animations`. Phase: animate, animations (nested
   * blocks, at most 64 deep: TH_ERR_LIMIT).
   */
  th_status(TH_ABI *animate)(th_context ctx, const th_animation_options *options, th_animations_fn animations,
                             th_completion_fn completion, void *user_data);

  /**
   * UIView.animateKeyframes: calls `animations` once, now; inside it, call add_keyframe. Property writes in
   * a keyframe are its values; between keyframes values hold (as Core Animation's keyframe animations).
   */
  th_status(TH_ABI *animate_keyframes)(th_context ctx, const th_keyframe_options *options,
                                       th_animations_fn animations, th_completion_fn completion,
                                       void *user_data);

  /**
   * UIView.addKeyframe(withRelativeStartTime:relativeDuration:animations:): start and duration are fractions
   * of the keyframe block, start + duration <= 1 (else TH_ERR_INVALID_VALUE); duration 0 is a step at
   * `relative_start`. Calls `animations` once, now. Phase: only directly inside an animate_keyframes
   * animations function (elsewhere, including inside another keyframe, TH_ERR_WRONG_PHASE).
   */
  th_status(TH_ABI *add_keyframe)(th_context ctx, double relative_start, double relative_duration,
                                  th_animations_fn animations, void *user_data);

  /**
   * The transition coordinator's animate(alongsideTransition:completion:), for presentation controllers
   * (chrome such as dimming). `animations` runs as an animation block of its own, on the transition's
   * timeline, with UIView's default curve (easeInOut) whatever timing the animator's blocks use:
   * - called before animate_transition has returned (from a will-begin call, from animate_transition or
   *   from an animations function inside it): queued, then run right after animate_transition returns, in
   *   call order, as a block from time 0 lasting the transition's duration;
   * - called later (from a completion): run at once, over the rest of the duration (duration minus the
   *   current time; at or past the end its writes apply at once).
   * This is UIKit's rule for animators that do not animate with UIView blocks. UIKit puts alongside
   * animations of an animator that does into that animator's animation context (its duration and curve);
   * the host does not, so to follow the animator's timing start a block with that timing inside
   * `animations` (blocks started there keep their own timing). Interactive transitions scrub the block
   * with the rest of the timeline, and a cancel runs it back. `completion` is the block's completion, with
   * th_completion_fn's rules: going forward it runs when transition time passes the block's end, usually
   * the transition's duration, so possibly before the animator's complete_transition; a cancelled
   * transition runs it once it is back at its start, before the did-end calls. Phase: animate (including
   * presentation-controller will-begin calls), animations.
   */
  th_status(TH_ABI *animate_alongside)(th_context ctx, th_animations_fn animations, th_completion_fn completion,
                                       void *user_data);

  /* --- shared elements ---------------------------------------------------------------------------------- */

  /**
   * The shared-element key the client gave `view` (the view-tree node's `match`, as Hero's heroID), in
   * `*out_key` (borrowed). TH_ERR_NOT_FOUND when the view has none (views the animator made, snapshots).
   * Phase: any but describe.
   */
  th_status(TH_ABI *view_match_key)(th_context ctx, th_view view, const char **out_key);

  /**
   * The view in the subtree of `root` (`root` included, depth first, back to front) whose shared-element key
   * equals `key`, in `*out_view`: how MagicMove-style animators pair a view of the from tree with its
   * counterpart in the to tree (root = the other tree's view controller view). TH_ERR_NOT_FOUND when none has
   * it. Phase: any but describe.
   */
  th_status(TH_ABI *find_view_by_match)(th_context ctx, th_view root, const char *key, th_view *out_view);

  /* --- ABI 1.2 — presentation and view content ----------------------------------------------------------- */
  /* A 1.0 or 1.1 host has none of these: check TH_HOST_API_HAS(api, member) first. */

  /**
   * layer.presentation(): what `view` shows at the transition's current time, every running block, keyframe
   * and driver applied (the model values when nothing animates it). `*out_value` is filled up to its
   * struct_size; TH_ERR_INVALID_ARGUMENT when that is smaller than the header and `frame` (40 bytes). The
   * current time is the transition's: 0 inside animate_transition, a completion's scheduled time, the time a
   * tick reached. Phase: animate,
   * animations, ended; TH_ERR_WRONG_PHASE inside a driver update (a driver is sampled at a time of its own:
   * compute from its time argument) and in transition_duration.
   */
  th_status(TH_ABI *get_presentation)(th_context ctx, th_view view, th_presentation *out_value);

  /**
   * Makes `view` an image view (UIImageView): frames carry `"content": {"image": image_name, "contentMode":
   * "<UIKit's case name>"}` for it (`"image": null` when `image_name` is NULL), replacing the content the
   * client gave, so that a renderer can draw the image; snapshots of the view carry the same content. Not
   * animatable (changes at once). `image_name` is read during the call, at most 4096 bytes (TH_ERR_LIMIT);
   * an unknown content mode is TH_ERR_UNSUPPORTED. Phase: as add_subview (animate, animations, ended).
   */
  th_status(TH_ABI *set_image_content)(th_context ctx, th_view view, const char *image_name,
                                       th_content_mode content_mode);

  /**
   * Makes `view` a visual-effect view (UIVisualEffectView with a UIBlurEffect): frames carry `"content":
   * {"effect": {"blur": blur_style}}` (`{"effect": null}` when `blur_style` is NULL: no effect), replacing
   * the client's content. `blur_style` is UIBlurEffect.Style's case name ("dark", "light", "extraLight",
   * "regular", "prominent", "systemMaterial", …; docs/writing-plugins.md lists them); another string is
   * TH_ERR_INVALID_VALUE. Not animatable. Phase: as set_image_content.
   */
  th_status(TH_ABI *set_visual_effect)(th_context ctx, th_view view, const char *blur_style);
} th_host_api;

/** Whether a host table has `member` (a function added after 1.0 may be missing in an older host). */
#define TH_HOST_API_HAS(api, member) \
  ((api) != NULL && (api)->struct_size >= offsetof(th_host_api, member) + sizeof((api)->member) && \
   (api)->member != NULL)

/**
 * What the host tells the plugin about itself. Passed to th_plugin_entry, init and create; owned by the
 * host, valid (with its strings) until deinit returns. Growable.
 */
typedef struct th_host_info {
  uint32_t struct_size;
  /** The host's ABI version (TH_ABI_VERSION_MAJOR / _MINOR as the host was built). */
  uint32_t abi_major;
  uint32_t abi_minor;
  uint32_t reserved;
  /** "transition-host". */
  const char *host_name;
  /** The host's version, e.g. "0.1.0". */
  const char *host_version;
  /**
   * The plugin file as the user named it (absolute). The host loads a private copy of it (that is what
   * makes hot reload at the same path work), so use this path, not dladdr, to find files beside the plugin.
   */
  const char *plugin_path;
  /** The host API table. */
  const th_host_api *api;
  /** This plugin's context for `log` outside transitions. */
  th_context plugin_context;
} th_host_info;

/* ------------------------------------------------------------------------------------------------------ */
/* What the plugin describes                                                                                */
/* ------------------------------------------------------------------------------------------------------ */

/**
 * Metadata of one animator parameter: enough for an editor to draw a settings panel. Growable. Read by the
 * host at load time (every string is copied then).
 */
typedef struct th_param_descriptor {
  uint32_t struct_size;
  th_param_type type;
  /** The key in `params`: [A-Za-z_][A-Za-z0-9_]*, unique within the animator. Required. */
  const char *name;
  /** One line of documentation. Optional (NULL). */
  const char *doc;
  /** The default of a number param; also within [min, max]. */
  double default_number;
  /** Bounds of a number param; -INFINITY / INFINITY (from <math.h>) for an unbounded side. min <= max. */
  double min;
  double max;
  /** The default of a bool param. */
  bool default_bool;
  /** The default of a string param (required, may be "") and of an enum param (one of enum_options). */
  const char *default_string;
  /** The options of an enum param: a NULL-terminated array of distinct, non-empty strings (>= 1). */
  const char *const *enum_options;
  /** The default of a color param (components in [0, 1]). */
  th_color default_color;
  /** The default of a point param. */
  th_point default_point;
  /** The default of a rect param (width and height >= 0). */
  th_rect default_rect;
} th_param_descriptor;

/**
 * ABI 1.2 — property animators: a property animator of one transition (see "th.property-animators/1" at the end
 * of this header). An id like th_view's: the host detects handles it never issued and those of ended transitions.
 */
typedef struct th_property_animator {
  uint64_t id;
} th_property_animator;

/** An extension the animator may offer through get_extension: see the end of this header. */
typedef struct th_presentation_controller th_presentation_controller;

/**
 * One animator: metadata and the functions of a UIViewControllerAnimatedTransitioning. Growable. The host
 * creates one instance per transition (create), calls transition_duration (maybe several times),
 * animate_transition once, then animation_ended once after complete_transition, then destroy.
 */
typedef struct th_animator_descriptor {
  uint32_t struct_size;
  uint32_t reserved;
  /** Unique within the plugin: [A-Za-z0-9][A-Za-z0-9._-]*, at most 64 bytes, no '/'. Required. */
  const char *id;
  /** Human name ("Pull down"). Required. */
  const char *name;
  /** One or two sentences. Optional (NULL). */
  const char *description;
  /**
   * Operations it supports, a NULL-terminated array of non-empty strings ("present", "dismiss", "push",
   * "pop", "segue", "unwind", custom ones). NULL means every operation. The host refuses others (2003).
   */
  const char *const *operations;
  /** Parameter metadata: `param_count` pointers (NULL when 0). */
  uint32_t param_count;
  uint32_t reserved2;
  const th_param_descriptor *const *params;

  /**
   * Makes an instance for one transition; returns plugin-owned state passed to the calls below, or NULL
   * on failure (the transition then fails with 2008). Phase: describe. Required.
   */
  void *(TH_ABI *create)(const struct th_animator_descriptor *animator, const th_host_info *host);

  /** Frees the instance. Called once, after animation_ended, or when the transition fails. Required. */
  void(TH_ABI *destroy)(void *instance);

  /**
   * transitionDuration(using:): seconds, finite and >= 0 (anything else is reported as misbehaviour, 2008,
   * and taken as 0). `ctx` may be {0} (UIKit's nil context: the host asks before a transition exists).
   * Should equal what animate_transition uses. Phase: duration (setters and tree changes return
   * TH_ERR_WRONG_PHASE). Required.
   */
  double(TH_ABI *transition_duration)(void *instance, th_context ctx);

  /**
   * animateTransition(using:): set up the views and start the animations; complete_transition must
   * eventually be called (usually from a completion). Called once. Phase: animate. Required.
   */
  void(TH_ABI *animate_transition)(void *instance, th_context ctx);

  /** animationEnded(_:): after complete_transition. Phase: ended. Optional (NULL). */
  void(TH_ABI *animation_ended)(void *instance, th_context ctx, bool transition_completed);

  /**
   * An animator extension by id (TH_EXT_PRESENTATION_CONTROLLER, …), or NULL. The returned table belongs
   * to the plugin and must stay valid until destroy. Phase: describe. Optional (NULL = no extensions).
   */
  const void *(TH_ABI *get_extension)(void *instance, const char *id);

  /* ABI 1.2 — property animators (read only from plugins that declare 1.2 or later, within struct_size) */

  /**
   * interruptibleAnimator(using:): the property animator (made with "th.property-animators/1" in this
   * transition) that performs the transition, or {0} when there is none. It must return the same animator every
   * time (UIKit's rule). The host asks it once: for an interactive transition, *instead of* animate_transition
   * (create the animator here, add its animations and a completion that calls complete_transition with
   * position == TH_POSITION_END; the host pauses it and drives it), and otherwise right after animate_transition
   * (which usually starts it). While the animator is active, the transition's update, pause, finish, cancel and
   * release drive it: update pauses it and sets its fraction_complete; finish continues it forward and cancel
   * reversed, with the completion curve (or, with a release velocity v, a critically damped spring of initial
   * velocity v / (1 - p) finishing and -v / p cancelling) over the remaining duration divided by the completion
   * speed. A handle of another transition is reported (2008) and ignored. Phase: animate. Optional (NULL).
   */
  th_property_animator(TH_ABI *interruptible_animator)(void *instance, th_context ctx);
} th_animator_descriptor;

/**
 * The plugin: returned by th_plugin_entry. Growable; the first three fields never move in any ABI version.
 * The descriptor, its animators and params, and all their strings must stay valid and unchanged until
 * deinit returns (static storage is the usual choice). The host copies the strings at load time.
 */
typedef struct th_plugin_descriptor {
  uint32_t struct_size;
  /** Set to TH_ABI_VERSION_MAJOR / _MINOR (the header the plugin was built with). */
  uint32_t abi_major;
  uint32_t abi_minor;
  uint32_t reserved;
  /** Reverse-DNS id, e.g. "com.example.fade": two or more dot-separated labels of [A-Za-z0-9_-]. Required. */
  const char *id;
  /** Human name. Required. */
  const char *name;
  /** The plugin's own version, e.g. "1.2.0". Required. */
  const char *version;
  /** Optional (NULL). */
  const char *vendor;
  /** Optional (NULL). */
  const char *description;

  /**
   * Called once after the descriptor was accepted, before anything else; return false to refuse loading
   * (error 1006; deinit is then not called). May be called more than once for the same loaded library
   * (once per load of the same file): keep a counter and set up on the first call only. Phase: describe.
   * Optional (NULL = nothing to do).
   */
  bool(TH_ABI *init)(const th_host_info *host);

  /** Called once per successful init, last (pair it with init's counter). Phase: describe. Optional. */
  void(TH_ABI *deinit)(void);

  /** The animators: `animator_count` (>= 1) pointers, ids unique. */
  uint32_t animator_count;
  uint32_t reserved2;
  const th_animator_descriptor *const *animators;
} th_plugin_descriptor;

/**
 * THE ENTRY POINT. Every plugin defines and exports exactly this function:
 *
 *     TH_EXPORT const th_plugin_descriptor *th_plugin_entry(const th_host_info *host) { return &descriptor; }
 *
 * Negotiation: the host passes its ABI version in `host`; the plugin returns a descriptor stamped with the
 * version it was built against. The host accepts equal majors (whatever the minors: plugins check
 * host->abi_minor or TH_HOST_API_HAS before using newer features) and refuses others with error 1004.
 * Return NULL only when this host is too old for the plugin; the host reports 1004 as well.
 * Must be fast and side-effect free (no output, no threads); real work belongs in init. Phase: describe.
 *
 * (A function, not a data symbol, so that Swift can export it with @c / @_cdecl.)
 */
TH_EXPORT const th_plugin_descriptor *th_plugin_entry(const th_host_info *host);

/** The entry function's type, for hosts that dlsym it. */
typedef const th_plugin_descriptor *(TH_ABI *th_plugin_entry_fn)(const th_host_info *host);

/* ------------------------------------------------------------------------------------------------------ */
/* Extensions (CLAP style: by string id with a revision; ids never change once published)                   */
/* ------------------------------------------------------------------------------------------------------ */

/**
 * Animator extension "th.presentation-controller/1": a UIPresentationController for the animator's
 * present/dismiss (and segue/unwind) transitions. Returned by th_animator_descriptor.get_extension. Every
 * function may be NULL (UIKit's default behaviour then applies). Growable.
 *
 * Order: create → should_remove_presenters_view → frame_of_presented_view → transition_duration →
 * presentation_transition_will_begin (or dismissal_…) → animate_transition → alongside animations → … →
 * complete_transition → the hierarchy settles (or is restored) → …_did_end → animation_ended → owed
 * completions (finished = false) → destroy.
 *
 * Chrome views (dimming, gradients) are ordinary views made with make_view in will_begin and added to the
 * container; give them an id hint ("dimming") so that the dismissal's controller finds them with find_view.
 */
struct th_presentation_controller {
  uint32_t struct_size;
  uint32_t reserved;
  /**
   * frameOfPresentedViewInContainerView: write the presented view's final frame, in container coordinates,
   * and return true; return false for UIKit's default (the container's bounds). Called possibly several
   * times; return the same value each time. Phase: duration.
   */
  bool(TH_ABI *frame_of_presented_view)(void *instance, th_context ctx, th_rect container_bounds,
                                        th_rect *out_frame);
  /**
   * shouldRemovePresentersView: true when the presenter's view leaves the screen at the end of the
   * presentation (full-screen covers); default false (segue: true). Asked once, when the transition is
   * set up, before its context exists: `ctx` is {0} (like UIKit's property, answer from the instance
   * alone). Phase: duration.
   */
  bool(TH_ABI *should_remove_presenters_view)(void *instance, th_context ctx);
  /** Before animate_transition of a presentation: add chrome, start alongside animations. Phase: animate. */
  void(TH_ABI *presentation_transition_will_begin)(void *instance, th_context ctx);
  /**
   * After the presentation ended; `completed` false = cancelled (remove chrome; the host also restores
   * the start state afterwards). Phase: ended (immediate clean-up allowed).
   */
  void(TH_ABI *presentation_transition_did_end)(void *instance, th_context ctx, bool completed);
  /** Before animate_transition of a dismissal. Phase: animate. */
  void(TH_ABI *dismissal_transition_will_begin)(void *instance, th_context ctx);
  /** After the dismissal ended; remove chrome only if `completed`. Phase: ended (immediate clean-up allowed). */
  void(TH_ABI *dismissal_transition_did_end)(void *instance, th_context ctx, bool completed);
};

#define TH_EXT_PRESENTATION_CONTROLLER "th.presentation-controller/1"

/**
 * A custom driver's update: called by the host whenever it needs the driven values at `time` seconds since
 * the driver started (0 <= time <= duration; fraction = time / duration, or 1 when the duration is 0). It
 * sets presentation values with the property setters. It MUST be a pure function of time: the host calls
 * it for any time, in any order, any number of times (sampling, scrubbing, running backwards on cancel),
 * and it must not keep state between calls or call anything but getters and setters (phase: driver).
 * When the driver's time has passed, the values it writes for time = duration become the model values (as a
 * property animator leaves them), then its completion runs.
 */
typedef void(TH_ABI *th_driver_update_fn)(th_context ctx, double time, double fraction, void *user_data);

/** Options of a custom driver. Growable. */
typedef struct th_driver_options {
  uint32_t struct_size;
  uint32_t flags; /* reserved for option bits (none is defined yet); must be 0 */
  /** Seconds, finite, >= 0. */
  double duration;
  /** Seconds, finite, >= 0. */
  double delay;
} th_driver_options;

/**
 * Host extension "th.custom-driver/1" (from th_host_api.get_extension): procedural animation, like
 * CustomPresenter's animationDriver. A driver is a slot on the transition's timeline that the host samples
 * every frame by calling `update`; it scrubs, pauses, finishes and cancels with the rest of the transition.
 * Growable.
 */
typedef struct th_host_custom_driver {
  uint32_t struct_size;
  uint32_t reserved;
  /**
   * Adds a driver to the transition. `update` is required; `completion` (may be NULL) runs once when the
   * driver's time has passed, as an animation block's does. During the delay the driver writes nothing.
   * Phase: animate, animations. Misuse returns the usual errors (TH_ERR_INVALID_ARGUMENT for NULL `options`
   * or `update`, TH_ERR_INVALID_VALUE for a bad duration or delay, TH_ERR_UNSUPPORTED for flags).
   */
  th_status(TH_ABI *add_driver)(th_context ctx, const th_driver_options *options, th_driver_update_fn update,
                                th_completion_fn completion, void *user_data);
} th_host_custom_driver;

#define TH_EXT_CUSTOM_DRIVER "th.custom-driver/1"

/* ------------------------------------------------------------------------------------------------------ */
/* ABI 1.2 — display links: host extension "th.display-link/1"                                             */
/* ------------------------------------------------------------------------------------------------------ */

/**
 * A display link's callback: `timestamp` is the clock time of the frame on screen, `target_timestamp` that of
 * the frame being prepared (seconds on the transition's clock: the time all its ticks added up, 0 at the start).
 * Phase: as a completion (animate; ended once the transition completed).
 */
typedef void(TH_ABI *th_display_link_fn)(th_context ctx, double timestamp, double target_timestamp,
                                         void *user_data);

/**
 * Host extension "th.display-link/1" (from th_host_api.get_extension): CADisplayLink. Unlike a driver, a display
 * link's callback may do anything a completion may (set properties, start blocks, complete the transition),
 * because it runs only when time really passes: once per frame of the transition (each tick or real-time frame
 * with dt > 0, also while an interactive transition is paused), never when the transition is sampled or
 * scrubbed. It runs after the timeline has reached the frame's time, so what it writes is in that frame. A link
 * that is neither paused nor invalidated counts as pending work (the transition is not "never completed" while
 * one runs). Links end with the transition. Link ids are this transition's, never 0. Growable.
 */
typedef struct th_host_display_link {
  uint32_t struct_size;
  uint32_t reserved;
  /**
   * Adds a link that calls `callback(ctx, timestamp, target_timestamp, user_data)`: on the first frame after
   * this call, then on each frame at least 1 / preferred_frames_per_second after the one it last fired on (0:
   * every frame). TH_ERR_INVALID_VALUE for a rate that is negative or not finite, TH_ERR_INVALID_ARGUMENT for
   * NULL `callback` or `out_link`. Phase: animate, animations.
   */
  th_status(TH_ABI *add_display_link)(th_context ctx, double preferred_frames_per_second,
                                      th_display_link_fn callback, void *user_data, uint64_t *out_link);
  /** isPaused: a paused link is not called; resumed, it fires on the next frame. */
  th_status(TH_ABI *set_display_link_paused)(th_context ctx, uint64_t link, bool paused);
  /** preferredFramesPerSecond (0: every frame); TH_ERR_INVALID_VALUE as for add_display_link. */
  th_status(TH_ABI *set_display_link_rate)(th_context ctx, uint64_t link, double preferred_frames_per_second);
  /**
   * invalidate(): the link is never called again (also when called from its own callback). Invalidating an
   * invalidated link is TH_OK; an id never issued is TH_ERR_INVALID_HANDLE.
   */
  th_status(TH_ABI *invalidate_display_link)(th_context ctx, uint64_t link);
} th_host_display_link;

#define TH_EXT_DISPLAY_LINK "th.display-link/1"
/* ====================================================================================================== */
/* ABI 1.2 — property animators                                                                            */
/* ====================================================================================================== */

/** UIViewAnimatingState. */
typedef enum th_animating_state {
  /** Not started, or finished: its animations are not applied (any more). */
  TH_ANIMATING_INACTIVE = 0,
  /** Started or paused. */
  TH_ANIMATING_ACTIVE = 1,
  /** Stopped with stop(without_finishing = false): waiting for finish. */
  TH_ANIMATING_STOPPED = 2
} th_animating_state;

/** UIViewAnimatingPosition. */
typedef enum th_animating_position {
  TH_POSITION_END = 0,
  TH_POSITION_START = 1,
  TH_POSITION_CURRENT = 2
} th_animating_position;

/** The boolean properties of a property animator (get_flag / set_flag). */
typedef enum th_animator_flag {
  /** isRunning: active and moving (read only: set_flag returns TH_ERR_UNSUPPORTED). */
  TH_ANIMATOR_IS_RUNNING = 0,
  /** isReversed: set on a running animator, it turns around at once; otherwise it applies to the next run. */
  TH_ANIMATOR_IS_REVERSED = 1,
  /** scrubsLinearly (default true): a paused animator maps fraction_complete linearly, else through its curve. */
  TH_ANIMATOR_SCRUBS_LINEARLY = 2,
  /** pausesOnCompletion (default false): at the end of a run it stays active and paused, no completion runs. */
  TH_ANIMATOR_PAUSES_ON_COMPLETION = 3,
  /** isInterruptible (default true): settable only while inactive (TH_ERR_WRONG_PHASE otherwise). */
  TH_ANIMATOR_IS_INTERRUPTIBLE = 4
} th_animator_flag;

/**
 * UITimingCurveProvider: the timing of a property animator. Growable: struct_size =
 * sizeof(th_property_animator_timing). `timing` is read as for animation blocks, with these lengths:
 *
 *   timing.kind                 a run lasts
 *   TH_TIMING_CURVE             the run's length (the animator's duration, or a continuation's remaining time)
 *   TH_TIMING_SPRING            the run's length (UISpringTimingParameters(dampingRatio:initialVelocity:))
 *   TH_TIMING_SPRING_PHYSICAL   its settling duration, whatever the animator's duration (mass, stiffness, ...)
 *   TH_TIMING_SPRING_BOUNCE     its settling duration; `perceptual_duration` is the spring's duration (iOS 17)
 *
 * initial_velocity is UIKit's: 1 = the whole (remaining, for a continuation) distance per second.
 */
typedef struct th_property_animator_timing {
  uint32_t struct_size;
  uint32_t reserved;
  th_timing timing;
  /** TH_TIMING_SPRING_BOUNCE only: the perceptual duration in seconds (> 0). */
  double perceptual_duration;
} th_property_animator_timing;

/**
 * A property animator's completion (addCompletion). Called exactly once: with `finished` true and the position
 * when the animator ends (at the end of a run, or in finish), or with `finished` false when it never will (the
 * animator was stopped without finishing, or the transition ended first): then only free `user_data`, as UIKit
 * never calls that completion. Phase: animate (complete_transition is allowed) for `finished` true, ended else.
 */
typedef void(TH_ABI *th_animator_completion_fn)(th_context ctx, th_animating_position position, bool finished,
                                                 void *user_data);

/**
 * Host extension "th.property-animators/1" (from th_host_api.get_extension): UIViewPropertyAnimator, a timing
 * and state of its own over animations of the transition's views, on the transition's timeline (its runs move
 * with the transition's clock; completions fire in time order with the blocks'). Growable.
 *
 * Semantics are UIKit's (docs/writing-plugins.md has the full rules and the host's choices where UIKit is
 * silent): groups of animations with a delay factor start at delay_factor x the duration (on a started
 * animator, of the remaining duration) and last the rest; a run moves every group toward the end (the start when
 * reversed); fraction_complete moves linearly in time; pausing holds the values; continue_animation runs from
 * where the values are with new timing (NULL: the current one) over duration_factor x the remaining duration.
 *
 * Every function takes the transition context and an animator it created (TH_ERR_INVALID_HANDLE for one never
 * issued to this transition, TH_ERR_STALE_HANDLE for one of an ended transition, reported as 2008) and refuses
 * calls that UIKit would raise on with TH_ERR_WRONG_PHASE (reported), changing nothing. Phase of every
 * function: animate, animations (and completions, which run in animate), unless stated otherwise.
 */
typedef struct th_host_property_animators {
  uint32_t struct_size;
  uint32_t reserved;

  /**
   * UIViewPropertyAnimator(duration:timingParameters:): a new, inactive animator in `*out_animator`.
   * `duration` finite and >= 0 (TH_ERR_INVALID_VALUE), ignored by physical and bounce springs; `timing` as
   * th_property_animator_timing says (NULL: TH_ERR_INVALID_ARGUMENT; bad numbers TH_ERR_INVALID_VALUE; unknown
   * kinds, curves or flags TH_ERR_UNSUPPORTED). At most 10,000 per transition (TH_ERR_LIMIT).
   */
  th_status(TH_ABI *create)(th_context ctx, double duration, const th_property_animator_timing *timing,
                            th_property_animator *out_animator);

  /**
   * addAnimations(_:delayFactor:): `animations(ctx, user_data)` writes the properties the group animates (as
   * an animation block's animations function, phase animations). On an inactive animator the host calls it
   * when the animator becomes active (start, pause, set_fraction_complete, or the host's interactive start),
   * on an active one at once. delay_factor in [0, 1] (TH_ERR_INVALID_VALUE). TH_ERR_WRONG_PHASE when stopped.
   */
  th_status(TH_ABI *add_animations)(th_context ctx, th_property_animator animator, double delay_factor,
                                    th_animations_fn animations, void *user_data);

  /** addCompletion: `completion` is called once, with th_animator_completion_fn's rules. */
  th_status(TH_ABI *add_completion)(th_context ctx, th_property_animator animator,
                                    th_animator_completion_fn completion, void *user_data);

  /**
   * startAnimation(afterDelay:): inactive -> active, running over the duration after `delay` (finite, >= 0);
   * a paused animator continues with its timing over the remaining duration; a running one is left alone.
   * TH_ERR_WRONG_PHASE when stopped.
   */
  th_status(TH_ABI *start)(th_context ctx, th_property_animator animator, double delay);

  /** pauseAnimation(): a running animator stops where it is; an inactive one becomes active, paused at 0. */
  th_status(TH_ABI *pause)(th_context ctx, th_property_animator animator);

  /**
   * stopAnimation(_:): the properties keep what is on screen and the animations are removed. without_finishing
   * true: inactive at once and no completion runs (they are called with finished = false); false: stopped,
   * and finish must follow. TH_ERR_WRONG_PHASE unless active.
   */
  th_status(TH_ABI *stop)(th_context ctx, th_property_animator animator, bool without_finishing);

  /**
   * finishAnimation(at:): only when stopped (TH_ERR_WRONG_PHASE otherwise); the properties take the values of
   * `position` (TH_POSITION_CURRENT keeps them) and the completions run with it.
   */
  th_status(TH_ABI *finish)(th_context ctx, th_property_animator animator, th_animating_position position);

  /**
   * continueAnimation(withTimingParameters:durationFactor:): from where the values are toward the end (the
   * start when reversed) with `timing` (NULL keeps the current one) over duration_factor (finite, >= 0) x the
   * remaining duration, as if started there; a spring's initial velocity is in remaining distance per second.
   * An inactive animator is started. TH_ERR_WRONG_PHASE when stopped.
   */
  th_status(TH_ABI *continue_animation)(th_context ctx, th_property_animator animator,
                                        const th_property_animator_timing *timing, double duration_factor);

  /** state. Phase: any transition phase. */
  th_status(TH_ABI *get_state)(th_context ctx, th_property_animator animator, th_animating_state *out_state);

  /** fractionComplete now. Phase: any transition phase. */
  th_status(TH_ABI *get_fraction_complete)(th_context ctx, th_property_animator animator, double *out_fraction);

  /**
   * fractionComplete = value: finite (TH_ERR_INVALID_VALUE), clamped to [0, 1]; an inactive animator becomes
   * active and paused first; a running animator ignores it (UIKit's rule, TH_OK). TH_ERR_WRONG_PHASE when stopped.
   */
  th_status(TH_ABI *set_fraction_complete)(th_context ctx, th_property_animator animator, double value);

  /** One of th_animator_flag. Phase: any transition phase. Unknown flags: TH_ERR_UNSUPPORTED. */
  th_status(TH_ABI *get_flag)(th_context ctx, th_property_animator animator, th_animator_flag flag, bool *out_value);

  /** Sets one of th_animator_flag (see each one's rule). */
  th_status(TH_ABI *set_flag)(th_context ctx, th_property_animator animator, th_animator_flag flag, bool value);

  /** duration: as created (a physical or bounce spring's settling duration). Phase: any transition phase. */
  th_status(TH_ABI *get_duration)(th_context ctx, th_property_animator animator, double *out_duration);
} th_host_property_animators;

#define TH_EXT_PROPERTY_ANIMATORS "th.property-animators/1"

/* ====================================================================================================== */
/* end of ABI 1.2 — property animators                                                                     */
/* ====================================================================================================== */

/* ====================================================================================================== */
/* ABI 1.2 — interaction controllers and gestures                                                          */
/*                                                                                                          */
/* A client sends a pan gesture's samples (transition/gesture); the host hands each one to the animator's     */
/* interaction controller, whose gesture recognizers' handlers decide how the transition moves (update,       */
/* finish, cancel) through the host extension "th.percent-driven/1". Self-contained: nothing above changes.  */
/* ====================================================================================================== */

/**
 * A th_property (bool, not animatable: TH_ERR_WRONG_PHASE inside a driver): UIView.isUserInteractionEnabled,
 * default true. A view with it false, and its whole subtree, takes no touches (see handle_gesture). Not in frames.
 */
static const th_property TH_PROP_USER_INTERACTION_ENABLED = (th_property)15;

/** The state of a pan gesture sample (UIGestureRecognizer.State's began, changed, ended, cancelled). */
typedef enum th_gesture_state {
  TH_GESTURE_BEGAN = 1,
  TH_GESTURE_CHANGED = 2,
  TH_GESTURE_ENDED = 3,
  TH_GESTURE_CANCELLED = 4
} th_gesture_state;

/**
 * FROZEN. One sample of a one-finger pan, as the client measured it. `location` is the finger's position and
 * `translation` its movement since the gesture began, both in container points; `velocity` is in container points
 * per second. Every number is finite (the host checks before it calls the plugin).
 */
typedef struct th_gesture_sample {
  th_gesture_state state;
  uint32_t reserved;
  th_point location;
  th_point translation;
  th_point velocity;
} th_gesture_sample;

/** What became of a gesture sample (handle_gesture's answer). */
typedef enum th_gesture_delivery {
  /** At least one gesture recognizer received the sample (`*out_received` says how many). */
  TH_GESTURE_RECEIVED = 0,
  /** The interaction controller has no gesture recognizer on any view of the transition. */
  TH_GESTURE_NO_RECOGNIZERS = 1,
  /** A began sample: no enabled recognizer is on the hit view or one of its superviews, or every such recognizer
   *  declined to begin (a screen-edge pan away from its edges). */
  TH_GESTURE_NOT_HIT = 2,
  /** A changed, ended or cancelled sample while no gesture is in progress (no began was received before it). */
  TH_GESTURE_NOT_IN_PROGRESS = 3
} th_gesture_delivery;

/** interaction_controller's answer bits: the transition has an interaction controller ... */
#define TH_INTERACTION_CONTROLLER (1u << 0)
/** ... and it wants an interactive start (UIViewControllerInteractiveTransitioning.wantsInteractiveStart). */
#define TH_INTERACTION_WANTS_INTERACTIVE_START (1u << 1)

/**
 * Animator extension "th.interaction-controller/1": the UIViewControllerInteractiveTransitioning of the
 * animator's transitions (UIKit asks the transitioning delegate's interactionControllerForPresentation(using:) /
 * interactionControllerForDismissal(using:), or the navigation delegate's
 * navigationController(_:interactionControllerFor:)). Returned by th_animator_descriptor.get_extension. Growable;
 * a NULL function means "no interaction controller".
 */
typedef struct th_interaction_controller {
  uint32_t struct_size;
  uint32_t reserved;
  /**
   * Whether this transition has an interaction controller: TH_INTERACTION_* bits, 0 for none. Asked once per
   * transition, when it starts: after transition_duration, before the presentation controller's will-begin and
   * animate_transition. When the client did not say whether the transition is interactive, the host follows the
   * answer as UIKit does: an interaction controller that wants an interactive start makes the transition start
   * paused at 0; otherwise it runs. Phase: duration.
   */
  uint32_t(TH_ABI *interaction_controller)(void *instance, th_context ctx);
  /**
   * One gesture sample for the interaction controller's recognizers. For a began sample the host hit-tests
   * `location` as UIKit does, against what is on screen (the presented values the frames show): front to back,
   * the deepest view whose bounds contain the point, skipping hidden views, views with alpha < 0.01 and views
   * with TH_PROP_USER_INTERACTION_ENABLED false (with their subtrees), and never a subview outside its
   * superview's bounds; `hit_view` is that view ({0} when the point is outside the container). The plugin gives
   * the sample to a recognizer on `hit_view` or one of its superviews; that recognizer keeps every later sample
   * (`hit_view` {0} then) until ended or cancelled. Its actions drive the transition through
   * "th.percent-driven/1". Writes how many recognizers received the sample into `*out_received` (0 unless
   * TH_GESTURE_RECEIVED). Called only for transitions whose interaction_controller answered
   * TH_INTERACTION_CONTROLLER, never after complete_transition. Phase: animate (everything is allowed:
   * animations, tree changes, complete_transition).
   */
  th_gesture_delivery(TH_ABI *handle_gesture)(void *instance, th_context ctx, const th_gesture_sample *sample,
                                              th_view hit_view, uint32_t *out_received);
} th_interaction_controller;

#define TH_EXT_INTERACTION_CONTROLLER "th.interaction-controller/1"

/** th_interaction_completion.flags: use `completion_speed` (else the transition's completionSpeed) ... */
#define TH_COMPLETION_SPEED (1u << 0)
/** ... use `timing` (a TH_TIMING_CURVE; else the transition's completionCurve). */
#define TH_COMPLETION_TIMING (1u << 1)

/** How finish / cancel continue. Growable: struct_size = sizeof(th_interaction_completion); zeroed = defaults. */
typedef struct th_interaction_completion {
  uint32_t struct_size;
  /** TH_COMPLETION_* bits; other bits are TH_ERR_UNSUPPORTED. */
  uint32_t flags;
  /** d(percent)/dt in 1/s, positive toward completion; not 0 = the tail is a critically damped spring seeded with
   *  it (the protocol's finish/cancel velocity). 0 = the completion curve. */
  double velocity;
  /** > 0, finite: the tail lasts (1 − p)·duration / speed (finish) or p·duration / speed (cancel). */
  double completion_speed;
  /** kind TH_TIMING_CURVE (any curve); springs are TH_ERR_UNSUPPORTED (use `velocity`). */
  th_timing timing;
} th_interaction_completion;

/** Where an interactive transition is (th_interaction_status.state). */
typedef enum th_interaction_state {
  /** Running forward on its own. */
  TH_INTERACTION_RUNNING = 1,
  /** Held: paused, or scrubbed by update. */
  TH_INTERACTION_PAUSED = 2,
  /** Running its finishing tail. */
  TH_INTERACTION_FINISHING = 3,
  /** Running back to its start. */
  TH_INTERACTION_CANCELLING = 4
} th_interaction_state;

/** The transition's progress (UIPercentDrivenInteractiveTransition's percentComplete, duration). Growable. */
typedef struct th_interaction_status {
  uint32_t struct_size;
  th_interaction_state state;
  /** In [0, 1]. */
  double percent;
  /** The animator's transition_duration captured at the start, seconds. */
  double duration;
  /** Timeline time, seconds (percent × duration while held). */
  double time;
  /** Whether the user holds the transition (the context's isInteractive). */
  bool is_interactive;
} th_interaction_status;

/**
 * Host extension "th.percent-driven/1" (from th_host_api.get_extension): UIPercentDrivenInteractiveTransition's
 * control of the plugin's own transition, the same calls as the protocol's transition/update, pause, finish and
 * cancel. Phase: animate and animations (a gesture's actions, animate_transition, completions); not in
 * transition_duration, a driver, or after complete_transition (TH_ERR_WRONG_PHASE). A call the transition's state
 * refuses (finish while it already finishes, cancel while it already cancels) returns TH_ERR_WRONG_PHASE and
 * changes nothing. Growable.
 */
typedef struct th_host_percent_driven {
  uint32_t struct_size;
  uint32_t reserved;
  /** updateInteractiveTransition: holds the transition at `percent` (clamped to [0, 1]; finite, else
   *  TH_ERR_INVALID_VALUE). Nothing fires while held; each animation's own curve still shapes its values. */
  th_status(TH_ABI *update)(th_context ctx, double percent);
  /** pause(): holds the transition where it is (a running one is grabbed). */
  th_status(TH_ABI *pause)(th_context ctx);
  /** finishInteractiveTransition: runs the rest toward completion. `options` may be NULL (defaults). */
  th_status(TH_ABI *finish)(th_context ctx, const th_interaction_completion *options);
  /** cancelInteractiveTransition: runs back to the start, which is then restored. `options` may be NULL. */
  th_status(TH_ABI *cancel)(th_context ctx, const th_interaction_completion *options);
  /** Where the transition is now. Phase: any transition phase. */
  th_status(TH_ABI *status)(th_context ctx, th_interaction_status *out_status);
} th_host_percent_driven;

#define TH_EXT_PERCENT_DRIVEN "th.percent-driven/1"

TH_STATIC_ASSERT(sizeof(th_gesture_sample) == 56, "th_plugin.h: th_gesture_sample is FROZEN at 56 bytes");

/* ====================================================================================================== */
/* End of ABI 1.2 — interaction controllers and gestures                                                   */
/* ====================================================================================================== */

/* ====================================================================================================== */
/* ABI 1.2 — scenes                                                                                        */
/*                                                                                                          */
/* A gesture may arrive before any transition exists (PullDown's view controller pans, and its handler       */
/* presents the next controller). The client opens a scene (scene/open): the app's view-controller trees     */
/* with no transition running. The host makes one instance of the animator the scene belongs to and hands it  */
/* a scene context, in which the 1.0 view functions work on the scene's trees; the plugin instantiates its    */
/* root view controller there (animator extension "th.scene-controller/1"). Gesture samples on the scene go   */
/* to the plugin's recognizers; a handler that presents, dismisses, pushes or pops asks the host to start     */
/* that transition (host extension "th.scenes/1") with an animator instance the plugin made, so the objects  */
/* the handler holds (the interaction controller) are the transition's. Self-contained: nothing above changes.*/
/* ====================================================================================================== */

/**
 * Animator extension "th.scene-controller/1" (from th_animator_descriptor.get_extension): the app's view
 * controllers. The host asks it of the instance it made for a scene; a NULL table or function means the animator
 * has no scene. Growable.
 */
typedef struct th_scene_controller {
  uint32_t struct_size;
  uint32_t reserved;
  /**
   * The scene opened: `ctx` is the scene context (container_view is the scene's container, holding the root
   * controller's tree; every other tree the client sent is there too, outside the container, found with
   * th_host_scenes.tree). The plugin instantiates its root view controller, sets its view to the root tree and
   * runs viewDidLoad (which usually adds gesture recognizers). Returns TH_OK, or an error the host reports to the
   * client (the scene is not opened). Phase: animate (tree changes allowed, no animations: nothing would run
   * them).
   */
  th_status(TH_ABI *open_scene)(void *instance, th_context ctx);
  /**
   * One gesture sample on the scene, as th_interaction_controller.handle_gesture: `hit_view` is the view a began
   * sample hits in the scene ({0} for later samples and outside every view); the recognizers on it or its
   * superviews get their actions, which may start a transition (th_host_scenes.start_transition) or drive a
   * running one through "th.percent-driven/1" on that transition's context. Phase: animate.
   */
  th_gesture_delivery(TH_ABI *handle_gesture)(void *instance, th_context ctx, const th_gesture_sample *sample,
                                              th_view hit_view, uint32_t *out_received);
  /**
   * A transition this scene started ended: `to` (a root of the scene's trees) is on screen when `completed`,
   * `from` otherwise. Called after the transition's animation_ended; the host has already arranged the scene's
   * container as the table of CONVENTIONS says. May be NULL. Phase: animate.
   */
  void(TH_ABI *transition_ended)(void *instance, th_context ctx, th_view from, th_view to, bool completed);
} th_scene_controller;

#define TH_EXT_SCENE_CONTROLLER "th.scene-controller/1"

/** A transition a scene's handler asks for (th_host_scenes.start_transition). Growable. */
typedef struct th_scene_transition {
  uint32_t struct_size;
  uint32_t reserved;
  /** "present", "dismiss", "push", "pop", "segue", "unwind" (copied). */
  const char *operation;
  /** The root of the tree on screen now (the presenting controller's view; the presented one's for a dismissal). */
  th_view from;
  /** The root of the tree that comes on screen (a tree of the scene's; not the from tree). */
  th_view to;
  /**
   * A new instance of the scene's animator, made by the plugin as `create` would have made it and owned by the
   * host from here on: it runs the transition (transition_duration, interaction_controller, animate_transition)
   * and is destroyed with `destroy` after it, exactly like an instance from `create`. On any error the host
   * destroys it at once.
   */
  void *instance;
} th_scene_transition;

/**
 * Host extension "th.scenes/1" (from th_host_api.get_extension). Phase: inside th_scene_controller's functions,
 * on the scene context; elsewhere TH_ERR_WRONG_PHASE. Growable.
 */
typedef struct th_host_scenes {
  uint32_t struct_size;
  uint32_t reserved;
  /** The root of the client's tree for the storyboard identifier `identifier` (TH_ERR_NOT_FOUND when there is none;
   *  the root controller's tree is identifier "" as well as its own). */
  th_status(TH_ABI *tree)(th_context ctx, const char *identifier, th_view *out_root);
  /**
   * Starts `request` once the current call returns (UIKit starts it on the run loop's next turn too). Called from
   * handle_gesture or transition_ended only (in open_scene and elsewhere TH_ERR_WRONG_PHASE); one per call: a
   * second one, or one while a transition of this scene still runs, is TH_ERR_WRONG_PHASE; a request the scene
   * cannot honour (`from` not the root of a tree on screen, `to` not the root of another tree) is
   * TH_ERR_INVALID_VALUE, a view handle not of this scene TH_ERR_INVALID_HANDLE, a NULL request, operation or
   * instance or a small struct_size TH_ERR_INVALID_ARGUMENT. Once the host could read a non-NULL `instance`, every
   * error destroys it at once; with a NULL request or a small struct_size the plugin keeps it.
   */
  th_status(TH_ABI *start_transition)(th_context ctx, const th_scene_transition *request);
} th_host_scenes;

#define TH_EXT_HOST_SCENES "th.scenes/1"

/* ====================================================================================================== */
/* End of ABI 1.2 — scenes                                                                                 */
/* ====================================================================================================== */

/* ====================================================================================================== */
/* ABI 1.3 — Core Animation layers                                                                         */
/*                                                                                                          */
/* Layers that are not views (CALayer(), CAGradientLayer(), CAShapeLayer()), the sublayer tree, masks, the    */
/* layer-only properties (borders, shadows, shapes, dashes, gradient types) and paths as data. A view's layer */
/* is the view's node: its th_view handle names both, and a layer made here is a th_view too, so every        */
/* property function above (get_number, set_color, get_presentation, …) takes layers as it takes views.       */
/* Self-contained: nothing above changes. See docs/writing-plugins.md ("Layers").                            */
/* ====================================================================================================== */

/*
 * th_property values for the layer-only properties (ABI 1.3). They are numbered from 32 so that other 1.3
 * additions can take 16–31. Pass them to the property functions of th_host_api with the value kind each names;
 * a 1.2 host answers TH_ERR_UNSUPPORTED. "Animatable" ones written inside an animations function animate from
 * their on-screen value exactly as TH_PROP_ALPHA does (blocks, keyframes, springs, property animators,
 * scrubbing, reversal; a cancel restores them). Colours interpolate componentwise (straight RGBA); a colour that
 * is unset (NULL) does not blend: it jumps at the end. Every one has CALayer's (or CAShapeLayer's) default, and
 * every node has all of them (a view's layer is a CALayer; the shape members only draw on a shape layer).
 * CALayer.opacity is TH_PROP_ALPHA, masksToBounds TH_PROP_CLIPS_TO_BOUNDS, cornerRadius TH_PROP_CORNER_RADIUS,
 * contents set_image_content, a gradient layer's colours, locations and points TH_PROP_GRADIENT.
 */
/** number, animatable. CALayer.anchorPointZ (default 0): the transform applies about (anchorPoint, this z). */
static const th_property TH_PROP_ANCHOR_POINT_Z = (th_property)32;
/** number >= 0, animatable. CALayer.borderWidth in points (default 0), drawn inside the bounds. */
static const th_property TH_PROP_BORDER_WIDTH = (th_property)33;
/** color (optional), animatable. CALayer.borderColor (default opaque black). */
static const th_property TH_PROP_BORDER_COLOR = (th_property)34;
/** color (optional), animatable. CALayer.shadowColor (default opaque black). */
static const th_property TH_PROP_SHADOW_COLOR = (th_property)35;
/** number in [0, 1], animatable. CALayer.shadowOpacity (default 0: no shadow). */
static const th_property TH_PROP_SHADOW_OPACITY = (th_property)36;
/** number >= 0, animatable. CALayer.shadowRadius: the blur radius in points (default 3). */
static const th_property TH_PROP_SHADOW_RADIUS = (th_property)37;
/** point (x = width, y = height), animatable. CALayer.shadowOffset in points (default (0, -3)). */
static const th_property TH_PROP_SHADOW_OFFSET = (th_property)38;
/** path (optional; see set_path), animatable. CALayer.shadowPath (default NULL: the shadow of the content). */
static const th_property TH_PROP_SHADOW_PATH = (th_property)39;
/**
 * number, not animatable (changes at once, also in animations functions; TH_ERR_WRONG_PHASE in a driver).
 * CALayer.maskedCorners: TH_CORNER_* bits (default all four, 15); another value is TH_ERR_INVALID_VALUE.
 */
static const th_property TH_PROP_MASKED_CORNERS = (th_property)40;
/** path (optional; see set_path), animatable. CAShapeLayer.path in the layer's bounds coordinates (default NULL). */
static const th_property TH_PROP_PATH = (th_property)41;
/** color (optional), animatable. CAShapeLayer.fillColor (default opaque black; unset: no fill). */
static const th_property TH_PROP_FILL_COLOR = (th_property)42;
/** color (optional), animatable. CAShapeLayer.strokeColor (default unset: no stroke). */
static const th_property TH_PROP_STROKE_COLOR = (th_property)43;
/** number >= 0, animatable. CAShapeLayer.lineWidth in points (default 1). */
static const th_property TH_PROP_LINE_WIDTH = (th_property)44;
/** number, animatable. CAShapeLayer.strokeStart: fraction of the path's length (default 0; drawn clamped to [0, 1]). */
static const th_property TH_PROP_STROKE_START = (th_property)45;
/** number, animatable. CAShapeLayer.strokeEnd: fraction of the path's length (default 1; drawn clamped to [0, 1]). */
static const th_property TH_PROP_STROKE_END = (th_property)46;
/** number, animatable. CAShapeLayer.lineDashPhase in points (default 0). */
static const th_property TH_PROP_LINE_DASH_PHASE = (th_property)47;
/** number, not animatable (as TH_PROP_MASKED_CORNERS). CAShapeLayer.fillRule: a th_fill_rule (default nonzero). */
static const th_property TH_PROP_FILL_RULE = (th_property)48;
/** number, not animatable (as TH_PROP_MASKED_CORNERS). CAGradientLayer.type: a th_gradient_type (default axial). */
static const th_property TH_PROP_GRADIENT_TYPE = (th_property)49;

/** CACornerMask bits (names of a y-down plane: min x min y is the top-left corner). */
#define TH_CORNER_MIN_X_MIN_Y 1u
#define TH_CORNER_MAX_X_MIN_Y 2u
#define TH_CORNER_MIN_X_MAX_Y 4u
#define TH_CORNER_MAX_X_MAX_Y 8u

/** CAShapeLayerFillRule, as a TH_PROP_FILL_RULE number. */
typedef enum th_fill_rule {
  TH_FILL_RULE_NON_ZERO = 0,
  TH_FILL_RULE_EVEN_ODD = 1
} th_fill_rule;

/** CAGradientLayerType, as a TH_PROP_GRADIENT_TYPE number. */
typedef enum th_gradient_type {
  /** Along the line from start_point to end_point. */
  TH_GRADIENT_AXIAL = 0,
  /** Ellipses centred on start_point reaching end_point at the last stop. */
  TH_GRADIENT_RADIAL = 1,
  /** Round start_point, angle 0 toward end_point. */
  TH_GRADIENT_CONIC = 2
} th_gradient_type;

/** What a layer draws (its class). */
typedef enum th_layer_kind {
  /** CALayer: background colour, border, shadow, contents. */
  TH_LAYER_PLAIN = 1,
  /** CAGradientLayer: TH_PROP_GRADIENT fills the bounds. */
  TH_LAYER_GRADIENT = 2,
  /** CAShapeLayer: TH_PROP_PATH filled and stroked. */
  TH_LAYER_SHAPE = 3
} th_layer_kind;

/** The kind of a path element (CGPathElementType). */
typedef enum th_path_element_kind {
  /** Starts a subpath at points[0]. */
  TH_PATH_MOVE = 1,
  /** A line to points[0]. */
  TH_PATH_LINE = 2,
  /** A quadratic curve: control points[0], end points[1]. */
  TH_PATH_QUAD_CURVE = 3,
  /** A cubic curve: controls points[0] and points[1], end points[2]. */
  TH_PATH_CURVE = 4,
  /** Closes the subpath (no points). */
  TH_PATH_CLOSE = 5
} th_path_element_kind;

/** FROZEN. One path element as CGPathElement stores it: controls first, then the end point; unused points 0. */
typedef struct th_path_element {
  th_path_element_kind kind;
  uint32_t reserved;
  th_point points[3];
} th_path_element;

/**
 * FROZEN. A path (CGPath) as data: `count` elements. An empty path (count 0) is a path, not "no path" (NULL).
 * Two paths animate point by point when their element kinds agree one for one; otherwise (and between a path and
 * none) the start shape shows until the animation's end, where the end shape appears (Core Animation's jump).
 */
typedef struct th_path {
  const th_path_element *elements;
  uint32_t count;
  uint32_t reserved;
} th_path;

/** The shapes `path_shape` builds. */
typedef enum th_path_shape_kind {
  /** CGPath(rect:): move to the origin corner, three lines clockwise (y down), close: 5 elements. */
  TH_SHAPE_RECT = 1,
  /** UIBezierPath(ovalIn:) / CGPath(ellipseIn:): a move, four cubic quarter curves, close: 6 elements. */
  TH_SHAPE_ELLIPSE = 2,
  /**
   * UIBezierPath(roundedRect:byRoundingCorners:cornerRadii:) with a radius per corner (each clamped to half the
   * shorter side): a move, for each side a line and for each corner a cubic (also for radius 0), close: 10
   * elements, so that any two rounded rectangles animate.
   */
  TH_SHAPE_ROUNDED_RECT = 3,
  /**
   * UIBezierPath(arcCenter:radius:startAngle:endAngle:clockwise:) / addArc: a line to the arc's start (a move
   * when `continues` is false), then one cubic per quarter turn or less (handle 4/3·tan(θ/4)·r): 1 to 5
   * elements. Angles in radians from the x axis; `clockwise` is UIKit's (increasing angle on a y-down screen).
   */
  TH_SHAPE_ARC = 4
} th_path_shape_kind;

/** The most elements one shape of `path_shape` has. */
#define TH_PATH_SHAPE_MAX_ELEMENTS 16u

/** Input of `path_shape`; set struct_size to sizeof(th_path_shape) and the members the kind reads. Growable. */
typedef struct th_path_shape {
  uint32_t struct_size;
  th_path_shape_kind kind;
  /** RECT, ELLIPSE, ROUNDED_RECT: the rectangle (a negative size is standardised, as CGRect's). */
  th_rect rect;
  /** ROUNDED_RECT: the radius of each corner (top-left, top-right, bottom-right, bottom-left), >= 0. */
  double top_left_radius, top_right_radius, bottom_right_radius, bottom_left_radius;
  /** ARC: the centre, the radius (>= 0), the angles in radians and the direction. */
  th_point center;
  double radius;
  double start_angle;
  double end_angle;
  bool clockwise;
  /** ARC: whether the path already has a current point (the arc starts with a line to its start, not a move). */
  bool continues;
  uint8_t reserved[6];
} th_path_shape;

/**
 * Host extension "th.layers/1" (from th_host_api.get_extension): Core Animation's layer tree. Unless a function
 * says otherwise it follows th_host_api's rules (handles, statuses, out-parameters, phases). Tree changes and
 * masks are never animated (as Core Animation's); a cancelled transition restores every layer's properties, the
 * sublayer order and the masks, and layers made after the start end detached. Growable.
 */
typedef struct th_host_layers {
  uint32_t struct_size;
  uint32_t reserved;

  /**
   * CALayer() / CAGradientLayer() / CAShapeLayer(): a new layer that is not a view, of `kind`, not in any tree,
   * with CALayer's defaults (zero bounds, position (0, 0), anchor (0.5, 0.5), opacity 1, no background). Its id
   * follows make_view's `id_hint` rule; it appears in frames (`"kind": "layer" | "gradient" | "shape"`) once it
   * is a sublayer of a node in the container's tree, or a mask of one. TH_ERR_UNSUPPORTED for an unknown kind.
   * Counts toward make_view's limit (TH_ERR_LIMIT). Phase: as make_view.
   */
  th_status(TH_ABI *make_layer)(th_context ctx, th_layer_kind kind, const char *id_hint, th_view *out_layer);

  /**
   * What `layer` draws, in `*out_kind`, and whether it is a view's layer (a view made with make_view, a snapshot
   * or a node of the client's tree) in `*out_is_view`. Phase: any but describe.
   */
  th_status(TH_ABI *get_layer_kind)(th_context ctx, th_view layer, th_layer_kind *out_kind, bool *out_is_view);

  /**
   * UIView's `override class var layerClass`: makes the view's own layer a gradient or shape layer (or a plain
   * one again). Only for views (TH_ERR_INVALID_VALUE for a layer that is not a view: its kind is fixed when it
   * is made). Not animatable. Phase: as add_subview.
   */
  th_status(TH_ABI *set_layer_class)(th_context ctx, th_view view, th_layer_kind kind);

  /**
   * CALayer.addSublayer / insertSublayer(_:at:) / insertSublayer(_:below:) / insertSublayer(_:above:). `layer`
   * must be a layer that is not a view (a view's layer joins a tree with add_subview: TH_ERR_INVALID_TREE); it
   * leaves its old superlayer (or stops being a mask) first. `index` past the end appends. TH_ERR_INVALID_TREE
   * also for a cycle and for a `sibling` that is not a sublayer of `parent`; TH_ERR_LIMIT past 1000 levels.
   * Sublayers draw in order (later on top), the subviews' layers among them; zPosition still sorts siblings.
   * Phase: as add_subview.
   */
  th_status(TH_ABI *add_sublayer)(th_context ctx, th_view parent, th_view layer);
  th_status(TH_ABI *insert_sublayer_at)(th_context ctx, th_view parent, th_view layer, uint32_t index);
  th_status(TH_ABI *insert_sublayer_below)(th_context ctx, th_view parent, th_view layer, th_view sibling);
  th_status(TH_ABI *insert_sublayer_above)(th_context ctx, th_view parent, th_view layer, th_view sibling);

  /**
   * CALayer.removeFromSuperlayer: out of its superlayer, or no longer a mask. For a view's layer it is
   * remove_from_superview (TH_ERR_INVALID_TREE for the container). Phase: as add_subview.
   */
  th_status(TH_ABI *remove_from_superlayer)(th_context ctx, th_view layer);

  /** CALayer.superlayer: {0} when none (a view's layer: its superview's). Phase: any but describe. */
  th_status(TH_ABI *superlayer)(th_context ctx, th_view layer, th_view *out_superlayer);

  /**
   * CALayer.sublayers: their number, and the one at `index` (0 = back, the subviews' layers included);
   * TH_ERR_INVALID_VALUE past the last. Phase: any but describe.
   */
  th_status(TH_ABI *sublayer_count)(th_context ctx, th_view layer, uint32_t *out_count);
  th_status(TH_ABI *sublayer_at)(th_context ctx, th_view layer, uint32_t index, th_view *out_sublayer);

  /**
   * CALayer.mask (UIView.mask when `mask` is a view): the alpha of `mask` (its opacity, content and shape: a
   * shape layer's filled path) masks `layer` and its sublayers; {0} removes the mask. The mask's geometry is in
   * `layer`'s bounds coordinates, like a sublayer's (without `layer`'s sublayerTransform). The mask leaves its
   * superlayer and any layer it masked (Core Animation requires a mask without a superlayer). TH_ERR_INVALID_TREE
   * for the container, for `layer` itself or one of its ancestors. Not animatable. Phase: as add_subview.
   */
  th_status(TH_ABI *set_mask)(th_context ctx, th_view layer, th_view mask);
  /** The mask of `layer`, {0} when none. Phase: any but describe. */
  th_status(TH_ABI *get_mask)(th_context ctx, th_view layer, th_view *out_mask);

  /**
   * Sets a path property (TH_PROP_PATH, TH_PROP_SHADOW_PATH; another is TH_ERR_TYPE_MISMATCH, an unknown one
   * TH_ERR_UNSUPPORTED): a copy of `*value`, or none when `value` is NULL. Points must be finite and kinds known
   * (TH_ERR_INVALID_VALUE), at most 100000 elements (TH_ERR_LIMIT), `elements` NULL only with count 0
   * (TH_ERR_INVALID_ARGUMENT). Animatable (see th_path). Phase: as set_number.
   */
  th_status(TH_ABI *set_path)(th_context ctx, th_view layer, th_property property, const th_path *value);
  /** The model path; `*out_is_set` false when none. `out_value->elements` is borrowed. Phase: as get_number. */
  th_status(TH_ABI *get_path)(th_context ctx, th_view layer, th_property property, th_path *out_value,
                              bool *out_is_set);

  /**
   * CAShapeLayer.lineDashPattern: `count` lengths in points (painted, unpainted, …), each finite and >= 0; NULL
   * is a solid line. At most 1024 lengths (TH_ERR_LIMIT). Not animatable (lineDashPhase is). Phase: as
   * set_number, not in a driver (TH_ERR_WRONG_PHASE).
   */
  th_status(TH_ABI *set_line_dash_pattern)(th_context ctx, th_view layer, const double *lengths, uint32_t count);
  /** The pattern (borrowed), `*out_is_set` false for a solid line. Phase: as get_number. */
  th_status(TH_ABI *get_line_dash_pattern)(th_context ctx, th_view layer, const double **out_lengths,
                                           uint32_t *out_count, bool *out_is_set);

  /**
   * Builds the elements of a shape exactly as the host's paths store it (CGPath's structure; see
   * th_path_shape_kind), into `out` (capacity `capacity`, TH_PATH_SHAPE_MAX_ELEMENTS always suffices), the number
   * written in `*out_count`. TH_ERR_LIMIT when `capacity` is too small, TH_ERR_INVALID_VALUE for non-finite
   * numbers or a negative radius, TH_ERR_UNSUPPORTED for an unknown kind, TH_ERR_INVALID_ARGUMENT for NULL
   * pointers or a small struct_size. A pure function: no context, callable from any thread at any time between
   * th_plugin_entry and deinit (like `log`), so that a plugin can build paths before any transition.
   */
  th_status(TH_ABI *path_shape)(const th_path_shape *shape, th_path_element *out, uint32_t capacity,
                                uint32_t *out_count);
} th_host_layers;

#define TH_EXT_LAYERS "th.layers/1"

/* ====================================================================================================== */
/* End of ABI 1.3 — Core Animation layers                                                                  */
/* ====================================================================================================== */

/* ====================================================================================================== */
/* ABI 1.3 — Core Animation animations: host extension "th.core-animation/1"                               */
/*                                                                                                          */
/* CABasicAnimation, CAKeyframeAnimation, CASpringAnimation and CAAnimationGroup with their CAMediaTiming,    */
/* added to layers (a view's layer is its th_view: one node), CAAnimationDelegate callbacks, CATransaction,   */
/* CACurrentMediaTime() and the CAMediaTiming of layers (beginTime, speed, timeOffset). Self-contained:       */
/* nothing above changes.                                                                                   */
/* ====================================================================================================== */

/** An animation object of one transition (made by create; `{0}` = none). Like a CAAnimation it is configured,
 *  then copied into a layer by `add`; changing it afterwards does not change what was added. */
typedef struct th_ca_animation {
  uint64_t id;
} th_ca_animation;

/** What an animation object is. */
typedef enum th_ca_animation_kind {
  TH_CA_BASIC = 0,
  TH_CA_KEYFRAME = 1,
  TH_CA_SPRING = 2,
  TH_CA_GROUP = 3
} th_ca_animation_kind;

/** The kind of a th_ca_value (it must match the key path's type: opacity a number, position a point, …). */
typedef enum th_ca_value_kind {
  /** numbers[0]. */
  TH_CA_VALUE_NUMBER = 0,
  /** numbers[0..1] = x, y. */
  TH_CA_VALUE_POINT = 1,
  /** numbers[0..1] = width, height. */
  TH_CA_VALUE_SIZE = 2,
  /** numbers[0..3] = x, y, width, height. */
  TH_CA_VALUE_RECT = 3,
  /** numbers[0..15] = m11 … m44, as th_transform3d. */
  TH_CA_VALUE_TRANSFORM = 4,
  /** numbers[0..3] = r, g, b, a. */
  TH_CA_VALUE_COLOR = 5,
  /** No colour (a nil CGColor). */
  TH_CA_VALUE_NO_COLOR = 6,
  /** `path` / `path_count` (the host copies the elements). */
  TH_CA_VALUE_PATH = 7,
  /** No path (a nil CGPath). */
  TH_CA_VALUE_NO_PATH = 8
} th_ca_value_kind;

/** A path element, as CGPath stores them. */
typedef enum th_ca_path_element_kind {
  /** points[0]: the new current point. */
  TH_CA_PATH_MOVE = 0,
  /** points[0]: the end. */
  TH_CA_PATH_LINE = 1,
  /** points[0]: the control point, points[1]: the end. */
  TH_CA_PATH_QUAD = 2,
  /** points[0], points[1]: the control points, points[2]: the end. */
  TH_CA_PATH_CUBIC = 3,
  /** Back to the subpath's start. */
  TH_CA_PATH_CLOSE = 4
} th_ca_path_element_kind;

/** FROZEN. One path element. */
typedef struct th_ca_path_element {
  th_ca_path_element_kind kind;
  uint32_t reserved;
  th_point points[3];
} th_ca_path_element;

/** FROZEN. A fromValue / toValue / byValue or keyframe value. */
typedef struct th_ca_value {
  th_ca_value_kind kind;
  uint32_t reserved;
  double numbers[16];
  const th_ca_path_element *path;
  size_t path_count;
} th_ca_value;

/** Which of a basic or spring animation's values set_value sets. */
typedef enum th_ca_value_slot {
  TH_CA_FROM_VALUE = 0,
  TH_CA_TO_VALUE = 1,
  TH_CA_BY_VALUE = 2
} th_ca_value_slot;

/** CAMediaTimingFillMode. */
typedef enum th_ca_fill_mode {
  TH_CA_FILL_REMOVED = 0,
  TH_CA_FILL_FORWARDS = 1,
  TH_CA_FILL_BACKWARDS = 2,
  TH_CA_FILL_BOTH = 3
} th_ca_fill_mode;

/** CAAnimationRotationMode of a path keyframe animation. */
typedef enum th_ca_rotation_mode {
  TH_CA_ROTATE_NONE = 0,
  TH_CA_ROTATE_AUTO = 1,
  TH_CA_ROTATE_AUTO_REVERSE = 2
} th_ca_rotation_mode;

/**
 * An animation's CAMediaTiming and flags. Growable: struct_size = sizeof(th_ca_media_timing). Start from
 * th_ca_media_timing_default() (Core Animation's defaults). Times in seconds of the layer's local time.
 */
typedef struct th_ca_media_timing {
  uint32_t struct_size;
  th_ca_fill_mode fill_mode;
  /** 0 = the layer's current time when added (CACurrentMediaTime() + delay for a delayed start). */
  double begin_time;
  /** 0 = the transaction's animation duration (0.25 s by default); a spring's settling duration; a group
   *  child's group duration. */
  double duration;
  double speed;
  double time_offset;
  /** Fractional counts end part-way; 0 = once; INFINITY repeats for ever. */
  double repeat_count;
  double repeat_duration;
  bool autoreverses;
  /** isRemovedOnCompletion (default true: at its end the layer shows its model value again). */
  bool removed_on_completion;
  /** isAdditive. */
  bool additive;
  uint8_t reserved[5];
} th_ca_media_timing;

/** Core Animation's defaults: speed 1, removed on completion, fill mode removed, everything else 0. */
static inline th_ca_media_timing th_ca_media_timing_default(void) {
  th_ca_media_timing t = {0};
  t.struct_size = (uint32_t)sizeof(th_ca_media_timing);
  t.speed = 1;
  t.removed_on_completion = true;
  return t;
}

/** FROZEN. A layer's CAMediaTiming: local time = (superlayer's time - begin_time) * speed + time_offset. */
typedef struct th_ca_layer_timing {
  double begin_time;
  double speed;
  double time_offset;
} th_ca_layer_timing;

/**
 * CAAnimationDelegate. Growable: struct_size = sizeof(th_ca_delegate). Either function may be NULL. Called only
 * when time really advances (never while the host samples), phase animate (complete_transition is allowed).
 * did_stop's `finished` is false when the animation was removed before its end (removeAnimation, the same key
 * added again, or the transition ending first).
 */
typedef struct th_ca_delegate {
  uint32_t struct_size;
  uint32_t reserved;
  void(TH_ABI *did_start)(th_context ctx, void *user_data);
  void(TH_ABI *did_stop)(th_context ctx, bool finished, void *user_data);
  void *user_data;
} th_ca_delegate;

/** A CATransaction completion block (phase animate). */
typedef void(TH_ABI *th_ca_completion_fn)(th_context ctx, void *user_data);

/**
 * Host extension "th.core-animation/1" (from th_host_api.get_extension). Growable. Semantics are Core
 * Animation's (docs/writing-plugins.md, "Core Animation"): presentation = the model with the layer's animations
 * applied in add order over UIView blocks; CABasicAnimation's absent-value rules; removal on completion (the
 * snap-back) and fill modes; layer timing composing down the tree; implicit actions of layers that are not views.
 *
 * Every function takes the transition context; animations are this transition's (TH_ERR_INVALID_HANDLE for
 * another one, TH_ERR_STALE_HANDLE for an ended transition's), layers are view handles (a view, the container,
 * or a layer that is not a view). Non-finite numbers are TH_ERR_INVALID_VALUE, NULL required pointers
 * TH_ERR_INVALID_ARGUMENT, unknown enum values TH_ERR_UNSUPPORTED; all are reported and change nothing.
 * Phase of every function: animate, animations (and the callbacks that run in animate).
 */
typedef struct th_host_core_animation {
  uint32_t struct_size;
  uint32_t reserved;

  /**
   * A new animation object of `kind` in `*out`. `key_path` (copied) is Core Animation's: "opacity", "position",
   * "position.x", "bounds.size", "transform.rotation.z", "sublayerTransform.scale", "cornerRadius", "path",
   * "shadowOpacity", …; NULL for a group (and ignored there). At most 100,000 per transition (TH_ERR_LIMIT).
   */
  th_status(TH_ABI *create)(th_context ctx, th_ca_animation_kind kind, const char *key_path, th_ca_animation *out);

  /** fromValue / toValue / byValue of a basic or spring animation (NULL clears it: absent). TH_ERR_WRONG_PHASE on
   *  a keyframe animation or a group. A value of the wrong type for the key path is refused when added. */
  th_status(TH_ABI *set_value)(th_context ctx, th_ca_animation animation, th_ca_value_slot slot,
                               const th_ca_value *value);

  /** The CAMediaTiming and flags (NULL: TH_ERR_INVALID_ARGUMENT; a small struct_size likewise). */
  th_status(TH_ABI *set_timing)(th_context ctx, th_ca_animation animation, const th_ca_media_timing *timing);

  /** CAAnimation.timingFunction: a TH_TIMING_CURVE th_timing (springs: TH_ERR_UNSUPPORTED); NULL = linear. */
  th_status(TH_ABI *set_timing_function)(th_context ctx, th_ca_animation animation, const th_timing *curve);

  /**
   * A keyframe animation's values (count >= 1), keyTimes (NULL / 0: evenly spaced; otherwise count entries, count
   * + 1 for discrete, in [0, 1] and not decreasing), per-segment timing functions (NULL / 0 or count - 1
   * TH_TIMING_CURVE entries) and calculation mode. TH_ERR_WRONG_PHASE on another kind. values NULL with count 0:
   * no values, only the timing of a path animation (set_keyframe_path), whose keyframes are the path's vertices:
   * keyTimes then has one entry per vertex (the first move and each segment's end; a mismatched count is ignored at
   * run time and the vertices are evenly spaced), timing functions one per segment.
   */
  th_status(TH_ABI *set_keyframes)(th_context ctx, th_ca_animation animation, const th_ca_value *values,
                                   size_t count, const double *key_times, size_t key_time_count,
                                   const th_timing *timing_functions, size_t function_count,
                                   th_calculation_mode mode);

  /** A keyframe animation's path (wins over its values for a point key path) and rotation mode. */
  th_status(TH_ABI *set_keyframe_path)(th_context ctx, th_ca_animation animation, const th_ca_path_element *elements,
                                       size_t count, th_ca_rotation_mode rotation);

  /** CASpringAnimation's mass (> 0), stiffness (> 0), damping (>= 0), initialVelocity, allowsOverdamping. */
  th_status(TH_ABI *set_spring)(th_context ctx, th_ca_animation animation, double mass, double stiffness,
                                double damping, double initial_velocity, bool allows_overdamping);

  /** CASpringAnimation.settlingDuration of a spring animation. Phase: any transition phase. */
  th_status(TH_ABI *get_settling_duration)(th_context ctx, th_ca_animation animation, double *out_seconds);

  /** Appends a copy of `child` (as it is now) to a group's animations. */
  th_status(TH_ABI *add_child)(th_context ctx, th_ca_animation group, th_ca_animation child);

  /** CAAnimation.delegate (copied; NULL removes it). */
  th_status(TH_ABI *set_delegate)(th_context ctx, th_ca_animation animation, const th_ca_delegate *delegate);

  /**
   * CALayer.add(_:forKey:): a copy of the animation joins `layer`; the same key replaces the animation there (its
   * delegate hears finished false); `key` NULL adds one no key reaches. An unknown key path or a value of the
   * wrong type is TH_ERR_INVALID_VALUE (reported, nothing added).
   */
  th_status(TH_ABI *add)(th_context ctx, th_view layer, th_ca_animation animation, const char *key);

  /** animation(forKey:): a new animation object, a copy of the one on the layer, in `*out` (TH_ERR_NOT_FOUND). */
  th_status(TH_ABI *copy_animation)(th_context ctx, th_view layer, const char *key, th_ca_animation *out);

  /** How many keyed animations the layer has (animationKeys().count). Phase: any transition phase. */
  th_status(TH_ABI *get_animation_key_count)(th_context ctx, th_view layer, size_t *out_count);

  /**
   * The key at `index` (add order) as a NUL-terminated string into `buffer` of `capacity` bytes; the length
   * without the NUL in `*out_length` (TH_ERR_LIMIT, with the length set, when it does not fit; TH_ERR_NOT_FOUND
   * for an index past the end). Phase: any transition phase.
   */
  th_status(TH_ABI *get_animation_key)(th_context ctx, th_view layer, size_t index, char *buffer, size_t capacity,
                                       size_t *out_length);

  /** removeAnimation(forKey:) (no such key: TH_OK); its delegate hears finished false at the next advance. */
  th_status(TH_ABI *remove)(th_context ctx, th_view layer, const char *key);

  /** removeAllAnimations(). */
  th_status(TH_ABI *remove_all)(th_context ctx, th_view layer);

  /** CATransaction.begin(). */
  th_status(TH_ABI *transaction_begin)(th_context ctx);

  /** CATransaction.commit() (without a begin: TH_ERR_WRONG_PHASE). */
  th_status(TH_ABI *transaction_commit)(th_context ctx);

  /** CATransaction.setCompletionBlock: runs once every animation added after it in this transaction has finished
   *  or been removed (at the next advance when there is none); NULL clears it. */
  th_status(TH_ABI *transaction_set_completion)(th_context ctx, th_ca_completion_fn completion, void *user_data);

  /** CATransaction.setAnimationDuration (finite, >= 0). */
  th_status(TH_ABI *transaction_set_animation_duration)(th_context ctx, double seconds);

  /** CATransaction.setAnimationTimingFunction (a TH_TIMING_CURVE th_timing; NULL = the default). */
  th_status(TH_ABI *transaction_set_timing_function)(th_context ctx, const th_timing *curve);

  /** CATransaction.setDisableActions. */
  th_status(TH_ABI *transaction_set_disable_actions)(th_context ctx, bool disabled);

  /** A layer's CAMediaTiming (beginTime, speed, timeOffset; finite). */
  th_status(TH_ABI *set_layer_timing)(th_context ctx, th_view layer, const th_ca_layer_timing *timing);

  /** Reads a layer's CAMediaTiming. Phase: any transition phase. */
  th_status(TH_ABI *get_layer_timing)(th_context ctx, th_view layer, th_ca_layer_timing *out_timing);

  /** CACurrentMediaTime(): the transition's timeline time now (the container's parent time). Phase: any. */
  th_status(TH_ABI *current_media_time)(th_context ctx, double *out_seconds);
} th_host_core_animation;

#define TH_EXT_CORE_ANIMATION "th.core-animation/1"

/* ====================================================================================================== */
/* End of ABI 1.3 — Core Animation animations                                                              */
/* ====================================================================================================== */

/* Enums travel as 32-bit integers; a plugin built with -fshort-enums would not. */
TH_STATIC_ASSERT(sizeof(th_status) == 4, "th_plugin.h: enums must be 32-bit (do not use -fshort-enums)");
TH_STATIC_ASSERT(sizeof(th_property) == 4, "th_plugin.h: enums must be 32-bit (do not use -fshort-enums)");

#ifdef __cplusplus
}
#endif

#endif /* TH_PLUGIN_H */
