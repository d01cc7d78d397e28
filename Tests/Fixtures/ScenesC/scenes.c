// TestPluginScenesC: the ABI 1.2 scene extensions from plain C. The animator "probe" offers
// "th.scene-controller/1"; its open_scene and handle_gesture use the host's "th.scenes/1" and also misuse it on
// purpose, logging every status ("probe: <call> <status>"), so that Tests/PluginHostTests/SceneABITests.swift can
// check each refusal, and that every refused instance the host could read is destroyed ("probe: destroy <n>").
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "th_plugin.h"

static const th_host_info *g_host;
static int g_next_instance = 1;

static const th_host_scenes *scenes(void) { return g_host->api->get_extension(TH_EXT_HOST_SCENES); }

static void note(th_context ctx, const char *call, th_status status) {
  char line[160];
  snprintf(line, sizeof line, "probe: %s %s", call, th_status_name(status));
  g_host->api->log(ctx, TH_LOG_INFO, line);
}

static void *create(const th_animator_descriptor *animator, const th_host_info *host) {
  (void)animator;
  (void)host;
  int *instance = malloc(sizeof *instance);
  *instance = g_next_instance++;
  return instance;
}

static void destroy(void *self) {
  char line[64];
  snprintf(line, sizeof line, "probe: destroy %d", *(int *)self);
  g_host->api->log(g_host->plugin_context, TH_LOG_INFO, line);
  free(self);
}

static double transition_duration(void *self, th_context ctx) {
  (void)self;
  (void)ctx;
  return 1.0;
}

static void animate_transition(void *self, th_context ctx) {
  (void)self;
  g_host->api->complete_transition(ctx, true);
}

/// A request for `operation` from `from` to `to` with a new instance.
static th_scene_transition request(const char *operation, th_view from, th_view to) {
  th_scene_transition r = {sizeof(th_scene_transition), 0, operation, from, to, create(NULL, NULL)};
  return r;
}

static th_view tree(th_context ctx, const char *identifier) {
  th_view root = {0};
  scenes()->tree(ctx, identifier, &root);
  return root;
}

static th_status open_scene(void *self, th_context ctx) {
  (void)self;
  th_view root = {0};
  note(ctx, "tree root", scenes()->tree(ctx, "", &root));
  const char *id = NULL;
  g_host->api->view_id(ctx, root, &id);
  note(ctx, id ? id : "(none)", TH_OK);
  note(ctx, "tree nope", scenes()->tree(ctx, "nope", &root));
  note(ctx, "tree NULL", scenes()->tree(ctx, NULL, &root));
  th_scene_transition early = request("present", tree(ctx, ""), tree(ctx, "second"));
  note(ctx, "start while opening", scenes()->start_transition(ctx, &early));
  return TH_OK;
}

static th_gesture_delivery handle_gesture(void *self, th_context ctx, const th_gesture_sample *sample,
                                          th_view hit_view, uint32_t *out_received) {
  (void)self;
  if (sample->state != TH_GESTURE_BEGAN) return TH_GESTURE_NOT_IN_PROGRESS;
  const char *id = NULL;
  g_host->api->view_id(ctx, hit_view, &id);
  note(ctx, id ? id : "(no hit)", TH_OK);
  th_view first = tree(ctx, ""), second = tree(ctx, "second");
  const th_host_scenes *s = scenes();
  note(ctx, "start NULL", s->start_transition(ctx, NULL));
  th_scene_transition small = request("present", first, second);
  small.struct_size = 8;
  note(ctx, "start small struct", s->start_transition(ctx, &small));
  free(small.instance);  // kept by the plugin: the host could not read it
  th_scene_transition no_instance = request("present", first, second);
  free(no_instance.instance);
  no_instance.instance = NULL;
  note(ctx, "start NULL instance", s->start_transition(ctx, &no_instance));
  th_scene_transition off_screen = request("present", second, first);
  note(ctx, "start from off screen", s->start_transition(ctx, &off_screen));
  th_scene_transition to_itself = request("present", first, first);
  note(ctx, "start to itself", s->start_transition(ctx, &to_itself));
  th_scene_transition stranger = request("present", first, (th_view){12345});
  note(ctx, "start unknown view", s->start_transition(ctx, &stranger));
  const th_host_percent_driven *percent = g_host->api->get_extension(TH_EXT_PERCENT_DRIVEN);
  note(ctx, "update on the scene", percent->update(ctx, 0.5));
  th_scene_transition good = request("present", first, second);
  note(ctx, "start", s->start_transition(ctx, &good));
  th_scene_transition again = request("present", first, second);
  note(ctx, "start again", s->start_transition(ctx, &again));
  *out_received = 1;
  return TH_GESTURE_RECEIVED;
}

static void transition_ended(void *self, th_context ctx, th_view from, th_view to, bool completed) {
  (void)self;
  (void)from;
  (void)to;
  note(ctx, completed ? "ended completed" : "ended cancelled", TH_OK);
}

static const th_scene_controller controller = {
    .struct_size = sizeof(th_scene_controller),
    .open_scene = open_scene,
    .handle_gesture = handle_gesture,
    .transition_ended = transition_ended,
};

static const void *get_extension(void *self, const char *id) {
  (void)self;
  if (strcmp(id, TH_EXT_SCENE_CONTROLLER) == 0) return &controller;
  return NULL;
}

static const th_animator_descriptor probe = {
    .struct_size = sizeof(th_animator_descriptor),
    .id = "probe",
    .name = "Scene probe",
    .create = create,
    .destroy = destroy,
    .transition_duration = transition_duration,
    .animate_transition = animate_transition,
    .get_extension = get_extension,
};

static const th_animator_descriptor *const animators[] = {&probe};

static bool init(const th_host_info *host) {
  g_host = host;
  return scenes() != NULL;
}

static const th_plugin_descriptor plugin = {
    .struct_size = sizeof(th_plugin_descriptor),
    .abi_major = TH_ABI_VERSION_MAJOR,
    .abi_minor = TH_ABI_VERSION_MINOR,
    .id = "com.example.test.scenes-c",
    .name = "Scene ABI probe",
    .version = "1.0.0",
    .init = init,
    .animator_count = 1,
    .animators = animators,
};

TH_EXPORT const th_plugin_descriptor *th_plugin_entry(const th_host_info *host) {
  (void)host;
  return &plugin;
}
