// TestPluginLayersC: ABI 1.3's layers from C ("th.layers/1" and the layer th_property values).
//
// "reveal" (1 s, linear) adds the to view and gives it, as a card: a corner radius 0 -> 20 (an animation block), a
// 2 pt red border that turns blue, a shadow (radius 4, offset (0, 6)) whose opacity goes 0 -> 0.5 along a
// shadowPath that follows the corners (CABasicAnimations: a block does not animate borders and shadows); a
// CAShapeLayer mask "reveal" whose circle grows from radius 0 at the container's centre to the container's
// half-diagonal; a CAGradientLayer "shade" (radial, black -> clear); a plain "badge" inserted below it; a shape
// layer "ring" whose stroke draws on (strokeEnd 0 -> 1) with a dash pattern (CABasicAnimations too). It logs the sublayers
// it reads back. "misuse" makes one bad call of each kind and logs "<call> -> <status>". LayerABITests checks
// both; LayerProtocolTests drives "reveal" over the protocol in both isolation modes.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "th_plugin.h"

struct instance {
  const th_host_api *api;
  const th_host_layers *layers;
  const th_host_core_animation *ca;
  th_rect container;
  th_view to, mask, ring;
};
#define FIXTURE_INIT(self, host)                                  \
  ((self)->layers = (host)->api->get_extension(TH_EXT_LAYERS), \
   (self)->ca = (host)->api->get_extension(TH_EXT_CORE_ANIMATION))
#include "../Shared/extension_fixture.h"

/* Sets a path property to a shape built by the host. */
static th_status set_shape(instance *self, th_context ctx, th_view layer, th_property property,
                           const th_path_shape *shape) {
  th_path_element elements[TH_PATH_SHAPE_MAX_ELEMENTS];
  uint32_t count = 0;
  th_status status = self->layers->path_shape(shape, elements, TH_PATH_SHAPE_MAX_ELEMENTS, &count);
  if (status != TH_OK) return status;
  th_path path = {.elements = elements, .count = count};
  return self->layers->set_path(ctx, layer, property, &path);
}

static th_path_shape circle(th_point center, double radius) {
  th_path_shape s = {.struct_size = sizeof s, .kind = TH_SHAPE_ELLIPSE};
  s.rect = (th_rect){center.x - radius, center.y - radius, 2 * radius, 2 * radius};
  return s;
}

static th_path_shape rounded(th_rect rect, double radius) {
  th_path_shape s = {.struct_size = sizeof s, .kind = TH_SHAPE_ROUNDED_RECT, .rect = rect};
  s.top_left_radius = s.top_right_radius = s.bottom_right_radius = s.bottom_left_radius = radius;
  return s;
}

/* An animation block animates the view's own keys (cornerRadius here); borders, shadows and shape layers are not
 * among them (UIKit's rule), so those animate with CABasicAnimations below. */
static void reveal_animations(th_context ctx, void *self_) {
  instance *self = self_;
  self->api->set_number(ctx, self->to, TH_PROP_CORNER_RADIUS, 20);
}

/* A th_ca_value holding a shape built by the host (its elements in `storage`, which must outlive the value). */
static th_ca_value shape_value(instance *self, const th_path_shape *shape,
                               th_ca_path_element storage[TH_PATH_SHAPE_MAX_ELEMENTS]) {
  th_path_element elements[TH_PATH_SHAPE_MAX_ELEMENTS];
  uint32_t count = 0;
  th_ca_value value = {.kind = TH_CA_VALUE_NO_PATH};
  if (self->layers->path_shape(shape, elements, TH_PATH_SHAPE_MAX_ELEMENTS, &count) != TH_OK) return value;
  for (uint32_t i = 0; i < count; i++) {
    // th_path_element_kind counts from 1, th_ca_path_element_kind from 0, in the same order.
    storage[i].kind = (th_ca_path_element_kind)(elements[i].kind - TH_PATH_MOVE);
    storage[i].reserved = 0;
    memcpy(storage[i].points, elements[i].points, sizeof storage[i].points);
  }
  value.kind = TH_CA_VALUE_PATH;
  value.path = storage;
  value.path_count = count;
  return value;
}

static th_ca_value color_value(th_color c) {
  th_ca_value value = {.kind = TH_CA_VALUE_COLOR};
  value.numbers[0] = c.r;
  value.numbers[1] = c.g;
  value.numbers[2] = c.b;
  value.numbers[3] = c.a;
  return value;
}

static th_ca_value number_value(double v) {
  th_ca_value value = {.kind = TH_CA_VALUE_NUMBER};
  value.numbers[0] = v;
  return value;
}

