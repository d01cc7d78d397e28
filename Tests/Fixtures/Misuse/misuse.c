// TestPluginMisuse: one animator per kind of host-API misuse. Each one makes its mistake, logs what the
// host answered ("<call> -> <status name>") through `log`, and then (unless the mistake is about completing)
// finishes like a good animator: the to view fades in over 0.2 s and the completion completes. The tests
// check the logged statuses, the misbehaviour reports and the outcome, and that the host keeps working.
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "th_plugin.h"

static const th_host_api *g_api;     // set by create (the table is valid until deinit)
static const th_host_info *g_host;  // likewise

static void note(th_context ctx, const char *what, th_status status) {
  char line[256];
  snprintf(line, sizeof line, "%s -> %s", what, th_status_name(status));
  g_api->log(ctx, TH_LOG_INFO, line);
}

static void say(th_context ctx, const char *text) { g_api->log(ctx, TH_LOG_INFO, text); }

static void *create(const th_animator_descriptor *animator, const th_host_info *host) {
  g_api = host->api;
  g_host = host;
  return (void *)animator;  // the instance is the descriptor: animators here keep no state
}

static void *create_fails(const th_animator_descriptor *animator, const th_host_info *host) {
  (void)animator;
  g_api = host->api;
  return NULL;
}

static void destroy(void *instance) { (void)instance; }

static double duration_02(void *instance, th_context ctx) {
  (void)instance;
  (void)ctx;
  return 0.2;
}

// ---- the good ending shared by most animators ---------------------------------------------------------

static void complete_unless_cancelled(th_context ctx, bool finished, void *user_data) {
  (void)finished;
  (void)user_data;
  bool cancelled = false;
  g_api->transition_was_cancelled(ctx, &cancelled);
  g_api->complete_transition(ctx, !cancelled);
}

static void fade_to_in(th_context ctx, void *user_data) {
  (void)user_data;
  th_view to;
  g_api->view_for_key(ctx, TH_KEY_TO, &to);
  g_api->set_number(ctx, to, TH_PROP_ALPHA, 1.0);
}

static th_animation_options linear(double duration) {
  th_animation_options options = {sizeof options, 0, duration, 0.0, th_timing_curve(TH_CURVE_LINEAR)};
  return options;
}

/// Adds the to view (alpha 0) and fades it in over 0.2 s; the completion completes.
static void finish(th_context ctx, th_completion_fn completion) {
  th_view container, to;
  g_api->container_view(ctx, &container);
  g_api->view_for_key(ctx, TH_KEY_TO, &to);
  g_api->set_number(ctx, to, TH_PROP_ALPHA, 0.0);
  g_api->add_subview(ctx, container, to);
  th_animation_options options = linear(0.2);
  g_api->animate(ctx, &options, fade_to_in, completion, NULL);
}

static void animate_good(void *instance, th_context ctx) {
  (void)instance;
  finish(ctx, complete_unless_cancelled);
}

// ---- bogus handles ------------------------------------------------------------------------------------

static void bogus_handle(void *instance, th_context ctx) {
  (void)instance;
  th_view view;
  th_view made_up = {0xdeadbeefULL};
  note(ctx, "set_number(made-up view)", g_api->set_number(ctx, made_up, TH_PROP_ALPHA, 0.5));
  th_view none = {0};
  note(ctx, "set_number({0})", g_api->set_number(ctx, none, TH_PROP_ALPHA, 0.5));
  th_view wrong_index = {(ctx.id << 32) | 999u};
  note(ctx, "get_number(unissued index)", g_api->get_number(ctx, wrong_index, TH_PROP_ALPHA, &(double){0}));
  th_context made_up_ctx = {987654321u};
  note(ctx, "container_view(made-up context)", g_api->container_view(made_up_ctx, &view));
  th_context no_ctx = {0};
  note(ctx, "container_view({0})", g_api->container_view(no_ctx, &view));
  note(ctx, "container_view(plugin context)", g_api->container_view(g_host->plugin_context, &view));
  finish(ctx, complete_unless_cancelled);
}

// ---- stale handles: the first transition keeps its context and to view, the second uses them ----------

static th_context g_kept_ctx;
static th_view g_kept_view;

