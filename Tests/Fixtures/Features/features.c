// TestPluginFeatures: animators that use every part of the host API the way a real animator does, with
// numbers chosen so that the tests can compute the expected geometry by hand: keyframes, timing curves
// (Bézier, steps), the three spring forms, a delayed custom driver, a presentation controller with dimming
// chrome and alongside animations, the view tree and conversions, parameters of every type, and a
// completion still owed when the transition ends.
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "th_plugin.h"

static const th_host_api *api;             // set by create (valid until deinit)
static const th_host_info *g_host;          // for logging outside transitions

static void say(th_context ctx, const char *text) { api->log(ctx, TH_LOG_INFO, text); }

static void sayf(th_context ctx, const char *format, double a, double b, double c, double d) {
  char line[256];
  snprintf(line, sizeof line, format, a, b, c, d);
  say(ctx, line);
}

static void *create(const th_animator_descriptor *animator, const th_host_info *host) {
  api = host->api;
  g_host = host;
  return (void *)animator;
}

static void destroy(void *instance) {
  const th_animator_descriptor *animator = instance;
  char line[96];
  snprintf(line, sizeof line, "destroy %s", animator->id);
  api->log(g_host->plugin_context, TH_LOG_INFO, line);
}

static void complete_unless_cancelled(th_context ctx, bool finished, void *user_data) {
  (void)finished;
  (void)user_data;
  bool cancelled = false;
  api->transition_was_cancelled(ctx, &cancelled);
  api->complete_transition(ctx, !cancelled);
}

static th_view to_view(th_context ctx) {
  th_view to;
  api->view_for_key(ctx, TH_KEY_TO, &to);
  return to;
}

static void add_to_view(th_context ctx) {
  th_view container;
  api->container_view(ctx, &container);
  api->add_subview(ctx, container, to_view(ctx));
}

static th_animation_options options(double duration, th_timing timing) {
  th_animation_options o = {sizeof o, 0, duration, 0.0, timing};
  return o;
}

static double duration_1(void *instance, th_context ctx) {
  (void)instance;
  (void)ctx;
  return 1.0;
}

// ---- keyframes: center.x 200 → 300 over [0, 0.5], → 100 over [0.5, 1]; linear ---------------------------

static void keyframe_right(th_context ctx, void *user_data) {
  (void)user_data;
  th_point center = {300.0, 400.0};
  api->set_point(ctx, to_view(ctx), TH_PROP_CENTER, center);
}

static void keyframe_left(th_context ctx, void *user_data) {
  (void)user_data;
  th_point center = {100.0, 400.0};
  api->set_point(ctx, to_view(ctx), TH_PROP_CENTER, center);
}

static void keyframes_body(th_context ctx, void *user_data) {
  (void)user_data;
  api->add_keyframe(ctx, 0.0, 0.5, keyframe_right, NULL);
  api->add_keyframe(ctx, 0.5, 0.5, keyframe_left, NULL);
}

static void keyframes_animate(void *instance, th_context ctx) {
  (void)instance;
  add_to_view(ctx);
  th_keyframe_options k = {sizeof k, TH_CALCULATION_LINEAR, 1.0, 0.0, th_timing_curve(TH_CURVE_LINEAR)};
  api->animate_keyframes(ctx, &k, keyframes_body, complete_unless_cancelled, NULL);
}

// ---- curves: alpha on Bézier (0.25, 0.1, 0.25, 1), cornerRadius on steps(4, end), zPosition on steps(4,
// start), center.y on easeIn; all 0 → target over 1 s ----------------------------------------------------

static void set_alpha_1(th_context ctx, void *user_data) {
  (void)user_data;
  api->set_number(ctx, to_view(ctx), TH_PROP_ALPHA, 1.0);
}

static void set_corner_40(th_context ctx, void *user_data) {
  (void)user_data;
  api->set_number(ctx, to_view(ctx), TH_PROP_CORNER_RADIUS, 40.0);
}

static void set_z_8(th_context ctx, void *user_data) {
  (void)user_data;
  api->set_number(ctx, to_view(ctx), TH_PROP_Z_POSITION, 8.0);
}

static void set_center_y_500(th_context ctx, void *user_data) {
  (void)user_data;
  th_point center = {200.0, 500.0};
  api->set_point(ctx, to_view(ctx), TH_PROP_CENTER, center);
}

