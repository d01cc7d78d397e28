// TestPluginInteractionC: the ABI 1.2 interaction extensions from plain C. The animator "probe" fades the to view in
// over 1 s (linear) and offers "th.interaction-controller/1"; its gesture handler drives the transition through the
// host's "th.percent-driven/1" and also misuses it on purpose, logging every status ("probe: <call> <status>") so
// that Tests/PluginHostTests/InteractionABITests.swift can check each refusal and each misbehaviour report.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "th_plugin.h"

static const th_host_info *g_host;

static const th_host_percent_driven *percent_driven(void) {
  if (g_host == NULL || !TH_HOST_API_HAS(g_host->api, get_extension)) return NULL;
  return g_host->api->get_extension(TH_EXT_PERCENT_DRIVEN);
}

static void note(th_context ctx, const char *call, th_status status) {
  char line[160];
  snprintf(line, sizeof line, "probe: %s %s", call, th_status_name(status));
  g_host->api->log(ctx, TH_LOG_INFO, line);
}

static void *create(const th_animator_descriptor *animator, const th_host_info *host) {
  (void)animator;
  (void)host;
  static int instance_token;
  return &instance_token;
}

static void destroy(void *self) { (void)self; }

static double transition_duration(void *self, th_context ctx) {
  (void)self;
  (void)ctx;
  return 1.0;
}

static void fade_in(th_context ctx, void *user_data) {
  (void)user_data;
  th_view to;
  if (g_host->api->view_for_key(ctx, TH_KEY_TO, &to) == TH_OK && to.id != 0)
    g_host->api->set_number(ctx, to, TH_PROP_ALPHA, 1.0);
}

static void complete(th_context ctx, bool finished, void *user_data) {
  (void)finished;
  (void)user_data;
  bool cancelled = false;
  g_host->api->transition_was_cancelled(ctx, &cancelled);
  g_host->api->complete_transition(ctx, !cancelled);
}

static void animate_transition(void *self, th_context ctx) {
  (void)self;
  const th_host_api *api = g_host->api;
  th_view container, to;
  api->container_view(ctx, &container);
  api->view_for_key(ctx, TH_KEY_TO, &to);
  if (to.id != 0) {
    api->set_number(ctx, to, TH_PROP_ALPHA, 0.0);
    api->add_subview(ctx, container, to);
  }
  th_animation_options options = {sizeof options, 0, 1.0, 0.0, th_timing_curve(TH_CURVE_LINEAR)};
  api->animate(ctx, &options, fade_in, complete, NULL);
}

static void animation_ended(void *self, th_context ctx, bool completed) {
  (void)self;
  (void)completed;
  // After complete_transition: the transition can no longer be moved.
  note(ctx, "update after completion", percent_driven()->update(ctx, 0.1));
}

static uint32_t interaction_controller(void *self, th_context ctx) {
  (void)self;
  // The duration phase: asking is fine, moving is not.
  note(ctx, "update while asked", percent_driven()->update(ctx, 0.5));
  return TH_INTERACTION_CONTROLLER | TH_INTERACTION_WANTS_INTERACTIVE_START;
}

static th_gesture_delivery handle_gesture(void *self, th_context ctx, const th_gesture_sample *sample,
                                          th_view hit_view, uint32_t *out_received) {
  (void)self;
  const th_host_percent_driven *pd = percent_driven();
  *out_received = 1;
  switch (sample->state) {
  case TH_GESTURE_BEGAN: {
    const char *id = "(none)";
    if (hit_view.id != 0) g_host->api->view_id(ctx, hit_view, &id);
    char line[96];
    snprintf(line, sizeof line, "probe: began on %s", id);
    g_host->api->log(ctx, TH_LOG_INFO, line);
    note(ctx, "update NaN", pd->update(ctx, NAN));
    th_interaction_completion small = {4, 0, 0, 0, th_timing_curve(TH_CURVE_LINEAR)};
    note(ctx, "finish small struct", pd->finish(ctx, &small));
    th_interaction_completion flags = {sizeof flags, 0x80, 0, 0, th_timing_curve(TH_CURVE_LINEAR)};
    note(ctx, "finish unknown flags", pd->finish(ctx, &flags));
    th_interaction_completion spring = {sizeof spring, TH_COMPLETION_TIMING, 0, 0, th_timing_spring(1.0, 0.0)};
    note(ctx, "finish spring timing", pd->finish(ctx, &spring));
    th_interaction_completion slow = {sizeof slow, TH_COMPLETION_SPEED, 0, 0.0, th_timing_curve(TH_CURVE_LINEAR)};
    note(ctx, "finish speed 0", pd->finish(ctx, &slow));
    note(ctx, "status NULL", pd->status(ctx, NULL));
    th_interaction_status status = {sizeof status};
    th_status got = pd->status(ctx, &status);
    snprintf(line, sizeof line, "probe: status %s state %d percent %g duration %g interactive %d",
             th_status_name(got), (int)status.state, status.percent, status.duration, (int)status.is_interactive);
    g_host->api->log(ctx, TH_LOG_INFO, line);
    return TH_GESTURE_RECEIVED;
  }
  case TH_GESTURE_CHANGED:
    note(ctx, "update", pd->update(ctx, sample->translation.x / 100.0));
    *out_received = 0;  // misbehaviour: "received" by no recognizer
    return TH_GESTURE_RECEIVED;
  case TH_GESTURE_ENDED: {
    th_interaction_completion linear = {sizeof linear, TH_COMPLETION_SPEED | TH_COMPLETION_TIMING, 0, 2.0,
                                        th_timing_curve(TH_CURVE_LINEAR)};
    note(ctx, "finish", pd->finish(ctx, &linear));
    note(ctx, "finish again", pd->finish(ctx, NULL));
    return (th_gesture_delivery)7;  // misbehaviour: not a th_gesture_delivery
  }
  default:
    note(ctx, "cancel", pd->cancel(ctx, NULL));
    return TH_GESTURE_RECEIVED;
  }
}

static const th_interaction_controller interaction = {
    .struct_size = sizeof(th_interaction_controller),
    .interaction_controller = interaction_controller,
    .handle_gesture = handle_gesture,
};

static const void *get_extension(void *self, const char *id) {
  (void)self;
  return strcmp(id, TH_EXT_INTERACTION_CONTROLLER) == 0 ? &interaction : NULL;
}

static const th_animator_descriptor probe = {
    .struct_size = sizeof(th_animator_descriptor),
    .id = "probe",
    .name = "Interaction probe",
    .create = create,
    .destroy = destroy,
    .transition_duration = transition_duration,
    .animate_transition = animate_transition,
    .animation_ended = animation_ended,
    .get_extension = get_extension,
};

static const th_animator_descriptor *const animators[] = {&probe};

static bool init(const th_host_info *host) {
  g_host = host;
  return percent_driven() != NULL;
}

static const th_plugin_descriptor plugin = {
    .struct_size = sizeof(th_plugin_descriptor),
    .abi_major = TH_ABI_VERSION_MAJOR,
    .abi_minor = TH_ABI_VERSION_MINOR,
    .id = "com.example.test.interaction-c",
    .name = "Interaction ABI probe",
    .version = "1.0.0",
    .init = init,
    .animator_count = 1,
    .animators = animators,
};

TH_EXPORT const th_plugin_descriptor *th_plugin_entry(const th_host_info *host) {
  (void)host;
  return &plugin;
}
