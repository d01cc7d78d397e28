// TestPluginCoreAnimationC: ABI 1.3's "th.core-animation/1" from C. "slide" moves the to view in with a
// CABasicAnimation of position.y (1200 -> 400, linear, 1 s) whose delegate completes the transition, animates its
// cornerRadius with keyframes (0, 20, 0), its opacity with a spring (m 1, k 100, c 20) and the from view's
// transform.scale in a group, all inside a CATransaction whose completion is logged; "snapback" animates the from
// view's position.x without setting the model (the trap validate warns about); "misuse" makes one bad call of
// each kind and logs the status ("<call> -> <status>"). CoreAnimationABITests checks them.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "th_plugin.h"

struct instance {
  const th_host_api *api;
  const th_host_core_animation *ca;
};
#define FIXTURE_INIT(self, host) ((self)->ca = (host)->api->get_extension(TH_EXT_CORE_ANIMATION))
#include "../Shared/extension_fixture.h"

static th_ca_value number(double v) {
  th_ca_value value = {0};
  value.kind = TH_CA_VALUE_NUMBER;
  value.numbers[0] = v;
  return value;
}

static th_ca_animation basic(instance *self, th_context ctx, const char *key_path, double from, double to) {
  th_ca_animation a = {0};
  self->ca->create(ctx, TH_CA_BASIC, key_path, &a);
  th_ca_value f = number(from), t = number(to);
  self->ca->set_value(ctx, a, TH_CA_FROM_VALUE, &f);
  self->ca->set_value(ctx, a, TH_CA_TO_VALUE, &t);
  th_ca_media_timing timing = th_ca_media_timing_default();
  timing.duration = 1;
  self->ca->set_timing(ctx, a, &timing);
  return a;
}

// ---- slide ----------------------------------------------------------------------------------------------

static void did_start(th_context ctx, void *self_) {
  instance *self = self_;
  self->api->log(ctx, TH_LOG_INFO, "slide started");
}

static void did_stop(th_context ctx, bool finished, void *self_) {
  instance *self = self_;
  bool cancelled = false;
  self->api->transition_was_cancelled(ctx, &cancelled);
  self->api->log(ctx, TH_LOG_INFO, finished ? "slide stopped finished" : "slide stopped early");
  self->api->complete_transition(ctx, !cancelled);
}

static void transaction_done(th_context ctx, void *self_) {
  instance *self = self_;
  self->api->log(ctx, TH_LOG_INFO, "transaction done");
}

static void slide_animate(void *self_, th_context ctx) {
  instance *self = self_;
  th_view container, from, to;
  self->api->container_view(ctx, &container);
  // The from view stays the presenter's (view_for_key gives none when presenting): its controller's view.
  self->api->view_controller_for_key(ctx, TH_KEY_FROM, &from);
  self->api->view_for_key(ctx, TH_KEY_TO, &to);
  self->api->add_subview(ctx, container, to);
  self->ca->transaction_begin(ctx);
  self->ca->transaction_set_completion(ctx, transaction_done, self);

  th_ca_animation slide = basic(self, ctx, "position.y", 1200, 400);
  th_ca_delegate delegate = {sizeof(th_ca_delegate), 0, did_start, did_stop, self};
  self->ca->set_delegate(ctx, slide, &delegate);
  self->ca->add(ctx, to, slide, "slide");

  th_ca_animation corners = {0};
  self->ca->create(ctx, TH_CA_KEYFRAME, "cornerRadius", &corners);
  th_ca_value values[3] = {number(0), number(20), number(0)};
  self->ca->set_keyframes(ctx, corners, values, 3, NULL, 0, NULL, 0, TH_CALCULATION_LINEAR);
  th_ca_media_timing timing = th_ca_media_timing_default();
  timing.duration = 1;
  self->ca->set_timing(ctx, corners, &timing);
  self->ca->add(ctx, to, corners, "corners");

  th_ca_animation fade = {0};
  self->ca->create(ctx, TH_CA_SPRING, "opacity", &fade);
  self->ca->set_spring(ctx, fade, 1, 100, 20, 0, false);
  th_ca_value zero = number(0), one = number(1);
  self->ca->set_value(ctx, fade, TH_CA_FROM_VALUE, &zero);
  self->ca->set_value(ctx, fade, TH_CA_TO_VALUE, &one);
  double settling = 0;
  self->ca->get_settling_duration(ctx, fade, &settling);
  char line[64];
  snprintf(line, sizeof line, "settling %.1f", settling);
  self->api->log(ctx, TH_LOG_INFO, line);
  self->ca->add(ctx, to, fade, "fade");

  th_ca_animation group = {0};
  self->ca->create(ctx, TH_CA_GROUP, NULL, &group);
  th_ca_animation shrink = basic(self, ctx, "transform.scale", 1, 0.9);
  th_ca_media_timing child = th_ca_media_timing_default();
  self->ca->set_timing(ctx, shrink, &child);  // duration 0: the group's
  self->ca->add_child(ctx, group, shrink);
  th_ca_media_timing group_timing = th_ca_media_timing_default();
  group_timing.duration = 0.5;
  self->ca->set_timing(ctx, group, &group_timing);
  self->ca->add(ctx, from, group, "shrink");
  self->ca->transaction_commit(ctx);

  size_t keys = 0;
  self->ca->get_animation_key_count(ctx, to, &keys);
  char key[16];
  size_t length = 0;
  self->ca->get_animation_key(ctx, to, 2, key, sizeof key, &length);
  snprintf(line, sizeof line, "keys %zu, third %s", keys, key);
  self->api->log(ctx, TH_LOG_INFO, line);
}

