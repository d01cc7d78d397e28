// The spring fixtures (TestPluginSprings, and TestPluginSprings10 which declares ABI 1.0): one animator, "spring",
// that moves the to view's zPosition from 0 to 1 in one UIView.animate-style block whose timing its params describe,
// so a sampled zPosition is the spring's progress. Written against th_plugin.h alone.
//
// params: form ("physical" = CASpringAnimation's mass/stiffness/damping, "ratio" = UIKit's damping ratio, "bounce"
// = iOS 17's duration + bounce), mass, stiffness, damping, dampingRatio, bounce, velocity (UIKit's units),
// duration (the block's duration; TH_DURATION_AUTOMATIC, -1, by default), allowsOverdamping, transitionDuration.
// It logs "animate <status>" after the animate call and "completion finished=<0|1>" when the block's completion
// runs, which completes the transition; a refused block completes the transition at once.
#ifndef FIXTURE_SPRING_PLUGIN_H
#define FIXTURE_SPRING_PLUGIN_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "th_plugin.h"

#ifndef FIXTURE_PLUGIN_ID
#define FIXTURE_PLUGIN_ID "com.example.test.springs"
#endif
#ifndef FIXTURE_ABI_MINOR
#define FIXTURE_ABI_MINOR TH_ABI_VERSION_MINOR
#endif

static const th_host_api *api;

static void *create(const th_animator_descriptor *animator, const th_host_info *host) {
  api = host->api;
  return (void *)animator;
}

static void destroy(void *instance) { (void)instance; }

static double number(th_context ctx, const char *name) {
  double value = NAN;
  api->param_number(ctx, name, &value);
  return value;
}

static double transition_duration(void *instance, th_context ctx) {
  (void)instance;
  return number(ctx, "transitionDuration");
}

static th_view to_view(th_context ctx) {
  th_view to = {0};
  api->view_for_key(ctx, TH_KEY_TO, &to);
  return to;
}

static void move_to_one(th_context ctx, void *user_data) {
  (void)user_data;
  api->set_number(ctx, to_view(ctx), TH_PROP_Z_POSITION, 1.0);
}

static void completed(th_context ctx, bool finished, void *user_data) {
  (void)user_data;
  char line[64];
  snprintf(line, sizeof line, "completion finished=%d", finished ? 1 : 0);
  api->log(ctx, TH_LOG_INFO, line);
  bool cancelled = false;
  api->transition_was_cancelled(ctx, &cancelled);
  api->complete_transition(ctx, !cancelled);
}

static th_timing spring_timing(th_context ctx) {
  const char *form = "physical";
  api->param_string(ctx, "form", &form);
  double velocity = number(ctx, "velocity");
  th_timing timing;
  if (strcmp(form, "ratio") == 0) {
    timing = th_timing_spring(number(ctx, "dampingRatio"), velocity);
  } else if (strcmp(form, "bounce") == 0) {
    timing = th_timing_spring_bounce(number(ctx, "bounce"), velocity);
  } else {
    timing = th_timing_spring_physical(number(ctx, "mass"), number(ctx, "stiffness"), number(ctx, "damping"), velocity);
  }
  bool overdamping = false;
  api->param_bool(ctx, "allowsOverdamping", &overdamping);
  // In the 1.0 build this word is the first half of 1.0's reserved[0]: a 1.0 plugin that leaves it non-zero still
  // gets the default, because the host reads the flags only from plugins built against ABI 1.1 or later.
  if (overdamping) timing.flags |= TH_TIMING_ALLOWS_OVERDAMPING;
  return timing;
}

static void animate_transition(void *instance, th_context ctx) {
  (void)instance;
  th_view container = {0};
  api->container_view(ctx, &container);
  api->add_subview(ctx, container, to_view(ctx));
  api->set_number(ctx, to_view(ctx), TH_PROP_Z_POSITION, 0.0);
  th_animation_options options = {sizeof options, 0, number(ctx, "duration"), 0.0, spring_timing(ctx)};
  th_status status = api->animate(ctx, &options, move_to_one, completed, NULL);
  char line[64];
  snprintf(line, sizeof line, "animate %s", th_status_name(status));
  api->log(ctx, TH_LOG_INFO, line);
  if (status != TH_OK) api->complete_transition(ctx, true);
}

#define NUMBER_PARAM(var, key, value)                                                                               \
  static const th_param_descriptor var = {.struct_size = sizeof(th_param_descriptor), .type = TH_PARAM_NUMBER,       \
                                          .name = key, .default_number = value, .min = -INFINITY, .max = INFINITY}

static const char *const forms[] = {"physical", "ratio", "bounce", NULL};
static const th_param_descriptor p_form = {.struct_size = sizeof(th_param_descriptor), .type = TH_PARAM_ENUM,
                                           .name = "form", .default_string = "physical", .enum_options = forms};
NUMBER_PARAM(p_mass, "mass", 1.0);
NUMBER_PARAM(p_stiffness, "stiffness", 100.0);
NUMBER_PARAM(p_damping, "damping", 10.0);
NUMBER_PARAM(p_ratio, "dampingRatio", 1.0);
NUMBER_PARAM(p_bounce, "bounce", 0.0);
NUMBER_PARAM(p_velocity, "velocity", 0.0);
NUMBER_PARAM(p_duration, "duration", TH_DURATION_AUTOMATIC);
NUMBER_PARAM(p_transition_duration, "transitionDuration", 1.0);
static const th_param_descriptor p_overdamping = {.struct_size = sizeof(th_param_descriptor), .type = TH_PARAM_BOOL,
                                                  .name = "allowsOverdamping", .default_bool = false};
static const th_param_descriptor *const params[] = {
    &p_form,     &p_mass,     &p_stiffness, &p_damping, &p_ratio, &p_bounce, &p_velocity, &p_duration,
    &p_overdamping, &p_transition_duration};

static const th_animator_descriptor spring_animator = {
    .struct_size = sizeof(th_animator_descriptor), .id = "spring", .name = "Spring", .param_count = 10,
    .params = params, .create = create, .destroy = destroy, .transition_duration = transition_duration,
    .animate_transition = animate_transition};

static const th_animator_descriptor *const animators[] = {&spring_animator};

static const th_plugin_descriptor plugin = {
    .struct_size = sizeof(th_plugin_descriptor),
    .abi_major = TH_ABI_VERSION_MAJOR,
    .abi_minor = FIXTURE_ABI_MINOR,
    .id = FIXTURE_PLUGIN_ID,
    .name = "Spring forms test plugin",
    .version = "1.0.0",
    .animator_count = 1,
    .animators = animators,
};

TH_EXPORT const th_plugin_descriptor *th_plugin_entry(const th_host_info *host) {
  (void)host;
  return &plugin;
}

#endif
