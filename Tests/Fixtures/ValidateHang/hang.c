// TestPluginValidateHang: transition_duration spins forever. The validator must kill the check process at its
// timeout and report the check as failed, and go on.
#include "../ValidateShared/fade_core.h"

FADE_ANIMATOR(hang, "hang", "Hangs", present_only);
static const th_animator_descriptor *const animators[] = {&hang};
static enum fault fault_of(const th_animator_descriptor *animator) {
  (void)animator;
  return FAULT_HANGS;
}
FADE_PLUGIN("com.example.test.validate.hang", "Validator fixture: hang", animators)