static void stale_handle(void *instance, th_context ctx) {
  (void)instance;
  if (g_kept_ctx.id == 0) {
    g_kept_ctx = ctx;
    g_api->view_for_key(ctx, TH_KEY_TO, &g_kept_view);
    say(ctx, "kept the context and the to view");
  } else {
    th_view view;
    note(ctx, "set_number(view of an ended transition)", g_api->set_number(ctx, g_kept_view, TH_PROP_ALPHA, 0.5));
    note(ctx, "container_view(context of an ended transition)", g_api->container_view(g_kept_ctx, &view));
    g_api->log(g_kept_ctx, TH_LOG_INFO, "logged with the context of an ended transition");
  }
  finish(ctx, complete_unless_cancelled);
}

// ---- invalid values -----------------------------------------------------------------------------------

static void nan_setter(void *instance, th_context ctx) {
  (void)instance;
  th_view to;
  g_api->view_for_key(ctx, TH_KEY_TO, &to);
  note(ctx, "set_number(alpha, 0.25)", g_api->set_number(ctx, to, TH_PROP_ALPHA, 0.25));
  note(ctx, "set_number(alpha, NaN)", g_api->set_number(ctx, to, TH_PROP_ALPHA, NAN));
  note(ctx, "set_number(alpha, inf)", g_api->set_number(ctx, to, TH_PROP_ALPHA, INFINITY));
  note(ctx, "set_number(alpha, 1.5)", g_api->set_number(ctx, to, TH_PROP_ALPHA, 1.5));
  note(ctx, "set_number(cornerRadius, -1)", g_api->set_number(ctx, to, TH_PROP_CORNER_RADIUS, -1.0));
  th_rect bad_frame = {0.0, 0.0, INFINITY, 10.0};
  note(ctx, "set_rect(frame, inf width)", g_api->set_rect(ctx, to, TH_PROP_FRAME, bad_frame));
  th_rect negative = {0.0, 0.0, -5.0, 10.0};
  note(ctx, "set_rect(bounds, negative width)", g_api->set_rect(ctx, to, TH_PROP_BOUNDS, negative));
  th_transform3d t = th_transform3d_identity();
  t.m[11] = NAN;
  note(ctx, "set_transform(NaN m34)", g_api->set_transform(ctx, to, TH_PROP_TRANSFORM, &t));
  th_color red = {1.2, 0.0, 0.0, 1.0};
  note(ctx, "set_color(r = 1.2)", g_api->set_color(ctx, to, TH_PROP_BACKGROUND_COLOR, &red));
  double alpha = -1;
  g_api->get_number(ctx, to, TH_PROP_ALPHA, &alpha);
  char line[64];
  snprintf(line, sizeof line, "alpha is %g", alpha);
  say(ctx, line);
  finish(ctx, complete_unless_cancelled);
}

static int g_bad_animations_ran;

static void bad_animations(th_context ctx, void *user_data) {
  (void)ctx;
  (void)user_data;
  g_bad_animations_ran++;
}

