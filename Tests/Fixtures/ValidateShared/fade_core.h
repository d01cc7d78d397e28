// A sound cross-fade animator that each TestPluginValidate* fixture breaks in one chosen way, so that every
// validator check has a plugin that fails it (and the sound animator shows no false alarms).
//
// present (and anything but dismiss): the to view is put at its final frame with alpha 0, added on top, and
// faded in over 0.3 s; dismiss: the from view fades out. The completion calls complete_transition with
// !transition_was_cancelled. The including file defines `fault_of(animator)`.
#ifndef FIXTURE_FADE_CORE_H
#define FIXTURE_FADE_CORE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "th_plugin.h"

typedef enum fault {
  FAULT_NONE,
  FAULT_NEVER_COMPLETES,       // no complete_transition at all
  FAULT_COMPLETES_TWICE,       // complete_transition twice from the completion
  FAULT_IGNORES_CANCEL,        // complete_transition(true) even when cancelled
  FAULT_NAN_ALPHA,             // sets alpha to NaN (refused by the host, reported as misuse)
  FAULT_NONDETERMINISTIC,      // each run ends somewhere else (a counter shared by all instances)
  FAULT_PRINTS,                // printf to stdout, the protocol stream
  FAULT_NEGATIVE_DURATION,     // transition_duration returns -1
  FAULT_ANY_EXTENSION,         // get_extension answers every id
  FAULT_CRASHES,               // animate_transition writes through NULL
  FAULT_HANGS                  // transition_duration never returns
} fault;

static enum fault fault_of(const th_animator_descriptor *animator);

typedef struct instance {
  const th_host_api *api;
  enum fault fault;
} instance;

static const double fade_duration = 0.3;
static int g_runs;  // FAULT_NONDETERMINISTIC: shared by every instance of the library

static void *fade_create(const th_animator_descriptor *animator, const th_host_info *host) {
  instance *self = calloc(1, sizeof *self);
  if (self == NULL) return NULL;
  self->api = host->api;
  self->fault = fault_of(animator);
  return self;
}

static void fade_destroy(void *self) { free(self); }

static double fade_transition_duration(void *self_, th_context ctx) {
  (void)ctx;
  instance *self = self_;
  if (self->fault == FAULT_NEGATIVE_DURATION) return -1.0;
  if (self->fault == FAULT_HANGS) {
    for (volatile unsigned long spin = 0;; spin++) {
    }
  }
  return fade_duration;
}

static int is_dismissal(const th_host_api *api, th_context ctx) {
  const char *operation = "present";
  api->operation(ctx, &operation);
  return strcmp(operation, "dismiss") == 0;
}

static void fade_animations(th_context ctx, void *self_) {
  instance *self = self_;
  const th_host_api *api = self->api;
  th_view view;
  if (is_dismissal(api, ctx)) {
    if (api->view_for_key(ctx, TH_KEY_FROM, &view) == TH_OK && view.id != 0) api->set_number(ctx, view, TH_PROP_ALPHA, 0.0);
    return;
  }
  if (api->view_for_key(ctx, TH_KEY_TO, &view) != TH_OK || view.id == 0) return;
  if (self->fault == FAULT_NAN_ALPHA) api->set_number(ctx, view, TH_PROP_ALPHA, NAN);
  api->set_number(ctx, view, TH_PROP_ALPHA, 1.0);
  if (self->fault == FAULT_NONDETERMINISTIC) {
    th_point center;
    if (api->get_point(ctx, view, TH_PROP_CENTER, &center) == TH_OK) {
      center.y += 10.0 * g_runs;
      api->set_point(ctx, view, TH_PROP_CENTER, center);
    }
  }
}

static void fade_completion(th_context ctx, bool finished, void *self_) {
  (void)finished;
  instance *self = self_;
  bool cancelled = false;
  self->api->transition_was_cancelled(ctx, &cancelled);
  switch (self->fault) {
  case FAULT_NEVER_COMPLETES: return;
  case FAULT_IGNORES_CANCEL: self->api->complete_transition(ctx, true); return;
  case FAULT_COMPLETES_TWICE:
    self->api->complete_transition(ctx, !cancelled);
    self->api->complete_transition(ctx, !cancelled);
    return;
  default: self->api->complete_transition(ctx, !cancelled); return;
  }
}

