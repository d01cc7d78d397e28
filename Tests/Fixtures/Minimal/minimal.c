// TestPluginMinimal: a valid plugin with two small animators and one parameter of every type, used by the
// loader tests (descriptor copying, id resolution, init/deinit counting). The animators are real: "fade"
// cross-fades the to view in, "slide" slides it in from the bottom (presents) or out (dismisses).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "th_plugin.h"

static const th_host_info *g_host;  // valid from init until deinit returns
static int g_init_count;

static void log_message(th_context ctx, th_log_level level, const char *message) {
  if (g_host != NULL && g_host->api != NULL && g_host->api->log != NULL) g_host->api->log(ctx, level, message);
}

// ---- shared instance state ----------------------------------------------------------------------------

typedef struct instance {
  const th_host_api *api;
  double duration;
} instance;

static void *create(const th_animator_descriptor *animator, const th_host_info *host) {
  (void)animator;
  instance *self = calloc(1, sizeof *self);
  if (self == NULL) return NULL;
  self->api = host->api;
  self->duration = 0.4;
  return self;
}

static void destroy(void *self) { free(self); }

static double transition_duration(void *self_, th_context ctx) {
  instance *self = self_;
  double duration = self->duration;
  // With a context, the "duration" parameter (declared below) overrides the default.
  if (ctx.id != 0 && self->api->param_number(ctx, "duration", &duration) != TH_OK) duration = self->duration;
  return duration;
}

static void complete(th_context ctx, bool finished, void *self_) {
  (void)finished;
  instance *self = self_;
  bool cancelled = false;
  self->api->transition_was_cancelled(ctx, &cancelled);
  self->api->complete_transition(ctx, !cancelled);
}

// ---- fade ---------------------------------------------------------------------------------------------

static void fade_in(th_context ctx, void *self_) {
  instance *self = self_;
  th_view to;
  if (self->api->view_for_key(ctx, TH_KEY_TO, &to) == TH_OK && to.id != 0)
    self->api->set_number(ctx, to, TH_PROP_ALPHA, 1.0);
}

static void fade_animate(void *self_, th_context ctx) {
  instance *self = self_;
  const th_host_api *api = self->api;
  th_view container, to;
  th_rect final_frame;
  api->container_view(ctx, &container);
  api->view_for_key(ctx, TH_KEY_TO, &to);
  api->final_frame(ctx, TH_KEY_TO, &final_frame);
  if (to.id != 0) {
    if (final_frame.width > 0 && final_frame.height > 0) api->set_rect(ctx, to, TH_PROP_FRAME, final_frame);
    api->set_number(ctx, to, TH_PROP_ALPHA, 0.0);
    api->add_subview(ctx, container, to);
  }
  th_animation_options options = {sizeof options, 0, transition_duration(self, ctx), 0.0,
                                   th_timing_curve(TH_CURVE_EASE_IN_OUT)};
  api->animate(ctx, &options, fade_in, complete, self);
}

// ---- slide --------------------------------------------------------------------------------------------

static void slide_to_end(th_context ctx, void *self_) {
  instance *self = self_;
  const th_host_api *api = self->api;
  const char *operation = "present";
  api->operation(ctx, &operation);
  th_view container, moving;
  th_rect bounds;
  api->container_view(ctx, &container);
  api->get_rect(ctx, container, TH_PROP_BOUNDS, &bounds);
  bool dismissing = operation[0] == 'd';
  api->view_for_key(ctx, dismissing ? TH_KEY_FROM : TH_KEY_TO, &moving);
  if (moving.id == 0) return;
  th_rect frame;
  api->get_rect(ctx, moving, TH_PROP_FRAME, &frame);
  frame.y = dismissing ? bounds.height : 0.0;
  api->set_rect(ctx, moving, TH_PROP_FRAME, frame);
}

static void slide_animate(void *self_, th_context ctx) {
  instance *self = self_;
  const th_host_api *api = self->api;
  const char *operation = "present";
  api->operation(ctx, &operation);
  th_view container, to;
  th_rect bounds;
  api->container_view(ctx, &container);
  api->get_rect(ctx, container, TH_PROP_BOUNDS, &bounds);
  if (operation[0] != 'd' && api->view_for_key(ctx, TH_KEY_TO, &to) == TH_OK && to.id != 0) {
    th_rect start = {0.0, bounds.height, bounds.width, bounds.height};
    api->set_rect(ctx, to, TH_PROP_FRAME, start);
    api->add_subview(ctx, container, to);
  }
  th_animation_options options = {sizeof options, 0, transition_duration(self, ctx), 0.0,
                                   th_timing_spring(1.0, 0.0)};
  api->animate(ctx, &options, slide_to_end, complete, self);
}

