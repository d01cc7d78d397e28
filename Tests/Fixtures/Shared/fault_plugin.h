// A plugin with one sound animator and one that commits a single fault, chosen by the including fixture's
// FAULT_* macro: the isolation tests' fixtures (one small library per fault, product TestPluginFault<Name>).
//
// "sound" is a real animator: it puts the to view at its final frame, fades it in (alpha 0 → 1, linear, 0.4 s) and
// completes. "faulty" starts like it and then does what its fault says: in animateTransition (FAULT_IN_ANIMATE), in the
// completion of its animation (FAULT_IN_COMPLETION, 0.2 s into the transition) or in transitionDuration
// (FAULT_IN_DURATION). The fault is FAULT_BODY(), a statement.
#ifndef FIXTURE_FAULT_PLUGIN_H
#define FIXTURE_FAULT_PLUGIN_H

#include <stdlib.h>
#include <unistd.h>

#include "th_plugin.h"

#ifndef FAULT_PLUGIN_ID
#error "define FAULT_PLUGIN_ID"
#endif
#ifndef FAULT_TAG
#error "define FAULT_TAG"
#endif

static const th_host_info *g_host;

typedef struct instance {
  const th_host_api *api;
  bool faulty;
} instance;

static void *create(const th_animator_descriptor *animator, const th_host_info *host) {
  instance *self = calloc(1, sizeof *self);
  if (self == NULL) return NULL;
  self->api = host->api;
  self->faulty = animator->id[0] == 'f';
  return self;
}

static void destroy(void *self) { free(self); }

static double transition_duration(void *self_, th_context ctx) {
  instance *self = self_;
  (void)ctx;
#ifdef FAULT_IN_DURATION
  if (self->faulty && ctx.id != 0) FAULT_BODY();
#else
  (void)self;
#endif
  return 0.4;
}

static void fade_in(th_context ctx, void *self_) {
  instance *self = self_;
  th_view to;
  if (self->api->view_for_key(ctx, TH_KEY_TO, &to) == TH_OK && to.id != 0)
    self->api->set_number(ctx, to, TH_PROP_ALPHA, 1.0);
}

static void complete(th_context ctx, bool finished, void *self_) {
  (void)finished;
  instance *self = self_;
  bool cancelled = false;
  self->api->transition_was_cancelled(ctx, &cancelled);
  self->api->complete_transition(ctx, !cancelled);
}

#ifdef FAULT_IN_COMPLETION
static void faulty_completion(th_context ctx, bool finished, void *self_) {
  (void)ctx;
  (void)finished;
  (void)self_;
  FAULT_BODY();
}

static void nothing(th_context ctx, void *self_) {
  (void)ctx;
  (void)self_;
}
#endif

static void animate_transition(void *self_, th_context ctx) {
  instance *self = self_;
  const th_host_api *api = self->api;
  th_view container, to;
  th_rect final_frame;
  api->container_view(ctx, &container);
  api->view_for_key(ctx, TH_KEY_TO, &to);
  api->final_frame(ctx, TH_KEY_TO, &final_frame);
  if (to.id != 0) {
    api->set_rect(ctx, to, TH_PROP_FRAME, final_frame);
    api->set_number(ctx, to, TH_PROP_ALPHA, 0.0);
    api->add_subview(ctx, container, to);
  }
#ifdef FAULT_IN_ANIMATE
  if (self->faulty) FAULT_BODY();
#endif
#ifdef FAULT_IN_COMPLETION
  if (self->faulty) {
    th_animation_options early = {sizeof early, 0, 0.2, 0.0, th_timing_curve(TH_CURVE_LINEAR)};
    api->animate(ctx, &early, nothing, faulty_completion, self);
  }
#endif
  th_animation_options options = {sizeof options, 0, 0.4, 0.0, th_timing_curve(TH_CURVE_LINEAR)};
  api->animate(ctx, &options, fade_in, complete, self);
}

static const th_animator_descriptor sound = {
    .struct_size = sizeof(th_animator_descriptor),
    .id = "sound",
    .name = "Sound " FAULT_TAG,
    .create = create,
    .destroy = destroy,
    .transition_duration = transition_duration,
    .animate_transition = animate_transition,
};

static const th_animator_descriptor faulty = {
    .struct_size = sizeof(th_animator_descriptor),
    .id = "faulty",
    .name = "Faulty " FAULT_TAG,
    .create = create,
    .destroy = destroy,
    .transition_duration = transition_duration,
    .animate_transition = animate_transition,
};

static const th_animator_descriptor *const animators[] = {&sound, &faulty};

static bool init(const th_host_info *host) {
  g_host = host;
#ifdef FAULT_INIT
  FAULT_INIT();
#endif
  return true;
}

static void deinit(void) { g_host = NULL; }

static const th_plugin_descriptor plugin = {
    .struct_size = sizeof(th_plugin_descriptor),
    .abi_major = TH_ABI_VERSION_MAJOR,
    .abi_minor = TH_ABI_VERSION_MINOR,
    .id = FAULT_PLUGIN_ID,
    .name = "Fault fixture " FAULT_TAG,
    .version = "1.0.0",
    .init = init,
    .deinit = deinit,
    .animator_count = 2,
    .animators = animators,
};

#ifndef FAULT_CUSTOM_ENTRY
TH_EXPORT const th_plugin_descriptor *th_plugin_entry(const th_host_info *host) {
  (void)host;
  return &plugin;
}
#endif

#endif