static void curves_animate(void *instance, th_context ctx) {
  (void)instance;
  add_to_view(ctx);
  api->set_number(ctx, to_view(ctx), TH_PROP_ALPHA, 0.0);
  th_animation_options o = options(1.0, th_timing_bezier(0.25, 0.1, 0.25, 1.0));
  api->animate(ctx, &o, set_alpha_1, NULL, NULL);
  o.timing = th_timing_curve(TH_CURVE_STEPS);
  o.timing.steps = 4;
  o.timing.step_position = TH_STEP_END;
  api->animate(ctx, &o, set_corner_40, NULL, NULL);
  o.timing.step_position = TH_STEP_START;
  api->animate(ctx, &o, set_z_8, NULL, NULL);
  o.timing = th_timing_curve(TH_CURVE_EASE_IN);
  api->animate(ctx, &o, set_center_y_500, complete_unless_cancelled, NULL);
}

// ---- springs: center.x 200 → 300 (ζ = 1, ω0 = 10, 2 s), alpha 0 → 1 (bounce 0, perceptual 1 s: settles at
// 1.5 s), cornerRadius 0 → 40 (UIKit damping 0.5, 0.8 s), zPosition 0 → 10 (ζ = 1, ω0 = 10, automatic: 1 s) --

static void set_center_x_300(th_context ctx, void *user_data) {
  (void)user_data;
  th_point center = {300.0, 400.0};
  api->set_point(ctx, to_view(ctx), TH_PROP_CENTER, center);
}

static void set_z_10(th_context ctx, void *user_data) {
  (void)user_data;
  api->set_number(ctx, to_view(ctx), TH_PROP_Z_POSITION, 10.0);
}

static double duration_2(void *instance, th_context ctx) {
  (void)instance;
  (void)ctx;
  return 2.0;
}

static void springs_animate(void *instance, th_context ctx) {
  (void)instance;
  add_to_view(ctx);
  api->set_number(ctx, to_view(ctx), TH_PROP_ALPHA, 0.0);
  th_animation_options o = options(2.0, th_timing_spring_physical(1.0, 100.0, 20.0, 0.0));
  api->animate(ctx, &o, set_center_x_300, complete_unless_cancelled, NULL);
  o = options(1.0, th_timing_spring_bounce(0.0, 0.0));
  api->animate(ctx, &o, set_alpha_1, NULL, NULL);
  o = options(0.8, th_timing_spring(0.5, 0.0));
  api->animate(ctx, &o, set_corner_40, NULL, NULL);
  o = options(TH_DURATION_AUTOMATIC, th_timing_spring_physical(1.0, 100.0, 20.0, 0.0));
  api->animate(ctx, &o, set_z_10, NULL, NULL);
}

// ---- a custom driver: 1 s after a 0.5 s delay; alpha = fraction, center.x = 200 + 100·fraction ----------

static void driver_update(th_context ctx, double time, double fraction, void *user_data) {
  (void)time;
  (void)user_data;
  th_view to = to_view(ctx);
  api->set_number(ctx, to, TH_PROP_ALPHA, fraction);
  th_point center = {200.0 + 100.0 * fraction, 400.0};
  api->set_point(ctx, to, TH_PROP_CENTER, center);
}

static double duration_15(void *instance, th_context ctx) {
  (void)instance;
  (void)ctx;
  return 1.5;
}

static void driver_animate(void *instance, th_context ctx) {
  (void)instance;
  add_to_view(ctx);
  api->set_number(ctx, to_view(ctx), TH_PROP_ALPHA, 0.25);
  const th_host_custom_driver *drivers = api->get_extension(TH_EXT_CUSTOM_DRIVER);
  th_driver_options d = {sizeof d, 0, 1.0, 0.5};
  th_status status = drivers->add_driver(ctx, &d, driver_update, complete_unless_cancelled, NULL);
  say(ctx, status == TH_OK ? "driver added" : "driver refused");
}

// ---- a sheet: presentation controller with dimming chrome ----------------------------------------------

static bool sheet_frame(void *instance, th_context ctx, th_rect bounds, th_rect *out) {
  (void)instance;
  (void)ctx;
  out->x = 0.0;
  out->y = bounds.height * 0.25;
  out->width = bounds.width;
  out->height = bounds.height * 0.75;
  return true;
}

