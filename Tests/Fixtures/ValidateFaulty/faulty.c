// TestPluginValidateFaulty: one animator per broken rule, each failing its own validator check, and "sound",
// which breaks nothing (present and dismiss).
#include "../ValidateShared/fade_core.h"

static const char *const present_dismiss[] = {"present", "dismiss", NULL};

FADE_ANIMATOR(sound, "sound", "Sound fade", present_dismiss);
FADE_ANIMATOR(never_completes, "never-completes", "Never completes", present_only);
FADE_ANIMATOR(completes_twice, "completes-twice", "Completes twice", present_only);
FADE_ANIMATOR(ignores_cancel, "ignores-cancel", "Ignores cancel", present_only);
FADE_ANIMATOR(nan_alpha, "nan-alpha", "Sets NaN", present_only);
FADE_ANIMATOR(nondeterministic, "nondeterministic", "Nondeterministic", present_only);
FADE_ANIMATOR(prints, "prints", "Prints to stdout", present_only);
FADE_ANIMATOR(negative_duration, "negative-duration", "Negative duration", present_only);
FADE_ANIMATOR(any_extension, "any-extension", "Answers every extension id", present_only);

static const th_animator_descriptor *const animators[] = {
    &sound, &never_completes, &completes_twice, &ignores_cancel, &nan_alpha, &nondeterministic, &prints,
    &negative_duration, &any_extension};

static enum fault fault_of(const th_animator_descriptor *animator) {
  static const enum fault faults[] = {FAULT_NONE,      FAULT_NEVER_COMPLETES,  FAULT_COMPLETES_TWICE,
                                      FAULT_IGNORES_CANCEL, FAULT_NAN_ALPHA,  FAULT_NONDETERMINISTIC,
                                      FAULT_PRINTS,    FAULT_NEGATIVE_DURATION, FAULT_ANY_EXTENSION};
  for (size_t i = 0; i < sizeof animators / sizeof animators[0]; i++) {
    if (animators[i] == animator) return faults[i];
  }
  return FAULT_NONE;
}

FADE_PLUGIN("com.example.test.validate.faulty", "Validator fixture: faulty", animators)