// ---- descriptors --------------------------------------------------------------------------------------

static const char *const direction_options[] = {"up", "down", "left", "right", NULL};

static const th_param_descriptor p_duration = {
    .struct_size = sizeof(th_param_descriptor), .type = TH_PARAM_NUMBER, .name = "duration",
    .doc = "Length of the transition in seconds.", .default_number = 0.4, .min = 0.0, .max = 10.0};
static const th_param_descriptor p_dims = {.struct_size = sizeof(th_param_descriptor), .type = TH_PARAM_BOOL,
                                           .name = "dims", .doc = "Dim the presenter.", .default_bool = true};
static const th_param_descriptor p_direction = {
    .struct_size = sizeof(th_param_descriptor), .type = TH_PARAM_ENUM, .name = "direction",
    .doc = "Where the view comes from.", .default_string = "down", .enum_options = direction_options};
static const th_param_descriptor p_tint = {.struct_size = sizeof(th_param_descriptor), .type = TH_PARAM_COLOR,
                                           .name = "tint", .default_color = {0.0, 0.0, 0.0, 0.4}};
static const th_param_descriptor p_label = {.struct_size = sizeof(th_param_descriptor),
                                            .type = TH_PARAM_STRING, .name = "label", .default_string = ""};
static const th_param_descriptor p_origin = {.struct_size = sizeof(th_param_descriptor), .type = TH_PARAM_POINT,
                                             .name = "origin", .default_point = {10.0, -20.0}};
static const th_param_descriptor p_hole = {.struct_size = sizeof(th_param_descriptor), .type = TH_PARAM_RECT,
                                           .name = "hole", .doc = "Unbounded below.",
                                           .default_rect = {1.0, 2.0, 30.0, 40.0}};
static const th_param_descriptor p_overshoot = {
    .struct_size = sizeof(th_param_descriptor), .type = TH_PARAM_NUMBER, .name = "overshoot",
    .default_number = -3.0, .min = -INFINITY, .max = 0.0};

static const th_param_descriptor *const fade_params[] = {&p_duration, &p_dims,   &p_direction, &p_tint,
                                                         &p_label,    &p_origin, &p_hole,      &p_overshoot};

static const th_animator_descriptor fade = {
    .struct_size = sizeof(th_animator_descriptor),
    .id = "fade",
    .name = "Fade",
    .description = "Cross-fades the presented view in.",
    .operations = NULL,  // every operation
    .param_count = sizeof fade_params / sizeof fade_params[0],
    .params = fade_params,
    .create = create,
    .destroy = destroy,
    .transition_duration = transition_duration,
    .animate_transition = fade_animate,
};

static const char *const slide_operations[] = {"present", "dismiss", NULL};

static const th_animator_descriptor slide = {
    .struct_size = sizeof(th_animator_descriptor),
    .id = "slide",
    .name = "Slide",
    .operations = slide_operations,
    .create = create,
    .destroy = destroy,
    .transition_duration = transition_duration,
    .animate_transition = slide_animate,
};

static const th_animator_descriptor *const animators[] = {&fade, &slide};

static bool init(const th_host_info *host) {
  // init may run more than once for one loaded library: set up on the first call only.
  if (g_init_count++ == 0) g_host = host;
  char line[64];
  snprintf(line, sizeof line, "minimal init #%d", g_init_count);
  log_message(host->plugin_context, TH_LOG_INFO, line);
  return true;
}

static void deinit(void) {
  log_message(g_host->plugin_context, TH_LOG_INFO, "minimal deinit");
  if (--g_init_count == 0) g_host = NULL;
}

static const th_plugin_descriptor plugin = {
    .struct_size = sizeof(th_plugin_descriptor),
    .abi_major = TH_ABI_VERSION_MAJOR,
    .abi_minor = TH_ABI_VERSION_MINOR,
    .id = "com.example.test.minimal",
    .name = "Minimal test plugin",
    .version = "1.0.0",
    .vendor = "transition-host tests",
    .description = "Loader fixture: two animators, one parameter of each type.",
    .init = init,
    .deinit = deinit,
    .animator_count = 2,
    .animators = animators,
};

TH_EXPORT const th_plugin_descriptor *th_plugin_entry(const th_host_info *host) {
  (void)host;
  return &plugin;
}