static void fade_animate_transition(void *self_, th_context ctx) {
  instance *self = self_;
  const th_host_api *api = self->api;
  if (self->fault == FAULT_CRASHES) {
    volatile int *nowhere = NULL;
    *nowhere = 1;
  }
  if (self->fault == FAULT_PRINTS) printf("fade: animating (this line must not reach stdout)\n");
  if (self->fault == FAULT_NONDETERMINISTIC) g_runs++;
  if (!is_dismissal(api, ctx)) {
    th_view container, to;
    th_rect final_frame;
    api->container_view(ctx, &container);
    if (api->view_for_key(ctx, TH_KEY_TO, &to) == TH_OK && to.id != 0) {
      if (api->final_frame(ctx, TH_KEY_TO, &final_frame) == TH_OK) api->set_rect(ctx, to, TH_PROP_FRAME, final_frame);
      api->set_number(ctx, to, TH_PROP_ALPHA, 0.0);
      api->add_subview(ctx, container, to);
    }
  }
  th_animation_options options = {sizeof options, 0, fade_duration, 0.0, th_timing_curve(TH_CURVE_EASE_IN_OUT)};
  api->animate(ctx, &options, fade_animations, fade_completion, self);
}

// A presentation controller that changes nothing (every function NULL: UIKit's defaults).
static const th_presentation_controller any_extension_table = {sizeof(th_presentation_controller), 0, NULL, NULL,
                                                               NULL, NULL, NULL, NULL};

static const void *fade_get_extension(void *self_, const char *id) {
  (void)id;
  instance *self = self_;
  return self->fault == FAULT_ANY_EXTENSION ? &any_extension_table : NULL;
}

#define FADE_ANIMATOR(variable, animator_id, animator_name, operation_list)                                     \
  static const th_animator_descriptor variable = {                                                            \
      .struct_size = sizeof(th_animator_descriptor),                                                          \
      .id = animator_id,                                                                                      \
      .name = animator_name,                                                                                  \
      .operations = operation_list,                                                                           \
      .create = fade_create,                                                                                  \
      .destroy = fade_destroy,                                                                                \
      .transition_duration = fade_transition_duration,                                                        \
      .animate_transition = fade_animate_transition,                                                          \
      .get_extension = fade_get_extension,                                                                    \
  }

// The plugin descriptor and its entry point, with the given init and deinit functions (NULL for none).
#define FADE_PLUGIN_WITH(plugin_id, plugin_name, animator_list, init_function, deinit_function)                 \
  static const th_plugin_descriptor plugin = {                                                                \
      .struct_size = sizeof(th_plugin_descriptor),                                                            \
      .abi_major = TH_ABI_VERSION_MAJOR,                                                                      \
      .abi_minor = TH_ABI_VERSION_MINOR,                                                                      \
      .id = plugin_id,                                                                                        \
      .name = plugin_name,                                                                                    \
      .version = "1.0.0",                                                                                     \
      .init = init_function,                                                                                  \
      .deinit = deinit_function,                                                                              \
      .animator_count = sizeof animator_list / sizeof animator_list[0],                                       \
      .animators = animator_list,                                                                             \
  };                                                                                                          \
  TH_EXPORT const th_plugin_descriptor *th_plugin_entry(const th_host_info *host) {                           \
    (void)host;                                                                                               \
    return &plugin;                                                                                           \
  }

#define FADE_PLUGIN(plugin_id, plugin_name, animator_list) FADE_PLUGIN_WITH(plugin_id, plugin_name, animator_list, NULL, NULL)

// FADE_PLUGIN with init and deinit that count, as the header asks (set up on the first init, tear down on the
// last deinit): a plugin the init-twice check has something to run on.
#define FADE_PLUGIN_WITH_INIT(plugin_id, plugin_name, animator_list)                                            \
  static int g_init_count;                                                                                    \
  static bool fade_init(const th_host_info *host) {                                                           \
    (void)host;                                                                                               \
    g_init_count++;                                                                                           \
    return true;                                                                                              \
  }                                                                                                           \
  static void fade_deinit(void) { g_init_count--; }                                                           \
  FADE_PLUGIN_WITH(plugin_id, plugin_name, animator_list, fade_init, fade_deinit)

static const char *const present_only[] = {"present", NULL};

#endif