// ---- snapback -------------------------------------------------------------------------------------------

static void snap_done(th_context ctx, void *self_) {
  instance *self = self_;
  self->api->complete_transition(ctx, true);
}

static void snapback_animate(void *self_, th_context ctx) {
  instance *self = self_;
  th_view container, to;
  self->api->container_view(ctx, &container);
  self->api->view_for_key(ctx, TH_KEY_TO, &to);
  self->api->add_subview(ctx, container, to);
  self->ca->transaction_begin(ctx);
  self->ca->transaction_set_completion(ctx, snap_done, self);
  // position.x 0 -> 1000 with the model left where it is: at the end the view jumps back.
  self->ca->add(ctx, to, basic(self, ctx, "position.x", 0, 1000), "away");
  self->ca->transaction_commit(ctx);
}

// ---- misuse ---------------------------------------------------------------------------------------------

static void misuse_animate(void *self_, th_context ctx) {
  instance *self = self_;
  th_view to;
  self->api->view_for_key(ctx, TH_KEY_TO, &to);
  th_ca_animation bad = {0};
  note(self, ctx, "add unknown key path", self->ca->add(ctx, to, basic(self, ctx, "wobble", 0, 1), NULL));
  th_ca_animation keyframes = {0};
  self->ca->create(ctx, TH_CA_KEYFRAME, "opacity", &keyframes);
  th_ca_value one = number(1);
  note(self, ctx, "set_value on keyframes", self->ca->set_value(ctx, keyframes, TH_CA_TO_VALUE, &one));
  bad.id = 12345;
  note(self, ctx, "add never issued", self->ca->add(ctx, to, bad, "x"));
  th_ca_value point = {0};
  point.kind = TH_CA_VALUE_POINT;
  th_ca_animation mismatch = basic(self, ctx, "opacity", 0, 1);
  self->ca->set_value(ctx, mismatch, TH_CA_TO_VALUE, &point);
  note(self, ctx, "add wrong value type", self->ca->add(ctx, to, mismatch, NULL));
  th_ca_value nan = number(0.0 / 0.0);
  note(self, ctx, "set_value NaN", self->ca->set_value(ctx, mismatch, TH_CA_FROM_VALUE, &nan));
  note(self, ctx, "transaction_commit without begin", self->ca->transaction_commit(ctx));
  th_ca_layer_timing timing = {0, 1.0 / 0.0, 0};
  note(self, ctx, "set_layer_timing infinite speed", self->ca->set_layer_timing(ctx, to, &timing));
  note(self, ctx, "copy_animation missing", self->ca->copy_animation(ctx, to, "none", &bad));
  self->api->complete_transition(ctx, true);
}

static const th_animator_descriptor slide = {
    .struct_size = sizeof(th_animator_descriptor),
    .id = "slide",
    .name = "Core Animation slide (C)",
    .create = create,
    .destroy = destroy,
    .transition_duration = one_second,
    .animate_transition = slide_animate,
};

static const th_animator_descriptor snapback = {
    .struct_size = sizeof(th_animator_descriptor),
    .id = "snapback",
    .name = "Core Animation snap-back (C)",
    .create = create,
    .destroy = destroy,
    .transition_duration = one_second,
    .animate_transition = snapback_animate,
};

static const th_animator_descriptor misuse = {
    .struct_size = sizeof(th_animator_descriptor),
    .id = "misuse",
    .name = "Core Animation misuse (C)",
    .create = create,
    .destroy = destroy,
    .transition_duration = one_second,
    .animate_transition = misuse_animate,
};

static const th_animator_descriptor *const animators[] = {&slide, &snapback, &misuse};

static const th_plugin_descriptor plugin = {
    .struct_size = sizeof(th_plugin_descriptor),
    .abi_major = TH_ABI_VERSION_MAJOR,
    .abi_minor = TH_ABI_VERSION_MINOR,
    .id = "com.example.test.coreanimation.c",
    .name = "Core Animation (C)",
    .version = "1.0.0",
    .animator_count = 3,
    .animators = animators,
};

TH_EXPORT const th_plugin_descriptor *th_plugin_entry(const th_host_info *host) {
  (void)host;
  return &plugin;
}