static void bad_timing(void *instance, th_context ctx) {
  (void)instance;
  th_animation_options o = linear(0.2);
  o.timing = th_timing_bezier(1.5, 0.0, 0.5, 1.0);
  note(ctx, "animate(bezier x1 = 1.5)", g_api->animate(ctx, &o, bad_animations, NULL, NULL));
  o.timing = th_timing_bezier(0.25, NAN, 0.5, 1.0);
  note(ctx, "animate(bezier y1 = NaN)", g_api->animate(ctx, &o, bad_animations, NULL, NULL));
  o.timing = th_timing_curve(TH_CURVE_STEPS);
  o.timing.steps = 0;
  note(ctx, "animate(steps 0)", g_api->animate(ctx, &o, bad_animations, NULL, NULL));
  o.timing = th_timing_spring(0.0, 0.0);
  note(ctx, "animate(spring damping 0)", g_api->animate(ctx, &o, bad_animations, NULL, NULL));
  o.timing = th_timing_spring_physical(-1.0, 100.0, 10.0, 0.0);
  note(ctx, "animate(physical spring mass -1)", g_api->animate(ctx, &o, bad_animations, NULL, NULL));
  o.duration = TH_DURATION_AUTOMATIC;
  o.timing = th_timing_spring_physical(1.0, 100.0, 0.0, 0.0);
  note(ctx, "animate(undamped automatic spring)", g_api->animate(ctx, &o, bad_animations, NULL, NULL));
  o.timing = th_timing_curve(TH_CURVE_LINEAR);
  note(ctx, "animate(automatic with a curve)", g_api->animate(ctx, &o, bad_animations, NULL, NULL));
  o.duration = 0.2;
  o.timing = th_timing_spring_bounce(-1.0, 0.0);
  note(ctx, "animate(bounce -1)", g_api->animate(ctx, &o, bad_animations, NULL, NULL));
  o.timing = th_timing_spring_bounce(1.0, 0.0);
  note(ctx, "animate(bounce 1)", g_api->animate(ctx, &o, bad_animations, NULL, NULL));
  o.timing = th_timing_spring_physical(1.0, 100.0, 10.0, 0.0);
  o.timing.flags = 1u << 7;
  note(ctx, "animate(timing flag 1 << 7)", g_api->animate(ctx, &o, bad_animations, NULL, NULL));
  o.timing = th_timing_curve(TH_CURVE_LINEAR);
  o.timing.kind = (th_timing_kind)99;
  note(ctx, "animate(timing kind 99)", g_api->animate(ctx, &o, bad_animations, NULL, NULL));
  o.timing = th_timing_curve((th_curve)42);
  note(ctx, "animate(curve 42)", g_api->animate(ctx, &o, bad_animations, NULL, NULL));
  o.timing = th_timing_curve(TH_CURVE_LINEAR);
  o.duration = -1.0;
  note(ctx, "animate(duration -1)", g_api->animate(ctx, &o, bad_animations, NULL, NULL));
  o.duration = 0.2;
  o.delay = NAN;
  note(ctx, "animate(delay NaN)", g_api->animate(ctx, &o, bad_animations, NULL, NULL));
  o.delay = 0.0;
  o.struct_size = 8;
  note(ctx, "animate(struct_size 8)", g_api->animate(ctx, &o, bad_animations, NULL, NULL));
  char line[64];
  snprintf(line, sizeof line, "bad animations ran %d times", g_bad_animations_ran);
  say(ctx, line);
  finish(ctx, complete_unless_cancelled);
}

// ---- completing wrong ---------------------------------------------------------------------------------

static void animate_after_complete(void *instance, th_context ctx) {
  (void)instance;
  th_view container, to, made;
  g_api->container_view(ctx, &container);
  g_api->view_for_key(ctx, TH_KEY_TO, &to);
  g_api->add_subview(ctx, container, to);
  note(ctx, "complete_transition(true)", g_api->complete_transition(ctx, true));
  th_animation_options o = linear(0.2);
  note(ctx, "animate after complete", g_api->animate(ctx, &o, fade_to_in, NULL, NULL));
  const th_host_custom_driver *drivers = g_api->get_extension(TH_EXT_CUSTOM_DRIVER);
  th_driver_options d = {sizeof d, 0, 0.2, 0.0};
  note(ctx, "add_driver after complete", drivers->add_driver(ctx, &d, NULL, NULL, NULL));
  note(ctx, "set_number after complete", g_api->set_number(ctx, to, TH_PROP_ALPHA, 0.5));
  note(ctx, "make_view after complete", g_api->make_view(ctx, "late", &made));
}

static void complete_twice_done(th_context ctx, bool finished, void *user_data) {
  (void)finished;
  (void)user_data;
  note(ctx, "first complete_transition", g_api->complete_transition(ctx, true));
  note(ctx, "second complete_transition", g_api->complete_transition(ctx, true));
}

static void complete_twice(void *instance, th_context ctx) {
  (void)instance;
  finish(ctx, complete_twice_done);
}

static void never_completes(void *instance, th_context ctx) {
  (void)instance;
  finish(ctx, NULL);  // animates, then forgets to complete
}

static void does_nothing(void *instance, th_context ctx) {
  (void)instance;
  (void)ctx;
}

// ---- wrong phases -------------------------------------------------------------------------------------

