/*
 * flip: a page turn about the left edge, after BourneWeng/FlipTransion (BWFlipTransionPush / BWFlipTransionPop).
 *
 * This is also the ABI's documented C example (docs/writing-plugins.md, "The C example"): it uses only
 * th_plugin.h, and shows an animator with parameters, a presentation-controller extension, a gradient
 * overlay view, 3-D transforms under perspective, and completions that restore what the animation changed.
 *
 * Present: the presenting view turns -90 degrees about its left edge (anchor (0, 0.5)) under the perspective
 * m34 = -1/perspective on the container's sublayerTransform, while a gradient shadow over it fades in
 * (easeOut). Dismiss: the presenting view comes back on top of the presented one, turning from -90 degrees to
 * flat while the shadow fades out (easeIn). At the end the anchor point, position and transform are restored
 * and the shadow is removed. Cancelling (interactive or not) is honoured: completeTransition gets
 * !transitionWasCancelled, and the host returns every view to its start.
 *
 * Build alone: cc -shared -fPIC -fvisibility=hidden -O2 -I <dir of th_plugin.h> flip.c -lm -o libFlip.so
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "th_plugin.h"

#define FLIP_PI 3.14159265358979323846

/* Defaults are the seed's: 0.8 s, m34 = -0.002 (an eye 500 points away), with the shadow. */
#define FLIP_DEFAULT_DURATION 0.8
#define FLIP_DEFAULT_PERSPECTIVE 500.0

/* ---- one transition's state --------------------------------------------------------------------------- */

typedef struct flip {
  const th_host_api *api;
  /* The view that turns: the from view when presenting, the to view when dismissing. */
  th_view turning;
  /* The gradient overlay on it; {0} when the shadow is off. */
  th_view shadow;
  /* initialFrame(from): where both views lie, flat. */
  th_rect frame;
  /* The container and its sublayerTransform before the flip set the perspective (restored at the end). */
  th_view container;
  th_transform3d saved_sublayer;
  bool dismissing;
} flip;

/* Logs a failed host call; the flip goes on (the host has reported the misuse already, if it was one). */
static bool ok(flip *self, th_context ctx, th_status status, const char *what) {
  if (status == TH_OK) return true;
  char message[160];
  snprintf(message, sizeof message, "flip: %s failed: %s", what, th_status_name(status));
  self->api->log(ctx, TH_LOG_ERROR, message);
  return false;
}

static void *create(const th_animator_descriptor *animator, const th_host_info *host) {
  (void)animator;
  if (host == NULL || host->api == NULL) return NULL;
  flip *self = calloc(1, sizeof *self);
  if (self != NULL) self->api = host->api;
  return self;
}

static void destroy(void *self) { free(self); }

/* A parameter, or its default when the context is {0} (UIKit's nil context) or the host has no value. */
static double number_param(flip *self, th_context ctx, const char *name, double fallback) {
  double value = fallback;
  if (ctx.id == 0 || self->api->param_number(ctx, name, &value) != TH_OK || !isfinite(value)) return fallback;
  return value;
}

static double transition_duration(void *self_, th_context ctx) {
  double duration = number_param(self_, ctx, "duration", FLIP_DEFAULT_DURATION);
  return duration >= 0 ? duration : FLIP_DEFAULT_DURATION;
}

/* CATransform3DMakeRotation(angle, 0, 1, 0): row vectors, so m13 = -sin and m31 = sin. */
static th_transform3d rotation_y(double angle) {
  th_transform3d t = th_transform3d_identity();
  t.m[0] = cos(angle);
  t.m[2] = -sin(angle);
  t.m[8] = sin(angle);
  t.m[10] = cos(angle);
  return t;
}

/* ---- the animation -------------------------------------------------------------------------------------- */

/* The animations block: turn to the end pose; the shadow darkens while the page turns away, and clears as it
 * comes back. */
static void turn(th_context ctx, void *self_) {
  flip *self = self_;
  th_transform3d end = self->dismissing ? th_transform3d_identity() : rotation_y(-FLIP_PI / 2);
  ok(self, ctx, self->api->set_transform(ctx, self->turning, TH_PROP_TRANSFORM, &end), "set transform");
  if (self->shadow.id != 0)
    ok(self, ctx, self->api->set_number(ctx, self->shadow, TH_PROP_ALPHA, self->dismissing ? 0.0 : 1.0),
       "set shadow alpha");
}