static bool sheet_removes_presenter(void *instance, th_context ctx) {
  (void)instance;
  // Asked before the transition has a context (ctx is {0}): log with the plugin's own context.
  api->log(ctx.id == 0 ? g_host->plugin_context : ctx, TH_LOG_INFO,
           ctx.id == 0 ? "should_remove asked without a context" : "should_remove asked with a context");
  return true;
}

static void dim_in(th_context ctx, void *user_data) {
  (void)user_data;
  th_view dimming;
  if (api->find_view(ctx, "dimming", &dimming) == TH_OK) api->set_number(ctx, dimming, TH_PROP_ALPHA, 0.5);
}

static void dim_out(th_context ctx, void *user_data) {
  (void)user_data;
  th_view dimming;
  if (api->find_view(ctx, "dimming", &dimming) == TH_OK) api->set_number(ctx, dimming, TH_PROP_ALPHA, 0.0);
}

static void sheet_presentation_will_begin(void *instance, th_context ctx) {
  (void)instance;
  th_view container, dimming;
  th_rect bounds;
  th_color black = {0.0, 0.0, 0.0, 1.0};
  api->container_view(ctx, &container);
  api->get_rect(ctx, container, TH_PROP_BOUNDS, &bounds);
  api->make_view(ctx, "dimming", &dimming);
  api->set_rect(ctx, dimming, TH_PROP_FRAME, bounds);
  api->set_color(ctx, dimming, TH_PROP_BACKGROUND_COLOR, &black);
  api->set_number(ctx, dimming, TH_PROP_ALPHA, 0.0);
  api->add_subview(ctx, container, dimming);
  api->animate_alongside(ctx, dim_in, NULL, NULL);
}

static void sheet_dismissal_will_begin(void *instance, th_context ctx) {
  (void)instance;
  api->animate_alongside(ctx, dim_out, NULL, NULL);
}

static void remove_dimming(th_context ctx) {
  th_view dimming;
  if (api->find_view(ctx, "dimming", &dimming) == TH_OK) api->remove_from_superview(ctx, dimming);
}

static void sheet_presentation_did_end(void *instance, th_context ctx, bool completed) {
  (void)instance;
  say(ctx, completed ? "presentation did end: completed" : "presentation did end: cancelled");
  if (!completed) remove_dimming(ctx);
}

static void sheet_dismissal_did_end(void *instance, th_context ctx, bool completed) {
  (void)instance;
  say(ctx, completed ? "dismissal did end: completed" : "dismissal did end: cancelled");
  if (completed) remove_dimming(ctx);
}

static const th_presentation_controller sheet_controller = {
    .struct_size = sizeof(th_presentation_controller),
    .frame_of_presented_view = sheet_frame,
    .should_remove_presenters_view = sheet_removes_presenter,
    .presentation_transition_will_begin = sheet_presentation_will_begin,
    .presentation_transition_did_end = sheet_presentation_did_end,
    .dismissal_transition_will_begin = sheet_dismissal_will_begin,
    .dismissal_transition_did_end = sheet_dismissal_did_end,
};

static const void *sheet_extension(void *instance, const char *id) {
  (void)instance;
  return strcmp(id, TH_EXT_PRESENTATION_CONTROLLER) == 0 ? &sheet_controller : NULL;
}

// A presentation controller with a smaller table than the header's: struct_size covers frame_of_presented_view
// only, and the table ends where readable memory ends (a PROT_NONE page follows it), so a host that read a field
// past struct_size would fault. Its frame: the lower half of the container.
static bool half_frame(void *instance, th_context ctx, th_rect container_bounds, th_rect *out_frame) {
  (void)instance;
  (void)ctx;
  double half = container_bounds.height / 2;
  *out_frame = (th_rect){container_bounds.x, container_bounds.y + half, container_bounds.width, half};
  return true;
}

static const void *short_extension(void *instance, const char *id) {
  (void)instance;
  static th_presentation_controller *table;
  if (strcmp(id, TH_EXT_PRESENTATION_CONTROLLER) != 0) return NULL;
  if (table == NULL) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t size = offsetof(th_presentation_controller, frame_of_presented_view) + sizeof table->frame_of_presented_view;
    unsigned char *pages = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (pages == MAP_FAILED || mprotect(pages + page, page, PROT_NONE) != 0) return NULL;
    table = (th_presentation_controller *)(pages + page - size);
    table->struct_size = (uint32_t)size;
    table->reserved = 0;
    table->frame_of_presented_view = half_frame;
  }
  return table;
}

