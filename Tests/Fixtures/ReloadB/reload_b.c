// Hot reload, generation B: same plugin id as ReloadA, transition_duration 0.75 s, moves the to view to x = 300.
#define FIXTURE_PLUGIN_ID "com.example.test.reload"
#define FIXTURE_TAG "B"
#define FIXTURE_DURATION 0.75
#define FIXTURE_FINAL_X 300.0
#include "../Shared/simple_plugin.h"