static double setter_in_duration_duration(void *instance, th_context ctx) {
  (void)instance;
  if (ctx.id != 0) {
    th_view container, to;
    note(ctx, "container_view in transition_duration", g_api->container_view(ctx, &container));
    g_api->view_for_key(ctx, TH_KEY_TO, &to);
    note(ctx, "set_number in transition_duration", g_api->set_number(ctx, to, TH_PROP_ALPHA, 0.5));
    note(ctx, "add_subview in transition_duration", g_api->add_subview(ctx, container, to));
    note(ctx, "complete_transition in transition_duration", g_api->complete_transition(ctx, true));
  }
  return 0.2;
}

static th_status g_driver_statuses[5];

static void misbehaving_update(th_context ctx, double time, double fraction, void *user_data) {
  (void)time;
  (void)user_data;
  th_view container, to, made;
  g_api->container_view(ctx, &container);
  g_api->view_for_key(ctx, TH_KEY_TO, &to);
  g_driver_statuses[0] = g_api->add_subview(ctx, container, to);
  g_driver_statuses[1] = g_api->set_bool(ctx, to, TH_PROP_HIDDEN, true);
  g_driver_statuses[2] = g_api->make_view(ctx, "from-driver", &made);
  g_driver_statuses[3] = g_api->complete_transition(ctx, true);
  g_driver_statuses[4] = g_api->set_number(ctx, to, TH_PROP_ALPHA, fraction);
}

static void tree_in_driver_done(th_context ctx, bool finished, void *user_data) {
  note(ctx, "add_subview in a driver", g_driver_statuses[0]);
  note(ctx, "set_bool(hidden) in a driver", g_driver_statuses[1]);
  note(ctx, "make_view in a driver", g_driver_statuses[2]);
  note(ctx, "complete_transition in a driver", g_driver_statuses[3]);
  note(ctx, "set_number(alpha) in a driver", g_driver_statuses[4]);
  complete_unless_cancelled(ctx, finished, user_data);
}

static void tree_in_driver(void *instance, th_context ctx) {
  (void)instance;
  th_view container, to;
  g_api->container_view(ctx, &container);
  g_api->view_for_key(ctx, TH_KEY_TO, &to);
  g_api->add_subview(ctx, container, to);
  const th_host_custom_driver *drivers = g_api->get_extension(TH_EXT_CUSTOM_DRIVER);
  th_driver_options d = {sizeof d, 0, 0.2, 0.0};
  drivers->add_driver(ctx, &d, misbehaving_update, tree_in_driver_done, NULL);
}

static void keyframe_in_keyframe(th_context ctx, void *user_data) {
  (void)user_data;
  note(ctx, "add_keyframe inside a keyframe", g_api->add_keyframe(ctx, 0.0, 0.5, fade_to_in, NULL));
}

static void keyframes_body(th_context ctx, void *user_data) {
  (void)user_data;
  note(ctx, "add_keyframe(1.2, 0)", g_api->add_keyframe(ctx, 1.2, 0.0, fade_to_in, NULL));
  note(ctx, "add_keyframe(0.5, 0.6)", g_api->add_keyframe(ctx, 0.5, 0.6, fade_to_in, NULL));
  note(ctx, "add_keyframe(0, 1)", g_api->add_keyframe(ctx, 0.0, 1.0, keyframe_in_keyframe, NULL));
}

static void keyframe_in_block(th_context ctx, void *user_data) {
  (void)user_data;
  note(ctx, "add_keyframe inside animate", g_api->add_keyframe(ctx, 0.0, 1.0, fade_to_in, NULL));
}

static void keyframe_outside(void *instance, th_context ctx) {
  (void)instance;
  note(ctx, "add_keyframe in animate_transition", g_api->add_keyframe(ctx, 0.0, 1.0, fade_to_in, NULL));
  th_animation_options o = linear(0.1);
  g_api->animate(ctx, &o, keyframe_in_block, NULL, NULL);
  th_keyframe_options k = {sizeof k, TH_CALCULATION_LINEAR, 0.1, 0.0, th_timing_curve(TH_CURVE_LINEAR)};
  g_api->animate_keyframes(ctx, &k, keyframes_body, NULL, NULL);
  finish(ctx, complete_unless_cancelled);
}

// ---- another thread -----------------------------------------------------------------------------------

struct thread_call {
  th_context ctx;
  th_view view;
  th_status status;
};

static void *call_from_thread(void *argument) {
  struct thread_call *call = argument;
  call->status = g_api->set_number(call->ctx, call->view, TH_PROP_ALPHA, 0.5);
  g_api->log(call->ctx, TH_LOG_INFO, "log from another thread");  // the one call any thread may make
  return NULL;
}

