// TestPluginValidateNeverCompletes: a counted init and one animator that never calls complete_transition. No
// transition of it completes even before a second init, so init-twice cannot tell anything and skips;
// run-completes reports the fault.
#include "../ValidateShared/fade_core.h"

FADE_ANIMATOR(never_completes, "never-completes", "Never completes", present_only);

static const th_animator_descriptor *const animators[] = {&never_completes};

static enum fault fault_of(const th_animator_descriptor *animator) {
  (void)animator;
  return FAULT_NEVER_COMPLETES;
}

FADE_PLUGIN_WITH_INIT("com.example.test.validate.nevercompletes", "Validator fixture: never completes", animators)