/* A 1 s linear CABasicAnimation of `key_path` from `from` to `to`, added under its key path. */
static void add_basic(instance *self, th_context ctx, th_view layer, const char *key_path, th_ca_value from,
                      th_ca_value to) {
  th_ca_animation a = {0};
  if (self->ca->create(ctx, TH_CA_BASIC, key_path, &a) != TH_OK) return;
  self->ca->set_value(ctx, a, TH_CA_FROM_VALUE, &from);
  self->ca->set_value(ctx, a, TH_CA_TO_VALUE, &to);
  th_ca_media_timing timing = th_ca_media_timing_default();
  timing.duration = 1;
  self->ca->set_timing(ctx, a, &timing);
  self->ca->add(ctx, layer, a, key_path);
}

/* The model gets the end values; CABasicAnimations show the way there (nothing snaps back when they end). */
static void reveal_layer_animations(instance *self, th_context ctx, th_rect bounds, const th_path_shape *square,
                                    const th_path_shape *dot) {
  const th_host_api *api = self->api;
  th_color red = {1, 0, 0, 1}, blue = {0, 0, 1, 1};
  api->set_color(ctx, self->to, TH_PROP_BORDER_COLOR, &blue);
  add_basic(self, ctx, self->to, "borderColor", color_value(red), color_value(blue));
  api->set_number(ctx, self->to, TH_PROP_SHADOW_OPACITY, 0.5);
  add_basic(self, ctx, self->to, "shadowOpacity", number_value(0), number_value(0.5));
  th_path_shape corners = rounded((th_rect){0, 0, bounds.width, bounds.height}, 20);
  set_shape(self, ctx, self->to, TH_PROP_SHADOW_PATH, &corners);
  th_ca_path_element from_path[TH_PATH_SHAPE_MAX_ELEMENTS], to_path[TH_PATH_SHAPE_MAX_ELEMENTS];
  add_basic(self, ctx, self->to, "shadowPath", shape_value(self, square, from_path),
            shape_value(self, &corners, to_path));
  double w = self->container.width, h = self->container.height;
  th_path_shape full = circle((th_point){w / 2, h / 2}, sqrt(w * w + h * h) / 2);
  set_shape(self, ctx, self->mask, TH_PROP_PATH, &full);
  add_basic(self, ctx, self->mask, "path", shape_value(self, dot, from_path), shape_value(self, &full, to_path));
  api->set_number(ctx, self->ring, TH_PROP_STROKE_END, 1);
  add_basic(self, ctx, self->ring, "strokeEnd", number_value(0), number_value(1));
}

static void reveal_completed(th_context ctx, bool finished, void *self_) {
  instance *self = self_;
  (void)finished;
  bool cancelled = false;
  self->api->transition_was_cancelled(ctx, &cancelled);
  self->api->complete_transition(ctx, !cancelled);
}

static void log_sublayers(instance *self, th_context ctx, th_view layer) {
  char line[256] = "sublayers:";
  uint32_t count = 0;
  self->layers->sublayer_count(ctx, layer, &count);
  for (uint32_t i = 0; i < count; i++) {
    th_view sub;
    const char *id = "?";
    if (self->layers->sublayer_at(ctx, layer, i, &sub) == TH_OK) self->api->view_id(ctx, sub, &id);
    strncat(line, " ", sizeof line - strlen(line) - 1);
    strncat(line, id, sizeof line - strlen(line) - 1);
  }
  self->api->log(ctx, TH_LOG_INFO, line);
}