static void other_thread(void *instance, th_context ctx) {
  (void)instance;
  struct thread_call call = {ctx, {0}, TH_OK};
  g_api->view_for_key(ctx, TH_KEY_TO, &call.view);
  pthread_t thread;
  if (pthread_create(&thread, NULL, call_from_thread, &call) == 0) {
    pthread_join(thread, NULL);
    note(ctx, "set_number from another thread", call.status);
  }
  finish(ctx, complete_unless_cancelled);
}

// ---- stdout -------------------------------------------------------------------------------------------

static void writes_stdout(void *instance, th_context ctx) {
  (void)instance;
  printf("{\"jsonrpc\": \"2.0\", \"method\": \"not from the host\"}\n");
  fflush(stdout);
  finish(ctx, complete_unless_cancelled);
}

// ---- bad durations ------------------------------------------------------------------------------------

static double negative_duration(void *instance, th_context ctx) {
  (void)instance;
  (void)ctx;
  return -1.0;
}

static double nan_duration(void *instance, th_context ctx) {
  (void)instance;
  (void)ctx;
  return NAN;
}

// ---- NULL pointers, wrong kinds, bad trees ------------------------------------------------------------

static void null_pointers(void *instance, th_context ctx) {
  (void)instance;
  th_view view, to;
  g_api->view_for_key(ctx, TH_KEY_TO, &to);
  note(ctx, "container_view(NULL out)", g_api->container_view(ctx, NULL));
  note(ctx, "find_view(NULL id)", g_api->find_view(ctx, NULL, &view));
  note(ctx, "find_view(invalid UTF-8)", g_api->find_view(ctx, "\xff\xfe", &view));
  note(ctx, "operation(NULL out)", g_api->operation(ctx, NULL));
  note(ctx, "set_transform(NULL value)", g_api->set_transform(ctx, to, TH_PROP_TRANSFORM, NULL));
  th_animation_options o = linear(0.2);
  note(ctx, "animate(NULL options)", g_api->animate(ctx, NULL, fade_to_in, NULL, NULL));
  note(ctx, "animate(NULL animations)", g_api->animate(ctx, &o, NULL, NULL, NULL));
  note(ctx, "find_view(no such id)", g_api->find_view(ctx, "no-such-view", &view));
  finish(ctx, complete_unless_cancelled);
}

static void wrong_kind(void *instance, th_context ctx) {
  (void)instance;
  th_view to, view;
  double number;
  th_point point = {1.0, 2.0};
  g_api->view_for_key(ctx, TH_KEY_TO, &to);
  note(ctx, "get_number(frame)", g_api->get_number(ctx, to, TH_PROP_FRAME, &number));
  note(ctx, "set_point(alpha)", g_api->set_point(ctx, to, TH_PROP_ALPHA, point));
  note(ctx, "get_number(property 99)", g_api->get_number(ctx, to, (th_property)99, &number));
  note(ctx, "view_for_key(key 7)", g_api->view_for_key(ctx, (th_view_key)7, &view));
  note(ctx, "param_number(label)", g_api->param_number(ctx, "label", &number));
  note(ctx, "param_number(undeclared)", g_api->param_number(ctx, "undeclared", &number));
  finish(ctx, complete_unless_cancelled);
}

static void bad_tree(void *instance, th_context ctx) {
  (void)instance;
  th_view container, to, child, loose, out;
  g_api->container_view(ctx, &container);
  g_api->view_for_key(ctx, TH_KEY_TO, &to);
  g_api->make_view(ctx, "child", &child);
  g_api->make_view(ctx, "loose", &loose);
  g_api->add_subview(ctx, to, child);
  note(ctx, "add_subview(to, container)", g_api->add_subview(ctx, to, container));
  note(ctx, "add_subview(to, to)", g_api->add_subview(ctx, to, to));
  note(ctx, "add_subview(child, to)", g_api->add_subview(ctx, child, to));
  note(ctx, "insert_subview_below(container, loose, child)",
       g_api->insert_subview_below(ctx, container, loose, child));
  note(ctx, "bring_subview_to_front(container, child)", g_api->bring_subview_to_front(ctx, container, child));
  note(ctx, "remove_from_superview(container)", g_api->remove_from_superview(ctx, container));
  note(ctx, "subview_at(container, 99)", g_api->subview_at(ctx, container, 99, &out));
  uint32_t count = 0;
  g_api->subview_count(ctx, to, &count);
  char line[64];
  snprintf(line, sizeof line, "to has %u subview(s)", count);
  say(ctx, line);
  finish(ctx, complete_unless_cancelled);
}

