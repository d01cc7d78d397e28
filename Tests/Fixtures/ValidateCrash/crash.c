// TestPluginValidateCrash: animate_transition writes through a NULL pointer (SIGSEGV). The validator must
// report every check that runs a transition as crashed, and go on.
#include "../ValidateShared/fade_core.h"

FADE_ANIMATOR(crash, "crash", "Crashes", present_only);
static const th_animator_descriptor *const animators[] = {&crash};
static enum fault fault_of(const th_animator_descriptor *animator) {
  (void)animator;
  return FAULT_CRASHES;
}
FADE_PLUGIN("com.example.test.validate.crash", "Validator fixture: crash", animators)
