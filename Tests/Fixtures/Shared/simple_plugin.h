// A one-animator plugin whose parts the including fixture can override with macros, so that each loader
// error has its own small library. Its "probe" animator really runs (the hot-reload fixtures run it): it adds
// the to view and moves it, linearly over FIXTURE_DURATION, to the frame (FIXTURE_FINAL_X, 0, 400, 800).
#ifndef FIXTURE_SIMPLE_PLUGIN_H
#define FIXTURE_SIMPLE_PLUGIN_H

#include <stdlib.h>

#include "th_plugin.h"

#ifndef FIXTURE_PLUGIN_ID
#define FIXTURE_PLUGIN_ID "com.example.test.simple"
#endif
#ifndef FIXTURE_ABI_MAJOR
#define FIXTURE_ABI_MAJOR TH_ABI_VERSION_MAJOR
#endif
#ifndef FIXTURE_DESCRIPTOR_SIZE
#define FIXTURE_DESCRIPTOR_SIZE sizeof(th_plugin_descriptor)
#endif
#ifndef FIXTURE_INIT_RESULT
#define FIXTURE_INIT_RESULT true
#endif
#ifndef FIXTURE_DURATION
#define FIXTURE_DURATION 0.5
#endif
#ifndef FIXTURE_TAG
#define FIXTURE_TAG "simple"
#endif
#ifndef FIXTURE_ANIMATE
#define FIXTURE_ANIMATE animate_transition
#endif
#ifndef FIXTURE_SECOND_ANIMATOR_ID
#define FIXTURE_SECOND_ANIMATOR_ID "slide" // shared with TestPluginMinimal: "slide" alone is ambiguous
#endif
#ifndef FIXTURE_FINAL_X
#define FIXTURE_FINAL_X 0.0
#endif
#ifndef FIXTURE_PARAM_DEFAULT
#define FIXTURE_PARAM_DEFAULT 0.5
#endif

static const th_host_info *g_host;
static int g_init_count;

static void log_message(th_log_level level, const char *message) {
  if (g_host != NULL && g_host->api != NULL && g_host->api->log != NULL)
    g_host->api->log(g_host->plugin_context, level, message);
}

static void *create(const th_animator_descriptor *animator, const th_host_info *host) {
  (void)animator;
  // The instance only needs the host table.
  return (void *)host->api;
}

static void destroy(void *instance) { (void)instance; }

static double transition_duration(void *instance, th_context ctx) {
  (void)instance;
  (void)ctx;
  return FIXTURE_DURATION;
}

static void probe_done(th_context ctx, bool finished, void *user_data) {
  (void)finished;
  const th_host_api *api = user_data;
  bool cancelled = false;
  api->transition_was_cancelled(ctx, &cancelled);
  api->complete_transition(ctx, !cancelled);
}

static void probe_move(th_context ctx, void *user_data) {
  const th_host_api *api = user_data;
  th_view to;
  th_rect end = {FIXTURE_FINAL_X, 0.0, 400.0, 800.0};
  if (api->view_for_key(ctx, TH_KEY_TO, &to) == TH_OK && to.id != 0) api->set_rect(ctx, to, TH_PROP_FRAME, end);
}

static void animate_transition(void *instance, th_context ctx) {
  const th_host_api *api = instance;
  th_view container, to;
  api->container_view(ctx, &container);
  if (api->view_for_key(ctx, TH_KEY_TO, &to) == TH_OK && to.id != 0) api->add_subview(ctx, container, to);
  th_animation_options options = {sizeof options, 0, FIXTURE_DURATION, 0.0, th_timing_curve(TH_CURVE_LINEAR)};
  api->animate(ctx, &options, probe_move, probe_done, (void *)api);
}

static const th_param_descriptor amount = {
    .struct_size = sizeof(th_param_descriptor), .type = TH_PARAM_NUMBER, .name = "amount",
    .default_number = FIXTURE_PARAM_DEFAULT, .min = 0.0, .max = 1.0};
static const th_param_descriptor *const params[] = {&amount};

static const th_animator_descriptor probe = {
    .struct_size = sizeof(th_animator_descriptor),
    .id = "probe",
    .name = "Probe " FIXTURE_TAG,
    .param_count = 1,
    .params = params,
    .create = create,
    .destroy = destroy,
    .transition_duration = transition_duration,
    .animate_transition = FIXTURE_ANIMATE,
};

static const th_animator_descriptor probe2 = {
    .struct_size = sizeof(th_animator_descriptor),
    .id = FIXTURE_SECOND_ANIMATOR_ID,
    .name = "Second probe",
    .create = create,
    .destroy = destroy,
    .transition_duration = transition_duration,
    .animate_transition = animate_transition,
};

static const th_animator_descriptor *const animators[] = {&probe, &probe2};

static bool init(const th_host_info *host) {
  if (g_init_count++ == 0) g_host = host;
  log_message(TH_LOG_INFO, "init " FIXTURE_TAG);
  return FIXTURE_INIT_RESULT;
}

static void deinit(void) {
  log_message(TH_LOG_INFO, "deinit " FIXTURE_TAG);
  if (--g_init_count == 0) g_host = NULL;
}

static const th_plugin_descriptor plugin = {
    .struct_size = FIXTURE_DESCRIPTOR_SIZE,
    .abi_major = FIXTURE_ABI_MAJOR,
    .abi_minor = TH_ABI_VERSION_MINOR,
    .id = FIXTURE_PLUGIN_ID,
    .name = "Fixture " FIXTURE_TAG,
    .version = "1.0.0-" FIXTURE_TAG,
    .init = init,
    .deinit = deinit,
    .animator_count = 2,
    .animators = animators,
};

#ifndef FIXTURE_NO_ENTRY
TH_EXPORT const th_plugin_descriptor *th_plugin_entry(const th_host_info *host) {
  (void)host;
#ifdef FIXTURE_DECLINE
  return NULL;
#else
  return &plugin;
#endif
}
#endif

#endif
