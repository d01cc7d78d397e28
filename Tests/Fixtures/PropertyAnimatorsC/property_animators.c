// TestPluginPropertyAnimatorsC: ABI 1.2's property animators from C. "interruptible" vends an interruptible
// animator (the to view's alpha 0 -> 1 on cubic-bezier(0.3, 0.1, 0.2, 1) over 1 s) through
// th_animator_descriptor.interruptible_animator; "misuse" makes one bad call of each kind and logs the status
// ("<call> -> <status>"), then completes. PropertyAnimatorABITests checks both.
#include <stdio.h>
#include <stdlib.h>

#include "th_plugin.h"

struct instance {
  const th_host_api *api;
  const th_host_property_animators *animators;
  th_property_animator animator;
};
#define FIXTURE_INIT(self, host) ((self)->animators = (host)->api->get_extension(TH_EXT_PROPERTY_ANIMATORS))
#include "../Shared/extension_fixture.h"

/* A handle kept from an earlier transition, to show it is stale in the next. */
static th_property_animator g_kept;

// ---- interruptible --------------------------------------------------------------------------------------

static void fade_in(th_context ctx, void *self_) {
  instance *self = self_;
  th_view to;
  self->api->view_for_key(ctx, TH_KEY_TO, &to);
  self->api->set_number(ctx, to, TH_PROP_ALPHA, 1.0);
}

static void completed(th_context ctx, th_animating_position position, bool finished, void *self_) {
  instance *self = self_;
  if (!finished) return;
  self->api->log(ctx, TH_LOG_INFO, position == TH_POSITION_END ? "completion end" : "completion start");
  self->api->complete_transition(ctx, position == TH_POSITION_END);
}

static th_property_animator interruptible_animator(void *self_, th_context ctx) {
  instance *self = self_;
  if (self->animator.id != 0 || self->animators == NULL) return self->animator;
  th_view container, to;
  self->api->container_view(ctx, &container);
  self->api->view_for_key(ctx, TH_KEY_TO, &to);
  self->api->add_subview(ctx, container, to);
  self->api->set_number(ctx, to, TH_PROP_ALPHA, 0.0);
  th_property_animator_timing timing = {.struct_size = sizeof timing};
  timing.timing.kind = TH_TIMING_CURVE;
  timing.timing.curve = TH_CURVE_BEZIER;
  timing.timing.control_points[0] = 0.3;
  timing.timing.control_points[1] = 0.1;
  timing.timing.control_points[2] = 0.2;
  timing.timing.control_points[3] = 1.0;
  if (self->animators->create(ctx, 1.0, &timing, &self->animator) != TH_OK) return (th_property_animator){0};
  self->animators->add_animations(ctx, self->animator, 0.0, fade_in, self);
  self->animators->add_completion(ctx, self->animator, completed, self);
  self->api->log(ctx, TH_LOG_INFO, "interruptible animator made");
  return self->animator;
}

static void interruptible_animate(void *self_, th_context ctx) {
  instance *self = self_;
  th_property_animator animator = interruptible_animator(self, ctx);
  self->animators->start(ctx, animator, 0.0);
}

// ---- misuse ---------------------------------------------------------------------------------------------

static void nothing(th_context ctx, void *self) {
  (void)ctx;
  (void)self;
}

static void unfinished(th_context ctx, th_animating_position position, bool finished, void *self_) {
  instance *self = self_;
  char line[96];
  snprintf(line, sizeof line, "completion finished=%s position=%d", finished ? "true" : "false", (int)position);
  self->api->log(ctx, TH_LOG_INFO, line);
}