static void reveal_animate(void *self_, th_context ctx) {
  instance *self = self_;
  const th_host_api *api = self->api;
  const th_host_layers *layers = self->layers;
  th_view container;
  api->container_view(ctx, &container);
  api->get_rect(ctx, container, TH_PROP_BOUNDS, &self->container);
  api->view_for_key(ctx, TH_KEY_TO, &self->to);
  api->add_subview(ctx, container, self->to);
  th_view to = self->to;
  th_rect bounds;
  api->get_rect(ctx, to, TH_PROP_BOUNDS, &bounds);

  api->set_number(ctx, to, TH_PROP_BORDER_WIDTH, 2);
  th_color red = {1, 0, 0, 1};
  api->set_color(ctx, to, TH_PROP_BORDER_COLOR, &red);
  api->set_number(ctx, to, TH_PROP_SHADOW_RADIUS, 4);
  api->set_point(ctx, to, TH_PROP_SHADOW_OFFSET, (th_point){0, 6});
  th_path_shape square = rounded((th_rect){0, 0, bounds.width, bounds.height}, 0);
  set_shape(self, ctx, to, TH_PROP_SHADOW_PATH, &square);
  api->set_number(ctx, to, TH_PROP_MASKED_CORNERS, TH_CORNER_MIN_X_MIN_Y | TH_CORNER_MAX_X_MIN_Y);

  // The mask: a point at the container's centre (in the to view's bounds coordinates: the same, its frame is
  // the container's) that grows to cover it.
  layers->make_layer(ctx, TH_LAYER_SHAPE, "reveal", &self->mask);
  api->set_rect(ctx, self->mask, TH_PROP_FRAME, bounds);
  th_path_shape dot = circle((th_point){self->container.width / 2, self->container.height / 2}, 0);
  set_shape(self, ctx, self->mask, TH_PROP_PATH, &dot);
  layers->set_mask(ctx, to, self->mask);

  th_view shade, badge;
  layers->make_layer(ctx, TH_LAYER_GRADIENT, "shade", &shade);
  api->set_rect(ctx, shade, TH_PROP_FRAME, (th_rect){0, 0, bounds.width, bounds.height / 2});
  th_color colors[2] = {{0, 0, 0, 1}, {0, 0, 0, 0}};
  th_gradient gradient = {
      .struct_size = sizeof gradient, .count = 2, .colors = colors, .start_point = {0.5, 0.5}, .end_point = {1, 1}};
  api->set_gradient(ctx, shade, TH_PROP_GRADIENT, &gradient);
  api->set_number(ctx, shade, TH_PROP_GRADIENT_TYPE, TH_GRADIENT_RADIAL);
  layers->add_sublayer(ctx, to, shade);

  layers->make_layer(ctx, TH_LAYER_PLAIN, "badge", &badge);
  api->set_rect(ctx, badge, TH_PROP_BOUNDS, (th_rect){0, 0, 40, 40});
  api->set_point(ctx, badge, TH_PROP_POSITION, (th_point){50, 50});
  th_color green = {0, 1, 0, 1};
  api->set_color(ctx, badge, TH_PROP_BACKGROUND_COLOR, &green);
  layers->insert_sublayer_below(ctx, to, badge, shade);

  layers->make_layer(ctx, TH_LAYER_SHAPE, "ring", &self->ring);
  api->set_rect(ctx, self->ring, TH_PROP_FRAME, (th_rect){100, 100, 100, 100});
  th_path_shape arc = {.struct_size = sizeof arc, .kind = TH_SHAPE_ARC, .center = {50, 50}, .radius = 40};
  arc.start_angle = 0;
  arc.end_angle = M_PI;
  arc.clockwise = true;
  set_shape(self, ctx, self->ring, TH_PROP_PATH, &arc);
  api->set_color(ctx, self->ring, TH_PROP_FILL_COLOR, NULL);
  th_color white = {1, 1, 1, 1};
  api->set_color(ctx, self->ring, TH_PROP_STROKE_COLOR, &white);
  api->set_number(ctx, self->ring, TH_PROP_LINE_WIDTH, 3);
  api->set_number(ctx, self->ring, TH_PROP_STROKE_END, 0);
  double dashes[2] = {4, 2};
  layers->set_line_dash_pattern(ctx, self->ring, dashes, 2);
  api->set_number(ctx, self->ring, TH_PROP_FILL_RULE, TH_FILL_RULE_EVEN_ODD);
  layers->insert_sublayer_at(ctx, to, self->ring, 99);
  log_sublayers(self, ctx, to);
  reveal_layer_animations(self, ctx, bounds, &square, &dot);

  th_animation_options options = {.struct_size = sizeof options, .duration = 1};
  options.timing.kind = TH_TIMING_CURVE;
  options.timing.curve = TH_CURVE_LINEAR;
  api->animate(ctx, &options, reveal_animations, reveal_completed, self);
}

// ---- misuse ---------------------------------------------------------------------------------------------