static void short_controller_animate(void *instance, th_context ctx) {
  (void)instance;
  th_rect end;
  api->final_frame(ctx, TH_KEY_TO, &end);
  api->set_rect(ctx, to_view(ctx), TH_PROP_FRAME, end);
  add_to_view(ctx);
  api->complete_transition(ctx, true);
}

static double duration_05(void *instance, th_context ctx) {
  (void)instance;
  (void)ctx;
  return 0.5;
}

static void sheet_slide(th_context ctx, void *user_data) {
  (void)user_data;
  const char *operation = "";
  api->operation(ctx, &operation);
  if (strcmp(operation, "dismiss") == 0) {
    th_view from;
    th_rect frame;
    api->view_for_key(ctx, TH_KEY_FROM, &from);
    api->get_rect(ctx, from, TH_PROP_FRAME, &frame);
    frame.y = 800.0;
    api->set_rect(ctx, from, TH_PROP_FRAME, frame);
  } else {
    th_rect end;
    api->final_frame(ctx, TH_KEY_TO, &end);
    api->set_rect(ctx, to_view(ctx), TH_PROP_FRAME, end);
  }
}

static void sheet_animate(void *instance, th_context ctx) {
  (void)instance;
  const char *operation = "";
  bool interactive = false;
  api->operation(ctx, &operation);
  api->is_interactive(ctx, &interactive);
  say(ctx, interactive ? "interactive" : "not interactive");
  th_view container, from, to = to_view(ctx);
  api->container_view(ctx, &container);
  if (strcmp(operation, "dismiss") == 0) {
    api->view_for_key(ctx, TH_KEY_FROM, &from);
    api->insert_subview_below(ctx, container, to, from);
  } else {
    th_rect end;
    api->final_frame(ctx, TH_KEY_TO, &end);
    sayf(ctx, "final frame %g %g %g %g", end.x, end.y, end.width, end.height);
    end.y = 800.0;
    api->set_rect(ctx, to, TH_PROP_FRAME, end);
    api->add_subview(ctx, container, to);
  }
  th_animation_options o = options(0.5, th_timing_curve(TH_CURVE_EASE_IN_OUT));
  api->animate(ctx, &o, sheet_slide, complete_unless_cancelled, NULL);
}

// ---- the view tree, conversions, properties and parameters ----------------------------------------------

static void log_view_id(th_context ctx, const char *label, th_view view) {
  const char *id = "(none)";
  if (view.id != 0) api->view_id(ctx, view, &id);
  char line[128];
  snprintf(line, sizeof line, "%s %s", label, id);
  say(ctx, line);
}

static void sayf_text(th_context ctx, const char *label, const char *text) {
  char line[160];
  snprintf(line, sizeof line, "%s %s", label, text);
  say(ctx, line);
}

