/*
 * segue-slide: a springy slide for custom segues, after BourneWeng/SegueTransion (FirstSegue /
 * FirstUnwindSegue).
 *
 * Segue: the destination starts one container height below its final frame, above the source, and springs
 * up into place. Unwind: the destination (the screen unwound to) lies below, and the source springs down by
 * one container height. The spring is UIKit's (damping ratio, initial velocity) spring lasting exactly the
 * duration: 0.5 s, ratio 0.5, velocity 0 by default, as in the seed.
 *
 * The seed worked outside UIKit's transition machinery (no context, no cancellation); here it is an ordinary
 * animator, so it can be driven interactively and cancelled: completeTransition gets !transitionWasCancelled.
 * Segues and unwinds replace the source scene (the host's default shouldRemovePresentersView for them is
 * true), so both view(forKey:) keys give a view and no presentation controller is needed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "th_plugin.h"

#define SLIDE_DEFAULT_DURATION 0.5
#define SLIDE_DEFAULT_DAMPING_RATIO 0.5
#define SLIDE_DEFAULT_VELOCITY 0.0

typedef struct slide {
  const th_host_api *api;
  /* The view that moves (the destination on a segue, the source on an unwind) and where it ends. */
  th_view moving;
  th_rect end;
} slide;

static void *create(const th_animator_descriptor *animator, const th_host_info *host) {
  (void)animator;
  if (host == NULL || host->api == NULL) return NULL;
  slide *self = calloc(1, sizeof *self);
  if (self != NULL) self->api = host->api;
  return self;
}

static void destroy(void *self) { free(self); }

/* A parameter, or its default when the context is {0} (UIKit's nil context) or the host has no value. */
static double number_param(slide *self, th_context ctx, const char *name, double fallback) {
  double value = fallback;
  if (ctx.id == 0 || self->api->param_number(ctx, name, &value) != TH_OK || !isfinite(value)) return fallback;
  return value;
}

static double transition_duration(void *self_, th_context ctx) {
  double duration = number_param(self_, ctx, "duration", SLIDE_DEFAULT_DURATION);
  return duration >= 0 ? duration : SLIDE_DEFAULT_DURATION;
}

static void move(th_context ctx, void *self_) {
  slide *self = self_;
  self->api->set_rect(ctx, self->moving, TH_PROP_FRAME, self->end);
}

static void finish(th_context ctx, bool finished, void *self_) {
  (void)finished;
  slide *self = self_;
  bool cancelled = false;
  self->api->transition_was_cancelled(ctx, &cancelled);
  self->api->complete_transition(ctx, !cancelled);
}

static void log_status(slide *self, th_context ctx, th_status status, const char *what) {
  char message[160];
  snprintf(message, sizeof message, "segue-slide: %s failed: %s", what, th_status_name(status));
  self->api->log(ctx, TH_LOG_ERROR, message);
}