/* The completion: put the turned view back on its centre, flat, without the shadow; then complete. */
static void finish(th_context ctx, bool finished, void *self_) {
  (void)finished;
  flip *self = self_;
  const th_host_api *api = self->api;
  th_point centre = {self->frame.x + self->frame.width / 2, self->frame.y + self->frame.height / 2};
  th_transform3d identity = th_transform3d_identity();
  api->set_point(ctx, self->turning, TH_PROP_ANCHOR_POINT, (th_point){0.5, 0.5});
  api->set_point(ctx, self->turning, TH_PROP_POSITION, centre);
  api->set_transform(ctx, self->turning, TH_PROP_TRANSFORM, &identity);
  if (self->shadow.id != 0) api->remove_from_superview(ctx, self->shadow);
  /* The seed leaves m34 on the container; with every view flat again it changes nothing on screen, but the
   * container outlives the transition here, so it is left as the flip found it. */
  api->set_transform(ctx, self->container, TH_PROP_SUBLAYER_TRANSFORM, &self->saved_sublayer);
  bool cancelled = false;
  api->transition_was_cancelled(ctx, &cancelled);
  api->complete_transition(ctx, !cancelled);
}

/* The shadow: a gradient over the turning view, black alpha 1 -> black alpha 0.5 -> white alpha 0.5, left to
 * right. (The seed passed its third colour as a UIColor instead of a CGColor, so it was dropped.) */
static th_view add_shadow(flip *self, th_context ctx, double alpha) {
  const th_host_api *api = self->api;
  static const th_color colors[] = {{0, 0, 0, 1}, {0, 0, 0, 0.5}, {1, 1, 1, 0.5}};
  th_gradient gradient = {sizeof gradient, 3, colors, NULL, {0, 0.5}, {1, 0.5}};
  th_view shadow = {0};
  th_rect bounds;
  if (!ok(self, ctx, api->make_view(ctx, "flip-shadow", &shadow), "make_view")) return (th_view){0};
  if (api->get_rect(ctx, self->turning, TH_PROP_BOUNDS, &bounds) != TH_OK)
    bounds = (th_rect){0, 0, self->frame.width, self->frame.height};
  api->set_rect(ctx, shadow, TH_PROP_FRAME, bounds);
  api->set_gradient(ctx, shadow, TH_PROP_GRADIENT, &gradient);
  api->set_number(ctx, shadow, TH_PROP_ALPHA, alpha);
  ok(self, ctx, api->add_subview(ctx, self->turning, shadow), "add shadow");
  return shadow;
}

static void animate_transition(void *self_, th_context ctx) {
  flip *self = self_;
  const th_host_api *api = self->api;
  const char *operation = "present";
  api->operation(ctx, &operation);
  self->dismissing = strcmp(operation, "dismiss") == 0;

  th_view from = {0}, to = {0};
  api->container_view(ctx, &self->container);
  api->view_for_key(ctx, TH_KEY_FROM, &from);
  api->view_for_key(ctx, TH_KEY_TO, &to);
  /* The presentation controller below removes the presenter's view, so both keys give a view; without them
   * there is nothing to turn, and the transition simply completes. */
  if (from.id == 0 || to.id == 0) {
    api->log(ctx, TH_LOG_ERROR, "flip: view(forKey:) gave no view to turn; completing without animation");
    if (to.id != 0 && !self->dismissing) api->add_subview(ctx, self->container, to);
    api->complete_transition(ctx, true);
    return;
  }

  if (api->initial_frame(ctx, TH_KEY_FROM, &self->frame) != TH_OK || self->frame.width <= 0 ||
      self->frame.height <= 0)
    api->get_rect(ctx, from, TH_PROP_FRAME, &self->frame);

  /* Present: the new screen lies under the page, which is brought to the front. Dismiss: the page comes back
   * on top of the presented screen. */
  ok(self, ctx, api->add_subview(ctx, self->container, to), "add_subview");
  if (!self->dismissing)
    ok(self, ctx, api->bring_subview_to_front(ctx, self->container, from), "bring_subview_to_front");
  self->turning = self->dismissing ? to : from;

  /* Perspective for the container's subviews: m34 = -1/d. */
  double perspective = number_param(self, ctx, "perspective", FLIP_DEFAULT_PERSPECTIVE);
  if (!(perspective > 0)) perspective = FLIP_DEFAULT_PERSPECTIVE;
  if (api->get_transform(ctx, self->container, TH_PROP_SUBLAYER_TRANSFORM, &self->saved_sublayer) != TH_OK)
    self->saved_sublayer = th_transform3d_identity();
  th_transform3d sublayer = th_transform3d_identity();
  sublayer.m[11] = -1.0 / perspective;
  ok(self, ctx, api->set_transform(ctx, self->container, TH_PROP_SUBLAYER_TRANSFORM, &sublayer), "set m34");

  /* Hinge on the left edge: anchor (0, 0.5) at the frame's left middle (the seed's (0, h/2) for a frame at
   * the origin), so the frame stays where it is. */
  api->set_rect(ctx, to, TH_PROP_FRAME, self->frame);
  if (!self->dismissing) api->set_rect(ctx, from, TH_PROP_FRAME, self->frame);
  api->set_point(ctx, self->turning, TH_PROP_ANCHOR_POINT, (th_point){0, 0.5});
  api->set_point(ctx, self->turning, TH_PROP_POSITION,
                 (th_point){self->frame.x, self->frame.y + self->frame.height / 2});
  if (self->dismissing) {
    th_transform3d start = rotation_y(-FLIP_PI / 2);
    api->set_transform(ctx, self->turning, TH_PROP_TRANSFORM, &start);
  }

  bool shadow = true;
  if (api->param_bool(ctx, "shadow", &shadow) != TH_OK) shadow = true;
  self->shadow = shadow ? add_shadow(self, ctx, self->dismissing ? 1.0 : 0.0) : (th_view){0};

  th_animation_options options = {sizeof options, 0, transition_duration(self, ctx), 0.0,
                                  th_timing_curve(self->dismissing ? TH_CURVE_EASE_IN : TH_CURVE_EASE_OUT)};
  if (!ok(self, ctx, api->animate(ctx, &options, turn, finish, self), "animate")) {
    /* No animation: jump to the end pose and complete, rather than leave the transition hanging. */
    turn(ctx, self);
    finish(ctx, true, self);
  }
}