static void tree_animate(void *instance, th_context ctx) {
  (void)instance;
  th_view container, from, from_vc, to = to_view(ctx), found, overlay, overlay2, snap, parent, first;
  api->container_view(ctx, &container);
  api->view_for_key(ctx, TH_KEY_FROM, &from);
  log_view_id(ctx, "view_for_key(from):", from);
  api->view_controller_for_key(ctx, TH_KEY_FROM, &from_vc);
  log_view_id(ctx, "view_controller_for_key(from):", from_vc);
  api->find_view(ctx, "from", &found);
  say(ctx, found.id == from_vc.id ? "find_view(from) is the same handle" : "find_view(from) differs");
  th_rect r;
  api->initial_frame(ctx, TH_KEY_FROM, &r);
  sayf(ctx, "initial_frame(from) %g %g %g %g", r.x, r.y, r.width, r.height);
  api->initial_frame(ctx, TH_KEY_TO, &r);
  sayf(ctx, "initial_frame(to) %g %g %g %g", r.x, r.y, r.width, r.height);
  api->final_frame(ctx, TH_KEY_TO, &r);
  sayf(ctx, "final_frame(to) %g %g %g %g", r.x, r.y, r.width, r.height);
  const char *key = "(none)";
  api->view_match_key(ctx, from_vc, &key);
  sayf_text(ctx, "match key of from:", key);
  th_view paired = {0};
  if (api->find_view_by_match(ctx, to, "hero", &paired) == TH_OK) {
    log_view_id(ctx, "find_view_by_match(to, hero):", paired);
  } else {
    say(ctx, "find_view_by_match(to, hero): not found");
  }
  bool animated = false, cancelled = true;
  api->is_animated(ctx, &animated);
  api->transition_was_cancelled(ctx, &cancelled);
  sayf(ctx, "animated %g cancelled %g", animated, cancelled, 0, 0);

  api->add_subview(ctx, container, to);
  api->make_view(ctx, "overlay", &overlay);
  api->make_view(ctx, "overlay", &overlay2);
  log_view_id(ctx, "made", overlay);
  log_view_id(ctx, "made", overlay2);
  th_rect frame = {50.0, 60.0, 100.0, 80.0};
  api->set_rect(ctx, overlay, TH_PROP_FRAME, frame);
  api->add_subview(ctx, to, overlay);
  th_rect local = {10.0, 10.0, 20.0, 20.0};
  th_view none = {0};
  api->convert_rect(ctx, local, overlay, none, &r);
  sayf(ctx, "convert_rect to container %g %g %g %g", r.x, r.y, r.width, r.height);
  th_point origin = {0.0, 0.0}, p;
  api->convert_point(ctx, origin, none, overlay, &p);
  sayf(ctx, "convert_point to overlay %g %g", p.x, p.y, 0, 0);
  th_point anchor = {0.0, 0.0};
  api->set_point(ctx, overlay, TH_PROP_ANCHOR_POINT, anchor);
  api->get_rect(ctx, overlay, TH_PROP_FRAME, &r);
  sayf(ctx, "frame after anchor (0, 0): %g %g %g %g", r.x, r.y, r.width, r.height);

  api->insert_subview_below(ctx, to, overlay2, overlay);
  api->snapshot_view(ctx, from_vc, &snap);
  log_view_id(ctx, "snapshot", snap);
  api->insert_subview_above(ctx, to, snap, overlay2);
  uint32_t count = 0;
  api->subview_count(ctx, to, &count);
  api->subview_at(ctx, to, 0, &first);
  sayf(ctx, "to has %g subviews", count, 0, 0, 0);
  log_view_id(ctx, "first:", first);
  api->bring_subview_to_front(ctx, to, overlay2);
  api->subview_at(ctx, to, 2, &first);
  log_view_id(ctx, "front after bring_subview_to_front:", first);
  api->send_subview_to_back(ctx, to, overlay);
  api->subview_at(ctx, to, 0, &first);
  log_view_id(ctx, "back after send_subview_to_back:", first);
  api->insert_subview_at(ctx, to, snap, 99);
  api->subview_at(ctx, to, 2, &first);
  log_view_id(ctx, "front after insert_subview_at(99):", first);
  api->superview(ctx, overlay, &parent);
  log_view_id(ctx, "superview(overlay):", parent);
  api->remove_from_superview(ctx, snap);
  api->superview(ctx, snap, &parent);
  log_view_id(ctx, "superview(removed snapshot):", parent);
  api->superview(ctx, container, &parent);
  log_view_id(ctx, "superview(container):", parent);

  // Colours and gradients.
  th_color color;
  bool is_set = true;
  api->get_color(ctx, overlay, TH_PROP_BACKGROUND_COLOR, &color, &is_set);
  say(ctx, is_set ? "colour set" : "colour unset");
  th_color red = {1.0, 0.0, 0.0, 1.0};
  api->set_color(ctx, overlay, TH_PROP_BACKGROUND_COLOR, &red);
  api->get_color(ctx, overlay, TH_PROP_BACKGROUND_COLOR, &color, &is_set);
  sayf(ctx, "colour %g %g %g %g", color.r, color.g, color.b, color.a);
  th_color stops[2] = {{1.0, 1.0, 1.0, 1.0}, {0.0, 0.0, 0.0, 0.5}};
  double locations[2] = {0.2, 0.8};
  th_gradient g = {sizeof g, 2, stops, locations, {0.0, 0.5}, {1.0, 0.5}};
  api->set_gradient(ctx, overlay2, TH_PROP_GRADIENT, &g);
  th_gradient back;
  api->get_gradient(ctx, overlay2, TH_PROP_GRADIENT, &back, &is_set);
  sayf(ctx, "gradient count %g second alpha %g locations %g %g", back.count, back.colors[1].a, back.locations[0],
       back.locations[1]);
  th_transform3d t = th_transform3d_identity(), t2;
  t.m[11] = -0.002;
  api->set_transform(ctx, container, TH_PROP_SUBLAYER_TRANSFORM, &t);
  api->get_transform(ctx, container, TH_PROP_SUBLAYER_TRANSFORM, &t2);
  sayf(ctx, "sublayer m34 %g", t2.m[11], 0, 0, 0);
  bool hidden = true;
  api->set_bool(ctx, overlay, TH_PROP_CLIPS_TO_BOUNDS, true);
  api->get_bool(ctx, overlay, TH_PROP_HIDDEN, &hidden);
  bool clips = false;
  api->get_bool(ctx, overlay, TH_PROP_CLIPS_TO_BOUNDS, &clips);
  sayf(ctx, "hidden %g clips %g", hidden, clips, 0, 0);

  // Parameters of every type.
  double amount = 0;
  bool flag = false;
  const char *mode = "", *mode_as_string = "", *label = "";
  th_color tint;
  th_point point;
  th_rect box;
  api->param_number(ctx, "amount", &amount);
  api->param_bool(ctx, "flag", &flag);
  api->param_string(ctx, "mode", &mode);
  api->param_string(ctx, "label", &label);
  api->param_color(ctx, "tint", &tint);
  api->param_point(ctx, "origin", &point);
  api->param_rect(ctx, "box", &box);
  (void)mode_as_string;
  char line[256];
  snprintf(line, sizeof line, "params amount=%g flag=%d mode=%s label=%s tint=%g,%g,%g,%g origin=%g,%g box=%g,%g,%g,%g",
           amount, flag, mode, label, tint.r, tint.g, tint.b, tint.a, point.x, point.y, box.x, box.y, box.width,
           box.height);
  say(ctx, line);

  th_animation_options o = options(0.1, th_timing_curve(TH_CURVE_LINEAR));
  api->animate(ctx, &o, set_alpha_1, complete_unless_cancelled, NULL);
}

