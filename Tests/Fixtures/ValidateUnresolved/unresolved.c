// TestPluginValidateUnresolved: calls a function that no library defines. Linked without -z defs, the library
// builds, and dlopen with RTLD_LAZY would even load it (the call would fail later, mid-transition): RTLD_NOW
// refuses it at once, which is what scan-rtld-now reports.
#include "../ValidateShared/fade_core.h"

extern void th_validator_fixture_function_nobody_defines(void);

static void unresolved_animate(void *self, th_context ctx) {
  th_validator_fixture_function_nobody_defines();
  fade_animate_transition(self, ctx);
}

static const th_animator_descriptor fade = {
    .struct_size = sizeof(th_animator_descriptor),
    .id = "fade",
    .name = "Fade",
    .operations = present_only,
    .create = fade_create,
    .destroy = fade_destroy,
    .transition_duration = fade_transition_duration,
    .animate_transition = unresolved_animate,
};
static const th_animator_descriptor *const animators[] = {&fade};
static enum fault fault_of(const th_animator_descriptor *animator) {
  (void)animator;
  return FAULT_NONE;
}
FADE_PLUGIN("com.example.test.validate.unresolved", "Validator fixture: unresolved symbol", animators)