// ---- ABI 1.2: presentation and view content ------------------------------------------------------------

static th_status g_presentation_in_driver;
static th_status g_content_in_driver;

static void presentation_update(th_context ctx, double time, double fraction, void *user_data) {
  (void)time;
  (void)fraction;
  (void)user_data;
  th_view to;
  g_api->view_for_key(ctx, TH_KEY_TO, &to);
  th_presentation p = {.struct_size = sizeof p};
  g_presentation_in_driver = g_api->get_presentation(ctx, to, &p);
  g_content_in_driver = g_api->set_image_content(ctx, to, "x", TH_CONTENT_MODE_CENTER);
}

static void presentation_misuse_done(th_context ctx, bool finished, void *user_data) {
  note(ctx, "get_presentation in a driver", g_presentation_in_driver);
  note(ctx, "set_image_content in a driver", g_content_in_driver);
  complete_unless_cancelled(ctx, finished, user_data);
}

static void display_link_noop(th_context ctx, double timestamp, double target, void *user_data) {
  (void)ctx;
  (void)timestamp;
  (void)target;
  (void)user_data;
}

static void presentation_misuse(void *instance, th_context ctx) {
  (void)instance;
  th_view container, to;
  g_api->container_view(ctx, &container);
  g_api->view_for_key(ctx, TH_KEY_TO, &to);
  g_api->add_subview(ctx, container, to);
  th_presentation p = {.struct_size = 8};
  note(ctx, "get_presentation(struct_size 8)", g_api->get_presentation(ctx, to, &p));
  note(ctx, "get_presentation(NULL)", g_api->get_presentation(ctx, to, NULL));
  // A shorter (older) struct: the host writes its header and frame, and not one byte more.
  unsigned char buffer[sizeof(th_presentation)];
  memset(buffer, 0xAB, sizeof buffer);
  th_presentation *short_p = (th_presentation *)(void *)buffer;
  short_p->struct_size = 40;
  th_status status = g_api->get_presentation(ctx, to, short_p);
  char line[128];
  snprintf(line, sizeof line, "short struct: %s, frame width %g, byte 40 untouched %d", th_status_name(status),
           short_p->frame.width, buffer[40] == 0xAB);
  say(ctx, line);
  note(ctx, "set_image_content(mode 99)", g_api->set_image_content(ctx, to, "a", (th_content_mode)99));
  static char long_name[5000];
  memset(long_name, 'n', sizeof long_name - 1);
  note(ctx, "set_image_content(5000-byte name)", g_api->set_image_content(ctx, to, long_name,
                                                                           TH_CONTENT_MODE_CENTER));
  note(ctx, "set_visual_effect(\"purple\")", g_api->set_visual_effect(ctx, to, "purple"));
  const th_host_display_link *links = g_api->get_extension(TH_EXT_DISPLAY_LINK);
  uint64_t link = 0;
  note(ctx, "add_display_link(-1 fps)", links->add_display_link(ctx, -1, display_link_noop, NULL, &link));
  note(ctx, "add_display_link(NULL callback)", links->add_display_link(ctx, 0, NULL, NULL, &link));
  note(ctx, "set_display_link_paused(99)", links->set_display_link_paused(ctx, 99, true));
  links->add_display_link(ctx, 0, display_link_noop, NULL, &link);
  note(ctx, "invalidate_display_link", links->invalidate_display_link(ctx, link));
  note(ctx, "invalidate_display_link again", links->invalidate_display_link(ctx, link));
  note(ctx, "set_display_link_rate(invalidated)", links->set_display_link_rate(ctx, link, 30));
  const th_host_custom_driver *drivers = g_api->get_extension(TH_EXT_CUSTOM_DRIVER);
  th_driver_options d = {sizeof d, 0, 0.2, 0.0};
  drivers->add_driver(ctx, &d, presentation_update, presentation_misuse_done, NULL);
}