static void animate_transition(void *self_, th_context ctx) {
  slide *self = self_;
  const th_host_api *api = self->api;
  const char *operation = "segue";
  api->operation(ctx, &operation);
  bool unwinding = strcmp(operation, "unwind") == 0;

  th_view container = {0}, from = {0}, to = {0};
  th_rect bounds = {0, 0, 0, 0};
  api->container_view(ctx, &container);
  api->get_rect(ctx, container, TH_PROP_BOUNDS, &bounds);
  api->view_for_key(ctx, TH_KEY_FROM, &from);
  api->view_for_key(ctx, TH_KEY_TO, &to);
  double height = bounds.height;

  /* The destination's place: its final frame, or the container's bounds when the host does not know it. */
  th_rect destination = bounds;
  th_rect known;
  if (api->final_frame(ctx, TH_KEY_TO, &known) == TH_OK && known.width > 0 && known.height > 0) destination = known;

  th_status status = TH_OK;
  if (unwinding) {
    /* The screen unwound to goes below the source, in place; the source leaves downwards. */
    if (to.id != 0) {
      api->set_rect(ctx, to, TH_PROP_FRAME, destination);
      status = from.id != 0 ? api->insert_subview_below(ctx, container, to, from)
                            : api->insert_subview_at(ctx, container, to, 0);
      if (status != TH_OK) log_status(self, ctx, status, "insert destination");
    }
    self->moving = from;
    if (from.id != 0 && api->get_rect(ctx, from, TH_PROP_FRAME, &self->end) == TH_OK) self->end.y += height;
  } else {
    /* The destination comes up from one container height below its place, above the source. */
    self->moving = to;
    self->end = destination;
    if (to.id != 0) {
      th_rect start = destination;
      start.y += height;
      api->set_rect(ctx, to, TH_PROP_FRAME, start);
      status = from.id != 0 ? api->insert_subview_above(ctx, container, to, from) : api->add_subview(ctx, container, to);
      if (status != TH_OK) log_status(self, ctx, status, "insert destination");
    }
  }
  if (self->moving.id == 0) {
    api->log(ctx, TH_LOG_ERROR, "segue-slide: view(forKey:) gave no view to move; completing without animation");
    api->complete_transition(ctx, true);
    return;
  }

  double ratio = number_param(self, ctx, "dampingRatio", SLIDE_DEFAULT_DAMPING_RATIO);
  double velocity = number_param(self, ctx, "initialVelocity", SLIDE_DEFAULT_VELOCITY);
  th_animation_options options = {sizeof options, 0, transition_duration(self, ctx), 0.0,
                                  th_timing_spring(ratio, velocity)};
  status = api->animate(ctx, &options, move, finish, self);
  if (status != TH_OK) {
    /* No animation (e.g. a spring the host refused): jump to the end and complete rather than hang. */
    log_status(self, ctx, status, "animate");
    move(ctx, self);
    finish(ctx, true, self);
  }
}

/* ---- descriptors -------------------------------------------------------------------------------------------- */

static const th_param_descriptor duration_param = {
    .struct_size = sizeof(th_param_descriptor),
    .type = TH_PARAM_NUMBER,
    .name = "duration",
    .doc = "Length of the slide in seconds; the spring ends (and the segue completes) exactly then.",
    .default_number = SLIDE_DEFAULT_DURATION,
    .min = 0.0,
    .max = 10.0,
};
static const th_param_descriptor damping_param = {
    .struct_size = sizeof(th_param_descriptor),
    .type = TH_PARAM_NUMBER,
    .name = "dampingRatio",
    .doc = "The spring's damping ratio: 1 settles without overshoot, smaller values bounce.",
    .default_number = SLIDE_DEFAULT_DAMPING_RATIO,
    .min = 0.01,
    .max = 1.0,
};
static const th_param_descriptor velocity_param = {
    .struct_size = sizeof(th_param_descriptor),
    .type = TH_PARAM_NUMBER,
    .name = "initialVelocity",
    .doc = "The spring's initial velocity in UIKit's units: the whole distance per second.",
    .default_number = SLIDE_DEFAULT_VELOCITY,
    .min = -100.0,
    .max = 100.0,
};
static const th_param_descriptor *const params[] = {&duration_param, &damping_param, &velocity_param};
static const char *const operations[] = {"segue", "unwind", NULL};

static const th_animator_descriptor slide_animator = {
    .struct_size = sizeof(th_animator_descriptor),
    .id = "segue-slide",
    .name = "Segue slide",
    .description = "The destination springs up from below the container; unwinding springs it back down.",
    .operations = operations,
    .param_count = sizeof params / sizeof params[0],
    .params = params,
    .create = create,
    .destroy = destroy,
    .transition_duration = transition_duration,
    .animate_transition = animate_transition,
};
static const th_animator_descriptor *const animators[] = {&slide_animator};

static const th_plugin_descriptor plugin = {
    .struct_size = sizeof(th_plugin_descriptor),
    .abi_major = TH_ABI_VERSION_MAJOR,
    .abi_minor = TH_ABI_VERSION_MINOR,
    .id = "com.transitionhost.segue-slide",
    .name = "Segue slide",
    .version = "1.0.0",
    .vendor = "transition-host",
    .description = "Built-in spring slide for segues and unwinds (after BourneWeng/SegueTransion), written in C.",
    .animator_count = 1,
    .animators = animators,
};

TH_EXPORT const th_plugin_descriptor *th_plugin_entry(const th_host_info *host) {
  (void)host;
  return &plugin;
}
