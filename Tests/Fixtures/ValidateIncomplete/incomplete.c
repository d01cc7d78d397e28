// TestPluginValidateIncomplete: a counted init and two animators, the first of which never calls
// complete_transition. The missing completion is run-completes' finding alone: cancel, finish and reverse skip
// it, and init-twice runs its transition with "sound", the animator that completes.
#include "../ValidateShared/fade_core.h"

FADE_ANIMATOR(never_completes, "never-completes", "Never completes", present_only);
FADE_ANIMATOR(sound, "sound", "Sound fade", present_only);

static const th_animator_descriptor *const animators[] = {&never_completes, &sound};

static enum fault fault_of(const th_animator_descriptor *animator) {
  return animator == &never_completes ? FAULT_NEVER_COMPLETES : FAULT_NONE;
}

FADE_PLUGIN_WITH_INIT("com.example.test.validate.incomplete", "Validator fixture: one animator never completes",
                      animators)
