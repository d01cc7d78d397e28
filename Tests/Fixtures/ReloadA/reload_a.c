// Hot reload, generation A: same plugin id as ReloadB, transition_duration 0.25 s.
#define FIXTURE_PLUGIN_ID "com.example.test.reload"
#define FIXTURE_TAG "A"
#define FIXTURE_DURATION 0.25
#include "../Shared/simple_plugin.h"