// ---- a completion still owed when the transition ends -------------------------------------------------

static void long_block_done(th_context ctx, bool finished, void *user_data) {
  (void)user_data;
  say(ctx, finished ? "long block finished=1" : "long block finished=0");
}

static void set_corner_10(th_context ctx, void *user_data) {
  (void)user_data;
  api->set_number(ctx, to_view(ctx), TH_PROP_CORNER_RADIUS, 10.0);
}

static void early_complete_animate(void *instance, th_context ctx) {
  (void)instance;
  add_to_view(ctx);
  api->set_number(ctx, to_view(ctx), TH_PROP_ALPHA, 0.0);
  th_animation_options o = options(0.2, th_timing_curve(TH_CURVE_LINEAR));
  api->animate(ctx, &o, set_alpha_1, complete_unless_cancelled, NULL);
  o.duration = 1.0;
  api->animate(ctx, &o, set_corner_10, long_block_done, NULL);
}

static void early_complete_ended(void *instance, th_context ctx, bool completed) {
  (void)instance;
  say(ctx, completed ? "animation_ended completed=1" : "animation_ended completed=0");
}

// ---- a chain of views deeper than the host allows -----------------------------------------------------

static void deep_chain_animate(void *instance, th_context ctx) {
  (void)instance;
  th_view top, bottom, next, container;
  api->make_view(ctx, "link", &top);
  bottom = top;
  int added = 0;
  th_status refused = TH_OK;
  for (int i = 0; i < 1200 && refused == TH_OK; i++) {
    api->make_view(ctx, "link", &next);
    refused = api->add_subview(ctx, bottom, next);
    if (refused == TH_OK) {
      added += 1;
      bottom = next;
    }
  }
  sayf(ctx, "chain links added %g", added, 0, 0, 0);
  say(ctx, th_status_name(refused));
  api->container_view(ctx, &container);
  say(ctx, th_status_name(api->add_subview(ctx, container, top)));
  api->complete_transition(ctx, true);
}

// ---- descriptors --------------------------------------------------------------------------------------

static const char *const mode_options[] = {"a", "b", NULL};
static const th_param_descriptor p_amount = {.struct_size = sizeof(th_param_descriptor), .type = TH_PARAM_NUMBER,
                                             .name = "amount", .default_number = 0.5, .min = 0.0, .max = 1.0};