static void misuse_animate(void *self_, th_context ctx) {
  instance *self = self_;
  const th_host_api *api = self->api;
  const th_host_layers *l = self->layers;
  th_view container, from, layer = {0}, other = {0};
  api->container_view(ctx, &container);
  api->view_controller_for_key(ctx, TH_KEY_FROM, &from);
  note(self, ctx, "make_layer(kind 9)", l->make_layer(ctx, (th_layer_kind)9, NULL, &layer));
  note(self, ctx, "make_layer(NULL out)", l->make_layer(ctx, TH_LAYER_PLAIN, NULL, NULL));
  note(self, ctx, "make_layer", l->make_layer(ctx, TH_LAYER_PLAIN, "spot", &layer));
  l->make_layer(ctx, TH_LAYER_PLAIN, "other", &other);
  note(self, ctx, "add_sublayer(a view)", l->add_sublayer(ctx, container, from));
  note(self, ctx, "add_sublayer", l->add_sublayer(ctx, from, layer));
  note(self, ctx, "add_sublayer(into a layer)", l->add_sublayer(ctx, layer, other));
  note(self, ctx, "add_sublayer(cycle)", l->add_sublayer(ctx, other, layer));
  note(self, ctx, "insert_sublayer_below(not a sublayer)", l->insert_sublayer_below(ctx, from, other, container));
  note(self, ctx, "set_mask(container)", l->set_mask(ctx, from, container));
  note(self, ctx, "set_mask(own superlayer)", l->set_mask(ctx, layer, from));
  note(self, ctx, "set_layer_class(a layer)", l->set_layer_class(ctx, layer, TH_LAYER_SHAPE));
  note(self, ctx, "set_number(shadowOpacity 2)", api->set_number(ctx, from, TH_PROP_SHADOW_OPACITY, 2));
  note(self, ctx, "set_number(borderWidth -1)", api->set_number(ctx, from, TH_PROP_BORDER_WIDTH, -1));
  note(self, ctx, "set_number(maskedCorners 16)", api->set_number(ctx, from, TH_PROP_MASKED_CORNERS, 16));
  note(self, ctx, "set_number(fillRule 0.5)", api->set_number(ctx, from, TH_PROP_FILL_RULE, 0.5));
  note(self, ctx, "set_number(borderColor)", api->set_number(ctx, from, TH_PROP_BORDER_COLOR, 1));
  note(self, ctx, "set_bool(shadowRadius)", api->set_bool(ctx, from, TH_PROP_SHADOW_RADIUS, true));
  note(self, ctx, "set_path(alpha)", l->set_path(ctx, from, TH_PROP_ALPHA, NULL));
  note(self, ctx, "set_path(property 99)", l->set_path(ctx, from, (th_property)99, NULL));
  th_path_element bad[2] = {{.kind = TH_PATH_MOVE}, {.kind = TH_PATH_LINE, .points = {{NAN, 0}}}};
  th_path path = {.elements = bad, .count = 2};
  note(self, ctx, "set_path(NaN point)", l->set_path(ctx, from, TH_PROP_PATH, &path));
  bad[1].kind = (th_path_element_kind)42;
  note(self, ctx, "set_path(kind 42)", l->set_path(ctx, from, TH_PROP_PATH, &path));
  th_path none = {.elements = NULL, .count = 3};
  note(self, ctx, "set_path(NULL elements)", l->set_path(ctx, from, TH_PROP_PATH, &none));
  double dashes[1] = {-1};
  note(self, ctx, "set_line_dash_pattern(-1)", l->set_line_dash_pattern(ctx, from, dashes, 1));
  th_path_shape shape = {.struct_size = sizeof shape, .kind = TH_SHAPE_ARC, .radius = -1};
  th_path_element out[TH_PATH_SHAPE_MAX_ELEMENTS];
  uint32_t count = 0;
  note(self, ctx, "path_shape(radius -1)", l->path_shape(&shape, out, TH_PATH_SHAPE_MAX_ELEMENTS, &count));
  shape.kind = TH_SHAPE_RECT;
  note(self, ctx, "path_shape(capacity 4)", l->path_shape(&shape, out, 4, &count));
  shape.kind = (th_path_shape_kind)7;
  note(self, ctx, "path_shape(kind 7)", l->path_shape(&shape, out, TH_PATH_SHAPE_MAX_ELEMENTS, &count));
  th_view past;
  note(self, ctx, "sublayer_at(past the end)", l->sublayer_at(ctx, from, 5, &past));
  note(self, ctx, "remove_from_superlayer(container)", l->remove_from_superlayer(ctx, container));
  api->complete_transition(ctx, true);
}

// ---- the plugin -----------------------------------------------------------------------------------------

static const th_animator_descriptor reveal = {
    .struct_size = sizeof(th_animator_descriptor),
    .id = "reveal",
    .name = "Circular reveal card (C)",
    .create = create,
    .destroy = destroy,
    .transition_duration = one_second,
    .animate_transition = reveal_animate,
};

static const th_animator_descriptor misuse = {
    .struct_size = sizeof(th_animator_descriptor),
    .id = "misuse",
    .name = "Layer misuse",
    .create = create,
    .destroy = destroy,
    .transition_duration = one_second,
    .animate_transition = misuse_animate,
};

static const th_animator_descriptor *const animators[] = {&reveal, &misuse};

static const th_plugin_descriptor plugin = {
    .struct_size = sizeof(th_plugin_descriptor),
    .abi_major = TH_ABI_VERSION_MAJOR,
    .abi_minor = TH_ABI_VERSION_MINOR,
    .id = "com.example.test.layers.c",
    .name = "Layers (C)",
    .version = "1.0.0",
    .animator_count = 2,
    .animators = animators,
};

TH_EXPORT const th_plugin_descriptor *th_plugin_entry(const th_host_info *host) {
  (void)host;
  return &plugin;
}
