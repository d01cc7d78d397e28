// 1005: the animator "probe" has no animate_transition.
#define FIXTURE_ANIMATE NULL
#define FIXTURE_PLUGIN_ID "com.example.test.missingfunction"
#define FIXTURE_TAG "missing-function"
#include "../Shared/simple_plugin.h"

// animate_transition is then unused in this variant; keep the compiler quiet about it.
const void *fixture_unused_animate = (const void *)animate_transition;