static const th_param_descriptor p_flag = {.struct_size = sizeof(th_param_descriptor), .type = TH_PARAM_BOOL,
                                           .name = "flag", .default_bool = true};
static const th_param_descriptor p_mode = {.struct_size = sizeof(th_param_descriptor), .type = TH_PARAM_ENUM,
                                           .name = "mode", .default_string = "a", .enum_options = mode_options};
static const th_param_descriptor p_label = {.struct_size = sizeof(th_param_descriptor), .type = TH_PARAM_STRING,
                                            .name = "label", .default_string = "hi"};
static const th_param_descriptor p_tint = {.struct_size = sizeof(th_param_descriptor), .type = TH_PARAM_COLOR,
                                           .name = "tint", .default_color = {0.1, 0.2, 0.3, 0.4}};
static const th_param_descriptor p_origin = {.struct_size = sizeof(th_param_descriptor), .type = TH_PARAM_POINT,
                                             .name = "origin", .default_point = {1.0, 2.0}};
static const th_param_descriptor p_box = {.struct_size = sizeof(th_param_descriptor), .type = TH_PARAM_RECT,
                                          .name = "box", .default_rect = {1.0, 2.0, 3.0, 4.0}};
static const th_param_descriptor *const tree_params[] = {&p_amount, &p_flag,   &p_mode, &p_label,
                                                         &p_tint,   &p_origin, &p_box};

#define ANIMATOR(var, ident, animate_fn, duration_fn)                                                            \
  static const th_animator_descriptor var = {                                                                   \
      .struct_size = sizeof(th_animator_descriptor), .id = ident, .name = ident, .create = create,              \
      .destroy = destroy, .transition_duration = duration_fn, .animate_transition = animate_fn}

ANIMATOR(a_keyframes, "keyframes", keyframes_animate, duration_1);
ANIMATOR(a_curves, "curves", curves_animate, duration_1);
ANIMATOR(a_springs, "springs", springs_animate, duration_2);
ANIMATOR(a_driver, "driver", driver_animate, duration_15);

static const th_animator_descriptor a_sheet = {
    .struct_size = sizeof(th_animator_descriptor), .id = "sheet", .name = "Sheet", .create = create,
    .destroy = destroy, .transition_duration = duration_05, .animate_transition = sheet_animate,
    .get_extension = sheet_extension};

static const th_animator_descriptor a_tree = {
    .struct_size = sizeof(th_animator_descriptor), .id = "tree", .name = "Tree", .param_count = 7,
    .params = tree_params, .create = create, .destroy = destroy, .transition_duration = duration_1,
    .animate_transition = tree_animate};

static const th_animator_descriptor a_early_complete = {
    .struct_size = sizeof(th_animator_descriptor), .id = "early-complete", .name = "Early complete",
    .create = create, .destroy = destroy, .transition_duration = duration_1,
    .animate_transition = early_complete_animate, .animation_ended = early_complete_ended};

static const th_animator_descriptor a_short_controller = {
    .struct_size = sizeof(th_animator_descriptor), .id = "short-controller", .name = "Short controller table",
    .create = create, .destroy = destroy, .transition_duration = duration_05,
    .animate_transition = short_controller_animate, .get_extension = short_extension};

static const th_animator_descriptor a_deep_chain = {
    .struct_size = sizeof(th_animator_descriptor), .id = "deep-chain", .name = "Deep chain", .create = create,
    .destroy = destroy, .transition_duration = duration_05, .animate_transition = deep_chain_animate};

static const th_animator_descriptor *const animators[] = {
    &a_keyframes, &a_curves,          &a_springs,   &a_driver, &a_sheet, &a_tree, &a_early_complete,
    &a_short_controller, &a_deep_chain};

static const th_plugin_descriptor plugin = {
    .struct_size = sizeof(th_plugin_descriptor),
    .abi_major = TH_ABI_VERSION_MAJOR,
    .abi_minor = TH_ABI_VERSION_MINOR,
    .id = "com.example.test.features",
    .name = "Features test plugin",
    .version = "1.0.0",
    .animator_count = sizeof animators / sizeof animators[0],
    .animators = animators,
};

TH_EXPORT const th_plugin_descriptor *th_plugin_entry(const th_host_info *host) {
  (void)host;
  return &plugin;
}