// ---- descriptors --------------------------------------------------------------------------------------

static const th_param_descriptor p_label = {.struct_size = sizeof(th_param_descriptor),
                                            .type = TH_PARAM_STRING, .name = "label", .default_string = "x"};
static const th_param_descriptor *const wrong_kind_params[] = {&p_label};

#define ANIMATOR(var, ident, animate_fn, duration_fn)                                                            \
  static const th_animator_descriptor var = {                                                                   \
      .struct_size = sizeof(th_animator_descriptor), .id = ident, .name = ident, .create = create,              \
      .destroy = destroy, .transition_duration = duration_fn, .animate_transition = animate_fn}

ANIMATOR(a_good, "good", animate_good, duration_02);
ANIMATOR(a_bogus_handle, "bogus-handle", bogus_handle, duration_02);
ANIMATOR(a_stale_handle, "stale-handle", stale_handle, duration_02);
ANIMATOR(a_nan_setter, "nan-setter", nan_setter, duration_02);
ANIMATOR(a_bad_timing, "bad-timing", bad_timing, duration_02);
ANIMATOR(a_animate_after_complete, "animate-after-complete", animate_after_complete, duration_02);
ANIMATOR(a_complete_twice, "complete-twice", complete_twice, duration_02);
ANIMATOR(a_never_completes, "never-completes", never_completes, duration_02);
ANIMATOR(a_does_nothing, "does-nothing", does_nothing, duration_02);
ANIMATOR(a_setter_in_duration, "setter-in-duration", animate_good, setter_in_duration_duration);
ANIMATOR(a_tree_in_driver, "tree-in-driver", tree_in_driver, duration_02);
ANIMATOR(a_keyframe_outside, "keyframe-outside", keyframe_outside, duration_02);
ANIMATOR(a_other_thread, "other-thread", other_thread, duration_02);
ANIMATOR(a_writes_stdout, "writes-stdout", writes_stdout, duration_02);
ANIMATOR(a_negative_duration, "negative-duration", animate_good, negative_duration);
ANIMATOR(a_nan_duration, "nan-duration", animate_good, nan_duration);
ANIMATOR(a_null_pointers, "null-pointers", null_pointers, duration_02);
ANIMATOR(a_bad_tree, "bad-tree", bad_tree, duration_02);
ANIMATOR(a_presentation_misuse, "presentation-misuse", presentation_misuse, duration_02);

static const th_animator_descriptor a_wrong_kind = {
    .struct_size = sizeof(th_animator_descriptor), .id = "wrong-kind", .name = "wrong-kind", .param_count = 1,
    .params = wrong_kind_params, .create = create, .destroy = destroy, .transition_duration = duration_02,
    .animate_transition = wrong_kind};

static const th_animator_descriptor a_create_fails = {
    .struct_size = sizeof(th_animator_descriptor), .id = "create-fails", .name = "create-fails",
    .create = create_fails, .destroy = destroy, .transition_duration = duration_02,
    .animate_transition = animate_good};

static const th_animator_descriptor *const animators[] = {
    &a_good,           &a_bogus_handle,  &a_stale_handle,      &a_nan_setter,         &a_bad_timing,
    &a_animate_after_complete, &a_complete_twice, &a_never_completes, &a_does_nothing, &a_setter_in_duration,
    &a_tree_in_driver, &a_keyframe_outside, &a_other_thread,   &a_writes_stdout,      &a_negative_duration,
    &a_nan_duration,   &a_null_pointers, &a_bad_tree,          &a_wrong_kind,         &a_create_fails,
    &a_presentation_misuse};

static const th_plugin_descriptor plugin = {
    .struct_size = sizeof(th_plugin_descriptor),
    .abi_major = TH_ABI_VERSION_MAJOR,
    .abi_minor = TH_ABI_VERSION_MINOR,
    .id = "com.example.test.misuse",
    .name = "Misuse test plugin",
    .version = "1.0.0",
    .description = "One animator per kind of host-API misuse.",
    .animator_count = sizeof animators / sizeof animators[0],
    .animators = animators,
};

TH_EXPORT const th_plugin_descriptor *th_plugin_entry(const th_host_info *host) {
  (void)host;
  return &plugin;
}