static void misuse_animate(void *self_, th_context ctx) {
  instance *self = self_;
  const th_host_property_animators *pa = self->animators;
  if (g_kept.id != 0) note(self, ctx, "start(animator of an ended transition)", pa->start(ctx, g_kept, 0));
  th_property_animator_timing linear = {.struct_size = sizeof linear};
  linear.timing.kind = TH_TIMING_CURVE;
  linear.timing.curve = TH_CURVE_LINEAR;
  th_property_animator a = {0};
  note(self, ctx, "create(NULL timing)", pa->create(ctx, 1, NULL, &a));
  note(self, ctx, "create(duration -1)", pa->create(ctx, -1, &linear, &a));
  th_property_animator_timing small = linear;
  small.struct_size = 8;
  note(self, ctx, "create(struct_size 8)", pa->create(ctx, 1, &small, &a));
  th_property_animator_timing spring = {.struct_size = sizeof spring};
  spring.timing.kind = TH_TIMING_SPRING;
  spring.timing.damping_ratio = 2;
  note(self, ctx, "create(damping ratio 2)", pa->create(ctx, 1, &spring, &a));
  note(self, ctx, "create", pa->create(ctx, 1, &linear, &a));
  g_kept = a;
  th_property_animator bogus = {.id = 0xDEADBEEF};
  note(self, ctx, "pause(made-up animator)", pa->pause(ctx, bogus));
  th_view container;
  self->api->container_view(ctx, &container);
  note(self, ctx, "pause(a view handle)", pa->pause(ctx, (th_property_animator){.id = container.id}));
  note(self, ctx, "add_animations(delay factor 2)", pa->add_animations(ctx, a, 2, nothing, self));
  note(self, ctx, "add_animations(NULL)", pa->add_animations(ctx, a, 0, NULL, self));
  note(self, ctx, "finish(inactive)", pa->finish(ctx, a, TH_POSITION_END));
  note(self, ctx, "stop(inactive)", pa->stop(ctx, a, true));
  note(self, ctx, "set_flag(is_running)", pa->set_flag(ctx, a, TH_ANIMATOR_IS_RUNNING, true));
  note(self, ctx, "add_completion", pa->add_completion(ctx, a, unfinished, self));
  note(self, ctx, "start", pa->start(ctx, a, 0));
  note(self, ctx, "set_flag(is_interruptible, active)", pa->set_flag(ctx, a, TH_ANIMATOR_IS_INTERRUPTIBLE, false));
  note(self, ctx, "continue_animation(duration factor -1)", pa->continue_animation(ctx, a, NULL, -1));
  bool running = false;
  note(self, ctx, "get_flag(is_running)", pa->get_flag(ctx, a, TH_ANIMATOR_IS_RUNNING, &running));
  note(self, ctx, "get_fraction_complete(NULL)", pa->get_fraction_complete(ctx, a, NULL));
  note(self, ctx, "stop(true)", pa->stop(ctx, a, true));
  th_animating_state state = TH_ANIMATING_ACTIVE;
  pa->get_state(ctx, a, &state);
  note(self, ctx, state == TH_ANIMATING_INACTIVE ? "state inactive" : "state not inactive", TH_OK);
  self->api->complete_transition(ctx, true);
}

// ---- the plugin -----------------------------------------------------------------------------------------

static const th_animator_descriptor interruptible = {
    .struct_size = sizeof(th_animator_descriptor),
    .id = "interruptible",
    .name = "Interruptible fade (C)",
    .create = create,
    .destroy = destroy,
    .transition_duration = one_second,
    .animate_transition = interruptible_animate,
    .interruptible_animator = interruptible_animator,
};

static const th_animator_descriptor misuse = {
    .struct_size = sizeof(th_animator_descriptor),
    .id = "misuse",
    .name = "Property animator misuse",
    .create = create,
    .destroy = destroy,
    .transition_duration = one_second,
    .animate_transition = misuse_animate,
};

static const th_animator_descriptor *const animators[] = {&interruptible, &misuse};

static const th_plugin_descriptor plugin = {
    .struct_size = sizeof(th_plugin_descriptor),
    .abi_major = TH_ABI_VERSION_MAJOR,
    .abi_minor = TH_ABI_VERSION_MINOR,
    .id = "com.example.test.propertyanimators.c",
    .name = "Property animators (C)",
    .version = "1.0.0",
    .animator_count = 2,
    .animators = animators,
};

TH_EXPORT const th_plugin_descriptor *th_plugin_entry(const th_host_info *host) {
  (void)host;
  return &plugin;
}
