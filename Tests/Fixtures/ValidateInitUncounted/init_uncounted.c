// TestPluginValidateInitUncounted: init and deinit without the counter the header asks for. The first deinit
// frees the shared state although the library is still loaded once, so the plugin stops working (create then
// returns NULL): the validator's init-twice check must fail.
#include "../ValidateShared/fade_core.h"

static int *g_state;

static void *uncounted_create(const th_animator_descriptor *animator, const th_host_info *host) {
  if (g_state == NULL) return NULL;  // torn down
  return fade_create(animator, host);
}

static const th_animator_descriptor fade = {
    .struct_size = sizeof(th_animator_descriptor),
    .id = "fade",
    .name = "Fade",
    .operations = present_only,
    .create = uncounted_create,
    .destroy = fade_destroy,
    .transition_duration = fade_transition_duration,
    .animate_transition = fade_animate_transition,
};
static const th_animator_descriptor *const animators[] = {&fade};

static enum fault fault_of(const th_animator_descriptor *animator) {
  (void)animator;
  return FAULT_NONE;
}

static bool init(const th_host_info *host) {
  (void)host;
  free(g_state);  // the bug: set up on every call instead of the first
  g_state = calloc(1, sizeof *g_state);
  return g_state != NULL;
}

static void deinit(void) {
  free(g_state);  // the bug: tear down on every call instead of the last
  g_state = NULL;
}

static const th_plugin_descriptor plugin = {
    .struct_size = sizeof(th_plugin_descriptor),
    .abi_major = TH_ABI_VERSION_MAJOR,
    .abi_minor = TH_ABI_VERSION_MINOR,
    .id = "com.example.test.validate.inituncounted",
    .name = "Validator fixture: init without a counter",
    .version = "1.0.0",
    .init = init,
    .deinit = deinit,
    .animator_count = 1,
    .animators = animators,
};

TH_EXPORT const th_plugin_descriptor *th_plugin_entry(const th_host_info *host) {
  (void)host;
  return &plugin;
}