/* ---- presentation controller ------------------------------------------------------------------------------ */

/* shouldRemovePresentersView = true. The flip turns the presenting view itself, and UIKit's view(forKey: .from)
 * is nil during a presentation that keeps the presenter's view (the animator must not touch it); a full-screen
 * presentation, which the seed's modal "show" segue is, removes it. Removing it is also what the end state
 * needs: the restored, flat presenter view sits on top of the presented one and must leave the container. On
 * dismissal the presenter's view is then outside the container and view(forKey: .to) gives it to the flip. */
static bool should_remove_presenters_view(void *instance, th_context ctx) {
  (void)instance;
  (void)ctx;
  return true;
}

static const th_presentation_controller presentation_controller = {
    .struct_size = sizeof(th_presentation_controller),
    .should_remove_presenters_view = should_remove_presenters_view,
};

static const void *get_extension(void *instance, const char *id) {
  (void)instance;
  if (id != NULL && strcmp(id, TH_EXT_PRESENTATION_CONTROLLER) == 0) return &presentation_controller;
  return NULL;
}

/* ---- descriptors -------------------------------------------------------------------------------------------- */

static const th_param_descriptor duration_param = {
    .struct_size = sizeof(th_param_descriptor),
    .type = TH_PARAM_NUMBER,
    .name = "duration",
    .doc = "Length of the page turn in seconds.",
    .default_number = FLIP_DEFAULT_DURATION,
    .min = 0.0,
    .max = 10.0,
};
static const th_param_descriptor perspective_param = {
    .struct_size = sizeof(th_param_descriptor),
    .type = TH_PARAM_NUMBER,
    .name = "perspective",
    .doc = "Eye distance in points (m34 = -1/perspective); keep it above the page width, or the turned page's "
           "far edge passes behind the eye.",
    .default_number = FLIP_DEFAULT_PERSPECTIVE,
    .min = 50.0,
    .max = 100000.0,
};
static const th_param_descriptor shadow_param = {
    .struct_size = sizeof(th_param_descriptor),
    .type = TH_PARAM_BOOL,
    .name = "shadow",
    .doc = "Darken the turning page with a gradient shadow.",
    .default_bool = true,
};
static const th_param_descriptor *const params[] = {&duration_param, &perspective_param, &shadow_param};
static const char *const operations[] = {"present", "dismiss", NULL};

static const th_animator_descriptor flip_animator = {
    .struct_size = sizeof(th_animator_descriptor),
    .id = "flip",
    .name = "Flip",
    .description = "The presenting view turns away about its left edge like a book page, under perspective, "
                   "with a shadow; dismissal turns it back.",
    .operations = operations,
    .param_count = sizeof params / sizeof params[0],
    .params = params,
    .create = create,
    .destroy = destroy,
    .transition_duration = transition_duration,
    .animate_transition = animate_transition,
    .get_extension = get_extension,
};
static const th_animator_descriptor *const animators[] = {&flip_animator};

static const th_plugin_descriptor plugin = {
    .struct_size = sizeof(th_plugin_descriptor),
    .abi_major = TH_ABI_VERSION_MAJOR,
    .abi_minor = TH_ABI_VERSION_MINOR,
    .id = "com.transitionhost.flip",
    .name = "Flip",
    .version = "1.0.0",
    .vendor = "transition-host",
    .description = "Built-in page-turn transition (after BourneWeng/FlipTransion), written in C.",
    .animator_count = 1,
    .animators = animators,
};

TH_EXPORT const th_plugin_descriptor *th_plugin_entry(const th_host_info *host) {
  (void)host;
  return &plugin;
}
