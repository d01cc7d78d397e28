// Hot reload, generation A: same plugin id as ReloadB, transition_duration 0.25 s, moves the to view to x = 100.
#define FIXTURE_PLUGIN_ID "com.example.test.reload"
#define FIXTURE_TAG "A"
#define FIXTURE_DURATION 0.25
#define FIXTURE_FINAL_X 100.0
#include "../Shared/simple_plugin.h"
